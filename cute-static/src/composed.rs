//! Composed layouts `A ∘ O ∘ B` of static parts (twin of cute-dynamic's
//! `composed.rs`): CuTe's `ComposedLayout` with a static swizzle `A`, a
//! static offset `O` and a layout `B`.
//!
//! `B` is the domain: shape, size and cosize are `B`'s, and the divides,
//! products and composition with a tiler act on `B` (methods, since a
//! composed layout is no [`StaticLayout`](crate::StaticLayout): it has no
//! stride). Slicing, which moves a run-time offset into `O`, lives in
//! cute-dynamic.
//!
//! The composed-layout algebra (CuTe's `swizzle_layout.hpp`): a layout
//! composed with a composed layout, a composed layout with a composed
//! layout, and the inverses of a composed layout, pass the swizzle to the
//! left of a layout ([`SwizzleThrough`]); the new swizzle is computed, and
//! the answer checked point by point, at compile time.

use crate::IntTuple;
use crate::composition::Compose;
use crate::coord::Coord;
use crate::detail::const_eval::{ConstFn, SwizzleMasks, swizzle_through};
use crate::divide::{LogicalDivide, TiledDivide, ZippedDivide};
use crate::int_tuple::Leaf;
use crate::int_tuple::{AllStatic, StaticIntTuple};
#[cfg(feature = "std")]
use crate::layout::StaticLayout;
use crate::layout::{Congruent, Layout, StaticValue};
use crate::names::{LeftInverse, RightInverse};
use crate::product::{BlockedProduct, LogicalProduct, RakedProduct};
use crate::swizzle::OffsetFn;
use core::fmt;
use core::marker::PhantomData;
use typenum::{B0, B1, Bit, U0};

/// `A ∘ O ∘ B`: the swizzle `A` after the offset `O` (a typenum leaf) after
/// the layout `B`. Zero-sized when its parts are.
///
/// Post-condition: `index(c) == A(O + B(c))` for every coordinate `c` of
/// `B`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::Swizzle;
/// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
/// assert_eq!(core::mem::size_of_val(&c), 0);
/// assert_eq!(c.to_string(), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
/// assert_eq!(c.index((2usize, 0usize)), 0x90);
/// assert_eq!(c.to_dynamic().to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ComposedLayout<A, O, B> {
    outer: A,
    offset: O,
    inner: B,
}

/// `c` with its inner layout replaced (a slice or a part of it).
#[inline(always)]
pub(crate) fn with_inner<A, O, B, B2>(c: ComposedLayout<A, O, B>, inner: B2) -> ComposedLayout<A, O, B2> {
    ComposedLayout { outer: c.outer, offset: c.offset, inner }
}

/// CuTe's `make_composed_layout(a, o, b)`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{Swizzle, make_composed_layout, typenum::U64};
/// let c = make_composed_layout(Swizzle::<2, 0, 2>::new(), U64::default(), layout!(16:1));
/// assert_eq!(c.to_string(), "Sw<2,0,2> o _64 o _16:_1");
/// assert_eq!(c.index(5usize), 64 + (5 ^ 1));
/// ```
#[inline(always)]
pub fn make_composed_layout<A: OffsetFn, O: Leaf, S: Congruent<D>, D: IntTuple>(
    outer: A,
    offset: O,
    inner: Layout<S, D>,
) -> ComposedLayout<A, O, Layout<S, D>> {
    ComposedLayout { outer, offset, inner }
}

impl<const BB: u32, const M: u32, const S: i32> crate::Swizzle<BB, M, S> {
    /// CuTe's `composition(swizzle, layout)`: `swizzle ∘ _0 ∘ layout`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<1, 0, 1>::new().compose(layout!((4,4):(8,1)));
    /// assert_eq!(c.to_string(), "Sw<1,0,1> o _0 o (_4,_4):(_8,_1)");
    /// assert_eq!(c.index((0usize, 2usize)), 3); // B = 2, bit 1 XORed into bit 0
    /// ```
    #[inline(always)]
    pub fn compose<LS: Congruent<LD>, LD: IntTuple>(
        self,
        layout: Layout<LS, LD>,
    ) -> ComposedLayout<Self, U0, Layout<LS, LD>> {
        ComposedLayout { outer: self, offset: U0::default(), inner: layout }
    }
}

impl<A: OffsetFn, O: Leaf, S: Congruent<D>, D: IntTuple> ComposedLayout<A, O, Layout<S, D>> {
    /// `A`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// assert_eq!(c.outer(), Swizzle::<3, 4, 3>::new());
    /// ```
    #[inline(always)]
    pub fn outer(&self) -> A {
        self.outer
    }

    /// `O`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{Swizzle, make_composed_layout, typenum::U64};
    /// let c = make_composed_layout(Swizzle::<2, 0, 2>::new(), U64::default(), layout!(16:1));
    /// assert_eq!(c.offset(), 64);
    /// assert_eq!(Swizzle::<2, 0, 2>::new().compose(layout!(16:1)).offset(), 0);
    /// ```
    #[inline(always)]
    pub fn offset(&self) -> usize {
        self.offset.value()
    }

    /// `B`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// assert_eq!(c.inner(), layout!((8,64):(64,1)));
    /// ```
    #[inline(always)]
    pub fn inner(&self) -> Layout<S, D> {
        self.inner
    }

    /// `B`'s size.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// assert_eq!(c.size(), 512);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.inner.size()
    }

    /// `B`'s cosize (as CuTe's `cosize(ComposedLayout)`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<1, 0, 1>::new().compose(layout!(2:2));
    /// assert_eq!(c.cosize(), 3);          // B's offsets are 0 and 2
    /// assert_eq!(c.index(1usize), 3);     // Sw<1,0,1>(2) = 3: past the cosize
    /// ```
    #[inline(always)]
    pub fn cosize(&self) -> usize {
        self.inner.cosize()
    }

    /// `A(O + B(c))`: with static parts, the layout's arithmetic followed by
    /// the swizzle's XOR, constants folded. The inner layout's strides must be
    /// static (offsets a swizzle acts on are not negative).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// assert_eq!(c.index((3usize, 5usize)), 213);  // B = 197 = 0xC5, bit 7 XORed into bit 4
    /// assert_eq!(c.index(3usize), 192 ^ 16);       // integral coordinate 3 is (3,0)
    /// ```
    #[inline(always)]
    pub fn index<C: Coord<S, D>>(&self, coord: C) -> usize
    where
        D: IntTuple<Offset = usize>,
    {
        self.outer.apply_offset(self.offset.value().wrapping_add(self.inner.index(coord)))
    }

    /// The equal run-time composed layout of `cute-dynamic`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{Swizzle, make_composed_layout, typenum::U64};
    /// let c = make_composed_layout(Swizzle::<2, 0, 2>::new(), U64::default(), layout!(16:1));
    /// let d = c.to_dynamic();
    /// assert_eq!(d.to_string(), "Sw<2,0,2> o 64 o 16:1");
    /// assert_eq!(d.eval(5).unwrap(), 68);
    /// ```
    #[cfg(feature = "std")]
    pub fn to_dynamic(&self) -> cute_dynamic::ComposedLayout
    where
        Layout<S, D>: StaticLayout,
    {
        let o = self.offset.value();
        // Offsets come from typenum leaves the macros bound to i64.
        let o = i64::try_from(o).unwrap_or(i64::MAX);
        cute_dynamic::ComposedLayout::new(self.outer.to_dynamic_swizzle(), o, self.inner.to_dynamic())
    }
}

/// One method per operation acting on `B`.
macro_rules! on_inner {
    ($($(#[$doc:meta])* $name:ident, $Trait:ident;)+) => {
        impl<A: OffsetFn, O: Leaf, S: Congruent<D>, D: IntTuple> ComposedLayout<A, O, Layout<S, D>> {
            $(
                $(#[$doc])*
                #[inline(always)]
                pub fn $name<T>(self, t: T) -> ComposedLayout<A, O, <Layout<S, D> as $Trait<T>>::Output>
                where
                    Layout<S, D>: $Trait<T>,
                    // All-static results (a static layout, or a composed
                    // layout of static parts) are their types' defaults.
                    <Layout<S, D> as $Trait<T>>::Output: Default,
                {
                    let _ = t;
                    ComposedLayout { outer: self.outer, offset: self.offset, inner: Default::default() }
                }
            )+
        }
    };
}

on_inner! {
    /// `A ∘ O ∘ (B ∘ t)`; `t` may be a composed layout, then `B ∘ t` is one
    /// too (see [`composition`](crate::composition)) and the result is the
    /// chain `A ∘ O ∘ A' ∘ _0 ∘ (B ∘ t's layout)`, as CuTe nests it.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// assert_eq!(c.composition(tile!(8, 8)).to_string(), "Sw<3,4,3> o _0 o (_8,_8):(_64,_1)");
    /// let c = Swizzle::<2, 0, 3>::new().compose(layout!((8,8):(8,1)));
    /// let d = Swizzle::<2, 0, -3>::new().compose(layout!((8,8):(8,1)));
    /// assert_eq!(c.composition(d).to_string(), "Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)");
    /// ```
    composition, Compose;
    /// `A ∘ O ∘ logical_divide(B, t)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// assert_eq!(c.logical_divide(tile!(2, 8)).to_string(),
    ///            "Sw<3,4,3> o _0 o ((_2,_4),(_8,_8)):((_64,_128),(_1,_8))");
    /// ```
    logical_divide, LogicalDivide;
    /// `A ∘ O ∘ zipped_divide(B, t)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// assert_eq!(c.zipped_divide(tile!(2, 8)).to_string(),
    ///            "Sw<3,4,3> o _0 o ((_2,_8),(_4,_8)):((_64,_1),(_128,_8))");
    /// ```
    zipped_divide, ZippedDivide;
    /// `A ∘ O ∘ tiled_divide(B, t)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// assert_eq!(c.tiled_divide(tile!(2, 8)).to_string(),
    ///            "Sw<3,4,3> o _0 o ((_2,_8),_4,_8):((_64,_1),_128,_8)");
    /// ```
    tiled_divide, TiledDivide;
    /// `A ∘ O ∘ logical_product(B, t)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<1, 0, 1>::new().compose(layout!((2,2):(2,1)));
    /// assert_eq!(c.logical_product(layout!(3:1)).to_string(),
    ///            "Sw<1,0,1> o _0 o ((_2,_2),_3):((_2,_1),_4)");
    /// ```
    logical_product, LogicalProduct;
    /// `A ∘ O ∘ blocked_product(B, t)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<1, 0, 1>::new().compose(layout!((2,2):(2,1)));
    /// assert_eq!(c.blocked_product(layout!((2,3):(1,2))).to_string(),
    ///            "Sw<1,0,1> o _0 o ((_2,_2),(_2,_3)):((_2,_4),(_1,_8))");
    /// ```
    blocked_product, BlockedProduct;
    /// `A ∘ O ∘ raked_product(B, t)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<1, 0, 1>::new().compose(layout!((2,2):(2,1)));
    /// assert_eq!(c.raked_product(layout!((2,3):(1,2))).to_string(),
    ///            "Sw<1,0,1> o _0 o ((_2,_2),(_3,_2)):((_4,_2),(_8,_1))");
    /// ```
    raked_product, RakedProduct;
}

impl<A: fmt::Display, O: Leaf, B: fmt::Display> fmt::Display for ComposedLayout<A, O, B> {
    /// CuTe's `A o O o B`: `Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o _{} o {}", self.outer, self.offset.value(), self.inner)
    }
}

// ------------------------------------------------- the composed-layout algebra

/// The swizzle `Sw` passed to the left of the layout `L`: the static
/// `Sw<B',M',S'>` with `L ∘ Sw = Sw' ∘ L` on the image of `Dom`, as CuTe's
/// `composition(Layout, Swizzle)` finds it (`make_swizzle<L(yyy), L(zzz)>`,
/// "works in simple cases" in CuTe's words). The parameters are computed at
/// compile time, and so is the check that the equation holds at every
/// point of `Dom` (and, for `Bounded = B1`, that `Sw` keeps those points in
/// `L`'s domain): a swizzle that does not pass through `L` does not build
/// (the check is a constant evaluated where the result is made, so
/// `cargo build` reports it, `cargo check` may not), and neither does one
/// whose domain has more than 2^16 points (it is checked point by point).
/// It prints as the swizzle it is: `Sw<2,0,3>`.
///
/// A user meets it as the outer swizzle of a composition with a composed
/// layout, or of [`ComposedLayout::left_inverse`] and
/// [`ComposedLayout::right_inverse`]:
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{OffsetFn, Swizzle};
/// let (l, sw) = (layout!((8,8):(8,1)), Swizzle::<2, 0, -3>::new()); // l: the 8×8 transpose
/// let through = composition(l, sw.compose(layout!(64:1))).outer();
/// assert_eq!(through.to_string(), "Sw<2,0,3>");
/// assert!((0..64usize).all(|x| l.index(sw.apply_offset(x)) == through.apply_offset(l.index(x))));
/// ```
pub struct SwizzleThrough<Sw, L, Dom, Bounded>(PhantomData<(Sw, L)>, PhantomData<(Dom, Bounded)>);

impl<Sw, L, Dom, Bounded> Clone for SwizzleThrough<Sw, L, Dom, Bounded> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Sw, L, Dom, Bounded> Copy for SwizzleThrough<Sw, L, Dom, Bounded> {}
impl<Sw, L, Dom, Bounded> Default for SwizzleThrough<Sw, L, Dom, Bounded> {
    fn default() -> Self {
        SwizzleThrough(PhantomData, PhantomData)
    }
}
impl<Sw, L, Dom, Bounded> PartialEq for SwizzleThrough<Sw, L, Dom, Bounded> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<Sw, L, Dom, Bounded> Eq for SwizzleThrough<Sw, L, Dom, Bounded> {}
impl<Sw, L, Dom, Bounded> core::hash::Hash for SwizzleThrough<Sw, L, Dom, Bounded> {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}
impl<Sw, L, Dom, Bounded> fmt::Debug for SwizzleThrough<Sw, L, Dom, Bounded>
where
    Self: OffsetFn,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The type of `left_inverse(C)` for `C = Sw ∘ _0 ∘ B` with `B† = I`:
/// `Sw' ∘ _0 ∘ I`, what [`ComposedLayout::left_inverse`] returns (`Sw'`
/// the [`SwizzleThrough`] of `Sw` and `I`, checked on the image of `C`).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{ComposedLeftInverse, Swizzle};
/// let c = Swizzle::<1, 0, 1>::new().compose(layout!((4,4):(8,1)));
/// let r: ComposedLeftInverse<Swizzle<1, 0, 1>, _, Layout![(8,4):(4,1)]> = c.left_inverse();
/// assert_eq!(r.to_string(), "Sw<1,2,1> o _0 o (_8,_4):(_4,_1)");
/// assert!((0..16usize).all(|k| r.index(c.index(k)) == k)); // C is injective: R(C(k)) = k
/// ```
pub type ComposedLeftInverse<Sw, C, I> = ComposedLayout<SwizzleThrough<Sw, I, C, B0>, U0, I>;

/// The type of `right_inverse(C)` for `C = Sw ∘ _0 ∘ B` with `B‡ = I`:
/// `Sw' ∘ _0 ∘ I`, what [`ComposedLayout::right_inverse`] returns (`Sw'`
/// the [`SwizzleThrough`] of `Sw` and `I`, checked on `0..size(I)`).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{ComposedRightInverse, Swizzle};
/// let c = Swizzle::<1, 0, 1>::new().compose(layout!((4,4):(8,1)));
/// let r: ComposedRightInverse<Swizzle<1, 0, 1>, Layout![4:4]> = c.right_inverse();
/// assert_eq!(r.to_string(), "Sw<1,2,1> o _0 o _4:_4");
/// assert!((0..4usize).all(|i| c.index(r.index(i)) == i)); // C(R(i)) = i
/// ```
pub type ComposedRightInverse<Sw, I> = ComposedLayout<SwizzleThrough<Sw, I, Iota<I>, B1>, U0, I>;

/// A function whose domain is checked point by point in constant
/// evaluation: an all-static layout, a swizzle after one, or `Iota<L>`.
#[doc(hidden)]
pub trait ConstDomain {
    /// The function.
    const FN: ConstFn;
}
impl<S: Congruent<D> + StaticIntTuple, D: StaticIntTuple> ConstDomain for Layout<S, D> {
    const FN: ConstFn = ConstFn { leaves: S::CONST_LEAVES, swizzle: None, identity: false };
}
impl<Sw: OffsetFn, S: Congruent<D> + StaticIntTuple, D: StaticIntTuple> ConstDomain
    for ComposedLayout<Sw, U0, Layout<S, D>>
{
    const FN: ConstFn = ConstFn { leaves: S::CONST_LEAVES, swizzle: Some(Sw::MASKS), identity: false };
}
/// The identity `c ↦ c` on `0..size(L)`.
#[doc(hidden)]
pub struct Iota<L>(PhantomData<L>);
impl<S: Congruent<D> + StaticIntTuple, D: StaticIntTuple> ConstDomain for Iota<Layout<S, D>> {
    const FN: ConstFn = ConstFn { leaves: S::CONST_LEAVES, swizzle: None, identity: true };
}

impl<Sw: OffsetFn, S: Congruent<D> + StaticIntTuple, D: StaticIntTuple, Dom: ConstDomain, Bd: Bit>
    SwizzleThrough<Sw, Layout<S, D>, Dom, Bd>
{
    /// `(B', M', S')`, computed and checked at compile time.
    const PARAMS: (u32, u32, i32) = swizzle_through(Sw::MASKS, S::CONST_LEAVES, Dom::FN, Bd::BOOL);
}

impl<Sw: OffsetFn, S: Congruent<D> + StaticIntTuple, D: StaticIntTuple, Dom: ConstDomain, Bd: Bit> OffsetFn
    for SwizzleThrough<Sw, Layout<S, D>, Dom, Bd>
{
    const MASKS: SwizzleMasks = {
        let (b, m, s) = Self::PARAMS;
        SwizzleMasks { yyy: ((1usize << b) - 1) << (m + if s > 0 { s as u32 } else { 0 }), shift: s }
    };

    #[inline(always)]
    fn apply_offset(&self, offset: usize) -> usize {
        Self::MASKS.apply(offset)
    }

    #[cfg(feature = "std")]
    fn to_dynamic_swizzle(&self) -> cute_dynamic::AnySwizzle {
        let (b, m, s) = Self::PARAMS;
        match cute_dynamic::Swizzle::new(i64::from(b), i64::from(m), i64::from(s)) {
            Ok(sw) => cute_dynamic::AnySwizzle::Cute(sw),
            // Unreachable: PARAMS holds cute-dynamic's conditions at compile time.
            Err(e) => unreachable!("static swizzle rejected by cute-dynamic: {e}"),
        }
    }
}

impl<Sw: OffsetFn, S: Congruent<D> + StaticIntTuple, D: StaticIntTuple, Dom: ConstDomain, Bd: Bit> fmt::Display
    for SwizzleThrough<Sw, Layout<S, D>, Dom, Bd>
{
    /// CuTe's `Sw<B,M,S>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (b, m, s) = Self::PARAMS;
        write!(f, "Sw<{b},{m},{s}>")
    }
}

impl<A: OffsetFn, O: Leaf, B: AllStatic> AllStatic for ComposedLayout<A, O, B> {
    type Bit = <B as AllStatic>::Bit;
}

impl<A: OffsetFn, O: Leaf + Default, B: StaticValue> StaticValue for ComposedLayout<A, O, B> {
    #[inline(always)]
    fn value() -> Self {
        // Reading the masks checks a swizzle passed through a layout.
        let _ = A::MASKS;
        ComposedLayout { outer: A::default(), offset: O::default(), inner: B::value() }
    }
}

/// CuTe's `composition(Layout, ComposedLayout)`: `L ∘ (Sw ∘ _0 ∘ B)` is
/// `Sw' ∘ _0 ∘ (L ∘ B)`, the swizzle passed to the left of `L`
/// ([`SwizzleThrough`], checked on the image of `B` at compile time).
/// All-static only.
///
/// Post-conditions: the result's shape is `L ∘ B`'s (compatible with `B`'s),
/// and it evaluates every coordinate `c` of `B` to `L(Sw(B(c)))`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::Swizzle;
/// let d = Swizzle::<2, 0, -3>::new().compose(layout!((8,8):(8,1)));
/// let r = composition(layout!((8,8):(8,1)), d);
/// assert_eq!(r.to_string(), "Sw<2,0,3> o _0 o (_8,_8):(_1,_8)");
/// // B(9) = 9, Sw<2,0,-3> moves bit 0 to bit 3: Sw(9) = 1, and L(1) = 8.
/// assert_eq!(r.index(9usize), 8);
/// ```
impl<AS, AD, Sw, BS, BD> Compose<ComposedLayout<Sw, U0, Layout<BS, BD>>> for Layout<AS, AD>
where
    Layout<AS, AD>: Compose<Layout<BS, BD>>,
{
    type Output = ComposedLayout<
        SwizzleThrough<Sw, Layout<AS, AD>, Layout<BS, BD>, B0>,
        U0,
        <Layout<AS, AD> as Compose<Layout<BS, BD>>>::Output,
    >;
}

impl<Sw: OffsetFn, S: Congruent<D> + StaticIntTuple, D: StaticIntTuple> ComposedLayout<Sw, U0, Layout<S, D>> {
    /// CuTe's `left_inverse` of a composed layout `C = Sw ∘ _0 ∘ B`:
    /// `B† ∘ Sw` written `Sw' ∘ _0 ∘ B†`, the swizzle passed to the left of
    /// `B†` (checked at compile time on the image of `C`).
    ///
    /// Post-condition (paper eq. 26): `C(R(C(k))) == C(k)` for every `k`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<1, 0, 1>::new().compose(layout!((4,4):(8,1)));
    /// assert_eq!(c.left_inverse().to_string(), "Sw<1,2,1> o _0 o (_8,_4):(_4,_1)");
    /// ```
    ///
    /// A swizzle that does not pass through `B†` does not build
    /// (`Sw<3,4,3>` over the row-major `(8,64)`: `B†` scatters its masks):
    ///
    /// ```compile_fail,E0080
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// println!("{}", c.left_inverse());
    /// ```
    #[inline(always)]
    pub fn left_inverse<IS, ID>(self) -> ComposedLeftInverse<Sw, Self, Layout<IS, ID>>
    where
        Layout<S, D>: LeftInverse<Output = Layout<IS, ID>>,
        IS: Congruent<ID> + StaticIntTuple,
        ID: StaticIntTuple,
    {
        StaticValue::value()
    }

    /// CuTe's `right_inverse` of a composed layout `C = Sw ∘ _0 ∘ B`:
    /// `B‡ ∘ Sw` written `Sw' ∘ _0 ∘ B‡` (checked at compile time on
    /// `0..size(B‡)`, with `Sw` keeping those points in `B‡`'s domain).
    ///
    /// Post-condition: `C(R(i)) == i` for every `i < size(R)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<1, 0, 1>::new().compose(layout!((4,4):(8,1)));
    /// assert_eq!(c.right_inverse().to_string(), "Sw<1,2,1> o _0 o _4:_4");
    /// ```
    #[inline(always)]
    pub fn right_inverse<IS, ID>(self) -> ComposedRightInverse<Sw, Layout<IS, ID>>
    where
        Layout<S, D>: RightInverse<Output = Layout<IS, ID>>,
        IS: Congruent<ID> + StaticIntTuple,
        ID: StaticIntTuple,
    {
        StaticValue::value()
    }
}

impl<A: OffsetFn, O: Leaf, A2: OffsetFn, O2: Leaf, S: Congruent<D>, D: IntTuple>
    ComposedLayout<A, O, ComposedLayout<A2, O2, Layout<S, D>>>
{
    /// The size of the innermost layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<2, 0, 3>::new().compose(layout!((8,8):(8,1)));
    /// let d = Swizzle::<2, 0, -3>::new().compose(layout!((8,8):(8,1)));
    /// let r = c.composition(d); // Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)
    /// assert_eq!(r.size(), 64);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.inner.size()
    }

    /// `A(O + A2(O2 + B(c)))`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<2, 0, 3>::new().compose(layout!((8,8):(8,1)));
    /// let d = Swizzle::<2, 0, -3>::new().compose(layout!((8,8):(8,1)));
    /// let r = c.composition(d); // Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)
    /// assert_eq!(r.index(9usize), 9);              // the two swizzles cancel
    /// assert_eq!(r.index((1usize, 2usize)), 17);    // B = 17, Sw<2,0,3> twice
    /// ```
    #[inline(always)]
    pub fn index<C: Coord<S, D>>(&self, coord: C) -> usize
    where
        D: IntTuple<Offset = usize>,
    {
        self.outer.apply_offset(self.offset.value().wrapping_add(self.inner.index(coord)))
    }

    /// The equal run-time composed layout of `cute-dynamic` (two stages).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<2, 0, 3>::new().compose(layout!((8,8):(8,1)));
    /// let d = Swizzle::<2, 0, -3>::new().compose(layout!((8,8):(8,1)));
    /// let r = c.composition(d); // Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)
    /// let dy = r.to_dynamic();
    /// assert_eq!(dy.to_string(), "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)");
    /// assert_eq!(dy.stages().len(), 2);
    /// ```
    #[cfg(feature = "std")]
    pub fn to_dynamic(&self) -> cute_dynamic::ComposedLayout
    where
        Layout<S, D>: StaticLayout,
    {
        let inner = self.inner.to_dynamic();
        let offset = |o: usize| i64::try_from(o).unwrap_or(i64::MAX);
        let stages = [(self.outer.to_dynamic_swizzle(), offset(self.offset.value()))]
            .into_iter()
            .chain(inner.stages().iter().copied());
        match cute_dynamic::ComposedLayout::from_stages(stages, inner.inner().clone()) {
            Some(c) => c,
            None => unreachable!("two stages"),
        }
    }
}
