//! The macros and cute-dynamic's parser accept and reject the same texts.
//!
//! Each text runs through the macro's own expansion (on `proc_macro2`
//! tokens, as rustc would hand them over) and through cute-dynamic's
//! `FromStr`. They must agree, except where the text is valid but holds a
//! value cute-static cannot represent (a negative leaf, the empty tuple, a
//! rank-0 tiler): those the parser accepts and the macro rejects, and the
//! exception is computed from the parsed value, not listed by hand. Texts
//! Rust cannot tokenize (unbalanced brackets) never reach a macro; the
//! parser must reject them too. `tests/tests/text_syntax.rs` runs the good
//! texts through the real macros and compares the values.

use super::*;
use cute_dynamic::{Layout as DynLayout, Tiler as DynTiler};
use proptest::prelude::*;
use std::str::FromStr;

/// Texts read as a layout: `layout!(T)` against `T.parse::<Layout>()`.
const LAYOUTS: &[&str] = &[
    // Good.
    "(4,8):(1,4)",
    "12:1",
    "(4,(3,2)):(2,(8,1))",
    "(_4,_8):(_1,_4)",
    "(8):(3)",
    " ( 4 , 8 ) : ( 1 , 4 ) ",
    "(4,8):(0,4)",
    "1:0",
    "((2,2),(3,4)):((1,2),(4,12))",
    "2048:1",
    "9223372036854775807:1",
    "4:- 0",
    "(((2))):(((1)))",
    // Valid text, values cute-static cannot hold.
    "():()",
    "4:-1",
    "(4,8):(- 1,- 4)",
    "(4,()):(1,())",
    // Bad.
    "",
    "(4,8)(1,4)",
    "(4,x):(1,4)",
    "(4,8,):(1,4,)",
    "(4,8)::(1,4)",
    "4u32:1",
    "4_000:1",
    "0x10:1",
    "4.5:1",
    "(4,8):(1,4) 5",
    "(4,8):(1,4),",
    "(4,8):(1,4):(1)",
    "(4,8):(1,4,32)",
    "(4,(3,2)):(2,8)",
    "(4,8):((1,2),4)",
    "(4,0):(1,4)",
    "-4:1",
    "(4,8)",
    ":",
    "4:",
    ":4",
    "(4;8):(1,4)",
    "[4,8]:[1,4]",
    "<4:1>",
    "9223372036854775808:1",
    "(2,3):(9223372036854775807,1)",
    "_:1",
    "_ 4:1",
    "((4,8):(1,4))",
    "(2:1, 3:2)",
    "x",
    "4 8:1",
    // Unbalanced: no macro can receive these.
    "(4,8:(1,4)",
    "(4,8)):(1,4)",
];

/// Texts read as an integer tuple: `stride!(T)` against
/// `T.parse::<IntTuple>()`; `shape!(T)` also requires positive leaves.
const TUPLES: &[&str] = &[
    // Good.
    "4",
    "(4,8)",
    "(4,(3,2))",
    "(_4,_8)",
    "(5)",
    "(0,4)",
    "((1))",
    "4,8",
    "4, (3, 2)",
    // Valid text, values cute-static cannot hold.
    "()",
    "(())",
    "(-1,2)",
    // Bad.
    "",
    "(4,)",
    "4,",
    "4 8",
    "(4 8)",
    "x",
    "(4;8)",
    "4:1",
    "(4,8):(1,4)",
    "[4]",
    "4u8",
    "(4,_)",
    // Unbalanced.
    "(4,",
];

/// Texts read as a tiler: `tile!(T)` against `<T>.parse::<Tiler>()`.
const TILERS: &[&str] = &[
    // Good.
    "3:3, (2,4):(1,8)",
    "4",
    "3:4, 8:2",
    "(2,4)",
    "(2:1, 3:2)",
    "(2:1, 2:1), 6:1",
    "2:1, (3:1, 2:1)",
    "<2:1,2:2>, 4:1",
    "((2,4):(1,8), 3)",
    "((2:1, 3:1), (4, 5))",
    "3:1, 1",
    // Valid text, values cute-static cannot hold.
    "",
    "()",
    "3:3, <>",
    "4:-1",
    // Bad.
    "3:3; 4",
    "3:3,",
    ",3:3",
    "0:1",
    "(0,4)",
    "(2:1, 3)):(1)",
    "(4,8):(1,4,32)",
    "3:3 4",
    "<2:1",
    "(2:1, 3:2):(1,2)",
    "x",
    "3::3",
    // Unbalanced.
    "(2:1, 3:2",
];

fn tokens(text: &str) -> Option<TokenStream2> {
    TokenStream2::from_str(text).ok()
}

fn tuple_unrepresentable(t: &IntTuple) -> bool {
    match t.as_int() {
        Some(v) => v < 0,
        None => t.rank() == 0 || t.modes().any(|m| tuple_unrepresentable(&m)),
    }
}

fn tiler_unrepresentable(t: &DynTiler) -> bool {
    match t {
        DynTiler::Layout(l) => tuple_unrepresentable(l.shape()) || tuple_unrepresentable(l.stride()),
        DynTiler::Tuple(ts) => ts.is_empty() || ts.iter().any(tiler_unrepresentable),
    }
}

/// Checks one text: `parsed` is the parser's verdict (with whether the
/// value is one cute-static cannot hold), `expanded` the macro's.
fn agree(what: &str, text: &str, parsed: Result<bool, String>, expanded: Option<Res<TokenStream2>>) {
    let Some(expanded) = expanded else {
        assert!(parsed.is_err(), "{what} `{text}`: no macro can receive it, yet the parser accepts it");
        return;
    };
    match (parsed, expanded) {
        (Ok(false), Ok(_)) | (Err(_), Err(_)) => {}
        (Ok(true), Err(_)) => {}
        (Ok(true), Ok(_)) => panic!("{what} `{text}`: the macro accepts a value cute-static cannot hold"),
        (Ok(false), Err(e)) => panic!("{what} `{text}`: the parser accepts, the macro rejects: {}", e.msg),
        (Err(p), Ok(_)) => panic!("{what} `{text}`: the macro accepts, the parser rejects: {p}"),
    }
}

#[test]
fn layout_macros_accept_exactly_the_layouts_the_parser_accepts() {
    for text in LAYOUTS {
        let parsed = DynLayout::from_str(text)
            .map(|l| tuple_unrepresentable(l.shape()) || tuple_unrepresentable(l.stride()))
            .map_err(|e| e.to_string());
        for value in [true, false] {
            let expanded = tokens(text).map(|ts| parse_layout(ts).and_then(|l| l.code(value)).map(|(s, _)| s));
            agree("layout", text, parsed.clone(), expanded);
        }
    }
}

#[test]
fn shape_and_stride_macros_accept_exactly_the_tuples_the_parser_accepts() {
    for text in TUPLES {
        // A top-level comma makes the macro's list a tuple.
        let list = tokens(text)
            .is_some_and(|ts| ts.into_iter().any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')));
        let tuple_text = if list { format!("({text})") } else { text.to_string() };
        let parsed = IntTuple::from_str(&tuple_text);
        let stride = parsed.as_ref().map(tuple_unrepresentable).map_err(|e| e.to_string());
        let shape =
            parsed.as_ref().map(|t| tuple_unrepresentable(t) || t.leaves().any(|v| v < 1)).map_err(|e| e.to_string());
        for value in [true, false] {
            agree("stride", text, stride.clone(), tokens(text).map(|ts| parse_tuple_arg(ts, "stride", value)));
            agree("shape", text, shape.clone(), tokens(text).map(|ts| parse_tuple_arg(ts, "shape", value)));
        }
    }
}

#[test]
fn tile_macros_accept_exactly_the_tilers_the_parser_accepts() {
    for text in TILERS {
        let parsed =
            DynTiler::from_str(&format!("<{text}>")).map(|t| tiler_unrepresentable(&t)).map_err(|e| e.to_string());
        for value in [true, false] {
            let expanded = tokens(text).map(|ts| parse_tiler(ts, value).map(|v| quote! { #(#v)* }));
            agree("tiler", text, parsed.clone(), expanded);
        }
    }
}

#[test]
fn every_case_list_holds_good_bad_and_unrepresentable_texts() {
    // The agreement above is only as strong as its lists: each must exercise
    // all three verdicts.
    let verdicts = |texts: &[&str], parse: &dyn Fn(&str) -> Result<bool, String>| {
        let v: Vec<_> = texts.iter().map(|t| parse(t)).collect();
        (v.contains(&Ok(false)), v.contains(&Ok(true)), v.iter().any(Result::is_err))
    };
    let layout = |t: &str| {
        DynLayout::from_str(t)
            .map(|l| tuple_unrepresentable(l.shape()) || tuple_unrepresentable(l.stride()))
            .map_err(|e| e.to_string())
    };
    let tuple = |t: &str| IntTuple::from_str(t).map(|t| tuple_unrepresentable(&t)).map_err(|e| e.to_string());
    let tiler =
        |t: &str| DynTiler::from_str(&format!("<{t}>")).map(|t| tiler_unrepresentable(&t)).map_err(|e| e.to_string());
    assert_eq!(verdicts(LAYOUTS, &layout), (true, true, true));
    assert_eq!(verdicts(TUPLES, &tuple), (true, true, true));
    assert_eq!(verdicts(TILERS, &tiler), (true, true, true));
}

/// Pieces of texts, good and bad: the grammar's characters, integers of
/// each spelling, and tokens Rust reads but the grammar does not.
const PIECES: &[&str] = &[
    "(", ")", ",", ":", "<", ">", "4", "8", "0", "1", "_4", "_", "-", " ", "x", "12", "()", "4u8", "::", "0x3", "2_0",
];

/// A random text of up to 14 pieces.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..14).prop_map(|p| p.concat())
}

/// Texts made of whole layouts, tuples and tilers, then slightly mangled
/// (a piece inserted or dropped): most random texts fail early, these fail
/// (or pass) deep inside.
fn near_miss() -> impl Strategy<Value = String> {
    let good = prop::sample::select(
        LAYOUTS.iter().chain(TUPLES).chain(TILERS).copied().filter(|t| !t.is_empty()).collect::<Vec<_>>(),
    );
    (good, any::<prop::sample::Index>(), prop::option::of(prop::sample::select(PIECES))).prop_map(|(t, at, piece)| {
        let cut: Vec<usize> = (0..=t.len()).filter(|&i| t.is_char_boundary(i)).collect();
        let i = cut[at.index(cut.len())];
        match piece {
            Some(p) => format!("{}{p}{}", &t[..i], &t[i..]),
            None => {
                let j = cut.iter().copied().find(|&j| j > i).unwrap_or(i);
                format!("{}{}", &t[..i], &t[j..])
            }
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_texts_get_the_same_verdict_from_the_macros_and_the_parser(t in prop_oneof![text(), near_miss()]) {
        let layout = DynLayout::from_str(&t)
            .map(|l| tuple_unrepresentable(l.shape()) || tuple_unrepresentable(l.stride()))
            .map_err(|e| e.to_string());
        agree("layout", &t, layout, tokens(&t).map(|ts| parse_layout(ts).and_then(|l| l.code(true)).map(|(s, _)| s)));
        let list = tokens(&t).is_some_and(|ts| ts.into_iter().any(|x| matches!(x, TokenTree::Punct(p) if p.as_char() == ',')));
        let tuple_text = if list { format!("({t})") } else { t.clone() };
        let stride = IntTuple::from_str(&tuple_text).map(|x| tuple_unrepresentable(&x)).map_err(|e| e.to_string());
        agree("stride", &t, stride, tokens(&t).map(|ts| parse_tuple_arg(ts, "stride", true)));
        let tiler = DynTiler::from_str(&format!("<{t}>")).map(|x| tiler_unrepresentable(&x)).map_err(|e| e.to_string());
        agree("tiler", &t, tiler, tokens(&t).map(|ts| parse_tiler(ts, true).map(|v| quote! { #(#v)* })));
    }
}
