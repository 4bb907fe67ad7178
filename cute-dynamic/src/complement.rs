//! `complement` (paper 3.5).

use crate::error::{LayoutError, Result};
use crate::kernel::{ceil_div, divmod};
use crate::layout::{Layout, Modes, layout_from_modes, with_scratch};

/// Why a complement failed, without text: the kernel only records the
/// numbers, [`CFail::into_error`] writes the message (cold path).
#[derive(Clone, Copy, Debug)]
pub(crate) enum CFail {
    Negative,
    Cotarget,
    Interleaved { stride: i64, extent: i64 },
    Overflow(&'static str),
}

impl CFail {
    #[cold]
    #[inline(never)]
    pub(crate) fn into_error(self, a: &Layout, cotarget: i64) -> LayoutError {
        match self {
            CFail::Negative => LayoutError::Unsupported {
                what: format!("complement of {a}: negative strides have no ordered complement"),
            },
            CFail::Cotarget => {
                LayoutError::Unsupported { what: format!("complement of {a} with cotarget {cotarget} below 1") }
            }
            CFail::Interleaved { stride, extent } => interleaved(a, stride, extent),
            CFail::Overflow(operation) => LayoutError::Overflow { operation },
        }
    }
}

/// Writes into `out` the complement's modes before the final one (size-1
/// ones left out) and returns their number, the stride at which the final
/// ("rest") mode starts and the largest offset those modes and `A` reach
/// together. Works in the one buffer (one slot per leaf of `A`): `A`'s kept
/// modes are sorted in `out`, then replaced one by one by the complement's
/// (each needs only its own input).
#[cfg_attr(not(debug_assertions), inline(always))]
fn complement_modes(
    a: impl Iterator<Item = (i64, i64)>,
    out: &mut [(i64, i64)],
) -> std::result::Result<(usize, i64, i64), CFail> {
    let mut reach = 0i64;
    let mut n = 0;
    for (s, d) in a {
        if d < 0 {
            return Err(CFail::Negative);
        }
        if s != 1 && d != 0 {
            out[n] = (s, d);
            n += 1;
            // Within the layout's checked extent.
            reach = reach.saturating_add((s - 1) * d);
        }
    }
    let out = &mut out[..n];
    sort_modes(out);
    let mut curr = 1i64;
    let mut kept = 0;
    for k in 0..out.len() {
        let (s, d) = out[k];
        if d < curr {
            return Err(CFail::Interleaved { stride: d, extent: curr });
        }
        // Floor division: a stride that is not a multiple leaves a gap the
        // complement cannot fill, but what it produces is still disjoint.
        let n = divmod(d, curr).0;
        if n != 1 {
            out[kept] = (n, curr);
            kept += 1;
            // Saturating: a reach past i64 only means the cotarget is met.
            reach = reach.saturating_add((n - 1).saturating_mul(curr));
        }
        curr = s.checked_mul(d).ok_or(CFail::Overflow("complement"))?;
    }
    Ok((kept, curr, reach))
}

/// Sorts modes by `(stride, shape)`: an insertion sort, as the lists are a
/// few modes long (the library's sort spends longer choosing its method).
#[cfg_attr(not(debug_assertions), inline(always))]
fn sort_modes(m: &mut [(i64, i64)]) {
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

/// The error for modes that interleave: `NotInjective` when two coordinates
/// really meet (checked by brute force on this error path for sizes up to
/// 2^20), `NotComplementable` otherwise.
fn interleaved(a: &Layout, stride: i64, extent: i64) -> LayoutError {
    let kept: Modes = a.modes().into_iter().filter(|&(s, d)| s != 1 && d != 0).collect();
    if is_injective_small(&kept) == Some(false) {
        return LayoutError::NotInjective { layout: a.to_string() };
    }
    LayoutError::NotComplementable { layout: a.to_string(), stride, extent }
}

/// Brute-force injectivity of flat modes, for sizes up to 2^20 (error paths
/// only); `None` when the layout is too large to tell.
pub(crate) fn is_injective_small(kept: &[(i64, i64)]) -> Option<bool> {
    let size = kept.iter().try_fold(1i64, |acc, &(s, _)| acc.checked_mul(s));
    if let Some(n) = size.filter(|&n| n <= 1 << 20) {
        let mut offs: Vec<i64> = (0..n).map(|i| crate::layout::eval_pairs(kept.iter().copied(), i)).collect();
        offs.sort_unstable();
        return Some(!offs.windows(2).any(|w| w[0] == w[1]));
    }
    None
}

/// The complement of `A` with respect to the cotarget `M` (CuTe's
/// `complement(A, M)`): the ordered layout that fills the offsets `A` leaves
/// out, repeated until its size covers `M`.
///
/// Stride-0 and size-1 modes of `A` are ignored (they add no offsets). The
/// result is coalesced; size-1 modes are dropped (`1:0` if nothing is left).
///
/// Post-conditions (paper eqs. 28–29 and CuTe's unit test):
/// * disjoint: `R(a) != A(b)` for every `a` in `1..size(R)` and every `b`;
/// * ordered: `R(a-1) < R(a)` for every `a` in `1..size(R)`;
/// * covering: `cosize(make_layout(A, R)) >= M`;
/// * `make_layout(filter(A), R)` is injective.
///
/// Errors: `NotInjective` if two coordinates of the filtered `A` meet,
/// `NotComplementable` for injective layouts whose sorted modes interleave,
/// `Unsupported` for negative strides or `M < 1`, `Overflow`.
///
/// ```
/// use cute_dynamic::{Layout, complement};
/// let a: Layout = "4:2".parse().unwrap();
/// assert_eq!(complement(&a, 24).unwrap().to_string(), "(2,3):(1,8)");
/// let a: Layout = "(2,2):(1,6)".parse().unwrap();
/// assert_eq!(complement(&a, 24).unwrap().to_string(), "(3,2):(2,12)");
/// ```
pub fn complement(a: &Layout, cotarget: i64) -> Result<Layout> {
    // As `complement_on_stack`, each size with its own room (`L + 1`
    // modes), which the result is then built from. Only the leaves
    // matter: the structure is not read.
    let (shape, stride) = (a.shape.vals(), a.stride.vals());
    match shape.len() {
        1 => complement_small::<1, 2>(a, shape, stride, cotarget),
        2 => complement_small::<2, 3>(a, shape, stride, cotarget),
        3 => complement_small::<3, 4>(a, shape, stride, cotarget),
        n if n < STACK_MODES => complement_small::<{ STACK_MODES - 1 }, STACK_MODES>(a, shape, stride, cotarget),
        _ => complement_large(a, cotarget),
    }
}

/// [`complement`] of an `A` of `L` leaves (at most `L`, for the largest
/// `L`), with room for `M = L + 1` modes on the stack.
#[cfg_attr(not(debug_assertions), inline(always))]
fn complement_small<const L: usize, const M: usize>(
    a: &Layout,
    shape: &[i64],
    stride: &[i64],
    cotarget: i64,
) -> Result<Layout> {
    let mut modes = [(0i64, 0i64); M];
    match complement_fixed::<L, M>(shape, stride, cotarget, &mut modes, false) {
        // Built in the returned value, not copied into it.
        Some(Ok(n)) => Ok(layout_from_modes(&modes[..n.min(M)])),
        Some(Err(f)) => Err(f.into_error(a, cotarget)),
        None => complement_large(a, cotarget),
    }
}

/// [`complement_coalesced`] of the leaves `shape`, `stride` into `out`, on
/// the stack (with `extended`, [`complement_extended_modes`]): `None` for
/// more than 9 leaves. The usual 1, 2 and 3 leaves have their number known
/// to the compiler: the loops over the modes unroll and their checks go.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn complement_on_stack(
    shape: &[i64],
    stride: &[i64],
    cotarget: i64,
    out: &mut [(i64, i64); STACK_MODES],
    extended: bool,
) -> Option<std::result::Result<usize, CFail>> {
    match shape.len() {
        1 => complement_fixed::<1, 2>(shape, stride, cotarget, out, extended),
        2 => complement_fixed::<2, 3>(shape, stride, cotarget, out, extended),
        3 => complement_fixed::<3, 4>(shape, stride, cotarget, out, extended),
        n if n < STACK_MODES => {
            complement_fixed::<{ STACK_MODES - 1 }, STACK_MODES>(shape, stride, cotarget, out, extended)
        }
        _ => None,
    }
}

/// [`complement_on_stack`] of `L` leaves (at most `L`, for the largest
/// `L`) into the first `M = L + 1` slots of `out`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn complement_fixed<const L: usize, const M: usize>(
    shape: &[i64],
    stride: &[i64],
    cotarget: i64,
    out: &mut [(i64, i64)],
    extended: bool,
) -> Option<std::result::Result<usize, CFail>> {
    let l = shape.len().min(L);
    let (shape, stride) = (shape.get(..l)?, stride.get(..l)?);
    let out = out.get_mut(..M)?;
    let leaves = shape.iter().copied().zip(stride.iter().copied());
    Some(if extended {
        complement_extended_modes(leaves, cotarget, out)
    } else {
        complement_coalesced(leaves, cotarget, out)
    })
}

/// Room for the modes of [`complement`] on the stack: one per leaf of `A`
/// and one more, for up to 9 leaves.
pub(crate) const STACK_MODES: usize = 10;

/// [`complement`] of an `A` of more leaves than the stack room.
#[cold]
#[inline(never)]
fn complement_large(a: &Layout, cotarget: i64) -> Result<Layout> {
    let mut modes = vec![(0i64, 0i64); a.shape.vals().len() + 1];
    match complement_coalesced(a.pairs(), cotarget, &mut modes) {
        Ok(n) => Ok(layout_from_modes(&modes[..n])),
        Err(f) => Err(f.into_error(a, cotarget)),
    }
}

/// [`complement`]'s modes, coalesced, written into `out` (one slot per leaf
/// of `A`, plus one; at least one mode: `1:0` when nothing is left), their
/// extent checked. Returns the number of modes.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn complement_coalesced(
    a: impl Iterator<Item = (i64, i64)>,
    cotarget: i64,
    out: &mut [(i64, i64)],
) -> std::result::Result<usize, CFail> {
    let n = complement_extended_modes(a, cotarget, out)?;
    let n = crate::coalesce::coalesce_slice(&mut out[..n]);
    if n == 0 {
        out[0] = (1, 0);
        return Ok(1);
    }
    check_modes_extent(&out[..n])?;
    Ok(n)
}

/// The size and every offset of flat modes fit in `i64`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn check_modes_extent(m: &[(i64, i64)]) -> std::result::Result<(), CFail> {
    let (mut size, mut hi) = (1i64, 0i64);
    let mut bad = None;
    for &(s, d) in m {
        let Some(x) = size.checked_mul(s) else {
            bad = Some("layout size");
            break;
        };
        size = x;
        match (s - 1).checked_mul(d) {
            Some(span) if span > 0 => match hi.checked_add(span) {
                Some(h) => hi = h,
                None => bad = bad.or(Some("layout extent")),
            },
            Some(_) => {}
            None => bad = bad.or(Some("layout extent")),
        }
    }
    if hi.checked_add(1).is_none() {
        bad = bad.or(Some("layout extent"));
    }
    match bad {
        None => Ok(()),
        // The general check names the condition as it always has.
        Some(_) => match layout_from_modes(m).check_extent() {
            Err(LayoutError::Overflow { operation }) => Err(CFail::Overflow(operation)),
            _ => Err(CFail::Overflow("layout extent")),
        },
    }
}

/// The complement's modes with respect to `cotarget` written into `out` (one
/// slot per leaf of `A`, plus one), the last ("rest") mode kept even when
/// its size is 1: its stride is where the next replica of `A` starts, which
/// the extended domain needs (composition reads past the end of the
/// complement along that mode). Returns the number of modes.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn complement_extended_modes(
    a: impl Iterator<Item = (i64, i64)>,
    cotarget: i64,
    out: &mut [(i64, i64)],
) -> std::result::Result<usize, CFail> {
    if cotarget < 1 {
        return Err(CFail::Cotarget);
    }
    let (n, curr, covered) = complement_modes(a, out)?;
    // The last mode repeats until make_layout(A, R) reaches the cotarget.
    // Where a stride is not a multiple of the extent below it, the floor
    // division leaves a gap, so count the reach actually covered rather
    // than ceil(M / curr) (which would fall short: ((2,2)):((11,1)) with 22).
    let need = cotarget - 1 - covered;
    let last = if need <= 0 { 1 } else { 1 + ceil_div(need, curr) };
    // No two modes merge (each stride is at least the extent of the mode
    // before it).
    out[n] = (last, curr);
    Ok(n + 1)
}

/// [`complement`] keeping its last mode even when that mode has size 1 (see
/// [`complement_full`]); what the products compose `B` with.
pub(crate) fn complement_extended(a: &Layout, cotarget: i64) -> Result<Layout> {
    // One mode per leaf of A, plus the last.
    with_scratch(a.shape.vals().len() + 1, |modes: &mut [(i64, i64)]| {
        let n = match complement_extended_modes(a.pairs(), cotarget, modes) {
            Ok(n) => n,
            Err(f) => return Err(f.into_error(a, cotarget)),
        };
        let r = layout_from_modes(&modes[..n]);
        r.check_extent()?;
        Ok(r)
    })
}

/// The complement of `A` in the paper's form (Table 7): the complement with
/// respect to `cosize(A)`, keeping its last mode even when that mode has
/// size 1, because the stride of that mode is where the next replica of `A`
/// starts on the extended domain (e.g. `(4,8):(1,4)` gives `1:32`, and
/// `(4,8):(1,8)` gives `(2,1):(4,64)`).
///
/// Post-conditions (paper eqs. 28–29): `R(a) != A(b)` for every `a ≠ 0` of
/// `R`'s extended domain and every `b` of `A`'s domain; `R(a-1) < R(a)` for
/// every `a ≥ 1`; the last stride of `R` is greater than every offset of `A`.
///
/// Errors: as [`complement`].
///
/// ```
/// use cute_dynamic::{Layout, complement_full};
/// let a: Layout = "(4,8):(1,8)".parse().unwrap();
/// assert_eq!(complement_full(&a).unwrap().to_string(), "(2,1):(4,64)");
/// ```
pub fn complement_full(a: &Layout) -> Result<Layout> {
    complement_extended(a, a.cosize())
}
