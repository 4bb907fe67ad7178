//! `Layout<Shape, Stride>`: a static CuTe layout, its evaluation at integral,
//! rank-N and hierarchical coordinates, its static facts and printing.

use crate::int_tuple::{IntTuple, Leaf, StaticIntTuple, add_static, mul_static};
use core::fmt;
use typenum::{Bit, UInt, Unsigned};

/// A leaf that may stand in a shape: a positive integer.
///
/// Every typenum `UInt` is positive (`UTerm`, zero, is not a shape leaf), so
/// indexing never divides by zero.
///
/// ```
/// use cute_static::ShapeLeaf;
/// fn positive<T: ShapeLeaf>() {}
/// positive::<cute_static::typenum::U4>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a valid shape extent: shape extents must be positive integers",
    label = "a zero or non-integer extent in a shape"
)]
pub trait ShapeLeaf: Leaf + IntTuple {}

impl<U: Unsigned, B: Bit> ShapeLeaf for UInt<U, B> where UInt<U, B>: Leaf + IntTuple {}

/// A shape tree whose stride tree `D` has the same structure: the pair is a
/// layout (paper def. 2.15, `S ~ D`).
///
/// The methods walk the two trees together; with static leaves they inline
/// to constant arithmetic.
///
/// Post-conditions: `STATIC_SPAN`, when the leaves are static, is
/// `Σ (s_k − 1)·d_k` over the leaves, so `cosize = STATIC_SPAN + 1`;
/// `offset_flat::<LAST>(d, i, p)` is `Σ_k c_k·d_k` with
/// `c_k = (i / (p·Π_{j<k} s_j)) mod s_k` (no modulo on the last leaf when
/// `LAST`), the colexicographic `idx2crd` of paper eq. (4) followed by the
/// inner product of eq. (6).
///
/// ```
/// use cute_static::prelude::*;
/// let s = shape!(4, 8);
/// let d = stride!(1, 4);
/// assert_eq!(s.offset_flat::<true>(&d, 9, 1, 0), 9);
/// assert_eq!(<Shape![4, 8] as Congruent<Stride![1, 4]>>::STATIC_SPAN, Some(31));
/// ```
#[diagnostic::on_unimplemented(
    message = "the shape and stride of this layout are not congruent",
    label = "shape and stride are not congruent",
    note = "a layout's shape and stride must have the same tree of tuples and integers, as in `(4,(3,2)):(2,(8,1))`, and shape extents must be positive"
)]
pub trait Congruent<D: IntTuple>: IntTuple {
    /// `Σ (s − 1)·d` over the leaves, when all are static.
    const STATIC_SPAN: Option<usize>;

    /// `acc` plus the offset of the integral coordinate `i` within this
    /// subtree, whose first leaf has column-major weight `prefix`; the last
    /// leaf is unbounded iff `LAST`. The terms are added to `acc` leaf by
    /// leaf, left to right, as one writes the sum by hand. Wrapping
    /// arithmetic.
    fn offset_flat<const LAST: bool>(&self, stride: &D, i: usize, prefix: usize, acc: usize) -> usize;

    /// `Σ (s − 1)·d` over the leaves at run time (wrapping).
    fn span(&self, stride: &D) -> usize;
}

#[diagnostic::do_not_recommend]
impl<S: ShapeLeaf, D: Leaf + IntTuple> Congruent<D> for S {
    const STATIC_SPAN: Option<usize> = match S::STATIC {
        Some(s) => mul_static(Some(s.saturating_sub(1)), D::STATIC),
        None => None,
    };

    #[inline(always)]
    fn offset_flat<const LAST: bool>(&self, stride: &D, i: usize, prefix: usize, acc: usize) -> usize {
        let c = i.checked_div(prefix).unwrap_or_default();
        let c = if LAST { c } else { c.checked_rem(self.value()).unwrap_or_default() };
        acc.wrapping_add(c.wrapping_mul(stride.value()))
    }

    #[inline(always)]
    fn span(&self, stride: &D) -> usize {
        self.value().saturating_sub(1).wrapping_mul(stride.value())
    }
}

/// A coordinate into the shape `S` of a layout with stride `D`: an integer
/// (`usize`), or a tuple with one coordinate per mode of `S`, nested as far
/// as wanted (paper def. 2.13–2.14: integral, rank-N and natural coordinates).
///
/// Post-condition: `offset_acc(s, d, acc)` is `acc` plus the layout's value at the coordinate; an
/// integer at a tuple mode is decomposed colexicographically with `idx2crd`
/// (paper eq. 4; the last leaf of that mode takes the quotient, so
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
    fn offset_acc(self, shape: &S, stride: &D, acc: usize) -> usize;
}

impl<S: Congruent<D>, D: IntTuple> Coord<S, D> for usize {
    #[inline(always)]
    fn offset_acc(self, shape: &S, stride: &D, acc: usize) -> usize {
        shape.offset_flat::<true>(stride, self, 1, acc)
    }
}

// Congruent and Coord for tuples: the modes before the last, `;`, the last.
macro_rules! tuple_congruent_all {
    ([$($i:tt $S:ident $D:ident $C:ident),*] $li:tt $LS:ident $LD:ident $LC:ident) => {
        #[diagnostic::do_not_recommend]
        impl<$($S: Congruent<$D>, $D: IntTuple,)* $LS: Congruent<$LD>, $LD: IntTuple>
            Congruent<($($D,)* $LD,)> for ($($S,)* $LS,)
        {
            const STATIC_SPAN: Option<usize> = {
                let s = Some(0);
                $( let s = add_static(s, <$S as Congruent<$D>>::STATIC_SPAN); )*
                add_static(s, <$LS as Congruent<$LD>>::STATIC_SPAN)
            };

            #[inline(always)]
            fn offset_flat<const LAST: bool>(
                &self,
                stride: &($($D,)* $LD,),
                i: usize,
                prefix: usize,
                acc: usize,
            ) -> usize {
                let p = prefix;
                $(
                    let acc = self.$i.offset_flat::<false>(&stride.$i, i, p, acc);
                    let p = p.wrapping_mul(self.$i.size());
                )*
                self.$li.offset_flat::<LAST>(&stride.$li, i, p, acc)
            }

            #[inline(always)]
            fn span(&self, stride: &($($D,)* $LD,)) -> usize {
                0usize $( .wrapping_add(self.$i.span(&stride.$i)) )* .wrapping_add(self.$li.span(&stride.$li))
            }
        }

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
    };
}

tuple_congruent_all!([] 0 S0 D0 C0);
tuple_congruent_all!([0 S0 D0 C0] 1 S1 D1 C1);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1] 2 S2 D2 C2);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2] 3 S3 D3 C3);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3] 4 S4 D4 C4);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4] 5 S5 D5 C5);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5] 6 S6 D6 C6);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5, 6 S6 D6 C6] 7 S7 D7 C7);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5, 6 S6 D6 C6, 7 S7 D7 C7] 8 S8 D8 C8);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5, 6 S6 D6 C6, 7 S7 D7 C7, 8 S8 D8 C8] 9 S9 D9 C9);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5, 6 S6 D6 C6, 7 S7 D7 C7, 8 S8 D8 C8, 9 S9 D9 C9] 10 S10 D10 C10);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5, 6 S6 D6 C6, 7 S7 D7 C7, 8 S8 D8 C8, 9 S9 D9 C9, 10 S10 D10 C10] 11 S11 D11 C11);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5, 6 S6 D6 C6, 7 S7 D7 C7, 8 S8 D8 C8, 9 S9 D9 C9, 10 S10 D10 C10, 11 S11 D11 C11] 12 S12 D12 C12);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5, 6 S6 D6 C6, 7 S7 D7 C7, 8 S8 D8 C8, 9 S9 D9 C9, 10 S10 D10 C10, 11 S11 D11 C11, 12 S12 D12 C12] 13 S13 D13 C13);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5, 6 S6 D6 C6, 7 S7 D7 C7, 8 S8 D8 C8, 9 S9 D9 C9, 10 S10 D10 C10, 11 S11 D11 C11, 12 S12 D12 C12, 13 S13 D13 C13] 14 S14 D14 C14);
tuple_congruent_all!([0 S0 D0 C0, 1 S1 D1 C1, 2 S2 D2 C2, 3 S3 D3 C3, 4 S4 D4 C4, 5 S5 D5 C5, 6 S6 D6 C6, 7 S7 D7 C7, 8 S8 D8 C8, 9 S9 D9 C9, 10 S10 D10 C10, 11 S11 D11 C11, 12 S12 D12 C12, 13 S13 D13 C13, 14 S14 D14 C14] 15 S15 D15 C15);

/// Mode `I` of a tree (CuTe's `get<I>`): the `I`-th element of a tuple; mode
/// 0 of a leaf is the leaf itself.
///
/// ```
/// use cute_static::prelude::*;
/// let s = shape!(4, (3, 2));
/// assert_eq!(Mode::<1>::mode(&s).to_string_cute(), "(_3,_2)");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no mode {I}",
    label = "mode index out of range for this tree",
    note = "modes are numbered from 0 up to rank − 1"
)]
pub trait Mode<const I: usize>: IntTuple {
    /// The type of mode `I`.
    type Output: IntTuple;
    /// Mode `I`.
    fn mode(&self) -> Self::Output;
}

impl<T: Leaf + IntTuple> Mode<0> for T {
    type Output = T;
    #[inline(always)]
    fn mode(&self) -> T {
        *self
    }
}

macro_rules! tuple_mode {
    ($gen:tt $tup:ty ; $($i:tt => $Out:ident),+) => {
        $( tuple_mode!(@one $gen $tup ; $i $Out); )+
    };
    (@one [$($T:ident),+] $tup:ty ; $i:tt $Out:ident) => {
        impl<$($T: IntTuple),+> Mode<$i> for $tup {
            type Output = $Out;
            #[inline(always)]
            fn mode(&self) -> $Out {
                self.$i
            }
        }
    };
}

tuple_mode!([A0] (A0,); 0 => A0);
tuple_mode!([A0, A1] (A0, A1); 0 => A0, 1 => A1);
tuple_mode!([A0, A1, A2] (A0, A1, A2); 0 => A0, 1 => A1, 2 => A2);
tuple_mode!([A0, A1, A2, A3] (A0, A1, A2, A3); 0 => A0, 1 => A1, 2 => A2, 3 => A3);
tuple_mode!([A0, A1, A2, A3, A4] (A0, A1, A2, A3, A4); 0 => A0, 1 => A1, 2 => A2, 3 => A3, 4 => A4);
tuple_mode!([A0, A1, A2, A3, A4, A5] (A0, A1, A2, A3, A4, A5);
    0 => A0, 1 => A1, 2 => A2, 3 => A3, 4 => A4, 5 => A5);
tuple_mode!([A0, A1, A2, A3, A4, A5, A6] (A0, A1, A2, A3, A4, A5, A6);
    0 => A0, 1 => A1, 2 => A2, 3 => A3, 4 => A4, 5 => A5, 6 => A6);
tuple_mode!([A0, A1, A2, A3, A4, A5, A6, A7] (A0, A1, A2, A3, A4, A5, A6, A7);
    0 => A0, 1 => A1, 2 => A2, 3 => A3, 4 => A4, 5 => A5, 6 => A6, 7 => A7);

/// A CuTe layout `Shape:Stride` (paper def. 2.17): a function from
/// coordinates of `Shape` to offsets, `L(c) = Stride · idx2crd(c, Shape)`.
///
/// With typenum leaves the value is zero-sized and everything about it is
/// known at compile time; write it with the macros: `layout!((4,8):(1,4))`
/// for a value, `Layout![(4,8):(1,4)]` for the type.
///
/// ```
/// use cute_static::prelude::*;
/// let l = layout!((4,8):(1,4));
/// assert_eq!(core::mem::size_of_val(&l), 0);
/// assert_eq!(l.to_string(), "(_4,_8):(_1,_4)");
/// assert_eq!(l.index(9usize), 9);
/// assert_eq!(l.index((1usize, 2usize)), 9);
/// assert_eq!(<Layout![(4,8):(1,4)] as StaticLayout>::COSIZE, 32);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout<Shape, Stride> {
    shape: Shape,
    stride: Stride,
}

impl<S, D> Layout<S, D> {
    /// The layout with this shape and stride; they must be congruent (a
    /// compile error saying `not congruent` otherwise).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = Layout::from_parts(shape!(4, 8), stride!(1, 4));
    /// assert_eq!(l.to_string(), "(_4,_8):(_1,_4)");
    /// ```
    #[inline(always)]
    pub const fn from_parts(shape: S, stride: D) -> Self
    where
        S: Congruent<D>,
        D: IntTuple,
    {
        Layout { shape, stride }
    }
}

impl<S: Congruent<D>, D: IntTuple> Layout<S, D> {
    /// The shape tree.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(layout!((4,8):(1,4)).shape().to_string_cute(), "(_4,_8)");
    /// ```
    #[inline(always)]
    pub fn shape(&self) -> S {
        self.shape
    }

    /// The stride tree.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(layout!((4,8):(1,4)).stride().to_string_cute(), "(_1,_4)");
    /// ```
    #[inline(always)]
    pub fn stride(&self) -> D {
        self.stride
    }

    /// Size of the domain, the product of the shape (paper 2.4.1, `|L|`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(layout!((4,(3,2)):(2,(8,1))).size(), 24);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// `L(size − 1) + 1`: one past the largest offset (strides are
    /// non-negative).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(layout!((4,8):(1,5)).cosize(), 39);
    /// ```
    #[inline(always)]
    pub fn cosize(&self) -> usize {
        self.shape.span(&self.stride).wrapping_add(1)
    }

    /// Number of top-level modes (1 for a scalar layout).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(layout!((4,(3,2)):(2,(8,1))).rank(), 2);
    /// ```
    #[inline(always)]
    pub const fn rank(&self) -> usize {
        S::RANK
    }

    /// Nesting depth of the shape (0 for a scalar layout).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(layout!((4,(3,2)):(2,(8,1))).depth(), 2);
    /// ```
    #[inline(always)]
    pub const fn depth(&self) -> usize {
        S::DEPTH
    }

    /// The offset at a coordinate: an integral coordinate (`usize`), a
    /// rank-N coordinate (a tuple with one `usize` per mode) or a
    /// hierarchical one (nested tuples, paper def. 2.13). Integers are
    /// decomposed colexicographically (paper eq. 4), the last leaf of each
    /// integer's mode taking the quotient, then multiplied by the strides.
    ///
    /// With static leaves this inlines to the hand-written arithmetic:
    /// `layout!(((4,2),(2,8)):((1,16),(4,32))).index(i)` is
    /// `i%4 + (i/4%2)*16 + (i/8%2)*4 + (i/16)*32`. A coordinate of the wrong
    /// rank does not compile. Arithmetic wraps on overflow (never panics).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = layout!(((4,2),(2,8)):((1,16),(4,32)));
    /// let i = 37usize;
    /// assert_eq!(l.index(i), (i % 4) + (i / 4 % 2) * 16 + (i / 8 % 2) * 4 + (i / 16) * 32);
    /// assert_eq!(l.index((5usize, 4usize)), l.index(5 + 8 * 4usize));
    /// assert_eq!(l.index(((1usize, 1usize), (0usize, 2usize))), 1 + 16 + 64);
    /// ```
    #[inline(always)]
    pub fn index<C: Coord<S, D>>(&self, coord: C) -> usize {
        coord.offset_acc(&self.shape, &self.stride, 0)
    }

    /// Mode `I` as a layout (paper 2.4.1, the sublayout `L_I = S_I:D_I`);
    /// mode 0 of a scalar layout is itself.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = layout!((4,(3,2)):(2,(8,1)));
    /// assert_eq!(l.get::<1>().to_string(), "(_3,_2):(_8,_1)");
    /// ```
    #[inline(always)]
    pub fn get<const I: usize>(&self) -> Layout<<S as Mode<I>>::Output, <D as Mode<I>>::Output>
    where
        S: Mode<I>,
        D: Mode<I>,
        <S as Mode<I>>::Output: Congruent<<D as Mode<I>>::Output>,
    {
        Layout { shape: self.shape.mode(), stride: self.stride.mode() }
    }

    /// The equal run-time layout of `cute-dynamic`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let d: cute_dynamic::Layout = "(4,(3,2)):(2,(8,1))".parse().unwrap();
    /// assert_eq!(layout!((4,(3,2)):(2,(8,1))).to_dynamic(), d);
    /// ```
    #[cfg(feature = "std")]
    pub fn to_dynamic(&self) -> cute_dynamic::Layout
    where
        Self: StaticLayout,
    {
        // Compile-time guarantee that cute-dynamic's invariants hold: leaves
        // fit in an i64 (checked by the macros) and so do size and cosize.
        const {
            assert!(<Self as StaticLayout>::SIZE <= i64::MAX as usize, "layout size exceeds i64");
            assert!(<Self as StaticLayout>::COSIZE <= i64::MAX as usize, "layout cosize exceeds i64");
        }
        match cute_dynamic::Layout::new(self.shape.to_dynamic(), self.stride.to_dynamic()) {
            Ok(l) => l,
            // Unreachable: the trees are congruent by type, extents positive
            // by `ShapeLeaf`, and size/cosize fit by the assertion above.
            Err(e) => unreachable!("static layout rejected by cute-dynamic: {e}"),
        }
    }
}

impl<S: StaticIntTuple + Congruent<D>, D: StaticIntTuple> Layout<S, D> {
    /// The (zero-sized) value of an all-static layout type.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = <Layout![(4,8):(8,1)]>::new();
    /// assert_eq!(l.index((1usize, 2usize)), 10);
    /// ```
    #[inline(always)]
    pub fn new() -> Self {
        Layout { shape: S::new(), stride: D::new() }
    }
}

/// Compile-time facts of an all-static layout.
///
/// Post-conditions: `SIZE = |L|` (product of the shape), `COSIZE =
/// L(SIZE − 1) + 1 = Σ(s−1)·d + 1`, `RANK` and `DEPTH` those of the shape.
///
/// ```
/// use cute_static::prelude::*;
/// type L = Layout![((2,2),(4,2)):((1,8),(2,16))];
/// const N: usize = <L as StaticLayout>::SIZE;
/// assert_eq!(N, 32);
/// assert_eq!(<L as StaticLayout>::COSIZE, 32);
/// assert_eq!(<L as StaticLayout>::RANK, 2);
/// assert_eq!(<L as StaticLayout>::DEPTH, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an all-static layout",
    note = "static layouts are written with `layout!`/`Layout!`; their shape and stride must be congruent"
)]
pub trait StaticLayout: Copy + Default + fmt::Display {
    /// The shape tree type.
    type Shape: StaticIntTuple;
    /// The stride tree type.
    type Stride: StaticIntTuple;
    /// Size of the domain.
    const SIZE: usize;
    /// One past the largest offset.
    const COSIZE: usize;
    /// Number of top-level modes.
    const RANK: usize;
    /// Depth of the shape.
    const DEPTH: usize;
}

const fn unwrap_static(v: Option<usize>) -> usize {
    match v {
        Some(v) => v,
        None => panic!("layout is not all-static"),
    }
}

impl<S: StaticIntTuple + Congruent<D>, D: StaticIntTuple> Default for Layout<S, D> {
    /// The (zero-sized) value of an all-static layout type, as [`Layout::new`].
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<S: StaticIntTuple + Congruent<D>, D: StaticIntTuple> StaticLayout for Layout<S, D> {
    type Shape = S;
    type Stride = D;
    const SIZE: usize = unwrap_static(mul_static(Some(1), S::STATIC_SIZE));
    const COSIZE: usize = unwrap_static(add_static(S::STATIC_SPAN, Some(1)));
    const RANK: usize = S::RANK;
    const DEPTH: usize = S::DEPTH;
}

impl<S: Congruent<D>, D: IntTuple> fmt::Display for Layout<S, D> {
    /// CuTe's print: `(_4,_8):(_1,_4)`, `_12:_1`, `(_4):(_1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.shape.fmt_cute(f)?;
        f.write_str(":")?;
        self.stride.fmt_cute(f)
    }
}

impl<S: Congruent<D>, D: IntTuple> fmt::Debug for Layout<S, D> {
    /// `Layout((_4,_8):(_1,_4))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({self})")
    }
}
