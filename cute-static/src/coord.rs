//! Coordinates (paper section 2.2.2; CuTe's `01_layout.md`, "Coordinate
//! mapping"): what a layout is evaluated at ([`Coord`], [`Layout::index`]),
//! and the colexicographic maps between the integral coordinate and the
//! natural (hierarchical) coordinate of a shape, [`idx2crd`] and
//! [`crd2idx`] (paper eqs. (4) and (5)). `cute-dynamic`'s `coord.rs` is the
//! same concept on run-time shapes; `docs/architecture.md` (section 3) maps
//! the two.
//!
//! With static leaves every function here inlines to constant arithmetic;
//! run-time ([`Dyn`](crate::Dyn)) leaves are read from the shape. Like
//! [`Layout::index`], the arithmetic wraps on overflow and never panics.
//!
//! This module sits above `layout.rs` (a coordinate is evaluated with
//! [`Congruent::offset_flat`]), so the coordinate method of [`Layout`] is
//! defined here.

use crate::int_tuple::{IntTuple, OffsetInt};
use crate::layout::{Congruent, Layout, ShapeLeaf};

/// A coordinate into the shape `S` of a layout with stride `D`: an integer
/// (`usize`), or a tuple with one coordinate per mode of `S`, nested as far
/// as wanted (paper def. 2.13–2.14: integral, rank-N and natural coordinates).
///
/// Post-condition: `offset_acc(s, d, acc)` is `acc` plus the layout's value at the coordinate; an
/// integer at a tuple mode is decomposed colexicographically with `idx2crd`
/// (paper eq. (4); the last leaf of that mode takes the quotient, so
/// out-of-range values extend the last leaf). Wrapping arithmetic.
///
/// ```
/// use cute_static::prelude::*;
/// let l = layout!(((2,2),(4,2)):((1,8),(2,16)));
/// assert_eq!(l.index(22usize), 26);
/// assert_eq!(l.index((2usize, 5usize)), 26);
/// assert_eq!(l.index(((0usize, 1usize), (1usize, 1usize))), 26);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a coordinate of this layout: its rank or nesting does not match the layout's shape",
    label = "coordinate of the wrong rank for this layout",
    note = "a coordinate is an integer (`usize`), or a tuple with exactly one coordinate per mode of the shape (nested where the shape is)"
)]
pub trait Coord<S, D> {
    /// `acc` plus the offset of this coordinate, the terms added leaf by
    /// leaf from left to right.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = layout!((4,8):(8,1)); // row-major 4×8
    /// let (s, d) = (l.shape(), l.stride());
    /// assert_eq!((1usize, 2usize).offset_acc(&s, &d, 100), 100 + 1 * 8 + 2 * 1);
    /// // 9 is (9 % 4, 9 / 4) = (1, 2) colexicographically: the same offset.
    /// assert_eq!(9usize.offset_acc(&s, &d, 0), 10);
    /// ```
    fn offset_acc(self, shape: &S, stride: &D, acc: usize) -> usize;
}

impl<S: Congruent<D>, D: IntTuple> Coord<S, D> for usize {
    #[inline(always)]
    fn offset_acc(self, shape: &S, stride: &D, acc: usize) -> usize {
        shape.offset_flat::<true>(stride, self, 1, acc)
    }
}

impl<S: Congruent<D>, D: IntTuple> Layout<S, D> {
    /// The offset at a coordinate: an integral coordinate (`usize`), a
    /// rank-N coordinate (a tuple with one `usize` per mode) or a
    /// hierarchical one (nested tuples, paper def. 2.13). Integers are
    /// decomposed colexicographically (paper eq. (4)), the last leaf of each
    /// integer's mode taking the quotient, then multiplied by the strides.
    ///
    /// Post-condition: `l.index(c) == l.index(crd2idx(c, l.shape()))` (the
    /// layout's value at the integral coordinate of `c`), and
    /// `l.index(idx2crd(i, l.shape())) == l.index(i)`.
    ///
    /// With static leaves this inlines to the hand-written arithmetic:
    /// `layout!(((4,2),(2,8)):((1,16),(4,32))).index(i)` is
    /// `i%4 + (i/4%2)*16 + (i/8%2)*4 + (i/16)*32`; with run-time leaves
    /// the same arithmetic reads them from the layout. A coordinate of the
    /// wrong rank does not compile. Arithmetic wraps on overflow (never
    /// panics).
    ///
    /// The offset is a `usize` when every stride is static (static strides
    /// are non-negative) and an `i64` when a stride is run-time ([`Dyn`](crate::Dyn),
    /// possibly negative).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = layout!(((4,2),(2,8)):((1,16),(4,32)));
    /// let i = 37usize;
    /// assert_eq!(l.index(i), (i % 4) + (i / 4 % 2) * 16 + (i / 8 % 2) * 4 + (i / 16) * 32);
    /// assert_eq!(l.index((5usize, 4usize)), l.index(5 + 8 * 4usize));
    /// assert_eq!(l.index(((1usize, 1usize), (0usize, 2usize))), 1 + 16 + 64);
    /// let (m, s) = (5usize, -100i64);
    /// let d = layout!((({m},4),2):((4,1),{s}));
    /// assert_eq!(d.index(27usize), (27 % 5 * 4 + 27 / 5 % 4) as i64 - 100);
    /// ```
    #[inline(always)]
    pub fn index<C: Coord<S, D>>(&self, coord: C) -> D::Offset {
        D::Offset::from_wrapping(coord.offset_acc(&self.shape(), &self.stride(), 0))
    }
}

/// The natural coordinates of a shape (helper of [`Idx2Crd`]): `Crd` is
/// `usize` for a leaf and the tuple of the modes' `Crd` for a tuple, so a
/// shape's natural coordinate is congruent to it.
#[doc(hidden)]
pub trait ShapeCoords: IntTuple {
    /// The natural coordinate type.
    type Crd: Copy;

    /// The natural coordinate of the integral coordinate `i` within this
    /// subtree, whose first leaf has column-major weight `prefix`: leaf `k`
    /// gets `(i / (prefix·Π_{j<k} s_j)) mod s_k`, without the modulo on the
    /// last leaf when `LAST` (as [`Congruent::offset_flat`] splits `i`).
    fn natural<const LAST: bool>(&self, i: usize, prefix: usize) -> Self::Crd;
}

impl<S: ShapeLeaf> ShapeCoords for S {
    type Crd = usize;

    #[inline(always)]
    fn natural<const LAST: bool>(&self, i: usize, prefix: usize) -> usize {
        // Checked: a zero weight (a product that wrapped) or a zero
        // run-time extent gives 0, not a panic.
        let c = i.checked_div(prefix).unwrap_or_default();
        if LAST { c } else { c.checked_rem(self.value()).unwrap_or_default() }
    }
}

/// The integral coordinate of a coordinate of the shape `S` (helper of
/// [`Crd2Idx`]): an integer is itself; a tuple adds its modes' integral
/// coordinates, each weighted by the size of the modes before it.
#[doc(hidden)]
pub trait CrdIndex<S> {
    /// `acc` plus `prefix` times the integral coordinate of `self` in `shape`.
    fn crd2idx_acc(self, shape: &S, prefix: usize, acc: usize) -> usize;
}

impl<S: ShapeCoords> CrdIndex<S> for usize {
    #[inline(always)]
    fn crd2idx_acc(self, _shape: &S, prefix: usize, acc: usize) -> usize {
        acc.wrapping_add(self.wrapping_mul(prefix))
    }
}

// Coord, ShapeCoords and CrdIndex for tuples: the modes before the last,
// the last.
macro_rules! tuple_coords {
    ([$($i:tt $C:ident $S:ident $D:ident,)*] $li:tt $LC:ident $LS:ident $LD:ident) => {
        #[diagnostic::do_not_recommend]
        impl<$($C: Coord<$S, $D>, $S, $D,)* $LC: Coord<$LS, $LD>, $LS, $LD>
            Coord<($($S,)* $LS,), ($($D,)* $LD,)> for ($($C,)* $LC,)
        {
            #[inline(always)]
            fn offset_acc(self, shape: &($($S,)* $LS,), stride: &($($D,)* $LD,), acc: usize) -> usize {
                $( let acc = self.$i.offset_acc(&shape.$i, &stride.$i, acc); )*
                self.$li.offset_acc(&shape.$li, &stride.$li, acc)
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($S: ShapeCoords,)* $LS: ShapeCoords> ShapeCoords for ($($S,)* $LS,) {
            type Crd = ($($S::Crd,)* $LS::Crd,);

            #[inline(always)]
            #[allow(unused_mut)] // a rank-1 tuple has no mode before the last
            fn natural<const LAST: bool>(&self, i: usize, prefix: usize) -> Self::Crd {
                let mut p = prefix;
                // A tuple's elements are evaluated left to right: each mode
                // reads the weight the modes before it left in `p`.
                ($({
                    let c = self.$i.natural::<false>(i, p);
                    p = p.wrapping_mul(self.$i.size());
                    c
                },)* self.$li.natural::<LAST>(i, p),)
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($C: CrdIndex<$S>, $S: ShapeCoords,)* $LC: CrdIndex<$LS>, $LS: ShapeCoords>
            CrdIndex<($($S,)* $LS,)> for ($($C,)* $LC,)
        {
            #[inline(always)]
            fn crd2idx_acc(self, shape: &($($S,)* $LS,), prefix: usize, acc: usize) -> usize {
                let p = prefix;
                $(
                    let acc = self.$i.crd2idx_acc(&shape.$i, p, acc);
                    let p = p.wrapping_mul(shape.$i.size());
                )*
                self.$li.crd2idx_acc(&shape.$li, p, acc)
            }
        }
    };
}

for_each_tuple!(last tuple_coords);

/// A shape that has natural coordinates: every shape (static leaves,
/// run-time [`Dyn`](crate::Dyn) leaves, or both, nested as wanted). The
/// bound of [`idx2crd`]'s shape in generic code; the coordinate's type is
/// [`NaturalCoord<S>`](NaturalCoord).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{Crd2Idx, Idx2Crd, NaturalCoord, idx2crd};
/// fn last<S: Idx2Crd>(s: S) -> NaturalCoord<S>
/// where
///     usize: Crd2Idx<S>,
/// {
///     idx2crd(s.size() - 1, s)
/// }
/// assert_eq!(last(shape!(3, (2, 3))), (2, (1, 2)));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a shape",
    label = "not a shape: natural coordinates need a tree of positive extents",
    note = "a shape is an extent (`Int<N>`, `Dyn`) or a tuple of shapes, as `shape!(3, (2, 4))` makes"
)]
pub trait Idx2Crd: ShapeCoords {}

impl<S: ShapeCoords> Idx2Crd for S {}

/// A coordinate of the shape `S`: an integer (`usize`, an integral
/// coordinate of `S`), or a tuple with one coordinate per mode of `S`,
/// nested as far as wanted (paper def. 2.13–2.14). The bound of
/// [`crd2idx`]'s and [`idx2crd`]'s coordinate in generic code.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{Crd2Idx, crd2idx};
/// fn idx<C: Crd2Idx<S>, S>(c: C, s: S) -> usize {
///     crd2idx(c, s)
/// }
/// assert_eq!(idx((1usize, 5usize), shape!(3, (2, 3))), 16);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a coordinate of the shape `{S}`: its rank or nesting does not match",
    label = "coordinate of the wrong rank for this shape",
    note = "a coordinate is an integer (`usize`), or a tuple with exactly one coordinate per mode of the shape (nested where the shape is)"
)]
pub trait Crd2Idx<S>: CrdIndex<S> {}

impl<C: CrdIndex<S>, S> Crd2Idx<S> for C {}

/// The natural coordinate type of the shape `S`: `usize` for a leaf, the
/// tuple of its modes' natural coordinate types for a tuple (congruent to
/// `S`). What [`idx2crd`] returns.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::NaturalCoord;
/// let c: NaturalCoord<Shape![3, (2, 3)]> = (1, (1, 2));
/// assert_eq!(crd2idx(c, shape!(3, (2, 3))), 16);
/// ```
pub type NaturalCoord<S> = <S as ShapeCoords>::Crd;

/// CuTe's `crd2idx(coord, shape)` (paper eq. (5)): the integral coordinate
/// of `coord`, a coordinate of `shape` (an integer, or a tuple weakly
/// congruent to `shape`: one entry per mode, each an integer or nested
/// further), in colexicographic order (mode 0 varies fastest).
///
/// Post-conditions: an integer `coord` is returned as it is; a tuple gives
/// `Σ_k crd2idx(c_k, S_k)·(|S_0|·…·|S_{k-1}|)`, so `crd2idx(idx2crd(i, s),
/// s) == i` for every `i < size(s)`; the same value as cute-dynamic's
/// `crd2idx`. Coordinates are not bounds-checked; the arithmetic wraps (it
/// cannot overflow for a coordinate inside a shape whose size fits). A
/// coordinate of the wrong rank does not compile.
///
/// ```
/// use cute_static::prelude::*;
/// // CuTe's docs (01_layout.md): 16, (1,5) and (1,(1,2)) are one point of (3,(2,3)).
/// let s = shape!(3, (2, 3));
/// assert_eq!(crd2idx(16usize, s), 16);
/// assert_eq!(crd2idx((1usize, 5usize), s), 16);
/// assert_eq!(crd2idx((1usize, (1usize, 2usize)), s), 16);
/// // Run-time leaves are read from the shape.
/// let n = 3usize;
/// assert_eq!(crd2idx((1usize, (1usize, 2usize)), shape!(3, (2, {n}))), 16);
/// ```
#[inline(always)]
pub fn crd2idx<C: Crd2Idx<S>, S>(coord: C, shape: S) -> usize {
    coord.crd2idx_acc(&shape, 1, 0)
}

/// CuTe's `idx2crd(coord, shape)`: the natural (hierarchical) coordinate of
/// a coordinate of `shape`, the paper's `idx2crd` (eq. (4)) applied at
/// every level. `coord` is an integral coordinate (`usize`) or any
/// coordinate of `shape` ([`Crd2Idx`]: rank-N, partly or fully nested);
/// the result is a tuple of `usize` congruent to `shape` (a `usize` for a
/// leaf shape), [`NaturalCoord<S>`](NaturalCoord).
///
/// Post-conditions: for `i < size(s)`, each leaf `c_k` of `idx2crd(i, s)`
/// is `(i / (s_0·…·s_{k-1})) mod s_k` over the flat leaves `s_k` of `s`,
/// so `0 <= c_k < s_k`, and `crd2idx(idx2crd(i, s), s) == i`; for every
/// coordinate `c`, `idx2crd(c, s) == idx2crd(crd2idx(c, s), s)` and
/// `l.index(idx2crd(c, l.shape())) == l.index(c)`. Beyond the size the
/// last leaf takes the quotient (the paper's extended domain, 2.4.1), so
/// `crd2idx(idx2crd(i, s), s) == i` for every `i`. Each mode of the result
/// is cute-dynamic's (one-level) `idx2crd` applied again within that mode.
///
/// ```
/// use cute_static::prelude::*;
/// // CuTe's docs (01_layout.md): the natural coordinate of 16 in (3,(2,3)).
/// let s = shape!(3, (2, 3));
/// assert_eq!(idx2crd(16usize, s), (1, (1, 2)));
/// assert_eq!(idx2crd((1usize, 5usize), s), (1, (1, 2)));
/// assert_eq!(idx2crd((1usize, (1usize, 2usize)), s), (1, (1, 2)));
/// assert_eq!(crd2idx(idx2crd(16usize, s), s), 16);
/// // A leaf shape's coordinate is the integer; run-time leaves work alike.
/// assert_eq!(idx2crd(7usize, shape!(4)), 7);
/// let m = 2usize;
/// assert_eq!(idx2crd(16usize, shape!(3, ({m}, 3))), (1, (1, 2)));
/// // The layout's value at the natural coordinate is its value at 16.
/// let l = layout!((3,(2,3)):(3,(12,1)));
/// assert_eq!(l.index(idx2crd(16usize, l.shape())), 17);
/// ```
#[inline(always)]
pub fn idx2crd<C: Crd2Idx<S>, S: Idx2Crd>(coord: C, shape: S) -> NaturalCoord<S> {
    shape.natural::<true>(crd2idx(coord, shape), 1)
}
