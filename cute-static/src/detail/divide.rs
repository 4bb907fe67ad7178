//! The divide and product families' shared machinery: the 1-D split
//! `A ∘ (B, B*)` into halves, by mode for a tiler, and the arrangements
//! (`Zipped`, `Tiled`, `Flat`). Products use it with `ProductOp`.

use super::*;
use crate::detail::{Append, FlatModes, FlattenInto, HCons, HNil, MNil, MakeLayout, ModeSize, ModeSpan, ModesOf};
use crate::detail::{CoalesceFold, KeepLast};
use crate::int_tuple::known::{IsOne, KnownOne};
use crate::layout::Layout;
use core::ops::{Add, Mul};
use typenum::{B0, B1, Prod, U0, U1, UInt};

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
pub trait SplitHalves {
    /// Mode 0.
    type X;
    /// Mode 1.
    type Y;
}
impl<S0, S1, D0, D1> SplitHalves for Layout<(S0, S1), (D0, D1)> {
    type X = Layout<S0, D0>;
    type Y = Layout<S1, D1>;
}
pub(crate) type BStar<A, B> = <B as ComplementLayout<<A as SizeOf>::Size>>::Output;
pub(crate) type BBStar<A, B> = <Pair<B, BStar<A, B>> as MakeLayout>::Output;
/// `(A ∘ B, A ∘ B*)` composed as one `A ∘ (B, B*)`, so that the
/// distributivity condition sees `B`'s and `B*`'s offsets added up.
impl<AS, AD, B> Split1D<DivideOp, B> for Layout<AS, AD>
where
    Self: crate::int_tuple::AllStatic,
    B: crate::int_tuple::AllStatic,
    Self: Split1DBy<DivideOp, B, crate::int_tuple::BothStatic<Self, B>>,
{
    type X = <Self as Split1DBy<DivideOp, B, crate::int_tuple::BothStatic<Self, B>>>::X;
    type Y = <Self as Split1DBy<DivideOp, B, crate::int_tuple::BothStatic<Self, B>>>::Y;
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
    B: ComplementLayout<<Self as SizeOf>::Size>,
    Pair<B, BStar<Self, B>>: MakeLayout,
    Self: ComposeLayouts<BBStar<Self, B>>,
    <Self as ComposeLayouts<BBStar<Self, B>>>::Output: SplitHalves,
{
    type X = <<Self as ComposeLayouts<BBStar<Self, B>>>::Output as SplitHalves>::X;
    type Y = <<Self as ComposeLayouts<BBStar<Self, B>>>::Output as SplitHalves>::Y;
}
pub(crate) type ProdM<A, B> = Prod<<A as SizeOf>::Size, <B as CosizeOf>::Cosize>;
impl<AS, AD, B> Split1D<ProductOp, B> for Layout<AS, AD>
where
    Self: crate::int_tuple::AllStatic,
    B: crate::int_tuple::AllStatic,
    Self: Split1DBy<ProductOp, B, crate::int_tuple::BothStatic<Self, B>>,
{
    type X = <Self as Split1DBy<ProductOp, B, crate::int_tuple::BothStatic<Self, B>>>::X;
    type Y = <Self as Split1DBy<ProductOp, B, crate::int_tuple::BothStatic<Self, B>>>::Y;
}
impl<AS, AD, BS: HasUnit, BD> Split1DBy<ProductOp, Layout<BS, BD>, B1> for Layout<AS, AD>
where
    Self: SizeOf,
    Layout<BS, BD>: CosizeOf,
    <Self as SizeOf>::Size: Mul<<Layout<BS, BD> as CosizeOf>::Cosize>,
    Self: ComplementExtended<ProdM<Self, Layout<BS, BD>>>,
    <Self as ComplementExtended<ProdM<Self, Layout<BS, BD>>>>::Output: ComposeLayouts<Layout<BS, BD>>,
    Self: ProductGrid<Layout<BS, BD>, Grid<Self, Layout<BS, BD>>, <BS as HasUnit>::Output>,
{
    type X = Self;
    type Y = <Self as ProductGrid<Layout<BS, BD>, Grid<Self, Layout<BS, BD>>, <BS as HasUnit>::Output>>::Output;
}
/// `A* ∘ B`, `A*` the extended complement of a product.
pub(crate) type Grid<A, B> = <<A as ComplementExtended<ProdM<A, B>>>::Output as ComposeLayouts<B>>::Output;
/// The grid `G = A* ∘ B` of a product as CuTe gives it, by whether `B` has
/// a size-1 leaf (`U`): CuTe composes with the coalesced complement, so its
/// size-1 leaves take their strides from that one, as in cute-dynamic
/// ([`UnitsFrom`]); without a size-1 leaf `G` is already that, and the
/// coalesced complement is not computed.
#[doc(hidden)]
pub trait ProductGrid<B, G, U> {
    /// The grid.
    type Output;
}
impl<A, B, G> ProductGrid<B, G, B0> for A {
    type Output = G;
}
impl<A, B: CosizeOf, G> ProductGrid<B, G, B1> for A
where
    A: SizeOf,
    <A as SizeOf>::Size: Mul<<B as CosizeOf>::Cosize>,
    A: ComplementLayout<ProdM<A, B>>,
    G: UnitsFrom<B, <A as ComplementLayout<ProdM<A, B>>>::Output>,
{
    type Output = <G as UnitsFrom<B, <A as ComplementLayout<ProdM<A, B>>>::Output>>::Output;
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
    FlatModes<CS, CD>: CoalesceFold<U1, U0, KeepLast>,
    BS: Restride<BD, YD, PrepOf<CS, CD>>,
{
    type Output = Layout<YS, <BS as Restride<BD, YD, PrepOf<CS, CD>>>::Output>;
}
/// `B1` when a shape tree has a leaf known to be 1.
#[doc(hidden)]
pub trait HasUnit {
    /// `B1` or `B0`.
    type Output: crate::int_tuple::Truth;
}
impl<U, B> HasUnit for UInt<U, B>
where
    UInt<U, B>: KnownOne,
{
    type Output = IsOne<UInt<U, B>>;
}
macro_rules! has_unit_or {
    ($S:ident) => { <$S as HasUnit>::Output };
    ($S:ident $($rest:ident)+) => {
        <<$S as HasUnit>::Output as crate::int_tuple::Truth>::Or<has_unit_or!($($rest)+)>
    };
}
macro_rules! has_unit_tuple {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($S: HasUnit),+> HasUnit for ($($S,)+) {
            type Output = has_unit_or!($($S)+);
        }
    };
}
for_each_tuple!(has_unit_tuple);
/// `Self` is `B`'s shape tree, `BD` its strides, `RD` the strides of
/// `A' ∘ B` (B's tree, a leaf possibly become a tuple), `UL` the prepared
/// modes the size-1 leaves take their strides from.
#[doc(hidden)]
pub trait Restride<BD, RD, UL> {
    /// The new stride tree.
    type Output;
}
impl<U, B, BD, RD, UL> Restride<BD, RD, UL> for UInt<U, B>
where
    UInt<U, B>: KnownOne,
    UL: UnitPick<BD, RD, IsOne<UInt<U, B>>>,
{
    type Output = <UL as UnitPick<BD, RD, IsOne<UInt<U, B>>>>::Output;
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
pub(crate) type ZXs<L, Op, A> = <L as ByMode<FirstHalf<Op>, <A as ModesOf>::Output>>::Output;
pub(crate) type ZYs<L, Op, A> = <L as ByMode<SecondHalf<Op>, <A as ModesOf>::Output>>::Output;
pub(crate) type ZRest<L, A> = <L as PastModes<<A as ModesOf>::Output>>::Output;
/// A tuple tile: the first halves of the tiled modes, and the second halves
/// followed by the untouched modes (CuTe's `zip2_by`).
impl<A, L, Op> TileParts<Op, A> for TList<L>
where
    A: ModesOf,
    L: ByMode<FirstHalf<Op>, <A as ModesOf>::Output>,
    L: ByMode<SecondHalf<Op>, <A as ModesOf>::Output>,
    L: PastModes<<A as ModesOf>::Output>,
    ZXs<L, Op, A>: MakeLayout,
    ZYs<L, Op, A>: Append<ZRest<L, A>>,
    <ZYs<L, Op, A> as Append<ZRest<L, A>>>::Output: MakeLayout,
{
    type X = <ZXs<L, Op, A> as MakeLayout>::Output;
    type Y = <<ZYs<L, Op, A> as Append<ZRest<L, A>>>::Output as MakeLayout>::Output;
}

/// [`ByMode`] operation: the first half `A ∘ B` of each tile's 1-D split.
pub struct FirstHalf<Op>(core::marker::PhantomData<Op>);
impl<Op> ModeOp for FirstHalf<Op> {
    type Past<AL> = HNil;
}
impl<T: TileParts<Op, A>, Op, A> TileOp<FirstHalf<Op>, A> for T {
    type Output = <T as TileParts<Op, A>>::X;
}
/// [`ByMode`] operation: the second half `A ∘ B*` of each tile's 1-D split.
pub struct SecondHalf<Op>(core::marker::PhantomData<Op>);
impl<Op> ModeOp for SecondHalf<Op> {
    type Past<AL> = HNil;
}
impl<T: TileParts<Op, A>, Op, A> TileOp<SecondHalf<Op>, A> for T {
    type Output = <T as TileParts<Op, A>>::Y;
}
/// The modes of the list `AModes` past the tiles of `Self` (the untouched
/// modes of a by-mode divide or product).
#[diagnostic::on_unimplemented(
    message = "the tiler has more modes than the layout (rank mismatch)",
    label = "a tiler's rank must not exceed the rank of the layout it tiles",
    note = "a tiler <T0, T1, ...> applies T0 to mode 0 of the layout, T1 to mode 1, ...; a scalar layout takes a tiler of one mode"
)]
pub trait PastModes<AModes> {
    /// The untouched modes.
    type Output;
}
impl<AL> PastModes<AL> for HNil {
    type Output = AL;
}
impl<T0, TR: PastModes<AR>, A0, AR> PastModes<HCons<A0, AR>> for HCons<T0, TR> {
    type Output = <TR as PastModes<AR>>::Output;
}

/// The logical arrangement of the layout `A` by the canonical tile `Self`:
/// each tiled mode becomes `(tile, rest)` recursively, untouched modes stay.
pub trait TileLogical<Op, A> {
    /// The result layout.
    type Output;
}
pub(crate) type Pair<X, Y> = HCons<X, HCons<Y, HNil>>;
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
    L: ByMode<LogicalEach<Op>, <A as ModesOf>::Output>,
    <L as ByMode<LogicalEach<Op>, <A as ModesOf>::Output>>::Output: MakeLayout,
{
    type Output = <<L as ByMode<LogicalEach<Op>, <A as ModesOf>::Output>>::Output as MakeLayout>::Output;
}

/// [`ByMode`] operation: each tiled mode as `(tile, rest)`; the untouched
/// modes are appended.
pub struct LogicalEach<Op>(core::marker::PhantomData<Op>);
impl<Op> ModeOp for LogicalEach<Op> {
    type Past<AL> = AL;
}
impl<T: TileLogical<Op, A>, Op, A> TileOp<LogicalEach<Op>, A> for T {
    type Output = <T as TileLogical<Op, A>>::Output;
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
impl<X, Y: SpliceModes> Arrange<X, Y> for Tiled {
    type Modes = HCons<X, <Y as SpliceModes>::Output>;
}
impl<X: SpliceModes, Y: SpliceModes> Arrange<X, Y> for Flat
where
    <X as SpliceModes>::Output: Append<<Y as SpliceModes>::Output>,
{
    type Modes = <<X as SpliceModes>::Output as Append<<Y as SpliceModes>::Output>>::Output;
}

/// The modes the tiled and flat arrangements splice in for a half: its
/// top-level modes, but a half of rank 1 (a scalar layout, or a tuple of
/// one mode) whole, as CuTe's `result(_, repeat<R>(_))` keeps a part of
/// rank 1 (`repeat<1>(_)` is `_`).
pub trait SpliceModes {
    /// `HCons<Layout<S0, D0>, ...>`.
    type Output;
}
impl<L: ModesOf> SpliceModes for L
where
    <L as ModesOf>::Output: KeepSingle<L>,
{
    type Output = <<L as ModesOf>::Output as KeepSingle<L>>::Output;
}

/// A list of one mode becomes the list of the whole layout `L`; longer lists
/// stay as they are.
pub trait KeepSingle<L> {
    /// The list.
    type Output;
}
impl<M, L> KeepSingle<L> for HCons<M, HNil> {
    type Output = HCons<L, HNil>;
}
impl<M, N, T, L> KeepSingle<L> for HCons<M, HCons<N, T>> {
    type Output = HCons<M, HCons<N, T>>;
}

/// A zipped/tiled/flat divide or product of the layout `A` by the
/// canonical tile `Self`.
pub trait TileArranged<Op, How, A> {
    /// The result layout.
    type Output;
}
pub(crate) type Arr<How, T, Op, A> = <How as Arrange<<T as TileParts<Op, A>>::X, <T as TileParts<Op, A>>::Y>>::Modes;
impl<T, A, Op, How> TileArranged<Op, How, A> for T
where
    T: TileParts<Op, A>,
    How: Arrange<<T as TileParts<Op, A>>::X, <T as TileParts<Op, A>>::Y>,
    Arr<How, T, Op, A>: MakeLayout,
{
    type Output = <Arr<How, T, Op, A> as MakeLayout>::Output;
}

/// `DivideValue` by branch (`Static` is `B1` for all-static arguments).
#[cfg(feature = "std")]
#[doc(hidden)]
pub trait DivideValueBy<How, A, B, Static>: Sized {
    /// The divide.
    fn make(a: A, b: B) -> Self;
    /// The divide, or cute-dynamic's error.
    #[cfg(feature = "std")]
    fn try_make(a: A, b: B) -> Result<Self, cute_dynamic::LayoutError>;
}
#[cfg(feature = "std")]
impl<O: crate::layout::StaticValue, How, A, B> DivideValueBy<How, A, B, B1> for O {
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
