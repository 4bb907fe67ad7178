//! `complement` (paper 3.5).

use crate::error::{LayoutError, Result};
use crate::kernel::{self, Fail};
use crate::layout::{Layout, Modes, layout_from_modes, with_scratch};

/// The error for a failed complement walk (cold): the kernel's message,
/// except for modes that interleave, which this crate can tell apart.
#[cold]
#[inline(never)]
fn complement_error(f: Fail, a: &Layout) -> LayoutError {
    match f {
        Fail::Interleaved { stride, extent } => interleaved(a, stride, extent),
        f => f.into_error(&|| a.to_string()),
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
        _ => complement_many(a, cotarget),
    }
}

/// [`complement`] of an `A` of 4 leaves or more (out of line: the usual
/// few leaves keep a small frame).
#[inline(never)]
fn complement_many(a: &Layout, cotarget: i64) -> Result<Layout> {
    let (shape, stride) = (a.shape.vals(), a.stride.vals());
    if shape.len() < STACK_MODES {
        return complement_small::<{ STACK_MODES - 1 }, STACK_MODES>(a, shape, stride, cotarget);
    }
    complement_large(a, cotarget)
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
    match complement_fixed::<L, M, true>(shape, stride, cotarget, &mut modes, false) {
        // Built in the returned value, not copied into it.
        Some(Ok(n)) => Ok(layout_from_modes(&modes[..n.min(M)])),
        Some(Err(f)) => Err(complement_error(f, a)),
        None => complement_large(a, cotarget),
    }
}

/// [`kernel::complement_coalesced`] of the leaves `shape`, `stride` into `out`, on
/// the stack (with `extended`, [`kernel::complement_extended`]): `None` for
/// more than 9 leaves. The usual 1, 2 and 3 leaves have their number known
/// to the compiler: the loops over the modes unroll and their checks go.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn complement_on_stack(
    shape: &[i64],
    stride: &[i64],
    cotarget: i64,
    out: &mut [(i64, i64); STACK_MODES],
    extended: bool,
) -> Option<std::result::Result<usize, Fail>> {
    match shape.len() {
        1 => complement_fixed::<1, 2, false>(shape, stride, cotarget, out, extended),
        2 => complement_fixed::<2, 3, false>(shape, stride, cotarget, out, extended),
        3 => complement_fixed::<3, 4, false>(shape, stride, cotarget, out, extended),
        n if n < STACK_MODES => {
            complement_fixed::<{ STACK_MODES - 1 }, STACK_MODES, false>(shape, stride, cotarget, out, extended)
        }
        _ => None,
    }
}

/// [`complement_on_stack`] of `L` leaves (at most `L`, for the largest
/// `L`) into the first `M = L + 1` slots of `out`.
///
/// With `BY_VALUE` (and not `extended`), 1 to 3 leaves go to the kernel
/// by value, which keeps them in registers
/// ([`kernel::complement_coalesced_fixed`]): what [`complement`] does
/// (about 10.8 ns → 9 ns). Not the divides and products: their
/// complements, of a tile or beside a composition, gained nothing there
/// and cost `logical_divide` 30 instructions.
#[cfg_attr(not(debug_assertions), inline(always))]
fn complement_fixed<const L: usize, const M: usize, const BY_VALUE: bool>(
    shape: &[i64],
    stride: &[i64],
    cotarget: i64,
    out: &mut [(i64, i64)],
    extended: bool,
) -> Option<std::result::Result<usize, Fail>> {
    let out = out.get_mut(..M)?;
    if BY_VALUE && !extended && L <= 3 && shape.len() == L && stride.len() == L {
        let a: [(i64, i64); L] = std::array::from_fn(|k| (shape[k], stride[k]));
        return Some(kernel::complement_coalesced_fixed(a, cotarget, out));
    }
    let l = shape.len().min(L);
    let (shape, stride) = (shape.get(..l)?, stride.get(..l)?);
    let leaves = shape.iter().copied().zip(stride.iter().copied());
    Some(if extended {
        kernel::complement_extended(leaves, cotarget, out)
    } else {
        kernel::complement_coalesced(leaves, cotarget, out)
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
    match kernel::complement_coalesced(a.pairs(), cotarget, &mut modes) {
        Ok(n) => Ok(layout_from_modes(&modes[..n])),
        Err(f) => Err(complement_error(f, a)),
    }
}

/// [`complement`] keeping its last mode even when that mode has size 1 (see
/// [`complement_full`]); what the products compose `B` with.
pub(crate) fn complement_extended(a: &Layout, cotarget: i64) -> Result<Layout> {
    // One mode per leaf of A, plus the last.
    with_scratch(a.shape.vals().len() + 1, |modes: &mut [(i64, i64)]| {
        let n = match kernel::complement_extended(a.pairs(), cotarget, modes) {
            Ok(n) => n,
            Err(f) => return Err(complement_error(f, a)),
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
