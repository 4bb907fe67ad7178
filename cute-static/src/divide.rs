//! The divide family (paper 3.5.2): `logical_divide`, `zipped_divide`,
//! `tiled_divide`, `flat_divide`, and with run-time leaves their checked
//! run-time path (`mixed.rs`). The solver is in `detail/divide.rs`.

#[cfg(feature = "std")]
mod mixed;
#[cfg(feature = "std")]
pub use mixed::*;

use crate::detail::{DivideOp, DivideValueBy, Flat, Tiled, Zipped, by_mode_op};

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

/// The value of a divide of `A` by `B` arranged as `How`: zero-sized when
/// both are all-static, computed (and checked) otherwise.
#[doc(hidden)]
pub trait DivideValue<How, A, B> {
    /// The divide.
    fn make(a: A, b: B) -> Self;
}
impl<O, How, A, B> DivideValue<How, A, B> for O
where
    A: crate::int_tuple::AllStatic,
    B: crate::int_tuple::AllStatic,
    O: DivideValueBy<How, A, B, crate::int_tuple::BothStatic<A, B>>,
{
    #[inline(always)]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        <O as DivideValueBy<How, A, B, crate::int_tuple::BothStatic<A, B>>>::make(a, b)
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
#[cfg(not(feature = "std"))]
crate::detail::free_fn!(
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
crate::detail::free_fn!(
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
crate::detail::free_fn!(
    /// `tiled_divide(a, b)` (see [`TiledDivide`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let d = tiled_divide(layout!((8,8):(1,8)), shape!(2, 4));
    /// assert_eq!(d.to_string(), "((_2,_4),_4,_2):((_1,_8),_2,_32)");
    /// ```
    tiled_divide, TiledDivide
);
crate::detail::free_fn!(
    /// `flat_divide(a, b)` (see [`FlatDivide`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let d = flat_divide(layout!((8,8):(1,8)), shape!(2, 4));
    /// assert_eq!(d.to_string(), "(_2,_4,_4,_2):(_1,_8,_2,_32)");
    /// ```
    flat_divide, FlatDivide
);
