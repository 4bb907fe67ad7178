//! The layout, tuple and tiler syntax on arbitrary text: never a panic; what
//! parses prints as text that parses back to the same value, and printing
//! that again gives the same text (print and parse are inverses).

#![no_main]

use cute_dynamic::{IntTuple, Layout, Tiler};
use libfuzzer_sys::fuzz_target;
use std::fmt::Display;
use std::str::FromStr;

fn round_trip<T: FromStr + Display + PartialEq + std::fmt::Debug>(text: &str) {
    let Ok(v) = text.parse::<T>() else { return };
    let printed = v.to_string();
    let again: T = printed.parse().unwrap_or_else(|_| panic!("{text:?} prints as {printed}, which does not parse"));
    assert_eq!(again, v, "{text:?} prints as {printed}, which parses to another value");
    assert_eq!(again.to_string(), printed, "{text:?}: printing is not stable");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    round_trip::<Layout>(text);
    round_trip::<IntTuple>(text);
    round_trip::<Tiler>(text);
});
