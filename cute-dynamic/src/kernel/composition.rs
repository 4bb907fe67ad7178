//! The composition of one leaf `s:d` of `B` with the prepared (flat) modes
//! of `A`: the rule of paper 3.3.3 as cute-dynamic states it in
//! `composition.rs` (where the rule is explained step by step), written
//! once for both crates.
//!
//! Two forms of output: *compact* (cute-dynamic), one mode per piece of
//! `A` the leaf occupies; *padded* (cute-static's run-time leaves), one
//! mode per mode of `A` as CuTe's fold gives it, a mode the leaf does not
//! occupy written `1:(rest·D_r)`, so that the result has CuTe's structure.
//! The sink says which ([`LeafSink::PADDED`]).

use super::arith::{ceil_div, divmod};
use super::fail::Fail;

/// Where [`compose_leaf`] writes the modes of `A ∘ s:d`: the caller's room,
/// bounded or not.
///
/// ```
/// use cute_dynamic::kernel::{Fail, LeafSink, compose_leaf};
/// // Room for two modes on the stack: a third is a failure, not a reallocation.
/// struct Two([(i64, i64); 2]);
/// impl LeafSink for Two {
///     const PADDED: bool = false;
///     fn put(&mut self, slot: usize, s: i64, d: i64) -> Result<(), Fail> {
///         *self.0.get_mut(slot).ok_or(Fail::Room { limit: Some(2) })? = (s, d);
///         Ok(())
///     }
/// }
/// // A = (2,3,4):(1,10,100): A ∘ 6:1 is (2,3):(1,10), A ∘ 24:1 has three modes.
/// let (a, mut out) = ([(2, 1), (3, 10)], Two([(0, 0); 2]));
/// assert_eq!(compose_leaf::<true, _>(&a, 100, (6, 1), &mut out, 0, &mut [0, 0]), Ok(2));
/// assert_eq!(out.0, [(2, 1), (3, 10)]);
/// assert_eq!(compose_leaf::<true, _>(&a, 100, (24, 1), &mut out, 0, &mut [0, 0]), Err(Fail::Room { limit: Some(2) }));
/// ```
pub trait LeafSink {
    /// Whether every mode of `A` gets a slot (CuTe's padded form) or only
    /// the modes the leaf occupies.
    const PADDED: bool;
    /// Writes mode `slot` of the result; [`Fail::Room`] when there is no
    /// room for it.
    ///
    /// ```
    /// use cute_dynamic::kernel::{Fail, LeafSink};
    /// // A sink of at most 4 modes, each in its slot.
    /// struct Modes([(i64, i64); 4]);
    /// impl LeafSink for Modes {
    ///     const PADDED: bool = false;
    ///     fn put(&mut self, slot: usize, shape: i64, stride: i64) -> Result<(), Fail> {
    ///         *self.0.get_mut(slot).ok_or(Fail::ROOM)? = (shape, stride);
    ///         Ok(())
    ///     }
    /// }
    /// let mut m = Modes([(0, 0); 4]);
    /// m.put(1, 3, 8)?;
    /// assert_eq!(m.0[1], (3, 8));
    /// assert_eq!(m.put(4, 2, 1), Err(Fail::ROOM)); // no fifth slot
    /// # Ok::<(), Fail>(())
    /// ```
    fn put(&mut self, slot: usize, shape: i64, stride: i64) -> Result<(), Fail>;
}

/// Composes the modes of `A` (`bounded`, then the unbounded last mode of
/// stride `last_d`) with one leaf `s:d`, writing the modes of `A ∘ s:d` as
/// slots `pos, pos+1, ...` of `out`; returns how many it wrote (at least
/// one).
///
/// Post-conditions, for the written modes `R`: `size(R) = s`, and
/// `R(i) = A(i·d)` for every `i < s` (on `A`'s extended domain), provided
/// the caller's checks over all leaves pass ([`check_reach`],
/// [`check_signs`]). A negative `d` reads the odd extension `A(-x) =
/// -A(x)`: the modes of `A ∘ s:|d|` with their strides negated. A leaf of
/// size 1 gets CuTe's stride ([`unit_stride`]).
///
/// `reach[r]` (one entry per bounded mode) accumulates how far the leaf
/// reaches into mode `r`. With `CHECKED` false the caller has proven that
/// nothing overflows, and the products are not checked.
///
/// Failures: [`Fail::Stride`] and [`Fail::Shape`] (the divisibility
/// conditions), [`Fail::Overflow`], [`Fail::Room`] from the sink.
///
/// ```
/// use cute_dynamic::kernel::{Fail, LeafSink, compose_leaf};
/// // A = (4,8):(1,4) as its bounded mode 4:1 and last stride 4.
/// struct Out(Vec<(i64, i64)>);
/// impl LeafSink for Out {
///     const PADDED: bool = false;
///     fn put(&mut self, slot: usize, s: i64, d: i64) -> Result<(), Fail> {
///         self.0.resize(slot + 1, (0, 0));
///         self.0[slot] = (s, d);
///         Ok(())
///     }
/// }
/// let mut out = Out(Vec::new());
/// let mut reach = [0];
/// // A ∘ 8:2 = (2,4):(2,4)
/// let n = compose_leaf::<true, _>(&[(4, 1)], 4, (8, 2), &mut out, 0, &mut reach).unwrap();
/// assert_eq!((n, out.0), (2, vec![(2, 2), (4, 4)]));
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn compose_leaf<const CHECKED: bool, O: LeafSink>(
    bounded: &[(i64, i64)],
    last_d: i64,
    (s, d): (i64, i64),
    out: &mut O,
    pos: usize,
    reach: &mut [i64],
) -> Result<usize, Fail> {
    if d >= 0 {
        return compose_leaf_up::<CHECKED, false, O>(bounded, last_d, (s, d), out, pos, reach);
    }
    let up = match d.checked_neg() {
        Some(up) => up,
        // -2^63, whose magnitude has no `i64`: a leaf of size 1 (the only
        // size a layout gives it; a larger one's extent does not fit)
        // moves nothing, and is composed as `1:0`.
        None if s == 1 => 0,
        None => return Err(Fail::Overflow("composition")),
    };
    compose_leaf_up::<CHECKED, true, O>(bounded, last_d, (s, up), out, pos, reach)
}

/// [`compose_leaf`] walking a leaf of stride `d ≥ 0`; with `NEG`, the
/// leaf is `s:-d` and each stride written is the product of `-d`'s walk
/// (`(-r)·D`, never `-(r·D)`: a stride of `-2^63` is one product, as it is
/// where `A`'s stride carries the sign, so the sign's place does not
/// change which error a composition gives).
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_leaf_up<const CHECKED: bool, const NEG: bool, O: LeafSink>(
    bounded: &[(i64, i64)],
    last_d: i64,
    (s, d): (i64, i64),
    out: &mut O,
    pos: usize,
    reach: &mut [i64],
) -> Result<usize, Fail> {
    if !O::PADDED {
        if s == 1 {
            out.put(pos, 1, unit_stride(bounded, signed::<NEG>(d), last_d))?;
            return Ok(1);
        }
        if d == 0 {
            out.put(pos, s, 0)?;
            return Ok(1);
        }
    }
    let mut at = pos;
    let (mut rest_shape, mut rest_stride) = (s, d);
    for (&(sr, dr), used) in bounded.iter().zip(reach.iter_mut()) {
        // A mode the leaf does not occupy (padded form only: the compact
        // walk has returned once nothing is left). Its stride only makes
        // the printed form CuTe's: 0 where the product overflows (the same
        // function).
        if O::PADDED && rest_shape == 1 {
            out.put(at, 1, signed::<NEG>(rest_stride).checked_mul(dr).unwrap_or(0))?;
            at += 1;
            rest_stride = ceil_div(rest_stride, sr);
            continue;
        }
        // A stride of 1 (every leaf's after its first mode) never skips a
        // mode of shape ≥ 2 and always divides it: no division needed (the
        // compact form's modes are coalesced, of shape ≥ 2).
        let (fits, left) = if rest_stride == 1 && (!O::PADDED || sr != 1) {
            (sr, 0)
        } else {
            let (skip, left) = divmod(rest_stride, sr);
            if left == 0 {
                // Rule 1: the walk skips the mode.
                if O::PADDED {
                    out.put(at, 1, signed::<NEG>(rest_stride).checked_mul(dr).unwrap_or(0))?;
                    at += 1;
                }
                rest_stride = skip;
                continue;
            }
            divmod(sr, rest_stride)
        };
        if left == 0 {
            // Rule 2: the mode holds `n` steps, which must divide the rest.
            let n = fits.min(rest_shape);
            let (rest, left) = divmod(rest_shape, n);
            if left != 0 {
                return Err(Fail::Shape { shape: sr, fits: n, rest: rest_shape });
            }
            out.put(at, n, compose_mul::<CHECKED>(signed::<NEG>(rest_stride), dr)?)?;
            at += 1;
            *used = add_reach::<CHECKED>(*used, (n - 1) * rest_stride);
            rest_shape = rest;
            rest_stride = 1;
            if rest_shape == 1 && !O::PADDED {
                return Ok(at - pos);
            }
            continue;
        }
        if compose_mul::<CHECKED>(rest_shape - 1, rest_stride).is_ok_and(|r| r < sr) {
            // Rule 3: the steps stay inside the mode.
            out.put(at, rest_shape, compose_mul::<CHECKED>(signed::<NEG>(rest_stride), dr)?)?;
            at += 1;
            *used = add_reach::<CHECKED>(*used, (rest_shape - 1) * rest_stride);
            if !O::PADDED {
                return Ok(at - pos);
            }
            rest_shape = 1;
            rest_stride = 1;
            continue;
        }
        if dr == 0 {
            // Rule 4, a stride-0 mode: its digit adds nothing, only its
            // carry matters. Every `n = ceil(S/d)` steps of `d` carry once,
            // for each group of `n` while the digit, `d·t + e·q` at step
            // `q·n + t` (`e = n·d - S` the slip per group), stays below `S`:
            // then the steps are `(n, rest/n) : (0, 1 in the next mode)`
            // (`(8,2):(0,9) ∘ 6:3 = (3,2):(0,9)`).
            let n = sr / rest_stride + 1;
            let (groups, left) = divmod(rest_shape, n);
            if left != 0 {
                return Err(Fail::Shape { shape: sr, fits: n, rest: rest_shape });
            }
            let slip = n * rest_stride - sr;
            let digit = (groups - 1).checked_mul(slip).and_then(|x| x.checked_add((n - 1) * rest_stride));
            if digit.is_none_or(|x| x >= sr) {
                return Err(Fail::Stride { shape: sr, stride: rest_stride });
            }
            // `n == 1` (a stride past `S`): every step carries, no mode
            // (but a slot in the padded form).
            if n > 1 || O::PADDED {
                out.put(at, n, 0)?;
                at += 1;
            }
            *used = used.saturating_add(digit.unwrap_or(sr));
            rest_shape = groups;
            rest_stride = 1;
            if rest_shape == 1 && !O::PADDED {
                return Ok(at - pos);
            }
            continue;
        }
        return Err(Fail::Stride { shape: sr, stride: rest_stride });
    }
    let stride = if rest_shape == 1 {
        signed::<NEG>(rest_stride).checked_mul(last_d).unwrap_or(0)
    } else {
        compose_mul::<CHECKED>(signed::<NEG>(rest_stride), last_d)?
    };
    out.put(at, rest_shape, stride)?;
    Ok(at + 1 - pos)
}

/// `r` (a step of the walk, `r ≥ 0`) with the leaf's sign: `-r` for a
/// negative leaf, which cannot overflow.
#[inline(always)]
fn signed<const NEG: bool>(r: i64) -> i64 {
    if NEG { -r } else { r }
}

/// The stride CuTe gives `A ∘ 1:d`: `|d|` carried through the bounded modes
/// of `A` (a ceiling division by each shape, CuTe's `composition_impl`),
/// times the stride of the last mode, with `d`'s sign. A size-1 mode moves
/// no offset, so this only makes the printed form CuTe's (`1:1 ∘ 1:1` is
/// `1:1`, `(4,8):(2,16) ∘ 1:1` is `1:16`); where the product overflows, `0`
/// (the same function) rather than an error.
///
/// ```
/// use cute_dynamic::kernel::unit_stride;
/// assert_eq!(unit_stride(&[(4, 2)], 1, 16), 16);
/// assert_eq!(unit_stride(&[(4, 2)], -5, 16), -32);
/// assert_eq!(unit_stride(&[], 3, i64::MAX), 0);
/// assert_eq!(unit_stride(&[], -(1 << 19), 1 << 44), i64::MIN);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn unit_stride(bounded: &[(i64, i64)], d: i64, last_d: i64) -> i64 {
    let Some(mut t) = d.checked_abs() else { return 0 };
    for &(sr, _) in bounded {
        t = ceil_div(t, sr.max(1));
    }
    // The sign before the product, as the walk's strides take it: `-2^63`
    // is a stride, whichever operand carries the sign.
    (if d < 0 { -t } else { t }).checked_mul(last_d).unwrap_or(0)
}

/// Composing leaf by leaf is only `A ∘ B` when the leaves' offsets, added
/// up, never carry out of a bounded mode of `A`: then every mode of `A`
/// sees the sum of the leaves' digits and `A(Σ x_k) = Σ A(x_k)`. A single
/// leaf always fits (rules 2 and 3 keep its reach below the mode's shape);
/// several leaves may not (`(4,1):(0,1) ∘ (2,4):(1,1)`). `reach` is what
/// [`compose_leaf`] accumulated, one entry per bounded mode. For modes
/// that are not coalesced, [`check_reach_coalescing`].
///
/// ```
/// use cute_dynamic::kernel::{Fail, check_reach};
/// assert_eq!(check_reach(&[(4, 0)], &[3]), Ok(()));
/// assert_eq!(check_reach(&[(4, 0)], &[4]), Err(Fail::NotDistributive { shape: 4, reach: 4 }));
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn check_reach(bounded: &[(i64, i64)], reach: &[i64]) -> Result<(), Fail> {
    for (&(shape, _), &used) in bounded.iter().zip(reach) {
        if used >= shape {
            return Err(Fail::NotDistributive { shape, reach: used });
        }
    }
    Ok(())
}

/// [`check_reach`] for modes of `A` that are not coalesced (CuTe's, which
/// cannot merge run-time modes): a carry between two modes that coalesce
/// (`s₀·d₀ = d₁`, one linear mode written as two) changes nothing, so they
/// count as one mode, whose reach is the sum of theirs in its own units; a
/// mode of shape 1 that nothing reaches is passed over (coalesce drops
/// it); a group that merges into the last mode is unbounded.
/// `(16,6):(1,16) ∘ (12,2):(1,12)` reaches 23 into the first mode, which
/// carries into the second harmlessly. `modes` are all of `A`'s modes, the
/// bounded ones then the last; `reach` one entry per bounded mode.
///
/// ```
/// use cute_dynamic::kernel::{Fail, check_reach_coalescing};
/// assert_eq!(check_reach_coalescing(&[(16, 1), (6, 16)], &[23]), Ok(()));
/// assert_eq!(check_reach_coalescing(&[(16, 1), (6, 32)], &[23]), Err(Fail::NotDistributive { shape: 16, reach: 23 }));
/// // Two bounded modes that merge, then a last one that does not.
/// assert_eq!(check_reach_coalescing(&[(2, 1), (4, 2), (3, 100)], &[1, 3]), Ok(()));
/// assert_eq!(
///     check_reach_coalescing(&[(2, 1), (4, 2), (3, 100)], &[2, 3]),
///     Err(Fail::NotDistributive { shape: 8, reach: 8 })
/// );
/// ```
pub fn check_reach_coalescing(modes: &[(i64, i64)], reach: &[i64]) -> Result<(), Fail> {
    let bounded = modes.len().saturating_sub(1);
    // The open group: its reach and size so far, in its first mode's units.
    let (mut used, mut size) = (0i64, 1i64);
    for r in 0..bounded {
        let ((shape, stride), own) = (modes[r], reach.get(r).copied().unwrap_or(0));
        if shape == 1 && own == 0 {
            continue;
        }
        used = own.checked_mul(size).and_then(|x| x.checked_add(used)).unwrap_or(i64::MAX);
        size = size.checked_mul(shape).unwrap_or(i64::MAX);
        // The next mode coalesce would see (size-1 modes nothing reaches
        // dropped; the last mode always).
        let next =
            (r + 1..modes.len()).find(|&k| k == bounded || modes[k].0 != 1 || reach.get(k).is_some_and(|&x| x != 0));
        if let Some(k) = next.filter(|&k| shape.checked_mul(stride) == Some(modes[k].1)) {
            if k == bounded {
                return Ok(());
            }
            continue;
        }
        if used >= size {
            return Err(Fail::NotDistributive { shape: size, reach: used });
        }
        (used, size) = (0, 1);
    }
    Ok(())
}

/// Leaves of `B` that move up (stride > 0, bit 1 of `signs`) and down
/// (stride < 0, bit 2) together do not distribute over an `A` of several
/// modes (`modes`, bounded and last): with the odd extension `A(-x) =
/// -A(x)`, `A(x - y)` is not `A(x) - A(y)` once `x - y` borrows across a mode
/// of `A` (`(2,4):(1,10)` at `2 - 1`: `A(1) = 1`, but `A(2) - A(1) = 9`).
/// One linear mode is linear everywhere.
///
/// ```
/// use cute_dynamic::kernel::{Fail, check_signs};
/// assert_eq!(check_signs(1, 3), Ok(()));
/// assert_eq!(check_signs(2, 3), Err(Fail::MixedSigns));
/// assert_eq!(check_signs(2, 1), Ok(()));
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn check_signs(modes: usize, signs: u8) -> Result<(), Fail> {
    if signs == 3 && modes > 1 { Err(Fail::MixedSigns) } else { Ok(()) }
}

/// A reach plus `x`: saturating (a reach past `i64` only has to fail the
/// distributivity check), plain when the values are known small.
#[inline(always)]
fn add_reach<const CHECKED: bool>(reach: i64, x: i64) -> i64 {
    if CHECKED { reach.saturating_add(x) } else { reach.wrapping_add(x) }
}

/// `a·b` for a composition: checked (an overflow is
/// [`Fail::Overflow`]) unless the caller proved the values small
/// (`CHECKED` false), as in [`compose_leaf`].
///
/// ```
/// use cute_dynamic::kernel::{Fail, compose_mul};
/// assert_eq!(compose_mul::<true>(3, 4), Ok(12));
/// assert_eq!(compose_mul::<true>(i64::MAX, 2), Err(Fail::Overflow("composition")));
/// ```
#[inline(always)]
pub fn compose_mul<const CHECKED: bool>(a: i64, b: i64) -> Result<i64, Fail> {
    if CHECKED { a.checked_mul(b).ok_or(Fail::Overflow("composition")) } else { Ok(a.wrapping_mul(b)) }
}
