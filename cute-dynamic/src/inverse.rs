//! `right_inverse` and `left_inverse` (paper 3.4).

use crate::coalesce::coalesce_modes;
use crate::complement::is_injective_small;
use crate::error::{LayoutError, Result, checked_mul};
use crate::layout::{Layout, layout_from_modes};
use smallvec::SmallVec;

/// A mode of the coalesced layout with its integral-coordinate stride
/// (the product of the shapes before it): `(shape, stride, prefix)`.
type Ranked = SmallVec<[(i64, i64, i64); 9]>;

/// The coalesced modes of `l` with their prefix products, stride-0 modes
/// removed, sorted by stride.
fn sorted_modes(l: &Layout) -> Ranked {
    let mut prefix = 1i64;
    let mut out = Ranked::new();
    for (s, d) in coalesce_modes(&l.modes()) {
        if d != 0 {
            out.push((s, d, prefix));
        }
        // The size of the layout fits, so every prefix does.
        prefix *= s;
    }
    out.sort_unstable_by_key(|&(s, d, p)| (d, p, s));
    out
}

/// The right inverse of largest size (paper 3.4.1, Table 5): the layout
/// `L‡` with `L(L‡(k)) == k` for every `k` in `0..size(L‡)`.
///
/// It collects, in order of stride, the modes whose stride continues the
/// contiguous run `1, s0, s0·s1, …` of offsets; a layout that does not reach
/// offset 1 has the trivial right inverse `1:0`. The result is coalesced.
///
/// Post-conditions:
/// * `L(L‡(k)) == k` for all `0 <= k < size(L‡)`;
/// * `L‡` is injective and `size(L‡) <= size(L)`;
/// * maximality: no offset `size(L‡)` is reachable right after the run (the
///   run of offsets `0..size(L‡)` is the longest contiguous one from 0 that
///   this construction can express).
///
/// ```
/// use cute_dynamic::{Layout, right_inverse};
/// let l: Layout = "(4,8):(8,1)".parse().unwrap();
/// assert_eq!(right_inverse(&l).to_string(), "(8,4):(4,1)");
/// let l: Layout = "(4,8):(1,5)".parse().unwrap();
/// assert_eq!(right_inverse(&l).to_string(), "4:1");
/// ```
pub fn right_inverse(l: &Layout) -> Layout {
    let mut out: crate::layout::Modes = SmallVec::new();
    let mut cur = 1i64;
    for (s, d, p) in sorted_modes(l) {
        if d != cur {
            if d < cur {
                // Negative strides, or a stride met again: not part of the run.
                continue;
            }
            break;
        }
        out.push((s, p));
        // s·d is at most the layout's extent plus one stride: it fits unless
        // this is the last mode of an extreme layout, where we stop anyway.
        match s.checked_mul(d) {
            Some(c) => cur = c,
            None => break,
        }
    }
    layout_from_modes(&coalesce_modes(&out))
}

/// A left inverse (paper 3.4.3, Table 6): a layout `L†` with
/// `L(L†(L(k))) == L(k)` for every `k` in `0..size(L)` (paper eq. 26); for
/// injective `L` that is `L†(L(k)) == k`.
///
/// Stride-0 modes of `L` are read at coordinate 0. Sorted by stride, the
/// non-zero modes `s_i:d_i` give the result
/// `(d_0, d_1/d_0, …, d_{n-1}/d_{n-2}, s_{n-1}) : (0, p_0, …, p_{n-2}, p_{n-1})`
/// (the leading mode only when `d_0 > 1`; `p_i` the integral-coordinate
/// stride of mode `i`), coalesced: holes in the image are skipped by the
/// larger shapes, so e.g. `(4,8):(1,5)` gives `(5,8):(1,4)`.
///
/// Post-conditions:
/// * `L(L†(L(k))) == L(k)` for all `0 <= k < size(L)`;
/// * for injective `L`: `L†(L(k)) == k` for all `k`;
/// * `size(L†) > max L(k)`: every offset of `L` is in the domain of `L†`.
///
/// Errors: `NotInjective` if two coordinates of the non-zero-stride modes
/// meet; `NoLayout` if sorted strides are not multiples of one another or
/// interleave (the inverse exists as a function but is not a layout);
/// `Unsupported` for negative strides.
///
/// ```
/// use cute_dynamic::{Layout, left_inverse};
/// let l: Layout = "(4,8):(1,5)".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap().to_string(), "(5,8):(1,4)");
/// ```
pub fn left_inverse(l: &Layout) -> Result<Layout> {
    let modes = sorted_modes(l);
    if modes.iter().any(|m| m.1 < 0) {
        return Err(LayoutError::Unsupported {
            what: format!("left_inverse of {l}: negative strides have no left inverse layout"),
        });
    }
    let Some(&(_, d0, _)) = modes.first() else {
        return Ok(layout_from_modes(&[]));
    };
    let mut out: crate::layout::Modes = SmallVec::new();
    if d0 > 1 {
        out.push((d0, 0));
    }
    for w in modes.windows(2) {
        let (s, d, p) = w[0];
        let next = w[1].1;
        let extent = checked_mul(s, d, "left_inverse")?;
        if next < extent {
            let flat: crate::layout::Modes = modes.iter().map(|m| (m.0, m.1)).collect();
            if is_injective_small(&flat) == Some(false) {
                return Err(LayoutError::NotInjective { layout: l.to_string() });
            }
            return Err(LayoutError::NoLayout {
                operation: "left_inverse",
                layout: l.to_string(),
                reason: format!(
                    "sorted by stride, a mode of stride {next} starts inside the extent {extent} of the previous mode"
                ),
            });
        }
        if next % d != 0 {
            return Err(LayoutError::NoLayout {
                operation: "left_inverse",
                layout: l.to_string(),
                reason: format!("sorted by stride, stride {next} is not a multiple of the previous stride {d}"),
            });
        }
        out.push((next / d, p));
    }
    let &(s, _, p) = modes.last().unwrap_or(&(1, 0, 0));
    out.push((s, p));
    let r = layout_from_modes(&coalesce_modes(&out));
    r.check_extent()?;
    Ok(r)
}
