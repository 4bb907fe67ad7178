// A tiler with more modes than a layout with run-time leaves: the rank is
// static, so this is still a compile error.
use cute_static::prelude::*;

fn main() {
    let (m, n) = (1000usize, 500usize);
    let _r = logical_divide(layout!(({m},{n}):(1,{m})), tile!(2:1, 2:1, 2:1));
}
