//! Building a result's layout type from leaf values.

use super::{Buf, FlatValues, MAX_MODES, TOO_MANY_MODES};
use crate::int_tuple::{Dyn, IntTuple, Leaf};
use cute_dynamic::kernel::Fail;
use typenum::{Bit, UInt, UTerm, Unsigned};

/// A leaf made from its computed value: a static leaf is its type (the
/// value is its by construction), a [`Dyn`] holds it.
#[doc(hidden)]
pub trait FromValue: Leaf {
    /// The leaf of value `v`.
    fn from_value(v: i64) -> Self;
}
impl FromValue for UTerm {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn from_value(_: i64) -> Self {
        UTerm
    }
}
impl<U: Unsigned + Default, B: Bit + Default> FromValue for UInt<U, B>
where
    UInt<U, B>: Leaf,
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn from_value(v: i64) -> Self {
        debug_assert_eq!(v, <Self as Leaf>::signed(&Self::default()));
        Self::default()
    }
}
impl FromValue for Dyn {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn from_value(v: i64) -> Self {
        Dyn::new(v)
    }
}

/// Leaves written in order: the values of a result whose structure is a
/// type are filled from them (the run-time products, coalesce and
/// complement; the divides write at positions known from the types, into
/// an [`Out`](crate::divide::Out)).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Leaves {
    v: Buf<(i64, i64), { 2 * MAX_MODES }>,
}
impl Leaves {
    /// No leaves.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new() -> Leaves {
        Leaves { v: Buf::new() }
    }
    /// All leaves.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn all(&self) -> &[(i64, i64)] {
        self.v.as_slice()
    }
    /// Appends one leaf pair; the callers write at most as many as their
    /// argument has leaves (checked at most `MAX_MODES` at compile time).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn push_pair(&mut self, s: i64, d: i64) {
        let _ = self.v.push((s, d));
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn push(&mut self, l: &[(i64, i64)]) -> Result<(), Fail> {
        // Room filled, then overwritten: a plain `copy_from_slice` the
        // optimizer turns into a few moves (an append loop here took the
        // mixed `logical_divide` bench from 12.3 to 21 ns).
        let dst = self.v.extend_with(l.len(), (1, 0)).ok_or(TOO_MANY_MODES)?;
        dst.copy_from_slice(l);
        Ok(())
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn push_layout<S: FlatValues, D: FlatValues>(&mut self, s: &S, d: &D) -> Result<(), Fail> {
        let (mut sv, mut dv) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
        let (mut ns, mut nd) = (0, 0);
        if !(s.write(&mut sv, &mut ns) && d.write(&mut dv, &mut nd)) {
            return Err(TOO_MANY_MODES);
        }
        for i in 0..ns {
            self.push(&[(sv[i], dv[i])])?;
        }
        Ok(())
    }
}

/// A tree filled from leaf values in order: a static leaf is its type, a
/// [`Dyn`] takes the value.
#[doc(hidden)]
pub trait FromLeaves: IntTuple {
    /// The tree from `v[*at..]`, advancing `at`.
    fn from_leaves(v: &[(i64, i64)], at: &mut usize, stride: bool) -> Self;
}
macro_rules! from_leaves_leaf {
    ($($g:ident),* ; $T:ty) => {
        impl<$($g),*> FromLeaves for $T where $T: FromValue + IntTuple {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn from_leaves(v: &[(i64, i64)], at: &mut usize, stride: bool) -> Self {
                let (s, d) = v[*at];
                *at += 1;
                <$T as FromValue>::from_value(if stride { d } else { s })
            }
        }
    };
}
from_leaves_leaf!(; UTerm);
from_leaves_leaf!(U, B; UInt<U, B>);
from_leaves_leaf!(; Dyn);
macro_rules! from_leaves_tuple {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($T: FromLeaves),+> FromLeaves for ($($T,)+) where ($($T,)+): IntTuple {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn from_leaves(v: &[(i64, i64)], at: &mut usize, stride: bool) -> Self {
                ($($T::from_leaves(v, at, stride),)+)
            }
        }
    };
}
for_each_tuple!(from_leaves_tuple);

/// The layout of type `Layout<YS, YD>` whose flat modes are `v` (each
/// `(shape, stride)`, a static leaf taking its type's value): `None`
/// unless `v` has one mode per leaf of the type.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn layout_of_modes<YS, YD>(v: &[(i64, i64)]) -> Option<crate::layout::Layout<YS, YD>>
where
    YS: FromLeaves + FlatValues + crate::layout::Congruent<YD>,
    YD: FromLeaves,
{
    if v.len() != YS::LEAVES {
        return None;
    }
    let (mut i, mut j) = (0, 0);
    Some(crate::layout::Layout::from_checked(YS::from_leaves(v, &mut i, false), YD::from_leaves(v, &mut j, true)))
}
