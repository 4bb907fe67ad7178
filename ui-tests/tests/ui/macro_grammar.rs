// Texts the macros accepted before they shared cute-dynamic's parser, and
// that the parser rejects: now rejected by both, with the parser's words
// (or, for a valid text cute-static cannot represent, saying so).
use cute_static::prelude::*;

fn main() {
    let _hex = layout!(0x10:1);
    let _separator = layout!(4_000:1);
    let _overflow = layout!((2,3):(9223372036854775807,1));
    let _empty_tiler = tile!(3:3, <>);
    let _layout_of_tiles = tile!((2:1, 3:2):(1,2));
    let _list_then_junk = shape!(4, 8 9);
}
