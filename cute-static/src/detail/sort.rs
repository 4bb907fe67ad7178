//! One insertion sort of type-level mode lists, ascending by a key and then
//! a tie-break: complement sorts a layout's modes (`MCons`) by `(stride,
//! shape)`, the inverses sort ranked modes (`RCons`) by `(stride, prefix)`.
//! Cells whose key and tie-break are both equal (or whose tie-break is a
//! run-time leaf) keep the inserted one first.
//!
//! The algorithm is written once, in `sort_impls!`, and instantiated for the
//! two kinds of list: the cells are matched by their type directly, which
//! costs the trait solver fewer projections than reading key, tie-break and
//! tail through a trait.

use crate::detail::{MCons, MNil};
use crate::detail::{RCons, RNil};
use crate::int_tuple::Dyn;
use typenum::{Compare, Equal, Greater, Less, UInt, UTerm, Unsigned};

/// The list sorted, ascending by `(key, tie-break)`.
pub trait Sort {
    /// The sorted list.
    type Output;
}

/// The sorted list `Self` with the cell `C` inserted in order.
pub trait Insert<C> {
    /// The sorted list.
    type Output;
}

/// [`Insert`] by the comparison `O` of the keys (then of the tie-breaks).
pub trait InsertBy<C, O> {
    /// The sorted list.
    type Output;
}

/// The comparison of two tie-breaks: typenum's on static integers; a
/// run-time ([`Dyn`]) tie-break ties, so that the inserted cell goes first
/// and the sort stays stable (CuTe's complement takes the first mode of the
/// smallest stride, whatever its shape).
pub trait TieCmp<R> {
    /// `Less`, `Equal` or `Greater`.
    type Output;
}
impl<L: Unsigned + typenum::Cmp<R>, R: Unsigned> TieCmp<R> for L {
    type Output = Compare<L, R>;
}
impl<R> TieCmp<R> for Dyn {
    type Output = Equal;
}
impl TieCmp<Dyn> for UTerm {
    type Output = Equal;
}
impl<U, B> TieCmp<Dyn> for UInt<U, B> {
    type Output = Equal;
}

/// A tie-break comparison as a placement: equal or less goes first.
pub trait TieOrderOf {
    /// `Less` or `Greater`.
    type Output;
}
impl TieOrderOf for Less {
    type Output = Less;
}
impl TieOrderOf for Equal {
    type Output = Less;
}
impl TieOrderOf for Greater {
    type Output = Greater;
}
type TieOrder<O> = <O as TieOrderOf>::Output;

/// The sort for the list kind `$Cons<$($x),*, Tail>` / `$Nil`, sorted by
/// the parameter `$key`, ties broken by `$tie`. `$C` and `$L` name the same
/// parameters for the inserted cell and the list's head.
macro_rules! sort_impls {
    ($Cons:ident, $Nil:ident; [$($x:ident),+]; [$($c:ident),+]; [$($l:ident),+]; $ck:ident $ct:ident; $lk:ident $lt:ident) => {
        impl Sort for $Nil {
            type Output = $Nil;
        }
        impl<$($x,)+ T: Sort> Sort for $Cons<$($x,)+ T>
        where
            <T as Sort>::Output: Insert<$Cons<$($x,)+ $Nil>>,
        {
            type Output = <<T as Sort>::Output as Insert<$Cons<$($x,)+ $Nil>>>::Output;
        }
        impl<$($c),+> Insert<$Cons<$($c,)+ $Nil>> for $Nil {
            type Output = $Cons<$($c,)+ $Nil>;
        }
        impl<$($c,)+ $($l,)+ LT> Insert<$Cons<$($c,)+ $Nil>> for $Cons<$($l,)+ LT>
        where
            $ck: typenum::Cmp<$lk>,
            Self: InsertBy<$Cons<$($c,)+ $Nil>, Compare<$ck, $lk>>,
        {
            type Output = <Self as InsertBy<$Cons<$($c,)+ $Nil>, Compare<$ck, $lk>>>::Output;
        }
        impl<$($c,)+ L> InsertBy<$Cons<$($c,)+ $Nil>, Less> for L {
            type Output = $Cons<$($c,)+ L>;
        }
        impl<$($c,)+ $($l,)+ LT> InsertBy<$Cons<$($c,)+ $Nil>, Greater> for $Cons<$($l,)+ LT>
        where
            LT: Insert<$Cons<$($c,)+ $Nil>>,
        {
            type Output = $Cons<$($l,)+ <LT as Insert<$Cons<$($c,)+ $Nil>>>::Output>;
        }
        impl<$($c,)+ $($l,)+ LT> InsertBy<$Cons<$($c,)+ $Nil>, Equal> for $Cons<$($l,)+ LT>
        where
            $ct: TieCmp<$lt>,
            <$ct as TieCmp<$lt>>::Output: TieOrderOf,
            Self: InsertBy<$Cons<$($c,)+ $Nil>, TieOrder<<$ct as TieCmp<$lt>>::Output>>,
        {
            type Output = <Self as InsertBy<$Cons<$($c,)+ $Nil>, TieOrder<<$ct as TieCmp<$lt>>::Output>>>::Output;
        }
    };
}
// Modes `S:D` by `(stride D, shape S)`.
sort_impls!(MCons, MNil; [S, D]; [CS, CD]; [LS, LD]; CD CS; LD LS);
// Ranked modes `S:D` at prefix `P` by `(stride D, prefix P)`.
sort_impls!(RCons, RNil; [S, D, P]; [CS, CD, CP]; [LS, LD, LP]; CD CP; LD LP);
