//! `Tensor<E, L>`: an engine (the storage) composed with a layout (CuTe's
//! `Tensor`), with static and run-time leaves.
//!
//! The element at coordinate `c` is `storage[offset + L(c)]`. Changing the
//! layout (slicing, composing, dividing, tiling, partitioning) makes another
//! view of the same data; the data never moves.
//!
//! # Why access needs no storage bounds check
//!
//! Every tensor keeps one invariant: **every offset of its layout's domain
//! lies in its storage** (`0 <= offset + L(c) < len` for every coordinate
//! `c` inside the shape). [`make_tensor`] checks it once, from the layout's
//! smallest and largest offsets (a few multiplications, not a walk over
//! the elements); every view re-checks it the same way when it is made
//! (slicing, tiling and partitioning a tensor are constructions and fail
//! there, never at an access), except the views that can only name
//! elements of the tensor's own domain: a slice, and a tile or thread part
//! of an exact divide (every tile extent divides its mode: decided at
//! compile time for static modes), which cost their offset and nothing more. Element access then checks only that the
//! coordinate is inside the shape (a comparison per mode, which the compiler
//! removes in loops bounded by the shape, and which static shapes make a
//! constant) and reads the storage without a bounds check. A coordinate
//! outside the shape panics; it never reaches memory.
//!
//! A view that would reach past its storage is an error where it is made.
//! Tiles that stick out of a ragged matrix, as CuTe's do, are made from a
//! [`Predicated`](crate::Predicated) view ([`Tensor::predicated`]), whose
//! accesses are checked, and which becomes an ordinary tensor, checked
//! once, wherever a tile lies inside the matrix.

use crate::composed::ComposedLayout;
use crate::coord::Coord;
use crate::detail::compact_order;
use crate::detail::{FlattenInto, MNil, ModeSize};
use crate::int_tuple::{IntTuple, Leaf, StaticIntTuple};
use crate::layout::{Congruent, Layout, ShapeLeaf};
use crate::slice::{InDomain, SliceBy};
use crate::swizzle::OffsetFn;
use core::ops::{Index, IndexMut};
use generic_array::{ArrayLength, GenericArray};
use typenum::{Prod, UInt, Unsigned};

/// Storage a tensor reads: its element type and how many elements it has.
///
/// Implemented for the data engines (`&[T]`, `&mut [T]`, `[T; N]`,
/// [`Storage`], [`RawEngine`]) and for [`Coords`](crate::Coords), the
/// engine of identity tensors.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::Engine;
/// // The bytes of any data engine.
/// fn bytes<E: Engine>(e: &E) -> usize {
///     e.len() * core::mem::size_of::<E::Elem>()
/// }
/// let data = [0u16; 10];
/// assert_eq!(bytes(&&data[..]), 20);
/// assert_eq!(bytes(&[1.0f64; 3]), 24);
/// assert_eq!(bytes(make_fragment_like::<f32, _>(layout!((4, 2):(2, 1))).engine()), 32);
/// ```
pub trait Engine {
    /// The element type.
    type Elem;
    /// The number of elements (storage indices `0..len`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Engine;
    /// // Columns padded to 5: the storage is the cosize, (4-1)·1 + (2-1)·5 + 1.
    /// let t = make_owned_tensor::<f32, _, _>(layout!((4, 2):(1, 5)));
    /// assert_eq!((Engine::len(t.engine()), t.size()), (9, 8));
    /// let data = [0u8; 12];
    /// assert_eq!(Engine::len(make_tensor(&data[..], layout!(4:1)).engine()), 12); // the whole slice
    /// ```
    fn len(&self) -> usize;
    /// `true` when there is no element.
    ///
    /// ```
    /// use cute_static::Engine;
    /// fn describe<E: Engine>(e: &E) -> (usize, bool) {
    ///     (e.len(), e.is_empty())
    /// }
    /// let v = vec![0.0f32; 3];
    /// assert_eq!(describe(&&v[..]), (3, false));
    /// assert_eq!(describe(&&v[..0]), (0, true));
    /// ```
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An engine whose elements are in memory: the bound under which a tensor
/// is indexed (`t[c]`) and viewed ([`Tensor::view`]). An identity tensor's
/// [`Coords`](crate::Coords) is an [`Engine`] but not one.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::DataEngine;
/// // Column `j` of any readable 4×2 tensor: a slice, an array, an owned tensor.
/// fn col_sum<E: DataEngine<Elem = f32>>(t: &Tensor<E, Layout![(4, 2):(1, 4)]>, j: usize) -> f32 {
///     (0..4usize).map(|i| t[(i, j)]).sum()
/// }
/// let data: Vec<f32> = (0..8).map(|x| x as f32).collect();
/// assert_eq!(col_sum(&make_tensor(&data[..], layout!((4, 2):(1, 4))), 1), 4.0 + 5.0 + 6.0 + 7.0);
/// assert_eq!(col_sum(&make_owned_tensor::<f32, _, _>(layout!((4, 2):(1, 4))), 0), 0.0);
/// ```
///
/// # Safety
///
/// `as_ptr()` must be valid for reads of `len()` elements for as long as
/// the engine is borrowed, and return the same pointer each time.
pub unsafe trait DataEngine: Engine {
    /// The first element.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::DataEngine;
    /// fn first<E: DataEngine>(e: &E) -> *const E::Elem {
    ///     e.as_ptr()
    /// }
    /// let data = [1u32, 2, 3, 4];
    /// assert_eq!(first(&&data[..]), data.as_ptr()); // a slice engine: the slice's own pointer
    /// let t = make_owned_tensor::<u32, _, _>(layout!((2, 2):(2, 1)));
    /// assert_eq!(first(t.engine()), &t[(0usize, 0usize)] as *const u32); // offset 0, L(0,0) = 0
    /// ```
    fn as_ptr(&self) -> *const Self::Elem;
}

/// An engine whose elements can be written: the bound under which a tensor
/// is written (`t[c] = x`) and viewed mutably ([`Tensor::view_mut`]).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::DataEngineMut;
/// // Writes the diagonal of any writable 3×3 tensor.
/// fn set_diag<E: DataEngineMut<Elem = i32>>(t: &mut Tensor<E, Layout![(3, 3):(3, 1)]>) {
///     (0..3usize).for_each(|i| t[(i, i)] = 1);
/// }
/// let mut data = [0i32; 9];
/// set_diag(&mut make_tensor(&mut data[..], layout!((3, 3):(3, 1))));
/// assert_eq!(data, [1, 0, 0, 0, 1, 0, 0, 0, 1]);
/// let mut f = make_owned_tensor::<i32, _, _>(layout!((3, 3):(3, 1)));
/// set_diag(&mut f);
/// assert_eq!(f.engine()[8], 1);
/// ```
///
/// # Safety
///
/// As [`DataEngine`], for writes through `as_mut_ptr()`, which must not be
/// aliased by anything but this engine while it is mutably borrowed.
pub unsafe trait DataEngineMut: DataEngine {
    /// The first element, mutably.
    ///
    /// ```
    /// use cute_static::DataEngineMut;
    /// fn set_last<E: DataEngineMut<Elem = u32>>(e: &mut E, x: u32) {
    ///     assert!(!e.is_empty());
    ///     // SAFETY: `len() - 1` is an index of the storage.
    ///     unsafe { *e.as_mut_ptr().add(e.len() - 1) = x };
    /// }
    /// let mut data = [0u32; 4];
    /// set_last(&mut &mut data[..], 7);
    /// assert_eq!(data, [0, 0, 0, 7]);
    /// ```
    fn as_mut_ptr(&mut self) -> *mut Self::Elem;
}

impl<T> Engine for &[T] {
    type Elem = T;
    #[inline(always)]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
}
// SAFETY: a shared slice is valid for reads of its length while borrowed.
unsafe impl<T> DataEngine for &[T] {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        <[T]>::as_ptr(self)
    }
}
impl<T> Engine for &mut [T] {
    type Elem = T;
    #[inline(always)]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
}
// SAFETY: a mutable slice is valid for reads and exclusive writes.
unsafe impl<T> DataEngine for &mut [T] {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        <[T]>::as_ptr(self)
    }
}
// SAFETY: as above.
unsafe impl<T> DataEngineMut for &mut [T] {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        <[T]>::as_mut_ptr(self)
    }
}
impl<T, const N: usize> Engine for [T; N] {
    type Elem = T;
    #[inline(always)]
    fn len(&self) -> usize {
        N
    }
}
// SAFETY: an owned array is valid for its length while borrowed.
unsafe impl<T, const N: usize> DataEngine for [T; N] {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        <[T]>::as_ptr(self)
    }
}
// SAFETY: as above; `&mut self` is exclusive.
unsafe impl<T, const N: usize> DataEngineMut for [T; N] {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        <[T]>::as_mut_ptr(self)
    }
}

/// The storage of fragments and owned tensors: `N` elements (a typenum
/// length, from the layout's type), aligned to a cache line (64 bytes) so
/// that a list of fragments (the accumulators of a thread's threads) puts
/// each in whole cache lines. It dereferences to a slice.
///
/// ```
/// use cute_static::prelude::*;
/// let f = make_fragment_like::<f32, _>(layout!((8,8):(1,8)));
/// assert_eq!((f.engine().len(), f.engine().as_ptr() as usize % 64), (64, 0));
/// assert_eq!(f.engine()[..3], [0.0; 3]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Storage<T, N: ArrayLength>(GenericArray<T, N>);

impl<T: Copy, N: ArrayLength> Copy for Storage<T, N> where GenericArray<T, N>: Copy {}

impl<T: Default, N: ArrayLength> Default for Storage<T, N> {
    fn default() -> Self {
        Storage(GenericArray::default())
    }
}
impl<T, N: ArrayLength> core::ops::Deref for Storage<T, N> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        self.0.as_slice()
    }
}
impl<T, N: ArrayLength> core::ops::DerefMut for Storage<T, N> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        self.0.as_mut_slice()
    }
}
impl<T, N: ArrayLength> Engine for Storage<T, N> {
    type Elem = T;
    #[inline(always)]
    fn len(&self) -> usize {
        N::USIZE
    }
}
// SAFETY: an owned array is valid for its length while borrowed.
unsafe impl<T, N: ArrayLength> DataEngine for Storage<T, N> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        self.0.as_slice().as_ptr()
    }
}
// SAFETY: as above; `&mut self` is exclusive.
unsafe impl<T, N: ArrayLength> DataEngineMut for Storage<T, N> {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        self.0.as_mut_slice().as_mut_ptr()
    }
}

impl<T, N: ArrayLength> Engine for GenericArray<T, N> {
    type Elem = T;
    #[inline(always)]
    fn len(&self) -> usize {
        N::USIZE
    }
}
// SAFETY: an owned array is valid for its length while borrowed.
unsafe impl<T, N: ArrayLength> DataEngine for GenericArray<T, N> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        self.as_slice().as_ptr()
    }
}
// SAFETY: as above; `&mut self` is exclusive.
unsafe impl<T, N: ArrayLength> DataEngineMut for GenericArray<T, N> {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        self.as_mut_slice().as_mut_ptr()
    }
}

/// Storage given by a raw pointer and a length, for code that manages its
/// memory itself (CuTe's `make_tensor(ptr, layout)` on a pointer). Made
/// only by the unsafe [`RawEngine::new`]. The length is checked as a
/// slice's is: a layout that reaches past it makes no tensor.
///
/// ```
/// use cute_static::prelude::*;
/// let mut data: Vec<f32> = (0..8).map(|x| x as f32).collect();
/// let p = data.as_mut_ptr();
/// // SAFETY: `data` outlives both engines and is only read meanwhile.
/// let (all, half) = unsafe { (RawEngine::new(p, 8), RawEngine::new(p, 4)) };
/// assert_eq!(make_tensor(all, layout!((2, 4):(4, 1)))[(1usize, 3usize)], 7.0);
/// assert!(try_make_tensor(half, layout!((2, 4):(4, 1))).is_err());
/// ```
#[derive(Debug)]
pub struct RawEngine<T> {
    ptr: *mut T,
    len: usize,
}

impl<T> RawEngine<T> {
    /// Storage of `len` elements at `ptr`.
    ///
    /// # Safety
    ///
    /// For the life of the engine and every tensor made from it, `ptr` must
    /// be valid for reads (and, if the tensor is written, writes) of `len`
    /// elements of `T`, initialized where read, and no other reference may
    /// access those elements while a tensor over them writes.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = [0u32; 8];
    /// // SAFETY: `data` outlives `t` and is used only through it meanwhile.
    /// let mut t = make_tensor(unsafe { RawEngine::new(data.as_mut_ptr(), 8) }, layout!((2,4):(4,1)));
    /// t[(1usize, 2usize)] = 7;
    /// drop(t);
    /// assert_eq!(data[6], 7);
    /// ```
    #[inline(always)]
    pub unsafe fn new(ptr: *mut T, len: usize) -> RawEngine<T> {
        RawEngine { ptr, len }
    }
}

impl<T> Engine for RawEngine<T> {
    type Elem = T;
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
}
// SAFETY: the contract of `RawEngine::new`.
unsafe impl<T> DataEngine for RawEngine<T> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        self.ptr
    }
}
// SAFETY: the contract of `RawEngine::new`.
unsafe impl<T> DataEngineMut for RawEngine<T> {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr
    }
}

/// The smallest and largest offsets of a layout's domain, for a shape
/// `Self` and a stride `D` (every congruent pair has it): the bound a
/// tensor's layout needs, for code generic over the shape and stride.
///
/// Post-condition: `range(d)` is `(Σ (s−1)·min(d,0), Σ (s−1)·max(d,0))`
/// over the leaves (exact: a layout's offsets fit in `i64`).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::OffsetRange;
/// let l = make_layout((Int::<4>::new(), 3usize), (Int::<2>::new(), -8i64));
/// assert_eq!(l.shape().range(&l.stride()), (-16, 6));
/// ```
pub trait OffsetRange<D> {
    /// `(lo, hi)`: the smallest and largest offset of the layout `self:d`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::OffsetRange;
    /// assert_eq!(shape!(4, 8).range(&stride!(8, 1)), (0, 31));
    /// let l = make_layout((Int::<4>::new(), 3usize), (Int::<1>::new(), -4i64));
    /// assert_eq!(l.shape().range(&l.stride()), (-8, 3)); // (2·-4, 3·1)
    /// ```
    fn range(&self, d: &D) -> (i64, i64);
}
impl<S: ShapeLeaf, D: Leaf> OffsetRange<D> for S {
    #[inline(always)]
    fn range(&self, d: &D) -> (i64, i64) {
        let span = (self.signed() - 1).wrapping_mul(d.signed());
        if span < 0 { (span, 0) } else { (0, span) }
    }
}
macro_rules! tuple_range {
    ($($i:tt $S:ident $D:ident $_x:ident),+) => {
        impl<$($S: OffsetRange<$D>, $D),+> OffsetRange<($($D,)+)> for ($($S,)+) {
            #[inline(always)]
            fn range(&self, d: &($($D,)+)) -> (i64, i64) {
                let (lo, hi) = (0i64, 0i64);
                $( let r = self.$i.range(&d.$i); let (lo, hi) = (lo.wrapping_add(r.0), hi.wrapping_add(r.1)); )+
                (lo, hi)
            }
        }
    };
}
for_each_tuple!(tuple_range);

/// Why a view could not be made: its layout at its offset reaches the
/// storage indices `lo..=hi`, outside `0..len` (without allocation, so the
/// crate works without `std`; with `std` it becomes
/// `cute_dynamic::LayoutError::OutOfStorage`).
///
/// ```
/// use cute_static::prelude::*;
/// // A 4×4 view needs 16 elements from its origin; the storage has 12.
/// let e = layout!((4, 4):(1, 4)).fits_storage("the tile", 0, 12).unwrap_err();
/// assert_eq!((e.lo, e.hi, e.len), (0, 15, 12));
/// assert_eq!(e.to_string(), "the tile reaches storage indices 0..=15, outside a storage of 12 elements");
/// let err: cute_dynamic::LayoutError = e.into();
/// assert!(matches!(err, cute_dynamic::LayoutError::OutOfStorage { hi: 15, len: 12, .. }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfStorage {
    /// What was being made.
    pub what: &'static str,
    /// The smallest storage index the layout reaches.
    pub lo: i64,
    /// The largest storage index the layout reaches.
    pub hi: i64,
    /// The storage's length.
    pub len: usize,
}

impl core::fmt::Display for OutOfStorage {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // cute-dynamic's text for `OutOfStorage`.
        write!(
            f,
            "{} reaches storage indices {}..={}, outside a storage of {} elements",
            self.what, self.lo, self.hi, self.len
        )
    }
}

#[cfg(feature = "std")]
impl From<OutOfStorage> for cute_dynamic::LayoutError {
    #[cold]
    fn from(e: OutOfStorage) -> cute_dynamic::LayoutError {
        cute_dynamic::LayoutError::OutOfStorage { what: e.what.into(), lo: e.lo, hi: e.hi, len: e.len }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn storage_panic(e: OutOfStorage) -> ! {
    panic!("{e}")
}

#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn domain_panic() -> ! {
    panic!("tensor coordinate outside the tensor's shape")
}

/// Checks the tensor invariant for `layout` at `offset` in `len` elements.
#[inline(always)]
pub(crate) fn check_fits<S: Congruent<D> + OffsetRange<D>, D: IntTuple>(
    what: &'static str,
    layout: &Layout<S, D>,
    offset: usize,
    len: usize,
) -> Result<(), OutOfStorage> {
    let (lo, hi) = layout.shape().range(&layout.stride());
    // The origin as a signed index (a view's origin may be a negative
    // wrapping offset when a run-time stride is negative).
    let o = offset as i64;
    // `0 <= o + lo` and `o + hi < len` without overflow, as one unsigned
    // comparison (a single compare for a static layout): with `span = hi -
    // lo` (exact in u64: `lo <= 0 <= hi`) and `cap = min(len, 2^63)`,
    // `(o + lo) as u64 < cap - span` makes `o + lo` non-negative (below
    // 2^63) and `o + hi = (o + lo) + span < cap <= len`; conversely both
    // conditions give it (`o + hi` is an `i64`, below 2^63).
    let span = (hi as u64).wrapping_sub(lo as u64);
    let cap = (len as u64).min(1u64 << 63);
    match o.checked_add(lo) {
        Some(a) if span < cap && (a as u64) < cap - span => Ok(()),
        a => Err(OutOfStorage { what, lo: a.unwrap_or(i64::MIN), hi: o.checked_add(hi).unwrap_or(i64::MAX), len }),
    }
}

/// CuTe's `Tensor`: an engine `E` (the storage), a layout `L`, and the
/// storage index of the layout's origin.
///
/// The element at coordinate `c` is `storage[offset + L(c)]`; every such
/// index lies in the storage (the argument is in `tensor.rs`'s module
/// documentation, "Why access needs no storage bounds check").
///
/// ```
/// use cute_static::prelude::*;
/// let data: Vec<i32> = (0..24).collect();
/// let t = make_tensor(&data[..], layout!((4,6):(6,1)));    // row-major 4×6
/// assert_eq!(t[(1usize, 2usize)], 8);
/// assert_eq!(t[5usize], 7);                                // integral coordinate (column-major order)
/// let row = t.slice(crd!(1usize, _));                      // row 1
/// assert_eq!(row.layout().to_string(), "(_6):(_1)");
/// assert_eq!((0..6).map(|j| row[j]).collect::<Vec<_>>(), [6, 7, 8, 9, 10, 11]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// The engine first: an owned storage's alignment then places its elements
// at the start of the tensor.
#[repr(C)]
pub struct Tensor<E, L> {
    pub(crate) engine: E,
    pub(crate) offset: usize,
    pub(crate) layout: L,
}

/// A tensor over `engine` with `layout`, its origin at storage index 0
/// (CuTe's `make_tensor`).
///
/// Post-condition: every offset `L(c)` of the layout's domain is an index
/// of the storage, so every element of the tensor exists.
///
/// # Panics
///
/// When the layout reaches outside the storage, with the message of the
/// error [`try_make_tensor`] returns.
///
/// ```
/// use cute_static::prelude::*;
/// let data = [0u8; 32];
/// let t = make_tensor(&data[..], layout!((4,8):(1,4)));
/// assert_eq!(t.size(), 32);
/// ```
#[inline(always)]
#[track_caller]
pub fn make_tensor<E: Engine, L: TensorLayout>(engine: E, layout: L) -> Tensor<E, L> {
    match layout.fits_storage("the tensor's layout", 0, engine.len()) {
        Ok(()) => Tensor { engine, offset: 0, layout },
        Err(e) => storage_panic(e),
    }
}

/// [`make_tensor`] that returns the failed check as an error (with the
/// default `std` feature).
///
/// Errors: `OutOfStorage` when the layout reaches an offset below 0 or at
/// least the storage's length.
///
/// ```
/// use cute_static::prelude::*;
/// let data = [0u8; 32];
/// assert!(try_make_tensor(&data[..], layout!((4,8):(1,4))).is_ok());
/// let e = try_make_tensor(&data[..], layout!((4,8):(1,5))).unwrap_err();   // cosize 39 > 32
/// assert_eq!(e.to_string(), "the tensor's layout reaches storage indices 0..=38, outside a storage of 32 elements");
/// ```
#[cfg(feature = "std")]
pub fn try_make_tensor<E: Engine, L: TensorLayout>(
    engine: E,
    layout: L,
) -> Result<Tensor<E, L>, cute_dynamic::LayoutError> {
    try_make_tensor_at(engine, 0, layout)
}

/// A tensor whose layout origin is storage index `offset` (CuTe's
/// `make_tensor(ptr + offset, layout)`), for layouts with negative
/// run-time strides (with the default `std` feature).
///
/// Errors: as [`try_make_tensor`], for `offset + L(c)`.
///
/// ```
/// use cute_static::prelude::*;
/// let data = [10, 11, 12, 13];
/// let s = -1i64;
/// let rev = try_make_tensor_at(&data[..], 3, layout!(4:{s})).unwrap();
/// assert_eq!((0..4).map(|i| rev[i]).collect::<Vec<_>>(), [13, 12, 11, 10]);
/// ```
#[cfg(feature = "std")]
pub fn try_make_tensor_at<E: Engine, L: TensorLayout>(
    engine: E,
    offset: usize,
    layout: L,
) -> Result<Tensor<E, L>, cute_dynamic::LayoutError> {
    layout.fits_storage("the tensor's layout", offset, engine.len())?;
    Ok(Tensor { engine, offset, layout })
}

impl<E: Engine, S: Congruent<D>, D: IntTuple> Tensor<E, Layout<S, D>> {
    /// The layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [0u8; 32];
    /// let t = make_tensor(&data[..], layout!((4,8):(1,4)));
    /// assert_eq!(t.layout(), layout!((4,8):(1,4)));
    /// ```
    #[inline(always)]
    pub fn layout(&self) -> Layout<S, D> {
        self.layout
    }

    /// The shape of the layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [0u8; 32];
    /// let t = make_tensor(&data[..], layout!((4,8):(1,4)));
    /// assert_eq!(t.shape().to_string_cute(), "(_4,_8)");
    /// ```
    #[inline(always)]
    pub fn shape(&self) -> S {
        self.layout.shape()
    }

    /// The stride of the layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [0f32; 24];
    /// let m = 6usize;
    /// let t = make_tensor(&data[..], layout!(({m},4):(1,{m})));
    /// assert_eq!(t.stride(), (Int::<1>::new(), Dyn::new(6)));
    /// ```
    #[inline(always)]
    pub fn stride(&self) -> D {
        self.layout.stride()
    }

    /// The number of elements (the size of the layout).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [0u8; 24];
    /// let t = make_tensor(&data[..], layout!((4,(2,3)):(1,(4,8))));
    /// assert_eq!(t.size(), 24);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// The rank of the layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [0u8; 24];
    /// let t = make_tensor(&data[..], layout!((4,(2,3)):(1,(4,8))));
    /// assert_eq!(t.rank(), 2);
    /// ```
    #[inline(always)]
    pub fn rank(&self) -> usize {
        S::RANK
    }

    /// The storage index of the layout's origin (wrapping: a negative
    /// origin of a view with negative strides is two's complement).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<u32> = (0..64).collect();
    /// let t = make_tensor(&data[..], layout!((8,8):(1,8)));
    /// assert_eq!(t.offset(), 0);
    /// assert_eq!(t.slice(crd!(_, 3usize)).offset(), 24); // column 3 starts at 3·8
    /// ```
    #[inline(always)]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The engine.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [10u8, 11, 12, 13];
    /// let t = make_tensor(&data[..], layout!((2,2):(2,1)));
    /// assert_eq!(*t.engine(), &data[..]);
    /// assert_eq!(t.engine()[2], 12);
    /// ```
    #[inline(always)]
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The storage index of the element at `c`, `None` outside the shape.
    #[inline(always)]
    fn index_of<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> Option<usize> {
        let (s, d) = (self.layout.shape(), self.layout.stride());
        if c.inside(&s) { Some(c.offset_acc(&s, &d, self.offset)) } else { None }
    }
}

impl<E: DataEngine, S: Congruent<D>, D: IntTuple> Tensor<E, Layout<S, D>> {
    /// The element at `c` (integral, rank-N or natural coordinate), `None`
    /// when `c` is outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [1, 2, 3, 4];
    /// let t = make_tensor(&data[..], layout!((2,2):(2,1)));
    /// assert_eq!(t.get((1usize, 0usize)), Some(&3));
    /// assert_eq!(t.get(4usize), None);
    /// ```
    #[inline(always)]
    pub fn get<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> Option<&E::Elem> {
        let i = self.index_of(c)?;
        // SAFETY: `c` is inside the shape, so `i = offset + L(c)` is a
        // storage index by the tensor invariant (checked when the tensor or
        // view was made), and `as_ptr` is valid for `len` reads.
        Some(unsafe { &*self.engine.as_ptr().add(i) })
    }

    /// The element at `c`.
    ///
    /// # Panics
    ///
    /// When `c` is outside the shape (never because of the storage).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<f32> = (0..8).map(|x| x as f32).collect();
    /// let t = make_tensor(&data[..], layout!((2,4):(4,1)));
    /// assert_eq!(*t.at((1usize, 3usize)), 7.0);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn at<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> &E::Elem {
        let (s, d) = (self.layout.shape(), self.layout.stride());
        if !c.inside(&s) {
            domain_panic()
        }
        let i = c.offset_acc(&s, &d, self.offset);
        // SAFETY: as in `get` (no `Option` here: its null test would stay
        // in the loop, the compiler cannot see the pointer is not null).
        unsafe { &*self.engine.as_ptr().add(i) }
    }
}

impl<E: DataEngineMut, S: Congruent<D>, D: IntTuple> Tensor<E, Layout<S, D>> {
    /// The element at `c`, mutably; `None` outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = [0u8; 4];
    /// let mut t = make_tensor(&mut data[..], layout!((2,2):(2,1)));
    /// if let Some(x) = t.get_mut((1usize, 0usize)) {
    ///     *x = 5;
    /// }
    /// assert_eq!(t.get_mut(4usize), None);
    /// assert_eq!(data, [0, 0, 5, 0]);
    /// ```
    #[inline(always)]
    pub fn get_mut<C: Coord<S, D> + InDomain<S>>(&mut self, c: C) -> Option<&mut E::Elem> {
        let i = self.index_of(c)?;
        // SAFETY: as in `get`; `&mut self` borrows the engine exclusively.
        Some(unsafe { &mut *self.engine.as_mut_ptr().add(i) })
    }

    /// The element at `c`, mutably.
    ///
    /// # Panics
    ///
    /// When `c` is outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut t = make_owned_tensor::<f32, _, _>(layout!((2,4):(4,1)));
    /// *t.at_mut((1usize, 3usize)) += 2.5;
    /// assert_eq!(t.engine()[7], 2.5);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn at_mut<C: Coord<S, D> + InDomain<S>>(&mut self, c: C) -> &mut E::Elem {
        let (s, d) = (self.layout.shape(), self.layout.stride());
        if !c.inside(&s) {
            domain_panic()
        }
        let i = c.offset_acc(&s, &d, self.offset);
        // SAFETY: as in `get_mut`.
        unsafe { &mut *self.engine.as_mut_ptr().add(i) }
    }
}

impl<E: DataEngine, S: Congruent<D>, D: IntTuple, C: Coord<S, D> + InDomain<S>> Index<C> for Tensor<E, Layout<S, D>> {
    type Output = E::Elem;
    /// [`Tensor::at`].
    #[inline(always)]
    #[track_caller]
    fn index(&self, c: C) -> &E::Elem {
        self.at(c)
    }
}

impl<E: DataEngineMut, S: Congruent<D>, D: IntTuple, C: Coord<S, D> + InDomain<S>> IndexMut<C>
    for Tensor<E, Layout<S, D>>
{
    /// [`Tensor::at_mut`].
    #[inline(always)]
    #[track_caller]
    fn index_mut(&mut self, c: C) -> &mut E::Elem {
        self.at_mut(c)
    }
}

impl<E: DataEngine, L: Copy> Tensor<E, L> {
    /// A read-only view of the same elements (the tensor borrowed), for any
    /// layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [1u8, 2, 3, 4];
    /// let t = make_tensor(&data[..], layout!(4:1));
    /// let v = t.view();
    /// assert_eq!((v[1usize], t[2usize]), (2, 3));
    /// ```
    #[inline(always)]
    pub fn view(&self) -> Tensor<&[E::Elem], L> {
        // SAFETY: the engine contract: `as_ptr` is valid for `len` reads
        // while `self` is borrowed.
        let data = unsafe { core::slice::from_raw_parts(self.engine.as_ptr(), self.engine.len()) };
        Tensor { engine: data, offset: self.offset, layout: self.layout }
    }
}

impl<E: DataEngineMut, L: Copy> Tensor<E, L> {
    /// A mutable view of the same elements (the tensor borrowed mutably),
    /// for any layout: to partition or tile a tensor without giving it up.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = [0u8; 4];
    /// let mut t = make_tensor(&mut data[..], layout!(4:1));
    /// t.view_mut()[1usize] = 7;
    /// t[2usize] = 8;
    /// assert_eq!(data, [0, 7, 8, 0]);
    /// ```
    #[inline(always)]
    pub fn view_mut(&mut self) -> Tensor<&mut [E::Elem], L> {
        // SAFETY: the engine contract, with `&mut self` exclusive.
        let data = unsafe { core::slice::from_raw_parts_mut(self.engine.as_mut_ptr(), self.engine.len()) };
        Tensor { engine: data, offset: self.offset, layout: self.layout }
    }
}

impl<E, L> Tensor<E, L> {
    /// Slicing with `_` (CuTe's `tensor(c)` with underscores): the view of
    /// the free modes at the fixed part of `coord`, its layout and offset
    /// as [`slice_and_offset`](crate::slice_and_offset) gives them (`A(2,_)`
    /// of `((_3,2),(2,_5,_2)):((4,1),(_2,13,100))` is
    /// `((2,_5,_2)):((_2,13,100))` at offset 8).
    ///
    /// Post-condition: `result[k]` is `self[c(k)]`, where `c(k)` fills the
    /// `_` of `coord` with the parts of `k`; the view reaches a subset of
    /// this tensor's elements.
    ///
    /// # Panics
    ///
    /// When a fixed entry of `coord` is outside its mode.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<u32> = (0..64).collect();
    /// let t = make_tensor(&data[..], layout!((8,8):(1,8)));
    /// let col = t.slice(crd!(_, 3usize));
    /// assert_eq!(col.layout().to_string(), "(_8):(_1)");
    /// assert_eq!(col[2usize], 26);
    /// ```
    ///
    /// A swizzled tensor is sliced through its inner layout (the slice's
    /// offset is added before the swizzle). Generic code bounds the layout
    /// with [`SliceBy<C>`](crate::SliceBy).
    #[inline(always)]
    #[track_caller]
    pub fn slice<C>(self, coord: C) -> Tensor<E, L::Output>
    where
        L: SliceBy<C>,
    {
        match self.layout.slice_by(coord) {
            // A sub-domain of a tensor's domain reaches a subset of its
            // storage: the invariant holds without a check.
            Some((sub, off)) => Tensor { engine: self.engine, offset: self.offset.wrapping_add(off), layout: sub },
            None => domain_panic(),
        }
    }

    /// A tensor from parts that keep the invariant (checked by the caller).
    #[inline(always)]
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn from_parts_checked(engine: E, offset: usize, layout: L) -> Self {
        Tensor { engine, offset, layout }
    }

    /// The engine, offset and layout.
    #[inline(always)]
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn into_parts(self) -> (E, usize, L) {
        (self.engine, self.offset, self.layout)
    }
}

impl<E: DataEngine, L> Tensor<E, L> {
    /// The first element's pointer, the offset and the layout.
    #[inline(always)]
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn raw_parts(&self) -> (*const E::Elem, usize, &L) {
        (self.engine.as_ptr(), self.offset, &self.layout)
    }
}

impl<E: DataEngineMut, L> Tensor<E, L> {
    /// As `raw_parts`, the pointer mutable.
    #[inline(always)]
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn raw_parts_mut(&mut self) -> (*mut E::Elem, usize, &L) {
        (self.engine.as_mut_ptr(), self.offset, &self.layout)
    }
}

// ------------------------------------------------- owned static storage

/// The compact column-major stride of a static shape, starting at the
/// weight `P` (CuTe's `compact_col_major`): `Stride` is the stride tree and
/// `Next` is `P` times the size of the shape ([`SizeOfShape`] with
/// `P = Int<1>`): [`CompactLayout<S>`] is
/// `Layout<S, <S as CompactCol<Int<1>>>::Stride>`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::CompactCol;
/// type S = Shape![4, (2, 3)];
/// let d: <S as CompactCol<Int<1>>>::Stride = Default::default();
/// assert_eq!(d, stride!(1, (4, 8)));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static shape: a fragment or an owned tensor needs every extent static (its storage is sized by its type)",
    label = "a shape with a run-time extent",
    note = "make every extent of the shape a number; a run-time extent is a `Dyn` leaf"
)]
pub trait CompactCol<P> {
    /// The stride tree.
    type Stride: StaticIntTuple;
    /// `P` times the size of the shape.
    type Next;
}
impl<U: Unsigned, B: typenum::Bit, P> CompactCol<P> for UInt<U, B>
where
    P: core::ops::Mul<UInt<U, B>> + StaticIntTuple,
{
    type Stride = P;
    type Next = Prod<P, UInt<U, B>>;
}
/// CuTe's compact column-major strides (`make_layout(shape)`), starting at
/// the weight `P`: as [`CompactCol`], with stride 0 on every leaf of
/// extent 1 (CuTe prints `make_layout(Shape<_1,_8>{})` as
/// `(_1,_8):(_0,_1)`). The atom layer builds CuTe's reference layouts with
/// it, so that its results print as CuTe's.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static shape: a fragment or an owned tensor needs every extent static (its storage is sized by its type)",
    label = "a shape with a run-time extent",
    note = "make every extent of the shape a number; a run-time extent is a `Dyn` leaf"
)]
pub trait CuteCompactCol<P> {
    /// The stride tree.
    type Stride: StaticIntTuple;
    /// `P` times the size of the shape.
    type Next;
}
impl<U: Unsigned, B: typenum::Bit, P> CuteCompactCol<P> for UInt<U, B>
where
    UInt<U, B>: core::ops::Sub<typenum::B1>,
    typenum::Sub1<UInt<U, B>>: typenum::Min<typenum::U1>,
    P: core::ops::Mul<typenum::Minimum<typenum::Sub1<UInt<U, B>>, typenum::U1>> + core::ops::Mul<UInt<U, B>>,
    Prod<P, typenum::Minimum<typenum::Sub1<UInt<U, B>>, typenum::U1>>: StaticIntTuple,
{
    // `P·min(S − 1, 1)`: `P`, or 0 for an extent of 1.
    type Stride = Prod<P, typenum::Minimum<typenum::Sub1<UInt<U, B>>, typenum::U1>>;
    type Next = Prod<P, UInt<U, B>>;
}
// The weight chains: position `i` starts at the `Next` of position
// `i - 1` (the first at `P`), and the tuple's `Next` is the last one's.
macro_rules! compact_col {
    ($Tr:ident: $($i:tt $S:ident $N:ident $_x:ident),+) => {
        compact_col!(@chain $Tr [] P; $($S $N)+);
    };
    (@chain $Tr:ident [$($done:tt)*] $prev:ident; $S:ident $N:ident $($rest:ident)*) => {
        compact_col!(@chain $Tr [$($done)* ($S $prev $N)] $N; $($rest)*);
    };
    (@chain $Tr:ident [$(($S:ident $P:ident $N:ident))+] $last:ident;) => {
        impl<P, $($S, $N),+> $Tr<P> for ($($S,)+)
        where
            $($S: $Tr<$P, Next = $N>,)+
        {
            type Stride = ($(<$S as $Tr<$P>>::Stride,)+);
            type Next = $last;
        }
    };
}
for_each_tuple!(compact_col[CompactCol:]);
for_each_tuple!(compact_col[CuteCompactCol:]);

/// The compact column-major layout of the static shape `S` (a
/// [`Fragment`]'s layout orders its modes like its source's strides:
/// [`FragmentOrder`]).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::CompactLayout;
/// let l = CompactLayout::<Shape![2, (3, 2)]>::default();
/// assert_eq!(l.to_string(), "(_2,(_3,_2)):(_1,(_2,_6))");
/// assert!((0..12usize).all(|i| l.index(i) == i)); // a bijection onto 0..size
/// ```
pub type CompactLayout<S> = Layout<S, <S as CompactCol<typenum::U1>>::Stride>;

/// Anything with a layout: a [`Layout`], a [`Tensor`], a thread part, a
/// [`Predicated`](crate::Predicated) view. What [`make_fragment_like`]
/// reads the shape of.
///
/// ```
/// use cute_static::prelude::*;
/// // The number of elements of anything with a layout.
/// fn elems<H: HasLayout>(x: H) -> usize {
///     x.layout_of().size()
/// }
/// let data = [0u8; 64];
/// let t = make_tensor(&data[..], layout!((8, 8):(8, 1)));
/// assert_eq!(elems(layout!((4, 2):(1, 4))), 8);
/// assert_eq!(elems(&t), 64);
/// assert_eq!(elems(t.slice(crd!(3usize, _))), 8);
/// ```
pub trait HasLayout {
    /// The shape tree.
    type Shape: Congruent<Self::Stride>;
    /// The stride tree.
    type Stride: IntTuple;
    /// The layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [0f32; 32];
    /// let t = make_tensor(&data[..], layout!((4, 8):(8, 1)));
    /// assert_eq!(t.layout_of(), layout!((4, 8):(8, 1)));
    /// // A view's layout, without its offset (here 8).
    /// assert_eq!(t.slice(crd!(1usize, _)).layout_of().to_string(), "(_8):(_1)");
    /// assert_eq!(layout!(4:2).layout_of(), layout!(4:2));
    /// ```
    fn layout_of(&self) -> Layout<Self::Shape, Self::Stride>;
}
impl<S: Congruent<D>, D: IntTuple> HasLayout for Layout<S, D> {
    type Shape = S;
    type Stride = D;
    #[inline(always)]
    fn layout_of(&self) -> Layout<S, D> {
        *self
    }
}
impl<E: Engine, S: Congruent<D>, D: IntTuple> HasLayout for Tensor<E, Layout<S, D>> {
    type Shape = S;
    type Stride = D;
    #[inline(always)]
    fn layout_of(&self) -> Layout<S, D> {
        self.layout
    }
}
impl<H: HasLayout> HasLayout for &H {
    type Shape = H::Shape;
    type Stride = H::Stride;
    #[inline(always)]
    fn layout_of(&self) -> Layout<H::Shape, H::Stride> {
        (**self).layout_of()
    }
}

/// The size of a static shape as a typenum integer (the length of its
/// compact storage).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{SizeOfShape, typenum::Unsigned};
/// assert_eq!(<SizeOfShape<Shape![4, (2, 3)]> as Unsigned>::USIZE, 24);
/// let f: Fragment<u8, Layout![(4, 2):(8, 1)]> = make_fragment_like(layout!((4, 2):(8, 1)));
/// assert_eq!(f.engine().len(), <SizeOfShape<Shape![4, 2]> as Unsigned>::USIZE);
/// ```
pub type SizeOfShape<S> = <S as CompactCol<typenum::U1>>::Next;

/// CuTe's layout of `make_fragment_like` for the static shape `Self` of a
/// source whose strides are `D` (the bound of [`make_fragment_like`]):
///
/// * a leaf or a tuple of one mode: compact column-major, stride 0 on
///   every extent of 1 (CuTe's `make_layout(shape)`);
/// * two modes or more: mode 0 compact column-major (as above); then
///   modes 1 and up compact in the order of their source strides (CuTe's
///   `make_ordered_layout`), scaled by mode 0's size: static strides by
///   value, after them the run-time ones, left to right.
///
/// Two departures from CuTe C++ 4.2, both where its fragment shares
/// elements between coordinates, so that a write through one coordinate
/// overwrites another's (a predicated copy into it keeps the last value
/// written): equal strides are ordered by position, the leaf on the left
/// first, where CuTe gives them one stride (its fragment of
/// `(4,2,2):(1,8,8)` is `(_4,_2,_2):(_1,_4,_4)`, this one `(_1,_4,_8)`);
/// and a leaf of mode 0 of static stride 0 (a broadcast) gets its own
/// stride, where CuTe keeps the 0.
///
/// `Len` is the size. The leaves' stride rule is in the crate's
/// `detail/compact_order.rs`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{FragmentOrder, typenum::Unsigned};
/// type S = Shape![8, 2, 6];
/// type D = Stride![1, 96, 16];
/// let d: <S as FragmentOrder<D>>::Stride = Default::default();
/// assert_eq!(d, stride!(1, 48, 8)); // mode 2 (stride 16) before mode 1 (96)
/// assert_eq!(<<S as FragmentOrder<D>>::Len as Unsigned>::USIZE, 96);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static shape: a fragment or an owned tensor needs every extent static (its storage is sized by its type)",
    label = "a shape with a run-time extent",
    note = "make every extent of the shape a number; a run-time extent is a `Dyn` leaf"
)]
pub trait FragmentOrder<D> {
    /// The stride tree of the fragment.
    type Stride;
    /// The length of its storage (the size).
    type Len;
}

/// The strides of [`Fragment<T, L>`]'s layout (see [`FragmentOrder`]).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::FragmentStride;
/// let d: FragmentStride<Layout![(4,(2,3)):(3,(12,1))]> = Default::default();
/// assert_eq!(d, stride!(1, (12, 4))); // the leaf of stride 1 before the one of 12
/// ```
pub type FragmentStride<L> = <<L as HasLayout>::Shape as FragmentOrder<<L as HasLayout>::Stride>>::Stride;

/// A register fragment of `T` shaped like `L` (a layout, tensor or
/// part): owned storage sized in the type, with CuTe's layout for it
/// ([`FragmentOrder`]). What [`make_fragment_like`] returns; name it in
/// signatures.
///
/// ```
/// use cute_static::prelude::*;
/// // A thread's accumulator, named in a struct.
/// struct Acc {
///     c: Fragment<f32, Layout![(2, 4):(4, 1)]>,
/// }
/// let mut acc = Acc { c: make_fragment_like(layout!((2, 4):(4, 1))) };
/// acc.c[(1usize, 2usize)] = 3.0;
/// assert_eq!(acc.c.layout().to_string(), "(_2,_4):(_1,_2)"); // mode 0 column-major first
/// assert_eq!(acc.c.engine()[5], 3.0); // 1 + 2·2
/// ```
pub type Fragment<T, L> = Tensor<
    Storage<T, <<L as HasLayout>::Shape as FragmentOrder<<L as HasLayout>::Stride>>::Len>,
    Layout<<L as HasLayout>::Shape, FragmentStride<L>>,
>;

/// CuTe's `make_fragment_like(x)`: a register fragment (an owned tensor on
/// the stack) with the shape of `x` (a layout, a tensor or a thread part),
/// every element `T::default()`, its layout CuTe's ([`FragmentOrder`]:
/// mode 0 column-major, the other modes in the order of `x`'s strides)
/// and its storage length taken from the type: nothing to write by hand.
///
/// The shape must be static (a fragment lives in registers).
///
/// Post-conditions: the result's shape is `x`'s; its layout is a
/// bijection onto `0..size`, the storage; mode 0 is column-major, and the
/// leaves of modes 1 and up are in the order of `x`'s strides (equal ones
/// by position).
///
/// Where this differs from CuTe C++ 4.2: no two coordinates share an
/// element (CuTe's fragment does for equal strides and for broadcasts in
/// mode 0; see [`FragmentOrder`]); and the shape is `x`'s, where CuTe's,
/// made by a `tiled_product`, puts modes 1 and up of a rank-2 shape in a
/// tuple of one mode (`(_2,(_4))` for `(2,4)`).
///
/// ```
/// use cute_static::prelude::*;
/// let f = make_fragment_like::<f32, _>(layout!((8,2,6):(1,96,16)));
/// assert_eq!(f.layout().to_string(), "(_8,_2,_6):(_1,_48,_8)"); // as CuTe C++ prints it
/// assert_eq!(f.engine().len(), 96);
/// assert!((0..96usize).all(|i| f[i] == 0.0));
/// // A broadcast leaf of mode 0 gets elements of its own (CuTe: `((_0,_1),_2)`).
/// let g = make_fragment_like::<f32, _>(layout!(((2,2),3):((0,1),9)));
/// assert_eq!(g.layout().to_string(), "((_2,_2),_3):((_1,_2),_4)");
/// assert_eq!(g.engine().len(), 12);
/// ```
#[inline(always)]
pub fn make_fragment_like<T: Default, L: HasLayout>(x: L) -> Fragment<T, L>
where
    L::Shape: StaticIntTuple + FragmentOrder<L::Stride> + Congruent<FragmentStride<L>>,
    FragmentStride<L>: StaticIntTuple,
    <L::Shape as FragmentOrder<L::Stride>>::Len: ArrayLength,
{
    let _ = x;
    // The invariant: the layout is a bijection onto `0..len`, the
    // storage's length (the size: the same product in the type).
    Tensor { engine: Storage::default(), offset: 0, layout: Layout::default() }
}

/// CuTe's layout of `make_tensor_like` (its `make_layout_like`) for the
/// static shape `Self` of a source whose strides are `D`: every leaf
/// compact in the order of its source stride (static strides by value,
/// after them the run-time ones, left to right), a leaf of extent 1 with
/// stride 0. `Len` is the size.
///
/// Where CuTe shares elements between coordinates, this does not: equal
/// strides are ordered by position (CuTe gives them one stride), and a
/// leaf of static stride 0 (a broadcast) is ordered first with a stride
/// of its own (CuTe keeps the 0).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{LayoutLikeOrder, typenum::Unsigned};
/// type S = Shape![4, (2, 3)];
/// type D = Stride![3, (1, 12)];
/// let d: <S as LayoutLikeOrder<D>>::Stride = Default::default();
/// assert_eq!(d, stride!(2, (1, 8)));
/// assert_eq!(<<S as LayoutLikeOrder<D>>::Len as Unsigned>::USIZE, 24);
/// ```
// (No diagnostic of its own: its one impl is for every shape, and a
// run-time extent fails in `OrderedCol`, whose message says so.)
pub trait LayoutLikeOrder<D> {
    /// The stride tree.
    type Stride;
    /// The length of the storage (the size).
    type Len;
}

// A leaf or a tuple of one mode: CuTe's `make_layout(shape)`.
impl<U, B, D> FragmentOrder<D> for UInt<U, B>
where
    UInt<U, B>: CuteCompactCol<typenum::U1>,
{
    type Stride = <UInt<U, B> as CuteCompactCol<typenum::U1>>::Stride;
    type Len = <UInt<U, B> as CuteCompactCol<typenum::U1>>::Next;
}

// Two modes or more: mode 0 column-major, then modes 1 and up ordered,
// each position walking with the leaves before it.
macro_rules! fragment_order {
    ($i0:tt $A0:ident $S0:ident $D0:ident $E0:ident) => {
        impl<$A0, $D0> FragmentOrder<($D0,)> for ($A0,)
        where
            ($A0,): CuteCompactCol<typenum::U1>,
        {
            type Stride = <($A0,) as CuteCompactCol<typenum::U1>>::Stride;
            type Len = <($A0,) as CuteCompactCol<typenum::U1>>::Next;
        }
    };
    ($i0:tt $A0:ident $S0:ident $D0:ident $E0:ident, $($i:tt $A:ident $S:ident $D:ident $E:ident),+) => {
        fragment_order!(@chain [$A0 $D0] [] MNil; $($A $D $E)+);
    };
    (@chain [$A0:ident $D0:ident] [$($done:tt)*] $prev:tt; $A:ident $D:ident $E:ident $($rest:ident)*) => {
        fragment_order!(@chain [$A0 $D0] [$($done)* ($A $D $prev $E)] $E; $($rest)*);
    };
    (@chain [$A0:ident $D0:ident] [$(($A:ident $D:ident $P:tt $E:ident))+] $last:ident;) => {
        impl<$A0, $D0, C0, All, $($A, $D, $E),+> FragmentOrder<($D0, $($D,)+)> for ($A0, $($A,)+)
        where
            $A0: CuteCompactCol<typenum::U1, Next = C0>,
            ($($A,)+): FlattenInto<($($D,)+), MNil, Output = All>,
            All: ModeSize,
            C0: core::ops::Mul<<All as ModeSize>::Size>,
            $($A: compact_order::OrderedCol<$D, compact_order::Ctx<All, C0>, $P, Before = $E>,)+
        {
            type Stride = (
                <$A0 as CuteCompactCol<typenum::U1>>::Stride,
                $(<$A as compact_order::OrderedCol<$D, compact_order::Ctx<All, C0>, $P>>::Stride,)+
            );
            type Len = Prod<C0, <All as ModeSize>::Size>;
        }
    };
}
for_each_tuple!(wide fragment_order);

// Every leaf ordered.
impl<S, D, All> LayoutLikeOrder<D> for S
where
    S: FlattenInto<D, MNil, Output = All> + compact_order::OrderedCol<D, compact_order::Ctx<All, typenum::U1>, MNil>,
    All: ModeSize,
{
    type Stride = <S as compact_order::OrderedCol<D, compact_order::Ctx<All, typenum::U1>, MNil>>::Stride;
    type Len = <All as ModeSize>::Size;
}

/// What [`make_tensor_like`] returns: an owned tensor of `T` with the
/// shape of `L` and CuTe's layout for it ([`LayoutLikeOrder`]).
///
/// ```
/// use cute_static::prelude::*;
/// let data = [0u8; 8];
/// let t = make_tensor(&data[..], layout!((2,4):(4,1)));
/// let u: TensorLike<u8, Layout![(2,4):(4,1)]> = make_tensor_like(&t);
/// assert_eq!(u.layout().to_string(), "(_2,_4):(_4,_1)"); // row-major, as t
/// ```
pub type TensorLike<T, L> = Tensor<
    Storage<T, <<L as HasLayout>::Shape as LayoutLikeOrder<<L as HasLayout>::Stride>>::Len>,
    Layout<<L as HasLayout>::Shape, <<L as HasLayout>::Shape as LayoutLikeOrder<<L as HasLayout>::Stride>>::Stride>,
>;

/// CuTe's `make_tensor_like(tensor)`: an owned tensor of the tensor's own
/// element type and shape, every element `T::default()`, whose layout
/// orders its strides as the tensor's do ([`LayoutLikeOrder`]; CuTe's
/// `make_layout_like`).
///
/// Post-conditions: the result's shape is the tensor's; its layout is a
/// bijection onto `0..size`, the storage; its leaves of extent above 1 are
/// in the order of the tensor's strides (equal ones by position).
///
/// ```
/// use cute_static::prelude::*;
/// let data = [1u16; 8];
/// let t = make_tensor(&data[..], layout!((2,4):(4,1)));
/// let mut u = make_tensor_like(&t);
/// u[(1usize, 2usize)] = t[(1usize, 2usize)];
/// assert_eq!(u.layout().to_string(), "(_2,_4):(_4,_1)");
/// assert_eq!(u.engine()[6], 1);
/// // A broadcast mode (stride 0) comes first, with elements of its own.
/// let b = make_tensor(&data[..], layout!((4,2):(1,0)));
/// assert_eq!(make_tensor_like(&b).layout().to_string(), "(_4,_2):(_2,_1)");
/// assert_eq!(make_tensor_like(&b).engine().len(), 8);
/// ```
#[inline(always)]
pub fn make_tensor_like<E: Engine, S, D>(t: &Tensor<E, Layout<S, D>>) -> TensorLike<E::Elem, Layout<S, D>>
where
    E::Elem: Default,
    S: Congruent<D> + StaticIntTuple + LayoutLikeOrder<D> + Congruent<<S as LayoutLikeOrder<D>>::Stride>,
    D: IntTuple,
    <S as LayoutLikeOrder<D>>::Stride: StaticIntTuple,
    <S as LayoutLikeOrder<D>>::Len: ArrayLength,
{
    let _ = t;
    // The invariant: a bijection onto `0..len` (see `make_fragment_like`).
    Tensor { engine: Storage::default(), offset: 0, layout: Layout::default() }
}

/// An owned tensor with a static layout, every element `T::default()`,
/// its storage exactly the layout's cosize, taken from the type: CuTe's
/// `make_tensor<T>(layout)` for static layouts (a shared-memory tile, a
/// register tile with a layout of its own).
///
/// Post-condition: the storage holds `cosize(layout)` elements, so every
/// offset of the layout is an element.
///
/// ```
/// use cute_static::prelude::*;
/// let mut t = make_owned_tensor::<u8, _, _>(layout!((2,4):(4,1)));
/// t[(1usize, 0usize)] = 5;
/// assert_eq!(t.engine()[4], 5);
/// assert_eq!(t.engine().len(), 8);
/// let s = make_owned_tensor::<f32, _, _>(layout!((8,8):(1,9)));      // padded: cosize 71
/// assert_eq!(s.engine().len(), 71);
/// ```
#[inline(always)]
pub fn make_owned_tensor<T: Default, S, D>(layout: Layout<S, D>) -> Tensor<Storage<T, CosizeType<S, D>>, Layout<S, D>>
where
    S: Congruent<D> + StaticIntTuple,
    D: StaticIntTuple,
    Layout<S, D>: StaticCosize,
    CosizeType<S, D>: ArrayLength,
{
    // The invariant: the layout's offsets lie in `0..cosize` (static
    // strides are non-negative), the storage's length.
    Tensor { engine: Storage::default(), offset: 0, layout }
}

/// The cosize of a static layout as a typenum integer: the length of
/// [`make_owned_tensor`]'s storage.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{CosizeType, typenum::Unsigned};
/// // Columns of 4 padded to 6: the last offset is 3 + 6 = 9.
/// assert_eq!(<CosizeType<Shape![4, 2], Stride![1, 6]> as Unsigned>::USIZE, 10);
/// assert_eq!(<CosizeType<Shape![4, 2], Stride![0, 1]> as Unsigned>::USIZE, 2); // a broadcast column
/// ```
pub type CosizeType<S, D> = <Layout<S, D> as crate::detail::divide::CosizeOf>::Cosize;

/// A static layout whose cosize is known as a type, [`CosizeType<S, D>`]:
/// the length of [`make_owned_tensor`]'s storage. Every all-static
/// [`Layout`] is one.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{CosizeType, StaticCosize};
/// fn cosize<S, D>(_: Layout<S, D>) -> usize
/// where
///     Layout<S, D>: StaticCosize,
///     CosizeType<S, D>: cute_static::typenum::Unsigned,
/// {
///     <CosizeType<S, D> as cute_static::typenum::Unsigned>::USIZE
/// }
/// assert_eq!(cosize(layout!((4, 2):(2, 1))), 8);
/// ```
pub trait StaticCosize: crate::detail::divide::CosizeOf {}
impl<L: crate::detail::divide::CosizeOf> StaticCosize for L {}

// ------------------------------------------------------ identity tensors

// ------------------------------------------- tensors over composed layouts

/// A layout a tensor can have: a [`Layout`], or a swizzled layout
/// ([`ComposedLayout`] `Sw ∘ O ∘ L`, CuTe's `ComposedLayout`, made by
/// `Swizzle::compose`), whose element at `c` is `storage[Sw(offset + O +
/// L(c))]`. [`make_tensor`] takes either.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::Swizzle;
/// // Whether `data` holds every element a tensor of layout `l` reaches.
/// fn holds<L: TensorLayout>(data: &[u8], l: L) -> bool {
///     try_make_tensor(data, l).is_ok()
/// }
/// let data = [0u8; 64];
/// assert!(holds(&data, layout!((8, 8):(8, 1))));
/// assert!(!holds(&data[..63], layout!((8, 8):(8, 1))));
/// assert!(holds(&data, Swizzle::<3, 0, 3>::new().compose(layout!((8, 8):(8, 1))))); // a permutation of 0..64
/// ```
pub trait TensorLayout: Copy {
    /// `Ok` when every storage index the layout reaches from the origin
    /// `offset` lies in `0..len`; otherwise the error names the view
    /// (`what`) and the indices reached. A swizzled layout is checked
    /// against a bound on its largest index (see its implementation).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = layout!((4, 8):(1, 4)); // offsets 0..=31
    /// assert!(l.fits_storage("a tile", 0, 32).is_ok());
    /// let e = l.fits_storage("a tile", 1, 32).unwrap_err(); // from 1 it reaches 32
    /// assert_eq!((e.what, e.lo, e.hi, e.len), ("a tile", 1, 32, 32));
    /// ```
    fn fits_storage(&self, what: &'static str, offset: usize, len: usize) -> Result<(), OutOfStorage>;
}
impl<S: Congruent<D> + OffsetRange<D>, D: IntTuple> TensorLayout for Layout<S, D> {
    #[inline(always)]
    fn fits_storage(&self, what: &'static str, offset: usize, len: usize) -> Result<(), OutOfStorage> {
        check_fits(what, self, offset, len)
    }
}
impl<A: OffsetFn, O: Leaf, S: Congruent<D> + OffsetRange<D>, D: IntTuple> TensorLayout
    for ComposedLayout<A, O, Layout<S, D>>
{
    /// The offsets before the swizzle, `offset + O + L(c)`, must not be
    /// negative, and the largest index the swizzle can make of them must be
    /// below `len`: a swizzle changes only the bits of its `zzz` mask, so
    /// `Sw(x) <= x | zzz'` (`zzz'` the bits the `yyy` bits of numbers up to
    /// the largest `x` can flip), and the check takes the largest `x |
    /// zzz'` over the range of `x`: a bound, reached by the usual
    /// power-of-two tiles.
    #[inline(always)]
    fn fits_storage(&self, what: &'static str, offset: usize, len: usize) -> Result<(), OutOfStorage> {
        let inner = self.inner();
        let (lo, hi) = inner.shape().range(&inner.stride());
        let base = (offset as i64).wrapping_add(self.offset() as i64);
        let (lo, hi) = (base.checked_add(lo), base.checked_add(hi));
        match (lo, hi) {
            (Some(lo), Some(hi)) if lo >= 0 => {
                let m = A::MASKS;
                // Only the `yyy` bits that some `x <= hi` has can flip a
                // `zzz` bit.
                let reach = u64::MAX >> (hi as u64).leading_zeros();
                let yyy = m.yyy as u64 & reach;
                let zzz = if m.shift >= 0 { yyy >> m.shift } else { yyy << m.shift.unsigned_abs() };
                let top = max_or(hi as u64, zzz);
                if top < len as u64 { Ok(()) } else { Err(OutOfStorage { what, lo, hi: top as i64, len }) }
            }
            (lo, hi) => Err(OutOfStorage { what, lo: lo.unwrap_or(i64::MIN), hi: hi.unwrap_or(i64::MAX), len }),
        }
    }
}

/// The largest `x | z` over `0 <= x <= hi`: `hi | z`, or `hi` with one of
/// its bits that `z` lacks cleared and every bit below it set.
#[inline]
fn max_or(hi: u64, z: u64) -> u64 {
    let mut best = hi | z;
    for b in 0..64 {
        if (hi >> b) & 1 == 1 && (z >> b) & 1 == 0 {
            let x = (hi & !((2u64 << b).wrapping_sub(1))) | ((1u64 << b) - 1);
            best = best.max(x | z);
        }
    }
    best
}

/// A tensor over a swizzled layout `Sw ∘ O ∘ L` (CuTe's tensor over a
/// `ComposedLayout`): the layout algebra (slicing, tiling, partitioning)
/// acts on `L`, the swizzle on the offsets. The element at `c` is
/// `storage[Sw(offset + O + L(c))]`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::Swizzle;
/// let data: Vec<u32> = (0..64).collect();
/// let sw = Swizzle::<3, 0, 3>::new().compose(layout!((8,8):(8,1)));   // row-major 8×8, XOR-swizzled
/// let t = make_tensor(&data[..], sw);
/// assert_eq!(t[(1usize, 0usize)], 8 ^ 1);                              // row 1 starts at column 1
/// let row = t.slice(crd!(2usize, _));                                  // the layout's slice, the same swizzle
/// assert_eq!((0..8usize).map(|j| row[j]).collect::<Vec<_>>(), [18, 19, 16, 17, 22, 23, 20, 21]);
/// ```
impl<E: Engine, A: OffsetFn, O: Leaf, S: Congruent<D>, D: IntTuple> Tensor<E, ComposedLayout<A, O, Layout<S, D>>> {
    /// The composed layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let data = [0u8; 64];
    /// let t = make_tensor(&data[..], Swizzle::<3, 0, 3>::new().compose(layout!((8,8):(8,1))));
    /// assert_eq!(t.layout().to_string(), "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
    /// ```
    #[inline(always)]
    pub fn layout(&self) -> ComposedLayout<A, O, Layout<S, D>> {
        self.layout
    }

    /// The shape of the inner layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let data = [0u8; 64];
    /// let t = make_tensor(&data[..], Swizzle::<3, 0, 3>::new().compose(layout!((8,8):(8,1))));
    /// assert_eq!((t.shape(), t.size()), (shape!(8, 8), 64));
    /// ```
    #[inline(always)]
    pub fn shape(&self) -> S {
        self.layout.inner().shape()
    }

    /// The number of elements.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let data = [0u8; 64];
    /// let t = make_tensor(&data[..], Swizzle::<3, 0, 3>::new().compose(layout!((8,8):(8,1))));
    /// assert_eq!(t.size(), 64);
    /// assert_eq!(t.slice(crd!(2usize, _)).size(), 8);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.layout.inner().size()
    }

    /// The offset before the swizzle of the layout's origin.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let data: Vec<u32> = (0..64).collect();
    /// let t = make_tensor(&data[..], Swizzle::<3, 0, 3>::new().compose(layout!((8,8):(8,1))));
    /// let row = t.slice(crd!(2usize, _));
    /// assert_eq!(row.offset(), 16); // L(2,0) = 2·8, not swizzled
    /// assert_eq!(row[0usize], 16 ^ 2); // the element: the swizzle of 16
    /// ```
    #[inline(always)]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The storage index of the element at `c`, `None` outside the shape.
    #[inline(always)]
    fn swizzled_index_of<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> Option<usize> {
        let inner = self.layout.inner();
        let (s, d) = (inner.shape(), inner.stride());
        if !c.inside(&s) {
            return None;
        }
        let pre = c.offset_acc(&s, &d, self.offset.wrapping_add(self.layout.offset()));
        Some(self.layout.outer().apply_offset(pre))
    }
}

impl<E: DataEngine, A: OffsetFn, O: Leaf, S: Congruent<D>, D: IntTuple> Tensor<E, ComposedLayout<A, O, Layout<S, D>>> {
    /// The element at `c`, `None` outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let data: Vec<u32> = (0..64).collect();
    /// let t = make_tensor(&data[..], Swizzle::<3, 0, 3>::new().compose(layout!((8,8):(8,1))));
    /// assert_eq!(t.get((7usize, 7usize)), Some(&(63 ^ 7)));
    /// assert_eq!(t.get(64usize), None);
    /// ```
    #[inline(always)]
    pub fn get<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> Option<&E::Elem> {
        let i = self.swizzled_index_of(c)?;
        // SAFETY: the tensor invariant (checked by `TensorLayout::fits_storage`
        // when the tensor was made, kept by slicing and exact partitions):
        // every swizzled offset of the domain is a storage index.
        Some(unsafe { &*self.engine.as_ptr().add(i) })
    }

    /// The element at `c`.
    ///
    /// # Panics
    ///
    /// When `c` is outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let data: Vec<u32> = (0..64).collect();
    /// let t = make_tensor(&data[..], Swizzle::<3, 0, 3>::new().compose(layout!((8,8):(8,1))));
    /// // L(3,5) = 29 = 0b011_101; the swizzle XORs bits 3..6 into bits 0..3: 0b011_110.
    /// assert_eq!(*t.at((3usize, 5usize)), 30);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn at<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> &E::Elem {
        match self.get(c) {
            Some(x) => x,
            None => domain_panic(),
        }
    }
}

impl<E: DataEngineMut, A: OffsetFn, O: Leaf, S: Congruent<D>, D: IntTuple>
    Tensor<E, ComposedLayout<A, O, Layout<S, D>>>
{
    /// The element at `c`, mutably; `None` outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let mut data = [0u32; 64];
    /// let mut t = make_tensor(&mut data[..], Swizzle::<3, 0, 3>::new().compose(layout!((8,8):(8,1))));
    /// *t.get_mut((2usize, 0usize)).unwrap() = 7;
    /// assert_eq!(data[16 ^ 2], 7);
    /// ```
    #[inline(always)]
    pub fn get_mut<C: Coord<S, D> + InDomain<S>>(&mut self, c: C) -> Option<&mut E::Elem> {
        let i = self.swizzled_index_of(c)?;
        // SAFETY: as in `get`, with `&mut self` exclusive.
        Some(unsafe { &mut *self.engine.as_mut_ptr().add(i) })
    }

    /// The element at `c`, mutably.
    ///
    /// # Panics
    ///
    /// When `c` is outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let mut data = [0u32; 64];
    /// let mut t = make_tensor(&mut data[..], Swizzle::<3, 0, 3>::new().compose(layout!((8,8):(8,1))));
    /// *t.at_mut((3usize, 5usize)) = 1;
    /// assert_eq!(data[29 ^ 3], 1); // L(3,5) = 29, its bits 3..6 (3) XORed into bits 0..3
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn at_mut<C: Coord<S, D> + InDomain<S>>(&mut self, c: C) -> &mut E::Elem {
        match self.get_mut(c) {
            Some(x) => x,
            None => domain_panic(),
        }
    }
}

impl<E: DataEngine, A: OffsetFn, O: Leaf, S: Congruent<D>, D: IntTuple, C: Coord<S, D> + InDomain<S>> Index<C>
    for Tensor<E, ComposedLayout<A, O, Layout<S, D>>>
{
    type Output = E::Elem;
    #[inline(always)]
    #[track_caller]
    fn index(&self, c: C) -> &E::Elem {
        self.at(c)
    }
}
impl<E: DataEngineMut, A: OffsetFn, O: Leaf, S: Congruent<D>, D: IntTuple, C: Coord<S, D> + InDomain<S>> IndexMut<C>
    for Tensor<E, ComposedLayout<A, O, Layout<S, D>>>
{
    #[inline(always)]
    #[track_caller]
    fn index_mut(&mut self, c: C) -> &mut E::Elem {
        self.at_mut(c)
    }
}
