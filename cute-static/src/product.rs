//! The product family (paper 3.5.1): `logical_product`, `zipped_product`,
//! `tiled_product`, `flat_product`, `blocked_product`, `raked_product`, and
//! with run-time leaves their checked run-time path (`mixed.rs`). The
//! solver is in `detail/divide.rs` and `detail/product.rs`.

#[cfg(feature = "std")]
mod mixed;
#[cfg(feature = "std")]
pub use mixed::*;

use crate::detail::{Flat, ProductOp, ProductValueBy, RankProductOnto, Tiled, Zipped, by_mode_op, product_fn};

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
    A: crate::int_tuple::AllStatic,
    B: crate::int_tuple::AllStatic,
    O: ProductValueBy<A, B, crate::int_tuple::BothStatic<A, B>>,
{
    #[inline(always)]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        <O as ProductValueBy<A, B, crate::int_tuple::BothStatic<A, B>>>::make(a, b)
    }
}
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

/// Marker: blocked order (`(A_k, grid_k)` per mode).
pub struct Blocked;
/// Marker: raked order (`(grid_k, A_k)` per mode).
pub struct Raked;

/// `blocked_product(Self, B)` (see `detail::RankProduct`).
pub trait BlockedProduct<B> {
    /// The result layout.
    type Output;
}
impl<A, B: RankProductOnto<Blocked, A>> BlockedProduct<B> for A {
    type Output = <B as RankProductOnto<Blocked, A>>::Output;
}
/// `raked_product(Self, B)` (see `detail::RankProduct`).
pub trait RakedProduct<B> {
    /// The result layout.
    type Output;
}
impl<A, B: RankProductOnto<Raked, A>> RakedProduct<B> for A {
    type Output = <B as RankProductOnto<Raked, A>>::Output;
}

/// `blocked_product(a, b)`: each mode of `a` is repeated by the same mode
/// of `b`, `a` innermost (see `detail::RankProduct`).
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
/// `detail::RankProduct`).
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
crate::detail::free_fn!(
    /// `blocked_product(a, b)` (see `detail::RankProduct`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = blocked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(p.to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
    /// ```
    blocked_product, BlockedProduct
);
#[cfg(not(feature = "std"))]
crate::detail::free_fn!(
    /// `raked_product(a, b)` (see `detail::RankProduct`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = raked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(p.to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
    /// ```
    raked_product, RakedProduct
);
