// (4,6,8):(2,3,5) ∘ 6:3 is not a layout: stride 3 neither divides nor fits
// the first mode of extent 4.
use cute_static::prelude::*;

fn main() {
    let _r = composition(layout!((4,6,8):(2,3,5)), layout!(6:3));
}
