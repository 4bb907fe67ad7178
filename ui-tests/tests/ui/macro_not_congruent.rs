// Shape and stride trees that differ are rejected by the macros.
use cute_static::prelude::*;

fn main() {
    let _rank = layout!((4,8):(1,4,32));
    let _nesting = layout!((4,(3,2)):(2,8));
    type _T = Layout![(4,8):((1,2),4)];
}
