//! `complement` with run-time ([`Dyn`](crate::Dyn)) leaves, in the cotarget or in the
//! layout.
//!
//! The all-static complement is decided in trait resolution (`detail/complement.rs`).
//! With a run-time cotarget `M` and an all-static layout `A`, everything
//! but the last mode is still found there: `A`'s modes sorted, each
//! contributing `d/C : C`, and the extent `C` where the last mode starts.
//! Only the last mode's size, `⌈(M + gaps)/C⌉` (cute-dynamic's count of
//! what the other modes cover), waits for `M`: its shape is a [`Dyn`](crate::Dyn) and
//! it is kept even when that is 1 (CuTe's form). When it is the only mode,
//! its stride is a `Dyn` too, 0 for a size of 1, so that the answer prints
//! as cute-dynamic's (`1:0`; CuTe C++ keeps the static stride, `1:_32` for
//! `(4,8):(1,4)` and 16). A layout that is not
//! injective still does not compile; a cotarget below 1 is cute-dynamic's
//! `Unsupported` error, checked when the call runs.
//!
//! With a run-time leaf in `A` (a shape or a stride) and a run-time
//! cotarget, where CuTe's complement fold takes `A` (one mode kept, or
//! static strides, whose order is then known), the result is CuTe's form:
//! the fold's modes `d/C : C`, static where CuTe's arithmetic met only
//! static values, then the last mode `⌈M/C⌉:C` (`(1,2):(4,_32)` for
//! `(4,_8):(_1,_4)` and 64, as CuTe C++ prints it); the values count the
//! gaps a run-time size leaves, as cute-dynamic does. Otherwise the order
//! of the modes and the number of modes of the answer depend on run-time
//! values, and the result is the padded form: a flat layout of `N + 1`
//! run-time leaves (`N` the flat modes of `A`), the coalesced answer at its
//! end and `1:0` modes in front, from cute-dynamic's walk. Either way the
//! conditions (injectivity, modes that interleave, negative strides,
//! overflow) are checked when the call runs, and a failure is
//! cute-dynamic's error. (CuTe allows a run-time stride only in a rank-1
//! complement.)

use crate::layout::Layout;

/// The mixed branch of [`ComplementBy`](crate::detail::ComplementBy):
/// CuTe's form for a run-time cotarget where CuTe's complement fold takes
/// the layout, otherwise the padded form of `N + 1` run-time leaves
/// ([`MixedComplement`]).
#[cfg(feature = "std")]
impl<S, D, M> crate::detail::ComplementBy<M, typenum::B0> for Layout<S, D>
where
    S: crate::detail::FlattenInto<D, crate::detail::MNil>,
    crate::detail::FlatModes<S, D>: crate::detail::NoStaticOverlap,
    Self: MixedComplement<M>,
{
    type Output = <Self as MixedComplement<M>>::Output;
}
/// Without `std` (no run-time path, so no value): the padded form.
#[cfg(not(feature = "std"))]
impl<S, D, M> crate::detail::ComplementBy<M, typenum::B0> for Layout<S, D>
where
    S: crate::detail::FlattenInto<D, crate::detail::MNil>,
    crate::detail::FlatModes<S, D>: crate::detail::NoStaticOverlap,
    crate::detail::MCons<typenum::U1, typenum::U0, crate::detail::FlatModes<S, D>>: crate::run_time::PadDyn,
{
    type Output = crate::run_time::PadN1<S, D>;
}

#[cfg(feature = "std")]
pub use run_time::{MixedComplement, StaticModes, TryComplement, try_complement};
#[cfg(feature = "std")]
pub(crate) use run_time::{cute_star, ext_modes, mixed_ext_modes};

#[cfg(feature = "std")]
mod run_time {
    use super::*;
    use crate::coalesce::coalesce_walk;
    use crate::detail::{CompCurr, CompGap, CompKept, ComplementRunTime, StaticWalk};
    use crate::detail::{CuteStar, ExactCount, FlatModes, FlattenInto, LayoutFolds, MCons, MNil};
    use crate::int_tuple::{Dyn, OneRunTimeLeaf, Truth};
    use crate::run_time::{FlatMode, FlatValues, FromLeaves, Leaves, MAX_MODES, PadDyn, PadN1};
    use crate::run_time::{extent_fits, flat_modes, layout_of_modes, marked_modes, padded};
    use cute_dynamic::kernel::{self, Fail};
    use typenum::{U0, U1, Unsigned};

    /// The values of a static mode list, appended to `out[*n..]`.
    #[doc(hidden)]
    pub trait StaticModes {
        /// Appends the modes.
        fn write(out: &mut [FlatMode], n: &mut usize);
    }
    impl StaticModes for MNil {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn write(_: &mut [FlatMode], _: &mut usize) {}
    }
    impl<S: Unsigned, D: Unsigned, T: StaticModes> StaticModes for MCons<S, D, T> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn write(out: &mut [FlatMode], n: &mut usize) {
            if let Some(m) = out.get_mut(*n) {
                *m = FlatMode { s: S::I64, d: D::I64, ss: true, ds: true };
                *n += 1;
            }
            T::write(out, n)
        }
    }

    /// The size of a cotarget (an integer or a shape), as a value.
    #[doc(hidden)]
    pub trait CotargetValue {
        /// The product of the leaves; `None` when it does not fit in an
        /// `i64`.
        fn value(&self) -> Option<i64>;
    }
    impl<U: Unsigned, B: typenum::Bit> CotargetValue for typenum::UInt<U, B> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn value(&self) -> Option<i64> {
            Some(<Self as Unsigned>::I64)
        }
    }
    impl CotargetValue for Dyn {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn value(&self) -> Option<i64> {
            Some(self.get())
        }
    }
    impl CotargetValue for usize {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn value(&self) -> Option<i64> {
            i64::try_from(*self).ok()
        }
    }
    // A shape's size: the product of its modes', for every tuple arity.
    macro_rules! cotarget_tuple {
        ($($i:tt $A:ident $_s:ident $_d:ident),+) => {
            impl<$($A: CotargetValue),+> CotargetValue for ($($A,)+) {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn value(&self) -> Option<i64> {
                    let v = 1i64;
                    $( let v = v.checked_mul(self.$i.value()?)?; )+
                    Some(v)
                }
            }
        };
    }
    for_each_tuple!(cotarget_tuple);

    /// `complement(Self, M)` with a run-time leaf in the layout or the
    /// cotarget, checked when it runs: the run-time path of
    /// [`complement`](crate::complement) and
    /// [`try_complement`](crate::try_complement) (generic code that calls
    /// them bounds by [`Complement`] and [`ComplementValue`]).
    ///
    /// Post-conditions: those of [`complement`](crate::complement); the
    /// result's `to_dynamic()`, coalesced, is cute-dynamic's
    /// `complement(A, M)`.
    #[doc(hidden)]
    pub trait TryComplement<M> {
        /// The complement's type.
        type Output;
        /// The complement, or the error cute-dynamic gives.
        fn try_complement(self, m: M) -> Result<Self::Output, cute_dynamic::LayoutError>;
    }
    impl<S, D, M> TryComplement<M> for Layout<S, D>
    where
        M: crate::detail::ShapeSize + CotargetValue,
        Self: crate::int_tuple::AllStatic,
        Self: TryComplementBy<<M as crate::detail::ShapeSize>::Output, <Self as crate::int_tuple::AllStatic>::Bit>,
    {
        type Output = <Self as TryComplementBy<
            <M as crate::detail::ShapeSize>::Output,
            <Self as crate::int_tuple::AllStatic>::Bit,
        >>::Output;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_complement(self, m: M) -> Result<Self::Output, cute_dynamic::LayoutError> {
            match m.value() {
                Some(m) => self.try_by(m),
                None => Err(cute_dynamic::LayoutError::Overflow { operation: "complement" }),
            }
        }
    }

    /// [`TryComplement`] by the cotarget's size type `M` and branch
    /// `Static` (`B1` for an all-static layout).
    #[doc(hidden)]
    pub trait TryComplementBy<M, Static> {
        /// The complement's type.
        type Output;
        /// The complement for the cotarget size `m`.
        fn try_by(&self, m: i64) -> Result<Self::Output, cute_dynamic::LayoutError>;
    }
    impl<S, D, U: Unsigned, B: typenum::Bit> TryComplementBy<typenum::UInt<U, B>, typenum::B1> for Layout<S, D>
    where
        Self: crate::detail::ComplementLayout<typenum::UInt<U, B>>,
        <Self as crate::detail::ComplementLayout<typenum::UInt<U, B>>>::Output: crate::StaticLayout,
    {
        type Output = <Self as crate::detail::ComplementLayout<typenum::UInt<U, B>>>::Output;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_by(&self, _: i64) -> Result<Self::Output, cute_dynamic::LayoutError> {
            Ok(Default::default())
        }
    }
    impl<S, D, OS: FromLeaves, OD: FromLeaves> TryComplementBy<Dyn, typenum::B1> for Layout<S, D>
    where
        Self: ComplementRunTime<Output = Layout<OS, OD>>,
        S: FlattenInto<D, MNil> + crate::Congruent<D>,
        D: crate::IntTuple,
        Layout<S, D>: StaticWalk,
        CompKept<S, D>: StaticModes,
        CompCurr<S, D>: Unsigned,
        CompGap<S, D>: Unsigned,
    {
        type Output = Layout<OS, OD>;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_by(&self, m: i64) -> Result<Layout<OS, OD>, cute_dynamic::LayoutError> {
            if m < 1 {
                return Err(Fail::CotargetBelowOne { cotarget: m }.into_error(&|| self.to_dynamic().to_string()));
            }
            let (mut modes, n) = ext_modes::<S, D>(m);
            if n == 1 {
                // The last mode alone: `Dyn:Dyn` in the type, `1:0` for
                // size 1 (cute-dynamic's answer; the stride of a mode of
                // size 1 is not read).
                modes[0].ds = false;
                if modes[0].s == 1 {
                    modes[0].d = 0;
                }
            }
            let mut out = Leaves::new();
            coalesce_walk(&modes[..n], false, &mut out);
            let (mut i, mut j) = (0, 0);
            let s = OS::from_leaves(out.all(), &mut i, false);
            let d = OD::from_leaves(out.all(), &mut j, true);
            Ok(Layout::from_checked(s, d))
        }
    }
    impl<S, D, M> TryComplementBy<M, typenum::B0> for Layout<S, D>
    where
        Self: MixedComplement<M>,
    {
        type Output = <Self as MixedComplement<M>>::Output;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_by(&self, m: i64) -> Result<Self::Output, cute_dynamic::LayoutError> {
            MixedComplement::try_by(self, m)
        }
    }

    /// The complement of a layout with a run-time leaf, by the cotarget's
    /// size type `M`:
    ///
    /// - A run-time cotarget where CuTe's complement fold takes the layout
    ///   ([`LayoutFolds`] by `ExactCount`: one mode kept, or static strides
    ///   and static sizes right for any run-time ones): CuTe's form
    ///   ([`CuteStar`]), the kept modes by stride, `d/C : C` each (static
    ///   where CuTe's arithmetic met only static values, dropped where
    ///   statically 1), then the last mode `⌈M/C⌉:C` (run-time, kept even
    ///   of size 1): `complement((4,_8):(_1,_4), 64)` is `(1,2):(4,_32)`,
    ///   as CuTe C++ prints it.
    /// - Otherwise the padded form: a flat layout of `N + 1` run-time
    ///   leaves (`N` the flat modes of the layout), the coalesced answer at
    ///   its end and `1:0` modes in front. (A static cotarget would make
    ///   CuTe's last mode static, a count a run-time gap between the modes
    ///   would not meet; CuTe allows a run-time stride in rank 1 only.)
    ///
    /// Either way the values are cute-dynamic's (its walk, or the fold with
    /// its gaps counted) and a failure is its error.
    #[doc(hidden)]
    pub trait MixedComplement<M> {
        /// The complement's type.
        type Output;
        /// The complement for the cotarget size `m`.
        fn try_by(&self, m: i64) -> Result<Self::Output, cute_dynamic::LayoutError>;
    }
    /// "CuTe's fold": the cotarget is one run-time leaf and the fold takes
    /// the layout.
    type TakesFold<L, M> = <<M as OneRunTimeLeaf>::Bit as Truth>::And<<L as LayoutFolds<ExactCount>>::Bit>;
    impl<S, D, M> MixedComplement<M> for Layout<S, D>
    where
        M: OneRunTimeLeaf<Bit: Truth>,
        Self: LayoutFolds<ExactCount> + MixedComplementBy<TakesFold<Self, M>>,
    {
        type Output = <Self as MixedComplementBy<TakesFold<Self, M>>>::Output;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_by(&self, m: i64) -> Result<Self::Output, cute_dynamic::LayoutError> {
            MixedComplementBy::try_by(self, m)
        }
    }
    /// [`MixedComplement`] by "CuTe's fold" (`B1`) or the padded form.
    #[doc(hidden)]
    pub trait MixedComplementBy<Fold> {
        /// The complement's type.
        type Output;
        /// The complement for the cotarget size `m`.
        fn try_by(&self, m: i64) -> Result<Self::Output, cute_dynamic::LayoutError>;
    }
    impl<S, D, YS, YD> MixedComplementBy<typenum::B1> for Layout<S, D>
    where
        S: FlatValues + crate::Congruent<D>,
        D: FlatValues + crate::IntTuple,
        Self: CuteStar<Star = Layout<YS, YD>>,
        YS: FromLeaves + FlatValues + crate::Congruent<YD>,
        YD: FromLeaves,
    {
        type Output = Layout<YS, YD>;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_by(&self, m: i64) -> Result<Self::Output, cute_dynamic::LayoutError> {
            match cute_star(&self.shape(), &self.stride(), m, true) {
                Some(r) if m >= 1 => Ok(r),
                _ => Err(fold_failure(self.to_dynamic(), m)),
            }
        }
    }
    impl<S, D> MixedComplementBy<typenum::B0> for Layout<S, D>
    where
        Self: PaddedComplement,
    {
        type Output = <Self as PaddedComplement>::Output;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_by(&self, m: i64) -> Result<Self::Output, cute_dynamic::LayoutError> {
            self.padded_complement(m)
        }
    }

    /// The padded form of [`MixedComplement`]: `N + 1` run-time leaves.
    #[doc(hidden)]
    pub trait PaddedComplement {
        /// `PadN1` of the layout.
        type Output;
        /// The complement for the cotarget size `m`.
        fn padded_complement(&self, m: i64) -> Result<Self::Output, cute_dynamic::LayoutError>;
    }
    impl<S, D> PaddedComplement for Layout<S, D>
    where
        S: FlattenInto<D, MNil> + FlatValues + crate::Congruent<D>,
        FlatModes<S, D>: crate::detail::NoStaticOverlap,
        D: FlatValues,
        crate::detail::MCons<U1, U0, FlatModes<S, D>>: PadDyn,
    {
        type Output = PadN1<S, D>;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn padded_complement(&self, m: i64) -> Result<Self::Output, cute_dynamic::LayoutError> {
            let (modes, n) = flat_modes(&self.shape(), &self.stride());
            let mut out = [(1i64, 0i64); MAX_MODES];
            // cute-dynamic's kernel: the walk, coalesced, its extent checked.
            let r = kernel::complement_coalesced(modes[..n].iter().copied(), m, &mut out)
                .ok()
                .and_then(|k| padded::<crate::detail::MCons<U1, U0, FlatModes<S, D>>>(&mut out[..k]));
            match r {
                Some(r) => Ok(r),
                None => mixed_failure::<crate::detail::MCons<U1, U0, FlatModes<S, D>>>(self.to_dynamic(), m),
            }
        }
    }

    /// cute-dynamic's error where CuTe's fold stopped (cold): the values
    /// break the fold exactly where cute-dynamic's complement fails.
    #[cold]
    #[inline(never)]
    fn fold_failure(a: cute_dynamic::Layout, m: i64) -> cute_dynamic::LayoutError {
        match cute_dynamic::complement(&a, m) {
            Err(e) => e,
            Ok(r) => cute_dynamic::LayoutError::Unsupported {
                what: format!("complement of {a} with cotarget {m} is {r}, which CuTe's form of it does not hold"),
            },
        }
    }

    /// CuTe's extended complement of `A = s:d` ([`fold_modes`]'s values)
    /// in its type `Layout<YS, YD>` ([`CuteStar`]): the products' `A*`,
    /// the divides' `B*` and `complement`'s answer. `None` where the values
    /// break the fold, or were they to fill other than the type's leaves.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn cute_star<S: FlatValues, D: FlatValues, YS, YD>(
        s: &S,
        d: &D,
        m: i64,
        exact: bool,
    ) -> Option<Layout<YS, YD>>
    where
        YS: FromLeaves + FlatValues + crate::Congruent<YD>,
        YD: FromLeaves,
    {
        let mut out = [(1i64, 0i64); MAX_MODES];
        let k = fold_modes(s, d, m, exact, &mut out)?;
        layout_of_modes::<YS, YD>(&out[..k])
    }

    /// The values of CuTe's extended complement of `A = s:d` (a layout
    /// with run-time leaves whose kept modes [`CuteFolds`]) for the
    /// cotarget `m`, in the structure of the type
    /// [`FoldModes`](crate::detail::FoldModes), written to `out`; their
    /// number. The modes CuTe's `filter` drops (statically of size 1 or
    /// stride 0) go, the others are sorted by `(stride, size)` as the type
    /// is, and folded: each `x:y` gives `y/C : C`, then `C = x·y`; the
    /// modes of statically known size 1 are left out, as in the type, and
    /// the last mode repeats until the cotarget is reached, counting the
    /// offsets the floor divisions leave out (as cute-dynamic and the
    /// static complement do). A mode of run-time size 1 or stride 0 whose
    /// stride is below `C` (where CuTe's fold breaks, and cute-dynamic
    /// drops the mode) adds no offset: its slot is `1:C` and `C` stays;
    /// so does a mode of run-time size 1 wherever CuTe's fold of it leaves
    /// offsets out. `None` where the values break the fold (a mode that starts
    /// inside the extent of the modes before it, a size below 1, a
    /// negative stride, an overflow): cute-dynamic then names the error.
    /// With `exact` (the type is [`CuteFolds`] by `ExactCount`), the last
    /// mode's count is the complement's too, not only its function on what
    /// the products' composition reads.
    ///
    /// [`CuteFolds`]: crate::detail::CuteFolds
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fold_modes<S: FlatValues, D: FlatValues>(
        s: &S,
        d: &D,
        m: i64,
        exact: bool,
        out: &mut [(i64, i64); MAX_MODES],
    ) -> Option<usize> {
        let (modes, n) = marked_modes(s, d);
        let mut kept = [FlatMode::default(); MAX_MODES];
        let mut k = 0;
        for x in &modes[..n] {
            if !((x.ss && x.s == 1) || (x.ds && x.d == 0)) {
                kept[k] = *x;
                k += 1;
            }
        }
        // The type's insertion sort (`detail/sort.rs`), step for step: each
        // mode from the last is inserted into the sorted rest before the
        // first whose stride is larger, or equal with a size not smaller (a
        // run-time size ties).
        let mut sorted = [FlatMode::default(); MAX_MODES];
        for (len, x) in kept[..k].iter().rev().enumerate() {
            let before = |l: &FlatMode| x.d < l.d || (x.d == l.d && !(x.ss && l.ss && x.s > l.s));
            let at = sorted[..len].iter().position(before).unwrap_or(len);
            sorted.copy_within(at..len, at + 1);
            sorted[at] = *x;
        }
        // CuTe's fold first. Where it folded a mode of run-time size 1 as
        // CuTe folds it, its function is the complement's only if that left
        // no offsets out (a gap) and, where the count matters (`exact`),
        // counted as many elements: the last mode then starts past where
        // the complement's does, and its count of what is left to reach `m`
        // is rounded up from there. Otherwise the fold is made again with
        // such modes adding nothing (as cute-dynamic drops them).
        let (w, unit_folded, gapped) = fold_sorted(&sorted[..k], m, false, out)?;
        if !unit_folded || !(gapped || exact) {
            return Some(w);
        }
        let mut plain = [(1i64, 0i64); MAX_MODES];
        let (pw, _, _) = fold_sorted(&sorted[..k], m, true, &mut plain)?;
        let size = |l: &[(i64, i64)]| l.iter().try_fold(1i64, |a, &(s, _)| a.checked_mul(s));
        if !gapped && size(&out[..w]) == size(&plain[..pw]) {
            return Some(w);
        }
        *out = plain;
        Some(pw)
    }

    /// The fold of [`fold_modes`] over the sorted kept modes: the number
    /// of modes written, whether a mode of run-time size 1 was folded (its
    /// slot's size run-time) as CuTe folds it, and whether the floor
    /// divisions left offsets out. With `transparent`, such a mode adds
    /// nothing (`1:C`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fold_sorted(
        sorted: &[FlatMode],
        m: i64,
        transparent: bool,
        out: &mut [(i64, i64); MAX_MODES],
    ) -> Option<(usize, bool, bool)> {
        let (mut c, mut c_static, mut gap, mut w, mut unit_folded) = (1i64, true, 0i64, 0, false);
        for x in sorted {
            if x.s < 1 || x.d < 0 {
                return None;
            }
            // The slot's size is static where the type's is ([`FoldDiv`]).
            //
            // [`FoldDiv`]: crate::detail::FoldDiv
            let size_static = c_static && x.ds && x.d >= c;
            // A mode of run-time size 1 whose slot's size is run-time:
            // with `transparent`, it adds nothing. (One whose slot's size
            // is static folds as CuTe folds it: the type is chosen only
            // where that is harmless, `detail::FoldSafe`.)
            let unit = x.s == 1 && !x.ss && !size_static;
            let (q, next) = if x.d >= c && !(transparent && unit) {
                gap = gap.checked_add(x.d % c)?;
                unit_folded |= unit;
                (x.d / c, x.s.checked_mul(x.d)?)
            } else if x.s == 1 || x.d == 0 {
                // No offsets (a size 1, or a stride 0, at run time): `C`
                // stays.
                (1, c)
            } else {
                return None;
            };
            if !(size_static && q == 1) {
                *out.get_mut(w)? = (q, c);
                w += 1;
            }
            c = next;
            c_static = x.ss && x.ds;
        }
        *out.get_mut(w)? = (kernel::complement_last(m, c, c - 1 - gap), c);
        w += 1;
        extent_fits(&out[..w]).then_some((w, unit_folded, gap != 0))
    }

    /// The extended complement's modes (the last kept even of size 1) of
    /// the flat modes `a` for the cotarget `m`: cute-dynamic's kernel walk;
    /// `None` for any failure (cute-dynamic then names it).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn mixed_ext_modes(a: &[(i64, i64)], m: i64, out: &mut [(i64, i64); MAX_MODES]) -> Option<usize> {
        kernel::complement_extended(a.iter().copied(), m, out).ok()
    }

    /// cute-dynamic's answer where the run-time walk stopped: its error,
    /// or (were it to succeed) its layout padded (cold).
    #[cold]
    #[inline(never)]
    fn mixed_failure<P: PadDyn>(a: cute_dynamic::Layout, m: i64) -> Result<P::Output, cute_dynamic::LayoutError> {
        let r = cute_dynamic::complement(&a, m)?;
        let mut v: std::vec::Vec<(i64, i64)> = r.shape().leaves().zip(r.stride().leaves()).collect();
        padded::<P>(&mut v).ok_or_else(|| cute_dynamic::LayoutError::Unsupported {
            what: format!("complement of {a} with cotarget {m} is {r}, more modes than its padded form"),
        })
    }

    /// The modes of `complement(Layout<S, D>, m)` (`m ≥ 1`) before
    /// coalescing, the last kept even of size 1 (cute-dynamic's
    /// `complement_extended`), with their static flags.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn ext_modes<S, D>(m: i64) -> ([FlatMode; MAX_MODES], usize)
    where
        Layout<S, D>: StaticWalk,
        CompKept<S, D>: StaticModes,
        CompCurr<S, D>: Unsigned,
        CompGap<S, D>: Unsigned,
    {
        let mut modes = [FlatMode::default(); MAX_MODES];
        let mut n = 0;
        <CompKept<S, D> as StaticModes>::write(&mut modes, &mut n);
        // What `A` and the modes before the last cover: `C − 1 − gaps`
        // (the extents telescope); the last repeats until `M − 1`.
        let c = <CompCurr<S, D> as Unsigned>::I64;
        let covered = c - 1 - <CompGap<S, D> as Unsigned>::I64;
        let last = kernel::complement_last(m, c, covered);
        if let Some(slot) = modes.get_mut(n) {
            *slot = FlatMode { s: last, d: c, ss: false, ds: true };
            n += 1;
        }
        (modes, n)
    }

    /// The run-time branch of [`ComplementValue`](crate::complement::ComplementValue).
    impl<O, A: TryComplement<M, Output = O>, M> crate::detail::ComplementValueBy<A, M, typenum::B0> for O {
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[track_caller]
        fn make(a: A, m: M) -> O {
            match a.try_complement(m) {
                Ok(r) => r,
                Err(e) => crate::composition::fail(e),
            }
        }
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_make(a: A, m: M) -> Result<O, cute_dynamic::LayoutError> {
            a.try_complement(m)
        }
    }

    /// `complement(a, cotarget)` (see [`complement`](crate::complement)),
    /// returning the failed run-time condition as an error instead of
    /// panicking.
    ///
    /// Takes the same arguments as `complement` (by value) and returns the
    /// same type. The cotarget is a `usize` (run-time, as `make_layout`
    /// makes a run-time leaf of a `usize`; an integer literal is one), a
    /// [`Dyn`] (run-time, and may be below 1), or a static shape
    /// (`shape!(24)`, [`Int<N>`](crate::Int)).
    ///
    /// Post-conditions, on `Ok(r)`: those of `complement` (`r` is ordered,
    /// meets `a`'s image only at 0, `(a, r)` reaches the cotarget); for an
    /// all-static `a`, `r.to_dynamic()` prints as cute-dynamic's
    /// `complement` of the same values whenever the structure of `r`'s type
    /// allows it (a run-time last mode of size 1 after static modes stays,
    /// CuTe's form); with a run-time leaf in `a`, `r` is the padded form and
    /// `coalesce(r.to_dynamic())` is cute-dynamic's answer. `Err(e)`: `e` is
    /// the error cute-dynamic's `complement` gives for the same values (a
    /// cotarget below 1, a layout that is not injective or whose modes
    /// interleave, a negative stride, overflow). All-static arguments:
    /// always `Ok`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let r = try_complement(layout!(4:2), 24usize).unwrap();
    /// assert_eq!(r.to_string(), "(_2,3):(_1,_8)");
    /// assert!(try_complement(layout!(4:2), 0usize).is_err());
    /// // A cotarget the layout already covers: cute-dynamic's `1:0`.
    /// assert_eq!(try_complement(layout!((4,8):(1,4)), 16).unwrap().to_string(), "1:0");
    /// // A static cotarget: the static complement.
    /// assert_eq!(try_complement(layout!(4:2), shape!(24)).unwrap(), complement(layout!(4:2), shape!(24)));
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn try_complement<A, M>(
        a: A,
        cotarget: M,
    ) -> Result<<A as crate::Complement<M>>::Output, cute_dynamic::LayoutError>
    where
        A: crate::Complement<M>,
        <A as crate::Complement<M>>::Output: crate::ComplementValue<A, M>,
    {
        <<A as crate::Complement<M>>::Output as crate::ComplementValue<A, M>>::try_make(a, cotarget)
    }
}

// ------------------------------------------------ the operation

use crate::detail::{ComplementOnto, ComplementValueBy, ShapeSize};

/// `complement(Self, M)` for a cotarget `M`: a static shape (a typenum
/// integer or a tuple, whose size is used), or a run-time one, a `usize` or
/// a [`Dyn`](crate::Dyn). `Output` is the type of [`complement`]'s result,
/// known from the argument types alone; [`ComplementValue`] computes it.
///
/// ```
/// use cute_static::prelude::*;
/// type Tile = Layout![(2,2):(1,4)]; // the offsets 0, 1, 4, 5
/// // The repetitions of the tile that fill 0..16, as a type:
/// let r: <Tile as Complement<Shape![16]>>::Output = complement(Tile::default(), shape!(16));
/// assert_eq!(r.to_string(), "(_2,_2):(_2,_8)");
/// assert_eq!(core::mem::size_of_val(&r), 0); // all-static: nothing left to store
/// ```
pub trait Complement<M> {
    /// The complement.
    type Output;
}
impl<AS, AD, M: ShapeSize> Complement<M> for Layout<AS, AD>
where
    <M as ShapeSize>::Output: ComplementOnto<Self>,
{
    type Output = <<M as ShapeSize>::Output as ComplementOnto<Self>>::Output;
}
/// `complement(a, m)` (see [`Complement`]): for a static cotarget shape
/// `m`, computed in trait resolution (a layout that is not injective does
/// not compile); for a run-time cotarget (a `usize`, a `Dyn`, a braced
/// `shape!({m})`), the static modes are still found at
/// compile time and the last one's size `⌈(M + gaps)/C⌉` when it runs (see
/// [`try_complement`](crate::try_complement)); when that last mode is the
/// whole answer its stride is run-time too, so that a size of 1 prints
/// `1:0` as cute-dynamic's complement. With a run-time leaf in `a` and a
/// run-time cotarget, where CuTe's complement fold takes `a` (one mode
/// kept, or static strides), the result is CuTe's form, the fold's modes
/// then `⌈M/C⌉:C`; otherwise the sort by stride and the number of modes of
/// the answer depend on run-time values: the result is the padded form, a
/// flat layout of `N + 1` run-time leaves (`N` the flat modes of `a`, at
/// most 15), the coalesced answer at its end and `1:0` modes in front.
/// Both are computed and checked when the call runs.
///
/// Post-conditions (paper eqs. 28–29): `R` is ordered (`R(i−1) < R(i)`),
/// meets `A`'s image only at 0, `(A, R)` reaches the cotarget, and
/// `(filter(A), R)` is injective.
///
/// # Panics
///
/// With run-time leaves only, when cute-dynamic's `complement` fails for
/// the same values (a cotarget below 1, a layout that is not injective or
/// whose modes interleave, a negative stride, overflow), with the message
/// of the error `try_complement` returns. An all-static call never panics.
///
/// ```
/// use cute_static::prelude::*;
/// assert_eq!(complement(layout!(4:2), shape!(24)).to_string(), "(_2,_3):(_1,_8)");
/// assert_eq!(complement(layout!((4,8):(1,8)), shape!(256)).to_string(), "(_2,_4):(_4,_64)");
/// let m = 1000usize;
/// assert_eq!(complement(layout!((4,8):(1,8)), shape!({m})).to_string(), "(_2,16):(_4,_64)");
/// assert_eq!(complement(layout!((4,8):(1,8)), m).to_string(), "(_2,16):(_4,_64)");
/// assert_eq!(complement(layout!((4,8):(1,4)), 16usize).to_string(), "1:0");
/// // A run-time leaf in the layout and a run-time cotarget: CuTe's form.
/// assert_eq!(complement(layout!(({4usize},8):(1,4)), 64usize).to_string(), "(1,2):(4,_32)");
/// // A static cotarget: the padded form of N + 1 run-time leaves.
/// assert_eq!(complement(layout!((4,{m}):(1,8)), shape!(64000)).to_string(), "(1,2,8):(0,4,8000)");
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn complement<A, M>(a: A, m: M) -> <A as Complement<M>>::Output
where
    A: Complement<M>,
    <A as Complement<M>>::Output: ComplementValue<A, M>,
{
    <<A as Complement<M>>::Output as ComplementValue<A, M>>::make(a, m)
}

/// The value of `complement(a, m)`: zero-sized when both are all-static,
/// its last mode computed (and checked) when the cotarget is run-time.
/// Generic code that calls [`complement`] bounds the result by it.
///
/// ```
/// use cute_static::prelude::*;
/// fn rest<A: Complement<M>, M>(a: A, m: M) -> A::Output
/// where
///     A::Output: ComplementValue<A, M>,
/// {
///     complement(a, m)
/// }
/// assert_eq!(rest(layout!((2,2):(1,4)), shape!(64)).to_string(), "(_2,_8):(_2,_8)");
/// // A run-time cotarget: the last mode's size, ⌈64/8⌉, is computed when the call runs.
/// assert_eq!(rest(layout!((2,2):(1,4)), 64usize).to_string(), "(_2,8):(_2,_8)");
/// ```
pub trait ComplementValue<A, M>: Sized {
    /// `complement(a, m)`: what [`complement`] returns.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn rest<A: Complement<M>, M>(a: A, m: M) -> A::Output
    /// where
    ///     A::Output: ComplementValue<A, M>,
    /// {
    ///     <A::Output as ComplementValue<A, M>>::make(a, m)
    /// }
    /// // 4:2 covers the even offsets below 8; (2,3):(1,8) fills the gaps and repeats it up to 24.
    /// assert_eq!(rest(layout!(4:2), shape!(24)).to_string(), "(_2,_3):(_1,_8)");
    /// assert_eq!(rest(layout!(4:2), 24usize).to_string(), "(_2,3):(_1,_8)");
    /// ```
    fn make(a: A, m: M) -> Self;
    /// `complement(a, m)`, or the error cute-dynamic's `complement` gives:
    /// what [`try_complement`](crate::try_complement) returns (its
    /// post-conditions), `Ok` for all-static arguments.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn rest<A: Complement<M>, M>(a: A, m: M) -> Result<A::Output, cute_dynamic::LayoutError>
    /// where
    ///     A::Output: ComplementValue<A, M>,
    /// {
    ///     try_complement(a, m) // = <A::Output as ComplementValue<A, M>>::try_make(a, m)
    /// }
    /// assert_eq!(rest(layout!(4:2), 24usize).unwrap().to_string(), "(_2,3):(_1,_8)");
    /// assert!(rest(layout!(4:2), 0usize).is_err());
    /// ```
    #[cfg(feature = "std")]
    fn try_make(a: A, m: M) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O, A, M> ComplementValue<A, M> for O
where
    A: crate::int_tuple::AllStatic,
    M: crate::int_tuple::AllStatic,
    O: ComplementValueBy<A, M, crate::int_tuple::BothStatic<A, M>>,
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn make(a: A, m: M) -> O {
        <O as ComplementValueBy<A, M, crate::int_tuple::BothStatic<A, M>>>::make(a, m)
    }
    #[cfg(feature = "std")]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(a: A, m: M) -> Result<O, cute_dynamic::LayoutError> {
        <O as ComplementValueBy<A, M, crate::int_tuple::BothStatic<A, M>>>::try_make(a, m)
    }
}
