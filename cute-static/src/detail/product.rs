//! `blocked_product` and `raked_product`: the rank-matched pairing of the
//! modes of `A` and the grid `B`.

use super::*;
use crate::detail::{HCons, HNil, MakeLayout, ModesOf};
use crate::layout::Layout;
use typenum::{B1, U0, U1};

/// Marker: blocked order (`(A_k, grid_k)` per mode).
pub struct Blocked;
/// Marker: raked order (`(grid_k, A_k)` per mode).
pub struct Raked;
/// Marker: `logical_product`'s arrangement, `((A0,G0),(A1,G1),untouched...)`
/// for a tiler (the value traits of the other three products take
/// [`Zipped`], [`Tiled`], [`Flat`]).
#[doc(hidden)]
pub struct Logical;

/// [`ProductValue`] by branch: `Static` is `B1` when both are all-static;
/// `How` is the arrangement ([`Logical`], [`Zipped`], [`Tiled`], [`Flat`]).
#[doc(hidden)]
pub trait ProductValueBy<How, A, B, Static>: Sized {
    /// The product.
    fn make(a: A, b: B) -> Self;
    /// The product, or cute-dynamic's error.
    #[cfg(feature = "std")]
    fn try_make(a: A, b: B) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O: crate::layout::StaticValue, How, A, B> ProductValueBy<How, A, B, B1> for O {
    #[inline(always)]
    fn make(_: A, _: B) -> O {
        O::value()
    }
    #[cfg(feature = "std")]
    #[inline(always)]
    fn try_make(_: A, _: B) -> Result<O, cute_dynamic::LayoutError> {
        Ok(O::value())
    }
}

/// Pads two lists of modes to the same length with `1:0` modes.
pub trait PadToSameRank<LB> {
    /// `Self`, padded.
    type A;
    /// `LB`, padded.
    type B;
}
pub(crate) type One = Layout<U1, U0>;
impl PadToSameRank<HNil> for HNil {
    type A = HNil;
    type B = HNil;
}
impl<X, TA: PadToSameRank<HNil>> PadToSameRank<HNil> for HCons<X, TA> {
    type A = HCons<X, <TA as PadToSameRank<HNil>>::A>;
    type B = HCons<One, <TA as PadToSameRank<HNil>>::B>;
}
impl<Y, TB> PadToSameRank<HCons<Y, TB>> for HNil
where
    HNil: PadToSameRank<TB>,
{
    type A = HCons<One, <HNil as PadToSameRank<TB>>::A>;
    type B = HCons<Y, <HNil as PadToSameRank<TB>>::B>;
}
impl<X, TA: PadToSameRank<TB>, Y, TB> PadToSameRank<HCons<Y, TB>> for HCons<X, TA> {
    type A = HCons<X, <TA as PadToSameRank<TB>>::A>;
    type B = HCons<Y, <TA as PadToSameRank<TB>>::B>;
}

/// Pairs the modes of the padded `A` with the modes of the grid, in the
/// order `How` (not coalesced: CuTe 4.x zips them as they are).
pub trait PairModes<How, Grid> {
    /// The result modes.
    type Output;
}
impl<How> PairModes<How, HNil> for HNil {
    type Output = HNil;
}
impl<How, X, TA, Y, TG> PairModes<How, HCons<Y, TG>> for HCons<X, TA>
where
    How: PairOrder<X, Y>,
    <How as PairOrder<X, Y>>::Pair: MakeLayout,
    TA: PairModes<How, TG>,
{
    type Output = HCons<<<How as PairOrder<X, Y>>::Pair as MakeLayout>::Output, <TA as PairModes<How, TG>>::Output>;
}
/// The order of a mode pair.
pub trait PairOrder<X, Y> {
    /// The two layouts as a list.
    type Pair;
}
impl<X, Y> PairOrder<X, Y> for Blocked {
    type Pair = Pair<X, Y>;
}
impl<X, Y> PairOrder<X, Y> for Raked {
    type Pair = Pair<Y, X>;
}

pub(crate) type PadA<A, B> = <<A as ModesOf>::Output as PadToSameRank<<B as ModesOf>::Output>>::A;
pub(crate) type PadB<A, B> = <<A as ModesOf>::Output as PadToSameRank<<B as ModesOf>::Output>>::B;
pub(crate) type PaL<A, B> = <PadA<A, B> as MakeLayout>::Output;
pub(crate) type PbL<A, B> = <PadB<A, B> as MakeLayout>::Output;
pub(crate) type GridL<A, B> = <PaL<A, B> as Split1D<ProductOp, PbL<A, B>>>::Y;

/// `blocked_product` / `raked_product` of `Self` by the layout `B` (CuTe
/// docs "Product"): ranks padded with `1:0`, then mode `k` of the result is
/// `(A_k, G_k)` (blocked) or `(G_k, A_k)` (raked) with `G = A* ∘ B` the grid
/// of the logical product, not coalesced (as CuTe 4.x and the paper).
pub trait RankProduct<How, B> {
    /// The result layout.
    type Output;
}
impl<AS, AD, BS, BD, How> RankProduct<How, Layout<BS, BD>> for Layout<AS, AD>
where
    Self: ModesOf,
    Layout<BS, BD>: ModesOf,
    <Self as ModesOf>::Output: PadToSameRank<<Layout<BS, BD> as ModesOf>::Output>,
    PadA<Self, Layout<BS, BD>>: MakeLayout,
    PadB<Self, Layout<BS, BD>>: MakeLayout,
    PaL<Self, Layout<BS, BD>>: Split1D<ProductOp, PbL<Self, Layout<BS, BD>>>,
    GridL<Self, Layout<BS, BD>>: ModesOf,
    PadA<Self, Layout<BS, BD>>: PairModes<How, <GridL<Self, Layout<BS, BD>> as ModesOf>::Output>,
    <PadA<Self, Layout<BS, BD>> as PairModes<How, <GridL<Self, Layout<BS, BD>> as ModesOf>::Output>>::Output:
        MakeLayout,
{
    type Output = <<PadA<Self, Layout<BS, BD>> as PairModes<
        How,
        <GridL<Self, Layout<BS, BD>> as ModesOf>::Output,
    >>::Output as MakeLayout>::Output;
}
/// `RankProduct` with the right layout as the `Self` type (the solver waits
/// for it before computing anything).
pub trait RankProductOnto<How, A> {
    /// The result layout.
    type Output;
}
impl<BS, BD, How, A: RankProduct<How, Layout<BS, BD>>> RankProductOnto<How, A> for Layout<BS, BD> {
    type Output = <A as RankProduct<How, Layout<BS, BD>>>::Output;
}
