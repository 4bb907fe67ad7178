//! Reading the leaves of a layout type into fixed buffers.

use super::MAX_MODES;
use crate::int_tuple::{Dyn, IntTuple, Leaf};
use typenum::{UInt, UTerm};

/// A shape or stride tree whose leaves, static or run-time, are read at
/// run time, in order, as `i64`s: every [`IntTuple`]. The bound of
/// [`Tensor::partition_mut`](crate::Tensor::partition_mut) and
/// [`Block::shared_tile`](crate::Block::shared_tile), which read a layout's
/// leaves to prove its parts disjoint.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::FlatValues;
/// fn leaves<S: FlatValues>(_: S) {}
/// leaves(shape!(4, (2, 3)));
/// leaves(make_shape((5usize, 7usize)));
/// ```
pub trait FlatValues: IntTuple {
    /// The number of leaves.
    #[doc(hidden)]
    const LEAVES: usize;
    /// Whether some leaf is static.
    #[doc(hidden)]
    const ANY_STATIC: bool;
    /// Appends the leaves to `out[*n..]`; `false` when there is no room.
    #[doc(hidden)]
    fn write(&self, out: &mut [i64; MAX_MODES], n: &mut usize) -> bool;
    /// Appends whether each leaf is static to `out[*n..]`; `false` when
    /// there is no room.
    #[doc(hidden)]
    fn write_static(out: &mut [bool; MAX_MODES], n: &mut usize) -> bool;
}
macro_rules! flat_leaf {
    ($($g:ident),* ; $T:ty) => {
        impl<$($g),*> FlatValues for $T where $T: Leaf + IntTuple {
            const LEAVES: usize = 1;
            const ANY_STATIC: bool = <$T as Leaf>::STATIC.is_some();
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn write(&self, out: &mut [i64; MAX_MODES], n: &mut usize) -> bool {
                let Some(slot) = out.get_mut(*n) else { return false };
                *slot = self.signed();
                *n += 1;
                true
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn write_static(out: &mut [bool; MAX_MODES], n: &mut usize) -> bool {
                let Some(slot) = out.get_mut(*n) else { return false };
                *slot = <$T as Leaf>::STATIC.is_some();
                *n += 1;
                true
            }
        }
    };
}
flat_leaf!(; UTerm);
flat_leaf!(U, B; UInt<U, B>);
flat_leaf!(; Dyn);
macro_rules! flat_tuple {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($T: FlatValues),+> FlatValues for ($($T,)+) where ($($T,)+): IntTuple {
            const LEAVES: usize = 0 $(+ $T::LEAVES)+;
            const ANY_STATIC: bool = false $(|| $T::ANY_STATIC)+;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn write(&self, out: &mut [i64; MAX_MODES], n: &mut usize) -> bool {
                $(self.$i.write(out, n))&&+
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn write_static(out: &mut [bool; MAX_MODES], n: &mut usize) -> bool {
                $($T::write_static(out, n))&&+
            }
        }
    };
}
for_each_tuple!(flat_tuple);

/// The flat modes of a layout with run-time leaves.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn flat_modes<S: FlatValues, D: FlatValues>(s: &S, d: &D) -> ([(i64, i64); MAX_MODES], usize) {
    let (mut sv, mut dv) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
    let (mut n, mut k) = (0, 0);
    let _ = s.write(&mut sv, &mut n) && d.write(&mut dv, &mut k);
    let mut out = [(1i64, 0i64); MAX_MODES];
    for i in 0..n {
        out[i] = (sv[i], dv[i]);
    }
    (out, n)
}

/// A flat mode's values and which of its two leaves are static.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct FlatMode {
    pub(crate) s: i64,
    pub(crate) d: i64,
    pub(crate) ss: bool,
    pub(crate) ds: bool,
}

/// The flat modes of a layout with their static flags.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn marked_modes<S: FlatValues, D: FlatValues>(s: &S, d: &D) -> ([FlatMode; MAX_MODES], usize) {
    const { assert!(S::LEAVES <= MAX_MODES, "more than 16 leaves in a layout with run-time leaves") };
    let (mut sv, mut dv) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
    let (mut sf, mut df) = ([false; MAX_MODES], [false; MAX_MODES]);
    let (mut n, mut k) = (0, 0);
    let _ = s.write(&mut sv, &mut n) && d.write(&mut dv, &mut k);
    let (mut a, mut b) = (0, 0);
    let _ = S::write_static(&mut sf, &mut a) && D::write_static(&mut df, &mut b);
    let mut out = [FlatMode::default(); MAX_MODES];
    for i in 0..n {
        out[i] = FlatMode { s: sv[i], d: dv[i], ss: sf[i], ds: df[i] };
    }
    (out, n)
}
