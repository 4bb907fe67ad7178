//! The layout algebra in trait resolution: coalesce, filter, composition,
//! complement, and the divide and product families.
//!
//! Every operation runs on flat mode lists (`MCons`/`MNil`) with typenum
//! arithmetic; each branch of an algorithm is a small trait keyed on a
//! typenum `Bit`, so the solver only ever follows one branch. Conditions
//! that make an operation inadmissible are traits with no implementation for
//! the failing branch, annotated with `#[diagnostic::on_unimplemented]`, so
//! the compile error states the condition in words.

use crate::coalesce::{CoFold, Coalesced, KeepLast, Plain, Prepared};
use crate::layout::Layout;
use crate::list::{
    Append, FlatModes, FlattenInto, HCons, HNil, LayoutOfModes, MCons, MNil, MakeLayout, ModeSize, ModeSpan, ModesOf,
    ModesToLayout,
};
use core::ops::{Add, Div, Mul, Rem, Sub};
use typenum::{
    B0, B1, Bit, Compare, Eq, Equal, Greater, IsEqual, IsLess, Le, Less, Min, Minimum, Mod, Prod, Quot, Sub1, U0, U1,
    UInt, Unsigned,
};

// ------------------------------------------------------------- composition

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

/// Walk of `A`'s prepared modes for one leaf of `B`, with the remaining
/// shape `RS` and stride `RD` (DESIGN "Composition, precisely").
///
/// `Reach` lists, per mode of `A`, how far into that mode the leaf's
/// offsets go (`(n−1)·stride` for a piece placed there), for the
/// distributivity condition over several leaves of `B`.
pub trait Walk<RS, RD> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<SL, DL: Mul<RD>, RS, RD: Mul<DL>> Walk<RS, RD> for MCons<SL, DL, MNil> {
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

impl<SR, DR, S2, D2, T2, RS, RD: IsEqual<U1>> Walk<RS, RD> for MCons<SR, DR, MCons<S2, D2, T2>>
where
    Self: WalkUnit<RS, RD, Eq<RD, U1>>,
{
    type Output = <Self as WalkUnit<RS, RD, Eq<RD, U1>>>::Output;
    type Reach = <Self as WalkUnit<RS, RD, Eq<RD, U1>>>::Reach;
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
impl<SR, DR, T: Walk<RS, U1>, RS, RD> WalkByStride<RS, RD, Equal> for MCons<SR, DR, T> {
    type Output = <T as Walk<RS, U1>>::Output;
    type Reach = HCons<U0, <T as Walk<RS, U1>>::Reach>;
}
impl<SR, DR, T, RS, RD> WalkByStride<RS, RD, Greater> for MCons<SR, DR, T>
where
    RD: Rem<SR>,
    Mod<RD, SR>: IsEqual<U0>,
    Self: WalkSkip<RS, RD, Eq<Mod<RD, SR>, U0>>,
{
    type Output = <Self as WalkSkip<RS, RD, Eq<Mod<RD, SR>, U0>>>::Output;
    type Reach = <Self as WalkSkip<RS, RD, Eq<Mod<RD, SR>, U0>>>::Reach;
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
    Mod<RS, SR>: IsEqual<U0>,
    Eq<Mod<RS, SR>, U0>: ShapeDivisible,
    T: Walk<Quot<RS, SR>, U1>,
{
    type Output = MCons<SR, DR, <T as Walk<Quot<RS, SR>, U1>>::Output>;
    type Reach = HCons<Piece<SR, U1>, <T as Walk<Quot<RS, SR>, U1>>::Reach>;
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
    T: Walk<RS, Quot<RD, SR>>,
{
    type Output = <T as Walk<RS, Quot<RD, SR>>>::Output;
    type Reach = HCons<U0, <T as Walk<RS, Quot<RD, SR>>>::Reach>;
}
impl<SR, DR, T, RS, RD> WalkSkip<RS, RD, B0> for MCons<SR, DR, T>
where
    SR: Rem<RD>,
    Mod<SR, RD>: IsEqual<U0>,
    Self: WalkSplit<RS, RD, Eq<Mod<SR, RD>, U0>>,
{
    type Output = <Self as WalkSplit<RS, RD, Eq<Mod<SR, RD>, U0>>>::Output;
    type Reach = <Self as WalkSplit<RS, RD, Eq<Mod<SR, RD>, U0>>>::Reach;
}

/// Step 2: `B` is "S_r divisible by RD": take `n = min(S_r/RD, RS)`.
pub trait WalkSplit<RS, RD, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
type Fit<SR, RD, RS> = Minimum<Quot<SR, RD>, RS>;
impl<SR, DR, T, RS, RD> WalkSplit<RS, RD, B1> for MCons<SR, DR, T>
where
    SR: Div<RD>,
    Quot<SR, RD>: Min<RS>,
    RS: Rem<Fit<SR, RD, RS>> + Div<Fit<SR, RD, RS>>,
    Mod<RS, Fit<SR, RD, RS>>: IsEqual<U0>,
    Eq<Mod<RS, Fit<SR, RD, RS>>, U0>: ShapeDivisible,
    RD: Mul<DR>,
    Quot<RS, Fit<SR, RD, RS>>: IsEqual<U1>,
    T: WalkOn<Quot<RS, Fit<SR, RD, RS>>, Eq<Quot<RS, Fit<SR, RD, RS>>, U1>>,
{
    type Output = MCons<
        Fit<SR, RD, RS>,
        Prod<RD, DR>,
        <T as WalkOn<Quot<RS, Fit<SR, RD, RS>>, Eq<Quot<RS, Fit<SR, RD, RS>>, U1>>>::Output,
    >;
    type Reach = HCons<
        Piece<Fit<SR, RD, RS>, RD>,
        <T as WalkOn<Quot<RS, Fit<SR, RD, RS>>, Eq<Quot<RS, Fit<SR, RD, RS>>, U1>>>::Reach,
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
impl<L: Walk<RS, U1>, RS> WalkOn<RS, B0> for L {
    type Output = <L as Walk<RS, U1>>::Output;
    type Reach = <L as Walk<RS, U1>>::Reach;
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
    Mod<RS, ZN<SR, RD>>: IsEqual<U0>,
    Eq<Mod<RS, ZN<SR, RD>>, U0>: ShapeDivisible,
    ZN<SR, RD>: Mul<RD> + Sub<B1> + IsEqual<U1>,
    Prod<ZN<SR, RD>, RD>: Sub<SR>,
    Quot<RS, ZN<SR, RD>>: Sub<B1> + IsEqual<U1>,
    Sub1<Quot<RS, ZN<SR, RD>>>: Mul<typenum::Diff<Prod<ZN<SR, RD>, RD>, SR>>,
    Sub1<ZN<SR, RD>>: Mul<RD>,
    ZSlipped<SR, RD, RS>: Add<Prod<Sub1<ZN<SR, RD>>, RD>>,
    ZDigit<SR, RD, RS>: IsLess<SR> + Add<B1>,
    Le<ZDigit<SR, RD, RS>, SR>: StrideFits,
    T: WalkOn<Quot<RS, ZN<SR, RD>>, Eq<Quot<RS, ZN<SR, RD>>, U1>>,
    <T as WalkOn<Quot<RS, ZN<SR, RD>>, Eq<Quot<RS, ZN<SR, RD>>, U1>>>::Output: ZeroMode<ZN<SR, RD>, Eq<ZN<SR, RD>, U1>>,
{
    type Output = <<T as WalkOn<Quot<RS, ZN<SR, RD>>, Eq<Quot<RS, ZN<SR, RD>>, U1>>>::Output as ZeroMode<
        ZN<SR, RD>,
        Eq<ZN<SR, RD>, U1>,
    >>::Output;
    // The reach is lazy: `Piece<digit + 1, 1>` is `digit`.
    type Reach = HCons<
        Piece<typenum::Add1<ZDigit<SR, RD, RS>>, U1>,
        <T as WalkOn<Quot<RS, ZN<SR, RD>>, Eq<Quot<RS, ZN<SR, RD>>, U1>>>::Reach,
    >;
}
/// `N = S_r/RD + 1`: the steps per carry out of a stride-0 mode.
type ZN<SR, RD> = typenum::Add1<Quot<SR, RD>>;
/// `(RS/N − 1)·(N·RD − S_r)`: the slip of the last group.
type ZSlipped<SR, RD, RS> = Prod<Sub1<Quot<RS, ZN<SR, RD>>>, typenum::Diff<Prod<ZN<SR, RD>, RD>, SR>>;
/// The largest digit left in the stride-0 mode.
type ZDigit<SR, RD, RS> = typenum::Sum<ZSlipped<SR, RD, RS>, Prod<Sub1<ZN<SR, RD>>, RD>>;

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
impl<AL, S: IsEqual<U1>, D> ComposeLeaf<S, D> for AL
where
    AL: ComposeLeafA<S, D, Eq<S, U1>>,
{
    type Output = <AL as ComposeLeafA<S, D, Eq<S, U1>>>::Output;
    type Reach = <AL as ComposeLeafA<S, D, Eq<S, U1>>>::Reach;
}
/// `B` is "S is 1".
pub trait ComposeLeafA<S, D, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<AL: UnitStride<D>, S, D> ComposeLeafA<S, D, B1> for AL {
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
impl<SR, DR, S2, D2, T2, D: Add<SR>> UnitStride<D> for MCons<SR, DR, MCons<S2, D2, T2>>
where
    typenum::Sum<D, SR>: Sub<B1>,
    Sub1<typenum::Sum<D, SR>>: Div<SR>,
    MCons<S2, D2, T2>: UnitStride<Quot<Sub1<typenum::Sum<D, SR>>, SR>>,
{
    type Output = <MCons<S2, D2, T2> as UnitStride<Quot<Sub1<typenum::Sum<D, SR>>, SR>>>::Output;
}
impl<AL, S, D: IsEqual<U0>> ComposeLeafA<S, D, B0> for AL
where
    AL: ComposeLeafB<S, D, Eq<D, U0>>,
{
    type Output = <AL as ComposeLeafB<S, D, Eq<D, U0>>>::Output;
    type Reach = <AL as ComposeLeafB<S, D, Eq<D, U0>>>::Reach;
}
/// `B` is "D is 0".
pub trait ComposeLeafB<S, D, B> {
    /// The result modes.
    type Output;
    /// The reach into each mode of `A`.
    type Reach;
}
impl<AL, S, D> ComposeLeafB<S, D, B1> for AL {
    type Output = MCons<S, U0, MNil>;
    type Reach = NoReach<AL>;
}
impl<AL: Walk<S, D>, S, D> ComposeLeafB<S, D, B0> for AL {
    type Output = <AL as Walk<S, D>>::Output;
    type Reach = <AL as Walk<S, D>>::Reach;
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
impl<AL, U: Unsigned, B: Bit, BD> ComposeTree<AL, BD> for UInt<U, B>
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
impl<AL, R, U: Unsigned, B: Bit> ReachCheck<AL, R> for UInt<U, B> {}

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
pub trait Compose1<B> {
    /// `Self ∘ B`.
    type Output;
}
type PrepOf<AS, AD> = Prepared<FlatModes<AS, AD>>;
impl<AS, AD, BS, BD> Compose1<Layout<BS, BD>> for Layout<AS, AD>
where
    AS: FlattenInto<AD, MNil>,
    FlatModes<AS, AD>: CoFold<U1, U0, KeepLast>,
    BS: ComposeTree<PrepOf<AS, AD>, BD>,
    BS: ReachCheck<PrepOf<AS, AD>, <BS as ComposeTree<PrepOf<AS, AD>, BD>>::Reach>,
{
    type Output =
        Layout<<BS as ComposeTree<PrepOf<AS, AD>, BD>>::Shape, <BS as ComposeTree<PrepOf<AS, AD>, BD>>::Stride>;
}

// ------------------------------------------------------------------ tilers

/// A tuple of tiles in canonical form: an `HCons` list of tiles.
pub struct TList<L>(core::marker::PhantomData<L>);

/// What can stand as the second argument of composition, the divides and
/// the products: a layout, an integer `n` (the layout `n:1`), a shape or a
/// tuple of tiles (one per mode), or a `Tiler`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tiler",
    label = "expected a layout, a shape, or a tiler made with `tile!`"
)]
pub trait TileArg {
    /// The canonical tile: a `Layout` or a `TList` of canonical tiles.
    type Tile;
}
impl<S, D> TileArg for Layout<S, D> {
    type Tile = Layout<S, D>;
}
impl<U: Unsigned, B: Bit> TileArg for UInt<U, B> {
    type Tile = Layout<UInt<U, B>, U1>;
}
impl<T: TileArg> TileArg for crate::Tiler<T> {
    type Tile = <T as TileArg>::Tile;
}
macro_rules! tile_arg_tuple {
    (@list $T:ident $($rest:ident)*) => { HCons<<$T as TileArg>::Tile, tile_arg_tuple!(@list $($rest)*)> };
    (@list) => { HNil };

    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($T: TileArg),+> TileArg for ($($T,)+) {
            type Tile = TList<tile_arg_tuple!(@list $($T)+)>;
        }
    };
}
for_each_tuple!(tile_arg_tuple);

/// The rank condition of by-mode operations: a tiler may not have more
/// modes than the layout it applies to. `Self` is the list of tiles,
/// `AModes` the list of the layout's modes.
#[diagnostic::on_unimplemented(
    message = "the tiler has more modes than the layout (rank mismatch)",
    label = "a tiler's rank must not exceed the rank of the layout it tiles",
    note = "a tiler <T0, T1, ...> applies T0 to mode 0 of the layout, T1 to mode 1, ...; a scalar layout takes a tiler of one mode"
)]
pub trait ZipCompose<AModes> {
    /// The composed modes, as a list of layouts.
    type Output;
}
impl<AL> ZipCompose<AL> for HNil {
    type Output = HNil;
}
impl<T0: TileCompose<A0>, TR: ZipCompose<AR>, A0, AR> ZipCompose<HCons<A0, AR>> for HCons<T0, TR> {
    type Output = HCons<<T0 as TileCompose<A0>>::Output, <TR as ZipCompose<AR>>::Output>;
}

/// Composition of the layout `A` with the canonical tile `Self`. (The tile
/// is the `Self` type so that the solver never explores tiles it does not
/// know yet.)
pub trait TileCompose<A> {
    /// The result layout.
    type Output;
}
impl<A, BS, BD> TileCompose<A> for Layout<BS, BD>
where
    (A, Self): crate::int_tuple::AllStatic,
    Self: TileComposeBy<A, <(A, Self) as crate::int_tuple::AllStatic>::Bit>,
{
    type Output = <Self as TileComposeBy<A, <(A, Self) as crate::int_tuple::AllStatic>::Bit>>::Output;
}
/// [`TileCompose`] of a layout tile by branch: `Static` is `B1` when the
/// layout and the tile are all-static (composition in trait resolution),
/// `B0` when one has a run-time leaf (see `composition.rs`).
#[doc(hidden)]
pub trait TileComposeBy<A, Static> {
    /// The result layout.
    type Output;
}
impl<A, BS, BD> TileComposeBy<A, B1> for Layout<BS, BD>
where
    A: Compose1<Layout<BS, BD>>,
{
    type Output = <A as Compose1<Layout<BS, BD>>>::Output;
}
impl<A, L> TileCompose<A> for TList<L>
where
    A: ModesOf,
    L: ZipCompose<<A as ModesOf>::Output>,
    <L as ZipCompose<<A as ModesOf>::Output>>::Output: MakeLayout,
{
    type Output = <<L as ZipCompose<<A as ModesOf>::Output>>::Output as MakeLayout>::Output;
}

/// `Self ∘ B` for a layout, a shape or a tiler `B` (paper 3.3, DESIGN
/// "Composition, precisely"). Post-conditions (eqs. 16–17): for a layout
/// `B`, the result's shape is compatible with `B`'s and `R(c) = A(B(c))`;
/// for a tiler, each mode satisfies them for its tile. Inadmissible
/// compositions (divisibility conditions, rank) have no implementation.
///
/// ```
/// use cute_static::prelude::*;
/// fn compose<A: Compose<B>, B>(a: A, b: B) -> A::Output
/// where
///     A::Output: ComposeValue<A, B>,
/// {
///     composition(a, b)
/// }
/// let r = compose(layout!((6,2):(8,2)), layout!((4,3):(3,1)));
/// assert_eq!(r.to_string(), "((_2,_2),_3):((_24,_2),_8)");
/// ```
pub trait Compose<B> {
    /// The composition.
    type Output;
}
impl<AS, AD, B: TileArg> Compose<B> for Layout<AS, AD>
where
    <B as TileArg>::Tile: TileCompose<Self>,
{
    type Output = <<B as TileArg>::Tile as TileCompose<Self>>::Output;
}

// -------------------------------------------------------------- complement

/// Drops modes of size 1 or stride 0 (they do not shape the image).
pub trait Nontrivial {
    /// The kept modes.
    type Output;
}
impl Nontrivial for MNil {
    type Output = MNil;
}
impl<S: IsEqual<U1>, D, T> Nontrivial for MCons<S, D, T>
where
    Self: NontrivialA<Eq<S, U1>>,
{
    type Output = <Self as NontrivialA<Eq<S, U1>>>::Output;
}
/// `B` is "S is 1".
pub trait NontrivialA<B> {
    /// The kept modes.
    type Output;
}
impl<S, D, T: Nontrivial> NontrivialA<B1> for MCons<S, D, T> {
    type Output = <T as Nontrivial>::Output;
}
impl<S, D: IsEqual<U0>, T> NontrivialA<B0> for MCons<S, D, T>
where
    Self: NontrivialB<Eq<D, U0>>,
{
    type Output = <Self as NontrivialB<Eq<D, U0>>>::Output;
}
/// `B` is "D is 0".
pub trait NontrivialB<B> {
    /// The kept modes.
    type Output;
}
impl<S, D, T: Nontrivial> NontrivialB<B1> for MCons<S, D, T> {
    type Output = <T as Nontrivial>::Output;
}
impl<S, D, T: Nontrivial> NontrivialB<B0> for MCons<S, D, T> {
    type Output = MCons<S, D, <T as Nontrivial>::Output>;
}

/// Insertion sort of a mode list by `(stride, shape)`.
pub trait Sort {
    /// The sorted modes.
    type Output;
}
impl Sort for MNil {
    type Output = MNil;
}
impl<S, D, T: Sort> Sort for MCons<S, D, T>
where
    <T as Sort>::Output: Insert<S, D>,
{
    type Output = <<T as Sort>::Output as Insert<S, D>>::Output;
}
/// Inserts `S:D` into a sorted mode list.
pub trait Insert<S, D> {
    /// The sorted modes.
    type Output;
}
impl<S, D> Insert<S, D> for MNil {
    type Output = MCons<S, D, MNil>;
}
impl<S, D: typenum::Cmp<D2>, S2, D2, T2> Insert<S, D> for MCons<S2, D2, T2>
where
    Self: InsertBy<S, D, Compare<D, D2>>,
{
    type Output = <Self as InsertBy<S, D, Compare<D, D2>>>::Output;
}
/// Insertion by the comparison `O` of the strides (then of the shapes).
pub trait InsertBy<S, D, O> {
    /// The sorted modes.
    type Output;
}
impl<S, D, S2, D2, T2> InsertBy<S, D, Less> for MCons<S2, D2, T2> {
    type Output = MCons<S, D, Self>;
}
impl<S, D, S2, D2, T2: Insert<S, D>> InsertBy<S, D, Greater> for MCons<S2, D2, T2> {
    type Output = MCons<S2, D2, <T2 as Insert<S, D>>::Output>;
}
impl<S: typenum::Cmp<S2>, D, S2, D2, T2> InsertBy<S, D, Equal> for MCons<S2, D2, T2>
where
    Self: InsertByShape<S, D, Compare<S, S2>>,
{
    type Output = <Self as InsertByShape<S, D, Compare<S, S2>>>::Output;
}
/// Insertion by the comparison `O` of the shapes (equal strides).
pub trait InsertByShape<S, D, O> {
    /// The sorted modes.
    type Output;
}
impl<S, D, S2, D2, T2, O> InsertByShape<S, D, O> for MCons<S2, D2, T2>
where
    Self: InsertBy<S, D, ShapeOrder<O>>,
    O: ShapeOrderOf,
{
    type Output = <Self as InsertBy<S, D, ShapeOrder<O>>>::Output;
}
/// Maps a shape comparison to a placement: equal or less goes first.
pub trait ShapeOrderOf {
    /// `Less` or `Greater`.
    type Output;
}
impl ShapeOrderOf for Less {
    type Output = Less;
}
impl ShapeOrderOf for Equal {
    type Output = Less;
}
impl ShapeOrderOf for Greater {
    type Output = Greater;
}
type ShapeOrder<O> = <O as ShapeOrderOf>::Output;

/// Complement's fold over the sorted modes with the current extent `C`
/// (paper 3.5): each mode `s:d` contributes `d/C : C`, then `C = s·d`.
/// `Curr` is the final extent, the stride of the last mode.
pub trait CompFold<C> {
    /// The complement's modes before the last.
    type Output;
    /// The stride of the last mode.
    type Curr;
    /// `Σ d mod C` over the modes: the offsets the floor divisions leave
    /// out (0 when every stride is a multiple of the extent below it).
    type Gap;
}
impl<C> CompFold<C> for MNil {
    type Output = MNil;
    type Curr = C;
    type Gap = U0;
}
impl<S, D: IsLess<C>, T, C> CompFold<C> for MCons<S, D, T>
where
    Self: CompStep<C, Le<D, C>>,
{
    type Output = <Self as CompStep<C, Le<D, C>>>::Output;
    type Curr = <Self as CompStep<C, Le<D, C>>>::Curr;
    type Gap = <Self as CompStep<C, Le<D, C>>>::Gap;
}
/// The injectivity condition of complement: `B` is "this stride is below
/// the extent of the modes before it" (their images overlap).
#[diagnostic::on_unimplemented(
    message = "complement of a layout that is not injective",
    label = "complement needs an injective layout whose sorted modes do not overlap",
    note = "a mode's stride is smaller than the extent of the modes of smaller stride, so the layout maps two coordinates to one offset (or interleaves modes)"
)]
pub trait CompStep<C, B> {
    /// The complement's modes before the last.
    type Output;
    /// The stride of the last mode.
    type Curr;
    /// The offsets left out by the floor divisions.
    type Gap;
}
impl<S: Mul<D>, D: Div<C> + Rem<C>, T, C> CompStep<C, B0> for MCons<S, D, T>
where
    T: CompFold<Prod<S, D>>,
    Mod<D, C>: Add<<T as CompFold<Prod<S, D>>>::Gap>,
{
    type Output = MCons<Quot<D, C>, C, <T as CompFold<Prod<S, D>>>::Output>;
    type Curr = <T as CompFold<Prod<S, D>>>::Curr;
    type Gap = typenum::Sum<Mod<D, C>, <T as CompFold<Prod<S, D>>>::Gap>;
}

/// The size of complement's last mode, `Self` being its stride `C`: it
/// repeats until `(A, R)` reaches the cotarget `M`, counting the offsets
/// actually covered (strides that are not multiples leave `Gap` offsets
/// out): `1 + ceil((M − 1 − covered) / C)` when positive, else 1, with
/// `covered = C − 1 − Gap` (the extents telescope), which is
/// `ceil((M + Gap) / C)` (as cute-dynamic).
pub trait LastComp<M, Gap> {
    /// The size of the last mode.
    type Output;
}
type MG<M, Gap> = typenum::Sum<M, Gap>;
impl<C, M: Add<Gap>, Gap> LastComp<M, Gap> for C
where
    MG<M, Gap>: Sub<B1>,
    Sub1<MG<M, Gap>>: Div<C>,
    Quot<Sub1<MG<M, Gap>>, C>: Add<B1>,
{
    type Output = typenum::Add1<Quot<Sub1<MG<M, Gap>>, C>>;
}

/// Drops modes of size 1.
pub trait DropUnit {
    /// The kept modes.
    type Output;
}
impl DropUnit for MNil {
    type Output = MNil;
}
impl<S: IsEqual<U1>, D, T> DropUnit for MCons<S, D, T>
where
    Self: DropUnitA<Eq<S, U1>>,
{
    type Output = <Self as DropUnitA<Eq<S, U1>>>::Output;
}
/// `B` is "S is 1".
pub trait DropUnitA<B> {
    /// The kept modes.
    type Output;
}
impl<S, D, T: DropUnit> DropUnitA<B1> for MCons<S, D, T> {
    type Output = <T as DropUnit>::Output;
}
impl<S, D, T: DropUnit> DropUnitA<B0> for MCons<S, D, T> {
    type Output = MCons<S, D, <T as DropUnit>::Output>;
}

/// Appends the mode `S:D` to a mode list.
pub trait PushMode<S, D> {
    /// The longer list.
    type Output;
}
impl<S, D> PushMode<S, D> for MNil {
    type Output = MCons<S, D, MNil>;
}
impl<S, D, S0, D0, T: PushMode<S, D>> PushMode<S, D> for MCons<S0, D0, T> {
    type Output = MCons<S0, D0, <T as PushMode<S, D>>::Output>;
}

/// The size of a cotarget shape (an integer or a tuple).
pub trait ShapeSize {
    /// The product of the leaves.
    type Output;
}
impl<U: Unsigned, B: Bit> ShapeSize for UInt<U, B> {
    type Output = UInt<U, B>;
}
impl ShapeSize for crate::Dyn {
    type Output = crate::Dyn;
}
// The product folded from the left, `((s0·s1)·s2)·...`, one `Mul` bound
// per step.
macro_rules! shape_size_tuple {
    (@fold [$($all:ident)*] [$P:ty] [$($w:tt)*] $T:ident $($rest:ident)*) => {
        shape_size_tuple!(@fold [$($all)*] [Prod<$P, <$T as ShapeSize>::Output>]
            [$($w)* $P: Mul<<$T as ShapeSize>::Output>,] $($rest)*);
    };
    (@fold [$($all:ident)*] [$P:ty] [$($w:tt)*]) => {
        impl<$($all: ShapeSize),*> ShapeSize for ($($all,)*)
        where
            $($w)*
        {
            type Output = $P;
        }
    };
    ($i0:tt $T0:ident $S0:ident $D0:ident $(, $i:tt $T:ident $S:ident $D:ident)*) => {
        shape_size_tuple!(@fold [$T0 $($T)*] [<$T0 as ShapeSize>::Output] [] $($T)*);
    };
}
for_each_tuple!(shape_size_tuple);

pub(crate) type Sorted<S, D> = <<FlatModes<S, D> as Nontrivial>::Output as Sort>::Output;
pub(crate) type CompOut<S, D> = <Sorted<S, D> as CompFold<U1>>::Output;
pub(crate) type CompCurr<S, D> = <Sorted<S, D> as CompFold<U1>>::Curr;
pub(crate) type CompGap<S, D> = <Sorted<S, D> as CompFold<U1>>::Gap;
type LastSize<S, D, M> = <CompCurr<S, D> as LastComp<M, CompGap<S, D>>>::Output;
/// The complement's modes with the last one kept (cute-dynamic's
/// `complement_extended`, what the products compose with).
type ExtModes<S, D, M> = <<CompOut<S, D> as DropUnit>::Output as PushMode<LastSize<S, D, M>, CompCurr<S, D>>>::Output;

/// The complement's modes, its last mode kept even of size 1 (the
/// extended domain's next replica).
pub trait ComplementModes<M> {
    /// The modes.
    type Output;
}
impl<S, D, M> ComplementModes<M> for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: Nontrivial,
    <FlatModes<S, D> as Nontrivial>::Output: Sort,
    Sorted<S, D>: CompFold<U1>,
    CompOut<S, D>: DropUnit,
    CompCurr<S, D>: LastComp<M, CompGap<S, D>>,
    <CompOut<S, D> as DropUnit>::Output: PushMode<LastSize<S, D, M>, CompCurr<S, D>>,
{
    type Output = ExtModes<S, D, M>;
}

/// `complement(Self, M)` for a cotarget size `M` (paper 3.5): the layout
/// of the offsets below `M` that `Self` does not reach, ordered; its image is
/// disjoint from `Self`'s and strictly increasing (eqs. 27–29), and `(Self,
/// R)` reaches the cotarget. A layout that is not injective has no
/// implementation.
pub trait ComplementT<M> {
    /// The complement.
    type Output;
}
impl<S, D, M> ComplementT<M> for Layout<S, D>
where
    Self: ComplementModes<M>,
    <Self as ComplementModes<M>>::Output: CoFold<U1, U0, Plain>,
    Coalesced<<Self as ComplementModes<M>>::Output>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<<Self as ComplementModes<M>>::Output>>;
}

/// The complement with its last mode kept (not coalesced), which the
/// products compose with (cute-dynamic's `complement_extended`).
pub trait ComplementExtT<M> {
    /// The complement.
    type Output;
}
impl<S, D, M> ComplementExtT<M> for Layout<S, D>
where
    Self: ComplementModes<M>,
    <Self as ComplementModes<M>>::Output: ModesToLayout,
{
    type Output = LayoutOfModes<<Self as ComplementModes<M>>::Output>;
}

// ---------------------------------------------------- divides and products

/// The size of a layout as a typenum integer.
pub trait SizeOf {
    /// `|L|`.
    type Size;
}
impl<S, D> SizeOf for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: ModeSize,
{
    type Size = <FlatModes<S, D> as ModeSize>::Size;
}
/// The cosize of a layout as a typenum integer.
pub trait CosizeOf {
    /// `L(|L| − 1) + 1`.
    type Cosize;
}
impl<S, D> CosizeOf for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: ModeSpan,
    <FlatModes<S, D> as ModeSpan>::Span: Add<B1>,
{
    type Cosize = typenum::Add1<<FlatModes<S, D> as ModeSpan>::Span>;
}

/// Marker: the divide family (`(A ∘ B, A ∘ B*)`, `B* = complement(B, |A|)`).
pub struct DivideOp;
/// Marker: the product family (`(A, A* ∘ B)`, `A* = complement(A, |A|·cosize(B))`).
pub struct ProductOp;

/// The two halves of a 1-D divide or product of `Self` by the layout `B`.
pub trait Split1D<Op, B> {
    /// First half (the tile).
    type X;
    /// Second half (the rest / the repetition).
    type Y;
}
/// The two modes of a rank-2 layout.
pub trait Halves {
    /// Mode 0.
    type X;
    /// Mode 1.
    type Y;
}
impl<S0, S1, D0, D1> Halves for Layout<(S0, S1), (D0, D1)> {
    type X = Layout<S0, D0>;
    type Y = Layout<S1, D1>;
}
type BStar<A, B> = <B as ComplementT<<A as SizeOf>::Size>>::Output;
type BBStar<A, B> = <Pair<B, BStar<A, B>> as MakeLayout>::Output;
/// `(A ∘ B, A ∘ B*)` composed as one `A ∘ (B, B*)`, so that the
/// distributivity condition sees `B`'s and `B*`'s offsets added up.
impl<AS, AD, B> Split1D<DivideOp, B> for Layout<AS, AD>
where
    (Self, B): crate::int_tuple::AllStatic,
    Self: Split1DBy<DivideOp, B, <(Self, B) as crate::int_tuple::AllStatic>::Bit>,
{
    type X = <Self as Split1DBy<DivideOp, B, <(Self, B) as crate::int_tuple::AllStatic>::Bit>>::X;
    type Y = <Self as Split1DBy<DivideOp, B, <(Self, B) as crate::int_tuple::AllStatic>::Bit>>::Y;
}
/// [`Split1D`] by branch: `Static` is `B1` when the layout and the tile are
/// all-static (trait resolution), `B0` with a run-time leaf (`divide.rs`).
#[doc(hidden)]
pub trait Split1DBy<Op, B, Static> {
    /// First half (the tile).
    type X;
    /// Second half (the rest).
    type Y;
}
impl<AS, AD, B> Split1DBy<DivideOp, B, B1> for Layout<AS, AD>
where
    Self: SizeOf,
    B: ComplementT<<Self as SizeOf>::Size>,
    Pair<B, BStar<Self, B>>: MakeLayout,
    Self: Compose1<BBStar<Self, B>>,
    <Self as Compose1<BBStar<Self, B>>>::Output: Halves,
{
    type X = <<Self as Compose1<BBStar<Self, B>>>::Output as Halves>::X;
    type Y = <<Self as Compose1<BBStar<Self, B>>>::Output as Halves>::Y;
}
type ProdM<A, B> = Prod<<A as SizeOf>::Size, <B as CosizeOf>::Cosize>;
impl<AS, AD, B> Split1D<ProductOp, B> for Layout<AS, AD>
where
    (Self, B): crate::int_tuple::AllStatic,
    Self: Split1DBy<ProductOp, B, <(Self, B) as crate::int_tuple::AllStatic>::Bit>,
{
    type X = <Self as Split1DBy<ProductOp, B, <(Self, B) as crate::int_tuple::AllStatic>::Bit>>::X;
    type Y = <Self as Split1DBy<ProductOp, B, <(Self, B) as crate::int_tuple::AllStatic>::Bit>>::Y;
}
impl<AS, AD, B> Split1DBy<ProductOp, B, B1> for Layout<AS, AD>
where
    Self: SizeOf,
    B: CosizeOf,
    <Self as SizeOf>::Size: Mul<<B as CosizeOf>::Cosize>,
    Self: ComplementExtT<ProdM<Self, B>>,
    <Self as ComplementExtT<ProdM<Self, B>>>::Output: Compose1<B>,
    Self: ComplementT<ProdM<Self, B>>,
    <<Self as ComplementExtT<ProdM<Self, B>>>::Output as Compose1<B>>::Output:
        UnitsFrom<B, <Self as ComplementT<ProdM<Self, B>>>::Output>,
{
    type X = Self;
    // CuTe composes with the coalesced complement: its size-1 leaves take
    // their strides from that one, as in cute-dynamic.
    type Y = <<<Self as ComplementExtT<ProdM<Self, B>>>::Output as Compose1<B>>::Output as UnitsFrom<
        B,
        <Self as ComplementT<ProdM<Self, B>>>::Output,
    >>::Output;
}

/// `Self = A' ∘ B` with each size-1 leaf's stride replaced by the one CuTe
/// gives `C ∘ 1:d` ([`UnitStride`] on `C`'s prepared modes); the same
/// function (cute-dynamic's `restride_units`).
#[doc(hidden)]
pub trait UnitsFrom<B, C> {
    /// The restrided layout.
    type Output;
}
impl<YS, YD, BS, BD, CS, CD> UnitsFrom<Layout<BS, BD>, Layout<CS, CD>> for Layout<YS, YD>
where
    CS: FlattenInto<CD, MNil>,
    FlatModes<CS, CD>: CoFold<U1, U0, KeepLast>,
    BS: Restride<BD, YD, PrepOf<CS, CD>>,
{
    type Output = Layout<YS, <BS as Restride<BD, YD, PrepOf<CS, CD>>>::Output>;
}
/// `Self` is `B`'s shape tree, `BD` its strides, `RD` the strides of
/// `A' ∘ B` (B's tree, a leaf possibly become a tuple), `UL` the prepared
/// modes the size-1 leaves take their strides from.
#[doc(hidden)]
pub trait Restride<BD, RD, UL> {
    /// The new stride tree.
    type Output;
}
impl<U: Unsigned, B: Bit, BD, RD, UL> Restride<BD, RD, UL> for UInt<U, B>
where
    UInt<U, B>: IsEqual<U1>,
    UL: UnitPick<BD, RD, Eq<UInt<U, B>, U1>>,
{
    type Output = <UL as UnitPick<BD, RD, Eq<UInt<U, B>, U1>>>::Output;
}
/// The stride of a leaf: `UnitStride` for a size-1 leaf (`B1`), else `RD`.
#[doc(hidden)]
pub trait UnitPick<BD, RD, B> {
    /// The stride.
    type Output;
}
impl<UL: UnitStride<BD>, BD, RD> UnitPick<BD, RD, B1> for UL {
    type Output = <UL as UnitStride<BD>>::Output;
}
impl<UL, BD, RD> UnitPick<BD, RD, B0> for UL {
    type Output = RD;
}
macro_rules! restride_tuple {
    ($($i:tt $R:ident $S:ident $D:ident),+) => {
        impl<UL, $($S: Restride<$D, $R, UL>, $D, $R),+> Restride<($($D,)+), ($($R,)+), UL> for ($($S,)+) {
            type Output = ($(<$S as Restride<$D, $R, UL>>::Output,)+);
        }
    };
}
for_each_tuple!(restride_tuple);

/// The halves of a by-mode divide/product of the layout `A` by the
/// canonical tile `Self`.
pub trait TileParts<Op, A> {
    /// First halves.
    type X;
    /// Second halves.
    type Y;
}
impl<A, BS, BD, Op> TileParts<Op, A> for Layout<BS, BD>
where
    A: Split1D<Op, Layout<BS, BD>>,
{
    type X = <A as Split1D<Op, Layout<BS, BD>>>::X;
    type Y = <A as Split1D<Op, Layout<BS, BD>>>::Y;
}
type ZXs<L, Op, A> = <L as ZipParts<Op, <A as ModesOf>::Output>>::Xs;
type ZYs<L, Op, A> = <L as ZipParts<Op, <A as ModesOf>::Output>>::Ys;
type ZRest<L, Op, A> = <L as ZipParts<Op, <A as ModesOf>::Output>>::Rest;
/// A tuple tile: the first halves of the tiled modes, and the second halves
/// followed by the untouched modes (CuTe's `zip2_by`).
impl<A, L, Op> TileParts<Op, A> for TList<L>
where
    A: ModesOf,
    L: ZipParts<Op, <A as ModesOf>::Output>,
    ZXs<L, Op, A>: MakeLayout,
    ZYs<L, Op, A>: Append<ZRest<L, Op, A>>,
    <ZYs<L, Op, A> as Append<ZRest<L, Op, A>>>::Output: MakeLayout,
{
    type X = <ZXs<L, Op, A> as MakeLayout>::Output;
    type Y = <<ZYs<L, Op, A> as Append<ZRest<L, Op, A>>>::Output as MakeLayout>::Output;
}

/// Mode-by-mode halves of the list of layouts `AModes` against the list of
/// tiles `Self`; the modes past the tiles are `Rest`.
#[diagnostic::on_unimplemented(
    message = "the tiler has more modes than the layout (rank mismatch)",
    label = "a tiler's rank must not exceed the rank of the layout it tiles",
    note = "a tiler <T0, T1, ...> applies T0 to mode 0 of the layout, T1 to mode 1, ...; a scalar layout takes a tiler of one mode"
)]
pub trait ZipParts<Op, AModes> {
    /// First halves, one per tile.
    type Xs;
    /// Second halves, one per tile.
    type Ys;
    /// Untouched modes.
    type Rest;
}
impl<AL, Op> ZipParts<Op, AL> for HNil {
    type Xs = HNil;
    type Ys = HNil;
    type Rest = AL;
}
impl<T0: TileParts<Op, A0>, TR: ZipParts<Op, AR>, A0, AR, Op> ZipParts<Op, HCons<A0, AR>> for HCons<T0, TR> {
    type Xs = HCons<<T0 as TileParts<Op, A0>>::X, <TR as ZipParts<Op, AR>>::Xs>;
    type Ys = HCons<<T0 as TileParts<Op, A0>>::Y, <TR as ZipParts<Op, AR>>::Ys>;
    type Rest = <TR as ZipParts<Op, AR>>::Rest;
}

/// The logical arrangement of the layout `A` by the canonical tile `Self`:
/// each tiled mode becomes `(tile, rest)` recursively, untouched modes stay.
pub trait TileLogical<Op, A> {
    /// The result layout.
    type Output;
}
type Pair<X, Y> = HCons<X, HCons<Y, HNil>>;
impl<A, BS, BD, Op> TileLogical<Op, A> for Layout<BS, BD>
where
    A: Split1D<Op, Layout<BS, BD>>,
    Pair<<A as Split1D<Op, Layout<BS, BD>>>::X, <A as Split1D<Op, Layout<BS, BD>>>::Y>: MakeLayout,
{
    type Output =
        <Pair<<A as Split1D<Op, Layout<BS, BD>>>::X, <A as Split1D<Op, Layout<BS, BD>>>::Y> as MakeLayout>::Output;
}
impl<A, L, Op> TileLogical<Op, A> for TList<L>
where
    A: ModesOf,
    L: ZipLogical<Op, <A as ModesOf>::Output>,
    <L as ZipLogical<Op, <A as ModesOf>::Output>>::Output: MakeLayout,
{
    type Output = <<L as ZipLogical<Op, <A as ModesOf>::Output>>::Output as MakeLayout>::Output;
}

/// Mode-by-mode logical arrangement; untouched modes are appended.
#[diagnostic::on_unimplemented(
    message = "the tiler has more modes than the layout (rank mismatch)",
    label = "a tiler's rank must not exceed the rank of the layout it tiles",
    note = "a tiler <T0, T1, ...> applies T0 to mode 0 of the layout, T1 to mode 1, ...; a scalar layout takes a tiler of one mode"
)]
pub trait ZipLogical<Op, AModes> {
    /// The result modes.
    type Output;
}
impl<AL, Op> ZipLogical<Op, AL> for HNil {
    type Output = AL;
}
impl<T0: TileLogical<Op, A0>, TR: ZipLogical<Op, AR>, A0, AR, Op> ZipLogical<Op, HCons<A0, AR>> for HCons<T0, TR> {
    type Output = HCons<<T0 as TileLogical<Op, A0>>::Output, <TR as ZipLogical<Op, AR>>::Output>;
}

/// Marker: `((tiles), (rests, untouched...))`.
pub struct Zipped;
/// Marker: `((tiles), rest modes...)`.
pub struct Tiled;
/// Marker: `(tile modes..., rest modes...)`.
pub struct Flat;

/// How the zipped/tiled/flat variants arrange the two halves `X` (tiles)
/// and `Y` (rests): `(X, Y)`, `(X, Y_0, Y_1, ...)`, `(X_0, ..., Y_0, ...)`,
/// where the modes of a scalar half are the half itself.
pub trait Arrange<X, Y> {
    /// The list of result modes.
    type Modes;
}
impl<X, Y> Arrange<X, Y> for Zipped {
    type Modes = Pair<X, Y>;
}
impl<X, Y: ModesOf> Arrange<X, Y> for Tiled {
    type Modes = HCons<X, <Y as ModesOf>::Output>;
}
impl<X: ModesOf, Y: ModesOf> Arrange<X, Y> for Flat
where
    <X as ModesOf>::Output: Append<<Y as ModesOf>::Output>,
{
    type Modes = <<X as ModesOf>::Output as Append<<Y as ModesOf>::Output>>::Output;
}

/// A zipped/tiled/flat divide or product of the layout `A` by the
/// canonical tile `Self`.
pub trait TileArranged<Op, How, A> {
    /// The result layout.
    type Output;
}
type Arr<How, T, Op, A> = <How as Arrange<<T as TileParts<Op, A>>::X, <T as TileParts<Op, A>>::Y>>::Modes;
impl<T, A, Op, How> TileArranged<Op, How, A> for T
where
    T: TileParts<Op, A>,
    How: Arrange<<T as TileParts<Op, A>>::X, <T as TileParts<Op, A>>::Y>,
    Arr<How, T, Op, A>: MakeLayout,
{
    type Output = <Arr<How, T, Op, A> as MakeLayout>::Output;
}

// ------------------------------------------------------------- public API

macro_rules! by_mode_op {
    ($(#[$doc:meta])* $Trait:ident, $Op:ty, logical) => {
        $(#[$doc])*
        pub trait $Trait<B> {
            /// The result layout.
            type Output;
        }
        impl<AS, AD, B: TileArg> $Trait<B> for Layout<AS, AD>
        where
            <B as TileArg>::Tile: TileLogical<$Op, Self>,
        {
            type Output = <<B as TileArg>::Tile as TileLogical<$Op, Self>>::Output;
        }
    };
    ($(#[$doc:meta])* $Trait:ident, $Op:ty, $How:ty) => {
        $(#[$doc])*
        pub trait $Trait<B> {
            /// The result layout.
            type Output;
        }
        impl<AS, AD, B: TileArg> $Trait<B> for Layout<AS, AD>
        where
            <B as TileArg>::Tile: TileArranged<$Op, $How, Self>,
        {
            type Output = <<B as TileArg>::Tile as TileArranged<$Op, $How, Self>>::Output;
        }
    };
}

by_mode_op!(
    /// `logical_divide(Self, B)` (paper 3.5.2): `(A ∘ B, A ∘ B*)` with
    /// `B* = complement(B, |A|)`, by mode for a tiler (untouched modes kept).
    LogicalDivide, DivideOp, logical
);
by_mode_op!(
    /// `zipped_divide(Self, B)`: `((tiles...), (rests..., untouched...))`.
    ZippedDivide, DivideOp, Zipped
);
by_mode_op!(
    /// `tiled_divide(Self, B)`: `((tiles...), rests..., untouched...)`.
    TiledDivide, DivideOp, Tiled
);
by_mode_op!(
    /// `flat_divide(Self, B)`: `(tiles..., rests..., untouched...)`.
    FlatDivide, DivideOp, Flat
);
by_mode_op!(
    /// `logical_product(Self, B)` (paper 3.5.1): `(A, A* ∘ B)` with
    /// `A* = complement(A, |A|·cosize(B))`, by mode for a tiler.
    LogicalProduct, ProductOp, logical
);
by_mode_op!(
    /// `zipped_product(Self, B)`: `((tiles...), (repetitions..., untouched...))`.
    ZippedProduct, ProductOp, Zipped
);
by_mode_op!(
    /// `tiled_product(Self, B)`: `((tiles...), repetitions..., untouched...)`.
    TiledProduct, ProductOp, Tiled
);
by_mode_op!(
    /// `flat_product(Self, B)`: `(tiles..., repetitions..., untouched...)`.
    FlatProduct, ProductOp, Flat
);

/// `complement(Self, M)` with a static cotarget shape `M` (an integer or a
/// tuple, whose size is used).
pub trait Complement<M> {
    /// The complement.
    type Output;
}
impl<AS, AD, M: ShapeSize> Complement<M> for Layout<AS, AD>
where
    <M as ShapeSize>::Output: ComplementOnto<Self>,
{
    type Output = <<M as ShapeSize>::Output as ComplementOnto<Self>>::Output;
}
/// `complement(A, Self)` with the cotarget size as the `Self` type, so that
/// the solver waits for the cotarget before computing anything (an unknown
/// `Self` is ambiguous at once; otherwise rustc would start on `A` with an
/// inference variable and do the work twice).
pub trait ComplementOnto<A> {
    /// The complement.
    type Output;
}
impl<U: Unsigned, B: Bit, A> ComplementOnto<A> for UInt<U, B>
where
    A: crate::int_tuple::AllStatic,
    A: crate::complement::ComplementBy<UInt<U, B>, <A as crate::int_tuple::AllStatic>::Bit>,
{
    type Output = <A as crate::complement::ComplementBy<UInt<U, B>, <A as crate::int_tuple::AllStatic>::Bit>>::Output;
}

use crate::StaticLayout;

/// The value of a product of `A` by the layout `B`: zero-sized when both
/// are all-static, computed (and checked) when `B` has a run-time leaf
/// (see `product.rs`). Generic code that calls the products bounds the
/// result by it.
pub trait ProductValue<A, B> {
    /// The product.
    fn make(a: A, b: B) -> Self;
}
impl<O, A, B> ProductValue<A, B> for O
where
    (A, B): crate::int_tuple::AllStatic,
    O: ProductValueBy<A, B, <(A, B) as crate::int_tuple::AllStatic>::Bit>,
{
    #[inline(always)]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        <O as ProductValueBy<A, B, <(A, B) as crate::int_tuple::AllStatic>::Bit>>::make(a, b)
    }
}
/// [`ProductValue`] by branch: `Static` is `B1` when both are all-static.
#[doc(hidden)]
pub trait ProductValueBy<A, B, Static> {
    /// The product.
    fn make(a: A, b: B) -> Self;
}
impl<O: StaticLayout, A, B> ProductValueBy<A, B, B1> for O {
    #[inline(always)]
    fn make(_: A, _: B) -> O {
        O::default()
    }
}

// The four products of one family: the same leaves in different groupings,
// so one value trait serves them.
macro_rules! product_fn {
    ($(#[$doc:meta])* $name:ident, $Trait:ident) => {
        $(#[$doc])*
        ///
        /// With a run-time ([`Dyn`](crate::Dyn)) leaf in the layout `b` (and
        /// an all-static `a`): `A* ∘ B` computed and checked when it runs
        /// (CuTe's padded form; see [`try_logical_product`](crate::try_logical_product)),
        /// a panic with cute-dynamic's error message when a condition fails.
        #[inline(always)]
        #[track_caller]
        pub fn $name<A, B>(a: A, b: B) -> <A as $Trait<B>>::Output
        where
            A: $Trait<B>,
            <A as $Trait<B>>::Output: ProductValue<A, B>,
        {
            <<A as $Trait<B>>::Output as ProductValue<A, B>>::make(a, b)
        }
    };
}

macro_rules! free_fn {
    ($(#[$doc:meta])* $name:ident, $Trait:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<A, B>(a: A, b: B) -> <A as $Trait<B>>::Output
        where
            A: $Trait<B>,
            <A as $Trait<B>>::Output: StaticLayout,
        {
            let _ = (a, b);
            <<A as $Trait<B>>::Output as Default>::default()
        }
    };
}

/// Functional composition `a ∘ b` of a layout with a layout, a shape or
/// a tiler. All-static arguments: computed in trait resolution (see
/// [`Compose`]), never panics, an inadmissible composition does not compile.
/// With a run-time ([`Dyn`](crate::Dyn)) leaf: CuTe's padded form, its
/// values computed and checked when it runs (see
/// [`try_composition`](crate::try_composition)).
///
/// # Panics
///
/// With run-time leaves only, when a condition fails (stride or shape
/// divisibility, distributivity, overflow), with the message of the error
/// `try_composition` returns.
///
/// ```
/// use cute_static::prelude::*;
/// let r = composition(layout!((10,2):(16,4)), layout!((5,4):(1,5)));
/// assert_eq!(r.to_string(), "(_5,(_2,_2)):(_16,(_80,_4))");
/// let t = composition(layout!((12,(4,8)):(59,(13,1))), tile!(3:4, 8:2));
/// assert_eq!(t.to_string(), "(_3,(_2,_4)):(_236,(_26,_1))");
/// let m = composition(layout!(({10i64},{2i64}):({16i64},{4i64})), layout!(({5i64},{4i64}):({1i64},{5i64})));
/// assert_eq!(m.to_string(), "((5,1),(2,2)):((16,4),(80,4))");
/// ```
#[inline(always)]
#[track_caller]
pub fn composition<A, B>(a: A, b: B) -> <A as Compose<B>>::Output
where
    A: Compose<B>,
    <A as Compose<B>>::Output: ComposeValue<A, B>,
{
    <<A as Compose<B>>::Output as ComposeValue<A, B>>::make(a, b)
}

/// The value of a divide of `A` by `B` arranged as `How`: zero-sized when
/// both are all-static, computed (and checked) otherwise.
#[doc(hidden)]
pub trait DivideValue<How, A, B> {
    /// The divide.
    fn make(a: A, b: B) -> Self;
}
impl<O, How, A, B> DivideValue<How, A, B> for O
where
    (A, B): crate::int_tuple::AllStatic,
    O: DivideValueBy<How, A, B, <(A, B) as crate::int_tuple::AllStatic>::Bit>,
{
    #[inline(always)]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        <O as DivideValueBy<How, A, B, <(A, B) as crate::int_tuple::AllStatic>::Bit>>::make(a, b)
    }
}
/// The value of `logical_divide(a, b)`: generic code that calls
/// [`logical_divide`] bounds the result by it (it holds for every
/// admissible divide).
#[cfg(feature = "std")]
pub trait LogicalDivideValue<A, B>: DivideValue<crate::divide::LogicalArr, A, B> {}
#[cfg(feature = "std")]
impl<O: DivideValue<crate::divide::LogicalArr, A, B>, A, B> LogicalDivideValue<A, B> for O {}
/// The value of `zipped_divide(a, b)`, as [`LogicalDivideValue`].
#[cfg(feature = "std")]
pub trait ZippedDivideValue<A, B>: DivideValue<crate::divide::ZippedArr, A, B> {}
#[cfg(feature = "std")]
impl<O: DivideValue<crate::divide::ZippedArr, A, B>, A, B> ZippedDivideValue<A, B> for O {}

/// [`DivideValue`] by branch (`Static` is `B1` for all-static arguments).
#[doc(hidden)]
pub trait DivideValueBy<How, A, B, Static> {
    /// The divide.
    fn make(a: A, b: B) -> Self;
}
impl<O: StaticLayout, How, A, B> DivideValueBy<How, A, B, B1> for O {
    #[inline(always)]
    fn make(_: A, _: B) -> O {
        O::default()
    }
}

/// The value of `A ∘ B`: zero-sized when both are all-static, computed (and
/// checked) when either has a run-time leaf. Generic code that calls
/// [`composition`] bounds the result by it (it holds for every admissible
/// composition).
///
/// ```
/// use cute_static::prelude::*;
/// fn compose<A: Compose<B>, B>(a: A, b: B) -> A::Output
/// where
///     A::Output: ComposeValue<A, B>,
/// {
///     composition(a, b)
/// }
/// assert_eq!(compose(layout!(4:2), layout!(2:2)).to_string(), "_2:_4");
/// ```
pub trait ComposeValue<A, B> {
    /// `a ∘ b`.
    fn make(a: A, b: B) -> Self;
}
impl<O, A, B> ComposeValue<A, B> for O
where
    (A, B): crate::int_tuple::AllStatic,
    O: ComposeValueBy<A, B, <(A, B) as crate::int_tuple::AllStatic>::Bit>,
{
    #[inline(always)]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        <O as ComposeValueBy<A, B, <(A, B) as crate::int_tuple::AllStatic>::Bit>>::make(a, b)
    }
}
/// [`ComposeValue`] by branch: `Static` is `B1` when both arguments are
/// all-static.
#[doc(hidden)]
pub trait ComposeValueBy<A, B, Static> {
    /// `a ∘ b`.
    fn make(a: A, b: B) -> Self;
}
impl<O: StaticLayout, A, B> ComposeValueBy<A, B, B1> for O {
    #[inline(always)]
    fn make(_: A, _: B) -> O {
        O::default()
    }
}
/// `complement(a, m)` (see [`Complement`]): for a static cotarget shape
/// `m`, computed in trait resolution (a layout that is not injective does
/// not compile); for a run-time cotarget (`Dyn`, a braced `shape!({m})`),
/// the static modes are still found at compile time and the last one's
/// size `⌈(M + gaps)/C⌉` when it runs (see
/// [`try_complement`](crate::try_complement)). With a run-time leaf in
/// `a`, the sort by stride, the injectivity and the number of modes of the
/// answer depend on run-time values: the result is the padded form, a flat
/// layout of `N + 1` run-time leaves (`N` the flat modes of `a`, at most
/// 7), CuTe's coalesced answer at its end and `1:0` modes in front,
/// computed and checked when it runs.
///
/// Post-conditions (paper eqs. 28–29): `R` is ordered (`R(i−1) < R(i)`),
/// meets `A`'s image only at 0, `(A, R)` reaches the cotarget, and
/// `(filter(A), R)` is injective.
///
/// # Panics
///
/// With run-time leaves only, when cute-dynamic's `complement` fails for
/// the same values (a cotarget below 1, a layout that is not injective or
/// whose modes interleave, a negative stride, overflow), with the message
/// of the error `try_complement` returns. An all-static call never panics.
///
/// ```
/// use cute_static::prelude::*;
/// assert_eq!(complement(layout!(4:2), shape!(24)).to_string(), "(_2,_3):(_1,_8)");
/// assert_eq!(complement(layout!((4,8):(1,8)), shape!(256)).to_string(), "(_2,_4):(_4,_64)");
/// let m = 1000usize;
/// assert_eq!(complement(layout!((4,8):(1,8)), shape!({m})).to_string(), "(_2,16):(_4,_64)");
/// // A run-time leaf in the layout: the padded form of N + 1 run-time leaves.
/// assert_eq!(complement(layout!((4,{m}):(1,8)), shape!(64000)).to_string(), "(1,2,8):(0,4,8000)");
/// ```
#[inline(always)]
#[track_caller]
pub fn complement<A, M>(a: A, m: M) -> <A as Complement<M>>::Output
where
    A: Complement<M>,
    <A as Complement<M>>::Output: ComplementValue<A, M>,
{
    <<A as Complement<M>>::Output as ComplementValue<A, M>>::make(a, m)
}

/// The value of `complement(a, m)`: zero-sized when both are all-static,
/// its last mode computed (and checked) when the cotarget is run-time.
/// Generic code that calls [`complement`] bounds the result by it.
pub trait ComplementValue<A, M> {
    /// `complement(a, m)`.
    fn make(a: A, m: M) -> Self;
}
impl<O, A, M> ComplementValue<A, M> for O
where
    (A, M): crate::int_tuple::AllStatic,
    O: ComplementValueBy<A, M, <(A, M) as crate::int_tuple::AllStatic>::Bit>,
{
    #[inline(always)]
    #[track_caller]
    fn make(a: A, m: M) -> O {
        <O as ComplementValueBy<A, M, <(A, M) as crate::int_tuple::AllStatic>::Bit>>::make(a, m)
    }
}
/// [`ComplementValue`] by branch: `Static` is `B1` when both arguments are
/// all-static.
#[doc(hidden)]
pub trait ComplementValueBy<A, M, Static> {
    /// `complement(a, m)`.
    fn make(a: A, m: M) -> Self;
}
impl<O: StaticLayout, A, M> ComplementValueBy<A, M, B1> for O {
    #[inline(always)]
    fn make(_: A, _: M) -> O {
        O::default()
    }
}
#[cfg(not(feature = "std"))]
free_fn!(
    /// `logical_divide(a, b)` (see [`LogicalDivide`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let d = logical_divide(layout!((4,2,3):(2,1,8)), layout!(4:2));
    /// assert_eq!(d.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
    /// ```
    logical_divide, LogicalDivide
);
/// `logical_divide(a, b)` (see [`LogicalDivide`]).
///
/// ```
/// use cute_static::prelude::*;
/// let d = logical_divide(layout!((4,2,3):(2,1,8)), layout!(4:2));
/// assert_eq!(d.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
/// ```
///
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a` and a static tiler:
/// each mode's `A ∘ (B, B*)` is computed and checked when it runs (see
/// [`try_logical_divide`](crate::try_logical_divide)); it panics with that error's message
/// when a condition fails. An all-static call never panics.
#[cfg(feature = "std")]
#[inline(always)]
#[track_caller]
pub fn logical_divide<A, B>(a: A, b: B) -> <A as LogicalDivide<B>>::Output
where
    A: LogicalDivide<B>,
    <A as LogicalDivide<B>>::Output: DivideValue<crate::divide::LogicalArr, A, B>,
{
    <<A as LogicalDivide<B>>::Output as DivideValue<crate::divide::LogicalArr, A, B>>::make(a, b)
}
#[cfg(not(feature = "std"))]
free_fn!(
    /// `zipped_divide(a, b)` (see [`ZippedDivide`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let d = zipped_divide(layout!((8,8):(1,8)), shape!(2, 4));
    /// assert_eq!(d.to_string(), "((_2,_4),(_4,_2)):((_1,_8),(_2,_32))");
    /// ```
    zipped_divide, ZippedDivide
);
/// `zipped_divide(a, b)` (see [`ZippedDivide`]).
///
/// ```
/// use cute_static::prelude::*;
/// let d = zipped_divide(layout!((8,8):(1,8)), shape!(2, 4));
/// assert_eq!(d.to_string(), "((_2,_4),(_4,_2)):((_1,_8),(_2,_32))");
/// ```
///
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a` and a static tiler:
/// each mode's `A ∘ (B, B*)` is computed and checked when it runs (see
/// [`try_zipped_divide`](crate::try_zipped_divide)); it panics with that error's message
/// when a condition fails. An all-static call never panics.
#[cfg(feature = "std")]
#[inline(always)]
#[track_caller]
pub fn zipped_divide<A, B>(a: A, b: B) -> <A as ZippedDivide<B>>::Output
where
    A: ZippedDivide<B>,
    <A as ZippedDivide<B>>::Output: DivideValue<crate::divide::ZippedArr, A, B>,
{
    <<A as ZippedDivide<B>>::Output as DivideValue<crate::divide::ZippedArr, A, B>>::make(a, b)
}
free_fn!(
    /// `tiled_divide(a, b)` (see [`TiledDivide`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let d = tiled_divide(layout!((8,8):(1,8)), shape!(2, 4));
    /// assert_eq!(d.to_string(), "((_2,_4),_4,_2):((_1,_8),_2,_32)");
    /// ```
    tiled_divide, TiledDivide
);
free_fn!(
    /// `flat_divide(a, b)` (see [`FlatDivide`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let d = flat_divide(layout!((8,8):(1,8)), shape!(2, 4));
    /// assert_eq!(d.to_string(), "(_2,_4,_4,_2):(_1,_8,_2,_32)");
    /// ```
    flat_divide, FlatDivide
);
product_fn!(
    /// `logical_product(a, b)` (see [`LogicalProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = logical_product(layout!((3,4):(4,1)), layout!((2,5):(1,2)));
    /// assert_eq!(p.to_string(), "((_3,_4),(_2,_5)):((_4,_1),(_12,_24))");
    /// ```
    logical_product, LogicalProduct
);
product_fn!(
    /// `zipped_product(a, b)` (see [`ZippedProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = zipped_product(layout!((2,2):(1,2)), tile!(3:1, 2:1));
    /// assert_eq!(p.to_string(), "((_2,_2),(_3,_2)):((_1,_2),(_2,_1))");
    /// ```
    zipped_product, ZippedProduct
);
product_fn!(
    /// `tiled_product(a, b)` (see [`TiledProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = tiled_product(layout!((2,2):(1,2)), tile!(3:1, 2:1));
    /// assert_eq!(p.to_string(), "((_2,_2),_3,_2):((_1,_2),_2,_1)");
    /// ```
    tiled_product, TiledProduct
);
product_fn!(
    /// `flat_product(a, b)` (see [`FlatProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = flat_product(layout!((2,2):(1,2)), tile!(3:1, 2:1));
    /// assert_eq!(p.to_string(), "(_2,_2,_3,_2):(_1,_2,_2,_1)");
    /// ```
    flat_product, FlatProduct
);

// -------------------------------------------------------- blocked / raked

/// Pads two lists of modes to the same length with `1:0` modes.
pub trait Pad2<LB> {
    /// `Self`, padded.
    type A;
    /// `LB`, padded.
    type B;
}
type One = Layout<U1, U0>;
impl Pad2<HNil> for HNil {
    type A = HNil;
    type B = HNil;
}
impl<X, TA: Pad2<HNil>> Pad2<HNil> for HCons<X, TA> {
    type A = HCons<X, <TA as Pad2<HNil>>::A>;
    type B = HCons<One, <TA as Pad2<HNil>>::B>;
}
impl<Y, TB> Pad2<HCons<Y, TB>> for HNil
where
    HNil: Pad2<TB>,
{
    type A = HCons<One, <HNil as Pad2<TB>>::A>;
    type B = HCons<Y, <HNil as Pad2<TB>>::B>;
}
impl<X, TA: Pad2<TB>, Y, TB> Pad2<HCons<Y, TB>> for HCons<X, TA> {
    type A = HCons<X, <TA as Pad2<TB>>::A>;
    type B = HCons<Y, <TA as Pad2<TB>>::B>;
}

/// Marker: blocked order (`(A_k, grid_k)` per mode).
pub struct Blocked;
/// Marker: raked order (`(grid_k, A_k)` per mode).
pub struct Raked;

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

pub(crate) type PadA<A, B> = <<A as ModesOf>::Output as Pad2<<B as ModesOf>::Output>>::A;
pub(crate) type PadB<A, B> = <<A as ModesOf>::Output as Pad2<<B as ModesOf>::Output>>::B;
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
    <Self as ModesOf>::Output: Pad2<<Layout<BS, BD> as ModesOf>::Output>,
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

/// `blocked_product(Self, B)` (see [`RankProduct`]).
pub trait BlockedProduct<B> {
    /// The result layout.
    type Output;
}
impl<A, B: RankProductOnto<Blocked, A>> BlockedProduct<B> for A {
    type Output = <B as RankProductOnto<Blocked, A>>::Output;
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
/// `raked_product(Self, B)` (see [`RankProduct`]).
pub trait RakedProduct<B> {
    /// The result layout.
    type Output;
}
impl<A, B: RankProductOnto<Raked, A>> RakedProduct<B> for A {
    type Output = <B as RankProductOnto<Raked, A>>::Output;
}

/// `blocked_product(a, b)`: each mode of `a` is repeated by the same mode
/// of `b`, `a` innermost (see [`RankProduct`]).
///
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a` or `b`: the grid
/// `A* ∘ B` is computed and checked when it runs (see
/// [`try_blocked_product`](crate::try_blocked_product)), a panic with
/// cute-dynamic's error message when a condition fails.
///
/// ```
/// use cute_static::prelude::*;
/// let p = blocked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
/// assert_eq!(p.to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
/// ```
#[cfg(feature = "std")]
#[inline(always)]
#[track_caller]
pub fn blocked_product<A, B>(a: A, b: B) -> <A as BlockedProduct<B>>::Output
where
    A: BlockedProduct<B>,
    <A as BlockedProduct<B>>::Output: crate::product::RankProductValue<Blocked, A, B>,
{
    <<A as BlockedProduct<B>>::Output as crate::product::RankProductValue<Blocked, A, B>>::make(a, b)
}
/// `raked_product(a, b)`: as `blocked_product` with `b` innermost (see
/// [`RankProduct`]).
///
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a` or `b`: as
/// [`blocked_product`] (see [`try_raked_product`](crate::try_raked_product)).
///
/// ```
/// use cute_static::prelude::*;
/// let p = raked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
/// assert_eq!(p.to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
/// ```
#[cfg(feature = "std")]
#[inline(always)]
#[track_caller]
pub fn raked_product<A, B>(a: A, b: B) -> <A as RakedProduct<B>>::Output
where
    A: RakedProduct<B>,
    <A as RakedProduct<B>>::Output: crate::product::RankProductValue<Raked, A, B>,
{
    <<A as RakedProduct<B>>::Output as crate::product::RankProductValue<Raked, A, B>>::make(a, b)
}
#[cfg(not(feature = "std"))]
free_fn!(
    /// `blocked_product(a, b)` (see [`RankProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = blocked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(p.to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
    /// ```
    blocked_product, BlockedProduct
);
#[cfg(not(feature = "std"))]
free_fn!(
    /// `raked_product(a, b)` (see [`RankProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = raked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(p.to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
    /// ```
    raked_product, RakedProduct
);
