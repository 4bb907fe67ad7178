//! Composed layouts `A ∘ offset ∘ B`: CuTe's `ComposedLayout` with a
//! swizzle as `A`.
//!
//! A swizzle is no layout (it is not linear in the coordinate), so a
//! swizzled layout is kept as the triple `(A, O, B)` and evaluates
//! `c ↦ A(O + B(c))`. As in CuTe, the inner layout `B` is the domain: the
//! shape, size, rank, depth and cosize are `B`'s, and slicing, divides,
//! products, coalesce and composition with a tiler act on `B` and keep
//! `A` and `O` (slicing adds the offset of the fixed coordinates to `O`).
//! There is no stride (CuTe deletes it too).
//!
//! ```
//! use cute_dynamic::{ComposedLayout, Layout, Swizzle};
//! let b: Layout = "(8,64):(64,1)".parse()?;
//! let c = ComposedLayout::compose(Swizzle::new(3, 4, 3)?, &b);
//! assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
//! assert_eq!(c.eval_coord(&"(1,0)".parse()?)?, 64);
//! assert_eq!(c.eval_coord(&"(2,0)".parse()?)?, 128 + 16);
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```

use crate::composition::AsTiler;
use crate::error::{LayoutError, Result, checked_add};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::SliceCoord;
use crate::swizzle::AnySwizzle;
use std::fmt;

/// `A ∘ O ∘ B`: a swizzle `A` after the offset `O` after the layout `B`.
///
/// Post-condition of every operation returning one: it evaluates each
/// coordinate `c` of its domain to `A(O + B(c))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComposedLayout {
    outer: AnySwizzle,
    offset: i64,
    inner: Layout,
}

impl ComposedLayout {
    /// `A ∘ O ∘ B` as given.
    pub fn new(outer: impl Into<AnySwizzle>, offset: i64, inner: Layout) -> ComposedLayout {
        ComposedLayout { outer: outer.into(), offset, inner }
    }

    /// CuTe's `composition(swizzle, layout)`: `swizzle ∘ 0 ∘ layout`.
    pub fn compose(outer: impl Into<AnySwizzle>, inner: &Layout) -> ComposedLayout {
        ComposedLayout::new(outer, 0, inner.clone())
    }

    /// `A`, the swizzle.
    pub fn outer(&self) -> &AnySwizzle {
        &self.outer
    }

    /// `O`, the offset added before the swizzle.
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// `B`, the layout that defines the domain.
    pub fn inner(&self) -> &Layout {
        &self.inner
    }

    /// `B`'s shape.
    pub fn shape(&self) -> &IntTuple {
        self.inner.shape()
    }

    /// `B`'s size.
    pub fn size(&self) -> i64 {
        self.inner.size()
    }

    /// `B`'s rank.
    pub fn rank(&self) -> usize {
        self.inner.rank()
    }

    /// `B`'s depth.
    pub fn depth(&self) -> usize {
        self.inner.depth()
    }

    /// `B`'s cosize, as CuTe's `cosize(ComposedLayout)`. (The swizzled
    /// offsets may reach past it: a swizzle permutes `[0, 2^n)`, not
    /// `[0, cosize)`.)
    pub fn cosize(&self) -> i64 {
        self.inner.cosize()
    }

    fn at(&self, b: i64) -> Result<i64> {
        Ok(self.outer.apply(checked_add(self.offset, b, "composed layout evaluation")?))
    }

    /// `A(O + B(i))` at an integral coordinate `0 <= i < size()`.
    pub fn eval(&self, i: i64) -> Result<i64> {
        self.at(self.inner.eval(i)?)
    }

    /// `A(O + B(c))` at a coordinate weakly congruent to the shape.
    pub fn eval_coord(&self, coord: &IntTuple) -> Result<i64> {
        self.at(self.inner.eval_coord(coord)?)
    }

    /// The same `A` and `O` around `f(B)`.
    pub fn map_inner(&self, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<ComposedLayout> {
        Ok(ComposedLayout { outer: self.outer, offset: self.offset, inner: f(&self.inner)? })
    }

    /// Mode `i`: `A ∘ O ∘ B_i`.
    pub fn get(&self, i: usize) -> Option<ComposedLayout> {
        Some(ComposedLayout { outer: self.outer, offset: self.offset, inner: self.inner.get(i)? })
    }

    /// `A ∘ O ∘ flatten(B)`.
    pub fn flatten(&self) -> ComposedLayout {
        ComposedLayout { outer: self.outer, offset: self.offset, inner: self.inner.flatten() }
    }

    /// Slicing (CuTe's `slice_and_offset` of a composed layout): `B` is
    /// sliced and the offset of the fixed coordinates joins `O`, so that the
    /// result at `k` is the composed layout at the coordinate `c(k)` (the
    /// `_` of `c` filled with `k`).
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(3, 4, 3)?, &"(8,64):(64,1)".parse()?);
    /// let row = c.slice(&"(2,_)".parse()?)?;
    /// assert_eq!(row.to_string(), "Sw<3,4,3> o 128 o 64:1");
    /// assert_eq!(row.eval(0)?, 144);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn slice(&self, coord: &SliceCoord) -> Result<ComposedLayout> {
        let (off, sub) = crate::slice(&self.inner, coord)?;
        Ok(ComposedLayout { outer: self.outer, offset: checked_add(self.offset, off, "slice")?, inner: sub })
    }

    /// `A ∘ O ∘ (B ∘ tiler)` (CuTe's `composition(ComposedLayout, Tiler)`).
    pub fn composition<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::composition(b, tiler))
    }

    /// `A ∘ O ∘ logical_divide(B, tiler)`.
    pub fn logical_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::logical_divide(b, tiler))
    }

    /// `A ∘ O ∘ zipped_divide(B, tiler)`.
    pub fn zipped_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::zipped_divide(b, tiler))
    }

    /// `A ∘ O ∘ tiled_divide(B, tiler)`.
    pub fn tiled_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::tiled_divide(b, tiler))
    }

    /// `A ∘ O ∘ flat_divide(B, tiler)`.
    pub fn flat_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::flat_divide(b, tiler))
    }

    /// `A ∘ O ∘ logical_product(B, tiler)`.
    pub fn logical_product<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::logical_product(b, tiler))
    }

    /// `A ∘ O ∘ blocked_product(B, layout)`.
    pub fn blocked_product(&self, layout: &Layout) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::blocked_product(b, layout))
    }

    /// `A ∘ O ∘ raked_product(B, layout)`.
    pub fn raked_product(&self, layout: &Layout) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::raked_product(b, layout))
    }

    /// `A ∘ O ∘ coalesce(B)`.
    pub fn coalesce(&self) -> ComposedLayout {
        ComposedLayout { outer: self.outer, offset: self.offset, inner: crate::coalesce(&self.inner) }
    }
}

impl fmt::Display for ComposedLayout {
    /// CuTe's `A o O o B`: `Sw<3,4,3> o 0 o (8,64):(64,1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.outer, self.offset, self.inner)
    }
}

fn num_digits(x: i64) -> usize {
    let mut n = if x < 0 { 2 } else { 1 };
    let mut x = x.unsigned_abs();
    while x >= 10 {
        x /= 10;
        n += 1;
    }
    n
}

/// CuTe's `print_layout` of a composed layout: the layout on the first
/// line, then the grid of swizzled offsets, mode 0 down the rows and mode 1
/// across the columns for a rank-2 layout, one row otherwise. The cell width
/// fits the largest offset drawn (CuTe sizes it by the cosize, which a
/// swizzled offset may pass).
///
/// ```
/// use cute_dynamic::{ComposedLayout, Swizzle, print_composed_layout};
/// let c = ComposedLayout::compose(Swizzle::new(1, 0, 1)?, &"(2,2):(2,1)".parse()?);
/// let expected = concat!(
///     "Sw<1,0,1> o 0 o (2,2):(2,1)\n",
///     "      0   1 \n",
///     "    +---+---+\n",
///     " 0  | 0 | 1 |\n",
///     "    +---+---+\n",
///     " 1  | 3 | 2 |\n",
///     "    +---+---+\n",
/// );
/// assert_eq!(print_composed_layout(&c)?, expected);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn print_composed_layout(layout: &ComposedLayout) -> Result<String> {
    use std::fmt::Write;
    let inner = layout.inner();
    let (rows, cols) = match (inner.rank(), inner.get(0), inner.get(1)) {
        (2, Some(m), Some(n)) => (m.size(), n.size()),
        _ => (1, inner.size()),
    };
    let mut cells = Vec::with_capacity(usize::try_from(inner.size()).unwrap_or(0));
    for i in 0..inner.size() {
        cells.push(layout.eval(i)?);
    }
    let width = cells.iter().fold(num_digits(layout.cosize()), |w, &v| w.max(num_digits(v)));
    let at = |m: i64, n: i64| cells[(m + n * rows) as usize];
    let mut out = String::new();
    let _ = writeln!(out, "{layout}");
    out.push_str("    ");
    for n in 0..cols {
        let _ = write!(out, "  {n:>width$} ");
    }
    out.push('\n');
    let rule: String = std::iter::repeat_n(format!("+{}", "-".repeat(width + 2)), cols as usize).collect();
    for m in 0..rows {
        let _ = writeln!(out, "    {rule}+");
        let _ = write!(out, "{m:>2}  ");
        for n in 0..cols {
            let _ = write!(out, "| {:>width$} ", at(m, n));
        }
        out.push_str("|\n");
    }
    let _ = writeln!(out, "    {rule}+");
    Ok(out)
}

/// The composition of a layout with a composed layout on its right is not
/// supported (CuTe composes the layout with the swizzle itself, which is a
/// layout only in special cases): this names the refusal.
pub(crate) fn unsupported(what: &str) -> LayoutError {
    LayoutError::Unsupported { what: format!("{what} of a composed (swizzled) layout") }
}
