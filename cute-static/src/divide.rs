//! The divide family (paper 3.5.2): `logical_divide`, `zipped_divide`,
//! `tiled_divide`, `flat_divide`, and with run-time leaves their checked
//! run-time path (`mixed.rs`). The solver is in `detail/divide.rs`.

#[cfg(feature = "std")]
mod mixed;
#[cfg(feature = "std")]
pub use mixed::*;

#[cfg(feature = "std")]
use crate::detail::DivideValueBy;
use crate::detail::{DivideOp, Flat, Tiled, Zipped, by_mode_op};

by_mode_op!(
    /// `logical_divide(Self, B)` (paper 3.5.2): `(A ∘ B, A ∘ B*)` with
    /// `B* = complement(B, |A|)`, by mode for a tiler (untouched modes kept).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn divide<A: LogicalDivide<B>, B>(a: A, b: B) -> A::Output
    /// where
    ///     A::Output: LogicalDivideValue<A, B>,
    /// {
    ///     logical_divide(a, b)
    /// }
    /// // The tile (2,2):(1,6) and its complement in 24, (3,2):(2,12).
    /// assert_eq!(divide(layout!(24:1), layout!((2,2):(1,6))).to_string(), "((_2,_2),(_3,_2)):((_1,_6),(_2,_12))");
    /// let a = layout!((8,6,2):(1,8,48));
    /// assert_eq!(divide(a, shape!(4, 2)).to_string(), "((_4,_2),(_2,_3),_2):((_1,_4),(_8,_16),_48)");
    /// ```
    LogicalDivide, DivideOp, logical
);
by_mode_op!(
    /// `zipped_divide(Self, B)`: `((tiles...), (rests..., untouched...))`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn divide<A: ZippedDivide<B>, B>(a: A, b: B) -> A::Output
    /// where
    ///     A::Output: ZippedDivideValue<A, B>,
    /// {
    ///     zipped_divide(a, b)
    /// }
    /// let a = layout!((8,6,2):(1,8,48));
    /// assert_eq!(divide(a, shape!(4, 2)).to_string(), "((_4,_2),(_2,_3,_2)):((_1,_8),(_4,_16,_48))");
    /// ```
    ZippedDivide, DivideOp, Zipped
);
by_mode_op!(
    /// `tiled_divide(Self, B)`: `((tiles...), rests..., untouched...)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn divide<A: TiledDivide<B>, B>(a: A, b: B) -> A::Output
    /// where
    ///     A::Output: TiledDivideValue<A, B>,
    /// {
    ///     tiled_divide(a, b)
    /// }
    /// let a = layout!((8,6,2):(1,8,48));
    /// assert_eq!(divide(a, shape!(4, 2)).to_string(), "((_4,_2),_2,_3,_2):((_1,_8),_4,_16,_48)");
    /// ```
    TiledDivide, DivideOp, Tiled
);
by_mode_op!(
    /// `flat_divide(Self, B)`: `(tiles..., rests..., untouched...)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn divide<A: FlatDivide<B>, B>(a: A, b: B) -> A::Output
    /// where
    ///     A::Output: FlatDivideValue<A, B>,
    /// {
    ///     flat_divide(a, b)
    /// }
    /// let a = layout!((8,6,2):(1,8,48));
    /// assert_eq!(divide(a, shape!(4, 2)).to_string(), "(_4,_2,_2,_3,_2):(_1,_8,_4,_16,_48)");
    /// ```
    FlatDivide, DivideOp, Flat
);

/// The value of a divide of `A` by `B` arranged as `How`: zero-sized when
/// both are all-static, computed (and checked) otherwise. Public as
/// [`LogicalDivideValue`](crate::LogicalDivideValue), ... (one name per
/// arrangement). With `std` only: without it the divides are all-static
/// (`free_fn!`).
#[cfg(feature = "std")]
#[doc(hidden)]
pub trait DivideValue<How, A, B>: Sized {
    /// The divide.
    fn make(a: A, b: B) -> Self;
    /// The divide, or the error cute-dynamic gives.
    #[cfg(feature = "std")]
    fn try_make(a: A, b: B) -> Result<Self, cute_dynamic::LayoutError>;
}
#[cfg(feature = "std")]
impl<O, How, A, B> DivideValue<How, A, B> for O
where
    A: crate::int_tuple::AllStatic,
    B: crate::int_tuple::AllStatic,
    O: DivideValueBy<How, A, B, crate::int_tuple::BothStatic<A, B>>,
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        <O as DivideValueBy<How, A, B, crate::int_tuple::BothStatic<A, B>>>::make(a, b)
    }
    #[cfg(feature = "std")]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(a: A, b: B) -> Result<O, cute_dynamic::LayoutError> {
        <O as DivideValueBy<How, A, B, crate::int_tuple::BothStatic<A, B>>>::try_make(a, b)
    }
}
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
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a` or in the tiler:
/// each mode's `A ∘ (B, B*)` is computed and checked when it runs (see
/// [`try_logical_divide`](crate::try_logical_divide)); it panics with that error's message
/// when a condition fails. An all-static call never panics.
#[cfg(feature = "std")]
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn logical_divide<A, B>(a: A, b: B) -> A::Output
where
    A: LogicalDivide<B>,
    A::Output: crate::LogicalDivideValue<A, B>,
{
    <A::Output as crate::LogicalDivideValue<A, B>>::make(a, b)
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
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a` or in the tiler:
/// each mode's `A ∘ (B, B*)` is computed and checked when it runs (see
/// [`try_zipped_divide`](crate::try_zipped_divide)); it panics with that error's message
/// when a condition fails. An all-static call never panics.
#[cfg(feature = "std")]
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn zipped_divide<A, B>(a: A, b: B) -> A::Output
where
    A: ZippedDivide<B>,
    A::Output: crate::ZippedDivideValue<A, B>,
{
    <A::Output as crate::ZippedDivideValue<A, B>>::make(a, b)
}
#[cfg(not(feature = "std"))]
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
/// `tiled_divide(a, b)` (see [`TiledDivide`]): the leaves of
/// [`zipped_divide`] with the rests as modes of their own.
///
/// ```
/// use cute_static::prelude::*;
/// let d = tiled_divide(layout!((8,8):(1,8)), shape!(2, 4));
/// assert_eq!(d.to_string(), "((_2,_4),_4,_2):((_1,_8),_2,_32)");
/// let m = 1000usize;
/// let r = tiled_divide(layout!(({m},8):(1,{m})), tile!(128:1, 4:1));
/// assert_eq!(r.to_string(), "((_128,_4),8,_2):((_1,1000),_128,4000)");
/// ```
///
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a` or in the tiler:
/// as [`logical_divide`], each mode's `A ∘ (B, B*)` computed and checked
/// when it runs (see [`try_tiled_divide`](crate::try_tiled_divide)); it
/// panics with that error's message when a condition fails. An all-static
/// call never panics.
#[cfg(feature = "std")]
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn tiled_divide<A, B>(a: A, b: B) -> A::Output
where
    A: TiledDivide<B>,
    A::Output: crate::TiledDivideValue<A, B>,
{
    <A::Output as crate::TiledDivideValue<A, B>>::make(a, b)
}
#[cfg(not(feature = "std"))]
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
/// `flat_divide(a, b)` (see [`FlatDivide`]): the leaves of
/// [`zipped_divide`], tiles and rests as modes of their own.
///
/// ```
/// use cute_static::prelude::*;
/// let d = flat_divide(layout!((8,8):(1,8)), shape!(2, 4));
/// assert_eq!(d.to_string(), "(_2,_4,_4,_2):(_1,_8,_2,_32)");
/// let m = 1000usize;
/// let r = flat_divide(layout!(({m},8):(1,{m})), tile!(128:1, 4:1));
/// assert_eq!(r.to_string(), "(_128,_4,8,_2):(_1,1000,_128,4000)");
/// ```
///
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a` or in the tiler:
/// as [`tiled_divide`] (see [`try_flat_divide`](crate::try_flat_divide)).
#[cfg(feature = "std")]
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn flat_divide<A, B>(a: A, b: B) -> A::Output
where
    A: FlatDivide<B>,
    A::Output: crate::FlatDivideValue<A, B>,
{
    <A::Output as crate::FlatDivideValue<A, B>>::make(a, b)
}

#[cfg(feature = "std")]
pub use run_time::{try_flat_divide, try_logical_divide, try_tiled_divide, try_zipped_divide};

#[cfg(feature = "std")]
mod run_time {
    use super::*;
    use cute_dynamic::LayoutError;

    crate::detail::try_fn!(
        /// `logical_divide(a, b)` (see [`logical_divide`]), returning the failed
        /// run-time condition as an error instead of panicking.
        ///
        /// Takes the same arguments as `logical_divide` (by value: layouts and
        /// tilers are `Copy`) and returns the same type.
        ///
        /// Post-conditions, on `Ok(r)`: mode `k` of `r` is `(A_k ∘ B_k, A_k ∘
        /// B_k*)` for tile `k` (`B* = complement(B, size(A_k))`), the modes past
        /// the tiler untouched; `r.to_dynamic()` is the same function as
        /// cute-dynamic's `logical_divide` of the same values (CuTe's padded form
        /// where a step depends on a run-time value). `Err(e)`: `e` is the error
        /// cute-dynamic's `logical_divide` gives (a divisibility condition,
        /// distributivity, overflow). All-static arguments: always `Ok`.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let m = 1000i64;
        /// let r = try_logical_divide(layout!(({m}):(1)), layout!(128:1)).unwrap();
        /// assert_eq!(r.to_string(), "(_128,8):(_1,_128)");
        /// // 6 elements do not split across the mode of 4 (shape
        /// // divisibility), found when the run-time stride 9 is known.
        /// let bad = layout!((4,{6i64}):(1,{9i64}));
        /// assert!(try_logical_divide(bad, layout!(6:1)).is_err());
        /// ```
        ///
        /// A tile with run-time leaves (a layout, or an integer `Dyn` in a
        /// tuple tiler) is taken too. Its complement keeps CuTe's two modes
        /// `(d, ⌈M/(n·d)⌉):(1, n·d)` for `int` leaves, whatever the values:
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let (n, d) = (2i64, 1i64);
        /// let a = layout!(({8i64},{4i64}):({1i64},{8i64}));
        /// let r = try_logical_divide(a, layout!({n}:{d})).unwrap();
        /// assert_eq!(r.to_string(), "((2,1),((1,1),(4,4))):((1,8),((1,8),(2,8)))"); // CuTe's text
        /// // A negative run-time stride has no complement: cute-dynamic's error.
        /// assert!(try_logical_divide(a, layout!({n}:{-1i64})).is_err());
        /// ```
        try_logical_divide,
        LogicalDivide,
        crate::LogicalDivideValue<A, B>
    );

    crate::detail::try_fn!(
        /// `zipped_divide(a, b)` (see [`zipped_divide`]), as
        /// [`try_logical_divide`]: the same arguments and result type as
        /// `zipped_divide`, cute-dynamic's error where a run-time condition
        /// fails, always `Ok` for all-static arguments.
        ///
        /// Post-conditions, on `Ok(r)`: `r` is `((tiles...), (rests...,
        /// untouched...))` with the modes of [`try_logical_divide`]'s result;
        /// `r.to_dynamic()` is the same function as cute-dynamic's
        /// `zipped_divide`.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let (m, n) = (1000i64, 500i64);
        /// let r = try_zipped_divide(layout!(({m},{n}):(1,{m})), tile!(128:1, 64:1)).unwrap();
        /// assert_eq!(r.to_string(), "((_128,_64),(8,8)):((_1,1000),(_128,64000))");
        /// assert!(try_zipped_divide(layout!((4,{6i64}):(1,{9i64})), layout!(6:1)).is_err());
        /// ```
        try_zipped_divide,
        ZippedDivide,
        crate::ZippedDivideValue<A, B>
    );

    crate::detail::try_fn!(
        /// `tiled_divide(a, b)` (see [`tiled_divide`]), as
        /// [`try_logical_divide`]: the same arguments and result type as
        /// `tiled_divide`, the same run-time checks as the logical form
        /// (cute-dynamic's error where one fails), always `Ok` for all-static
        /// arguments.
        ///
        /// Post-conditions, on `Ok(r)`: `r` is `((tiles...), rests...,
        /// untouched...)`, the leaves of [`try_zipped_divide`]'s result in the
        /// same order; `r.to_dynamic()` is the same function as cute-dynamic's
        /// `tiled_divide`.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let (m, n) = (1000i64, 500i64);
        /// let r = try_tiled_divide(layout!(({m},{n}):(1,{m})), tile!(128:1, 64:1)).unwrap();
        /// assert_eq!(r.to_string(), "((_128,_64),8,8):((_1,1000),_128,64000)");
        /// assert!(try_tiled_divide(layout!((4,{6i64}):(1,{9i64})), layout!(6:1)).is_err());
        /// let s = try_tiled_divide(layout!((8,8):(1,8)), shape!(2, 4)).unwrap();
        /// assert_eq!(s, tiled_divide(layout!((8,8):(1,8)), shape!(2, 4)));
        /// ```
        try_tiled_divide,
        TiledDivide,
        crate::TiledDivideValue<A, B>
    );

    crate::detail::try_fn!(
        /// `flat_divide(a, b)` (see [`flat_divide`]), as [`try_tiled_divide`].
        ///
        /// Post-conditions, on `Ok(r)`: `r` is `(tiles..., rests...,
        /// untouched...)`, the leaves of [`try_zipped_divide`]'s result in the
        /// same order; `r.to_dynamic()` is the same function as cute-dynamic's
        /// `flat_divide`.
        ///
        /// ```
        /// use cute_static::prelude::*;
        /// let (m, n) = (1000i64, 500i64);
        /// let r = try_flat_divide(layout!(({m},{n}):(1,{m})), tile!(128:1, 64:1)).unwrap();
        /// assert_eq!(r.to_string(), "(_128,_64,8,8):(_1,1000,_128,64000)");
        /// assert!(try_flat_divide(layout!((4,{6i64}):(1,{9i64})), layout!(6:1)).is_err());
        /// ```
        try_flat_divide,
        FlatDivide,
        crate::FlatDivideValue<A, B>
    );
}
