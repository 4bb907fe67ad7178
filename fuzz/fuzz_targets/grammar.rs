//! The grammar of scaled bases, descriptors, composed layouts and
//! thread-value layouts (`2@0`, `(1/2@0,4@1)`, `(4,8):(1@0,0)`,
//! `Sw<3,4,3> o 0 o Sw<1,0,1> o 4 o (8,8):(8,1)`, `... on tile (4,6)`),
//! reached by building the text from its tokens: never a panic, and an
//! accepted expression prints a value that reads back as itself (a layout
//! whose basis strides are all 0 prints, and reads, as the plain layout it
//! equals).

#![no_main]

use cute_dynamic::{Value, eval};
use libfuzzer_sys::fuzz_target;

/// The tokens of the grammar (and a few of its neighbours), one per byte.
const TOKENS: &[&str] = &[
    "(", ")", ",", ":", "@", "/", " ", "0", "1", "2", "3", "4", "8", "-", "_", "<", ">", " o ", "Sw<", "BitFieldXor<",
    "1@0", "1@1", "2@0@1", "4/2@1", "(1@0,1@1)", "(8,8):(8,1)", "(4,2):(2,1)", " on tile ", "(4,2)", "Sw<3,4,3>",
    "Sw<1,0,-2>", "composition(", "left_inverse(", "right_inverse(", "make_identity_layout(", "make_layout_tv(",
    "coalesce(", "eval(", "slice(", "65535", "65536", "9223372036854775807",
];

fuzz_target!(|data: &[u8]| {
    let text: String = data.iter().map(|&b| TOKENS[usize::from(b) % TOKENS.len()]).collect();
    let Ok(v) = eval(&text) else { return };
    if matches!(v, Value::Coord(_) | Value::Slice { .. } | Value::Bool(_)) {
        return;
    }
    let printed = v.to_string();
    let again = eval(&printed).unwrap_or_else(|e| panic!("{text:?} = {printed}, which does not read back: {e}"));
    match (&again, &v) {
        (Value::Layout(l), Value::BasisLayout(_)) => {
            assert!(l.stride().leaves().all(|d| d == 0), "{text:?} = {printed}, read back as {again}");
        }
        (Value::Tuple(_) | Value::Int(_), Value::Basis(_)) => {
            assert!(!printed.contains('@'), "{text:?} = {printed}, read back as {again}");
        }
        _ => assert_eq!(again, v, "{text:?} = {printed}, which reads back as {again}"),
    }
});
