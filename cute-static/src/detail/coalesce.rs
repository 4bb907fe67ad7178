//! The coalesce fold in trait resolution (paper 3.2): a size-1 mode is
//! dropped, two neighbouring modes `s0:d0, s1:d1` merge into `s0·s1:d0`
//! when `s0·d0 = d1`, each only when the fact is known at compile time.

use crate::detail::{MCons, MNil};
use crate::int_tuple::known::{And, IsStatic, KnownEq, KnownOne, LeafMul};
use core::ops::BitAnd;
use typenum::{B0, B1, U0, U1};

/// Marker: coalesce every mode (CuTe's `coalesce`).
pub struct Plain;
/// Marker: coalesce for composition, keeping the last leaf even of size 1.
pub struct KeepLast;

/// Left fold of coalesce over a mode list with the pending mode `PS:PD`
/// (`PS` a static 1 means none yet).
pub trait CoFold<PS, PD, K> {
    /// The coalesced modes.
    type Output;
}

/// Emits the pending mode unless it is empty (`B` = "PS is 1").
pub trait Pending<B> {
    /// `[]` or `[PS:PD]`.
    type Output;
}
impl<PS, PD> Pending<B1> for (PS, PD) {
    type Output = MNil;
}
impl<PS, PD> Pending<B0> for (PS, PD) {
    type Output = MCons<PS, PD, MNil>;
}

type One<S> = <S as KnownOne>::Output;

impl<PS: KnownOne, PD, K> CoFold<PS, PD, K> for MNil
where
    (PS, PD): Pending<One<PS>>,
{
    type Output = <(PS, PD) as Pending<One<PS>>>::Output;
}

/// One step of coalesce: mode `S:D` (the list head) against pending `PS:PD`.
/// `B` is "S is known to be 1" (skip it).
pub trait CoStep<PS, PD, K, B> {
    /// The rest of the fold.
    type Output;
}
impl<S, D, T: CoFold<PS, PD, K>, PS, PD, K> CoStep<PS, PD, K, B1> for MCons<S, D, T> {
    type Output = <T as CoFold<PS, PD, K>>::Output;
}
impl<S, D, T, PS: KnownOne, PD, K> CoStep<PS, PD, K, B0> for MCons<S, D, T>
where
    Self: CoStepNew<PS, PD, K, One<PS>>,
{
    type Output = <Self as CoStepNew<PS, PD, K, One<PS>>>::Output;
}

/// Whether the pending mode `Self:PD` and the next mode `S:D` are known to
/// merge: `S` static and `Self·PD = D` known (CuTe merges only when the
/// comparison is a compile-time `true`).
pub trait Merges<PD, S, D> {
    /// `B1` or `B0`.
    type Output;
}
type Known<PS, PD, D> = <<PS as LeafMul<PD>>::Output as KnownEq<D>>::Output;
impl<PS: LeafMul<PD>, PD, S: IsStatic, D> Merges<PD, S, D> for PS
where
    <PS as LeafMul<PD>>::Output: KnownEq<D>,
    <S as IsStatic>::Output: BitAnd<Known<PS, PD, D>>,
{
    type Output = And<<S as IsStatic>::Output, Known<PS, PD, D>>;
}
type Merge<PS, PD, S, D> = <PS as Merges<PD, S, D>>::Output;

/// `B` is "no pending mode": the head becomes pending.
pub trait CoStepNew<PS, PD, K, B> {
    /// The rest of the fold.
    type Output;
}
impl<S, D, T: CoFold<S, D, K>, PS, PD, K> CoStepNew<PS, PD, K, B1> for MCons<S, D, T> {
    type Output = <T as CoFold<S, D, K>>::Output;
}
impl<S, D, T, PS: Merges<PD, S, D>, PD, K> CoStepNew<PS, PD, K, B0> for MCons<S, D, T>
where
    Self: CoStepMerge<PS, PD, K, Merge<PS, PD, S, D>>,
{
    type Output = <Self as CoStepMerge<PS, PD, K, Merge<PS, PD, S, D>>>::Output;
}

/// `B` is "PS·PD = D" (known): the head merges into the pending mode.
pub trait CoStepMerge<PS, PD, K, B> {
    /// The rest of the fold.
    type Output;
}
impl<S, D, T, PS, PD, K> CoStepMerge<PS, PD, K, B1> for MCons<S, D, T>
where
    PS: LeafMul<S>,
    T: CoFold<<PS as LeafMul<S>>::Output, PD, K>,
{
    type Output = <T as CoFold<<PS as LeafMul<S>>::Output, PD, K>>::Output;
}
impl<S, D, T: CoFold<S, D, K>, PS, PD, K> CoStepMerge<PS, PD, K, B0> for MCons<S, D, T> {
    type Output = MCons<PS, PD, <T as CoFold<S, D, K>>::Output>;
}

impl<S: KnownOne, D, T, PS, PD> CoFold<PS, PD, Plain> for MCons<S, D, T>
where
    Self: CoStep<PS, PD, Plain, One<S>>,
{
    type Output = <Self as CoStep<PS, PD, Plain, One<S>>>::Output;
}
impl<S: KnownOne, D, S2, D2, T2, PS, PD> CoFold<PS, PD, KeepLast> for MCons<S, D, MCons<S2, D2, T2>>
where
    Self: CoStep<PS, PD, KeepLast, One<S>>,
{
    type Output = <Self as CoStep<PS, PD, KeepLast, One<S>>>::Output;
}
impl<S, D, PS: KnownOne, PD> CoFold<PS, PD, KeepLast> for MCons<S, D, MNil>
where
    Self: LastNew<PS, PD, One<PS>>,
{
    type Output = <Self as LastNew<PS, PD, One<PS>>>::Output;
}

/// The last leaf in composition's preparation; `B` is "no pending mode".
pub trait LastNew<PS, PD, B> {
    /// The prepared modes.
    type Output;
}
impl<S, D, PS, PD> LastNew<PS, PD, B1> for MCons<S, D, MNil> {
    type Output = MCons<S, D, MNil>;
}
impl<S, D, PS: Merges<PD, S, D>, PD> LastNew<PS, PD, B0> for MCons<S, D, MNil>
where
    Self: LastMerge<PS, PD, Merge<PS, PD, S, D>>,
{
    type Output = <Self as LastMerge<PS, PD, Merge<PS, PD, S, D>>>::Output;
}
/// `B` is "PS·PD = D" (known) for the last leaf.
pub trait LastMerge<PS, PD, B> {
    /// The prepared modes.
    type Output;
}
impl<S, D, PS: LeafMul<S>, PD> LastMerge<PS, PD, B1> for MCons<S, D, MNil> {
    type Output = MCons<<PS as LeafMul<S>>::Output, PD, MNil>;
}
impl<S, D, PS, PD> LastMerge<PS, PD, B0> for MCons<S, D, MNil> {
    type Output = MCons<PS, PD, MCons<S, D, MNil>>;
}

/// Coalesced modes of a mode list.
pub type Coalesced<M> = <M as CoFold<U1, U0, Plain>>::Output;
/// Modes of `A` prepared for composition.
pub type Prepared<M> = <M as CoFold<U1, U0, KeepLast>>::Output;
