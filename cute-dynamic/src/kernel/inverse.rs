//! The inverses' mode rules (paper 3.4): the sort by stride and the right
//! and left inverse constructions over the sorted modes.

use super::coalesce::coalesce_in_place;

/// Sorts `v` by `key`, stably: an insertion sort, the fastest for the few
/// modes of a layout, and in `core` without allocation.
///
/// Post-condition: `v` is a permutation of its input with
/// `key(v[i]) <= key(v[i + 1])`, and elements of equal key in their input
/// order.
///
/// ```
/// use cute_dynamic::kernel::sort_by_key;
/// let mut v = [(3, 8), (2, 1), (5, 8), (4, 2)];
/// sort_by_key(&mut v, |m| m.1);
/// assert_eq!(v, [(2, 1), (4, 2), (3, 8), (5, 8)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn sort_by_key<T: Copy, K: PartialOrd>(v: &mut [T], key: impl Fn(&T) -> K) {
    for i in 1..v.len() {
        let x = v[i];
        let kx = key(&x);
        let mut j = i;
        while j > 0 && key(&v[j - 1]) > kx {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// The modes the inverses walk: `modes` coalesced (in place), each with its
/// prefix `p` (the product of the shapes before it, the integral coordinate
/// where it starts), stride-0 modes left out, written to `out` as
/// `(shape, stride, prefix)` sorted by `(stride, prefix)`. `out` must hold
/// `modes.len()` entries (it panics otherwise).
///
/// Post-condition: `out[..result]` are the non-zero-stride modes of
/// `coalesce(modes)` with their prefixes, strides ascending, equal strides
/// in the order of the layout (prefixes increase along it).
///
/// ```
/// use cute_dynamic::kernel::ranked;
/// let mut m = [(4, 8), (2, 0), (8, 1)];
/// let mut out = [(0, 0, 0); 3];
/// let n = ranked(&mut m, &mut out);
/// assert_eq!(&out[..n], &[(8, 1, 8), (4, 8, 1)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn ranked(modes: &mut [(i64, i64)], out: &mut [(i64, i64, i64)]) -> usize {
    let n = coalesce_in_place(modes);
    rank_modes(&modes[..n], out)
}

/// [`ranked`] of modes as they are, not coalesced first (cute-static's
/// CuTe forms, whose modes are coalesced only where that is known at
/// compile time): each non-zero-stride mode with its prefix, sorted by
/// `(stride, prefix)`. `out` must hold `modes.len()` entries.
///
/// Post-condition: `out[..result]` are the non-zero-stride modes of
/// `modes` with their prefixes, strides ascending, equal strides in the
/// order of `modes`.
///
/// ```
/// use cute_dynamic::kernel::rank_modes;
/// let mut out = [(0, 0, 0); 3];
/// let n = rank_modes(&[(2, 1), (1, 0), (4, 2)], &mut out);
/// assert_eq!(&out[..n], &[(2, 1, 1), (4, 2, 2)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn rank_modes(modes: &[(i64, i64)], out: &mut [(i64, i64, i64)]) -> usize {
    let (mut k, mut prefix) = (0, 1i64);
    for &(s, d) in modes {
        if d != 0 {
            out[k] = (s, d, prefix);
            k += 1;
        }
        // Wrapping: the last prefix is never read, the others are below
        // the layout's size.
        prefix = prefix.wrapping_mul(s);
    }
    // A total order (the shape decides only between equal prefixes, which
    // need a shape 0 or 1), so the result is the one of any sort.
    sort_by_key(&mut out[..k], |m| (m.1, m.2, m.0));
    k
}

/// The right inverse over the [`ranked`] modes (paper 3.4.1): in order of
/// stride, the modes whose stride continues the run `1, s0·d0, …` of
/// offsets, as `shape:prefix`, not yet coalesced; a mode of a stride below
/// the run (negative, or met again) is skipped, one above it ends the run.
/// `out` must hold `ranked.len()` entries.
///
/// Post-condition: `out[..result]`, coalesced, is the right inverse `R` of
/// the layout: `L(R(k)) = k` for `k < size(R)`; `result` is 0 when the
/// layout does not reach offset 1 (`R` is `1:0`).
///
/// ```
/// use cute_dynamic::kernel::right_inverse_modes;
/// // (4,8):(8,1), ranked.
/// let mut out = [(0, 0); 2];
/// let n = right_inverse_modes(&[(8, 1, 4), (4, 8, 1)], &mut out);
/// assert_eq!(&out[..n], &[(8, 4), (4, 1)]);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn right_inverse_modes(ranked: &[(i64, i64, i64)], out: &mut [(i64, i64)]) -> usize {
    let (mut n, mut cur) = (0, 1i64);
    for &(s, d, p) in ranked {
        if d != cur {
            if d < cur {
                continue;
            }
            break;
        }
        out[n] = (s, p);
        n += 1;
        // s·d is at most the layout's extent plus one stride: it fits unless
        // this is the last mode of an extreme layout, where the run ends.
        match s.checked_mul(d) {
            Some(c) => cur = c,
            None => break,
        }
    }
    n
}

/// Why the sorted strides do not nest (see [`nested_left_inverse`]): the
/// numbers of the first pair of neighbours that fails, for the caller's
/// message.
///
/// ```
/// use cute_dynamic::kernel::{Nest, nested_left_inverse};
/// // (2,2):(2,5): 5 is past the first mode's extent 4 but not a multiple of 2.
/// let e = nested_left_inverse(&[(2, 2, 1), (2, 5, 2)], &mut [(0, 0); 3]);
/// assert_eq!(e, Err(Nest::NotMultiple { stride: 2, next: 5 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nest {
    /// A mode of stride `next` starts inside the `extent` of the mode
    /// before it.
    Inside {
        /// The previous mode's extent (shape · stride).
        extent: i64,
        /// The stride of the mode that starts inside it.
        next: i64,
    },
    /// The stride `next` is not a multiple of the previous `stride`.
    NotMultiple {
        /// The previous stride.
        stride: i64,
        /// The stride that it does not divide.
        next: i64,
    },
    /// An extent overflows `i64`.
    Overflow,
}

/// The paper's left inverse over the [`ranked`] modes (paper 3.4.3), where
/// the strides (all `> 0`, the caller's check) nest: each a multiple of the
/// one before and past its extent. Gives `(d0, d1/d0, …, s_last) : (0, p0,
/// …, p_last)` (the first mode left out when `d0 = 1`), not yet coalesced;
/// 0 modes for no ranked mode. `out` must hold `ranked.len() + 1` entries.
///
/// Post-condition: on `Ok`, `out[..result]`, coalesced, is `R` with
/// `R(L(k)) = k` for every `k < size(L)`; `Err` says which pair of
/// neighbours does not nest.
///
/// ```
/// use cute_dynamic::kernel::{Nest, nested_left_inverse};
/// // (4,8):(1,5), ranked.
/// let mut out = [(0, 0); 3];
/// let n = nested_left_inverse(&[(4, 1, 1), (8, 5, 4)], &mut out).unwrap();
/// assert_eq!(&out[..n], &[(5, 1), (8, 4)]);
/// // (4,8):(1,2): the stride 2 is inside the first mode's extent 4.
/// let e = nested_left_inverse(&[(4, 1, 1), (8, 2, 4)], &mut out);
/// assert_eq!(e, Err(Nest::Inside { extent: 4, next: 2 }));
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn nested_left_inverse(ranked: &[(i64, i64, i64)], out: &mut [(i64, i64)]) -> Result<usize, Nest> {
    let Some(&(_, d0, _)) = ranked.first() else {
        return Ok(0);
    };
    let mut n = 0;
    if d0 > 1 {
        // The offsets below the first stride are off the image.
        out[n] = (d0, 0);
        n += 1;
    }
    for w in ranked.windows(2) {
        let (s, d, p) = w[0];
        let next = w[1].1;
        let Some(extent) = s.checked_mul(d) else {
            return Err(Nest::Overflow);
        };
        if next < extent {
            return Err(Nest::Inside { extent, next });
        }
        if next % d != 0 {
            return Err(Nest::NotMultiple { stride: d, next });
        }
        out[n] = (next / d, p);
        n += 1;
    }
    let (s, _, p) = ranked[ranked.len() - 1];
    out[n] = (s, p);
    Ok(n + 1)
}

/// The size of the layout of `modes` and one past its largest offset,
/// `None` when either, or the span of its offsets (`max - min + 1`),
/// overflows `i64`.
///
/// Post-condition: on `Some((size, end))`, every offset and coordinate of
/// the layout, and its cosize, fit in an `i64`.
///
/// ```
/// use cute_dynamic::kernel::extent;
/// assert_eq!(extent([(4, 2), (3, 1)]), Some((12, 9)));
/// assert_eq!(extent([(4, -2)]), Some((4, 1)));
/// assert_eq!(extent([(2, i64::MAX)]), None);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn extent(modes: impl IntoIterator<Item = (i64, i64)>) -> Option<(i64, i64)> {
    let (mut size, mut hi, mut lo) = (1i64, 0i64, 0i64);
    for (s, d) in modes {
        size = size.checked_mul(s)?;
        let span = (s - 1).checked_mul(d)?;
        if span > 0 {
            hi = hi.checked_add(span)?;
        } else {
            lo = lo.checked_add(span)?;
        }
    }
    hi.checked_sub(lo)?.checked_add(1)?;
    Some((size, hi.checked_add(1)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_is_stable_and_ordered() {
        let mut v = [(5, 3, 0), (1, 1, 1), (2, 3, 2), (9, 0, 3), (4, 1, 4), (0, 3, 5)];
        sort_by_key(&mut v, |m| m.1);
        assert_eq!(v, [(9, 0, 3), (1, 1, 1), (4, 1, 4), (5, 3, 0), (2, 3, 2), (0, 3, 5)]);
        let mut e: [i32; 0] = [];
        sort_by_key(&mut e, |&x| x);
        let mut rev = [5, 4, 3, 2, 1];
        sort_by_key(&mut rev, |&x| x);
        assert_eq!(rev, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn ranked_coalesces_drops_zeros_and_sorts() {
        // (2,2,3,(1,5)):(1,2,0,(9,-4)) coalesces to (4,3,5):(1,0,-4).
        let mut m = [(2, 1), (2, 2), (3, 0), (1, 9), (5, -4)];
        let mut out = [(0, 0, 0); 5];
        let n = ranked(&mut m, &mut out);
        assert_eq!(&out[..n], &[(5, -4, 12), (4, 1, 1)]);
        // Equal strides: by prefix.
        let mut m = [(3, 2), (2, 2), (4, 1)];
        let n = ranked(&mut m, &mut out);
        assert_eq!(&out[..n], &[(4, 1, 6), (3, 2, 1), (2, 2, 3)]);
        let mut m = [(1, 3), (7, 0)];
        assert_eq!(ranked(&mut m, &mut out), 0);
    }

    #[test]
    fn rank_modes_keeps_the_modes_as_they_are() {
        // Modes that coalesce, and a size-1 mode, are ranked as they are:
        // (2,1,2,3):(1,5,2,0).
        let mut out = [(0, 0, 0); 4];
        let n = rank_modes(&[(2, 1), (1, 5), (2, 2), (3, 0)], &mut out);
        assert_eq!(&out[..n], &[(2, 1, 1), (2, 2, 2), (1, 5, 2)]);
        // Its post-condition on every list of up to three modes of shapes
        // 1..=3 and strides -1..=3: the non-zero-stride modes, each with
        // the product of the shapes before it, in order of stride, equal
        // strides in the order of the list.
        let vals: Vec<(i64, i64)> = (1..=3).flat_map(|s| (-1..=3).map(move |d| (s, d))).collect();
        for len in 0..=3u32 {
            for code in 0..vals.len().pow(len) {
                let modes: Vec<(i64, i64)> = (0..len).map(|i| vals[code / vals.len().pow(i) % vals.len()]).collect();
                let mut want: Vec<(i64, i64, i64)> = Vec::new();
                let mut prefix = 1;
                for &(s, d) in &modes {
                    if d != 0 {
                        want.push((s, d, prefix));
                    }
                    prefix *= s;
                }
                // A stable sort by stride alone: equal strides keep the
                // list's order, whose prefixes do not decrease.
                want.sort_by_key(|m| m.1);
                let mut out = [(0, 0, 0); 3];
                let n = rank_modes(&modes, &mut out);
                assert_eq!(&out[..n], &want[..], "{modes:?}");
            }
        }
    }

    #[test]
    fn right_inverse_skips_below_and_stops_above() {
        let mut out = [(0, 0); 4];
        // (2,3,2,4):(-1,1,3,7): -1 skipped, 1 and 3 continue, 7 != 6 stops.
        let r = [(2, -1, 1), (3, 1, 2), (2, 3, 6), (4, 7, 12)];
        let n = right_inverse_modes(&r, &mut out);
        assert_eq!(&out[..n], &[(3, 2), (2, 6)]);
        // Not reaching offset 1.
        assert_eq!(right_inverse_modes(&[(4, 2, 1)], &mut out), 0);
        // A stride met again (as in (2,2):(1,1)): skipped.
        let n = right_inverse_modes(&[(2, 1, 1), (2, 1, 2)], &mut out);
        assert_eq!(&out[..n], &[(2, 1)]);
    }

    #[test]
    fn nested_left_inverse_cases() {
        let mut out = [(0, 0); 4];
        assert_eq!(nested_left_inverse(&[], &mut out), Ok(0));
        // 4:3 -> (3,4):(0,1).
        let n = nested_left_inverse(&[(4, 3, 1)], &mut out).unwrap();
        assert_eq!(&out[..n], &[(3, 0), (4, 1)]);
        // Strides 1, 5, 15, each past the extent before it.
        let n = nested_left_inverse(&[(5, 1, 21), (3, 5, 1), (7, 15, 3)], &mut out).unwrap();
        assert_eq!(&out[..n], &[(5, 21), (3, 1), (7, 3)]);
        // (2,2):(2,5): 5 is past the extent 4, not a multiple of 2.
        let e = nested_left_inverse(&[(2, 2, 1), (2, 5, 2)], &mut out);
        assert_eq!(e, Err(Nest::NotMultiple { stride: 2, next: 5 }));
        let e = nested_left_inverse(&[(4, i64::MAX / 2, 1), (2, i64::MAX, 4)], &mut out);
        assert_eq!(e, Err(Nest::Overflow));
    }

    #[test]
    fn extent_bounds() {
        assert_eq!(extent([]), Some((1, 1)));
        assert_eq!(extent([(3, 0)]), Some((3, 1)));
        assert_eq!(extent([(4, 2), (3, -5)]), Some((12, 7)));
        // Spans that fit alone but not together.
        assert_eq!(extent([(2, i64::MAX / 2 + 1), (2, i64::MAX / 2 + 1)]), None);
        // Positive and negative spans that fit, their difference does not.
        assert_eq!(extent([(2, i64::MAX - 1), (2, -(i64::MAX - 1))]), None);
        assert_eq!(extent([(i64::MAX, 1), (2, 0)]), None);
    }
}
