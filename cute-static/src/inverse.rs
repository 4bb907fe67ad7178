//! `right_inverse` and `left_inverse` in trait resolution (paper 3.4).
//!
//! Both work on the coalesced modes of the layout, each tagged with its
//! prefix `p` (the product of the extents before it, i.e. the integral
//! coordinate where the mode starts), without stride-0 modes, sorted by
//! `(stride, prefix)`.

use crate::detail::{CoalesceFold, Coalesced, LeftStart, Plain, Rank, Ranked, RightFold};
use crate::detail::{FlatModes, FlattenInto, LayoutOfModes, MCons, MNil, ModesToLayout};
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
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: CoalesceFold<U1, U0, Plain>,
    Coalesced<FlatModes<S, D>>: Rank<U1>,
    <Coalesced<FlatModes<S, D>> as Rank<U1>>::Output: crate::detail::Sort,
    Ranked<S, D>: RightFold<U1>,
    <Ranked<S, D> as RightFold<U1>>::Output: CoalesceFold<U1, U0, Plain>,
    Coalesced<<Ranked<S, D> as RightFold<U1>>::Output>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<<Ranked<S, D> as RightFold<U1>>::Output>>;
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
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: CoalesceFold<U1, U0, Plain>,
    Coalesced<FlatModes<S, D>>: Rank<U1>,
    <Coalesced<FlatModes<S, D>> as Rank<U1>>::Output: crate::detail::Sort,
    Ranked<S, D>: LeftStart<Coalesced<FlatModes<S, D>>>,
    <Ranked<S, D> as LeftStart<Coalesced<FlatModes<S, D>>>>::Output: CoalesceFold<U1, U0, Plain>,
    Coalesced<<Ranked<S, D> as LeftStart<Coalesced<FlatModes<S, D>>>>::Output>: ModesToLayout,
{
    type Output = LayoutOfModes<Coalesced<<Ranked<S, D> as LeftStart<Coalesced<FlatModes<S, D>>>>::Output>>;
}

/// `right_inverse(a)` (paper 3.4.1): the largest `R` with `A(R(k)) = k`
/// for every `k < size(R)` (see [`RightInverse`](crate::RightInverse)).
///
/// Post-conditions (as cute-dynamic's `right_inverse`): `A(R(k)) = k` for
/// `k < size(R)`; `R` is injective, `size(R) <= size(A)`; the run of
/// offsets `0..size(R)` cannot be continued by a mode of `A`.
///
/// All-static: computed in trait resolution, zero-sized. With a run-time
/// ([`Dyn`](crate::Dyn)) leaf in `a`, the sort by stride and the "stride
/// equals the running product" test depend on run-time values, and so does
/// the number of modes of CuTe's (coalesced) answer: the result is the
/// padded form, a flat layout of `N` run-time leaves (`N` the number of
/// flat modes of `a`, a single leaf for `N = 1`, at most 16), the coalesced
/// answer at its end and `1:0` modes in front. It never fails.
///
/// ```
/// use cute_static::prelude::*;
/// assert_eq!(right_inverse(layout!((4,8):(8,1))).to_string(), "(_8,_4):(_4,_1)");
/// assert_eq!(right_inverse(layout!((4,8):(1,5))).to_string(), "_4:_1");
/// let m = 8usize;
/// assert_eq!(right_inverse(layout!((4,{m}):({m},1))).to_string(), "(8,4):(4,1)");
/// assert_eq!(right_inverse(layout!((4,{m}):(1,5))).to_string(), "(1,4):(0,1)");
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
/// With a run-time ([`Dyn`](crate::Dyn)) leaf in `a`, the sort and the
/// nesting conditions are checked when the call runs, and the number of
/// modes of the answer depends on run-time values: the result is the
/// padded form, a flat layout of `N + 1` run-time leaves (`N` the number of
/// flat modes of `a`, at most 15), the coalesced answer at its end and `1:0`
/// modes in front. Where the strides do not nest (or are negative) the
/// answer is cute-dynamic's (CuTe's where it holds, else its search),
/// padded; an answer with more than `N + 1` modes is an `Unsupported`
/// error.
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
/// assert_eq!(left_inverse(layout!((3,{m},5):(5,15,1))).to_string(), "(1,1,5,21):(0,0,21,1)");
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
impl<S, D> InverseBy<RightOp, B0> for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: PadDyn,
{
    type Output = PadN<S, D>;
}
impl<S, D> InverseBy<LeftOp, B0> for Layout<S, D>
where
    S: FlattenInto<D, MNil>,
    FlatModes<S, D>: crate::detail::NoStaticOverlap,
    MCons<U1, U0, FlatModes<S, D>>: PadDyn,
{
    type Output = PadN1<S, D>;
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
    use crate::run_time::{FlatValues, MAX_MODES, extent_fits, flat_modes, padded};
    use cute_dynamic::kernel::{coalesce_in_place, nested_left_inverse, ranked, right_inverse_modes};

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

    /// The run-time branch of [`InverseValue`].
    impl<O, W, S, D> InverseValueBy<W, Layout<S, D>, B0> for O
    where
        Layout<S, D>: InverseOf<W, Output = O> + TryInverse<W>,
        S: FlattenInto<D, MNil>,
        W: PadOf<S, D, Output = O>,
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
            a.try_inverse::<<W as PadOf<S, D>>::Pad>()
        }
    }

    /// The padded list of modes of each inverse.
    #[doc(hidden)]
    pub trait PadOf<S, D> {
        /// The list.
        type Pad: PadDyn<Output = Self::Output>;
        /// Its layout.
        type Output;
    }
    impl<S: FlattenInto<D, MNil>, D> PadOf<S, D> for RightOp
    where
        FlatModes<S, D>: PadDyn,
    {
        type Pad = FlatModes<S, D>;
        type Output = PadN<S, D>;
    }
    impl<S: FlattenInto<D, MNil>, D> PadOf<S, D> for LeftOp
    where
        MCons<U1, U0, FlatModes<S, D>>: PadDyn,
    {
        type Pad = MCons<U1, U0, FlatModes<S, D>>;
        type Output = PadN1<S, D>;
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
