//! The layout of identity tensors: CuTe's scaled-basis strides (`_1@0`,
//! `_8@1`), kept as one integer layout per coordinate mode.
//!
//! # Design
//!
//! CuTe's identity tensor is `make_identity_layout(shape)`, whose strides
//! are the bases `E<i>`; the algebra only multiplies such strides by
//! integers and adds them, so a view's coordinate `k` is itself an integer
//! layout: the layout of the same shape whose stride at each leaf is the
//! `k`-th entry of the basis stride (its scale where the basis is `E<k>`,
//! 0 elsewhere). [`CoordLayout`] keeps those `R` component layouts (one
//! shape, `R` integer stride trees) and the view's origin (a coordinate),
//! and every operation is the ordinary integer operation applied to each
//! component. Why this and not a basis leaf type inside [`Layout`]: the
//! integer algebra, static and run-time, stays exactly as it is (no solver
//! branch learns about bases), a coordinate is `R` machine words, so every
//! extent up to `i64` works at any rank (the bit-packed encoding this
//! replaces gave rank 3 below 2^19), and a static shape gives zero-sized
//! components.
//!
//! Where components could disagree: composition coalesces its left side,
//! and a component merges two neighbouring leaves that both have stride 0
//! in it (leaves of other coordinate modes) where the basis strides would
//! not. Every leaf merge that all components make is one that the basis
//! strides make (a merge `s·d = d'` in the component of `d`'s own mode, and
//! a zero stride there for no other), so when the components' results have
//! the same shape, that shape is CuTe's. Every operation therefore requires
//! the components' result shapes to be one type (a compile error
//! otherwise, never a different structure); the by-mode tilers of
//! `local_tile` and `local_partition` never split a mode across
//! coordinate modes, so they always pass, and so do the partitions of
//! tiled MMAs and tiled copies checked against CuTe in
//! `cute-static/tests/identity.rs`.
//!
//! Size-1 modes: CuTe makes a tiler's static extent 1 the layout `_1:_0`
//! (stride 0, printed `_0`), the integer algebra here `1:1` (the same
//! coordinates); a static view is tiled with `_1:_0` there
//! ([`CuteTiler`]), so it prints as CuTe's (see docs/architecture.md,
//! section 5, for the cases that still keep the component's stride).

use crate::coord::Coord;
pub use crate::detail::{ByComponent, Ints, LayoutKind};
use crate::int_tuple::StaticIntTuple;
use crate::int_tuple::{IntTuple, Leaf};
use crate::layout::ShapeLeaf;
use crate::layout::{Congruent, Layout};
use crate::slice::SliceBy;
use crate::tensor::{Engine, OffsetRange, Tensor, domain_panic};
use core::fmt;
use core::marker::PhantomData;
use typenum::{B0, B1};

/// The origin of a fresh identity tensor ([`make_identity_tensor`]): the
/// coordinate 0, zero-sized. A view of one (a tile, a partition) has an
/// origin of `[usize; R]` instead; both are [`Origin`]s.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{CoordLayout, IdentityView, Zero};
/// let l: CoordLayout<_, Zero> = make_identity_tensor(shape!(4, 8)).layout();
/// assert_eq!(l.origin_entries(), [0, 0]);
/// assert_eq!(core::mem::size_of_val(&l), 0); // static shape, origin 0: nothing stored
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Zero;

/// The origin of a [`CoordLayout`], the coordinate its view starts at: a
/// coordinate of `R` entries, [`Zero`] (a fresh identity tensor) or
/// `[usize; R]` (a view of one). Generic code over identity views of rank
/// `R` bounds the origin type by it, to call [`CoordLayout::coord`].
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{CoordLayout, Origin};
/// // Where a rank-2 identity view starts, fresh or a tile of one.
/// fn start<Sh: IntTuple + Congruent<D0> + Congruent<D1>, D0: IntTuple, D1: IntTuple, O: Origin<2>>(
///     l: CoordLayout<(Layout<Sh, D0>, Layout<Sh, D1>), O>,
/// ) -> [usize; 2] {
///     l.coord(0usize)
/// }
/// let id = make_identity_tensor(shape!(8, 8));
/// assert_eq!(start(id.layout()), [0, 0]);
/// assert_eq!(start(local_tile(id, shape!(2, 4), (3usize, 1usize)).layout()), [6, 4]);
/// ```
pub trait Origin<const R: usize>: Copy {
    /// The entries.
    #[doc(hidden)]
    fn get(&self) -> [usize; R];
}
impl<const R: usize> Origin<R> for Zero {
    #[inline(always)]
    fn get(&self) -> [usize; R] {
        [0; R]
    }
}
impl<const R: usize> Origin<R> for [usize; R] {
    #[inline(always)]
    fn get(&self) -> [usize; R] {
        *self
    }
}

/// The layout of an identity tensor or of a view of one: CuTe's layout
/// with scaled-basis strides (`(_128,_8):(_1@0,_1@1)`), as `R` integer
/// layouts of one shape (`C`, a tuple of [`Layout`]s: coordinate `k` of
/// the element at `c` is the `k`-th one's offset of `c`) and the view's
/// origin `O` (see the design note of `coord_layout.rs`). Made by
/// [`make_identity_tensor`](crate::make_identity_tensor); tiled, sliced
/// and partitioned as the tensor is.
///
/// Post-conditions: it prints as CuTe prints the basis layout (a stride
/// `k@i` where component `i` has the integer `k` and the others 0, `_0`
/// where every component is 0); [`CoordLayout::coord`] of `c` is the
/// origin plus each component's offset of `c`.
///
/// ```
/// use cute_static::prelude::*;
/// let id = make_identity_tensor(make_shape((1000usize, 333usize)));
/// assert_eq!(id.layout().to_string(), "(1000,333):(_1@0,_1@1)");
/// let t = local_tile(id, shape!(128, 8), (2usize, __));
/// assert_eq!(t.layout().to_string(), "(_128,_8,42):(_1@0,_1@1,_8@1)");
/// assert_eq!(t.at((5usize, 6usize, 3usize)), (261, 30));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoordLayout<C, O> {
    comps: C,
    origin: O,
}

impl<C: Copy> CoordLayout<C, Zero> {
    /// The layout of an identity tensor with these components.
    #[inline(always)]
    pub(crate) fn fresh(comps: C) -> Self {
        CoordLayout { comps, origin: Zero }
    }
}

/// The shape of a layout, as a type (what the operations compare across
/// components).
#[doc(hidden)]
pub trait ShapeOf {
    /// The shape tree.
    type Shape;
}
impl<S, D> ShapeOf for Layout<S, D> {
    type Shape = S;
}

/// The stride leaves of a tree, left to right, as `(value, static)`.
#[doc(hidden)]
pub trait StrideLeaves {
    /// Appends the leaves to `out[*n..]` (dropped past its end).
    fn leaves(&self, out: &mut [(i64, bool)], n: &mut usize);
}
impl<L: Leaf + IntTuple> StrideLeaves for L {
    #[inline]
    fn leaves(&self, out: &mut [(i64, bool)], n: &mut usize) {
        if let Some(slot) = out.get_mut(*n) {
            *slot = (self.signed(), L::STATIC.is_some());
        }
        *n += 1;
    }
}

/// A tree written with its leaves given one by one (the stride of a
/// [`CoordLayout`] in the shape's structure).
#[doc(hidden)]
pub trait TreeFmt {
    /// Writes the tree, each leaf by `leaf`.
    fn fmt_tree(
        &self,
        f: &mut fmt::Formatter<'_>,
        leaf: &mut dyn FnMut(&mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result;
}
impl<L: Leaf> TreeFmt for L {
    fn fmt_tree(
        &self,
        f: &mut fmt::Formatter<'_>,
        leaf: &mut dyn FnMut(&mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result {
        leaf(f)
    }
}

/// The most stride leaves [`CoordLayout`]'s `Display` writes per component.
const PRINT_LEAVES: usize = 64;

macro_rules! coord_tuple {
    ($($i:tt $A:ident $S:ident $D:ident),+) => {
        impl<$($A: TreeFmt),+> TreeFmt for ($($A,)+) {
            fn fmt_tree(
                &self,
                f: &mut fmt::Formatter<'_>,
                leaf: &mut dyn FnMut(&mut fmt::Formatter<'_>) -> fmt::Result,
            ) -> fmt::Result {
                f.write_str("(")?;
                $(
                    if $i > 0 { f.write_str(",")?; }
                    self.$i.fmt_tree(f, leaf)?;
                )+
                f.write_str(")")
            }
        }
        impl<$($A: StrideLeaves),+> StrideLeaves for ($($A,)+) {
            #[inline]
            fn leaves(&self, out: &mut [(i64, bool)], n: &mut usize) {
                $( self.$i.leaves(out, n); )+
            }
        }

        impl<Sh: IntTuple, $($D: IntTuple,)+ O: Origin<{ 0 $(+ coord_tuple!(@one $i))+ }>>
            CoordLayout<($(Layout<Sh, $D>,)+), O>
        where
            $(Sh: Congruent<$D>,)+
        {
            /// The shape (every component's).
            ///
            /// ```
            /// use cute_static::prelude::*;
            /// let id = make_identity_tensor(shape!(4, 8));
            /// assert_eq!(id.layout().shape(), shape!(4, 8));
            /// ```
            #[inline(always)]
            pub fn shape(&self) -> Sh {
                self.comps.0.shape()
            }

            /// The number of coordinates (the size of the shape).
            ///
            /// ```
            /// use cute_static::prelude::*;
            /// let id = make_identity_tensor(shape!(4, 8));
            /// assert_eq!(id.layout().size(), 32);
            /// ```
            #[inline(always)]
            pub fn size(&self) -> usize {
                self.comps.0.size()
            }

            /// The coordinate that this layout maps `c` to (no check that
            /// `c` is inside the shape): entry `k` is the origin's plus the
            /// offset of `c` in component `k`.
            ///
            /// ```
            /// use cute_static::prelude::*;
            /// let id = make_identity_tensor(shape!(4, 8));
            /// assert_eq!(id.layout().coord(9usize), [1, 2]);
            /// ```
            #[inline(always)]
            pub fn coord<K: Copy $(+ Coord<Sh, $D>)+>(&self, c: K) -> [usize; 0 $(+ coord_tuple!(@one $i))+] {
                let o = self.origin.get();
                [$( c.offset_acc(&self.comps.$i.shape(), &self.comps.$i.stride(), o[$i]), )+]
            }
        }

        impl<Sh: IntTuple + TreeFmt, $($D: IntTuple + StrideLeaves,)+ O> fmt::Display
            for CoordLayout<($(Layout<Sh, $D>,)+), O>
        where
            $(Sh: Congruent<$D>,)+
        {
            /// CuTe's print of the basis layout: `shape:stride`, a stride
            /// leaf `k@i` (`_k@i` when static) where component `i` has `k`
            /// and the others 0, `_0` where all are 0.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut leaves = [[(0i64, true); PRINT_LEAVES]; 0 $(+ coord_tuple!(@one $i))+];
                $( let mut n = 0; self.comps.$i.stride().leaves(&mut leaves[$i], &mut n); )+
                let shape = self.comps.0.shape();
                shape.fmt_cute(f)?;
                f.write_str(":")?;
                let mut j = 0usize;
                shape.fmt_tree(f, &mut |f| {
                    let at = j;
                    j += 1;
                    let mut out = None;
                    for (k, comp) in leaves.iter().enumerate() {
                        match comp.get(at) {
                            Some(&(v, st)) if v != 0 => {
                                if out.is_some() {
                                    return Err(fmt::Error);
                                }
                                out = Some((v, st, k));
                            }
                            _ => {}
                        }
                    }
                    match out {
                        Some((v, st, k)) => write!(f, "{}{v}@{k}", if st { "_" } else { "" }),
                        None => f.write_str("_0"),
                    }
                })
            }
        }

        impl<K: Copy, Sh0, O: Origin<{ 0 $(+ coord_tuple!(@one $i))+ }>, $($D,)+ $($S,)+>
            SliceBy<K> for CoordLayout<($(Layout<$S, $D>,)+), O>
        where
            $( Layout<$S, $D>: SliceBy<K>, <Layout<$S, $D> as SliceBy<K>>::Output: ShapeOf<Shape = Sh0>, )+
        {
            type Output = CoordLayout<($(<Layout<$S, $D> as SliceBy<K>>::Output,)+), [usize; 0 $(+ coord_tuple!(@one $i))+]>;
            #[inline(always)]
            fn slice_by(&self, c: K) -> Option<(Self::Output, usize)> {
                let o = self.origin.get();
                let parts = ($( self.comps.$i.slice_by(c)?, )+);
                Some((CoordLayout { comps: ($(parts.$i.0,)+), origin: [$( o[$i].wrapping_add(parts.$i.1), )+] }, 0))
            }
        }

        #[cfg(feature = "std")]
        impl<T: Copy, K: Copy, W, Sh0, O: Origin<{ 0 $(+ coord_tuple!(@one $i))+ }>, $($D,)+ $($S,)+>
            crate::partition::traits::PartitionBy<T, K, W, ByComponent> for CoordLayout<($(Layout<$S, $D>,)+), O>
        where
            Layout<S0, D0>: crate::int_tuple::AllStatic,
            T: CuteTiler<StaticBit<S0, D0>>,
            $(
                Layout<$S, $D>: crate::partition::traits::Partition<T::Out, K, W>,
                <Layout<$S, $D> as crate::partition::traits::Partition<T::Out, K, W>>::Output: ShapeOf<Shape = Sh0>,
            )+
        {
            type Output = CoordLayout<
                ($(<Layout<$S, $D> as crate::partition::traits::Partition<T::Out, K, W>>::Output,)+),
                [usize; 0 $(+ coord_tuple!(@one $i))+],
            >;
            #[inline(always)]
            fn part_by(self, t: T, c: K) -> Option<(Self::Output, usize, bool)> {
                use crate::partition::traits::Partition;
                let t = t.cute_tiler();
                let o = self.origin.get();
                let parts = ($( self.comps.$i.part(t, c)?, )+);
                Some((
                    CoordLayout { comps: ($(parts.$i.0,)+), origin: [$( o[$i].wrapping_add(parts.$i.1), )+] },
                    0,
                    true,
                ))
            }
        }

        impl<Sh: IntTuple, $($D: IntTuple,)+ O: Origin<{ 0 $(+ coord_tuple!(@one $i))+ }>> IdentityView
            for CoordLayout<($(Layout<Sh, $D>,)+), O>
        where
            $(Sh: Congruent<$D> + OffsetRange<$D>,)+
        {
            type Shape = Sh;
            type Entries = [usize; 0 $(+ coord_tuple!(@one $i))+];
            #[inline(always)]
            fn origin_entries(&self) -> Self::Entries {
                self.origin.get()
            }
            #[inline(always)]
            fn max_entries(&self) -> Self::Entries {
                let o = self.origin.get();
                [$( o[$i].wrapping_add(self.comps.$i.shape().range(&self.comps.$i.stride()).1 as usize), )+]
            }
            #[inline(always)]
            fn view_shape(&self) -> Sh {
                self.shape()
            }
            #[inline(always)]
            fn view_size(&self) -> usize {
                self.size()
            }
        }
        impl<
            K: Copy + crate::slice::InDomain<Sh> $(+ Coord<Sh, $D>)+,
            Sh: IntTuple,
            $($D: IntTuple,)+
            O: Origin<{ 0 $(+ coord_tuple!(@one $i))+ }>,
        > IdentityAt<K> for CoordLayout<($(Layout<Sh, $D>,)+), O>
        where
            $(Sh: Congruent<$D> + OffsetRange<$D>,)+
        {
            #[inline(always)]
            fn coord_at(&self, c: K) -> Option<Self::Entries> {
                if c.inside(&self.shape()) { Some(self.coord(c)) } else { None }
            }
            #[inline(always)]
            fn coord_of(&self, c: K) -> Self::Entries {
                self.coord(c)
            }
        }

        #[cfg(feature = "std")]
        impl<Sh0, O: Copy, $($D,)+ $($S,)+ Op, T: CuteTiler<StaticBit<S0, D0>>> CoordOp<Op, T>
            for CoordLayout<($(Layout<$S, $D>,)+), O>
        where
            Layout<S0, D0>: crate::int_tuple::AllStatic,
            $(
                Layout<$S, $D>: ApplyOp<Op, T::Out>,
                <Layout<$S, $D> as ApplyOp<Op, T::Out>>::Output: ShapeOf<Shape = Sh0>,
            )+
        {
            type Output = CoordLayout<($(<Layout<$S, $D> as ApplyOp<Op, T::Out>>::Output,)+), O>;
            #[inline(always)]
            #[track_caller]
            fn coord_op(self, t: T) -> Self::Output {
                let t = t.cute_tiler();
                CoordLayout { comps: ($( self.comps.$i.apply(t), )+), origin: self.origin }
            }
        }

        #[cfg(feature = "std")]
        impl<Sh0, O: Origin<{ 0 $(+ coord_tuple!(@one $i))+ }>, $($D,)+ $($S,)+ PP, PQ, AP, AQ, Tv, TP, TQ>
            crate::mma_atom::PermutedPartition<ByComponent, PP, PQ, AP, AQ, Tv, TP, TQ>
            for CoordLayout<($(Layout<$S, $D>,)+), O>
        where
            $(
                Layout<$S, $D>: crate::mma_atom::PermutedPartition<Ints, PP, PQ, AP, AQ, Tv, TP, TQ>,
                <Layout<$S, $D> as crate::mma_atom::PermutedPartition<Ints, PP, PQ, AP, AQ, Tv, TP, TQ>>::Val:
                    ShapeOf<Shape = Sh0>,
            )+
        {
            type Val = CoordLayout<
                ($(<Layout<$S, $D> as crate::mma_atom::PermutedPartition<Ints, PP, PQ, AP, AQ, Tv, TP, TQ>>::Val,)+),
                [usize; 0 $(+ coord_tuple!(@one $i))+],
            >;
            /// Each component's part; the part's origin is this origin
            /// plus each component's offset of the thread.
            #[inline(always)]
            #[track_caller]
            fn permuted_part(self, v: usize, p: usize, q: usize) -> (usize, Self::Val) {
                use crate::mma_atom::PermutedPartition;
                let o = self.origin.get();
                let parts = ($( PermutedPartition::<Ints, PP, PQ, AP, AQ, Tv, TP, TQ>::permuted_part(self.comps.$i, v, p, q), )+);
                (0, CoordLayout { comps: ($(parts.$i.1,)+), origin: [$( o[$i].wrapping_add(parts.$i.0), )+] })
            }
        }

        #[cfg(feature = "std")]
        impl<Sh0, O: Origin<{ 0 $(+ coord_tuple!(@one $i))+ }>, $($D,)+ $($S,)+ T, Tv, NT, W, R2t>
            crate::copy_atom::CopyPartition<ByComponent, T, Tv, NT, W, R2t>
            for CoordLayout<($(Layout<$S, $D>,)+), O>
        where
            $(
                Layout<$S, $D>: crate::copy_atom::CopyPartition<Ints, T, Tv, NT, W, R2t>,
                <Layout<$S, $D> as crate::copy_atom::CopyPartition<Ints, T, Tv, NT, W, R2t>>::Val: ShapeOf<Shape = Sh0>,
            )+
        {
            type Val = CoordLayout<
                ($(<Layout<$S, $D> as crate::copy_atom::CopyPartition<Ints, T, Tv, NT, W, R2t>>::Val,)+),
                [usize; 0 $(+ coord_tuple!(@one $i))+],
            >;
            /// Each component's part, as for a tiled MMA.
            #[inline(always)]
            #[track_caller]
            fn copy_part(self, tid: usize) -> (usize, Self::Val) {
                use crate::copy_atom::CopyPartition;
                let o = self.origin.get();
                let parts = ($( CopyPartition::<Ints, T, Tv, NT, W, R2t>::copy_part(self.comps.$i, tid), )+);
                (0, CoordLayout { comps: ($(parts.$i.1,)+), origin: [$( o[$i].wrapping_add(parts.$i.0), )+] })
            }
        }

        #[cfg(feature = "std")]
        impl<$($D: Copy,)+ $($S: Copy,)+ O: Copy> crate::mma_atom::AtomOperand
            for CoordLayout<($(Layout<$S, $D>,)+), O>
        where
            Layout<S0, D0>: crate::mma_atom::AtomOperand,
        {
            /// The shape's, as the integer layouts'.
            #[inline(always)]
            fn dims(&self) -> (usize, usize, usize) {
                self.comps.0.dims()
            }
            /// An identity view has no storage: no offset (a tiled MMA's
            /// `gemm` never reads one: its engine holds no data).
            #[inline(always)]
            fn at(&self, _: usize, _: usize) -> usize {
                0
            }
            #[inline(always)]
            fn values_contiguous(&self) -> bool {
                false
            }
        }

        #[cfg(feature = "std")]
        impl<$($D,)+ $($S,)+ O> crate::mma_atom::IndexOf for CoordLayout<($(Layout<$S, $D>,)+), O> {
            /// An identity view has no storage: no offset (a tiled copy's
            /// `copy` never reads one).
            #[inline(always)]
            fn index_of(&self, _: usize) -> usize {
                0
            }
        }

        #[cfg(feature = "std")]
        impl<T: crate::partition::traits::TilerFits<Layout<S0, D0>>, $($D,)+ $($S,)+ O>
            crate::partition::traits::TilerFits<CoordLayout<($(Layout<$S, $D>,)+), O>> for T
        {
        }
    };
    (@one $i:tt) => { 1 };
}
for_each_tuple!(coord_tuple);

/// A [`CoordLayout`] whose components share one shape type: the layout of
/// an identity tensor or of a view of one (what [`make_identity_tensor`],
/// a tile or a partition of it gives). The bound of the view's
/// [`shape`](Tensor::shape) and [`size`](Tensor::size); `Shape` is the
/// shape.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{CoordLayout, Coords, IdentityStride, IdentityView};
/// fn shape_of<I: IdentityStride, C: Copy, O: Copy>(
///     t: &Tensor<Coords<I>, CoordLayout<C, O>>,
/// ) -> <CoordLayout<C, O> as IdentityView>::Shape
/// where
///     CoordLayout<C, O>: IdentityView,
/// {
///     t.shape()
/// }
/// assert_eq!(shape_of(&make_identity_tensor(shape!(4, 8))), shape!(4, 8));
/// ```
pub trait IdentityView: Copy {
    /// The shape.
    type Shape;
    /// A coordinate of the identity tensor: `[usize; R]`.
    type Entries: AsRef<[usize]>;
    /// The coordinate of the view's origin (at its coordinate 0).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::IdentityView;
    /// let id = make_identity_tensor(shape!(8, 8));
    /// assert_eq!(id.layout().origin_entries(), [0, 0]);
    /// let tile = local_tile(id, shape!(2, 4), (1usize, 1usize)); // rows 2..4, columns 4..8
    /// assert_eq!(tile.layout().origin_entries(), [2, 4]);
    /// ```
    fn origin_entries(&self) -> Self::Entries;
    /// The largest coordinate of the view in every mode (reached at its
    /// largest coordinate: an identity view's strides are not negative).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::IdentityView;
    /// let tile = local_tile(make_identity_tensor(shape!(8, 8)), shape!(2, 4), (1usize, 1usize));
    /// assert_eq!(tile.layout().max_entries(), [3, 7]); // rows 2..4, columns 4..8
    /// ```
    fn max_entries(&self) -> Self::Entries;
    /// The shape (what [`Tensor::shape`] returns for the view).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::IdentityView;
    /// let tile = local_tile(make_identity_tensor(shape!(8, 8)), shape!(2, 4), (1usize, 1usize));
    /// assert_eq!(tile.layout().view_shape(), shape!(2, 4));
    /// ```
    fn view_shape(&self) -> Self::Shape;
    /// The size of the shape (what [`Tensor::size`] returns for the view).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::IdentityView;
    /// let tile = local_tile(make_identity_tensor(make_shape((10usize, 8usize))), shape!(2, 4), (4usize, 1usize));
    /// assert_eq!(tile.layout().view_size(), 8);
    /// ```
    fn view_size(&self) -> usize;
}

/// A [`CoordLayout`] that takes the coordinate `K` (an integer, or a
/// coordinate congruent to its shape) to a coordinate of its identity
/// tensor: the bound of a coordinate tensor's [`at`](Tensor::at), and of a
/// [`Predicated`](crate::Predicated) view's checked access.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{CoordLayout, Coords, IdentityAt, IdentityStride};
/// // The coordinate of an identity view's last element.
/// fn last<I: IdentityStride, C: Copy, O: Copy>(t: &Tensor<Coords<I>, CoordLayout<C, O>>) -> I::Coord
/// where
///     CoordLayout<C, O>: IdentityAt<usize>,
/// {
///     t.at(t.size() - 1)
/// }
/// let id = make_identity_tensor(shape!(4, 8));
/// assert_eq!(last(&id), (3, 7));
/// assert_eq!(last(&local_tile(id, shape!(2, 4), (1usize, 0usize))), (3, 3));
/// ```
pub trait IdentityAt<K>: IdentityView {
    /// The entries; `None` when `c` is outside the shape.
    #[doc(hidden)]
    fn coord_at(&self, c: K) -> Option<Self::Entries>;
    /// The entries, `c` known to be inside the shape.
    #[doc(hidden)]
    fn coord_of(&self, c: K) -> Self::Entries;
}

/// An operation of the integer algebra on one component: `Op` is
/// [`ComposeOp`], [`LogicalDivideOp`], [`ZippedDivideOp`],
/// [`TiledDivideOp`] or [`FlatDivideOp`].
#[doc(hidden)]
#[cfg(feature = "std")]
pub trait ApplyOp<Op, T>: Sized {
    /// The component's result.
    type Output;
    /// The operation.
    fn apply(self, t: T) -> Self::Output;
}

/// A [`CoordLayout`] through an operation of the integer algebra, applied
/// to each component (an integer layout); the components' results must
/// have one shape, and the origin stays. `Op` is [`ComposeOp`],
/// [`LogicalDivideOp`], [`ZippedDivideOp`], [`TiledDivideOp`] or
/// [`FlatDivideOp`]: the bound of a coordinate tensor's
/// [`compose`](Tensor::compose), [`logical_divide`](Tensor::logical_divide),
/// ...; `Output` is the resulting view's layout.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{CoordLayout, CoordOp, Coords, IdentityStride, ZippedDivideOp};
/// fn tiles<I: IdentityStride, C, O, T>(
///     t: Tensor<Coords<I>, CoordLayout<C, O>>,
///     tiler: T,
/// ) -> Tensor<Coords<I>, <CoordLayout<C, O> as CoordOp<ZippedDivideOp, T>>::Output>
/// where
///     CoordLayout<C, O>: CoordOp<ZippedDivideOp, T>,
/// {
///     t.zipped_divide(tiler)
/// }
/// let z = tiles(make_identity_tensor(shape!(4, 6)), shape!(2, 3));
/// assert_eq!(z.layout().to_string(), "((_2,_3),(_2,_2)):((_1@0,_1@1),(_2@0,_3@1))");
/// ```
#[cfg(feature = "std")]
pub trait CoordOp<Op, T>: Sized {
    /// The view's layout.
    type Output;
    /// The operation, component by component.
    #[doc(hidden)]
    fn coord_op(self, t: T) -> Self::Output;
}

macro_rules! apply_op {
    ($($Op:ident: $Trait:ident, $How:ident, $f:ident, $out:literal;)+) => {$(
        #[doc = concat!("The operation [`", stringify!($f), "`](crate::", stringify!($f), "), as a [`CoordOp`] ")]
        #[doc = concat!("of coordinate tensors: its name in the bound of [`Tensor::", stringify!($f), "`].")]
        ///
        /// ```
        /// use cute_static::prelude::*;
        #[doc = concat!("use cute_static::{CoordLayout, CoordOp, Coords, IdentityStride, ", stringify!($Op), "};")]
        /// fn divide<I: IdentityStride, C, O, T>(
        ///     t: Tensor<Coords<I>, CoordLayout<C, O>>,
        ///     tiler: T,
        #[doc = concat!(") -> Tensor<Coords<I>, <CoordLayout<C, O> as CoordOp<", stringify!($Op), ", T>>::Output>")]
        /// where
        #[doc = concat!("    CoordLayout<C, O>: CoordOp<", stringify!($Op), ", T>,")]
        /// {
        #[doc = concat!("    t.", stringify!($f), "(tiler)")]
        /// }
        /// let d = divide(make_identity_tensor(shape!(4, 6)), shape!(2, 3));
        #[doc = concat!("assert_eq!(d.layout().to_string(), \"", $out, "\");")]
        /// ```
        #[derive(Clone, Copy, Debug, Default)]
        #[cfg(feature = "std")]
        pub struct $Op;
        #[cfg(feature = "std")]
        impl<S, D, T> ApplyOp<$Op, T> for Layout<S, D>
        where
            Layout<S, D>: crate::$Trait<T>,
            <Layout<S, D> as crate::$Trait<T>>::Output: crate::divide::DivideValue<crate::divide::$How, Layout<S, D>, T>,
        {
            type Output = <Layout<S, D> as crate::$Trait<T>>::Output;
            #[inline(always)]
            #[track_caller]
            fn apply(self, t: T) -> Self::Output {
                crate::$f(self, t)
            }
        }
    )+};
}
apply_op! {
    LogicalDivideOp: LogicalDivide, LogicalArr, logical_divide, "((_2,_2),(_3,_2)):((_1@0,_2@0),(_1@1,_3@1))";
    ZippedDivideOp: ZippedDivide, ZippedArr, zipped_divide, "((_2,_3),(_2,_2)):((_1@0,_1@1),(_2@0,_3@1))";
    TiledDivideOp: TiledDivide, TiledArr, tiled_divide, "((_2,_3),_2,_2):((_1@0,_1@1),_2@0,_3@1)";
    FlatDivideOp: FlatDivide, FlatArr, flat_divide, "(_2,_3,_2,_2):(_1@0,_1@1,_2@0,_3@1)";
}

/// The operation [`composition`](crate::composition), as a [`CoordOp`] of
/// coordinate tensors: its name in the bound of [`Tensor::compose`].
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{ComposeOp, CoordLayout, CoordOp, Coords, IdentityStride};
/// fn compose<I: IdentityStride, C, O, T>(
///     t: Tensor<Coords<I>, CoordLayout<C, O>>,
///     tiler: T,
/// ) -> Tensor<Coords<I>, <CoordLayout<C, O> as CoordOp<ComposeOp, T>>::Output>
/// where
///     CoordLayout<C, O>: CoordOp<ComposeOp, T>,
/// {
///     t.compose(tiler)
/// }
/// // Every other row and column: result.at(c) == id.at(tiler(c)).
/// let c = compose(make_identity_tensor(shape!(4, 6)), tile!(2:2, 3:2));
/// assert_eq!(c.layout().to_string(), "(_2,_3):(_2@0,_2@1)");
/// assert_eq!(c.at((1usize, 2usize)), (2, 4));
/// ```
#[derive(Clone, Copy, Debug, Default)]
#[cfg(feature = "std")]
pub struct ComposeOp;
#[cfg(feature = "std")]
impl<S, D, T> ApplyOp<ComposeOp, T> for Layout<S, D>
where
    Layout<S, D>: crate::Compose<T>,
    <Layout<S, D> as crate::Compose<T>>::Output: crate::ComposeValue<Layout<S, D>, T>,
{
    type Output = <Layout<S, D> as crate::Compose<T>>::Output;
    #[inline(always)]
    #[track_caller]
    fn apply(self, t: T) -> Self::Output {
        crate::composition(self, t)
    }
}

/// A tiler as CuTe makes it a layout before tiling an identity tensor
/// whose layout is static (`Bit` = `B1`): a static extent 1 is `_1:_0`
/// (CuTe's `make_layout(_1{})`, whose stride is 0), so that the tile's
/// size-1 mode prints `_0` as in CuTe; every other mode as it is. The
/// integer algebra of both crates reads the extent 1 as `1:1`, which gives
/// the same coordinates; with run-time extents (`B0`) the tiler stays as
/// it is (cute-static's run-time divides take tiles of non-zero stride).
#[doc(hidden)]
pub trait CuteTiler<Bit>: Copy {
    /// The tiler with `_1:_0` for every static 1.
    type Out: Copy;
    /// The tiler with `_1:_0` for every static 1.
    fn cute_tiler(self) -> Self::Out;
}
impl<T: Copy> CuteTiler<B0> for T {
    type Out = Self;
    #[inline(always)]
    fn cute_tiler(self) -> Self {
        self
    }
}
impl CuteTiler<B1> for typenum::U1 {
    type Out = Layout<typenum::U1, typenum::U0>;
    #[inline(always)]
    fn cute_tiler(self) -> Self::Out {
        Layout::from_checked(self, typenum::U0::new())
    }
}
macro_rules! cute_tiler_same {
    ($([$($g:tt)*] $T:ty),+) => {$(
        impl<$($g)*> CuteTiler<B1> for $T {
            type Out = Self;
            #[inline(always)]
            fn cute_tiler(self) -> Self {
                self
            }
        }
    )+};
}
cute_tiler_same!(
    [U: typenum::Unsigned + Copy, B: typenum::Bit + Copy, B2: typenum::Bit + Copy] typenum::UInt<typenum::UInt<U, B2>, B>,
    [S: Copy, D: Copy] Layout<S, D>,
    [T: Copy] crate::Tiler<T>,
    [] crate::Dyn,
    [] usize
);
macro_rules! cute_tiler_tuple {
    ($($i:tt $A:ident $S:ident $D:ident),+) => {
        impl<$($A: CuteTiler<B1>),+> CuteTiler<B1> for ($($A,)+) {
            type Out = ($($A::Out,)+);
            #[inline(always)]
            fn cute_tiler(self) -> Self::Out {
                ($( self.$i.cute_tiler(), )+)
            }
        }
    };
}
for_each_tuple!(cute_tiler_tuple);

/// `B1` when the layout is all-static.
#[cfg(feature = "std")]
type StaticBit<S, D> = <Layout<S, D> as crate::int_tuple::AllStatic>::Bit;

impl<C, O> LayoutKind for CoordLayout<C, O> {
    type Kind = ByComponent;
}

#[cfg(feature = "std")]
impl<C, O, T> crate::partition::traits::FlatCase<T> for CoordLayout<C, O> {
    type Bit = ByComponent;
}

#[cfg(feature = "std")]
impl<C: Copy, O: Copy> crate::partition::traits::Fits for CoordLayout<C, O> {
    /// An identity tensor has no storage: every coordinate exists.
    #[inline(always)]
    fn fits(&self, _: &'static str, _: usize, _: usize) -> Result<(), crate::OutOfStorage> {
        Ok(())
    }
}

// ------------------------------------------------------- identity tensors

/// The engine of an identity tensor of the flat shape type `S`: no
/// storage, zero-sized; the "element" at a coordinate is the coordinate
/// that the tensor's [`CoordLayout`] gives (see [`make_identity_tensor`]).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{Coords, Engine};
/// let id: Tensor<Coords<Shape![4, 8]>, _> = make_identity_tensor(shape!(4, 8));
/// assert_eq!(core::mem::size_of::<Coords<Shape![4, 8]>>(), 0);
/// // Its elements are the coordinates of the shape: 13 = 1 + 3·4.
/// let c: <Coords<Shape![4, 8]> as Engine>::Elem = id.at(13usize);
/// assert_eq!(c, (1, 3));
/// ```
#[derive(Debug)]
pub struct Coords<S>(PhantomData<S>);

impl<S> Clone for Coords<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Coords<S> {}

impl<S: IdentityStride> Engine for Coords<S> {
    type Elem = S::Coord;
    /// No storage, no bound.
    #[inline(always)]
    fn len(&self) -> usize {
        usize::MAX
    }
}

/// A flat shape (a leaf or a tuple of up to 12 leaves) that has an
/// identity tensor: the bound of [`make_identity_tensor`]'s shape.
/// `Coord` is its coordinate (`usize`, or a tuple of one `usize` per
/// leaf), what the identity tensor holds; `Comps` are the component
/// layouts of its identity layout (see [`CoordLayout`]).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{CoordLayout, Coords, IdentityStride, Zero};
/// fn identity<S: IdentityStride>(shape: S) -> Tensor<Coords<S>, CoordLayout<S::Comps, Zero>> {
///     make_identity_tensor(shape)
/// }
/// assert_eq!(identity(shape!(4, 8)).at(9usize), (1, 2));
/// assert_eq!(identity(make_shape((5usize, 3usize))).at(7usize), (2, 1));
/// ```
pub trait IdentityStride: IntTuple {
    /// A coordinate: `usize`, or a tuple of one `usize` per leaf.
    type Coord: Copy + core::fmt::Debug + PartialEq;
    /// The shape as a coordinate (its extents), the bound of
    /// [`elem_less`].
    #[doc(hidden)]
    fn as_coord(&self) -> Self::Coord;
    /// The component layouts of the identity layout of this shape:
    /// component `k` has stride 1 at leaf `k`, 0 elsewhere.
    type Comps: Copy;
    /// The components of `self`'s identity layout.
    #[doc(hidden)]
    fn comps(&self) -> Self::Comps;
    /// The coordinate of the entries `a[..rank]`.
    #[doc(hidden)]
    fn from_entries(a: &[usize]) -> Self::Coord;
}
impl<L: ShapeLeaf> IdentityStride for L {
    type Coord = usize;
    #[inline(always)]
    fn as_coord(&self) -> usize {
        self.value()
    }
    type Comps = (Layout<L, typenum::U1>,);
    #[inline(always)]
    fn comps(&self) -> Self::Comps {
        (Layout::from_checked(*self, typenum::U1::new()),)
    }
    #[inline(always)]
    fn from_entries(a: &[usize]) -> usize {
        a[0]
    }
}
// The stride of component `k` of a flat shape's identity layout: `_1` at
// leaf `k`, `_0` at the others.
macro_rules! unit_stride {
    ([$($j:tt)+] $k:tt) => {
        ($( crate::Int<{ ($j == $k) as usize }>, )+)
    };
}

macro_rules! identity_stride {
    ($($i:tt $S:ident $_s:ident $_d:ident),+) => {
        identity_stride!(@impl [$($i)+]; $($i $S),+);
    };
    (@impl $all:tt; $($i:tt $S:ident),+) => {
        impl<$($S: ShapeLeaf),+> IdentityStride for ($($S,)+) {
            type Coord = ($(identity_stride!(@usize $S),)+);
            #[inline(always)]
            fn as_coord(&self) -> Self::Coord {
                ($( self.$i.value(), )+)
            }
            type Comps = ($(Layout<Self, unit_stride!($all $i)>,)+);
            #[inline(always)]
            fn comps(&self) -> Self::Comps {
                ($(Layout::from_checked(*self, <unit_stride!($all $i) as StaticIntTuple>::new()),)+)
            }
            #[inline(always)]
            fn from_entries(a: &[usize]) -> Self::Coord {
                ($( a[$i], )+)
            }
        }
    };
    (@usize $S:ident) => { usize };
}
// `Coord` is `Debug`: std's tuples.
for_each_tuple!(std identity_stride);

/// CuTe's `make_identity_tensor(shape)`: a tensor whose element at each
/// coordinate of `shape` is that coordinate (`(m, n)` for a rank-2
/// shape), to be tiled and partitioned exactly like the data it guards
/// (predication at ragged edges, with [`elem_less`]).
///
/// The shape is flat (a leaf or a tuple of up to 12 leaves, static or
/// run-time, every extent up to `i64::MAX`). Its layout is CuTe's
/// `make_identity_layout(shape)`, whose strides are the bases `_1@0`,
/// `_1@1`, ... ([`CoordLayout`]); a tile or partition of the tensor keeps
/// CuTe's scaled-basis strides (`_8@1`), and reaches coordinates past the
/// shape (the extended domain of a tile at a ragged edge) exactly. With a
/// static shape the layout and the engine are zero-sized.
///
/// Post-conditions: `t.at(c)` is the natural coordinate `c` for every `c`
/// of `shape` (an integral `c` gives its natural coordinate); the layout
/// prints as CuTe prints the identity layout.
///
/// ```
/// use cute_static::prelude::*;
/// let (m, n) = (1000usize, 500usize);
/// let id = make_identity_tensor(make_shape((m, n)));
/// assert_eq!(id.layout().to_string(), "(1000,500):(_1@0,_1@1)");
/// assert_eq!(id.at((3usize, 7usize)), (3, 7));
/// assert_eq!(id.at(1003usize), (3, 1));
/// assert!(elem_less(id.at((999usize, 499usize)), (m, n)));
/// let s = make_identity_tensor(shape!(4, 8));
/// assert_eq!(core::mem::size_of_val(&s.layout()), 0);
/// ```
#[inline(always)]
pub fn make_identity_tensor<S>(shape: S) -> Tensor<Coords<S>, CoordLayout<S::Comps, Zero>>
where
    S: IdentityStride,
{
    Tensor { engine: Coords(PhantomData), offset: 0, layout: CoordLayout::fresh(shape.comps()) }
}

impl<I: IdentityStride, C: Copy, O: Copy> Tensor<Coords<I>, CoordLayout<C, O>> {
    /// The layout: CuTe's basis layout of this view (see [`CoordLayout`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_tensor(shape!(4, 8));
    /// assert_eq!(id.layout().to_string(), "(_4,_8):(_1@0,_1@1)");
    /// ```
    #[inline(always)]
    pub fn layout(&self) -> CoordLayout<C, O> {
        self.layout
    }
}

impl<I: IdentityStride, C: Copy, O: Copy> Tensor<Coords<I>, CoordLayout<C, O>>
where
    CoordLayout<C, O>: IdentityView,
{
    /// The coordinate at `c` (a coordinate of this view): the natural
    /// coordinate, in the identity tensor's shape, of the element this
    /// view has at `c`.
    ///
    /// # Panics
    ///
    /// When `c` is outside this view's shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let (m, n) = (100usize, 70usize);
    /// let id = make_identity_tensor(make_shape((m, n)));
    /// assert_eq!(id.at(101usize), (1, 1));
    /// let c = local_tile(id, shape!(32, 64), (3usize, 1usize)); // rows 96..128, columns 64..128
    /// assert_eq!(c.layout().to_string(), "(_32,_64):(_1@0,_1@1)");
    /// assert_eq!(c.at((1usize, 2usize)), (97, 66));
    /// assert!(!elem_less(c.at((4usize, 0usize)), (m, n)));       // row 100: past the edge
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn at<K>(&self, c: K) -> I::Coord
    where
        CoordLayout<C, O>: IdentityAt<K>,
    {
        match self.layout.coord_at(c) {
            Some(a) => I::from_entries(a.as_ref()),
            None => domain_panic(),
        }
    }

    /// The shape of the view.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_tensor(shape!(4, 8));
    /// assert_eq!(id.shape(), shape!(4, 8));
    /// ```
    #[inline(always)]
    pub fn shape(&self) -> <CoordLayout<C, O> as IdentityView>::Shape {
        self.layout.view_shape()
    }

    /// The number of coordinates of the view.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_tensor(shape!(4, 8));
    /// assert_eq!(id.size(), 32);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.layout.view_size()
    }
}

/// CuTe's `elem_less(a, b)`: every entry of the coordinate `a` is below
/// the one of `b` (the predicate of a ragged edge: `elem_less(id(c),
/// shape)` is true exactly when the element at `c` is inside `shape`).
///
/// ```
/// use cute_static::prelude::*;
/// assert!(elem_less((3usize, 4usize), (4usize, 5usize)));
/// assert!(!elem_less((3usize, 5usize), (4usize, 5usize)));
/// assert!(elem_less(2usize, 3usize));
/// ```
#[inline(always)]
pub fn elem_less<C: ElemLess>(a: C, b: C) -> bool {
    a.elem_less(&b)
}

/// Coordinates compared entry by entry: `usize` and tuples of them, up to
/// 12 entries (the bound of [`elem_less`], for code generic over the
/// coordinate).
///
/// Post-condition: `a.elem_less(&b)` is true exactly when every entry of
/// `a` is below the entry of `b` at the same place.
///
/// ```
/// use cute_static::ElemLess;
/// /// Whether every coordinate of the list is inside `bound`.
/// fn all_inside<C: ElemLess>(cs: &[C], bound: C) -> bool {
///     cs.iter().all(|c| c.elem_less(&bound))
/// }
/// assert!(all_inside(&[(0usize, 1usize), (3, 4)], (4, 5)));
/// assert!(!all_inside(&[(0usize, (1usize, 6usize))], (4, (2, 6))));
/// ```
pub trait ElemLess {
    /// Every entry below `b`'s.
    ///
    /// ```
    /// use cute_static::ElemLess;
    /// assert!((1usize, (2usize, 3usize)).elem_less(&(2, (3, 4))));
    /// assert!(!(1usize, 4usize).elem_less(&(2, 4))); // 4 is not below 4
    /// assert!(!(0usize, 0usize).elem_less(&(0, 5))); // nor is 0 below 0
    /// ```
    fn elem_less(&self, b: &Self) -> bool;
}
impl ElemLess for usize {
    #[inline(always)]
    fn elem_less(&self, b: &usize) -> bool {
        self < b
    }
}
macro_rules! elem_less_tuple {
    ($($i:tt $T:ident $_s:ident $_d:ident),+) => {
        impl<$($T: ElemLess),+> ElemLess for ($($T,)+) {
            #[inline(always)]
            fn elem_less(&self, b: &Self) -> bool {
                true $( & self.$i.elem_less(&b.$i) )+
            }
        }
    };
}
for_each_tuple!(elem_less_tuple);
