//! The products of layouts with run-time ([`Dyn`](crate::Dyn)) leaves: a
//! tile `A` repeated over a grid `B`, either with run-time leaves.
//!
//! The all-static products are decided in trait resolution (`detail/divide.rs`, `detail/product.rs`).
//! With a run-time leaf in `B` and an all-static `A`, the cotarget
//! `size(A)·span(B)` of `A*` is run-time, so `A* = complement(A, M)` is the
//! run-time-cotarget complement of `complement.rs` (its static modes found
//! at compile time, the last one's size when it runs, kept even of size 1:
//! the extended domain `B` may read). With a run-time leaf in `A`, where
//! CuTe's complement is defined (every stride of the modes CuTe's `filter`
//! keeps is static, or one mode is kept), `A*` is CuTe's fold: the kept
//! modes sorted by stride at compile time, each `s:d` giving `d/C : C`, a
//! leaf static where the arithmetic met only static values, the modes
//! statically of size 1 dropped, the last mode kept
//! (`detail::FoldModes`); the values are computed when the call runs,
//! with cute-dynamic's conditions (a mode of run-time size 1 that CuTe's
//! fold would let leave offsets out adds nothing instead, so that the
//! function is cute-dynamic's; where CuTe's fold gives such a mode a
//! static size, the fold is taken only if that size cannot leave offsets
//! out, `detail::FoldSafe`). Otherwise, and with a run-time stride among
//! several kept modes (which CuTe rejects; the order is then a run-time
//! matter too), `A*` is the padded form of `N + 1` run-time leaves (`N`
//! the kept modes; `1:0` modes in front, its last mode, the unbounded one,
//! last). Either way
//! `A* ∘ B` is the mixed composition of `composition.rs` (cute-dynamic's
//! checks), in CuTe's form where `A*` is CuTe's complement (of an
//! all-static `A`, or CuTe's fold; by `TryComposeCoalesced`: a
//! complement's modes are coalesced already) and
//! in the padded form of all run-time leaves otherwise (which is CuTe's for
//! `int` leaves), and the result's structure is the same
//! arrangement of `(A, A* ∘ B)` as for static layouts; its leaves are `A`'s
//! then `A* ∘ B`'s in every arrangement (logical, zipped, tiled and flat
//! only regroup the modes). `blocked_product` and `raked_product` pad the
//! ranks with `1:0`, compute that logical product and pair its modes.
//! By a tiler `<B0, B1, ...>` with a run-time leaf (in a tile or in `A`),
//! each mode `A_k` is producted with `B_k` by its own branch (the static
//! algebra's leaves where both are all-static, the run-time product above
//! otherwise, a nested tiler recursively), and the parts are gathered in
//! the arrangement's order: `(A_k, G_k)` side by side (logical), or all
//! tiles, then all grids and the untouched modes (zipped, tiled, flat);
//! the result's type is the static algebra's by-mode answer.
//! Where the run-time walk fails, the error is cute-dynamic's.

use crate::composition::{TryCompose, TryComposeCoalesced};
use crate::detail::RunTimeModes;
use crate::detail::{AnyCount, CuteStar, LayoutFolds};
use crate::detail::{CompCurr, CompKept, FilterModes, PushMode, StaticWalk, Trivial};
use crate::detail::{FlatModes, FlattenInto, LayoutOfModes, MNil, ModesToLayout};
use crate::detail::{ProductOp, ProductValueBy, Split1DBy};
use crate::layout::Layout;
use crate::run_time::{FlatValues, PadDyn};
use typenum::{B0, U1};

/// `A*` with its last mode kept (the extended complement), as a type.
type StarExt<AS, AD> = LayoutOfModes<RunTimeModes<AS, AD>>;

/// The slots of `A*` for an `A` with a run-time leaf: one per flat mode of
/// `A` that is not statically trivial (size 1 or stride 0, which CuTe's
/// `filter` drops before its complement; `blocked_product` pads `A` with
/// such modes) and one more.
type StarPad<AS, AD> = crate::detail::MCons<U1, typenum::U0, <FlatModes<AS, AD> as FilterModes<Trivial>>::Output>;
/// `A*` in that padded form, as a type.
type StarN1<AS, AD> = <StarPad<AS, AD> as PadDyn>::Output;

/// The mixed branch of the 1-D product: `(A, A* ∘ B)`.
impl<AS, AD, BS, BD> Split1DBy<ProductOp, Layout<BS, BD>, B0> for Layout<AS, AD>
where
    Self: crate::int_tuple::AllStatic,
    Self: ProductGridBy<Layout<BS, BD>, <Self as crate::int_tuple::AllStatic>::Bit>,
{
    type X = Self;
    type Y = <Self as ProductGridBy<Layout<BS, BD>, <Self as crate::int_tuple::AllStatic>::Bit>>::Y;
}

/// The grid `A* ∘ B` of a product with a run-time leaf, by the branch
/// `Static` of `A`: `B1` for an all-static `A` (its `A*` found at compile
/// time but for the last mode's size), `B0` for an `A` with a run-time
/// leaf (`A*` in the padded form of `N + 1` run-time leaves, `1:0` modes
/// in front so that its last mode stays the unbounded one).
#[doc(hidden)]
pub trait ProductGridBy<B, Static> {
    /// The grid.
    type Y;
}
impl<AS, AD, BS, BD> ProductGridBy<Layout<BS, BD>, typenum::B0> for Layout<AS, AD>
where
    Self: LayoutFolds<AnyCount>,
    Self: ProductGridMixed<Layout<BS, BD>, <Self as LayoutFolds<AnyCount>>::Bit>,
{
    type Y = <Self as ProductGridMixed<Layout<BS, BD>, <Self as LayoutFolds<AnyCount>>::Bit>>::Y;
}
/// The grid of a product whose `A` has a run-time leaf, by the branch
/// `Folds` ([`CuteFolds`]): `B1` where CuTe's complement is defined (one
/// mode kept, or all strides static) and its static sizes hold for any
/// run-time sizes: `A*` is CuTe's fold ([`CuteStar`]); `B0` otherwise: the
/// padded form of `N + 1` run-time leaves.
#[doc(hidden)]
pub trait ProductGridMixed<B, Folds> {
    /// The grid.
    type Y;
}
impl<A: CuteStar, BS, BD> ProductGridMixed<Layout<BS, BD>, typenum::B1> for A
where
    A::Star: TryComposeCoalesced<Layout<BS, BD>>,
{
    type Y = <A::Star as TryComposeCoalesced<Layout<BS, BD>>>::Output;
}
impl<AS, AD, BS, BD> ProductGridMixed<Layout<BS, BD>, typenum::B0> for Layout<AS, AD>
where
    AS: FlattenInto<AD, MNil>,
    FlatModes<AS, AD>: FilterModes<Trivial>,
    StarPad<AS, AD>: PadDyn,
    StarN1<AS, AD>: TryCompose<Layout<BS, BD>>,
{
    type Y = <StarN1<AS, AD> as TryCompose<Layout<BS, BD>>>::Output;
}
impl<AS, AD, BS, BD> ProductGridBy<Layout<BS, BD>, typenum::B1> for Layout<AS, AD>
where
    Self: StaticWalk,
    CompKept<AS, AD>: PushMode<crate::Dyn, CompCurr<AS, AD>>,
    RunTimeModes<AS, AD>: ModesToLayout,
    StarExt<AS, AD>: TryComposeCoalesced<Layout<BS, BD>>,
{
    type Y = <StarExt<AS, AD> as TryComposeCoalesced<Layout<BS, BD>>>::Output;
}

/// The value of `blocked_product` / `raked_product` (`How` is `Blocked`
/// or `Raked`) of `A` by `B`: zero-sized when both are all-static, computed
/// (and checked) when one has a run-time leaf. Generic code that calls them
/// bounds the result by it.
pub trait RankProductValue<How, A, B>: Sized {
    /// The product.
    fn make(a: A, b: B) -> Self;
    /// The product, or the error cute-dynamic gives: what
    /// [`try_blocked_product`](crate::try_blocked_product) and
    /// [`try_raked_product`](crate::try_raked_product) return (their
    /// post-conditions), `Ok` for all-static arguments.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// fn blocks<A: BlockedProduct<B>, B>(a: A, b: B) -> Result<A::Output, cute_dynamic::LayoutError>
    /// where
    ///     A::Output: BlockedProductValue<A, B>,
    /// {
    ///     try_blocked_product(a, b) // = <A::Output as BlockedProductValue<A, B>>::try_make(a, b)
    /// }
    /// assert_eq!(
    ///     blocks(layout!((2,5):(5,1)), layout!(({3i64},4):(1,3))).unwrap().to_string(),
    ///     "((_2,3),(_5,_4)):((_5,_10),(_1,_30))"
    /// );
    /// assert!(blocks(layout!({4i64}:2), layout!(3:1)).is_err());
    /// ```
    fn try_make(a: A, b: B) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O, How, A, B> RankProductValue<How, A, B> for O
where
    (A, B): crate::int_tuple::AllStatic,
    O: RankProductValueBy<How, A, B, <(A, B) as crate::int_tuple::AllStatic>::Bit>,
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn make(a: A, b: B) -> O {
        <O as RankProductValueBy<How, A, B, <(A, B) as crate::int_tuple::AllStatic>::Bit>>::make(a, b)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(a: A, b: B) -> Result<O, cute_dynamic::LayoutError> {
        <O as RankProductValueBy<How, A, B, <(A, B) as crate::int_tuple::AllStatic>::Bit>>::try_make(a, b)
    }
}
/// [`RankProductValue`] by branch: `Static` is `B1` when both are
/// all-static.
#[doc(hidden)]
pub trait RankProductValueBy<How, A, B, Static>: Sized {
    /// The product.
    fn make(a: A, b: B) -> Self;
    /// The product, or the error cute-dynamic gives.
    fn try_make(a: A, b: B) -> Result<Self, cute_dynamic::LayoutError>;
}
impl<O: crate::layout::StaticValue, How, A, B> RankProductValueBy<How, A, B, typenum::B1> for O {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn make(_: A, _: B) -> O {
        O::value()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(_: A, _: B) -> Result<O, cute_dynamic::LayoutError> {
        Ok(O::value())
    }
}

#[cfg(feature = "std")]
mod run_time {
    use super::*;
    use crate::complement::{StaticModes, cute_star, ext_modes, mixed_ext_modes};
    use crate::composition::Fail;
    use crate::detail::CompGap;
    use crate::run_time::TOO_MANY_MODES;
    use crate::run_time::{FromLeaves, Leaves, MAX_MODES, extent_fits, flat_modes};
    use typenum::Unsigned;

    /// The leaves of `(A, A* ∘ B)` for an all-static `Self = A` and a
    /// layout `B` with a run-time leaf, checked as cute-dynamic's product.
    #[doc(hidden)]
    pub trait TryProduct<B> {
        /// Writes `A`'s leaves then `A* ∘ B`'s.
        fn product_leaves(&self, b: &B, out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError>;
    }
    impl<AS, AD, B> TryProduct<B> for Layout<AS, AD>
    where
        Self: crate::int_tuple::AllStatic,
        Self: TryProductBy<B, <Self as crate::int_tuple::AllStatic>::Bit>,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn product_leaves(&self, b: &B, out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
            <Self as TryProductBy<B, <Self as crate::int_tuple::AllStatic>::Bit>>::leaves_by(self, b, out)
        }
    }
    /// [`TryProduct`] by the branch `Static` of `A` (see [`ProductGridBy`]).
    #[doc(hidden)]
    pub trait TryProductBy<B, Static> {
        /// Writes `A`'s leaves then `A* ∘ B`'s.
        fn leaves_by(&self, b: &B, out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError>;
    }

    /// The span `1 + Σ (s−1)·|d|` of `B`'s offsets, over which the
    /// replicas must be told apart (negative strides included, as
    /// cute-dynamic).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn span_of<BS: FlatValues + crate::Congruent<BD>, BD: FlatValues>(
        b: &Layout<BS, BD>,
    ) -> Result<i64, cute_dynamic::LayoutError> {
        let (mut s, mut d) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
        let (mut n, mut k) = (0, 0);
        let _ = b.shape().write(&mut s, &mut n) && b.stride().write(&mut d, &mut k);
        let mut span = 1i64;
        for i in 0..n {
            span = (s[i] - 1)
                .checked_mul(d[i].checked_abs().unwrap_or(i64::MAX))
                .and_then(|x| x.checked_add(span))
                .ok_or(Fail::Overflow("logical_product").into_error(&String::new))?;
        }
        Ok(span)
    }

    impl<AS, AD, BS, BD, YS, YD> TryProductBy<Layout<BS, BD>, typenum::B0> for Layout<AS, AD>
    where
        AS: FlattenInto<AD, MNil> + FlatValues + crate::Congruent<AD>,
        AD: FlatValues,
        BS: FlatValues + crate::Congruent<BD>,
        BD: FlatValues,
        Self: LayoutFolds<AnyCount>,
        Self: TryProductMixed<Layout<BS, BD>, <Self as LayoutFolds<AnyCount>>::Bit, Grid = Layout<YS, YD>>,
        YS: FlatValues + crate::Congruent<YD>,
        YD: FlatValues,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn leaves_by(&self, b: &Layout<BS, BD>, out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
            let y = (|| {
                let m = (self.size() as i64).checked_mul(span_of(b).ok()?)?;
                <Self as TryProductMixed<Layout<BS, BD>, <Self as LayoutFolds<AnyCount>>::Bit>>::grid(self, b, m)
            })();
            let Some(y) = y else { return Err(product_failure(self.to_dynamic(), b.to_dynamic())) };
            let e = |f: Fail| f.into_error(&String::new);
            out.push_layout(&self.shape(), &self.stride()).map_err(e)?;
            out.push_layout(&y.shape(), &y.stride()).map_err(e)
        }
    }
    /// The grid `A* ∘ B` of a product whose `A` has a run-time leaf, by the
    /// branch `Folds` of [`ProductGridMixed`], for the cotarget `m` of
    /// `A*`; `None` where the run-time walk stops (cute-dynamic then names
    /// the error).
    #[doc(hidden)]
    pub trait TryProductMixed<B, Folds> {
        /// The grid's type.
        type Grid;
        /// The grid.
        fn grid(&self, b: &B, m: i64) -> Option<Self::Grid>;
    }
    impl<AS, AD, BS, BD, SS, SD> TryProductMixed<Layout<BS, BD>, typenum::B1> for Layout<AS, AD>
    where
        AS: FlatValues + crate::Congruent<AD>,
        AD: FlatValues,
        Self: CuteStar<Star = Layout<SS, SD>>,
        SS: FromLeaves + FlatValues + crate::Congruent<SD>,
        SD: FromLeaves,
        Layout<SS, SD>: TryComposeCoalesced<Layout<BS, BD>>,
    {
        type Grid = <Layout<SS, SD> as TryComposeCoalesced<Layout<BS, BD>>>::Output;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn grid(&self, b: &Layout<BS, BD>, m: i64) -> Option<Self::Grid> {
            let star: Layout<SS, SD> = cute_star(&self.shape(), &self.stride(), m, false)?;
            star.try_compose_coalesced(b).ok()
        }
    }
    impl<AS, AD, BS, BD> TryProductMixed<Layout<BS, BD>, typenum::B0> for Layout<AS, AD>
    where
        AS: FlattenInto<AD, MNil> + FlatValues + crate::Congruent<AD>,
        AD: FlatValues,
        FlatModes<AS, AD>: FilterModes<Trivial>,
        StarPad<AS, AD>: PadDyn,
        StarN1<AS, AD>: TryCompose<Layout<BS, BD>>,
    {
        type Grid = <StarN1<AS, AD> as TryCompose<Layout<BS, BD>>>::Output;
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn grid(&self, b: &Layout<BS, BD>, m: i64) -> Option<Self::Grid> {
            type P<AS, AD> = StarPad<AS, AD>;
            let (modes, n) = flat_modes(&self.shape(), &self.stride());
            let rank = <P<AS, AD> as PadDyn>::RANK;
            let mut ext = [(1i64, 0i64); MAX_MODES];
            let k = mixed_ext_modes(&modes[..n], m, &mut ext)?;
            if k > rank || !extent_fits(&ext[..k]) {
                return None;
            }
            // `1:0` in front, the last (unbounded) mode last.
            let mut v = [(1i64, 0i64); MAX_MODES];
            v[rank - k..rank].copy_from_slice(&ext[..k]);
            let star = <P<AS, AD> as PadDyn>::build(&v[..rank]);
            star.try_compose(b).ok()
        }
    }

    /// cute-dynamic's error where the run-time walk of a product stopped
    /// (cold).
    #[cold]
    #[inline(never)]
    fn product_failure(a: cute_dynamic::Layout, b: cute_dynamic::Layout) -> cute_dynamic::LayoutError {
        match cute_dynamic::logical_product(&a, &b) {
            Err(e) => e,
            Ok(r) => cute_dynamic::LayoutError::Unsupported {
                what: format!("logical_product({a}, {b}) = {r} does not fit the padded form"),
            },
        }
    }

    impl<AS, AD, BS, BD, YS, YD> TryProductBy<Layout<BS, BD>, typenum::B1> for Layout<AS, AD>
    where
        AS: FlattenInto<AD, MNil> + FlatValues + crate::Congruent<AD>,
        AD: FlatValues,
        BS: FlatValues + crate::Congruent<BD>,
        BD: FlatValues,
        Self: StaticWalk,
        CompKept<AS, AD>: StaticModes + PushMode<crate::Dyn, CompCurr<AS, AD>>,
        CompCurr<AS, AD>: Unsigned,
        CompGap<AS, AD>: Unsigned,
        RunTimeModes<AS, AD>: ModesToLayout,
        <RunTimeModes<AS, AD> as ModesToLayout>::Shape:
            FromLeaves + crate::Congruent<<RunTimeModes<AS, AD> as ModesToLayout>::Stride>,
        <RunTimeModes<AS, AD> as ModesToLayout>::Stride: FromLeaves,
        StarExt<AS, AD>: TryComposeCoalesced<Layout<BS, BD>, Output = Layout<YS, YD>>,
        YS: FlatValues + crate::Congruent<YD>,
        YD: FlatValues,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn leaves_by(&self, b: &Layout<BS, BD>, out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
            let span = span_of(b)?;
            let m = (self.size() as i64)
                .checked_mul(span)
                .ok_or_else(|| Fail::Overflow("logical_product").into_error(&String::new))?;
            let (modes, nm) = ext_modes::<AS, AD>(m);
            let mut star = Leaves::new();
            for x in &modes[..nm] {
                star.push_pair(x.s, x.d);
            }
            let (mut i, mut j) = (0, 0);
            let ss =
                <<RunTimeModes<AS, AD> as ModesToLayout>::Shape as FromLeaves>::from_leaves(star.all(), &mut i, false);
            let sd =
                <<RunTimeModes<AS, AD> as ModesToLayout>::Stride as FromLeaves>::from_leaves(star.all(), &mut j, true);
            let star: StarExt<AS, AD> = Layout::from_checked(ss, sd);
            let y = star.try_compose_coalesced(b)?;
            let e = |f: Fail| f.into_error(&String::new);
            out.push_layout(&self.shape(), &self.stride()).map_err(e)?;
            out.push_layout(&y.shape(), &y.stride()).map_err(e)
        }
    }

    /// The mixed branch of [`ProductValue`](crate::product::ProductValue):
    /// the leaves in the order of the arrangement `How`, then the result's
    /// type filled from them.
    impl<How, S: FromLeaves, D: FromLeaves, A: ProductLeaves<How, B>, B> ProductValueBy<How, A, B, B0> for Layout<S, D> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[track_caller]
        fn make(a: A, b: B) -> Self {
            match fill::<How, S, D, A, B>(&a, &b) {
                Ok(r) => r,
                Err(e) => crate::composition::fail(e),
            }
        }
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_make(a: A, b: B) -> Result<Self, cute_dynamic::LayoutError> {
            fill::<How, S, D, A, B>(&a, &b)
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn fill<How, S: FromLeaves, D: FromLeaves, A: ProductLeaves<How, B>, B>(
        a: &A,
        b: &B,
    ) -> Result<Layout<S, D>, cute_dynamic::LayoutError> {
        let mut out = Leaves::new();
        a.leaves_as(b, &mut out)?;
        let (mut i, mut j) = (0, 0);
        let s = S::from_leaves(out.all(), &mut i, false);
        let d = D::from_leaves(out.all(), &mut j, true);
        Ok(Layout::from_checked(s, d))
    }

    // ------------------------------------------------------ by a tiler

    /// The leaves of the product of `Self` by `B` (a layout, an integer or
    /// a tiler) in the order of the arrangement `How`, checked as
    /// cute-dynamic's product.
    #[doc(hidden)]
    pub trait ProductLeaves<How, B> {
        /// Writes the leaves into `out` (empty on entry).
        fn leaves_as(&self, b: &B, out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError>;
    }

    /// A tiler's arrangement: where a tiled mode's repetition goes.
    #[doc(hidden)]
    pub trait ProductOrder {
        /// All tiles first, then all repetitions and the untouched modes
        /// (zipped, tiled, flat), rather than each mode's `(tile,
        /// repetition)` side by side (logical).
        const ZIPPED: bool;
    }
    impl ProductOrder for crate::detail::Logical {
        const ZIPPED: bool = false;
    }
    impl ProductOrder for crate::detail::Zipped {
        const ZIPPED: bool = true;
    }
    impl ProductOrder for crate::detail::Tiled {
        const ZIPPED: bool = true;
    }
    impl ProductOrder for crate::detail::Flat {
        const ZIPPED: bool = true;
    }

    /// A tile as the layout CuTe makes of it (`make_layout(n)` for an
    /// integer): the value of [`TileArg::Tile`](crate::detail::TileArg).
    #[doc(hidden)]
    pub trait AsTile: crate::detail::TileArg {
        /// The tile's layout.
        fn as_tile(&self) -> Self::Tile;
    }
    impl<S: Copy, D: Copy> AsTile for Layout<S, D> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn as_tile(&self) -> Self {
            *self
        }
    }
    impl AsTile for crate::Dyn {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn as_tile(&self) -> Layout<crate::Dyn, U1> {
            Layout::from_checked(*self, U1::new())
        }
    }
    impl<U, B> AsTile for typenum::UInt<U, B>
    where
        Self: crate::detail::IntTileStride + Copy,
        <Self as crate::detail::IntTileStride>::Stride: Default,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn as_tile(&self) -> Self::Tile {
            Layout::from_checked(*self, Default::default())
        }
    }

    // A whole tile (a layout or an integer): `(A, A* ∘ B)`, the same leaves
    // in every arrangement.
    macro_rules! whole_tile_product {
        ($($g:ident),* ; $T:ty) => {
            impl<How, A, $($g),*> ProductLeaves<How, $T> for A
            where
                $T: AsTile,
                A: TryProduct<<$T as crate::detail::TileArg>::Tile>,
            {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn leaves_as(&self, b: &$T, out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
                    self.product_leaves(&b.as_tile(), out)
                }
            }
        };
    }
    whole_tile_product!(BS, BD; Layout<BS, BD>);
    whole_tile_product!(; crate::Dyn);
    whole_tile_product!(U, B; typenum::UInt<U, B>);

    impl<How, A: ProductLeaves<How, T>, T> ProductLeaves<How, crate::Tiler<T>> for A {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn leaves_as(&self, b: &crate::Tiler<T>, out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
            self.leaves_as(&b.0, out)
        }
    }

    // A tuple tiler: the modes' parts gathered in the arrangement's order
    // (`ModeProductBy` of the tuple), the repetitions after the tiles when
    // zipped.
    macro_rules! tuple_tiler_product {
        ($($i:tt $T:ident $S:ident $D:ident),+) => {
            impl<How: ProductOrder, A, $($T),+> ProductLeaves<How, ($($T,)+)> for A
            where
                A: ModeProductBy<How, ($($T,)+), B0>,
            {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn leaves_as(&self, t: &($($T,)+), out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
                    let mut y = Leaves::new();
                    self.mode_product_by(t, out, &mut y)?;
                    append(out, y.all())
                }
            }
        };
    }
    for_each_tuple!(tuple_tiler_product);

    /// Appends leaves, or the error of too many.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn append(out: &mut Leaves, l: &[(i64, i64)]) -> Result<(), cute_dynamic::LayoutError> {
        if out.all().len() + l.len() > 2 * MAX_MODES {
            return Err(TOO_MANY_MODES.into_error(&String::new));
        }
        for &(s, d) in l {
            out.push_pair(s, d);
        }
        Ok(())
    }

    /// One mode's product by its tile `T` in the arrangement `How`: each
    /// mode by its own branch, from the static algebra's answer when the
    /// mode and the tile are all-static (as the result's type takes it), by
    /// the run-time product otherwise.
    #[doc(hidden)]
    pub trait ModeProduct<How, T> {
        /// Writes the mode's part: zipped, its tiles' leaves to `x` and its
        /// repetitions' (and untouched modes') to `y`; logical, all of it
        /// to `x`.
        fn mode_product(&self, t: &T, x: &mut Leaves, y: &mut Leaves) -> Result<(), cute_dynamic::LayoutError>;
    }
    type TileOf<T> = <T as crate::detail::TileArg>::Tile;
    // The tile's own leaves decide (a nested tuple of tiles included): the
    // same bit as its canonical tile's.
    type ModeBit<S, D, T> = crate::int_tuple::BothStatic<Layout<S, D>, T>;
    impl<How, S, D, T> ModeProduct<How, T> for Layout<S, D>
    where
        Self: crate::int_tuple::AllStatic,
        T: crate::int_tuple::AllStatic,
        Self: ModeProductBy<How, T, ModeBit<S, D, T>>,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn mode_product(&self, t: &T, x: &mut Leaves, y: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
            <Self as ModeProductBy<How, T, ModeBit<S, D, T>>>::mode_product_by(self, t, x, y)
        }
    }
    /// [`ModeProduct`] by branch (`Static` is `B1` for an all-static mode
    /// and tile).
    #[doc(hidden)]
    pub trait ModeProductBy<How, T, Static> {
        /// As [`ModeProduct::mode_product`].
        fn mode_product_by(&self, t: &T, x: &mut Leaves, y: &mut Leaves) -> Result<(), cute_dynamic::LayoutError>;
    }

    /// The leaves of an all-static layout type.
    #[doc(hidden)]
    pub trait PushStatic {
        /// Appends them to `out`.
        fn push_static(out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError>;
    }
    impl<S: FlatValues + crate::Congruent<D>, D: FlatValues> PushStatic for Layout<S, D>
    where
        Self: crate::layout::StaticValue,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn push_static(out: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
            let l = <Self as crate::layout::StaticValue>::value();
            let (mut v, e) = (Leaves::new(), |f: Fail| f.into_error(&String::new));
            v.push_layout(&l.shape(), &l.stride()).map_err(e)?;
            append(out, v.all())
        }
    }
    type LogicalOf<S, D, T> = <TileOf<T> as crate::detail::TileLogical<ProductOp, Layout<S, D>>>::Output;
    impl<S, D, T: crate::detail::TileArg> ModeProductBy<crate::detail::Logical, T, typenum::B1> for Layout<S, D>
    where
        TileOf<T>: crate::detail::TileLogical<ProductOp, Self>,
        LogicalOf<S, D, T>: PushStatic,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn mode_product_by(&self, _: &T, x: &mut Leaves, _: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
            <LogicalOf<S, D, T> as PushStatic>::push_static(x)
        }
    }
    type PartsOf<S, D, T> = <TileOf<T> as crate::detail::TileParts<ProductOp, Layout<S, D>>>::X;
    type RestsOf<S, D, T> = <TileOf<T> as crate::detail::TileParts<ProductOp, Layout<S, D>>>::Y;
    macro_rules! zipped_static_mode {
        ($How:ty) => {
            impl<S, D, T: crate::detail::TileArg> ModeProductBy<$How, T, typenum::B1> for Layout<S, D>
            where
                TileOf<T>: crate::detail::TileParts<ProductOp, Self>,
                PartsOf<S, D, T>: PushStatic,
                RestsOf<S, D, T>: PushStatic,
            {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn mode_product_by(
                    &self,
                    _: &T,
                    x: &mut Leaves,
                    y: &mut Leaves,
                ) -> Result<(), cute_dynamic::LayoutError> {
                    <PartsOf<S, D, T> as PushStatic>::push_static(x)?;
                    <RestsOf<S, D, T> as PushStatic>::push_static(y)
                }
            }
        };
    }
    zipped_static_mode!(crate::detail::Zipped);
    zipped_static_mode!(crate::detail::Tiled);
    zipped_static_mode!(crate::detail::Flat);

    // A whole tile on a mode with a run-time leaf (or a run-time tile):
    // the run-time product `(A_k, A_k* ∘ B_k)` of the mode, split after the
    // mode's own leaves.
    macro_rules! whole_tile_mode {
        ($($g:ident),* ; $T:ty) => {
            impl<How: ProductOrder, S: FlatValues, D, $($g),*> ModeProductBy<How, $T, B0> for Layout<S, D>
            where
                $T: AsTile,
                Self: TryProduct<<$T as crate::detail::TileArg>::Tile>,
            {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn mode_product_by(&self, t: &$T, x: &mut Leaves, y: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
                    let mut m = Leaves::new();
                    self.product_leaves(&t.as_tile(), &mut m)?;
                    let (a, g) = m.all().split_at(S::LEAVES.min(m.all().len()));
                    append(x, a)?;
                    append(if How::ZIPPED { y } else { x }, g)
                }
            }
        };
    }
    whole_tile_mode!(BS, BD; Layout<BS, BD>);
    whole_tile_mode!(; crate::Dyn);
    whole_tile_mode!(U, B; typenum::UInt<U, B>);

    // A tuple of tiles `<T0, ..., Tk>` on a layout of rank n ≥ k (the whole
    // tiler, or a nested one on a mode): tile i on mode i, each by its own
    // branch, then the modes past the tiles, untouched (CuTe's by-mode
    // product of a tuple tiler).
    macro_rules! tuple_tile_mode {
        ([$($i:tt $T:ident $S:ident $D:ident),+] [$($j:tt $U:ident $RS:ident $RD:ident),*]) => {
            impl<How: ProductOrder, $($T, $S: Copy + crate::Congruent<$D>, $D: Copy + crate::IntTuple,)+ $($RS: FlatValues, $RD: FlatValues,)*>
                ModeProductBy<How, ($($T,)+), B0> for Layout<($($S,)+ $($RS,)*), ($($D,)+ $($RD,)*)>
            where
                ($($S,)+ $($RS,)*): crate::Congruent<($($D,)+ $($RD,)*)>,
                ($($D,)+ $($RD,)*): crate::IntTuple,
                $(Layout<$S, $D>: ModeProduct<How, $T>,)+
            {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn mode_product_by(&self, t: &($($T,)+), x: &mut Leaves, y: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
                    let (s, d) = (self.shape(), self.stride());
                    $(Layout::from_checked(s.$i, d.$i).mode_product(&t.$i, x, y)?;)+
                    $(
                        (if How::ZIPPED { &mut *y } else { &mut *x })
                            .push_layout(&s.$j, &d.$j)
                            .map_err(|f| f.into_error(&String::new))?;
                    )*
                    Ok(())
                }
            }
        };
    }
    for_each_tuple!(split tuple_tile_mode);

    // A scalar layout is its one mode (CuTe's rank 1): a tiler of one tile
    // on it is that tile on the whole layout.
    macro_rules! scalar_tile_mode {
        ($($g:ident),* ; $S:ty) => {
            impl<How, D, T0, $($g),*> ModeProductBy<How, (T0,), B0> for Layout<$S, D>
            where
                Self: ModeProduct<How, T0>,
            {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn mode_product_by(&self, t: &(T0,), x: &mut Leaves, y: &mut Leaves) -> Result<(), cute_dynamic::LayoutError> {
                    self.mode_product(&t.0, x, y)
                }
            }
        };
    }
    scalar_tile_mode!(; crate::Dyn);
    scalar_tile_mode!(U, B; typenum::UInt<U, B>);

    // ------------------------------------------------ blocked / raked

    /// The order of a rank product's pairs.
    #[doc(hidden)]
    pub trait RankOrder {
        /// The grid's mode comes first (`raked_product`).
        const GRID_FIRST: bool;
    }
    impl RankOrder for crate::product::Blocked {
        const GRID_FIRST: bool = false;
    }
    impl RankOrder for crate::product::Raked {
        const GRID_FIRST: bool = true;
    }

    /// The number of leaves of each layout of a list of modes.
    #[doc(hidden)]
    pub trait ModeLeafCounts {
        /// Appends them to `out[*n..]`.
        fn counts(out: &mut [usize; MAX_MODES], n: &mut usize);
    }
    impl ModeLeafCounts for crate::detail::HNil {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn counts(_: &mut [usize; MAX_MODES], _: &mut usize) {}
    }
    impl<S: FlatValues, D, T: ModeLeafCounts> ModeLeafCounts for crate::detail::HCons<Layout<S, D>, T> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn counts(out: &mut [usize; MAX_MODES], n: &mut usize) {
            if let Some(slot) = out.get_mut(*n) {
                *slot = S::LEAVES;
                *n += 1;
            }
            T::counts(out, n)
        }
    }

    /// The parts of `blocked_product(Self, B)` as types: the padded
    /// layouts, the padded modes of `A` and the grid's modes.
    #[doc(hidden)]
    pub trait RankParts<B> {
        /// `A` padded to the common rank.
        type Pa;
        /// `B` padded to the common rank.
        type Pb;
        /// The modes of the padded `A`.
        type PadModes: ModeLeafCounts;
        /// The modes of the grid `A* ∘ B`.
        type GridModes: ModeLeafCounts;
    }
    impl<AS, AD, BS, BD> RankParts<Layout<BS, BD>> for Layout<AS, AD>
    where
        Self: crate::detail::ModesOf,
        Layout<BS, BD>: crate::detail::ModesOf,
        <Self as crate::detail::ModesOf>::Output:
            crate::detail::PadToSameRank<<Layout<BS, BD> as crate::detail::ModesOf>::Output>,
        crate::detail::PadA<Self, Layout<BS, BD>>: crate::detail::MakeLayout + ModeLeafCounts,
        crate::detail::PadB<Self, Layout<BS, BD>>: crate::detail::MakeLayout,
        crate::detail::PaL<Self, Layout<BS, BD>>:
            crate::detail::Split1D<crate::detail::ProductOp, crate::detail::PbL<Self, Layout<BS, BD>>>,
        crate::detail::GridL<Self, Layout<BS, BD>>: crate::detail::ModesOf,
        <crate::detail::GridL<Self, Layout<BS, BD>> as crate::detail::ModesOf>::Output: ModeLeafCounts,
    {
        type Pa = crate::detail::PaL<Self, Layout<BS, BD>>;
        type Pb = crate::detail::PbL<Self, Layout<BS, BD>>;
        type PadModes = crate::detail::PadA<Self, Layout<BS, BD>>;
        type GridModes = <crate::detail::GridL<Self, Layout<BS, BD>> as crate::detail::ModesOf>::Output;
    }

    /// A layout of the given type from a layout's leaves, `1:0` appended
    /// for its padding modes.
    #[doc(hidden)]
    pub trait PaddedFrom<S, D> {
        /// `l`'s leaves, then `1:0` up to `Self`'s number of leaves.
        fn padded_from(l: &Layout<S, D>) -> Result<Self, cute_dynamic::LayoutError>
        where
            Self: Sized;
    }
    impl<S: FlatValues + crate::Congruent<D>, D: FlatValues, PS: FromLeaves + FlatValues, PD: FromLeaves>
        PaddedFrom<S, D> for Layout<PS, PD>
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn padded_from(l: &Layout<S, D>) -> Result<Self, cute_dynamic::LayoutError> {
            let mut v = Leaves::new();
            v.push_layout(&l.shape(), &l.stride()).map_err(|f| f.into_error(&String::new))?;
            while v.all().len() < PS::LEAVES {
                v.push_pair(1, 0);
            }
            let (mut i, mut j) = (0, 0);
            Ok(Layout::from_checked(PS::from_leaves(v.all(), &mut i, false), PD::from_leaves(v.all(), &mut j, true)))
        }
    }

    /// `blocked_product` / `raked_product` with a run-time leaf: the
    /// padded `(A, A* ∘ B)` computed, then its modes paired.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn rank_product<How: RankOrder, AS, AD, BS, BD, OS: FromLeaves, OD: FromLeaves>(
        a: &Layout<AS, AD>,
        b: &Layout<BS, BD>,
    ) -> Result<Layout<OS, OD>, cute_dynamic::LayoutError>
    where
        Layout<AS, AD>: RankParts<Layout<BS, BD>>,
        <Layout<AS, AD> as RankParts<Layout<BS, BD>>>::Pa:
            PaddedFrom<AS, AD> + TryProduct<<Layout<AS, AD> as RankParts<Layout<BS, BD>>>::Pb>,
        <Layout<AS, AD> as RankParts<Layout<BS, BD>>>::Pb: PaddedFrom<BS, BD>,
    {
        type P<A, B> = <A as RankParts<B>>::Pa;
        type Q<A, B> = <A as RankParts<B>>::Pb;
        let pa = <P<Layout<AS, AD>, Layout<BS, BD>> as PaddedFrom<AS, AD>>::padded_from(a)?;
        let pb = <Q<Layout<AS, AD>, Layout<BS, BD>> as PaddedFrom<BS, BD>>::padded_from(b)?;
        let mut lv = Leaves::new();
        pa.product_leaves(&pb, &mut lv)?;
        let (mut ca, mut na) = ([0usize; MAX_MODES], 0);
        let (mut cg, mut ng) = ([0usize; MAX_MODES], 0);
        <<Layout<AS, AD> as RankParts<Layout<BS, BD>>>::PadModes as ModeLeafCounts>::counts(&mut ca, &mut na);
        <<Layout<AS, AD> as RankParts<Layout<BS, BD>>>::GridModes as ModeLeafCounts>::counts(&mut cg, &mut ng);
        let all = lv.all();
        let grid_at: usize = ca[..na].iter().sum();
        let mut out = Leaves::new();
        let (mut ia, mut ig) = (0, grid_at);
        for k in 0..na.min(ng) {
            let ak = &all[ia..ia + ca[k]];
            let gk = &all[ig..ig + cg[k]];
            ia += ca[k];
            ig += cg[k];
            let (first, second) = if How::GRID_FIRST { (gk, ak) } else { (ak, gk) };
            for &(s, d) in first.iter().chain(second) {
                out.push_pair(s, d);
            }
        }
        let (mut i, mut j) = (0, 0);
        Ok(Layout::from_checked(OS::from_leaves(out.all(), &mut i, false), OD::from_leaves(out.all(), &mut j, true)))
    }

    /// The run-time branch of [`RankProductValue`].
    impl<How: RankOrder, AS, AD, BS, BD, OS: FromLeaves, OD: FromLeaves>
        RankProductValueBy<How, Layout<AS, AD>, Layout<BS, BD>, typenum::B0> for Layout<OS, OD>
    where
        Layout<AS, AD>: RankParts<Layout<BS, BD>>,
        <Layout<AS, AD> as RankParts<Layout<BS, BD>>>::Pa:
            PaddedFrom<AS, AD> + TryProduct<<Layout<AS, AD> as RankParts<Layout<BS, BD>>>::Pb>,
        <Layout<AS, AD> as RankParts<Layout<BS, BD>>>::Pb: PaddedFrom<BS, BD>,
    {
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[track_caller]
        fn make(a: Layout<AS, AD>, b: Layout<BS, BD>) -> Self {
            match rank_product::<How, AS, AD, BS, BD, OS, OD>(&a, &b) {
                Ok(r) => r,
                Err(e) => crate::composition::fail(e),
            }
        }
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn try_make(a: Layout<AS, AD>, b: Layout<BS, BD>) -> Result<Self, cute_dynamic::LayoutError> {
            rank_product::<How, AS, AD, BS, BD, OS, OD>(&a, &b)
        }
    }
}
