//! Identity layouts with static basis strides (twin of cute-dynamic's
//! `basis_layout.rs`, for CuTe's `make_identity_layout`).
//!
//! CuTe's identity layout of a shape `S` has `S`'s own scaled bases as
//! strides (`(_4,_8):(_1@0,_1@1)`; sub-mode `j` of mode `i` has `_1@j@i`,
//! CuTe's `E<i,j>`), so it maps each coordinate to itself: the coordinate
//! tensors that predication is built on. Here the strides are implied by
//! the shape type, so the layout is zero-sized and [`IdentityLayout::index`]
//! is the colexicographic split of the index by the static extents.

use crate::int_tuple::{CuteFmt, IntTuple, StaticIntTuple};
use core::fmt;
use core::marker::PhantomData;
use typenum::{Bit, UInt, Unsigned};

/// A static shape whose identity layout can be formed (the bound of
/// [`make_identity_layout`] and [`IdentityLayout`], for code generic over
/// the shape): typenum leaves (at least 1) in tuples of up to 12 modes
/// (the coordinate is a Rust tuple, whose traits stop at 12).
///
/// Post-condition: [`Natural`](IdentityShape::Natural) is the type of
/// [`IdentityLayout::index`], the shape's natural coordinate.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::IdentityShape;
/// /// The coordinate of the last element of any static shape.
/// fn last<S: IdentityShape>(shape: S) -> S::Natural {
///     let id = make_identity_layout(shape);
///     id.index(IdentityLayout::<S>::SIZE - 1)
/// }
/// assert_eq!(last(shape!(4, 8)), (3, 7));
/// assert_eq!(last(shape!(2, (3, 4))), (1, (2, 3)));
/// ```
pub trait IdentityShape: StaticIntTuple {
    /// The natural coordinate of the shape: `usize` for a leaf, a tuple of
    /// the modes' coordinates for a tuple (`(usize, (usize, usize))` for
    /// `(2,(3,4))`).
    type Natural: Copy + fmt::Debug + PartialEq + Eq;

    /// The coordinate of `i` within this (sub)shape, colexicographic, and
    /// what is left of `i` for the modes after it.
    #[doc(hidden)]
    fn split(i: usize) -> (Self::Natural, usize);

    /// Writes the strides: each leaf's unit basis, `_1@j@i` innermost index
    /// first; `path` is this node's position, innermost first.
    #[doc(hidden)]
    fn fmt_bases(f: &mut fmt::Formatter<'_>, path: Option<&PathNode<'_>>) -> fmt::Result;

    /// The coordinate as a run-time tuple.
    #[cfg(feature = "std")]
    #[doc(hidden)]
    fn natural_to_dynamic(c: &Self::Natural) -> cute_dynamic::IntTuple;
}

/// A position in a shape tree, innermost index first (a list on the stack).
#[doc(hidden)]
pub struct PathNode<'a> {
    index: usize,
    parent: Option<&'a PathNode<'a>>,
}

impl<U: Unsigned, B: Bit> IdentityShape for UInt<U, B>
where
    UInt<U, B>: IntTuple + StaticIntTuple + Unsigned,
{
    type Natural = usize;

    #[inline(always)]
    fn split(i: usize) -> (usize, usize) {
        let n = <Self as Unsigned>::USIZE;
        (i % n, i / n)
    }

    fn fmt_bases(f: &mut fmt::Formatter<'_>, path: Option<&PathNode<'_>>) -> fmt::Result {
        f.write_str("_1")?;
        // A scalar shape is a rank-1 coordinate space: `_4:_1@0`.
        let mut node = path.or(Some(&PathNode { index: 0, parent: None }));
        while let Some(p) = node {
            write!(f, "@{}", p.index)?;
            node = p.parent;
        }
        Ok(())
    }

    #[cfg(feature = "std")]
    fn natural_to_dynamic(c: &usize) -> cute_dynamic::IntTuple {
        // A coordinate is below its extent, which fits in an i64.
        cute_dynamic::IntTuple::int(i64::try_from(*c).unwrap_or(i64::MAX))
    }
}

macro_rules! tuple_identity_shape {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($T: IdentityShape),+> IdentityShape for ($($T,)+) {
            type Natural = ($($T::Natural,)+);

            #[inline(always)]
            fn split(i: usize) -> (Self::Natural, usize) {
                let rest = i;
                $( let ($T, rest) = $T::split(rest); )+
                (($($T,)+), rest)
            }

            fn fmt_bases(f: &mut fmt::Formatter<'_>, path: Option<&PathNode<'_>>) -> fmt::Result {
                f.write_str("(")?;
                $(
                    if $i > 0 {
                        f.write_str(",")?;
                    }
                    $T::fmt_bases(f, Some(&PathNode { index: $i, parent: path }))?;
                )+
                f.write_str(")")
            }

            #[cfg(feature = "std")]
            fn natural_to_dynamic(c: &Self::Natural) -> cute_dynamic::IntTuple {
                cute_dynamic::IntTuple::tuple([$( $T::natural_to_dynamic(&c.$i) ),+])
            }
        }
    };
}

#[allow(non_snake_case)]
mod tuples {
    use super::*;
    for_each_tuple!(std tuple_identity_shape);
}

/// CuTe's identity layout of the static shape `S`: `S : E(S)`, the strides
/// the shape's own unit bases (`(_4,_8):(_1@0,_1@1)`), a zero-sized value.
///
/// Post-conditions: `index(i)` is the natural coordinate of `i` in `S`
/// (colexicographic, the first mode fastest) for `0 <= i < SIZE`, so
/// the layout maps every coordinate to itself; past `SIZE` it is the
/// coordinate of `i % SIZE`. `to_dynamic()` is cute-dynamic's
/// `make_identity_layout` of the same shape.
///
/// ```
/// use cute_static::prelude::*;
/// let id = make_identity_layout(shape!(4, 8));
/// assert_eq!(core::mem::size_of_val(&id), 0);
/// assert_eq!(id.to_string(), "(_4,_8):(_1@0,_1@1)");
/// assert_eq!(id.index(13), (1, 3));
/// let nested = make_identity_layout(shape!(2, (3, 4)));
/// assert_eq!(nested.to_string(), "(_2,(_3,_4)):(_1@0,(_1@0@1,_1@1@1))");
/// assert_eq!(nested.index(7), (1, (0, 1)));
/// assert_eq!(nested.to_dynamic(), cute_dynamic::make_identity_layout(&"(2,(3,4))".parse()?)?);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct IdentityLayout<S>(PhantomData<S>);

/// CuTe's `make_identity_layout(shape)` for a static shape: the zero-sized
/// [`IdentityLayout`] (see there).
///
/// ```
/// use cute_static::prelude::*;
/// assert_eq!(make_identity_layout(shape!(4, 8)).index(5), (1, 1));
/// ```
#[inline(always)]
pub fn make_identity_layout<S: IdentityShape>(_shape: S) -> IdentityLayout<S> {
    IdentityLayout(PhantomData)
}

impl<S: IdentityShape> IdentityLayout<S> {
    /// The number of coordinates, the product of the extents.
    pub const SIZE: usize = match S::STATIC_SIZE {
        Some(n) => n,
        None => 0,
    };
    /// The number of top-level modes (1 for a scalar shape).
    pub const RANK: usize = S::RANK;

    /// The identity layout (as [`make_identity_layout`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = IdentityLayout::<Shape![4, 8]>::new();
    /// assert_eq!(id, make_identity_layout(shape!(4, 8)));
    /// assert_eq!(id.index(9), (1, 2));
    /// ```
    #[inline(always)]
    pub fn new() -> Self {
        IdentityLayout(PhantomData)
    }

    /// The shape.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_layout(shape!(2, (3, 4)));
    /// assert_eq!(id.shape().to_string_cute(), "(_2,(_3,_4))");
    /// ```
    #[inline(always)]
    pub fn shape(&self) -> S {
        S::new()
    }

    /// The coordinate of the integral coordinate `i`: its natural
    /// coordinate in the shape (`(1, (0, 1))` for 7 in `(2,(3,4))`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let id = make_identity_layout(shape!(2, (3, 4)));
    /// assert_eq!(id.index(7), (1, (0, 1)));
    /// assert_eq!(id.index(23), (1, (2, 3))); // 23 = 1 + 2·(2 + 3·3)
    /// ```
    #[inline(always)]
    pub fn index(&self, i: usize) -> S::Natural {
        S::split(i).0
    }

    /// The equal run-time layout, cute-dynamic's `make_identity_layout`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let d = make_identity_layout(shape!(4, 8)).to_dynamic();
    /// assert_eq!(d.to_string(), "(4,8):(1@0,1@1)");
    /// assert_eq!(d.size(), 32);
    /// ```
    #[cfg(feature = "std")]
    pub fn to_dynamic(&self) -> cute_dynamic::BasisLayout {
        match cute_dynamic::make_identity_layout(&S::new().to_dynamic()) {
            Ok(l) => l,
            // A static shape's extents are positive, its size fits and its
            // rank and nesting are those of a Rust type: far below the limits.
            Err(e) => unreachable!("the identity layout of a static shape: {e}"),
        }
    }

    /// A coordinate of this layout as a run-time tuple (what cute-dynamic's
    /// `BasisLayout::eval` returns): for a scalar shape, whose stride is
    /// `_1@0`, the rank-1 tuple `(i)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let c = make_identity_layout(shape!(4, 8)).index(9);
    /// assert_eq!(IdentityLayout::<Shape![4, 8]>::coord_to_dynamic(&c).to_string(), "(1,2)");
    /// assert_eq!(IdentityLayout::<Shape![8]>::coord_to_dynamic(&5).to_string(), "(5)");
    /// ```
    #[cfg(feature = "std")]
    pub fn coord_to_dynamic(c: &S::Natural) -> cute_dynamic::IntTuple {
        let t = S::natural_to_dynamic(c);
        if S::IS_TUPLE { t } else { cute_dynamic::IntTuple::tuple([t]) }
    }
}

impl<S: IdentityShape> fmt::Display for IdentityLayout<S> {
    /// `(_4,_8):(_1@0,_1@1)`, as CuTe prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", CuteFmt(&S::new()))?;
        S::fmt_bases(f, None)
    }
}
