//! The complement solver: the modes sorted by stride, folded into the
//! gaps (paper 3.5), the injectivity condition as a trait; one insertion
//! sort of mode lists.

use super::{FilterModes, Sort, Trivial};
use crate::detail::{CoalesceFold, Coalesced, Plain};
use crate::detail::{FlatModes, FlattenInto, LayoutOfModes, MCons, MNil, ModesToLayout};
use crate::int_tuple::Dyn;
use crate::int_tuple::known::{IsOne, KnownOne};
use crate::layout::Layout;
use core::ops::{Add, Div, Mul, Rem, Sub};
use typenum::{B0, B1, Bit, IsLess, Le, Mod, Prod, Quot, Sub1, U0, U1, UInt, Unsigned};

/// Complement's fold over the sorted modes with the current extent `C`
/// (paper 3.5): each mode `s:d` contributes `d/C : C`, then `C = s·d`.
/// `Curr` is the final extent, the stride of the last mode.
pub trait ComplementFold<C> {
    /// The complement's modes before the last.
    type Output;
    /// The stride of the last mode.
    type Curr;
    /// `Σ d mod C` over the modes: the offsets the floor divisions leave
    /// out (0 when every stride is a multiple of the extent below it).
    type Gap;
}
impl<C> ComplementFold<C> for MNil {
    type Output = MNil;
    type Curr = C;
    type Gap = U0;
}
impl<S, D: IsLess<C>, T, C> ComplementFold<C> for MCons<S, D, T>
where
    Self: ComplementStep<C, Le<D, C>>,
{
    type Output = <Self as ComplementStep<C, Le<D, C>>>::Output;
    type Curr = <Self as ComplementStep<C, Le<D, C>>>::Curr;
    type Gap = <Self as ComplementStep<C, Le<D, C>>>::Gap;
}
/// The injectivity condition of complement: `B` is "this stride is below
/// the extent of the modes before it" (their images overlap).
#[diagnostic::on_unimplemented(
    message = "complement of a layout that is not injective",
    label = "complement needs an injective layout whose sorted modes do not overlap",
    note = "a mode's stride is smaller than the extent of the modes of smaller stride, so the layout maps two coordinates to one offset (or interleaves modes)"
)]
pub trait ComplementStep<C, B> {
    /// The complement's modes before the last.
    type Output;
    /// The stride of the last mode.
    type Curr;
    /// The offsets left out by the floor divisions.
    type Gap;
}
impl<S: Mul<D>, D: Div<C> + Rem<C>, T, C> ComplementStep<C, B0> for MCons<S, D, T>
where
    T: ComplementFold<Prod<S, D>>,
    Mod<D, C>: Add<<T as ComplementFold<Prod<S, D>>>::Gap>,
{
    type Output = MCons<Quot<D, C>, C, <T as ComplementFold<Prod<S, D>>>::Output>;
    type Curr = <T as ComplementFold<Prod<S, D>>>::Curr;
    type Gap = typenum::Sum<Mod<D, C>, <T as ComplementFold<Prod<S, D>>>::Gap>;
}

/// The size of complement's last mode, `Self` being its stride `C`: it
/// repeats until `(A, R)` reaches the cotarget `M`, counting the offsets
/// actually covered (strides that are not multiples leave `Gap` offsets
/// out): `1 + ceil((M − 1 − covered) / C)` when positive, else 1, with
/// `covered = C − 1 − Gap` (the extents telescope), which is
/// `ceil((M + Gap) / C)` (as cute-dynamic).
pub trait ComplementLast<M, Gap> {
    /// The size of the last mode.
    type Output;
}
pub(crate) type MG<M, Gap> = typenum::Sum<M, Gap>;
impl<C, M: Add<Gap>, Gap> ComplementLast<M, Gap> for C
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
impl<S: KnownOne, D, T> DropUnit for MCons<S, D, T>
where
    Self: DropUnitStep<IsOne<S>>,
{
    type Output = <Self as DropUnitStep<IsOne<S>>>::Output;
}
/// `B` is "S is 1".
pub trait DropUnitStep<B> {
    /// The kept modes.
    type Output;
}
impl<S, D, T: DropUnit> DropUnitStep<B1> for MCons<S, D, T> {
    type Output = <T as DropUnit>::Output;
}
impl<S, D, T: DropUnit> DropUnitStep<B0> for MCons<S, D, T> {
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
/// A `usize` is a run-time cotarget (as `make_layout` makes a run-time leaf
/// of it). The only integer type taken, so that a literal (`complement(a,
/// 16)`) is one.
impl ShapeSize for usize {
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

/// The flat modes of the layout `Self` that CuTe's `filter` keeps (no
/// stride 0, no size 1), sorted by stride: where every complement walk
/// starts (the static complement, CuTe's fold with run-time leaves, the
/// products' `A*`, the divides' `B*`). The three steps as one bound.
#[doc(hidden)]
pub trait SortedModes {
    /// The sorted modes.
    type Output;
}
impl<S, D> SortedModes for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: FilterModes<Trivial>,
    <FlatModes<S, D> as FilterModes<Trivial>>::Output: Sort,
{
    type Output = <<FlatModes<S, D> as FilterModes<Trivial>>::Output as Sort>::Output;
}
/// [`SortedModes`] of `Layout<S, D>`.
pub(crate) type Sorted<S, D> = <Layout<S, D> as SortedModes>::Output;
/// The complement's walk of the all-static layout `Self` as one bound:
/// its modes below the last, size-1 ones dropped (`Kept`), the stride
/// `Curr` where the last mode starts, and the `Gap` its floor divisions
/// leave ([`ComplementFold`] of the [`SortedModes`]). What the static
/// complement, the complement for a run-time cotarget, the products' `A*`
/// and the divides' `B*` of an all-static layout start from.
#[doc(hidden)]
pub trait StaticWalk {
    /// The walk's modes below the last, without those of size 1.
    type Kept;
    /// The stride where the last mode starts.
    type Curr;
    /// The offsets the floor divisions leave out.
    type Gap;
}
impl<S, D> StaticWalk for Layout<S, D>
where
    Self: SortedModes,
    Sorted<S, D>: ComplementFold<U1>,
    <Sorted<S, D> as ComplementFold<U1>>::Output: DropUnit,
{
    type Kept = <<Sorted<S, D> as ComplementFold<U1>>::Output as DropUnit>::Output;
    type Curr = <Sorted<S, D> as ComplementFold<U1>>::Curr;
    type Gap = <Sorted<S, D> as ComplementFold<U1>>::Gap;
}
/// [`StaticWalk::Kept`] of `Layout<S, D>`.
pub(crate) type CompKept<S, D> = <Layout<S, D> as StaticWalk>::Kept;
/// [`StaticWalk::Curr`] of `Layout<S, D>`.
pub(crate) type CompCurr<S, D> = <Layout<S, D> as StaticWalk>::Curr;
/// [`StaticWalk::Gap`] of `Layout<S, D>`.
pub(crate) type CompGap<S, D> = <Layout<S, D> as StaticWalk>::Gap;
/// The size of the complement's last mode for the cotarget `M`.
pub(crate) type LastSize<S, D, M> = <CompCurr<S, D> as ComplementLast<M, CompGap<S, D>>>::Output;

/// The complement's modes with the last one kept (cute-dynamic's
/// `complement_extended`, what the products compose with).
pub(crate) type ExtModes<S, D, M> = <CompKept<S, D> as PushMode<LastSize<S, D, M>, CompCurr<S, D>>>::Output;

/// The complement's modes, its last mode kept even of size 1 (the
/// extended domain's next replica).
pub trait ComplementModes<M> {
    /// The modes.
    type Output;
}
impl<S, D, M> ComplementModes<M> for Layout<S, D>
where
    Self: StaticWalk,
    CompCurr<S, D>: ComplementLast<M, CompGap<S, D>>,
    CompKept<S, D>: PushMode<LastSize<S, D, M>, CompCurr<S, D>>,
{
    type Output = ExtModes<S, D, M>;
}

/// `complement(Self, M)` for a cotarget size `M` (paper 3.5): the layout
/// of the offsets below `M` that `Self` does not reach, ordered; its image is
/// disjoint from `Self`'s and strictly increasing (eqs. 27–29), and `(Self,
/// R)` reaches the cotarget. A layout that is not injective has no
/// implementation.
pub trait ComplementLayout<M> {
    /// The complement.
    type Output;
}
impl<S, D, M> ComplementLayout<M> for Layout<S, D>
where
    Self: ComplementModes<M>,
    <Self as ComplementModes<M>>::Output: CoalesceFold<U1, U0, Plain>,
    Coalesced<<Self as ComplementModes<M>>::Output>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<<Self as ComplementModes<M>>::Output>>;
}

/// The complement with its last mode kept (not coalesced), which the
/// products compose with (cute-dynamic's `complement_extended`).
pub trait ComplementExtended<M> {
    /// The complement.
    type Output;
}
impl<S, D, M> ComplementExtended<M> for Layout<S, D>
where
    Self: ComplementModes<M>,
    <Self as ComplementModes<M>>::Output: ModesToLayout,
{
    type Output = LayoutOfModes<<Self as ComplementModes<M>>::Output>;
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
    A: ComplementBy<UInt<U, B>, <A as crate::int_tuple::AllStatic>::Bit>,
{
    type Output = <A as ComplementBy<UInt<U, B>, <A as crate::int_tuple::AllStatic>::Bit>>::Output;
}
/// [`ComplementValue`] by branch: `Static` is `B1` when both arguments are
/// all-static.
#[doc(hidden)]
pub trait ComplementValueBy<A, M, Static>: Sized {
    /// `complement(a, m)`.
    fn make(a: A, m: M) -> Self;
    /// `complement(a, m)`, or cute-dynamic's error.
    #[cfg(feature = "std")]
    fn try_make(a: A, m: M) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O: crate::layout::StaticValue, A, M> ComplementValueBy<A, M, B1> for O {
    #[inline(always)]
    fn make(_: A, _: M) -> O {
        O::value()
    }
    #[cfg(feature = "std")]
    #[inline(always)]
    fn try_make(_: A, _: M) -> Result<O, cute_dynamic::LayoutError> {
        Ok(O::value())
    }
}

// --------------------------------------------- with run-time leaves

/// CuTe's complement fold on run-time leaves (the products' `A*`, which
/// needs `std` like every run-time path).
#[cfg(feature = "std")]
mod run_time_fold {
    use super::*;
    use crate::int_tuple::known::{KnownZero, LeafDiv, LeafMul};
    use crate::int_tuple::{AllStatic, Truth};

    /// CuTe's complement fold over sorted modes whose leaves may be run-time
    /// ([`Dyn`]): each mode `s:d` contributes `d/C : C`, then `C = s·d`, a
    /// leaf static exactly where the arithmetic met only static values (a
    /// run-time `C` makes the next mode's size and stride run-time). The
    /// conditions (injectivity, divisibility gaps) are checked on the values
    /// when the call runs.
    #[doc(hidden)]
    pub trait RunTimeFold<C> {
        /// The complement's modes before the last.
        type Output;
        /// The stride of the last mode.
        type Curr;
    }
    impl<C> RunTimeFold<C> for MNil {
        type Output = MNil;
        type Curr = C;
    }
    impl<S: LeafMul<D>, D: FoldDiv<C>, T, C> RunTimeFold<C> for MCons<S, D, T>
    where
        T: RunTimeFold<<S as LeafMul<D>>::Output>,
    {
        type Output = MCons<<D as FoldDiv<C>>::Output, C, <T as RunTimeFold<<S as LeafMul<D>>::Output>>::Output>;
        type Curr = <T as RunTimeFold<<S as LeafMul<D>>::Output>>::Curr;
    }
    /// The size `Self/C` of a mode of [`RunTimeFold`]: static when both are
    /// and the stride `Self` reaches the extent `C`; otherwise run-time. A
    /// static stride below a static extent starts inside the modes before it
    /// (whose sizes were all static), which only a mode of run-time size 1
    /// allows: its size is then a run-time 1 (checked when the call runs).
    #[doc(hidden)]
    pub trait FoldDiv<C> {
        /// The size's leaf type.
        type Output;
    }
    impl<U, B, C: Unsigned> FoldDiv<C> for UInt<U, B>
    where
        UInt<U, B>: IsLess<C>,
        Self: FoldDivBy<C, Le<UInt<U, B>, C>>,
    {
        type Output = <Self as FoldDivBy<C, Le<UInt<U, B>, C>>>::Output;
    }
    impl<U, B> FoldDiv<Dyn> for UInt<U, B> {
        type Output = Dyn;
    }
    impl<C> FoldDiv<C> for Dyn {
        type Output = Dyn;
    }
    /// [`FoldDiv`] of static leaves by `Below`, "the stride is below `C`".
    #[doc(hidden)]
    pub trait FoldDivBy<C, Below> {
        /// The size's leaf type.
        type Output;
    }
    impl<D: LeafDiv<C>, C> FoldDivBy<C, B0> for D {
        type Output = <D as LeafDiv<C>>::Output;
    }
    impl<D, C> FoldDivBy<C, B1> for D {
        type Output = Dyn;
    }

    /// `Bit` is `B1` where CuTe's complement fold of a layout with run-time
    /// leaves (`Self` its kept modes) is taken, as the products' `A*`
    /// (`X` = [`AnyCount`]) or as an answer whose count matters, the
    /// complement itself and the divides' `B*` ([`ExactCount`]): where CuTe
    /// defines it, at most one mode or every stride static, so that the
    /// order of the modes is known at compile time (CuTe asserts `R == 1 ||
    /// is_static<Stride>`), and where its type can hold the answer whatever
    /// the run-time sizes are ([`FoldSafe`]).
    #[doc(hidden)]
    pub trait CuteFolds<X> {
        /// `B1` or `B0`.
        type Bit: Truth;
    }
    impl<X> CuteFolds<X> for MNil {
        type Bit = B1;
    }
    impl<S, D, X> CuteFolds<X> for MCons<S, D, MNil>
    where
        MCons<S, D, MNil>: FoldSafe<U1, X>,
    {
        type Bit = <MCons<S, D, MNil> as FoldSafe<U1, X>>::Bit;
    }
    impl<S, D, S2, D2, T, X> CuteFolds<X> for MCons<S, D, MCons<S2, D2, T>>
    where
        MCons<S, D, MCons<S2, D2, T>>: StridesStatic,
        MCons<S, D, MCons<S2, D2, T>>: SafeWhen<<MCons<S, D, MCons<S2, D2, T>> as StridesStatic>::Bit, X>,
    {
        type Bit =
            <MCons<S, D, MCons<S2, D2, T>> as SafeWhen<<MCons<S, D, MCons<S2, D2, T>> as StridesStatic>::Bit, X>>::Bit;
    }
    /// The products' use of CuTe's fold ([`CuteFolds`]): `A*`'s last mode
    /// may count past the complement's (its count rounded up from a later
    /// start), as the composition with `B` reads only what `B` reaches.
    #[doc(hidden)]
    pub struct AnyCount;
    /// The complement's and the divides' use of CuTe's fold
    /// ([`CuteFolds`]): the count is the answer's, so a mode of run-time
    /// size 1 may not move where the last mode starts.
    #[doc(hidden)]
    pub struct ExactCount;
    /// The next stride [`UnitSafe`] compares the last kept mode's stride
    /// `D` with: `D` itself for [`AnyCount`] (the rest may start at `D`),
    /// 1 for [`ExactCount`] (no stride above 1 divides it: safe only where
    /// the mode takes no slot).
    #[doc(hidden)]
    pub trait LastNext<D> {
        /// The stride.
        type Next;
    }
    impl<D> LastNext<D> for AnyCount {
        type Next = D;
    }
    impl<D> LastNext<D> for ExactCount {
        type Next = U1;
    }
    /// [`CuteFolds`] of modes whose strides are all static (`B1`), sorted and
    /// checked by [`FoldSafe`]; `B0` otherwise (no sort on run-time strides).
    #[doc(hidden)]
    pub trait SafeWhen<StaticStrides, X> {
        /// `B1` or `B0`.
        type Bit: Truth;
    }
    impl<L, X> SafeWhen<B0, X> for L {
        type Bit = B0;
    }
    impl<L: Sort, X> SafeWhen<B1, X> for L
    where
        <L as Sort>::Output: FoldSafe<U1, X>,
    {
        type Bit = <<L as Sort>::Output as FoldSafe<U1, X>>::Bit;
    }
    /// `B1` unless a sorted mode of run-time size gets a static size in
    /// [`RunTimeFold`] (extent `C`) where, were that size 1 at run time,
    /// CuTe's fold would leave offsets out after it ([`UnitSafe`]): the static
    /// size would then keep the mode from adding nothing instead (as
    /// cute-dynamic drops it).
    #[doc(hidden)]
    pub trait FoldSafe<C, X> {
        /// `B1` or `B0`.
        type Bit: Truth;
    }
    impl<C, X> FoldSafe<C, X> for MNil {
        type Bit = B1;
    }
    impl<S, D, C, X: LastNext<D>> FoldSafe<C, X> for MCons<S, D, MNil>
    where
        S: AllStatic,
        D: UnitSafe<C, X::Next>,
    {
        type Bit = <<S as AllStatic>::Bit as Truth>::Or<<D as UnitSafe<C, X::Next>>::Bit>;
    }
    impl<S, D, C, S2, D2, T, X> FoldSafe<C, X> for MCons<S, D, MCons<S2, D2, T>>
    where
        S: AllStatic + LeafMul<D>,
        D: UnitSafe<C, D2>,
        MCons<S2, D2, T>: FoldSafe<<S as LeafMul<D>>::Output, X>,
    {
        type Bit = <<<S as AllStatic>::Bit as Truth>::Or<<D as UnitSafe<C, D2>>::Bit> as Truth>::And<
            <MCons<S2, D2, T> as FoldSafe<<S as LeafMul<D>>::Output, X>>::Bit,
        >;
    }
    /// Whether a mode of stride `Self` after the extent `C`, the next mode's
    /// stride being `Next` (`Self` for the last mode), may be of size 1 at
    /// run time in CuTe's fold: its slot's size is run-time ([`Harmless`]), or
    /// `C` divides `Self` and either `Self` is `C` (no slot, `C` stays) or
    /// `Self` divides `Next`, so that its slot `Self/C : C` and the next
    /// `Next/Self : Self` cover what one slot `Next/C : C` would: the same
    /// function as without the mode.
    #[doc(hidden)]
    pub trait UnitSafe<C, Next> {
        /// `B1` or `B0`.
        type Bit: Truth;
    }
    impl<U, B, U2, B2, N, R1, R2, Q: Harmless + KnownOne> UnitSafe<UInt<U2, B2>, N> for UInt<U, B>
    where
        UInt<U, B>: FoldDiv<UInt<U2, B2>, Output = Q> + Rem<UInt<U2, B2>, Output = R1>,
        N: Rem<UInt<U, B>, Output = R2>,
        R1: KnownZero<Output: Truth>,
        R2: KnownZero<Output: Truth>,
    {
        type Bit = <<Q as Harmless>::Bit as Truth>::Or<
            <<R1 as KnownZero>::Output as Truth>::And<<<R2 as KnownZero>::Output as Truth>::Or<IsOne<Q>>>,
        >;
    }
    impl<U, B, N> UnitSafe<Dyn, N> for UInt<U, B> {
        type Bit = B1;
    }
    impl<C, N> UnitSafe<C, N> for Dyn {
        type Bit = B1;
    }
    /// `B1` for a run-time slot size, which a mode of run-time size 1 leaves
    /// harmless (the fold then makes it `1:C`, adding nothing).
    #[doc(hidden)]
    pub trait Harmless {
        /// `B1` or `B0`.
        type Bit: Truth;
    }
    impl Harmless for Dyn {
        type Bit = B1;
    }
    impl<U, B> Harmless for UInt<U, B> {
        type Bit = B0;
    }
    impl Harmless for typenum::UTerm {
        type Bit = B0;
    }
    /// `Bit` is `B1` when every stride of the mode list is static.
    #[doc(hidden)]
    pub trait StridesStatic {
        /// `B1` or `B0`.
        type Bit: Truth;
    }
    impl StridesStatic for MNil {
        type Bit = B1;
    }
    impl<S, D: AllStatic, T: StridesStatic> StridesStatic for MCons<S, D, T> {
        type Bit = <<D as AllStatic>::Bit as Truth>::And<<T as StridesStatic>::Bit>;
    }

    /// The modes of `A` that CuTe's `filter` keeps.
    pub(crate) type Filtered<S, D> = <FlatModes<S, D> as FilterModes<Trivial>>::Output;
    /// [`CuteFolds`] of a layout's kept modes (`X` as there: [`AnyCount`]
    /// for the products' `A*`, [`ExactCount`] for an answer whose count
    /// matters), the bounds in one place.
    #[doc(hidden)]
    pub trait LayoutFolds<X> {
        /// `B1` or `B0`.
        type Bit: Truth;
    }
    impl<S, D, X> LayoutFolds<X> for Layout<S, D>
    where
        S: FlattenInto<D, MNil>,
        FlatModes<S, D>: FilterModes<Trivial>,
        Filtered<S, D>: CuteFolds<X>,
    {
        type Bit = <Filtered<S, D> as CuteFolds<X>>::Bit;
    }
    pub(crate) type FoldOut<S, D> = <Sorted<S, D> as RunTimeFold<U1>>::Output;
    pub(crate) type FoldCurr<S, D> = <Sorted<S, D> as RunTimeFold<U1>>::Curr;
    /// CuTe's extended complement of a layout with run-time leaves for a
    /// run-time cotarget: the fold's modes but those statically of size 1,
    /// then the last mode `Dyn:C` (kept even of size 1: the products compose
    /// with it). CuTe's `coalesce` would merge no two of these modes: a merge
    /// needs a static size and a static product equal to the next stride,
    /// which only a mode of size 1 (dropped by the filter) gives.
    pub(crate) type FoldModes<S, D> = <<FoldOut<S, D> as DropUnit>::Output as PushMode<Dyn, FoldCurr<S, D>>>::Output;
    /// CuTe's complement of a layout `Self` with a run-time leaf for a
    /// run-time cotarget, where CuTe's complement is defined ([`CuteFolds`]):
    /// the kept modes sorted by their strides, a leaf static where CuTe's
    /// arithmetic met only static values, the last mode kept ([`FoldModes`]).
    /// The solver's bounds in one place, for the type and the values of the
    /// products' `A*`, the divides' `B*` and `complement` itself.
    #[doc(hidden)]
    pub trait CuteStar {
        /// `A*`.
        type Star;
    }
    impl<AS, AD> CuteStar for Layout<AS, AD>
    where
        Self: SortedModes,
        Sorted<AS, AD>: RunTimeFold<U1>,
        FoldOut<AS, AD>: DropUnit,
        <FoldOut<AS, AD> as DropUnit>::Output: PushMode<Dyn, FoldCurr<AS, AD>>,
        FoldModes<AS, AD>: ModesToLayout,
    {
        type Star = LayoutOfModes<FoldModes<AS, AD>>;
    }
}
#[cfg(feature = "std")]
pub use run_time_fold::*;

/// The complement's modes before the last, then the last `Dyn:C` (the
/// extended complement the products compose with).
#[cfg(feature = "std")]
pub(crate) type RunTimeModes<S, D> = <CompKept<S, D> as PushMode<Dyn, CompCurr<S, D>>>::Output;
/// The modes of `complement(Layout<S, D>, M)` for a run-time `M`: as
/// [`RunTimeModes`], but a last mode that is the only one is `Dyn:Dyn`, so
/// that its stride can be 0 when its size is 1 (cute-dynamic's `1:0`; the
/// stride of a mode of size 1 is not read).
pub(crate) type ComplementRunTimeModes<S, D> = <CompKept<S, D> as PushLastRunTime<CompCurr<S, D>>>::Output;

/// Appends complement's run-time last mode of stride `C` to a mode list:
/// `Dyn:C` after other modes, `Dyn:Dyn` alone.
#[doc(hidden)]
pub trait PushLastRunTime<C> {
    /// The longer list.
    type Output;
}
impl<C> PushLastRunTime<C> for MNil {
    type Output = MCons<Dyn, Dyn, MNil>;
}
impl<C, S0, D0, T> PushLastRunTime<C> for MCons<S0, D0, T>
where
    Self: PushMode<Dyn, C>,
{
    type Output = <Self as PushMode<Dyn, C>>::Output;
}

/// `complement(Self, M)` for a run-time cotarget `M`: the type (see the
/// module's documentation).
#[doc(hidden)]
pub trait ComplementRunTime {
    /// The complement.
    type Output;
}
impl<S, D> ComplementRunTime for Layout<S, D>
where
    Self: StaticWalk,
    CompKept<S, D>: PushLastRunTime<CompCurr<S, D>>,
    ComplementRunTimeModes<S, D>: CoalesceFold<U1, U0, Plain>,
    Coalesced<ComplementRunTimeModes<S, D>>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<ComplementRunTimeModes<S, D>>>;
}
impl<A> ComplementOnto<A> for Dyn
where
    A: crate::int_tuple::AllStatic,
    A: ComplementBy<Dyn, <A as crate::int_tuple::AllStatic>::Bit>,
{
    type Output = <A as ComplementBy<Dyn, <A as crate::int_tuple::AllStatic>::Bit>>::Output;
}

/// `complement(Self, M)` for a cotarget size `M` (a typenum integer or
/// [`Dyn`]) by branch: `Static` is `B1` for an all-static layout (the
/// static complement, or its last mode computed for a run-time `M`), `B0`
/// for a layout with a run-time leaf: the padded form, a flat layout of
/// `N + 1` run-time leaves (`N` its flat modes), since the sort by stride
/// and the number of modes of the answer depend on run-time values.
#[doc(hidden)]
pub trait ComplementBy<M, Static> {
    /// The complement.
    type Output;
}
impl<U: typenum::Unsigned, B: typenum::Bit, A: crate::detail::ComplementLayout<typenum::UInt<U, B>>>
    ComplementBy<typenum::UInt<U, B>, typenum::B1> for A
{
    type Output = <A as crate::detail::ComplementLayout<typenum::UInt<U, B>>>::Output;
}
impl<A: ComplementRunTime> ComplementBy<Dyn, typenum::B1> for A {
    type Output = <A as ComplementRunTime>::Output;
}
// The `B0` branch (the padded form, run-time support) is in `complement.rs`.

// The static conditions of a layout with run-time leaves.

/// A flat mode whose shape and stride are both static and whose stride is
/// not 0 ([`Known`]); any other mode ([`Unknown`]) is decided at run time.
#[doc(hidden)]
pub trait ModeKind {
    /// [`Known`] or [`Unknown`].
    type Kind;
}
/// A static mode `S:D`, `D > 0`.
#[doc(hidden)]
pub struct Known<S, D>(core::marker::PhantomData<(S, D)>);
/// A mode with a run-time leaf, or a static stride 0.
#[doc(hidden)]
pub struct Unknown;
impl<U, B, U2, B2> ModeKind for (typenum::UInt<U, B>, typenum::UInt<U2, B2>) {
    type Kind = Known<typenum::UInt<U, B>, typenum::UInt<U2, B2>>;
}
impl<U, B> ModeKind for (typenum::UInt<U, B>, typenum::UTerm) {
    type Kind = Unknown;
}
impl<U, B> ModeKind for (typenum::UInt<U, B>, Dyn) {
    type Kind = Unknown;
}
impl<X> ModeKind for (Dyn, X) {
    type Kind = Unknown;
}

/// No two static modes of the flat mode list `Self` overlap: for static
/// `s1:d1`, `s2:d2` (`s > 1`, `d > 0`), `d1 ≤ d2 < s1·d1` means that the
/// second starts inside the first's extent, whatever the run-time modes
/// are (two coordinates meet, or the modes interleave), so `complement`
/// and `left_inverse` of a layout with run-time leaves reject it at
/// compile time, as they do an all-static one.
#[doc(hidden)]
pub trait NoStaticOverlap {}
impl NoStaticOverlap for MNil {}
impl<S, D, T> NoStaticOverlap for crate::detail::MCons<S, D, T>
where
    (S, D): ModeKind,
    T: NoOverlapWith<<(S, D) as ModeKind>::Kind> + NoStaticOverlap,
{
}
/// Every mode of `Self` against the mode kind `K`.
#[doc(hidden)]
pub trait NoOverlapWith<K> {}
impl<K> NoOverlapWith<K> for MNil {}
impl<K, S, D, T> NoOverlapWith<K> for crate::detail::MCons<S, D, T>
where
    (S, D): ModeKind,
    K: PairApart<<(S, D) as ModeKind>::Kind>,
    <(S, D) as ModeKind>::Kind: PairApart<K>,
    T: NoOverlapWith<K>,
{
}
/// `Other` does not start inside the extent of `Self`.
#[doc(hidden)]
pub trait PairApart<Other> {}
impl<K> PairApart<K> for Unknown {}
impl<S, D> PairApart<Unknown> for Known<S, D> {}
impl<S1, D1, S2, D2> PairApart<Known<S2, D2>> for Known<S1, D1>
where
    S1: typenum::IsGreater<U1> + core::ops::Mul<D1>,
    S2: typenum::IsGreater<U1>,
    D1: typenum::IsLessOrEqual<D2>,
    D2: typenum::IsLess<typenum::Prod<S1, D1>>,
    typenum::Gr<S1, U1>: core::ops::BitAnd<typenum::Gr<S2, U1>>,
    typenum::And<typenum::Gr<S1, U1>, typenum::Gr<S2, U1>>: core::ops::BitAnd<typenum::LeEq<D1, D2>>,
    typenum::And<typenum::And<typenum::Gr<S1, U1>, typenum::Gr<S2, U1>>, typenum::LeEq<D1, D2>>:
        core::ops::BitAnd<typenum::Le<D2, typenum::Prod<S1, D1>>>,
    typenum::And<
        typenum::And<typenum::And<typenum::Gr<S1, U1>, typenum::Gr<S2, U1>>, typenum::LeEq<D1, D2>>,
        typenum::Le<D2, typenum::Prod<S1, D1>>,
    >: StaticModesApart,
{
}
/// The overlap test of two static modes is false.
#[diagnostic::on_unimplemented(
    message = "two static modes of a layout with run-time leaves overlap",
    label = "sorted by stride, a static mode starts inside the extent of another static mode",
    note = "whatever the run-time leaves are, two coordinates meet or the modes interleave, so neither `complement` nor `left_inverse` has a layout"
)]
#[doc(hidden)]
pub trait StaticModesApart {}
impl StaticModesApart for typenum::B0 {}
