//! Support shared by the integration tests under `tests/` (and the fuzz
//! targets under `fuzz/`): the paper's figure tables, the test-side model of
//! slice coordinates, and the brute-force post-condition checkers
//! ([`check`]).

use cute_dynamic::{IntTuple, crd2idx, idx2crd};

pub mod check;
pub mod fuzz_input;
pub mod golden_text;
use std::fmt;

/// The paper's Figure 10: `blocked_product` of the row-major `(3,4):(4,1)`
/// tile with the col-major `(2,5):(1,2)` tiling, as a 6×20 grid of offsets
/// (rows are mode 0, columns mode 1), typed in from the paper.
pub const FIGURE10: [[i64; 20]; 6] = [
    [0, 1, 2, 3, 24, 25, 26, 27, 48, 49, 50, 51, 72, 73, 74, 75, 96, 97, 98, 99],
    [4, 5, 6, 7, 28, 29, 30, 31, 52, 53, 54, 55, 76, 77, 78, 79, 100, 101, 102, 103],
    [8, 9, 10, 11, 32, 33, 34, 35, 56, 57, 58, 59, 80, 81, 82, 83, 104, 105, 106, 107],
    [12, 13, 14, 15, 36, 37, 38, 39, 60, 61, 62, 63, 84, 85, 86, 87, 108, 109, 110, 111],
    [16, 17, 18, 19, 40, 41, 42, 43, 64, 65, 66, 67, 88, 89, 90, 91, 112, 113, 114, 115],
    [20, 21, 22, 23, 44, 45, 46, 47, 68, 69, 70, 71, 92, 93, 94, 95, 116, 117, 118, 119],
];

/// The paper's Figure 11: `raked_product` of the same tile and tiling.
pub const FIGURE11: [[i64; 20]; 6] = [
    [0, 24, 48, 72, 96, 1, 25, 49, 73, 97, 2, 26, 50, 74, 98, 3, 27, 51, 75, 99],
    [12, 36, 60, 84, 108, 13, 37, 61, 85, 109, 14, 38, 62, 86, 110, 15, 39, 63, 87, 111],
    [4, 28, 52, 76, 100, 5, 29, 53, 77, 101, 6, 30, 54, 78, 102, 7, 31, 55, 79, 103],
    [16, 40, 64, 88, 112, 17, 41, 65, 89, 113, 18, 42, 66, 90, 114, 19, 43, 67, 91, 115],
    [8, 32, 56, 80, 104, 9, 33, 57, 81, 105, 10, 34, 58, 82, 106, 11, 35, 59, 83, 107],
    [20, 44, 68, 92, 116, 21, 45, 69, 93, 117, 22, 46, 70, 94, 118, 23, 47, 71, 95, 119],
];

/// A slice coordinate modelled on the test side (independently of
/// cute-dynamic's `SliceCoord`): a free mode, a fixed integral coordinate
/// of a mode, or a tuple of patterns.
#[derive(Clone, Debug)]
pub enum Pat {
    /// `_`
    Free,
    /// An integral coordinate of the mode.
    Fix(i64),
    /// One pattern per mode.
    Tup(Vec<Pat>),
}

impl fmt::Display for Pat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pat::Free => write!(f, "_"),
            Pat::Fix(v) => write!(f, "{v}"),
            Pat::Tup(ps) => write_tuple(f, ps),
        }
    }
}

/// Writes `(a,b,...)` in CuTe's format, for the test-side models of tuples.
pub fn write_tuple<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    write!(f, "(")?;
    for (k, p) in items.iter().enumerate() {
        if k > 0 {
            write!(f, ",")?;
        }
        write!(f, "{p}")?;
    }
    write!(f, ")")
}

/// Does the natural coordinate `c` of shape `s` agree with the fixed parts
/// of `p`? (A tuple pattern must meet a tuple of the same rank.)
pub fn matches(p: &Pat, c: &IntTuple, s: &IntTuple) -> bool {
    match p {
        Pat::Free => true,
        Pat::Fix(v) => crd2idx(c, s).ok() == Some(*v),
        Pat::Tup(ps) => {
            !s.is_int()
                && ps.len() == s.rank()
                && ps.iter().zip(c.modes().zip(s.modes())).all(|(p, (c, s))| matches(p, &c, &s))
        }
    }
}

/// The natural coordinate of the integral coordinate `i` of `shape`, by
/// repeated application of `idx2crd` (paper 2.2.2). Panics on a shape that
/// is not a valid one (tests only).
pub fn natural(i: i64, shape: &IntTuple) -> IntTuple {
    if shape.is_int() {
        return IntTuple::int(i);
    }
    let c = idx2crd(i, shape).expect("a valid shape");
    IntTuple::tuple(c.modes().zip(shape.modes()).map(|(ci, si)| natural(ci.as_int().unwrap_or(0), &si)))
}

/// `p ⪯ s` (paper Definition 2.7): `p` coarsens `s`, i.e. the leaves of `p`
/// are replaced in `s` by shapes of the same size.
pub fn compatible(p: &IntTuple, s: &IntTuple) -> bool {
    if let Some(v) = p.as_int() {
        return Some(v) == s.size().ok();
    }
    !s.is_int() && p.rank() == s.rank() && p.modes().zip(s.modes()).all(|(a, b)| compatible(&a, &b))
}

/// The Rust examples of the README, run as doctests of this crate so they
/// stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeExamples;

/// CuTe's static print of a run-time layout text: every integer gets a
/// leading `_` and spaces are dropped (`"(4, 8):(1,4)"` is
/// `"(_4,_8):(_1,_4)"`), so one expected text serves both crates.
pub fn static_text(text: &str) -> String {
    let mut out = String::new();
    let mut prev_digit = false;
    for ch in text.chars().filter(|c| !c.is_whitespace()) {
        if ch.is_ascii_digit() && !prev_digit {
            out.push('_');
        }
        prev_digit = ch.is_ascii_digit();
        out.push(ch);
    }
    out
}
