// A coalesce profile with more modes than a layout with run-time leaves:
// the rank is static, so this is still a compile error.
use cute_static::prelude::*;

fn main() {
    let m = 1000usize;
    let _r = coalesce_by(layout!(({m},4):(1,{m})), shape!(1, 1, 1));
}
