// `{expr}` is a run-time value and `Dyn` names its type: each in the wrong
// macro, and a run-time leaf in a tiler, is an error at the leaf.
use cute_static::prelude::*;

fn main() {
    let _a = layout!((Dyn, 8):(1, 8));
    type _B = Layout![({m}, 8):(1, 8)];
    let _t = tile!(128, {k});
}
