// A tiler with more modes than the layout, in logical_divide.
use cute_static::prelude::*;

fn main() {
    let _r = logical_divide(layout!((4,8):(1,4)), tile!(2:1, 2:1, 2:1));
}
