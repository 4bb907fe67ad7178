//! `right_inverse` and `left_inverse` in trait resolution (paper 3.4).
//!
//! Both work on the coalesced modes of the layout, each tagged with its
//! prefix `p` (the product of the extents before it, i.e. the integral
//! coordinate where the mode starts), without stride-0 modes, sorted by
//! `(stride, prefix)`.

use crate::StaticLayout;
use crate::coalesce::{CoFold, Coalesced, Plain};
use crate::layout::Layout;
use crate::list::{FlatModes, FlattenInto, LayoutOfModes, MCons, MNil, ModesToLayout};
use core::ops::{Div, Mul, Rem};
use typenum::{B0, B1, Compare, Eq, Equal, Greater, IsEqual, IsLess, Le, Less, Mod, Prod, Quot, U0, U1};

/// The empty list of ranked modes.
pub struct RNil;
/// A ranked mode `S:D` starting at integral coordinate `P`, then `T`.
pub struct RCons<S, D, P, T>(core::marker::PhantomData<(S, D, P, T)>);

/// Tags each mode with its prefix `P` and drops stride-0 modes.
pub trait Rank<P> {
    /// The ranked modes.
    type Output;
}
impl<P> Rank<P> for MNil {
    type Output = RNil;
}
impl<S, D: IsEqual<U0>, T, P> Rank<P> for MCons<S, D, T>
where
    Self: RankA<P, Eq<D, U0>>,
{
    type Output = <Self as RankA<P, Eq<D, U0>>>::Output;
}
/// `B` is "stride 0" (dropped, the prefix still advances).
pub trait RankA<P, B> {
    /// The ranked modes.
    type Output;
}
impl<S, D, T, P: Mul<S>> RankA<P, B1> for MCons<S, D, T>
where
    T: Rank<Prod<P, S>>,
{
    type Output = <T as Rank<Prod<P, S>>>::Output;
}
impl<S, D, T, P: Mul<S>> RankA<P, B0> for MCons<S, D, T>
where
    T: Rank<Prod<P, S>>,
{
    type Output = RCons<S, D, P, <T as Rank<Prod<P, S>>>::Output>;
}

/// Insertion sort of ranked modes by `(stride, prefix)`.
pub trait SortR {
    /// The sorted modes.
    type Output;
}
impl SortR for RNil {
    type Output = RNil;
}
impl<S, D, P, T: SortR> SortR for RCons<S, D, P, T>
where
    <T as SortR>::Output: InsertR<S, D, P>,
{
    type Output = <<T as SortR>::Output as InsertR<S, D, P>>::Output;
}
/// Inserts a ranked mode into a sorted list.
pub trait InsertR<S, D, P> {
    /// The sorted modes.
    type Output;
}
impl<S, D, P> InsertR<S, D, P> for RNil {
    type Output = RCons<S, D, P, RNil>;
}
impl<S, D: typenum::Cmp<D2>, P, S2, D2, P2, T2> InsertR<S, D, P> for RCons<S2, D2, P2, T2>
where
    Self: InsertRBy<S, D, P, Compare<D, D2>>,
{
    type Output = <Self as InsertRBy<S, D, P, Compare<D, D2>>>::Output;
}
/// Insertion by the comparison `O` of the strides (then of the prefixes).
pub trait InsertRBy<S, D, P, O> {
    /// The sorted modes.
    type Output;
}
impl<S, D, P, S2, D2, P2, T2> InsertRBy<S, D, P, Less> for RCons<S2, D2, P2, T2> {
    type Output = RCons<S, D, P, Self>;
}
impl<S, D, P, S2, D2, P2, T2: InsertR<S, D, P>> InsertRBy<S, D, P, Greater> for RCons<S2, D2, P2, T2> {
    type Output = RCons<S2, D2, P2, <T2 as InsertR<S, D, P>>::Output>;
}
impl<S, D, P: typenum::Cmp<P2>, S2, D2, P2, T2> InsertRBy<S, D, P, Equal> for RCons<S2, D2, P2, T2>
where
    Self: InsertRByPrefix<S, D, P, Compare<P, P2>>,
{
    type Output = <Self as InsertRByPrefix<S, D, P, Compare<P, P2>>>::Output;
}
/// Equal strides: order by prefix.
pub trait InsertRByPrefix<S, D, P, O> {
    /// The sorted modes.
    type Output;
}
impl<S, D, P, S2, D2, P2, T2> InsertRByPrefix<S, D, P, Less> for RCons<S2, D2, P2, T2> {
    type Output = RCons<S, D, P, Self>;
}
impl<S, D, P, S2, D2, P2, T2: InsertR<S, D, P>> InsertRByPrefix<S, D, P, Greater> for RCons<S2, D2, P2, T2> {
    type Output = RCons<S2, D2, P2, <T2 as InsertR<S, D, P>>::Output>;
}

/// The sorted ranked modes of a layout.
pub type Ranked<S, D> = <<Coalesced<FlatModes<S, D>> as Rank<U1>>::Output as SortR>::Output;

/// Right inverse fold with the next expected stride `C`: a mode of stride
/// `C` contributes `s : p`, a smaller stride is skipped, a larger one ends
/// the contiguous run.
pub trait RightFold<C> {
    /// The inverse's modes.
    type Output;
}
impl<C> RightFold<C> for RNil {
    type Output = MNil;
}
impl<S, D: typenum::Cmp<C>, P, T, C> RightFold<C> for RCons<S, D, P, T>
where
    Self: RightStep<C, Compare<D, C>>,
{
    type Output = <Self as RightStep<C, Compare<D, C>>>::Output;
}
/// One step of the right inverse, by the comparison `O` of stride and `C`.
pub trait RightStep<C, O> {
    /// The inverse's modes.
    type Output;
}
impl<S: Mul<D>, D, P, T: RightFold<Prod<S, D>>, C> RightStep<C, Equal> for RCons<S, D, P, T> {
    type Output = MCons<S, P, <T as RightFold<Prod<S, D>>>::Output>;
}
impl<S, D, P, T: RightFold<C>, C> RightStep<C, Less> for RCons<S, D, P, T> {
    type Output = <T as RightFold<C>>::Output;
}
impl<S, D, P, T, C> RightStep<C, Greater> for RCons<S, D, P, T> {
    type Output = MNil;
}

/// `right_inverse(Self)` (paper 3.4.1): the largest `R` with
/// `L(R(k)) = k` for `k < size(R)`.
pub trait RightInverse {
    /// The right inverse.
    type Output;
}
impl<S, D> RightInverse for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: CoFold<U1, U0, Plain>,
    Coalesced<FlatModes<S, D>>: Rank<U1>,
    <Coalesced<FlatModes<S, D>> as Rank<U1>>::Output: SortR,
    Ranked<S, D>: RightFold<U1>,
    <Ranked<S, D> as RightFold<U1>>::Output: CoFold<U1, U0, Plain>,
    Coalesced<<Ranked<S, D> as RightFold<U1>>::Output>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<<Ranked<S, D> as RightFold<U1>>::Output>>;
}

/// The left inverse's modes: `d0 : 0` first when the smallest stride `d0`
/// exceeds 1, then the walk.
pub trait LeftStart {
    /// The inverse's modes.
    type Output;
}
impl LeftStart for RNil {
    type Output = MNil;
}
impl<S, D: IsEqual<U1>, P, T> LeftStart for RCons<S, D, P, T>
where
    Self: LeftWalk + LeftFirst<Eq<D, U1>>,
{
    type Output = <Self as LeftFirst<Eq<D, U1>>>::Output;
}
/// `B` is "the smallest stride is 1".
pub trait LeftFirst<B> {
    /// The inverse's modes.
    type Output;
}
impl<S, D, P, T> LeftFirst<B1> for RCons<S, D, P, T>
where
    Self: LeftWalk,
{
    type Output = <Self as LeftWalk>::Output;
}
impl<S, D, P, T> LeftFirst<B0> for RCons<S, D, P, T>
where
    Self: LeftWalk,
{
    type Output = MCons<D, U0, <Self as LeftWalk>::Output>;
}

/// The left inverse's walk over consecutive sorted modes: each next
/// stride `d'` must start at or after the extent `s·d` (injectivity) and be
/// a multiple of `d`; it contributes `d'/d : p`; the last mode `s : p`.
pub trait LeftWalk {
    /// The inverse's modes.
    type Output;
}
impl<S, D, P> LeftWalk for RCons<S, D, P, RNil> {
    type Output = MCons<S, P, MNil>;
}
impl<S: Mul<D>, D, P, S2, D2: IsLess<Prod<S, D>>, P2, T2> LeftWalk for RCons<S, D, P, RCons<S2, D2, P2, T2>>
where
    Self: LeftInjective<Le<D2, Prod<S, D>>>,
{
    type Output = <Self as LeftInjective<Le<D2, Prod<S, D>>>>::Output;
}
/// The injectivity condition of `left_inverse`.
#[diagnostic::on_unimplemented(
    message = "left_inverse of a layout that is not injective",
    label = "sorted by stride, a mode starts inside the extent of the previous one",
    note = "the layout maps two coordinates to one offset (or interleaves modes), so no layout is its left inverse"
)]
pub trait LeftInjective<B> {
    /// The inverse's modes.
    type Output;
}
impl<S, D, P, S2, D2: Rem<D>, P2, T2> LeftInjective<B0> for RCons<S, D, P, RCons<S2, D2, P2, T2>>
where
    Mod<D2, D>: IsEqual<U0>,
    Self: LeftDivisible<Eq<Mod<D2, D>, U0>>,
{
    type Output = <Self as LeftDivisible<Eq<Mod<D2, D>, U0>>>::Output;
}
/// The stride condition of `left_inverse`.
#[diagnostic::on_unimplemented(
    message = "left_inverse has no layout: a stride is not a multiple of the next smaller one",
    label = "sorted by stride, each stride must be a multiple of the previous"
)]
pub trait LeftDivisible<B> {
    /// The inverse's modes.
    type Output;
}
impl<S, D, P, S2, D2: Div<D>, P2, T2> LeftDivisible<B1> for RCons<S, D, P, RCons<S2, D2, P2, T2>>
where
    RCons<S2, D2, P2, T2>: LeftWalk,
{
    type Output = MCons<Quot<D2, D>, P, <RCons<S2, D2, P2, T2> as LeftWalk>::Output>;
}

/// `left_inverse(Self)` (paper 3.4.3): `R` with `R(L(k)) = k` for every
/// `k < size(L)`; not implemented for layouts that are not injective.
pub trait LeftInverse {
    /// The left inverse.
    type Output;
}
impl<S, D> LeftInverse for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: CoFold<U1, U0, Plain>,
    Coalesced<FlatModes<S, D>>: Rank<U1>,
    <Coalesced<FlatModes<S, D>> as Rank<U1>>::Output: SortR,
    Ranked<S, D>: LeftStart,
    <Ranked<S, D> as LeftStart>::Output: CoFold<U1, U0, Plain>,
    Coalesced<<Ranked<S, D> as LeftStart>::Output>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<<Ranked<S, D> as LeftStart>::Output>>;
}

/// `right_inverse(a)` (see [`RightInverse`]).
///
/// ```
/// use cute_static::prelude::*;
/// assert_eq!(right_inverse(layout!((4,8):(8,1))).to_string(), "(_8,_4):(_4,_1)");
/// assert_eq!(right_inverse(layout!((4,8):(1,5))).to_string(), "_4:_1");
/// ```
#[inline(always)]
pub fn right_inverse<A: RightInverse>(a: A) -> <A as RightInverse>::Output
where
    <A as RightInverse>::Output: StaticLayout,
{
    let _ = a;
    Default::default()
}

/// `left_inverse(a)` (see [`LeftInverse`]).
///
/// ```
/// use cute_static::prelude::*;
/// assert_eq!(left_inverse(layout!((4,8):(1,5))).to_string(), "(_5,_8):(_1,_4)");
/// assert_eq!(left_inverse(layout!((3,7,5):(5,15,1))).to_string(), "(_5,_21):(_21,_1)");
/// ```
#[inline(always)]
pub fn left_inverse<A: LeftInverse>(a: A) -> <A as LeftInverse>::Output
where
    <A as LeftInverse>::Output: StaticLayout,
{
    let _ = a;
    Default::default()
}
