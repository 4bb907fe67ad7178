//! The coalesce fold in trait resolution (paper 3.2): a size-1 mode is
//! dropped, two neighbouring modes `s0:d0, s1:d1` merge into `s0·s1:d0`
//! when `s0·d0 = d1`, each only when the fact is known at compile time.

use crate::detail::{MCons, MNil};
use crate::int_tuple::Dyn;
use crate::int_tuple::known::{KnownEq, KnownOne, LeafMul};
use typenum::{B0, B1, U0, U1, UInt};

/// Marker: coalesce every mode (CuTe's `coalesce`).
pub struct Plain;
/// Marker: coalesce for composition, keeping the last leaf even of size 1.
pub struct KeepLast;

/// Left fold of coalesce over a mode list with the pending mode `PS:PD`
/// (`PS` a static 1 means none yet).
pub trait CoalesceFold<PS, PD, K> {
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

impl<PS: KnownOne, PD, K> CoalesceFold<PS, PD, K> for MNil
where
    (PS, PD): Pending<One<PS>>,
{
    type Output = <(PS, PD) as Pending<One<PS>>>::Output;
}

/// One step of coalesce: mode `S:D` (the list head) against pending `PS:PD`.
/// `B` is "S is known to be 1" (skip it).
pub trait CoalesceStep<PS, PD, K, B> {
    /// The rest of the fold.
    type Output;
}
impl<S, D, T: CoalesceFold<PS, PD, K>, PS, PD, K> CoalesceStep<PS, PD, K, B1> for MCons<S, D, T> {
    type Output = <T as CoalesceFold<PS, PD, K>>::Output;
}
impl<S, D, T, PS: KnownOne, PD, K> CoalesceStep<PS, PD, K, B0> for MCons<S, D, T>
where
    Self: CoalesceStepNew<PS, PD, K, One<PS>>,
{
    type Output = <Self as CoalesceStepNew<PS, PD, K, One<PS>>>::Output;
}

/// Whether the pending mode `Self:PD` and the next mode `S:D` are known to
/// merge: `S` static and `Self·PD = D` known (CuTe merges only when the
/// comparison is a compile-time `true`).
pub trait Merges<PD, S, D> {
    /// `B1` or `B0`.
    type Output;
}
type Known<PS, PD, D> = <<PS as LeafMul<PD>>::Output as KnownEq<D>>::Output;
// By the kind of `S` (one impl each), not by a conjunction of bits: fewer
// obligations for the solver.
impl<PS: LeafMul<PD>, PD, U, B, D> Merges<PD, UInt<U, B>, D> for PS
where
    <PS as LeafMul<PD>>::Output: KnownEq<D>,
{
    type Output = Known<PS, PD, D>;
}
impl<PS, PD, D> Merges<PD, Dyn, D> for PS {
    type Output = B0;
}
type Merge<PS, PD, S, D> = <PS as Merges<PD, S, D>>::Output;

/// `B` is "no pending mode": the head becomes pending.
pub trait CoalesceStepNew<PS, PD, K, B> {
    /// The rest of the fold.
    type Output;
}
impl<S, D, T: CoalesceFold<S, D, K>, PS, PD, K> CoalesceStepNew<PS, PD, K, B1> for MCons<S, D, T> {
    type Output = <T as CoalesceFold<S, D, K>>::Output;
}
impl<S, D, T, PS: Merges<PD, S, D>, PD, K> CoalesceStepNew<PS, PD, K, B0> for MCons<S, D, T>
where
    Self: CoalesceStepMerge<PS, PD, K, Merge<PS, PD, S, D>>,
{
    type Output = <Self as CoalesceStepMerge<PS, PD, K, Merge<PS, PD, S, D>>>::Output;
}

/// `B` is "PS·PD = D" (known): the head merges into the pending mode.
pub trait CoalesceStepMerge<PS, PD, K, B> {
    /// The rest of the fold.
    type Output;
}
impl<S, D, T, PS, PD, K> CoalesceStepMerge<PS, PD, K, B1> for MCons<S, D, T>
where
    PS: LeafMul<S>,
    T: CoalesceFold<<PS as LeafMul<S>>::Output, PD, K>,
{
    type Output = <T as CoalesceFold<<PS as LeafMul<S>>::Output, PD, K>>::Output;
}
impl<S, D, T: CoalesceFold<S, D, K>, PS, PD, K> CoalesceStepMerge<PS, PD, K, B0> for MCons<S, D, T> {
    type Output = MCons<PS, PD, <T as CoalesceFold<S, D, K>>::Output>;
}

impl<S: KnownOne, D, T, PS, PD> CoalesceFold<PS, PD, Plain> for MCons<S, D, T>
where
    Self: CoalesceStep<PS, PD, Plain, One<S>>,
{
    type Output = <Self as CoalesceStep<PS, PD, Plain, One<S>>>::Output;
}
impl<S: KnownOne, D, S2, D2, T2, PS, PD> CoalesceFold<PS, PD, KeepLast> for MCons<S, D, MCons<S2, D2, T2>>
where
    Self: CoalesceStep<PS, PD, KeepLast, One<S>>,
{
    type Output = <Self as CoalesceStep<PS, PD, KeepLast, One<S>>>::Output;
}
impl<S, D, PS: KnownOne, PD> CoalesceFold<PS, PD, KeepLast> for MCons<S, D, MNil>
where
    Self: CoalesceLastNew<PS, PD, One<PS>>,
{
    type Output = <Self as CoalesceLastNew<PS, PD, One<PS>>>::Output;
}

/// The last leaf in composition's preparation; `B` is "no pending mode".
pub trait CoalesceLastNew<PS, PD, B> {
    /// The prepared modes.
    type Output;
}
impl<S, D, PS, PD> CoalesceLastNew<PS, PD, B1> for MCons<S, D, MNil> {
    type Output = MCons<S, D, MNil>;
}
impl<S, D, PS: Merges<PD, S, D>, PD> CoalesceLastNew<PS, PD, B0> for MCons<S, D, MNil>
where
    Self: CoalesceLastMerge<PS, PD, Merge<PS, PD, S, D>>,
{
    type Output = <Self as CoalesceLastMerge<PS, PD, Merge<PS, PD, S, D>>>::Output;
}
/// `B` is "PS·PD = D" (known) for the last leaf.
pub trait CoalesceLastMerge<PS, PD, B> {
    /// The prepared modes.
    type Output;
}
impl<S, D, PS: LeafMul<S>, PD> CoalesceLastMerge<PS, PD, B1> for MCons<S, D, MNil> {
    type Output = MCons<<PS as LeafMul<S>>::Output, PD, MNil>;
}
impl<S, D, PS, PD> CoalesceLastMerge<PS, PD, B0> for MCons<S, D, MNil> {
    type Output = MCons<PS, PD, MCons<S, D, MNil>>;
}

/// Coalesced modes of a mode list.
pub type Coalesced<M> = <M as CoalesceFold<U1, U0, Plain>>::Output;
/// Modes of `A` prepared for composition.
pub type Prepared<M> = <M as CoalesceFold<U1, U0, KeepLast>>::Output;
