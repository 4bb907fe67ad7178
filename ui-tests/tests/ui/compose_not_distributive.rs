// (4,1):(0,1) ∘ (2,4):(1,1): each mode of B fits on its own, but together
// they reach past the first mode of A.
use cute_static::prelude::*;

fn main() {
    let _r = composition(layout!((4,1):(0,1)), layout!((2,4):(1,1)));
}
