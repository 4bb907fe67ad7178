// A zero extent is not a shape.
use cute_static::prelude::*;

fn main() {
    let _zero = layout!((4,0):(1,4));
    let _zero_shape = shape!(4, (3, 0));
}
