//! The divides with run-time ([`Dyn`]) leaves, in the layout or in the
//! tiler's one-mode tiles.
//!
//! The all-static divides are decided in trait resolution (`detail/divide.rs`,
//! unchanged). With a run-time leaf in the layout, the by-mode structure is
//! still found there (the same arrangement traits), and each 1-D divide
//! `A ∘ (B, B*)` with `B* = complement(B, size(A))` takes the branch of
//! this file: `B*` of a static tile `n:d` against the run-time size `M` of
//! the mode is `⌈M/n⌉:n` for `d = 1`, `M:1` for `n = 1` (a tile of size 1
//! drops out of the complement) and `(d, ⌈M/(n·d)⌉):(1, n·d)`
//! otherwise (ragged: `⌈⌉` as CuTe and cute-dynamic), and the composition
//! is the mixed one of `composition.rs` (CuTe's padded form, cute-dynamic's
//! checks). A tile of stride 0 has no mixed divide (a compile error), but
//! for `1:0`, the tile of the integer 1 (CuTe's `make_layout(_1)`).
//!
//! A tile `n:d` with a run-time leaf (or a run-time integer `m`, CuTe's
//! `make_layout(m)` = `m:_1`) has `B*` in CuTe's form for `int` leaves: it
//! cannot coalesce what it does not know, so `(d, ⌈M/(n·d)⌉):(1, n·d)`
//! keeps both modes whatever the values, but for what CuTe's `filter` and
//! `coalesce` drop statically ([`RunTimeTile`]). Where CuTe's form is not
//! cute-dynamic's function (a run-time size 1 or stride 0 adds no offset,
//! so cute-dynamic's complement is `M:1`) the same type holds that
//! function; a negative stride is cute-dynamic's complement error.

use crate::composition::{DeferredChecks, Fail, Prepared, TryCompose, compose_leaf, finish, stride_bits};
use crate::detail::{DivideOp, Split1DBy, SplitHalves};
use crate::int_tuple::{Dyn, IntTuple};
use crate::layout::Layout;
use crate::run_time::{FlatValues, FromLeaves, MAX_MODES, TOO_MANY_MODES};
use core::ops::{BitOr, Mul};
use cute_dynamic::kernel::ceil_div;
use std::string::String;
use typenum::{B0, B1, Bit, Eq, IsEqual, Prod, U0, U1, UInt, Unsigned};

// ------------------------------------------------------------- the types

/// The complement `B*` of a static tile `n:Self` against a run-time size,
/// as a type; `B` is "the stride is 1".
#[doc(hidden)]
pub trait RestOf<N, B> {
    /// Shape of `(B, B*)`.
    type Shape;
    /// Stride of `(B, B*)`.
    type Stride;
}
impl<N, D> RestOf<N, B1> for D {
    type Shape = (N, Dyn);
    type Stride = (D, N);
}
impl<N, D: Mul<N>> RestOf<N, B0> for D {
    type Shape = (N, (D, Dyn));
    type Stride = (D, (U1, Prod<D, N>));
}
/// "The tile is `n:1` or `1:d`": its complement against `M` is then one
/// mode, `⌈M/n⌉:n` (for `n = 1`, `M:1`: a tile of size 1 adds nothing to
/// complement).
type Unit<N, D> = <Eq<D, U1> as BitOr<Eq<N, U1>>>::Output;
type BB<N, D> = Layout<<D as RestOf<N, Unit<N, D>>>::Shape, <D as RestOf<N, Unit<N, D>>>::Stride>;

/// The mixed branch of the 1-D divide: `A ∘ (B, B*)` split in halves.
/// The mixed branch of the 1-D divide by `1:0`, the tile of the integer 1:
/// `A ∘ ((1, M):(0, 1))`, as for any tile of size 1.
impl<AS, AD> Split1DBy<DivideOp, Layout<U1, U0>, B0> for Layout<AS, AD>
where
    Self: TryCompose<Layout<(U1, Dyn), (U0, U1)>>,
    <Self as TryCompose<Layout<(U1, Dyn), (U0, U1)>>>::Output: SplitHalves,
{
    type X = <<Self as TryCompose<Layout<(U1, Dyn), (U0, U1)>>>::Output as SplitHalves>::X;
    type Y = <<Self as TryCompose<Layout<(U1, Dyn), (U0, U1)>>>::Output as SplitHalves>::Y;
}

impl<AS, AD, UN: Unsigned, BN: Bit, UD: Unsigned, BD: Bit> Split1DBy<DivideOp, Layout<UInt<UN, BN>, UInt<UD, BD>>, B0>
    for Layout<AS, AD>
where
    UInt<UD, BD>: IsEqual<U1>,
    UInt<UN, BN>: IsEqual<U1>,
    Eq<UInt<UD, BD>, U1>: BitOr<Eq<UInt<UN, BN>, U1>>,
    UInt<UD, BD>: RestOf<UInt<UN, BN>, Unit<UInt<UN, BN>, UInt<UD, BD>>>,
    Self: TryCompose<BB<UInt<UN, BN>, UInt<UD, BD>>>,
    <Self as TryCompose<BB<UInt<UN, BN>, UInt<UD, BD>>>>::Output: SplitHalves,
{
    type X = <<Self as TryCompose<BB<UInt<UN, BN>, UInt<UD, BD>>>>::Output as SplitHalves>::X;
    type Y = <<Self as TryCompose<BB<UInt<UN, BN>, UInt<UD, BD>>>>::Output as SplitHalves>::Y;
}

/// `(B, B*)` of a tile `n:d` with a run-time leaf, as CuTe builds it:
/// CuTe cannot coalesce what it does not know, so `B* = (d, ⌈M/(n·d)⌉):(1,
/// n·d)` keeps both modes, but for what its `filter` and `coalesce` drop
/// statically (a static `d = 1`: one mode `⌈M/n⌉:n`; a static `n = 1`:
/// the tile drops out, `M:1`).
#[doc(hidden)]
pub trait RunTimeTile {
    /// The layout `(B, B*)`.
    type BB;
}
impl RunTimeTile for Layout<Dyn, Dyn> {
    type BB = Layout<(Dyn, (Dyn, Dyn)), (Dyn, (U1, Dyn))>;
}
impl RunTimeTile for Layout<U1, Dyn> {
    type BB = Layout<(U1, Dyn), (Dyn, U1)>;
}
impl<U, B2, B> RunTimeTile for Layout<UInt<UInt<U, B2>, B>, Dyn> {
    type BB = Layout<(UInt<UInt<U, B2>, B>, (Dyn, Dyn)), (Dyn, (U1, Dyn))>;
}
impl RunTimeTile for Layout<Dyn, U1> {
    type BB = Layout<(Dyn, Dyn), (U1, Dyn)>;
}
/// A static `d ≥ 2` with a run-time `n`: CuTe's first mode of `B*` is the
/// static `d`, but for `n = 1` at run time the complement is `M:1`, which
/// two modes of that first size cannot be when `d ∤ M`: the extent is
/// run-time here (the text `2` where CuTe prints `_2`).
impl<U, B2, B> RunTimeTile for Layout<Dyn, UInt<UInt<U, B2>, B>> {
    type BB = Layout<(Dyn, (Dyn, Dyn)), (UInt<UInt<U, B2>, B>, (U1, Dyn))>;
}
/// The mixed branch of the 1-D divide by a tile with a run-time leaf (the
/// macro names `(B, B*)` itself: a projection in the bound would be
/// normalized through the composition's impl, whose bounds do not hold for
/// a generic `A`).
macro_rules! run_time_tile_split {
    ($($g:ident),* ; $T:ty) => {
        impl<AS, AD, $($g),*> Split1DBy<DivideOp, $T, B0> for Layout<AS, AD>
        where
            $T: RunTimeTile<BB = BBr>,
            Self: TryCompose<BBr>,
            <Self as TryCompose<BBr>>::Output: SplitHalves,
        {
            type X = <<Self as TryCompose<BBr>>::Output as SplitHalves>::X;
            type Y = <<Self as TryCompose<BBr>>::Output as SplitHalves>::Y;
        }
    };
}
run_time_tile_split!(BBr; Layout<Dyn, Dyn>);
run_time_tile_split!(BBr; Layout<U1, Dyn>);
run_time_tile_split!(BBr, U, B2, B; Layout<UInt<UInt<U, B2>, B>, Dyn>);
run_time_tile_split!(BBr; Layout<Dyn, U1>);
run_time_tile_split!(BBr, U, B2, B; Layout<Dyn, UInt<UInt<U, B2>, B>>);

// ------------------------------------------------------------ the values

/// A tile of one mode `n:d`: a layout `n:d` or an integer `n` (the layout
/// `n:1`, `1:0` for a static `n = 1`, as
/// [`TileArg`](crate::detail::TileArg) has it), static (`d ≥ 1`, or `1:0`)
/// or with run-time leaves (any values).
#[doc(hidden)]
pub trait Tile1 {
    /// `A ∘ B` is CuTe's `_1:d` (the tile's extent is a static 1).
    const UNIT: bool;
    /// `B*` keeps two modes `(d, ⌈M/(n·d)⌉):(1, n·d)`, rather than one
    /// `⌈M/n⌉:n` (see [`RunTimeTile`]).
    const TWO: bool;
    /// `(n, d)`.
    fn nd(&self) -> (i64, i64);
}
impl<U: Unsigned, B: Bit> Tile1 for UInt<U, B> {
    const UNIT: bool = <UInt<U, B> as Unsigned>::I64 == 1;
    const TWO: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn nd(&self) -> (i64, i64) {
        let n = <UInt<U, B> as Unsigned>::I64;
        (n, if n == 1 { 0 } else { 1 })
    }
}
impl Tile1 for Layout<U1, U0> {
    const UNIT: bool = true;
    const TWO: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn nd(&self) -> (i64, i64) {
        (1, 0)
    }
}
impl<UN: Unsigned, BN: Bit, UD: Unsigned, BD: Bit> Tile1 for Layout<UInt<UN, BN>, UInt<UD, BD>> {
    const UNIT: bool = <UInt<UN, BN> as Unsigned>::I64 == 1;
    const TWO: bool = !(<UInt<UN, BN> as Unsigned>::I64 == 1 || <UInt<UD, BD> as Unsigned>::I64 == 1);
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn nd(&self) -> (i64, i64) {
        (<UInt<UN, BN> as Unsigned>::I64, <UInt<UD, BD> as Unsigned>::I64)
    }
}
/// A run-time integer tile `m` is CuTe's `make_layout(m)`, `m:_1`.
impl Tile1 for Dyn {
    const UNIT: bool = false;
    const TWO: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn nd(&self) -> (i64, i64) {
        (self.get(), 1)
    }
}
macro_rules! run_time_tile1 {
    ($($g:ident),* ; $S:ty, $D:ty, $unit:expr, $two:expr) => {
        impl<$($g),*> Tile1 for Layout<$S, $D>
        where
            $S: crate::Congruent<$D> + crate::Leaf,
            $D: IntTuple + crate::Leaf,
        {
            const UNIT: bool = $unit;
            const TWO: bool = $two;
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn nd(&self) -> (i64, i64) {
                (crate::Leaf::signed(&self.shape()), crate::Leaf::signed(&self.stride()))
            }
        }
    };
}
run_time_tile1!(; Dyn, Dyn, false, true);
run_time_tile1!(; U1, Dyn, true, false);
run_time_tile1!(U, B2, B; UInt<UInt<U, B2>, B>, Dyn, false, true);
run_time_tile1!(; Dyn, U1, false, false);
run_time_tile1!(U, B2, B; Dyn, UInt<UInt<U, B2>, B>, false, true);

/// A tile's values and how its 1-D divide is laid out (see [`Tile1`]).
#[derive(Clone, Copy, Debug)]
struct Cut {
    n: i64,
    td: i64,
    unit: bool,
    two: bool,
}
#[cfg_attr(not(debug_assertions), inline(always))]
fn cut<T: Tile1>(t: &T) -> Cut {
    let (n, td) = t.nd();
    Cut { n, td, unit: T::UNIT, two: T::TWO }
}

/// The room for a divide's leaves, in the result's order: the positions of
/// every part are constants of the types (see [`ModeLeaves::XN`]), so
/// after inlining the leaves live in registers, not in a buffer with a
/// run-time length.
#[doc(hidden)]
pub type Out = [(i64, i64); 2 * MAX_MODES];

/// `out[at..at + k]`, or [`TOO_MANY_MODES`] past the room.
#[cfg_attr(not(debug_assertions), inline(always))]
fn room(out: &mut Out, at: usize, k: usize) -> Result<&mut [(i64, i64)], Fail> {
    out.get_mut(at..at + k).ok_or(TOO_MANY_MODES)
}

/// The number of leaves of `B*`'s part of a 1-D divide of a mode of `k`
/// flat modes: one padded mode (`k` leaves) when the complement has one
/// mode, two otherwise (`two`, [`Tile1::TWO`]; see [`divide_1d`]).
const fn rest_leaves(k: usize, two: bool) -> usize {
    if two { 2 * k } else { k }
}

/// The number of leaves of `A ∘ B`'s part: one padded mode (`k` leaves),
/// or, for a tile of static extent 1 (`unit`) and `k > 1`, CuTe's `_1:d`
/// (its composition fold drops every mode).
const fn tile_leaves(k: usize, unit: bool) -> usize {
    if unit { 1 } else { k }
}

/// The 1-D divide of the mode `s:d` (any tree) by the tile `n:td`: the
/// leaves of `A ∘ B` into `out[xo..]`, those of `A ∘ B*` into `out[yo..]`,
/// checked together (distributivity over `(B, B*)`, as cute-dynamic
/// composes them). Each part is padded to `S::LEAVES` leaves per leaf of
/// `B` and `B*` (the flat modes of `A`). A failure becomes `to_error`'s
/// `LayoutError` (which names the mode).
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_1d<S: FlatValues, D: FlatValues>(
    s: &S,
    d: &D,
    c: Cut,
    out: &mut Out,
    xo: usize,
    yo: usize,
    to_error: impl FnOnce(Fail) -> cute_dynamic::LayoutError,
) -> Result<(), cute_dynamic::LayoutError> {
    if S::LEAVES == 1 {
        let (mut sv, mut dv, mut at) = ([0i64; MAX_MODES], [0i64; MAX_MODES], 0);
        if s.write(&mut sv, &mut at) && d.write(&mut dv, &mut 0) && at == 1 {
            let mode = (sv[0], dv[0]);
            let [x, y0, y1] = match divide_linear_small(mode, c) {
                Some(r) => r,
                // Out of line, so that the small case needs no stack frame.
                None => divide_linear(mode, c)?,
            };
            // (The positions are constants of the types, inside the room.)
            let Ok([xs]) = room(out, xo, 1) else { return Err(to_error(TOO_MANY_MODES)) };
            *xs = x;
            let Ok(ys) = room(out, yo, rest_leaves(1, c.two)) else { return Err(to_error(TOO_MANY_MODES)) };
            for (slot, v) in ys.iter_mut().zip([y0, y1]) {
                *slot = v;
            }
            return Ok(());
        }
    }
    divide_1d_rule(s, d, c, out, xo, yo).map_err(to_error)
}

/// [`divide_1d`] of a mode of one flat leaf `m:ad` by the rule: the leaf
/// of `A ∘ B`, then the one or two of `A ∘ B*`. A one-mode `A` can only
/// fail by overflow, whose error names no operands, so the error is made
/// here, from the values (the divide's path then keeps no copy of the
/// mode for an error message).
#[inline(never)]
fn divide_linear(mode: (i64, i64), c: Cut) -> Result<[(i64, i64); 3], cute_dynamic::LayoutError> {
    let mut out: Out = [(1, 0); 2 * MAX_MODES];
    let a = (Dyn::new(mode.0), Dyn::new(mode.1));
    match divide_1d_rule(&a.0, &a.1, c, &mut out, 0, 1) {
        Ok(()) => Ok([out[0], out[1], out[2]]),
        Err(f) => Err(divide_error(f, &Layout::from_checked(a.0, a.1).to_dynamic(), (c.n, c.td))),
    }
}

/// [`divide_1d`] by the rule: `(A ∘ B, A ∘ B*)` by the mixed composition.
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_1d_rule<S: FlatValues, D: FlatValues>(
    s: &S,
    d: &D,
    c: Cut,
    out: &mut Out,
    xo: usize,
    yo: usize,
) -> Result<(), Fail> {
    // CuTe's padded form where CuTe's modes divide (every condition is
    // checked on them); else the coalesced modes, which write the same slots.
    if let Some(a) = Prepared::as_cute(s, d)
        && divide_1d_prepared::<S>(&a, c, out, xo, yo).is_ok()
    {
        return Ok(());
    }
    divide_1d_coalesced(s, d, c, out, xo, yo)
}

/// [`divide_1d_rule`] on `A`'s coalesced modes (its cold path).
#[cold]
#[inline(never)]
fn divide_1d_coalesced<S: FlatValues, D: FlatValues>(
    s: &S,
    d: &D,
    c: Cut,
    out: &mut Out,
    xo: usize,
    yo: usize,
) -> Result<(), Fail> {
    let a = Prepared::of(s, d).ok_or(TOO_MANY_MODES)?;
    divide_1d_prepared::<S>(&a, c, out, xo, yo)
}

/// [`divide_1d_rule`] on `A`'s prepared modes (inlined when optimised
/// only: unoptimised, each inlined copy keeps its own stack slots, and a
/// test of many divides in one function overflows its thread's stack).
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_1d_prepared<S: FlatValues>(
    a: &Prepared,
    Cut { n, td, unit, two }: Cut,
    out: &mut Out,
    xo: usize,
    yo: usize,
) -> Result<(), Fail> {
    // A run-time tile's negative stride: cute-dynamic's complement has no
    // answer (the error is its, see `divide_error`).
    if td < 0 {
        return Err(Fail::NegativeStride);
    }
    let a = *a;
    let k = S::LEAVES;
    let m = a.size();
    let mut w = DeferredChecks::<true>::new();
    if tile_leaves(k, unit) == k {
        compose_leaf(&a, (n, td), room(out, xo, k)?, &mut w)?;
    } else {
        // `_1:d`: the stride the fold leaves in the last slot.
        let mut one: Out = [(1, 0); 2 * MAX_MODES];
        compose_leaf(&a, (n, td), room(&mut one, 0, k)?, &mut w)?;
        room(out, xo, 1)?[0] = one[k - 1];
    }
    if !two {
        // One mode: `⌈M/n⌉:n`, or `M:1` for a tile of size 1 (its mode
        // drops out of the complement, whatever its stride, 0 included).
        let rest = if n == 1 { m } else { ceil_div(m, n) };
        compose_leaf(&a, (rest, n), room(out, yo, k)?, &mut w)?;
    } else if n == 1 || td == 0 {
        return rest_of_no_offset(&a, m, td, k, out, yo, &w);
    } else {
        let span = n.checked_mul(td).ok_or(Fail::Overflow("complement"))?;
        compose_leaf(&a, (td, 1), room(out, yo, k)?, &mut w)?;
        compose_leaf(&a, (ceil_div(m, span), span), room(out, yo + k, k)?, &mut w)?;
    }
    finish(&a, &w)
}

/// The rest of [`divide_1d_prepared`] for a run-time tile of size 1 or
/// stride 0, which adds no offset: the complement is cute-dynamic's `M:1`.
/// CuTe's two modes `(d, M/d):(1, d)` are that function when `d | M`, and
/// are taken where `A` composes with them; else `(1, M):(1, 1)` (the
/// first stride 1, as the type may have it static), whose conditions are
/// cute-dynamic's. Out of line: a rare case, kept off the callers' frames.
#[cold]
#[inline(never)]
fn rest_of_no_offset(
    a: &Prepared,
    m: i64,
    td: i64,
    k: usize,
    out: &mut Out,
    yo: usize,
    w: &DeferredChecks<true>,
) -> Result<(), Fail> {
    if td >= 1 && m % td == 0 {
        let mut cute = *w;
        if compose_leaf(a, (td, 1), room(out, yo, k)?, &mut cute).is_ok()
            && compose_leaf(a, (m / td, td), room(out, yo + k, k)?, &mut cute).is_ok()
            && finish(a, &cute).is_ok()
        {
            return Ok(());
        }
    }
    let mut w = *w;
    compose_leaf(a, (1, 1), room(out, yo, k)?, &mut w)?;
    compose_leaf(a, (m, 1), room(out, yo + k, k)?, &mut w)?;
    finish(a, &w)
}

/// Below this bound on a mode's size, on the magnitude of its stride and
/// on a tile's span, nothing in [`divide_linear_small`] can overflow.
const SMALL: i64 = 1 << 20;

/// Speed work below the rule of [`divide_1d`], for the commonest mode of a
/// kernel's matrix: one flat leaf `m:ad` (a run-time extent or stride) by
/// a static tile `n:td`, all of them below [`SMALL`]. `None` otherwise,
/// and the general path decides.
///
/// Why it is the same answer with no check: a layout of one flat mode is
/// linear on its whole extended domain (it is its own unbounded mode), so
/// every leaf `s:x` of `(B, B*)` composes to `s:(x·ad)` with no
/// divisibility or distributivity condition, and the one condition left,
/// overflow, cannot fail: every stride is at most `SMALL²` in magnitude,
/// every shape at most `SMALL`, so the result's extent is below
/// `3·SMALL³ < 2⁶³`. A leaf of size 1 gets the stride the rule gives it
/// (`x·ad`, which does not overflow either).
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_linear_small((m, ad): (i64, i64), Cut { n, td, two, .. }: Cut) -> Option<[(i64, i64); 3]> {
    let span = n.checked_mul(td)?;
    // (A run-time tile's size 1, stride 0 or negative stride in two modes
    // takes the general path.)
    // `0 < m ≤ SMALL` and `-SMALL ≤ ad < SMALL` are one comparison (the
    // composition's `stride_bits`); the tile's conditions are constants of
    // a static tile.
    let mode = (m.wrapping_sub(1) as u64) | stride_bits(ad);
    if !((0..=SMALL).contains(&span) && (1..=SMALL).contains(&n) && mode < SMALL as u64 && (!two || (n > 1 && td > 0)))
    {
        return None;
    }
    let x = (n, td * ad);
    // `1 ≤ m, n, span ≤ SMALL` here: unsigned quotients that cannot
    // overflow (two instructions by a power of two).
    let up = |q: i64| ((m + q - 1) as u64 / q as u64) as i64;
    Some(if !two {
        [x, (if n == 1 { m } else { up(n) }, n * ad), (1, 0)]
    } else {
        [x, (td, ad), (up(span), span * ad)]
    })
}

/// [`divide_error`] of the mode `a` (cold: the conversion of `a` stays off
/// the divide's path too).
#[cold]
#[inline(never)]
fn divide_error_of<S: crate::Congruent<D>, D: IntTuple>(
    f: Fail,
    a: &Layout<S, D>,
    nd: (i64, i64),
) -> cute_dynamic::LayoutError {
    divide_error(f, &a.to_dynamic(), nd)
}

/// The error cute-dynamic gives for the 1-D divide that failed (cold).
#[cold]
#[inline(never)]
fn divide_error(f: Fail, a: &cute_dynamic::Layout, (n, d): (i64, i64)) -> cute_dynamic::LayoutError {
    let b = cute_dynamic::Layout::new(cute_dynamic::IntTuple::int(n), cute_dynamic::IntTuple::int(d));
    // A negative stride fails in cute-dynamic's complement: its error.
    if d < 0
        && let Ok(b) = &b
        && let Err(e) = cute_dynamic::complement(b, a.size())
    {
        return e;
    }
    let ctx = || match &b {
        Ok(b) => match cute_dynamic::complement(b, a.size()) {
            Ok(c) => format!("composition({a}, ({b}, {c}))"),
            Err(_) => format!("composition({a}, {b})"),
        },
        Err(_) => format!("composition({a}, {n}:{d})"),
    };
    f.into_error(&ctx)
}

/// The leaves of a divide of `Self` by the tiler `T`, written where the
/// arrangement puts them.
#[doc(hidden)]
pub trait DivideLeaves<T> {
    /// Writes the leaves of the divide arranged as `How` into `out`, from
    /// position 0.
    fn leaves<How: Arrangement>(&self, t: &T, out: &mut Out) -> Result<(), cute_dynamic::LayoutError>;
}

/// A whole-layout tile: `Self` divided as one 1-D function; the tiles'
/// leaves, then the rests', for either arrangement.
macro_rules! whole_tile {
    ($($g:ident),* ; $T:ty) => {
        impl<AS: FlatValues + crate::Congruent<AD>, AD: FlatValues, $($g),*> DivideLeaves<$T> for Layout<AS, AD>
        where
            $T: Tile1,
        {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn leaves<How: Arrangement>(&self, t: &$T, out: &mut Out) -> Result<(), cute_dynamic::LayoutError> {
                let c = cut(t);
                let yo = tile_leaves(AS::LEAVES, c.unit);
                divide_1d(&self.shape(), &self.stride(), c, out, 0, yo, |f| divide_error_of(f, self, (c.n, c.td)))
            }
        }
    };
}
whole_tile!(U, B; UInt<U, B>);
whole_tile!(UN, BN, UD, BD; Layout<UInt<UN, BN>, UInt<UD, BD>>);
whole_tile!(; Layout<U1, U0>);
whole_tile!(; Dyn);
whole_tile!(; Layout<Dyn, Dyn>);
whole_tile!(; Layout<U1, Dyn>);
whole_tile!(U, B2, B; Layout<UInt<UInt<U, B2>, B>, Dyn>);
whole_tile!(; Layout<Dyn, U1>);
whole_tile!(U, B2, B; Layout<Dyn, UInt<UInt<U, B2>, B>>);

impl<A: DivideLeaves<T>, T> DivideLeaves<crate::Tiler<T>> for A {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn leaves<How: Arrangement>(&self, t: &crate::Tiler<T>, out: &mut Out) -> Result<(), cute_dynamic::LayoutError> {
        self.leaves::<How>(&t.0, out)
    }
}

/// One mode's 1-D divide by the tile `T`, its halves' leaves at given
/// positions: computed when the mode (or the tile) has a run-time leaf; the
/// leaves of the static algebra's answer when both are all-static (the
/// result's type takes that mode's halves from the static algebra, by the
/// same test in `Split1D`).
#[doc(hidden)]
pub trait ModeLeaves<T> {
    /// The number of leaves of the tile's half.
    const XN: usize;
    /// The number of leaves of the rest's half.
    const YN: usize;
    /// Writes the halves' leaves of the divide by `t` at `out[xo..]` and
    /// `out[yo..]`.
    fn mode_leaves(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError>;
}
type TileOf<T> = <T as crate::detail::TileArg>::Tile;
type StaticBit<S, D, T> = crate::int_tuple::BothStatic<Layout<S, D>, TileOf<T>>;
impl<S, D, T: crate::detail::TileArg> ModeLeaves<T> for Layout<S, D>
where
    Self: crate::int_tuple::AllStatic,
    TileOf<T>: crate::int_tuple::AllStatic,
    Self: ModeLeavesBy<T, StaticBit<S, D, T>>,
{
    const XN: usize = <Self as ModeLeavesBy<T, StaticBit<S, D, T>>>::XN;
    const YN: usize = <Self as ModeLeavesBy<T, StaticBit<S, D, T>>>::YN;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError> {
        <Self as ModeLeavesBy<T, StaticBit<S, D, T>>>::mode_leaves(self, t, out, xo, yo)
    }
}
/// [`ModeLeaves`] by branch (`Static` is `B1` for an all-static mode and tile).
#[doc(hidden)]
pub trait ModeLeavesBy<T, Static> {
    /// As [`ModeLeaves::XN`].
    const XN: usize;
    /// As [`ModeLeaves::YN`].
    const YN: usize;
    /// Writes the halves' leaves of the divide by `t` at `out[xo..]` and
    /// `out[yo..]`.
    fn mode_leaves(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError>;
}
impl<S: FlatValues + crate::Congruent<D>, D: FlatValues, T: Tile1> ModeLeavesBy<T, B0> for Layout<S, D> {
    const XN: usize = tile_leaves(S::LEAVES, T::UNIT);
    const YN: usize = rest_leaves(S::LEAVES, T::TWO);
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves(&self, t: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError> {
        let c = cut(t);
        divide_1d(&self.shape(), &self.stride(), c, out, xo, yo, |f| divide_error_of(f, self, (c.n, c.td)))
    }
}
type Halves<S, D, T> = <Layout<S, D> as crate::detail::Split1D<DivideOp, TileOf<T>>>::X;
type RestHalf<S, D, T> = <Layout<S, D> as crate::detail::Split1D<DivideOp, TileOf<T>>>::Y;
impl<S, D, T: crate::detail::TileArg> ModeLeavesBy<T, B1> for Layout<S, D>
where
    Self: crate::detail::Split1D<DivideOp, TileOf<T>>,
    Halves<S, D, T>: PushLeaves,
    RestHalf<S, D, T>: PushLeaves,
{
    const XN: usize = <Halves<S, D, T> as PushLeaves>::N;
    const YN: usize = <RestHalf<S, D, T> as PushLeaves>::N;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn mode_leaves(&self, _: &T, out: &mut Out, xo: usize, yo: usize) -> Result<(), cute_dynamic::LayoutError> {
        let to_error = |f: Fail| f.into_error(&String::new);
        <Halves<S, D, T> as PushLeaves>::put_leaves(out, xo).map_err(to_error)?;
        <RestHalf<S, D, T> as PushLeaves>::put_leaves(out, yo).map_err(to_error)
    }
}
/// The leaves of a layout type, written at a position.
#[doc(hidden)]
pub trait PushLeaves {
    /// The number of leaves.
    const N: usize;
    /// Writes the leaves of the (all-static) layout at `out[at..]`.
    fn put_leaves(out: &mut Out, at: usize) -> Result<(), Fail>;
}
impl<S: FlatValues + crate::Congruent<D> + crate::StaticIntTuple, D: FlatValues + crate::StaticIntTuple> PushLeaves
    for Layout<S, D>
{
    const N: usize = S::LEAVES;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put_leaves(out: &mut Out, at: usize) -> Result<(), Fail> {
        let l = Layout::<S, D>::new();
        put_layout(out, at, &l.shape(), &l.stride())
    }
}

/// Writes the leaves of the layout `s:d` at `out[at..]`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn put_layout<S: FlatValues, D: FlatValues>(out: &mut Out, at: usize, s: &S, d: &D) -> Result<(), Fail> {
    let (mut sv, mut dv) = ([0i64; MAX_MODES], [0i64; MAX_MODES]);
    let (mut ns, mut nd) = (0, 0);
    if !(s.write(&mut sv, &mut ns) && d.write(&mut dv, &mut nd)) {
        return Err(TOO_MANY_MODES);
    }
    for (slot, (&x, &y)) in room(out, at, ns)?.iter_mut().zip(sv.iter().zip(&dv)) {
        *slot = (x, y);
    }
    Ok(())
}

// A tuple tiler on a tuple layout: tile k on mode k, the modes past the
// tiles untouched.
// Every tile rank k from 1 to the layout's rank n: the first k groups are
// tiled, the others are the rest. The positions: `logical_divide` puts
// each mode's halves side by side, `((X0,Y0),(X1,Y1),rest...)`,
// `zipped_divide` all tiles first, `((X0,X1),(Y0,Y1,rest...))`.
macro_rules! tuple_tile {
    ([$($i:tt $T:ident $S:ident $D:ident),+] [$($j:tt $U:ident $RS:ident $RD:ident),*]) => {
        impl<$($T, $S: IntTuple + crate::Congruent<$D>, $D: IntTuple,)+ $($RS: FlatValues, $RD: FlatValues,)*>
            DivideLeaves<($($T,)+)> for Layout<($($S,)+ $($RS,)*), ($($D,)+ $($RD,)*)>
        where
            ($($S,)+ $($RS,)*): crate::Congruent<($($D,)+ $($RD,)*)>,
            ($($D,)+ $($RD,)*): IntTuple,
            $(Layout<$S, $D>: ModeLeaves<$T>,)+
        {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[allow(unused_variables, unused_assignments)]
            fn leaves<How: Arrangement>(&self, t: &($($T,)+), out: &mut Out)
                -> Result<(), cute_dynamic::LayoutError> {
                let (s, d) = (self.shape(), self.stride());
                // Where the next tile's and rest's leaves go.
                let (mut xo, mut yo) = (0, 0 $(+ <Layout<$S, $D> as ModeLeaves<$T>>::XN)+);
                $(
                    let (xn, yn) = (<Layout<$S, $D> as ModeLeaves<$T>>::XN, <Layout<$S, $D> as ModeLeaves<$T>>::YN);
                    if !How::ZIPPED {
                        yo = xo + xn;
                    }
                    Layout::from_checked(s.$i, d.$i).mode_leaves(&t.$i, out, xo, yo)?;
                    if How::ZIPPED {
                        xo += xn;
                        yo += yn;
                    } else {
                        xo = yo + yn;
                        yo = xo;
                    }
                )+
                $(
                    put_layout(out, yo, &s.$j, &d.$j).map_err(|f| f.into_error(&String::new))?;
                    yo += $RS::LEAVES;
                )*
                Ok(())
            }
        }
    };
}
for_each_tuple!(split tuple_tile);

// ---------------------------------------------------------- arrangement

/// Marker: `logical_divide`'s arrangement, `((X0,Y0),(X1,Y1),untouched...)`.
#[doc(hidden)]
pub struct LogicalArr;
/// Marker: `zipped_divide`'s arrangement, `((X0,X1),(Y0,Y1,untouched...))`.
#[doc(hidden)]
pub struct ZippedArr;
/// Marker: `tiled_divide`'s arrangement, `((X0,X1),Y0,Y1,untouched...)`
/// (the leaves in `zipped_divide`'s order).
#[doc(hidden)]
pub struct TiledArr;
/// Marker: `flat_divide`'s arrangement, `(X0,X1,Y0,Y1,untouched...)`
/// (the leaves in `zipped_divide`'s order).
#[doc(hidden)]
pub struct FlatArr;

/// Where a divide's arrangement puts the leaves of its parts.
#[doc(hidden)]
pub trait Arrangement {
    /// All tiles first, then all rests (`zipped_divide`), rather than each
    /// mode's tile and rest side by side (`logical_divide`).
    const ZIPPED: bool;
}
impl Arrangement for LogicalArr {
    const ZIPPED: bool = false;
}
impl Arrangement for ZippedArr {
    const ZIPPED: bool = true;
}
impl Arrangement for TiledArr {
    const ZIPPED: bool = true;
}
impl Arrangement for FlatArr {
    const ZIPPED: bool = true;
}

/// The divide `a / t` arranged as `How`, its values computed and checked.
#[doc(hidden)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn try_divide_as<How: Arrangement, A: DivideLeaves<T>, T, S: FromLeaves, D: FromLeaves>(
    a: &A,
    t: &T,
) -> Result<Layout<S, D>, cute_dynamic::LayoutError> {
    let mut out: Out = [(1, 0); 2 * MAX_MODES];
    a.leaves::<How>(t, &mut out)?;
    let (mut i, mut j) = (0, 0);
    let s = S::from_leaves(&out, &mut i, false);
    let d = D::from_leaves(&out, &mut j, true);
    Ok(Layout::from_checked(s, d))
}

/// The mixed branch of [`DivideValue`](crate::divide::DivideValue).
impl<How: Arrangement, S: FromLeaves, D: FromLeaves, A: DivideLeaves<T>, T> crate::detail::DivideValueBy<How, A, T, B0>
    for Layout<S, D>
{
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[track_caller]
    fn make(a: A, t: T) -> Self {
        match try_divide_as::<How, A, T, S, D>(&a, &t) {
            Ok(r) => r,
            Err(e) => crate::composition::fail(e),
        }
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn try_make(a: A, t: T) -> Result<Self, cute_dynamic::LayoutError> {
        try_divide_as::<How, A, T, S, D>(&a, &t)
    }
}

// ------------------------------------------------- tiles of several modes

/// `(B, B*)` of a tile `B` of several modes against a run-time size: `B*`
/// is `complement(B, M)`, the static complement with a run-time cotarget
/// (CuTe's `make_layout(B, complement(B, size(A)))` with an `int` size).
#[doc(hidden)]
pub trait TileRest {
    /// The layout `(B, B*)`.
    type BB;
    /// `(B, complement(B, m))`, or the complement's error.
    fn with_rest(&self, m: Dyn) -> Result<Self::BB, cute_dynamic::LayoutError>;
}
impl<TS, TD, CS, CD> TileRest for Layout<TS, TD>
where
    TS: Copy + crate::Congruent<TD>,
    TD: Copy + IntTuple,
    Self: crate::Complement<Dyn, Output = Layout<CS, CD>>,
    Layout<CS, CD>: crate::ComplementValue<Self, Dyn>,
    CS: crate::Congruent<CD>,
    CD: IntTuple,
    (TS, CS): crate::Congruent<(TD, CD)>,
    (TD, CD): IntTuple,
{
    type BB = Layout<(TS, CS), (TD, CD)>;
    #[inline]
    fn with_rest(&self, m: Dyn) -> Result<Self::BB, cute_dynamic::LayoutError> {
        let c = crate::try_complement(*self, m)?;
        Ok(Layout::from_checked((self.shape(), c.shape()), (self.stride(), c.stride())))
    }
}

/// The 1-D divide by a tile of several modes (a tuple shape), static or
/// with run-time leaves, of a mode with a run-time leaf: `A ∘ (B, B*)` by
/// the general run-time composition and complement, split in halves.
macro_rules! multi_mode_tile {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<AS, AD, BBr, $($S, $D),+> Split1DBy<DivideOp, Layout<($($S,)+), ($($D,)+)>, B0> for Layout<AS, AD>
        where
            Layout<($($S,)+), ($($D,)+)>: TileRest<BB = BBr>,
            Self: TryCompose<BBr>,
            <Self as TryCompose<BBr>>::Output: SplitHalves,
        {
            type X = <<Self as TryCompose<BBr>>::Output as SplitHalves>::X;
            type Y = <<Self as TryCompose<BBr>>::Output as SplitHalves>::Y;
        }
        impl<S, D, BBr, XS, XD, YS, YD, $($S, $D),+> ModeLeavesBy<Layout<($($S,)+), ($($D,)+)>, B0> for Layout<S, D>
        where
            S: crate::Congruent<D> + Copy,
            D: IntTuple + Copy,
            Layout<($($S,)+), ($($D,)+)>: TileRest<BB = BBr>,
            Self: TryCompose<BBr, Output = Layout<(XS, YS), (XD, YD)>>,
            XS: FlatValues + crate::Congruent<XD> + Copy,
            XD: FlatValues + Copy,
            YS: FlatValues + crate::Congruent<YD> + Copy,
            YD: FlatValues + Copy,
            (XS, YS): crate::Congruent<(XD, YD)>,
            (XD, YD): IntTuple,
        {
            const XN: usize = XS::LEAVES;
            const YN: usize = YS::LEAVES;
            #[inline]
            fn mode_leaves(
                &self,
                t: &Layout<($($S,)+), ($($D,)+)>,
                out: &mut Out,
                xo: usize,
                yo: usize,
            ) -> Result<(), cute_dynamic::LayoutError> {
                let m = crate::int_tuple::IntTuple::size(&self.shape());
                let bb = t.with_rest(Dyn::new(m as i64))?;
                let r = self.try_compose(&bb)?;
                let (s, d) = (r.shape(), r.stride());
                let to_error = |f: Fail| f.into_error(&String::new);
                put_layout(out, xo, &s.0, &d.0).map_err(to_error)?;
                put_layout(out, yo, &s.1, &d.1).map_err(to_error)
            }
        }
        impl<AS, AD, $($S, $D),+> DivideLeaves<Layout<($($S,)+), ($($D,)+)>> for Layout<AS, AD>
        where
            Self: ModeLeavesBy<Layout<($($S,)+), ($($D,)+)>, B0>,
        {
            #[inline]
            fn leaves<How: Arrangement>(
                &self,
                t: &Layout<($($S,)+), ($($D,)+)>,
                out: &mut Out,
            ) -> Result<(), cute_dynamic::LayoutError> {
                let xn = <Self as ModeLeavesBy<Layout<($($S,)+), ($($D,)+)>, B0>>::XN;
                <Self as ModeLeavesBy<Layout<($($S,)+), ($($D,)+)>, B0>>::mode_leaves(self, t, out, 0, xn)
            }
        }
    };
}
for_each_tuple!(multi_mode_tile);
