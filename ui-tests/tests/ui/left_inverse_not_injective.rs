// left_inverse of a layout that maps two coordinates to one offset.
use cute_static::prelude::*;

fn main() {
    let _r = left_inverse(layout!((4,4):(1,2)));
}
