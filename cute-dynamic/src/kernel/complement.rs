//! The complement's walk (paper 3.5) on flat modes.

use crate::kernel::{Fail, ceil_div, divmod};

/// The complement's modes of the flat modes `a` with respect to `cotarget`
/// (CuTe's `complement(A, M)` before coalescing), written into `out`;
/// returns their number.
///
/// Stride-0 and size-1 modes of `a` are ignored; the others, sorted by
/// `(stride, shape)`, each give the mode `d/C : C` (`C` the extent of the
/// modes below; left out when of size 1), then the last ("rest") mode
/// `L : C` repeats until `a` and the modes together reach `cotarget`
/// ([`complement_last`]). The last mode is kept even when `L` is 1: its
/// stride is where the next replica of `a` starts, which the extended
/// domain needs.
///
/// Room: `out` needs one slot per mode of `a` plus one (`Fail::ROOM` when
/// it is shorter than what is written). `a`'s offsets must fit in an
/// `i64` (reaches past it saturate).
///
/// Post-conditions on `Ok(n)`: `out[..n]` is ordered (each stride at least
/// the extent `shape·stride` of the mode before it), meets `a`'s image only
/// at 0, and with `a` reaches at least `cotarget - 1`.
/// Failures: [`Fail::CotargetBelowOne`], [`Fail::NoOrderedComplement`] (a
/// negative stride), [`Fail::Interleaved`] (sorted modes that interleave:
/// not injective, or injective but not complementable), [`Fail::Overflow`].
///
/// ```
/// use cute_dynamic::kernel::complement_extended;
/// let mut out = [(0i64, 0i64); 3];
/// // 4:2 with respect to 24: (2,3):(1,8).
/// let n = complement_extended([(4, 2)].into_iter(), 24, &mut out).unwrap();
/// assert_eq!(&out[..n], &[(2, 1), (3, 8)]);
/// // (4,8):(1,4) already covers 16: the last mode alone, of size 1.
/// let n = complement_extended([(4, 1), (8, 4)].into_iter(), 16, &mut out).unwrap();
/// assert_eq!(&out[..n], &[(1, 32)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn complement_extended(
    a: impl Iterator<Item = (i64, i64)>,
    cotarget: i64,
    out: &mut [(i64, i64)],
) -> Result<usize, Fail> {
    if cotarget < 1 {
        return Err(Fail::CotargetBelowOne { cotarget });
    }
    let walk = complement_modes(a, out)?;
    push_last(walk, cotarget, out)
}

/// Appends the last mode after the `walk`'s modes in `out`; returns the
/// number of modes. No two modes merge: each stride is at least the extent
/// of the mode before it.
#[cfg_attr(not(debug_assertions), inline(always))]
fn push_last(walk: Walk, cotarget: i64, out: &mut [(i64, i64)]) -> Result<usize, Fail> {
    let Some(slot) = out.get_mut(walk.kept) else { return Err(Fail::ROOM) };
    *slot = (complement_last(cotarget, walk.curr, walk.reach), walk.curr);
    Ok(walk.kept + 1)
}

/// The size of the complement's last mode: how many steps of `curr` (the
/// extent where it starts, positive) reach `cotarget - 1` from `covered`
/// (the largest offset `A` and the modes before it reach together), at
/// least 1.
///
/// Counts the reach actually covered, not `⌈M / curr⌉`: where a stride is
/// not a multiple of the extent below it, the walk leaves a gap and
/// `⌈M / curr⌉` falls short (`((2,2)):((11,1))` with `M = 22`).
///
/// ```
/// use cute_dynamic::kernel::complement_last;
/// assert_eq!(complement_last(16, 32, 31), 1); // already covered
/// assert_eq!(complement_last(64, 32, 31), 2);
/// assert_eq!(complement_last(22, 22, 21), 1);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn complement_last(cotarget: i64, curr: i64, covered: i64) -> i64 {
    let need = cotarget - 1 - covered;
    if need <= 0 { 1 } else { 1 + ceil_div(need, curr) }
}

/// Writes into `out` the complement's modes before the last one (size-1
/// ones left out) and returns the [`Walk`]: their number, the stride at
/// which the last mode starts and the largest offset those modes and `a`
/// reach together.
/// Works in the one buffer: `a`'s kept modes are sorted in `out`, then
/// replaced one by one by the complement's (each needs only its own input).
///
/// No sum here overflows: after each mode `(s, d)` of `a`, what `a`'s modes
/// so far and the complement's reach together is at most `s·d − 1` (the
/// stride where the next mode starts, checked), by induction: the reach
/// before is at most `curr − 1`, the complement's mode `(d/curr, curr)`
/// adds at most `d − curr` and `(s, d)` adds `s·d − d`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn complement_modes(a: impl Iterator<Item = (i64, i64)>, out: &mut [(i64, i64)]) -> Result<Walk, Fail> {
    let mut n = 0;
    for (s, d) in a {
        if d < 0 {
            return Err(Fail::NoOrderedComplement);
        }
        if s != 1 && d != 0 {
            let Some(slot) = out.get_mut(n) else { return Err(Fail::ROOM) };
            *slot = (s, d);
            n += 1;
        }
    }
    let out = &mut out[..n];
    sort_by_stride(out);
    let mut walk = Walk::START;
    for k in 0..out.len() {
        let (s, d) = out[k];
        walk.step(s, d, out)?;
    }
    Ok(walk)
}

/// The walk over `a`'s sorted modes, as far as it went: the number of
/// complement modes written, the extent `curr` of the modes so far, and the
/// largest offset `reach` they and `a`'s modes so far reach together.
struct Walk {
    kept: usize,
    curr: i64,
    reach: i64,
}

impl Walk {
    const START: Walk = Walk { kept: 0, curr: 1, reach: 0 };

    /// The next sorted mode `(s, d)` of `a`: writes the complement's mode
    /// below it, `d/curr : curr` (left out when of size 1), into
    /// `out[kept]`, which is never past the mode read.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn step(&mut self, s: i64, d: i64, out: &mut [(i64, i64)]) -> Result<(), Fail> {
        let curr = self.curr;
        if d < curr {
            return Err(Fail::Interleaved { stride: d, extent: curr });
        }
        // Floor division: a stride that is not a multiple leaves a gap the
        // complement cannot fill, but what it produces is still disjoint.
        let q = divmod(d, curr).0;
        if q != 1 {
            let Some(slot) = out.get_mut(self.kept) else { return Err(Fail::ROOM) };
            *slot = (q, curr);
            self.kept += 1;
        }
        let Some(next) = s.checked_mul(d) else { return Err(Fail::Overflow("complement")) };
        self.reach += (q - 1) * curr + (next - d);
        self.curr = next;
        Ok(())
    }
}

/// [`complement_extended`] of exactly `L` leaves held by value, for callers
/// that know `L` at compile time (the usual 1 to 3 leaves): the same rule
/// and the same result.
///
/// Speed: [`complement_extended`]'s walk filters and sorts `a`'s modes
/// in `out` and reads each back just after storing it, a chain of
/// store-to-load forwards. Here they stay in registers: the dropped modes
/// are sorted last instead of filtered out, by a sorting network on fixed
/// places (about 10.8 ns → 9 ns for `complement((2,4):(1,6), 24)`).
///
/// ```
/// use cute_dynamic::kernel::complement_extended_fixed;
/// let mut out = [(0i64, 0i64); 3];
/// let n = complement_extended_fixed([(2, 6), (2, 1)], 24, &mut out).unwrap();
/// assert_eq!(&out[..n], &[(3, 2), (2, 12)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn complement_extended_fixed<const L: usize>(
    a: [(i64, i64); L],
    cotarget: i64,
    out: &mut [(i64, i64)],
) -> Result<usize, Fail> {
    if cotarget < 1 {
        return Err(Fail::CotargetBelowOne { cotarget });
    }
    let walk = complement_modes_fixed(a, out)?;
    push_last(walk, cotarget, out)
}

/// [`complement_coalesced`] of exactly `L` leaves held by value (see
/// [`complement_extended_fixed`]).
///
/// ```
/// use cute_dynamic::kernel::complement_coalesced_fixed;
/// let mut out = [(0i64, 0i64); 3];
/// let n = complement_coalesced_fixed([(2, 1), (4, 6)], 24, &mut out).unwrap();
/// assert_eq!(&out[..n], &[(3, 2)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn complement_coalesced_fixed<const L: usize>(
    a: [(i64, i64); L],
    cotarget: i64,
    out: &mut [(i64, i64)],
) -> Result<usize, Fail> {
    let n = complement_extended_fixed(a, cotarget, out)?;
    coalesce_walk(out, n)
}

/// [`complement_modes`] of `L` leaves held by value.
#[cfg_attr(not(debug_assertions), inline(always))]
fn complement_modes_fixed<const L: usize>(mut a: [(i64, i64); L], out: &mut [(i64, i64)]) -> Result<Walk, Fail> {
    let mut dropped = [false; L];
    for k in 0..L {
        let (s, d) = a[k];
        if d < 0 {
            return Err(Fail::NoOrderedComplement);
        }
        dropped[k] = s == 1 || d == 0;
    }
    // A bubble sort's network: by (dropped, stride, shape), stable as
    // `sort_by_stride` is.
    for i in (1..L).rev() {
        for j in 0..i {
            let (x, y) = (a[j], a[j + 1]);
            if (dropped[j], x.1, x.0) > (dropped[j + 1], y.1, y.0) {
                (a[j], a[j + 1]) = (y, x);
                dropped.swap(j, j + 1);
            }
        }
    }
    let mut walk = Walk::START;
    for k in 0..L {
        if dropped[k] {
            break;
        }
        walk.step(a[k].0, a[k].1, out)?;
    }
    Ok(walk)
}

/// CuTe's `complement(A, M)` of the flat modes `a`: the modes of
/// [`complement_extended`] coalesced, into `out` (room: one slot per mode
/// of `a` plus one), their size and extent checked; returns their number,
/// at least 1 (`1:0` when nothing is left).
///
/// The walk's modes never merge: each starts at a stride `s·d` of `a`
/// (`s ≥ 2`) above the extent `(d/curr)·curr ≤ d` of the one before. So
/// coalescing them only drops the last mode when it has size 1.
///
/// Post-conditions on `Ok(n)`: `out[..n]` is the coalesced complement, and
/// its size and every offset fit in an `i64`. Failures: those of
/// [`complement_extended`].
///
/// ```
/// use cute_dynamic::kernel::complement_coalesced;
/// let mut out = [(0i64, 0i64); 3];
/// let n = complement_coalesced([(2, 1), (4, 6)].into_iter(), 24, &mut out).unwrap();
/// assert_eq!(&out[..n], &[(3, 2)]);
/// let n = complement_coalesced([(4, 1), (8, 4)].into_iter(), 16, &mut out).unwrap();
/// assert_eq!(&out[..n], &[(1, 0)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn complement_coalesced(
    a: impl Iterator<Item = (i64, i64)>,
    cotarget: i64,
    out: &mut [(i64, i64)],
) -> Result<usize, Fail> {
    let n = complement_extended(a, cotarget, out)?;
    coalesce_walk(out, n)
}

/// The walk's `n` modes in `out` coalesced: only a last mode of size 1
/// goes (see [`complement_coalesced`]), `1:0` when nothing is left.
#[cfg_attr(not(debug_assertions), inline(always))]
fn coalesce_walk(out: &mut [(i64, i64)], n: usize) -> Result<usize, Fail> {
    complement_fits(&out[..n])?;
    let n = if out[n - 1].0 == 1 { n - 1 } else { n };
    if n == 0 {
        out[0] = (1, 0);
        return Ok(1);
    }
    Ok(n)
}

/// The size and every offset of the modes `m` that [`complement_extended`]
/// wrote fit in an `i64`; otherwise [`Fail::Overflow`] naming the size or
/// the extent, as a layout's own check does.
///
/// Cheap for what the walk writes: its offsets are below `L·C`, its last
/// mode `(L, C)` (the modes before reach at most `C − 1`, see
/// `complement_modes`), and an ordered layout's size is at most its
/// largest offset plus one. Only when `L·C` overflows are the modes
/// summed.
///
/// ```
/// use cute_dynamic::kernel::{Fail, complement_fits};
/// assert_eq!(complement_fits(&[(3, 2), (2, 12)]), Ok(()));
/// // 2·2^62 overflows, but the offsets of 2:2^62 (0 and 2^62) fit.
/// assert_eq!(complement_fits(&[(2, 1 << 62)]), Ok(()));
/// // The last offset of 3:2^62 is 2^63, past i64::MAX.
/// assert_eq!(complement_fits(&[(3, 1 << 62)]), Err(Fail::Overflow("layout extent")));
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn complement_fits(m: &[(i64, i64)]) -> Result<(), Fail> {
    match m.last() {
        Some(&(l, c)) if l.checked_mul(c).is_none() => modes_fit(m),
        _ => Ok(()),
    }
}

/// [`complement_fits`] by summing the modes (cold).
#[cold]
#[inline(never)]
fn modes_fit(m: &[(i64, i64)]) -> Result<(), Fail> {
    if super::extent(m.iter().copied()).is_some() {
        return Ok(());
    }
    let size = m.iter().try_fold(1i64, |acc, &(s, _)| acc.checked_mul(s));
    Err(Fail::Overflow(if size.is_none() { "layout size" } else { "layout extent" }))
}

/// Sorts modes by `(stride, shape)`: an insertion sort, as the lists are a
/// few modes long. Private, not `kernel::sort_by_key`: through its key
/// closure this walk costs 10 more instructions (callgrind, 253 against 243).
#[cfg_attr(not(debug_assertions), inline(always))]
fn sort_by_stride(m: &mut [(i64, i64)]) {
    for i in 1..m.len() {
        let x = m[i];
        let mut j = i;
        while j > 0 && (m[j - 1].1, m[j - 1].0) > (x.1, x.0) {
            m[j] = m[j - 1];
            j -= 1;
        }
        m[j] = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(a: &[(i64, i64)], m: i64) -> Result<([(i64, i64); 8], usize), Fail> {
        let mut out = [(0i64, 0i64); 8];
        let n = complement_extended(a.iter().copied(), m, &mut out)?;
        Ok((out, n))
    }

    /// Asserts the complement's modes of `a` for `m` (no `Vec`: the kernel
    /// builds and tests without `std`).
    #[track_caller]
    fn assert_modes(a: &[(i64, i64)], m: i64, want: &[(i64, i64)]) {
        let (out, n) = ext(a, m).unwrap();
        assert_eq!(&out[..n], want, "{a:?} {m}");
    }

    #[test]
    fn walks_sorted_modes_and_keeps_the_last() {
        assert_modes(&[(4, 2)], 24, &[(2, 1), (3, 8)]);
        // Unsorted input, a gap between the modes: (2,2):(6,1) -> (3,2):(2,12).
        assert_modes(&[(2, 6), (2, 1)], 24, &[(3, 2), (2, 12)]);
        // Size-1 and stride-0 modes add nothing.
        assert_modes(&[(1, 5), (3, 0), (4, 1)], 8, &[(2, 4)]);
        // Nothing left: the last mode alone, from stride 1.
        assert_modes(&[(1, 0)], 5, &[(5, 1)]);
        assert_modes(&[(4, 1), (8, 4)], 16, &[(1, 32)]);
    }

    /// The walk on leaves held by value is the walk: the same modes and
    /// the same failures, for 1 to 3 leaves of every kind (dropped,
    /// interleaved, equal, negative, overflowing).
    #[test]
    fn fixed_leaves_walk_as_the_general_walk() {
        let leaves = [
            (1, 0),
            (1, 3),
            (2, 0),
            (2, 1),
            (3, 1),
            (2, 2),
            (4, 2),
            (2, 3),
            (2, 5),
            (2, 7),
            (4, 8),
            (2, -1),
            (i64::MAX / 2, 4),
        ];
        fn same<const L: usize>(a: [(i64, i64); L]) {
            for m in [0, 1, 5, 16, 24, 97, 256] {
                for room in [L, L + 1] {
                    let (mut want, mut got) = ([(0i64, 0i64); 4], [(0i64, 0i64); 4]);
                    // The modes written, or the failure (the general
                    // walk leaves its scratch in `out` when it fails).
                    let written = |r: Result<usize, Fail>, out: [(i64, i64); 4]| {
                        r.map(|n| (n, core::array::from_fn::<_, 4, _>(|k| if k < n { out[k] } else { (0, 0) })))
                    };
                    let w = complement_extended(a.into_iter(), m, &mut want[..room]);
                    let g = complement_extended_fixed(a, m, &mut got[..room]);
                    assert_eq!(written(g, got), written(w, want), "{a:?} {m}");
                    let w = complement_coalesced(a.into_iter(), m, &mut want[..room]);
                    let g = complement_coalesced_fixed(a, m, &mut got[..room]);
                    assert_eq!(written(g, got), written(w, want), "{a:?} {m}");
                }
            }
        }
        for &x in &leaves {
            same([x]);
            for &y in &leaves {
                same([x, y]);
                for &z in &leaves {
                    same([x, y, z]);
                }
            }
        }
    }

    #[test]
    fn counts_the_gap_a_floor_division_leaves() {
        // (2,2):(11,1): the mode 5:2 leaves 11 uncovered, so 22 needs a
        // second replica, where ⌈22 / 22⌉ would give one.
        assert_modes(&[(2, 11), (2, 1)], 22, &[(5, 2), (2, 22)]);
        assert_modes(&[(2, 11), (2, 1)], 21, &[(5, 2), (1, 22)]);
    }

    #[test]
    fn fails_as_numbers() {
        assert_eq!(ext(&[(4, 1)], 0).unwrap_err(), Fail::CotargetBelowOne { cotarget: 0 });
        assert_eq!(ext(&[(4, -1)], 8).unwrap_err(), Fail::NoOrderedComplement);
        // Not injective: 2:1 meets 2:1.
        assert_eq!(ext(&[(2, 1), (2, 1)], 8).unwrap_err(), Fail::Interleaved { stride: 1, extent: 2 });
        // Injective (offsets 0, 5, 7, 12) but interleaved: 2:7 starts inside
        // the extent 10 of 2:5.
        assert_eq!(ext(&[(2, 5), (2, 7)], 38).unwrap_err(), Fail::Interleaved { stride: 7, extent: 10 });
        assert_eq!(ext(&[(i64::MAX / 2, 4)], 8).unwrap_err(), Fail::Overflow("complement"));
    }

    #[test]
    fn reports_short_room() {
        // (2,2):(2,8) with respect to 64: (2,2,4):(1,4,16), three modes.
        let a = [(2, 2), (2, 8)];
        let mut out = [(0i64, 0i64); 3];
        assert_eq!(complement_extended(a.into_iter(), 64, &mut out), Ok(3));
        assert_eq!(out, [(2, 1), (2, 4), (4, 16)]);
        // Room for `a` but not the last mode; room for neither.
        let mut out = [(0i64, 0i64); 2];
        assert_eq!(complement_extended(a.into_iter(), 64, &mut out), Err(Fail::ROOM));
        let mut out = [(0i64, 0i64); 1];
        assert_eq!(complement_extended(a.into_iter(), 64, &mut out), Err(Fail::ROOM));
    }

    /// The coalesced complement is the walk's modes coalesced (the walk's
    /// modes never merge, so only a last mode of size 1 goes), `1:0` when
    /// nothing is left, with the walk's failures.
    #[test]
    fn coalesced_is_the_walk_coalesced() {
        let leaves = [(1, 0), (2, 1), (3, 1), (2, 2), (4, 2), (2, 3), (3, 4), (2, 5), (2, 6), (4, 8), (2, 11), (5, 0)];
        for &x in &leaves {
            for &y in &leaves {
                for &z in &leaves[..4] {
                    let a = [x, y, z];
                    for m in [1, 2, 5, 8, 16, 24, 60, 97, 256] {
                        let mut want = [(0i64, 0i64); 4];
                        let want = complement_extended(a.into_iter(), m, &mut want).map(|n| {
                            let k = crate::kernel::coalesce_in_place(&mut want[..n]);
                            if k == 0 { ([(1, 0); 4], 1) } else { (want, k) }
                        });
                        let mut got = [(0i64, 0i64); 4];
                        let got = complement_coalesced(a.into_iter(), m, &mut got).map(|n| (got, n));
                        match (got, want) {
                            (Ok((g, n)), Ok((w, k))) => assert_eq!(&g[..n], &w[..k], "{a:?} {m}"),
                            (g, w) => assert_eq!(g.err(), w.err(), "{a:?} {m}"),
                        }
                    }
                }
            }
        }
    }

    /// Past the cheap bound (`L·C` overflows), the modes are summed: an
    /// extent that still fits passes, one that does not is named.
    #[test]
    fn fits_sums_the_modes_past_the_bound() {
        let mut out = [(0i64, 0i64); 3];
        // 2:1 for i64::MAX: (L, 2) with L·2 past i64, extent 2·(L−1) fits.
        let n = complement_coalesced([(2, 1)].into_iter(), i64::MAX, &mut out).unwrap();
        assert_eq!(&out[..n], &[(i64::MAX / 2 + 1, 2)]);
        // 2:3 for i64::MAX: (3,L):(1,6), whose extent 2 + 6·(L−1) passes it.
        assert_eq!(
            complement_coalesced([(2, 3)].into_iter(), i64::MAX, &mut out),
            Err(Fail::Overflow("layout extent"))
        );
        assert_eq!(complement_fits(&[(1 << 40, 1), (1 << 30, 1 << 40)]), Err(Fail::Overflow("layout size")));
        assert_eq!(complement_fits(&[(3, 1), (4, 6)]), Ok(()));
    }

    #[test]
    fn last_mode_reaches_the_cotarget() {
        for m in 1..200 {
            for a in [&[(4, 2)][..], &[(2, 11), (2, 1)], &[(3, 1), (2, 7)], &[(1, 0)]] {
                let (out, n) = ext(a, m).unwrap();
                let reach: i64 = a.iter().chain(&out[..n]).map(|&(s, d)| (s - 1) * d).sum();
                assert!(reach >= m - 1, "{a:?} {m}");
                // One step fewer of the last mode would not reach.
                let (s, d) = out[n - 1];
                assert!(s == 1 || reach - d < m - 1, "{a:?} {m}");
            }
        }
    }
}
