//! The solver's helper traits: the layout algebra in trait resolution.
//!
//! Every operation runs on flat mode lists (`MCons`/`MNil`) with typenum
//! arithmetic; each branch of an algorithm is a small trait keyed on a
//! typenum `Bit`, so the solver only ever follows one branch. Conditions
//! that make an operation inadmissible are traits with no implementation for
//! the failing branch, annotated with `#[diagnostic::on_unimplemented]`, so
//! the compile error states the condition in words. The operations users
//! call are in the concept files (`composition.rs`, `complement.rs`,
//! `divide.rs`, `product.rs`) and re-exported at the crate root.

pub mod coalesce;
pub mod compact_order;
pub mod complement;
pub mod composition;
pub mod const_eval;
pub mod divide;
pub mod filter;
pub mod inverse;
pub mod list;
pub mod product;
pub mod sort;
pub mod tiler;

pub use coalesce::*;
pub use complement::*;
pub use composition::*;
pub use divide::*;
pub use filter::*;
pub use inverse::*;
pub use list::*;
pub use product::*;
pub use sort::*;
pub use tiler::*;

macro_rules! by_mode_op {
    ($(#[$doc:meta])* $Trait:ident, $Op:ty, logical) => {
        $(#[$doc])*
        ///
        #[doc = concat!("Generic code bounds the value by [`", stringify!($Trait), "Value`](crate::", stringify!($Trait), "Value).")]
        pub trait $Trait<B> {
            /// The result layout.
            type Output;
        }
        impl<AS, AD, B: crate::detail::TileArg> $Trait<B> for crate::layout::Layout<AS, AD>
        where
            <B as crate::detail::TileArg>::Tile: crate::detail::TileLogical<$Op, Self>,
        {
            type Output = <<B as crate::detail::TileArg>::Tile as crate::detail::TileLogical<$Op, Self>>::Output;
        }
    };
    ($(#[$doc:meta])* $Trait:ident, $Op:ty, $How:ty) => {
        $(#[$doc])*
        ///
        #[doc = concat!("Generic code bounds the value by [`", stringify!($Trait), "Value`](crate::", stringify!($Trait), "Value).")]
        pub trait $Trait<B> {
            /// The result layout.
            type Output;
        }
        impl<AS, AD, B: crate::detail::TileArg> $Trait<B> for crate::layout::Layout<AS, AD>
        where
            <B as crate::detail::TileArg>::Tile: crate::detail::TileArranged<$Op, $How, Self>,
        {
            type Output = <<B as crate::detail::TileArg>::Tile as crate::detail::TileArranged<$Op, $How, Self>>::Output;
        }
    };
}

// The all-static form of an operation, for `no_std` builds (with `std`
// every operation has a run-time path through its value trait).
#[cfg(not(feature = "std"))]
macro_rules! free_fn {
    ($(#[$doc:meta])* $name:ident, $Trait:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<A, B>(a: A, b: B) -> <A as $Trait<B>>::Output
        where
            A: $Trait<B>,
            <A as $Trait<B>>::Output: crate::StaticLayout,
        {
            let _ = (a, b);
            <<A as $Trait<B>>::Output as Default>::default()
        }
    };
}
/// A `try_` form of a binary operation: `try_name(a, b)` is
/// `<A as Trait<B>>::Output`'s `Value::try_make(a, b)` (the value trait
/// with the run-time checks; `Value` written with its parameters, ending in
/// `A, B`).
#[cfg(feature = "std")]
macro_rules! try_fn {
    ($(#[$doc:meta])* $name:ident, $Trait:ident, $($Value:tt)+) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<A, B>(a: A, b: B) -> Result<<A as $Trait<B>>::Output, LayoutError>
        where
            A: $Trait<B>,
            <A as $Trait<B>>::Output: $($Value)+,
        {
            <<A as $Trait<B>>::Output as $($Value)+>::try_make(a, b)
        }
    };
}
pub(crate) use by_mode_op;
#[cfg(not(feature = "std"))]
pub(crate) use free_fn;
#[cfg(feature = "std")]
pub(crate) use try_fn;

/// The branch of the atom partitions for an integer [`Layout`](crate::Layout).
pub struct Ints;

/// The branch of the partition traits for a
/// [`CoordLayout`](crate::CoordLayout): each component partitioned alike.
pub struct ByComponent;

/// Which algebra a tensor's layout takes: [`Ints`] for a
/// [`Layout`](crate::Layout), [`ByComponent`] for a
/// [`CoordLayout`](crate::CoordLayout) (the branch that the tiled MMA's and
/// tiled copy's partitions take).
pub trait LayoutKind {
    /// [`Ints`] or [`ByComponent`].
    type Kind;
}
impl<S, D> LayoutKind for crate::layout::Layout<S, D> {
    type Kind = Ints;
}
