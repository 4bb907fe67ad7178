//! Slicing a layout at a coordinate with underscores (CuTe's `slice`,
//! `slice_and_offset`): the modes at `_` stay, the modes at an integer are
//! fixed and contribute to an offset.
//!
//! The coordinate is a tree of `usize` (fixed) and [`Underscore`] (free)
//! with the structure of the layout's shape (an integer may stand for a
//! whole sub-tree, as an integral coordinate of it). The result's modes are
//! the free modes, left to right, concatenated into one tuple (CuTe's
//! `filter_tuple`): `(2,_)` of `((3,2),(2,5,2))` is `((2,5,2))`, and
//! `((_,1),(2,_))` of `((3,2),(2,5))` is `(3,5)`. The types of the result
//! are found in trait resolution; only the offset is computed, with the
//! arithmetic of [`Layout::index`].

use crate::coord::Coord;
use crate::int_tuple::{IntTuple, OffsetInt};
use crate::layout::{Congruent, Layout};

/// CuTe's `_` in a slice coordinate: the mode stays free. Rust cannot name
/// a value `_`; write [`Underscore`] (or `__`, the constant), or use the
/// [`crd!`](crate::crd) macro, which accepts `_` itself.
///
/// ```
/// use cute_static::prelude::*;
/// let l = layout!((4,8):(1,4));
/// let (row, off) = slice_and_offset(&l, (2usize, Underscore));
/// assert_eq!(row.to_string(), "(_8):(_4)");
/// assert_eq!(off, 2);
/// assert_eq!(slice(&l, crd!(_, 3usize)).to_string(), "(_4):(_1)");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Underscore;

/// The [`Underscore`] value, for coordinates written by hand:
/// `(2usize, __)` is CuTe's `(2,_)`.
pub const __: Underscore = Underscore;

/// A list of the free modes found so far (values, right to left).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct VNil;
/// A free mode `H` followed by the list `T`.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct VCons<H, T>(pub H, pub T);

/// A slice coordinate of the shape `S` with stride `D`, folded onto the
/// list `Acc` of the free modes to its right.
///
/// Post-condition: `slice_into(s, d, acc, off)` returns the free modes of
/// `Self` (left to right) followed by `acc`, and `off` plus the offset of
/// `Self` with every `_` read as 0 (wrapping).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a slice coordinate of this layout: its rank or nesting does not match the layout's shape",
    label = "slice coordinate of the wrong rank for this layout",
    note = "a slice coordinate has one entry per mode of the shape: `usize` (fixed) or `Underscore` (free), nested where the shape is"
)]
#[doc(hidden)]
pub trait SliceInto<S, D, Acc> {
    /// The free modes of `Self` followed by `Acc`.
    type Out;
    /// The free modes and the offset.
    fn slice_into(self, s: &S, d: &D, acc: Acc, off: usize) -> (Self::Out, usize);
}

impl<S: Congruent<D>, D: IntTuple, Acc> SliceInto<S, D, Acc> for usize {
    type Out = Acc;
    #[inline(always)]
    fn slice_into(self, s: &S, d: &D, acc: Acc, off: usize) -> (Acc, usize) {
        (acc, Coord::<S, D>::offset_acc(self, s, d, off))
    }
}

impl<S: Congruent<D>, D: IntTuple, Acc> SliceInto<S, D, Acc> for Underscore {
    type Out = VCons<Layout<S, D>, Acc>;
    #[inline(always)]
    fn slice_into(self, s: &S, d: &D, acc: Acc, off: usize) -> (Self::Out, usize) {
        (VCons(Layout::from_checked(*s, *d), acc), off)
    }
}

// A tuple coordinate: the modes folded from the right (mode k onto the
// free modes of the modes after it), so the list reads left to right.
macro_rules! slice_tuple {
    ($($i:tt $C:ident $S:ident $D:ident $O:ident),+) => {
        slice_tuple!(@chain [] [$($i $C $S $D $O)+]);
    };
    // Each position's accumulator is the next one's output, the last's
    // is `Acc`.
    (@chain [$($done:tt)*] [$i:tt $C:ident $S:ident $D:ident $O:ident $j:tt $C1:ident $S1:ident $D1:ident $O1:ident $($rest:tt)*]) => {
        slice_tuple!(@chain [$($done)* ($i $C $S $D $O $O1)] [$j $C1 $S1 $D1 $O1 $($rest)*]);
    };
    (@chain [$($done:tt)*] [$i:tt $C:ident $S:ident $D:ident $O:ident]) => {
        slice_tuple!(@impl $($done)* ($i $C $S $D $O Acc));
    };
    (@impl $(($i:tt $C:ident $S:ident $D:ident $O:ident $N:ident))+) => {
        impl<$($C, $S, $D, $O,)+ Acc> SliceInto<($($S,)+), ($($D,)+), Acc> for ($($C,)+)
        where
            $($C: SliceInto<$S, $D, $N, Out = $O>,)+
        {
            // `E0`: position 0's output (`for_each_tuple!(wide ..)`'s name).
            type Out = E0;
            #[inline(always)]
            fn slice_into(self, s: &($($S,)+), d: &($($D,)+), acc: Acc, off: usize) -> (E0, usize) {
                slice_tuple!(@fold self s d acc off; [] $($i)+)
            }
        }
    };
    (@fold $self:ident $s:ident $d:ident $acc:ident $off:ident; [$($done:tt)*] $i:tt $($rest:tt)*) => {
        slice_tuple!(@fold $self $s $d $acc $off; [$i $($done)*] $($rest)*)
    };
    (@fold $self:ident $s:ident $d:ident $acc:ident $off:ident; [$($i:tt)+]) => {{
        let (acc, off) = ($acc, $off);
        $( let (acc, off) = $self.$i.slice_into(&$s.$i, &$d.$i, acc, off); )+
        (acc, off)
    }};
}

for_each_tuple!(wide slice_tuple);

/// A non-empty list of free modes as the layout whose modes they are (a
/// tuple, `(L0)` for one).
#[diagnostic::on_unimplemented(
    message = "this slice keeps no mode (or more than 16)",
    label = "a slice coordinate needs at least one `_`",
    note = "to read one element, index the tensor (`t[c]`) or the layout (`l.index(c)`)"
)]
#[doc(hidden)]
pub trait ModesLayout {
    /// The layout.
    type Output;
    /// The layout of these modes.
    fn layout(self) -> Self::Output;
}

macro_rules! modes_layout {
    ($($i:literal $v:ident $S:ident $D:ident),+) => {
        impl<$($S: Congruent<$D>, $D: IntTuple),+> ModesLayout for modes_layout!(@list $($S $D)+)
        where
            ($($S,)+): Congruent<($($D,)+)>,
        {
            type Output = Layout<($($S,)+), ($($D,)+)>;
            #[inline(always)]
            #[allow(non_snake_case)] // the bindings take the arity list's names
            fn layout(self) -> Self::Output {
                let modes_layout!(@pat $($v)+) = self;
                Layout::from_checked(($($v.shape(),)+), ($($v.stride(),)+))
            }
        }
    };
    (@list $S:ident $D:ident $($rest:ident)*) => { VCons<Layout<$S, $D>, modes_layout!(@list $($rest)*)> };
    (@list) => { VNil };
    (@pat $v:ident $($rest:ident)*) => { VCons($v, modes_layout!(@pat $($rest)*)) };
    (@pat) => { VNil };
}

for_each_tuple!(modes_layout);

/// A layout that can be sliced at the coordinate `C`; the bound generic
/// code states (`where L: Slice<C>`).
///
/// Post-conditions: see [`slice_and_offset`].
///
/// ```
/// use cute_static::prelude::*;
/// // Column `j` of any layout of two modes, and where it starts.
/// fn column<L: Slice<(Underscore, usize)>>(l: &L, j: usize) -> (L::Output, usize) {
///     l.slice_wrapping(crd!(_, j))
/// }
/// let l = layout!((4, 8):(8, 1)); // row-major
/// let (col, off) = column(&l, 5);
/// assert_eq!((col.to_string(), off), ("(_4):(_8)".to_string(), 5));
/// assert!((0..4usize).all(|i| l.index((i, 5usize)) == off + col.index(i)));
/// ```
pub trait Slice<C> {
    /// The sublayout of the free modes.
    type Output;
    /// The sublayout and the offset (wrapping, two's complement when a
    /// run-time stride is negative).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let (col, off) = layout!((4, 8):(1, 4)).slice_wrapping(crd!(_, 3usize));
    /// assert_eq!((col.to_string(), off), ("(_4):(_1)".to_string(), 12)); // column 3 starts at 3·4
    /// let l = make_layout((Int::<4>::new(), 3usize), (Int::<1>::new(), -4i64));
    /// let (_, off) = l.slice_wrapping(crd!(_, 2usize));
    /// assert_eq!(off, (-8i64) as usize); // slice_and_offset gives -8
    /// ```
    fn slice_wrapping(&self, c: C) -> (Self::Output, usize);
}

impl<S: Congruent<D>, D: IntTuple, C: SliceInto<S, D, VNil>> Slice<C> for Layout<S, D>
where
    C::Out: ModesLayout,
{
    type Output = <C::Out as ModesLayout>::Output;
    #[inline(always)]
    fn slice_wrapping(&self, c: C) -> (Self::Output, usize) {
        let (modes, off) = c.slice_into(&self.shape(), &self.stride(), VNil, 0);
        (modes.layout(), off)
    }
}

/// CuTe's `slice_and_offset(coord, layout)`: the sublayout of the modes
/// where `coord` has `_` ([`Underscore`]), and the offset of `coord` with
/// every `_` read as 0.
///
/// Post-condition: for every coordinate `k` of the sublayout,
/// `layout(c(k)) = offset + sub(k)`, where `c(k)` fills the `_` of `coord`
/// with the parts of `k`. The sublayout's modes are the free modes, left to
/// right, in one tuple. Static parts stay static; the offset is computed
/// with [`Layout::index`]'s arithmetic (`usize` for static strides, `i64`
/// when a stride is run-time).
///
/// The golden example of CuTe's documentation, `A(2,_)`:
///
/// ```
/// use cute_static::prelude::*;
/// let (a, b) = (2usize, 13usize);
/// let l = layout!(((3,{a}),({a},5,2)):((4,1),(2,{b},100)));
/// let (sub, off) = slice_and_offset(&l, crd!(2usize, _));
/// assert_eq!(sub.to_string(), "((2,_5,_2)):((_2,13,_100))");
/// assert_eq!(off, 8);
/// ```
#[inline(always)]
pub fn slice_and_offset<S: Congruent<D>, D: IntTuple, C>(
    layout: &Layout<S, D>,
    coord: C,
) -> (<Layout<S, D> as Slice<C>>::Output, D::Offset)
where
    Layout<S, D>: Slice<C>,
{
    let (sub, off) = layout.slice_wrapping(coord);
    (sub, D::Offset::from_wrapping(off))
}

/// CuTe's `slice(coord, layout)`: the sublayout of [`slice_and_offset`]
/// without the offset.
///
/// ```
/// use cute_static::prelude::*;
/// let l = layout!(((3,2),((2,3),2)):((4,1),((2,15),100)));
/// assert_eq!(slice(&l, crd!(2usize, ((0usize, _), _))).to_string(), "(_3,_2):(_15,_100)");
/// assert_eq!(slice(&l, crd!(_, ((1usize, _), 1usize))).to_string(), "((_3,_2),_3):((_4,_1),_15)");
/// ```
#[inline(always)]
pub fn slice<S: Congruent<D>, D: IntTuple, C>(layout: &Layout<S, D>, coord: C) -> <Layout<S, D> as Slice<C>>::Output
where
    Layout<S, D>: Slice<C>,
{
    layout.slice_wrapping(coord).0
}

/// A coordinate tree in CuTe's notation, `_` included: `crd!(2usize, _)`
/// is `(2usize, Underscore)`, `crd!(_, (1usize, _))` nests, and any other
/// expression stands for itself (`crd!(i, _)`).
///
/// ```
/// use cute_static::prelude::*;
/// let c = crd!(1usize, (_, 2usize));
/// assert_eq!(c, (1usize, (Underscore, 2usize)));
/// let i = 3usize;
/// assert_eq!(crd!(_, i), (Underscore, 3usize));
/// assert_eq!(crd!(_), Underscore);
/// ```
#[macro_export]
macro_rules! crd {
    // One entry: `_`, a parenthesized tuple, or an expression.
    (@one _) => { $crate::Underscore };
    (@one ($($t:tt)*)) => { $crate::crd!(@tuple [] [] $($t)*) };
    (@one $($e:tt)+) => { $($e)+ };
    // Tuples: split on top-level commas (entries of several tokens kept whole).
    (@tuple [$($done:tt)*] [$($cur:tt)*] , $($rest:tt)*) => {
        $crate::crd!(@tuple [$($done)* ($crate::crd!(@one $($cur)*)),] [] $($rest)*)
    };
    (@tuple [$($done:tt)*] [$($cur:tt)*] $t:tt $($rest:tt)*) => {
        $crate::crd!(@tuple [$($done)*] [$($cur)* $t] $($rest)*)
    };
    (@tuple [$($done:tt)*] []) => { ($($done)*) };
    (@tuple [$($done:tt)*] [$($cur:tt)+]) => { ($($done)* ($crate::crd!(@one $($cur)+)),) };
    // The top: one entry is itself, several are a tuple.
    (@top [$($cur:tt)*] , $($rest:tt)*) => { $crate::crd!(@tuple [] [] $($cur)* , $($rest)*) };
    (@top [$($cur:tt)*] $t:tt $($rest:tt)*) => { $crate::crd!(@top [$($cur)* $t] $($rest)*) };
    (@top [$($cur:tt)*]) => { $crate::crd!(@one $($cur)*) };
    ($($t:tt)*) => { $crate::crd!(@top [] $($t)*) };
}

/// A layout that the slice coordinate `C` slices: what
/// [`Tensor::slice`](crate::Tensor::slice) needs of a tensor's layout, under
/// one name for the bounds of generic kernels. Implemented for layouts
/// (with `C` a coordinate with `_` of their shape) and for swizzled
/// composed layouts (through the inner layout).
///
/// ```
/// use cute_static::prelude::*;
/// // The k-th tile of a (BLK,BLK_K,k) tensor, for any layout.
/// fn k_tile<L: SliceBy<(Underscore, Underscore, usize)>>(
///     t: Tensor<&[f32], L>,
///     k: usize,
/// ) -> Tensor<&[f32], L::Output> {
///     t.slice((__, __, k))
/// }
/// let data: Vec<f32> = (0..64).map(|x| x as f32).collect();
/// let t = k_tile(make_tensor(&data[..], layout!((4, 4, 4):(1, 4, 16))), 2);
/// assert_eq!(t[(1usize, 1usize)], 37.0);
/// ```
pub trait SliceBy<C>: Copy {
    /// The layout of the slice.
    type Output;
    /// The slice and its offset; `None` when a fixed entry of `c` is
    /// outside its mode.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = layout!((4, 8):(1, 4));
    /// let (row, off) = l.slice_by(crd!(2usize, _)).unwrap();
    /// assert_eq!((row.to_string(), off), ("(_8):(_4)".to_string(), 2));
    /// assert!(l.slice_by(crd!(4usize, _)).is_none()); // row 4 of 4 rows
    /// ```
    fn slice_by(&self, c: C) -> Option<(Self::Output, usize)>;
}
impl<S: Congruent<D>, D: IntTuple, C: InDomain<S>> SliceBy<C> for Layout<S, D>
where
    Layout<S, D>: Slice<C>,
{
    type Output = <Layout<S, D> as Slice<C>>::Output;
    #[inline(always)]
    fn slice_by(&self, c: C) -> Option<(Self::Output, usize)> {
        if c.inside(&self.shape()) { Some(self.slice_wrapping(c)) } else { None }
    }
}
impl<A: crate::swizzle::OffsetFn, O: crate::Leaf, S: Congruent<D>, D: IntTuple, C> SliceBy<C>
    for crate::ComposedLayout<A, O, Layout<S, D>>
where
    Layout<S, D>: SliceBy<C>,
    <Layout<S, D> as SliceBy<C>>::Output: Copy,
{
    type Output = crate::ComposedLayout<A, O, <Layout<S, D> as SliceBy<C>>::Output>;
    #[inline(always)]
    fn slice_by(&self, c: C) -> Option<(Self::Output, usize)> {
        let (sub, off) = self.inner().slice_by(c)?;
        Some((crate::composed::with_inner(*self, sub), off))
    }
}

/// A coordinate (or slice coordinate) inside the shape `S`: every integer
/// below the size of the mode it stands for; `_` is always inside.
///
/// Post-condition: `inside(s)` is true exactly when the coordinate names
/// elements of the shape's domain (an integral coordinate of a tuple mode
/// is inside when it is below the mode's size). The bound, beside
/// [`Coord`](crate::Coord), of a tensor's checked access (`get`,
/// indexing), for code generic over the coordinate.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::InDomain;
/// let s = shape!(4, (2, 3));
/// assert!((3usize, 5usize).inside(&s));            // mode 1 counted as one of size 6
/// assert!((3usize, (1usize, 2usize)).inside(&s));
/// assert!(!(4usize, 0usize).inside(&s));
/// assert!((__, 5usize).inside(&s));                // `_` is always inside
/// ```
pub trait InDomain<S> {
    /// Whether the coordinate is inside `s`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::InDomain;
    /// let s = shape!(4, 8);
    /// assert!((3usize, 7usize).inside(&s) && !(3usize, 8usize).inside(&s));
    /// assert!(31usize.inside(&s) && !32usize.inside(&s)); // an integer against the size, 32
    /// ```
    fn inside(&self, s: &S) -> bool;
}
impl<S: IntTuple> InDomain<S> for usize {
    #[inline(always)]
    fn inside(&self, s: &S) -> bool {
        *self < s.size()
    }
}
impl<S> InDomain<S> for Underscore {
    #[inline(always)]
    fn inside(&self, _: &S) -> bool {
        true
    }
}
macro_rules! tuple_in_domain {
    ($($i:tt $C:ident $S:ident $_x:ident),+) => {
        impl<$($C: InDomain<$S>, $S),+> InDomain<($($S,)+)> for ($($C,)+) {
            #[inline(always)]
            fn inside(&self, s: &($($S,)+)) -> bool {
                true $( & self.$i.inside(&s.$i) )+
            }
        }
    };
}
for_each_tuple!(tuple_in_domain);
