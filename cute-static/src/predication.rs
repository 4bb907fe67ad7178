//! Predication (CuTe's "predication" tutorial): views that may overhang
//! their data at a ragged edge, and the accesses that keep to the data.
//!
//! A `(1000,333)` matrix tiled by `(128,8)` has edge tiles that stick out
//! of it (rows 1000..1024, columns 333..336). CuTe makes those tiles
//! anyway and guards each access with a predicate built from an identity
//! tensor tiled the same way (`elem_less(cA(c), shape(A))`). Here that
//! pairing is one value: [`Tensor::predicated`] turns a tensor into a
//! [`Predicated`] view, which carries the tensor's data view and the same
//! view of its identity tensor, and every tiling, slicing and partitioning
//! is applied to both. Such a view:
//!
//! * may overhang (it is made with no storage check);
//! * gives access only through checked accessors ([`Predicated::get`],
//!   [`Predicated::get_mut`]) and predicated algorithms
//!   ([`Predicated::copy_to`], [`Predicated::copy_from`],
//!   [`Predicated::fill`]) that skip the elements outside the parent;
//! * becomes the ordinary, unchecked [`Tensor`] with
//!   [`Predicated::inside`] when its whole image lies inside the parent
//!   (every interior tile): one check per view, none per element.
//!
//! # Why this is safe
//!
//! A predicated access at `c` reads `storage[offset + L(c)]` only when (1)
//! the coordinate `id(c)` that the identity view gives lies inside the
//! parent's shape, and (2) the storage index lies inside the storage.
//! (2) alone makes every access memory-safe, whatever the views are; (1)
//! makes it the right element: the data view and the identity view are
//! made by the same operations from layouts of the same shape, so `L(c)`
//! is the parent's offset of the parent coordinate `id(c)`, an element of
//! the parent (which its own invariant puts in the storage). Both checks
//! are a few comparisons; the unchecked path is [`Predicated::inside`],
//! which checks the whole view once: its identity coordinates' maxima
//! inside the parent's shape (the largest coordinate of a view of an
//! identity layout, whose strides are positive, is reached at its largest
//! coordinate), and its offsets inside the storage (the check every
//! [`Tensor`] view passes).

use crate::algorithm::{ReadTensor, WriteTensor};
use crate::coord::Coord;
use crate::coord_layout::{CoordLayout, IdentityAt, IdentityView, Zero};
use crate::coord_layout::{ElemLess, IdentityStride, make_identity_tensor};
use crate::int_tuple::IntTuple;
use crate::layout::{Congruent, Layout};
use crate::partition::traits::{Dice, Inner, Outer, Partition, ThreadLayout, TilerFits};
use crate::slice::{InDomain, Slice, SliceBy};
use crate::tensor::{DataEngine, DataEngineMut, Engine, OffsetRange, Tensor, check_fits, domain_panic};
use core::marker::PhantomData;

/// A view of a tensor that may overhang its data (a tile at a ragged
/// edge), with the matching view of the tensor's identity tensor, which
/// tells for each coordinate whether the element exists (see the module
/// documentation of `predication.rs`, "Why this is safe").
///
/// `E` is the storage, `L` the data view's layout, `I` the parent
/// tensor's (flat) shape and `C` the identity view's layout (a
/// [`CoordLayout`]: CuTe's basis layout, every extent up to `i64`).
///
/// ```
/// use cute_static::prelude::*;
/// let (m, n) = (10usize, 7usize);
/// let data: Vec<i32> = (0..70).collect();
/// let a = make_tensor(&data[..], layout!(({m},{n}):(1,{m})));
/// let edge = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize)); // rows 8..12, columns 4..8
/// assert_eq!(edge.get((1usize, 2usize)), Some(&(9 + 6 * 10)));
/// assert_eq!(edge.get((2usize, 0usize)), None);                       // row 10: outside
/// assert!(edge.inside().is_err());                                     // it overhangs
/// ```
pub struct Predicated<E, L, I: IdentityStride, C> {
    engine: E,
    offset: usize,
    layout: L,
    /// The identity view (its origin inside it).
    id_layout: C,
    /// The parent's shape.
    bound: I::Coord,
    _parent: PhantomData<I>,
}

impl<E: Clone, L: Clone, I: IdentityStride, C: Clone> Clone for Predicated<E, L, I, C> {
    fn clone(&self) -> Self {
        Predicated {
            engine: self.engine.clone(),
            offset: self.offset,
            layout: self.layout.clone(),
            id_layout: self.id_layout.clone(),
            bound: self.bound,
            _parent: PhantomData,
        }
    }
}
impl<E: Copy, L: Copy, I: IdentityStride, C: Copy> Copy for Predicated<E, L, I, C> {}

impl<E, L: core::fmt::Display, I: IdentityStride, C> core::fmt::Debug for Predicated<E, L, I, C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Predicated({} o {}, inside {:?})", self.offset, self.layout, self.bound)
    }
}

impl<E, S: Congruent<D>, D: IntTuple, I: IdentityStride, C> crate::HasLayout for Predicated<E, Layout<S, D>, I, C> {
    type Shape = S;
    type Stride = D;
    #[inline(always)]
    fn layout_of(&self) -> Layout<S, D> {
        self.layout
    }
}

impl<E: Engine, S, D> Tensor<E, Layout<S, D>>
where
    S: Congruent<D> + IdentityStride,
    D: IntTuple,
{
    /// This tensor as a [`Predicated`] view (nothing overhangs yet): its
    /// tiles and partitions may then stick out of the data, as CuTe's do
    /// at ragged edges.
    ///
    /// The shape must be flat (a leaf or a tuple of leaves, as for
    /// [`make_identity_tensor`]); every extent up to `i64::MAX` works.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = vec![1.0f32; 100 * 30];
    /// let a = make_tensor(&data[..], layout!(({100usize},{30usize}):(1,{100usize})));
    /// let p = a.predicated();
    /// assert!(p.inside().is_ok());
    /// assert_eq!(p.identity_layout().to_string(), "(100,30):(_1@0,_1@1)");
    /// ```
    #[inline(always)]
    pub fn predicated(self) -> Predicated<E, Layout<S, D>, S, CoordLayout<S::Comps, Zero>> {
        let shape = self.shape();
        let id_layout = make_identity_tensor(shape).layout();
        let (engine, offset, layout) = self.into_parts();
        Predicated { engine, offset, layout, id_layout, bound: shape.as_coord(), _parent: PhantomData }
    }
}

impl<E: Engine, S: Congruent<D>, D: IntTuple, I: IdentityStride, C: IdentityView> Predicated<E, Layout<S, D>, I, C>
where
    I::Coord: ElemLess,
{
    /// The data view's layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = vec![0u8; 10 * 7];
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let t = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize));
    /// assert_eq!(t.layout().to_string(), "(_4,_4):(_1,10)");
    /// ```
    #[inline(always)]
    pub fn layout(&self) -> Layout<S, D> {
        self.layout
    }

    /// The identity view's layout: CuTe's basis layout of the identity
    /// tensor tiled and partitioned as this view (see [`CoordLayout`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = vec![0u8; 10 * 7];
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let t = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize));
    /// assert_eq!(t.identity_layout().to_string(), "(_4,_4):(_1@0,_1@1)");
    /// ```
    #[inline(always)]
    pub fn identity_layout(&self) -> C {
        self.id_layout
    }

    /// The shape of the view.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = vec![0u8; 10 * 7];
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let t = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize));
    /// assert_eq!(t.shape(), shape!(4, 4));
    /// ```
    #[inline(always)]
    pub fn shape(&self) -> S {
        self.layout.shape()
    }

    /// The number of coordinates of the view (inside the data or not).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = vec![0u8; 10 * 7];
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// assert_eq!(a.predicated().local_tile(shape!(4, 4), (2usize, 1usize)).size(), 16);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// The parent's coordinate of the element at `c`: CuTe's `cA(c)` for
    /// the identity tensor `cA` tiled as this view.
    ///
    /// # Panics
    ///
    /// When `c` is outside this view's shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = vec![0u8; 10 * 7];
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let t = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize));
    /// assert_eq!(t.coord((3usize, 1usize)), (11, 5));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn coord<K: Coord<S, D> + InDomain<S> + Copy>(&self, c: K) -> I::Coord
    where
        C: IdentityAt<K>,
    {
        if !c.inside(&self.layout.shape()) {
            domain_panic()
        }
        self.coord_unchecked(c)
    }

    /// The parent's coordinate at `c` (inside the view's shape).
    #[inline(always)]
    fn coord_unchecked<K>(&self, c: K) -> I::Coord
    where
        C: IdentityAt<K>,
    {
        I::from_entries(self.id_layout.coord_of(c).as_ref())
    }

    /// The storage index of the element at `c` when it exists: `c` inside
    /// the view's shape, its parent coordinate inside the parent's shape,
    /// and the index inside the storage.
    #[inline(always)]
    fn index_of<K: Coord<S, D> + InDomain<S> + Copy>(&self, c: K) -> Option<usize>
    where
        C: IdentityAt<K>,
    {
        if !c.inside(&self.layout.shape()) || !self.coord_unchecked(c).elem_less(&self.bound) {
            return None;
        }
        let i = c.offset_acc(&self.layout.shape(), &self.layout.stride(), self.offset);
        (i < self.engine.len()).then_some(i)
    }

    /// CuTe's predicate `elem_less(cA(c), shape(A))`: whether the element
    /// at `c` exists (is inside the parent tensor). `false` outside the
    /// view's shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data = vec![0u8; 10 * 7];
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let t = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize));
    /// assert!(t.is_inside((1usize, 2usize)));
    /// assert!(!t.is_inside((1usize, 3usize)));     // column 7
    /// ```
    #[inline(always)]
    pub fn is_inside<K: Coord<S, D> + InDomain<S> + Copy>(&self, c: K) -> bool
    where
        C: IdentityAt<K>,
    {
        self.index_of(c).is_some()
    }

    /// The ordinary tensor when the whole view lies inside the parent
    /// (an interior tile), else the view back: one check for the view,
    /// after which access is unchecked.
    ///
    /// Post-condition: `Ok(t)` exactly when every coordinate of the view is
    /// inside the parent; then `t[c]` is the element `get(c)` gives.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<i32> = (0..70).collect();
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let p = a.predicated();
    /// let t = p.local_tile(shape!(4, 4), (1usize, 0usize)).inside().unwrap();   // rows 4..8, columns 0..4
    /// assert_eq!(t[(0usize, 1usize)], 14);
    /// assert!(p.local_tile(shape!(4, 4), (2usize, 0usize)).inside().is_err()); // rows 8..12
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn inside(self) -> Result<Tensor<E, Layout<S, D>>, Self>
    where
        S: OffsetRange<D>,
    {
        if self.whole_inside() {
            Ok(Tensor::from_parts_checked(self.engine, self.offset, self.layout))
        } else {
            Err(self)
        }
    }

    /// Whether every coordinate of the view is inside the parent and every
    /// offset inside the storage (see [`inside`](Predicated::inside)).
    #[inline(always)]
    fn whole_inside(&self) -> bool
    where
        S: OffsetRange<D>,
    {
        // The largest identity coordinate (positive strides: at the
        // largest coordinate of every mode) inside the parent's shape.
        I::from_entries(self.id_layout.max_entries().as_ref()).elem_less(&self.bound)
            && check_fits("a predicated view", &self.layout, self.offset, self.engine.len()).is_ok()
    }

    /// Whether no coordinate of the view is inside the parent: its origin
    /// (the smallest coordinate of every mode, the identity strides being
    /// positive) is past the parent's shape in some mode.
    #[inline(always)]
    fn wholly_outside(&self) -> bool {
        !I::from_entries(self.id_layout.origin_entries().as_ref()).elem_less(&self.bound)
    }

    /// The tensor of a view that [`whole_inside`](Predicated::whole_inside)
    /// found inside (the caller checked it).
    #[inline(always)]
    fn inside_unchecked(self) -> Tensor<E, Layout<S, D>> {
        Tensor::from_parts_checked(self.engine, self.offset, self.layout)
    }

    /// The same view over the storage `engine` (a borrow of this view's).
    #[inline(always)]
    fn over<E2>(&self, engine: E2) -> Predicated<E2, Layout<S, D>, I, C> {
        Predicated {
            engine,
            offset: self.offset,
            layout: self.layout,
            id_layout: self.id_layout,
            bound: self.bound,
            _parent: PhantomData,
        }
    }

    /// The same view of the part of the tensor at `(layout, id_layout)`.
    #[inline(always)]
    fn with<L2, C2>(self, (layout, off): (L2, usize), id_layout: C2) -> Predicated<E, L2, I, C2> {
        Predicated {
            engine: self.engine,
            offset: self.offset.wrapping_add(off),
            layout,
            id_layout,
            bound: self.bound,
            _parent: PhantomData,
        }
    }

    /// Slicing with `_` ([`Tensor::slice`]), of the data and the identity
    /// view alike.
    ///
    /// # Panics
    ///
    /// When a fixed entry of `coord` is outside its mode.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<i32> = (0..70).collect();
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let ga = a.predicated().local_tile(shape!(4, 4), crd!(2usize, _));  // (4,4,2): rows 8..12, all k-tiles
    /// let last = ga.slice(crd!(_, _, 1usize));                            // columns 4..8
    /// assert_eq!(last.get((1usize, 2usize)), Some(&69));
    /// assert_eq!(last.get((1usize, 3usize)), None);
    /// ```
    #[inline(always)]
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn slice<K>(self, coord: K) -> Predicated<E, <Layout<S, D> as Slice<K>>::Output, I, <C as SliceBy<K>>::Output>
    where
        K: InDomain<S> + Copy,
        Layout<S, D>: Slice<K>,
        C: SliceBy<K>,
    {
        if !coord.inside(&self.layout.shape()) {
            domain_panic()
        }
        let data = self.layout.slice_wrapping(coord);
        let Some((id, _)) = self.id_layout.slice_by(coord) else { domain_panic() };
        self.with(data, id)
    }

    /// [`local_tile`](crate::local_tile) of the view: the tile at `coord`,
    /// which may overhang.
    ///
    /// # Panics
    ///
    /// When `coord` is outside the tiled rest mode.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let (m, n) = (1000usize, 333usize);
    /// let data = vec![1.0f32; m * n];
    /// let a = make_tensor(&data[..], layout!(({m},{n}):(1,{m})));
    /// let edge = a.predicated().local_tile(shape!(128, 8), (7usize, 41usize)); // rows 896..1024, columns 328..336
    /// assert_eq!(edge.coord((103usize, 4usize)), (999, 332));
    /// assert!(edge.is_inside((103usize, 4usize)) && !edge.is_inside((104usize, 4usize)));
    /// ```
    #[inline(always)]
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn local_tile<T: Copy + TilerFits<Layout<S, D>>, K: Copy>(
        self,
        tiler: T,
        coord: K,
    ) -> Predicated<E, <Layout<S, D> as Partition<T, K, Inner>>::Output, I, <C as Partition<T, K, Inner>>::Output>
    where
        Layout<S, D>: Partition<T, K, Inner> + Copy,
        C: Partition<T, K, Inner> + Copy,
    {
        self.part::<T, K, Inner>(tiler, coord)
    }

    /// [`local_tile_proj`](crate::local_tile_proj) of the view (a tiler
    /// and coordinate with the modes where `proj` has [`X`](crate::X) left
    /// out).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let (m, k) = (100usize, 30usize);
    /// let a = vec![0f32; m * k];
    /// let ma = make_tensor(&a[..], layout!(({m},{k}):(1,{m})));
    /// let ga = ma.predicated().local_tile_proj(
    ///     shape!(32, 64, 8),
    ///     crd!(3usize, 0usize, _),
    ///     (Int::<1>::new(), X, Int::<1>::new()),
    /// );
    /// assert_eq!(ga.layout().to_string(), "(_32,_8,4):(_1,100,800)");   // (BLK_M,BLK_K,k)
    /// assert!(!ga.is_inside((4usize, 0usize, 0usize)));                 // row 100
    /// ```
    #[inline(always)]
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn local_tile_proj<T: Dice<P>, K: Dice<P>, P>(
        self,
        tiler: T,
        coord: K,
        proj: P,
    ) -> Predicated<
        E,
        <Layout<S, D> as Partition<T::Output, K::Output, Inner>>::Output,
        I,
        <C as Partition<T::Output, K::Output, Inner>>::Output,
    >
    where
        T::Output: Copy,
        K::Output: Copy,
        Layout<S, D>: Partition<T::Output, K::Output, Inner> + Copy,
        C: Partition<T::Output, K::Output, Inner> + Copy,
    {
        let _ = proj;
        self.part::<T::Output, K::Output, Inner>(tiler.dice(), coord.dice())
    }

    /// [`local_partition`](crate::local_partition) of the view: thread
    /// `idx`'s part, which may overhang.
    ///
    /// # Panics
    ///
    /// When `idx` is not below `size(thr)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<i32> = (0..70).collect();
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let tile = a.predicated().local_tile(shape!(8, 8), (1usize, 0usize));  // rows 8..16, columns 0..8
    /// let part = tile.local_partition(layout!((2,4):(1,2)), 5);             // thread (1,2)
    /// assert_eq!(part.layout().to_string(), "(_4,_2):(_2,40)");
    /// assert_eq!(part.get((0usize, 0usize)), Some(&29));                     // row 9, column 2
    /// assert_eq!(part.get((1usize, 0usize)), None);                          // row 11
    /// ```
    #[inline(always)]
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn local_partition<Thr: ThreadLayout>(
        self,
        thr: Thr,
        idx: usize,
    ) -> Predicated<
        E,
        <Layout<S, D> as Partition<Thr::Tiler, Thr::Coord, Outer>>::Output,
        I,
        <C as Partition<Thr::Tiler, Thr::Coord, Outer>>::Output,
    >
    where
        Layout<S, D>: Partition<Thr::Tiler, Thr::Coord, Outer> + Copy,
        C: Partition<Thr::Tiler, Thr::Coord, Outer> + Copy,
    {
        if idx >= thr.threads() {
            domain_panic()
        }
        self.part::<Thr::Tiler, Thr::Coord, Outer>(Thr::Tiler::default(), thr.coord(idx))
    }

    #[inline(always)]
    #[track_caller]
    #[allow(clippy::type_complexity)]
    fn part<T: Copy, K: Copy, W>(
        self,
        tiler: T,
        coord: K,
    ) -> Predicated<E, <Layout<S, D> as Partition<T, K, W>>::Output, I, <C as Partition<T, K, W>>::Output>
    where
        Layout<S, D>: Partition<T, K, W> + Copy,
        C: Partition<T, K, W> + Copy,
    {
        // No storage check: the view may overhang; its accesses are checked.
        let Some((data, off, _)) = self.layout.part(tiler, coord) else { domain_panic() };
        let Some((id, _, _)) = self.id_layout.part(tiler, coord) else { domain_panic() };
        self.with((data, off), id)
    }
}

impl<E: DataEngine, S: Congruent<D>, D: IntTuple, I: IdentityStride, C: IdentityView> Predicated<E, Layout<S, D>, I, C>
where
    I::Coord: ElemLess,
{
    /// The element at `c` when it exists (inside the view's shape and the
    /// parent's data), else `None`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<i32> = (0..70).collect();
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let t = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize));
    /// assert_eq!(t.get((0usize, 0usize)), Some(&48));
    /// assert_eq!(t.get((0usize, 3usize)), None);
    /// ```
    #[inline(always)]
    pub fn get<K: Coord<S, D> + InDomain<S> + Copy>(&self, c: K) -> Option<&E::Elem>
    where
        C: IdentityAt<K>,
    {
        let i = self.index_of(c)?;
        // SAFETY: `index_of` checked `i < len`; the engine's pointer is
        // valid for `len` reads (`DataEngine`).
        Some(unsafe { &*self.engine.as_ptr().add(i) })
    }

    /// This view, borrowed: the same view over `&[T]` for the borrow's
    /// life (to tile or partition it without giving it up).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<i32> = (0..70).collect();
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize}))).predicated();
    /// let t = a.view().local_tile(shape!(4, 4), (2usize, 1usize));
    /// assert_eq!(t.get((0usize, 0usize)), Some(&48));
    /// assert_eq!(a.size(), 70);                                    // `a` is still there
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn view(&self) -> Predicated<&[E::Elem], Layout<S, D>, I, C> {
        // SAFETY: the engine contract: `as_ptr` is valid for `len` reads
        // while `self` is borrowed.
        let data = unsafe { core::slice::from_raw_parts(self.engine.as_ptr(), self.engine.len()) };
        self.over(data)
    }

    /// Copies the view into `dst` (of the same shape), writing `fill`
    /// where the element does not exist: CuTe's `copy_if(pred, src, dst)`
    /// after `clear(dst)`, the usual load of an edge tile into a zeroed
    /// shared tile or fragment.
    ///
    /// Post-condition: for every integral coordinate `i` of the view,
    /// `dst[i]` is `self.get(i)` or `fill` where that is `None`.
    ///
    /// # Panics
    ///
    /// When `dst` has fewer elements than the view.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let data: Vec<i32> = (0..70).collect();
    /// let a = make_tensor(&data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let t = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize));
    /// let mut f = make_fragment_like::<i32, _>(&t);
    /// t.copy_to(&mut f, -1);
    /// assert_eq!((f[(1usize, 2usize)], f[(2usize, 0usize)]), (69, -1));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn copy_to<W: WriteTensor<Elem = E::Elem>>(&self, dst: &mut W, fill: E::Elem)
    where
        E::Elem: Copy,
        S: OffsetRange<D>,
        C: IdentityAt<usize>,
    {
        let n = self.size();
        if dst.layout().size() < n {
            domain_panic()
        }
        let mut v = dst.view_mut();
        if self.whole_inside() {
            // A part inside the matrix (most parts of an edge tile): one
            // check, then the unchecked copy.
            let t = self.view().inside_unchecked();
            for i in 0..n {
                *v.write(i) = *t.at(i);
            }
            return;
        }
        if self.wholly_outside() {
            // A part past the edge: nothing to read.
            for i in 0..n {
                *v.write(i) = fill;
            }
            return;
        }
        for i in 0..n {
            *v.write(i) = match self.get(i) {
                Some(x) => *x,
                None => fill,
            };
        }
    }
}

impl<E: DataEngineMut, S: Congruent<D>, D: IntTuple, I: IdentityStride, C: IdentityView>
    Predicated<E, Layout<S, D>, I, C>
where
    I::Coord: ElemLess,
{
    /// The element at `c` when it exists, mutably.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = vec![0i32; 70];
    /// let a = make_tensor(&mut data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let mut t = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize));
    /// *t.get_mut((1usize, 2usize)).unwrap() = 5;
    /// assert!(t.get_mut((2usize, 2usize)).is_none());
    /// assert_eq!(data[9 + 60], 5);
    /// ```
    #[inline(always)]
    pub fn get_mut<K: Coord<S, D> + InDomain<S> + Copy>(&mut self, c: K) -> Option<&mut E::Elem>
    where
        C: IdentityAt<K>,
    {
        let i = self.index_of(c)?;
        // SAFETY: `index_of` checked `i < len`; the engine's pointer is
        // valid for `len` writes and borrowed mutably with `self`
        // (`DataEngineMut`).
        Some(unsafe { &mut *self.engine.as_mut_ptr().add(i) })
    }

    /// This view, borrowed mutably: the same view over `&mut [T]` for the
    /// borrow's life (to partition it among threads one at a time).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = vec![0i32; 70];
    /// let mut a = make_tensor(&mut data[..], layout!(({10usize},{7usize}):(1,{10usize}))).predicated();
    /// for tid in 0..4 {
    ///     a.view_mut()
    ///         .local_tile(shape!(4, 4), (2usize, 1usize))
    ///         .local_partition(layout!((2,2):(1,2)), tid)
    ///         .fill(tid as i32 + 1);
    /// }
    /// assert_eq!((data[8 + 40], data[9 + 40], data[8 + 50]), (1, 2, 3));
    /// ```
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn view_mut(&mut self) -> Predicated<&mut [E::Elem], Layout<S, D>, I, C> {
        // SAFETY: the engine contract, with `&mut self` exclusive.
        let data = unsafe { core::slice::from_raw_parts_mut(self.engine.as_mut_ptr(), self.engine.len()) };
        self.over(data)
    }

    /// Copies `src` (of the same shape) into the elements of the view
    /// that exist, leaving the rest alone: the store of an edge tile of
    /// the result (CuTe's `copy_if` with the predicate of the view).
    ///
    /// Post-condition: for every integral coordinate `i` of the view where
    /// the element exists, it is `src[i]`; nothing else is written.
    ///
    /// # Panics
    ///
    /// When `src` has fewer elements than the view.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = vec![0i32; 70];
    /// let a = make_tensor(&mut data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// let mut t = a.predicated().local_tile(shape!(4, 4), (2usize, 1usize));
    /// let ones = [1i32; 16];
    /// t.copy_from(&make_tensor(&ones[..], layout!((4,4):(1,4))));
    /// assert_eq!(data.iter().sum::<i32>(), 2 * 3);                    // rows 8..10, columns 4..7
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn copy_from<R: ReadTensor<Elem = E::Elem>>(&mut self, src: &R)
    where
        E::Elem: Copy,
        S: OffsetRange<D>,
        C: IdentityAt<usize>,
    {
        let n = self.size();
        if src.layout().size() < n {
            domain_panic()
        }
        let v = src.view();
        if self.whole_inside() {
            // As in `copy_to`: one check for a part inside the matrix.
            let mut t = self.view_mut().inside_unchecked();
            for i in 0..n {
                *t.at_mut(i) = *v.read(i);
            }
            return;
        }
        if self.wholly_outside() {
            return;
        }
        for i in 0..n {
            if let Some(x) = self.get_mut(i) {
                *x = *v.read(i);
            }
        }
    }

    /// Writes `v` into the elements of the view that exist (CuTe's
    /// `fill` under the view's predicate).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut data = vec![0i32; 70];
    /// let a = make_tensor(&mut data[..], layout!(({10usize},{7usize}):(1,{10usize})));
    /// a.predicated().local_tile(shape!(4, 4), (2usize, 1usize)).fill(1);
    /// assert_eq!(data.iter().sum::<i32>(), 6);
    /// ```
    #[inline(always)]
    pub fn fill(mut self, v: E::Elem)
    where
        E::Elem: Copy,
        C: IdentityAt<usize>,
    {
        for i in 0..self.size() {
            if let Some(x) = self.get_mut(i) {
                *x = v;
            }
        }
    }
}
