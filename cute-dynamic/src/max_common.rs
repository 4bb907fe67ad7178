//! Vectorization: `max_common_vector` and `max_common_layout` (paper 3.4.2).

use crate::coalesce::coalesce;
use crate::composition::composition;
use crate::error::Result;
use crate::inverse::right_inverse;
use crate::layout::Layout;

/// The largest `K` such that the first `K` offsets `0..K` sit at the same
/// coordinates in `A` and in `B`: `A(B‡(k)) == k` for all `k < K`, with `B‡`
/// the right inverse of `B` (paper 3.4.2). It is the size of the stride-1
/// first mode of `coalesce(A ∘ B‡)`, or 1 when there is none.
///
/// Post-conditions: `1 <= K <= size(B‡)`; `A(B‡(k)) == k` for every
/// `k < K`; and `K == size(B‡)` or `A(B‡(K)) != K`.
///
/// ```
/// use cute_dynamic::{Layout, max_common_vector};
/// let a: Layout = "(4,8):(1,4)".parse().unwrap();
/// let b: Layout = "(4,8):(1,4)".parse().unwrap();
/// assert_eq!(max_common_vector(&a, &b), 32);
/// let c: Layout = "(4,8):(8,1)".parse().unwrap();
/// assert_eq!(max_common_vector(&a, &c), 1);
/// ```
pub fn max_common_vector(a: &Layout, b: &Layout) -> i64 {
    let inv = right_inverse(b);
    // Algebraically when the composition is a layout; else by definition.
    if let Ok(common) = composition(a, &inv) {
        let c = coalesce(&common);
        let first = c.modes()[0];
        return if first.1 == 1 { first.0 } else { 1 };
    }
    let mut k = 1;
    while k < inv.size() && inv.eval(k).ok().and_then(|x| a.eval_extended(x).ok()) == Some(k) {
        k += 1;
    }
    k
}

/// The coordinates, in `B` (and `A`), of the first [`max_common_vector`]
/// offsets: `B‡ ∘ K:1` (paper eq. 25), a layout of size `K` whose image
/// `A` and `B` both map to `0..K` in order.
///
/// Post-conditions: `size(R) == max_common_vector(A, B)`, and
/// `A(R(k)) == B(R(k)) == k` for every `k < size(R)`.
///
/// ```
/// use cute_dynamic::{Layout, max_common_layout};
/// let a: Layout = "(4,8):(1,4)".parse().unwrap();
/// let b: Layout = "((2,2),8):((1,8),2)".parse().unwrap();
/// assert_eq!(max_common_layout(&a, &b).unwrap().to_string(), "2:1");
/// ```
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let k = max_common_vector(a, b);
    composition(&right_inverse(b), &Layout::scalar(k, 1)?)
}
