//! The text syntax is one grammar: every text the macros accept is read by
//! cute-dynamic's parser to the same value (the macros use that parser, see
//! `cute-macros/src/grammar_agreement.rs` for the texts both reject, run
//! through the macros' expansion and the parser side by side). Here the
//! good texts go through the real macros, tokenized by rustc.

use cute_dynamic::{IntTuple, Layout, Tiler};
use cute_static::IntTuple as _;
use cute_static::prelude::*;

/// `layout!(T)` and `Layout![T]` equal `T.parse::<Layout>()`.
macro_rules! same_layout {
    ($($t:tt)+) => {{
        let text = stringify!($($t)+);
        let d: Layout = text.parse().unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(layout!($($t)+).to_dynamic(), d, "layout!({text})");
        assert_eq!(<Layout![$($t)+]>::default().to_dynamic(), d, "Layout![{text}]");
    }};
}

/// `stride!(T)` (and `shape!(T)`) equal the parse of `T`, or of `(T)` for a
/// list.
macro_rules! same_tuple {
    ($text:literal => $($t:tt)+) => {{
        let d: IntTuple = $text.parse().unwrap_or_else(|e| panic!("`{}`: {e}", $text));
        assert_eq!(stride!($($t)+).to_dynamic(), d, "stride!({})", $text);
        assert_eq!(shape!($($t)+).to_dynamic(), d, "shape!({})", $text);
    }};
}

/// `tile!(T)` equals `<T>.parse::<Tiler>()`.
macro_rules! same_tiler {
    ($($t:tt)+) => {{
        let text = format!("<{}>", stringify!($($t)+));
        let d: Tiler = text.parse().unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(tile!($($t)+).to_dynamic(), d, "tile!({text})");
    }};
}

#[test]
fn layout_macros_read_the_value_the_parser_reads() {
    same_layout!((4,8):(1,4));
    same_layout!(12:1);
    same_layout!((4,(3,2)):(2,(8,1)));
    same_layout!((_4,_8):(_1,_4));
    same_layout!((8):(3));
    same_layout!((4,8):(0,4));
    same_layout!(1:0);
    same_layout!(((2,2),(3,4)):((1,2),(4,12)));
    same_layout!(2048:1);
    same_layout!((((2))):(((1))));
}

#[test]
fn shape_and_stride_macros_read_the_value_the_parser_reads() {
    same_tuple!("4" => 4);
    same_tuple!("(4,8)" => (4,8));
    same_tuple!("(4,8)" => 4, 8);
    same_tuple!("(4,(3,2))" => 4, (3, 2));
    same_tuple!("(_4,_8)" => (_4,_8));
    same_tuple!("(5)" => (5));
    same_tuple!("((1))" => ((1)));
    let d: IntTuple = "(0,4)".parse().unwrap();
    assert_eq!(stride!(0, 4).to_dynamic(), d);
}

#[test]
fn tile_macros_read_the_value_the_parser_reads() {
    same_tiler!(3:3, (2,4):(1,8));
    same_tiler!(4);
    same_tiler!(3:4, 8:2);
    same_tiler!((2, 4));
    same_tiler!((2:1, 3:2));
    same_tiler!((2:1, 2:1), 6:1);
    same_tiler!(2:1, (3:1, 2:1));
    same_tiler!(<2:1,2:2>, 4:1);
    same_tiler!(((2,4):(1,8), 3));
    same_tiler!(3:1, 1);
}

#[test]
fn the_parser_reads_a_parenthesized_list_of_tiles_as_a_nested_tiler() {
    // `(2,4)` is the nested tiler `<2:1,4:1>`; a list of tiles that is not a
    // tuple reads the same way, in both the macros and the parser.
    let t: Tiler = "<(2:1, 4:2), 3:1>".parse().unwrap();
    assert_eq!(t.to_string(), "<<2:1,4:2>,3:1>");
    let t: Tiler = "((2,4):(1,8), 3)".parse().unwrap();
    assert_eq!(t.to_string(), "<(2,4):(1,8),3:1>");
    // A layout is still a layout, a shape still a shape.
    assert_eq!("(2,4):(1,8)".parse::<Tiler>().unwrap().to_string(), "(2,4):(1,8)");
    assert_eq!("(2,4)".parse::<Tiler>().unwrap(), "<2:1,4:1>".parse::<Tiler>().unwrap());
    // Errors inside the list name the tile's column.
    let e = "<(2:1, 3;2)>".parse::<Tiler>().unwrap_err();
    assert!(matches!(e, cute_dynamic::LayoutError::Parse { column: 9, .. }), "{e}");
}
