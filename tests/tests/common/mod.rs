//! Helpers shared by several test modules: small layout
//! strategies and golden compositions checked by brute force.

// Each test file uses only some of these.
#![allow(dead_code)]

use cute_dynamic::{IntTuple, Layout, composition};
use cute_tests::check;
use proptest::prelude::*;

pub mod mixed;
pub mod runtime_forms;

/// Parses a layout, panicking with the text on failure.
pub fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("parsing layout {s:?}: {e}"))
}

/// `a ∘ b` prints as `want`, and meets the post-conditions by brute force.
#[track_caller]
pub fn composes_to(a: &str, b: &str, want: &str) {
    let (a, b) = (lay(a), lay(b));
    let r = composition(&a, &b).unwrap_or_else(|e| panic!("{a} o {b}: {e}"));
    assert_eq!(r.to_string(), want, "{a} o {b}");
    check::composition(&a, &b, &r).unwrap();
}

/// Up to 3 modes of up to 2 leaves, shapes `1..=max_shape`, strides in
/// `lo..=hi` (overlaps, stride 0 and repeats are common).
pub fn small_layout(max_shape: i64, lo: i64, hi: i64) -> impl Strategy<Value = Layout> {
    let leaf = (1i64..=max_shape, lo..=hi);
    let mode = prop::collection::vec(leaf, 1..=2);
    prop::collection::vec(mode, 1..=3).prop_map(|modes| {
        let nest = |f: fn(&(i64, i64)) -> i64| {
            IntTuple::tuple(
                modes
                    .iter()
                    .map(|m| if m.len() == 1 { IntTuple::int(f(&m[0])) } else { IntTuple::flat(m.iter().map(f)) }),
            )
        };
        Layout::new(nest(|m| m.0), nest(|m| m.1)).unwrap()
    })
}
