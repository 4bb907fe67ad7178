//! `right_inverse` and `left_inverse` in trait resolution (paper 3.4).
//!
//! Both work on the coalesced modes of the layout, each tagged with its
//! prefix `p` (the product of the extents before it, i.e. the integral
//! coordinate where the mode starts), without stride-0 modes, sorted by
//! `(stride, prefix)`.

use crate::detail::{CoalesceFold, Coalesced, LeftNests, LeftStart, Plain, Rank, Ranked, RightFold};
use crate::detail::{FlatModes, FlattenInto, LayoutOfModes, MCons, MNil, ModesToLayout};
use crate::detail::{StaticStrides, ZeroStrideSize};
use crate::layout::Layout;
use typenum::{B0, B1, U0, U1};

/// `right_inverse(Self)` (paper 3.4.1): the largest `R` with
/// `L(R(k)) = k` for `k < size(R)`.
pub trait StaticRightInverse {
    /// The right inverse.
    type Output;
}
impl<S, D> StaticRightInverse for Layout<S, D>
where
    Self: RankedOf,
    RankedModes<S, D>: RightFold<U1>,
    <RankedModes<S, D> as RightFold<U1>>::Output: CoalesceFold<U1, U0, Plain>,
    Coalesced<<RankedModes<S, D> as RightFold<U1>>::Output>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<<RankedModes<S, D> as RightFold<U1>>::Output>>;
}

/// `left_inverse(Self)` (paper 3.4.3): `R` with `R(L(k)) = k` for every
/// `k < size(L)`; not implemented for layouts whose non-zero-stride modes
/// are not injective or do not nest (the paper's form only: CuTe's forms
/// that cute-dynamic checks by brute force are not followed here). A
/// layout with no non-zero stride gets CuTe's `size:0`.
pub trait StaticLeftInverse {
    /// The left inverse.
    type Output;
}
impl<S, D> StaticLeftInverse for Layout<S, D>
where
    Self: RankedOf,
    RankedModes<S, D>: LeftStart<<Self as RankedOf>::Coalesced>,
    <RankedModes<S, D> as LeftStart<<Self as RankedOf>::Coalesced>>::Output: CoalesceFold<U1, U0, Plain>,
    Coalesced<<RankedModes<S, D> as LeftStart<<Self as RankedOf>::Coalesced>>::Output>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<<RankedModes<S, D> as LeftStart<<Self as RankedOf>::Coalesced>>::Output>>;
}

/// `right_inverse(a)` (paper 3.4.1): the largest `R` with `A(R(k)) = k`
/// for every `k < size(R)` (see [`RightInverse`](crate::RightInverse)).
///
/// Post-conditions (as cute-dynamic's `right_inverse`): `A(R(k)) = k` for
/// `k < size(R)`; `R` is injective, `size(R) <= size(A)`; the run of
/// offsets `0..size(R)` cannot be continued by a mode of `A`.
///
/// All-static: computed in trait resolution, zero-sized. With a run-time
/// ([`Dyn`](crate::Dyn)) leaf in `a`, the result is CuTe's form where that
/// is known to be this answer, and the padded form otherwise; it never
/// fails:
///
/// * **CuTe's form** (CuTe C++'s result with `int` leaves, leaf for leaf):
///   where every stride of `coalesce(a)` is static and no mode could continue CuTe's
///   run for any run-time value (the run ends at a static offset, or
///   takes every mode of non-zero stride). CuTe's `right_inverse` walks the
///   modes of `coalesce(a)` by static stride and stops at the first
///   run-time extent; where a mode is left after it, the right inverse
///   may be larger than CuTe's, so its form is not taken.
/// * **The padded form** otherwise: a flat layout of `N` run-time leaves
///   (`N` the number of flat modes of `a`, a single leaf for `N = 1`, at
///   most 16), the coalesced answer at its end and `1:0` modes in front.
///
/// ```
/// use cute_static::prelude::*;
/// assert_eq!(right_inverse(layout!((4,8):(8,1))).to_string(), "(_8,_4):(_4,_1)");
/// assert_eq!(right_inverse(layout!((4,8):(1,5))).to_string(), "_4:_1");
/// let m = 8usize;
/// // CuTe's form: static strides, and the run ends with every mode.
/// assert_eq!(right_inverse(layout!(({m},4):(4,1))).to_string(), "(_4,8):(8,_1)");
/// assert_eq!(right_inverse(layout!((4,{m}):(1,5))).to_string(), "_4:_1");
/// // Padded: a run-time stride, or a mode left after a run-time extent.
/// assert_eq!(right_inverse(layout!((4,{m}):({m},1))).to_string(), "(8,4):(4,1)");
/// assert_eq!(right_inverse(layout!((2,{m},4):(1,2,8))).to_string(), "(1,1,16):(0,0,1)");
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn right_inverse<A: crate::RightInverse>(a: A) -> A::Output
where
    A::Output: crate::RightInverseValue<A>,
{
    <A::Output as crate::RightInverseValue<A>>::make(a)
}

/// `left_inverse(a)` (paper 3.4.3): `R` with `R(A(k)) = k` for every
/// `k < size(A)` (see [`LeftInverse`](crate::LeftInverse)).
///
/// Post-conditions (cute-dynamic's `left_inverse`'s), for every `k`, with
/// `o = A(k)` and `c = R(o)` read on `R`'s extended domain: for an injective
/// `A`, `o` is in the domain of `R` and `c = k`; otherwise `c >= 0` and
/// `A(c) = o`, `A` read on its extended domain, which only CuTe's forms
/// need (the run-time path, where the strides do not nest).
///
/// All-static: computed in trait resolution, zero-sized; a layout whose
/// non-zero-stride modes are not injective, or whose sorted strides do not
/// nest, does not compile (CuTe's answers for some of these, which
/// cute-dynamic checks by brute force, are not followed at the type level).
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a`:
///
/// * **CuTe's form** (CuTe C++'s result with `int` leaves, leaf for leaf)
///   where every stride of `coalesce(a)` is static and its sorted modes
///   are known to nest: each mode but the last of static shape, ending at
///   or before the next stride, a multiple of its own; the last of static
///   shape or starting where the one before it ends (a run-time last shape
///   of value 1 would otherwise leave a larger answer than
///   cute-dynamic's; a lone mode of stride 1 in a layout without stride-0
///   modes, such as `{n}:1`, qualifies). It never fails.
/// * **The padded form** otherwise: there the sort and the nesting
///   conditions are checked when the call runs, and the number of modes
///   of the answer depends on run-time values: a flat layout of `N + 1`
///   run-time leaves (`N` the number of flat modes of `a`, at most 15), the
///   coalesced answer at its end and `1:0` modes in front. Where the
///   strides do not nest (or are negative) the answer is cute-dynamic's
///   (CuTe's where it holds, else its search), padded; an answer with more
///   than `N + 1` modes is an `Unsupported` error.
///
/// # Panics
///
/// With run-time leaves only, when cute-dynamic's `left_inverse` fails
/// for the same values, with the message of the error
/// [`try_left_inverse`](crate::try_left_inverse) returns.
///
/// ```
/// use cute_static::prelude::*;
/// assert_eq!(left_inverse(layout!((4,8):(1,5))).to_string(), "(_5,_8):(_1,_4)");
/// assert_eq!(left_inverse(layout!((3,7,5):(5,15,1))).to_string(), "(_5,_21):(_21,_1)");
/// let m = 7usize;
/// // CuTe's form: static strides that nest.
/// assert_eq!(left_inverse(layout!((3,{m},5):(5,15,1))).to_string(), "(_5,_3,7):(21,_1,_3)");
/// // Padded: a run-time shape before the last mode.
/// assert_eq!(left_inverse(layout!(({m},4):(1,16))).to_string(), "(1,16,4):(0,1,7)");
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
#[track_caller]
pub fn left_inverse<A: crate::LeftInverse>(a: A) -> A::Output
where
    A::Output: crate::LeftInverseValue<A>,
{
    <A::Output as crate::LeftInverseValue<A>>::make(a)
}

// ------------------------------------------------------ run-time leaves

/// Marker: the right inverse.
#[doc(hidden)]
pub struct RightOp;
/// Marker: the left inverse.
#[doc(hidden)]
pub struct LeftOp;

use crate::run_time::{PadDyn, PadN, PadN1};

/// `right_inverse(Self)` (`W` = [`RightOp`]) or `left_inverse(Self)`
/// (`W` = [`LeftOp`]) for any layout: [`StaticRightInverse`] / [`StaticLeftInverse`]
/// when all-static, the padded form of run-time leaves otherwise (see
/// [`right_inverse`]).
#[doc(hidden)]
pub trait InverseOf<W> {
    /// The inverse.
    type Output;
}
impl<S, D, W> InverseOf<W> for Layout<S, D>
where
    Self: crate::int_tuple::AllStatic,
    Self: InverseBy<W, <Self as crate::int_tuple::AllStatic>::Bit>,
{
    type Output = <Self as InverseBy<W, <Self as crate::int_tuple::AllStatic>::Bit>>::Output;
}
/// [`InverseOf`] by branch: `Static` is `B1` for an all-static layout.
#[doc(hidden)]
pub trait InverseBy<W, Static> {
    /// The inverse.
    type Output;
}
impl<A: StaticRightInverse> InverseBy<RightOp, B1> for A {
    type Output = <A as StaticRightInverse>::Output;
}
impl<A: StaticLeftInverse> InverseBy<LeftOp, B1> for A {
    type Output = <A as StaticLeftInverse>::Output;
}
impl<S, D, W> InverseBy<W, B0> for Layout<S, D>
where
    Self: MixedInverse<W>,
{
    type Output = <Self as MixedInverse<W>>::Output;
}

/// The padded form of an inverse with run-time leaves (see
/// [`right_inverse`]).
#[doc(hidden)]
pub struct Padded;
/// CuTe's form of an inverse with run-time leaves: its fold over the
/// static strides, taken where that fold is known to give cute-dynamic's
/// answer (see [`right_inverse`]).
#[doc(hidden)]
pub struct CuteForm;

/// The form ([`Padded`] or [`CuteForm`]) and type of the inverse `W` of a
/// layout with run-time leaves. CuTe's fold needs static strides; with
/// them, the right inverse takes CuTe's form where no mode could continue
/// its run (`RightFold::Complete`), the left inverse where its strides are
/// known to nest (`LeftNests`).
#[doc(hidden)]
pub trait MixedInverse<W> {
    /// [`Padded`] or [`CuteForm`].
    type Form;
    /// The inverse.
    type Output;
}
impl<S, D, W> MixedInverse<W> for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: CoalesceFold<U1, U0, Plain>,
    Coalesced<FlatModes<S, D>>: StaticStrides,
    W: CuteTest<S, D, StridesBit<S, D>>,
    Self: MixedInverseBy<W, <W as CuteTest<S, D, StridesBit<S, D>>>::Bit>,
{
    type Form = <Self as MixedInverseBy<W, <W as CuteTest<S, D, StridesBit<S, D>>>::Bit>>::Form;
    type Output = <Self as MixedInverseBy<W, <W as CuteTest<S, D, StridesBit<S, D>>>::Bit>>::Output;
}
/// `B1` when the strides of `coalesce(Layout<S, D>)` are static (CuTe's
/// `coalesce` drops a static size-1 mode whatever its stride).
type StridesBit<S, D> = <Coalesced<FlatModes<S, D>> as StaticStrides>::Bit;

/// Whether the inverse `Self` of `Layout<S, D>` takes CuTe's form, given
/// `B`, whether the strides of its coalesced modes are static.
#[doc(hidden)]
pub trait CuteTest<S, D, B> {
    /// `B1` for CuTe's form.
    type Bit;
}
impl<S, D, W> CuteTest<S, D, B0> for W {
    type Bit = B0;
}
impl<S, D> CuteTest<S, D, B1> for RightOp
where
    Layout<S, D>: RankedOf,
    RankedModes<S, D>: RightFold<U1>,
{
    type Bit = <RankedModes<S, D> as RightFold<U1>>::Complete;
}
impl<S, D> CuteTest<S, D, B1> for LeftOp
where
    Layout<S, D>: RankedOf,
    <Layout<S, D> as RankedOf>::Coalesced: ZeroStrideSize<U1>,
    RankedModes<S, D>: LeftNests<<<Layout<S, D> as RankedOf>::Coalesced as ZeroStrideSize<U1>>::Output>,
{
    type Bit =
        <RankedModes<S, D> as LeftNests<<<Layout<S, D> as RankedOf>::Coalesced as ZeroStrideSize<U1>>::Output>>::Bit;
}

/// The modes of `coalesce(Self)` and their sorted ranked list
/// ([`Ranked`]), behind one bound: what CuTe's forms of both inverses
/// walk.
#[doc(hidden)]
pub trait RankedOf {
    /// `coalesce(Self)`'s modes.
    type Coalesced;
    /// Their non-zero-stride modes with prefixes, sorted.
    type Modes;
}
impl<S, D> RankedOf for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: CoalesceFold<U1, U0, Plain>,
    Coalesced<FlatModes<S, D>>: Rank<U1>,
    <Coalesced<FlatModes<S, D>> as Rank<U1>>::Output: crate::detail::Sort,
{
    type Coalesced = Coalesced<FlatModes<S, D>>;
    type Modes = Ranked<S, D>;
}
type RankedModes<S, D> = <Layout<S, D> as RankedOf>::Modes;

/// [`MixedInverse`] by `B`, `B1` for CuTe's form.
#[doc(hidden)]
pub trait MixedInverseBy<W, B> {
    /// [`Padded`] or [`CuteForm`].
    type Form;
    /// The inverse.
    type Output;
}
impl<S, D> MixedInverseBy<RightOp, B0> for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: PadDyn,
{
    type Form = Padded;
    type Output = PadN<S, D>;
}
impl<S, D> MixedInverseBy<LeftOp, B0> for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: crate::detail::NoStaticOverlap,
    MCons<U1, U0, FlatModes<S, D>>: PadDyn,
{
    type Form = Padded;
    type Output = PadN1<S, D>;
}
impl<S, D, W> MixedInverseBy<W, B1> for Layout<S, D>
where
    Self: CuteChain<W>,
    Layout<<Self as CuteChain<W>>::Shape, <Self as CuteChain<W>>::Stride>: crate::Coalesce,
{
    type Form = CuteForm;
    type Output = <Layout<<Self as CuteChain<W>>::Shape, <Self as CuteChain<W>>::Stride> as crate::Coalesce>::Output;
}

/// CuTe's inverse `W` of `Self` (static strides) before its last
/// `coalesce`: the right inverse's run of modes `s : p`
/// ([`RightFold`](crate::detail::RightFold)), or the left inverse's
/// ([`LeftStart`](crate::detail::LeftStart)), as a flat layout.
#[doc(hidden)]
pub trait CuteChain<W> {
    /// Its shape.
    type Shape;
    /// Its stride.
    type Stride;
}
impl<S, D> CuteChain<RightOp> for Layout<S, D>
where
    Self: RankedOf,
    RankedModes<S, D>: RightFold<U1>,
    <RankedModes<S, D> as RightFold<U1>>::Output: ModesToLayout,
{
    type Shape = <<RankedModes<S, D> as RightFold<U1>>::Output as ModesToLayout>::Shape;
    type Stride = <<RankedModes<S, D> as RightFold<U1>>::Output as ModesToLayout>::Stride;
}
impl<S, D> CuteChain<LeftOp> for Layout<S, D>
where
    Self: RankedOf,
    RankedModes<S, D>: LeftStart<<Self as RankedOf>::Coalesced>,
    <RankedModes<S, D> as LeftStart<<Self as RankedOf>::Coalesced>>::Output: ModesToLayout,
{
    type Shape = <<RankedModes<S, D> as LeftStart<<Self as RankedOf>::Coalesced>>::Output as ModesToLayout>::Shape;
    type Stride = <<RankedModes<S, D> as LeftStart<<Self as RankedOf>::Coalesced>>::Output as ModesToLayout>::Stride;
}

/// The value of an inverse of `A`: zero-sized when `A` is all-static,
/// computed (and checked) when it has a run-time leaf; public as
/// [`RightInverseValue`](crate::RightInverseValue) and
/// [`LeftInverseValue`](crate::LeftInverseValue).
#[doc(hidden)]
pub trait InverseValue<W, A>: Sized {
    /// The inverse of `a`.
    fn make(a: A) -> Self;
    /// The inverse of `a`, or cute-dynamic's error: what
    /// [`try_left_inverse`](crate::try_left_inverse) and
    /// [`try_right_inverse`](crate::try_right_inverse) return (their
    /// post-conditions), `Ok` for an all-static `a`. Takes `a` by value, as
    /// [`make`](InverseValue::make).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let r = try_left_inverse(layout!((4,8):(1,5))).unwrap(); // this method, by value
    /// assert_eq!(r, left_inverse(layout!((4,8):(1,5))));
    /// assert!(try_left_inverse(layout!((4,4):({1i64},{-2i64}))).is_err());
    /// ```
    #[cfg(feature = "std")]
    fn try_make(a: A) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O, W, A> InverseValue<W, A> for O
where
    A: crate::int_tuple::AllStatic,
    O: InverseValueBy<W, A, <A as crate::int_tuple::AllStatic>::Bit>,
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn make(a: A) -> O {
        <O as InverseValueBy<W, A, <A as crate::int_tuple::AllStatic>::Bit>>::make(a)
    }
    #[cfg(feature = "std")]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(a: A) -> Result<O, cute_dynamic::LayoutError> {
        <O as InverseValueBy<W, A, <A as crate::int_tuple::AllStatic>::Bit>>::try_make(a)
    }
}
/// [`InverseValue`] by branch: `Static` is `B1` for an all-static layout.
#[doc(hidden)]
pub trait InverseValueBy<W, A, Static>: Sized {
    /// The inverse of `a`.
    fn make(a: A) -> Self;
    /// The inverse of `a`, or cute-dynamic's error.
    #[cfg(feature = "std")]
    fn try_make(a: A) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O: crate::layout::StaticValue, W, A> InverseValueBy<W, A, B1> for O {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn make(_: A) -> O {
        O::value()
    }
    #[cfg(feature = "std")]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(_: A) -> Result<O, cute_dynamic::LayoutError> {
        Ok(O::value())
    }
}

#[cfg(feature = "std")]
pub use run_time::{try_left_inverse, try_right_inverse};

#[cfg(feature = "std")]
mod run_time {
    use super::*;
    use crate::coalesce::coalesce_walk;
    use crate::run_time::{FlatValues, FromLeaves, Leaves, MAX_MODES, extent_fits, flat_modes, layout_of_modes};
    use crate::run_time::{marked_modes, padded};
    use cute_dynamic::kernel::{coalesce_in_place, nested_left_inverse, rank_modes, ranked, right_inverse_modes};

    /// The paper's nested left inverse (the kernel's, for strides `> 0`),
    /// not coalesced; `None` when it does not apply (cute-dynamic then
    /// decides, CuTe's forms first). With no non-zero stride, CuTe's
    /// `size:0`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn left_modes(m: &mut [(i64, i64)], out: &mut [(i64, i64)]) -> Option<usize> {
        let size = m.iter().try_fold(1i64, |n, x| n.checked_mul(x.0))?;
        let mut r = [(0i64, 0i64, 0i64); MAX_MODES];
        let k = ranked(m, &mut r);
        let r = &r[..k];
        if r.iter().any(|x| x.1 < 0) {
            return None;
        }
        if r.is_empty() {
            out[0] = (size, 0);
            return Some(1);
        }
        nested_left_inverse(r, out).ok()
    }

    /// The inverse of a layout with run-time leaves, in the padded form `P`.
    #[doc(hidden)]
    pub trait TryInverse<W> {
        /// Computes it, or gives cute-dynamic's error.
        fn try_inverse<P: PadDyn>(&self) -> Result<P::Output, cute_dynamic::LayoutError>;
    }
    impl<S: FlatValues + crate::Congruent<D>, D: FlatValues> TryInverse<RightOp> for Layout<S, D> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_inverse<P: PadDyn>(&self) -> Result<P::Output, cute_dynamic::LayoutError> {
            let (mut m, n) = flat_modes(&self.shape(), &self.stride());
            let mut r = [(0i64, 0i64, 0i64); MAX_MODES];
            let k = ranked(&mut m[..n], &mut r);
            let mut out = [(1i64, 0i64); MAX_MODES];
            let k = right_inverse_modes(&r[..k], &mut out);
            // At most one mode per flat mode of the layout: it fits.
            padded::<P>(&mut out[..k]).ok_or_else(|| unreachable!())
        }
    }
    impl<S: FlatValues + crate::Congruent<D>, D: FlatValues> TryInverse<LeftOp> for Layout<S, D> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_inverse<P: PadDyn>(&self) -> Result<P::Output, cute_dynamic::LayoutError> {
            let (mut m, n) = flat_modes(&self.shape(), &self.stride());
            let mut out = [(1i64, 0i64); MAX_MODES];
            if let Some(k) = left_modes(&mut m[..n], &mut out) {
                let k = coalesce_in_place(&mut out[..k]);
                if extent_fits(&out[..k])
                    && let Some(r) = padded::<P>(&mut out[..k])
                {
                    return Ok(r);
                }
            }
            searched::<P>(self.to_dynamic())
        }
    }

    /// The cases outside the nested form (negative strides, strides that
    /// do not nest, overflow): cute-dynamic's answer, padded when it fits
    /// in the padded form, else an `Unsupported` error (cold).
    #[cold]
    #[inline(never)]
    fn searched<P: PadDyn>(a: cute_dynamic::Layout) -> Result<P::Output, cute_dynamic::LayoutError> {
        let r = cute_dynamic::left_inverse(&a)?;
        let mut v: std::vec::Vec<(i64, i64)> = r.shape().leaves().zip(r.stride().leaves()).collect();
        padded::<P>(&mut v).ok_or_else(|| cute_dynamic::LayoutError::Unsupported {
            what: format!("left_inverse of {a} is {r}, more modes than the padded form of {} modes", P::RANK),
        })
    }

    /// The run-time branch of [`InverseValue`]: by the form.
    impl<O, W, S, D> InverseValueBy<W, Layout<S, D>, B0> for O
    where
        Layout<S, D>: InverseOf<W, Output = O> + MixedInverse<W>,
        <Layout<S, D> as MixedInverse<W>>::Form: MakeForm<W, S, D, O>,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[track_caller]
        fn make(a: Layout<S, D>) -> O {
            match <O as InverseValueBy<W, Layout<S, D>, B0>>::try_make(a) {
                Ok(r) => r,
                Err(e) => crate::composition::fail(e),
            }
        }
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_make(a: Layout<S, D>) -> Result<O, cute_dynamic::LayoutError> {
            <<Layout<S, D> as MixedInverse<W>>::Form as MakeForm<W, S, D, O>>::try_make(a)
        }
    }

    /// The value of the inverse `W` of `Layout<S, D>` in the form `Self`.
    #[doc(hidden)]
    pub trait MakeForm<W, S, D, O> {
        /// Computes it, or gives cute-dynamic's error.
        fn try_make(a: Layout<S, D>) -> Result<O, cute_dynamic::LayoutError>;
    }
    impl<S, D, O> MakeForm<RightOp, S, D, O> for Padded
    where
        Layout<S, D>: TryInverse<RightOp>,
        S: FlattenInto<D, MNil>,
        FlatModes<S, D>: PadDyn<Output = O>,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_make(a: Layout<S, D>) -> Result<O, cute_dynamic::LayoutError> {
            a.try_inverse::<FlatModes<S, D>>()
        }
    }
    impl<S, D, O> MakeForm<LeftOp, S, D, O> for Padded
    where
        Layout<S, D>: TryInverse<LeftOp>,
        S: FlattenInto<D, MNil>,
        MCons<U1, U0, FlatModes<S, D>>: PadDyn<Output = O>,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_make(a: Layout<S, D>) -> Result<O, cute_dynamic::LayoutError> {
            a.try_inverse::<MCons<U1, U0, FlatModes<S, D>>>()
        }
    }
    /// CuTe's form: the kernel's inverse of the modes CuTe's `coalesce`
    /// keeps (their values; ranked without coalescing them further), in
    /// the type of CuTe's fold, then coalesced as CuTe does.
    impl<S, D, O, W, CS, CD> MakeForm<W, S, D, O> for CuteForm
    where
        S: FlatValues + crate::Congruent<D>,
        D: FlatValues,
        W: ChainModes,
        Layout<S, D>: CuteChain<W, Shape = CS, Stride = CD>,
        CS: FromLeaves + FlatValues + crate::Congruent<CD>,
        CD: FromLeaves,
        Layout<CS, CD>: crate::Coalesce<Output = O>,
        O: crate::CoalesceValue<Layout<CS, CD>>,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_make(a: Layout<S, D>) -> Result<O, cute_dynamic::LayoutError> {
            let (m, n) = marked_modes(&a.shape(), &a.stride());
            let mut c = Leaves::new();
            coalesce_walk(&m[..n], false, &mut c);
            let mut out = [(1i64, 0i64); MAX_MODES];
            let k = W::chain_modes(c.all(), &mut out);
            match k.and_then(|k| layout_of_modes::<CS, CD>(&out[..k])) {
                Some(chain) => Ok(crate::coalesce(chain)),
                None => Err(chain_failure(a.to_dynamic())),
            }
        }
    }

    /// The run of modes of CuTe's inverse before its last `coalesce`, as
    /// the kernel makes it from CuTe's coalesced modes `c` (static
    /// strides): the same modes, in the same order, as
    /// [`CuteChain`]'s type, where that type is taken.
    #[doc(hidden)]
    pub trait ChainModes {
        /// Writes them to `out`; their number.
        fn chain_modes(c: &[(i64, i64)], out: &mut [(i64, i64); MAX_MODES]) -> Option<usize>;
    }
    impl ChainModes for RightOp {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn chain_modes(c: &[(i64, i64)], out: &mut [(i64, i64); MAX_MODES]) -> Option<usize> {
            let mut r = [(0i64, 0i64, 0i64); MAX_MODES];
            let k = rank_modes(c, &mut r);
            // No mode: the run is empty, its layout `1:0` (`out`'s fill).
            Some(right_inverse_modes(&r[..k], out).max(1))
        }
    }
    impl ChainModes for LeftOp {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn chain_modes(c: &[(i64, i64)], out: &mut [(i64, i64); MAX_MODES]) -> Option<usize> {
            let mut r = [(0i64, 0i64, 0i64); MAX_MODES];
            let k = rank_modes(c, &mut r);
            if k == 0 {
                // Every stride 0: CuTe's `size:0`, the coalesced modes.
                out[..c.len()].copy_from_slice(c);
                return Some(c.len());
            }
            nested_left_inverse(&r[..k], out).ok()
        }
    }

    /// Where the kernel's run of modes does not fill CuTe's type (cold):
    /// the type is taken only where it does, so this names the broken
    /// promise rather than a property of the layout.
    #[cold]
    #[inline(never)]
    fn chain_failure(a: cute_dynamic::Layout) -> cute_dynamic::LayoutError {
        cute_dynamic::LayoutError::Unsupported {
            what: format!("an inverse of {a} whose modes do not fill CuTe's form of it"),
        }
    }

    /// `right_inverse(a)`: always `Ok`, with the same value as
    /// [`right_inverse`] (the right inverse exists for every layout);
    /// `Result` so that it reads as the other `try_` operations. Takes its
    /// argument as `right_inverse` does (by value).
    ///
    /// Post-conditions: those of [`right_inverse`].
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let r = try_right_inverse(layout!((4,{8i64}):(8,1))).unwrap();
    /// assert_eq!(r.to_string(), "(8,4):(4,1)");
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn try_right_inverse<A: crate::RightInverse>(a: A) -> Result<A::Output, cute_dynamic::LayoutError>
    where
        A::Output: crate::RightInverseValue<A>,
    {
        <A::Output as crate::RightInverseValue<A>>::try_make(a)
    }

    /// `left_inverse(a)`: `Ok` with the left inverse (see [`left_inverse`],
    /// whose argument it takes the same way, by value), or the
    /// [`LayoutError`](cute_dynamic::LayoutError) cute-dynamic's
    /// `left_inverse` gives for the same values.
    ///
    /// Post-conditions, on `Ok`: those of [`left_inverse`]. An all-static
    /// argument is always `Ok` (a layout without a left inverse does not
    /// compile).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let r = try_left_inverse(layout!((4,8):(1,{5i64}))).unwrap();
    /// assert_eq!(r.to_string(), "(1,5,8):(0,1,4)");
    /// assert!(try_left_inverse(layout!((4,4):({1i64},{-2i64}))).is_err());
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn try_left_inverse<A: crate::LeftInverse>(a: A) -> Result<A::Output, cute_dynamic::LayoutError>
    where
        A::Output: crate::LeftInverseValue<A>,
    {
        <A::Output as crate::LeftInverseValue<A>>::try_make(a)
    }
}
