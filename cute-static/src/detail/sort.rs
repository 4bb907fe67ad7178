//! One insertion sort of type-level mode lists, ascending by a key and then
//! a tie-break: complement sorts a layout's modes (`MCons`) by `(stride,
//! shape)`, the inverses sort ranked modes (`RCons`) by `(stride, prefix)`.
//! Cells whose key and tie-break are both equal keep the inserted one first.

use crate::detail::{MCons, MNil};
use crate::detail::{RCons, RNil};
use typenum::{Compare, Equal, Greater, Less};

/// A cell of a sortable list: what it sorts by, its tail, and the same
/// cell over another tail.
pub trait SortCell {
    /// Compared first.
    type Key;
    /// Compared when the keys are equal.
    type Tie;
    /// The rest of the list.
    type Tail;
    /// This cell in front of `T`.
    type With<T>;
}
impl<S, D, T> SortCell for MCons<S, D, T> {
    type Key = D;
    type Tie = S;
    type Tail = T;
    type With<T2> = MCons<S, D, T2>;
}
impl<S, D, P, T> SortCell for RCons<S, D, P, T> {
    type Key = D;
    type Tie = P;
    type Tail = T;
    type With<T2> = RCons<S, D, P, T2>;
}

/// The list sorted, ascending by `(Key, Tie)`.
pub trait Sort {
    /// The sorted list.
    type Output;
}
impl Sort for MNil {
    type Output = MNil;
}
impl Sort for RNil {
    type Output = RNil;
}
impl<C: SortCell> Sort for C
where
    C::Tail: Sort,
    <C::Tail as Sort>::Output: Insert<C>,
{
    type Output = <<C::Tail as Sort>::Output as Insert<C>>::Output;
}

/// The sorted list `Self` with the cell `C` inserted in order.
pub trait Insert<C> {
    /// The sorted list.
    type Output;
}
impl<C: SortCell> Insert<C> for MNil {
    type Output = C::With<MNil>;
}
impl<C: SortCell> Insert<C> for RNil {
    type Output = C::With<RNil>;
}
impl<C: SortCell, L: SortCell> Insert<C> for L
where
    C::Key: typenum::Cmp<L::Key>,
    L: InsertBy<C, Compare<C::Key, L::Key>>,
{
    type Output = <L as InsertBy<C, Compare<C::Key, L::Key>>>::Output;
}

/// [`Insert`] by the comparison `O` of the keys.
pub trait InsertBy<C, O> {
    /// The sorted list.
    type Output;
}
impl<C: SortCell, L> InsertBy<C, Less> for L {
    type Output = C::With<L>;
}
impl<C, L: SortCell> InsertBy<C, Greater> for L
where
    L::Tail: Insert<C>,
{
    type Output = L::With<<L::Tail as Insert<C>>::Output>;
}
impl<C: SortCell, L: SortCell> InsertBy<C, Equal> for L
where
    C::Tie: typenum::Cmp<L::Tie>,
    Compare<C::Tie, L::Tie>: TieOrderOf,
    L: InsertBy<C, TieOrder<Compare<C::Tie, L::Tie>>>,
{
    type Output = <L as InsertBy<C, TieOrder<Compare<C::Tie, L::Tie>>>>::Output;
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
