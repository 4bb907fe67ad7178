//! Hierarchical integer tuples: leaves are typenum unsigned integers
//! (static) or [`Dyn`] (a run-time `i64`), behind the one [`Leaf`] trait;
//! tuples are plain Rust tuples.
//!
//! `(U4, (U3, U2))` is CuTe's `(_4,(_3,_2))`; `(Dyn, U8)` is CuTe's
//! `(m,_8)` with `m` an `int`. Trees of up to 16 modes per tuple are
//! supported.

use core::fmt;
use typenum::{B0, B1, Bit, UInt, UTerm, Unsigned};

/// A leaf of a shape or stride tree: static or run-time (as nalgebra's
/// `Dim` serves `Const<N>` and `Dyn`).
///
/// A typenum unsigned integer (`U4`, `UTerm` for 0) is static: its value is
/// known at compile time ([`Leaf::STATIC`] is `Some`) and it occupies no
/// memory. [`Dyn`] holds a run-time `i64` ([`Leaf::STATIC`] is `None`). The
/// algorithms read values only through [`Leaf::value`] and
/// [`Leaf::signed`], so they are written once for both.
///
/// Post-conditions: `value()` equals `STATIC` whenever `STATIC` is `Some`;
/// `signed()` is the value as an `i64` and `value()` is `signed() as usize`
/// (two's complement for a negative run-time stride, so wrapping sums of
/// `value()`s are the signed sums modulo 2^64).
///
/// ```
/// use cute_static::{Dyn, Leaf};
/// use cute_static::typenum::U12;
/// assert_eq!(U12::STATIC, Some(12));
/// assert_eq!(U12::new().value(), 12);
/// assert_eq!(Dyn::STATIC, None);
/// assert_eq!(Dyn::new(-3).signed(), -3);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a leaf of a layout",
    label = "expected an integer leaf here",
    note = "leaves are typenum unsigned integers (static) or `Dyn` (run-time); write layouts with `layout!`/`Layout!`"
)]
pub trait Leaf: Copy + fmt::Debug + 'static {
    /// The value when it is known at compile time.
    const STATIC: Option<usize>;
    /// The value of this leaf (two's complement for a negative run-time value).
    ///
    /// ```
    /// use cute_static::{Dyn, Leaf};
    /// use cute_static::typenum::U8;
    /// assert_eq!(U8::new().value(), 8);
    /// assert_eq!(Dyn::new(1000).value(), 1000);
    /// assert_eq!(Dyn::new(-1).value(), usize::MAX); // two's complement
    /// ```
    fn value(&self) -> usize;
    /// The value of this leaf as a signed integer.
    ///
    /// ```
    /// use cute_static::{Dyn, Leaf};
    /// use cute_static::typenum::U8;
    /// assert_eq!(U8::new().signed(), 8);
    /// assert_eq!(Dyn::new(-8).signed(), -8);
    /// ```
    fn signed(&self) -> i64;
}

/// A run-time leaf: an `i64` held in the layout value (CuTe's `int` beside
/// `Int<N>`). Signed, so a run-time stride may be negative.
///
/// In the macros a braced expression is a `Dyn` leaf
/// (`layout!(({m}, 8):(1, {m}))`) and in the type macros the word `Dyn` is
/// (`Layout![(Dyn, 8):(1, Dyn)]`). A layout with `Dyn` leaves is built by
/// [`make_layout`](crate::make_layout) or `layout!`, which check that
/// run-time extents are positive and the size and offsets fit in an `i64`.
///
/// ```
/// use cute_static::prelude::*;
/// let m = 1000usize;
/// let l = layout!(({m}, 8):(1, {m}));
/// assert_eq!(l.to_string(), "(1000,_8):(_1,1000)");
/// assert_eq!(l.index((3usize, 2usize)), 2003);
/// let t: Layout![(Dyn, 8):(1, Dyn)] = l;
/// assert_eq!(t.shape().0, Dyn::new(1000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dyn(i64);

impl Dyn {
    /// The run-time leaf `v`.
    ///
    /// ```
    /// use cute_static::{Dyn, Leaf};
    /// const M: Dyn = Dyn::new(1000); // a `const fn`
    /// assert_eq!(M.value(), 1000);
    /// assert_eq!(Dyn::new(-3).signed(), -3);
    /// ```
    #[inline(always)]
    pub const fn new(v: i64) -> Dyn {
        Dyn(v)
    }

    /// Its value.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(Dyn::new(-3).get(), -3);
    /// let m = 1000usize;
    /// let l = layout!(({m}, 8):(1, {m}));
    /// assert_eq!(l.shape().0.get(), 1000);
    /// ```
    #[inline(always)]
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl Leaf for Dyn {
    const STATIC: Option<usize> = None;
    #[inline(always)]
    fn value(&self) -> usize {
        self.0 as usize
    }
    #[inline(always)]
    fn signed(&self) -> i64 {
        self.0
    }
}

/// A static integer as a value, CuTe's `Int<N>`: `Int<8>` is typenum's `U8`.
///
/// ```
/// use cute_static::prelude::*;
/// let l = make_layout((Int::<4>::new(), Int::<8>::new()), (Int::<1>::new(), Int::<4>::new()));
/// assert_eq!(l, layout!((4,8):(1,4)));
/// ```
pub type Int<const N: usize> = typenum::U<N>;

/// The integer type of a layout's offsets: `usize` when every stride is
/// static (static strides are non-negative), `i64` when a stride is
/// run-time (it may be negative). What [`IntTuple::Offset`] is, and
/// [`Layout::index`](crate::Layout::index) returns.
///
/// ```
/// use cute_static::prelude::*;
/// let a: usize = layout!((4, 8):(1, 4)).index(9usize);
/// let b: i64 = layout!((4, 8):(1, {-4i64})).index(9usize);
/// assert_eq!((a, b), (9, -7));
/// ```
pub trait OffsetInt: Copy + fmt::Debug + PartialEq + 'static {
    /// `usize` if both are `usize`, otherwise `i64`.
    #[doc(hidden)]
    type Join<R: OffsetInt>: OffsetInt;
    /// The offset from its wrapping `usize` sum (exact on 64-bit targets).
    #[doc(hidden)]
    fn from_wrapping(v: usize) -> Self;
}

impl OffsetInt for usize {
    type Join<R: OffsetInt> = R;
    #[inline(always)]
    fn from_wrapping(v: usize) -> usize {
        v
    }
}

impl OffsetInt for i64 {
    type Join<R: OffsetInt> = i64;
    #[inline(always)]
    fn from_wrapping(v: usize) -> i64 {
        v as isize as i64
    }
}

// The offset type of a tuple: the join of its children's.
macro_rules! join_offsets {
    () => { usize };
    ($T:ident $(, $R:ident)*) => {
        <<$T as IntTuple>::Offset as OffsetInt>::Join<join_offsets!($($R),*)>
    };
}

impl Leaf for UTerm {
    const STATIC: Option<usize> = Some(0);
    #[inline(always)]
    fn value(&self) -> usize {
        0
    }
    #[inline(always)]
    fn signed(&self) -> i64 {
        0
    }
}

impl<U: Unsigned, B: Bit> Leaf for UInt<U, B>
where
    UInt<U, B>: Unsigned + Copy + fmt::Debug,
{
    const STATIC: Option<usize> = Some(<UInt<U, B> as Unsigned>::USIZE);
    #[inline(always)]
    fn value(&self) -> usize {
        <UInt<U, B> as Unsigned>::USIZE
    }
    #[inline(always)]
    fn signed(&self) -> i64 {
        // Static leaves fit in an i64 (checked by the macros).
        <UInt<U, B> as Unsigned>::USIZE as i64
    }
}

/// `a * b` in const context, `None` if either is unknown; a compile-time
/// error if the product overflows `usize`.
pub(crate) const fn mul_static(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(x), Some(y)) => match x.checked_mul(y) {
            Some(v) => Some(v),
            None => panic!("static layout size overflows usize"),
        },
        _ => None,
    }
}

/// `a + b` in const context, `None` if either is unknown; a compile-time
/// error on overflow.
pub(crate) const fn add_static(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(x), Some(y)) => match x.checked_add(y) {
            Some(v) => Some(v),
            None => panic!("static layout cosize overflows usize"),
        },
        _ => None,
    }
}

pub(crate) const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// Displays a tree with [`IntTuple::fmt_cute`].
pub(crate) struct CuteFmt<'a, T>(pub(crate) &'a T);

impl<T: IntTuple> fmt::Display for CuteFmt<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt_cute(f)
    }
}

/// A hierarchical tuple: a [`Leaf`] or a Rust tuple of `IntTuple`s (the
/// paper's `HTuple(ℤ)`).
///
/// Post-conditions: `RANK` is 1 for a leaf and the arity of a tuple; `DEPTH`
/// is 0 for a leaf and `1 + max(depth of children)` for a tuple; `STATIC_SIZE`
/// is the product of all leaves when they are all static.
///
/// ```
/// use cute_static::prelude::*;
/// type S = Shape![4, (3, 2)];
/// assert_eq!(<S as IntTuple>::RANK, 2);
/// assert_eq!(<S as IntTuple>::DEPTH, 2);
/// assert_eq!(<S as IntTuple>::STATIC_SIZE, Some(24));
/// assert_eq!(shape!(4, (3, 2)).to_string_cute(), "(_4,(_3,_2))");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a shape or stride tree",
    label = "expected an integer or a tuple of integers",
    note = "shapes and strides are typenum integers or tuples of them; write them with `shape!`/`stride!`"
)]
pub trait IntTuple: Copy + 'static {
    /// Number of top-level modes (1 for a leaf).
    const RANK: usize;
    /// Nesting depth (0 for a leaf).
    const DEPTH: usize;
    /// Product of the leaves if all are static.
    const STATIC_SIZE: Option<usize>;
    /// `true` for a tuple, `false` for a leaf.
    const IS_TUPLE: bool;
    /// The type of offsets computed with this tree as a stride: `usize`
    /// if all its leaves are static, `i64` if one is [`Dyn`].
    type Offset: OffsetInt;

    /// Product of the leaves (wrapping on overflow).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(shape!(4, (3, 2)).size(), 24);
    /// let m = 1000usize;
    /// assert_eq!(shape!({m}, 8).size(), 8000);
    /// ```
    fn size(&self) -> usize;

    /// Writes the tree in CuTe's format: static leaves `_4`, run-time
    /// leaves plain (`(_4,(1000,_2))`).
    ///
    /// ```
    /// use core::fmt;
    /// use cute_static::prelude::*;
    /// struct Cute<T>(T);
    /// impl<T: IntTuple> fmt::Display for Cute<T> {
    ///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    ///         self.0.fmt_cute(f)
    ///     }
    /// }
    /// let m = 1000usize;
    /// assert_eq!(format!("shape {}", Cute(shape!(4, ({m}, 2)))), "shape (_4,(1000,_2))");
    /// ```
    fn fmt_cute(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// This tree with the structure of `Self`, its run-time leaves taken
    /// from `t` and its static leaves checked against `t`; `what` names the
    /// tree in errors and `path` is this node's position (mode indices).
    #[cfg(feature = "std")]
    #[doc(hidden)]
    fn from_dynamic(
        t: &cute_dynamic::IntTuple,
        what: &str,
        path: &mut std::vec::Vec<usize>,
    ) -> Result<Self, cute_dynamic::LayoutError>;

    /// The equal run-time tuple (with the default `std` feature): the
    /// same tree and values, static or not.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let m = 1000usize;
    /// let d = shape!(4, ({m}, 2)).to_dynamic();
    /// assert_eq!(d, "(4,(1000,2))".parse::<cute_dynamic::IntTuple>().unwrap());
    /// assert_eq!(d.to_string(), "(4,(1000,2))");
    /// ```
    #[cfg(feature = "std")]
    fn to_dynamic(&self) -> cute_dynamic::IntTuple;

    /// The tree as CuTe prints it ([`fmt_cute`](IntTuple::fmt_cute)), with
    /// the default `std` feature.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let m = 1000usize;
    /// assert_eq!(shape!(4, ({m}, 2)).to_string_cute(), "(_4,(1000,_2))");
    /// assert_eq!(stride!(0).to_string_cute(), "_0");
    /// ```
    #[cfg(feature = "std")]
    fn to_string_cute(&self) -> std::string::String {
        struct D<'a, T: IntTuple>(&'a T);
        impl<T: IntTuple> fmt::Display for D<'_, T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt_cute(f)
            }
        }
        D(self).to_string()
    }
}

/// A tree whose leaves are all static: it can be made from nothing.
///
/// Post-condition: `new()` is the unique (zero-sized) value of the type.
///
/// ```
/// use cute_static::prelude::*;
/// let s = <Shape![4, 8] as StaticIntTuple>::new();
/// assert_eq!(s.to_string_cute(), "(_4,_8)");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not all-static: a run-time (`Dyn`) leaf stands where only static leaves are allowed",
    label = "this has a run-time leaf",
    note = "a layout with a run-time leaf has no `SIZE`/`COSIZE` constants and no storage sized by its type (a fragment, an owned tensor): call `.size()`/`.cosize()`, or make every leaf a number"
)]
pub trait StaticIntTuple: IntTuple {
    /// The value of this all-static tree.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let s = <Shape![4, (3, 2)] as StaticIntTuple>::new();
    /// assert_eq!(s, shape!(4, (3, 2)));
    /// assert_eq!(core::mem::size_of_val(&s), 0); // the values are in the type
    /// ```
    fn new() -> Self;
}

impl IntTuple for UTerm {
    const RANK: usize = 1;
    const DEPTH: usize = 0;
    const STATIC_SIZE: Option<usize> = Some(0);
    const IS_TUPLE: bool = false;
    type Offset = usize;
    #[inline(always)]
    fn size(&self) -> usize {
        0
    }
    fn fmt_cute(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("_0")
    }
    #[cfg(feature = "std")]
    fn from_dynamic(
        t: &cute_dynamic::IntTuple,
        what: &str,
        path: &mut std::vec::Vec<usize>,
    ) -> Result<Self, cute_dynamic::LayoutError> {
        check_static_leaf(t, 0, what, path).map(|()| UTerm)
    }
    #[cfg(feature = "std")]
    fn to_dynamic(&self) -> cute_dynamic::IntTuple {
        cute_dynamic::IntTuple::int(0)
    }
}

impl StaticIntTuple for UTerm {
    #[inline(always)]
    fn new() -> Self {
        UTerm
    }
}

impl<U: Unsigned, B: Bit> IntTuple for UInt<U, B>
where
    UInt<U, B>: Leaf,
{
    const RANK: usize = 1;
    const DEPTH: usize = 0;
    const STATIC_SIZE: Option<usize> = <Self as Leaf>::STATIC;
    const IS_TUPLE: bool = false;
    type Offset = usize;
    #[inline(always)]
    fn size(&self) -> usize {
        self.value()
    }
    fn fmt_cute(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_static_leaf(f, self.value())
    }
    #[cfg(feature = "std")]
    fn from_dynamic(
        t: &cute_dynamic::IntTuple,
        what: &str,
        path: &mut std::vec::Vec<usize>,
    ) -> Result<Self, cute_dynamic::LayoutError> {
        check_static_leaf(t, <Self as Unsigned>::I64, what, path).map(|()| UInt::new())
    }
    #[cfg(feature = "std")]
    fn to_dynamic(&self) -> cute_dynamic::IntTuple {
        static_leaf_to_dynamic(self.value())
    }
}

/// A static leaf as CuTe prints it, `_N`: one function for every numeral
/// type (their `fmt_cute` instances only call it).
#[inline(never)]
fn fmt_static_leaf(f: &mut fmt::Formatter<'_>, v: usize) -> fmt::Result {
    write!(f, "_{v}")
}

/// A static leaf as a run-time tuple (see [`fmt_static_leaf`]). Leaves
/// written with the macros fit in an i64 (checked there).
#[cfg(feature = "std")]
#[inline(never)]
fn static_leaf_to_dynamic(v: usize) -> cute_dynamic::IntTuple {
    cute_dynamic::IntTuple::int(i64::try_from(v).unwrap_or(i64::MAX))
}

/// A tree behind a trait object, so that one non-generic function prints
/// (and converts) every tuple, whatever its element types: each tuple
/// type's own `fmt_cute` and `to_dynamic` only list its elements. (Every
/// shape and stride type of a program has these instances; the fewer lines
/// each has, the less a build of code with many layouts costs.)
pub(crate) trait TreeObject {
    /// [`IntTuple::fmt_cute`].
    fn fmt_object(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// [`IntTuple::to_dynamic`].
    #[cfg(feature = "std")]
    fn to_dynamic_object(&self) -> cute_dynamic::IntTuple;
}
impl<T: IntTuple> TreeObject for T {
    fn fmt_object(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_cute(f)
    }
    #[cfg(feature = "std")]
    fn to_dynamic_object(&self) -> cute_dynamic::IntTuple {
        self.to_dynamic()
    }
}

/// A tuple as CuTe prints it: `(e0,e1,...)`.
#[inline(never)]
fn fmt_tuple(f: &mut fmt::Formatter<'_>, elems: &[&dyn TreeObject]) -> fmt::Result {
    for (i, e) in elems.iter().enumerate() {
        f.write_str(if i == 0 { "(" } else { "," })?;
        e.fmt_object(f)?;
    }
    f.write_str(")")
}

/// A layout as CuTe prints it, `shape:stride` (one function for every
/// layout type, as [`fmt_tuple`]).
#[inline(never)]
pub(crate) fn fmt_layout(f: &mut fmt::Formatter<'_>, shape: &dyn TreeObject, stride: &dyn TreeObject) -> fmt::Result {
    shape.fmt_object(f)?;
    f.write_str(":")?;
    stride.fmt_object(f)
}

/// A tuple's elements as one run-time tuple.
#[cfg(feature = "std")]
#[inline(never)]
fn tuple_to_dynamic(elems: &[&dyn TreeObject]) -> cute_dynamic::IntTuple {
    cute_dynamic::IntTuple::tuple(elems.iter().map(|e| e.to_dynamic_object()))
}

impl IntTuple for Dyn {
    const RANK: usize = 1;
    const DEPTH: usize = 0;
    const STATIC_SIZE: Option<usize> = None;
    const IS_TUPLE: bool = false;
    type Offset = i64;
    #[inline(always)]
    fn size(&self) -> usize {
        self.value()
    }
    fn fmt_cute(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
    #[cfg(feature = "std")]
    fn from_dynamic(
        t: &cute_dynamic::IntTuple,
        what: &str,
        path: &mut std::vec::Vec<usize>,
    ) -> Result<Self, cute_dynamic::LayoutError> {
        match t.as_int() {
            Some(v) => Ok(Dyn(v)),
            None => Err(mismatch(what, path, "an integer".into(), describe(t))),
        }
    }
    #[cfg(feature = "std")]
    fn to_dynamic(&self) -> cute_dynamic::IntTuple {
        cute_dynamic::IntTuple::int(self.0)
    }
}

/// The error of [`IntTuple::from_dynamic`]: the node at `path` of the tree
/// `what` is `found` where the type has `expected`.
#[cfg(feature = "std")]
#[cold]
fn mismatch(
    what: &str,
    path: &[usize],
    expected: std::string::String,
    found: std::string::String,
) -> cute_dynamic::LayoutError {
    use std::string::ToString;
    let mut at = what.to_string();
    if path.is_empty() {
        at.push_str(" (the whole tree)");
    } else {
        at.push_str(" mode ");
        let p: std::vec::Vec<std::string::String> = path.iter().map(|i| i.to_string()).collect();
        at.push_str(&p.join("."));
    }
    cute_dynamic::LayoutError::TypeMismatch { at, expected, found }
}

#[cfg(feature = "std")]
fn describe(t: &cute_dynamic::IntTuple) -> std::string::String {
    match t.as_int() {
        Some(v) => std::format!("the integer {v}"),
        None => std::format!("the tuple {t} of rank {}", t.rank()),
    }
}

#[cfg(feature = "std")]
fn check_static_leaf(
    t: &cute_dynamic::IntTuple,
    v: i64,
    what: &str,
    path: &[usize],
) -> Result<(), cute_dynamic::LayoutError> {
    if t.as_int() == Some(v) {
        Ok(())
    } else {
        Err(mismatch(what, path, std::format!("the static integer _{v}"), describe(t)))
    }
}

impl<U: Unsigned, B: Bit> StaticIntTuple for UInt<U, B>
where
    UInt<U, B>: Leaf + Default,
{
    #[inline(always)]
    fn new() -> Self {
        Self::default()
    }
}

/// A value that makes a leaf or a tree of [`make_shape`], [`make_stride`]
/// and [`make_layout`](crate::make_layout): a static integer ([`Int<N>`],
/// any typenum unsigned integer) stays static; a run-time integer (`usize`,
/// `i64`, `isize`, `i32`, `u32`, `u64`) becomes a [`Dyn`] leaf; a [`Dyn`]
/// stays itself; tuples convert leaf by leaf.
///
/// Post-condition: `into_int_tuple` is `None` exactly when a run-time value
/// does not fit in an `i64`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::IntoIntTuple;
/// /// A shape of two modes, each static or run-time.
/// fn two_modes<M: IntoIntTuple, N: IntoIntTuple>(m: M, n: N) -> (M::Output, N::Output) {
///     make_shape((m, n))
/// }
/// assert_eq!(two_modes(Int::<4>::new(), 8usize), (Int::<4>::new(), Dyn::new(8)));
/// assert_eq!(1000usize.into_int_tuple(), Some(Dyn::new(1000)));
/// assert_eq!(u64::MAX.into_int_tuple(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a leaf or tree of a layout",
    label = "expected `Int<N>`, `usize`, `i64` or a tuple of them",
    note = "static leaves are `Int<N>` (typenum) values, run-time leaves are integers (`usize`, `i64`, ...)"
)]
pub trait IntoIntTuple: Copy {
    /// The tree type.
    type Output: IntTuple;
    /// The tree, `None` if a run-time value exceeds `i64`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::IntoIntTuple;
    /// assert_eq!((Int::<4>::new(), 8usize).into_int_tuple(), Some((Int::<4>::new(), Dyn::new(8))));
    /// assert_eq!((-3i64).into_int_tuple(), Some(Dyn::new(-3)));
    /// assert_eq!((1usize, usize::MAX).into_int_tuple(), None); // usize::MAX exceeds i64
    /// ```
    fn into_int_tuple(self) -> Option<Self::Output>;
}

impl IntoIntTuple for UTerm {
    type Output = UTerm;
    #[inline(always)]
    fn into_int_tuple(self) -> Option<UTerm> {
        Some(self)
    }
}

impl<U: Unsigned, B: Bit> IntoIntTuple for UInt<U, B>
where
    UInt<U, B>: IntTuple,
{
    type Output = Self;
    #[inline(always)]
    fn into_int_tuple(self) -> Option<Self> {
        Some(self)
    }
}

impl IntoIntTuple for Dyn {
    type Output = Dyn;
    #[inline(always)]
    fn into_int_tuple(self) -> Option<Dyn> {
        Some(self)
    }
}

macro_rules! run_time_ints {
    ($($t:ty),+) => {$(
        impl IntoIntTuple for $t {
            type Output = Dyn;
            #[inline(always)]
            fn into_int_tuple(self) -> Option<Dyn> {
                i64::try_from(self).ok().map(Dyn)
            }
        }
    )+};
}

run_time_ints!(usize, isize, u64, i64, u32, i32);

/// A shape from values: [`Int<N>`] leaves static, `usize`/`i64` leaves
/// run-time ([`Dyn`]), tuples nested (CuTe's `make_shape`).
///
/// Panics if a run-time value exceeds `i64` (extents are checked when the
/// layout is made, by [`make_layout`](crate::make_layout)).
///
/// ```
/// use cute_static::prelude::*;
/// let s = make_shape((1000usize, Int::<8>::new()));
/// assert_eq!(s, (Dyn::new(1000), Int::<8>::new()));
/// ```
#[inline(always)]
pub fn make_shape<T: IntoIntTuple>(t: T) -> T::Output {
    match t.into_int_tuple() {
        Some(v) => v,
        None => overflow_panic(),
    }
}

/// A stride from values, as [`make_shape`] (CuTe's `make_stride`).
///
/// Panics if a run-time value exceeds `i64`.
///
/// ```
/// use cute_static::prelude::*;
/// let d = make_stride((Int::<1>::new(), -1000i64));
/// assert_eq!(d, (Int::<1>::new(), Dyn::new(-1000)));
/// ```
#[inline(always)]
pub fn make_stride<T: IntoIntTuple>(t: T) -> T::Output {
    make_shape(t)
}

#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn overflow_panic() -> ! {
    panic!("arithmetic overflow in make_layout: a value does not fit in 64 bits")
}

macro_rules! tuple_int_tuple {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        tuple_int_tuple!(@rank [$($i),+].len(); $($i $T),+);
    };
    (@rank $n:expr; $($i:tt $T:ident),+) => {
        impl<$($T: IntTuple),+> IntTuple for ($($T,)+) {
            const RANK: usize = $n;
            const DEPTH: usize = 1 + { let mut d = 0; $( d = max(d, $T::DEPTH); )+ d };
            const STATIC_SIZE: Option<usize> = { let s = Some(1); $( let s = mul_static(s, $T::STATIC_SIZE); )+ s };
            const IS_TUPLE: bool = true;
            type Offset = join_offsets!($($T),+);
            #[inline(always)]
            fn size(&self) -> usize {
                1usize $( .wrapping_mul(self.$i.size()) )+
            }
            #[cfg(feature = "std")]
            fn from_dynamic(
                t: &cute_dynamic::IntTuple,
                what: &str,
                path: &mut std::vec::Vec<usize>,
            ) -> Result<Self, cute_dynamic::LayoutError> {
                if t.is_int() || t.rank() != $n {
                    return Err(mismatch(what, path, format!("a tuple of rank {}", $n), describe(t)));
                }
                Ok(($(
                    {
                        path.push($i);
                        // In range: the rank was checked above.
                        let child = t.get($i).unwrap_or_else(|| cute_dynamic::IntTuple::int(0));
                        let v = $T::from_dynamic(&child, what, path)?;
                        path.pop();
                        v
                    },
                )+))
            }
            fn fmt_cute(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt_tuple(f, &[$(&self.$i as &dyn TreeObject),+])
            }
            #[cfg(feature = "std")]
            fn to_dynamic(&self) -> cute_dynamic::IntTuple {
                tuple_to_dynamic(&[$(&self.$i as &dyn TreeObject),+])
            }
        }

        impl<$($T: IntoIntTuple),+> IntoIntTuple for ($($T,)+) {
            type Output = ($($T::Output,)+);
            #[inline(always)]
            fn into_int_tuple(self) -> Option<Self::Output> {
                Some(($( self.$i.into_int_tuple()?, )+))
            }
        }

        impl<$($T: StaticIntTuple),+> StaticIntTuple for ($($T,)+) {
            #[inline(always)]
            fn new() -> Self {
                ($( $T::new(), )+)
            }
        }
    };
}

for_each_tuple!(tuple_int_tuple);

/// A type-level truth value (`B1` or `B0`) with its conjunction and
/// disjunction.
#[doc(hidden)]
pub trait Truth: Bit {
    /// `Self and R`, as a projection: a conjunction costs the trait solver
    /// one normalization, no obligation of its own.
    type And<R: Truth>: Truth;
    /// `Self or R`, likewise.
    type Or<R: Truth>: Truth;
}
impl Truth for B1 {
    type And<R: Truth> = R;
    type Or<R: Truth> = B1;
}
impl Truth for B0 {
    type And<R: Truth> = B0;
    type Or<R: Truth> = R;
}
/// `Bit` is `B1` when every leaf of `Self` is static (a typenum integer),
/// `B0` when one is [`Dyn`].
#[doc(hidden)]
pub trait AllStatic {
    /// `B1` for all-static, `B0` otherwise.
    type Bit: Truth;
}
/// `Bit` is `B1` for one run-time leaf ([`Dyn`]), `B0` for a static leaf
/// or a tuple (a run-time cotarget, a rest of one run-time leaf). (Its
/// users are run-time paths, which need `std`.)
#[cfg(feature = "std")]
#[doc(hidden)]
pub trait OneRunTimeLeaf {
    /// `B1` or `B0`.
    type Bit;
}
#[cfg(feature = "std")]
impl OneRunTimeLeaf for Dyn {
    type Bit = B1;
}
#[cfg(feature = "std")]
impl OneRunTimeLeaf for UTerm {
    type Bit = B0;
}
#[cfg(feature = "std")]
impl<U, B> OneRunTimeLeaf for UInt<U, B> {
    type Bit = B0;
}
macro_rules! tuple_not_one_leaf {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        #[cfg(feature = "std")]
        impl<$($T),+> OneRunTimeLeaf for ($($T,)+) {
            type Bit = B0;
        }
    };
}
for_each_tuple!(tuple_not_one_leaf);
/// `B1` when both `A` and `B` are all-static (a pair without the tuple).
#[doc(hidden)]
pub type BothStatic<A, B> = <<A as AllStatic>::Bit as Truth>::And<<B as AllStatic>::Bit>;
impl AllStatic for UTerm {
    type Bit = B1;
}
impl<U, B> AllStatic for UInt<U, B> {
    type Bit = B1;
}
impl AllStatic for Dyn {
    type Bit = B0;
}
/// A plain `usize` is a run-time value (a cotarget).
impl AllStatic for usize {
    type Bit = B0;
}
impl<S: AllStatic, D: AllStatic> AllStatic for crate::Layout<S, D> {
    type Bit = <S::Bit as Truth>::And<D::Bit>;
}
impl<T: AllStatic> AllStatic for crate::Tiler<T> {
    type Bit = T::Bit;
}
// The elements' bits folded right (`T0 and (T1 and (...))`), without a
// trait bound on a tail tuple: one bound and two projections per element.
macro_rules! all_static_and {
    ($T:ident) => { <$T as AllStatic>::Bit };
    ($T:ident $($rest:ident)+) => { <<$T as AllStatic>::Bit as Truth>::And<all_static_and!($($rest)+)> };
}
macro_rules! all_static_tuple {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($T: AllStatic),+> AllStatic for ($($T,)+) {
            type Bit = all_static_and!($($T)+);
        }
    };
}
impl AllStatic for () {
    type Bit = B1;
}
for_each_tuple!(all_static_tuple);

// ------------------------------------------------- leaves in the algebra

/// What the algebra knows about leaves in trait resolution: a static leaf
/// is its value, a [`Dyn`] is unknown. A branch of an algorithm that tests
/// a leaf takes the "known true" side only when the answer is known at
/// compile time; otherwise it keeps CuTe's padded form (the mode stays,
/// the merge is not made), which is the same function either way.
#[doc(hidden)]
pub mod known {
    use super::Dyn;
    use core::ops::Mul;
    use typenum::{B0, B1, Bit, Prod, UInt, UTerm};

    /// `B1` when the leaf is known to be 1.
    pub trait KnownOne {
        /// `B1` or `B0`.
        type Output: super::Truth;
    }
    impl KnownOne for UTerm {
        type Output = B0;
    }
    // By the shape of the binary numeral, not by comparison: typenum's
    // integers are canonical, so 1 is `UInt<UTerm, B1>` and every other
    // `UInt` has a longer numeral (a comparison costs the trait solver a
    // walk over the bits).
    impl KnownOne for UInt<UTerm, B1> {
        type Output = B1;
    }
    impl<U, B2, B> KnownOne for UInt<UInt<U, B2>, B> {
        type Output = B0;
    }
    impl KnownOne for Dyn {
        type Output = B0;
    }

    /// `B1` when the leaf is known to be 0.
    pub trait KnownZero {
        /// `B1` or `B0`.
        type Output: Bit;
    }
    impl KnownZero for UTerm {
        type Output = B1;
    }
    impl<U, B> KnownZero for UInt<U, B> {
        type Output = B0;
    }
    impl KnownZero for Dyn {
        type Output = B0;
    }

    /// `B1` when `X` is 1: read off the numeral (see [`KnownOne`]), which
    /// costs the trait solver less than typenum's comparison `Eq<X, U1>`.
    pub type IsOne<X> = <X as KnownOne>::Output;
    /// `B1` when `X` is 0 (see [`KnownZero`]).
    pub type IsZero<X> = <X as KnownZero>::Output;

    /// `B1` when both leaves are known and equal.
    pub trait KnownEq<R> {
        /// `B1` or `B0`.
        type Output: super::Truth;
    }
    // Two numerals are equal when their binary digits are, read from the
    // least significant one (typenum's integers are canonical): cheaper for
    // the trait solver than typenum's comparison, which carries an ordering.
    impl KnownEq<UTerm> for UTerm {
        type Output = B1;
    }
    impl<U, B> KnownEq<UInt<U, B>> for UTerm {
        type Output = B0;
    }
    impl<U, B> KnownEq<UTerm> for UInt<U, B> {
        type Output = B0;
    }
    impl<U: KnownEq<U2>, B: Bit + BitEq<B2>, U2, B2> KnownEq<UInt<U2, B2>> for UInt<U, B> {
        type Output = <<B as BitEq<B2>>::Output as super::Truth>::And<<U as KnownEq<U2>>::Output>;
    }
    /// `B1` when two bits are equal.
    pub trait BitEq<R> {
        /// `B1` or `B0`.
        type Output: super::Truth;
    }
    impl BitEq<B0> for B0 {
        type Output = B1;
    }
    impl BitEq<B1> for B1 {
        type Output = B1;
    }
    impl BitEq<B1> for B0 {
        type Output = B0;
    }
    impl BitEq<B0> for B1 {
        type Output = B0;
    }
    impl<U, B> KnownEq<Dyn> for UInt<U, B> {
        type Output = B0;
    }
    impl KnownEq<Dyn> for UTerm {
        type Output = B0;
    }
    impl<R> KnownEq<R> for Dyn {
        type Output = B0;
    }

    /// The product of two leaves as a type: static when both are (or when
    /// one is a static 0, as CuTe's `_0 * m` is `_0`), [`Dyn`] otherwise.
    pub trait LeafMul<R> {
        /// The product's leaf type.
        type Output;
    }
    impl<U, B, U2, B2> LeafMul<UInt<U2, B2>> for UInt<U, B>
    where
        UInt<U, B>: Mul<UInt<U2, B2>>,
    {
        type Output = Prod<UInt<U, B>, UInt<U2, B2>>;
    }
    impl<U, B> LeafMul<UTerm> for UInt<U, B> {
        type Output = UTerm;
    }
    impl<R> LeafMul<R> for UTerm {
        type Output = UTerm;
    }
    impl<U, B> LeafMul<UInt<U, B>> for Dyn {
        type Output = Dyn;
    }
    impl<U, B> LeafMul<Dyn> for UInt<U, B> {
        type Output = Dyn;
    }
    impl LeafMul<Dyn> for Dyn {
        type Output = Dyn;
    }
    impl LeafMul<UTerm> for Dyn {
        type Output = UTerm;
    }

    #[cfg(feature = "std")]
    pub use binop::*;
    // CuTe's binary operations on leaves that are static when both leaves
    // are, and run-time otherwise (the run-time paths' types): one list.
    #[cfg(feature = "std")]
    mod binop {
        use super::Dyn;
        use core::ops::Div;
        use typenum::{Min, Minimum, Quot, UInt};

        macro_rules! leaf_binop {
            ($($(#[$doc:meta])* $Name:ident: $Op:ident => $Out:ident;)+) => {$(
                $(#[$doc])*
                #[doc(hidden)]
                pub trait $Name<R> {
                    /// The result's leaf type.
                    type Output;
                }
                impl<U, B, U2, B2> $Name<UInt<U2, B2>> for UInt<U, B>
                where
                    UInt<U, B>: $Op<UInt<U2, B2>>,
                {
                    type Output = $Out<UInt<U, B>, UInt<U2, B2>>;
                }
                impl<U, B> $Name<Dyn> for UInt<U, B> {
                    type Output = Dyn;
                }
                impl<R> $Name<R> for Dyn {
                    type Output = Dyn;
                }
            )+};
        }
        leaf_binop! {
            /// CuTe's `min` on leaves: static when both are.
            LeafMin: Min => Minimum;
            /// CuTe's `/` on leaves: static when both are.
            LeafDiv: Div => Quot;
        }
    }
}
