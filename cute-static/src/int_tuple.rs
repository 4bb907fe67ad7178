//! Type-level hierarchical integer tuples: leaves are typenum unsigned
//! integers (behind the [`Leaf`] trait), tuples are plain Rust tuples.
//!
//! `(U4, (U3, U2))` is CuTe's `(_4,(_3,_2))`. Trees of up to 16 modes per
//! tuple are supported.

use core::fmt;
use typenum::{Bit, UInt, UTerm, Unsigned};

/// A leaf of a shape or stride tree.
///
/// Today every leaf is a typenum unsigned integer (`U4`, `UTerm` for 0) whose
/// value is known at compile time ([`Leaf::STATIC`] is `Some`). The trait
/// reads values through [`Leaf::value`], so a run-time leaf can implement it
/// later (with `STATIC = None`) without changing the algorithms.
///
/// Post-condition: `value()` equals `STATIC` whenever `STATIC` is `Some`.
///
/// ```
/// use cute_static::Leaf;
/// use cute_static::typenum::U12;
/// assert_eq!(U12::STATIC, Some(12));
/// assert_eq!(U12::new().value(), 12);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a leaf of a layout",
    label = "expected an integer leaf here",
    note = "leaves are typenum unsigned integers; write layouts with `layout!`/`Layout!`"
)]
pub trait Leaf: Copy + fmt::Debug + 'static {
    /// The value when it is known at compile time.
    const STATIC: Option<usize>;
    /// The value of this leaf.
    fn value(&self) -> usize;
}

impl Leaf for UTerm {
    const STATIC: Option<usize> = Some(0);
    #[inline(always)]
    fn value(&self) -> usize {
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

    /// Product of the leaves (wrapping on overflow).
    fn size(&self) -> usize;

    /// Writes the tree in CuTe's static format (`(_4,(_3,_2))`).
    fn fmt_cute(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// The equal run-time tuple (with the default `std` feature).
    #[cfg(feature = "std")]
    fn to_dynamic(&self) -> cute_dynamic::IntTuple;

    /// The tree as CuTe prints it statically (with the default `std` feature).
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
pub trait StaticIntTuple: IntTuple {
    /// The value of this all-static tree.
    fn new() -> Self;
}

impl IntTuple for UTerm {
    const RANK: usize = 1;
    const DEPTH: usize = 0;
    const STATIC_SIZE: Option<usize> = Some(0);
    const IS_TUPLE: bool = false;
    #[inline(always)]
    fn size(&self) -> usize {
        0
    }
    fn fmt_cute(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("_0")
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
    #[inline(always)]
    fn size(&self) -> usize {
        self.value()
    }
    fn fmt_cute(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_{}", self.value())
    }
    #[cfg(feature = "std")]
    fn to_dynamic(&self) -> cute_dynamic::IntTuple {
        // Leaves written with the macros fit in an i64 (checked there).
        cute_dynamic::IntTuple::int(i64::try_from(self.value()).unwrap_or(i64::MAX))
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

macro_rules! tuple_int_tuple {
    ($n:expr; $($i:tt $T:ident),+) => {
        impl<$($T: IntTuple),+> IntTuple for ($($T,)+) {
            const RANK: usize = $n;
            const DEPTH: usize = 1 + { let mut d = 0; $( d = max(d, $T::DEPTH); )+ d };
            const STATIC_SIZE: Option<usize> = { let s = Some(1); $( let s = mul_static(s, $T::STATIC_SIZE); )+ s };
            const IS_TUPLE: bool = true;
            #[inline(always)]
            fn size(&self) -> usize {
                1usize $( .wrapping_mul(self.$i.size()) )+
            }
            fn fmt_cute(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("(")?;
                let mut first = true;
                $(
                    if !first { f.write_str(",")?; }
                    first = false;
                    self.$i.fmt_cute(f)?;
                )+
                let _ = first;
                f.write_str(")")
            }
            #[cfg(feature = "std")]
            fn to_dynamic(&self) -> cute_dynamic::IntTuple {
                cute_dynamic::IntTuple::tuple([$( self.$i.to_dynamic() ),+])
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

tuple_int_tuple!(1; 0 A0);
tuple_int_tuple!(2; 0 A0, 1 A1);
tuple_int_tuple!(3; 0 A0, 1 A1, 2 A2);
tuple_int_tuple!(4; 0 A0, 1 A1, 2 A2, 3 A3);
tuple_int_tuple!(5; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4);
tuple_int_tuple!(6; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5);
tuple_int_tuple!(7; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6);
tuple_int_tuple!(8; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6, 7 A7);
tuple_int_tuple!(9; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6, 7 A7, 8 A8);
tuple_int_tuple!(10; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6, 7 A7, 8 A8, 9 A9);
tuple_int_tuple!(11; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6, 7 A7, 8 A8, 9 A9, 10 A10);
tuple_int_tuple!(12; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6, 7 A7, 8 A8, 9 A9, 10 A10, 11 A11);
tuple_int_tuple!(13; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6, 7 A7, 8 A8, 9 A9, 10 A10, 11 A11, 12 A12);
tuple_int_tuple!(14; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6, 7 A7, 8 A8, 9 A9, 10 A10, 11 A11, 12 A12, 13 A13);
tuple_int_tuple!(15; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6, 7 A7, 8 A8, 9 A9, 10 A10, 11 A11, 12 A12, 13 A13, 14 A14);
tuple_int_tuple!(16; 0 A0, 1 A1, 2 A2, 3 A3, 4 A4, 5 A5, 6 A6, 7 A7, 8 A8, 9 A9, 10 A10, 11 A11, 12 A12, 13 A13, 14 A14, 15 A15);
