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
use crate::int_tuple::known::LeafMul;
use crate::int_tuple::{Dyn, IntTuple, Leaf};
use crate::layout::Layout;
use cute_dynamic::kernel::{self, LeafSink, May, coalesce_push, unit_stride};
use typenum::{B0, B1, Bit, UInt, UTerm, Unsigned};

#[doc(hidden)]
pub use cute_dynamic::kernel::Fail;

// ------------------------------------------------------------------ leaves

/// A leaf made from its computed value: a static leaf is its type (the
/// value is its by construction), a [`Dyn`] holds it.
#[doc(hidden)]
pub trait FromValue: Leaf {
    /// The leaf of value `v`.
    fn from_value(v: i64) -> Self;
}
impl FromValue for UTerm {
    #[inline(always)]
    fn from_value(_: i64) -> Self {
        UTerm
    }
}
impl<U: Unsigned + Default, B: Bit + Default> FromValue for UInt<U, B>
where
    UInt<U, B>: Leaf,
{
    #[inline(always)]
    fn from_value(v: i64) -> Self {
        debug_assert_eq!(v, <Self as Leaf>::signed(&Self::default()));
        Self::default()
    }
}
impl FromValue for Dyn {
    #[inline(always)]
    fn from_value(v: i64) -> Self {
        Dyn::new(v)
    }
}

// ----------------------------------------------------- values of a layout

/// The most flat modes the mixed algebra takes in one layout.
pub(crate) const MAX_MODES: usize = 16;

/// The failure of a layout past [`MAX_MODES`].
pub(crate) const TOO_MANY_MODES: Fail = Fail::Room { limit: Some(MAX_MODES) };

/// A list of at most `N` values on the stack whose unused room is never
/// written: the mixed algebra's buffers are sized for the largest layout it
/// takes, and filling that whole room on every call cost more than the
/// arithmetic of a small layout.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Buf<T: Copy, const N: usize> {
    v: [core::mem::MaybeUninit<T>; N],
    /// The first `n` entries are initialized (every method that counts an
    /// entry has written it first).
    n: usize,
}

impl<T: Copy + core::fmt::Debug, const N: usize> core::fmt::Debug for Buf<T, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<T: Copy, const N: usize> Buf<T, N> {
    /// No values.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Buf { v: [const { core::mem::MaybeUninit::uninit() }; N], n: 0 }
    }
    /// Appends `x`; `false` (and nothing appended) when the room is full.
    #[inline(always)]
    pub(crate) fn push(&mut self, x: T) -> bool {
        let Some(slot) = self.v.get_mut(self.n) else { return false };
        slot.write(x);
        self.n += 1;
        true
    }
    /// Appends `k` copies of `x` and returns them to be overwritten in
    /// place; `None` (and nothing appended) when the room is too small.
    #[inline(always)]
    pub(crate) fn extend_with(&mut self, k: usize, x: T) -> Option<&mut [T]> {
        let lo = self.n;
        let room = self.v.get_mut(lo..lo.checked_add(k)?)?;
        for slot in room.iter_mut() {
            slot.write(x);
        }
        self.n += k;
        Some(&mut self.as_mut_slice()[lo..])
    }
    /// The values.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: the first `n` entries are initialized (field invariant),
        // `n <= N`, and `MaybeUninit<T>` has `T`'s layout.
        #[allow(unsafe_code)]
        unsafe {
            core::slice::from_raw_parts(self.v.as_ptr().cast::<T>(), self.n)
        }
    }
    /// The values, to be changed in place.
    #[inline(always)]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as `as_slice`; the borrow is unique.
        #[allow(unsafe_code)]
        unsafe {
            core::slice::from_raw_parts_mut(self.v.as_mut_ptr().cast::<T>(), self.n)
        }
    }
}

/// A shape or stride tree's leaves, in order, as `i64`s.
#[doc(hidden)]
pub trait FlatValues: IntTuple {
    /// The number of leaves.
    const LEAVES: usize;
    /// Whether some leaf is static.
    const ANY_STATIC: bool;
    /// Appends the leaves to `out[*n..]`; `false` when there is no room.
    fn write(&self, out: &mut [i64; MAX_MODES], n: &mut usize) -> bool;
    /// Appends whether each leaf is static to `out[*n..]`; `false` when
    /// there is no room.
    fn write_static(out: &mut [bool; MAX_MODES], n: &mut usize) -> bool;
}
macro_rules! flat_leaf {
    ($($g:ident),* ; $T:ty) => {
        impl<$($g),*> FlatValues for $T where $T: Leaf + IntTuple {
            const LEAVES: usize = 1;
            const ANY_STATIC: bool = <$T as Leaf>::STATIC.is_some();
            #[inline(always)]
            fn write(&self, out: &mut [i64; MAX_MODES], n: &mut usize) -> bool {
                let Some(slot) = out.get_mut(*n) else { return false };
                *slot = self.signed();
                *n += 1;
                true
            }
            #[inline(always)]
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
            #[inline(always)]
            fn write(&self, out: &mut [i64; MAX_MODES], n: &mut usize) -> bool {
                $(self.$i.write(out, n))&&+
            }
            #[inline(always)]
            fn write_static(out: &mut [bool; MAX_MODES], n: &mut usize) -> bool {
                $($T::write_static(out, n))&&+
            }
        }
    };
}
for_each_tuple!(flat_tuple);

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
    #[inline(always)]
    pub(crate) fn size(&self) -> i64 {
        self.size
    }
    /// `A` coalesced as cute-dynamic coalesces it.
    #[inline(always)]
    pub(crate) fn of<S: FlatValues, D: FlatValues>(shape: &S, stride: &D) -> Option<Prepared> {
        Self::prepare(shape, stride, None)
    }
    /// `A` as CuTe's `coalesce_x` leaves it before its composition fold: a
    /// mode of static extent 1 dropped, two modes merged only when the
    /// merge is known statically (`s₀·d₀ = d₁` on static values); with
    /// run-time values every flat mode stays. `None` when `A` has no
    /// run-time leaf (nothing to follow: the static solver answers).
    #[inline(always)]
    pub(crate) fn as_cute<S: FlatValues, D: FlatValues>(shape: &S, stride: &D) -> Option<Prepared> {
        if !S::ANY_STATIC && !D::ANY_STATIC {
            // All run-time: CuTe keeps every flat mode as it is.
            let (mut s, mut d) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
            let (mut ns, mut nd) = (0, 0);
            if !(shape.write(&mut s, &mut ns) && stride.write(&mut d, &mut nd)) || ns == 0 {
                return None;
            }
            let mut slots = Buf::new();
            let modes = slots.extend_with(ns, (1i64, 0i64))?;
            let mut size = 1i64;
            for i in 0..ns {
                modes[i] = (s[i], d[i]);
                size = size.wrapping_mul(s[i]);
            }
            return Some(Prepared { modes: slots, n: ns, size, cute: true });
        }
        let (mut ss, mut sd) = ([false; MAX_MODES], [false; MAX_MODES]);
        let (mut ns, mut nd) = (0, 0);
        if !(S::write_static(&mut ss, &mut ns) && D::write_static(&mut sd, &mut nd)) {
            return None;
        }
        Self::prepare(shape, stride, Some((&ss, &sd)))
    }
    #[inline(always)]
    fn prepare<S: FlatValues, D: FlatValues>(
        shape: &S,
        stride: &D,
        statics: Option<(&[bool; MAX_MODES], &[bool; MAX_MODES])>,
    ) -> Option<Prepared> {
        let (mut s, mut d) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
        let (mut ns, mut nd) = (0, 0);
        if !(shape.write(&mut s, &mut ns) && stride.write(&mut d, &mut nd)) || ns == 0 {
            return None;
        }
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

// ------------------------------------------------------------ the fold

/// What the fold over `B`'s leaves accumulates for the checks made once at
/// the end: how far the leaves reach into each mode of `A`
/// (distributivity), `B`'s largest offset and whether a stride is negative,
/// and the result's extent (overflow). With `CHECKED` false the values
/// are known small (see [`small_values`]): nothing can overflow, so the
/// overflow checks and what they need are left out.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct DeferredChecks<const CHECKED: bool> {
    reach: [i64; MAX_MODES],
    b_hi: i64,
    b_neg: bool,
    extent: Option<i64>,
}

impl<const CHECKED: bool> DeferredChecks<CHECKED> {
    /// Nothing walked yet.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        DeferredChecks { reach: [0; MAX_MODES], b_hi: 0, b_neg: false, extent: Some(0) }
    }
}

/// The bound below which [`small_values`] holds.
const SMALL_LEAF: u64 = 1 << 16;

/// Speed work below the rule: every shape and stride of the prepared `A`
/// (its coalesced modes) and of `B`'s leaves is below 2^16 in magnitude.
/// Then nothing in [`compose_leaf`] overflows: a stride of the result is a
/// product of two such values (below 2^32), a shape is at most one of them
/// plus one, so each of the at most 16·16 leaves adds below 2^49 to the
/// extent, which stays below 2^57; the walk's other products (`g·d` of the
/// stride-0 rule, a reach) are smaller still. The walk then runs with
/// `CHECKED = false`, the same arithmetic without its overflow checks.
/// (`b_bits` is the bitwise or of the magnitudes of `B`'s leaves,
/// [`MixedTree::magnitudes`].)
#[inline(always)]
fn small_values(a: &Prepared, b_bits: u64) -> bool {
    let a_bits = a.modes.as_slice().iter().fold(0u64, |acc, &(x, y)| acc | x.unsigned_abs() | y.unsigned_abs());
    (a_bits | b_bits) < SMALL_LEAF
}

/// `a·b`, checked unless the values are known small ([`small_values`]).
#[inline(always)]
fn mul<const CHECKED: bool>(a: i64, b: i64) -> Result<i64, Fail> {
    if CHECKED { a.checked_mul(b).ok_or(Fail::Overflow("composition")) } else { Ok(a.wrapping_mul(b)) }
}

/// The padded modes of one leaf, one slot per slot of `A`, and the
/// result's extent as they are written (the overflow check of `finish`).
struct PaddedOut<'a, const C: bool> {
    out: &'a mut [(i64, i64)],
    extent: &'a mut Option<i64>,
}

impl<const C: bool> LeafSink for PaddedOut<'_, C> {
    const PADDED: bool = true;
    #[inline(always)]
    fn put(&mut self, slot: usize, ps: i64, pd: i64) -> Result<(), Fail> {
        *self.out.get_mut(slot).ok_or(TOO_MANY_MODES)? = (ps, pd);
        if C {
            *self.extent = self.extent.and_then(|e| (ps - 1).checked_mul(pd.checked_abs()?)?.checked_add(e));
        }
        Ok(())
    }
    #[inline(always)]
    fn stride_mut(&mut self, slot: usize) -> Option<&mut i64> {
        self.out.get_mut(slot).map(|m| &mut m.1)
    }
}

/// Composes the prepared `A` with the leaf `s:d`: writes the padded modes
/// (one per slot of `A`) into `out`, by the kernel's rule
/// ([`kernel::compose_leaf`], CuTe's arithmetic for the padding, so that it
/// prints as CuTe's, and cute-dynamic's conditions).
#[inline(always)]
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
    let mut sink = PaddedOut::<C> { out, extent: &mut w.extent };
    // The coalesced modes (not CuTe's) put a leaf of size 1 in the last
    // slot; a negative stride too (on one mode, the only one taken).
    if d < 0 || (s == 1 && !a.cute) {
        if d < 0 && n > 1 && s != 1 {
            return Err(Fail::NegativeStride);
        }
        for i in 0..n - 1 {
            sink.put(i, 1, 0)?;
        }
        let dd = if s == 1 { unit_stride(&modes[..n - 1], d, last_d) } else { mul::<C>(d, last_d)? };
        return sink.put(n - 1, s, dd);
    }
    kernel::compose_leaf::<C, _>(&modes[..n - 1], last_d, (s, d), &mut sink, 0, &mut w.reach).map(|_| ())
}

/// The checks made once all leaves of `B` are composed.
#[inline(always)]
pub(crate) fn finish<const C: bool>(a: &Prepared, w: &DeferredChecks<C>) -> Result<(), Fail> {
    kernel::check_reach(&a.modes.as_slice()[..a.n - 1], &w.reach)?;
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
    fn build(v: &[(i64, i64)]) -> (Self::Shape, Self::Stride);
}
impl<S0, D0, BS: FromValue + IntTuple, BD: LeafMul<D0>> LeafResult<BS, BD> for MCons<S0, D0, MNil>
where
    <BD as LeafMul<D0>>::Output: FromValue + IntTuple,
{
    type Shape = BS;
    type Stride = <BD as LeafMul<D0>>::Output;
    #[inline(always)]
    fn build(v: &[(i64, i64)]) -> (BS, Self::Stride) {
        (BS::from_value(v[0].0), <Self::Stride as FromValue>::from_value(v[0].1))
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
            #[inline(always)]
            fn build(v: &[(i64, i64)]) -> (BS, UTerm) {
                (BS::from_value(v[padded!(@last $($i)+)].0), UTerm)
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
            #[inline(always)]
            fn build(v: &[(i64, i64)]) -> (Self::Shape, Dyn) {
                (UInt::new(), Dyn::new(v[padded!(@last $($i)+)].1))
            }
        }
    };
    (@many [$($S:ident $D:ident)+] [$($i:tt)+] $BS:ty; $BD:ty; $($g:ident),*) => {
        impl<$($S, $D,)+ $($g),*> LeafResult<$BS, $BD> for padded!(@list $($S $D)+) {
            type Shape = ($(padded!(@dyn $S),)+);
            type Stride = ($(padded!(@dyn $D),)+);
            #[inline(always)]
            fn build(v: &[(i64, i64)]) -> (Self::Shape, Self::Stride) {
                (($(Dyn::new(v[$i].0),)+), ($(Dyn::new(v[$i].1),)+))
            }
        }
    };
}
for_each_tuple!(padded);

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
}
macro_rules! mixed_tree_leaf {
    ($($g:ident),* ; $T:ty) => {
        impl<$($g,)* AL: LeafResult<$T, BD>, BD: Leaf> MixedTree<AL, BD> for $T where $T: Leaf {
            type Shape = <AL as LeafResult<$T, BD>>::Shape;
            type Stride = <AL as LeafResult<$T, BD>>::Stride;
            #[inline(always)]
            fn compose<const C: bool>(&self, d: &BD, a: &Prepared, w: &mut DeferredChecks<C>) -> Result<(Self::Shape, Self::Stride), Fail> {
                let mut buf = Buf::<_, MAX_MODES>::new();
                let out = buf.extend_with(a.n, (1i64, 0i64)).ok_or(TOO_MANY_MODES)?;
                compose_leaf(a, (self.signed(), d.signed()), out, w)?;
                Ok(AL::build(out))
            }
            #[inline(always)]
            fn magnitudes(&self, d: &BD) -> u64 {
                self.signed().unsigned_abs() | d.signed().unsigned_abs()
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
            #[inline(always)]
            #[allow(non_snake_case)]
            fn compose<const C: bool>(&self, d: &($($D,)+), a: &Prepared, w: &mut DeferredChecks<C>) -> Result<(Self::Shape, Self::Stride), Fail> {
                $(let $S = self.$i.compose(&d.$i, a, w)?;)+
                Ok((($($S.0,)+), ($($S.1,)+)))
            }
            #[inline(always)]
            fn magnitudes(&self, d: &($($D,)+)) -> u64 {
                0 $(| self.$i.magnitudes(&d.$i))+
            }
        }
    };
}
for_each_tuple!(mixed_tree_tuple);

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
#[doc(hidden)]
pub trait TryCompose<B> {
    /// The composition's type.
    type Output;
    /// `Self ∘ b`, or the error cute-dynamic's `composition` gives.
    fn try_compose(&self, b: &B) -> Result<Self::Output, cute_dynamic::LayoutError>;
}

impl<AS, AD, BS, BD> TryCompose<Layout<BS, BD>> for Layout<AS, AD>
where
    AS: FlattenInto<AD, MNil> + FlatValues + crate::Congruent<AD>,
    AD: FlatValues,
    BS: MixedTree<FlatModes<AS, AD>, BD> + crate::Congruent<BD>,
    BD: IntTuple,
{
    type Output =
        Layout<<BS as MixedTree<FlatModes<AS, AD>, BD>>::Shape, <BS as MixedTree<FlatModes<AS, AD>, BD>>::Stride>;
    #[inline(always)]
    fn try_compose(&self, b: &Layout<BS, BD>) -> Result<Self::Output, cute_dynamic::LayoutError> {
        // CuTe's padded form where CuTe's modes compose (the same function:
        // every condition is checked on them); where they do not (CuTe
        // assumes divisibility it cannot check), the coalesced modes, out of
        // line.
        let cute = Prepared::as_cute(&self.shape(), &self.stride())
            .ok_or(TOO_MANY_MODES)
            .and_then(|a| compose_layouts::<FlatModes<AS, AD>, _, _>(&a, b));
        match cute {
            Ok(r) => Ok(r),
            Err(_) => compose_coalesced::<FlatModes<AS, AD>, _, _, _, _>(self, b),
        }
    }
}

/// `A ∘ B` on `A`'s prepared modes, values known small or not.
#[inline(always)]
fn compose_layouts<AL, BS: MixedTree<AL, BD> + crate::Congruent<BD>, BD: IntTuple>(
    a: &Prepared,
    b: &Layout<BS, BD>,
) -> Result<Layout<BS::Shape, BS::Stride>, Fail> {
    let (s, d) = if small_values(a, b.shape().magnitudes(&b.stride())) {
        compose_all::<false, AL, _, _>(a, &b.shape(), &b.stride())?
    } else {
        compose_all::<true, AL, _, _>(a, &b.shape(), &b.stride())?
    };
    Ok(Layout::from_checked(s, d))
}

/// `A ∘ B` on `A`'s coalesced modes, or the error (the cold path of
/// [`TryCompose`]: out of line, so that the hot path keeps nothing for it).
#[cold]
#[inline(never)]
fn compose_coalesced<AL, AS: FlatValues + crate::Congruent<AD>, AD: FlatValues, BS, BD: IntTuple>(
    a: &Layout<AS, AD>,
    b: &Layout<BS, BD>,
) -> Result<Layout<BS::Shape, BS::Stride>, cute_dynamic::LayoutError>
where
    BS: MixedTree<AL, BD> + crate::Congruent<BD>,
{
    Prepared::of(&a.shape(), &a.stride())
        .ok_or(TOO_MANY_MODES)
        .and_then(|p| compose_layouts::<AL, _, _>(&p, b))
        .map_err(|f: Fail| f.into_error(&|| format!("composition({}, {})", a.to_dynamic(), b.to_dynamic())))
}

/// The leaves of `B` (shape `s`, stride `d`) composed with the prepared
/// `A`, then the checks made once at the end.
#[inline(always)]
fn compose_all<const C: bool, AL, BS: MixedTree<AL, BD>, BD>(
    a: &Prepared,
    s: &BS,
    d: &BD,
) -> Result<(BS::Shape, BS::Stride), Fail> {
    let mut w = DeferredChecks::<C>::new();
    let r = s.compose(d, a, &mut w)?;
    finish(a, &w)?;
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
#[inline(always)]
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
impl<A: TryCompose<Layout<BS, BD>>, BS, BD> crate::detail::TileComposeBy<A, B0> for Layout<BS, BD> {
    type Output = <A as TryCompose<Layout<BS, BD>>>::Output;
}

/// The mixed branch of [`ComposeValue`](crate::composition::ComposeValue): the
/// values computed and checked, a panic with the error's message.
impl<O, A: TryCompose<B, Output = O>, B> crate::detail::ComposeValueBy<A, B, B0> for O {
    #[inline(always)]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        match a.try_compose(&b) {
            Ok(r) => r,
            Err(e) => fail(e),
        }
    }
    #[inline(always)]
    fn try_make(a: A, b: B) -> Result<O, cute_dynamic::LayoutError> {
        a.try_compose(&b)
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
    #[inline(always)]
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
    (@split [$($p:tt)*]) => {};
    (@split [$($p:tt)*] $i:tt $T:ident $S:ident $D:ident $(, $($rest:tt)*)?) => {
        try_compose_tiler!(@emit [$($p)* $i $T $S $D] [$($($rest)*)?]);
        try_compose_tiler!(@split [$($p)* $i $T $S $D,] $($($rest)*)?);
    };
    (@emit [$($i:tt $T:ident $S:ident $D:ident),+] [$($j:tt $U:ident $RS:ident $RD:ident),*]) => {
        impl<$($T, $S: Copy + crate::Congruent<$D>, $D: Copy + IntTuple,)+ $($RS, $RD,)*>
            TryCompose<crate::Tiler<($($T,)+)>> for Layout<($($S,)+ $($RS,)*), ($($D,)+ $($RD,)*)>
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
            fn try_compose(&self, b: &crate::Tiler<($($T,)+)>) -> Result<Self::Output, cute_dynamic::LayoutError> {
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
    ($($g:tt)+) => {
        try_compose_tiler!(@split [] $($g)+);
    };
}
for_each_tuple!(try_compose_tiler);
