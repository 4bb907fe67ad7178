// `{expr}` is a run-time value and `Dyn` names its type: each in the wrong
// macro (layouts and tilers alike) is an error at the leaf.
use cute_static::prelude::*;

fn main() {
    let _a = layout!((Dyn, 8):(1, 8));
    type _B = Layout![({m}, 8):(1, 8)];
    let _t = tile!(128, Dyn);
    type _T = Tile![128, {k}:1];
}
