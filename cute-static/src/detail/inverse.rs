//! Both inverses in trait resolution (paper 3.4): the coalesced modes of
//! the layout, each tagged with its prefix `p` (the product of the extents
//! before it, the integral coordinate where the mode starts), without
//! stride-0 modes, sorted by `(stride, prefix)`, then folded.

use crate::detail::Coalesced;
use crate::detail::{FlatModes, MCons, MNil};
use crate::int_tuple::known::{IsOne, IsZero, KnownOne, KnownZero};
use core::ops::{Div, Mul, Rem};
use typenum::{B0, B1, Compare, Equal, Greater, IsLess, Le, Less, Mod, Prod, Quot, U0, U1};

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
impl<S, D: KnownZero, T, P> Rank<P> for MCons<S, D, T>
where
    Self: RankStep<P, IsZero<D>>,
{
    type Output = <Self as RankStep<P, IsZero<D>>>::Output;
}
/// `B` is "stride 0" (dropped, the prefix still advances).
pub trait RankStep<P, B> {
    /// The ranked modes.
    type Output;
}
impl<S, D, T, P: Mul<S>> RankStep<P, B1> for MCons<S, D, T>
where
    T: Rank<Prod<P, S>>,
{
    type Output = <T as Rank<Prod<P, S>>>::Output;
}
impl<S, D, T, P: Mul<S>> RankStep<P, B0> for MCons<S, D, T>
where
    T: Rank<Prod<P, S>>,
{
    type Output = RCons<S, D, P, <T as Rank<Prod<P, S>>>::Output>;
}

/// The sorted ranked modes of a layout.
pub type Ranked<S, D> = <<Coalesced<FlatModes<S, D>> as Rank<U1>>::Output as crate::detail::Sort>::Output;

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

/// The left inverse's modes: `d0 : 0` first when the smallest stride `d0`
/// exceeds 1, then the walk; with no non-zero stride, `C` (the coalesced
/// modes, all of stride 0: CuTe's `size:0`).
pub trait LeftStart<C> {
    /// The inverse's modes.
    type Output;
}
impl<C> LeftStart<C> for RNil {
    type Output = C;
}
impl<C, S, D: KnownOne, P, T> LeftStart<C> for RCons<S, D, P, T>
where
    Self: LeftWalk + LeftFirst<IsOne<D>>,
{
    type Output = <Self as LeftFirst<IsOne<D>>>::Output;
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
    Mod<D2, D>: KnownZero,
    Self: LeftDivisible<IsZero<Mod<D2, D>>>,
{
    type Output = <Self as LeftDivisible<IsZero<Mod<D2, D>>>>::Output;
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
