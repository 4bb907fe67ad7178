//! Tilers: a layout, a shape or a `Tiler` as the `B` of composition, and
//! the by-mode composition of a tiler.

use super::*;
use crate::detail::{HCons, HNil, MakeLayout, ModesOf};
use crate::int_tuple::{AllStatic, BothStatic};
use crate::layout::Layout;
use typenum::{B1, U0, U1, UInt};

/// A tuple of tiles in canonical form: an `HCons` list of tiles.
pub struct TList<L>(core::marker::PhantomData<L>);

/// What can stand as the second argument of composition, the divides and
/// the products: a layout, an integer `n` (CuTe's `make_layout(n)`: the
/// layout `n:1`, and `1:0` for `n = 1`, see [`IntTileStride`]), a shape or
/// a tuple of tiles (one per mode), or a `Tiler`.
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
impl<U, B> TileArg for UInt<U, B>
where
    UInt<U, B>: IntTileStride,
{
    type Tile = Layout<UInt<U, B>, <UInt<U, B> as IntTileStride>::Stride>;
}
/// A run-time integer `m` is CuTe's `make_layout(m)`, `m:_1` (the compact
/// stride starts at a static 1, whatever the value).
impl TileArg for crate::int_tuple::Dyn {
    type Tile = Layout<crate::int_tuple::Dyn, U1>;
}

/// The stride of the tile of a static integer `n`: CuTe turns an integer
/// tile into `make_layout(n)`, whose stride is the compact one
/// (`compact_major` in CUTLASS's `include/cute/stride.hpp`), `_1`, and `_0`
/// for a static 1 (a size-1 mode moves no offset, so it is the same
/// function either way, and this is the text CuTe prints). Read off the
/// numeral: `UInt<UTerm, B1>` is 1, a longer numeral is at least 2.
pub trait IntTileStride {
    /// `U1`, or `U0` for `U1`.
    type Stride;
}
impl IntTileStride for U1 {
    type Stride = U0;
}
impl<U, B2, B> IntTileStride for UInt<UInt<U, B2>, B> {
    type Stride = U1;
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

/// A tiler applied mode by mode (CuTe's by-mode `transform` over a
/// tiler): the operation `F` of each tile `T0, T1, ...` (the list `Self`) on
/// modes `0, 1, ...` of the layout (the list `AModes`), then what `F` keeps
/// of the modes past the tiler. The one by-mode zip of composition, the
/// divides and the products (`coalesce_by`'s profile has its own, for its
/// own rank message).
pub trait ByMode<F, AModes> {
    /// The list of result modes.
    type Output;
}
impl<F: ModeOp, AL> ByMode<F, AL> for HNil {
    type Output = <F as ModeOp>::Past<AL>;
}
impl<F, T0: TileOp<F, A0>, TR: ByMode<F, AR>, A0, AR> ByMode<F, HCons<A0, AR>> for HCons<T0, TR> {
    type Output = HCons<<T0 as TileOp<F, A0>>::Output, <TR as ByMode<F, AR>>::Output>;
}
// More tiles than modes: no result, and the operation's rank condition
// (a trait no list implements) says why.
macro_rules! rank_mismatch {
    ($Check:ident; $($F:ty $(, $g:ident)?);+) => {$(
        impl<$($g,)? T0, TR> ByMode<$F, HNil> for HCons<T0, TR>
        where
            Self: $Check,
        {
            type Output = <Self as $Check>::Never;
        }
    )+};
}
rank_mismatch!(TilerRankFits; ComposeEach; super::LogicalEach<Op>, Op; super::FirstHalf<Op>, Op; super::SecondHalf<Op>, Op);
/// The by-mode operation of `coalesce_by` ([`ByMode`]): each profiled mode
/// coalesced by its profile; modes past the profile are kept (its
/// impls are in `coalesce.rs`).
pub struct CoalesceEach;
rank_mismatch!(ProfileRankFits; CoalesceEach);

/// The rank condition of by-mode operations: a tiler may not have more
/// modes than the layout it applies to (no list of tiles implements it:
/// it is required exactly when tiles are left over).
#[diagnostic::on_unimplemented(
    message = "the tiler has more modes than the layout (rank mismatch)",
    label = "a tiler's rank must not exceed the rank of the layout it tiles",
    note = "a tiler <T0, T1, ...> applies T0 to mode 0 of the layout, T1 to mode 1, ...; a scalar layout takes a tiler of one mode"
)]
pub trait TilerRankFits {
    /// No type: the zip of a tiler longer than the layout has no result,
    /// so nothing after this error is checked against one.
    type Never;
}

/// The rank condition of `coalesce_by`: the profile may not have more
/// modes than the layout.
#[diagnostic::on_unimplemented(
    message = "the profile has more modes than the layout (rank mismatch)",
    label = "a coalesce profile's rank must not exceed the rank of the layout"
)]
pub trait ProfileRankFits {
    /// No type (see [`TilerRankFits`]).
    type Never;
}

/// A per-mode operation of [`ByMode`]: what it keeps of the modes past the
/// tiler.
pub trait ModeOp {
    /// The modes kept after the tiled ones, of the untouched modes `AL`.
    type Past<AL>;
}
/// The operation `F` of the tile `Self` on the layout mode `A`.
pub trait TileOp<F, A> {
    /// The result mode.
    type Output;
}

/// [`ByMode`] operation: composition with each tile; the untouched modes
/// are not part of the result (the tiler was padded to the layout's rank).
pub struct ComposeEach;
impl ModeOp for ComposeEach {
    type Past<AL> = HNil;
}
impl<T: TileCompose<A>, A> TileOp<ComposeEach, A> for T {
    type Output = <T as TileCompose<A>>::Output;
}

/// Composition of the layout `A` with the canonical tile `Self`. (The tile
/// is the `Self` type so that the solver never explores tiles it does not
/// know yet.)
pub trait TileCompose<A> {
    /// The result layout.
    type Output;
}
impl<A: AllStatic, BS, BD> TileCompose<A> for Layout<BS, BD>
where
    Self: AllStatic,
    Self: TileComposeBy<A, BothStatic<A, Self>>,
{
    type Output = <Self as TileComposeBy<A, BothStatic<A, Self>>>::Output;
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
    A: ComposeLayouts<Layout<BS, BD>>,
{
    type Output = <A as ComposeLayouts<Layout<BS, BD>>>::Output;
}
impl<A, L> TileCompose<A> for TList<L>
where
    A: ModesOf,
    L: ByMode<ComposeEach, <A as ModesOf>::Output>,
    <L as ByMode<ComposeEach, <A as ModesOf>::Output>>::Output: MakeLayout,
{
    type Output = <<L as ByMode<ComposeEach, <A as ModesOf>::Output>>::Output as MakeLayout>::Output;
}
