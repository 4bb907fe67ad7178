// A tiler with more modes than the layout.
use cute_static::prelude::*;

fn main() {
    let _r = composition(layout!((4,8):(1,4)), tile!(2, 2, 2));
}
