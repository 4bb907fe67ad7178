//! Tilers: a layout, a shape or a `Tiler` as the `B` of composition, and
//! the by-mode composition of a tiler.

use super::*;
use crate::layout::Layout;
use crate::list::{HCons, HNil, MakeLayout, ModesOf};
use typenum::{B1, Bit, U1, UInt, Unsigned};

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
