//! Functional composition `A ∘ B` (paper 3.3): the operation ([`composition`],
//! [`Compose`]) and, with run-time leaves, its checked run-time path
//! (`mixed.rs`). The all-static solver is in `detail/composition.rs`.

#[cfg(feature = "std")]
mod mixed;
#[cfg(feature = "std")]
pub use mixed::*;

use crate::detail::{ComposeValueBy, TileArg, TileCompose};
use crate::int_tuple::{AllStatic, BothStatic};
use crate::layout::Layout;

/// `Self ∘ B` for a layout, a shape or a tiler `B` (paper 3.3; the
/// rule as stated at the top of cute-dynamic's `composition.rs`). Post-conditions (eqs. 16–17): for a layout
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
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn composition<A, B>(a: A, b: B) -> <A as Compose<B>>::Output
where
    A: Compose<B>,
    <A as Compose<B>>::Output: ComposeValue<A, B>,
{
    <<A as Compose<B>>::Output as ComposeValue<A, B>>::make(a, b)
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
pub trait ComposeValue<A, B>: Sized {
    /// `a ∘ b`: what [`composition`] returns.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn compose<A: Compose<B>, B>(a: A, b: B) -> A::Output
    /// where
    ///     A::Output: ComposeValue<A, B>,
    /// {
    ///     <A::Output as ComposeValue<A, B>>::make(a, b)
    /// }
    /// // (a ∘ b)(i) = a(b(i)): 8:2 at the offsets 0, 2, 4, 6 of 4:2.
    /// assert_eq!(compose(layout!(8:2), layout!(4:2)).to_string(), "_4:_4");
    /// let c = compose(layout!({8usize}:2), layout!(4:2));
    /// assert_eq!((c.size(), c.index(3usize)), (4, 12));
    /// ```
    fn make(a: A, b: B) -> Self;
    /// `a ∘ b`, or the error cute-dynamic's `composition` gives: what
    /// [`try_composition`](crate::try_composition) returns (its
    /// post-conditions), `Ok` for all-static arguments.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn try_compose<A: Compose<B>, B>(a: A, b: B) -> Result<A::Output, cute_dynamic::LayoutError>
    /// where
    ///     A::Output: ComposeValue<A, B>,
    /// {
    ///     try_composition(a, b) // = <A::Output as ComposeValue<A, B>>::try_make(a, b)
    /// }
    /// assert_eq!(try_compose(layout!(4:2), layout!(2:2)).unwrap().to_string(), "_2:_4");
    /// assert!(try_compose(layout!(({4i64},6,8):(2,3,{5i64})), layout!({6i64}:{3i64})).is_err());
    /// ```
    #[cfg(feature = "std")]
    fn try_make(a: A, b: B) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O, A: AllStatic, B: AllStatic> ComposeValue<A, B> for O
where
    O: ComposeValueBy<A, B, BothStatic<A, B>>,
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        <O as ComposeValueBy<A, B, BothStatic<A, B>>>::make(a, b)
    }
    #[cfg(feature = "std")]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(a: A, b: B) -> Result<O, cute_dynamic::LayoutError> {
        <O as ComposeValueBy<A, B, BothStatic<A, B>>>::try_make(a, b)
    }
}
