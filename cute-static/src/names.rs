//! The public names of the algebra's bounds: for each operation `op`, the
//! trait of its result type (`Op`, `type Output`) and the trait of its value
//! (`OpValue`, `make` and, with `std`, `try_make`), so that generic code
//! bounds a call of `op` with documented names only, as
//! `A: Compose<B>, A::Output: ComposeValue<A, B>` does for [`composition`](crate::composition).
//!
//! Several operations share one generic solver trait keyed on a marker
//! (`InverseOf<RightOp>`, `DivideValue<LogicalArr, ..>`,
//! `LeafValue<op::Coalesce, ..>`): each gets its own name here, a trait
//! with one blanket impl over the shared one, all from the one list at the
//! bottom (`Compose` and `Complement` are written out in their files).

use crate::coalesce::{LeafValue, op as leaf_op};
#[cfg(feature = "std")]
use crate::detail::{Blocked, Raked};
use crate::detail::{Flat, Logical, Tiled, Zipped};
#[cfg(feature = "std")]
use crate::divide::{DivideValue, FlatArr, LogicalArr, TiledArr, ZippedArr};
use crate::inverse::{InverseOf, InverseValue, LeftOp, RightOp};
use crate::product::ProductValue;
#[cfg(feature = "std")]
use crate::product::RankProductValue;

// One arm per shape of operation. Every arm gets, per entry: the example
// arguments and the expected text of the result, for the doctest of a
// generic function bounded by the two traits.
macro_rules! op_names {
    // A unary operation whose output trait is new here (the inverses).
    (@unary_op $(#[$doc:meta])* $Op:ident, $Value:ident, $f:ident, $Shared:ty, $arg:literal => $out:literal) => {
        $(#[$doc])*
        ///
        #[doc = concat!("`", stringify!($f), "(Self)` for any layout (all-static, or with run-time leaves): ")]
        #[doc = concat!("the type of [`", stringify!($f), "`](crate::", stringify!($f), ")'s result. ")]
        #[doc = concat!("Generic code bounds the value by [`", stringify!($Value), "`].")]
        ///
        /// ```
        /// use cute_static::prelude::*;
        #[doc = concat!("fn f<A: ", stringify!($Op), ">(a: A) -> A::Output")]
        /// where
        #[doc = concat!("    A::Output: ", stringify!($Value), "<A>,")]
        /// {
        #[doc = concat!("    ", stringify!($f), "(a)")]
        /// }
        #[doc = concat!("assert_eq!(f(", $arg, ").to_string(), \"", $out, "\");")]
        /// ```
        pub trait $Op {
            /// The result layout.
            type Output;
        }
        impl<A: InverseOf<$Shared>> $Op for A {
            type Output = <A as InverseOf<$Shared>>::Output;
        }
    };
    // The value trait of a unary operation (`make(a)`).
    (@unary $Op:ident, $Value:ident, $f:ident, try $($tryf:ident)?, [$Shared:path], by $how:tt, $arg:literal => $out:literal) => {
        #[doc = concat!("The value of [`", stringify!($f), "`](crate::", stringify!($f), ")`(a)`: ")]
        #[doc = "zero-sized when `a` is all-static, computed from `a`'s run-time leaves otherwise. "]
        #[doc = concat!("Generic code that calls `", stringify!($f), "` bounds the result by it, with [`", stringify!($Op), "`](crate::", stringify!($Op), ") for its type.")]
        ///
        /// ```
        /// use cute_static::prelude::*;
        #[doc = concat!("fn f<A: ", stringify!($Op), ">(a: A) -> A::Output")]
        /// where
        #[doc = concat!("    A::Output: ", stringify!($Value), "<A>,")]
        /// {
        #[doc = concat!("    ", stringify!($f), "(a) // = <A::Output as ", stringify!($Value), "<A>>::make(a)")]
        /// }
        #[doc = concat!("assert_eq!(f(", $arg, ").to_string(), \"", $out, "\");")]
        /// ```
        pub trait $Value<A>: Sized {
            #[doc = concat!("`", stringify!($f), "(a)`.")]
            ///
            /// ```
            /// use cute_static::prelude::*;
            #[doc = concat!("fn f<A: ", stringify!($Op), ">(a: A) -> A::Output")]
            /// where
            #[doc = concat!("    A::Output: ", stringify!($Value), "<A>,")]
            /// {
            #[doc = concat!("    <A::Output as ", stringify!($Value), "<A>>::make(a)")]
            /// }
            #[doc = concat!("assert_eq!(f(", $arg, ").to_string(), \"", $out, "\");")]
            /// ```
            fn make(a: A) -> Self;
            $(
            #[doc = concat!("`", stringify!($f), "(a)`, or cute-dynamic's error: what [`", stringify!($tryf), "`](crate::", stringify!($tryf), ") returns, `Ok` for an all-static `a`.")]
            ///
            /// ```
            /// use cute_static::prelude::*;
            #[doc = concat!("fn f<A: ", stringify!($Op), ">(a: A) -> Result<A::Output, cute_dynamic::LayoutError>")]
            /// where
            #[doc = concat!("    A::Output: ", stringify!($Value), "<A>,")]
            /// {
            #[doc = concat!("    <A::Output as ", stringify!($Value), "<A>>::try_make(a)")]
            /// }
            #[doc = concat!("assert_eq!(f(", $arg, ").map(|r| r.to_string()), Ok(\"", $out, "\".to_string()));")]
            /// ```
            #[cfg(feature = "std")]
            fn try_make(a: A) -> Result<Self, cute_dynamic::LayoutError>;
            )?
        }
        impl<O: $Shared, A> $Value<A> for O {
            #[inline(always)]
            #[track_caller]
            fn make(a: A) -> O {
                op_names!(@call $how, O, $Shared, a)
            }
            $(
            #[doc = concat!("As [`", stringify!($tryf), "`](crate::", stringify!($tryf), ").")]
            #[cfg(feature = "std")]
            #[inline(always)]
            fn try_make(a: A) -> Result<O, cute_dynamic::LayoutError> {
                <O as $Shared>::try_make(a)
            }
            )?
        }
    };
    (@call ref, $O:ident, $S:path, $a:ident) => { <$O as $S>::make(&$a) };
    (@call val, $O:ident, $S:path, $a:ident) => { <$O as $S>::make($a) };
    // The value trait of a binary operation (`make(a, b)`); `ref` when the
    // shared trait takes `a` by reference and nothing fails (no `try_make`).
    (@binary $(#[$cfg:meta])* $Op:ident, $Value:ident, $f:ident, try $($tryf:ident)?, [$Shared:path], $B:ident, $a:literal, $b:literal => $out:literal) => {
        $(#[$cfg])*
        #[doc = concat!("The value of [`", stringify!($f), "`](crate::", stringify!($f), ")`(a, b)`: ")]
        #[doc = "zero-sized when both are all-static, computed (and checked) when either has a run-time leaf. "]
        #[doc = concat!("Generic code that calls `", stringify!($f), "` bounds the result by it, with [`", stringify!($Op), "`](crate::", stringify!($Op), ") for its type.")]
        ///
        /// ```
        /// use cute_static::prelude::*;
        #[doc = concat!("fn f<A: ", stringify!($Op), "<B>, B>(a: A, b: B) -> A::Output")]
        /// where
        #[doc = concat!("    A::Output: ", stringify!($Value), "<A, B>,")]
        /// {
        #[doc = concat!("    ", stringify!($f), "(a, b) // = <A::Output as ", stringify!($Value), "<A, B>>::make(a, b)")]
        /// }
        #[doc = concat!("assert_eq!(f(", $a, ", ", $b, ").to_string(), \"", $out, "\");")]
        /// ```
        pub trait $Value<A, $B>: Sized {
            #[doc = concat!("`", stringify!($f), "(a, b)`.")]
            ///
            /// ```
            /// use cute_static::prelude::*;
            #[doc = concat!("fn f<A: ", stringify!($Op), "<B>, B>(a: A, b: B) -> A::Output")]
            /// where
            #[doc = concat!("    A::Output: ", stringify!($Value), "<A, B>,")]
            /// {
            #[doc = concat!("    <A::Output as ", stringify!($Value), "<A, B>>::make(a, b)")]
            /// }
            #[doc = concat!("assert_eq!(f(", $a, ", ", $b, ").to_string(), \"", $out, "\");")]
            /// ```
            fn make(a: A, b: $B) -> Self;
            $(
            #[doc = concat!("`", stringify!($f), "(a, b)`, or cute-dynamic's error: what [`", stringify!($tryf), "`](crate::", stringify!($tryf), ") returns (its post-conditions), `Ok` for all-static arguments.")]
            ///
            /// ```
            /// use cute_static::prelude::*;
            #[doc = concat!("fn f<A: ", stringify!($Op), "<B>, B>(a: A, b: B) -> Result<A::Output, cute_dynamic::LayoutError>")]
            /// where
            #[doc = concat!("    A::Output: ", stringify!($Value), "<A, B>,")]
            /// {
            #[doc = concat!("    <A::Output as ", stringify!($Value), "<A, B>>::try_make(a, b)")]
            /// }
            #[doc = concat!("assert_eq!(f(", $a, ", ", $b, ").map(|r| r.to_string()), Ok(\"", $out, "\".to_string()));")]
            /// ```
            #[cfg(feature = "std")]
            fn try_make(a: A, b: $B) -> Result<Self, cute_dynamic::LayoutError>;
            )?
        }
        $(#[$cfg])*
        impl<O: $Shared, A, $B> $Value<A, $B> for O {
            #[inline(always)]
            #[track_caller]
            fn make(a: A, b: $B) -> O {
                op_names!(@call2 [$($tryf)?], O, $Shared, a, b)
            }
            $(
            #[doc = concat!("As [`", stringify!($tryf), "`](crate::", stringify!($tryf), ").")]
            #[cfg(feature = "std")]
            #[inline(always)]
            fn try_make(a: A, b: $B) -> Result<O, cute_dynamic::LayoutError> {
                <O as $Shared>::try_make(a, b)
            }
            )?
        }
    };
    // Without a `try_` form the shared trait is the leaf walk (`&a`, the
    // profile only a type).
    (@call2 [], $O:ident, $S:path, $a:ident, $b:ident) => {{
        let _ = $b;
        <$O as $S>::make(&$a)
    }};
    (@call2 [$tryf:ident], $O:ident, $S:path, $a:ident, $b:ident) => { <$O as $S>::make($a, $b) };
    // The list: `kind { arm's arguments }`.
    ($($kind:ident { $($entry:tt)* })*) => { $(op_names!(@$kind $($entry)*);)* };
}

op_names! {
    unary_op {
        /// `right_inverse(Self)` (paper 3.4.1): the largest `R` with `L(R(k)) = k` for `k < size(R)`.
        RightInverse, RightInverseValue, right_inverse, RightOp, "layout!((4,8):(8,1))" => "(_8,_4):(_4,_1)" }
    unary_op {
        /// `left_inverse(Self)` (paper 3.4.3): `R` with `R(L(k)) = k` for every `k < size(L)`.
        LeftInverse, LeftInverseValue, left_inverse, LeftOp, "layout!((4,8):(1,5))" => "(_5,_8):(_1,_4)" }
    unary { RightInverse, RightInverseValue, right_inverse, try try_right_inverse,
        [InverseValue<RightOp, A>], by val, "layout!((4,{8i64}):(8,1))" => "(8,4):(4,1)" }
    unary { LeftInverse, LeftInverseValue, left_inverse, try try_left_inverse,
        [InverseValue<LeftOp, A>], by val, "layout!((4,8):(1,5))" => "(_5,_8):(_1,_4)" }
    unary { Coalesce, CoalesceValue, coalesce, try, [LeafValue<leaf_op::Coalesce, A>], by ref,
        "layout!((2,(1,{6i64})):(1,(6,2)))" => "(_2,6):(_1,_2)" }
    unary { Filter, FilterValue, filter, try, [LeafValue<leaf_op::Filter, A>], by ref,
        "layout!((2,(3,4)):(0,(1,3)))" => "_12:_1" }
    unary { Flatten, FlattenValue, flatten, try, [LeafValue<leaf_op::Flatten, A>], by ref,
        "layout!((2,(3,{4i64})):(1,(2,6)))" => "(_2,_3,4):(_1,_2,_6)" }
    binary { CoalesceBy, CoalesceByValue, coalesce_by, try, [LeafValue<leaf_op::By<P>, A>], P,
        "layout!((2,(1,6)):(1,(6,2)))", "shape!(1, 1)" => "(_2,_6):(_1,_2)" }
    binary { #[cfg(feature = "std")] LogicalDivide, LogicalDivideValue, logical_divide, try try_logical_divide,
        [DivideValue<LogicalArr, A, B>], B, "layout!((4,2,3):(2,1,8))", "layout!(4:2)" => "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))" }
    binary { #[cfg(feature = "std")] ZippedDivide, ZippedDivideValue, zipped_divide, try try_zipped_divide,
        [DivideValue<ZippedArr, A, B>], B, "layout!(({1000i64},{500i64}):(1,{1000i64}))", "tile!(128:1, 64:1)" => "((_128,_64),(8,8)):((_1,1000),(_128,64000))" }
    binary { #[cfg(feature = "std")] TiledDivide, TiledDivideValue, tiled_divide, try try_tiled_divide,
        [DivideValue<TiledArr, A, B>], B, "layout!((8,8):(1,8))", "shape!(2, 4)" => "((_2,_4),_4,_2):((_1,_8),_2,_32)" }
    binary { #[cfg(feature = "std")] FlatDivide, FlatDivideValue, flat_divide, try try_flat_divide,
        [DivideValue<FlatArr, A, B>], B, "layout!((8,8):(1,8))", "shape!(2, 4)" => "(_2,_4,_4,_2):(_1,_8,_2,_32)" }
    binary { LogicalProduct, LogicalProductValue, logical_product, try try_logical_product,
        [ProductValue<Logical, A, B>], B, "layout!((3,4):(4,1))", "layout!((2,5):(1,2))" => "((_3,_4),(_2,_5)):((_4,_1),(_12,_24))" }
    binary { ZippedProduct, ZippedProductValue, zipped_product, try try_zipped_product,
        [ProductValue<Zipped, A, B>], B, "layout!((2,2):(1,2))", "tile!(3:1, 2:1)" => "((_2,_2),(_3,_2)):((_1,_2),(_2,_1))" }
    binary { TiledProduct, TiledProductValue, tiled_product, try try_tiled_product,
        [ProductValue<Tiled, A, B>], B, "layout!((2,2):(1,2))", "layout!(({3i64},4):(1,3))" => "((_2,_2),3,_4):((_1,_2),_4,_12)" }
    binary { FlatProduct, FlatProductValue, flat_product, try try_flat_product,
        [ProductValue<Flat, A, B>], B, "layout!((2,2):(1,2))", "tile!(3:1, 2:1)" => "(_2,_2,_3,_2):(_1,_2,_2,_1)" }
    binary { #[cfg(feature = "std")] BlockedProduct, BlockedProductValue, blocked_product, try try_blocked_product,
        [RankProductValue<Blocked, A, B>], B, "layout!((2,5):(5,1))", "layout!(({3i64},4):(1,3))" => "((_2,3),(_5,_4)):((_5,_10),(_1,_30))" }
    binary { #[cfg(feature = "std")] RakedProduct, RakedProductValue, raked_product, try try_raked_product,
        [RankProductValue<Raked, A, B>], B, "layout!((2,5):(5,1))", "layout!(({3i64},4):(1,3))" => "((3,_2),(_4,_5)):((_10,_5),(_30,_1))" }
}
