//! Composed layouts `A ∘ O ∘ B` of static parts (twin of cute-dynamic's
//! `composed.rs`): CuTe's `ComposedLayout` with a static swizzle `A`, a
//! static offset `O` and a layout `B`.
//!
//! `B` is the domain: shape, size and cosize are `B`'s, and the divides,
//! products and composition with a tiler act on `B` (methods, since a
//! composed layout is no [`StaticLayout`](crate::StaticLayout): it has no
//! stride). Slicing, which moves a run-time offset into `O`, lives in
//! cute-dynamic.

use crate::IntTuple;
use crate::composition::Compose;
use crate::divide::{LogicalDivide, TiledDivide, ZippedDivide};
use crate::int_tuple::Leaf;
use crate::layout::{Congruent, Coord, Layout, StaticLayout};
use crate::product::{BlockedProduct, LogicalProduct, RakedProduct};
use crate::swizzle::OffsetFn;
use core::fmt;
use typenum::U0;

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
    #[inline(always)]
    pub fn outer(&self) -> A {
        self.outer
    }

    /// `O`.
    #[inline(always)]
    pub fn offset(&self) -> usize {
        self.offset.value()
    }

    /// `B`.
    #[inline(always)]
    pub fn inner(&self) -> Layout<S, D> {
        self.inner
    }

    /// `B`'s size.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.inner.size()
    }

    /// `B`'s cosize (as CuTe's `cosize(ComposedLayout)`).
    #[inline(always)]
    pub fn cosize(&self) -> usize {
        self.inner.cosize()
    }

    /// `A(O + B(c))`: with static parts, the layout's arithmetic followed by
    /// the swizzle's XOR, constants folded. The inner layout's strides must be
    /// static (offsets a swizzle acts on are not negative).
    #[inline(always)]
    pub fn index<C: Coord<S, D>>(&self, coord: C) -> usize
    where
        D: IntTuple<Offset = usize>,
    {
        self.outer.apply_offset(self.offset.value().wrapping_add(self.inner.index(coord)))
    }

    /// The equal run-time composed layout of `cute-dynamic`.
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
                    <Layout<S, D> as $Trait<T>>::Output: StaticLayout,
                {
                    let _ = t;
                    ComposedLayout { outer: self.outer, offset: self.offset, inner: Default::default() }
                }
            )+
        }
    };
}

on_inner! {
    /// `A ∘ O ∘ (B ∘ t)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Swizzle;
    /// let c = Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(64,1)));
    /// assert_eq!(c.composition(tile!(8, 8)).to_string(), "Sw<3,4,3> o _0 o (_8,_8):(_64,_1)");
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
    zipped_divide, ZippedDivide;
    /// `A ∘ O ∘ tiled_divide(B, t)`.
    tiled_divide, TiledDivide;
    /// `A ∘ O ∘ logical_product(B, t)`.
    logical_product, LogicalProduct;
    /// `A ∘ O ∘ blocked_product(B, t)`.
    blocked_product, BlockedProduct;
    /// `A ∘ O ∘ raked_product(B, t)`.
    raked_product, RakedProduct;
}

impl<A: fmt::Display, O: Leaf, B: fmt::Display> fmt::Display for ComposedLayout<A, O, B> {
    /// CuTe's `A o O o B`: `Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o _{} o {}", self.outer, self.offset.value(), self.inner)
    }
}
