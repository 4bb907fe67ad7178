// A swizzle whose read and written bit fields overlap (|S| < B) is refused
// where it is written, in `cargo check` too.
use cute_static::prelude::*;

fn main() {
    let _sw = swizzle!(3, 0, 2).compose(layout!((8,8):(8,1)));
}
