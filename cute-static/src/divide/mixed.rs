//! The divides with run-time ([`Dyn`]) leaves, in the layout or in the
//! tiler's one-mode tiles.
//!
//! The all-static divides are decided in trait resolution (`detail/divide.rs`,
//! unchanged). With a run-time leaf in the layout, the by-mode structure is
//! still found there (the same arrangement traits), and each 1-D divide
//! `A ∘ (B, B*)` takes the branch of this file, with CuTe's
//! `B* = complement(B, shape(coalesce(A)))` ([`TileBB`]). Against `A`'s
//! shape, CuTe's complement keeps the runs of static extents it knows:
//! `B*` of a tile of size 1 is those runs, compact (`(_128, 24):(_1, _128)`
//! for a shape `(_4, _32, 24)`), and a static tile `n:d` whose span `n·d`
//! divides a first static run `S` takes `p = S/(n·d)` statically,
//! `(d, p, M/S):(1, n·d, n·d·p)`; on all-static extents (a run-time
//! stride) `B*` is static. Otherwise `B*` is the complement against
//! the run-time size `M` of the mode: `⌈M/n⌉:n` for `d = 1`, `M:1` for
//! `n = 1` (a tile of size 1 drops out of the complement) and
//! `(d, ⌈M/(n·d)⌉):(1, n·d)` otherwise (ragged: `⌈⌉` as CuTe and
//! cute-dynamic). The composition is the mixed one of `composition.rs` in
//! CuTe's form (each leaf of `(B, B*)` by CuTe's fold over the coalesced
//! modes of `A`, with cute-dynamic's checks; a mode of `A` of one flat leaf
//! by the linear rule, [`divide_1d`]). A tile of stride 0 has no mixed
//! divide (a compile error), but for `1:0`, the tile of the integer 1
//! (CuTe's `make_layout(_1)`).
//!
//! A tile of several modes takes `B*` of its `filter` ([`MultiBB`]): for
//! an all-static tile, in CuTe's form (one mode left: as that one-mode
//! tile; several: the static modes of the complement's walk, then the
//! rest as a one-mode tile `N:1` has it); with a run-time leaf, CuTe's
//! complement fold where CuTe's rest from the stride `N` of its last mode
//! on is one run-time leaf (`N` run-time, or static where a tile `N:1`
//! has such a rest, [`FoldBB`]), else against the run-time size `M`
//! ([`TileRest`]).
//!
//! A tile `n:d` with a run-time leaf (or a run-time integer `m`, CuTe's
//! `make_layout(m)` = `m:_1`) has `B*` in CuTe's form for `int` leaves: it
//! cannot coalesce what it does not know, so `(d, ⌈M/(n·d)⌉):(1, n·d)`
//! keeps both modes whatever the values, but for what CuTe's `filter` and
//! `coalesce` drop statically ([`TileBB`]). Where CuTe's form is not
//! cute-dynamic's function (a run-time size 1 or stride 0 adds no offset,
//! so cute-dynamic's complement is `M:1`) the same type holds that
//! function; a negative stride is cute-dynamic's complement error.

use crate::composition::{CuteModes, CuteOf, DeferredChecks, Fail, MixedTree, Prepared, TryComposeCute};
use crate::composition::{LeafCeilDiv, LeafDivides, LeafQuot, ListLayout, VCons, VNil};
use crate::composition::{compose_as, compose_leaf, finish};
use crate::detail::{CompGap, LayoutOfModes, ModesToLayout, StaticWalk};
use crate::detail::{DivideOp, Split1DBy, SplitHalves};
use crate::detail::{ExactCount, FoldCurr, LayoutFolds, RunTimeFold, Sorted, SortedModes};
use crate::detail::{FlatModes, FlattenInto, MCons, MNil};
use crate::int_tuple::known::{IsOne, IsZero, KnownOne, KnownZero, LeafMul};
use crate::int_tuple::{Dyn, IntTuple, OneRunTimeLeaf, Truth};
use crate::layout::Layout;
use crate::run_time::{FlatValues, FromLeaves, MAX_MODES, TOO_MANY_MODES, marked_modes};
use core::ops::{Mul, Not};
use cute_dynamic::kernel::ceil_div;
use std::string::String;
use typenum::{B0, B1, Bit, Eq, IsEqual, Prod, U0, U1, UInt, Unsigned};

// ------------------------------------------------------------- the types

/// The complement `B*` of a static tile `n:Self` against a run-time size,
/// as a type; `B` is "the stride is 1".
#[doc(hidden)]
pub trait RestOf<N, B> {
    /// Shape of `(B, B*)`.
    type Shape;
    /// Stride of `(B, B*)`.
    type Stride;
}
impl<N, D> RestOf<N, B1> for D {
    type Shape = (N, Dyn);
    type Stride = (D, N);
}
impl<N, D: Mul<N>> RestOf<N, B0> for D {
    type Shape = (N, (D, Dyn));
    type Stride = (D, (U1, Prod<D, N>));
}

// ---------------------------------------------- CuTe's cotarget, as types

/// The kind of a shape leaf of `A` in CuTe's cotarget `shape(coalesce(A))`:
/// a static 1 (dropped), another static extent, or a run-time one.
#[doc(hidden)]
pub struct KOne;
/// A static extent of at least 2 (see [`KOne`]).
#[doc(hidden)]
pub struct KStatic;
/// A run-time extent (see [`KOne`]).
#[doc(hidden)]
pub struct KDyn;
/// The [`KOne`], [`KStatic`] or [`KDyn`] of a shape leaf.
#[doc(hidden)]
pub trait RunKind {
    /// The kind.
    type K;
}
impl RunKind for Dyn {
    type K = KDyn;
}
impl<U, B> RunKind for UInt<U, B>
where
    UInt<U, B>: KnownOne,
    IsOne<UInt<U, B>>: OneKind,
{
    type K = <IsOne<UInt<U, B>> as OneKind>::K;
}
/// [`RunKind`] of a static leaf by "it is 1".
#[doc(hidden)]
pub trait OneKind {
    /// The kind.
    type K;
}
impl OneKind for B1 {
    type K = KOne;
}
impl OneKind for B0 {
    type K = KStatic;
}

/// The runs of the flat modes `Self` of `A`: CuTe's cotarget
/// `shape(coalesce(A))` coalesced as a shape (its static 1s dropped, each
/// run of static extents one static leaf, each run of run-time extents one
/// run-time leaf), with the compact strides CuTe's complement gives it, as
/// a type list; `Acc` is where the open run starts, `Run` its extent (`U1`
/// before the first).
#[doc(hidden)]
pub trait RunsFrom<Acc, Run> {
    /// The runs, as a type list.
    type Out;
}
impl<Acc, Run: RunKind> RunsFrom<Acc, Run> for MNil
where
    Run::K: CloseRun<Run, Acc, VNil>,
{
    type Out = <Run::K as CloseRun<Run, Acc, VNil>>::Out;
}
impl<S: RunKind, D, T, Acc, Run: RunKind> RunsFrom<Acc, Run> for MCons<S, D, T>
where
    T: RunStep<S, S::K, Acc, Run, Run::K>,
{
    type Out = <T as RunStep<S, S::K, Acc, Run, Run::K>>::Out;
}
/// The open run `Run:Acc` (kind `Self`) before the runs `T`.
#[doc(hidden)]
pub trait CloseRun<Run, Acc, T> {
    /// The runs.
    type Out;
}
impl<Run, Acc, T> CloseRun<Run, Acc, T> for KOne {
    type Out = T;
}
impl<Run, Acc, T> CloseRun<Run, Acc, T> for KStatic {
    type Out = VCons<Run, Acc, T>;
}
impl<Run, Acc, T> CloseRun<Run, Acc, T> for KDyn {
    type Out = VCons<Run, Acc, T>;
}
/// One step of [`RunsFrom`]: the extent `C` (kind `KC`) after the open run
/// `Run` (kind `KR`) that starts at `Acc`, before the modes `Self`.
#[doc(hidden)]
pub trait RunStep<C, KC, Acc, Run, KR> {
    /// The runs.
    type Out;
}
// A static 1: dropped.
impl<T: RunsFrom<Acc, Run>, C, Acc, Run, KR> RunStep<C, KOne, Acc, Run, KR> for T {
    type Out = T::Out;
}
// The first run starts.
impl<T: RunsFrom<Acc, C>, C, Acc, Run> RunStep<C, KStatic, Acc, Run, KOne> for T {
    type Out = T::Out;
}
impl<T: RunsFrom<Acc, C>, C, Acc, Run> RunStep<C, KDyn, Acc, Run, KOne> for T {
    type Out = T::Out;
}
// An extent of the open run's kind: the run grows.
impl<T, C, Acc, Run: LeafMul<C>> RunStep<C, KStatic, Acc, Run, KStatic> for T
where
    T: RunsFrom<Acc, <Run as LeafMul<C>>::Output>,
{
    type Out = T::Out;
}
impl<T: RunsFrom<Acc, Dyn>, C, Acc, Run> RunStep<C, KDyn, Acc, Run, KDyn> for T {
    type Out = T::Out;
}
// The other kind: the run closes, the next starts where it ends.
impl<T, C, Acc: LeafMul<Run>, Run> RunStep<C, KStatic, Acc, Run, KDyn> for T
where
    T: RunsFrom<<Acc as LeafMul<Run>>::Output, C>,
{
    type Out = VCons<Run, Acc, T::Out>;
}
impl<T, C, Acc: LeafMul<Run>, Run> RunStep<C, KDyn, Acc, Run, KStatic> for T
where
    T: RunsFrom<<Acc as LeafMul<Run>>::Output, C>,
{
    type Out = VCons<Run, Acc, T::Out>;
}
/// The runs of `A`'s flat modes `L` (see [`RunsFrom`]).
type Runs<L> = <L as RunsFrom<U1, U1>>::Out;

/// What the form of `B*` reads off the runs: how many there are and of
/// which kind ([`FMany`], [`FStatic`], [`FDyn`]), and the first run's
/// extent where it is static (`U1` otherwise).
#[doc(hidden)]
pub trait RunsHead {
    /// The runs' form.
    type Form;
    /// The first run's static extent, or `U1`.
    type Lead;
}
/// Two runs or more (so both kinds of extent).
#[doc(hidden)]
pub struct FMany;
/// One run, static: `A`'s extents are all static.
#[doc(hidden)]
pub struct FStatic;
/// One run-time run, or none: nothing static to keep.
#[doc(hidden)]
pub struct FDyn;
impl RunsHead for VNil {
    type Form = FDyn;
    type Lead = U1;
}
impl<S: RunKind, D> RunsHead for VCons<S, D, VNil>
where
    S::K: LeadOf<S>,
{
    type Form = <S::K as LeadOf<S>>::Form;
    type Lead = <S::K as LeadOf<S>>::Out;
}
impl<S: RunKind, D, S2, D2, T> RunsHead for VCons<S, D, VCons<S2, D2, T>>
where
    S::K: LeadOf<S>,
{
    type Form = FMany;
    type Lead = <S::K as LeadOf<S>>::Out;
}
/// A run's extent where it is static, `U1` where it is run-time; and the
/// form of runs of that one run.
#[doc(hidden)]
pub trait LeadOf<S> {
    /// The extent.
    type Out;
    /// [`FStatic`] or [`FDyn`].
    type Form;
}
impl<S> LeadOf<S> for KStatic {
    type Out = S;
    type Form = FStatic;
}
impl<S> LeadOf<S> for KDyn {
    type Out = U1;
    type Form = FDyn;
}

/// Which form `B*` takes, for the values to follow the type: see
/// [`TileBB`].
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BStar {
    /// The complement against the size `M` of `A` (one run-time rest).
    OfSize,
    /// A tile of size 1: the runs of `A`'s shape, compact.
    Runs,
    /// A static tile `n:d`: `(d, p, M/(n·d·p)):(1, n·d, n·d·p)`, `p` the
    /// first run's extent over `n·d`.
    Lead(i64),
    /// A static tile `n:d` on static extents: `(d, p):(1, n·d)`,
    /// `p = ⌈M/(n·d)⌉` (`d` dropped when 1, `p` too; `1:0` when both are).
    Static(i64),
}

/// `(B, B*)` of a tile `B` of one mode against the mode `A` it divides
/// (`L` the flat modes of `A`), as CuTe builds it:
/// `make_layout(B, complement(B, shape(coalesce(A))))` with `int`
/// leaves, as a type: the 1-D divide is `A ∘ (B, B*)`.
///
/// CuTe's cotarget is `A`'s shape, not its size: its complement keeps what
/// it knows statically of that shape. The cotarget's runs (its static 1s
/// dropped, each run of static extents one static leaf, each run of
/// run-time ones one run-time leaf, [`RunsFrom`]) give `B*`:
/// - a tile of size 1 (a static 1, which CuTe's `filter` drops): `B*` is
///   the runs, compact (`(_128, 24):(_1, _128)` for `A` of shape
///   `(_4, _32, 24)`);
/// - a static tile `n:d`, `n ≥ 2`, where the first run is a static `S`
///   that `n·d` divides with `p = S/(n·d) ≥ 2`: `B* = (d, p, R):(1, n·d,
///   n·d·p)` (`d` dropped when 1; `R` run-time, `M/S`);
/// - a static tile `n:d`, `n ≥ 2`, on all-static extents (one static run
///   `S = M`): `B* = (d, p):(1, n·d)`, `p = ⌈S/(n·d)⌉` static (`d` or `p`
///   dropped when 1, `1:0` when both are);
/// - otherwise (one run-time run, or the first run run-time): the
///   complement against the size `M`, as below.
///
/// Against the size: a static tile `n:d` has `B* = ⌈M/n⌉:n` where `d = 1`,
/// `M:1` where `n = 1`, and `(d, ⌈M/(n·d)⌉):(1, n·d)` otherwise; the tile
/// `1:0` of the integer 1 has `M:1`. A tile with a run-time leaf: CuTe
/// cannot coalesce what it does not know, so `B* = (d, ⌈M/(n·d)⌉):(1,
/// n·d)` keeps both modes whatever the values, but for what its `filter`
/// and `coalesce` drop statically (a static `d = 1`: one mode `⌈M/n⌉:n`; a
/// static `n = 1`: the tile drops out, the runs or `M:1`).
///
/// Each form is the function of cute-dynamic's complement against `M`:
/// the runs are `M:1`; `(p, R):(n·d, n·d·p)` is `⌈M/(n·d)⌉:(n·d)` where
/// `n·d` divides `S` (the other static extents CuTe's `ceil_div` would
/// meet follow a run-time one, so are run-time). Where CuTe's own
/// `ceil_div` over the leaves of a static run is not that (a static
/// extent and the rest of `n·d` that neither divides), CuTe's divide is
/// another function, and this one is cute-dynamic's.
#[doc(hidden)]
pub trait TileBB<L> {
    /// The layout `(B, B*)`.
    type BB;
    /// The form of `B*`.
    const FORM: BStar;
}
// The tiles of static size 1 whose stride is not static and above 0 (the
// integer 1's `1:0`, and `1:d` with a run-time `d`): `B*` by the runs.
macro_rules! size_one_tile {
    ($($TD:ty),+) => {$(
        impl<L: RunsFrom<U1, U1>> TileBB<L> for Layout<U1, $TD>
        where
            Runs<L>: RunsHead,
            Self: RunsBB<Runs<L>, <Runs<L> as RunsHead>::Form>,
        {
            type BB = <Self as RunsBB<Runs<L>, <Runs<L> as RunsHead>::Form>>::BB;
            const FORM: BStar = <Self as RunsBB<Runs<L>, <Runs<L> as RunsHead>::Form>>::FORM;
        }
    )+};
}
size_one_tile!(U0, Dyn);
impl<L, UN, BN, UD, BD> TileBB<L> for Layout<UInt<UN, BN>, UInt<UD, BD>>
where
    UInt<UN, BN>: KnownOne,
    Self: StaticBB<L, IsOne<UInt<UN, BN>>>,
{
    type BB = <Self as StaticBB<L, IsOne<UInt<UN, BN>>>>::BB;
    const FORM: BStar = <Self as StaticBB<L, IsOne<UInt<UN, BN>>>>::FORM;
}
impl<L> TileBB<L> for Layout<Dyn, Dyn> {
    type BB = Layout<(Dyn, (Dyn, Dyn)), (Dyn, (U1, Dyn))>;
    const FORM: BStar = BStar::OfSize;
}
impl<L, U, B2, B> TileBB<L> for Layout<UInt<UInt<U, B2>, B>, Dyn> {
    type BB = Layout<(UInt<UInt<U, B2>, B>, (Dyn, Dyn)), (Dyn, (U1, Dyn))>;
    const FORM: BStar = BStar::OfSize;
}
impl<L> TileBB<L> for Layout<Dyn, U1> {
    type BB = Layout<(Dyn, Dyn), (U1, Dyn)>;
    const FORM: BStar = BStar::OfSize;
}
/// A static `d ≥ 2` with a run-time `n`: CuTe's first mode of `B*` is the
/// static `d`, but for `n = 1` at run time the complement is `M:1`, which
/// two modes of that first size cannot be when `d ∤ M`: the extent is
/// run-time here (the text `2` where CuTe prints `_2`).
impl<L, U, B2, B> TileBB<L> for Layout<Dyn, UInt<UInt<U, B2>, B>> {
    type BB = Layout<(Dyn, (Dyn, Dyn)), (UInt<UInt<U, B2>, B>, (U1, Dyn))>;
    const FORM: BStar = BStar::OfSize;
}

/// [`TileBB`] of a tile `1:Self`'s stride of static size 1, by the runs'
/// form: the runs `R` where one is static, or `M:1` (which one run-time
/// run is: the same type).
#[doc(hidden)]
pub trait RunsBB<R, Form> {
    /// The layout `(B, B*)`.
    type BB;
    /// The form of `B*`.
    const FORM: BStar;
}
impl<TD, R: ListLayout> RunsBB<R, FMany> for Layout<U1, TD> {
    type BB = Layout<(U1, R::Shape), (TD, R::Stride)>;
    const FORM: BStar = BStar::Runs;
}
impl<TD, R: ListLayout> RunsBB<R, FStatic> for Layout<U1, TD> {
    type BB = Layout<(U1, R::Shape), (TD, R::Stride)>;
    const FORM: BStar = BStar::Runs;
}
impl<TD, R> RunsBB<R, FDyn> for Layout<U1, TD> {
    type BB = Layout<(U1, Dyn), (TD, U1)>;
    const FORM: BStar = BStar::OfSize;
}
/// [`TileBB`] of a static tile by `One`, "its size is 1".
#[doc(hidden)]
pub trait StaticBB<L, One> {
    /// The layout `(B, B*)`.
    type BB;
    /// The form of `B*`.
    const FORM: BStar;
}
impl<L: RunsFrom<U1, U1>, D> StaticBB<L, B1> for Layout<U1, D>
where
    Runs<L>: RunsHead,
    Self: RunsBB<Runs<L>, <Runs<L> as RunsHead>::Form>,
{
    type BB = <Self as RunsBB<Runs<L>, <Runs<L> as RunsHead>::Form>>::BB;
    const FORM: BStar = <Self as RunsBB<Runs<L>, <Runs<L> as RunsHead>::Form>>::FORM;
}
/// `n·d`, the stride where `B*`'s rest starts.
type Span<N, D> = Prod<N, D>;
/// `⌈S/(n·d)⌉` for the first run `S` (see [`TileBB`]).
type LeadQuot<Lead, N, D> = LeafCeilDiv<Lead, Span<N, D>>;
impl<L: RunsFrom<U1, U1>, N, D> StaticBB<L, B0> for Layout<N, D>
where
    Runs<L>: RunsHead,
    Self: SpanBB<<Runs<L> as RunsHead>::Lead, <Runs<L> as RunsHead>::Form>,
{
    type BB = <Self as SpanBB<<Runs<L> as RunsHead>::Lead, <Runs<L> as RunsHead>::Form>>::BB;
    const FORM: BStar = <Self as SpanBB<<Runs<L> as RunsHead>::Lead, <Runs<L> as RunsHead>::Form>>::FORM;
}
/// [`TileBB`] of a static tile `N:D` of size at least 2, by the runs' form
/// (`Lead` the first run's static extent, or `U1`).
#[doc(hidden)]
pub trait SpanBB<Lead, Form> {
    /// The layout `(B, B*)`.
    type BB;
    /// The form of `B*`.
    const FORM: BStar;
}
impl<N, D, Lead> SpanBB<Lead, FDyn> for Layout<N, D>
where
    D: IsEqual<U1> + RestOf<N, Eq<D, U1>>,
{
    type BB = Layout<<D as RestOf<N, Eq<D, U1>>>::Shape, <D as RestOf<N, Eq<D, U1>>>::Stride>;
    const FORM: BStar = BStar::OfSize;
}
/// "`B*` takes the first run's `p`": `n·d` divides it, and `p ≥ 2`.
type TakesLead<Lead, N, D> =
    <LeafDivides<Lead, Span<N, D>> as Truth>::And<<IsOne<LeadQuot<Lead, N, D>> as Not>::Output>;
/// Several runs whose first `B*` takes ([`TakesLead`]).
#[doc(hidden)]
pub struct FLead;
/// `A` for `B1`, `B` for `B0`.
#[doc(hidden)]
pub trait Choose<A, B> {
    /// The choice.
    type Out;
}
impl<A, B> Choose<A, B> for B1 {
    type Out = A;
}
impl<A, B> Choose<A, B> for B0 {
    type Out = B;
}
/// Several runs: [`FLead`] where `B*` takes the first, else against the size.
type ManyForm<Lead, N, D> = <TakesLead<Lead, N, D> as Choose<FLead, FDyn>>::Out;
impl<N, D, Lead> SpanBB<Lead, FMany> for Layout<N, D>
where
    N: Mul<D>,
    Lead: LeafQuot<Span<N, D>>,
    LeadQuot<Lead, N, D>: KnownOne,
    IsOne<LeadQuot<Lead, N, D>>: Not<Output: Truth>,
    TakesLead<Lead, N, D>: Choose<FLead, FDyn>,
    Self: SpanBB<Lead, ManyForm<Lead, N, D>>,
{
    type BB = <Self as SpanBB<Lead, ManyForm<Lead, N, D>>>::BB;
    const FORM: BStar = <Self as SpanBB<Lead, ManyForm<Lead, N, D>>>::FORM;
}
impl<N, D, Lead> SpanBB<Lead, FLead> for Layout<N, D>
where
    N: Mul<D>,
    Lead: LeafQuot<Span<N, D>>,
    LeadQuot<Lead, N, D>: Unsigned,
    D: IsEqual<U1> + LeadRestOf<N, LeadQuot<Lead, N, D>, Eq<D, U1>>,
{
    type BB = Layout<
        <D as LeadRestOf<N, LeadQuot<Lead, N, D>, Eq<D, U1>>>::Shape,
        <D as LeadRestOf<N, LeadQuot<Lead, N, D>, Eq<D, U1>>>::Stride,
    >;
    const FORM: BStar = BStar::Lead(<LeadQuot<Lead, N, D> as Unsigned>::I64);
}
impl<N, D, Lead> SpanBB<Lead, FStatic> for Layout<N, D>
where
    N: Mul<D>,
    Lead: LeafQuot<Span<N, D>>,
    LeadQuot<Lead, N, D>: KnownOne + Unsigned,
    D: IsEqual<U1> + StaticRestOf<N, LeadQuot<Lead, N, D>, Eq<D, U1>, IsOne<LeadQuot<Lead, N, D>>>,
{
    type BB = Layout<
        <D as StaticRestOf<N, LeadQuot<Lead, N, D>, Eq<D, U1>, IsOne<LeadQuot<Lead, N, D>>>>::Shape,
        <D as StaticRestOf<N, LeadQuot<Lead, N, D>, Eq<D, U1>, IsOne<LeadQuot<Lead, N, D>>>>::Stride,
    >;
    const FORM: BStar = BStar::Static(<LeadQuot<Lead, N, D> as Unsigned>::I64);
}
/// `(B, B*)` of a static tile `N:Self` against static extents, `P` their
/// product over `N·Self` rounded up: `B* = (Self, P):(1, N·Self)` as
/// CuTe's coalesce leaves it, by "`Self` is 1" and "`P` is 1".
#[doc(hidden)]
pub trait StaticRestOf<N, P, DOne, POne> {
    /// Shape of `(B, B*)`.
    type Shape;
    /// Stride of `(B, B*)`.
    type Stride;
}
impl<N: Mul<D>, P, D> StaticRestOf<N, P, B0, B0> for D {
    type Shape = (N, (D, P));
    type Stride = (D, (U1, Prod<N, D>));
}
impl<N, P, D> StaticRestOf<N, P, B1, B0> for D {
    type Shape = (N, P);
    type Stride = (D, N);
}
impl<N, P, D> StaticRestOf<N, P, B0, B1> for D {
    type Shape = (N, D);
    type Stride = (D, U1);
}
impl<N, P, D> StaticRestOf<N, P, B1, B1> for D {
    type Shape = (N, U1);
    type Stride = (D, U0);
}
/// `(B, B*)` of a static tile `N:Self` with the first run's `P`; `B` is
/// "the stride is 1" (CuTe's coalesce drops the mode `1:1`).
#[doc(hidden)]
pub trait LeadRestOf<N, P, B> {
    /// Shape of `(B, B*)`.
    type Shape;
    /// Stride of `(B, B*)`.
    type Stride;
}
impl<N: Mul<P>, P, D> LeadRestOf<N, P, B1> for D {
    type Shape = (N, (P, Dyn));
    type Stride = (D, (N, Prod<N, P>));
}
impl<N: Mul<D>, P, D> LeadRestOf<N, P, B0> for D
where
    Prod<N, D>: Mul<P>,
{
    type Shape = (N, (D, P, Dyn));
    type Stride = (D, (U1, Prod<N, D>, Prod<Prod<N, D>, P>));
}

/// The mixed branch of the 1-D divide by a tile of one mode: `A ∘ (B, B*)`
/// in CuTe's form, split in halves (the macro names `(B, B*)` itself: a
/// projection in the bound would be normalized through the composition's
/// impl, whose bounds do not hold for a generic `A`).
macro_rules! one_mode_tile_split {
    ($($g:ident),* ; $T:ty) => {
        impl<AS, AD, BBr, $($g),*> Split1DBy<DivideOp, $T, B0> for Layout<AS, AD>
        where
            AS: FlattenInto<AD, MNil>,
            $T: TileBB<FlatModes<AS, AD>, BB = BBr>,
            Self: TryComposeCute<BBr>,
            <Self as TryComposeCute<BBr>>::Output: SplitHalves,
        {
            type X = <<Self as TryComposeCute<BBr>>::Output as SplitHalves>::X;
            type Y = <<Self as TryComposeCute<BBr>>::Output as SplitHalves>::Y;
        }
    };
}
// One impl per kind of shape, the stride's kind decided by `TileBB`: while
// the solver probes a divide whose tile's stride is an integer literal not
// yet known, one impl leaves the composition's bounds waiting; several
// would each be tried, and the fold's arithmetic on a numeral of unknown
// bits does not terminate.
one_mode_tile_split!(UN, BN, TD; Layout<UInt<UN, BN>, TD>);
one_mode_tile_split!(TD; Layout<Dyn, TD>);

// ------------------------------------------------------------ the values

/// A tile of one mode `n:d`: a layout `n:d` or an integer `n` (the layout
/// `n:1`, `1:0` for a static `n = 1`, as
/// [`TileArg`](crate::detail::TileArg) has it), static (`d ≥ 1`, or `1:0`)
/// or with run-time leaves (any values).
#[doc(hidden)]
pub trait Tile1 {
    /// `B*` keeps two modes `(d, ⌈M/(n·d)⌉):(1, n·d)`, rather than one
    /// `⌈M/n⌉:n` (see [`TileBB`]).
    const TWO: bool;
    /// `(n, d)`.
    fn nd(&self) -> (i64, i64);
}
impl<U: Unsigned, B: Bit> Tile1 for UInt<U, B> {
    const TWO: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn nd(&self) -> (i64, i64) {
        let n = <UInt<U, B> as Unsigned>::I64;
        (n, if n == 1 { 0 } else { 1 })
    }
}
impl Tile1 for Layout<U1, U0> {
    const TWO: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn nd(&self) -> (i64, i64) {
        (1, 0)
    }
}
impl<UN: Unsigned, BN: Bit, UD: Unsigned, BD: Bit> Tile1 for Layout<UInt<UN, BN>, UInt<UD, BD>> {
    const TWO: bool = !(<UInt<UN, BN> as Unsigned>::I64 == 1 || <UInt<UD, BD> as Unsigned>::I64 == 1);
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn nd(&self) -> (i64, i64) {
        (<UInt<UN, BN> as Unsigned>::I64, <UInt<UD, BD> as Unsigned>::I64)
    }
}
/// A run-time integer tile `m` is CuTe's `make_layout(m)`, `m:_1`.
impl Tile1 for Dyn {
    const TWO: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn nd(&self) -> (i64, i64) {
        (self.get(), 1)
    }
}
macro_rules! run_time_tile1 {
    ($($g:ident),* ; $S:ty, $D:ty, $two:expr) => {
        impl<$($g),*> Tile1 for Layout<$S, $D>
        where
            $S: crate::Congruent<$D> + crate::Leaf,
            $D: IntTuple + crate::Leaf,
        {
            const TWO: bool = $two;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn nd(&self) -> (i64, i64) {
                (crate::Leaf::signed(&self.shape()), crate::Leaf::signed(&self.stride()))
            }
        }
    };
}
run_time_tile1!(; Dyn, Dyn, true);
run_time_tile1!(; U1, Dyn, false);
run_time_tile1!(U, B2, B; UInt<UInt<U, B2>, B>, Dyn, true);
run_time_tile1!(; Dyn, U1, false);
run_time_tile1!(U, B2, B; Dyn, UInt<UInt<U, B2>, B>, true);

/// A tile's values and the form of its complement (see [`Tile1`]).
#[derive(Clone, Copy, Debug)]
struct Cut {
    n: i64,
    td: i64,
    two: bool,
}
#[cfg_attr(not(debug_assertions), inline(always))]
fn cut<T: Tile1>(t: &T) -> Cut {
    let (n, td) = t.nd();
    Cut { n, td, two: T::TWO }
}

/// The leaves of `(B, B*)` for the tile `c` against the size `m` of the
/// mode it divides ([`TileBB`]'s form): `B`, then the one or two leaves of
/// `B*`, and their number. A run-time tile of size 1 or stride 0 adds no
/// offset, so that its complement is cute-dynamic's `M:1`: CuTe's two modes
/// `(d, M/d):(1, d)` are that function where `d | M` (else `None`, and
/// [`divide_by`] takes the plain `(1, M):(1, 1)`, the same function with
/// the first stride 1, which the type may have static, whose conditions
/// are cute-dynamic's).
#[cfg_attr(not(debug_assertions), inline(always))]
fn bb_leaves(Cut { n, td, two }: Cut, m: i64) -> Result<Option<BBLeaves>, Fail> {
    let b = (n, td);
    Ok(Some(if !two {
        // One mode: `⌈M/n⌉:n`, or `M:1` for a tile of size 1 (its mode
        // drops out of the complement, whatever its stride, 0 included).
        ([b, (if n == 1 { m } else { ceil_div(m, n) }, n), (1, 0)], 2)
    } else if n == 1 || td == 0 {
        if td >= 1 && m % td == 0 {
            ([b, (td, 1), (m / td, td)], 3)
        } else {
            return Ok(None);
        }
    } else {
        let span = n.checked_mul(td).ok_or(Fail::Overflow("complement"))?;
        ([b, (td, 1), (ceil_div(m, span), span)], 3)
    }))
}

/// The leaves of `(B, B*)` and their number (2 or 3).
type BBLeaves = ([(i64, i64); 3], usize);

/// `A ∘ (B, B*)` by `compose` (which takes the leaves of `(B, B*)`): CuTe's
/// `B*` first, and for a tile that adds no offset, where that fails or
/// does not exist, the plain `(1, M):(1, 1)` (see [`bb_leaves`]). A negative stride of
/// a run-time tile is cute-dynamic's complement error.
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_by<R>(c: Cut, m: i64, mut compose: impl FnMut(&[(i64, i64)]) -> Result<R, Fail>) -> Result<R, Fail> {
    if c.td < 0 {
        return Err(Fail::NegativeStride);
    }
    let no_offset = c.two && (c.n == 1 || c.td == 0);
    if let Some((l, k)) = bb_leaves(c, m)? {
        match compose(&l[..k]) {
            Err(_) if no_offset => {}
            r => return r,
        }
    }
    // (Only a tile that adds no offset gets here.)
    compose(&[(c.n, c.td), (1, 1), (m, 1)])
}

/// The room for a divide's leaves, in the result's order: the positions of
/// every part are constants of the types (see [`ModeLeaves::XN`]), so
/// after inlining the leaves live in registers, not in a buffer with a
/// run-time length.
#[doc(hidden)]
pub type Out = [(i64, i64); 2 * MAX_MODES];

/// `out[at..at + k]`, or [`TOO_MANY_MODES`] past the room.
#[cfg_attr(not(debug_assertions), inline(always))]
fn room(out: &mut Out, at: usize, k: usize) -> Result<&mut [(i64, i64)], Fail> {
    out.get_mut(at..at + k).ok_or(TOO_MANY_MODES)
}

/// The 1-D divide of a mode of several flat leaves `a` by the tile `c`:
/// `A ∘ (B, B*)` composed in CuTe's form (each leaf of `(B, B*)` by CuTe's
/// fold over `A`'s coalesced modes, [`compose_as`]), its halves'
/// leaves written at `out[xo..]` and `out[yo..]`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_1d_cute<S, D, BBS, BBD, HS, HD>(
    a: &Layout<S, D>,
    c: Cut,
    form: BStar,
    out: &mut Out,
    xo: usize,
    yo: usize,
) -> Result<(), Fail>
where
    S: FlattenInto<D, MNil> + FlatValues + crate::Congruent<D>,
    D: FlatValues,
    FlatModes<S, D>: CuteModes,
    BBS: FromLeaves + MixedTree<CuteOf<S, D>, BBD, Shape = HS, Stride = HD> + crate::Congruent<BBD>,
    BBD: FromLeaves,
    Layout<HS, HD>: Halves,
{
    let m = IntTuple::size(&a.shape()) as i64;
    let mut compose = |l: &[(i64, i64)]| {
        let (mut i, mut j) = (0, 0);
        let bb = Layout::from_checked(BBS::from_leaves(l, &mut i, false), BBD::from_leaves(l, &mut j, true));
        compose_as::<CuteOf<S, D>, _, _, _, _>(a, &bb)
    };
    let r = match form {
        BStar::OfSize => divide_by(c, m, &mut compose),
        // (A negative stride fails as in `divide_by`.)
        _ if c.td < 0 => Err(Fail::NegativeStride),
        _ => {
            let (l, k) = bb_of_shape(form, c, &a.shape(), &a.stride(), m);
            compose(&l[..k])
        }
    }?;
    r.put_halves(out, xo, yo)
}

/// The leaves of `(B, B*)` for the tile `c` in the `form` [`TileBB`] gives
/// against the shape of `A = s:d` (of size `m`), other than
/// [`BStar::OfSize`]: `B`, then the runs of `A`'s shape (compact),
/// `(d, p, m/(n·d·p)):(1, n·d, n·d·p)`, or `(d, p):(1, n·d)` as CuTe's
/// coalesce leaves it; and their number. The runs are
/// found as the type finds them, from the leaves' values and which are
/// static. Every product is at most `m`, `A`'s size, which fits.
#[cfg_attr(not(debug_assertions), inline(always))]
fn bb_of_shape<S: FlatValues, D: FlatValues>(
    form: BStar,
    c: Cut,
    s: &S,
    d: &D,
    m: i64,
) -> ([(i64, i64); MAX_MODES + 1], usize) {
    let mut l = [(1i64, 0i64); MAX_MODES + 1];
    l[0] = (c.n, c.td);
    let mut k = 1;
    if let BStar::Static(p) | BStar::Lead(p) = form {
        // `(d, p, R):(1, n·d, n·d·p)`: CuTe's coalesce drops `d` and (on
        // static extents) `p` where 1, and leaves `1:0` where nothing is left.
        let span = c.n * c.td;
        let lead = matches!(form, BStar::Lead(_));
        for (keep, leaf) in [(c.td != 1, (c.td, 1)), (lead || p != 1, (p, span)), (lead, (m / (span * p), span * p))] {
            if keep {
                l[k] = leaf;
                k += 1;
            }
        }
        if k == 1 {
            (l[1], k) = ((1, 0), 2);
        }
        return (l, k);
    }
    let (modes, n) = marked_modes(s, d);
    // The open run: its extent, where it starts, and whether it is static.
    let (mut run, mut at, mut kind) = (1i64, 1i64, None::<bool>);
    for f in &modes[..n] {
        if f.ss && f.s == 1 {
            continue;
        }
        match kind {
            Some(st) if st == f.ss => run *= f.s,
            Some(_) => {
                l[k] = (run, at);
                k += 1;
                at *= run;
                run = f.s;
                kind = Some(f.ss);
            }
            None => (run, kind) = (f.s, Some(f.ss)),
        }
    }
    if kind.is_some() {
        l[k] = (run, at);
        k += 1;
    }
    (l, k)
}

/// A 1-D divide's `(A ∘ B, A ∘ B*)`, written as its halves' leaves.
#[doc(hidden)]
pub trait Halves {
    /// The number of leaves of `A ∘ B`.
    const XN: usize;
    /// The number of leaves of `A ∘ B*`.
    const YN: usize;
    /// Writes the leaves of `A ∘ B` at `out[xo..]`, those of `A ∘ B*` at
    /// `out[yo..]`.
    fn put_halves(&self, out: &mut Out, xo: usize, yo: usize) -> Result<(), Fail>;
}
impl<XS, XD, YS, YD> Halves for Layout<(XS, YS), (XD, YD)>
where
    XS: FlatValues + crate::Congruent<XD> + Copy,
    XD: FlatValues + Copy,
    YS: FlatValues + crate::Congruent<YD> + Copy,
    YD: FlatValues + Copy,
    (XS, YS): crate::Congruent<(XD, YD)>,
    (XD, YD): IntTuple,
{
    const XN: usize = XS::LEAVES;
    const YN: usize = YS::LEAVES;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put_halves(&self, out: &mut Out, xo: usize, yo: usize) -> Result<(), Fail> {
        let (s, d) = (self.shape(), self.stride());
        put_layout(out, xo, &s.0, &d.0)?;
        put_layout(out, yo, &s.1, &d.1)
    }
}

/// The 1-D divide of a mode of one flat leaf `s:d` by the tile `c`: the
/// leaf of `A ∘ B` into `out[xo]`, the one or two of `A ∘ B*` into
/// `out[yo..]` (CuTe's form is the padded one: a mode of one leaf is its
/// own coalesced mode). A failure becomes `to_error`'s `LayoutError`
/// (which names the mode).
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_1d<S: FlatValues, D: FlatValues>(
    s: &S,
    d: &D,
    c: Cut,
    out: &mut Out,
    xo: usize,
    yo: usize,
    to_error: impl FnOnce(Fail) -> cute_dynamic::LayoutError,
) -> Result<(), cute_dynamic::LayoutError> {
    let Some(mode) = one_leaf(s, d) else { return Err(to_error(TOO_MANY_MODES)) };
    let r = match divide_linear_small(mode, c) {
        Some(r) => r,
        // Out of line, so that the small case needs no stack frame.
        None => divide_linear(mode, c)?,
    };
    put_1d(out, xo, yo, c.two, r).map_err(to_error)
}

/// The one leaf of the flat mode `s:d` (`None` for another number).
#[cfg_attr(not(debug_assertions), inline(always))]
fn one_leaf<S: FlatValues, D: FlatValues>(s: &S, d: &D) -> Option<(i64, i64)> {
    let (mut sv, mut dv, mut at) = ([0i64; MAX_MODES], [0i64; MAX_MODES], 0);
    (s.write(&mut sv, &mut at) && d.write(&mut dv, &mut 0) && at == 1).then_some((sv[0], dv[0]))
}

/// Writes the leaves of a 1-D divide of one leaf: `x`, the tile's, at
/// `out[xo]`, the rest's one or two (`two`) at `out[yo..]`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn put_1d(out: &mut Out, xo: usize, yo: usize, two: bool, [x, y0, y1]: [(i64, i64); 3]) -> Result<(), Fail> {
    // (The positions are constants of the types, inside the room.)
    let [xs] = room(out, xo, 1)? else { return Err(TOO_MANY_MODES) };
    *xs = x;
    for (slot, v) in room(out, yo, if two { 2 } else { 1 })?.iter_mut().zip([y0, y1]) {
        *slot = v;
    }
    Ok(())
}

/// [`divide_1d`] of a mode of one flat leaf `m:ad` by the rule: the leaf
/// of `A ∘ B`, then the one or two of `A ∘ B*`. A one-mode `A` can only
/// fail by overflow, whose error names no operands, so the error is made
/// here, from the values (the divide's path then keeps no copy of the
/// mode for an error message).
#[inline(never)]
fn divide_linear(mode: (i64, i64), c: Cut) -> Result<[(i64, i64); 3], cute_dynamic::LayoutError> {
    let a = Prepared::as_cute(&Dyn::new(mode.0), &Dyn::new(mode.1)).ok_or(TOO_MANY_MODES);
    let r = a.and_then(|a| {
        divide_by(c, a.size(), |l| {
            let mut w = DeferredChecks::<true>::new();
            let mut r = [(1, 0); 3];
            for (slot, &leaf) in r.iter_mut().zip(l) {
                compose_leaf(&a, leaf, core::slice::from_mut(slot), &mut w)?;
            }
            finish(&a, &w).map(|()| r)
        })
    });
    r.map_err(|f| divide_error(f, &Layout::from_checked(Dyn::new(mode.0), Dyn::new(mode.1)).to_dynamic(), (c.n, c.td)))
}

/// Below this bound on the magnitude of a mode's stride and on a tile's
/// span and size (and below twice it on the mode's size), nothing in
/// [`divide_linear_small`] can overflow.
const SMALL: i64 = 1 << 20;
/// The bound of a mode's bits, `(m - 1) | (ad + SMALL)`: below it exactly
/// when `1 ≤ m ≤ 2·SMALL` and `-SMALL ≤ ad < SMALL` (a power of two, so
/// the or of several modes' bits is below it exactly when each is).
const SMALL_BITS: u64 = 2 * SMALL as u64;
/// Bits of values that are not small (or of a mode with no small rule).
const NOT_SMALL: u64 = u64::MAX;

/// Speed work below the rule of [`divide_1d`], for the commonest mode of a
/// kernel's matrix: one flat leaf `m:ad` (a run-time extent or stride) by
/// a static tile `n:td`, all of them small ([`SMALL`]). `None` otherwise,
/// and the general path decides.
///
/// Why it is the same answer with no check: a layout of one flat mode is
/// linear on its whole extended domain (it is its own unbounded mode), so
/// every leaf `s:x` of `(B, B*)` composes to `s:(x·ad)` with no
/// divisibility or distributivity condition, and the one condition left,
/// overflow, cannot fail: every stride is at most `SMALL²` in magnitude,
/// every shape at most `2·SMALL`, so the result's extent is at most
/// `1 + 3·2·SMALL³ < 2⁶³`. A leaf of size 1 gets the stride the rule gives it
/// (`x·ad`, which does not overflow either).
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_linear_small(mode: (i64, i64), c: Cut) -> Option<[(i64, i64); 3]> {
    let (r, bits) = divide_linear_flagged(mode, c);
    (bits < SMALL_BITS).then_some(r)
}

/// [`divide_linear_small`]'s leaves, computed whatever the values (with
/// wrapping arithmetic), and the bits of the values: below [`SMALL_BITS`]
/// exactly when the values are small and the leaves the answer. No branch
/// and no comparison, so that a divide of several such modes ors their
/// bits and compares once for all of them
/// ([`ModeLeaves::mode_leaves_small`]).
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_linear_flagged((m, ad): (i64, i64), Cut { n, td, two, .. }: Cut) -> ([(i64, i64); 3], u64) {
    let (span, span_overflows) = n.overflowing_mul(td);
    // `0 < m ≤ 2·SMALL` and `-SMALL ≤ ad < SMALL` are one comparison of
    // the or of two sums (`SMALL_BITS`), made by the caller; the tile's
    // conditions are constants of a static tile. (A run-time tile's size
    // 1, stride 0 or negative stride in two modes takes the general path.)
    let mode = m.wrapping_sub(1) as u64 | ad.wrapping_add(SMALL) as u64;
    let tile =
        !span_overflows && (0..=SMALL).contains(&span) && (1..=SMALL).contains(&n) && (!two || (n > 1 && td > 0));
    let bits = if tile { mode } else { NOT_SMALL };
    let x = (n, td.wrapping_mul(ad));
    // Where the values are small, `1 ≤ m, n, span ≤ 2·SMALL`: unsigned
    // quotients that cannot overflow (two instructions by a power of two).
    let up = |q: i64| (m.wrapping_add(q - 1) as u64 / q.max(1) as u64) as i64;
    let r = if !two {
        [x, (if n == 1 { m } else { up(n) }, n.wrapping_mul(ad)), (1, 0)]
    } else {
        [x, (td, ad), (up(span), span.wrapping_mul(ad))]
    };
    (r, bits)
}

/// [`divide_error`] of the mode `a` (cold: the conversion of `a` stays off
/// the divide's path too).
#[cold]
#[inline(never)]
fn divide_error_of<S: crate::Congruent<D>, D: IntTuple>(
    f: Fail,
    a: &Layout<S, D>,
    nd: (i64, i64),
) -> cute_dynamic::LayoutError {
    divide_error(f, &a.to_dynamic(), nd)
}

/// The error of a divide whose `B*` took a form against `A`'s shape
/// (any but [`BStar::OfSize`]) and failed (cold): cute-dynamic's,
/// whose `B*` against the size is the same function in fewer leaves. Each
/// leaf of the shape's form walks a part of the walk of one of cute-dynamic's,
/// so where one fails the other does, but the first condition met may
/// differ (`(6,4,x,1):(0,1,0,0)` by `2:4`: CuTe's `(3,2):(8,24)` carries
/// into the next mode, cute-dynamic's `6:8` fails the stride's
/// divisibility first). The divide's own error if cute-dynamic divides.
#[cold]
#[inline(never)]
fn shape_form_error<S: crate::Congruent<D>, D: IntTuple>(
    f: Fail,
    a: &Layout<S, D>,
    (n, d): (i64, i64),
) -> cute_dynamic::LayoutError {
    let a = a.to_dynamic();
    let b = cute_dynamic::Layout::new(cute_dynamic::IntTuple::int(n), cute_dynamic::IntTuple::int(d));
    match b.map(|b| cute_dynamic::logical_divide(&a, &cute_dynamic::Tiler::Layout(b))) {
        Ok(Err(e)) => e,
        _ => divide_error(f, &a, (n, d)),
    }
}

/// The error cute-dynamic gives for the 1-D divide that failed (cold).
#[cold]
#[inline(never)]
fn divide_error(f: Fail, a: &cute_dynamic::Layout, (n, d): (i64, i64)) -> cute_dynamic::LayoutError {
    let b = cute_dynamic::Layout::new(cute_dynamic::IntTuple::int(n), cute_dynamic::IntTuple::int(d));
    // A negative stride fails in cute-dynamic's complement: its error.
    if d < 0
        && let Ok(b) = &b
        && let Err(e) = cute_dynamic::complement(b, a.size())
    {
        return e;
    }
    let ctx = || match &b {
        Ok(b) => match cute_dynamic::complement(b, a.size()) {
            Ok(c) => format!("composition({a}, ({b}, {c}))"),
            Err(_) => format!("composition({a}, {b})"),
        },
        Err(_) => format!("composition({a}, {n}:{d})"),
    };
    f.into_error(&ctx)
}

/// The leaves of a divide of `Self` by the tiler `T`, written where the
/// arrangement puts them.
#[doc(hidden)]
pub trait DivideLeaves<T> {
    /// Writes the leaves of the divide arranged as `How` into `out`, from
    /// position 0.
    fn leaves<How: Arrangement>(&self, t: &T, out: &mut Out) -> Result<(), cute_dynamic::LayoutError>;
}

/// A whole-layout tile: `Self` divided as one 1-D function; the tiles'
/// leaves, then the rests', for either arrangement.
macro_rules! whole_tile {
    ($($g:ident),* ; $T:ty) => {
        impl<AS, AD, $($g),*> DivideLeaves<$T> for Layout<AS, AD>
        where
            Self: ModeLeavesBy<$T, B0>,
        {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn leaves<How: Arrangement>(&self, t: &$T, out: &mut Out) -> Result<(), cute_dynamic::LayoutError> {
                let xn = <Self as ModeLeavesBy<$T, B0>>::XN;
                <Self as ModeLeavesBy<$T, B0>>::mode_leaves(self, t, out, 0, xn)
            }
        }
    };
}
whole_tile!(U, B; UInt<U, B>);
whole_tile!(; Dyn);
// One impl per kind of shape (see `one_mode_tile_split!`).
whole_tile!(UN, BN, TD; Layout<UInt<UN, BN>, TD>);
whole_tile!(TD; Layout<Dyn, TD>);

impl<A: DivideLeaves<T>, T> DivideLeaves<crate::Tiler<T>> for A {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn leaves<How: Arrangement>(&self, t: &crate::Tiler<T>, out: &mut Out) -> Result<(), cute_dynamic::LayoutError> {
        self.leaves::<How>(&t.0, out)
    }
}

/// One mode's 1-D divide by the tile `T`, its halves' leaves at given
/// positions: computed when the mode (or the tile) has a run-time leaf; the
/// leaves of the static algebra's answer when both are all-static (the
/// result's type takes that mode's halves from the static algebra, by the
/// same test in `Split1D`).
#[doc(hidden)]
pub trait ModeLeaves<T> {
    /// The number of leaves of the tile's half.
    const XN: usize;
    /// The number of leaves of the rest's half.
    const YN: usize;
    /// Writes the halves' leaves of the divide by `t` at `out[xo..]` and
    /// `out[yo..]`.
    fn mode_leaves(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError>;
    /// [`mode_leaves`](ModeLeaves::mode_leaves) where it needs no check
    /// (an all-static mode and tile; a mode of one small leaf by a static
    /// tile, [`divide_linear_flagged`]), with no branch: writes leaves
    /// there and returns the bits of its values, below [`SMALL_BITS`]
    /// exactly when they are the answer. Bits at or above it leave `out`
    /// to be written again by `mode_leaves`.
    fn mode_leaves_small(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> u64;
}
type TileOf<T> = <T as crate::detail::TileArg>::Tile;
type StaticBit<S, D, T> = crate::int_tuple::BothStatic<Layout<S, D>, TileOf<T>>;
impl<S, D, T: crate::detail::TileArg> ModeLeaves<T> for Layout<S, D>
where
    Self: crate::int_tuple::AllStatic,
    TileOf<T>: crate::int_tuple::AllStatic,
    Self: ModeLeavesBy<T, StaticBit<S, D, T>>,
{
    const XN: usize = <Self as ModeLeavesBy<T, StaticBit<S, D, T>>>::XN;
    const YN: usize = <Self as ModeLeavesBy<T, StaticBit<S, D, T>>>::YN;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError> {
        <Self as ModeLeavesBy<T, StaticBit<S, D, T>>>::mode_leaves(self, t, out, xo, yo)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves_small(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> u64 {
        <Self as ModeLeavesBy<T, StaticBit<S, D, T>>>::mode_leaves_small(self, t, out, xo, yo)
    }
}
/// [`ModeLeaves`] by branch (`Static` is `B1` for an all-static mode and tile).
#[doc(hidden)]
pub trait ModeLeavesBy<T, Static> {
    /// As [`ModeLeaves::XN`].
    const XN: usize;
    /// As [`ModeLeaves::YN`].
    const YN: usize;
    /// Writes the halves' leaves of the divide by `t` at `out[xo..]` and
    /// `out[yo..]`.
    fn mode_leaves(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError>;
    /// As [`ModeLeaves::mode_leaves_small`]; [`NOT_SMALL`] (the general
    /// path) unless the branch has a small rule.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves_small(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> u64 {
        let _ = (t, out, xo, yo);
        NOT_SMALL
    }
}
/// The mixed branch: a mode of one flat leaf by the linear rule
/// ([`divide_1d`]), of several by CuTe's composition ([`divide_1d_cute`]).
impl<S, D, T, BBS, BBD, HS, HD> ModeLeavesBy<T, B0> for Layout<S, D>
where
    S: FlattenInto<D, MNil> + FlatValues + crate::Congruent<D>,
    D: FlatValues,
    FlatModes<S, D>: CuteModes,
    T: Tile1 + crate::detail::TileArg,
    TileOf<T>: TileBB<FlatModes<S, D>, BB = Layout<BBS, BBD>>,
    BBS: FromLeaves + MixedTree<CuteOf<S, D>, BBD, Shape = HS, Stride = HD> + crate::Congruent<BBD>,
    BBD: FromLeaves,
    Layout<HS, HD>: Halves,
{
    const XN: usize = <Layout<HS, HD> as Halves>::XN;
    const YN: usize = <Layout<HS, HD> as Halves>::YN;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError> {
        let c = cut(t);
        let to_error = |f| divide_error_of(f, self, (c.n, c.td));
        let form = <TileOf<T> as TileBB<FlatModes<S, D>>>::FORM;
        if linear_rule::<S>(form) {
            divide_1d(&self.shape(), &self.stride(), c, out, xo, yo, to_error)
        } else {
            divide_1d_cute::<S, D, BBS, BBD, HS, HD>(self, c, form, out, xo, yo).map_err(|f| match form {
                BStar::OfSize => to_error(f),
                _ => shape_form_error(f, self, (c.n, c.td)),
            })
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves_small(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> u64 {
        let c = cut(t);
        if !linear_rule::<S>(<TileOf<T> as TileBB<FlatModes<S, D>>>::FORM) {
            return NOT_SMALL;
        }
        let Some(mode) = one_leaf(&self.shape(), &self.stride()) else { return NOT_SMALL };
        let (r, bits) = divide_linear_flagged(mode, c);
        // (`put_1d` fails only on positions past the room: constants.)
        if put_1d(out, xo, yo, c.two, r).is_ok() { bits } else { NOT_SMALL }
    }
}
/// Whether a mode of `S`'s leaves is divided by the linear rule
/// ([`divide_1d`], and its small rule) rather than by CuTe's composition:
/// one flat leaf, by a tile whose `B*` is taken against the mode's size.
#[cfg_attr(not(debug_assertions), inline(always))]
fn linear_rule<S: FlatValues>(form: BStar) -> bool {
    S::LEAVES == 1 && form == BStar::OfSize
}
type TileHalf<S, D, T> = <Layout<S, D> as crate::detail::Split1D<DivideOp, TileOf<T>>>::X;
type RestHalf<S, D, T> = <Layout<S, D> as crate::detail::Split1D<DivideOp, TileOf<T>>>::Y;
impl<S, D, T: crate::detail::TileArg> ModeLeavesBy<T, B1> for Layout<S, D>
where
    Self: crate::detail::Split1D<DivideOp, TileOf<T>>,
    TileHalf<S, D, T>: PushLeaves,
    RestHalf<S, D, T>: PushLeaves,
{
    const XN: usize = <TileHalf<S, D, T> as PushLeaves>::N;
    const YN: usize = <RestHalf<S, D, T> as PushLeaves>::N;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves(&self, _: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError> {
        let to_error = |f: Fail| f.into_error(&String::new);
        <TileHalf<S, D, T> as PushLeaves>::put_leaves(out, xo).map_err(to_error)?;
        <RestHalf<S, D, T> as PushLeaves>::put_leaves(out, yo).map_err(to_error)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves_small(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> u64 {
        if self.mode_leaves(t, out, xo, yo).is_ok() { 0 } else { NOT_SMALL }
    }
}
/// The leaves of a layout type, written at a position.
#[doc(hidden)]
pub trait PushLeaves {
    /// The number of leaves.
    const N: usize;
    /// Writes the leaves of the (all-static) layout at `out[at..]`.
    fn put_leaves(out: &mut Out, at: usize) -> Result<(), Fail>;
}
impl<S: FlatValues + crate::Congruent<D> + crate::StaticIntTuple, D: FlatValues + crate::StaticIntTuple> PushLeaves
    for Layout<S, D>
{
    const N: usize = S::LEAVES;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put_leaves(out: &mut Out, at: usize) -> Result<(), Fail> {
        let l = Layout::<S, D>::new();
        put_layout(out, at, &l.shape(), &l.stride())
    }
}

/// Writes the leaves of the layout `s:d` at `out[at..]`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn put_layout<S: FlatValues, D: FlatValues>(out: &mut Out, at: usize, s: &S, d: &D) -> Result<(), Fail> {
    let (mut sv, mut dv) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
    let (mut ns, mut nd) = (0, 0);
    if !(s.write(&mut sv, &mut ns) && d.write(&mut dv, &mut nd)) {
        return Err(TOO_MANY_MODES);
    }
    for (slot, (&x, &y)) in room(out, at, ns)?.iter_mut().zip(sv.iter().zip(&dv)) {
        *slot = (x, y);
    }
    Ok(())
}

/// Where the leaves of each mode's tile half and rest half go, for modes
/// of `xn[k]` and `yn[k]` leaves: `logical_divide` puts each mode's halves
/// side by side, `((X0,Y0),(X1,Y1),...)`, `zipped_divide` all tiles first,
/// `((X0,X1),(Y0,Y1,...))`. The third value is where the untouched modes
/// start.
#[cfg_attr(not(debug_assertions), inline(always))]
fn leaf_positions<How: Arrangement, const N: usize>(xn: [usize; N], yn: [usize; N]) -> ([usize; N], [usize; N], usize) {
    let (mut xs, mut ys) = ([0; N], [0; N]);
    let (mut xo, mut yo) = (0, xn.iter().sum());
    for k in 0..N {
        if !How::ZIPPED {
            yo = xo + xn[k];
        }
        (xs[k], ys[k]) = (xo, yo);
        if How::ZIPPED {
            (xo, yo) = (xo + xn[k], yo + yn[k]);
        } else {
            (xo, yo) = (yo + yn[k], yo + yn[k]);
        }
    }
    (xs, ys, yo)
}

// A tuple tiler on a tuple layout: tile k on mode k, the modes past the
// tiles untouched.
// Every tile rank k from 1 to the layout's rank n: the first k groups are
// tiled, the others are the rest (the positions: `leaf_positions`). Every
// mode is first divided by its branch-free small rule, with one test for
// all of them; where one is not small, every mode by its general rule.
macro_rules! tuple_tile {
    ([$($i:tt $T:ident $S:ident $D:ident),+] [$($j:tt $U:ident $RS:ident $RD:ident),*]) => {
        impl<$($T, $S: IntTuple + crate::Congruent<$D>, $D: IntTuple,)+ $($RS: FlatValues, $RD: FlatValues,)*>
            DivideLeaves<($($T,)+)> for Layout<($($S,)+ $($RS,)*), ($($D,)+ $($RD,)*)>
        where
            ($($S,)+ $($RS,)*): crate::Congruent<($($D,)+ $($RD,)*)>,
            ($($D,)+ $($RD,)*): IntTuple,
            $(Layout<$S, $D>: ModeLeaves<$T>,)+
        {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[allow(unused_variables, unused_assignments, unused_mut)]
            fn leaves<How: Arrangement>(&self, t: &($($T,)+), out: &mut Out)
                -> Result<(), cute_dynamic::LayoutError> {
                let (s, d) = (self.shape(), self.stride());
                // Where each mode's tile and rest leaves go, and the
                // untouched modes (constants of the types).
                let (xs, ys, mut yo) = leaf_positions::<How, _>(
                    [$(<Layout<$S, $D> as ModeLeaves<$T>>::XN),+],
                    [$(<Layout<$S, $D> as ModeLeaves<$T>>::YN),+],
                );
                // The usual case first, one test for all the modes: the or
                // of their bits.
                let bits = 0 $(| Layout::from_checked(s.$i, d.$i).mode_leaves_small(&t.$i, out, xs[$i], ys[$i]))+;
                if bits >= SMALL_BITS {
                    $(Layout::from_checked(s.$i, d.$i).mode_leaves(&t.$i, out, xs[$i], ys[$i])?;)+
                }
                $(
                    put_layout(out, yo, &s.$j, &d.$j).map_err(|f| f.into_error(&String::new))?;
                    yo += $RS::LEAVES;
                )*
                Ok(())
            }
        }
    };
}
for_each_tuple!(split tuple_tile);

// ---------------------------------------------------------- arrangement

/// Marker: `logical_divide`'s arrangement, `((X0,Y0),(X1,Y1),untouched...)`.
#[doc(hidden)]
pub struct LogicalArr;
/// Marker: `zipped_divide`'s arrangement, `((X0,X1),(Y0,Y1,untouched...))`.
#[doc(hidden)]
pub struct ZippedArr;
/// Marker: `tiled_divide`'s arrangement, `((X0,X1),Y0,Y1,untouched...)`
/// (the leaves in `zipped_divide`'s order).
#[doc(hidden)]
pub struct TiledArr;
/// Marker: `flat_divide`'s arrangement, `(X0,X1,Y0,Y1,untouched...)`
/// (the leaves in `zipped_divide`'s order).
#[doc(hidden)]
pub struct FlatArr;

/// Where a divide's arrangement puts the leaves of its parts.
#[doc(hidden)]
pub trait Arrangement {
    /// All tiles first, then all rests (`zipped_divide`), rather than each
    /// mode's tile and rest side by side (`logical_divide`).
    const ZIPPED: bool;
}
impl Arrangement for LogicalArr {
    const ZIPPED: bool = false;
}
impl Arrangement for ZippedArr {
    const ZIPPED: bool = true;
}
impl Arrangement for TiledArr {
    const ZIPPED: bool = true;
}
impl Arrangement for FlatArr {
    const ZIPPED: bool = true;
}

/// The divide `a / t` arranged as `How`, its values computed and checked.
#[doc(hidden)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn try_divide_as<How: Arrangement, A: DivideLeaves<T>, T, S: FromLeaves, D: FromLeaves>(
    a: &A,
    t: &T,
) -> Result<Layout<S, D>, cute_dynamic::LayoutError> {
    let mut out: Out = [(1, 0); 2 * MAX_MODES];
    a.leaves::<How>(t, &mut out)?;
    let (mut i, mut j) = (0, 0);
    let s = S::from_leaves(&out, &mut i, false);
    let d = D::from_leaves(&out, &mut j, true);
    Ok(Layout::from_checked(s, d))
}

/// The mixed branch of [`DivideValue`](crate::divide::DivideValue).
impl<How: Arrangement, S: FromLeaves, D: FromLeaves, A: DivideLeaves<T>, T> crate::detail::DivideValueBy<How, A, T, B0>
    for Layout<S, D>
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn make(a: A, t: T) -> Self {
        match try_divide_as::<How, A, T, S, D>(&a, &t) {
            Ok(r) => r,
            Err(e) => crate::composition::fail(e),
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(a: A, t: T) -> Result<Self, cute_dynamic::LayoutError> {
        try_divide_as::<How, A, T, S, D>(&a, &t)
    }
}

// ------------------------------------------------- tiles of several modes

/// `(B, B*)` of a tile `B` of several modes against a run-time size: `B*`
/// is `complement(B, M)`, the static complement with a run-time cotarget
/// (CuTe's `make_layout(B, complement(B, size(A)))` with an `int` size).
#[doc(hidden)]
pub trait TileRest {
    /// The layout `(B, B*)`.
    type BB;
    /// `(B, complement(B, m))`, or the complement's error.
    fn with_rest(&self, m: Dyn) -> Result<Self::BB, cute_dynamic::LayoutError>;
}
impl<TS, TD, CS, CD> TileRest for Layout<TS, TD>
where
    TS: Copy + crate::Congruent<TD>,
    TD: Copy + IntTuple,
    Self: crate::Complement<Dyn, Output = Layout<CS, CD>>,
    Layout<CS, CD>: crate::ComplementValue<Self, Dyn>,
    CS: crate::Congruent<CD>,
    CD: IntTuple,
    (TS, CS): crate::Congruent<(TD, CD)>,
    (TD, CD): IntTuple,
{
    type BB = Layout<(TS, CS), (TD, CD)>;
    #[inline]
    fn with_rest(&self, m: Dyn) -> Result<Self::BB, cute_dynamic::LayoutError> {
        let c = crate::try_complement(*self, m)?;
        Ok(Layout::from_checked((self.shape(), c.shape()), (self.stride(), c.stride())))
    }
}

/// `(B, B*)` of a tile `B` of several modes against the mode `A` it
/// divides (`L` the flat modes of `A`), as CuTe builds it:
/// `B* = complement(B, shape(coalesce(A)))`, which is the complement of
/// `filter(B)`. Where `B` is all-static, the text is CuTe's
/// ([`FilteredBB`]): a `filter` of one mode (a contiguous tile:
/// `(_32,_4):(_1,_32)` filters to `_128:_1`) gives that mode's `B*` as a
/// tile of one mode ([`TileBB`]); one of several modes gives the static
/// modes of the complement's walk, then the rest against `A`'s shape.
/// With a run-time leaf, `B*` is CuTe's complement fold where CuTe's rest
/// after the fold is one run-time leaf ([`FoldBB`]); otherwise the
/// complement against `A`'s run-time size ([`TileRest`]): the same
/// function, but not CuTe's text where CuTe keeps a static extent of `A`'s
/// shape.
#[doc(hidden)]
pub trait MultiBB<L> {
    /// The layout `(B, B*)`.
    type BB;
    /// `(B, B*)` for the mode `s:d` of size `m` that `self` divides.
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail>;
}
impl<L, TS, TD> MultiBB<L> for Layout<TS, TD>
where
    Self: crate::int_tuple::AllStatic + MultiBBBy<L, <Self as crate::int_tuple::AllStatic>::Bit>,
{
    type BB = <Self as MultiBBBy<L, <Self as crate::int_tuple::AllStatic>::Bit>>::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail> {
        MultiBBBy::with_rest_of(self, s, d, m)
    }
}
/// [`MultiBB`] by "the tile is all-static" (`B1`).
#[doc(hidden)]
pub trait MultiBBBy<L, Static> {
    /// The layout `(B, B*)`.
    type BB;
    /// As [`MultiBB::with_rest_of`].
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail>;
}
impl<L, TS, TD> MultiBBBy<L, B0> for Layout<TS, TD>
where
    Self: LayoutFolds<ExactCount>,
    Self: FoldBB<L, <Self as LayoutFolds<ExactCount>>::Bit>,
{
    type BB = <Self as FoldBB<L, <Self as LayoutFolds<ExactCount>>::Bit>>::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail> {
        FoldBB::with_rest_of(self, s, d, m)
    }
}
/// [`MultiBB`] of a tile with a run-time leaf by "CuTe's complement fold
/// takes it" (`B1`, [`CuteFolds`]: its strides static, its static sizes
/// right for any run-time ones): then by the kind of the stride `N` where
/// the fold's last mode starts ([`DynRestBB`]); otherwise the complement
/// against `A`'s size ([`TileRest`]).
#[doc(hidden)]
pub trait FoldBB<L, Folds> {
    /// The layout `(B, B*)`.
    type BB;
    /// As [`MultiBB::with_rest_of`].
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail>;
}
impl<L, T: TileRest> FoldBB<L, B0> for T {
    type BB = T::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, _: &S, _: &D, m: i64) -> Result<Self::BB, Fail> {
        against_size(self, m)
    }
}
impl<L, TS, TD> FoldBB<L, B1> for Layout<TS, TD>
where
    Self: SortedModes,
    Sorted<TS, TD>: RunTimeFold<U1, Curr: crate::int_tuple::AllStatic>,
    Self: DynRestBB<L, FoldNStatic<TS, TD>>,
{
    type BB = <Self as DynRestBB<L, FoldNStatic<TS, TD>>>::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail> {
        DynRestBB::with_rest_of(self, s, d, m)
    }
}
/// `B1` when the stride where CuTe's fold of `TS:TD` starts its last mode
/// is static.
type FoldNStatic<TS, TD> = <<Sorted<TS, TD> as RunTimeFold<U1>>::Curr as crate::int_tuple::AllStatic>::Bit;
/// [`FoldBB`] of a tile CuTe's fold takes, by "the stride `N` where its
/// last mode starts is static" (`B1`). Run-time (`B0`): CuTe's rest
/// against `A`'s shape is one run-time leaf `⌈M/N⌉:N` whatever that shape
/// (its `ceil_div` by a run-time `N` is run-time throughout and coalesces
/// to one leaf), the fold's own last mode, so `B*` is the fold, as the
/// products' `A*` ([`CuteStar`], [`FoldStarBB`]). Static: by the form of
/// that rest, which a one-mode tile `N:1` has the same ([`StaticNBB`]).
///
/// [`CuteStar`]: crate::detail::CuteStar
#[doc(hidden)]
pub trait DynRestBB<L, NStatic> {
    /// The layout `(B, B*)`.
    type BB;
    /// As [`MultiBB::with_rest_of`].
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail>;
}
impl<L, T: FoldStarBB> DynRestBB<L, B0> for T {
    type BB = T::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, _: &S, _: &D, m: i64) -> Result<Self::BB, Fail> {
        self.fold_star(m)
    }
}
/// The rest of `B*` from the static `N` on, as a one-mode tile `N:1` has it
/// against `A`'s shape ([`TileBB`]): its shape.
type StaticNRest<L, TS, TD> = <<Layout<FoldCurr<TS, TD>, U1> as TileBB<L>>::BB as RestHalfOf>::Shape;
impl<L, TS, TD> DynRestBB<L, B1> for Layout<TS, TD>
where
    Self: SortedModes,
    Sorted<TS, TD>: RunTimeFold<U1>,
    Layout<FoldCurr<TS, TD>, U1>: TileBB<L, BB: RestHalfOf>,
    StaticNRest<L, TS, TD>: OneRunTimeLeaf,
    Self: StaticNBB<<StaticNRest<L, TS, TD> as OneRunTimeLeaf>::Bit>,
{
    type BB = <Self as StaticNBB<<StaticNRest<L, TS, TD> as OneRunTimeLeaf>::Bit>>::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, _: &S, _: &D, m: i64) -> Result<Self::BB, Fail> {
        StaticNBB::with_rest_of(self, m)
    }
}
/// [`DynRestBB`] of a fold whose last mode starts at a static `N`, by
/// "CuTe's rest from `N` on is one run-time leaf" (`B1`: as for a run-time
/// `N`, `B*` is the fold, [`FoldStarBB`], whose last mode `⌈M/N⌉:N` holds
/// any count the fold's run-time gaps leave). Otherwise (`B0`: CuTe's rest
/// keeps a static extent of `A`'s shape, a fixed count that a run-time gap
/// would not meet) the complement against `A`'s size ([`TileRest`]).
#[doc(hidden)]
pub trait StaticNBB<OneLeaf> {
    /// The layout `(B, B*)`.
    type BB;
    /// `(B, B*)` for a mode of size `m`.
    fn with_rest_of(&self, m: i64) -> Result<Self::BB, Fail>;
}
impl<T: FoldStarBB> StaticNBB<B1> for T {
    type BB = T::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of(&self, m: i64) -> Result<Self::BB, Fail> {
        self.fold_star(m)
    }
}
impl<T: TileRest> StaticNBB<B0> for T {
    type BB = T::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of(&self, m: i64) -> Result<Self::BB, Fail> {
        against_size(self, m)
    }
}
/// `(B, B*)` with `B*` CuTe's complement fold of the tile `B` with a
/// run-time leaf, its last mode `⌈M/N⌉:N` (the products' `A*`,
/// [`CuteStar`]).
///
/// [`CuteStar`]: crate::detail::CuteStar
#[doc(hidden)]
pub trait FoldStarBB {
    /// The layout `(B, B*)`.
    type BB;
    /// `(B, B*)` for a mode of size `m`.
    fn fold_star(&self, m: i64) -> Result<Self::BB, Fail>;
}
impl<TS, TD, YS, YD> FoldStarBB for Layout<TS, TD>
where
    TS: FlatValues + crate::Congruent<TD> + Copy,
    TD: FlatValues + Copy,
    Self: crate::detail::CuteStar<Star = Layout<YS, YD>>,
    YS: FromLeaves + FlatValues + crate::Congruent<YD> + Copy,
    YD: FromLeaves + Copy,
    (TS, YS): crate::Congruent<(TD, YD)>,
    (TD, YD): IntTuple,
{
    type BB = Layout<(TS, YS), (TD, YD)>;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fold_star(&self, m: i64) -> Result<Self::BB, Fail> {
        // (`None`: the values break the fold, and the general path names
        // the error.)
        let Some(y) = crate::complement::cute_star::<_, _, YS, YD>(&self.shape(), &self.stride(), m, true) else {
            return Err(FILTERED_REST);
        };
        Ok(Layout::from_checked((self.shape(), y.shape()), (self.stride(), y.stride())))
    }
}
impl<L, TS, TD, F> MultiBBBy<L, B1> for Layout<TS, TD>
where
    Self: crate::Filter<Output = F>,
    F: FilteredBB<L, Self>,
{
    type BB = F::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of<S: FlatValues, D: FlatValues>(&self, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail> {
        F::with_rest_of(self, s, d, m)
    }
}
/// `(B, B*)` with `B*` against the run-time size `m` ([`TileRest`]).
#[cfg_attr(not(debug_assertions), inline(always))]
fn against_size<T: TileRest>(t: &T, m: i64) -> Result<T::BB, Fail> {
    t.with_rest(Dyn::new(m)).map_err(|_| FILTERED_REST)
}
/// The failure [`TileRest`]'s complement reports (only a cotarget below 1,
/// which a mode's size is not, or overflow): the composition's general
/// path then names the error.
const FILTERED_REST: Fail = Fail::Overflow("complement");
/// [`MultiBB`] of the all-static tile `T` by its `filter`, `Self`: one mode
/// (`B*` by [`TileBB`]) or several (the walk's modes, then the rest).
#[doc(hidden)]
pub trait FilteredBB<L, T> {
    /// The layout `(B, B*)`.
    type BB;
    /// As [`MultiBB::with_rest_of`].
    fn with_rest_of<S: FlatValues, D: FlatValues>(t: &T, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail>;
}
/// The leaves of `(B, B*)` for the static one-mode tile `c` in `form`
/// ([`TileBB`]'s) against the mode `s:d` of size `m`, and their number:
/// [`bb_leaves`] against the size, [`bb_of_shape`] otherwise.
#[cfg_attr(not(debug_assertions), inline(always))]
fn static_bb<S: FlatValues, D: FlatValues>(
    form: BStar,
    c: Cut,
    s: &S,
    d: &D,
    m: i64,
) -> Result<([(i64, i64); MAX_MODES + 1], usize), Fail> {
    if form != BStar::OfSize {
        return Ok(bb_of_shape(form, c, s, d, m));
    }
    // (A static tile always has its leaves: `None` is a run-time tile's.)
    let Some((l, k)) = bb_leaves(c, m)? else { return Err(FILTERED_REST) };
    let mut r = [(1i64, 0i64); MAX_MODES + 1];
    r[..k].copy_from_slice(&l[..k]);
    Ok((r, k))
}

/// The second mode of a layout of two modes (`B*` of `(B, B*)`).
#[doc(hidden)]
pub trait RestHalfOf {
    /// Its shape.
    type Shape;
    /// Its stride.
    type Stride;
}
impl<X, Y, XD, YD> RestHalfOf for Layout<(X, Y), (XD, YD)> {
    type Shape = Y;
    type Stride = YD;
}
macro_rules! filtered_one_mode {
    ($($g:ident),* ; $N:ty, $FD:ty) => {
        impl<L, TS, TD, YS, YD, $($g),*> FilteredBB<L, Layout<TS, TD>> for Layout<$N, $FD>
        where
            TS: FlatValues + crate::Congruent<TD> + Copy,
            TD: FlatValues + Copy,
            $N: Unsigned,
            $FD: Unsigned,
            Self: Tile1 + TileBB<L>,
            <Self as TileBB<L>>::BB: RestHalfOf<Shape = YS, Stride = YD>,
            YS: FromLeaves + crate::Congruent<YD>,
            YD: FromLeaves,
            (TS, YS): crate::Congruent<(TD, YD)>,
            (TD, YD): IntTuple,
        {
            type BB = Layout<(TS, YS), (TD, YD)>;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn with_rest_of<S: FlatValues, D: FlatValues>(
                t: &Layout<TS, TD>,
                s: &S,
                d: &D,
                m: i64,
            ) -> Result<Self::BB, Fail> {
                // `B*` of the one mode, as for a tile of one mode (its
                // leaves after the mode's own), beside `B` itself.
                let c = Cut { n: <$N as Unsigned>::I64, td: <$FD as Unsigned>::I64, two: <Self as Tile1>::TWO };
                let (rest, k) = static_bb(<Self as TileBB<L>>::FORM, c, s, d, m)?;
                let (mut i, mut j) = (1, 1);
                let (ys, yd) = (YS::from_leaves(&rest[..k], &mut i, false), YD::from_leaves(&rest[..k], &mut j, true));
                Ok(Layout::from_checked((t.shape(), ys), (t.stride(), yd)))
            }
        }
    };
}
filtered_one_mode!(U, B, UD, BD; UInt<U, B>, UInt<UD, BD>);
filtered_one_mode!(; U1, U0);
/// [`FilteredBB`] of an all-static tile `B` whose filter keeps several
/// modes, by "the complement's walk leaves no gap" (`B1`: each stride of
/// the sorted modes a multiple of the extent below it, so that `B` and
/// the walk's modes cover `[0, N)`, `N` where the last mode starts).
#[doc(hidden)]
pub trait WalkBB<L, T, NoGap> {
    /// The layout `(B, B*)`.
    type BB;
    /// As [`MultiBB::with_rest_of`].
    fn with_rest_of<S: FlatValues, D: FlatValues>(t: &T, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail>;
}
/// No gap: CuTe's `B* = coalesce((W, R))`, `W` the static modes of the
/// complement's walk below its last, `R` the rest from `N` on against
/// `A`'s shape, as a one-mode tile `N:1` has it ([`TileBB`]: its own mode
/// `1:1` is no mode of CuTe's complement, its rest starts at `N·1`).
/// (CuTe counts that rest as `⌈M/N⌉` with a gap too, which then falls
/// short of `M`: not the complement; there `B*` is against the size.)
impl<L, TS, TD, N, W, YS, YD, BS, BD, F> WalkBB<L, Layout<TS, TD>, B1> for F
where
    TS: FlatValues + crate::Congruent<TD> + Copy,
    TD: FlatValues + Copy,
    Layout<TS, TD>: StaticWalk<Curr = N, Kept = W>,
    W: ModesToLayout,
    N: Unsigned,
    Layout<N, U1>: TileBB<L>,
    <Layout<N, U1> as TileBB<L>>::BB: RestHalfOf<Shape = YS, Stride = YD>,
    YS: FromLeaves + crate::Congruent<YD>,
    YD: FromLeaves,
    LayoutOfModes<W>: crate::StaticLayout,
    W::Shape: crate::Congruent<W::Stride> + Copy,
    W::Stride: IntTuple + Copy,
    (W::Shape, YS): crate::Congruent<(W::Stride, YD)>,
    (W::Stride, YD): IntTuple,
    Layout<(W::Shape, YS), (W::Stride, YD)>: crate::Coalesce<Output = Layout<BS, BD>>,
    Layout<BS, BD>: crate::CoalesceValue<Layout<(W::Shape, YS), (W::Stride, YD)>>,
    (TS, BS): crate::Congruent<(TD, BD)>,
    (TD, BD): IntTuple,
    BS: crate::Congruent<BD> + Copy,
    BD: IntTuple + Copy,
{
    type BB = Layout<(TS, BS), (TD, BD)>;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of<S: FlatValues, D: FlatValues>(t: &Layout<TS, TD>, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail> {
        let c = Cut { n: N::I64, td: 1, two: false };
        let (rest, k) = static_bb(<Layout<N, U1> as TileBB<L>>::FORM, c, s, d, m)?;
        let (mut i, mut j) = (1, 1);
        let y =
            Layout::from_checked(YS::from_leaves(&rest[..k], &mut i, false), YD::from_leaves(&rest[..k], &mut j, true));
        let w = LayoutOfModes::<W>::default();
        let b = crate::coalesce(Layout::from_checked((w.shape(), y.shape()), (w.stride(), y.stride())));
        Ok(Layout::from_checked((t.shape(), b.shape()), (t.stride(), b.stride())))
    }
}
impl<L, T: TileRest, F> WalkBB<L, T, B0> for F {
    type BB = T::BB;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn with_rest_of<S: FlatValues, D: FlatValues>(t: &T, _: &S, _: &D, m: i64) -> Result<Self::BB, Fail> {
        against_size(t, m)
    }
}
/// [`FilteredBB`] of a filter of several modes: by [`WalkBB`].
macro_rules! filtered_modes {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<L, TS, TD, $($S, $D),+> FilteredBB<L, Layout<TS, TD>> for Layout<($($S,)+), ($($D,)+)>
        where
            Layout<TS, TD>: StaticWalk<Gap: KnownZero>,
            Self: WalkBB<L, Layout<TS, TD>, IsZero<CompGap<TS, TD>>>,
        {
            type BB = <Self as WalkBB<L, Layout<TS, TD>, IsZero<CompGap<TS, TD>>>>::BB;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn with_rest_of<S: FlatValues, D: FlatValues>(t: &Layout<TS, TD>, s: &S, d: &D, m: i64) -> Result<Self::BB, Fail> {
                <Self as WalkBB<L, Layout<TS, TD>, IsZero<CompGap<TS, TD>>>>::with_rest_of(t, s, d, m)
            }
        }
    };
}
for_each_tuple!(filtered_modes);

/// The error of a divide by a tile of several modes whose `(B, B*)` could
/// not be made or composed (cold): cute-dynamic's divide names it, with
/// `(B, B*)` written as it writes it (`ours` were it to succeed).
#[cold]
#[inline(never)]
fn multi_mode_error<S, D, TS, TD>(
    ours: cute_dynamic::LayoutError,
    a: &Layout<S, D>,
    t: &Layout<TS, TD>,
) -> cute_dynamic::LayoutError
where
    S: crate::Congruent<D>,
    D: IntTuple,
    TS: crate::Congruent<TD>,
    TD: IntTuple,
{
    match cute_dynamic::logical_divide(&a.to_dynamic(), &cute_dynamic::Tiler::Layout(t.to_dynamic())) {
        Err(e) => e,
        Ok(_) => ours,
    }
}

/// The 1-D divide by a tile of several modes (a tuple shape), static or
/// with run-time leaves, of a mode with a run-time leaf: `A ∘ (B, B*)` by
/// the general run-time composition (in CuTe's form), `B*` as
/// [`MultiBB`] gives it, split in halves.
macro_rules! multi_mode_tile {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<AS, AD, BBr, $($S, $D),+> Split1DBy<DivideOp, Layout<($($S,)+), ($($D,)+)>, B0> for Layout<AS, AD>
        where
            AS: FlattenInto<AD, MNil>,
            Layout<($($S,)+), ($($D,)+)>: MultiBB<FlatModes<AS, AD>, BB = BBr>,
            Self: TryComposeCute<BBr>,
            <Self as TryComposeCute<BBr>>::Output: SplitHalves,
        {
            type X = <<Self as TryComposeCute<BBr>>::Output as SplitHalves>::X;
            type Y = <<Self as TryComposeCute<BBr>>::Output as SplitHalves>::Y;
        }
        impl<S, D, BBr, H, $($S, $D),+> ModeLeavesBy<Layout<($($S,)+), ($($D,)+)>, B0> for Layout<S, D>
        where
            S: crate::Congruent<D> + Copy + FlattenInto<D, MNil> + FlatValues,
            D: IntTuple + Copy + FlatValues,
            Layout<($($S,)+), ($($D,)+)>: MultiBB<FlatModes<S, D>, BB = BBr>,
            ($($S,)+): crate::Congruent<($($D,)+)>,
            ($($D,)+): IntTuple,
            Self: TryComposeCute<BBr, Output = H>,
            H: Halves,
        {
            const XN: usize = H::XN;
            const YN: usize = H::YN;
            #[inline]
            fn mode_leaves(
                &self,
                t: &Layout<($($S,)+), ($($D,)+)>,
                out: &mut Out,
                xo: usize,
                yo: usize,
            ) -> Result<(), cute_dynamic::LayoutError> {
                let m = crate::int_tuple::IntTuple::size(&self.shape()) as i64;
                let bb = match t.with_rest_of(&self.shape(), &self.stride(), m) {
                    Ok(bb) => bb,
                    // (The complement's error, named by the general path.)
                    Err(f) => return Err(multi_mode_error(f.into_error(&String::new), self, t)),
                };
                let r = match self.try_compose_cute(&bb) {
                    Ok(r) => r,
                    Err(e) => return Err(multi_mode_error(e, self, t)),
                };
                r.put_halves(out, xo, yo).map_err(|f: Fail| f.into_error(&String::new))
            }
        }
        impl<AS, AD, $($S, $D),+> DivideLeaves<Layout<($($S,)+), ($($D,)+)>> for Layout<AS, AD>
        where
            Self: ModeLeavesBy<Layout<($($S,)+), ($($D,)+)>, B0>,
        {
            #[inline]
            fn leaves<How: Arrangement>(
                &self,
                t: &Layout<($($S,)+), ($($D,)+)>,
                out: &mut Out,
            ) -> Result<(), cute_dynamic::LayoutError> {
                let xn = <Self as ModeLeavesBy<Layout<($($S,)+), ($($D,)+)>, B0>>::XN;
                <Self as ModeLeavesBy<Layout<($($S,)+), ($($D,)+)>, B0>>::mode_leaves(self, t, out, 0, xn)
            }
        }
    };
}
for_each_tuple!(multi_mode_tile);
