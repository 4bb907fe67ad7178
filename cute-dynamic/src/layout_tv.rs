//! Thread-value layouts: CuTe's `make_layout_tv` (the core of
//! `make_tiled_copy(atom, thr_layout, val_layout)`).

use crate::composition::composition;
use crate::error::{LayoutError, Result, checked_mul};
use crate::int_tuple::IntTuple;
use crate::inverse::right_inverse;
use crate::layout::Layout;
use crate::product::raked_product;

/// The thread-value layout of a thread layout `thr` ((m,n) → thread index)
/// and a value layout `val` ((m,n) → value index), as CuTe's
/// `make_tiled_copy` builds it, and the tile it covers.
///
/// * `layout_mn = raked_product(thr, val)`: (m,n) → `t + size(thr)·v`, each
///   thread's values raked across the tile;
/// * the TV layout is `right_inverse(layout_mn)` read with the shape
///   `(size(thr), size(val))`: (t,v) → the column-major index `m + M·n` of
///   the cell of the tile that holds thread `t`'s value `v`;
/// * the tiler is the size of each mode of `layout_mn`, `(M, N, ...)`.
///
/// Post-conditions: `rank(tv) == 2`, `size(tv) == size(thr)·size(val) ==
/// product(tiler)`, and `layout_mn(tv(t + size(thr)·v)) == t + size(thr)·v`
/// for every thread `t` and value `v`: every cell of the tile belongs to
/// exactly one (thread, value).
///
/// Errors: those of [`raked_product`]; `NoLayout` when `layout_mn` does not
/// take every index `0..size(thr)·size(val)` (for example a thread layout
/// with a stride-0 mode or holes), so that no thread-value layout covers the
/// tile.
///
/// ```
/// use cute_dynamic::{Layout, make_layout_tv};
/// let thr: Layout = "(2,3):(3,1)".parse()?;
/// let val: Layout = "(2,2):(2,1)".parse()?;
/// let (tv, tiler) = make_layout_tv(&thr, &val)?;
/// assert_eq!(tv.to_string(), "((3,2),(2,2)):((8,2),(4,1))");
/// assert_eq!(tiler.to_string(), "(4,6)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_layout_tv(thr: &Layout, val: &Layout) -> Result<(Layout, IntTuple)> {
    let layout_mn = raked_product(thr, val)?;
    let (t, v) = (thr.size(), val.size());
    let inverse = right_inverse(&layout_mn);
    if inverse.size() < checked_mul(t, v, "make_layout_tv")? {
        return Err(not_a_tiling(thr, val, &layout_mn, inverse.size()));
    }
    let tv = composition(&inverse, &Layout::column_major(&IntTuple::flat([t, v]))?)?;
    let tiler = match layout_mn.shape().as_int() {
        Some(n) => IntTuple::int(n),
        None => IntTuple::flat(layout_mn.modes_iter().map(|m| m.size())),
    };
    Ok((tv, tiler))
}

#[cold]
fn not_a_tiling(thr: &Layout, val: &Layout, layout_mn: &Layout, reached: i64) -> LayoutError {
    LayoutError::NoLayout {
        operation: "make_layout_tv",
        layout: format!("{thr} and {val}"),
        reason: format!(
            "their raked product {layout_mn} takes only the indices 0..{reached} contiguously from 0, \
             not all {} thread-value indices, so the threads' values do not tile it once each",
            layout_mn.size()
        ),
    }
}
