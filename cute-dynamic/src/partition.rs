//! Tiling and partitioning tensors: `local_tile`, `inner_partition`,
//! `outer_partition`, `local_partition` (CuTe's `tensor_impl.hpp`), and
//! [`partition_mut`](Tensor::partition_mut), which splits a mutable tensor
//! into per-thread views that may be used at the same time.

use crate::error::{LayoutError, Result};
use crate::int_tuple::{IntTuple, Tree};
use crate::layout::Layout;
use crate::parse::UNDERSCORE;
use crate::slice::SliceCoord;
use crate::coord::Coord;
use crate::tensor::{ReadTensor, Tensor, WriteTensor};
use crate::tiler::AsTiler;
use crate::tiler::Tiler;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// One step of a projection (CuTe's `Step<_1, X, _1>`): keep a mode of the
/// tiler, coordinate or thread layout, or drop it.
///
/// ```
/// use cute_dynamic::{Layout, Step, Tiler, make_tensor, local_tile_projected};
/// // One CTA tiler (BLK_M,BLK_N,BLK_K) and block coordinate (m,n,_) for all GEMM operands:
/// // B is (N,K), so it drops the M mode.
/// let b = vec![0f32; 128 * 64];
/// let mb = make_tensor(&b[..], "(128,64):(1,128)".parse::<Layout>()?)?;
/// let cta = Tiler::from_shape(&"(32,16,8)".parse()?)?;
/// let gb = local_tile_projected(mb, &cta, &"(1,2,_)".parse()?, &[Step::Drop, Step::Keep, Step::Keep])?;
/// assert_eq!(gb.layout().to_string(), "(16,8,8):(1,128,1024)"); // (BLK_N,BLK_K,k)
/// assert_eq!(gb.offset(), 2 * 16); // block n = 2
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// CuTe's `_1`: the mode takes part.
    Keep,
    /// CuTe's `X`: the mode is left out.
    Drop,
}

/// The slice coordinate that is `_` over a mode of shape `s`: one `_` for
/// a leaf, a tuple of `rank` of them otherwise (CuTe's `repeat<R>(_)`).
fn free_over(s: Tree<'_>, out: &mut IntTuple) {
    if s.leaf().is_some() {
        out.leaf(UNDERSCORE);
    } else {
        out.open();
        for _ in 0..s.rank() {
            out.leaf(UNDERSCORE);
        }
        out.close();
    }
}

/// `coord` for a mode of shape `s`, with `_` appended up to the mode's rank
/// when `coord` is a tuple (CuTe's `append<R>(coord, _)`).
fn padded(coord: &SliceCoord, s: Tree<'_>, out: &mut IntTuple, what: &str) -> Result<()> {
    let c = coord.coord.tree();
    if c.leaf().is_some() {
        out.push_tree(c);
        return Ok(());
    }
    let r = if s.leaf().is_some() { 1 } else { s.rank() };
    if c.rank() > r || s.leaf().is_some() {
        return Err(LayoutError::RankMismatch { what: format!("{what} at {coord}"), expected: r, found: c.rank() });
    }
    out.open();
    for ci in c.children() {
        out.push_tree(ci);
    }
    for _ in c.rank()..r {
        out.leaf(UNDERSCORE);
    }
    out.close();
    Ok(())
}

/// Which mode of `zipped_divide` the coordinate slices.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Inner,
    Outer,
}

fn partition<E, T: AsTiler + ?Sized>(t: Tensor<E>, tiler: &T, coord: &SliceCoord, part: Part) -> Result<Tensor<E>> {
    let tiled = t.zipped_divide(tiler)?;
    let shape = tiled.layout().shape().clone();
    let (tile, rest) = match (shape.tree().children().next(), shape.tree().children().nth(1)) {
        (Some(a), Some(b)) => (a, b),
        _ => unreachable!("zipped_divide always gives two modes"),
    };
    let mut c = IntTuple::empty();
    c.open();
    match part {
        Part::Inner => {
            free_over(tile, &mut c);
            padded(coord, rest, &mut c, "inner_partition: the rest mode")?;
        }
        Part::Outer => {
            padded(coord, tile, &mut c, "outer_partition: the tile mode")?;
            free_over(rest, &mut c);
        }
    }
    c.close();
    tiled.slice(&SliceCoord::from_marked(c))
}

/// CuTe's `inner_partition(t, tiler, coord)`: `zipped_divide(t, tiler)`,
/// then the tile at `coord` of the rest mode; everything inside one tile.
///
/// A tuple `coord` is padded with `_` to the rank of the rest mode (so the
/// modes of `t` beyond the tiler stay free); an integer indexes the rest
/// mode as a whole. The result's modes are the tile's modes followed by the
/// free rest modes, grouped as CuTe's slice groups them.
///
/// Post-condition: with `Z = zipped_divide(t, tiler)`, `result(i, j..)` is
/// `Z((i..), (coord, j..))` for every coordinate.
///
/// Errors: those of [`zipped_divide`](crate::zipped_divide) and of slicing;
/// `RankMismatch` for a coordinate longer than the rest mode.
///
/// ```
/// use cute_dynamic::{Layout, make_tensor, inner_partition};
/// let data: Vec<i32> = (0..64).collect();
/// let t = make_tensor(&data[..], "(8,8):(1,8)".parse::<Layout>()?)?;
/// let tile = inner_partition(t, &"(4,2)".parse::<cute_dynamic::IntTuple>()?, &"(1,3)".parse()?)?;
/// assert_eq!(tile.layout().to_string(), "(4,2):(1,8)");
/// assert_eq!(tile[(0, 0)], 4 + 6 * 8);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn inner_partition<E, T: AsTiler + ?Sized>(t: Tensor<E>, tiler: &T, coord: &SliceCoord) -> Result<Tensor<E>> {
    partition(t, tiler, coord, Part::Inner)
}

/// CuTe's `outer_partition(t, tiler, coord)`: `zipped_divide(t, tiler)`,
/// then the element at `coord` of the tile mode in every tile; everything
/// outside the tiler, one element per tile.
///
/// A tuple `coord` is padded with `_` to the rank of the tile mode; an
/// integer indexes the tile mode as a whole.
///
/// Post-condition: with `Z = zipped_divide(t, tiler)`, `result(j..)` is
/// `Z((coord, ..), (j..))`.
///
/// Errors: as [`inner_partition`].
///
/// ```
/// use cute_dynamic::{IntTuple, Layout, make_tensor, outer_partition};
/// let data: Vec<i32> = (0..64).collect();
/// let t = make_tensor(&data[..], "(8,8):(1,8)".parse::<Layout>()?)?;
/// let p = outer_partition(t, &"(2,4)".parse::<IntTuple>()?, &"(1,3)".parse()?)?;
/// assert_eq!(p.layout().to_string(), "(4,2):(2,32)");
/// assert_eq!(p[(0, 0)], 1 + 3 * 8);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn outer_partition<E, T: AsTiler + ?Sized>(t: Tensor<E>, tiler: &T, coord: &SliceCoord) -> Result<Tensor<E>> {
    partition(t, tiler, coord, Part::Outer)
}

/// CuTe's `local_tile(t, tiler, coord)`: the tile of `t` at `coord`
/// ([`inner_partition`]); what a thread block takes of a matrix.
///
/// A tensor of run-time shape `(M,N)` tiled by `(128,64)` at `(bx,by)` is
/// the `128×64` block whose first element is `(128·bx, 64·by)`; at a ragged
/// edge the block reaches past the tensor (see [`Tensor`]).
///
/// Post-conditions and errors: those of [`inner_partition`].
///
/// ```
/// use cute_dynamic::{IntTuple, Layout, make_tensor, local_tile};
/// let data = vec![0f32; 1000 * 500];
/// let m = make_tensor(&data[..], "(1000,500):(1,1000)".parse::<Layout>()?)?;
/// let blk = local_tile(m, &"(128,64)".parse::<IntTuple>()?, &"(2,3)".parse()?)?;
/// assert_eq!(blk.layout().to_string(), "(128,64):(1,1000)");
/// assert_eq!(blk.offset(), 256 + 192 * 1000);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn local_tile<E, T: AsTiler + ?Sized>(t: Tensor<E>, tiler: &T, coord: &SliceCoord) -> Result<Tensor<E>> {
    inner_partition(t, tiler, coord)
}

/// [`local_tile`] with a projection (CuTe's `local_tile(t, tiler, coord,
/// Step<_1,X,_1>{})`): the modes of `tiler` and `coord` where `proj` says
/// [`Step::Drop`] are left out first (CuTe's `dice`), so one tiler and one
/// block coordinate serve the A, B and C operands of a GEMM.
///
/// Errors: `RankMismatch` when `proj`, `tiler` and `coord` differ in rank;
/// then those of [`local_tile`].
///
/// ```
/// use cute_dynamic::{IntTuple, Layout, Step::{Drop, Keep}, Tiler, make_tensor, local_tile_projected};
/// let a = vec![0f32; 256 * 64];
/// let ma = make_tensor(&a[..], "(256,64):(1,256)".parse::<Layout>()?)?;   // (M,K)
/// let cta_tiler = Tiler::from_shape(&"(32,64,4)".parse()?)?;               // (BLK_M,BLK_N,BLK_K)
/// let ga = local_tile_projected(ma, &cta_tiler, &"(1,0,_)".parse()?, &[Keep, Drop, Keep])?;
/// assert_eq!(ga.layout().to_string(), "(32,4,16):(1,256,1024)");         // (BLK_M,BLK_K,k)
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn local_tile_projected<E>(t: Tensor<E>, tiler: &Tiler, coord: &SliceCoord, proj: &[Step]) -> Result<Tensor<E>> {
    let tiler = dice_tiler(proj, tiler)?;
    let coord = dice_coord(proj, coord)?;
    local_tile(t, &tiler, &coord)
}

/// CuTe's `local_partition(t, thr, idx)`: the part of `t` that thread `idx`
/// of the thread layout `thr` owns when `thr`'s shape is repeated over `t`
/// ([`outer_partition`] by the per-mode sizes of `thr`, at `idx`'s flat
/// coordinate in `thr`).
///
/// `idx`'s coordinate is CuTe's `get_flat_coord`: per leaf `(idx / d) % s`
/// (`0` for a leaf of size 1 or stride 0), then one integer per top-level
/// mode. That is the coordinate `thr` maps to `idx` when `thr` is a
/// bijection onto `0..size(thr)`.
///
/// Post-conditions: as [`outer_partition`]; the parts of the threads
/// `0..size(thr)` of a bijective `thr` are disjoint and cover the tiled
/// domain.
///
/// Errors: `OutOfBounds` for `idx` outside `0..size(thr)`, `Unsupported` for
/// a thread layout with a negative stride, then those of
/// [`outer_partition`].
///
/// ```
/// use cute_dynamic::{Layout, make_tensor, local_partition};
/// let data: Vec<i32> = (0..16 * 64).collect();
/// let t = make_tensor(&data[..], "(16,64):(1,16)".parse::<Layout>()?)?;
/// let thr: Layout = "(2,16):(16,1)".parse()?;          // 32 threads, row-major
/// let p = local_partition(t, &thr, 17)?;
/// assert_eq!(p.layout().to_string(), "(8,4):(2,256)");
/// assert_eq!(p[(0, 0)], 1 + 1 * 16);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn local_partition<E>(t: Tensor<E>, thr: &Layout, idx: i64) -> Result<Tensor<E>> {
    let (tiler, coord) = thread_tiler(thr, idx, thr.size())?;
    outer_partition(t, &tiler, &coord)
}

/// [`local_partition`] with a projection of the thread layout (CuTe's
/// `local_partition(t, thr, idx, Step<_1,X,_1>{})`): the modes of `thr`
/// where `proj` says [`Step::Drop`] are left out first.
///
/// `idx` ranges over the threads of the whole `thr`.
///
/// Errors: `RankMismatch` when `proj` and `thr` differ in rank; then those
/// of [`local_partition`].
///
/// ```
/// use cute_dynamic::{Layout, Step::{Drop, Keep}, make_tensor, local_partition_projected};
/// let a = vec![0f32; 64 * 8];
/// let ta = make_tensor(&a[..], "(64,8):(1,64)".parse::<Layout>()?)?;     // (M,K)
/// let thr: Layout = "(2,16,1):(16,1,0)".parse()?;
/// let pa = local_partition_projected(ta, &thr, 17, &[Keep, Drop, Keep])?;
/// assert_eq!(pa.layout().to_string(), "(32,8):(2,64)");                  // (M/2,K/1)
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn local_partition_projected<E>(t: Tensor<E>, thr: &Layout, idx: i64, proj: &[Step]) -> Result<Tensor<E>> {
    let diced = dice_layout(proj, thr)?;
    // The thread index ranges over the whole thread layout, not the diced one.
    let (tiler, coord) = thread_tiler(&diced, idx, thr.size())?;
    outer_partition(t, &tiler, &coord)
}

/// The by-mode tiler (CuTe's `product_each(shape(thr))`) and the flat
/// coordinate of `idx` in `thr` (CuTe's `get_flat_coord`).
fn thread_tiler(thr: &Layout, idx: i64, threads: i64) -> Result<(IntTuple, SliceCoord)> {
    if idx < 0 || idx >= threads {
        return Err(LayoutError::OutOfBounds { coord: idx.to_string(), shape: thr.shape().to_string() });
    }
    if thr.pairs().any(|(_, d)| d < 0) {
        return Err(LayoutError::Unsupported { what: format!("a thread layout with a negative stride ({thr})") });
    }
    let leaf_coord = |s: i64, d: i64| if s == 1 || d == 0 { 0 } else { (idx / d) % s };
    let mode_coord = |m: &Layout| {
        // Column-major index of the leaf coordinates within the mode.
        let (mut c, mut mult) = (0i64, 1i64);
        for (s, d) in m.pairs() {
            c += leaf_coord(s, d) * mult;
            mult *= s;
        }
        c
    };
    if thr.shape().is_int() {
        return Ok((IntTuple::int(thr.size()), SliceCoord::from_int_tuple(&IntTuple::int(mode_coord(thr)))));
    }
    let tiler = IntTuple::flat(thr.modes_iter().map(|m| m.size()));
    let coord = IntTuple::flat(thr.modes_iter().map(|m| mode_coord(&m)));
    Ok((tiler, SliceCoord::from_int_tuple(&coord)))
}

fn check_proj(proj: &[Step], rank: usize, what: String) -> Result<()> {
    if proj.len() == rank { Ok(()) } else { Err(LayoutError::RankMismatch { what, expected: rank, found: proj.len() }) }
}

/// CuTe's `dice(proj, tiler)`: the modes of the tiler where `proj` keeps.
fn dice_tiler(proj: &[Step], tiler: &Tiler) -> Result<Tiler> {
    check_proj(proj, tiler.rank(), format!("projection of the tiler {tiler}"))?;
    match tiler {
        Tiler::Tuple(ts) => {
            Ok(Tiler::Tuple(ts.iter().zip(proj).filter(|(_, p)| **p == Step::Keep).map(|(t, _)| t.clone()).collect()))
        }
        Tiler::Layout(_) => Ok(tiler.clone()),
    }
}

/// CuTe's `dice(proj, coord)`: the modes of the coordinate where `proj` keeps.
fn dice_coord(proj: &[Step], coord: &SliceCoord) -> Result<SliceCoord> {
    let c = coord.coord.tree();
    if c.leaf().is_some() {
        check_proj(proj, 1, format!("projection of the coordinate {coord}"))?;
        return Ok(coord.clone());
    }
    check_proj(proj, c.rank(), format!("projection of the coordinate {coord}"))?;
    let mut out = IntTuple::empty();
    out.open();
    for (ci, _) in c.children().zip(proj).filter(|(_, p)| **p == Step::Keep) {
        out.push_tree(ci);
    }
    out.close();
    Ok(SliceCoord::from_marked(out))
}

/// CuTe's `dice(proj, layout)`: the modes of the layout where `proj` keeps.
fn dice_layout(proj: &[Step], l: &Layout) -> Result<Layout> {
    check_proj(proj, l.rank(), format!("projection of the thread layout {l}"))?;
    let kept: Vec<Layout> = l.modes_iter().zip(proj).filter(|(_, p)| **p == Step::Keep).map(|(m, _)| m).collect();
    crate::make_layout(&kept)
}

/// One thread's part of a mutable tensor, made by
/// [`Tensor::partition_mut`]: reads and writes only the elements that no
/// other part reaches, so the parts may be sent to threads and used at the
/// same time.
///
/// Its layout can be sliced (a slice reaches a subset of the part's
/// elements) but not otherwise changed: a composition or divide could reach
/// elements of other parts.
///
/// ```
/// use cute_dynamic::{Layout, ThreadTensor, make_tensor};
/// let mut data: Vec<i32> = (0..8).collect();
/// let t = make_tensor(&mut data[..], "8:1".parse::<Layout>()?)?;
/// let mut parts: Vec<ThreadTensor<'_, i32>> = t.partition_mut(&"4:1".parse()?)?; // 4 threads
/// // Thread 1 owns elements 1 and 5.
/// assert_eq!((parts[1].offset(), parts[1].layout().to_string().as_str()), (1, "(2):(4)"));
/// parts[1][1] = -5;
/// drop(parts);
/// assert_eq!(data, [0, 1, 2, 3, 4, -5, 6, 7]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub struct ThreadTensor<'a, T> {
    /// Start of the storage the parts share; valid for `'a`, of `len` elements.
    ptr: *mut T,
    len: usize,
    offset: i64,
    layout: Layout,
    _data: PhantomData<&'a mut [T]>,
}

// SAFETY: a `ThreadTensor` is a `&mut` to a set of elements that no other
// value reaches (see `partition_mut`), so sending it sends exclusive access,
// as sending a `&mut [T]` does; sharing it shares only `&T`.
#[allow(unsafe_code)]
unsafe impl<T: Send> Send for ThreadTensor<'_, T> {}
#[allow(unsafe_code)]
unsafe impl<T: Sync> Sync for ThreadTensor<'_, T> {}

impl<T> std::fmt::Debug for ThreadTensor<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ThreadTensor({} o {})", self.offset, self.layout)
    }
}

impl<'a, T> ThreadTensor<'a, T> {
    /// The layout of this part.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], "(8,8):(1,8)".parse::<Layout>()?)?;
    /// let parts = t.partition_mut(&"(4,2):(1,4)".parse()?)?; // 8 threads
    /// assert_eq!(parts[5].layout().to_string(), "(2,4):(4,16)"); // rows 1, 5; columns 1, 3, 5, 7
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The number of elements.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], "(8,8):(1,8)".parse::<Layout>()?)?;
    /// let parts = t.partition_mut(&"(4,2):(1,4)".parse()?)?; // 8 threads
    /// assert_eq!(parts.len(), 8);
    /// assert!(parts.iter().all(|p| p.size() == 8));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn size(&self) -> i64 {
        self.layout.size()
    }

    /// The storage index of the layout's origin (as [`Tensor::offset`]).
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], "(8,8):(1,8)".parse::<Layout>()?)?;
    /// let parts = t.partition_mut(&"(4,2):(1,4)".parse()?)?; // 8 threads
    /// assert_eq!(parts[5].offset(), 9); // thread 5 is (1,1) of the thread layout: element (1,1)
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The storage index of the element at `c`, checked against the domain
    /// and the storage (a ragged edge).
    fn index_of<C: Coord>(&self, c: &C) -> Result<usize> {
        let off = c.eval_in(&self.layout)?;
        let idx = self.offset.checked_add(off).ok_or(LayoutError::Overflow { operation: "tensor offset" })?;
        match usize::try_from(idx) {
            Ok(i) if i < self.len => Ok(i),
            _ => Err(LayoutError::OutOfStorage {
                what: "an element of a thread's part (a ragged edge?)".to_string(),
                lo: idx,
                hi: idx,
                len: self.len,
            }),
        }
    }

    /// The element at `c`. Errors as [`Tensor::get`].
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], "(8,8):(1,8)".parse::<Layout>()?)?;
    /// let parts = t.partition_mut(&"(4,2):(1,4)".parse()?)?; // 8 threads
    /// assert_eq!(parts[5].get((1, 2))?, &45); // row 5, column 5
    /// assert!(parts[5].get((2, 0)).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn get<C: Coord>(&self, c: C) -> Result<&T> {
        let i = self.index_of(&c)?;
        // SAFETY: `i < len`, so it is inside the storage borrowed for `'a`;
        // it is `offset + L(c)` for `c` in this part's domain, an index no
        // other part reaches (checked by `partition_mut`), so no `&mut` to it
        // exists outside this value, and inside it `get_mut` needs `&mut self`.
        #[allow(unsafe_code)]
        unsafe {
            Ok(&*self.ptr.add(i))
        }
    }

    /// The element at `c`, mutably. Errors as [`Tensor::get`].
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], "(8,8):(1,8)".parse::<Layout>()?)?;
    /// let mut parts = t.partition_mut(&"(4,2):(1,4)".parse()?)?; // 8 threads
    /// *parts[5].get_mut((1, 2))? = -1;
    /// drop(parts);
    /// assert_eq!(data[45], -1);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn get_mut<C: Coord>(&mut self, c: C) -> Result<&mut T> {
        let i = self.index_of(&c)?;
        // SAFETY: as in `get`; `&mut self` makes this the only reference into
        // this part while it lives.
        #[allow(unsafe_code)]
        unsafe {
            Ok(&mut *self.ptr.add(i))
        }
    }

    /// Slicing with `_`, as [`Tensor::slice`]: the sub-part reaches a subset
    /// of this part's elements.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut data: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(&mut data[..], "(8,8):(1,8)".parse::<Layout>()?)?;
    /// let mut parts = t.partition_mut(&"(4,2):(1,4)".parse()?)?; // 8 threads
    /// let row = parts.swap_remove(5).slice(&"(1,_)".parse()?)?; // thread 5's elements in row 5
    /// assert_eq!(row.layout().to_string(), "(4):(16)");
    /// assert_eq!((0..4).map(|j| row[j]).collect::<Vec<_>>(), [13, 29, 45, 61]);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn slice(self, coord: &SliceCoord) -> Result<ThreadTensor<'a, T>> {
        let (sub, off) = crate::slice_and_offset(&self.layout, coord)?;
        let offset = self.offset.checked_add(off).ok_or(LayoutError::Overflow { operation: "tensor slice" })?;
        Ok(ThreadTensor { offset, layout: sub, ..self })
    }
}

impl<T, C: Coord> Index<C> for ThreadTensor<'_, T> {
    type Output = T;
    /// Panics with the error of [`ThreadTensor::get`].
    fn index(&self, c: C) -> &T {
        match self.get(c) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }
}

impl<T, C: Coord> IndexMut<C> for ThreadTensor<'_, T> {
    /// Panics with the error of [`ThreadTensor::get_mut`].
    fn index_mut(&mut self, c: C) -> &mut T {
        match self.get_mut(c) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }
}

impl<T> ReadTensor for ThreadTensor<'_, T> {
    type Elem = T;
    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn read<C: Coord>(&self, c: C) -> Result<&T> {
        self.get(c)
    }
}

impl<T> WriteTensor for ThreadTensor<'_, T> {
    fn write<C: Coord>(&mut self, c: C) -> Result<&mut T> {
        self.get_mut(c)
    }
}

impl<'a, T> Tensor<&'a mut [T]> {
    /// Splits a mutable tensor into the parts that [`local_partition`] gives
    /// the threads `0..size(thr)`, as values that may be used at the same
    /// time (sent to threads): safe, because the parts are proven disjoint.
    ///
    /// The argument: part `k` reaches the storage indices `offset_k +
    /// L_k(c)` for `c` in its domain (those inside the storage; a ragged
    /// edge reaches past it and is never accessed). This function evaluates
    /// every part and records which part reaches each index; if two
    /// different parts reach one index, it returns an error, so the parts
    /// it returns reach pairwise disjoint sets of elements. A part can only
    /// narrow its own layout afterwards (slicing), so it never reaches
    /// another part's elements; and it borrows the storage mutably for `'a`,
    /// so nothing else reaches them either. That is exactly the aliasing
    /// rule of `&mut`. (A part may reach one element by two coordinates: a
    /// `&mut` to it needs `&mut` of the part, so that is harmless.)
    ///
    /// Cost: one evaluation per element and a table of one `u32` per storage
    /// element, once.
    ///
    /// Post-conditions: part `k` has the layout and offset of
    /// `local_partition(self, thr, k)`; no storage index is reached by two
    /// parts.
    ///
    /// Errors: those of [`local_partition`]; `Overlap` when two threads'
    /// parts reach the same element (a thread layout that is not a
    /// bijection, or a tensor with broadcast (stride-0) modes across
    /// threads).
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut data = vec![0i32; 8 * 8];
    /// let t = make_tensor(&mut data[..], "(8,8):(1,8)".parse::<Layout>()?)?;
    /// let parts = t.partition_mut(&"(4,2):(1,4)".parse()?)?;    // 8 threads
    /// std::thread::scope(|s| {
    ///     for (k, mut p) in parts.into_iter().enumerate() {
    ///         s.spawn(move || for i in 0..p.size() { p[i] = k as i32 });
    ///     }
    /// });
    /// assert_eq!(data[0..8], [0, 1, 2, 3, 0, 1, 2, 3]);
    /// assert_eq!(data[8..16], [4, 5, 6, 7, 4, 5, 6, 7]);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn partition_mut(self, thr: &Layout) -> Result<Vec<ThreadTensor<'a, T>>> {
        if !self.stages.is_empty() {
            return Err(LayoutError::Unsupported {
                what: "partition_mut of a swizzled tensor (its thread parts do not carry the swizzle)".into(),
            });
        }
        let len = self.engine.len();
        let n = thr.size();
        let mut owner = vec![u32::MAX; len];
        let mut parts = Vec::with_capacity(usize::try_from(n).unwrap_or(0));
        for k in 0..n {
            let shell =
                Tensor { engine: (), offset: self.offset, layout: self.layout.clone(), stages: Default::default() };
            let p = local_partition(shell, thr, k)?;
            let tag =
                u32::try_from(k).map_err(|_| LayoutError::Overflow { operation: "partition_mut thread count" })?;
            for i in 0..p.size() {
                let idx = p.offset + p.layout.eval(i)?;
                let Ok(idx) = usize::try_from(idx) else { continue };
                let Some(o) = owner.get_mut(idx) else { continue };
                if *o == u32::MAX {
                    *o = tag;
                } else if *o != tag {
                    return Err(LayoutError::Overlap {
                        what: format!("the parts of {} by the thread layout {thr}", self.layout),
                        first: i64::from(*o),
                        second: k,
                        index: idx as i64,
                    });
                }
            }
            parts.push((p.offset, p.layout));
        }
        let ptr = self.engine.as_mut_ptr();
        Ok(parts
            .into_iter()
            .map(|(offset, layout)| ThreadTensor { ptr, len, offset, layout, _data: PhantomData })
            .collect())
    }
}
