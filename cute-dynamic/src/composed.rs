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

use crate::error::{LayoutError, Result, checked_add};
use crate::composition::composer::prepared_layout;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::SliceCoord;
use crate::swizzle::{AnySwizzle, Swizzle};
use crate::tiler::AsTiler;
use smallvec::SmallVec;
use std::fmt;

/// One stage `A ∘ O` of a composed layout: a swizzle after an offset.
///
/// ```
/// use cute_dynamic::{AnySwizzle, ComposedLayout, Stage, Swizzle};
/// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
/// let row = c.slice(&"(2,_)".parse()?)?; // row 2 starts at 2·64
/// let stage: Stage = row.stages()[0];
/// assert_eq!(stage, (AnySwizzle::from(Swizzle::smem_128b()), 128));
/// let (sw, offset) = stage;
/// assert_eq!(row.eval(5)?, sw.apply(offset + 5)); // A(O + B(5)), B = 64:1
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub type Stage = (AnySwizzle, i64);

/// `A ∘ O ∘ B`: a swizzle `A` after the offset `O` after the layout `B`;
/// in general a chain `A_0 ∘ O_0 ∘ A_1 ∘ O_1 ∘ … ∘ B` (CuTe's composed
/// layout whose inner part is itself a composed layout, as
/// `composition(composed, composed)` gives).
///
/// Post-condition of every operation returning one: it evaluates each
/// coordinate `c` of its domain to `A_0(O_0 + A_1(O_1 + … B(c)))`.
///
/// ```
/// use cute_dynamic::{ComposedLayout, Layout, Swizzle};
/// let b: Layout = "(8,8):(8,1)".parse()?; // 8×8, row-major
/// // Sw<3,0,3> XORs the row (offset bits 3-5) into the column (bits 0-2).
/// let c = ComposedLayout::compose(Swizzle::new(3, 0, 3)?, &b);
/// assert_eq!(c.to_string(), "Sw<3,0,3> o 0 o (8,8):(8,1)");
/// // Column 0 lands in column m of row m, so reading it touches 8 different columns.
/// let column: Vec<i64> = (0..8).map(|m| c.eval(m)).collect::<Result<_, _>>()?;
/// assert_eq!(column, [0, 9, 18, 27, 36, 45, 54, 63]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComposedLayout {
    /// `(A_0, O_0), (A_1, O_1), …`, outermost first; never empty.
    stages: SmallVec<[Stage; 1]>,
    inner: Layout,
}

impl ComposedLayout {
    /// The stages (outermost first) and the inner layout, by value.
    pub(crate) fn into_parts(self) -> (SmallVec<[Stage; 1]>, Layout) {
        (self.stages, self.inner)
    }

    /// `A ∘ O ∘ B` as given.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::new(Swizzle::new(3, 4, 3)?, 128, "64:1".parse()?);
    /// assert_eq!(c.to_string(), "Sw<3,4,3> o 128 o 64:1");
    /// assert_eq!(c.eval(1)?, 145); // Sw<3,4,3>(128 + 1) = 0x81 ^ 0x10
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn new(outer: impl Into<AnySwizzle>, offset: i64, inner: Layout) -> ComposedLayout {
        ComposedLayout { stages: smallvec::smallvec![(outer.into(), offset)], inner }
    }

    /// `A_0 ∘ O_0 ∘ A_1 ∘ O_1 ∘ … ∘ B`, the stages outermost first; `None`
    /// for no stage (that is the layout `B` itself).
    ///
    /// ```
    /// use cute_dynamic::{AnySwizzle, ComposedLayout, Swizzle};
    /// let sw: AnySwizzle = Swizzle::new(2, 0, 3)?.into();
    /// let c = ComposedLayout::from_stages([(sw, 0), (sw, 0)], "(8,8):(1,8)".parse()?).unwrap();
    /// assert_eq!(c.to_string(), "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)");
    /// assert_eq!(c.eval(9)?, 9); // the two swizzles cancel
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn from_stages(stages: impl IntoIterator<Item = Stage>, inner: Layout) -> Option<ComposedLayout> {
        let stages: SmallVec<[Stage; 1]> = stages.into_iter().collect();
        (!stages.is_empty()).then_some(ComposedLayout { stages, inner })
    }

    /// CuTe's `composition(swizzle, layout)`: `swizzle ∘ 0 ∘ layout`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Layout, Swizzle};
    /// let b: Layout = "(8,64):(64,1)".parse()?;
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &b);
    /// assert_eq!(c, ComposedLayout::new(Swizzle::smem_128b(), 0, b));
    /// assert_eq!(c.eval(2)?, 144); // B(2) = 128 = 0x80, swizzled to 0x90
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn compose(outer: impl Into<AnySwizzle>, inner: &Layout) -> ComposedLayout {
        ComposedLayout::new(outer, 0, inner.clone())
    }

    /// CuTe's `composition(swizzle, composed)`: `swizzle ∘ 0 ∘ composed`,
    /// one stage more, outermost.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let inner = ComposedLayout::compose(Swizzle::new(1, 0, 1)?, &"(4,4):(8,1)".parse()?);
    /// let c = ComposedLayout::compose_swizzle(Swizzle::new(3, 4, 3)?, &inner);
    /// assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o Sw<1,0,1> o 0 o (4,4):(8,1)");
    /// assert_eq!(c.stages().len(), 2);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn compose_swizzle(outer: impl Into<AnySwizzle>, inner: &ComposedLayout) -> ComposedLayout {
        let mut stages = SmallVec::with_capacity(inner.stages.len() + 1);
        stages.push((outer.into(), 0));
        stages.extend_from_slice(&inner.stages);
        ComposedLayout { stages, inner: inner.inner.clone() }
    }

    /// `A_0`, the outermost swizzle.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// assert_eq!(c.outer().to_string(), "Sw<3,4,3>");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn outer(&self) -> &AnySwizzle {
        &self.stages[0].0
    }

    /// `O_0`, the offset added before the outermost swizzle.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::new(Swizzle::smem_128b(), 128, "64:1".parse()?);
    /// assert_eq!(c.offset(), 128);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn offset(&self) -> i64 {
        self.stages[0].1
    }

    /// Every stage `(A_k, O_k)`, outermost first (one for `A ∘ O ∘ B`).
    ///
    /// ```
    /// use cute_dynamic::{AnySwizzle, ComposedLayout, Swizzle};
    /// let c = ComposedLayout::new(Swizzle::smem_128b(), 128, "64:1".parse()?);
    /// assert_eq!(c.stages().len(), 1);
    /// assert_eq!(c.stages()[0], (AnySwizzle::from(Swizzle::smem_128b()), 128));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// `B`, the layout that defines the domain.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// assert_eq!(c.inner().to_string(), "(8,64):(64,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn inner(&self) -> &Layout {
        &self.inner
    }

    /// `B`'s shape.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// assert_eq!(c.shape().to_string(), "(8,64)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn shape(&self) -> &IntTuple {
        self.inner.shape()
    }

    /// `B`'s size.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// assert_eq!(c.size(), 512);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn size(&self) -> i64 {
        self.inner.size()
    }

    /// `B`'s rank.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// assert_eq!(c.rank(), 2);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn rank(&self) -> usize {
        self.inner.rank()
    }

    /// `B`'s depth.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// assert_eq!(c.depth(), 1);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn depth(&self) -> usize {
        self.inner.depth()
    }

    /// `B`'s cosize, as CuTe's `cosize(ComposedLayout)`. (The swizzled
    /// offsets may reach past it: a swizzle permutes `[0, 2^n)`, not
    /// `[0, cosize)`.)
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(1, 0, 1)?, &"2:2".parse()?);
    /// assert_eq!(c.cosize(), 3); // B's offsets are 0 and 2
    /// assert_eq!(c.eval(1)?, 3); // Sw<1,0,1>(2) = 3: past the cosize
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn cosize(&self) -> i64 {
        self.inner.cosize()
    }

    /// The stages applied to an offset `B(c)` of the inner layout.
    fn at(&self, b: i64) -> Result<i64> {
        self.stages
            .iter()
            .rev()
            .try_fold(b, |v, (sw, o)| Ok(sw.apply(checked_add(*o, v, "composed layout evaluation")?)))
    }

    /// `A(O + B(i))` at an integral coordinate `0 <= i < size()`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// assert_eq!(c.eval(10)?, 145); // i = 10 is (2,1): B = 129 = 0x81, swizzled to 0x91
    /// assert!(c.eval(512).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn eval(&self, i: i64) -> Result<i64> {
        self.at(self.inner.eval(i)?)
    }

    /// `A(O + B(c))` at a coordinate weakly congruent to the shape.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// assert_eq!(c.eval_coord(&"(2,1)".parse()?)?, 145); // B = 129 = 0x81, swizzled to 0x91
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn eval_coord(&self, coord: &IntTuple) -> Result<i64> {
        self.at(self.inner.eval_coord(coord)?)
    }

    /// The same stages around `f(B)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle, coalesce};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(1,8)".parse()?);
    /// let d = c.map_inner(|b| Ok(coalesce(b)))?;
    /// assert_eq!(d.to_string(), "Sw<3,4,3> o 0 o 512:1");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn map_inner(&self, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<ComposedLayout> {
        Ok(self.with_inner(f(&self.inner)?))
    }

    /// The same stages around another inner layout.
    fn with_inner(&self, inner: Layout) -> ComposedLayout {
        ComposedLayout { stages: self.stages.clone(), inner }
    }

    /// Mode `i`: `A ∘ O ∘ B_i`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// assert_eq!(c.get(1).unwrap().to_string(), "Sw<3,4,3> o 0 o 64:1");
    /// assert!(c.get(2).is_none());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn get(&self, i: usize) -> Option<ComposedLayout> {
        Some(self.with_inner(self.inner.get(i)?))
    }

    /// `A ∘ O ∘ flatten(B)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"((2,4),64):((64,128),1)".parse()?);
    /// assert_eq!(c.flatten().to_string(), "Sw<3,4,3> o 0 o (2,4,64):(64,128,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn flatten(&self) -> ComposedLayout {
        self.with_inner(self.inner.flatten())
    }

    /// Slicing (CuTe's `slice_and_offset` of a composed layout): `B` is
    /// sliced and the offset of the fixed coordinates joins the innermost
    /// `O`, so that the
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
        let mut out = self.with_inner(sub);
        let last = out.stages.len() - 1;
        out.stages[last].1 = checked_add(out.stages[last].1, off, "slice")?;
        Ok(out)
    }

    /// `A ∘ O ∘ (B ∘ tiler)` (CuTe's `composition(ComposedLayout, Tiler)`).
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle, Tiler};
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
    /// let tile = c.composition(&"<8,8>".parse::<Tiler>()?)?; // the first 8 columns
    /// assert_eq!(tile.to_string(), "Sw<3,4,3> o 0 o (8,8):(64,1)");
    /// assert_eq!(tile.eval_coord(&"(2,1)".parse()?)?, c.eval_coord(&"(2,1)".parse()?)?);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn composition<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::composition(b, tiler))
    }

    /// `A ∘ O ∘ logical_divide(B, tiler)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle, Tiler};
    /// let c = ComposedLayout::compose(Swizzle::new(3, 4, 3)?, &"(8,16):(20,1)".parse()?);
    /// let t: Tiler = "<4:1, 8:2>".parse()?;
    /// assert_eq!(c.logical_divide(&t)?.to_string(), "Sw<3,4,3> o 0 o ((4,2),(8,2)):((20,80),(2,1))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn logical_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::logical_divide(b, tiler))
    }

    /// `A ∘ O ∘ zipped_divide(B, tiler)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle, Tiler};
    /// let c = ComposedLayout::compose(Swizzle::new(3, 4, 3)?, &"(8,16):(20,1)".parse()?);
    /// let t: Tiler = "<4:1, 8:2>".parse()?;
    /// assert_eq!(c.zipped_divide(&t)?.to_string(), "Sw<3,4,3> o 0 o ((4,8),(2,2)):((20,2),(80,1))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn zipped_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::zipped_divide(b, tiler))
    }

    /// `A ∘ O ∘ tiled_divide(B, tiler)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle, Tiler};
    /// let c = ComposedLayout::compose(Swizzle::new(3, 4, 3)?, &"(8,16):(20,1)".parse()?);
    /// let t: Tiler = "<4:1, 8:2>".parse()?;
    /// assert_eq!(c.tiled_divide(&t)?.to_string(), "Sw<3,4,3> o 0 o ((4,8),2,2):((20,2),80,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn tiled_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::tiled_divide(b, tiler))
    }

    /// `A ∘ O ∘ flat_divide(B, tiler)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle, Tiler};
    /// let c = ComposedLayout::compose(Swizzle::new(3, 4, 3)?, &"(8,16):(20,1)".parse()?);
    /// let t: Tiler = "<4:1, 8:2>".parse()?;
    /// assert_eq!(c.flat_divide(&t)?.to_string(), "Sw<3,4,3> o 0 o (4,8,2,2):(20,2,80,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn flat_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::flat_divide(b, tiler))
    }

    /// `A ∘ O ∘ logical_product(B, tiler)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Layout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(1, 0, 1)?, &"(2,2):(4,1)".parse()?);
    /// let p = c.logical_product(&"6:1".parse::<Layout>()?)?;
    /// assert_eq!(p.to_string(), "Sw<1,0,1> o 0 o ((2,2),(2,3)):((4,1),(2,8))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn logical_product<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::logical_product(b, tiler))
    }

    /// `A ∘ O ∘ blocked_product(B, layout)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(1, 0, 1)?, &"(3,4):(4,1)".parse()?);
    /// let p = c.blocked_product(&"(2,5):(1,2)".parse()?)?;
    /// assert_eq!(p.to_string(), "Sw<1,0,1> o 0 o ((3,2),(4,5)):((4,12),(1,24))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn blocked_product(&self, layout: &Layout) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::blocked_product(b, layout))
    }

    /// `A ∘ O ∘ raked_product(B, layout)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(1, 0, 1)?, &"(3,4):(4,1)".parse()?);
    /// let p = c.raked_product(&"(2,5):(1,2)".parse()?)?;
    /// assert_eq!(p.to_string(), "Sw<1,0,1> o 0 o ((2,3),(5,4)):((12,4),(24,1))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn raked_product(&self, layout: &Layout) -> Result<ComposedLayout> {
        self.map_inner(|b| crate::raked_product(b, layout))
    }

    /// `C ∘ D` for a composed layout `D` on the right: this layout's stages
    /// around `B ∘ D` ([`composition_with_composed`]), as CuTe's
    /// `composition(ComposedLayout, ComposedLayout)` nests them.
    ///
    /// Post-condition: the result evaluates every coordinate `c` of `D`'s
    /// domain to `C(D(c))` (checked point by point, see
    /// [`composition_with_composed`]).
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(2, 0, 3)?, &"(8,8):(8,1)".parse()?);
    /// let d = ComposedLayout::compose(Swizzle::new(2, 0, -3)?, &"(8,8):(8,1)".parse()?);
    /// let r = c.composition_with_composed(&d)?;
    /// assert_eq!(r.to_string(), "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn composition_with_composed(&self, d: &ComposedLayout) -> Result<ComposedLayout> {
        let inner = composition_with_composed(&self.inner, d)?;
        let mut stages = self.stages.clone();
        stages.extend_from_slice(&inner.stages);
        Ok(ComposedLayout { stages, inner: inner.inner })
    }

    /// CuTe's `left_inverse` of a composed layout `A_0 ∘ 0 ∘ … ∘ A_k ∘ 0 ∘ B`:
    /// `B† ∘ A_k ∘ … ∘ A_0`, each swizzle passed to the left of `B†` as
    /// CuTe's `composition(Layout, Swizzle)` does (`B† ∘ A = A' ∘ B†`), so
    /// the result is `A_k' ∘ 0 ∘ … ∘ A_0' ∘ 0 ∘ B†`.
    ///
    /// Post-condition (paper eq. 26, as for layouts): `C(R(C(k))) == C(k)` for
    /// every `k` of the domain, read in the domains, checked point by point
    /// before the result is returned. `B†` is [`left_inverse`](crate::left_inverse)'s
    /// answer, CuTe's where it is; where that is one of CuTe's forms read on
    /// the extended domains, or the check fails with it, the library's own
    /// left inverse of `B` (the paper's form or its search) is used instead.
    ///
    /// Errors: `NoLayout` when an offset `O_k` is not 0 (CuTe's answer is
    /// then no composed layout of this kind), when a swizzle does not pass
    /// through `B†`, when the check fails, or when the domain has more than
    /// [`COMPOSED_CHECK_LIMIT`] points; the errors of [`left_inverse`](crate::left_inverse).
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(1, 0, 2)?, &"(4,4):(4,1)".parse()?);
    /// assert_eq!(c.left_inverse()?.to_string(), "Sw<1,0,-2> o 0 o (4,4):(4,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn left_inverse(&self) -> Result<ComposedLayout> {
        use crate::inverse::{Reading, domain_left_inverse, left_inverse_read};
        let (inv, reading) = left_inverse_read(&self.inner)?;
        if reading == Reading::Extended {
            return self.left_inverse_with(domain_left_inverse(&self.inner)?);
        }
        match self.left_inverse_with(inv.clone()) {
            Ok(r) => Ok(r),
            Err(e) => match domain_left_inverse(&self.inner) {
                Ok(own) if own != inv => self.left_inverse_with(own),
                _ => Err(e),
            },
        }
    }

    /// [`left_inverse`](Self::left_inverse) with `inv` as `B†`, checked.
    fn left_inverse_with(&self, inv: Layout) -> Result<ComposedLayout> {
        let r = self.inverse_around("left_inverse", inv)?;
        let c = self.for_checks();
        check_points(
            "left_inverse",
            || self.to_string(),
            self.size(),
            |k| {
                let y = c.eval(k)?;
                Ok(c.eval(r.eval(y)?)? == y)
            },
        )?;
        Ok(r)
    }

    /// The same function on the domain, for the point-by-point checks: the
    /// inner layout coalesced, so that each evaluation walks a few modes
    /// rather than every leaf (thousands of size-1 leaves would make a
    /// check cost its size times its rank).
    fn for_checks(&self) -> ComposedLayout {
        ComposedLayout { stages: self.stages.clone(), inner: crate::coalesce::coalesce(&self.inner) }
    }

    /// CuTe's `right_inverse` of a composed layout `A_0 ∘ 0 ∘ … ∘ A_k ∘ 0 ∘
    /// B`: `B‡ ∘ A_k ∘ … ∘ A_0` with each swizzle passed to the left of `B‡`
    /// (see [`left_inverse`](Self::left_inverse)).
    ///
    /// Post-condition: `C(R(i)) == i` for every `i < size(R)`, checked point
    /// by point before the result is returned.
    ///
    /// Errors: as [`left_inverse`](Self::left_inverse).
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(1, 0, 1)?, &"(4,4):(8,1)".parse()?);
    /// assert_eq!(c.right_inverse()?.to_string(), "Sw<1,2,1> o 0 o 4:4");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn right_inverse(&self) -> Result<ComposedLayout> {
        let r = self.inverse_around("right_inverse", crate::right_inverse(&self.inner))?;
        let c = self.for_checks();
        check_points("right_inverse", || self.to_string(), r.size(), |i| Ok(c.eval(r.eval(i)?)? == i))?;
        Ok(r)
    }

    /// `inv ∘ A_k ∘ … ∘ A_0` with the swizzles passed through `inv` to its
    /// left, innermost stage first (the inverses' shared construction).
    fn inverse_around(&self, operation: &'static str, inv: Layout) -> Result<ComposedLayout> {
        let stages = through(&inv, self.stages.iter().rev(), operation, || self.to_string())?;
        Ok(ComposedLayout { stages, inner: inv })
    }

    /// `A ∘ O ∘ coalesce(B)`.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(1, 0, 1)?, &"(2,(1,6)):(1,(6,2))".parse()?);
    /// assert_eq!(c.coalesce().to_string(), "Sw<1,0,1> o 0 o 12:1");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn coalesce(&self) -> ComposedLayout {
        self.with_inner(crate::coalesce(&self.inner))
    }
}

impl fmt::Display for ComposedLayout {
    /// CuTe's `A o O o B`: `Sw<3,4,3> o 0 o (8,64):(64,1)`, each stage in
    /// turn for a longer chain.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (sw, o) in &self.stages {
            write!(f, "{sw} o {o} o ")?;
        }
        write!(f, "{}", self.inner)
    }
}

/// The largest domain (number of points) on which the composed-layout
/// operations of this module ([`composition_with_swizzle`],
/// [`composition_with_composed`], the inverses) check their answer point by
/// point. CuTe's construction of these answers "works in simple cases" (its
/// own comment); the check makes every answer exact, and beyond this size
/// the operation is refused rather than returned unchecked.
pub const COMPOSED_CHECK_LIMIT: i64 = 1 << 22;

fn no_layout(operation: &'static str, layout: String, reason: String) -> LayoutError {
    LayoutError::NoLayout { operation, layout, reason }
}

/// Checks `same(i)` for every `i` in `0..n`: the post-condition of a
/// composed-layout operation, point by point. The subject's text is built
/// only on failure.
fn check_points(
    operation: &'static str,
    subject: impl Fn() -> String,
    n: i64,
    mut same: impl FnMut(i64) -> Result<bool>,
) -> Result<()> {
    if n > COMPOSED_CHECK_LIMIT {
        return Err(no_layout(
            operation,
            subject(),
            format!(
                "its answer is checked point by point, and {n} points are more than the {COMPOSED_CHECK_LIMIT} checked"
            ),
        ));
    }
    for i in 0..n {
        match same(i) {
            Ok(true) => {}
            Ok(false) => {
                return Err(no_layout(
                    operation,
                    subject(),
                    format!("CuTe's construction of it gives a different function (at coordinate {i})"),
                ));
            }
            Err(e) => return Err(no_layout(operation, subject(), format!("at coordinate {i}: {e}"))),
        }
    }
    Ok(())
}

/// CuTe's `make_swizzle<Y,Z>()`: the swizzle that reads the bits `y` and
/// writes the bits `z` (`None` where no `Sw<B,M,S>` has these masks).
fn make_swizzle(y: i64, z: i64) -> Option<Swizzle> {
    if y < 0 || z < 0 || y.count_ones() != z.count_ones() {
        return None;
    }
    if y == 0 {
        return Swizzle::new(0, 0, 0).ok();
    }
    let (ty, tz) = (i64::from(y.trailing_zeros()), i64::from(z.trailing_zeros()));
    let sw = Swizzle::new(i64::from(y.count_ones()), ty.min(tz), ty - tz).ok()?;
    (sw.yyy_mask() == y && sw.zzz_mask() == z).then_some(sw)
}

/// The swizzle `A'` with `A ∘ sw = A' ∘ A`, as CuTe's
/// `composition(Layout, Swizzle)` finds it: `make_swizzle<A(yyy), A(zzz)>`,
/// `A` read on its extended domain. Not checked here: the callers check
/// their whole answer.
fn transfer(a: &Layout, sw: &AnySwizzle, operation: &'static str, subject: impl Fn() -> String) -> Result<Swizzle> {
    let AnySwizzle::Cute(sw) = sw else {
        return Err(LayoutError::Unsupported {
            what: format!("{operation} of a layout with {sw} (only Sw<B,M,S> passes through a layout)"),
        });
    };
    let (y, z) = (a.eval_extended(sw.yyy_mask())?, a.eval_extended(sw.zzz_mask())?);
    make_swizzle(y, z).ok_or_else(|| {
        no_layout(
            operation,
            subject(),
            format!(
                "{sw} does not pass through {a}: it maps the swizzle's masks {:#b} and {:#b} to {y:#b} and {z:#b}, which no Sw<B,M,S> reads and writes",
                sw.yyy_mask(),
                sw.zzz_mask()
            ),
        )
    })
}

/// Each stage `(A_k, 0)` passed through `a` ([`transfer`]), in the order
/// given; a stage with an offset other than 0 is refused, as CuTe refuses it
/// (an offset does not pass through a layout with the swizzle).
fn through<'s>(
    a: &Layout,
    stages: impl Iterator<Item = &'s Stage>,
    operation: &'static str,
    subject: impl Fn() -> String,
) -> Result<SmallVec<[Stage; 1]>> {
    stages
        .map(|(sw, o)| match o {
            0 => Ok((AnySwizzle::Cute(transfer(a, sw, operation, &subject)?), 0)),
            _ => Err(no_layout(operation, subject(), format!("the offset {o} inside the composed layout is not 0"))),
        })
        .collect()
}

/// CuTe's `composition(Layout, Swizzle)`: `A ∘ sw` written as `A' ∘ 0 ∘ A`,
/// the swizzle passed to the left of `A` (`A' = make_swizzle<A(yyy),
/// A(zzz)>`).
///
/// Post-condition: the result evaluates every `i < size(A)` to `A(sw(i))`
/// (`A` read on its extended domain), checked point by point.
///
/// Errors: `NoLayout` when no swizzle has the masks `A` maps the swizzle's
/// to, when the check fails, or when `A` has more than [`COMPOSED_CHECK_LIMIT`]
/// points; `Unsupported` for a [`BitFieldXor`](crate::BitFieldXor).
///
/// ```
/// use cute_dynamic::{Swizzle, composition_with_swizzle};
/// let r = composition_with_swizzle(&"(8,8):(8,1)".parse()?, Swizzle::new(2, 0, -3)?)?;
/// assert_eq!(r.to_string(), "Sw<2,0,3> o 0 o (8,8):(8,1)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn composition_with_swizzle(a: &Layout, sw: impl Into<AnySwizzle>) -> Result<ComposedLayout> {
    let sw = sw.into();
    let subject = || format!("{a} o {sw}");
    let r = ComposedLayout::new(transfer(a, &sw, "composition", subject)?, 0, a.clone());
    let (ae, rc) = (prepared_layout(a), r.for_checks());
    check_points("composition", subject, a.size(), |i| Ok(ae.eval_extended(sw.apply(i))? == rc.eval(i)?))?;
    Ok(r)
}

/// CuTe's `composition(Layout, ComposedLayout)`: `A ∘ (A_0 ∘ 0 ∘ … ∘ B)`
/// is `A_0' ∘ 0 ∘ … ∘ (A ∘ B)`, each swizzle passed to the left of `A` as
/// [`composition_with_swizzle`] does.
///
/// Post-conditions: the result's shape is `A ∘ B`'s, so it is compatible
/// with `B`'s; it evaluates every coordinate `c` of `B`'s domain to
/// `A(D(c))` (`D` the composed layout, `A` read on its extended domain),
/// checked point by point.
///
/// Errors: `NoLayout` when an offset of `D` is not 0 (CuTe requires 0), a
/// swizzle does not pass through `A`, the check fails, or the domain has
/// more than [`COMPOSED_CHECK_LIMIT`] points; the errors of `A ∘ B`.
///
/// ```
/// use cute_dynamic::{ComposedLayout, Swizzle, composition_with_composed};
/// let d = ComposedLayout::compose(Swizzle::new(2, 0, -3)?, &"(8,8):(8,1)".parse()?);
/// let r = composition_with_composed(&"(8,8):(8,1)".parse()?, &d)?;
/// assert_eq!(r.to_string(), "Sw<2,0,3> o 0 o (8,8):(1,8)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn composition_with_composed(a: &Layout, d: &ComposedLayout) -> Result<ComposedLayout> {
    let subject = || format!("{a} o {d}");
    let stages = through(a, d.stages.iter(), "composition", subject)?;
    let r = ComposedLayout { stages, inner: crate::composition(a, &d.inner)? };
    let (ae, dc, rc) = (prepared_layout(a), d.for_checks(), r.for_checks());
    check_points("composition", subject, d.size(), |c| Ok(ae.eval_extended(dc.eval(c)?)? == rc.eval(c)?))?;
    Ok(r)
}


/// CuTe's `print_layout` of a composed layout: the layout on the first
/// line, then the grid of swizzled offsets, mode 0 down the rows and mode 1
/// across the columns for a rank-2 layout (the other modes across for a
/// higher rank, one row for rank 1, as `print_layout`). The cell width
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
    let inner = layout.inner();
    let (rows, cols) = crate::print_layout::grid_shape(inner);
    let mut cells = Vec::with_capacity(usize::try_from(inner.size()).unwrap_or(0));
    for i in 0..inner.size() {
        cells.push(layout.eval(i)?);
    }
    let width = cells
        .iter()
        .fold(crate::print_layout::num_digits(layout.cosize()), |w, &v| w.max(crate::print_layout::num_digits(v)));
    let at = |m: i64, n: i64| cells[(m + n * rows) as usize];
    Ok(crate::print_layout::text_grid(layout, rows, cols, width, |m, n| at(m, n).to_string()))
}

/// The composition of a layout with a composed layout on its right is not
/// supported (CuTe composes the layout with the swizzle itself, which is a
/// layout only in special cases): this names the refusal.
pub(crate) fn unsupported(what: &str) -> LayoutError {
    LayoutError::Unsupported { what: format!("{what} of a composed (swizzled) layout") }
}
