//! `coalesce`, by-mode `coalesce_by`, and `filter` (paper 3.2).

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::{Layout, Modes, layout_from_modes, with_scratch};

/// Flat modes coalesced in place; returns the number kept at the front.
pub(crate) use crate::kernel::coalesce_in_place as coalesce_slice;

/// [`coalesce_slice`] of a copy, as a list.
pub(crate) fn coalesce_modes(modes: &[(i64, i64)]) -> Modes {
    let mut out = Modes::from_slice(modes);
    let n = coalesce_slice(&mut out);
    out.truncate(n);
    out
}

/// The coalesced layout (paper 3.2): the same function on the integral
/// domain with the fewest modes.
///
/// Post-conditions (paper eqs. 13–15):
/// * `size(R) == size(L)`;
/// * `depth(R) <= 1`;
/// * `R(i) == L(i)` for all `0 <= i < size(L)`.
///
/// Size-1 modes are dropped; a layout with nothing left is `1:0`.
///
/// ```
/// use cute_dynamic::{Layout, coalesce};
/// let l: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// assert_eq!(coalesce(&l).to_string(), "12:1");
/// ```
pub fn coalesce(layout: &Layout) -> Layout {
    with_modes(layout, |_| true)
}

/// The leaves of `layout` that `keep` accepts, coalesced, as a layout (in
/// scratch space on the stack for small layouts).
#[cfg_attr(not(debug_assertions), inline(always))]
fn with_modes(layout: &Layout, keep: impl Fn(i64) -> bool) -> Layout {
    with_scratch(layout.shape.vals().len(), |buf: &mut [(i64, i64)]| {
        let mut k = 0;
        for (s, d) in layout.pairs() {
            if keep(d) {
                buf[k] = (s, d);
                k += 1;
            }
        }
        let k = coalesce_slice(&mut buf[..k]);
        layout_from_modes(&buf[..k])
    })
}

/// By-mode coalesce (paper eq. 12): recurses into `profile` and coalesces
/// each sublayout found at an integer of the profile (the values of the
/// profile do not matter). Modes of `layout` beyond the profile's rank are
/// kept as they are.
///
/// Post-conditions: the result has the profile's structure at the top
/// levels, each coalesced mode satisfies [`coalesce`]'s post-conditions, and
/// so `R(i) == L(i)` for every integral `i`.
///
/// Errors: `RankMismatch` where the profile has a tuple of more modes than
/// the layout has at that place.
///
/// ```
/// use cute_dynamic::{IntTuple, Layout, coalesce_by};
/// let l: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// let p: IntTuple = "(1,1)".parse().unwrap();
/// assert_eq!(coalesce_by(&l, &p).unwrap().to_string(), "(2,6):(1,2)");
/// ```
pub fn coalesce_by(layout: &Layout, profile: &IntTuple) -> Result<Layout> {
    if profile.is_int() {
        return Ok(coalesce(layout));
    }
    let pr = profile.rank();
    if pr > layout.rank() || (layout.shape.is_int() && pr != 1) {
        return Err(LayoutError::RankMismatch {
            what: format!("coalesce of {layout} by profile {profile}"),
            expected: layout.rank(),
            found: pr,
        });
    }
    let mut out = Layout::empty();
    out.open();
    // The profile's modes walked once beside the layout's (linear in rank).
    let mut profiles = profile.modes();
    for m in layout.modes_iter() {
        let r = match profiles.next() {
            Some(p) => coalesce_by(&m, &p)?,
            None => m,
        };
        out.push_layout(&r);
    }
    out.close();
    Ok(out)
}

/// The layout with its stride-0 and size-1 modes removed, then coalesced
/// (CuTe's `filter`).
///
/// Post-conditions:
/// * `depth(R) <= 1`, and `R` has no stride-0 mode and no size-1 mode (a
///   layout with nothing left is `1:0`);
/// * the image of `R` equals the image of `L` (`{R(i)} == {L(j)}`);
/// * `size(R) == size(L) / (product of the shapes of L's stride-0 modes)`.
///
/// ```
/// use cute_dynamic::{Layout, filter};
/// let l: Layout = "((2,2),(2,4)):((0,2),(0,4))".parse().unwrap();
/// assert_eq!(filter(&l).to_string(), "8:2");
/// ```
pub fn filter(layout: &Layout) -> Layout {
    with_modes(layout, |d| d != 0)
}
