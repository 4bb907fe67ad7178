//! Vectorization: `max_common_vector` and `max_common_layout` (paper
//! 3.4.2), the twin of cute-dynamic's `max_common.rs`.
//!
//! CuTe decides these at compile time: its answer is an `Int<N>`, the size
//! of the first mode of `coalesce(A ∘ B‡)` when that mode is static with
//! static stride 1, and `Int<1>` as soon as a run-time leaf gets there (so
//! `max_common_vector` of `({m}):(1)` with itself is 1 in CuTe). Here the
//! answer is computed from the layouts' values (static leaves and run-time
//! ones alike) with cute-dynamic's rule, so it is the largest `K` for these
//! values, never smaller than CuTe's, and the same for all-static layouts.

use crate::int_tuple::IntTuple;
use crate::layout::{Congruent, Layout};

/// The largest `K` such that the first `K` offsets `0..K` sit at the same
/// coordinates in `A` and in `B`: `A(B‡(k)) == k` for every `k < K`, with
/// `B‡` the right inverse of `B` (CuTe's `max_common_vector`, for the
/// values the layouts hold). Leaves may be static or run-time.
///
/// Post-conditions (cute-dynamic's): `1 <= K <= size(B‡)`;
/// `A(B‡(k)) == k` for every `k < K`; and `K == size(B‡)` or
/// `A(B‡(K)) != K`. Equal to `cute_dynamic::max_common_vector` of the
/// layouts' `to_dynamic()`; at least CuTe's compile-time answer.
///
/// ```
/// use cute_static::prelude::*;
/// let m = 1000usize;
/// let a = layout!((4,{m}):(1,4));
/// assert_eq!(max_common_vector(&a, &layout!((4,{m}):(1,4))), 4000);
/// assert_eq!(max_common_vector(&a, &layout!((4,8):(8,1))), 1);
/// assert_eq!(max_common_vector(&layout!((4,8):(1,4)), &layout!(((2,2),8):((1,8),2))), 2);
/// ```
pub fn max_common_vector<SA, DA, SB, DB>(a: &Layout<SA, DA>, b: &Layout<SB, DB>) -> usize
where
    SA: Congruent<DA>,
    DA: IntTuple,
    SB: Congruent<DB>,
    DB: IntTuple,
{
    // K <= size(B‡) <= size(B), which fits in an i64.
    cute_dynamic::max_common_vector(&a.to_dynamic(), &b.to_dynamic()) as usize
}

/// The coordinates, in `B` (and `A`), of the first [`max_common_vector`]
/// offsets: `B‡ ∘ K:1` (paper eq. 25; CuTe's `max_common_layout`), as a
/// cute-dynamic layout: its shape depends on run-time values even when
/// every leaf is static (CuTe's is a static type; see the module docs).
///
/// Post-conditions: `size(R) == max_common_vector(A, B)`, and
/// `A(R(k)) == B(R(k)) == k` for every `k < size(R)`; equal to
/// `cute_dynamic::max_common_layout` of the layouts' `to_dynamic()`.
///
/// ```
/// use cute_static::prelude::*;
/// let n = 8usize;
/// let a = layout!((4,{n}):(1,4));
/// let b = layout!(((2,2),{n}):((1,8),2));
/// let r = max_common_layout(&a, &b);
/// assert_eq!(r.to_string(), "2:1");
/// assert_eq!(r.size() as usize, max_common_vector(&a, &b));
/// ```
pub fn max_common_layout<SA, DA, SB, DB>(a: &Layout<SA, DA>, b: &Layout<SB, DB>) -> cute_dynamic::Layout
where
    SA: Congruent<DA>,
    DA: IntTuple,
    SB: Congruent<DB>,
    DB: IntTuple,
{
    match cute_dynamic::max_common_layout(&a.to_dynamic(), &b.to_dynamic()) {
        Ok(r) => r,
        // `B‡ ∘ K:1` with `K <= size(B‡)` is a prefix of `B‡`, always a layout.
        Err(e) => unreachable!("max_common_layout: {e}"),
    }
}
