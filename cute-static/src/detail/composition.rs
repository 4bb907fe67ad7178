//! The composition solver: `A ∘ B` leaf by leaf of `B` over the flat modes
//! of `A` (paper 3.3), with the divisibility and distributivity conditions
//! as traits that have no implementation when they fail.

use crate::detail::{CoalesceFold, KeepLast, Prepared};
use crate::detail::{FlatModes, FlattenInto, HCons, HNil, MCons, MNil, ModesToLayout};
use crate::int_tuple::known::{IsOne, IsZero, KnownOne, KnownZero};
use crate::layout::Layout;
use core::ops::{Add, Div, Mul, Rem, Sub};
use typenum::{B0, B1, Compare, Equal, Greater, IsLess, Le, Less, Min, Minimum, Mod, Prod, Quot, Sub1, U0, U1, UInt};

/// The shape divisibility condition of composition (paper 3.3.3): the
/// remaining shape must be divisible by what fits in the current mode.
#[diagnostic::on_unimplemented(
    message = "composition violates the shape divisibility condition",
    label = "this composition is not a layout: a mode of the right layout does not split evenly across the modes of the left one",
    note = "the paper's shape divisibility condition (section 3.3.3); the same composition in cute-dynamic reports the values"
)]
pub trait ShapeDivisible {}
impl ShapeDivisible for B1 {}

/// One `U0` per mode of a mode list (the reach of a leaf that places
/// nothing).
pub trait Zeros {
    /// `HCons<U0, ...>`, as long as the mode list.
    type Output;
}
impl Zeros for MNil {
    type Output = HNil;
}
impl<S, D, T: Zeros> Zeros for MCons<S, D, T> {
    type Output = HCons<U0, <T as Zeros>::Output>;
}

/// WalkModes of `A`'s prepared modes for one leaf of `B`, with the remaining
/// shape `RS` and stride `RD` (paper 3.3.3; the rule as stated at the top of
/// cute-dynamic's `composition.rs`).
///
/// `Reach` lists, per mode of `A`, how far into that mode the leaf's
/// offsets go (`(n−1)·stride` for a piece placed there), for the
/// distributivity condition over several leaves of `B`.
pub trait WalkModes<RS, RD> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<SL, DL: Mul<RD>, RS, RD: Mul<DL>> WalkModes<RS, RD> for MCons<SL, DL, MNil> {
    type Output = MCons<RS, Prod<RD, DL>, MNil>;
    type Reach = HCons<U0, HNil>;
}
/// A reach entry computed only when the distributivity condition needs it:
/// `(N − 1)·RD`.
pub struct Piece<N, RD>(core::marker::PhantomData<(N, RD)>);
/// Zero reach into every mode of the mode list `L`, computed lazily.
pub struct NoReach<L>(core::marker::PhantomData<L>);
/// The sum of the reach lists of the children of a tuple of `B`, lazily.
pub struct ReachSum<L>(core::marker::PhantomData<L>);

impl<SR, DR, S2, D2, T2, RS, RD: KnownOne> WalkModes<RS, RD> for MCons<SR, DR, MCons<S2, D2, T2>>
where
    Self: WalkUnit<RS, RD, IsOne<RD>>,
{
    type Output = <Self as WalkUnit<RS, RD, IsOne<RD>>>::Output;
    type Reach = <Self as WalkUnit<RS, RD, IsOne<RD>>>::Reach;
}

/// Fast path for a rest stride of 1 (most tiles): `B` is "RD is 1". A
/// non-last prepared mode has `S_r ≥ 2`, so step 1 never applies, and step
/// 2 takes `n = min(S_r, RS)` with no division when `RS ≤ S_r`.
pub trait WalkUnit<RS, RD, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<SR, DR, T, RS, RD: typenum::Cmp<SR>> WalkUnit<RS, RD, B0> for MCons<SR, DR, T>
where
    Self: WalkByStride<RS, RD, Compare<RD, SR>>,
{
    type Output = <Self as WalkByStride<RS, RD, Compare<RD, SR>>>::Output;
    type Reach = <Self as WalkByStride<RS, RD, Compare<RD, SR>>>::Reach;
}
/// Rest stride above 1, by the comparison `O` of `RD` with `S_r`: below,
/// step 1 cannot apply (`RD mod S_r = RD`); equal, it applies with
/// quotient 1; above, test it.
pub trait WalkByStride<RS, RD, O> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<SR, DR, T, RS, RD> WalkByStride<RS, RD, Less> for MCons<SR, DR, T>
where
    Self: WalkSkip<RS, RD, B0>,
{
    type Output = <Self as WalkSkip<RS, RD, B0>>::Output;
    type Reach = <Self as WalkSkip<RS, RD, B0>>::Reach;
}
impl<SR, DR, T: WalkModes<RS, U1>, RS, RD> WalkByStride<RS, RD, Equal> for MCons<SR, DR, T> {
    type Output = <T as WalkModes<RS, U1>>::Output;
    type Reach = HCons<U0, <T as WalkModes<RS, U1>>::Reach>;
}
impl<SR, DR, T, RS, RD> WalkByStride<RS, RD, Greater> for MCons<SR, DR, T>
where
    RD: Rem<SR>,
    Mod<RD, SR>: KnownZero,
    Self: WalkSkip<RS, RD, IsZero<Mod<RD, SR>>>,
{
    type Output = <Self as WalkSkip<RS, RD, IsZero<Mod<RD, SR>>>>::Output;
    type Reach = <Self as WalkSkip<RS, RD, IsZero<Mod<RD, SR>>>>::Reach;
}
impl<SR, DR, T, RS: typenum::Cmp<SR>, RD> WalkUnit<RS, RD, B1> for MCons<SR, DR, T>
where
    Self: WalkUnitCmp<RS, Compare<RS, SR>>,
{
    type Output = <Self as WalkUnitCmp<RS, Compare<RS, SR>>>::Output;
    type Reach = <Self as WalkUnitCmp<RS, Compare<RS, SR>>>::Reach;
}
/// Rest stride 1, by the comparison `O` of the rest shape with `S_r`: the
/// rest fits in this mode, or the mode is taken whole and the walk goes on
/// with `RS / S_r` (shape divisibility condition).
pub trait WalkUnitCmp<RS, O> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<SR, DR, T, RS> WalkUnitCmp<RS, Less> for MCons<SR, DR, T> {
    type Output = MCons<RS, DR, MNil>;
    type Reach = HCons<Piece<RS, U1>, NoReach<T>>;
}
impl<SR, DR, T, RS> WalkUnitCmp<RS, Equal> for MCons<SR, DR, T> {
    type Output = MCons<RS, DR, MNil>;
    type Reach = HCons<Piece<RS, U1>, NoReach<T>>;
}
impl<SR, DR, T, RS> WalkUnitCmp<RS, Greater> for MCons<SR, DR, T>
where
    RS: Rem<SR> + Div<SR>,
    Mod<RS, SR>: KnownZero,
    IsZero<Mod<RS, SR>>: ShapeDivisible,
    T: WalkModes<Quot<RS, SR>, U1>,
{
    type Output = MCons<SR, DR, <T as WalkModes<Quot<RS, SR>, U1>>::Output>;
    type Reach = HCons<Piece<SR, U1>, <T as WalkModes<Quot<RS, SR>, U1>>::Reach>;
}

/// Step 1: `B` is "RD divisible by S_r": skip the mode.
pub trait WalkSkip<RS, RD, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<SR, DR, T, RS, RD> WalkSkip<RS, RD, B1> for MCons<SR, DR, T>
where
    RD: Div<SR>,
    T: WalkModes<RS, Quot<RD, SR>>,
{
    type Output = <T as WalkModes<RS, Quot<RD, SR>>>::Output;
    type Reach = HCons<U0, <T as WalkModes<RS, Quot<RD, SR>>>::Reach>;
}
impl<SR, DR, T, RS, RD> WalkSkip<RS, RD, B0> for MCons<SR, DR, T>
where
    SR: Rem<RD>,
    Mod<SR, RD>: KnownZero,
    Self: WalkSplit<RS, RD, IsZero<Mod<SR, RD>>>,
{
    type Output = <Self as WalkSplit<RS, RD, IsZero<Mod<SR, RD>>>>::Output;
    type Reach = <Self as WalkSplit<RS, RD, IsZero<Mod<SR, RD>>>>::Reach;
}

/// Step 2: `B` is "S_r divisible by RD": take `n = min(S_r/RD, RS)`.
pub trait WalkSplit<RS, RD, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
pub(crate) type Fit<SR, RD, RS> = Minimum<Quot<SR, RD>, RS>;
impl<SR, DR, T, RS, RD> WalkSplit<RS, RD, B1> for MCons<SR, DR, T>
where
    SR: Div<RD>,
    Quot<SR, RD>: Min<RS>,
    RS: Rem<Fit<SR, RD, RS>> + Div<Fit<SR, RD, RS>>,
    Mod<RS, Fit<SR, RD, RS>>: KnownZero,
    IsZero<Mod<RS, Fit<SR, RD, RS>>>: ShapeDivisible,
    RD: Mul<DR>,
    Quot<RS, Fit<SR, RD, RS>>: KnownOne,
    T: WalkOn<Quot<RS, Fit<SR, RD, RS>>, IsOne<Quot<RS, Fit<SR, RD, RS>>>>,
{
    type Output = MCons<
        Fit<SR, RD, RS>,
        Prod<RD, DR>,
        <T as WalkOn<Quot<RS, Fit<SR, RD, RS>>, IsOne<Quot<RS, Fit<SR, RD, RS>>>>>::Output,
    >;
    type Reach = HCons<
        Piece<Fit<SR, RD, RS>, RD>,
        <T as WalkOn<Quot<RS, Fit<SR, RD, RS>>, IsOne<Quot<RS, Fit<SR, RD, RS>>>>>::Reach,
    >;
}
impl<SR, DR, T, RS, RD> WalkSplit<RS, RD, B0> for MCons<SR, DR, T>
where
    RS: Sub<B1>,
    Sub1<RS>: Mul<RD>,
    Prod<Sub1<RS>, RD>: IsLess<SR>,
    Self: WalkStay<RS, RD, Le<Prod<Sub1<RS>, RD>, SR>>,
{
    type Output = <Self as WalkStay<RS, RD, Le<Prod<Sub1<RS>, RD>, SR>>>::Output;
    type Reach = <Self as WalkStay<RS, RD, Le<Prod<Sub1<RS>, RD>, SR>>>::Reach;
}

/// After a split: `B` is "the rest shape is 1" (stop) or go on with stride 1.
pub trait WalkOn<RS, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<L, RS> WalkOn<RS, B1> for L {
    type Output = MNil;
    type Reach = NoReach<L>;
}
impl<L: WalkModes<RS, U1>, RS> WalkOn<RS, B0> for L {
    type Output = <L as WalkModes<RS, U1>>::Output;
    type Reach = <L as WalkModes<RS, U1>>::Reach;
}

/// Step 3/4: `B` is "(RS−1)·RD < S_r": the rest of the walk stays inside
/// this mode; otherwise the stride divisibility condition fails.
#[diagnostic::on_unimplemented(
    message = "composition violates the stride divisibility condition",
    label = "this composition is not a layout: a stride of the right layout does not divide or fit a mode of the left one",
    note = "the paper's stride divisibility condition (section 3.3.3); the same composition in cute-dynamic reports the values"
)]
pub trait WalkStay<RS, RD, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<SR, DR, T, RS, RD: Mul<DR>> WalkStay<RS, RD, B1> for MCons<SR, DR, T> {
    type Output = MCons<RS, Prod<RD, DR>, MNil>;
    type Reach = HCons<Piece<RS, RD>, NoReach<T>>;
}

/// Step 3/4 through a stride-0 mode (`D_r = 0`, as cute-dynamic): its digit
/// adds nothing, only its carries matter. They come once every
/// `N = S_r/RD + 1` steps while the digit `(RS/N − 1)·(N·RD − S_r) +
/// (N−1)·RD` stays below `S_r`: then the mode `N:0` (none for `N = 1`) and
/// the walk goes on with `RS/N` steps of 1.
impl<SR, T, RS, RD> WalkStay<RS, RD, B0> for MCons<SR, U0, T>
where
    SR: Div<RD>,
    Quot<SR, RD>: Add<B1>,
    RS: Rem<ZN<SR, RD>> + Div<ZN<SR, RD>>,
    Mod<RS, ZN<SR, RD>>: KnownZero,
    IsZero<Mod<RS, ZN<SR, RD>>>: ShapeDivisible,
    ZN<SR, RD>: Mul<RD> + Sub<B1> + KnownOne,
    Prod<ZN<SR, RD>, RD>: Sub<SR>,
    Quot<RS, ZN<SR, RD>>: Sub<B1> + KnownOne,
    Sub1<Quot<RS, ZN<SR, RD>>>: Mul<typenum::Diff<Prod<ZN<SR, RD>, RD>, SR>>,
    Sub1<ZN<SR, RD>>: Mul<RD>,
    ZSlipped<SR, RD, RS>: Add<Prod<Sub1<ZN<SR, RD>>, RD>>,
    ZDigit<SR, RD, RS>: IsLess<SR> + Add<B1>,
    Le<ZDigit<SR, RD, RS>, SR>: StrideFits,
    T: WalkOn<Quot<RS, ZN<SR, RD>>, IsOne<Quot<RS, ZN<SR, RD>>>>,
    <T as WalkOn<Quot<RS, ZN<SR, RD>>, IsOne<Quot<RS, ZN<SR, RD>>>>>::Output: ZeroMode<ZN<SR, RD>, IsOne<ZN<SR, RD>>>,
{
    type Output = <<T as WalkOn<Quot<RS, ZN<SR, RD>>, IsOne<Quot<RS, ZN<SR, RD>>>>>::Output as ZeroMode<
        ZN<SR, RD>,
        IsOne<ZN<SR, RD>>,
    >>::Output;
    // The reach is lazy: `Piece<digit + 1, 1>` is `digit`.
    type Reach = HCons<
        Piece<typenum::Add1<ZDigit<SR, RD, RS>>, U1>,
        <T as WalkOn<Quot<RS, ZN<SR, RD>>, IsOne<Quot<RS, ZN<SR, RD>>>>>::Reach,
    >;
}
/// `N = S_r/RD + 1`: the steps per carry out of a stride-0 mode.
pub(crate) type ZN<SR, RD> = typenum::Add1<Quot<SR, RD>>;
/// `(RS/N − 1)·(N·RD − S_r)`: the slip of the last group.
pub(crate) type ZSlipped<SR, RD, RS> = Prod<Sub1<Quot<RS, ZN<SR, RD>>>, typenum::Diff<Prod<ZN<SR, RD>, RD>, SR>>;
/// The largest digit left in the stride-0 mode.
pub(crate) type ZDigit<SR, RD, RS> = typenum::Sum<ZSlipped<SR, RD, RS>, Prod<Sub1<ZN<SR, RD>>, RD>>;

/// The stride-0 walk's digit stays inside its mode.
#[diagnostic::on_unimplemented(
    message = "composition violates the stride divisibility condition",
    label = "this composition is not a layout: a stride of the right layout does not divide or fit a mode of the left one",
    note = "the paper's stride divisibility condition (section 3.3.3); the same composition in cute-dynamic reports the values"
)]
#[doc(hidden)]
pub trait StrideFits {}
impl StrideFits for B1 {}

/// Prepends the mode `N:0` unless `B` ("N is 1").
#[doc(hidden)]
pub trait ZeroMode<N, B> {
    /// The modes.
    type Output;
}
impl<M, N> ZeroMode<N, B1> for M {
    type Output = M;
}
impl<M, N> ZeroMode<N, B0> for M {
    type Output = MCons<N, U0, M>;
}

/// `A` (prepared modes) composed with one leaf `S:D` of `B`: the modes of
/// the result (`[1:UnitStride]` for `S = 1`, `[S:0]` for `D = 0`).
pub trait ComposeLeaf<S, D> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<AL, S: KnownOne, D> ComposeLeaf<S, D> for AL
where
    AL: ComposeLeafBySize<S, D, IsOne<S>>,
{
    type Output = <AL as ComposeLeafBySize<S, D, IsOne<S>>>::Output;
    type Reach = <AL as ComposeLeafBySize<S, D, IsOne<S>>>::Reach;
}
/// `B` is "S is 1".
pub trait ComposeLeafBySize<S, D, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<AL: UnitStride<D>, S, D> ComposeLeafBySize<S, D, B1> for AL {
    type Output = MCons<U1, <AL as UnitStride<D>>::Output, MNil>;
    type Reach = NoReach<AL>;
}
/// The stride CuTe gives `A ∘ 1:D` (`Self` are `A`'s prepared modes): `D`
/// carried through the bounded modes by ceiling division, times the last
/// mode's stride, as cute-dynamic. It moves no offset; only the print
/// follows CuTe's (`1:1 ∘ 1:1` is `_1:_1`).
#[doc(hidden)]
pub trait UnitStride<D> {
    /// The stride.
    type Output;
}
impl<SL, DL, D: Mul<DL>> UnitStride<D> for MCons<SL, DL, MNil> {
    type Output = Prod<D, DL>;
}
// Several modes: `D = 0` gives 0; `D ≤ S_0` carries 1 into the next mode,
// and 1 stays 1 through every ceiling division after it, so the stride is
// the last mode's (no arithmetic at all); only a larger `D` divides.
impl<SR, DR, S2, D2, T2, D: KnownZero> UnitStride<D> for MCons<SR, DR, MCons<S2, D2, T2>>
where
    Self: UnitStrideBy<D, IsZero<D>>,
{
    type Output = <Self as UnitStrideBy<D, IsZero<D>>>::Output;
}
/// [`UnitStride`] of several modes by `B`, "`D` is 0".
#[doc(hidden)]
pub trait UnitStrideBy<D, B> {
    /// The stride.
    type Output;
}
impl<L, D> UnitStrideBy<D, B1> for L {
    type Output = U0;
}
impl<SR, DR, T, D: typenum::Cmp<SR>> UnitStrideBy<D, B0> for MCons<SR, DR, T>
where
    Self: UnitStrideCmp<D, Compare<D, SR>>,
{
    type Output = <Self as UnitStrideCmp<D, Compare<D, SR>>>::Output;
}
/// [`UnitStride`] of several modes by the comparison `O` of `D` with `S_0`.
#[doc(hidden)]
pub trait UnitStrideCmp<D, O> {
    /// The stride.
    type Output;
}
impl<SR, DR, T: LastStride, D> UnitStrideCmp<D, Less> for MCons<SR, DR, T> {
    type Output = <T as LastStride>::Output;
}
impl<SR, DR, T: LastStride, D> UnitStrideCmp<D, Equal> for MCons<SR, DR, T> {
    type Output = <T as LastStride>::Output;
}
impl<SR, DR, T, D: Add<SR>> UnitStrideCmp<D, Greater> for MCons<SR, DR, T>
where
    typenum::Sum<D, SR>: Sub<B1>,
    Sub1<typenum::Sum<D, SR>>: Div<SR>,
    T: UnitStride<Quot<Sub1<typenum::Sum<D, SR>>, SR>>,
{
    type Output = <T as UnitStride<Quot<Sub1<typenum::Sum<D, SR>>, SR>>>::Output;
}
/// The stride of the last mode of a mode list.
#[doc(hidden)]
pub trait LastStride {
    /// The stride.
    type Output;
}
impl<S, D> LastStride for MCons<S, D, MNil> {
    type Output = D;
}
impl<S, D, S2, D2, T2> LastStride for MCons<S, D, MCons<S2, D2, T2>>
where
    MCons<S2, D2, T2>: LastStride,
{
    type Output = <MCons<S2, D2, T2> as LastStride>::Output;
}
impl<AL, S, D: KnownZero> ComposeLeafBySize<S, D, B0> for AL
where
    AL: ComposeLeafByStride<S, D, IsZero<D>>,
{
    type Output = <AL as ComposeLeafByStride<S, D, IsZero<D>>>::Output;
    type Reach = <AL as ComposeLeafByStride<S, D, IsZero<D>>>::Reach;
}
/// `B` is "D is 0".
pub trait ComposeLeafByStride<S, D, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<AL, S, D> ComposeLeafByStride<S, D, B1> for AL {
    type Output = MCons<S, U0, MNil>;
    type Reach = NoReach<AL>;
}
impl<AL: WalkModes<S, D>, S, D> ComposeLeafByStride<S, D, B0> for AL {
    type Output = <AL as WalkModes<S, D>>::Output;
    type Reach = <AL as WalkModes<S, D>>::Reach;
}

/// Elementwise sum of two reach lists.
pub trait AddReach<R2> {
    /// The sum.
    type Output;
}
impl AddReach<HNil> for HNil {
    type Output = HNil;
}
impl<A: Add<B>, T: AddReach<T2>, B, T2> AddReach<HCons<B, T2>> for HCons<A, T> {
    type Output = HCons<typenum::Sum<A, B>, <T as AddReach<T2>>::Output>;
}

/// The distributivity condition of composition: when `B` has several
/// modes, their offsets added up must stay inside each bounded mode of `A`
/// (else `A ∘ B` is not the concatenation of the `A ∘ B_i`, and not a layout
/// of `B`'s shape). `B` is "reach < S_r".
#[diagnostic::on_unimplemented(
    message = "composition does not distribute over the modes of the right layout",
    label = "the modes of the right layout together reach past a mode of the left layout, so the composition is not a layout of the right layout's shape",
    note = "each leaf fits on its own, but their offsets add up across a mode boundary of the coalesced left layout; the same composition in cute-dynamic reports the values"
)]
pub trait Distributive {}
impl Distributive for B1 {}

/// Checks a reach list against `A`'s prepared modes `AL` (all but the last,
/// unbounded, mode).
pub trait CheckReach<AL> {}
impl<R, SL, DL> CheckReach<MCons<SL, DL, MNil>> for HCons<R, HNil> {}
impl<R: IsLess<S>, RT, S, D, S2, D2, T2> CheckReach<MCons<S, D, MCons<S2, D2, T2>>> for HCons<R, RT>
where
    Le<R, S>: Distributive,
    RT: CheckReach<MCons<S2, D2, T2>>,
{
}

/// `B`'s shape tree with each leaf `s:d` replaced by `A ∘ s:d` (`AL` are
/// `A`'s prepared modes, `BD` is `B`'s stride tree).
pub trait ComposeTree<AL, BD> {
    /// The result's shape tree.
    type Shape;
    /// The result's stride tree.
    type Stride;
    /// The summed reach of the leaves into each mode of `A`.
    type Reach;
}
impl<AL, U, B, BD> ComposeTree<AL, BD> for UInt<U, B>
where
    AL: ComposeLeaf<UInt<U, B>, BD>,
    <AL as ComposeLeaf<UInt<U, B>, BD>>::Output: ModesToLayout,
{
    type Shape = <<AL as ComposeLeaf<UInt<U, B>, BD>>::Output as ModesToLayout>::Shape;
    type Stride = <<AL as ComposeLeaf<UInt<U, B>, BD>>::Output as ModesToLayout>::Stride;
    type Reach = <AL as ComposeLeaf<UInt<U, B>, BD>>::Reach;
}
/// Evaluates a (lazy) reach list into typenum integers, one per mode.
pub trait EvalReach {
    /// `HCons<typenum integer, ...>`.
    type Output;
}
impl EvalReach for HNil {
    type Output = HNil;
}
impl<T: EvalReach> EvalReach for HCons<U0, T> {
    type Output = HCons<U0, <T as EvalReach>::Output>;
}
impl<N: Sub<B1>, RD, T: EvalReach> EvalReach for HCons<Piece<N, RD>, T>
where
    Sub1<N>: Mul<RD>,
{
    type Output = HCons<Prod<Sub1<N>, RD>, <T as EvalReach>::Output>;
}
impl<L: Zeros> EvalReach for NoReach<L> {
    type Output = <L as Zeros>::Output;
}
impl<L: SumReach> EvalReach for ReachSum<L> {
    type Output = <L as SumReach>::Output;
}

/// The elementwise sum of a list of (lazy) reach lists.
pub trait SumReach {
    /// The sum, evaluated.
    type Output;
}
impl<R: EvalReach> SumReach for HCons<R, HNil> {
    type Output = <R as EvalReach>::Output;
}
impl<R: EvalReach, R2, T> SumReach for HCons<R, HCons<R2, T>>
where
    HCons<R2, T>: SumReach,
    <R as EvalReach>::Output: AddReach<<HCons<R2, T> as SumReach>::Output>,
{
    type Output = <<R as EvalReach>::Output as AddReach<<HCons<R2, T> as SumReach>::Output>>::Output;
}

/// The distributivity check, needed only when `B` has several leaves (a
/// single leaf always fits): implemented without condition for a leaf `B`.
pub trait ReachCheck<AL, R> {}
impl<AL, R, U, B> ReachCheck<AL, R> for UInt<U, B> {}

macro_rules! compose_tree_tuple {
    (@list $AL:ident; $S:ident $D:ident $($rest:ident)*) => {
        HCons<<$S as ComposeTree<$AL, $D>>::Reach, compose_tree_tuple!(@list $AL; $($rest)*)>
    };
    (@list $AL:ident;) => { HNil };

    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<AL, $($S: ComposeTree<AL, $D>, $D),+> ComposeTree<AL, ($($D,)+)> for ($($S,)+) {
            type Shape = ($(<$S as ComposeTree<AL, $D>>::Shape,)+);
            type Stride = ($(<$S as ComposeTree<AL, $D>>::Stride,)+);
            type Reach = ReachSum<compose_tree_tuple!(@list AL; $($S $D)+)>;
        }
        impl<AL, R: EvalReach, $($S),+> ReachCheck<AL, R> for ($($S,)+)
        where
            <R as EvalReach>::Output: CheckReach<AL>,
        {
        }
    };
}
for_each_tuple!(compose_tree_tuple);

/// Composition of two layouts as 1-D functions (`B` distributes over its
/// modes).
pub trait ComposeLayouts<B> {
    /// `Self ∘ B`.
    type Output;
}
pub(crate) type PrepOf<AS, AD> = Prepared<FlatModes<AS, AD>>;
impl<AS, AD, BS, BD> ComposeLayouts<Layout<BS, BD>> for Layout<AS, AD>
where
    AS: FlattenInto<AD, MNil>,
    FlatModes<AS, AD>: CoalesceFold<U1, U0, KeepLast>,
    BS: ComposeTree<PrepOf<AS, AD>, BD>,
    BS: ReachCheck<PrepOf<AS, AD>, <BS as ComposeTree<PrepOf<AS, AD>, BD>>::Reach>,
{
    type Output =
        Layout<<BS as ComposeTree<PrepOf<AS, AD>, BD>>::Shape, <BS as ComposeTree<PrepOf<AS, AD>, BD>>::Stride>;
}
/// [`ComposeValue`] by branch: `Static` is `B1` when both arguments are
/// all-static.
#[doc(hidden)]
pub trait ComposeValueBy<A, B, Static>: Sized {
    /// `a ∘ b`.
    fn make(a: A, b: B) -> Self;
    /// `a ∘ b`, or cute-dynamic's error.
    #[cfg(feature = "std")]
    fn try_make(a: A, b: B) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O: crate::layout::StaticValue, A, B> ComposeValueBy<A, B, B1> for O {
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
