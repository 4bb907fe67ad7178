//! `Layout<Shape, Stride>`: a CuTe layout with static and run-time leaves,
//! its construction, its evaluation at integral coordinates
//! ([`Congruent::offset_flat`]; at any coordinate in `coord.rs`), its
//! static facts, printing and conversion.

use crate::int_tuple::{CuteFmt, Dyn, IntTuple, IntoIntTuple, Leaf, StaticIntTuple, add_static, mul_static};
use core::fmt;
use typenum::{Bit, UInt, Unsigned};

/// A leaf that may stand in a shape: a positive integer.
///
/// Every typenum `UInt` is positive (`UTerm`, zero, is not a shape leaf);
/// a [`Dyn`] extent is checked positive when its layout is made
/// ([`make_layout`]), so indexing never divides by zero.
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

impl ShapeLeaf for Dyn {}

/// What [`Congruent::extent`] accumulates: the size and the highest and
/// lowest offsets, `None` once they overflow `i64`, and whether an extent
/// is below 1 (cute-dynamic's `Layout::new` checks the same).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Extent {
    size: Option<i64>,
    hi: Option<i64>,
    lo: Option<i64>,
    non_positive: bool,
}

impl Extent {
    const START: Extent = Extent { size: Some(1), hi: Some(0), lo: Some(0), non_positive: false };

    #[inline(always)]
    fn leaf(&mut self, s: i64, d: i64) {
        if s < 1 {
            self.non_positive = true;
            return;
        }
        self.size = self.size.and_then(|z| z.checked_mul(s));
        match (s - 1).checked_mul(d) {
            Some(span) if span > 0 => self.hi = self.hi.and_then(|h| h.checked_add(span)),
            Some(span) => self.lo = self.lo.and_then(|l| l.checked_add(span)),
            None => (self.hi, self.lo) = (None, None),
        }
    }

    /// Why a layout with these leaves is not a layout, if it is not.
    /// Inlined: with static leaves the whole check folds to `None` (out of
    /// line, a partition's `concat` paid a call for it every time).
    #[inline(always)]
    fn invalid(&self) -> Option<Invalid> {
        if self.non_positive {
            Some(Invalid::NonPositiveShape)
        } else if self.size.is_none() {
            Some(Invalid::Overflow("layout size"))
        } else if self.hi.zip(self.lo).and_then(|(h, l)| h.checked_add(1)?.checked_sub(l)).is_none() {
            // One past the largest offset, and the span (the cosize), fit.
            Some(Invalid::Overflow("layout extent"))
        } else {
            None
        }
    }
}

/// A failed run-time check of [`make_layout`], without allocation (the
/// crate works without `std`); it becomes a `cute_dynamic::LayoutError`
/// and its panic message is that error's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Invalid {
    NonPositiveShape,
    Overflow(&'static str),
}

impl Invalid {
    #[cfg(feature = "std")]
    #[cold]
    fn to_error<S: IntTuple>(self, shape: &S) -> cute_dynamic::LayoutError {
        use std::string::ToString;
        match self {
            Invalid::NonPositiveShape => {
                cute_dynamic::LayoutError::NonPositiveShape { shape: CuteFmt(shape).to_string() }
            }
            Invalid::Overflow(operation) => cute_dynamic::LayoutError::Overflow { operation },
        }
    }

    #[cold]
    #[inline(never)]
    #[track_caller]
    fn panic<S: IntTuple>(self, shape: &S) -> ! {
        #[cfg(feature = "std")]
        panic!("{}", self.to_error(shape));
        // The same text as cute-dynamic's `LayoutError` (see its Display).
        #[cfg(not(feature = "std"))]
        match self {
            Invalid::NonPositiveShape => panic!("shape {} has an extent that is not positive", CuteFmt(shape)),
            Invalid::Overflow(operation) => {
                panic!("arithmetic overflow in {operation}: a value does not fit in 64 bits")
            }
        }
    }
}

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

    /// The flat leaves, for evaluation in `const` items (the composed-layout
    /// algebra).
    #[doc(hidden)]
    const CONST_LEAVES: crate::detail::const_eval::ConstLeaves;

    /// `acc` plus the offset of the integral coordinate `i` within this
    /// subtree, whose first leaf has column-major weight `prefix`; the last
    /// leaf is unbounded iff `LAST`. The terms are added to `acc` leaf by
    /// leaf, left to right, as one writes the sum by hand. Wrapping
    /// arithmetic.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let (s, d) = (shape!(4, 2), stride!(2, 1));
    /// // 13 is (13 % 4, 13 / 4) = (1, 3), the last leaf unbounded.
    /// assert_eq!(s.offset_flat::<true>(&d, 13, 1, 0), 1 * 2 + 3 * 1);
    /// // Not last: the last leaf's coordinate is taken modulo 2 too.
    /// assert_eq!(s.offset_flat::<false>(&d, 13, 1, 0), 1 * 2 + 1 * 1);
    /// // Weight 2 (after a mode of size 2): 6 is (6 / 2 % 4, 6 / 8) = (3, 0).
    /// assert_eq!(s.offset_flat::<true>(&d, 6, 2, 100), 100 + 3 * 2);
    /// ```
    fn offset_flat<const LAST: bool>(&self, stride: &D, i: usize, prefix: usize, acc: usize) -> usize;

    /// `Σ (s − 1)·|d|` over the leaves at run time (wrapping): the
    /// cosize minus 1 when no stride is negative.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(shape!(4, 8).span(&stride!(1, 4)), 31);
    /// let l = make_layout((Int::<4>::new(), 3usize), (Int::<2>::new(), -8i64));
    /// assert_eq!(l.shape().span(&l.stride()), 3 * 2 + 2 * 8); // the negative stride by its magnitude
    /// ```
    fn span(&self, stride: &D) -> usize;

    /// Adds the leaves to `e` (the run-time checks of [`make_layout`]).
    #[doc(hidden)]
    fn extent(&self, stride: &D, e: &mut Extent);
}

#[diagnostic::do_not_recommend]
impl<S: ShapeLeaf, D: Leaf + IntTuple> Congruent<D> for S {
    const STATIC_SPAN: Option<usize> = match S::STATIC {
        Some(s) => mul_static(Some(s.saturating_sub(1)), D::STATIC),
        None => None,
    };
    const CONST_LEAVES: crate::detail::const_eval::ConstLeaves =
        crate::detail::const_eval::ConstLeaves::leaf(S::STATIC, D::STATIC);

    #[inline(always)]
    fn offset_flat<const LAST: bool>(&self, stride: &D, i: usize, prefix: usize, acc: usize) -> usize {
        let c = i.checked_div(prefix).unwrap_or_default();
        let c = if LAST { c } else { c.checked_rem(self.value()).unwrap_or_default() };
        acc.wrapping_add(c.wrapping_mul(stride.value()))
    }

    #[inline(always)]
    fn span(&self, stride: &D) -> usize {
        // CuTe's cosize counts a negative (run-time) stride by its magnitude.
        self.value().saturating_sub(1).wrapping_mul(stride.signed().unsigned_abs() as usize)
    }

    #[inline(always)]
    fn extent(&self, stride: &D, e: &mut Extent) {
        e.leaf(self.signed(), stride.signed())
    }
}

// Congruent for tuples: the modes before the last, then the last (its
// `offset_flat` gets `LAST`; the element names `$C` are not needed here).
macro_rules! tuple_congruent {
    ([$($i:tt $C:ident $S:ident $D:ident,)*] $li:tt $LC:ident $LS:ident $LD:ident) => {
        #[diagnostic::do_not_recommend]
        impl<$($S: Congruent<$D>, $D: IntTuple,)* $LS: Congruent<$LD>, $LD: IntTuple>
            Congruent<($($D,)* $LD,)> for ($($S,)* $LS,)
        {
            const STATIC_SPAN: Option<usize> = {
                let s = Some(0);
                $( let s = add_static(s, <$S as Congruent<$D>>::STATIC_SPAN); )*
                add_static(s, <$LS as Congruent<$LD>>::STATIC_SPAN)
            };
            const CONST_LEAVES: crate::detail::const_eval::ConstLeaves = {
                let t = crate::detail::const_eval::ConstLeaves::EMPTY;
                $( let t = t.concat(<$S as Congruent<$D>>::CONST_LEAVES); )*
                t.concat(<$LS as Congruent<$LD>>::CONST_LEAVES)
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

            #[inline(always)]
            fn extent(&self, stride: &($($D,)* $LD,), e: &mut Extent) {
                $( self.$i.extent(&stride.$i, e); )*
                self.$li.extent(&stride.$li, e)
            }
        }
    };
}

for_each_tuple!(last tuple_congruent);

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
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = layout!((4, (3, 2)):(1, (4, 12)));
    /// assert_eq!(Mode::<1>::mode(&l.shape()), shape!(3, 2));
    /// assert_eq!(Mode::<1>::mode(&l.stride()), stride!(4, 12));
    /// assert_eq!(Mode::<0>::mode(&shape!(5)), shape!(5)); // mode 0 of a leaf: the leaf
    /// ```
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
    (@all $gen:tt $($i:tt $T:ident),+) => {
        $( tuple_mode!(@one $gen $i $T); )+
    };
    (@one [$($T:ident),+] $i:tt $Out:ident) => {
        impl<$($T: IntTuple),+> Mode<$i> for ($($T,)+) {
            type Output = $Out;
            #[inline(always)]
            fn mode(&self) -> $Out {
                self.$i
            }
        }
    };
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        tuple_mode!(@all [$($T),+] $($i $T),+);
    };
}

for_each_tuple!(tuple_mode);

/// A CuTe layout `Shape:Stride` (paper def. 2.17): a function from
/// coordinates of `Shape` to offsets, `L(c) = Stride · idx2crd(c, Shape)`.
///
/// With typenum leaves the value is zero-sized and everything about it is
/// known at compile time; write it with the macros: `layout!((4,8):(1,4))`
/// for a value, `Layout![(4,8):(1,4)]` for the type. Leaves may also be
/// run-time ([`Dyn`]): `layout!(({m},{n}):(1,{m}))` holds `m` and `n`, and
/// only them (see [`make_layout`]).
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
    ///
    /// All leaves must be static (with run-time leaves use [`make_layout`],
    /// which checks them).
    #[inline(always)]
    pub const fn from_parts(shape: S, stride: D) -> Self
    where
        S: Congruent<D>,
        D: IntTuple,
        S: StaticIntTuple,
        D: StaticIntTuple,
    {
        Layout { shape, stride }
    }

    /// [`Layout::from_parts`] for `layout!`, which has read every leaf as
    /// a number: the macro's text is the proof that all are static, so the
    /// trait solver is not asked again (a cost paid per layout written).
    #[doc(hidden)]
    #[inline(always)]
    pub const fn from_static_parts(shape: S, stride: D) -> Self
    where
        S: Congruent<D>,
        D: IntTuple,
    {
        Layout { shape, stride }
    }
}

impl<S, D> Layout<S, D> {
    /// The layout from parts the caller has already checked (the mixed
    /// algebra, whose results are layouts by construction).
    #[inline(always)]
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) const fn from_checked(shape: S, stride: D) -> Self {
        Layout { shape, stride }
    }
}

/// The layout `shape:stride` from values (CuTe's `make_layout`): leaves
/// that are [`Int<N>`](crate::Int) (typenum) values stay static, `usize` and
/// `i64` values become run-time [`Dyn`] leaves; tuples nest. `layout!` with
/// braced leaves (`layout!(({m},8):(1,{m}))`) expands to this.
///
/// Shape and stride must be congruent (a compile error otherwise). The
/// run-time checks are cute-dynamic's `Layout::new`: every extent is at
/// least 1, the size and every offset fit in an `i64`.
///
/// # Panics
///
/// When a run-time check fails, with the message of the error
/// [`try_make_layout`] returns (`shape (0,_8) has an extent that is not
/// positive`), as `slice::chunks(0)` panics. An all-static layout never
/// panics.
///
/// ```
/// use cute_static::prelude::*;
/// let (m, n) = (1000usize, 500usize);
/// let l = make_layout((m, n), (Int::<1>::new(), m));
/// assert_eq!(l.to_string(), "(1000,500):(_1,1000)");
/// assert_eq!(l, layout!(({m},{n}):(1,{m})));
/// assert_eq!(l.index((2usize, 3usize)), 3002);
/// ```
#[inline(always)]
#[track_caller]
pub fn make_layout<S: IntoIntTuple, D: IntoIntTuple>(shape: S, stride: D) -> Layout<S::Output, D::Output>
where
    S::Output: Congruent<D::Output>,
{
    let (Some(shape), Some(stride)) = (shape.into_int_tuple(), stride.into_int_tuple()) else {
        crate::int_tuple::overflow_panic()
    };
    let l = Layout { shape, stride };
    // The checks of an all-static layout fold away: its leaves are constants.
    if let Some(e) = l.invalid() {
        e.panic(&l.shape)
    }
    l
}

/// [`make_layout`] that returns the failed run-time check as an error
/// instead of panicking (with the default `std` feature). `try_layout!`
/// expands to this.
///
/// Errors: `NonPositiveShape` if a run-time extent is below 1, `Overflow`
/// if a run-time value, the size or an offset exceeds `i64`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_dynamic::LayoutError;
/// let m = 0usize;
/// let e = try_make_layout((m, Int::<8>::new()), (Int::<1>::new(), 8usize)).unwrap_err();
/// assert_eq!(e, LayoutError::NonPositiveShape { shape: "(0,_8)".into() });
/// assert_eq!(e.to_string(), "shape (0,_8) has an extent that is not positive");
/// assert!(try_layout!(({-3i64}):(1)).is_err());
/// ```
#[cfg(feature = "std")]
pub fn try_make_layout<S: IntoIntTuple, D: IntoIntTuple>(
    shape: S,
    stride: D,
) -> Result<Layout<S::Output, D::Output>, cute_dynamic::LayoutError>
where
    S::Output: Congruent<D::Output>,
{
    let (Some(shape), Some(stride)) = (shape.into_int_tuple(), stride.into_int_tuple()) else {
        return Err(cute_dynamic::LayoutError::Overflow { operation: "make_layout" });
    };
    let l = Layout { shape, stride };
    match l.invalid() {
        None => Ok(l),
        Some(e) => Err(e.to_error(&l.shape)),
    }
}

/// Concatenation: the layout whose modes are the given layouts, in order
/// (CuTe's `make_layout(a, b, ...)`, paper 3.1; cute-dynamic's
/// `make_layout(&[a, b])`). `layouts` is a tuple of one to ten layouts,
/// static or mixed. (`make_layout` itself builds a layout from a shape
/// and a stride here.)
///
/// Post-conditions: the result has rank `n` (the tuple's arity); its mode
/// `i` is the `i`-th layout, leaves static or run-time as they were; its
/// size is the product of the sizes, and at coordinate `(c0, .., cn-1)`
/// its value is `Σ layouts.i(ci)`.
///
/// # Panics
///
/// When the run-time size or an offset of the result does not fit in an
/// `i64` (the message of [`try_concat`]'s error). An all-static call never
/// panics.
///
/// ```
/// use cute_static::prelude::*;
/// let m = 1000usize;
/// let a = layout!(4:1);
/// let b = layout!((2,{m}):(4,8));
/// let c = concat((a, b));
/// assert_eq!(c.to_string(), "(_4,(_2,1000)):(_1,(_4,_8))");
/// assert_eq!(c.index((3usize, (1usize, 2usize))), 3 + 4 + 16);
/// let t: Layout![(4,(2,Dyn)):(1,(4,8))] = c;   // its type
/// assert_eq!(t.get::<1>(), b);
/// ```
#[inline(always)]
#[track_caller]
pub fn concat<T: ConcatLayouts>(layouts: T) -> T::Output {
    layouts.concat()
}

/// [`concat()`] that returns the failed run-time check as an error instead
/// of panicking.
///
/// Errors: `Overflow` (`layout size` or `layout extent`, as cute-dynamic's
/// `make_layout`) when the result's size or an offset exceeds `i64`.
///
/// ```
/// use cute_static::prelude::*;
/// let big = 1usize << 40;
/// assert!(try_concat((layout!(({big}):(1)), layout!(({big}):(1)))).is_err());
/// let c = try_concat((layout!(({big}):(1)), layout!(4:1))).unwrap();
/// assert_eq!(
///     c.to_dynamic(),
///     cute_dynamic::make_layout(&[layout!(({big}):(1)).to_dynamic(), "4:1".parse().unwrap()]).unwrap()
/// );
/// ```
#[cfg(feature = "std")]
pub fn try_concat<T: ConcatLayouts>(layouts: T) -> Result<T::Output, cute_dynamic::LayoutError> {
    layouts.try_concat()
}

/// A tuple of layouts that [`concat()`] joins (one to ten of them): the
/// bound of generic code that calls [`concat()`] (its `Output`, the result,
/// and the value, made by `concat` itself).
///
/// ```
/// use cute_static::prelude::*;
/// fn join<A, B>(a: A, b: B) -> <(A, B) as ConcatLayouts>::Output
/// where
///     (A, B): ConcatLayouts,
/// {
///     concat((a, b))
/// }
/// assert_eq!(join(layout!(4:1), layout!({8usize}:4)).to_string(), "(_4,8):(_1,_4)");
/// ```
pub trait ConcatLayouts {
    /// The layout whose modes are the tuple's layouts.
    type Output;
    /// [`concat()`].
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let l = (layout!(4:1), layout!((2,3):(4,8))).concat();
    /// assert_eq!(l.to_string(), "(_4,(_2,_3)):(_1,(_4,_8))");
    /// // (1, 5) is (1, (1, 2)): 1·1 + 1·4 + 2·8.
    /// assert_eq!(l.index((1usize, 5usize)), 21);
    /// ```
    fn concat(self) -> Self::Output;
    /// [`try_concat`].
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let big = 1usize << 40;
    /// let l = (layout!(({big}):(1)), layout!(4:1)).try_concat().unwrap();
    /// assert_eq!((l.size(), l.index((0usize, 3usize))), (big * 4, 3));
    /// // Both of size 2^40: the size 2^80 does not fit in an i64.
    /// assert!((layout!(({big}):(1)), layout!(({big}):(1))).try_concat().is_err());
    /// ```
    #[cfg(feature = "std")]
    fn try_concat(self) -> Result<Self::Output, cute_dynamic::LayoutError>;
}

macro_rules! concat_tuple {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($S: Congruent<$D>, $D: IntTuple),+> ConcatLayouts for ($(Layout<$S, $D>,)+) {
            type Output = Layout<($($S,)+), ($($D,)+)>;
            #[inline(always)]
            #[track_caller]
            fn concat(self) -> Self::Output {
                let l = Layout { shape: ($(self.$i.shape,)+), stride: ($(self.$i.stride,)+) };
                // Each mode is valid; only the sums may overflow. Static
                // parts fold away.
                if let Some(e) = l.invalid() {
                    e.panic(&l.shape)
                }
                l
            }
            #[cfg(feature = "std")]
            fn try_concat(self) -> Result<Self::Output, cute_dynamic::LayoutError> {
                let l = Layout { shape: ($(self.$i.shape,)+), stride: ($(self.$i.stride,)+) };
                match l.invalid() {
                    None => Ok(l),
                    Some(e) => Err(e.to_error(&l.shape)),
                }
            }
        }
    };
}

for_each_tuple!(concat_tuple);

impl<S: Congruent<D>, D: IntTuple> Layout<S, D> {
    /// The failed run-time check of this layout's leaves, if any.
    #[inline(always)]
    fn invalid(&self) -> Option<Invalid> {
        let mut e = Extent::START;
        self.shape.extent(&self.stride, &mut e);
        e.invalid()
    }
}

#[cfg(feature = "std")]
impl<S: Congruent<D>, D: IntTuple> TryFrom<&cute_dynamic::Layout> for Layout<S, D> {
    type Error = cute_dynamic::LayoutError;

    /// The layout of this type equal to `l`: `l` must have the type's tree
    /// structure, its leaves at the type's static leaves must equal them,
    /// and the type's [`Dyn`] leaves take `l`'s values.
    ///
    /// Errors: `TypeMismatch` naming the first node (in shape, then
    /// stride, left to right) whose structure or static value differs, with
    /// what the type has and what `l` has.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let d: cute_dynamic::Layout = "(1000,8):(1,1000)".parse().unwrap();
    /// let l = <Layout![(Dyn, 8):(1, Dyn)]>::try_from(&d).unwrap();
    /// assert_eq!(l.to_string(), "(1000,_8):(_1,1000)");
    /// let e = <Layout![(Dyn, 4):(1, Dyn)]>::try_from(&d).unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "shape mode 1: the layout type has the static integer _4, the layout has the integer 8"
    /// );
    /// ```
    fn try_from(l: &cute_dynamic::Layout) -> Result<Self, Self::Error> {
        let mut path = std::vec::Vec::new();
        let shape = S::from_dynamic(l.shape(), "shape", &mut path)?;
        let stride = D::from_dynamic(l.stride(), "stride", &mut path)?;
        // `l` is valid (cute-dynamic checks its invariants), so this is too.
        Ok(Layout { shape, stride })
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

    /// CuTe's `cosize`: the span of the offsets, `Σ (s−1)·|d| + 1` over the
    /// leaves (as cute-dynamic's `cosize`); with non-negative strides this
    /// is `L(size − 1) + 1`, with negative (run-time) strides
    /// `max L(c) − min L(c) + 1`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(layout!((4,8):(1,5)).cosize(), 39);
    /// let s = -4i64;
    /// assert_eq!(layout!((4,8):({s},1)).cosize(), 20); // offsets -12..=7
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
    ///
    /// With run-time leaves:
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let m = 1000usize;
    /// assert_eq!(layout!((8,{m}):(1,8)).to_dynamic().to_string(), "(8,1000):(1,8)");
    /// ```
    #[cfg(feature = "std")]
    pub fn to_dynamic(&self) -> cute_dynamic::Layout {
        // Compile-time guarantee that cute-dynamic's invariants hold for the
        // static part: leaves fit in an i64 (checked by the macros) and so do
        // size and cosize. Run-time leaves were checked by `make_layout`.
        const {
            assert!(fits_i64(S::STATIC_SIZE), "layout size exceeds i64");
            assert!(fits_i64(add_static(<S as Congruent<D>>::STATIC_SPAN, Some(1))), "layout cosize exceeds i64");
        }
        dynamic_layout(&self.shape, &self.stride)
    }
}

/// The run-time layout of two trees converted from a layout type: one
/// function for every layout type (their `to_dynamic` instances only
/// convert the trees and call it).
#[cfg(feature = "std")]
#[inline(never)]
fn dynamic_layout(
    shape: &dyn crate::int_tuple::TreeObject,
    stride: &dyn crate::int_tuple::TreeObject,
) -> cute_dynamic::Layout {
    match cute_dynamic::Layout::new(shape.to_dynamic_object(), stride.to_dynamic_object()) {
        Ok(l) => l,
        // Unreachable: the trees are congruent by type, extents positive
        // (`ShapeLeaf`, `make_layout`), and size/cosize fit (checked at
        // compile time in `to_dynamic` and by `make_layout`).
        Err(e) => unreachable!("layout rejected by cute-dynamic: {e}"),
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
    note = "static layouts are written with `layout!`/`Layout!`; their shape and stride must be congruent",
    note = "a layout with a run-time (`Dyn`) leaf has no `SIZE`/`COSIZE` constants: call `.size()`/`.cosize()`"
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

#[cfg(feature = "std")]
const fn fits_i64(v: Option<usize>) -> bool {
    match v {
        Some(v) => v <= i64::MAX as usize,
        None => true,
    }
}

const fn unwrap_static(v: Option<usize>) -> usize {
    match v {
        Some(v) => v,
        None => panic!("layout is not all-static"),
    }
}

/// The value of an all-static result type, for the static branch of an
/// operation: the solver built the type, so it is a layout (no congruence
/// or size facts are asked of the trait solver again).
#[doc(hidden)]
pub trait StaticValue {
    /// The unique value.
    fn value() -> Self;
}
impl<S: StaticIntTuple, D: StaticIntTuple> StaticValue for Layout<S, D> {
    #[inline(always)]
    fn value() -> Self {
        Layout { shape: S::new(), stride: D::new() }
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
    /// CuTe's print: `(_4,_8):(_1,_4)`, `_12:_1`, `(_4):(_1)`; run-time
    /// leaves plain: `(_8,1000):(_1,_8)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::int_tuple::fmt_layout(f, &self.shape, &self.stride)
    }
}

impl<S: Congruent<D>, D: IntTuple> fmt::Debug for Layout<S, D> {
    /// `Layout((_4,_8):(_1,_4))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({self})")
    }
}
