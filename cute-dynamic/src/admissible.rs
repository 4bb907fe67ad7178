//! The admissibility check of paper 3.4.4.

use crate::error::Result;
use crate::inverse::{Reading, left_inverse_read};
use crate::layout::Layout;

/// Whether every offset of `T` is an offset of `A`, at distinct coordinates
/// (paper 3.4.4): with `A†` the left inverse of `A`, for every `i` of `T`,
/// `T(i)` is in the domain of `A†`, the coordinates `A†(T(i))` are in the
/// domain of `A` and distinct, and `A(A†(T(i))) == T(i)`.
///
/// When it holds, `composition(A†, T)` maps `T`'s coordinates to `A`'s
/// coordinates of the same offsets.
///
/// Post-conditions: `true` exactly when the conditions above hold for every
/// `i` in `0..size(T)` (checked one by one, `O(size(T))`).
///
/// Where `A`'s left inverse is one of CuTe's forms read on the extended
/// domains (`A` not injective, at most 2^16 coordinates), the conditions
/// are checked on `A`'s image instead: every offset of `T` is one of `A`'s,
/// and no two coordinates of `T` meet (with a left inverse read in the
/// domains, that is what they say).
///
/// Errors: those of [`left_inverse`](crate::left_inverse) of `A`.
///
/// ```
/// use cute_dynamic::{Layout, is_admissible};
/// // TMEM: 128 lanes (stride 16384) by 32 columns; tcgen05.ld 32x32b.x1.
/// let data: Layout = "(128,32):(16384,1)".parse().unwrap();
/// let instr: Layout = "(1,128):(1,16384)".parse().unwrap();
/// assert!(is_admissible(&data, &instr).unwrap());
/// let half: Layout = "(64,32):(16384,1)".parse().unwrap();
/// assert!(!is_admissible(&half, &instr).unwrap());
/// ```
pub fn is_admissible(a: &Layout, t: &Layout) -> Result<bool> {
    let (inv, reading) = left_inverse_read(a)?;
    if reading == Reading::Extended {
        return by_image(a, t);
    }
    let mut seen = Vec::with_capacity(usize::try_from(t.size()).unwrap_or(0).min(1 << 20));
    for i in 0..t.size() {
        let off = t.eval(i)?;
        // Offsets below 0 are read on the inverse's extended domain (see
        // `left_inverse`, for layouts of negative strides).
        if off.unsigned_abs() >= inv.size().unsigned_abs() {
            return Ok(false);
        }
        let c = inv.eval_extended(off)?;
        if c < 0 || c >= a.size() || a.eval(c)? != off {
            return Ok(false);
        }
        seen.push(c);
    }
    seen.sort_unstable();
    Ok(!seen.windows(2).any(|w| w[0] == w[1]))
}

/// [`is_admissible`] on `A`'s image: `T` injective and its offsets offsets
/// of `A` (`A` small: its left inverse was checked by brute force).
#[cold]
fn by_image(a: &Layout, t: &Layout) -> Result<bool> {
    let mut image = (0..a.size()).map(|k| a.eval(k)).collect::<Result<Vec<i64>>>()?;
    image.sort_unstable();
    let mut seen = Vec::with_capacity(usize::try_from(t.size()).unwrap_or(0).min(1 << 20));
    for i in 0..t.size() {
        let off = t.eval(i)?;
        if image.binary_search(&off).is_err() {
            return Ok(false);
        }
        seen.push(off);
    }
    seen.sort_unstable();
    Ok(!seen.windows(2).any(|w| w[0] == w[1]))
}
