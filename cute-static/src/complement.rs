//! `complement` against a run-time cotarget (`complement(a, shape!({m}))`).
//!
//! The all-static complement is decided in trait resolution (`algebra.rs`).
//! With a run-time cotarget `M` and an all-static layout `A`, everything
//! but the last mode is still found there: `A`'s modes sorted, each
//! contributing `d/C : C`, and the extent `C` where the last mode starts.
//! Only the last mode's size, `⌈(M + gaps)/C⌉` (cute-dynamic's count of
//! what the other modes cover), waits for `M`: its shape is a [`Dyn`] and
//! it is kept even when that is 1 (CuTe's form). A layout that is not
//! injective still does not compile; a cotarget below 1 is cute-dynamic's
//! `Unsupported` error, checked when the call runs. (CuTe allows a
//! run-time stride only in a rank-1 complement; here strides and shapes of
//! `A` are static, as in the layouts kernels tile with.)

#[cfg(feature = "std")]
use crate::algebra::CompGap;
use crate::algebra::{CompCurr, CompFold, CompOut, ComplementOnto, DropUnit, Nontrivial, PushMode, Sort, Sorted};
use crate::coalesce::{CoFold, Coalesced, Plain};
use crate::int_tuple::Dyn;
use crate::layout::Layout;
#[cfg(feature = "std")]
use crate::list::MCons;
use crate::list::{FlatModes, FlattenInto, LayoutOfModes, MNil, ModesToLayout};
#[cfg(feature = "std")]
use typenum::Unsigned;
use typenum::{U0, U1};

/// The complement's modes before the last, then the last `Dyn:C`.
pub(crate) type RunTimeModes<S, D> = <<CompOut<S, D> as DropUnit>::Output as PushMode<Dyn, CompCurr<S, D>>>::Output;

/// `complement(Self, M)` for a run-time cotarget `M`: the type (see the
/// module's documentation).
#[doc(hidden)]
pub trait ComplementRunTime {
    /// The complement.
    type Output;
}
impl<S, D> ComplementRunTime for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: Nontrivial,
    <FlatModes<S, D> as Nontrivial>::Output: Sort,
    Sorted<S, D>: CompFold<U1>,
    CompOut<S, D>: DropUnit,
    <CompOut<S, D> as DropUnit>::Output: PushMode<Dyn, CompCurr<S, D>>,
    RunTimeModes<S, D>: CoFold<U1, U0, Plain>,
    Coalesced<RunTimeModes<S, D>>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<RunTimeModes<S, D>>>;
}
impl<A: ComplementRunTime> ComplementOnto<A> for Dyn {
    type Output = <A as ComplementRunTime>::Output;
}

#[cfg(feature = "std")]
pub(crate) use run_time::ext_modes;
#[cfg(feature = "std")]
pub use run_time::{StaticModes, TryComplement, try_complement};

#[cfg(feature = "std")]
mod run_time {
    use super::*;
    use crate::coalesce::{FlatMode, coalesce_walk};
    use crate::divide::{FromLeaves, Leaves};

    /// The values of a static mode list, appended to `out[*n..]`.
    #[doc(hidden)]
    pub trait StaticModes {
        /// Appends the modes.
        fn write(out: &mut [FlatMode], n: &mut usize);
    }
    impl StaticModes for MNil {
        #[inline(always)]
        fn write(_: &mut [FlatMode], _: &mut usize) {}
    }
    impl<S: Unsigned, D: Unsigned, T: StaticModes> StaticModes for MCons<S, D, T> {
        #[inline(always)]
        fn write(out: &mut [FlatMode], n: &mut usize) {
            if let Some(m) = out.get_mut(*n) {
                *m = FlatMode { s: S::I64, d: D::I64, ss: true, ds: true };
                *n += 1;
            }
            T::write(out, n)
        }
    }

    /// `complement(Self, M)` with a run-time cotarget, checked when it runs.
    ///
    /// Post-conditions: those of [`complement`](crate::complement); the
    /// result's `to_dynamic()`, coalesced, is cute-dynamic's
    /// `complement(A, M)`.
    pub trait TryComplement<M> {
        /// The complement's type.
        type Output;
        /// The complement, or the error cute-dynamic gives.
        fn try_complement(&self, m: &M) -> Result<Self::Output, cute_dynamic::LayoutError>;
    }
    impl<S, D, OS: FromLeaves, OD: FromLeaves> TryComplement<Dyn> for Layout<S, D>
    where
        Self: ComplementRunTime<Output = Layout<OS, OD>>,
        S: FlattenInto<D, MNil> + crate::Congruent<D>,
        D: crate::IntTuple,
        FlatModes<S, D>: Nontrivial,
        <FlatModes<S, D> as Nontrivial>::Output: Sort,
        Sorted<S, D>: CompFold<U1>,
        CompOut<S, D>: DropUnit,
        <CompOut<S, D> as DropUnit>::Output: StaticModes,
        CompCurr<S, D>: Unsigned,
        CompGap<S, D>: Unsigned,
    {
        type Output = Layout<OS, OD>;
        #[inline(always)]
        fn try_complement(&self, m: &Dyn) -> Result<Layout<OS, OD>, cute_dynamic::LayoutError> {
            let m = m.get();
            if m < 1 {
                return Err(below_one(self.to_dynamic(), m));
            }
            let (modes, n) = ext_modes::<S, D>(m);
            let mut out = Leaves::new();
            coalesce_walk(&modes[..n], false, &mut out);
            let (mut i, mut j) = (0, 0);
            let s = OS::from_leaves(out.all(), &mut i, false);
            let d = OD::from_leaves(out.all(), &mut j, true);
            Ok(Layout::from_checked(s, d))
        }
    }

    /// The modes of `complement(Layout<S, D>, m)` (`m ≥ 1`) before
    /// coalescing, the last kept even of size 1 (cute-dynamic's
    /// `complement_extended`), with their static flags.
    #[inline(always)]
    pub(crate) fn ext_modes<S, D>(m: i64) -> ([FlatMode; crate::composition::MAX_MODES], usize)
    where
        S: FlattenInto<D, MNil>,
        FlatModes<S, D>: Nontrivial,
        <FlatModes<S, D> as Nontrivial>::Output: Sort,
        Sorted<S, D>: CompFold<U1>,
        CompOut<S, D>: DropUnit,
        <CompOut<S, D> as DropUnit>::Output: StaticModes,
        CompCurr<S, D>: Unsigned,
        CompGap<S, D>: Unsigned,
    {
        let mut modes = [FlatMode::default(); crate::composition::MAX_MODES];
        let mut n = 0;
        <<CompOut<S, D> as DropUnit>::Output as StaticModes>::write(&mut modes, &mut n);
        // What `A` and the modes before the last cover: `C − 1 − gaps`
        // (the extents telescope); the last repeats until `M − 1`.
        let c = <CompCurr<S, D> as Unsigned>::I64;
        let covered = c - 1 - <CompGap<S, D> as Unsigned>::I64;
        let need = m - 1 - covered;
        let last = if need <= 0 { 1 } else { 1 + (need - 1) / c + 1 };
        if let Some(slot) = modes.get_mut(n) {
            *slot = FlatMode { s: last, d: c, ss: false, ds: true };
            n += 1;
        }
        (modes, n)
    }

    /// cute-dynamic's error for a cotarget below 1 (cold).
    #[cold]
    #[inline(never)]
    fn below_one(a: cute_dynamic::Layout, m: i64) -> cute_dynamic::LayoutError {
        cute_dynamic::LayoutError::Unsupported { what: format!("complement of {a} with cotarget {m} below 1") }
    }

    /// `complement(a, m)` with a run-time cotarget: `Ok` with the complement
    /// (the static modes found at compile time, the last one's size computed),
    /// or the [`LayoutError`](cute_dynamic::LayoutError) cute-dynamic gives.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let r = try_complement(&layout!(4:2), &Dyn::new(24)).unwrap();
    /// assert_eq!(r.to_string(), "(_2,3):(_1,_8)");
    /// assert!(try_complement(&layout!(4:2), &Dyn::new(0)).is_err());
    /// ```
    #[inline(always)]
    pub fn try_complement<A: TryComplement<M>, M>(a: &A, m: &M) -> Result<A::Output, cute_dynamic::LayoutError> {
        a.try_complement(m)
    }

    /// The run-time branch of [`ComplementValue`](crate::algebra::ComplementValue).
    impl<O, A: TryComplement<Dyn, Output = O>> crate::algebra::ComplementValueBy<A, Dyn, typenum::B0> for O {
        #[inline(always)]
        #[track_caller]
        fn make(a: A, m: Dyn) -> O {
            match a.try_complement(&m) {
                Ok(r) => r,
                Err(e) => crate::composition::fail(e),
            }
        }
    }
    /// A cotarget written as a rank-1 tuple `({m})`.
    impl<O, A: TryComplement<Dyn, Output = O>> crate::algebra::ComplementValueBy<A, (Dyn,), typenum::B0> for O {
        #[inline(always)]
        #[track_caller]
        fn make(a: A, m: (Dyn,)) -> O {
            <O as crate::algebra::ComplementValueBy<A, Dyn, typenum::B0>>::make(a, m.0)
        }
    }
}
