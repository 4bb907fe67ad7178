//! The coalesce rule (paper 3.2) on flat modes.

/// What the coalesce rule may do with one mode: drop it when its size is 1,
/// merge it into the mode before it. cute-dynamic may always do both but
/// for the last, unbounded mode of a composition (whose stride matters);
/// cute-static only where the fact is known at compile time (its leaves
/// are static), which keeps CuTe's padded forms a type.
///
/// ```
/// use cute_dynamic::kernel::{May, coalesce_push};
/// let mut out = [(4, 1), (0, 0)];
/// // 4·1 = 4 continues, but merging is not allowed: the mode stays apart.
/// let may = May { drop_unit: true, merge: false };
/// assert_eq!(coalesce_push(&mut out, 1, (2, 4), may), 2);
/// assert_eq!(out, [(4, 1), (2, 4)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct May {
    /// A mode of size 1 vanishes.
    pub drop_unit: bool,
    /// `s0:d0 ++ s:s0·d0` becomes `s0·s:d0`.
    pub merge: bool,
}

impl May {
    /// The full rule.
    pub const ALL: May = May { drop_unit: true, merge: true };
    /// The full rule but for dropping a size-1 mode.
    pub const KEEP_UNIT: May = May { drop_unit: false, merge: true };
}

/// The coalesce rule as one step: appends the mode `s:d` to the coalesced
/// modes `out[..n]` and returns their new number. A size-1 mode vanishes
/// (if `may.drop_unit`), and `s0:d0 ++ s:s0·d0` merges into `s0·s:d0` (if
/// `may.merge`); else the mode is written at `out[n]`, or dropped when
/// `out` has no room for it (the count then stays `n`).
///
/// Post-condition: `out[..result]` is the function of `out[..n] ++ s:d` on
/// the integral domain, with `result <= n + 1`.
///
/// ```
/// use cute_dynamic::kernel::{May, coalesce_push};
/// let mut out = [(0, 0); 4];
/// let mut n = coalesce_push(&mut out, 0, (2, 1), May::ALL);
/// n = coalesce_push(&mut out, n, (1, 7), May::ALL); // size 1: dropped
/// n = coalesce_push(&mut out, n, (3, 2), May::ALL); // 2·1 = 2: merged
/// n = coalesce_push(&mut out, n, (4, 7), May::ALL);
/// assert_eq!(&out[..n], &[(6, 1), (4, 7)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn coalesce_push(out: &mut [(i64, i64)], n: usize, m: (i64, i64), may: May) -> usize {
    let last = n.checked_sub(1).and_then(|k| out.get_mut(k));
    match coalesce_step(last.as_deref().copied(), m, may) {
        Step::Drop => n,
        Step::Merge => {
            if let Some(last) = last {
                // The product fits: it is at most the layout's checked size.
                last.0 *= m.0;
            }
            n
        }
        Step::Append => match out.get_mut(n) {
            Some(slot) => {
                *slot = m;
                n + 1
            }
            None => n,
        },
    }
}

/// What the coalesce rule does with a mode `m` after the coalesced modes
/// so far, whose last is `last` (`None` for none yet): the answer of
/// [`coalesce_step`], which the caller carries out.
///
/// ```
/// use cute_dynamic::kernel::{May, Step, coalesce_step};
/// // Coalescing (2,1,3,4):(1,7,2,7) by hand.
/// let mut out: Vec<(i64, i64)> = Vec::new();
/// for m in [(2, 1), (1, 7), (3, 2), (4, 7)] {
///     match coalesce_step(out.last().copied(), m, May::ALL) {
///         Step::Drop => {}                                 // 1:7
///         Step::Merge => out.last_mut().unwrap().0 *= m.0, // 3:2 after 2:1, as 2·1 = 2
///         Step::Append => out.push(m),                     // 2:1, and 4:7 after 6:1 (6·1 != 7)
///     }
/// }
/// assert_eq!(out, [(6, 1), (4, 7)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `m` has size 1 and vanishes.
    Drop,
    /// `m` continues `last` (`s:s0·d0` after `s0:d0`): they become one mode.
    Merge,
    /// `m` is a mode of its own.
    Append,
}

/// The coalesce rule's decision for `m` after `last` ([`Step`]), as
/// [`coalesce_push`] applies it.
///
/// ```
/// use cute_dynamic::kernel::{May, Step, coalesce_step};
/// assert_eq!(coalesce_step(Some((2, 1)), (3, 2), May::ALL), Step::Merge);
/// assert_eq!(coalesce_step(Some((2, 1)), (1, 5), May::ALL), Step::Drop);
/// assert_eq!(coalesce_step(Some((2, 1)), (1, 5), May::KEEP_UNIT), Step::Append);
/// assert_eq!(coalesce_step(None, (4, 3), May::ALL), Step::Append);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn coalesce_step(last: Option<(i64, i64)>, (s, d): (i64, i64), may: May) -> Step {
    if s == 1 && may.drop_unit {
        return Step::Drop;
    }
    match last {
        Some((s0, d0)) if may.merge && s0.checked_mul(d0) == Some(d) => Step::Merge,
        _ => Step::Append,
    }
}

/// [`coalesce_push`] with the full rule over `modes` in place (the modes
/// kept are written behind the one read).
///
/// Post-condition: `modes[..result]` is the coalesced layout of `modes`
/// (paper 3.2: the same function on the integral domain, no size-1 mode,
/// no two neighbours that merge); `result` is 0 for a layout of size 1.
///
/// ```
/// use cute_dynamic::kernel::coalesce_in_place;
/// let mut m = [(2, 1), (1, 6), (6, 2)];
/// let n = coalesce_in_place(&mut m);
/// assert_eq!(&m[..n], &[(12, 1)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn coalesce_in_place(modes: &mut [(i64, i64)]) -> usize {
    let mut w = 0;
    for k in 0..modes.len() {
        let m = modes[k];
        w = coalesce_push(modes, w, m, May::ALL);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push_all(modes: &[(i64, i64)], may: May, room: usize) -> ([(i64, i64); 8], usize) {
        let mut out = [(0, 0); 8];
        let mut n = 0;
        for &m in modes {
            n = coalesce_push(&mut out[..room], n, m, may);
        }
        (out, n)
    }

    #[test]
    fn merges_only_a_continuing_stride() {
        let (out, n) = push_all(&[(2, 1), (4, 2), (3, 9)], May::ALL, 8);
        assert_eq!(&out[..n], &[(8, 1), (3, 9)]);
        // 2·3 = 6, not 5: no merge.
        let (out, n) = push_all(&[(2, 3), (4, 5)], May::ALL, 8);
        assert_eq!(&out[..n], &[(2, 3), (4, 5)]);
        // A stride-0 mode after a stride-0 mode merges (0·s = 0).
        let (out, n) = push_all(&[(2, 0), (3, 0)], May::ALL, 8);
        assert_eq!(&out[..n], &[(6, 0)]);
    }

    #[test]
    fn unit_modes_dropped_or_kept() {
        let (out, n) = push_all(&[(1, 5), (1, 0)], May::ALL, 8);
        assert_eq!(n, 0, "{:?}", &out[..n]);
        let (out, n) = push_all(&[(4, 1), (1, 9)], May::KEEP_UNIT, 8);
        assert_eq!(&out[..n], &[(4, 1), (1, 9)]);
        // A kept unit mode still merges where its stride continues.
        let (out, n) = push_all(&[(4, 1), (1, 4)], May::KEEP_UNIT, 8);
        assert_eq!(&out[..n], &[(4, 1)]);
    }

    #[test]
    fn no_merge_keeps_modes_apart() {
        let no = May { drop_unit: false, merge: false };
        let (out, n) = push_all(&[(2, 1), (1, 2), (4, 2)], no, 8);
        assert_eq!(&out[..n], &[(2, 1), (1, 2), (4, 2)]);
    }

    #[test]
    fn overflowing_product_does_not_merge() {
        let big = i64::MAX / 2 + 1;
        let (out, n) = push_all(&[(4, big), (2, 0)], May::ALL, 8);
        assert_eq!(&out[..n], &[(4, big), (2, 0)]);
    }

    #[test]
    fn full_room_drops_the_mode() {
        let (out, n) = push_all(&[(2, 1), (3, 5), (7, 100)], May::ALL, 2);
        assert_eq!(&out[..n], &[(2, 1), (3, 5)]);
    }

    #[test]
    fn in_place_matches_the_steps() {
        let mut m = [(2, 1), (1, 3), (2, 2), (3, 8), (1, 1), (5, 24), (2, 0)];
        let (out, k) = push_all(&m, May::ALL, 8);
        let n = coalesce_in_place(&mut m);
        assert_eq!(&m[..n], &out[..k]);
        assert_eq!(&m[..n], &[(4, 1), (15, 8), (2, 0)]);
        assert_eq!(coalesce_in_place(&mut []), 0);
    }
}
