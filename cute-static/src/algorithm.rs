//! Reference algorithms over tensors (CuTe's `algorithm/`): [`copy`],
//! [`copy_if`], [`axpby`], [`fill`], [`clear`] and [`gemm`] with CuTe's
//! dispatch on the ranks of the operands.
//!
//! They take anything that reads or writes elements by coordinate
//! ([`ReadTensor`], [`WriteTensor`]): tensors over any data engine and the
//! thread parts of [`partition_mut`](crate::Tensor::partition_mut). The
//! loops run over the integral coordinates (or the modes, for `gemm`) of
//! the layouts, so with static layouts they unroll to straight-line code.

use crate::coord::Coord;
use crate::int_tuple::IntTuple;
use crate::layout::{Congruent, Layout, ShapeLeaf};
use crate::slice::InDomain;
use crate::tensor::{DataEngine, DataEngineMut, Tensor};
use core::ops::{Add, Mul};

/// Read access to the elements of a tensor-like value by coordinate: what
/// the algorithms ([`copy`], [`gemm`], ...) read, implemented for tensors
/// over any data engine and for the thread parts of
/// [`partition_mut`](crate::Tensor::partition_mut).
///
/// ```
/// use cute_static::prelude::*;
/// // The largest element of anything readable: a tensor, or one thread's part of one.
/// fn max<R: ReadTensor<Elem = i32>>(t: &R) -> i32 {
///     (0..t.layout().size()).map(|i| *t.read(i)).max().unwrap_or(i32::MIN)
/// }
/// let mut data: Vec<i32> = (0..16).collect();
/// assert_eq!(max(&make_tensor(&data[..], layout!((4,4):(1,4)))), 15);
/// // 2x2 threads: thread (i,j) holds rows i, i+2 of columns j, j+2.
/// let parts = make_tensor(&mut data[..], layout!((4,4):(1,4))).partition_mut(layout!((2,2):(1,2))).unwrap();
/// assert_eq!(parts.iter().map(max).collect::<Vec<_>>(), [10, 11, 14, 15]);
/// ```
pub trait ReadTensor {
    /// The element type.
    type Elem;
    /// The shape tree of the layout.
    type Shape: Congruent<Self::Stride> + TopModes;
    /// The stride tree of the layout.
    type Stride: IntTuple;
    /// The layout: coordinate → offset from the tensor's origin.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = [0i32; 8 * 8];
    /// let parts = make_tensor(&mut data[..], layout!((8,8):(1,8))).partition_mut(layout!((4,2):(1,4))).unwrap();
    /// // Thread 1 of the (4,2) threads: rows 1 and 5 of the even columns.
    /// assert_eq!(ReadTensor::layout(&parts[1]).to_string(), "(_2,_4):(_4,_16)");
    /// ```
    fn layout(&self) -> Layout<Self::Shape, Self::Stride>;
    /// The element at `c`; panics outside the shape (as indexing).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [10, 11, 12, 13, 14, 15];
    /// let t = make_tensor(&data[..], layout!((2,3):(3,1)));   // row-major
    /// assert_eq!(*t.read((1usize, 0usize)), 13);
    /// assert_eq!(*t.read(1usize), 13);                        // integral coordinate 1 is (1,0)
    /// ```
    fn read<C: Coord<Self::Shape, Self::Stride> + InDomain<Self::Shape>>(&self, c: C) -> &Self::Elem;
    /// A borrowed view the algorithms loop over: its pointer and offset
    /// are values of the loop, not fields of a value in memory that a
    /// store into an owned fragment might change (which would make the
    /// compiler reload them after every store).
    type View<'a>: ReadTensor<Elem = Self::Elem, Shape = Self::Shape, Stride = Self::Stride>
    where
        Self: 'a;
    /// The view.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// // Generic code takes the view once, before its loop, as the algorithms do.
    /// fn sum<R: ReadTensor<Elem = i32>>(t: &R) -> i32 {
    ///     let v = t.view();
    ///     (0..v.layout().size()).map(|i| *v.read(i)).sum()
    /// }
    /// let data = [1, 2, 3, 4, 5, 6];
    /// assert_eq!(sum(&make_tensor(&data[..], layout!((2,2):(1,3)))), 1 + 2 + 4 + 5);
    /// ```
    fn view(&self) -> Self::View<'_>;
}

/// Write access to the elements of a tensor-like value (see [`ReadTensor`]):
/// what the algorithms write ([`copy`]'s destination, [`gemm`]'s C).
///
/// ```
/// use cute_static::prelude::*;
/// // Numbers the elements of anything writable from `first`, in the order of its coordinates.
/// fn number<W: WriteTensor<Elem = u8>>(t: &mut W, first: u8) {
///     for i in 0..t.layout().size() {
///         *t.write(i) = first + i as u8;
///     }
/// }
/// let mut data = [0u8; 8];
/// let parts = make_tensor(&mut data[..], layout!((4,2):(1,4))).partition_mut(layout!((2,1):(1,0))).unwrap();
/// for (k, mut part) in parts.into_iter().enumerate() {
///     number(&mut part, 10 * k as u8);                    // thread k: rows k and k + 2
/// }
/// assert_eq!(data, [0, 10, 1, 11, 2, 12, 3, 13]);
/// ```
pub trait WriteTensor: ReadTensor {
    /// The element at `c`, mutably; panics outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = [0; 6];
    /// let mut t = make_tensor(&mut data[..], layout!((2,3):(3,1)));
    /// *t.write((1usize, 2usize)) = 7;                         // offset 1·3 + 2·1
    /// assert_eq!(data, [0, 0, 0, 0, 0, 7]);
    /// ```
    fn write<C: Coord<Self::Shape, Self::Stride> + InDomain<Self::Shape>>(&mut self, c: C) -> &mut Self::Elem;
    /// A borrowed mutable view (see [`ReadTensor::View`]).
    type ViewMut<'a>: WriteTensor<Elem = Self::Elem, Shape = Self::Shape, Stride = Self::Stride>
    where
        Self: 'a;
    /// The view.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// // Element i (an integral coordinate) becomes i.
    /// fn iota<W: WriteTensor<Elem = i32>>(t: &mut W) {
    ///     let mut v = t.view_mut();
    ///     for i in 0..v.layout().size() {
    ///         *v.write(i) = i as i32;
    ///     }
    /// }
    /// let mut data = [0; 6];
    /// iota(&mut make_tensor(&mut data[..], layout!((2,3):(3,1))));
    /// assert_eq!(data, [0, 2, 4, 1, 3, 5]);
    /// ```
    fn view_mut(&mut self) -> Self::ViewMut<'_>;
}

impl<E: DataEngine, S: Congruent<D> + TopModes, D: IntTuple> ReadTensor for Tensor<E, Layout<S, D>> {
    type Elem = E::Elem;
    type Shape = S;
    type Stride = D;
    #[inline(always)]
    fn layout(&self) -> Layout<S, D> {
        Tensor::<E, Layout<S, D>>::layout(self)
    }
    #[inline(always)]
    #[track_caller]
    fn read<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> &E::Elem {
        self.at(c)
    }
    type View<'a>
        = Tensor<&'a [E::Elem], Layout<S, D>>
    where
        Self: 'a;
    #[inline(always)]
    fn view(&self) -> Self::View<'_> {
        Tensor::view(self)
    }
}

impl<E: DataEngineMut, S: Congruent<D> + TopModes, D: IntTuple> WriteTensor for Tensor<E, Layout<S, D>> {
    #[inline(always)]
    #[track_caller]
    fn write<C: Coord<S, D> + InDomain<S>>(&mut self, c: C) -> &mut E::Elem {
        self.at_mut(c)
    }
    type ViewMut<'a>
        = Tensor<&'a mut [E::Elem], Layout<S, D>>
    where
        Self: 'a;
    #[inline(always)]
    fn view_mut(&mut self) -> Self::ViewMut<'_> {
        Tensor::view_mut(self)
    }
}

#[cfg(feature = "std")]
impl<T, S: Congruent<D> + TopModes, D: IntTuple> ReadTensor for crate::ThreadTensor<'_, T, Layout<S, D>> {
    type Elem = T;
    type Shape = S;
    type Stride = D;
    #[inline(always)]
    fn layout(&self) -> Layout<S, D> {
        crate::ThreadTensor::layout(self)
    }
    #[inline(always)]
    #[track_caller]
    fn read<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> &T {
        &self[c]
    }
    type View<'b>
        = &'b Self
    where
        Self: 'b;
    #[inline(always)]
    fn view(&self) -> &Self {
        self
    }
}

#[cfg(feature = "std")]
impl<T, S: Congruent<D> + TopModes, D: IntTuple> WriteTensor for crate::ThreadTensor<'_, T, Layout<S, D>> {
    #[inline(always)]
    #[track_caller]
    fn write<C: Coord<S, D> + InDomain<S>>(&mut self, c: C) -> &mut T {
        &mut self[c]
    }
    type ViewMut<'b>
        = crate::ThreadTensor<'b, T, Layout<S, D>>
    where
        Self: 'b;
    #[inline(always)]
    fn view_mut(&mut self) -> Self::ViewMut<'_> {
        self.reborrow()
    }
}

impl<R: ReadTensor + ?Sized> ReadTensor for &R {
    type Elem = R::Elem;
    type Shape = R::Shape;
    type Stride = R::Stride;
    #[inline(always)]
    fn layout(&self) -> Layout<R::Shape, R::Stride> {
        (**self).layout()
    }
    #[inline(always)]
    #[track_caller]
    fn read<C: Coord<R::Shape, R::Stride> + InDomain<R::Shape>>(&self, c: C) -> &R::Elem {
        (**self).read(c)
    }
    type View<'b>
        = R::View<'b>
    where
        Self: 'b;
    #[inline(always)]
    fn view(&self) -> Self::View<'_> {
        (**self).view()
    }
}

/// The largest C that [`gemm`] accumulates in a local array.
const FRAGMENT: usize = 64;

/// Rank 1 (a leaf or a 1-tuple shape), for [`gemm`]'s dispatch.
#[doc(hidden)]
pub struct R1;
/// Rank 2.
#[doc(hidden)]
pub struct R2;
/// Rank 3.
#[doc(hidden)]
pub struct R3;
/// Rank 4 or more (no `gemm` form).
#[doc(hidden)]
pub struct RMore;

/// A shape whose top-level modes are counted and sized: every shape (an
/// extent, or a tuple of shapes). The bound of [`gemm`]'s dispatch on the
/// operands' ranks, and of [`Tensor::partition_mut`](crate::Tensor::partition_mut)
/// and [`Block::shared_tile`](crate::Block::shared_tile).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::TopModes;
/// fn modes<S: TopModes>(_: S) {}
/// modes(shape!(4, (2, 3)));
/// modes(make_shape(5usize));
/// ```
pub trait TopModes: IntTuple {
    /// [`R1`], [`R2`], [`R3`] or [`RMore`].
    #[doc(hidden)]
    type Rank;
    /// The sizes of the first four top-level modes (1 past the rank).
    #[doc(hidden)]
    fn top_sizes(&self) -> [usize; 4];
}
impl<L: ShapeLeaf> TopModes for L {
    type Rank = R1;
    #[inline(always)]
    fn top_sizes(&self) -> [usize; 4] {
        [self.value(), 1, 1, 1]
    }
}
// `Rank` is `R1`..`R3` for ranks 1 to 3, `RMore` past them.
macro_rules! top_modes_tuple {
    ($($i:tt $T:ident $_s:ident $_d:ident),+) => {
        impl<$($T: IntTuple),+> TopModes for ($($T,)+) {
            type Rank = top_modes_tuple!(@rank $($i)+);
            #[inline(always)]
            fn top_sizes(&self) -> [usize; 4] {
                let mut s = [1usize; 4];
                $( if let Some(x) = s.get_mut($i) { *x = self.$i.size(); } )+
                s
            }
        }
    };
    (@rank 0) => { R1 };
    (@rank 0 1) => { R2 };
    (@rank 0 1 2) => { R3 };
    (@rank $($i:tt)+) => { RMore };
}
for_each_tuple!(top_modes_tuple);

#[cold]
#[inline(never)]
#[track_caller]
fn size_panic(what: &str, a: usize, b: usize) -> ! {
    panic!("{what}: sizes differ ({a} and {b})")
}

/// CuTe's `fill(dst, v)`: every element of `dst` becomes `v`.
///
/// ```
/// use cute_static::prelude::*;
/// let mut data = [0u8; 8];
/// fill(&mut make_tensor(&mut data[..], layout!((2,2):(1,4))), 7);
/// assert_eq!(data, [7, 7, 0, 0, 7, 7, 0, 0]);
/// ```
#[inline(always)]
pub fn fill<D: WriteTensor>(dst: &mut D, v: D::Elem)
where
    D::Elem: Clone,
{
    let mut dst = dst.view_mut();
    for i in 0..dst.layout().size() {
        *dst.write(i) = v.clone();
    }
}

/// CuTe's `clear(dst)`: every element of `dst` becomes its type's default
/// (zero for numbers).
///
/// ```
/// use cute_static::prelude::*;
/// let mut data = [5i32; 4];
/// clear(&mut make_tensor(&mut data[..], layout!(2:2)));
/// assert_eq!(data, [0, 5, 0, 5]);
/// ```
#[inline(always)]
pub fn clear<D: WriteTensor>(dst: &mut D)
where
    D::Elem: Clone + Default,
{
    fill(dst, D::Elem::default())
}

/// CuTe's `copy(src, dst)`: `dst(i) = src(i)` for every integral coordinate
/// `i`; the layouts may differ, the sizes may not.
///
/// # Panics
///
/// When the sizes differ.
///
/// ```
/// use cute_static::prelude::*;
/// let src: Vec<i32> = (0..6).collect();
/// let mut dst = [0i32; 6];
/// let s = make_tensor(&src[..], layout!((2,3):(3,1)));          // row-major
/// let mut d = make_tensor(&mut dst[..], layout!((2,3):(1,2)));  // column-major
/// copy(&s, &mut d);
/// assert_eq!(dst, [0, 3, 1, 4, 2, 5]);                          // the transpose
/// ```
#[inline(always)]
#[track_caller]
pub fn copy<S: ReadTensor, D: WriteTensor<Elem = S::Elem>>(src: &S, dst: &mut D)
where
    S::Elem: Clone,
{
    let n = src.layout().size();
    if n != dst.layout().size() {
        size_panic("copy", n, dst.layout().size())
    }
    let (src, mut dst) = (src.view(), dst.view_mut());
    for i in 0..n {
        *dst.write(i) = src.read(i).clone();
    }
}

/// CuTe's `copy_if(pred, src, dst)`: `dst(i) = src(i)` where `pred(i)` is
/// true; elements where it is false are neither read nor written.
///
/// # Panics
///
/// When the three sizes differ.
///
/// ```
/// use cute_static::prelude::*;
/// let src = [1, 2, 3, 4];
/// let mut dst = [0; 4];
/// let p = [true, false, false, true];
/// let l = layout!(4:1);
/// copy_if(&make_tensor(&p[..], l), &make_tensor(&src[..], l), &mut make_tensor(&mut dst[..], l));
/// assert_eq!(dst, [1, 0, 0, 4]);
/// ```
#[inline(always)]
#[track_caller]
pub fn copy_if<P: ReadTensor<Elem = bool>, S: ReadTensor, D: WriteTensor<Elem = S::Elem>>(
    pred: &P,
    src: &S,
    dst: &mut D,
) where
    S::Elem: Clone,
{
    let n = src.layout().size();
    if n != dst.layout().size() || n != pred.layout().size() {
        size_panic("copy_if", n, if n != dst.layout().size() { dst.layout().size() } else { pred.layout().size() })
    }
    let (pred, src, mut dst) = (pred.view(), src.view(), dst.view_mut());
    for i in 0..n {
        if *pred.read(i) {
            *dst.write(i) = src.read(i).clone();
        }
    }
}

/// CuTe's `axpby(alpha, x, beta, y)`: `y(i) = alpha·x(i) + beta·y(i)`.
///
/// # Panics
///
/// When the sizes differ.
///
/// ```
/// use cute_static::prelude::*;
/// let x = [1.0, 2.0, 3.0];
/// let mut y = [10.0, 20.0, 30.0];
/// let l = layout!(3:1);
/// axpby(2.0, &make_tensor(&x[..], l), 0.5, &mut make_tensor(&mut y[..], l));
/// assert_eq!(y, [7.0, 14.0, 21.0]);
/// ```
#[inline(always)]
#[track_caller]
pub fn axpby<T, X: ReadTensor<Elem = T>, Y: WriteTensor<Elem = T>>(alpha: T, x: &X, beta: T, y: &mut Y)
where
    T: Copy + Mul<Output = T> + Add<Output = T>,
{
    let n = x.layout().size();
    if n != y.layout().size() {
        size_panic("axpby", n, y.layout().size())
    }
    let (x, mut y) = (x.view(), y.view_mut());
    for i in 0..n {
        let v = alpha * *x.read(i) + beta * *y.read(i);
        *y.write(i) = v;
    }
}

/// CuTe's `gemm(A, B, C)`: `C += A·B`, dispatched on the ranks of the
/// operands as CuTe does (each mode may itself be hierarchical; its
/// integral coordinate is used):
///
/// * `(M) × (N) → (M,N)`: the outer product, `C(m,n) += A(m)·B(n)`;
/// * `(M,K) × (N,K) → (M,N)`: `C(m,n) += Σ_k A(m,k)·B(n,k)`;
/// * `(V,M,K) × (V,N,K) → (V,M,N)`: batched over `V`.
///
/// Other rank combinations do not compile.
///
/// # Panics
///
/// When the extents of the shared modes differ.
///
/// ```
/// use cute_static::prelude::*;
/// let a = [1.0f32, 2.0, 3.0, 4.0];        // (2,2) column-major: [[1,3],[2,4]]
/// let b = [1.0f32, 0.0, 0.0, 1.0];        // (N,K) = identity
/// let mut c = [0.0f32; 4];
/// let l = layout!((2,2):(1,2));
/// gemm(&make_tensor(&a[..], l), &make_tensor(&b[..], l), &mut make_tensor(&mut c[..], l));
/// assert_eq!(c, a);
/// ```
#[inline(always)]
#[track_caller]
pub fn gemm<A, B, C: Mma<A, B>>(a: &A, b: &B, c: &mut C) {
    c.mma(a, b)
}

/// `C += A·B` by [`gemm`]'s rank dispatch: what `gemm(&a, &b, &mut c)`
/// needs of its operands, under one name for the bounds of generic kernels
/// (`C: Mma<A, B>`). Implemented for every accumulator `C` and operands
/// `A`, `B` whose ranks [`gemm`] takes.
///
/// ```
/// use cute_static::prelude::*;
/// // A thread's multiply-accumulate, for any operand and accumulator types.
/// fn mac<A, B, C: Mma<A, B>>(a: &A, b: &B, c: &mut C) {
///     gemm(a, b, c)
/// }
/// let (a, b) = ([1.0f32, 2.0], [3.0f32, 4.0]);
/// let mut c = [0.0f32; 4];
/// let (ta, tb) = (make_tensor(&a[..], layout!(2:1)), make_tensor(&b[..], layout!(2:1)));
/// mac(&ta, &tb, &mut make_tensor(&mut c[..], layout!((2,2):(1,2))));
/// assert_eq!(c, [3.0, 6.0, 4.0, 8.0]);                    // the outer product
/// ```
#[diagnostic::on_unimplemented(
    message = "no gemm for these operands",
    note = "gemm takes (M)x(N)->(M,N), (M,K)x(N,K)->(M,N) or (V,M,K)x(V,N,K)->(V,M,N) tensors of one element type"
)]
pub trait Mma<A, B> {
    /// `self += a·b`, as [`gemm`]`(a, b, self)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let a = [1.0f32, 2.0, 3.0, 4.0];                        // A (M,K) = [[1,3],[2,4]]
    /// let b = [1.0f32, 1.0];                                  // B (N,K) = [[1,1]]
    /// let mut c = [10.0f32, 20.0];
    /// let (ta, tb) = (make_tensor(&a[..], layout!((2,2):(1,2))), make_tensor(&b[..], layout!((1,2):(1,1))));
    /// make_tensor(&mut c[..], layout!((2,1):(1,2))).mma(&ta, &tb);
    /// assert_eq!(c, [10.0 + 4.0, 20.0 + 6.0]);                // each row of A summed
    /// ```
    fn mma(&mut self, a: &A, b: &B);
}
impl<A: ReadTensor, B: ReadTensor, C> Mma<A, B> for C
where
    C: WriteTensor,
    C: GemmBy<A, B, (<A::Shape as TopModes>::Rank, <B::Shape as TopModes>::Rank, <C::Shape as TopModes>::Rank)>,
{
    #[inline(always)]
    #[track_caller]
    fn mma(&mut self, a: &A, b: &B) {
        self.gemm_by(a, b)
    }
}

/// [`gemm`] for the ranks `R` of `(A, B, C)`.
#[diagnostic::on_unimplemented(
    message = "no gemm for these ranks",
    note = "gemm takes (M)x(N)->(M,N), (M,K)x(N,K)->(M,N) or (V,M,K)x(V,N,K)->(V,M,N)"
)]
#[doc(hidden)]
pub trait GemmBy<A, B, R> {
    /// `self += a·b`.
    fn gemm_by(&mut self, a: &A, b: &B);
}

#[cold]
#[inline(never)]
#[track_caller]
fn gemm_panic() -> ! {
    panic!("gemm: the extents of the operands' shared modes differ")
}

impl<A, B, C, T> GemmBy<A, B, (R1, R1, R2)> for C
where
    A: ReadTensor<Elem = T>,
    B: ReadTensor<Elem = T>,
    C: WriteTensor<Elem = T>,
    (usize, usize): Coord<C::Shape, C::Stride> + InDomain<C::Shape>,
    T: Copy + Mul<Output = T> + Add<Output = T>,
{
    #[inline(always)]
    #[track_caller]
    fn gemm_by(&mut self, a: &A, b: &B) {
        let [m, n, ..] = self.layout().shape().top_sizes();
        if a.layout().size() != m || b.layout().size() != n {
            gemm_panic()
        }
        let (a, b, mut c) = (a.view(), b.view(), self.view_mut());
        for j in 0..n {
            for i in 0..m {
                let v = *c.read((i, j)) + *a.read(i) * *b.read(j);
                *c.write((i, j)) = v;
            }
        }
    }
}

impl<A, B, C, T> GemmBy<A, B, (R2, R2, R2)> for C
where
    A: ReadTensor<Elem = T>,
    B: ReadTensor<Elem = T>,
    C: WriteTensor<Elem = T>,
    (usize, usize): Coord<A::Shape, A::Stride> + InDomain<A::Shape>,
    (usize, usize): Coord<B::Shape, B::Stride> + InDomain<B::Shape>,
    (usize, usize): Coord<C::Shape, C::Stride> + InDomain<C::Shape>,
    T: Copy + Mul<Output = T> + Add<Output = T>,
{
    #[inline(always)]
    #[track_caller]
    fn gemm_by(&mut self, a: &A, b: &B) {
        let [m, n, ..] = self.layout().shape().top_sizes();
        let [am, k, ..] = a.layout().shape().top_sizes();
        let [bn, bk, ..] = b.layout().shape().top_sizes();
        if am != m || bn != n || bk != k {
            gemm_panic()
        }
        let (a, b, mut c) = (a.view(), b.view(), self.view_mut());
        // A small C (a register fragment: at most 64 elements) is
        // accumulated in a local array and written back once: the compiler
        // then knows that the stores to C do not change A or B (which it
        // cannot tell of two views into memory) and keeps C in registers.
        // The sums are the same, in the same order.
        if m * n <= FRAGMENT {
            let mut acc = [*c.read((0usize, 0usize)); FRAGMENT];
            // Column by column (no index to check: the chunks are the columns).
            for (j, col) in acc.chunks_exact_mut(m).take(n).enumerate() {
                for (i, x) in col.iter_mut().enumerate() {
                    *x = *c.read((i, j));
                }
            }
            for kk in 0..k {
                for (j, col) in acc.chunks_exact_mut(m).take(n).enumerate() {
                    let bj = *b.read((j, kk));
                    for (i, x) in col.iter_mut().enumerate() {
                        *x = *x + *a.read((i, kk)) * bj;
                    }
                }
            }
            for (j, col) in acc.chunks_exact(m).take(n).enumerate() {
                for (i, x) in col.iter().enumerate() {
                    *c.write((i, j)) = *x;
                }
            }
            return;
        }
        for kk in 0..k {
            for j in 0..n {
                for i in 0..m {
                    let v = *c.read((i, j)) + *a.read((i, kk)) * *b.read((j, kk));
                    *c.write((i, j)) = v;
                }
            }
        }
    }
}

impl<A, B, C, T> GemmBy<A, B, (R3, R3, R3)> for C
where
    A: ReadTensor<Elem = T>,
    B: ReadTensor<Elem = T>,
    C: WriteTensor<Elem = T>,
    (usize, usize, usize): Coord<A::Shape, A::Stride> + InDomain<A::Shape>,
    (usize, usize, usize): Coord<B::Shape, B::Stride> + InDomain<B::Shape>,
    (usize, usize, usize): Coord<C::Shape, C::Stride> + InDomain<C::Shape>,
    T: Copy + Mul<Output = T> + Add<Output = T>,
{
    #[inline(always)]
    #[track_caller]
    fn gemm_by(&mut self, a: &A, b: &B) {
        let [v, m, n, _] = self.layout().shape().top_sizes();
        let [av, am, k, _] = a.layout().shape().top_sizes();
        let [bv, bn, bk, _] = b.layout().shape().top_sizes();
        if av != v || bv != v || am != m || bn != n || bk != k {
            gemm_panic()
        }
        let (a, b, mut c) = (a.view(), b.view(), self.view_mut());
        for kk in 0..k {
            for j in 0..n {
                for i in 0..m {
                    for x in 0..v {
                        let val = *c.read((x, i, j)) + *a.read((x, i, kk)) * *b.read((x, j, kk));
                        *c.write((x, i, j)) = val;
                    }
                }
            }
        }
    }
}

// A tensor over a swizzled layout reads and writes by the coordinates of
// its inner layout (the swizzle moves only the storage indices).
impl<E: DataEngine, A: crate::swizzle::OffsetFn, O: crate::Leaf, S: Congruent<D> + TopModes, D: IntTuple> ReadTensor
    for Tensor<E, crate::ComposedLayout<A, O, Layout<S, D>>>
{
    type Elem = E::Elem;
    type Shape = S;
    type Stride = D;
    #[inline(always)]
    fn layout(&self) -> Layout<S, D> {
        Tensor::<E, crate::ComposedLayout<A, O, Layout<S, D>>>::layout(self).inner()
    }
    #[inline(always)]
    #[track_caller]
    fn read<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> &E::Elem {
        self.at(c)
    }
    type View<'a>
        = Tensor<&'a [E::Elem], crate::ComposedLayout<A, O, Layout<S, D>>>
    where
        Self: 'a;
    #[inline(always)]
    fn view(&self) -> Self::View<'_> {
        Tensor::view(self)
    }
}

impl<E: DataEngineMut, A: crate::swizzle::OffsetFn, O: crate::Leaf, S: Congruent<D> + TopModes, D: IntTuple> WriteTensor
    for Tensor<E, crate::ComposedLayout<A, O, Layout<S, D>>>
{
    #[inline(always)]
    #[track_caller]
    fn write<C: Coord<S, D> + InDomain<S>>(&mut self, c: C) -> &mut E::Elem {
        self.at_mut(c)
    }
    type ViewMut<'a>
        = Tensor<&'a mut [E::Elem], crate::ComposedLayout<A, O, Layout<S, D>>>
    where
        Self: 'a;
    #[inline(always)]
    fn view_mut(&mut self) -> Self::ViewMut<'_> {
        Tensor::view_mut(self)
    }
}
