//! The padded form of a result whose number of modes is only known at run
//! time (CuTe's form for `int` leaves): the type of the run-time inverses,
//! of the complement of a layout with run-time leaves, and of `A*` in a
//! product by such a layout; and (with `std`) its filling from computed
//! modes.

#[cfg(feature = "std")]
use super::MAX_MODES;
use crate::detail::{FlatModes, MCons, MNil};
use crate::int_tuple::Dyn;
use crate::layout::Layout;
#[cfg(feature = "std")]
use cute_dynamic::kernel::{coalesce_in_place, extent};
use typenum::{U0, U1};

/// The padded form of a result whose number of modes is only known at run
/// time: one [`Dyn`](Dyn) mode per mode of the list `Self` (a flat
/// `Dyn` leaf for one mode), filled from the computed modes with `1:0`
/// modes in front (the last mode stays last, as a composition with the
/// result needs: its last mode is the unbounded one).
#[doc(hidden)]
pub trait PadDyn {
    /// The layout of run-time leaves.
    type Output;
    /// The number of modes.
    const RANK: usize;
    /// The layout from `v` (exactly `RANK` modes).
    fn build(v: &[(i64, i64)]) -> Self::Output;
}
impl<S0, D0> PadDyn for MCons<S0, D0, MNil> {
    type Output = Layout<Dyn, Dyn>;
    const RANK: usize = 1;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn build(v: &[(i64, i64)]) -> Self::Output {
        Layout::from_checked(Dyn::new(v[0].0), Dyn::new(v[0].1))
    }
}
// Two modes or more, for every arity of the tuple list (one mode is the
// scalar layout above).
macro_rules! pad_dyn {
    (@one $i:tt) => { 1 };
    (@dyn $X:ident) => { Dyn };
    (@list $S:ident $D:ident $($rest:ident)*) => { MCons<$S, $D, pad_dyn!(@list $($rest)*)> };
    (@list) => { MNil };
    ($_i:tt $_a:ident $_s:ident $_d:ident) => {};
    ($($i:tt $A:ident $S:ident $D:ident),+) => {
        impl<$($S, $D,)+> PadDyn for pad_dyn!(@list $($S $D)+) {
            type Output = Layout<($(pad_dyn!(@dyn $S),)+), ($(pad_dyn!(@dyn $D),)+)>;
            const RANK: usize = 0 $(+ pad_dyn!(@one $i))+;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn build(v: &[(i64, i64)]) -> Self::Output {
                Layout::from_checked(($(Dyn::new(v[$i].0),)+), ($(Dyn::new(v[$i].1),)+))
            }
        }
    };
}
for_each_tuple!(pad_dyn);

/// The padded type of `N` flat modes (`Self` the layout): `N` for the
/// right inverse, `N + 1` for the left inverse and the complement.
pub type PadN<S, D> = <FlatModes<S, D> as PadDyn>::Output;
/// `N + 1` modes.
pub type PadN1<S, D> = <MCons<U1, U0, FlatModes<S, D>> as PadDyn>::Output;

/// Writes `modes` coalesced into the padded form of `P` (`1:0` modes in
/// front, `1:0` for no modes at all); `None` when they do not fit.
#[cfg(feature = "std")]
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn padded<P: PadDyn>(modes: &mut [(i64, i64)]) -> Option<P::Output> {
    let n = coalesce_in_place(modes);
    if n > P::RANK {
        return None;
    }
    let mut v = [(1i64, 0i64); MAX_MODES];
    v[P::RANK - n..P::RANK].copy_from_slice(&modes[..n]);
    Some(P::build(&v[..P::RANK]))
}

/// The result's size and extent fit in an `i64` (cute-dynamic's check).
#[cfg(feature = "std")]
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn extent_fits(m: &[(i64, i64)]) -> bool {
    extent(m.iter().copied()).is_some()
}
