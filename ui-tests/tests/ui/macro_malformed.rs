// Malformed text inside the layout macros: each error points at the
// offending token.
use cute_static::prelude::*;

fn main() {
    let _missing_colon = layout!((4,8)(1,4));
    let _bad_leaf = layout!((4,x):(1,4));
    let _trailing_comma = layout!((4,8,):(1,4,));
    let _negative = layout!((4,8):(1,-4));
    let _double_colon = layout!((4,8)::(1,4));
    let _empty = layout!(():());
    let _suffix = layout!(4u32:1);
    let _extra = layout!((4,8):(1,4) 5);
    let _bad_tile = tile!(3:3; 4);
}
