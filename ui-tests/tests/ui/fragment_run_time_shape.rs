// A fragment lives in registers: its storage is sized by the type, so a
// shape with a run-time leaf is a compile error that says so.
use cute_static::prelude::*;

fn main() {
    let m = 4usize;
    let _f = make_fragment_like::<f32, _>(layout!(({m}, 8):(1, {m})));
}
