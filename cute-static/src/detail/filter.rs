//! One filter of mode lists: `filter`'s dropping of stride-0 modes (CuTe's
//! `filter_zeros`) and complement's dropping of modes that do not shape the
//! image (size 1 or stride 0) are the same walk with another predicate.

use crate::detail::{MCons, MNil};
use crate::int_tuple::known::{KnownOne, KnownZero};
use core::ops::BitOr;
use typenum::{B0, B1, Bit, Or};

/// The modes of the list `Self` that the predicate `P` keeps.
pub trait FilterModes<P> {
    /// The kept modes, in order.
    type Output;
}
impl<P> FilterModes<P> for MNil {
    type Output = MNil;
}
impl<P: DropMode<S, D>, S, D, T> FilterModes<P> for MCons<S, D, T>
where
    Self: FilterStep<P, <P as DropMode<S, D>>::Output>,
{
    type Output = <Self as FilterStep<P, <P as DropMode<S, D>>::Output>>::Output;
}
/// [`FilterModes`] by the predicate's verdict `B` on the first mode.
pub trait FilterStep<P, B> {
    /// The kept modes.
    type Output;
}
impl<P, S, D, T: FilterModes<P>> FilterStep<P, B1> for MCons<S, D, T> {
    type Output = <T as FilterModes<P>>::Output;
}
impl<P, S, D, T: FilterModes<P>> FilterStep<P, B0> for MCons<S, D, T> {
    type Output = MCons<S, D, <T as FilterModes<P>>::Output>;
}

/// A filter's predicate: `B1` when the mode `S:D` is dropped.
pub trait DropMode<S, D> {
    /// `B1` to drop the mode.
    type Output: Bit;
}
/// Drops the modes whose stride is known to be 0 (CuTe's `filter_zeros`
/// before coalescing).
pub struct ZeroStride;
impl<S, D: KnownZero> DropMode<S, D> for ZeroStride {
    type Output = <D as KnownZero>::Output;
}
/// Drops the modes of size 1 or stride 0: they do not shape a layout's
/// image (complement's first step).
pub struct Trivial;
impl<S: KnownOne, D: KnownZero> DropMode<S, D> for Trivial
where
    <S as KnownOne>::Output: BitOr<<D as KnownZero>::Output>,
    Or<<S as KnownOne>::Output, <D as KnownZero>::Output>: Bit,
{
    type Output = Or<<S as KnownOne>::Output, <D as KnownZero>::Output>;
}
