// A layout with a run-time leaf has no compile-time size: asking for it is a
// compile error that says the layout is not all-static.
use cute_static::prelude::*;

fn main() {
    let _n = <Layout![(Dyn, 8):(1, 8)] as StaticLayout>::SIZE;
    let m = 4usize;
    let l = layout!(({m}, 8):(1, {m}));
    let _ = l.to_dynamic();
}
