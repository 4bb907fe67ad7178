//! `Tensor`: data (an engine) composed with a layout (CuTe's `Tensor`).
//!
//! A tensor is storage, a base offset into it and a layout: the element at
//! coordinate `c` is `storage[base + L(c)]`. Changing the layout (slicing,
//! composing, dividing, tiling, partitioning) makes another view of the same
//! data; the data never moves.
//!
//! A tensor's layout may be swizzled ([`ComposedLayout`], CuTe's tensor over
//! a `ComposedLayout`): the algebra acts on the inner layout, the swizzles on
//! the offsets.
//!
//! Bounds: [`make_tensor`] checks once that every offset of the layout lies
//! in the storage, and every access is memory-safe. A view made by a divide
//! or a tile of a ragged tensor reaches past the tensor's shape at its edge,
//! as in CuTe, which tiles the extended domain (`(1000,500)` by `<128,64>`
//! gives 8×8 tiles, of which the last row and column stick out). At a
//! coordinate past the shape the layout gives an offset that is either
//! another element of the storage (a column-major matrix's next column) or
//! past the storage ([`Tensor::get`] then returns `OutOfStorage` and
//! indexing panics). Kernels guard such edges with predication, as in CuTe:
//! an identity tensor ([`make_identity_tensor`]) tiled exactly like the data
//! and [`elem_less`](crate::elem_less) against the tensor's shape.

use crate::composed::{ComposedLayout, Stage};
use crate::coord::Coord;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::{SliceCoord, slice_and_offset};
use crate::tiler::AsTiler;
use smallvec::SmallVec;
use std::ops::{Index, IndexMut};

/// Storage a tensor reads: anything that is a slice of elements.
///
/// Implemented for `&[T]`, `&mut [T]`, `Vec<T>`, `Box<[T]>` and `[T; N]`.
///
/// ```
/// use cute_dynamic::{Engine, Layout, make_tensor};
/// // Element (1,2) of any storage viewed as a row-major 2×3 matrix.
/// fn at_1_2<E: Engine<Elem = i32>>(storage: E) -> cute_dynamic::Result<i32> {
///     let t = make_tensor(storage, "(2,3):(3,1)".parse::<Layout>()?)?;
///     Ok(*t.get((1, 2))?)
/// }
/// let data: Vec<i32> = (0..6).collect();
/// assert_eq!(at_1_2(&data[..])?, 5); // 1·3 + 2·1
/// assert_eq!(at_1_2([0, 1, 2, 3, 4, 5])?, 5);
/// assert_eq!(at_1_2(data.into_boxed_slice())?, 5);
/// assert!(at_1_2(vec![0; 5]).is_err()); // offset 5 is past 5 elements
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub trait Engine {
    /// The element type.
    type Elem;
    /// The whole storage.
    ///
    /// ```
    /// use cute_dynamic::Engine;
    /// let v = vec![1, 2, 3];
    /// assert_eq!(v.as_slice(), &[1, 2, 3]);
    /// assert_eq!(Engine::as_slice(&[4u8; 2]), &[4, 4]);
    /// ```
    fn as_slice(&self) -> &[Self::Elem];
}

/// Storage a tensor writes.
///
/// ```
/// use cute_dynamic::{EngineMut, Layout, make_tensor};
/// // Sets the diagonal of any writable storage viewed as an n×n column-major matrix.
/// fn set_diagonal<E: EngineMut<Elem = f32>>(storage: E, n: i64) -> cute_dynamic::Result<()> {
///     let mut t = make_tensor(storage, format!("({n},{n}):(1,{n})").parse::<Layout>()?)?;
///     for i in 0..n {
///         *t.get_mut((i, i))? = 1.0;
///     }
///     Ok(())
/// }
/// let mut a = [0f32; 9];
/// set_diagonal(&mut a[..], 3)?;
/// assert_eq!(a, [1., 0., 0., 0., 1., 0., 0., 0., 1.]);
/// assert!(set_diagonal(vec![0f32; 8], 3).is_err()); // 3×3 does not fit in 8
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub trait EngineMut: Engine {
    /// The whole storage, mutably.
    ///
    /// ```
    /// use cute_dynamic::EngineMut;
    /// let mut a = [0i32; 3];
    /// EngineMut::as_mut_slice(&mut a)[1] = 7;
    /// assert_eq!(a, [0, 7, 0]);
    /// ```
    fn as_mut_slice(&mut self) -> &mut [Self::Elem];
}

impl<T> Engine for &[T] {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> Engine for &mut [T] {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> EngineMut for &mut [T] {
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}
impl<T> Engine for Vec<T> {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> EngineMut for Vec<T> {
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}
impl<T> Engine for Box<[T]> {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> EngineMut for Box<[T]> {
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}
impl<T, const N: usize> Engine for [T; N] {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T, const N: usize> EngineMut for [T; N] {
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

/// CuTe's `Tensor`: an engine (the storage) and a layout, plus the base
/// offset of the layout's origin in the storage.
///
/// The element at coordinate `c` is `storage[offset + L(c)]`.
///
/// ```
/// use cute_dynamic::{Layout, make_tensor};
/// let data: Vec<i32> = (0..24).collect();
/// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?;  // row-major 4×6
/// assert_eq!(t[(1, 2)], 8);
/// assert_eq!(t[5], 7);                                // integral coordinate (column-major order)
/// let row = t.slice(&"(1,_)".parse()?)?;             // the tensor's row 1
/// assert_eq!(row.layout().to_string(), "(6):(1)");
/// assert_eq!((0..6).map(|j| row[j]).collect::<Vec<_>>(), [6, 7, 8, 9, 10, 11]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tensor<E> {
    pub(crate) engine: E,
    pub(crate) offset: i64,
    pub(crate) layout: Layout,
    /// The swizzles of a tensor over a composed layout `A_0 ∘ O_0 ∘ … ∘ L`
    /// (outermost first; empty for a plain layout): the element at `c` is
    /// `storage[A_0(O_0 + …(offset + L(c)))]`. The algebra acts on `L`.
    pub(crate) stages: SmallVec<[Stage; 1]>,
}

/// A layout a tensor can have: a [`Layout`], or a [`ComposedLayout`] (a
/// swizzled layout, CuTe's tensor over a `ComposedLayout`), whose element
/// at `c` is `storage[A(O + offset + L(c))]`: the layout algebra (slicing,
/// tiling, partitioning) acts on the inner layout `L`, the swizzles on the
/// offsets.
///
/// ```
/// use cute_dynamic::{ComposedLayout, Layout, Swizzle, TensorLayout, make_tensor};
/// // Element (1,0) of 32 numbers viewed through any tensor layout.
/// fn at_1_0<L: TensorLayout>(layout: L) -> cute_dynamic::Result<u32> {
///     let data: Vec<u32> = (0..32).collect();
///     Ok(*make_tensor(&data[..], layout)?.get((1, 0))?)
/// }
/// let l: Layout = "(4,8):(8,1)".parse()?; // row-major 4×8
/// assert_eq!(at_1_0(l.clone())?, 8);
/// // Sw<2,0,3> XORs offset bits 3-4 (the row) into bits 0-1.
/// assert_eq!(at_1_0(ComposedLayout::compose(Swizzle::new(2, 0, 3)?, &l))?, 8 ^ 1);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub trait TensorLayout {
    /// The swizzle stages (outermost first, none for a layout) and the
    /// inner layout.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Layout, Swizzle, TensorLayout};
    /// let l: Layout = "(8,8):(8,1)".parse()?;
    /// let (stages, inner) = l.clone().into_stages();
    /// assert!(stages.is_empty());
    /// assert_eq!(inner, l);
    /// let c = ComposedLayout::new(Swizzle::new(3, 0, 3)?, 4, l.clone());
    /// let (stages, inner) = c.into_stages();
    /// assert_eq!(stages.len(), 1);
    /// assert_eq!(stages[0].1, 4); // the offset O of Sw<3,0,3> o 4 o L
    /// assert_eq!(inner, l);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn into_stages(self) -> (SmallVec<[Stage; 1]>, Layout);
}
impl TensorLayout for Layout {
    fn into_stages(self) -> (SmallVec<[Stage; 1]>, Layout) {
        (SmallVec::new(), self)
    }
}
impl TensorLayout for ComposedLayout {
    fn into_stages(self) -> (SmallVec<[Stage; 1]>, Layout) {
        self.into_parts()
    }
}

/// `A_0(O_0 + A_1(O_1 + … x))`.
fn apply_stages(stages: &[Stage], x: i64) -> Result<i64> {
    stages.iter().rev().try_fold(x, |v, (sw, o)| {
        let w = o.checked_add(v).ok_or(LayoutError::Overflow { operation: "swizzled tensor offset" })?;
        Ok(sw.apply(w))
    })
}

/// A tensor over `engine` with `layout`, its origin at storage index 0.
///
/// Post-condition: every offset `L(c)` of the layout's domain is an index
/// of the storage (`0 <= L(c) < len`), so every element of the tensor
/// exists.
///
/// Errors: `OutOfStorage` when the layout reaches an offset below 0 or at
/// least the storage's length.
///
/// The layout may be a swizzled one ([`ComposedLayout`]): every swizzled
/// offset is then checked (up to [`COMPOSED_CHECK_LIMIT`](crate::COMPOSED_CHECK_LIMIT)
/// elements; `Limit` above).
///
/// ```
/// use cute_dynamic::{ComposedLayout, Layout, Swizzle, make_tensor};
/// let data = [0u8; 32];
/// assert!(make_tensor(&data[..], "(4,8):(1,4)".parse::<Layout>()?).is_ok());
/// let sw = ComposedLayout::compose(Swizzle::new(2, 0, 3)?, &"(4,8):(8,1)".parse()?);
/// let values: Vec<u32> = (0..32).collect();
/// let t = make_tensor(&values[..], sw)?;
/// assert_eq!(t[(1, 0)], 8 ^ 1);                         // row 1 starts at column 1
/// assert_eq!(t.slice(&"(3,_)".parse()?)?[0], 24 ^ 3);   // slices keep the swizzle
/// assert!(make_tensor(&data[..], "(4,8):(1,5)".parse::<Layout>()?).is_err()); // cosize 39 > 32
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_tensor<E: Engine, L: TensorLayout>(engine: E, layout: L) -> Result<Tensor<E>> {
    make_tensor_at(engine, 0, layout)
}

/// A tensor whose layout origin is storage index `offset` (CuTe's
/// `make_tensor(ptr + offset, layout)`), for layouts with negative strides.
///
/// Post-condition and errors: as [`make_tensor`], for `offset + L(c)`.
///
/// ```
/// use cute_dynamic::{Layout, make_tensor_at};
/// let data = [10, 11, 12, 13];
/// let rev = make_tensor_at(&data[..], 3, "4:-1".parse::<Layout>()?)?;
/// assert_eq!((0..4).map(|i| rev[i]).collect::<Vec<_>>(), [13, 12, 11, 10]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_tensor_at<E: Engine, L: TensorLayout>(engine: E, offset: i64, layout: L) -> Result<Tensor<E>> {
    let len = engine.as_slice().len();
    let (stages, layout) = layout.into_stages();
    if !stages.is_empty() {
        return make_swizzled(engine, offset, stages, layout);
    }
    let (lo, hi) = offset_range(&layout);
    let (lo, hi) = (offset.checked_add(lo), offset.checked_add(hi));
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo >= 0 && (hi as u128) < len as u128 => {
            Ok(Tensor { engine, offset, layout, stages: SmallVec::new() })
        }
        _ => Err(LayoutError::OutOfStorage {
            what: format!("the layout {layout} at offset {offset}"),
            lo: lo.unwrap_or(i64::MIN),
            hi: hi.unwrap_or(i64::MAX),
            len,
        }),
    }
}

/// A tensor over a composed layout: every swizzled offset of the domain is
/// checked to lie in the storage, one by one (a swizzle is not monotone),
/// for domains of up to [`COMPOSED_CHECK_LIMIT`](crate::COMPOSED_CHECK_LIMIT) elements.
fn make_swizzled<E: Engine>(engine: E, offset: i64, stages: SmallVec<[Stage; 1]>, layout: Layout) -> Result<Tensor<E>> {
    let len = engine.as_slice().len();
    let n = layout.size();
    if n > crate::COMPOSED_CHECK_LIMIT {
        return Err(LayoutError::Limit {
            what: "the elements of a swizzled tensor checked against its storage",
            value: n as u64,
            limit: crate::COMPOSED_CHECK_LIMIT as u64,
        });
    }
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for i in 0..n {
        let pre = offset.checked_add(layout.eval(i)?).ok_or(LayoutError::Overflow { operation: "tensor offset" })?;
        let x = if pre < 0 { pre } else { apply_stages(&stages, pre)? };
        (lo, hi) = (lo.min(x), hi.max(x));
    }
    if n == 0 || (lo >= 0 && (hi as u128) < len as u128) {
        Ok(Tensor { engine, offset, layout, stages })
    } else {
        Err(LayoutError::OutOfStorage {
            what: format!("the swizzled layout over {layout} at offset {offset}"),
            lo,
            hi,
            len,
        })
    }
}

/// The smallest and largest offset of a layout's domain (exact, and never
/// overflowing: a layout's offsets fit in `i64` by its invariants).
pub(crate) fn offset_range(layout: &Layout) -> (i64, i64) {
    layout.pairs().fold((0i64, 0i64), |(lo, hi), (s, d)| {
        let span = (s - 1) * d;
        if span < 0 { (lo + span, hi) } else { (lo, hi + span) }
    })
}

/// An owned tensor of default values with a compact column-major layout of
/// `layout`'s shape: CuTe's `make_tensor_like` for run-time shapes (CuTe
/// orders strides like the source only for static strides; run-time ones
/// count as column-major).
///
/// Post-conditions: the result's shape equals `layout.shape()`, its layout
/// is a bijection onto `0..size`, and every element is `T::default()`.
///
/// ```
/// use cute_dynamic::{Layout, make_tensor_like};
/// let l: Layout = "(4,(2,3)):(3,(1,12))".parse()?;
/// let t = make_tensor_like::<f32>(&l)?;
/// assert_eq!(t.layout().to_string(), "(4,(2,3)):(1,(4,8))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_tensor_like<T: Clone + Default>(layout: &Layout) -> Result<Tensor<Vec<T>>> {
    let compact = Layout::column_major(layout.shape())?;
    let n = usize::try_from(compact.size()).map_err(|_| LayoutError::Overflow { operation: "tensor storage" })?;
    make_tensor(vec![T::default(); n], compact)
}

/// CuTe's `make_fragment_like`: for run-time shapes the same as
/// [`make_tensor_like`] (a register fragment in a kernel; owned storage
/// here).
///
/// ```
/// use cute_dynamic::{Layout, make_fragment_like};
/// let f = make_fragment_like::<i64>(&"(2,4):(8,1)".parse::<Layout>()?)?;
/// assert_eq!(f.layout().to_string(), "(2,4):(1,2)");
/// assert!((0..8).all(|i| f[i] == 0));
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_fragment_like<T: Clone + Default>(layout: &Layout) -> Result<Tensor<Vec<T>>> {
    make_tensor_like(layout)
}

impl<E> Tensor<E> {
    /// The layout.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// assert_eq!(t.layout().to_string(), "(4,6):(6,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The shape of the layout.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// assert_eq!(t.shape().to_string(), "(4,6)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn shape(&self) -> &IntTuple {
        self.layout.shape()
    }

    /// The number of elements (the size of the layout).
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// assert_eq!(t.size(), 24);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn size(&self) -> i64 {
        self.layout.size()
    }

    /// The rank of the layout.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// assert_eq!(t.rank(), 2);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// The storage index of the layout's origin.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// assert_eq!(t.offset(), 0);
    /// let row = t.slice(&"(1,_)".parse()?)?; // row 1 starts at storage index 6
    /// assert_eq!(row.offset(), 6);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The engine.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let t = make_tensor(vec![1.0f32; 8], "8:1".parse::<Layout>()?)?;
    /// assert_eq!(t.engine().len(), 8);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The view of the same data at `offset + L'(c)`: the layout replaced,
    /// the data untouched. Views may reach past the storage (see the module
    /// documentation), so this never fails.
    fn relayout(self, offset: i64, layout: Layout) -> Tensor<E> {
        Tensor { engine: self.engine, offset, layout, stages: self.stages }
    }

    /// The view through `f(L)` at the same origin.
    fn map_layout(self, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<Tensor<E>> {
        let l = f(&self.layout)?;
        let offset = self.offset;
        Ok(self.relayout(offset, l))
    }

    /// Slicing with `_` (CuTe's `tensor(c)` with underscores): the view of
    /// the free modes at the fixed part of `coord`, its layout and offset as
    /// [`slice_and_offset`] gives them (`A(2,_)` of
    /// `((3,2),(2,5,2)):((4,1),(2,13,100))` is `((2,5,2)):((2,13,100))` at
    /// offset 8).
    ///
    /// Post-condition: `result.get(k)` is `self.get(c(k))`, where `c(k)`
    /// fills the `_` of `coord` with the parts of `k`.
    ///
    /// Errors: those of [`slice_and_offset`]; `Overflow` if the new origin
    /// does not fit.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// let col = t.slice(&"(_,2)".parse()?)?; // column 2
    /// assert_eq!(col.layout().to_string(), "(4):(6)");
    /// assert_eq!(col.offset(), 2);
    /// assert_eq!((0..4).map(|i| col[i]).collect::<Vec<_>>(), [2, 8, 14, 20]);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn slice(self, coord: &SliceCoord) -> Result<Tensor<E>> {
        let (sub, off) = slice_and_offset(&self.layout, coord)?;
        let offset = self.offset.checked_add(off).ok_or(LayoutError::Overflow { operation: "tensor slice" })?;
        Ok(self.relayout(offset, sub))
    }

    /// The tensor viewed through `composition(L, tiler)`: `result(c) ==
    /// self(tiler(c))` (the data does not move).
    ///
    /// Errors: those of [`composition`](fn@crate::composition).
    ///
    /// ```
    /// use cute_dynamic::{Layout, Tiler, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// let sub = t.compose(&"<2:1, 3:2>".parse::<Tiler>()?)?; // rows 0-1, columns 0, 2, 4
    /// assert_eq!(sub.layout().to_string(), "(2,3):(6,2)");
    /// assert_eq!(sub[(1, 2)], 10); // row 1, column 4
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn compose<T: AsTiler + ?Sized>(self, tiler: &T) -> Result<Tensor<E>> {
        self.map_layout(|l| crate::composition(l, tiler))
    }

    /// The tensor viewed through [`logical_divide`](crate::logical_divide)
    /// of its layout.
    ///
    /// Errors: those of [`logical_divide`](crate::logical_divide).
    ///
    /// ```
    /// use cute_dynamic::{Layout, Tiler, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// let d = t.logical_divide(&"<2,3>".parse::<Tiler>()?)?;
    /// assert_eq!(d.layout().to_string(), "((2,2),(3,2)):((6,12),(1,3))");
    /// assert_eq!(d[(3, 5)], 23); // the same function: row 3, column 5
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn logical_divide<T: AsTiler + ?Sized>(self, tiler: &T) -> Result<Tensor<E>> {
        self.map_layout(|l| crate::logical_divide(l, tiler))
    }

    /// The tensor viewed through [`zipped_divide`](crate::zipped_divide) of
    /// its layout: `((tile modes), (rest modes))`.
    ///
    /// Errors: those of [`zipped_divide`](crate::zipped_divide).
    ///
    /// ```
    /// use cute_dynamic::{Layout, Tiler, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// let d = t.zipped_divide(&"<2,3>".parse::<Tiler>()?)?;
    /// assert_eq!(d.layout().to_string(), "((2,3),(2,2)):((6,1),(12,3))");
    /// assert_eq!(d[(0, 3)], 15); // element 0 of tile (1,1): row 2, column 3
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn zipped_divide<T: AsTiler + ?Sized>(self, tiler: &T) -> Result<Tensor<E>> {
        self.map_layout(|l| crate::zipped_divide(l, tiler))
    }

    /// The tensor viewed through [`tiled_divide`](crate::tiled_divide) of its layout.
    ///
    /// Errors: those of [`tiled_divide`](crate::tiled_divide).
    ///
    /// ```
    /// use cute_dynamic::{Layout, Tiler, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// let d = t.tiled_divide(&"<2,3>".parse::<Tiler>()?)?;
    /// assert_eq!(d.layout().to_string(), "((2,3),2,2):((6,1),12,3)");
    /// assert_eq!(d[(0, 1, 1)], 15); // element 0 of tile (1,1): row 2, column 3
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn tiled_divide<T: AsTiler + ?Sized>(self, tiler: &T) -> Result<Tensor<E>> {
        self.map_layout(|l| crate::tiled_divide(l, tiler))
    }

    /// The tensor viewed through [`flat_divide`](crate::flat_divide) of its layout.
    ///
    /// Errors: those of [`flat_divide`](crate::flat_divide).
    ///
    /// ```
    /// use cute_dynamic::{Layout, Tiler, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// let d = t.flat_divide(&"<2,3>".parse::<Tiler>()?)?;
    /// assert_eq!(d.layout().to_string(), "(2,3,2,2):(6,1,12,3)");
    /// assert_eq!(d[(1, 2, 1, 1)], 23); // element (1,2) of tile (1,1): row 3, column 5
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn flat_divide<T: AsTiler + ?Sized>(self, tiler: &T) -> Result<Tensor<E>> {
        self.map_layout(|l| crate::flat_divide(l, tiler))
    }

    /// The storage index of the element at `c`, checked against the layout's
    /// domain and against a storage of `len` elements.
    fn index_of<C: Coord>(&self, c: &C, len: usize) -> Result<usize> {
        let off = c.eval_in(&self.layout)?;
        let idx = self.offset.checked_add(off).ok_or(LayoutError::Overflow { operation: "tensor offset" })?;
        let idx = if self.stages.is_empty() || idx < 0 { idx } else { apply_stages(&self.stages, idx)? };
        match usize::try_from(idx) {
            Ok(i) if i < len => Ok(i),
            _ => Err(LayoutError::OutOfStorage {
                what: "an element of a tensor view (a ragged edge?)".to_string(),
                lo: idx,
                hi: idx,
                len,
            }),
        }
    }
}

impl<E: Engine> Tensor<E> {
    /// The element at `c` (integral, rank-N or natural coordinate).
    ///
    /// Errors: `OutOfBounds`/`RankMismatch` for a coordinate outside the
    /// layout's domain, `OutOfStorage` for an element of a view past the
    /// storage (a ragged edge).
    ///
    /// ```
    /// use cute_dynamic::{IntTuple, Layout, make_tensor};
    /// let data: Vec<i32> = (0..24).collect();
    /// let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
    /// assert_eq!(t.get((1, 2))?, &8);
    /// assert_eq!(t.get(&"(1,2)".parse::<IntTuple>()?)?, &8);
    /// assert!(t.get((4, 0)).is_err()); // row 4 is outside the shape
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn get<C: Coord>(&self, c: C) -> Result<&E::Elem> {
        let s = self.engine.as_slice();
        let i = self.index_of(&c, s.len())?;
        Ok(&s[i])
    }

    /// A read-only view of the same elements.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let t = make_tensor((0..24).collect::<Vec<i32>>(), "(4,6):(6,1)".parse::<Layout>()?)?;
    /// let row = t.view().slice(&"(1,_)".parse()?)?; // borrows t's storage
    /// assert_eq!(row[2], 8);
    /// assert_eq!(t[(1, 2)], 8);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn view(&self) -> Tensor<&[E::Elem]> {
        Tensor {
            engine: self.engine.as_slice(),
            offset: self.offset,
            layout: self.layout.clone(),
            stages: self.stages.clone(),
        }
    }
}

impl<E: EngineMut> Tensor<E> {
    /// The element at `c`, mutably. Errors as [`Tensor::get`].
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut t = make_tensor(vec![0i32; 24], "(4,6):(6,1)".parse::<Layout>()?)?;
    /// *t.get_mut((1, 2))? = 5;
    /// assert_eq!(t.engine()[8], 5);
    /// assert!(t.get_mut((0, 6)).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn get_mut<C: Coord>(&mut self, c: C) -> Result<&mut E::Elem> {
        let len = self.engine.as_slice().len();
        let i = self.index_of(&c, len)?;
        Ok(&mut self.engine.as_mut_slice()[i])
    }

    /// A mutable view of the same elements.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut t = make_tensor(vec![0i32; 24], "(4,6):(6,1)".parse::<Layout>()?)?;
    /// let mut row = t.view_mut().slice(&"(1,_)".parse()?)?;
    /// row[2] = 5;
    /// assert_eq!(t.engine()[8], 5);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn view_mut(&mut self) -> Tensor<&mut [E::Elem]> {
        Tensor {
            engine: self.engine.as_mut_slice(),
            offset: self.offset,
            layout: self.layout.clone(),
            stages: self.stages.clone(),
        }
    }
}

impl<E: Engine, C: Coord> Index<C> for Tensor<E> {
    type Output = E::Elem;
    /// Panics with the error of [`Tensor::get`].
    fn index(&self, c: C) -> &E::Elem {
        match self.get(c) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }
}

impl<E: EngineMut, C: Coord> IndexMut<C> for Tensor<E> {
    /// Panics with the error of [`Tensor::get_mut`].
    fn index_mut(&mut self, c: C) -> &mut E::Elem {
        match self.get_mut(c) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }
}

/// The engine of an identity tensor: the "element" at an offset is the
/// natural coordinate that offset encodes (see [`make_identity_tensor`]).
///
/// ```
/// use cute_dynamic::{Coords, IntTuple, Tensor, elem_less, local_tile, make_identity_tensor};
/// let shape: IntTuple = "(5,3)".parse()?;
/// let id: Tensor<Coords> = make_identity_tensor(&shape)?;
/// // Tiled by 4×4 as the 5×3 data would be: tile (1,0) starts at row 4 and sticks out.
/// let tile = local_tile(id, &"(4,4)".parse::<IntTuple>()?, &"(1,0)".parse()?)?;
/// assert_eq!(tile.get((0, 2))?.to_string(), "(4,2)");
/// assert!(elem_less(&tile.get((0, 2))?, &shape)); // inside: the element exists
/// assert!(!elem_less(&tile.get((1, 0))?, &shape)); // row 5: predicated off
/// assert!(!elem_less(&tile.get((0, 3))?, &shape)); // column 3: predicated off
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coords {
    /// The shape whose coordinates are encoded (the tree of the result).
    shape: IntTuple,
    /// Bits per leaf of the encoding.
    bits: u32,
}

/// CuTe's `make_identity_tensor(shape)`: a tensor whose element at each
/// natural coordinate of `shape` is that coordinate, to be tiled and
/// partitioned exactly like the data it guards (predication at ragged
/// edges, with [`elem_less`](crate::elem_less)).
///
/// Encoding (until layouts carry CuTe's basis strides `1@i`): leaf `i` of
/// the shape (of `n` leaves) gets stride `2^(b·i)` with `b = 62 / n` bits,
/// so an offset is the coordinate's leaves written in base `2^b` and
/// decodes back exactly, also for coordinates past the shape (the extended
/// domain a tile reaches at a ragged edge). Every extent must be below
/// `2^(b-1)`, and tiles must not reach coordinates of `2^b` or more
/// (for 2 leaves that is 2^31, for 4 leaves 2^15). The by-mode tilers of
/// `local_tile` and `local_partition` split each mode alone, so the identity
/// tensor and a data tensor of the same shape are tiled into the same
/// shapes.
///
/// Post-conditions: `t.get(c)` is the natural form of `c` for every
/// coordinate `c` of `shape` (an integral `c` gives its natural coordinate);
/// the layout's shape is `shape`.
///
/// Errors: `Overflow` when an extent is too large for the encoding,
/// `NonPositiveShape` for an extent below 1.
///
/// ```
/// use cute_dynamic::{IntTuple, make_identity_tensor};
/// let id = make_identity_tensor(&"(4,(2,3))".parse()?)?;
/// assert_eq!(id.get(13)?.to_string(), "(1,(1,1))");
/// let c: IntTuple = "(2,(1,2))".parse()?;
/// assert_eq!(id.get(&c)?, c);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_identity_tensor(shape: &IntTuple) -> Result<Tensor<Coords>> {
    let n = shape.leaf_count().max(1) as u32;
    let bits = 62 / n;
    let limit = 1i64 << (bits - 1).min(62);
    if let Some(&s) = shape.vals().iter().find(|&&s| s < 1) {
        let _ = s;
        return Err(LayoutError::NonPositiveShape { shape: shape.to_string() });
    }
    if shape.vals().iter().any(|&s| s >= limit) {
        return Err(LayoutError::Overflow {
            operation: "identity tensor encoding (an extent too large for its leaf count)",
        });
    }
    let mut stride = shape.clone();
    for (i, v) in stride.vals_mut().iter_mut().enumerate() {
        *v = 1i64 << (bits * i as u32);
    }
    let layout = Layout::new(shape.clone(), stride)?;
    Ok(Tensor { engine: Coords { shape: shape.clone(), bits }, offset: 0, layout, stages: SmallVec::new() })
}

impl Tensor<Coords> {
    /// The coordinate at `c`: the natural coordinate of the identity tensor
    /// this view was made from.
    ///
    /// Errors: `OutOfBounds`/`RankMismatch` for a coordinate outside this
    /// view's domain.
    ///
    /// ```
    /// use cute_dynamic::{Tiler, make_identity_tensor};
    /// let id = make_identity_tensor(&"(4,6)".parse()?)?;
    /// assert_eq!(id.get((1, 2))?.to_string(), "(1,2)");
    /// let tiles = id.zipped_divide(&"<2,3>".parse::<Tiler>()?)?;
    /// assert_eq!(tiles.get((0, 3))?.to_string(), "(2,3)"); // element 0 of tile (1,1)
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn get<C: Coord>(&self, c: C) -> Result<IntTuple> {
        let off = c.eval_in(&self.layout)?;
        let code = self.offset.checked_add(off).ok_or(LayoutError::Overflow { operation: "identity tensor" })?;
        let mask = (1i64 << self.engine.bits) - 1;
        let mut out = self.engine.shape.clone();
        for (i, v) in out.vals_mut().iter_mut().enumerate() {
            *v = (code >> (self.engine.bits * i as u32)) & mask;
        }
        Ok(out)
    }
}

/// Read access to the elements of a tensor-like value by coordinate: what
/// the algorithms ([`copy`](crate::copy), [`gemm`](crate::gemm), ...) take,
/// so they work on tensors and on the thread parts of
/// [`partition_mut`](Tensor::partition_mut) alike.
///
/// ```
/// use cute_dynamic::{Layout, ReadTensor, make_tensor};
/// fn sum<T: ReadTensor<Elem = i32>>(t: &T) -> cute_dynamic::Result<i32> {
///     (0..t.layout().size()).map(|i| t.read(i).copied()).sum()
/// }
/// let mut data: Vec<i32> = (0..16).collect();
/// let t = make_tensor(&mut data[..], "(4,4):(1,4)".parse::<Layout>()?)?;
/// assert_eq!(sum(&t)?, 120);
/// let parts = t.partition_mut(&"(2,2):(1,2)".parse()?)?; // 4 threads
/// assert_eq!(sum(&parts[0])?, 0 + 2 + 8 + 10); // thread 0: rows 0 and 2 of columns 0 and 2
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub trait ReadTensor {
    /// The element type.
    type Elem;
    /// The layout.
    ///
    /// ```
    /// use cute_dynamic::{ReadTensor, make_tensor};
    /// let t = make_tensor(vec![0; 12], "(3,4):(4,1)".parse::<cute_dynamic::Layout>()?)?;
    /// assert_eq!(ReadTensor::layout(&t).to_string(), "(3,4):(4,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn layout(&self) -> &Layout;
    /// The element at `c`, with the bounds checks of [`Tensor::get`].
    ///
    /// ```
    /// use cute_dynamic::{ReadTensor, make_tensor};
    /// let t = make_tensor((0..12).collect::<Vec<i32>>(), "(3,4):(4,1)".parse::<cute_dynamic::Layout>()?)?;
    /// assert_eq!(*t.read((2i64, 1i64))?, 9); // row-major: 2·4 + 1
    /// assert!(t.read((3i64, 0i64)).is_err());  // row 3 is outside the 3 rows
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn read<C: Coord>(&self, c: C) -> Result<&Self::Elem>;
}

/// Write access to the elements of a tensor-like value (see [`ReadTensor`]).
///
/// ```
/// use cute_dynamic::{Layout, WriteTensor, make_tensor};
/// // Numbers the elements in the order of their integral coordinates.
/// fn iota<T: WriteTensor<Elem = i32>>(t: &mut T) -> cute_dynamic::Result<()> {
///     for i in 0..t.layout().size() {
///         *t.write(i)? = i as i32;
///     }
///     Ok(())
/// }
/// let mut data = vec![0; 6];
/// iota(&mut make_tensor(&mut data[..], "(2,3):(3,1)".parse::<Layout>()?)?)?; // row-major 2×3
/// assert_eq!(data, [0, 2, 4, 1, 3, 5]); // coordinates are colexicographic: down the columns first
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub trait WriteTensor: ReadTensor {
    /// The element at `c`, mutably, with the bounds checks of [`Tensor::get`].
    ///
    /// ```
    /// use cute_dynamic::{WriteTensor, make_tensor};
    /// let mut t = make_tensor(vec![0; 12], "(3,4):(4,1)".parse::<cute_dynamic::Layout>()?)?;
    /// *t.write((1i64, 2i64))? = 5;
    /// assert_eq!(t.engine()[6], 5); // offset 1·4 + 2
    /// assert!(t.write(12i64).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn write<C: Coord>(&mut self, c: C) -> Result<&mut Self::Elem>;
}

impl<E: Engine> ReadTensor for Tensor<E> {
    type Elem = E::Elem;
    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn read<C: Coord>(&self, c: C) -> Result<&E::Elem> {
        self.get(c)
    }
}

impl<E: EngineMut> WriteTensor for Tensor<E> {
    fn write<C: Coord>(&mut self, c: C) -> Result<&mut E::Elem> {
        self.get_mut(c)
    }
}
