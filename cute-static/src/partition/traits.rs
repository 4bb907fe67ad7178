//! The trait-level machinery of `partition.rs` (tiling and partitioning
//! tensors; beside it, not in `detail/`, as it builds on the divides,
//! slices and tensors): which divide a partition takes (the algebra's
//! `zipped_divide`, or the flat one of a layout of leaf modes by static
//! integers), the slice of the divided layout a partition keeps, the
//! projections (`dice`) and the thread layouts of `local_partition`.

use crate::detail::{FlattenInto, MNil, ModeSize};
use crate::divide::{DivideValue, ZippedArr, ZippedDivide};
use crate::int_tuple::known::LeafMul;
use crate::int_tuple::{Dyn, IntTuple, Leaf, Truth};
use crate::layout::{Congruent, Layout};
use crate::run_time::FromValue;
use crate::slice::InDomain;
use crate::slice::{Slice, Underscore, VCons, VNil};
use crate::tensor::{OffsetRange, OutOfStorage};
use typenum::{B0, B1, U1, UInt, Unsigned};

/// CuTe's `X` in a projection: the mode is left out (`_1`, i.e.
/// [`Int<1>`](crate::Int), keeps it). See [`Dice`] and
/// [`local_tile_proj`](crate::local_tile_proj).
///
/// ```
/// use cute_static::prelude::*;
/// let c: Vec<u32> = (0..64).collect();
/// let mc = make_tensor(&c[..], layout!((8,8):(1,8))); // (M,N)
/// // C takes BLK_M and BLK_N of a (BLK_M,BLK_N,BLK_K) tiler: `X` leaves BLK_K (and k) out.
/// let gc = local_tile_proj(mc, shape!(4, 2, 16), (1usize, 3usize, 0usize), (Int::<1>::new(), Int::<1>::new(), X));
/// assert_eq!(gc.layout().to_string(), "(_4,_2):(_1,_8)");
/// assert_eq!(gc[(0usize, 0usize)], 4 + 6 * 8); // the tile at rows 4.., columns 6..
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct X;

/// The layout of a part (a tile, a thread's partition, a divided view):
/// checked to fit its tensor's storage when the part is made. A
/// [`Layout`], a swizzled layout, or the layout of an identity tensor
/// (which has no storage: it always fits). Every [`Partition`]'s `Output`
/// is one; generic code does not name it (the partition's bound implies
/// it).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::Fits;
/// fn part_layout<L: Fits>(_: L) {}
/// part_layout(layout!((4, 2):(1, 8)));
/// part_layout(make_identity_tensor(shape!(4, 2)).layout());
/// ```
pub trait Fits: Copy {
    /// `Ok` when `offset + L(c)` lies in `0..len` for every `c`.
    #[doc(hidden)]
    fn fits(&self, what: &'static str, offset: usize, len: usize) -> Result<(), OutOfStorage>;
}
impl<S: Congruent<D> + OffsetRange<D>, D: IntTuple> Fits for Layout<S, D> {
    #[inline(always)]
    fn fits(&self, what: &'static str, offset: usize, len: usize) -> Result<(), OutOfStorage> {
        crate::tensor::check_fits(what, self, offset, len)
    }
}

/// `_` over every top-level mode of a shape (CuTe's `repeat<R>(_)`): `_`
/// for a leaf, `(_, .., _)` for a tuple.
#[doc(hidden)]
pub trait RepeatUnderscore {
    /// The slice coordinate.
    type Out: Copy + Default;
}
impl<L: Leaf> RepeatUnderscore for L {
    type Out = Underscore;
}
macro_rules! repeat_underscore {
    ($($i:literal $T:ident $_s:ident $_d:ident),+) => {
        impl<$($T),+> RepeatUnderscore for ($($T,)+) {
            type Out = ($(repeat_underscore!(@u $T),)+);
        }
    };
    (@u $T:ident) => { Underscore };
}
// `Out` is `Default`: std's tuples.
for_each_tuple!(std repeat_underscore);

/// Which part a [`Partition`] takes: the tile at a tile coordinate, as
/// [`inner_partition`](crate::inner_partition) and
/// [`local_tile`](crate::local_tile) do (CuTe's `inner_partition`: the
/// divided layout `((tile),(rest))` sliced in its rest mode).
///
/// ```
/// use cute_static::prelude::*;
/// // The 2×2 tile at `c`, for any layout: `Inner` in the bound.
/// fn tile<L: Partition<Shape![2, 2], C, Inner> + Copy, C>(t: Tensor<&[u32], L>, c: C) -> Tensor<&[u32], L::Output>
/// where
///     Shape![2, 2]: TilerFits<L>,
/// {
///     inner_partition(t, shape!(2, 2), c)
/// }
/// let data: Vec<u32> = (0..16).collect();
/// let t = tile(make_tensor(&data[..], layout!((4,4):(1,4))), (1usize, 0usize)); // rows 2..4, columns 0..2
/// assert_eq!([t[(0usize, 0usize)], t[(1usize, 0usize)], t[(0usize, 1usize)]], [2, 3, 6]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Inner;
/// Which part a [`Partition`] takes: one element of every tile, as
/// [`outer_partition`](crate::outer_partition) and
/// [`local_partition`](crate::local_partition) do (CuTe's
/// `outer_partition`: the divided layout `((tile),(rest))` sliced in its
/// tile mode).
///
/// ```
/// use cute_static::prelude::*;
/// // Element `c` of every 2×2 tile, for any layout: `Outer` in the bound.
/// fn strided<L: Partition<Shape![2, 2], C, Outer> + Copy, C>(t: Tensor<&[u32], L>, c: C) -> Tensor<&[u32], L::Output>
/// where
///     Shape![2, 2]: TilerFits<L>,
/// {
///     outer_partition(t, shape!(2, 2), c)
/// }
/// let data: Vec<u32> = (0..16).collect();
/// let p = strided(make_tensor(&data[..], layout!((4,4):(1,4))), (1usize, 0usize)); // rows 1, 3; columns 0, 2
/// assert_eq!(p.layout().to_string(), "(_2,_2):(_2,_8)");
/// assert_eq!([p[(0usize, 0usize)], p[(1usize, 0usize)], p[(0usize, 1usize)]], [1, 3, 9]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Outer;

/// The slice of a `zipped_divide` result `((tile),(rest))` that a
/// partition takes: `(repeat(_), coord)` for [`Inner`], `(coord,
/// repeat(_))` for [`Outer`].
#[doc(hidden)]
pub trait PartSlice<C, Which> {
    /// The slice coordinate.
    type Coord: Copy;
    /// The coordinate made from `c`.
    fn coord(c: C) -> Self::Coord;
}
impl<TS: RepeatUnderscore, RS, TD, RD, C: Copy> PartSlice<C, Inner> for Layout<(TS, RS), (TD, RD)> {
    type Coord = (TS::Out, C);
    #[inline(always)]
    fn coord(c: C) -> Self::Coord {
        (Default::default(), c)
    }
}
impl<TS, RS: RepeatUnderscore, TD, RD, C: Copy> PartSlice<C, Outer> for Layout<(TS, RS), (TD, RD)> {
    type Coord = (C, RS::Out);
    #[inline(always)]
    fn coord(c: C) -> Self::Coord {
        (c, Default::default())
    }
}

/// A tensor layout that can be divided by the tiler `T` and sliced at
/// `C`: the bound of [`local_tile`](crate::local_tile) and
/// [`inner_partition`](crate::inner_partition) (`Which` is [`Inner`]: the
/// tile at the tile coordinate `C`) and of
/// [`outer_partition`](crate::outer_partition) (`Which` is [`Outer`]: the
/// element `C` of every tile). Implemented by [`Layout`]s, swizzled
/// layouts ([`ComposedLayout`](crate::ComposedLayout)) and the layouts of
/// identity tensors ([`CoordLayout`](crate::CoordLayout)).
///
/// `Output` is the layout of the part, the layout of the partition's
/// result: generic code names it `<L as Partition<T, C, Inner>>::Output`.
/// (For [`local_partition`](crate::local_partition) by a thread layout,
/// [`PartitionBy`](crate::PartitionBy) and [`Part`](crate::Part) are the
/// shorter names.)
///
/// ```
/// use cute_static::prelude::*;
/// // The 4×2 tile at `c` of any matrix.
/// type Blk = Shape![4, 2];
/// fn tile_at<'a, L, C>(t: Tensor<&'a [f32], L>, c: C) -> Tensor<&'a [f32], <L as Partition<Blk, C, Inner>>::Output>
/// where
///     L: Partition<Blk, C, Inner> + Copy,
///     Blk: TilerFits<L>,
/// {
///     local_tile(t, Blk::default(), c)
/// }
/// let a: Vec<f32> = (0..32).map(|x| x as f32).collect();
/// let t = tile_at(make_tensor(&a[..], layout!((8, 4):(1, 8))), (1usize, 1usize));
/// assert_eq!(t.layout().to_string(), "(_4,_2):(_1,_8)");
/// assert_eq!(t[(0usize, 0usize)], 20.0); // element (4, 2) of the matrix
/// ```
pub trait Partition<T, C, Which>: Sized {
    /// The layout of the part.
    type Output: Fits;
    /// The part's layout, its offset (wrapping), and whether the divide
    /// is exact (`true` only when every coordinate of the part names an
    /// element of `self`'s domain, so the part reaches a subset of the
    /// tensor's elements); `None` when `c` is outside the divided layout's
    /// shape.
    #[doc(hidden)]
    fn part(self, t: T, c: C) -> Option<(Self::Output, usize, bool)>;
}

/// Whether `zipped_divide(Self, T)` takes the flat path ([`FlatZip`]):
/// `B1` when every top-level mode of the layout is a leaf and the tiler is
/// a tuple of static integers, `B0` otherwise (the algebra's
/// `zipped_divide`).
#[doc(hidden)]
pub trait FlatCase<T> {
    /// `B1` or `B0`.
    type Bit;
}
impl<S: AllLeaves, D, T: AllInts> FlatCase<T> for Layout<S, D> {
    type Bit = <S::Bit as Truth>::And<T::Bit>;
}

/// `B1` for a tuple of leaves.
#[doc(hidden)]
pub trait AllLeaves {
    /// `B1` or `B0`.
    type Bit: Truth;
}
/// `B1` for a leaf.
#[doc(hidden)]
pub trait IsLeaf {
    /// `B1` or `B0`.
    type Bit: Truth;
}
impl<U: Unsigned, B: typenum::Bit> IsLeaf for UInt<U, B> {
    type Bit = B1;
}
impl IsLeaf for Dyn {
    type Bit = B1;
}
impl<U: Unsigned, B: typenum::Bit> AllLeaves for UInt<U, B> {
    type Bit = B0;
}
impl AllLeaves for Dyn {
    type Bit = B0;
}
/// `B1` for a tuple of static integers.
#[doc(hidden)]
pub trait AllInts {
    /// `B1` or `B0`.
    type Bit: Truth;
}
impl<U: Unsigned, B: typenum::Bit> AllInts for UInt<U, B> {
    type Bit = B0;
}
impl<S, D> AllInts for Layout<S, D> {
    type Bit = B0;
}
impl<T> AllInts for crate::Tiler<T> {
    type Bit = B0;
}
impl<S, D> IsLeaf for Layout<S, D> {
    type Bit = B0;
}
// A tuple is not a leaf; `AllLeaves` and `AllInts` of a tuple are the
// conjunction of its elements' `IsLeaf`, folded from the right.
macro_rules! all_leaves_tuple {
    (@rev $Tr:ident [$($all:ident)+] [$($r:ident)*] $A:ident $($rest:ident)*) => {
        all_leaves_tuple!(@rev $Tr [$($all)+] [$A $($r)*] $($rest)*);
    };
    (@rev $Tr:ident [$($all:ident)+] [$last:ident $($r:ident)*]) => {
        all_leaves_tuple!(@fold $Tr [$($all)+] [<$last as IsLeaf>::Bit] $($r)*);
    };
    (@fold $Tr:ident [$($all:ident)+] [$($acc:tt)+] $A:ident $($rest:ident)*) => {
        all_leaves_tuple!(@fold $Tr [$($all)+] [<<$A as IsLeaf>::Bit as Truth>::And<$($acc)+>] $($rest)*);
    };
    (@fold $Tr:ident [$($all:ident)+] [$($acc:tt)+]) => {
        impl<$($all: IsLeaf),+> $Tr for ($($all,)+) {
            type Bit = $($acc)+;
        }
    };
    ($($i:tt $A:ident $_s:ident $_d:ident),+) => {
        impl<$($A),+> IsLeaf for ($($A,)+) {
            type Bit = B0;
        }
        all_leaves_tuple!(@rev AllInts [$($A)+] [] $($A)+);
        all_leaves_tuple!(@rev AllLeaves [$($A)+] [] $($A)+);
    };
}
for_each_tuple!(all_leaves_tuple);

/// [`Partition`] by the branch `Flat` of [`FlatCase`].
#[doc(hidden)]
pub trait PartitionBy<T, C, Which, Flat>: Sized {
    /// The layout of the part.
    type Output: Fits;
    /// See [`Partition::part`].
    fn part_by(self, t: T, c: C) -> Option<(Self::Output, usize, bool)>;
}
impl<L: FlatCase<T> + PartitionBy<T, C, W, <L as FlatCase<T>>::Bit>, T, C, W> Partition<T, C, W> for L {
    type Output = <L as PartitionBy<T, C, W, <L as FlatCase<T>>::Bit>>::Output;
    #[inline(always)]
    fn part(self, t: T, c: C) -> Option<(Self::Output, usize, bool)> {
        self.part_by(t, c)
    }
}

/// The layout of a partition's slice of `Layout<ZS, ZD>` at `C`.
type PartOf<ZS, ZD, C, W> = <Layout<ZS, ZD> as Slice<<Layout<ZS, ZD> as PartSlice<C, W>>::Coord>>::Output;

/// Slices a `((tile),(rest))` layout as the partition `Which` at `c`.
#[inline(always)]
fn slice_part<ZS: Congruent<ZD>, ZD: IntTuple, C, W>(z: Layout<ZS, ZD>, c: C) -> Option<(PartOf<ZS, ZD, C, W>, usize)>
where
    Layout<ZS, ZD>: PartSlice<C, W> + Slice<<Layout<ZS, ZD> as PartSlice<C, W>>::Coord>,
    <Layout<ZS, ZD> as PartSlice<C, W>>::Coord: InDomain<ZS>,
{
    let coord = <Layout<ZS, ZD> as PartSlice<C, W>>::coord(c);
    if !coord.inside(&z.shape()) {
        return None;
    }
    Some(z.slice_wrapping(coord))
}

/// The general branch: the algebra's `zipped_divide`.
impl<S, D, T, C, W, ZS, ZD> PartitionBy<T, C, W, B0> for Layout<S, D>
where
    Layout<S, D>: ZippedDivide<T, Output = Layout<ZS, ZD>>,
    Layout<ZS, ZD>: DivideValue<ZippedArr, Layout<S, D>, T> + PartSlice<C, W>,
    ZS: Congruent<ZD>,
    ZD: IntTuple,
    <Layout<ZS, ZD> as PartSlice<C, W>>::Coord: InDomain<ZS>,
    Layout<ZS, ZD>: Slice<<Layout<ZS, ZD> as PartSlice<C, W>>::Coord>,
    <Layout<ZS, ZD> as Slice<<Layout<ZS, ZD> as PartSlice<C, W>>::Coord>>::Output: Fits,
{
    type Output = <Layout<ZS, ZD> as Slice<<Layout<ZS, ZD> as PartSlice<C, W>>::Coord>>::Output;
    #[inline(always)]
    fn part_by(self, t: T, c: C) -> Option<(Self::Output, usize, bool)> {
        // Not claimed exact: a tiler layout may reach past the domain.
        slice_part::<ZS, ZD, C, W>(crate::zipped_divide(self, t), c).map(|(l, o)| (l, o, false))
    }
}

/// The flat branch: `zipped_divide` of a layout of leaf modes by a tuple of
/// static integers, mode by mode (`s:d` by `t` is `t:d` and `⌈s/t⌉:t·d`,
/// as the algebra gives it), with the rest static wherever the mode's
/// extent is: a tile of a static tile stays static (the algebra's mixed
/// divide makes every rest run-time).
impl<S, D, T, C, W, ZS, ZD> PartitionBy<T, C, W, B1> for Layout<S, D>
where
    Layout<S, D>: FlatZip<T, Shape = ZS, Stride = ZD>,
    Layout<ZS, ZD>: PartSlice<C, W>,
    ZS: Congruent<ZD>,
    ZD: IntTuple,
    <Layout<ZS, ZD> as PartSlice<C, W>>::Coord: InDomain<ZS>,
    Layout<ZS, ZD>: Slice<<Layout<ZS, ZD> as PartSlice<C, W>>::Coord>,
    <Layout<ZS, ZD> as Slice<<Layout<ZS, ZD> as PartSlice<C, W>>::Coord>>::Output: Fits,
{
    type Output = <Layout<ZS, ZD> as Slice<<Layout<ZS, ZD> as PartSlice<C, W>>::Coord>>::Output;
    #[inline(always)]
    fn part_by(self, _: T, c: C) -> Option<(Self::Output, usize, bool)> {
        // Exact when every tile extent divides its mode: then the divide
        // is a bijection of the domain (a constant for static modes).
        let exact = self.exact();
        slice_part::<ZS, ZD, C, W>(self.flat_zip(), c).map(|(l, o)| (l, o, exact))
    }
}

/// The 1-D divide of a leaf mode `Self:D` by the static tile `T`: the rest
/// `⌈s/t⌉ : t·d`, static where `s` (or `d`) is.
#[doc(hidden)]
pub trait LeafDiv<D, T> {
    /// `⌈s/t⌉`.
    type RS: IntTuple;
    /// `t·d`.
    type RD: IntTuple;
    /// The rest's values.
    fn rest(&self, d: &D) -> (Self::RS, Self::RD);
    /// Whether `t` divides the mode's extent `s`.
    fn divides(&self) -> bool;
}
/// `⌈Self/T⌉` as a type: static for a static `Self`, [`Dyn`] otherwise.
#[doc(hidden)]
pub trait CeilDiv<T> {
    /// The quotient's leaf type.
    type Output: FromValue + IntTuple;
}
impl<T> CeilDiv<T> for Dyn {
    type Output = Dyn;
}
impl<U: Unsigned, B: typenum::Bit, T> CeilDiv<T> for UInt<U, B>
where
    UInt<U, B>: core::ops::Add<T>,
    typenum::Sum<UInt<U, B>, T>: core::ops::Sub<B1>,
    typenum::Sub1<typenum::Sum<UInt<U, B>, T>>: core::ops::Div<T>,
    typenum::Quot<typenum::Sub1<typenum::Sum<UInt<U, B>, T>>, T>: FromValue + IntTuple,
{
    type Output = typenum::Quot<typenum::Sub1<typenum::Sum<UInt<U, B>, T>>, T>;
}
impl<S: Leaf + CeilDiv<T>, D: Leaf, T: Leaf + LeafMul<D>> LeafDiv<D, T> for S
where
    T: Default,
    <T as LeafMul<D>>::Output: FromValue + IntTuple,
{
    type RS = <S as CeilDiv<T>>::Output;
    type RD = <T as LeafMul<D>>::Output;
    #[inline(always)]
    fn rest(&self, d: &D) -> (Self::RS, Self::RD) {
        let t = T::default().signed();
        let s = self.signed();
        (Self::RS::from_value((s + t - 1) / t), Self::RD::from_value(t.wrapping_mul(d.signed())))
    }
    #[inline(always)]
    fn divides(&self) -> bool {
        self.signed() % T::default().signed() == 0
    }
}

/// `zipped_divide` of a layout of leaf modes by a tuple of static integers
/// (see the flat branch of [`PartitionBy`]).
#[doc(hidden)]
pub trait FlatZip<T> {
    /// `((tiles),(rests, untouched modes))`.
    type Shape;
    /// The strides.
    type Stride;
    /// The divide.
    fn flat_zip(self) -> Layout<Self::Shape, Self::Stride>;
    /// Whether every tile extent divides its mode (the divide is then a
    /// bijection of the layout's domain).
    fn exact(&self) -> bool;
}

// One impl per layout rank `r` and tiler rank `t <= r` (ranks up to 16):
// modes `0..t` are divided, modes `t..r` pass through untouched.
macro_rules! flat_zip_impl {
    ([$(($i:tt $T:ident $S:ident $D:ident))+] [$(($j:tt $U:ident $E:ident))*]) => {
        impl<$($S, $D, $T,)+ $($U, $E,)*> FlatZip<($($T,)+)> for Layout<($($S,)+ $($U,)*), ($($D,)+ $($E,)*)>
        where
            ($($S,)+ $($U,)*): Congruent<($($D,)+ $($E,)*)>,
            ($($D,)+ $($E,)*): IntTuple,
            $($S: LeafDiv<$D, $T>, $T: Unsigned + Default + Copy + Leaf + IntTuple,)+
            $($U: IntTuple, $E: IntTuple,)*
        {
            type Shape = (($($T,)+), ($(<$S as LeafDiv<$D, $T>>::RS,)+ $($U,)*));
            type Stride = (($($D,)+), ($(<$S as LeafDiv<$D, $T>>::RD,)+ $($E,)*));
            #[inline(always)]
            fn flat_zip(self) -> Layout<Self::Shape, Self::Stride> {
                let (s, d) = (self.shape(), self.stride());
                let r = ($(s.$i.rest(&d.$i),)+);
                Layout::from_checked(
                    (($($T::default(),)+), ($(r.$i.0,)+ $(s.$j,)*)),
                    (($(d.$i,)+), ($(r.$i.1,)+ $(d.$j,)*)),
                )
            }
            #[inline(always)]
            fn exact(&self) -> bool {
                let s = self.shape();
                true $(&& <$S as LeafDiv<$D, $T>>::divides(&s.$i))+
            }
        }
    };
}
// For the tiler's positions `0..t` (from the arity list): skips as many
// positions of the full list, then emits one impl per number of untouched
// modes after them.
macro_rules! flat_zip_tiles {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        flat_zip_tiles!(@skip [$(($i $T $S $D))+] [$(($i))+] [
            (0 U0 E0) (1 U1 E1) (2 U2 E2) (3 U3 E3) (4 U4 E4) (5 U5 E5) (6 U6 E6) (7 U7 E7)
            (8 U8 E8) (9 U9 E9) (10 U10 E10) (11 U11 E11) (12 U12 E12) (13 U13 E13) (14 U14 E14) (15 U15 E15)
        ]);
    };
    (@skip $tiled:tt [$_x:tt $($xs:tt)*] [$_f:tt $($full:tt)*]) => {
        flat_zip_tiles!(@skip $tiled [$($xs)*] [$($full)*]);
    };
    (@skip $tiled:tt [] [$($full:tt)*]) => {
        flat_zip_tiles!(@tails $tiled [] [$($full)*]);
    };
    (@tails $tiled:tt [$($done:tt)*] [$next:tt $($more:tt)*]) => {
        flat_zip_impl!($tiled [$($done)*]);
        flat_zip_tiles!(@tails $tiled [$($done)* $next] [$($more)*]);
    };
    (@tails $tiled:tt [$($done:tt)*] []) => {
        flat_zip_impl!($tiled [$($done)*]);
    };
}
for_each_tuple!(flat_zip_tiles);

// ------------------------------------------------------------ projections

/// A tuple projected by `P` (CuTe's `dice`): the entry at `Int<1>` stays,
/// the entry at [`X`] goes, so `(a, b, c)` projected by `(_1, X, _1)` is
/// `(a, c)`. The bound of [`local_tile_proj`](crate::local_tile_proj)'s
/// tiler and coordinate, and of
/// [`local_partition_proj`](crate::local_partition_proj)'s; `Output` is
/// the projected tuple.
///
/// ```
/// use cute_static::prelude::*;
/// // The K-slab of A: (BLK_M,BLK_K) of a (BLK_M,BLK_N,BLK_K) tiler.
/// fn mk<T: Dice<(Int<1>, X, Int<1>)>>(tiler: T) -> T::Output {
///     tiler.dice()
/// }
/// let t: Shape![32, 4] = mk(shape!(32, 64, 4));
/// assert_eq!(t, shape!(32, 4));
/// ```
pub trait Dice<P> {
    /// The kept entries, as a tuple.
    type Output;
    /// The kept entries.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// // A (BLK_M,BLK_N,BLK_K) tiler and a tile coordinate (m, n, k), projected for B: (n, k).
    /// let t = Dice::<(X, Int<1>, Int<1>)>::dice(shape!(32, 64, 4));
    /// assert_eq!(t, shape!(64, 4));
    /// assert_eq!(Dice::<(X, Int<1>, Int<1>)>::dice((1usize, 2usize, 3usize)), (2, 3));
    /// ```
    fn dice(self) -> Self::Output;
}
/// One entry of a projection folded onto the list of the kept entries
/// to its right.
#[doc(hidden)]
pub trait DiceOne<T, Acc> {
    /// The list.
    type Out;
    /// The list.
    fn dice_one(t: T, acc: Acc) -> Self::Out;
}
impl<T, Acc> DiceOne<T, Acc> for U1 {
    type Out = VCons<T, Acc>;
    #[inline(always)]
    fn dice_one(t: T, acc: Acc) -> Self::Out {
        VCons(t, acc)
    }
}
impl<T, Acc> DiceOne<T, Acc> for X {
    type Out = Acc;
    #[inline(always)]
    fn dice_one(_: T, acc: Acc) -> Acc {
        acc
    }
}
/// A value list as a tuple (one element or more).
#[doc(hidden)]
pub trait ListTuple {
    /// The tuple.
    type Tuple;
    /// The tuple.
    fn tuple(self) -> Self::Tuple;
}
macro_rules! list_tuple {
    ($($i:literal $T:ident $v:ident $_d:ident),+) => {
        impl<$($T),+> ListTuple for list_tuple!(@list $($T)+) {
            type Tuple = ($($T,)+);
            #[inline(always)]
            #[allow(non_snake_case)] // the bindings take the arity list's names
            fn tuple(self) -> Self::Tuple {
                let list_tuple!(@pat $($v)+) = self;
                ($($v,)+)
            }
        }
    };
    (@list $T:ident $($rest:ident)*) => { VCons<$T, list_tuple!(@list $($rest)*)> };
    (@list) => { VNil };
    (@pat $v:ident $($rest:ident)*) => { VCons($v, list_tuple!(@pat $($rest)*)) };
    (@pat) => { VNil };
}
for_each_tuple!(list_tuple);
macro_rules! dice_tuple {
    ($($i:tt $T:ident $P:ident $O:ident),+) => {
        dice_tuple!(@chain [] [$($i $T $P $O)+]);
    };
    // Each position's list is the next one's output, the last's `VNil`.
    (@chain [$($done:tt)*] [$i:tt $T:ident $P:ident $O:ident $j:tt $T1:ident $P1:ident $O1:ident $($rest:tt)*]) => {
        dice_tuple!(@chain [$($done)* ($i $T $P $O $O1)] [$j $T1 $P1 $O1 $($rest)*]);
    };
    (@chain [$($done:tt)*] [$i:tt $T:ident $P:ident $O:ident]) => {
        dice_tuple!(@impl $($done)* ($i $T $P $O VNil));
    };
    (@impl $(($i:tt $T:ident $P:ident $O:ident $N:ident))+) => {
        impl<$($T, $P, $O,)+> Dice<($($P,)+)> for ($($T,)+)
        where
            $($P: DiceOne<$T, $N, Out = $O>,)+
            D0: ListTuple,
        {
            // `D0`: position 0's list (the arity list's name).
            type Output = <D0 as ListTuple>::Tuple;
            #[inline(always)]
            fn dice(self) -> Self::Output {
                dice_tuple!(@fold self; [] $($i $P)+).tuple()
            }
        }
    };
    (@fold $self:ident; [$($done:tt)*] $i:tt $P:ident $($rest:tt)*) => {
        dice_tuple!(@fold $self; [$i $P $($done)*] $($rest)*)
    };
    (@fold $self:ident; [$($i:tt $P:ident)+]) => {{
        let acc = VNil;
        $( let acc = <$P as DiceOne<_, _>>::dice_one($self.$i, acc); )+
        acc
    }};
}
for_each_tuple!(dice_tuple);

// -------------------------------------------------------- thread layouts

/// A static thread layout (CuTe's `Layout` of threads handed to
/// `local_partition`): its by-mode tiler (CuTe's `product_each(shape(thr))`)
/// and the flat coordinate of a thread index (CuTe's `get_flat_coord`: per
/// leaf `(idx / d) % s`, `0` for a leaf of size 1 or stride 0, then one
/// integer per top-level mode, column-major within the mode). Implemented
/// for every static layout whose shape is a tuple of 1 to 12 modes (a
/// layout of one leaf, `8:1`, is written `(8):(1)`); the bound of generic
/// code that takes a thread layout.
///
/// ```
/// use cute_static::prelude::*;
/// fn threads<Thr: ThreadLayout>(thr: Thr) -> usize {
///     thr.threads()
/// }
/// assert_eq!(threads(layout!((32, 8):(1, 32))), 256);
/// ```
pub trait ThreadLayout: Copy {
    /// The tiler: one static size per top-level mode.
    type Tiler: Copy + Default;
    /// The coordinate: one `usize` per top-level mode.
    type Coord: Copy;
    /// The number of threads.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(layout!((4, 8):(8, 1)).threads(), 32);
    /// assert_eq!(layout!(((2, 2), 8):((1, 16), 2)).threads(), 32);
    /// assert_eq!(layout!((8):(1)).threads(), 8);
    /// ```
    fn threads(&self) -> usize;
    /// The coordinate of thread `idx`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let thr = layout!((4, 8):(8, 1)); // row-major: consecutive threads take consecutive columns
    /// assert_eq!(thr.coord(1), (0, 1));
    /// assert_eq!(thr.coord(13), (1, 5)); // (13 / 8 % 4, 13 % 8)
    /// // Mode 0 of (2,2):(1,16) has the leaf coordinates (1, 1) at 17: the integer 1 + 1·2.
    /// assert_eq!(layout!(((2, 2), 8):((1, 16), 2)).coord(17), (3, 0));
    /// ```
    fn coord(&self, idx: usize) -> Self::Coord;
    /// The sizes of the tiler's modes (1 past its rank, up to 4): for
    /// `partition_mut`'s overlap check, which proves nothing past 4 modes.
    #[doc(hidden)]
    fn tile_sizes(&self) -> [usize; 4];
    /// The coordinate of thread `idx` as one integer, column-major in the
    /// tiler's shape (for the same check).
    #[doc(hidden)]
    fn linear_coord(&self, idx: usize) -> usize;
}

/// The flat coordinate of a thread index within one mode: `(c, size)`.
#[doc(hidden)]
pub trait ModeCoord<D> {
    /// `(column-major index of the leaf coordinates, size of the mode)`.
    fn mode_coord(&self, d: &D, idx: usize) -> (usize, usize);
}
impl<S: crate::ShapeLeaf, D: Leaf> ModeCoord<D> for S {
    #[inline(always)]
    fn mode_coord(&self, d: &D, idx: usize) -> (usize, usize) {
        let (s, d) = (self.value(), d.value());
        let c = if s == 1 || d == 0 { 0 } else { (idx / d) % s };
        (c, s)
    }
}
macro_rules! mode_coord_tuple {
    ($($i:tt $S:ident $D:ident $_d:ident),+) => {
        impl<$($S: ModeCoord<$D>, $D),+> ModeCoord<($($D,)+)> for ($($S,)+) {
            #[inline(always)]
            fn mode_coord(&self, d: &($($D,)+), idx: usize) -> (usize, usize) {
                let (c, m) = (0usize, 1usize);
                $( let (ci, si) = self.$i.mode_coord(&d.$i, idx); let (c, m) = (c + ci * m, m * si); )+
                (c, m)
            }
        }
    };
}
for_each_tuple!(mode_coord_tuple);

/// The static size of a static shape tree paired with its stride.
type SizeOf<S, D> = <<S as FlattenInto<D, MNil>>::Output as ModeSize>::Size;

macro_rules! thread_layout_tuple {
    ($($i:tt $S:ident $D:ident $_d:ident),+) => {
        impl<$($S, $D),+> ThreadLayout for Layout<($($S,)+), ($($D,)+)>
        where
            ($($S,)+): Congruent<($($D,)+)> + crate::StaticIntTuple,
            ($($D,)+): crate::StaticIntTuple,
            $($S: ModeCoord<$D> + FlattenInto<$D, MNil>, <$S as FlattenInto<$D, MNil>>::Output: ModeSize,
              SizeOf<$S, $D>: Unsigned + Copy + Default,)+
        {
            type Tiler = ($(SizeOf<$S, $D>,)+);
            type Coord = ($(thread_layout_tuple!(@usize $S),)+);
            #[inline(always)]
            fn threads(&self) -> usize {
                self.size()
            }
            #[inline(always)]
            fn coord(&self, idx: usize) -> Self::Coord {
                let (s, d) = (self.shape(), self.stride());
                ($( s.$i.mode_coord(&d.$i, idx).0, )+)
            }
            #[inline(always)]
            fn tile_sizes(&self) -> [usize; 4] {
                let mut t = [1usize; 4];
                $( if let Some(x) = t.get_mut($i) { *x = <SizeOf<$S, $D> as Unsigned>::USIZE; } )+
                t
            }
            #[inline(always)]
            fn linear_coord(&self, idx: usize) -> usize {
                let (s, d) = (self.shape(), self.stride());
                let (c, m) = (0usize, 1usize);
                $( let (ci, si) = s.$i.mode_coord(&d.$i, idx); let (c, m) = (c + ci * m, m * si); )+
                let _ = m;
                c
            }
        }
    };
    (@usize $S:ident) => { usize };
}
// `Tiler` is `Default`: std's tuples.
for_each_tuple!(std thread_layout_tuple);

// A swizzled layout `Sw ∘ O ∘ L` is divided and sliced through `L` (CuTe
// applies the layout algebra to the inner layout of a `ComposedLayout`);
// the part keeps the swizzle and `O`, its offset is added before the
// swizzle (the tensor's offset).
impl<A, O, S, D, T> FlatCase<T> for crate::ComposedLayout<A, O, Layout<S, D>>
where
    Layout<S, D>: FlatCase<T>,
{
    type Bit = <Layout<S, D> as FlatCase<T>>::Bit;
}
impl<A, O, S, D, T, C, W, F, S2, D2> PartitionBy<T, C, W, F> for crate::ComposedLayout<A, O, Layout<S, D>>
where
    A: crate::swizzle::OffsetFn,
    O: crate::Leaf,
    S: Congruent<D>,
    D: IntTuple,
    S2: Congruent<D2> + OffsetRange<D2>,
    D2: IntTuple,
    Layout<S, D>: PartitionBy<T, C, W, F, Output = Layout<S2, D2>>,
{
    type Output = crate::ComposedLayout<A, O, Layout<S2, D2>>;
    #[inline(always)]
    fn part_by(self, t: T, c: C) -> Option<(Self::Output, usize, bool)> {
        let (sub, off, exact) = self.inner().part_by(t, c)?;
        Some((crate::composed::with_inner(self, sub), off, exact))
    }
}
impl<A: crate::swizzle::OffsetFn, O: crate::Leaf, S: Congruent<D> + OffsetRange<D>, D: IntTuple> Fits
    for crate::ComposedLayout<A, O, Layout<S, D>>
{
    #[inline(always)]
    fn fits(&self, what: &'static str, offset: usize, len: usize) -> Result<(), OutOfStorage> {
        crate::tensor::TensorLayout::fits_storage(self, what, offset, len)
    }
}

// ------------------------------------------------ tiler rank vs tensor rank

/// A tiler (or tile coordinate) with no more top-level modes than the
/// layout `L` has: the condition [`local_tile`](crate::local_tile) and the
/// partitions check first, so that the usual slip (CuTe's
/// `(BLK_M,BLK_N,BLK_K)` tiler passed without its projection) is named in
/// a sentence, with the two ranks (`Modes<3>` against `Modes<2>`).
///
/// ```
/// use cute_static::prelude::*;
/// // The tile (1, 1) of a tensor, for any tiler that fits its layout.
/// fn tile11<L: Partition<T, (usize, usize), Inner> + Copy, T: TilerFits<L>>(
///     t: Tensor<&[f32], L>,
///     tiler: T,
/// ) -> Tensor<&[f32], L::Output> {
///     local_tile(t, tiler, (1usize, 1usize))
/// }
/// let data = vec![0f32; 64];
/// assert_eq!(tile11(make_tensor(&data[..], layout!((8,8):(1,8))), shape!(4, 2)).offset(), 4 + 2 * 8);
/// ```
///
/// A `(BLK_M,BLK_N,BLK_K)` tiler on a matrix, without its projection, does not compile (the tiler has more
/// modes than the tensor):
///
/// ```compile_fail,E0277
/// use cute_static::prelude::*;
/// let data = vec![0f32; 64];
/// let t = local_tile(make_tensor(&data[..], layout!((8,8):(1,8))), shape!(4, 2, 2), (0usize, 0usize, 0usize));
/// ```
#[diagnostic::on_unimplemented(
    message = "the tiler has more modes than the tensor",
    label = "a tiler with at most one mode per mode of the tensor is expected here",
    note = "for one (BLK_M,BLK_N,BLK_K) tiler shared by A, B and C, project it: `local_tile_proj(t, tiler, coord, (Int::<1>::new(), X, Int::<1>::new()))` keeps modes 0 and 2 (CuTe's `Step<_1,X,_1>`)"
)]
pub trait TilerFits<L> {}
impl<T: ModeCount, S: ModeCount, D> TilerFits<Layout<S, D>> for T where T::Modes: AtMost<S::Modes> {}
impl<T: ModeCount, A, O, S: ModeCount, D> TilerFits<crate::ComposedLayout<A, O, Layout<S, D>>> for T where
    T::Modes: AtMost<S::Modes>
{
}

/// A number of top-level modes, as a type (what the check of
/// [`TilerFits`] compares; `Modes<0>` for a tiler that fits any layout).
#[derive(Clone, Copy, Debug, Default)]
pub struct Modes<const N: usize>;

/// `Self` is a number of modes no larger than `R`.
#[diagnostic::on_unimplemented(
    message = "the tiler has more modes than the tensor",
    label = "this tiler has `{Self}`, the tensor `{R}`",
    note = "for one (BLK_M,BLK_N,BLK_K) tiler shared by A, B and C, project it: `local_tile_proj(t, tiler, coord, (Int::<1>::new(), X, Int::<1>::new()))` keeps modes 0 and 2 (CuTe's `Step<_1,X,_1>`)"
)]
pub trait AtMost<R> {}
macro_rules! at_most {
    (@row $a:literal [$($b:literal)*]) => { $( impl AtMost<Modes<$b>> for Modes<$a> {} )* };
    ([]) => {};
    ([$a:literal $($rest:literal)*]) => {
        at_most!(@row $a [$a $($rest)*]);
        at_most!([$($rest)*]);
    };
}
at_most!([0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16]);

/// The number of top-level modes of a shape or tiler as [`Modes`]: a
/// tuple's arity, 1 for a leaf shape; a layout or `Tiler` as a tiler is
/// `Modes<0>` (it fits any layout: a layout tiles the whole domain).
pub trait ModeCount {
    /// The rank.
    type Modes;
}
macro_rules! mode_count {
    (@one $i:tt) => { 1 };
    ($($i:tt $S:ident $_a:ident $_b:ident),+) => {
        impl<$($S),+> ModeCount for ($($S,)+) {
            type Modes = Modes<{ 0 $(+ mode_count!(@one $i))+ }>;
        }
    };
}
for_each_tuple!(mode_count);
impl<U: Unsigned, B: typenum::Bit> ModeCount for UInt<U, B> {
    type Modes = Modes<1>;
}
impl ModeCount for Dyn {
    type Modes = Modes<1>;
}
impl<S, D> ModeCount for Layout<S, D> {
    type Modes = Modes<0>;
}
impl<X> ModeCount for crate::Tiler<X> {
    type Modes = Modes<0>;
}
