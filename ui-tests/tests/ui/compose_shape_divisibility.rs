// (4,6,8):(2,3,5) ∘ 6:1 is not a layout: 6 does not split as 4 × ...
use cute_static::prelude::*;

fn main() {
    let _r = composition(layout!((4,6,8):(2,3,5)), layout!(6:1));
}
