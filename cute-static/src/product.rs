//! The product family (paper 3.5.1): `logical_product`, `zipped_product`,
//! `tiled_product`, `flat_product`, `blocked_product`, `raked_product`, and
//! with run-time leaves their checked run-time path (`mixed.rs`). The
//! solver is in `detail/divide.rs` and `detail/product.rs`.

#[cfg(feature = "std")]
mod mixed;
#[cfg(feature = "std")]
pub use mixed::*;

pub use crate::detail::{Blocked, Raked};
use crate::detail::{Flat, ProductOp, ProductValueBy, RankProductOnto, Tiled, Zipped, by_mode_op};

// The four products of one family: the same leaves in different groupings,
// so one value trait serves them.
macro_rules! product_fn {
    ($(#[$doc:meta])* $name:ident, $Trait:ident, $Value:ident) => {
        $(#[$doc])*
        ///
        /// With a run-time ([`Dyn`](crate::Dyn)) leaf in the layout `b` (and
        /// an all-static `a`): `A* ∘ B` computed and checked when it runs
        /// (CuTe's padded form; see [`try_logical_product`](crate::try_logical_product)),
        /// a panic with cute-dynamic's error message when a condition fails.
        /// By a tiler `<B0, B1, ...>` (`tile!`, a tuple) with run-time tiles
        /// or an `a` with run-time leaves: mode `k` of `a` producted with
        /// `Bk` (each mode as above, from the static algebra where the mode
        /// and the tile are all-static), the modes past the tiler untouched,
        /// arranged as for a static tiler.
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[track_caller]
        pub fn $name<A, B>(a: A, b: B) -> A::Output
        where
            A: $Trait<B>,
            A::Output: crate::$Value<A, B>,
        {
            <A::Output as crate::$Value<A, B>>::make(a, b)
        }
    };
}

by_mode_op!(
    /// `logical_product(Self, B)` (paper 3.5.1): `(A, A* ∘ B)` with
    /// `A* = complement(A, |A|·cosize(B))`, by mode for a tiler.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn repeat<A: LogicalProduct<B>, B>(a: A, b: B) -> A::Output
    /// where
    ///     A::Output: LogicalProductValue<A, B>,
    /// {
    ///     logical_product(a, b)
    /// }
    /// // A* = complement(2:5, 6) = 5:1: the three copies of 2:5 fill its holes.
    /// assert_eq!(repeat(layout!(2:5), layout!(3:1)).to_string(), "(_2,_3):(_5,_1)");
    /// let a = layout!((2,2):(1,2));
    /// assert_eq!(repeat(a, layout!((3,2):(1,3))).to_string(), "((_2,_2),(_3,_2)):((_1,_2),(_4,_12))");
    /// ```
    LogicalProduct, ProductOp, logical
);
by_mode_op!(
    /// `zipped_product(Self, B)`: `((tiles...), (repetitions..., untouched...))`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn repeat<A: ZippedProduct<B>, B>(a: A, b: B) -> A::Output
    /// where
    ///     A::Output: ZippedProductValue<A, B>,
    /// {
    ///     zipped_product(a, b)
    /// }
    /// // By a tiler each mode is its own product; mode 2 is past the tiler, kept.
    /// let a = layout!((2,2,3):(1,2,4));
    /// assert_eq!(repeat(a, tile!(3:1, 2:1)).to_string(), "((_2,_2),(_3,_2,_3)):((_1,_2),(_2,_1,_4))");
    /// ```
    ZippedProduct, ProductOp, Zipped
);
by_mode_op!(
    /// `tiled_product(Self, B)`: `((tiles...), repetitions..., untouched...)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn repeat<A: TiledProduct<B>, B>(a: A, b: B) -> A::Output
    /// where
    ///     A::Output: TiledProductValue<A, B>,
    /// {
    ///     tiled_product(a, b)
    /// }
    /// let a = layout!((2,2,3):(1,2,4));
    /// assert_eq!(repeat(a, tile!(3:1, 2:1)).to_string(), "((_2,_2),_3,_2,_3):((_1,_2),_2,_1,_4)");
    /// ```
    TiledProduct, ProductOp, Tiled
);
by_mode_op!(
    /// `flat_product(Self, B)`: `(tiles..., repetitions..., untouched...)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn repeat<A: FlatProduct<B>, B>(a: A, b: B) -> A::Output
    /// where
    ///     A::Output: FlatProductValue<A, B>,
    /// {
    ///     flat_product(a, b)
    /// }
    /// let a = layout!((2,2,3):(1,2,4));
    /// assert_eq!(repeat(a, tile!(3:1, 2:1)).to_string(), "(_2,_2,_3,_2,_3):(_1,_2,_2,_1,_4)");
    /// ```
    FlatProduct, ProductOp, Flat
);

/// The value of a product of `A` by `B` (a layout or a tiler) arranged as
/// `How` (`Logical`, `Zipped`, `Tiled`, `Flat`): zero-sized when both are
/// all-static, computed (and checked) when one has a run-time leaf (see
/// `product.rs`). Public as one name per product
/// ([`LogicalProductValue`](crate::LogicalProductValue), ...). The four
/// arrangements hold the same leaves; by a layout in the same order, by a
/// tiler the logical one keeps each mode's tile and repetition together,
/// the others put all tiles first, so the value depends on `How`.
#[doc(hidden)]
pub trait ProductValue<How, A, B>: Sized {
    /// The product.
    fn make(a: A, b: B) -> Self;
    /// The product, or the error cute-dynamic gives: what the `try_`
    /// form of the product returns ([`try_logical_product`],
    /// [`try_zipped_product`], [`try_tiled_product`], [`try_flat_product`];
    /// their post-conditions), `Ok` for all-static arguments.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn grid<A: TiledProduct<B>, B>(a: A, b: B) -> Result<A::Output, cute_dynamic::LayoutError>
    /// where
    ///     A::Output: TiledProductValue<A, B>,
    /// {
    ///     try_tiled_product(a, b) // = <A::Output as TiledProductValue<A, B>>::try_make(a, b)
    /// }
    /// assert_eq!(
    ///     grid(layout!((2,2):(1,2)), layout!((3,4):(1,3))).unwrap().to_string(),
    ///     "((_2,_2),_3,_4):((_1,_2),_4,_12)"
    /// );
    /// assert!(grid(layout!((2,2):(1,4)), layout!({3i64}:1)).is_err());
    /// assert_eq!(
    ///     grid(layout!((2,2):(1,2)), tile!({3i64}:1, 2:1)).unwrap().to_string(),
    ///     "((_2,_2),3,_2):((_1,_2),_2,_1)"
    /// );
    /// ```
    #[cfg(feature = "std")]
    fn try_make(a: A, b: B) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O, How, A, B> ProductValue<How, A, B> for O
where
    A: crate::int_tuple::AllStatic,
    B: crate::int_tuple::AllStatic,
    O: ProductValueBy<How, A, B, crate::int_tuple::BothStatic<A, B>>,
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        <O as ProductValueBy<How, A, B, crate::int_tuple::BothStatic<A, B>>>::make(a, b)
    }
    #[cfg(feature = "std")]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(a: A, b: B) -> Result<O, cute_dynamic::LayoutError> {
        <O as ProductValueBy<How, A, B, crate::int_tuple::BothStatic<A, B>>>::try_make(a, b)
    }
}
product_fn!(
    /// `logical_product(a, b)` (see [`LogicalProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = logical_product(layout!((3,4):(4,1)), layout!((2,5):(1,2)));
    /// assert_eq!(p.to_string(), "((_3,_4),(_2,_5)):((_4,_1),(_12,_24))");
    /// // By a tiler with a run-time tile: (A_0, A_0* ∘ B_0), (A_1, A_1* ∘ B_1).
    /// let m = 4i64;
    /// let p = logical_product(layout!((2,2):(1,2)), tile!({m}:1, 2:1));
    /// assert_eq!(p.to_string(), "((_2,4),(_2,_2)):((_1,_2),(_2,_1))");
    /// ```
    logical_product, LogicalProduct, LogicalProductValue
);
product_fn!(
    /// `zipped_product(a, b)` (see [`ZippedProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = zipped_product(layout!((2,2):(1,2)), tile!(3:1, 2:1));
    /// assert_eq!(p.to_string(), "((_2,_2),(_3,_2)):((_1,_2),(_2,_1))");
    /// let m = 4i64;
    /// let p = zipped_product(layout!((2,2):(1,2)), tile!({m}:1, 2:1));
    /// assert_eq!(p.to_string(), "((_2,_2),(4,_2)):((_1,_2),(_2,_1))");
    /// ```
    zipped_product, ZippedProduct, ZippedProductValue
);
product_fn!(
    /// `tiled_product(a, b)` (see [`TiledProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = tiled_product(layout!((2,2):(1,2)), tile!(3:1, 2:1));
    /// assert_eq!(p.to_string(), "((_2,_2),_3,_2):((_1,_2),_2,_1)");
    /// let m = 4i64;
    /// let p = tiled_product(layout!((2,2):(1,2)), tile!({m}:1, 2:1));
    /// assert_eq!(p.to_string(), "((_2,_2),4,_2):((_1,_2),_2,_1)");
    /// ```
    tiled_product, TiledProduct, TiledProductValue
);
product_fn!(
    /// `flat_product(a, b)` (see [`FlatProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = flat_product(layout!((2,2):(1,2)), tile!(3:1, 2:1));
    /// assert_eq!(p.to_string(), "(_2,_2,_3,_2):(_1,_2,_2,_1)");
    /// let m = 4i64;
    /// let p = flat_product(layout!((2,2):(1,2)), tile!({m}:1, 2:1));
    /// assert_eq!(p.to_string(), "(_2,_2,4,_2):(_1,_2,_2,_1)");
    /// ```
    flat_product, FlatProduct, FlatProductValue
);

/// `blocked_product(Self, B)` (see [`blocked_product`]): the ranks padded
/// with `1:0`, mode `i` is `(A_i, (A* ∘ B)_i)` with `A* ∘ B` the grid of
/// [`logical_product`](crate::logical_product), so each copy of `A` is a
/// block of neighbouring coordinates. Generic code bounds the value by
/// [`BlockedProductValue`](crate::BlockedProductValue):
///
/// ```
/// use cute_static::prelude::*;
/// fn blocks<A: BlockedProduct<B>, B>(a: A, b: B) -> A::Output
/// where
///     A::Output: BlockedProductValue<A, B>,
/// {
///     blocked_product(a, b)
/// }
/// let p = blocks(layout!((2,2):(1,2)), layout!((2,3):(1,2)));
/// assert_eq!(p.to_string(), "((_2,_2),(_2,_3)):((_1,_4),(_2,_8))");
/// // (i, j) holds A(i % 2, j % 2) + 4·B(i / 2, j / 2): here A(1, 0) in block (0, 0).
/// assert_eq!(p.index((1usize, 0usize)), 1);
/// ```
pub trait BlockedProduct<B> {
    /// The result layout.
    type Output;
}
impl<A, B: RankProductOnto<Blocked, A>> BlockedProduct<B> for A {
    type Output = <B as RankProductOnto<Blocked, A>>::Output;
}
/// `raked_product(Self, B)` (see [`raked_product`]): mode `i` is
/// `((A* ∘ B)_i, A_i)`, the copies of `A` interleaved (as
/// [`BlockedProduct`] with the two swapped). Generic code bounds the
/// value by [`RakedProductValue`](crate::RakedProductValue):
///
/// ```
/// use cute_static::prelude::*;
/// fn rake<A: RakedProduct<B>, B>(a: A, b: B) -> A::Output
/// where
///     A::Output: RakedProductValue<A, B>,
/// {
///     raked_product(a, b)
/// }
/// let p = rake(layout!((2,2):(1,2)), layout!((2,3):(1,2)));
/// assert_eq!(p.to_string(), "((_2,_2),(_3,_2)):((_4,_1),(_8,_2))");
/// // (i, j) holds A(i / 2, j / 3) + 4·B(i % 2, j % 3): here A(0, 0) in copy (1, 0).
/// assert_eq!(p.index((1usize, 0usize)), 4);
/// ```
pub trait RakedProduct<B> {
    /// The result layout.
    type Output;
}
impl<A, B: RankProductOnto<Raked, A>> RakedProduct<B> for A {
    type Output = <B as RankProductOnto<Raked, A>>::Output;
}

/// `blocked_product(a, b)`: each mode of `a` is repeated by the same mode
/// of `b`, `a` innermost (see [`BlockedProduct`]).
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
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn blocked_product<A, B>(a: A, b: B) -> A::Output
where
    A: BlockedProduct<B>,
    A::Output: crate::BlockedProductValue<A, B>,
{
    <A::Output as crate::BlockedProductValue<A, B>>::make(a, b)
}
/// `raked_product(a, b)`: as `blocked_product` with `b` innermost (see
/// [`RakedProduct`]).
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
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn raked_product<A, B>(a: A, b: B) -> A::Output
where
    A: RakedProduct<B>,
    A::Output: crate::RakedProductValue<A, B>,
{
    <A::Output as crate::RakedProductValue<A, B>>::make(a, b)
}
#[cfg(not(feature = "std"))]
crate::detail::free_fn!(
    /// `blocked_product(a, b)` (see [`BlockedProduct`]).
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
    /// `raked_product(a, b)` (see [`RakedProduct`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let p = raked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(p.to_string(), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
    /// ```
    raked_product, RakedProduct
);

#[cfg(feature = "std")]
pub use run_time::{
    try_blocked_product, try_flat_product, try_logical_product, try_raked_product, try_tiled_product,
    try_zipped_product,
};

#[cfg(feature = "std")]
mod run_time {
    use super::*;
    use cute_dynamic::LayoutError;

    crate::detail::try_fn!(
        /// `logical_product(a, b)` (see [`logical_product`]), returning the
        /// failed run-time condition as an error instead of panicking.
        ///
        /// Takes the same arguments as `logical_product` (by value: layouts are
        /// `Copy`) and returns the same type.
        ///
        /// Post-conditions, on `Ok(r)`: `r` is `(A, A* ∘ B)` with `A* =
        /// complement(A, size(A)·cosize(B))` (by mode for a tiler), CuTe's
        /// padded form where a step depends on a run-time value;
        /// `r.to_dynamic()` is the same function as cute-dynamic's
        /// `logical_product` of the same values. `Err(e)`: `e` is the error
        /// cute-dynamic's `logical_product` gives (the replicas of `A` do not
        /// fit its holes, a divisibility condition of `A* ∘ B`, overflow).
        /// All-static arguments: always `Ok`.
        ///
        /// By a tiler `<B0, ..., Bk>` (`tile!` or a tuple; tiles layouts,
        /// integers or nested tilers, static or with run-time leaves), on
        /// `Ok(r)`: mode `i ≤ k` of `r` is `logical_product(A_i, B_i)` (the
        /// post-conditions above, by mode), the modes of `A` past `k`
        /// follow unchanged; `r.to_dynamic()` is the same function as
        /// cute-dynamic's `logical_product(A, tiler)`, in the same modes.
        /// `Err(e)`: the error of the first mode whose product fails, as
        /// cute-dynamic gives it.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let (m, n) = (3i64, 4i64);
        /// let r = try_logical_product(layout!((2,2):(1,2)), layout!(({m},{n}):(1,{m}))).unwrap();
        /// assert_eq!(r.to_string(), "((_2,_2),(3,4)):((_1,_2),(_4,12))");
        /// let t = tile!({n}:1, 2:1);
        /// let r = try_logical_product(layout!((2,2,5):(1,2,4)), t).unwrap();
        /// assert_eq!(r.to_string(), "((_2,4),(_2,_2),_5):((_1,_2),(_2,_1),_4)");
        /// // Mode 0, (2,2):(1,4), has A_0* = (2,2):(2,8): 3 elements do not
        /// // split across its first mode of 2.
        /// assert!(try_logical_product(layout!(((2,2),2):((1,4),8)), tile!({m}:1, 2:1)).is_err());
        /// // A* = (2,2):(2,8) and B = 3:1: 3 elements do not split across
        /// // A*'s first mode of 2 (shape divisibility), found when the
        /// // run-time extent 3 is known.
        /// assert!(try_logical_product(layout!((2,2):(1,4)), layout!({3i64}:1)).is_err());
        /// ```
        try_logical_product,
        LogicalProduct,
        crate::LogicalProductValue<A, B>
    );

    crate::detail::try_fn!(
        /// `zipped_product(a, b)` (see [`zipped_product`]), as
        /// [`try_logical_product`]: the same arguments and result type as
        /// `zipped_product`, the same run-time checks as the logical form
        /// (cute-dynamic's error where one fails), always `Ok` for all-static
        /// arguments.
        ///
        /// Post-conditions, on `Ok(r)`: `r` is `((tiles...), (repetitions...,
        /// untouched...))`, the modes of [`try_logical_product`]'s result
        /// (by a tiler: its mode `i`, `(A_i, R_i)`, gives the tile `A_i` and
        /// the repetition `R_i`); `r.to_dynamic()` is the same function as
        /// cute-dynamic's `zipped_product`, in the same modes. `Err(e)`: the
        /// error [`try_logical_product`] gives.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let r = try_zipped_product(layout!((2,2):(1,2)), layout!(({3i64},4):(1,3))).unwrap();
        /// assert_eq!(r.to_string(), "((_2,_2),(3,_4)):((_1,_2),(_4,_12))");
        /// assert!(try_zipped_product(layout!((2,2):(1,4)), layout!({3i64}:1)).is_err());
        /// let r = try_zipped_product(layout!((2,2,5):(1,2,4)), tile!({4i64}:1, 2:1)).unwrap();
        /// assert_eq!(r.to_string(), "((_2,_2),(4,_2,_5)):((_1,_2),(_2,_1,_4))");
        /// assert!(try_zipped_product(layout!(((2,2),2):((1,4),8)), tile!({3i64}:1, 2:1)).is_err());
        /// ```
        try_zipped_product,
        ZippedProduct,
        crate::ZippedProductValue<A, B>
    );

    crate::detail::try_fn!(
        /// `tiled_product(a, b)` (see [`tiled_product`]), as
        /// [`try_zipped_product`].
        ///
        /// Post-conditions, on `Ok(r)`: `r` is `((tiles...), repetitions...,
        /// untouched...)`, the modes of [`try_zipped_product`]'s result with
        /// its second mode spliced in (by a layout or a tiler);
        /// `r.to_dynamic()` is the same function as cute-dynamic's
        /// `tiled_product`, in the same modes. `Err(e)`: the error
        /// [`try_logical_product`] gives.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let r = try_tiled_product(layout!((2,2):(1,2)), layout!(({3i64},4):(1,3))).unwrap();
        /// assert_eq!(r.to_string(), "((_2,_2),3,_4):((_1,_2),_4,_12)");
        /// assert!(try_tiled_product(layout!((2,2):(1,4)), layout!({3i64}:1)).is_err());
        /// let s = try_tiled_product(layout!((2,2):(1,2)), tile!(3:1, 2:1)).unwrap();
        /// assert_eq!(s, tiled_product(layout!((2,2):(1,2)), tile!(3:1, 2:1)));
        /// let r = try_tiled_product(layout!((2,2):(1,2)), tile!({4i64}:1, 2:1)).unwrap();
        /// assert_eq!(r.to_string(), "((_2,_2),4,_2):((_1,_2),_2,_1)");
        /// ```
        try_tiled_product,
        TiledProduct,
        crate::TiledProductValue<A, B>
    );

    crate::detail::try_fn!(
        /// `flat_product(a, b)` (see [`flat_product`]), as
        /// [`try_zipped_product`].
        ///
        /// Post-conditions, on `Ok(r)`: `r` is `(tiles..., repetitions...,
        /// untouched...)`, the modes of [`try_zipped_product`]'s result with
        /// both modes spliced in (by a layout or a tiler); `r.to_dynamic()`
        /// is the same function as cute-dynamic's `flat_product`, in the
        /// same modes. `Err(e)`: the error [`try_logical_product`] gives.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let r = try_flat_product(layout!((2,2):(1,2)), layout!(({3i64},4):(1,3))).unwrap();
        /// assert_eq!(r.to_string(), "(_2,_2,3,_4):(_1,_2,_4,_12)");
        /// assert!(try_flat_product(layout!((2,2):(1,4)), layout!({3i64}:1)).is_err());
        /// let r = try_flat_product(layout!((2,2):(1,2)), tile!({4i64}:1, 2:1)).unwrap();
        /// assert_eq!(r.to_string(), "(_2,_2,4,_2):(_1,_2,_2,_1)");
        /// ```
        try_flat_product,
        FlatProduct,
        crate::FlatProductValue<A, B>
    );

    crate::detail::try_fn!(
        /// `blocked_product(a, b)` (see [`blocked_product`]), returning the
        /// failed run-time condition as an error instead of panicking; the same
        /// arguments (by value) and result type.
        ///
        /// Post-conditions, on `Ok(r)` (as cute-dynamic's `blocked_product`):
        /// mode `k` of `r` is `(A_k, G_k)`, `G = A* ∘ B` of the ranks padded
        /// with `1:0` (CuTe's padded form where a step depends on a run-time
        /// value); `r.to_dynamic()` is the same function as cute-dynamic's.
        /// `Err(e)`: `e` is the error cute-dynamic's `blocked_product` gives.
        /// All-static arguments: always `Ok`.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let p = try_blocked_product(layout!((2,5):(5,1)), layout!(({3i64},4):(1,3))).unwrap();
        /// assert_eq!(p.to_string(), "((_2,3),(_5,_4)):((_5,_10),(_1,_30))");
        /// assert!(try_blocked_product(layout!({4i64}:2), layout!(3:1)).is_err());
        /// ```
        try_blocked_product,
        BlockedProduct,
        crate::BlockedProductValue<A, B>
    );

    crate::detail::try_fn!(
        /// `raked_product(a, b)` (see [`raked_product`]), as
        /// [`try_blocked_product`] with mode `k` = `(G_k, A_k)`.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let p = try_raked_product(layout!((2,5):(5,1)), layout!(({3i64},4):(1,3))).unwrap();
        /// assert_eq!(p.to_string(), "((3,_2),(_4,_5)):((_10,_5),(_30,_1))");
        /// assert!(try_raked_product(layout!((4):(2)), layout!({3i64}:1)).is_err());
        /// ```
        try_raked_product,
        RakedProduct,
        crate::RakedProductValue<A, B>
    );
}
