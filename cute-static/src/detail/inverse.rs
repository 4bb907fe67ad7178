//! Both inverses in trait resolution (paper 3.4): the coalesced modes of
//! the layout, each tagged with its prefix `p` (the product of the extents
//! before it, the integral coordinate where the mode starts), without
//! stride-0 modes, sorted by `(stride, prefix)`, then folded.

use crate::detail::Coalesced;
use crate::detail::{FlatModes, MCons, MNil};
use crate::int_tuple::known::{IsOne, IsZero, KnownOne, KnownZero, LeafMul};
use crate::int_tuple::{Dyn, Truth};
use core::ops::{Div, Mul, Rem};
use typenum::{B0, B1, Compare, Equal, GrEq, Greater, IsGreaterOrEqual, IsLess, Le, Less, Mod, Prod, Quot, U0, U1};
use typenum::{UInt, UTerm};

/// The empty list of ranked modes.
pub struct RNil;
/// A ranked mode `S:D` starting at integral coordinate `P`, then `T`.
pub struct RCons<S, D, P, T>(core::marker::PhantomData<(S, D, P, T)>);

/// Tags each mode with its prefix `P` (a run-time leaf after a run-time
/// extent) and drops stride-0 modes.
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
impl<S, D, T, P: LeafMul<S>> RankStep<P, B1> for MCons<S, D, T>
where
    T: Rank<<P as LeafMul<S>>::Output>,
{
    type Output = <T as Rank<<P as LeafMul<S>>::Output>>::Output;
}
impl<S, D, T, P: LeafMul<S>> RankStep<P, B0> for MCons<S, D, T>
where
    T: Rank<<P as LeafMul<S>>::Output>,
{
    type Output = RCons<S, D, P, <T as Rank<<P as LeafMul<S>>::Output>>::Output>;
}

/// The sorted ranked modes of a layout.
pub type Ranked<S, D> = <<Coalesced<FlatModes<S, D>> as Rank<U1>>::Output as crate::detail::Sort>::Output;

/// Right inverse fold with the next expected stride `C`: a mode of stride
/// `C` contributes `s : p`, a smaller stride is skipped, a larger one ends
/// the contiguous run. A run-time `C` (after a run-time extent) ends it
/// too, as in CuTe's fold, which continues only on a stride known equal.
pub trait RightFold<C> {
    /// The inverse's modes.
    type Output;
    /// `B1` when no mode could continue the run for any run-time value:
    /// the run ended at a static `C`, or every mode is in it. Then the
    /// modes are the largest right inverse's (cute-dynamic's), not only a
    /// right inverse.
    type Complete: Truth;
}
impl<C> RightFold<C> for RNil {
    type Output = MNil;
    type Complete = B1;
}
impl<S, D: RunCmp<C>, P, T, C> RightFold<C> for RCons<S, D, P, T>
where
    Self: RightStep<C, <D as RunCmp<C>>::Output>,
{
    type Output = <Self as RightStep<C, <D as RunCmp<C>>::Output>>::Output;
    type Complete = <Self as RightStep<C, <D as RunCmp<C>>::Output>>::Complete;
}
/// One step of the right inverse, by the comparison `O` of stride and `C`.
pub trait RightStep<C, O> {
    /// The inverse's modes.
    type Output;
    /// As [`RightFold::Complete`].
    type Complete: Truth;
}
impl<S: LeafMul<D>, D, P, T: RightFold<<S as LeafMul<D>>::Output>, C> RightStep<C, Equal> for RCons<S, D, P, T> {
    type Output = MCons<S, P, <T as RightFold<<S as LeafMul<D>>::Output>>::Output>;
    type Complete = <T as RightFold<<S as LeafMul<D>>::Output>>::Complete;
}
impl<S, D, P, T: RightFold<C>, C> RightStep<C, Less> for RCons<S, D, P, T> {
    type Output = <T as RightFold<C>>::Output;
    type Complete = <T as RightFold<C>>::Complete;
}
impl<S, D, P, T, C> RightStep<C, Greater> for RCons<S, D, P, T> {
    type Output = MNil;
    type Complete = B1;
}
/// A run-time `C` with this mode left: its stride may be `C`'s value.
impl<S, D, P, T, C> RightStep<C, Unknown> for RCons<S, D, P, T> {
    type Output = MNil;
    type Complete = B0;
}

/// The comparison of a static stride with a static `C` ([`Less`],
/// [`Equal`], [`Greater`]), [`Unknown`] with a run-time one.
pub trait RunCmp<C> {
    /// The comparison.
    type Output;
}
impl<D: typenum::Cmp<UTerm>> RunCmp<UTerm> for D {
    type Output = Compare<D, UTerm>;
}
impl<D: typenum::Cmp<UInt<U, B>>, U, B> RunCmp<UInt<U, B>> for D {
    type Output = Compare<D, UInt<U, B>>;
}
impl<D> RunCmp<Dyn> for D {
    type Output = Unknown;
}
/// A comparison with a run-time value.
pub struct Unknown;

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

/// `B1` when CuTe's left inverse of the sorted ranked modes `Self` (static
/// strides) is known to be cute-dynamic's: the modes nest as [`LeftWalk`]
/// needs (each mode but the last of static extent `s·d` at most the next
/// stride, which is a multiple of `d`), and the last mode's shape is
/// static or it starts where the mode before it ends. (A last run-time
/// shape of value 1 is dropped by cute-dynamic's `coalesce`, whose answer
/// then ends with the mode before it: the same size only in that case.)
/// Every prefix may be run-time.
///
/// `Z` is the size of the layout's stride-0 modes: cute-dynamic's answer
/// when a lone mode has size 1 (`Z:0`), which CuTe's `(d:0, 1:p)` matches
/// only for `d = Z`.
pub trait LeftNests<Z> {
    /// `B1` or `B0`.
    type Bit: Truth;
}
impl<Z> LeftNests<Z> for RNil {
    type Bit = B1;
}
impl<S, D, P, T: NestsAfter<S, D, Z>, Z> LeftNests<Z> for RCons<S, D, P, T> {
    type Bit = <T as NestsAfter<S, D, Z>>::Bit;
}
/// [`LeftNests`] of the modes `Self` after the mode `S:D`; `E` is the size
/// of cute-dynamic's answer were `S` a last mode of size 1: the extent of
/// the mode before it, or for the first mode the size of the stride-0
/// modes ([`Dyn`] where unknown).
pub trait NestsAfter<S, D, E> {
    /// `B1` or `B0`.
    type Bit: Truth;
}
impl<S: LastFits<D, E>, D, E> NestsAfter<S, D, E> for RNil {
    type Bit = <S as LastFits<D, E>>::Bit;
}
impl<S, D, E, S2, D2, P2, T2> NestsAfter<S, D, E> for RCons<S2, D2, P2, T2>
where
    S: NestsBefore<D, D2> + LeafMul<D>,
    T2: NestsAfter<S2, D2, <S as LeafMul<D>>::Output>,
{
    type Bit =
        <<S as NestsBefore<D, D2>>::Bit as Truth>::And<<T2 as NestsAfter<S2, D2, <S as LeafMul<D>>::Output>>::Bit>;
}
/// `B1` when the last mode `Self:D` keeps the answer's size whatever its
/// value: a static shape, or a start `D` known equal to `E` (see
/// [`NestsAfter`]).
pub trait LastFits<D, E> {
    /// `B1` or `B0`.
    type Bit: Truth;
}
impl<D, E> LastFits<D, E> for UTerm {
    type Bit = B1;
}
impl<U, B, D, E> LastFits<D, E> for UInt<U, B> {
    type Bit = B1;
}
impl<D, E: crate::int_tuple::known::KnownEq<D>> LastFits<D, E> for Dyn {
    type Bit = <E as crate::int_tuple::known::KnownEq<D>>::Output;
}
/// `B1` when the mode `Self:D` is known to end at or before the stride
/// `D2`, a multiple of `D`.
pub trait NestsBefore<D, D2> {
    /// `B1` or `B0`.
    type Bit: Truth;
}
impl<D, D2> NestsBefore<D, D2> for Dyn {
    type Bit = B0;
}
impl<D, D2> NestsBefore<D, D2> for UTerm {
    type Bit = B0;
}
impl<U, B, D, D2> NestsBefore<D, D2> for UInt<U, B>
where
    UInt<U, B>: Mul<D>,
    D2: IsGreaterOrEqual<Prod<UInt<U, B>, D>> + Rem<D>,
    GrEq<D2, Prod<UInt<U, B>, D>>: Truth,
    Mod<D2, D>: KnownZero,
    IsZero<Mod<D2, D>>: Truth,
{
    type Bit = <GrEq<D2, Prod<UInt<U, B>, D>> as Truth>::And<IsZero<Mod<D2, D>>>;
}

/// The size of the stride-0 modes of `Self` (static strides) times `Acc`:
/// static where their shapes are.
pub trait ZeroStrideSize<Acc> {
    /// The size.
    type Output;
}
impl<Acc> ZeroStrideSize<Acc> for MNil {
    type Output = Acc;
}
impl<S, D: KnownZero, T, Acc> ZeroStrideSize<Acc> for MCons<S, D, T>
where
    Self: ZeroStrideStep<Acc, IsZero<D>>,
{
    type Output = <Self as ZeroStrideStep<Acc, IsZero<D>>>::Output;
}
/// [`ZeroStrideSize`] by `B`, "stride 0".
pub trait ZeroStrideStep<Acc, B> {
    /// The size.
    type Output;
}
impl<S, D, T: ZeroStrideSize<<Acc as LeafMul<S>>::Output>, Acc: LeafMul<S>> ZeroStrideStep<Acc, B1> for MCons<S, D, T> {
    type Output = <T as ZeroStrideSize<<Acc as LeafMul<S>>::Output>>::Output;
}
impl<S, D, T: ZeroStrideSize<Acc>, Acc> ZeroStrideStep<Acc, B0> for MCons<S, D, T> {
    type Output = <T as ZeroStrideSize<Acc>>::Output;
}

/// `B1` when every stride of the modes `Self` is static.
pub trait StaticStrides {
    /// `B1` or `B0`.
    type Bit: Truth;
}
impl StaticStrides for MNil {
    type Bit = B1;
}
impl<S, D: crate::int_tuple::AllStatic, T: StaticStrides> StaticStrides for MCons<S, D, T> {
    type Bit = <<D as crate::int_tuple::AllStatic>::Bit as Truth>::And<<T as StaticStrides>::Bit>;
}
