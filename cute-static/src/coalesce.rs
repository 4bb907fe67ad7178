//! `coalesce`, `coalesce_by`, `filter` and `flatten` (paper 3.2), for
//! static layouts and layouts with run-time ([`Dyn`](crate::Dyn)) leaves.
//!
//! The fold runs in trait resolution on the flat mode list (`MCons`), once
//! for both kinds of leaves: a size-1 mode is dropped and two neighbouring
//! modes `s0:d0, s1:d1` merge into `s0·s1:d0` when `s0·d0 = d1`, each
//! only when the fact is known at compile time (the leaves involved are
//! static, or `d0` is a static 0). Where it depends on a run-time value the
//! modes stay apart, as CuTe's `bw_coalesce` does with `int` leaves: the
//! same function, in CuTe's padded form, so the result's structure is a
//! type. All-static layouts coalesce exactly as cute-dynamic's `coalesce`,
//! to a zero-sized value; with run-time leaves the values are copied from
//! the argument by a run-time walk that makes the same decisions
//! ([`LeafValue`]). Nothing here can fail at run time.

use crate::detail::{CoalesceFold, Coalesced, FilterModes, Plain, ZeroStride};
use crate::detail::{
    FlatModes, FlattenInto, HCons, HNil, LayoutOfModes, MCons, MNil, MakeLayout, ModesOf, ModesToLayout,
};
use crate::layout::Layout;
#[cfg(feature = "std")]
use typenum::B0;
use typenum::{B1, Bit, U0, U1, UInt, Unsigned};

// --------------------------------------------------------- the operations

/// `coalesce(Self)`: the same function on its domain with the fewest flat
/// modes (paper 3.2); size-1 modes dropped, `1:0` if none is left. With
/// run-time leaves, modes whose merging depends on a run-time value stay
/// apart (CuTe's form). Generic code bounds the value by
/// [`CoalesceValue`](crate::CoalesceValue):
///
/// ```
/// use cute_static::prelude::*;
/// fn fewest_modes<A: Coalesce>(a: A) -> A::Output
/// where
///     A::Output: CoalesceValue<A>,
/// {
///     coalesce(a)
/// }
/// // 2:1 and 2:2 merge into 4:1; 4:1 and 3:8 do not (4·1 ≠ 8).
/// assert_eq!(fewest_modes(layout!(((2,2),3):((1,2),8))).to_string(), "(_4,_3):(_1,_8)");
/// assert_eq!(fewest_modes(layout!((1,1):(4,2))).to_string(), "_1:_0");
/// ```
pub trait Coalesce {
    /// The coalesced layout.
    type Output;
}
impl<S, D> Coalesce for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: CoalesceFold<U1, U0, Plain>,
    Coalesced<FlatModes<S, D>>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<FlatModes<S, D>>>;
}

/// `filter(Self)`: `coalesce` after dropping stride-0 modes (the same
/// image, no repeated offsets from broadcast modes). A run-time stride
/// that turns out 0 keeps its mode (CuTe's form). Generic code bounds the
/// value by [`FilterValue`](crate::FilterValue):
///
/// ```
/// use cute_static::prelude::*;
/// fn image<A: Filter>(a: A) -> A::Output
/// where
///     A::Output: FilterValue<A>,
/// {
///     filter(a)
/// }
/// // Without the broadcast mode 4:0, 2:1 and 3:2 merge (`coalesce` keeps all three).
/// assert_eq!(image(layout!((2,4,3):(1,0,2))).to_string(), "_6:_1");
/// assert_eq!(coalesce(layout!((2,4,3):(1,0,2))).to_string(), "(_2,_4,_3):(_1,_0,_2)");
/// ```
pub trait Filter {
    /// The filtered layout.
    type Output;
}
impl<S, D> Filter for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: FilterModes<ZeroStride>,
    <FlatModes<S, D> as FilterModes<ZeroStride>>::Output: CoalesceFold<U1, U0, Plain>,
    Coalesced<<FlatModes<S, D> as FilterModes<ZeroStride>>::Output>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<<FlatModes<S, D> as FilterModes<ZeroStride>>::Output>>;
}

/// `flatten(Self)`: the layout with the leaves of its shape and stride in
/// one flat tuple (a scalar layout is itself); the same function. Generic
/// code bounds the value by [`FlattenValue`](crate::FlattenValue):
///
/// ```
/// use cute_static::prelude::*;
/// fn leaves<A: Flatten>(a: A) -> A::Output
/// where
///     A::Output: FlattenValue<A>,
/// {
///     flatten(a)
/// }
/// // Size-1 leaves stay: flatten only removes the nesting.
/// assert_eq!(leaves(layout!((4,(1,3)):(6,(2,2)))).to_string(), "(_4,_1,_3):(_6,_2,_2)");
/// assert_eq!(leaves(layout!(8:2)).to_string(), "_8:_2");
/// ```
pub trait Flatten {
    /// The flat layout.
    type Output;
}
impl<S, D> Flatten for Layout<S, D>
where
    S: FlattenInto<D, MNil> + crate::IntTuple,
    FlatModes<S, D>: FlatTuple<S>,
{
    type Output = Layout<<FlatModes<S, D> as FlatTuple<S>>::Shape, <FlatModes<S, D> as FlatTuple<S>>::Stride>;
}
/// A flat mode list as the shape and stride of `flatten` of a layout of
/// shape `S`: a flat tuple, or the leaf itself when `S` is a leaf.
pub trait FlatTuple<S> {
    /// The flat shape.
    type Shape;
    /// The flat stride.
    type Stride;
}
impl<S0, D0, U: Unsigned, B: Bit> FlatTuple<UInt<U, B>> for MCons<S0, D0, MNil> {
    type Shape = S0;
    type Stride = D0;
}
impl<S0, D0> FlatTuple<crate::Dyn> for MCons<S0, D0, MNil> {
    type Shape = S0;
    type Stride = D0;
}
macro_rules! flat_tuple_of {
    (@list $S:ident $D:ident $($rest:ident)*) => { MCons<$S, $D, flat_tuple_of!(@list $($rest)*)> };
    (@list) => { MNil };
    ([$($T:ident)+] $($j:tt $U:ident $S:ident $D:ident),+) => {
        impl<$($T,)+ $($S, $D),+> FlatTuple<($($T,)+)> for flat_tuple_of!(@list $($S $D)+) {
            type Shape = ($($S,)+);
            type Stride = ($($D,)+);
        }
    };
}
// Every tuple shape with every number of leaves.
macro_rules! flat_tuple_all {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        for_each_tuple!(flat_tuple_of[[$($T)+]]);
    };
}
for_each_tuple!(flat_tuple_all);

// --------------------------------------------------------------- coalesce_by

/// A tuple as an `HCons` list of its elements (profiles).
pub trait ToHList {
    /// The list.
    type Output;
}
macro_rules! to_hlist {
    (@list $T:ident $($rest:ident)*) => { HCons<$T, to_hlist!(@list $($rest)*)> };
    (@list) => { HNil };
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($T),+> ToHList for ($($T,)+) {
            type Output = to_hlist!(@list $($T)+);
        }
    };
}
for_each_tuple!(to_hlist);

/// By-mode coalesce of the layout `A` by the profile `Self` (paper eq. 12):
/// an integer coalesces the whole (sub)layout, a tuple recurses into the
/// modes it covers and leaves the others unchanged.
pub trait CoalesceProfile<A> {
    /// The result layout.
    type Output;
}
impl<A: Coalesce, U: Unsigned, B: Bit> CoalesceProfile<A> for UInt<U, B> {
    type Output = <A as Coalesce>::Output;
}
/// A tuple profile in list form.
pub struct PList<L>(core::marker::PhantomData<L>);
macro_rules! coalesce_profile_tuple {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<A, $($T),+> CoalesceProfile<A> for ($($T,)+)
        where
            PList<<($($T,)+) as ToHList>::Output>: CoalesceProfile<A>,
        {
            type Output = <PList<<($($T,)+) as ToHList>::Output> as CoalesceProfile<A>>::Output;
        }
    };
}
for_each_tuple!(coalesce_profile_tuple);
impl<A, L> CoalesceProfile<A> for PList<L>
where
    A: ModesOf,
    L: crate::detail::ByMode<CoalesceEach, <A as ModesOf>::Output>,
    <L as crate::detail::ByMode<CoalesceEach, <A as ModesOf>::Output>>::Output: MakeLayout,
{
    type Output = <<L as crate::detail::ByMode<CoalesceEach, <A as ModesOf>::Output>>::Output as MakeLayout>::Output;
}
// The marker `CoalesceEach` is in `detail/tiler.rs`, whose rank check names it.
use crate::detail::CoalesceEach;
impl crate::detail::ModeOp for CoalesceEach {
    type Past<AL> = AL;
}
impl<P: CoalesceProfile<A>, A> crate::detail::TileOp<CoalesceEach, A> for P {
    type Output = <P as CoalesceProfile<A>>::Output;
}

/// `coalesce_by(Self, P)`: coalesce by the profile `P` (an integer
/// coalesces the whole (sub)layout, a tuple recurses into the modes it
/// covers and leaves the others unchanged); the result is the same
/// function, with each profiled mode coalesced. Generic code bounds the
/// value by [`CoalesceByValue`](crate::CoalesceByValue):
///
/// ```
/// use cute_static::prelude::*;
/// fn by_mode<A: CoalesceBy<P>, P>(a: A, profile: P) -> A::Output
/// where
///     A::Output: CoalesceByValue<A, P>,
/// {
///     coalesce_by(a, profile)
/// }
/// let a = layout!(((2,4),(3,2),(2,2)):((1,2),(8,24),(48,96)));
/// // Modes 0 and 1 coalesce apart (the rank stays 3); mode 2 is past the profile, kept.
/// assert_eq!(by_mode(a, shape!(1, 1)).to_string(), "(_8,_6,(_2,_2)):(_1,_8,(_48,_96))");
/// assert_eq!(by_mode(a, shape!(1)).to_string(), "_192:_1");
/// ```
pub trait CoalesceBy<P> {
    /// The result layout.
    type Output;
}
impl<AS, AD, P: CoalesceProfile<Self>> CoalesceBy<P> for Layout<AS, AD> {
    type Output = <P as CoalesceProfile<Self>>::Output;
}

// ------------------------------------------------------------- the values

/// Which walk over the leaves gives an operation's values (markers).
#[doc(hidden)]
pub mod op {
    /// `coalesce`.
    pub struct Coalesce;
    /// `filter`.
    pub struct Filter;
    /// `flatten`.
    pub struct Flatten;
    /// `coalesce_by` with the profile `P`.
    pub struct By<P>(core::marker::PhantomData<P>);
}

/// The value of the operation `Op` on `A`: zero-sized when `A` is
/// all-static, its leaves copied from `A` otherwise (never fails). Generic
/// code that calls [`coalesce`], [`filter`], [`flatten`] or
/// [`coalesce_by`] bounds the result by its public name
/// ([`CoalesceValue`](crate::CoalesceValue), ...).
#[doc(hidden)]
pub trait LeafValue<Op, A> {
    /// The result.
    fn make(a: &A) -> Self;
}
impl<O, Op, A: crate::int_tuple::AllStatic> LeafValue<Op, A> for O
where
    O: LeafValueBy<Op, A, <A as crate::int_tuple::AllStatic>::Bit>,
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn make(a: &A) -> O {
        <O as LeafValueBy<Op, A, <A as crate::int_tuple::AllStatic>::Bit>>::make(a)
    }
}
/// [`LeafValue`] by branch: `Static` is `B1` for an all-static `A`.
#[doc(hidden)]
pub trait LeafValueBy<Op, A, Static> {
    /// The result.
    fn make(a: &A) -> Self;
}
impl<O: crate::layout::StaticValue, Op, A> LeafValueBy<Op, A, B1> for O {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn make(_: &A) -> O {
        O::value()
    }
}

#[cfg(feature = "std")]
pub(crate) use run_time::coalesce_walk;

#[cfg(feature = "std")]
mod run_time {
    use super::{B0, Bit, HCons, HNil, LeafValueBy, PList, ToHList, UInt, Unsigned, op};
    use crate::int_tuple::{Dyn, IntTuple};
    use crate::layout::Layout;
    use crate::run_time::{FlatMode, FlatValues, FromLeaves, Leaves, MAX_MODES, marked_modes};
    use cute_dynamic::kernel::{May, coalesce_push};

    /// Coalesce's walk, making the decisions of the fold in `coalesce.rs`
    /// (the kernel's rule, where a size-1 mode is dropped and two modes
    /// merge only when that is known at compile time), the kept modes
    /// written to `out`; with `zeros`, the modes of stride known to be 0
    /// are dropped first.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn coalesce_walk(modes: &[FlatMode], zeros: bool, out: &mut Leaves) {
        let mut kept = [(1i64, 0i64); MAX_MODES];
        // Whether the last kept mode's extent `s·d` is known: both leaves
        // static, or `d` a static 0 (a merge into it keeps that).
        let (mut n, mut known) = (0, false);
        for &m in modes {
            if zeros && m.ds && m.d == 0 {
                continue;
            }
            let may = May { drop_unit: m.ss, merge: m.ss && m.ds && known };
            let k = coalesce_push(&mut kept, n, (m.s, m.d), may);
            if k > n {
                known = m.ds && (m.ss || m.d == 0);
            }
            n = k;
        }
        for &(s, d) in &kept[..n.max(1)] {
            out.push_pair(s, d);
        }
    }

    /// The run-time walk that writes the leaves of `Op` applied to `Self`.
    #[doc(hidden)]
    pub trait LeafWalk<Op> {
        /// Writes the result's leaves, in order, to `out`.
        fn walk(&self, out: &mut Leaves);
    }
    impl<S: FlatValues + crate::Congruent<D>, D: FlatValues> LeafWalk<op::Coalesce> for Layout<S, D> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn walk(&self, out: &mut Leaves) {
            let (m, n) = marked_modes(&self.shape(), &self.stride());
            coalesce_walk(&m[..n], false, out)
        }
    }
    impl<S: FlatValues + crate::Congruent<D>, D: FlatValues> LeafWalk<op::Filter> for Layout<S, D> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn walk(&self, out: &mut Leaves) {
            let (m, n) = marked_modes(&self.shape(), &self.stride());
            coalesce_walk(&m[..n], true, out)
        }
    }
    impl<S: FlatValues + crate::Congruent<D>, D: FlatValues> LeafWalk<op::Flatten> for Layout<S, D> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn walk(&self, out: &mut Leaves) {
            let (m, n) = marked_modes(&self.shape(), &self.stride());
            for x in &m[..n] {
                out.push_pair(x.s, x.d);
            }
        }
    }
    impl<S, D, P> LeafWalk<op::By<P>> for Layout<S, D>
    where
        (S, D): ProfileLeaves<P>,
        S: crate::Congruent<D>,
        D: IntTuple,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn walk(&self, out: &mut Leaves) {
            (self.shape(), self.stride()).profile_leaves(out)
        }
    }

    /// The mixed branch of [`LeafValue`](super::LeafValue): the leaves
    /// walked, the result filled from them.
    impl<Op, S: FromLeaves, D: FromLeaves, A: LeafWalk<Op>> LeafValueBy<Op, A, B0> for Layout<S, D> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn make(a: &A) -> Self {
            let mut out = Leaves::new();
            a.walk(&mut out);
            let (mut i, mut j) = (0, 0);
            let s = S::from_leaves(out.all(), &mut i, false);
            let d = D::from_leaves(out.all(), &mut j, true);
            Layout::from_checked(s, d)
        }
    }

    /// `coalesce_by`'s walk over a (shape, stride) pair `Self` by the
    /// profile `P`: an integer coalesces the whole pair, a tuple goes mode
    /// by mode and copies the modes past it.
    #[doc(hidden)]
    pub trait ProfileLeaves<P> {
        /// Writes the result's leaves.
        fn profile_leaves(&self, out: &mut Leaves);
    }
    impl<S: FlatValues, D: FlatValues, U: Unsigned, B: Bit> ProfileLeaves<UInt<U, B>> for (S, D) {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn profile_leaves(&self, out: &mut Leaves) {
            let (m, n) = marked_modes(&self.0, &self.1);
            coalesce_walk(&m[..n], false, out)
        }
    }
    impl<S: Uncons, D: Uncons, P0, PR> ProfileLeaves<PList<HCons<P0, PR>>> for (S, D)
    where
        (S::Head, D::Head): ProfileLeaves<P0>,
        (S::Tail, D::Tail): ProfileLeaves<PList<PR>>,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn profile_leaves(&self, out: &mut Leaves) {
            let ((sh, st), (dh, dt)) = (self.0.uncons(), self.1.uncons());
            (sh, dh).profile_leaves(out);
            (st, dt).profile_leaves(out);
        }
    }
    impl<S: RestLeaves<D>, D> ProfileLeaves<PList<HNil>> for (S, D) {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn profile_leaves(&self, out: &mut Leaves) {
            self.0.rest_leaves(&self.1, out)
        }
    }
    macro_rules! tuple_profile_leaves {
        ($($i:tt $T:ident $SS:ident $DD:ident),+) => {
            impl<S, D, $($T),+> ProfileLeaves<($($T,)+)> for (S, D)
            where
                ($($T,)+): ToHList,
                (S, D): ProfileLeaves<PList<<($($T,)+) as ToHList>::Output>>,
            {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn profile_leaves(&self, out: &mut Leaves) {
                    <(S, D) as ProfileLeaves<PList<<($($T,)+) as ToHList>::Output>>>::profile_leaves(self, out)
                }
            }
        };
    }
    for_each_tuple!(tuple_profile_leaves);

    /// The modes past a profile, copied: `()` (none) or a tuple of modes.
    #[doc(hidden)]
    pub trait RestLeaves<D> {
        /// Writes the leaves.
        fn rest_leaves(&self, d: &D, out: &mut Leaves);
    }
    impl RestLeaves<()> for () {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn rest_leaves(&self, _: &(), _: &mut Leaves) {}
    }

    /// A tree's first mode and the tuple of the others (`()` when none); a
    /// leaf is its own only mode.
    #[doc(hidden)]
    pub trait Uncons {
        /// Mode 0.
        type Head;
        /// The other modes.
        type Tail;
        /// Splits the tree.
        fn uncons(&self) -> (Self::Head, Self::Tail);
    }
    impl<U: Unsigned, B: Bit> Uncons for UInt<U, B>
    where
        UInt<U, B>: Copy,
    {
        type Head = Self;
        type Tail = ();
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn uncons(&self) -> (Self, ()) {
            (*self, ())
        }
    }
    impl Uncons for typenum::UTerm {
        type Head = Self;
        type Tail = ();
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn uncons(&self) -> (Self, ()) {
            (*self, ())
        }
    }
    impl Uncons for Dyn {
        type Head = Self;
        type Tail = ();
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn uncons(&self) -> (Self, ()) {
            (*self, ())
        }
    }
    macro_rules! tuple_uncons {
        ($i0:tt $H:ident $S0:ident $D0:ident $(, $i:tt $T:ident $S:ident $D:ident)*) => {
            impl<$H: Copy $(, $T: Copy)*> Uncons for ($H, $($T,)*) {
                type Head = $H;
                type Tail = ($($T,)*);
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn uncons(&self) -> ($H, ($($T,)*)) {
                    (self.0, ($(self.$i,)*))
                }
            }
            impl<$H: FlatValues $(, $T: FlatValues)*, DD: FlatValues> RestLeaves<DD> for ($H, $($T,)*)
            where
                ($H, $($T,)*): FlatValues,
            {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn rest_leaves(&self, d: &DD, out: &mut Leaves) {
                    let (m, n) = marked_modes(self, d);
                    for x in &m[..n] {
                        out.push_pair(x.s, x.d);
                    }
                }
            }
        };
    }
    for_each_tuple!(tuple_uncons);
}

// ------------------------------------------------------------ public API

macro_rules! leaf_op_fn {
    ($(#[$doc:meta])* $name:ident, $Trait:ident, $Value:ident) => {
        $(#[$doc])*
        #[cfg_attr(not(debug_assertions), inline(always))]
        pub fn $name<A: $Trait>(a: A) -> A::Output
        where
            A::Output: crate::$Value<A>,
        {
            <A::Output as crate::$Value<A>>::make(a)
        }
    };
}

leaf_op_fn!(
    /// `coalesce(a)` (see [`Coalesce`]): the same function with the fewest
    /// flat modes. All-static: computed in trait resolution, zero-sized.
    /// With run-time leaves: CuTe's form, where a mode whose merging (or
    /// size 1) depends on a run-time value is kept; the same function,
    /// never fails.
    ///
    /// Post-conditions: `size(R) = size(A)`, `depth(R) ≤ 1`, `R(i) = A(i)`
    /// for every `i < size(A)`; for an all-static `A`, `R` has no size-1
    /// mode (but `1:0` alone) and no two modes that merge.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(coalesce(layout!((2,(1,6)):(1,(6,2)))).to_string(), "_12:_1");
    /// let m = 1000usize;
    /// assert_eq!(coalesce(layout!((2,(1,{m}),4):(1,(6,2),{m}))).to_string(), "(_2,1000,_4):(_1,_2,1000)");
    /// ```
    coalesce, Coalesce, CoalesceValue
);
leaf_op_fn!(
    /// `filter(a)` (see [`Filter`]): stride-0 and size-1 modes dropped,
    /// then coalesced. With run-time leaves, a run-time stride or shape
    /// keeps its mode (CuTe's form).
    ///
    /// Post-conditions: the image of `R` is the image of `A`; `depth(R) ≤
    /// 1`; for an all-static `A`, no mode of `R` has stride 0 or size 1
    /// (but `1:0` alone).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(filter(layout!((2,(3,4)):(0,(1,3)))).to_string(), "_12:_1");
    /// let m = 7usize;
    /// assert_eq!(filter(layout!(({m},(3,4)):(0,(1,3)))).to_string(), "_12:_1");
    /// ```
    filter, Filter, FilterValue
);
leaf_op_fn!(
    /// `flatten(a)` (see [`Flatten`]): the leaves of the shape and stride in
    /// one flat tuple (a scalar layout is itself).
    ///
    /// Post-conditions: `depth(R) ≤ 1`, the leaves of `R` are those of `A`
    /// in order, and `R(i) = A(i)` for every `i`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(flatten(layout!((2,(3,4)):(1,(2,6)))).to_string(), "(_2,_3,_4):(_1,_2,_6)");
    /// let m = 9usize;
    /// assert_eq!(flatten(layout!(((2,{m}),4):((1,2),{m}))).to_string(), "(_2,9,_4):(_1,_2,9)");
    /// ```
    flatten, Flatten, FlattenValue
);

/// `coalesce_by(a, profile)`: coalesce mode by mode as far as the profile
/// reaches (see [`CoalesceBy`]); with run-time leaves, each coalesced mode
/// as [`coalesce`].
///
/// Post-conditions: the result has the profile's structure at the top
/// levels, each coalesced mode meets [`coalesce`]'s, so `R(i) = A(i)`.
///
/// ```
/// use cute_static::prelude::*;
/// let a = layout!((2,(1,6)):(1,(6,2)));
/// assert_eq!(coalesce_by(a, shape!(1, 1)).to_string(), "(_2,_6):(_1,_2)");
/// assert_eq!(coalesce_by(a, shape!(1)).to_string(), "_12:_1");
/// let m = 5usize;
/// let b = layout!(((2,4),({m},3)):((1,2),(8,{m})));
/// assert_eq!(coalesce_by(b, shape!(1, 1)).to_string(), "(_8,(5,_3)):(_1,(_8,5))");
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn coalesce_by<A: CoalesceBy<P>, P>(a: A, profile: P) -> A::Output
where
    A::Output: crate::CoalesceByValue<A, P>,
{
    <A::Output as crate::CoalesceByValue<A, P>>::make(a, profile)
}
