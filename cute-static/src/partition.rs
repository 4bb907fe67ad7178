//! Tiling and partitioning tensors: `local_tile`, `inner_partition`,
//! `outer_partition`, `local_partition` (CuTe's `tensor_impl.hpp`), with
//! projections (CuTe's `Step<_1, X, _1>`), the divides and composition of
//! a tensor, and [`partition_mut`](Tensor::partition_mut), which splits a
//! mutable tensor into per-thread views that may be used at the same time.
//!
//! The twin of cute-dynamic's `partition.rs`, with the same names and
//! semantics; here the result's structure is a type (a mixed `(M,N)`
//! tensor tiled by a static `(128,64)` has the static tile shape
//! `(_128,_64)` and run-time strides). The traits that find those types
//! (the flat or general divide of a partition, projections, thread
//! layouts) are in `partition/traits.rs`.

pub(crate) mod traits;

use self::traits::{Dice, Fits, Inner, Outer, Partition, ThreadLayout, TilerFits};
use crate::algorithm::TopModes;
use crate::composition::{Compose, ComposeValue};
use crate::coord::Coord;
use crate::coord_layout::{
    ComposeOp, CoordLayout, CoordOp, FlatDivideOp, LogicalDivideOp, TiledDivideOp, ZippedDivideOp,
};
use crate::coord_layout::{Coords, IdentityStride};
use crate::divide::{LogicalDivide, ZippedDivide};
use crate::int_tuple::IntTuple;
use crate::layout::{Congruent, Layout};
use crate::names::{LogicalDivideValue, ZippedDivideValue};
use crate::run_time::{FlatValues, MAX_MODES};
use crate::slice::InDomain;
use crate::slice::Slice;
use crate::tensor::{Engine, OffsetRange, Tensor, TensorLayout, domain_panic, storage_panic};
use core::marker::PhantomData;
use core::ops::{Index, IndexMut};
use std::vec::Vec;

pub use self::traits::X;

#[inline(always)]
#[track_caller]
fn partition<E: Engine, L, T, C, W>(t: Tensor<E, L>, what: &'static str, tiler: T, coord: C) -> Tensor<E, L::Output>
where
    L: Partition<T, C, W> + Copy,
{
    let (engine, offset, layout) = t.into_parts();
    let Some((sub, off, exact)) = layout.part(tiler, coord) else { domain_panic() };
    let offset = offset.wrapping_add(off);
    // The part of an exact divide names elements of the tensor's domain
    // only, which the tensor invariant puts in the storage: no check (so a
    // thread's part of a static tile costs its offset and nothing more).
    if !exact && let Err(e) = sub.fits(what, offset, engine.len()) {
        storage_panic(e)
    }
    Tensor::from_parts_checked(engine, offset, sub)
}

/// CuTe's `inner_partition(t, tiler, coord)`: `zipped_divide(t, tiler)`,
/// then the tile at `coord` of the rest mode; everything inside one tile.
///
/// `coord` has one entry per mode of the rest mode (`usize`, or `_` to keep
/// that mode: `(bx, _)` keeps all the tiles along mode 1). The result's
/// modes are the tile's modes followed by the free rest modes.
///
/// Post-condition: with `Z = zipped_divide(t, tiler)`, `result(i.., j..)`
/// is `Z((i..), (coord, j..))` for every coordinate.
///
/// # Panics
///
/// When `coord` is outside the rest mode, when the tile reaches past the
/// storage (a ragged edge: tile a [`Tensor::predicated`] view instead, or
/// use [`try_local_tile`]), or when a run-time divide condition fails.
///
/// ```
/// use cute_static::prelude::*;
/// let data: Vec<i32> = (0..64).collect();
/// let t = make_tensor(&data[..], layout!((8,8):(1,8)));
/// let tile = inner_partition(t, shape!(4, 2), (1usize, 3usize));
/// assert_eq!(tile.layout().to_string(), "(_4,_2):(_1,_8)");
/// assert_eq!(tile[(0usize, 0usize)], 4 + 6 * 8);
/// ```
#[inline(always)]
#[track_caller]
pub fn inner_partition<E: Engine, L: Partition<T, C, Inner> + Copy, T: TilerFits<L>, C>(
    t: Tensor<E, L>,
    tiler: T,
    coord: C,
) -> Tensor<E, L::Output> {
    partition(t, "inner_partition", tiler, coord)
}

/// CuTe's `outer_partition(t, tiler, coord)`: `zipped_divide(t, tiler)`,
/// then the element at `coord` of the tile mode in every tile; one element
/// per tile.
///
/// Post-condition: with `Z = zipped_divide(t, tiler)`, `result(j..)` is
/// `Z((coord..), (j..))`.
///
/// # Panics
///
/// As [`inner_partition`].
///
/// ```
/// use cute_static::prelude::*;
/// let data: Vec<i32> = (0..64).collect();
/// let t = make_tensor(&data[..], layout!((8,8):(1,8)));
/// let p = outer_partition(t, shape!(2, 4), (1usize, 3usize));
/// assert_eq!(p.layout().to_string(), "(_4,_2):(_2,_32)");
/// assert_eq!(p[(0usize, 0usize)], 1 + 3 * 8);
/// ```
#[inline(always)]
#[track_caller]
pub fn outer_partition<E: Engine, L: Partition<T, C, Outer> + Copy, T: TilerFits<L>, C>(
    t: Tensor<E, L>,
    tiler: T,
    coord: C,
) -> Tensor<E, L::Output> {
    partition(t, "outer_partition", tiler, coord)
}

/// CuTe's `local_tile(t, tiler, coord)`: the tile of `t` at `coord`
/// ([`inner_partition`]); what a thread block takes of a matrix.
///
/// A tensor of run-time shape `(M,N)` tiled by the static `(128,64)` at
/// `(bx,by)` is the `128×64` block whose first element is `(128·bx,
/// 64·by)`, with the static shape `(_128,_64)` and the run-time strides.
///
/// ```
/// use cute_static::prelude::*;
/// let (m, n) = (1024usize, 512usize);
/// let data = vec![0f32; m * n];
/// let a = make_tensor(&data[..], layout!(({m},{n}):(1,{m})));
/// let blk = local_tile(a, shape!(128, 64), (2usize, 3usize));
/// assert_eq!(blk.layout().to_string(), "(_128,_64):(_1,1024)");
/// assert_eq!(blk.offset(), 256 + 192 * 1024);
/// ```
#[inline(always)]
#[track_caller]
pub fn local_tile<E: Engine, L: Partition<T, C, Inner> + Copy, T: TilerFits<L>, C>(
    t: Tensor<E, L>,
    tiler: T,
    coord: C,
) -> Tensor<E, L::Output> {
    partition(t, "local_tile", tiler, coord)
}

/// [`local_tile`] that returns the failed condition as an error: a
/// coordinate outside the tiled rest mode (`OutOfBounds`), or a tile that
/// reaches past the storage (`OutOfStorage`: a tile at a ragged edge; see
/// [`Tensor::predicated`] for tiles that may overhang).
///
/// ```
/// use cute_static::prelude::*;
/// let (m, n) = (1000usize, 333usize);
/// let data = vec![0f32; m * n];
/// let a = make_tensor(&data[..], layout!(({m},{n}):(1,{m})));
/// assert!(try_local_tile(a, shape!(128, 8), (0usize, 0usize)).is_ok());     // interior
/// let e = try_local_tile(a, shape!(128, 8), (7usize, 41usize)).unwrap_err(); // rows 896..1024, columns 328..336
/// assert_eq!(
///     e.to_string(),
///     "local_tile reaches storage indices 328896..=336023, outside a storage of 333000 elements"
/// );
/// assert!(try_local_tile(a, shape!(128, 8), (8usize, 0usize)).is_err());     // no ninth row of tiles
/// ```
#[inline(always)]
pub fn try_local_tile<E: Engine, L: Partition<T, C, Inner> + Copy, T: TilerFits<L>, C: core::fmt::Debug + Copy>(
    t: Tensor<E, L>,
    tiler: T,
    coord: C,
) -> Result<Tensor<E, L::Output>, cute_dynamic::LayoutError> {
    try_partition(t, "local_tile", tiler, coord, || std::format!("{coord:?}"))
}

/// [`inner_partition`] that returns the failed condition as an error (as
/// [`try_local_tile`]).
///
/// ```
/// use cute_static::prelude::*;
/// let data: Vec<i32> = (0..60).collect();
/// let t = make_tensor(&data[..], layout!(({6usize},{10usize}):(1,{6usize})));
/// assert_eq!(try_inner_partition(t, shape!(2, 4), (1usize, 1usize)).unwrap()[(0usize, 0usize)], 2 + 4 * 6);
/// assert!(try_inner_partition(t, shape!(2, 4), (1usize, 2usize)).is_err());   // columns 8..12 of 10
/// assert!(try_inner_partition(t, shape!(2, 4), (3usize, 0usize)).is_err());   // no fourth row of tiles
/// ```
#[inline(always)]
pub fn try_inner_partition<E: Engine, L: Partition<T, C, Inner> + Copy, T: TilerFits<L>, C: core::fmt::Debug + Copy>(
    t: Tensor<E, L>,
    tiler: T,
    coord: C,
) -> Result<Tensor<E, L::Output>, cute_dynamic::LayoutError> {
    try_partition(t, "inner_partition", tiler, coord, || std::format!("{coord:?}"))
}

/// [`outer_partition`] that returns the failed condition as an error (as
/// [`try_local_tile`]).
///
/// ```
/// use cute_static::prelude::*;
/// let data: Vec<i32> = (0..60).collect();
/// let t = make_tensor(&data[..], layout!(({6usize},{10usize}):(1,{6usize})));
/// assert!(try_outer_partition(t, shape!(2, 4), (1usize, 0usize)).is_ok());    // columns 0, 4, 8
/// assert!(try_outer_partition(t, shape!(2, 4), (1usize, 3usize)).is_err());   // columns 3, 7, 11: past 10
/// let u = make_tensor(&data[..], layout!(({6usize},{8usize}):(1,{6usize})));
/// assert_eq!(try_outer_partition(u, shape!(2, 4), (1usize, 2usize)).unwrap()[(0usize, 1usize)], 1 + 2 * 6 + 4 * 6);
/// ```
#[inline(always)]
pub fn try_outer_partition<E: Engine, L: Partition<T, C, Outer> + Copy, T: TilerFits<L>, C: core::fmt::Debug + Copy>(
    t: Tensor<E, L>,
    tiler: T,
    coord: C,
) -> Result<Tensor<E, L::Output>, cute_dynamic::LayoutError> {
    try_partition(t, "outer_partition", tiler, coord, || std::format!("{coord:?}"))
}

/// [`local_partition`] that returns the failed condition as an error: a
/// thread index not below `size(thr)` (`OutOfBounds`), or a part that
/// reaches past the storage (`OutOfStorage`).
///
/// ```
/// use cute_static::prelude::*;
/// let data: Vec<i32> = (0..60).collect();
/// let t = make_tensor(&data[..], layout!(({6usize},{10usize}):(1,{6usize})));
/// let thr = layout!((2, 4):(1, 2));
/// assert!(try_local_partition(t, thr, 8).is_err());                               // 8 threads: 0..8
/// assert!(try_local_partition(t, thr, 7).is_err());                               // thread (1,3): column 11 of 10
/// assert_eq!(try_local_partition(t, thr, 1).unwrap()[(0usize, 0usize)], 1);
/// ```
#[inline(always)]
pub fn try_local_partition<E: Engine, L, Thr: ThreadLayout>(
    t: Tensor<E, L>,
    thr: Thr,
    idx: usize,
) -> Result<Tensor<E, Part<L, Thr>>, cute_dynamic::LayoutError>
where
    L: Partition<Thr::Tiler, Thr::Coord, Outer> + Copy,
{
    if idx >= thr.threads() {
        return Err(cute_dynamic::LayoutError::OutOfBounds {
            coord: std::format!("thread {idx}"),
            shape: std::format!("a thread layout of {} threads", thr.threads()),
        });
    }
    try_partition(t, "local_partition", Thr::Tiler::default(), thr.coord(idx), || std::format!("thread {idx}"))
}

/// The part at `coord` as [`partition`] makes it, its failures as errors.
#[inline(always)]
fn try_partition<E: Engine, L: Partition<T, C, W> + Copy, T, C, W>(
    t: Tensor<E, L>,
    what: &'static str,
    tiler: T,
    coord: C,
    coord_text: impl FnOnce() -> std::string::String,
) -> Result<Tensor<E, L::Output>, cute_dynamic::LayoutError> {
    let (engine, offset, layout) = t.into_parts();
    let Some((sub, off, exact)) = layout.part(tiler, coord) else {
        return Err(cute_dynamic::LayoutError::OutOfBounds {
            coord: coord_text(),
            shape: std::format!("the tiled mode of {what}"),
        });
    };
    let offset = offset.wrapping_add(off);
    if !exact {
        sub.fits(what, offset, engine.len())?;
    }
    Ok(Tensor::from_parts_checked(engine, offset, sub))
}

// ------------------------------------------------------------ projections

/// [`local_tile`] with a projection (CuTe's `local_tile(t, tiler, coord,
/// Step<_1,X,_1>{})`): the modes of `tiler` and `coord` where `proj` has
/// [`X`] are left out first (CuTe's `dice`), so one tiler and one block
/// coordinate serve the A, B and C operands of a GEMM.
///
/// ```
/// use cute_static::prelude::*;
/// let (m, k) = (256usize, 64usize);
/// let a = vec![0f32; m * k];
/// let ma = make_tensor(&a[..], layout!(({m},{k}):(1,{m})));          // (M,K)
/// let cta_tiler = shape!(32, 64, 4);                                   // (BLK_M,BLK_N,BLK_K)
/// let ga = local_tile_proj(ma, cta_tiler, crd!(1usize, 0usize, _), (Int::<1>::new(), X, Int::<1>::new()));
/// assert_eq!(ga.layout().to_string(), "(_32,_4,16):(_1,256,1024)");   // (BLK_M,BLK_K,k)
/// ```
#[inline(always)]
#[track_caller]
pub fn local_tile_proj<E: Engine, L, T: Dice<P>, C: Dice<P>, P>(
    t: Tensor<E, L>,
    tiler: T,
    coord: C,
    proj: P,
) -> Tensor<E, <L as Partition<T::Output, C::Output, Inner>>::Output>
where
    L: Partition<T::Output, C::Output, Inner> + Copy,
{
    let _ = proj;
    partition(t, "local_tile", tiler.dice(), coord.dice())
}

// -------------------------------------------------------- thread layouts

/// CuTe's `local_partition(t, thr, idx)`: the part of `t` that thread `idx`
/// of the (static) thread layout `thr` owns when `thr`'s shape is repeated
/// over `t` ([`outer_partition`] by the per-mode sizes of `thr`, at the
/// flat coordinate of `idx` in `thr`).
///
/// Post-conditions: as [`outer_partition`]; the parts of the threads
/// `0..size(thr)` of a bijective `thr` are disjoint and cover the tiled
/// domain. When every extent of `thr` divides its mode of `t` (for a tensor
/// of leaf modes; a constant for static modes), the part names elements of
/// `t` only and is made without a storage check: a thread's part of a
/// static tile costs its offset (as for every partition and tile by
/// static integers).
///
/// # Panics
///
/// When `idx` is not below `size(thr)`, and as [`outer_partition`].
///
/// ```
/// use cute_static::prelude::*;
/// let data: Vec<i32> = (0..16 * 64).collect();
/// let t = make_tensor(&data[..], layout!((16,64):(1,16)));
/// let thr = layout!((2,16):(16,1));          // 32 threads, row-major
/// let p = local_partition(t, thr, 17);
/// assert_eq!(p.layout().to_string(), "(_8,_4):(_2,_256)");
/// assert_eq!(p[(0usize, 0usize)], 1 + 1 * 16);
/// ```
#[inline(always)]
#[track_caller]
pub fn local_partition<E: Engine, L, Thr: ThreadLayout>(
    t: Tensor<E, L>,
    thr: Thr,
    idx: usize,
) -> Tensor<E, <L as Partition<Thr::Tiler, Thr::Coord, Outer>>::Output>
where
    L: Partition<Thr::Tiler, Thr::Coord, Outer> + Copy,
{
    if idx >= thr.threads() {
        domain_panic()
    }
    partition(t, "local_partition", Thr::Tiler::default(), thr.coord(idx))
}

/// [`local_partition`] with a projection of the thread layout's modes
/// (CuTe's `local_partition(t, thr, idx, Step<_1,X>{})`): the coordinate
/// of `idx` is taken in the whole `thr`, then the modes where `proj` has
/// [`X`] are left out of it and of the tiler.
///
/// ```
/// use cute_static::prelude::*;
/// let a = vec![0f32; 64 * 8];
/// let ta = make_tensor(&a[..], layout!((64,8):(1,64)));           // (M,K)
/// let thr = layout!((2,16):(1,2));                                 // (THR_M,THR_N)
/// let pa = local_partition_proj(ta, thr, 17, (Int::<1>::new(), X));
/// assert_eq!(pa.layout().to_string(), "(_32,_8):(_2,_64)");        // (M/2,K)
/// assert_eq!(pa.offset(), 1);
/// ```
#[allow(clippy::type_complexity)]
#[inline(always)]
#[track_caller]
pub fn local_partition_proj<E: Engine, L, Thr: ThreadLayout, P>(
    t: Tensor<E, L>,
    thr: Thr,
    idx: usize,
    proj: P,
) -> Tensor<E, <L as Partition<<Thr::Tiler as Dice<P>>::Output, <Thr::Coord as Dice<P>>::Output, Outer>>::Output>
where
    Thr::Tiler: Dice<P>,
    Thr::Coord: Dice<P>,
    L: Partition<<Thr::Tiler as Dice<P>>::Output, <Thr::Coord as Dice<P>>::Output, Outer> + Copy,
{
    let _ = proj;
    if idx >= thr.threads() {
        domain_panic()
    }
    partition(t, "local_partition", Thr::Tiler::default().dice(), thr.coord(idx).dice())
}

// ------------------------------------------- bounds of generic kernels

/// A tensor layout that the thread layout `Thr` partitions: what
/// [`local_partition`] needs of the layout `L` of its tensor, under one
/// name for the bounds of a kernel generic over its layouts. Implemented
/// for every layout that can be partitioned so; the part's layout is
/// [`Part<L, Thr>`](Part).
///
/// ```
/// use cute_static::prelude::*;
/// // One thread's step of a cooperative copy, for any source and
/// // destination layouts the thread layout partitions.
/// fn copy_part<'a, 'b, LS, LD, Thr>(src: Tensor<&'a [f32], LS>, dst: Tensor<&'b mut [f32], LD>, thr: Thr, tid: usize)
/// where
///     Thr: ThreadLayout,
///     LS: PartitionBy<Thr>,
///     LD: PartitionBy<Thr>,
///     Tensor<&'a [f32], Part<LS, Thr>>: ReadTensor<Elem = f32>,
///     Tensor<&'b mut [f32], Part<LD, Thr>>: WriteTensor<Elem = f32>,
/// {
///     copy(&local_partition(src, thr, tid), &mut local_partition(dst, thr, tid));
/// }
/// let a: Vec<f32> = (0..64).map(|x| x as f32).collect();
/// let mut s = [0f32; 64];
/// for tid in 0..8 {
///     copy_part(
///         make_tensor(&a[..], layout!((8, 8):(1, 8))),
///         make_tensor(&mut s[..], layout!((8, 8):(8, 1))),
///         layout!((4, 2):(1, 4)),
///         tid,
///     );
/// }
/// assert_eq!(s[1], 8.0);                          // transposed: (0,1) of A at 8
/// ```
pub trait PartitionBy<Thr: ThreadLayout>: Partition<Thr::Tiler, Thr::Coord, Outer> + Copy {}
impl<L, Thr: ThreadLayout> PartitionBy<Thr> for L where L: Partition<Thr::Tiler, Thr::Coord, Outer> + Copy {}

/// The layout of a thread's part: [`local_partition`] of a tensor with the
/// layout `L` by the thread layout `Thr` is a tensor with the layout
/// `Part<L, Thr>` (name it in the types of generic kernels).
///
/// ```
/// use cute_static::prelude::*;
/// type Tile = Layout![(128, 8):(1, 128)];
/// type Copy32x8 = Layout![(32, 8):(1, 32)];
/// let data = [0f32; 1024];
/// let p: Tensor<&[f32], Part<Tile, Copy32x8>> =
///     local_partition(make_tensor(&data[..], Tile::default()), Copy32x8::default(), 33);
/// assert_eq!(p.layout().to_string(), "(_4,_1):(_32,_1024)");
/// ```
pub type Part<L, Thr> = <L as Partition<<Thr as ThreadLayout>::Tiler, <Thr as ThreadLayout>::Coord, Outer>>::Output;

// ------------------------------------------------- divides of a tensor

impl<E: Engine, S: Congruent<D>, D: IntTuple> Tensor<E, Layout<S, D>> {
    /// The tensor viewed through `composition(L, tiler)`: `result[c] ==
    /// self[tiler(c)]` (the data does not move).
    ///
    /// # Panics
    ///
    /// When the view reaches past the storage, or a run-time composition
    /// condition fails.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<u8> = (0..32).collect();
    /// let t = make_tensor(&data[..], layout!((4,8):(8,1)));
    /// let c = t.compose(layout!((2,4):(1,2)));
    /// assert_eq!(c.layout().to_string(), "(_2,(_2,_2)):(_8,(_16,_1))");
    /// assert_eq!(c[(1usize, 1usize)], 24);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn compose<T>(self, tiler: T) -> Tensor<E, <Layout<S, D> as Compose<T>>::Output>
    where
        Layout<S, D>: Compose<T>,
        <Layout<S, D> as Compose<T>>::Output: ComposeValue<Layout<S, D>, T> + TensorLayout,
    {
        let (engine, offset, layout) = self.into_parts();
        let l = crate::composition(layout, tiler);
        check(l, "compose", offset, engine.len());
        Tensor::from_parts_checked(engine, offset, l)
    }

    /// The tensor viewed through [`logical_divide`](crate::logical_divide)
    /// of its layout.
    ///
    /// # Panics
    ///
    /// As [`Tensor::compose`].
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = [0u8; 24];
    /// let t = make_tensor(&data[..], layout!(24:1));
    /// assert_eq!(t.logical_divide(layout!(4:2)).layout().to_string(), "(_4,(_2,_3)):(_2,(_1,_8))");
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn logical_divide<T>(self, tiler: T) -> Tensor<E, <Layout<S, D> as LogicalDivide<T>>::Output>
    where
        Layout<S, D>: LogicalDivide<T>,
        <Layout<S, D> as LogicalDivide<T>>::Output: LogicalDivideValue<Layout<S, D>, T> + TensorLayout,
    {
        let (engine, offset, layout) = self.into_parts();
        let l = <<Layout<S, D> as LogicalDivide<T>>::Output as LogicalDivideValue<_, _>>::make(layout, tiler);
        check(l, "logical_divide", offset, engine.len());
        Tensor::from_parts_checked(engine, offset, l)
    }

    /// The tensor viewed through [`zipped_divide`](crate::zipped_divide) of
    /// its layout: `((tile modes), (rest modes))`.
    ///
    /// # Panics
    ///
    /// As [`Tensor::compose`].
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let (m, n) = (1024usize, 512usize);
    /// let data = vec![0f32; m * n];
    /// let t = make_tensor(&data[..], layout!(({m},{n}):(1,{m})));
    /// let z = t.zipped_divide(shape!(128, 64));
    /// assert_eq!(z.layout().to_string(), "((_128,_64),(8,8)):((_1,1024),(_128,65536))");
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn zipped_divide<T>(self, tiler: T) -> Tensor<E, <Layout<S, D> as ZippedDivide<T>>::Output>
    where
        Layout<S, D>: ZippedDivide<T>,
        <Layout<S, D> as ZippedDivide<T>>::Output: ZippedDivideValue<Layout<S, D>, T> + TensorLayout,
    {
        let (engine, offset, layout) = self.into_parts();
        let l = <<Layout<S, D> as ZippedDivide<T>>::Output as ZippedDivideValue<_, _>>::make(layout, tiler);
        check(l, "zipped_divide", offset, engine.len());
        Tensor::from_parts_checked(engine, offset, l)
    }
}

// ---------------------------------------- divides of an identity tensor

/// The divides and composition of identity tensors (CuTe's
/// `zipped_divide(make_identity_tensor(shape), tiler)`, ...): each
/// component of the [`CoordLayout`] through the integer operation, the
/// view's origin kept. The components' results must have one shape (a
/// compile error otherwise; see `coord_layout.rs`).
impl<I: IdentityStride, C, O> Tensor<Coords<I>, CoordLayout<C, O>> {
    /// The identity view through `composition(L, tiler)`: `result.at(c) ==
    /// self.at(tiler(c))`.
    ///
    /// # Panics
    ///
    /// When a run-time composition condition fails.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_tensor(shape!(4, 3));
    /// let c = id.compose(layout!((2,6):(1,2)));
    /// assert_eq!(c.layout().to_string(), "(_2,(_2,_3)):(_1@0,(_2@0,_1@1))");
    /// assert_eq!(c.at((1usize, 4usize)), (1, 2));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn compose<T>(self, tiler: T) -> Tensor<Coords<I>, <CoordLayout<C, O> as CoordOp<ComposeOp, T>>::Output>
    where
        CoordLayout<C, O>: CoordOp<ComposeOp, T>,
    {
        let (engine, _, layout) = self.into_parts();
        Tensor::from_parts_checked(engine, 0, layout.coord_op(tiler))
    }

    /// The identity view through [`logical_divide`](crate::logical_divide)
    /// of its layout. Panics as [`compose`](Self::compose).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_tensor(shape!(4, 3));
    /// assert_eq!(id.logical_divide(layout!(2:2)).layout().to_string(), "(_2,(_2,_3)):(_2@0,(_1@0,_1@1))");
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn logical_divide<T>(
        self,
        tiler: T,
    ) -> Tensor<Coords<I>, <CoordLayout<C, O> as CoordOp<LogicalDivideOp, T>>::Output>
    where
        CoordLayout<C, O>: CoordOp<LogicalDivideOp, T>,
    {
        let (engine, _, layout) = self.into_parts();
        Tensor::from_parts_checked(engine, 0, layout.coord_op(tiler))
    }

    /// The identity view through [`zipped_divide`](crate::zipped_divide)
    /// of its layout: `((tile modes), (rest modes))`. Panics as
    /// [`compose`](Self::compose).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_tensor(make_shape((96usize, 64usize)));
    /// let z = id.zipped_divide(shape!(16, 8));
    /// assert_eq!(z.layout().to_string(), "((_16,_8),(6,8)):((_1@0,_1@1),(_16@0,_8@1))");
    /// assert_eq!(z.at((5usize, (1usize, 2usize))), (21, 16));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn zipped_divide<T>(
        self,
        tiler: T,
    ) -> Tensor<Coords<I>, <CoordLayout<C, O> as CoordOp<ZippedDivideOp, T>>::Output>
    where
        CoordLayout<C, O>: CoordOp<ZippedDivideOp, T>,
    {
        let (engine, _, layout) = self.into_parts();
        Tensor::from_parts_checked(engine, 0, layout.coord_op(tiler))
    }

    /// The identity view through [`tiled_divide`](crate::tiled_divide) of
    /// its layout: `((tile modes), rest modes...)`. Panics as
    /// [`compose`](Self::compose).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_tensor(shape!(8, 6));
    /// assert_eq!(id.tiled_divide(shape!(2, 3)).layout().to_string(), "((_2,_3),_4,_2):((_1@0,_1@1),_2@0,_3@1)");
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn tiled_divide<T>(
        self,
        tiler: T,
    ) -> Tensor<Coords<I>, <CoordLayout<C, O> as CoordOp<TiledDivideOp, T>>::Output>
    where
        CoordLayout<C, O>: CoordOp<TiledDivideOp, T>,
    {
        let (engine, _, layout) = self.into_parts();
        Tensor::from_parts_checked(engine, 0, layout.coord_op(tiler))
    }

    /// The identity view through [`flat_divide`](crate::flat_divide) of
    /// its layout: the tile modes, then the rest modes. Panics as
    /// [`compose`](Self::compose).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_tensor(shape!(8, 6));
    /// assert_eq!(id.flat_divide(shape!(2, 3)).layout().to_string(), "(_2,_3,_4,_2):(_1@0,_1@1,_2@0,_3@1)");
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn flat_divide<T>(self, tiler: T) -> Tensor<Coords<I>, <CoordLayout<C, O> as CoordOp<FlatDivideOp, T>>::Output>
    where
        CoordLayout<C, O>: CoordOp<FlatDivideOp, T>,
    {
        let (engine, _, layout) = self.into_parts();
        Tensor::from_parts_checked(engine, 0, layout.coord_op(tiler))
    }
}

#[inline(always)]
#[track_caller]
fn check<L: TensorLayout>(l: L, what: &'static str, offset: usize, len: usize) {
    if let Err(e) = l.fits_storage(what, offset, len) {
        storage_panic(e)
    }
}

// ------------------------------------------------------- partition_mut

/// One thread's part of a mutable tensor, made by
/// [`Tensor::partition_mut`]: it reads and writes only elements that no
/// other part reaches, so the parts may be sent to threads and used at the
/// same time.
///
/// Its layout can be sliced (a slice reaches a subset of the part's
/// elements) but not otherwise changed: a composition or divide could
/// reach elements of other parts.
///
/// ```
/// use cute_static::prelude::*;
/// let mut data = vec![0i32; 16];
/// let t = make_tensor(&mut data[..], layout!((4,4):(1,4)));
/// // 4 threads: thread k = (k % 2, k / 2) gets rows ≡ k % 2 and columns ≡ k / 2 (mod 2).
/// let mut parts = t.partition_mut(layout!((2,2):(1,2))).unwrap();
/// let (mut p3, mut p0) = (parts.pop().unwrap(), parts.remove(0));
/// assert_eq!((p3.offset(), p3.layout().to_string()), (5, "(_2,_2):(_2,_8)".to_string()));
/// std::thread::scope(|s| {
///     s.spawn(move || p3[(1usize, 1usize)] = 3);  // storage index 5 + 2 + 8
///     s.spawn(move || p0[(1usize, 1usize)] = 10); // 0 + 2 + 8
/// });
/// assert_eq!((data[15], data[10]), (3, 10));
/// ```
pub struct ThreadTensor<'a, T, L> {
    /// The storage the parts share, valid for `'a`.
    ptr: *mut T,
    offset: usize,
    layout: L,
    _data: PhantomData<&'a mut [T]>,
}

// SAFETY: a `ThreadTensor` is a `&mut` to a set of elements that no other
// value reaches (see `partition_mut`), so sending it sends exclusive access,
// as sending a `&mut [T]` does; sharing it shares only `&T`.
unsafe impl<T: Send, L: Send> Send for ThreadTensor<'_, T, L> {}
// SAFETY: as above; `&ThreadTensor` gives only `&T`.
unsafe impl<T: Sync, L: Sync> Sync for ThreadTensor<'_, T, L> {}

impl<T, L: core::fmt::Display> core::fmt::Debug for ThreadTensor<'_, T, L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ThreadTensor({} o {})", self.offset, self.layout)
    }
}

impl<'a, T, S: Congruent<D>, D: IntTuple> ThreadTensor<'a, T, Layout<S, D>> {
    /// The layout of this part.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], layout!((8,8):(1,8)));
    /// let parts = t.partition_mut(layout!((4,2):(1,4))).unwrap(); // 8 threads
    /// assert_eq!(parts[5].layout().to_string(), "(_2,_4):(_4,_16)");
    /// ```
    #[inline(always)]
    pub fn layout(&self) -> Layout<S, D> {
        self.layout
    }

    /// The number of elements.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], layout!((8,8):(1,8)));
    /// let parts = t.partition_mut(layout!((4,2):(1,4))).unwrap(); // 8 threads
    /// assert!(parts.iter().all(|p| p.size() == 8));
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// The storage index of the layout's origin (as [`Tensor::offset`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], layout!((8,8):(1,8)));
    /// let parts = t.partition_mut(layout!((4,2):(1,4))).unwrap(); // 8 threads
    /// assert_eq!(parts[5].offset(), 1 + 8); // thread 5 is (1,1) of the thread layout
    /// ```
    #[inline(always)]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// This part, borrowed: the same elements for the borrow's life.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], layout!((8,8):(1,8)));
    /// let mut p = t.partition_mut(layout!((4,2):(1,4))).unwrap().remove(5); // thread 5
    /// let mut col = p.reborrow().slice(crd!(_, 1usize)); // `slice` takes the borrow, not `p`
    /// col[1usize] = -1;
    /// p[(0usize, 0usize)] = -2;                          // `p` is still there
    /// assert_eq!((data[9], data[9 + 4 + 16]), (-2, -1));
    /// ```
    #[inline(always)]
    pub fn reborrow(&mut self) -> ThreadTensor<'_, T, Layout<S, D>> {
        ThreadTensor { ptr: self.ptr, offset: self.offset, layout: self.layout, _data: PhantomData }
    }

    /// The pointer to the storage the parts share (for the shared tiles of
    /// `block.rs`, which read the whole storage through it).
    #[inline(always)]
    pub(crate) fn storage_ptr(&self) -> *mut T {
        self.ptr
    }

    #[inline(always)]
    fn index_of<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> Option<usize> {
        let (s, d) = (self.layout.shape(), self.layout.stride());
        if c.inside(&s) { Some(c.offset_acc(&s, &d, self.offset)) } else { None }
    }

    /// The element at `c`; `None` outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], layout!((8,8):(1,8)));
    /// let parts = t.partition_mut(layout!((4,2):(1,4))).unwrap();
    /// let p = &parts[5];                          // (_2,_4):(_4,_16) at 9
    /// assert_eq!(p.get((1usize, 3usize)), Some(&(9 + 4 + 48)));
    /// assert_eq!(p.get(8usize), None);            // outside the shape
    /// ```
    #[inline(always)]
    pub fn get<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> Option<&T> {
        let i = self.index_of(c)?;
        // SAFETY: `c` is inside this part's domain, so `i` is a storage
        // index (the parent tensor's invariant: the part's domain is a
        // subset of the parent's tiled domain, checked to fit), borrowed
        // for `'a`, that no other part reaches (checked by
        // `partition_mut`); `get_mut` needs `&mut self`.
        Some(unsafe { &*self.ptr.add(i) })
    }

    /// The element at `c`, mutably; `None` outside the shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], layout!((8,8):(1,8)));
    /// let mut p = t.partition_mut(layout!((4,2):(1,4))).unwrap().remove(5);
    /// if let Some(x) = p.get_mut((1usize, 2usize)) {
    ///     *x = -1;
    /// }
    /// assert!(p.get_mut((2usize, 0usize)).is_none()); // outside the shape
    /// assert_eq!(data[9 + 4 + 32], -1);
    /// ```
    #[inline(always)]
    pub fn get_mut<C: Coord<S, D> + InDomain<S>>(&mut self, c: C) -> Option<&mut T> {
        let i = self.index_of(c)?;
        // SAFETY: as in `get`; `&mut self` makes this the only reference
        // into this part while it lives.
        Some(unsafe { &mut *self.ptr.add(i) })
    }

    /// Slicing with `_`, as [`Tensor::slice`]: the sub-part reaches a
    /// subset of this part's elements.
    ///
    /// # Panics
    ///
    /// When a fixed entry of `coord` is outside its mode.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], layout!((8,8):(1,8)));
    /// let p = t.partition_mut(layout!((4,2):(1,4))).unwrap().remove(5);
    /// let row = p.slice(crd!(1usize, _));
    /// assert_eq!(row.layout().to_string(), "(_4):(_16)");
    /// assert_eq!(row[2usize], 9 + 4 + 32);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn slice<C>(self, coord: C) -> ThreadTensor<'a, T, <Layout<S, D> as Slice<C>>::Output>
    where
        C: InDomain<S>,
        Layout<S, D>: Slice<C>,
    {
        if !coord.inside(&self.layout.shape()) {
            domain_panic()
        }
        let (sub, off) = self.layout.slice_wrapping(coord);
        ThreadTensor { ptr: self.ptr, offset: self.offset.wrapping_add(off), layout: sub, _data: PhantomData }
    }
}

impl<T, S: Congruent<D>, D: IntTuple> crate::HasLayout for ThreadTensor<'_, T, Layout<S, D>> {
    type Shape = S;
    type Stride = D;
    #[inline(always)]
    fn layout_of(&self) -> Layout<S, D> {
        self.layout
    }
}

impl<T, S: Congruent<D>, D: IntTuple, C: Coord<S, D> + InDomain<S>> Index<C> for ThreadTensor<'_, T, Layout<S, D>> {
    type Output = T;
    /// The element at `c`; panics when `c` is outside the shape.
    #[inline(always)]
    #[track_caller]
    fn index(&self, c: C) -> &T {
        let (s, d) = (self.layout.shape(), self.layout.stride());
        if !c.inside(&s) {
            domain_panic()
        }
        let i = c.offset_acc(&s, &d, self.offset);
        // SAFETY: as in `get` (no `Option`: its null test would stay in loops).
        unsafe { &*self.ptr.add(i) }
    }
}

impl<T, S: Congruent<D>, D: IntTuple, C: Coord<S, D> + InDomain<S>> IndexMut<C> for ThreadTensor<'_, T, Layout<S, D>> {
    /// The element at `c`, mutably; panics when `c` is outside the shape.
    #[inline(always)]
    #[track_caller]
    fn index_mut(&mut self, c: C) -> &mut T {
        let (s, d) = (self.layout.shape(), self.layout.stride());
        if !c.inside(&s) {
            domain_panic()
        }
        let i = c.offset_acc(&s, &d, self.offset);
        // SAFETY: as in `get_mut`.
        unsafe { &mut *self.ptr.add(i) }
    }
}

/// Two parts of [`Tensor::partition_mut`] (or of the writers of
/// [`Block::shared_tile`](crate::Block::shared_tile)) reach one element: the
/// error that refuses to hand them out as disjoint mutable views.
///
/// ```
/// use cute_static::prelude::*;
/// let mut data = [0i32; 64];
/// let t = make_tensor(&mut data[..], layout!((8,8):(1,8)));
/// // Stride 0: threads 4..8 get the coordinates of threads 0..4.
/// let e = t.partition_mut(layout!((4,2):(1,0))).unwrap_err();
/// assert_eq!(e, cute_static::Overlap { first: 0, second: 4, index: 0 });
/// let msg = cute_dynamic::LayoutError::from(e).to_string();
/// assert!(msg.ends_with("not disjoint: threads 0 and 4 both reach storage index 0"), "{msg}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlap {
    /// The first thread that reaches it.
    pub first: usize,
    /// The second.
    pub second: usize,
    /// The storage index.
    pub index: usize,
}

impl From<Overlap> for cute_dynamic::LayoutError {
    #[cold]
    fn from(o: Overlap) -> cute_dynamic::LayoutError {
        cute_dynamic::LayoutError::Overlap {
            what: "the parts of a tensor by a thread layout".into(),
            first: o.first as i64,
            second: o.second as i64,
            index: o.index as i64,
        }
    }
}

/// The argument of [`Tensor::partition_mut`] without looking at the
/// elements: `true` when (1) `thr` gives the threads distinct coordinates
/// in its tiler (a bijection onto the tiler's shape, checked over the
/// threads), (2) the tiler divides every top-level mode it tiles (so the
/// divided layout is a re-shaping of the tensor's domain, and the parts are
/// the images of disjoint sets of its coordinates), and (3) the tensor's
/// layout is injective, by the sufficient condition that its leaves sorted
/// by stride each start past the span of the previous ones
/// (`d_j ≥ s_{j−1}·d_{j−1}`, extents of 1 ignored). `false` means "not
/// proven this way", not "overlapping".
fn disjoint_by_algebra<S: Congruent<D> + FlatValues + TopModes, D: FlatValues, Thr: ThreadLayout>(
    layout: &Layout<S, D>,
    thr: &Thr,
) -> bool {
    // (1) distinct thread coordinates.
    let t = thr.tile_sizes();
    let cells = t.iter().product::<usize>();
    let n = thr.threads();
    if cells != n || n > 1 << 16 {
        return false;
    }
    let mut seen = [0u64; 1024];
    for k in 0..n {
        let c = thr.linear_coord(k);
        if c >= n || seen[c / 64] & (1 << (c % 64)) != 0 {
            return false;
        }
        seen[c / 64] |= 1 << (c % 64);
    }
    // (2) the tiler divides the modes it tiles.
    let m = layout.shape().top_sizes();
    let rank = S::RANK.min(4);
    if (0..4).any(|i| t[i] > 1 && (i >= rank || !m[i].is_multiple_of(t[i]))) {
        return false;
    }
    // (3) the layout is injective (sorted strides past the previous span).
    let (mut sv, mut dv) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
    let (mut ns, mut nd) = (0, 0);
    if !(layout.shape().write(&mut sv, &mut ns) && layout.stride().write(&mut dv, &mut nd)) {
        return false;
    }
    let mut leaves: [(i64, i64); MAX_MODES] = [(0, 0); MAX_MODES];
    let mut nl = 0;
    for i in 0..ns {
        if sv[i] > 1 {
            leaves[nl] = (dv[i].unsigned_abs() as i64, sv[i]);
            nl += 1;
        }
    }
    let leaves = &mut leaves[..nl];
    leaves.sort_unstable();
    let mut reach = 1i128; // the span of the leaves so far, plus one
    for &(d, s) in leaves.iter() {
        if (d as i128) < reach {
            return false;
        }
        reach = d as i128 * s as i128;
    }
    true
}

/// Every part evaluated at every coordinate: `Err` at the first storage
/// index two parts reach.
fn brute_force_disjoint<S2: Congruent<D2>, D2: IntTuple>(
    parts: &[(Layout<S2, D2>, usize)],
    lo: usize,
    hi: usize,
) -> Result<(), Overlap> {
    // One bit per storage index in `lo..=hi`: reached by a part yet?
    // A part may reach one index twice (not an overlap), so each part
    // marks its indices in a second pass, after checking them all.
    let mut seen = std::vec![0u64; (hi.saturating_sub(lo)) / 64 + 1];
    for (k, (sub, off)) in parts.iter().enumerate() {
        let (s, d) = (sub.shape(), sub.stride());
        for i in 0..sub.size() {
            let idx = Coord::<S2, D2>::offset_acc(i, &s, &d, *off) - lo;
            if seen[idx / 64] & (1 << (idx % 64)) != 0 {
                return Err(overlap(parts, k, idx + lo));
            }
        }
        for i in 0..sub.size() {
            let idx = Coord::<S2, D2>::offset_acc(i, &s, &d, *off) - lo;
            seen[idx / 64] |= 1 << (idx % 64);
        }
    }
    Ok(())
}

/// The overlap at storage index `index` that part `second` found: the
/// first part that reaches it (cold: only when the check fails).
#[cold]
#[inline(never)]
fn overlap<S2: Congruent<D2>, D2: IntTuple>(parts: &[(Layout<S2, D2>, usize)], second: usize, index: usize) -> Overlap {
    let first = parts[..second]
        .iter()
        .position(|(sub, off)| {
            (0..sub.size()).any(|i| Coord::<S2, D2>::offset_acc(i, &sub.shape(), &sub.stride(), *off) == index)
        })
        .unwrap_or(second);
    Overlap { first, second, index }
}

impl<'a, T, S: Congruent<D> + FlatValues + TopModes, D: FlatValues> Tensor<&'a mut [T], Layout<S, D>> {
    /// Splits a mutable tensor into the parts that [`local_partition`] gives
    /// the threads `0..size(thr)`, as values that may be used at the same
    /// time (sent to threads): safe, because the parts are proven disjoint.
    ///
    /// The argument: part `k` reaches the storage indices `offset_k +
    /// L_k(c)` for `c` in its domain, all inside the storage (the part is a
    /// view, checked to fit when made). The parts are the images, under the
    /// divided layout `Z = zipped_divide(L, tiler(thr))`, of the sets of
    /// coordinates `((coord(k), ..), ..)`. These sets are disjoint when the
    /// threads have distinct coordinates (`thr` a bijection onto its
    /// tiler's shape, checked over the threads); when the tiler divides the
    /// modes, `Z` is a re-shaping of `L`'s domain, and when `L` is injective
    /// (its leaves sorted by stride each start past the span of the previous
    /// ones) disjoint coordinates have disjoint images: the parts are
    /// disjoint with no element looked at (a few operations per thread and
    /// per mode; for static layouts the same arithmetic on constants).
    /// Otherwise (a ragged, padded domain, an injective layout the sorted
    /// strides do not show), this function evaluates every part at every
    /// coordinate and records which storage indices are reached; if two
    /// different parts reach one index it returns an error. Either way the
    /// parts it returns reach pairwise disjoint sets of elements. A part can only narrow its layout afterwards
    /// (slicing), so it never reaches another part's elements; it borrows
    /// the storage mutably for `'a`, so nothing else reaches them either:
    /// exactly the aliasing rule of `&mut`. (One part may reach an element
    /// by two coordinates; a `&mut` to it needs `&mut` of the part, so that
    /// is harmless.) With static thread and tensor layouts the check is the
    /// same loop over constants; the layouts that pass it are those CuTe's
    /// partitions are meant for: `thr` a bijection onto `0..size(thr)` and
    /// the tensor's layout injective.
    ///
    /// Cost: two evaluations per element and one bit per storage index the
    /// parts span, once.
    ///
    /// Post-conditions: part `k` has the layout and offset of
    /// `local_partition(self, thr, k)`; no storage index is reached by two
    /// parts.
    ///
    /// Errors: `Overlap` when two threads' parts reach the same element (a
    /// thread layout that is not a bijection, or a tensor with broadcast
    /// (stride-0) modes across threads).
    ///
    /// # Panics
    ///
    /// As [`local_partition`] (a part reaching past the storage).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = vec![0i32; 8 * 8];
    /// let t = make_tensor(&mut data[..], layout!((8,8):(1,8)));
    /// let parts = t.partition_mut(layout!((4,2):(1,4))).unwrap();    // 8 threads
    /// std::thread::scope(|s| {
    ///     for (k, mut p) in parts.into_iter().enumerate() {
    ///         s.spawn(move || for i in 0..p.size() { p[i] = k as i32 });
    ///     }
    /// });
    /// assert_eq!(data[0..8], [0, 1, 2, 3, 0, 1, 2, 3]);
    /// assert_eq!(data[8..16], [4, 5, 6, 7, 4, 5, 6, 7]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn partition_mut<Thr: ThreadLayout, S2: Congruent<D2> + OffsetRange<D2>, D2: IntTuple>(
        self,
        thr: Thr,
    ) -> Result<Vec<ThreadTensor<'a, T, Layout<S2, D2>>>, Overlap>
    where
        Layout<S, D>: Partition<Thr::Tiler, Thr::Coord, Outer, Output = Layout<S2, D2>>,
    {
        let (engine, offset, layout) = self.into_parts();
        let len = engine.len();
        let n = thr.threads();
        // The parts, each checked to fit the storage, and the storage
        // indices they span together.
        let mut parts = Vec::with_capacity(n);
        let (mut lo, mut hi) = (usize::MAX, 0usize);
        for k in 0..n {
            let Some((sub, off, _)) = layout.part(Thr::Tiler::default(), thr.coord(k)) else { domain_panic() };
            let off = offset.wrapping_add(off);
            if let Err(e) = sub.fits("partition_mut", off, len) {
                storage_panic(e)
            }
            let (a, b) = sub.shape().range(&sub.stride());
            // In the storage (checked above), so these are the exact indices.
            lo = lo.min((off as i64).wrapping_add(a) as usize);
            hi = hi.max((off as i64).wrapping_add(b) as usize);
            parts.push((sub, off));
        }
        if !disjoint_by_algebra(&layout, &thr) {
            brute_force_disjoint(&parts, lo, hi)?;
        }
        let ptr = engine.as_mut_ptr();
        Ok(parts
            .into_iter()
            .map(|(sub, off)| ThreadTensor { ptr, offset: off, layout: sub, _data: PhantomData })
            .collect())
    }
}
