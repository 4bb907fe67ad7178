//! Tiling and partitioning tensors: `local_tile`, `inner_partition`,
//! `outer_partition`, `local_partition` (CuTe's `tensor_impl.hpp`), with
//! projections (CuTe's `Step<_1, X, _1>`), the divides and composition of
//! a tensor, and [`partition_mut`](Tensor::partition_mut), which splits a
//! mutable tensor into per-thread views that may be used at the same time.
//!
//! The twin of cute-dynamic's `partition.rs`, with the same names and
//! semantics; here the result's structure is a type (a mixed `(M,N)`
//! tensor tiled by a static `(128,64)` has the static tile shape
//! `(_128,_64)` and run-time strides).

use crate::algorithm::TopModes;
use crate::composition::{Compose, ComposeValue};
use crate::composition::{FlatValues, FromValue, MAX_MODES};
use crate::detail::{FlattenInto, MNil, ModeSize};
use crate::divide::{DivideValue, LogicalDivide, ZippedDivide};
use crate::divide::{LogicalArr, ZippedArr};
use crate::int_tuple::known::LeafMul;
use crate::int_tuple::{And, Dyn, IntTuple, Leaf, Truth};
use crate::layout::{Congruent, Coord, Layout};
use crate::slice::{Slice, Underscore, VCons, VNil};
use crate::tensor::{Engine, InDomain, OffsetRange, OutOfStorage, Tensor, domain_panic, storage_panic};
use core::marker::PhantomData;
use core::ops::{Index, IndexMut};
use std::vec::Vec;
use typenum::{B0, B1, U1, UInt, Unsigned};

/// CuTe's `X` in a projection: the mode is left out (`_1`, i.e.
/// [`Int<1>`](crate::Int), keeps it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct X;

/// A layout whose view the tensor invariant can be checked for.
#[doc(hidden)]
pub trait Fits: Copy {
    /// `Ok` when `offset + L(c)` lies in `0..len` for every `c`.
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

/// Marker: the partition slices the rest mode (CuTe's `inner_partition`).
#[doc(hidden)]
pub struct Inner;
/// Marker: the partition slices the tile mode (CuTe's `outer_partition`).
#[doc(hidden)]
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

/// A tensor layout that can be divided by `T` and sliced as the
/// partition `Which` at `C` (the bound of [`inner_partition`],
/// [`outer_partition`], [`local_tile`]).
#[doc(hidden)]
pub trait Partition<T, C, Which>: Sized {
    /// The layout of the part.
    type Output: Fits;
    /// The part's layout, its offset (wrapping), and whether the divide
    /// is exact (`true` only when every coordinate of the part names an
    /// element of `self`'s domain, so the part reaches a subset of the
    /// tensor's elements); `None` when `c` is outside the divided layout's
    /// shape.
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
impl<S: AllLeaves, D, T: AllInts> FlatCase<T> for Layout<S, D>
where
    S::Bit: And<T::Bit>,
{
    type Bit = <S::Bit as And<T::Bit>>::Output;
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
// `And` of its elements' `IsLeaf`, folded from the right.
macro_rules! all_leaves_tuple {
    (@rev $Tr:ident [$($all:ident)+] [$($r:ident)*] $A:ident $($rest:ident)*) => {
        all_leaves_tuple!(@rev $Tr [$($all)+] [$A $($r)*] $($rest)*);
    };
    (@rev $Tr:ident [$($all:ident)+] [$last:ident $($r:ident)*]) => {
        all_leaves_tuple!(@fold $Tr [$($all)+] [] [<$last as IsLeaf>::Bit] $($r)*);
    };
    (@fold $Tr:ident [$($all:ident)+] [$($pred:tt)*] [$($acc:tt)+] $A:ident $($rest:ident)*) => {
        all_leaves_tuple!(@fold $Tr [$($all)+] [$($pred)* <$A as IsLeaf>::Bit: And<$($acc)+>,]
            [<<$A as IsLeaf>::Bit as And<$($acc)+>>::Output] $($rest)*);
    };
    (@fold $Tr:ident [$($all:ident)+] [$($pred:tt)*] [$($acc:tt)+]) => {
        impl<$($all: IsLeaf),+> $Tr for ($($all,)+)
        where
            $($pred)*
        {
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
    if !exact {
        if let Err(e) = sub.fits(what, offset, engine.len()) {
            storage_panic(e)
        }
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
/// storage (a ragged edge over unpadded storage: see the
/// [tensor invariant](crate::Tensor)), or when a run-time divide condition
/// fails.
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
pub fn inner_partition<E: Engine, L: Partition<T, C, Inner> + Copy, T, C>(
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
pub fn outer_partition<E: Engine, L: Partition<T, C, Outer> + Copy, T, C>(
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
pub fn local_tile<E: Engine, L: Partition<T, C, Inner> + Copy, T, C>(
    t: Tensor<E, L>,
    tiler: T,
    coord: C,
) -> Tensor<E, L::Output> {
    partition(t, "local_tile", tiler, coord)
}

// ------------------------------------------------------------ projections

/// The entries of a tuple where a projection keeps (CuTe's `dice`): the
/// entry at `Int<1>` (`U1`) stays, the entry at [`X`] goes.
#[doc(hidden)]
pub trait Dice<P> {
    /// The kept entries, as a tuple.
    type Output;
    /// The kept entries.
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

/// A static thread layout: its by-mode tiler (CuTe's
/// `product_each(shape(thr))`) and the flat coordinate of a thread index
/// (CuTe's `get_flat_coord`: per leaf `(idx / d) % s`, `0` for a leaf of
/// size 1 or stride 0, then one integer per top-level mode, column-major
/// within the mode).
#[doc(hidden)]
pub trait ThreadLayout: Copy {
    /// The tiler: one static size per top-level mode.
    type Tiler: Copy + Default;
    /// The coordinate: one `usize` per top-level mode.
    type Coord: Copy;
    /// The number of threads.
    fn threads(&self) -> usize;
    /// The coordinate of thread `idx`.
    fn coord(&self, idx: usize) -> Self::Coord;
    /// The sizes of the tiler's modes (1 past its rank, up to 4).
    fn tile_sizes(&self) -> [usize; 4];
    /// The coordinate of thread `idx` as one integer, column-major in the
    /// tiler's shape.
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
        <Layout<S, D> as Compose<T>>::Output: ComposeValue<Layout<S, D>, T> + Fits,
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
        <Layout<S, D> as LogicalDivide<T>>::Output: DivideValue<LogicalArr, Layout<S, D>, T> + Fits,
    {
        let (engine, offset, layout) = self.into_parts();
        let l = crate::logical_divide(layout, tiler);
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
        <Layout<S, D> as ZippedDivide<T>>::Output: DivideValue<ZippedArr, Layout<S, D>, T> + Fits,
    {
        let (engine, offset, layout) = self.into_parts();
        let l = crate::zipped_divide(layout, tiler);
        check(l, "zipped_divide", offset, engine.len());
        Tensor::from_parts_checked(engine, offset, l)
    }
}

#[inline(always)]
#[track_caller]
fn check<L: Fits>(l: L, what: &'static str, offset: usize, len: usize) {
    if let Err(e) = l.fits(what, offset, len) {
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
    #[inline(always)]
    pub fn layout(&self) -> Layout<S, D> {
        self.layout
    }

    /// The number of elements.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// The storage index of the layout's origin (as [`Tensor::offset`]).
    #[inline(always)]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// This part, borrowed: the same elements for the borrow's life.
    #[inline(always)]
    pub fn reborrow(&mut self) -> ThreadTensor<'_, T, Layout<S, D>> {
        ThreadTensor { ptr: self.ptr, offset: self.offset, layout: self.layout, _data: PhantomData }
    }

    #[inline(always)]
    fn index_of<C: Coord<S, D> + InDomain<S>>(&self, c: C) -> Option<usize> {
        let (s, d) = (self.layout.shape(), self.layout.stride());
        if c.inside(&s) { Some(c.offset_acc(&s, &d, self.offset)) } else { None }
    }

    /// The element at `c`; `None` outside the shape.
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

/// Two parts of [`Tensor::partition_mut`] reach one element.
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
    if (0..4).any(|i| t[i] > 1 && (i >= rank || m[i] % t[i] != 0)) {
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
