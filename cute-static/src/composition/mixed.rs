//! Composition of layouts with run-time ([`Dyn`]) leaves.
//!
//! The all-static composition is decided in trait resolution (see
//! [`Compose`](crate::Compose) in `detail/composition.rs`, unchanged). When a leaf of
//! either argument is run-time, [`composition`](crate::composition) takes the
//! path of this file: the result's *structure* is still a type, in CuTe's
//! padded form (each leaf of `B` becomes one mode per flat mode of `A`, a
//! mode that may turn out to be of size 1 is kept), and its values are
//! computed when the call runs, with cute-dynamic's conditions checked
//! (stride and shape divisibility, distributivity, overflow).
//!
//! Where the flat `A` has one mode, the result is CuTe's `s:(d·D)` for each
//! leaf `s:d` of `B`, and a product of static strides stays static.
//!
//! Speed: when every value of the prepared `A` and of `B` is below 2^16,
//! nothing can overflow, and the same walk runs without its overflow
//! checks (`small_values`, the `CHECKED` parameter of `compose_leaf`).

use crate::detail::{FlatModes, FlattenInto, MCons, MNil};
use crate::int_tuple::known::{IsOne, IsZero, KnownEq, KnownOne, KnownZero, LeafMin, LeafMul};
use crate::int_tuple::{AllStatic, Dyn, IntTuple, Leaf, Truth};
use crate::layout::Layout;
use crate::run_time::{Buf, FlatValues, FromValue, MAX_MODES, TOO_MANY_MODES};
use core::ops::{Add, Div, Not, Rem};
use cute_dynamic::kernel::{self, LeafSink, May, coalesce_push, compose_mul, unit_stride};
use typenum::{B0, B1, Cmp, Compare, Equal, Greater, Less, Mod, Quot, Sum, UInt, UTerm};

#[doc(hidden)]
pub use cute_dynamic::kernel::Fail;

/// `A` flattened and coalesced for composition, padded back to its number
/// of flat modes: `k` coalesced modes take slots `0..k-1` and the last slot
/// (the unbounded mode, whose stride matters), slots between are `1:0`.
/// [`Prepared::of`] coalesces as cute-dynamic does (so the same conditions
/// hold); [`Prepared::as_cute`] only where CuTe's `coalesce_x` can, on
/// static values, so that the result has CuTe's padded form.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Prepared {
    /// `n` slots (`1 ≤ n ≤ MAX_MODES`). The count is kept beside the
    /// buffer's own length on purpose: with it the optimizer keeps the walk
    /// in registers (reading `modes.len()` instead, the mixed
    /// `logical_divide` bench took 12.3 ns, not 4.4).
    modes: Buf<(i64, i64), MAX_MODES>,
    n: usize,
    size: i64,
    /// Whether the modes are CuTe's (`as_cute`): then a leaf of size 1
    /// walks the modes as CuTe's fold does.
    cute: bool,
}

impl Prepared {
    /// The size of `A` (wrapping; the layout's construction checked it).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn size(&self) -> i64 {
        self.size
    }
    /// The modes a leaf of `B` may move over: the bounded ones of size
    /// above 1 (the padding's `1:0` is not one) and the last, unbounded
    /// one. (Not generic, so generated once.)
    #[inline]
    fn moving_modes(&self) -> usize {
        1 + self.modes.as_slice()[..self.n - 1].iter().filter(|m| m.0 != 1).count()
    }
    /// `A` coalesced as cute-dynamic coalesces it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn of<S: FlatValues, D: FlatValues>(shape: &S, stride: &D) -> Option<Prepared> {
        let (s, d, n) = flat_values(shape, stride)?;
        Self::prepare(&s, &d, n, None)
    }
    /// `A` as CuTe's `coalesce_x` leaves it before its composition fold: a
    /// mode of static extent 1 dropped, two modes merged only when the
    /// merge is known statically (`s₀·d₀ = d₁` on static values); with
    /// run-time values every flat mode stays. `None` when `A` has no
    /// run-time leaf (nothing to follow: the static solver answers).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn as_cute<S: FlatValues, D: FlatValues>(shape: &S, stride: &D) -> Option<Prepared> {
        let (s, d, n) = flat_values(shape, stride)?;
        if !S::ANY_STATIC && !D::ANY_STATIC {
            return Self::all_run_time(&s, &d, n);
        }
        let (mut ss, mut sd) = ([false; MAX_MODES], [false; MAX_MODES]);
        let (mut ns, mut nd) = (0, 0);
        if !(S::write_static(&mut ss, &mut ns) && D::write_static(&mut sd, &mut nd)) {
            return None;
        }
        Self::prepare(&s, &d, n, Some((&ss, &sd)))
    }
    /// All run-time: CuTe keeps every flat mode as it is. (This and
    /// [`prepare`](Self::prepare) take the values, not the layout's types,
    /// so that they are generated once, not per layout type.)
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn all_run_time(s: &[i64; MAX_MODES], d: &[i64; MAX_MODES], n: usize) -> Option<Prepared> {
        let mut slots = Buf::new();
        let modes = slots.extend_with(n, (1i64, 0i64))?;
        let mut size = 1i64;
        for i in 0..n {
            modes[i] = (s[i], d[i]);
            size = size.wrapping_mul(s[i]);
        }
        Some(Prepared { modes: slots, n, size, cute: true })
    }
    /// The flat modes `s:d` (`n` of them) coalesced, by cute-dynamic's rule
    /// (`statics` `None`) or by CuTe's (where `statics` says both leaves of
    /// a mode are static).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn prepare(
        s: &[i64; MAX_MODES],
        d: &[i64; MAX_MODES],
        ns: usize,
        statics: Option<(&[bool; MAX_MODES], &[bool; MAX_MODES])>,
    ) -> Option<Prepared> {
        // With CuTe's rule: which leaves it can drop or merge (static).
        let known = |i: usize| statics.is_none_or(|(ss, sd)| ss[i] && sd[i]);
        let one = |i: usize| s[i] == 1 && statics.is_none_or(|(ss, _)| ss[i]);
        let mut slots = Buf::new();
        let modes = slots.extend_with(ns, (1i64, 0i64))?;
        let mut k = 0usize;
        // The pending mode, its index, and whether `modes[k - 1]` is static.
        let mut pending: Option<(i64, i64, usize)> = None;
        let mut last_known = false;
        let mut size = 1i64;
        for i in 0..ns {
            size = size.wrapping_mul(s[i]);
            if let Some((ps, pd, pi)) = pending.replace((s[i], d[i], i)) {
                // The coalesce rule, where it is known (statically).
                let may = May { drop_unit: one(pi), merge: last_known && known(pi) };
                let kept = coalesce_push(modes, k, (ps, pd), may);
                if kept > k {
                    last_known = known(pi);
                }
                k = kept;
            }
        }
        let (ls, ld, li) = pending.unwrap_or((1, 0, 0));
        if k > 0 && last_known && known(li) && modes[k - 1].0.checked_mul(modes[k - 1].1) == Some(ld) {
            k -= 1;
            let (ms, md) = modes[k];
            modes[k] = (1, 0);
            modes[ns - 1] = (ms * ls, md);
        } else {
            modes[ns - 1] = (ls, ld);
        }
        Some(Prepared { modes: slots, n: ns, size, cute: statics.is_some() })
    }
}

/// The flat leaves of a layout `shape:stride` and their number, `None` past
/// the room or for no leaf.
#[cfg_attr(not(debug_assertions), inline(always))]
fn flat_values<S: FlatValues, D: FlatValues>(
    shape: &S,
    stride: &D,
) -> Option<([i64; MAX_MODES], [i64; MAX_MODES], usize)> {
    let (mut s, mut d) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
    let (mut ns, mut nd) = (0, 0);
    (shape.write(&mut s, &mut ns) && stride.write(&mut d, &mut nd) && ns > 0).then_some((s, d, ns))
}

// ------------------------------------------------------------ the fold

/// What the fold over `B`'s leaves accumulates for the checks made once at
/// the end: how far the leaves reach into each mode of `A`
/// (distributivity), `B`'s largest offset and whether a stride is negative,
/// whether a leaf moves down over several modes of `A` (the sign check),
/// and the result's extent (overflow). With `CHECKED` false the values
/// are known small (see [`small_values`]): nothing can overflow, so the
/// overflow checks and what they need are left out.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct DeferredChecks<const CHECKED: bool> {
    reach: [i64; MAX_MODES],
    b_hi: i64,
    b_neg: bool,
    /// The full rules (the cold retry): a leaf moving down over several
    /// modes is walked, and `down` records it for the sign check.
    full: bool,
    down: bool,
    extent: Option<i64>,
}

impl<const CHECKED: bool> DeferredChecks<CHECKED> {
    /// Nothing walked yet.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new() -> Self {
        DeferredChecks { reach: [0; MAX_MODES], b_hi: 0, b_neg: false, full: false, down: false, extent: Some(0) }
    }
    /// Nothing walked yet, with the full rules (see `full`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new_full() -> Self {
        DeferredChecks { full: true, ..Self::new() }
    }
}

/// The bound below which [`small_values`] holds.
const SMALL_LEAF: u64 = 1 << 16;

/// Speed work below the rule: every shape and stride of the prepared `A`
/// (its coalesced modes) and of `B`'s leaves is at most 2^16 in magnitude.
/// Then nothing in [`compose_leaf`] overflows: a stride of the result is a
/// product of two such values (at most 2^32), a shape is at most one of
/// them plus one, so each of the at most 16·16 leaves adds at most 2^48 to
/// the extent, which stays below 2^57; the walk's other products (`g·d` of the
/// stride-0 rule, a reach) are smaller still. The walk then runs with
/// `CHECKED = false`, the same arithmetic without its overflow checks.
/// (`b_bits` is the bitwise or of the magnitudes of `B`'s leaves,
/// [`MixedTree::magnitudes`].)
#[cfg_attr(not(debug_assertions), inline(always))]
fn small_values(a: &Prepared, b_bits: u64) -> bool {
    let a_bits = a.modes.as_slice().iter().fold(0u64, |acc, &(x, y)| acc | shape_bits(x) | stride_bits(y));
    (a_bits | b_bits) < SMALL_LEAF
}

/// A shape's bits for [`small_values`]: the shape itself (a layout's
/// shapes are positive; anything else is a huge `u64`, so not small, and
/// the checked walk decides).
#[cfg_attr(not(debug_assertions), inline(always))]
fn shape_bits(s: i64) -> u64 {
    s as u64
}

/// A stride's bits for [`small_values`]: `d` when `d ≥ 0`, `-d - 1`
/// otherwise (two instructions, where `|d|` takes three), so that the
/// bitwise or of them is below `SMALL_LEAF` exactly when every stride is in
/// `-SMALL_LEAF..SMALL_LEAF`: a magnitude of at most 2^16, which the bound
/// above allows.
#[cfg_attr(not(debug_assertions), inline(always))]
fn stride_bits(d: i64) -> u64 {
    (d ^ (d >> 63)) as u64
}

/// The padded modes of one leaf, one slot per slot of `A`, and the
/// result's extent as they are written (the overflow check of `finish`).
struct PaddedOut<'a, const C: bool> {
    out: &'a mut [(i64, i64)],
    extent: &'a mut Option<i64>,
}

impl<const C: bool> LeafSink for PaddedOut<'_, C> {
    const PADDED: bool = true;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put(&mut self, slot: usize, ps: i64, pd: i64) -> Result<(), Fail> {
        *self.out.get_mut(slot).ok_or(TOO_MANY_MODES)? = (ps, pd);
        if C {
            // `|(ps-1)·pd|`, not `(ps-1)·|pd|`: a slot of size 1 may hold
            // the stride -2^63, which has no magnitude but reaches nothing.
            *self.extent = self.extent.and_then(|e| (ps - 1).checked_mul(pd)?.checked_abs()?.checked_add(e));
        }
        Ok(())
    }
}

/// Composes the prepared `A` with the leaf `s:d`: writes the padded modes
/// (one per slot of `A`) into `out`, by the kernel's rule
/// ([`kernel::compose_leaf`], CuTe's arithmetic for the padding, so that it
/// prints as CuTe's, and cute-dynamic's conditions).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn compose_leaf<const C: bool>(
    a: &Prepared,
    (s, d): (i64, i64),
    out: &mut [(i64, i64)],
    w: &mut DeferredChecks<C>,
) -> Result<(), Fail> {
    let (n, modes) = (a.n, a.modes.as_slice());
    let last_d = modes[n - 1].1;
    if C {
        w.b_hi = w.b_hi.saturating_add((s - 1).saturating_mul(d.max(0)));
        w.b_neg |= d < 0;
    }
    if d < 0 && n > 1 && s != 1 {
        // Over several modes: only on the cold retry (`full`), which
        // walks the kernel's odd extension and checks the signs.
        if !w.full {
            return Err(Fail::NegativeStride);
        }
        w.down = true;
        let mut sink = PaddedOut::<C> { out, extent: &mut w.extent };
        return kernel::compose_leaf::<C, _>(&modes[..n - 1], last_d, (s, d), &mut sink, 0, &mut w.reach).map(|_| ());
    }
    let mut sink = PaddedOut::<C> { out, extent: &mut w.extent };
    // The coalesced modes (not CuTe's) put a leaf of size 1 in the last
    // slot; a negative stride on one mode too (the only one taken).
    if d < 0 || (s == 1 && !a.cute) {
        for i in 0..n - 1 {
            sink.put(i, 1, 0)?;
        }
        let dd = if s == 1 { unit_stride(&modes[..n - 1], d, last_d) } else { compose_mul::<C>(d, last_d)? };
        return sink.put(n - 1, s, dd);
    }
    kernel::compose_leaf::<C, _>(&modes[..n - 1], last_d, (s, d), &mut sink, 0, &mut w.reach).map(|_| ())
}

/// The checks made once all leaves of `B` are composed.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn finish<const C: bool>(a: &Prepared, w: &DeferredChecks<C>) -> Result<(), Fail> {
    // The extent first, as cute-dynamic checks it (with each `B`, before
    // the distributivity of them all): where both fail, the same error.
    finish_extent(a, w)?;
    kernel::check_reach(&a.modes.as_slice()[..a.n - 1], &w.reach)
}

/// [`finish`] where `A`'s modes may coalesce (CuTe's): the distributivity
/// check counts the modes that coalesce as one
/// ([`kernel::check_reach_coalescing`]). The cold retry of the
/// composition: the hot path's check is the plain one, with `reach` in
/// registers.
#[cfg_attr(not(debug_assertions), inline(always))]
fn finish_coalescing<const C: bool>(a: &Prepared, w: &DeferredChecks<C>) -> Result<(), Fail> {
    finish_extent(a, w)?;
    kernel::check_reach_coalescing(&a.modes.as_slice()[..a.n], &w.reach)
}

/// The overflow check of the result's extent.
#[cfg_attr(not(debug_assertions), inline(always))]
fn finish_extent<const C: bool>(a: &Prepared, w: &DeferredChecks<C>) -> Result<(), Fail> {
    if C && (w.b_neg || w.b_hi >= a.size) && w.extent.is_none() {
        return Err(Fail::Overflow("layout extent"));
    }
    Ok(())
}

// ------------------------------------------------------- result structure

/// The result of composing the flat modes `Self` of `A` with one leaf of
/// `B` (shape `BS`, stride `BD`): with one flat mode, CuTe's `BS:(BD·D)`;
/// with more, a padded tuple of one [`Dyn`] mode per flat mode.
#[doc(hidden)]
pub trait LeafResult<BS, BD> {
    /// The shape of `A ∘ BS:BD`.
    type Shape: IntTuple;
    /// Its stride.
    type Stride: IntTuple;
    /// Builds them from the computed modes.
    fn build(v: &[(i64, i64)]) -> Result<(Self::Shape, Self::Stride), Fail>;
}
impl<S0, D0, BS: FromValue + IntTuple, BD: LeafMul<D0>> LeafResult<BS, BD> for MCons<S0, D0, MNil>
where
    <BD as LeafMul<D0>>::Output: FromValue + IntTuple,
{
    type Shape = BS;
    type Stride = <BD as LeafMul<D0>>::Output;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn build(v: &[(i64, i64)]) -> Result<(BS, Self::Stride), Fail> {
        Ok((BS::from_value(v[0].0), <Self::Stride as FromValue>::from_value(v[0].1)))
    }
}
// With more than one flat mode, CuTe's three forms of `A ∘ s:d`: a static
// stride 0 gives `s:_0` itself; a static extent 1 gives `_1:d'` (its fold
// drops every mode); otherwise one run-time mode per flat mode of `A`.
macro_rules! padded {
    (@dyn $X:ident) => { Dyn };
    (@list $S:ident $D:ident $($rest:ident)*) => { MCons<$S, $D, padded!(@list $($rest)*)> };
    (@list) => { MNil };
    (@last $i:tt) => { $i };
    (@last $i:tt $($rest:tt)+) => { padded!(@last $($rest)+) };
    // One mode is `LeafResult` for `MCons<_, _, MNil>` (above).
    ($i:tt $T:ident $S:ident $D:ident) => {};
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($S, $D,)+ BS: FromValue + IntTuple> LeafResult<BS, UTerm> for padded!(@list $($S $D)+) {
            type Shape = BS;
            type Stride = UTerm;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn build(v: &[(i64, i64)]) -> Result<(BS, UTerm), Fail> {
                Ok((BS::from_value(v[padded!(@last $($i)+)].0), UTerm))
            }
        }
        padded!(@one [$($S $D)+] [$($i)+] UInt<U2, B2>; U2, B2);
        padded!(@one [$($S $D)+] [$($i)+] Dyn;);
        padded!(@many [$($S $D)+] [$($i)+] Dyn; UInt<U2, B2>; U2, B2);
        padded!(@many [$($S $D)+] [$($i)+] Dyn; Dyn;);
        padded!(@many [$($S $D)+] [$($i)+] UInt<UInt<U, B>, B3>; UInt<U2, B2>; U, B, B3, U2, B2);
        padded!(@many [$($S $D)+] [$($i)+] UInt<UInt<U, B>, B3>; Dyn; U, B, B3);
    };
    (@one [$($S:ident $D:ident)+] [$($i:tt)+] $BD:ty; $($g:ident),*) => {
        impl<$($S, $D,)+ $($g),*> LeafResult<UInt<UTerm, B1>, $BD> for padded!(@list $($S $D)+) {
            type Shape = UInt<UTerm, B1>;
            type Stride = Dyn;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn build(v: &[(i64, i64)]) -> Result<(Self::Shape, Dyn), Fail> {
                Ok((UInt::new(), Dyn::new(v[padded!(@last $($i)+)].1)))
            }
        }
    };
    (@many [$($S:ident $D:ident)+] [$($i:tt)+] $BS:ty; $BD:ty; $($g:ident),*) => {
        impl<$($S, $D,)+ $($g),*> LeafResult<$BS, $BD> for padded!(@list $($S $D)+) {
            type Shape = ($(padded!(@dyn $S),)+);
            type Stride = ($(padded!(@dyn $D),)+);
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn build(v: &[(i64, i64)]) -> Result<(Self::Shape, Self::Stride), Fail> {
                Ok((($(Dyn::new(v[$i].0),)+), ($(Dyn::new(v[$i].1),)+)))
            }
        }
    };
}
for_each_tuple!(padded);

// ------------------------------------------- CuTe's form, as types

// CuTe's result keeps a mode or a leaf static exactly where its arithmetic
// met only static values, and drops a mode only where it knows statically
// that it is of size 1. The traits below follow `coalesce_x` and
// `composition_impl` (CuTe 4.2, layout.hpp) on the types of the leaves; the
// values still come from the kernel's padded walk (one slot per flat mode
// of `A`), and each static leaf of the type is checked against its value,
// each dropped mode against size 1 (a mismatch is an error, never a
// wrong layout: it can only come from the coalesced fallback, where CuTe
// is wrong anyway).

/// CuTe's `ceil_div` of two leaves and its divisibility, as types: one
/// list of impls for both, since each step of the fold needs both of the
/// same two leaves.
#[doc(hidden)]
pub trait LeafQuot<R> {
    /// `ceil_div(Self, R)`: static when both are.
    type CeilDiv;
    /// `B1` unless both leaves are static and `R` does not divide `Self`.
    type Divides: Truth;
}
/// CuTe's `ceil_div` on leaves: static when both are.
pub(crate) type LeafCeilDiv<L, R> = <L as LeafQuot<R>>::CeilDiv;
/// `B1` unless both leaves are static and `R` does not divide `L`.
pub(crate) type LeafDivides<L, R> = <L as LeafQuot<R>>::Divides;
// By the numerals' shapes where a side is 1 (the fold's rest stride is 1
// after its first appended mode), which costs the trait solver no
// division; otherwise by their order ([`ByOrder`]).
impl<U2, B2> LeafQuot<UInt<U2, B2>> for UInt<UTerm, B1>
where
    UInt<U2, B2>: KnownOne,
{
    type CeilDiv = UInt<UTerm, B1>;
    type Divides = IsOne<UInt<U2, B2>>;
}
impl<U, B3, B> LeafQuot<UInt<UTerm, B1>> for UInt<UInt<U, B3>, B> {
    type CeilDiv = Self;
    type Divides = B1;
}
impl<U, B3, B, U2, B4, B2> LeafQuot<UInt<UInt<U2, B4>, B2>> for UInt<UInt<U, B3>, B>
where
    Self: Cmp<UInt<UInt<U2, B4>, B2>> + ByOrder<UInt<UInt<U2, B4>, B2>, Compare<Self, UInt<UInt<U2, B4>, B2>>>,
{
    type CeilDiv = <Self as ByOrder<UInt<UInt<U2, B4>, B2>, Compare<Self, UInt<UInt<U2, B4>, B2>>>>::CeilDiv;
    type Divides = <Self as ByOrder<UInt<UInt<U2, B4>, B2>, Compare<Self, UInt<UInt<U2, B4>, B2>>>>::Divides;
}
/// `ceil_div(Self, R)` and whether `R` divides `Self`, for numbers of at
/// least 2, by their order `O`: only `Self > R` takes a long division (a
/// comparison walks the numerals once, a division once per bit), so each
/// step of the fold, which needs both `s / d` and `d / s`, divides once.
///
/// `ceil_div` is the quotient plus 1 where the remainder is not 0: typenum
/// computes the quotient and the remainder of the same two numbers in one
/// long division (the trait solver caches it).
#[doc(hidden)]
pub trait ByOrder<R, O> {
    /// `ceil_div(Self, R)`.
    type CeilDiv;
    /// `B1` where `R` divides `Self`.
    type Divides: Truth;
}
impl<A, R> ByOrder<R, Less> for A {
    type CeilDiv = UInt<UTerm, B1>;
    type Divides = B0;
}
impl<A, R> ByOrder<R, Equal> for A {
    type CeilDiv = UInt<UTerm, B1>;
    type Divides = B1;
}
impl<A, R> ByOrder<R, Greater> for A
where
    A: Div<R> + Rem<R>,
    Mod<A, R>: KnownZero<Output: Truth>,
    IsZero<Mod<A, R>>: Not,
    Quot<A, R>: Add<<IsZero<Mod<A, R>> as Not>::Output>,
{
    type CeilDiv = Sum<Quot<A, R>, <IsZero<Mod<A, R>> as Not>::Output>;
    type Divides = IsZero<Mod<A, R>>;
}
impl<U, B> LeafQuot<UInt<U, B>> for UTerm {
    type CeilDiv = UTerm;
    type Divides = B1;
}
// A run-time quotient, its divisibility checked on the values, where a leaf
// is run-time; and where the divisor is a static 0, which the fold's stride
// never is (CuTe returns a leaf of stride `_0` before its fold, see
// [`CuteLeafBy`]): those only complete the bounds of [`CuteSteps`].
macro_rules! run_time_quot {
    ($([$($g:ident),*] $L:ty, $R:ty;)+) => {$(
        impl<$($g),*> LeafQuot<$R> for $L {
            type CeilDiv = Dyn;
            type Divides = B1;
        }
    )+};
}
run_time_quot! {
    [U, B] UInt<U, B>, Dyn;
    [] UTerm, Dyn;
    [R] Dyn, R;
    [U, B] UInt<U, B>, UTerm;
    [] UTerm, UTerm;
}

/// `B1` when both leaves of a mode are static.
#[doc(hidden)]
pub trait ModeStatic {
    /// `B1` or `B0`.
    type Output: Truth;
}
impl<S: AllStatic, D: AllStatic> ModeStatic for (S, D) {
    type Output = <S::Bit as Truth>::And<D::Bit>;
}

/// The flat modes `Self` as CuTe's `coalesce_x` leaves them (and as
/// [`Prepared::as_cute`] computes them): a mode of static extent 1 dropped
/// (but the last), two modes merged where `s₀·d₀ = d₁` holds statically.
/// The last mode's shape is CuTe's `_2` where it is a static 1 (only its
/// stride matters to the composition).
#[doc(hidden)]
pub trait CuteModes {
    /// The coalesced modes.
    type Output;
}
// One impl for a list, the tail's trait deciding: with a leaf type still
// unknown (an integer literal's), the solver then waits on the tail instead
// of trying lists of every length.
impl<S, D, T: CoTail<S, D>> CuteModes for MCons<S, D, T> {
    type Output = T::Output;
}
/// [`CuteModes`] of `S:D` before the modes `Self`.
#[doc(hidden)]
pub trait CoTail<S, D> {
    /// The coalesced modes.
    type Output;
}
impl<S: KnownOne, D> CoTail<S, D> for MNil
where
    (S, IsOne<S>): LastShape,
{
    type Output = MCons<<(S, IsOne<S>) as LastShape>::Output, D, MNil>;
}
impl<S: KnownOne, D, S2, D2, T> CoTail<S, D> for MCons<S2, D2, T>
where
    MCons<S2, D2, T>: CuteModes,
    <MCons<S2, D2, T> as CuteModes>::Output: CoStep<S, D, IsOne<S>>,
{
    type Output = <<MCons<S2, D2, T> as CuteModes>::Output as CoStep<S, D, IsOne<S>>>::Output;
}
/// The last mode's shape in `coalesce_x`: `_2` for a static 1.
#[doc(hidden)]
pub trait LastShape {
    /// The shape.
    type Output;
}
impl<S> LastShape for (S, B0) {
    type Output = S;
}
impl<S> LastShape for (S, B1) {
    type Output = typenum::U2;
}
/// One step of `bw_coalesce`: the mode `S:D` before the coalesced modes
/// `Self`; `One` is `B1` when `S` is a static 1 (dropped).
#[doc(hidden)]
pub trait CoStep<S, D, One> {
    /// The coalesced modes with `S:D`.
    type Output;
}
impl<S, D, L> CoStep<S, D, B1> for L {
    type Output = L;
}
impl<S, D, FS, FD, FT> CoStep<S, D, B0> for MCons<FS, FD, FT>
where
    (S, D): ModeStatic,
    (FS, FD): ModeStatic,
    S: LeafMul<D>,
    <S as LeafMul<D>>::Output: KnownEq<FD>,
    MCons<FS, FD, FT>: CoMerge<S, D, MergeBit<S, D, FS, FD>>,
{
    type Output = <MCons<FS, FD, FT> as CoMerge<S, D, MergeBit<S, D, FS, FD>>>::Output;
}
/// Whether `S:D` merges into the front mode `FS:FD`: all four static and
/// `S·D = FD`.
type MergeBit<S, D, FS, FD> =
    <<<(S, D) as ModeStatic>::Output as Truth>::And<<(FS, FD) as ModeStatic>::Output> as Truth>::And<
        <<S as LeafMul<D>>::Output as KnownEq<FD>>::Output,
    >;
/// `S:D` merged into the front mode (`B1`) or put before it (`B0`).
#[doc(hidden)]
pub trait CoMerge<S, D, Merge> {
    /// The coalesced modes.
    type Output;
}
impl<S, D, FS, FD, FT> CoMerge<S, D, B0> for MCons<FS, FD, FT> {
    type Output = MCons<S, D, MCons<FS, FD, FT>>;
}
impl<S: LeafMul<FS>, D, FS, FD, FT> CoMerge<S, D, B1> for MCons<FS, FD, FT> {
    type Output = MCons<<S as LeafMul<FS>>::Output, D, FT>;
}

/// The modes of `A ∘ s:d` (`RS:RD` the leaf of `B`) for CuTe's coalesced
/// modes `Self` of `A`, as a type list (`Out`), and the slots of the
/// kernel's padded walk they are read from (`KEEP`). The values are read
/// by one function per list type ([`build_form`]), not by a function per
/// step of the fold: the fold is types and constants only.
#[doc(hidden)]
pub trait CuteLeaf<RS, RD> {
    /// `B1` unless a static step of the fold is not cute-dynamic's (see
    /// [`CuteSteps::Safe`]): then the leaf keeps the padded form.
    type Safe: Truth;
    /// The modes, as a type list.
    type Out: ListLayout;
    /// The slots they are read from.
    const KEEP: Keep;
}
/// [`CuteLeaf`] by branch: `Zero` is `B1` for a static stride 0 (CuTe
/// returns `s:_0` itself).
#[doc(hidden)]
pub trait CuteLeafBy<RS, RD, Zero> {
    /// As [`CuteLeaf::Safe`].
    type Safe: Truth;
    /// The modes, as a type list.
    type Out: ListLayout;
    /// The slots they are read from.
    const KEEP: Keep;
}
impl<L: CuteLeafBy<RS, RD, IsZero<RD>>, RS, RD: KnownZero> CuteLeaf<RS, RD> for L {
    type Safe = L::Safe;
    type Out = L::Out;
    const KEEP: Keep = L::KEEP;
}
// The walk leaves a stride-0 leaf in the last slot, every other `1:0`.
impl<L, RS: FromValue + IntTuple> CuteLeafBy<RS, UTerm, B1> for L {
    type Safe = B1;
    type Out = VLeaf<RS, UTerm>;
    const KEEP: Keep = Keep::LAST;
}
impl<S0, D0, T: LeafTail<S0, D0, RS, RD>, RS, RD> CuteLeafBy<RS, RD, B0> for MCons<S0, D0, T> {
    type Safe = T::Safe;
    type Out = T::Out;
    const KEEP: Keep = T::KEEP;
}
/// [`CuteLeafBy`] of the modes `S0:D0` then `Self`, by the tail.
#[doc(hidden)]
pub trait LeafTail<S0, D0, RS, RD> {
    /// As [`CuteLeaf::Safe`].
    type Safe: Truth;
    /// The modes, as a type list.
    type Out: ListLayout;
    /// The slots they are read from.
    const KEEP: Keep;
}
// One coalesced mode: CuTe's `s:(d·D)` (its integral-shape case).
impl<S0, D0, RS: FromValue + IntTuple, RD: LeafMul<D0>> LeafTail<S0, D0, RS, RD> for MNil
where
    <RD as LeafMul<D0>>::Output: FromValue + IntTuple,
{
    type Safe = B1;
    type Out = VLeaf<RS, <RD as LeafMul<D0>>::Output>;
    const KEEP: Keep = Keep::LAST;
}
impl<S0, D0, S1, D1, T, RS, RD> LeafTail<S0, D0, RS, RD> for MCons<S1, D1, T>
where
    MCons<S0, D0, MCons<S1, D1, T>>: CuteSteps<RS, RD, B0>,
    <MCons<S0, D0, MCons<S1, D1, T>> as CuteSteps<RS, RD, B0>>::Out: ListLayout,
{
    type Safe = <MCons<S0, D0, MCons<S1, D1, T>> as CuteSteps<RS, RD, B0>>::Safe;
    type Out = <MCons<S0, D0, MCons<S1, D1, T>> as CuteSteps<RS, RD, B0>>::Out;
    const KEEP: Keep = <MCons<S0, D0, MCons<S1, D1, T>> as CuteSteps<RS, RD, B0>>::KEEP;
}

/// The failure of a value that does not fit CuTe's form (a static leaf of
/// another value, a dropped mode not of size 1): only the coalesced
/// fallback meets it, and [`TryCompose`] then returns the error of CuTe's
/// modes instead.
pub(crate) const FORM: Fail = Fail::Room { limit: Some(0) };

/// The value of a static or run-time leaf, `Err` where a static leaf's
/// value differs.
#[cfg_attr(not(debug_assertions), inline(always))]
fn checked<T: FromValue>(v: i64) -> Result<T, Fail> {
    match T::STATIC {
        Some(s) if s as i64 != v => Err(FORM),
        _ => Ok(T::from_value(v)),
    }
}
/// A mode from its slot. A static stride of a mode of size 1 is taken as it
/// is (the coordinate is always 0): the coalesced fallback leaves such a
/// slot `1:0`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn mode<S: FromValue, D: FromValue>(m: (i64, i64)) -> Result<(S, D), Fail> {
    let d = if m.0 == 1 && D::STATIC.is_some() { D::STATIC.unwrap_or(0) as i64 } else { m.1 };
    Ok((checked(m.0)?, checked(d)?))
}

/// Which slots of the kernel's padded walk (one per flat mode of `A`)
/// CuTe's form reads its modes from, in order: bit `i` of `front` for slot
/// `i` (a mode CuTe's fold appends before its end), `last` for the last
/// slot (the end of the fold). Every other slot holds a mode CuTe drops,
/// which must be of size 1.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Keep {
    front: u32,
    last: bool,
}
impl Keep {
    /// The last slot only.
    const LAST: Keep = Keep { front: 0, last: true };
    /// A mode's slot (read or not) before the slots `self` of the modes
    /// after it.
    const fn after(self, read: bool) -> Keep {
        Keep { front: (self.front << 1) | read as u32, last: self.last }
    }
    /// Whether slot `i` of `n` is read.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn reads(self, i: usize, n: usize) -> bool {
        if i + 1 == n { self.last } else { self.front.checked_shr(i as u32).unwrap_or(0) & 1 == 1 }
    }
}

/// CuTe's form `O` of one leaf of `B` from the slots `v`: the slots `keep`
/// reads, in order, each static leaf of `O` checked against its value;
/// every other slot must be of size 1. [`FORM`] where they do not fit.
#[cfg_attr(not(debug_assertions), inline(always))]
fn build_form<O: ListLayout>(v: &[(i64, i64)], keep: Keep) -> Result<(O::Shape, O::Stride), Fail> {
    let (kept, n) = kept_slots(v, keep)?;
    O::from_slots(kept.get(..n).ok_or(FORM)?)
}

/// The slots of `v` that `keep` reads, in order, and their number; [`FORM`]
/// where another slot is not of size 1. (Apart from [`build_form`] so that
/// only the modes' reading is generated per form.)
#[cfg_attr(not(debug_assertions), inline(always))]
fn kept_slots(v: &[(i64, i64)], keep: Keep) -> Result<([(i64, i64); MAX_MODES], usize), Fail> {
    let mut kept = [(1i64, 0i64); MAX_MODES];
    let mut n = 0;
    for (i, &m) in v.iter().enumerate() {
        if keep.reads(i, v.len()) {
            *kept.get_mut(n).ok_or(FORM)? = m;
            n += 1;
        } else if m.0 != 1 {
            return Err(FORM);
        }
    }
    Ok((kept, n))
}

/// [`build_form`], or where the slots do not fit CuTe's form (the
/// coalesced fallback's modes, see [`fit`]), those modes placed in it.
#[cfg_attr(not(debug_assertions), inline(always))]
fn build_or_fit<O: ListLayout>(v: &[(i64, i64)], keep: Keep) -> Result<(O::Shape, O::Stride), Fail> {
    match build_form::<O>(v, keep) {
        Err(FORM) => fit_form::<O>(v, keep),
        r => r,
    }
}

/// The cold path of [`build_or_fit`]: the modes placed in the slots of the
/// form by [`fit`], and the form built from that placement.
#[cold]
#[inline(never)]
fn fit_form<O: ListLayout>(v: &[(i64, i64)], keep: Keep) -> Result<(O::Shape, O::Stride), Fail> {
    let slots = form_slots(O::SLOTS, keep, v.len())?;
    let placed = fit(v, slots.get(..v.len()).ok_or(FORM)?, &mut |w| build_form::<O>(w, keep).is_ok())?;
    build_form::<O>(placed.as_slice(), keep)
}

/// The slots of a form (what it takes in each of the `n` slots `keep`
/// reads, `form` in order, [`ONE`] elsewhere).
fn form_slots(form: &[Slot], keep: Keep, n: usize) -> Result<[Slot; MAX_MODES], Fail> {
    let mut slots = [ONE; MAX_MODES];
    let mut k = 0;
    for (i, s) in slots.get_mut(..n).ok_or(FORM)?.iter_mut().enumerate() {
        if keep.reads(i, n) {
            *s = *form.get(k).ok_or(FORM)?;
            k += 1;
        }
    }
    Ok(slots)
}

/// What CuTe's form takes in a slot: its static shape (`Some(1)` for a
/// mode CuTe drops) or `None` for a run-time one, and its static stride or
/// `None`. Read by [`fit`].
#[doc(hidden)]
pub type Slot = (Option<i64>, Option<i64>);
/// A slot of size 1 (a mode CuTe drops).
const ONE: Slot = (Some(1), None);
/// The slot of a mode `S:D`.
const fn slot<S: Leaf, D: Leaf>() -> Slot {
    (value(S::STATIC), value(D::STATIC))
}
/// A static leaf's value as an `i64`.
const fn value(x: Option<usize>) -> Option<i64> {
    match x {
        Some(x) => Some(x as i64),
        None => None,
    }
}

/// The modes of `A ∘ s:d` as a type list: the mode `S:D`, then `T`.
#[doc(hidden)]
pub struct VCons<S, D, T>(core::marker::PhantomData<(S, D, T)>);
/// The end of a type list.
#[doc(hidden)]
pub struct VNil;
/// A result of no appended mode: CuTe's leaf `s:d`.
#[doc(hidden)]
pub struct VLeaf<S, D>(core::marker::PhantomData<(S, D)>);

/// The fold of `composition_impl` over the coalesced modes `Self` from
/// slot `i`: `RS:RD` the rest of the leaf of `B`, `Any` whether a mode was
/// appended yet.
#[doc(hidden)]
pub trait CuteSteps<RS, RD, Any> {
    /// `B1` unless a step meets a static shape and a static stride of
    /// which neither divides the other, or appends a static shape that
    /// does not divide a static rest: CuTe then computes a static mode
    /// cute-dynamic does not (its stride or shape divisibility fails, and
    /// the coalesced fallback's values would not fit the static leaves).
    type Safe: Truth;
    /// The appended modes and the end, as a type list.
    type Out;
    /// The slots they are read from, bit 0 of `front` for this mode's.
    const KEEP: Keep;
}
impl<S, D, T: StepTail<S, D, RS, RD, Any>, RS, RD, Any> CuteSteps<RS, RD, Any> for MCons<S, D, T> {
    type Safe = T::Safe;
    type Out = T::Out;
    const KEEP: Keep = T::KEEP;
}
/// [`CuteSteps`] of the mode `S:D` then `Self`, by the tail (one impl for
/// a list: see [`CuteModes`]).
#[doc(hidden)]
pub trait StepTail<S, D, RS, RD, Any> {
    /// As [`CuteSteps::Safe`].
    type Safe: Truth;
    /// As [`CuteSteps::Out`].
    type Out;
    /// As [`CuteSteps::KEEP`].
    const KEEP: Keep;
}
// A mode before the last: skipped where the next shape or the rest is a
// static 1, else `min(next, rest) : rest_stride·d` appended.
impl<S, D, S2, D2, T, RS: KnownOne, RD, Any, Div1: Truth, Div2: Truth> StepTail<S, D, RS, RD, Any> for MCons<S2, D2, T>
where
    S: LeafQuot<RD, Divides = Div1>,
    RD: LeafQuot<S, Divides = Div2>,
    LeafCeilDiv<S, RD>: KnownOne,
    MCons<S, D, Self>: CuteStep<RS, RD, Any, <IsOne<LeafCeilDiv<S, RD>> as Truth>::Or<IsOne<RS>>>,
{
    type Safe = <<Div1 as Truth>::Or<Div2> as Truth>::And<
        <MCons<S, D, Self> as CuteStep<RS, RD, Any, <IsOne<LeafCeilDiv<S, RD>> as Truth>::Or<IsOne<RS>>>>::Safe,
    >;
    type Out = <MCons<S, D, Self> as CuteStep<RS, RD, Any, <IsOne<LeafCeilDiv<S, RD>> as Truth>::Or<IsOne<RS>>>>::Out;
    const KEEP: Keep =
        <MCons<S, D, Self> as CuteStep<RS, RD, Any, <IsOne<LeafCeilDiv<S, RD>> as Truth>::Or<IsOne<RS>>>>::KEEP;
}
/// One step of the fold by branch: `Skip` is `B1` where CuTe appends
/// nothing.
#[doc(hidden)]
pub trait CuteStep<RS, RD, Any, Skip> {
    /// As [`CuteSteps::Safe`].
    type Safe: Truth;
    /// As [`CuteSteps::Out`].
    type Out;
    /// As [`CuteSteps::KEEP`].
    const KEEP: Keep;
}
impl<S, D, T, RS, RD, Any> CuteStep<RS, RD, Any, B1> for MCons<S, D, T>
where
    RD: LeafQuot<S>,
    T: CuteSteps<RS, LeafCeilDiv<RD, S>, Any>,
{
    type Safe = T::Safe;
    type Out = T::Out;
    const KEEP: Keep = T::KEEP.after(false);
}
impl<S, D, T, RS, RD, Any> CuteStep<RS, RD, Any, B0> for MCons<S, D, T>
where
    S: LeafQuot<RD>,
    RD: LeafQuot<S> + LeafMul<D>,
    LeafCeilDiv<S, RD>: LeafMin<RS>,
    // The rest `RS / Next`: exact wherever the leaf is safe (`Next`
    // divides `RS`), so taken as `ceil_div`, which shares its division
    // with that check.
    RS: LeafQuot<Next<S, RD, RS>>,
    T: CuteSteps<LeafCeilDiv<RS, Next<S, RD, RS>>, LeafCeilDiv<RD, S>, B1>,
{
    // An appended mode: CuTe's shape divisibility, where static, too.
    type Safe = <LeafDivides<RS, Next<S, RD, RS>> as Truth>::And<T::Safe>;
    type Out = VCons<Next<S, RD, RS>, <RD as LeafMul<D>>::Output, T::Out>;
    const KEEP: Keep = T::KEEP.after(true);
}
/// The appended shape: `min(ceil_div(s, rest_stride), rest_shape)`.
type Next<S, RD, RS> = <LeafCeilDiv<S, RD> as LeafMin<RS>>::Output;
// The last mode (the slots between, the coalesced fallback's or `1:0`, are
// of size 1): the leaf `RS:(RD·D)` alone where nothing was appended,
// dropped where `RS` is a static 1, appended otherwise.
impl<S, D, RS: KnownOne, RD: LeafMul<D>, Any> StepTail<S, D, RS, RD, Any> for MNil
where
    MNil: CuteEnd<RS, <RD as LeafMul<D>>::Output, Any, IsOne<RS>>,
{
    type Safe = B1;
    type Out = <MNil as CuteEnd<RS, <RD as LeafMul<D>>::Output, Any, IsOne<RS>>>::Out;
    const KEEP: Keep = Keep { front: 0, last: <MNil as CuteEnd<RS, <RD as LeafMul<D>>::Output, Any, IsOne<RS>>>::LAST };
}
/// The end of the fold by branch (`Any`, `One`: whether a mode was
/// appended, whether the rest is a static 1).
#[doc(hidden)]
pub trait CuteEnd<RS, RD, Any, One> {
    /// As [`CuteSteps::Out`].
    type Out;
    /// Whether the last slot is read.
    const LAST: bool;
}
impl<L, RS, RD, One> CuteEnd<RS, RD, B0, One> for L {
    type Out = VLeaf<RS, RD>;
    const LAST: bool = true;
}
impl<L, RS, RD> CuteEnd<RS, RD, B1, B1> for L {
    type Out = VNil;
    const LAST: bool = false;
}
impl<L, RS, RD> CuteEnd<RS, RD, B1, B0> for L {
    type Out = VCons<RS, RD, VNil>;
    const LAST: bool = true;
}

/// A type list as a layout's shape and stride: a leaf alone, one mode
/// unwrapped (CuTe's `unwrap`), more a tuple.
#[doc(hidden)]
pub trait ListLayout {
    /// The shape.
    type Shape: IntTuple;
    /// The stride.
    type Stride: IntTuple;
    /// What each mode takes (see [`Slot`]), in order.
    const SLOTS: &'static [Slot];
    /// The modes from their slots, in order ([`FORM`] where a static leaf
    /// has another value or the count differs).
    fn from_slots(v: &[(i64, i64)]) -> Result<(Self::Shape, Self::Stride), Fail>;
}
impl<S: IntTuple + FromValue, D: IntTuple + FromValue> ListLayout for VLeaf<S, D> {
    type Shape = S;
    type Stride = D;
    const SLOTS: &'static [Slot] = &[slot::<S, D>()];
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn from_slots(v: &[(i64, i64)]) -> Result<(S, D), Fail> {
        match v {
            [m] => mode(*m),
            _ => Err(FORM),
        }
    }
}
macro_rules! list_layout {
    (@list $S:ident $D:ident $($rest:ident)*) => { VCons<$S, $D, list_layout!(@list $($rest)*)> };
    (@list) => { VNil };
    ($i:tt $T:ident $S:ident $D:ident) => {
        impl<$S: IntTuple + FromValue, $D: IntTuple + FromValue> ListLayout for VCons<$S, $D, VNil> {
            type Shape = $S;
            type Stride = $D;
            const SLOTS: &'static [Slot] = &[slot::<$S, $D>()];
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn from_slots(v: &[(i64, i64)]) -> Result<($S, $D), Fail> {
                match v {
                    [m] => mode(*m),
                    _ => Err(FORM),
                }
            }
        }
    };
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($S: FromValue, $D: FromValue),+> ListLayout for list_layout!(@list $($S $D)+)
        where
            ($($S,)+): IntTuple,
            ($($D,)+): IntTuple,
        {
            type Shape = ($($S,)+);
            type Stride = ($($D,)+);
            const SLOTS: &'static [Slot] = &[$(slot::<$S, $D>()),+];
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[allow(non_snake_case)]
            fn from_slots(v: &[(i64, i64)]) -> Result<(Self::Shape, Self::Stride), Fail> {
                let [$($T),+] = v else { return Err(FORM) };
                $(let ($S, $D) = mode::<$S, $D>(*$T)?;)+
                Ok((($($S,)+), ($($D,)+)))
            }
        }
    };
}
for_each_tuple!(list_layout);

/// `A`'s flat modes `FM` and CuTe's coalesced modes `CL` of them, marked
/// so that [`LeafResult`] builds CuTe's form of each leaf of `B`, or the
/// padded form of all run-time modes where a static step of CuTe's fold
/// is not cute-dynamic's (see [`CuteSteps::Safe`]).
#[doc(hidden)]
pub struct Cute<CL, FM>(core::marker::PhantomData<(CL, FM)>);
// CuTe's form wherever CuTe's static steps are cute-dynamic's
// ([`CuteLeaf::Safe`]). Where CuTe's modes fail a run-time condition that the
// coalesced modes meet, the fallback's values are moved into CuTe's form
// ([`fit`]).
impl<CL: CuteLeaf<BS, BD>, FM, BS, BD> LeafResult<BS, BD> for Cute<CL, FM>
where
    Self: PickForm<BS, BD, CuteSafe<CL, BS, BD>>,
{
    type Shape = <Self as PickForm<BS, BD, CuteSafe<CL, BS, BD>>>::Shape;
    type Stride = <Self as PickForm<BS, BD, CuteSafe<CL, BS, BD>>>::Stride;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn build(v: &[(i64, i64)]) -> Result<(Self::Shape, Self::Stride), Fail> {
        <Self as PickForm<BS, BD, CuteSafe<CL, BS, BD>>>::build(v)
    }
}
/// Whether the leaf `BS:BD` takes CuTe's form.
type CuteSafe<CL, BS, BD> = <CL as CuteLeaf<BS, BD>>::Safe;
/// [`LeafResult`] of [`Cute`] by branch: `B1` CuTe's form, `B0` the padded
/// one.
#[doc(hidden)]
pub trait PickForm<BS, BD, Safe> {
    /// The shape.
    type Shape: IntTuple;
    /// The stride.
    type Stride: IntTuple;
    /// The modes from the slots.
    fn build(v: &[(i64, i64)]) -> Result<(Self::Shape, Self::Stride), Fail>;
}
impl<CL: CuteLeaf<BS, BD>, FM, BS, BD> PickForm<BS, BD, B1> for Cute<CL, FM> {
    type Shape = <CL::Out as ListLayout>::Shape;
    type Stride = <CL::Out as ListLayout>::Stride;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn build(v: &[(i64, i64)]) -> Result<(Self::Shape, Self::Stride), Fail> {
        build_or_fit::<CL::Out>(v, CL::KEEP)
    }
}

/// The leaf's modes `v` (the coalesced fallback's slots, which do not fit
/// CuTe's form) placed in the slots of CuTe's form (`slots`, see [`Slot`])
/// so that `accept` takes them: the modes of size above 1 in their order, a
/// mode split where a slot's static shape takes a part of it
/// (`s:d = (S, s/S):(d, S·d)`), every other slot `1:0`. The same function on
/// the leaf's domain (modes of size 1 add nothing, a split mode is the
/// same function), in CuTe's type. Returns the placement, [`FORM`] if none
/// fits.
///
/// Where CuTe's modes of `A` fail a run-time condition and the coalesced
/// modes do not (modes that merge at run time), CuTe's form can still hold
/// the answer: `(6,8):({1},6) ∘ {4}:2` is `(4,1):(2,_6)` (cute-dynamic's
/// `4:2`), where CuTe's fold fails to place 4 elements in a mode of 3.
/// Each slot of run-time shape takes the next mode or nothing (at most
/// `2^16` placements tried, in this cold path only).
#[cold]
#[inline(never)]
fn fit(v: &[(i64, i64)], slots: &[Slot], accept: &mut Accept<'_>) -> Result<Buf<(i64, i64), MAX_MODES>, Fail> {
    let mut modes = Buf::<(i64, i64), MAX_MODES>::new();
    for &m in v.iter().filter(|m| m.0 != 1) {
        if !modes.push(m) {
            return Err(FORM);
        }
    }
    let mut placed = Buf::<(i64, i64), MAX_MODES>::new();
    let out = placed.extend_with(v.len(), (1, 0)).ok_or(FORM)?;
    let mut fit = Fit { slots, out, accept };
    if fit.place(None, modes.as_slice(), 0) { Ok(placed) } else { Err(FORM) }
}

/// What [`fit`] tries each placement with: whether the form takes it.
/// (A callback, not a type parameter: the search is generated once, not
/// per form.)
type Accept<'a> = dyn FnMut(&[(i64, i64)]) -> bool + 'a;

/// The search of [`fit`]: `out` the slots placed so far.
struct Fit<'a> {
    slots: &'a [Slot],
    out: &'a mut [(i64, i64)],
    accept: &'a mut Accept<'a>,
}

impl Fit<'_> {
    /// The modes `part` (the rest of a split mode) then `rest` placed in
    /// the slots from `at` on (which are `1:0` on entry, and on return
    /// unless a placement was accepted: `out` is then that placement).
    fn place(&mut self, part: Option<(i64, i64)>, rest: &[(i64, i64)], at: usize) -> bool {
        let (cur, rest) = match part {
            Some(p) => (Some(p), rest),
            None => match rest.split_first() {
                Some((&m, rest)) => (Some(m), rest),
                None => (None, rest),
            },
        };
        let Some((s, d)) = cur else {
            // Every mode placed: the other slots are of size 1.
            return (self.accept)(self.out);
        };
        let Some(&(shape, stride)) = self.slots.get(at) else { return false };
        if self.slots.len() - at < 1 + rest.len() {
            return false;
        }
        let takes = |d: i64| stride.is_none_or(|x| x == d);
        match shape {
            // A mode CuTe drops: size 1.
            Some(1) => self.place(Some((s, d)), rest, at + 1),
            // A static shape: that part of the mode.
            Some(n) => {
                if n < 1 || s % n != 0 || !takes(d) {
                    return false;
                }
                self.out[at] = (n, d);
                let found = if s == n {
                    self.place(None, rest, at + 1)
                } else {
                    d.checked_mul(n).is_some_and(|dn| self.place(Some((s / n, dn)), rest, at + 1))
                };
                if !found {
                    self.out[at] = (1, 0);
                }
                found
            }
            // A run-time shape: the whole mode, or nothing.
            None => {
                if takes(d) {
                    self.out[at] = (s, d);
                    if self.place(None, rest, at + 1) {
                        return true;
                    }
                    self.out[at] = (1, 0);
                }
                self.place(Some((s, d)), rest, at + 1)
            }
        }
    }
}
impl<CL, FM: LeafResult<BS, BD>, BS, BD> PickForm<BS, BD, B0> for Cute<CL, FM> {
    type Shape = FM::Shape;
    type Stride = FM::Stride;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn build(v: &[(i64, i64)]) -> Result<(Self::Shape, Self::Stride), Fail> {
        FM::build(v)
    }
}

/// CuTe's coalesced modes and the flat modes of the layout `AS:AD`, marked.
#[doc(hidden)]
pub type CuteOf<AS, AD> = Cute<<FlatModes<AS, AD> as CuteModes>::Output, FlatModes<AS, AD>>;

/// The tree of `B` (`Self` its shape, `BD` its stride) composed leaf by leaf
/// with `A`, whose flat modes are the type list `AL`.
#[doc(hidden)]
pub trait MixedTree<AL, BD> {
    /// The result's shape.
    type Shape: IntTuple;
    /// The result's stride.
    type Stride: IntTuple;
    /// Composes every leaf with the prepared `A`.
    fn compose<const C: bool>(
        &self,
        d: &BD,
        a: &Prepared,
        w: &mut DeferredChecks<C>,
    ) -> Result<(Self::Shape, Self::Stride), Fail>;
    /// The bitwise or of the magnitudes of every shape and stride leaf.
    fn magnitudes(&self, d: &BD) -> u64;
    /// Whether a leaf moves up: a shape above 1 with a positive stride.
    fn moves_up(&self, d: &BD) -> bool;
}
macro_rules! mixed_tree_leaf {
    ($($g:ident),* ; $T:ty) => {
        impl<$($g,)* AL: LeafResult<$T, BD>, BD: Leaf> MixedTree<AL, BD> for $T where $T: Leaf {
            type Shape = <AL as LeafResult<$T, BD>>::Shape;
            type Stride = <AL as LeafResult<$T, BD>>::Stride;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn compose<const C: bool>(&self, d: &BD, a: &Prepared, w: &mut DeferredChecks<C>) -> Result<(Self::Shape, Self::Stride), Fail> {
                let mut buf = Buf::<_, MAX_MODES>::new();
                let out = buf.extend_with(a.n, (1i64, 0i64)).ok_or(TOO_MANY_MODES)?;
                compose_leaf(a, (self.signed(), d.signed()), out, w)?;
                AL::build(out)
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn magnitudes(&self, d: &BD) -> u64 {
                shape_bits(self.signed()) | stride_bits(d.signed())
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn moves_up(&self, d: &BD) -> bool {
                self.signed() > 1 && d.signed() > 0
            }
        }
    };
}
mixed_tree_leaf!(U, B; UInt<U, B>);
mixed_tree_leaf!(; Dyn);
macro_rules! mixed_tree_tuple {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<AL, $($S: MixedTree<AL, $D>, $D,)+> MixedTree<AL, ($($D,)+)> for ($($S,)+)
        where
            ($($S,)+): IntTuple,
            ($(<$S as MixedTree<AL, $D>>::Shape,)+): IntTuple,
            ($(<$S as MixedTree<AL, $D>>::Stride,)+): IntTuple,
        {
            type Shape = ($(<$S as MixedTree<AL, $D>>::Shape,)+);
            type Stride = ($(<$S as MixedTree<AL, $D>>::Stride,)+);
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[allow(non_snake_case)]
            fn compose<const C: bool>(&self, d: &($($D,)+), a: &Prepared, w: &mut DeferredChecks<C>) -> Result<(Self::Shape, Self::Stride), Fail> {
                $(let $S = self.$i.compose(&d.$i, a, w)?;)+
                Ok((($($S.0,)+), ($($S.1,)+)))
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn magnitudes(&self, d: &($($D,)+)) -> u64 {
                0 $(| self.$i.magnitudes(&d.$i))+
            }
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn moves_up(&self, d: &($($D,)+)) -> bool {
                false $(|| self.$i.moves_up(&d.$i))+
            }
        }
    };
}
for_each_tuple!(mixed_tree_tuple);

/// A composition trait whose leaves take their results from the modes
/// `$modes` of `A` (one list of the two traits below).
macro_rules! try_compose_by {
    ($(#[$doc:meta])* $name:ident, $method:ident, $modes:ident) => {
        $(#[$doc])*
        #[doc(hidden)]
        pub trait $name<B> {
            /// The composition's type.
            type Output;
            /// `Self ∘ b`, or the error cute-dynamic's `composition` gives.
            fn $method(&self, b: &B) -> Result<Self::Output, cute_dynamic::LayoutError>;
        }
        impl<AS, AD, BS, BD> $name<Layout<BS, BD>> for Layout<AS, AD>
        where
            AS: FlattenInto<AD, MNil> + FlatValues + crate::Congruent<AD>,
            AD: FlatValues,
            BS: MixedTree<$modes<AS, AD>, BD> + crate::Congruent<BD>,
            BD: IntTuple,
        {
            type Output = Layout<<BS as MixedTree<$modes<AS, AD>, BD>>::Shape, <BS as MixedTree<$modes<AS, AD>, BD>>::Stride>;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn $method(&self, b: &Layout<BS, BD>) -> Result<Self::Output, cute_dynamic::LayoutError> {
                compose_as::<$modes<AS, AD>, _, _, _, _>(self, b).map_err(|f| composition_error(f, self, b))
            }
        }
    };
}
try_compose_by! {
    /// Composition `Self ∘ B` of a layout with a run-time leaf (in either
    /// argument) with a layout `B`, checked when it runs: the run-time path of
    /// [`composition`](crate::composition) and
    /// [`try_composition`](crate::try_composition) (generic code that calls
    /// them bounds by [`Compose`](crate::Compose) and
    /// [`ComposeValue`](crate::ComposeValue)).
    ///
    /// Post-conditions, as for cute-dynamic's `composition`: the result's shape
    /// is `B`'s with each leaf replaced by its padded modes, and
    /// `R(i) = A(B(i))` for every `i` in `B`'s domain; `to_dynamic()` of the
    /// result, coalesced, equals cute-dynamic's coalesced answer.
    TryCompose, try_compose, FlatModes
}

/// Composition `Self ∘ B` with a run-time leaf, in CuTe's form: as
/// [`TryCompose`] (the same values and checks), but the result's type is
/// CuTe's to the leaf: a mode CuTe drops statically dropped, a leaf CuTe
/// keeps static static (`(_6,_4):(_1,_6) ∘ {12}:{1}` is `12:1`, not
/// `(1,12):(0,1)`). The run-time path of [`composition`](crate::composition).
/// (The divides compose their `(B, B*)` by it too; the products their grid
/// `A* ∘ B` by [`TryComposeCoalesced`].)
#[doc(hidden)]
pub trait TryComposeCute<B> {
    /// The composition's type.
    type Output;
    /// `Self ∘ b`, or the error cute-dynamic's `composition` gives.
    fn try_compose_cute(&self, b: &B) -> Result<Self::Output, cute_dynamic::LayoutError>;
    /// `Self ∘ b`, panicking with that error's message (what
    /// [`composition`](crate::composition) runs).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn compose_cute(&self, b: &B) -> Self::Output {
        match self.try_compose_cute(b) {
            Ok(r) => r,
            Err(e) => fail(e),
        }
    }
}

impl<AS, AD, BS, BD> TryComposeCute<Layout<BS, BD>> for Layout<AS, AD>
where
    AS: FlattenInto<AD, MNil> + FlatValues + crate::Congruent<AD>,
    AD: FlatValues,
    FlatModes<AS, AD>: CuteModes,
    BS: MixedTree<CuteOf<AS, AD>, BD> + crate::Congruent<BD>,
    BD: IntTuple,
{
    type Output = Layout<<BS as MixedTree<CuteOf<AS, AD>, BD>>::Shape, <BS as MixedTree<CuteOf<AS, AD>, BD>>::Stride>;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_compose_cute(&self, b: &Layout<BS, BD>) -> Result<Self::Output, cute_dynamic::LayoutError> {
        compose_as::<CuteOf<AS, AD>, _, _, _, _>(self, b).map_err(|f| composition_error(f, self, b))
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn compose_cute(&self, b: &Layout<BS, BD>) -> Self::Output {
        // The hot path's result straight out (not through a `Result` of
        // the other error type: a copy of every leaf).
        match compose_cute_modes::<CuteOf<AS, AD>, _, _, _, _>(self, b) {
            Ok(r) => r,
            Err(f) => match compose_coalesced::<CuteOf<AS, AD>, _, _, _, _>(self, b, f) {
                Ok(r) => r,
                Err(f) => fail(composition_error(f, self, b)),
            },
        }
    }
}

try_compose_by! {
    /// Composition `Self ∘ B` in CuTe's form for a `Self` that CuTe's
    /// `coalesce_x` leaves as it is: [`TryComposeCute`] without the pass that
    /// coalesces `Self`'s modes as types ([`CuteModes`]), which would return
    /// them unchanged. The products compose their grid `A* ∘ B` by it: `A*`
    /// is a complement, whose modes never merge statically (two kept modes
    /// `d/c : c` then `d'/c' : c'` would merge where `d = c'`, but `c'` is `d`
    /// times the shapes of the modes of `A` from the first one's on, each at
    /// least 2 where static, since CuTe's `filter` drops the modes of size 1),
    /// whose modes of static size 1 are dropped (but the last), and whose last
    /// mode is of run-time size.
    TryComposeCoalesced, try_compose_coalesced, CoalescedOf
}

/// `A`'s flat modes as their own coalesced modes.
type CoalescedOf<AS, AD> = Cute<FlatModes<AS, AD>, FlatModes<AS, AD>>;

/// `A ∘ B` with the leaves' results `AL`, or the failure (the compositions
/// name it with their operands, [`composition_error`]; the divides with
/// theirs).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn compose_as<AL, AS, AD, BS, BD>(
    a: &Layout<AS, AD>,
    b: &Layout<BS, BD>,
) -> Result<Layout<BS::Shape, BS::Stride>, Fail>
where
    AS: FlatValues + crate::Congruent<AD>,
    AD: FlatValues,
    BS: MixedTree<AL, BD> + crate::Congruent<BD>,
    BD: IntTuple,
{
    // CuTe's padded form where CuTe's modes compose (the same function:
    // every condition is checked on them); where they do not (CuTe
    // assumes divisibility it cannot check), the coalesced modes, out of
    // line.
    match compose_cute_modes::<AL, _, _, _, _>(a, b) {
        Ok(r) => Ok(r),
        Err(f) => compose_coalesced::<AL, _, _, _, _>(a, b, f),
    }
}

/// `A ∘ B` on CuTe's modes of `A` (the hot path of [`compose_as`]).
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_cute_modes<AL, AS, AD, BS, BD>(
    a: &Layout<AS, AD>,
    b: &Layout<BS, BD>,
) -> Result<Layout<BS::Shape, BS::Stride>, Fail>
where
    AS: FlatValues + crate::Congruent<AD>,
    AD: FlatValues,
    BS: MixedTree<AL, BD> + crate::Congruent<BD>,
    BD: IntTuple,
{
    Prepared::as_cute(&a.shape(), &a.stride())
        .ok_or(TOO_MANY_MODES)
        .and_then(|p| compose_layouts::<false, AL, _, _>(&p, b))
}

/// `A ∘ B` on `A`'s prepared modes, values known small or not; `FULL`:
/// the cold retry's rules (the distributivity check of modes that may
/// coalesce, a leaf moving down over several modes).
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_layouts<const FULL: bool, AL, BS: MixedTree<AL, BD> + crate::Congruent<BD>, BD: IntTuple>(
    a: &Prepared,
    b: &Layout<BS, BD>,
) -> Result<Layout<BS::Shape, BS::Stride>, Fail> {
    let (s, d) = if small_values(a, b.shape().magnitudes(&b.stride())) {
        compose_all::<false, FULL, AL, _, _>(a, &b.shape(), &b.stride())?
    } else {
        compose_all::<true, FULL, AL, _, _>(a, &b.shape(), &b.stride())?
    };
    Ok(Layout::from_checked(s, d))
}

/// The error of `composition(a, b)` for the failure `f` (cold: the text is
/// built only on failure).
#[cold]
#[inline(never)]
fn composition_error<AS: crate::Congruent<AD>, AD: IntTuple, BS: crate::Congruent<BD>, BD: IntTuple>(
    f: Fail,
    a: &Layout<AS, AD>,
    b: &Layout<BS, BD>,
) -> cute_dynamic::LayoutError {
    f.into_error(&|| format!("composition({}, {})", a.to_dynamic(), b.to_dynamic()))
}

/// `A ∘ B` on `A`'s coalesced modes, or the failure (the cold path of
/// [`TryCompose`]: out of line, so that the hot path keeps nothing for it;
/// the divides name their own operands in the error).
#[cold]
#[inline(never)]
fn compose_coalesced<AL, AS: FlatValues + crate::Congruent<AD>, AD: FlatValues, BS, BD: IntTuple>(
    a: &Layout<AS, AD>,
    b: &Layout<BS, BD>,
    cute: Fail,
) -> Result<Layout<BS::Shape, BS::Stride>, Fail>
where
    BS: MixedTree<AL, BD> + crate::Congruent<BD>,
{
    // CuTe's modes once more, with the check that lets a leaf's reach
    // carry between modes that coalesce (CuTe's modes are not coalesced).
    if let Some(r) =
        Prepared::as_cute(&a.shape(), &a.stride()).and_then(|p| compose_layouts::<true, AL, _, _>(&p, b).ok())
    {
        return Ok(r);
    }
    Prepared::of(&a.shape(), &a.stride())
        .ok_or(TOO_MANY_MODES)
        .and_then(|p| compose_layouts::<true, AL, _, _>(&p, b))
        // Values that do not fit CuTe's form: the failure on CuTe's modes.
        .map_err(|f: Fail| if f == FORM { cute } else { f })
}

/// The leaves of `B` (shape `s`, stride `d`) composed with the prepared
/// `A`, then the checks made once at the end.
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_all<const C: bool, const FULL: bool, AL, BS: MixedTree<AL, BD>, BD>(
    a: &Prepared,
    s: &BS,
    d: &BD,
) -> Result<(BS::Shape, BS::Stride), Fail> {
    let mut w = if FULL { DeferredChecks::<C>::new_full() } else { DeferredChecks::<C>::new() };
    let r = s.compose(d, a, &mut w)?;
    // Leaves that move down and up over several modes do not distribute
    // (kernel::check_signs; a leaf moved down only in that case). The
    // modes are the bounded ones of size above 1 (the padding's `1:0` is
    // not one) and the last, unbounded one; CuTe's modes that coalesce
    // count apart here, and the cold retry on the coalesced ones decides.
    if FULL && w.down && s.moves_up(d) {
        kernel::check_signs(a.moving_modes(), 3)?;
    }
    if FULL {
        finish_coalescing(a, &w)?;
    } else {
        finish(a, &w)?;
    }
    Ok(r)
}

/// `a ∘ b` (see [`composition`](crate::composition)), returning the failed
/// run-time condition as an error instead of panicking.
///
/// Takes the same arguments as [`composition`](crate::composition) (by
/// value: layouts are `Copy`) and returns the same type.
///
/// Post-conditions, on `Ok(r)`: those of `composition` (`r`'s shape is
/// compatible with `b`'s, `r(c) = a(b(c))` for every coordinate `c` of
/// `b`); with a run-time leaf, `r` is CuTe's padded form and
/// `coalesce(r.to_dynamic())` is cute-dynamic's `composition` of the same
/// values. `Err(e)`: `e` is the error cute-dynamic's `composition` gives for
/// the same values (stride or shape divisibility, distributivity,
/// overflow). All-static arguments: always `Ok` (an inadmissible
/// composition does not compile).
///
/// ```
/// use cute_static::prelude::*;
/// let (a, b) = (layout!(({10i64},{2i64}):({16i64},{4i64})), layout!(({5i64},{4i64}):({1i64},{5i64})));
/// assert_eq!(try_composition(a, b).unwrap().to_string(), "((5,1),(2,2)):((16,4),(80,4))");
/// let bad = layout!(({4i64},6,8):(2,3,{5i64}));
/// assert!(try_composition(bad, layout!({6i64}:{3i64})).is_err());
/// let s = try_composition(layout!((6,2):(8,2)), layout!((4,3):(3,1))).unwrap();
/// assert_eq!(s, composition(layout!((6,2):(8,2)), layout!((4,3):(3,1))));
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn try_composition<A, B>(a: A, b: B) -> Result<<A as crate::Compose<B>>::Output, cute_dynamic::LayoutError>
where
    A: crate::Compose<B>,
    <A as crate::Compose<B>>::Output: crate::ComposeValue<A, B>,
{
    <<A as crate::Compose<B>>::Output as crate::ComposeValue<A, B>>::try_make(a, b)
}

// ----------------------------------------------------------- dispatch

/// The mixed branch of [`TileCompose`](crate::detail::TileCompose): a
/// layout tile composed with a layout, one of them with a run-time leaf.
impl<A: TryComposeCute<Layout<BS, BD>>, BS, BD> crate::detail::TileComposeBy<A, B0> for Layout<BS, BD> {
    type Output = <A as TryComposeCute<Layout<BS, BD>>>::Output;
}

/// The mixed branch of [`ComposeValue`](crate::composition::ComposeValue): the
/// values computed and checked, a panic with the error's message.
impl<O, A: TryComposeCute<B, Output = O>, B> crate::detail::ComposeValueBy<A, B, B0> for O {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        a.compose_cute(&b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(a: A, b: B) -> Result<O, cute_dynamic::LayoutError> {
        a.try_compose_cute(&b)
    }
}

/// Panics with the error's message (cold, out of line).
#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn fail(e: cute_dynamic::LayoutError) -> ! {
    panic!("{e}")
}

// ------------------------------------------------------------ by a tiler

/// The shape and stride types of a layout type.
#[doc(hidden)]
pub trait LayoutParts {
    /// The shape.
    type S;
    /// The stride.
    type D;
    /// The shape and the stride.
    fn into_parts(self) -> (Self::S, Self::D);
}
impl<S: crate::Congruent<D>, D: IntTuple> LayoutParts for Layout<S, D> {
    type S = S;
    type D = D;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn into_parts(self) -> (S, D) {
        (self.shape(), self.stride())
    }
}

type ModeComposed<S, D, T> = <Layout<S, D> as crate::Compose<T>>::Output;

// Composition by a tiler `<T0, ..., Tk>` of a layout of rank n ≥ k with a
// run-time leaf: mode i composed with tile i (each by its own branch,
// static or run-time), the modes the tiler does not reach dropped (CuTe's
// `composition` of a layout and a tuple tiler).
macro_rules! try_compose_tiler {
    ([$($i:tt $T:ident $S:ident $D:ident),+] [$($j:tt $U:ident $RS:ident $RD:ident),*]) => {
        impl<$($T, $S: Copy + crate::Congruent<$D>, $D: Copy + IntTuple,)+ $($RS, $RD,)*>
            TryComposeCute<crate::Tiler<($($T,)+)>> for Layout<($($S,)+ $($RS,)*), ($($D,)+ $($RD,)*)>
        where
            ($($S,)+ $($RS,)*): Copy + crate::Congruent<($($D,)+ $($RD,)*)>,
            ($($D,)+ $($RD,)*): Copy + IntTuple,
            $(
                $T: Copy,
                Layout<$S, $D>: crate::Compose<$T>,
                ModeComposed<$S, $D, $T>: crate::ComposeValue<Layout<$S, $D>, $T> + LayoutParts,
                <ModeComposed<$S, $D, $T> as LayoutParts>::S: Copy + crate::Congruent<<ModeComposed<$S, $D, $T> as LayoutParts>::D>,
                <ModeComposed<$S, $D, $T> as LayoutParts>::D: Copy + IntTuple,
            )+
            ($(<ModeComposed<$S, $D, $T> as LayoutParts>::S,)+): crate::Congruent<($(<ModeComposed<$S, $D, $T> as LayoutParts>::D,)+)>,
            ($(<ModeComposed<$S, $D, $T> as LayoutParts>::D,)+): IntTuple,
        {
            type Output = Layout<
                ($(<ModeComposed<$S, $D, $T> as LayoutParts>::S,)+),
                ($(<ModeComposed<$S, $D, $T> as LayoutParts>::D,)+),
            >;
            #[inline]
            fn try_compose_cute(&self, b: &crate::Tiler<($($T,)+)>) -> Result<Self::Output, cute_dynamic::LayoutError> {
                let (s, d) = (self.shape(), self.stride());
                let r = ($(
                    <ModeComposed<$S, $D, $T> as crate::ComposeValue<Layout<$S, $D>, $T>>::try_make(
                        Layout::from_checked(s.$i, d.$i),
                        (b.0).$i,
                    )?,
                )+);
                let r = ($(r.$i.into_parts(),)+);
                Ok(Layout::from_checked(($((r.$i).0,)+), ($((r.$i).1,)+)))
            }
        }
    };
}
for_each_tuple!(split try_compose_tiler);
