//! Functional composition `A ∘ B` (paper 3.3; the paper's rule of 3.3.3,
//! made precise below).
//!
//! # The rule
//!
//! `A` is coalesced to flat modes `(S_0..S_R):(D_0..D_R)`, the last one
//! unbounded (the extended domain, paper 2.4.1). `B`'s leaves are composed
//! one at a time, and `A ∘ B` has `B`'s tree with each leaf `s:d` replaced by
//! `A ∘ s:d`, which is found by walking `A`'s modes with `rest_shape = s`,
//! `rest_stride = d` (`compose_leaf_up`, below):
//!
//! 1. `S_r` divides `rest_stride`: the walk skips the mode,
//!    `rest_stride /= S_r`;
//! 2. else `rest_stride` divides `S_r`: the mode holds `n = min(S_r /
//!    rest_stride, rest_shape)` steps, `n` must divide `rest_shape` (shape
//!    divisibility); emit `n : rest_stride·D_r`, go on with `rest_shape / n`
//!    steps of stride 1;
//! 3. else, if the `rest_shape` steps stay inside the mode (`(rest_shape −
//!    1)·rest_stride < S_r`), emit `rest_shape : rest_stride·D_r` and stop;
//! 4. else, for a stride-0 mode, only its carries matter (see the code);
//!    otherwise a stride divisibility error.
//!
//! The walk stops once `rest_shape` is 1; what is left goes to the last mode,
//! `rest_shape : rest_stride·D_R`. A negative `d` composes `|d|` and negates
//! the strides (the odd extension), `d = 0` gives `s:0`, and a size-1 leaf
//! gets CuTe's stride (`unit_stride`). Composing leaf by leaf is `A ∘ B`
//! only when the leaves' offsets added up never carry out of a mode of `A`
//! (`check_reach`) and do not mix signs over several modes
//! (`check_signs`).
//!
//! # Speed
//!
//! Below the rule: `A` is prepared (coalesced) once per operation onto the
//! stack, the leaves of a result are written straight into the inline room
//! of the result (`Parts`). Its structure is `B`'s: for a flat `B` (a leaf
//! or a tuple of leaves, most), built from each leaf's count as the leaves
//! are composed (`FlatToks`); otherwise copied as one word or expanded a
//! word at a time. Results too large for the inline room take a slow path
//! with lists on the heap. `Composer` is the same kernel for the divides
//! and products, which compose several (sub)layouts with one prepared `A`
//! into one result under construction. Failures carry numbers only; the
//! message is written on the cold path.

use crate::error::Result;
#[cfg(doc)]
use crate::error::LayoutError;
use crate::int_tuple::flat_toks;
use crate::int_tuple::{INLINE_TOKS, INLINE_VALS, LEAF, PER_WORD, Tok, Toks, WordToks};
use crate::kernel::{self, Fail, LeafSink, May, unit_stride};
use crate::layout::{self, Concat, Layout, LayoutRef, Leaves, Parts};
use crate::tiler::{AsTiler, TilerRef, View, check_tiler_rank, with_next_mode};

// ---------------------------------------------------------------------------
// The rule (paper 3.3): one leaf of B against the coalesced A.
// ---------------------------------------------------------------------------

/// Composes the prepared `A` (bounded modes, then the last) with one leaf
/// `s:d` of `B`: writes the modes of `A ∘ s:d` as leaves `pos, pos+1, ...`
/// of `out` and returns the number written (the rule above, in the kernel
/// both crates call: [`kernel::compose_leaf`]).
///
/// `reach[r]` accumulates, over all leaves of `B`, how far into mode `r` of
/// `A` the leaves' offsets go, for the distributivity check of
/// [`check_reach`].
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_leaf(
    am: &[(i64, i64)],
    sd: (i64, i64),
    out: &mut LeafRoom<'_>,
    pos: usize,
    reach: &mut [i64],
) -> std::result::Result<usize, Fail> {
    let Some((&(_, last_d), bounded)) = am.split_last() else { return Err(Fail::ROOM) };
    kernel::compose_leaf::<true, _>(bounded, last_d, sd, out, pos, reach)
}

/// The distributivity check over the prepared `A` (all its modes).
#[cfg_attr(not(debug_assertions), inline(always))]
fn check_reach(am: &[(i64, i64)], reach: &[i64]) -> std::result::Result<(), Fail> {
    kernel::check_reach(&am[..am.len().saturating_sub(1)], reach)
}

/// The sign check over the prepared `A` (all its modes).
#[cfg_attr(not(debug_assertions), inline(always))]
fn check_signs(am: &[(i64, i64)], signs: u8) -> std::result::Result<(), Fail> {
    kernel::check_signs(am.len(), signs)
}

// ---------------------------------------------------------------------------
// The public operation, and the speed work around the rule.
// ---------------------------------------------------------------------------

/// Functional composition `R = A ∘ B`.
///
/// * `B` a layout: both are 1-D functions of integers; `B`'s modes are
///   distributed over, so `R` has `B`'s tree with each leaf `s:d` of `B`
///   replaced by `A ∘ s:d`.
/// * `B` a tiler `<B0, B1, ...>`: `R = (A0 ∘ B0, A1 ∘ B1, ...)`, one mode per
///   tile; modes of `A` the tiler does not reach are not in `R`.
/// * `B` a shape: the tiler of stride-1 layouts of that shape.
///
/// `A` is read on its extended domain (paper 2.4.1: `idx2crd` with the last
/// mode unbounded), so `B` may reach past `size(A)`; a negative stride in
/// `B` reads `A` below 0, where the extended domain is the odd extension
/// `A(-x) = -A(x)` (see [`Layout::eval_extended`]): `A ∘ s:-d` is
/// `A ∘ s:d` with its strides negated, as CuTe computes it
/// (`(1,(2,4)):(0,(-1,512)) ∘ 4:-1` is `(2,2):(1,-512)`).
///
/// A size-1 leaf `1:d` of `B` becomes `1:d'` with the stride CuTe gives it
/// (`d` ceiling-divided by each bounded mode of the coalesced `A`, times the
/// stride of its last mode; `0` for `d = 0`): it moves no offset, but the
/// result prints as CuTe's (`composition(1:1, 1:1)` is `1:1`).
///
/// Post-conditions (paper eqs. 16–17), for a layout `B`:
/// * `B ⪯ R`: `R`'s shape is compatible with `B`'s (same tree, each leaf of
///   `B` of size `s` replaced by a shape of size `s`);
/// * `R(c) == A(B(c))` for every coordinate `c` of `B`.
///
/// For a tiler, each mode of the result satisfies them for its tile.
///
/// Errors: [`LayoutError::StrideDivisibility`] and
/// [`LayoutError::ShapeDivisibility`] when the composition is not a layout
/// (paper 3.3.3, the two divisibility conditions),
/// [`LayoutError::NotDistributive`] when `B` has several modes whose offsets
/// add up past a mode of `A` and the concatenation of the `A ∘ B_i` is not
/// `A ∘ B` (then it is not a layout of `B`'s shape; the concatenation is
/// returned when it is exact, checked at every coordinate of a `B` of at
/// most 2^16 elements), `RankMismatch` for a tiler
/// with more modes than `A`, `Overflow`, and `Unsupported` when `B` has
/// leaves of both signs of stride and `A` is not a single linear mode.
///
/// ```
/// use cute_dynamic::{Layout, composition};
/// let a: Layout = "(6,2):(8,2)".parse().unwrap();
/// let b: Layout = "(4,3):(3,1)".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "((2,2),3):((24,2),8)");
///
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
/// let t: cute_dynamic::Tiler = "<3:4, 8:2>".parse().unwrap();
/// assert_eq!(composition(&a, &t).unwrap().to_string(), "(3,(2,4)):(236,(26,1))");
/// ```
pub fn composition<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    match b.as_tiler() {
        // The common case, straight through: every wrapper around the large
        // result value costs a copy.
        TilerRef::Layout(l) => compose_layout_by::<true>(a, l),
        t => compose_tiler(a, t),
    }
}

/// [`composition`] by a tiler or a shape. Out of line, so that the
/// generic `composition` stays small enough to inline at its callers.
#[inline(never)]
fn compose_tiler(a: &Layout, t: TilerRef<'_>) -> Result<Layout> {
    // Built in place and made the returned value in one step.
    let mut out = Parts::new();
    if compose_view_flat_into(a, View::of(t), &mut out).is_some() {
        return Ok(out.into_layout());
    }
    compose_view(a, View::of(t))
}

/// The cold path of a `NotDistributive` refusal: the offsets of `B`'s
/// modes carry across a mode of `A`, so composing mode by mode is not `A ∘
/// B` in general, but it may still be for this pair (a stride-0 mode of `A`
/// can absorb the carry). Then it is the answer (CuTe's, which composes
/// mode by mode unchecked): checked at every coordinate of `B`, for a `B`
/// of at most 2^16 elements; otherwise the refusal stands.
#[cold]
fn leafwise_if_exact(a: &Layout, b: &Layout) -> Option<Layout> {
    fn by_mode(a: &Layout, b: &Layout) -> Option<Layout> {
        if b.shape().is_int() {
            return compose_layout(a, b).ok();
        }
        let modes = b.modes_iter().map(|m| by_mode(a, &m)).collect::<Option<Vec<_>>>()?;
        crate::layout::make_layout(&modes).ok()
    }
    if b.size() > 1 << 16 {
        return None;
    }
    let r = by_mode(a, b)?;
    let exact = r.size() == b.size()
        && (0..b.size()).all(|i| match (r.eval(i), b.eval(i).and_then(|x| a.eval_extended(x))) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        });
    exact.then_some(r)
}

/// [`compose_view_flat_into`] into a new `Parts`, for the tests.
#[cfg(test)]
fn compose_view_flat(a: &Layout, view: View<'_>) -> Option<Parts> {
    let mut out = Parts::new();
    compose_view_flat_into(a, view, &mut out).map(|()| out)
}

/// [`composition`] by a tiler on borrowed modes of `A`, each tile composed
/// straight into `out` (empty on entry). `None` for an `A` of more than 8
/// leaves and on any failure; then [`compose_view`] computes it again and
/// names the error.
fn compose_view_flat_into(a: &Layout, view: View<'_>, out: &mut Parts) -> Option<()> {
    compose_view_into(out, a.view(), view)?;
    // The whole fits, so every part (each a sum over fewer leaves) does.
    out.fits().then_some(())
}

/// Appends `A ∘ view` to `out` as one subtree (see
/// [`compose_view_flat_into`]).
fn compose_view_into(out: &mut Parts, a: LayoutRef<'_>, view: View<'_>) -> Option<()> {
    let one = |out: &mut Parts, b: LayoutRef<'_>| {
        let mut c = Composer::new();
        c.prepare(a.pairs())?;
        c.compose_into(b, None, out)?;
        c.check()
    };
    match view {
        View::Layout(b) => return one(out, b.view()),
        View::Shape(n) => {
            if let Some(v) = n.leaf() {
                // The tile `v:1`, or `1:0` (a shape below 1 is the general
                // path's error).
                if v < 1 {
                    return None;
                }
                let (shape, stride) = ([v], [crate::tiler::shape_tile_stride(v)]);
                return one(out, LayoutRef { tok: LEAF, shape: &shape, stride: &stride });
            }
        }
        View::Tiles(_) => {}
    }
    // A tiler of more modes than `A` runs out of modes below (`None`):
    // the general path then names the error.
    out.open()?;
    let mut modes = a.modes();
    for tk in view.tiles() {
        compose_view_into(out, modes.next()?, tk)?;
    }
    out.close()
}

fn compose_view(a: &Layout, view: View<'_>) -> Result<Layout> {
    if let Some(r) = view.with_layout(|b| compose_layout(a, b))? {
        return Ok(r);
    }
    let n = view.rank();
    check_tiler_rank(a, n, "composition")?;
    let mut r = Concat::new();
    let mut a_modes = a.modes_iter();
    for tk in view.tiles() {
        r.push(&with_next_mode(a, &mut a_modes, |m| compose_view(m, tk))?);
    }
    r.finish()
}

/// Room on the stack for the prepared modes of `A` (and their reach); a
/// layout of more leaves takes the slow path, with lists on the heap.
const STACK_MODES: usize = 8;

/// `A` flattened and coalesced for composition, by the one coalesce rule
/// (`kernel::coalesce_push`), except that the last leaf is always kept (it is
/// the unbounded mode of the extended domain, so its stride matters even
/// when its size is 1). Written into `out` (room for one mode per leaf of
/// `A`, at least one); returns the number of modes.
#[cfg_attr(not(debug_assertions), inline(always))]
fn prepare(a: impl Iterator<Item = (i64, i64)>, out: &mut [(i64, i64)]) -> usize {
    // Each mode goes through the rule once the next one is seen: the last
    // is known only then.
    let mut n = 0usize;
    let mut pending: Option<(i64, i64)> = None;
    for m in a {
        if let Some(p) = pending.replace(m) {
            n = kernel::coalesce_push(out, n, p, May::ALL);
        }
    }
    kernel::coalesce_push(out, n, pending.unwrap_or((1, 0)), May::KEEP_UNIT)
}

/// Where the leaves of `A ∘ B` are written: their shapes and strides, in
/// order.
struct LeafRoom<'a> {
    shape: &'a mut [i64],
    stride: &'a mut [i64],
}

impl LeafRoom<'_> {
    /// A leaf of `B` of stride `d` that became `c` leaves, from `at`: when
    /// that is one leaf of size 1, gives it the stride CuTe gives `A ∘ 1:d`
    /// on the prepared `units` (see [`restride_units`]). The one rule for
    /// `compose_into` and `compose_leaf_into`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn restride_unit(&mut self, at: usize, c: usize, d: i64, units: &Composer) {
        if c == 1
            && self.shape.get(at) == Some(&1)
            && let Some(x) = self.stride.get_mut(at)
        {
            *x = units.unit(d);
        }
    }
}

impl LeafSink for LeafRoom<'_> {
    const PADDED: bool = false;

    /// Writes leaf `pos` of the result.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put(&mut self, pos: usize, s: i64, d: i64) -> std::result::Result<(), Fail> {
        match (self.shape.get_mut(pos), self.stride.get_mut(pos)) {
            (Some(x), Some(y)) => {
                (*x, *y) = (s, d);
                Ok(())
            }
            _ => Err(Fail::ROOM),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn stride_mut(&mut self, slot: usize) -> Option<&mut i64> {
        self.stride.get_mut(slot)
    }
}

/// Gives each size-1 leaf of `r = A' ∘ B` the stride CuTe gives `A ∘ 1:d`
/// ([`unit_stride`] on the prepared `A`), where `A'` is `A` with extra
/// size-1 modes (the products compose with the complement that keeps its
/// last mode, CuTe with the coalesced one). Only the strides of size-1
/// leaves change, so `r` stays the same function.
pub(crate) fn restride_units(r: &mut Layout, b: &Layout, a: &Layout) {
    if !b.shape.vals().contains(&1) {
        return;
    }
    let mut stack = [(0i64, 0i64); STACK_MODES];
    let mut heap = Vec::new();
    let am: &mut [(i64, i64)] = if a.shape.vals().len() <= STACK_MODES {
        &mut stack
    } else {
        heap.resize(a.shape.vals().len(), (0, 0));
        &mut heap
    };
    let k = prepare(a.pairs(), am);
    let Some((&(_, last_d), bounded)) = am[..k].split_last() else { return };
    // B's tree and r's agree but where a leaf of B became a tuple of
    // leaves (never for a size-1 leaf): walk both token lists together.
    // (Disjoint fields: r's shape is read while its strides are written.)
    let (b_toks, r_toks) = (b.shape.toks(), r.shape.toks());
    let (mut j, mut bv, mut rv) = (0usize, 0usize, 0usize);
    for t in b_toks.iter() {
        if t != Tok::Leaf {
            j += 1;
            continue;
        }
        let (s, d) = (b.shape.vals()[bv], b.stride.vals()[bv]);
        bv += 1;
        if r_toks.get(j) == Some(Tok::Leaf) {
            if s == 1 {
                let up = match d.checked_abs() {
                    Some(x) => unit_stride(bounded, x, last_d),
                    None => 0,
                };
                r.stride.vals_mut()[rv] = if d < 0 { -up } else { up };
            }
            rv += 1;
            j += 1;
        } else {
            // A tuple of leaves only.
            let c = r_toks.slice(j + 1, r_toks.len()).iter().take_while(|&x| x == Tok::Leaf).count();
            rv += c;
            j += c + 2;
        }
    }
}

/// [`compose_leaves`] with `B`'s usual one or two leaves a constant for
/// the compiler, so that the loop over them unrolls.
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_leaves_unrolled(
    am: &[(i64, i64)],
    b: Leaves<'_>,
    out: &mut LeafRoom<'_>,
    reach: &mut [i64],
    signs: &mut u8,
    group: impl FnMut(usize, usize) -> std::result::Result<(), Fail>,
) -> std::result::Result<usize, Fail> {
    match b.len() {
        1 => compose_leaves::<1>(am, b, out, reach, signs, group),
        2 => compose_leaves::<2>(am, b, out, reach, signs, group),
        _ => compose_leaves::<0>(am, b, out, reach, signs, group),
    }
}

/// Composes the prepared `A` with every leaf of `B` (its shapes and
/// strides; `N` of them, or for `N = 0` all) in turn, writing the leaves of
/// `A ∘ B` into `out` and telling `group(k, c)` that leaf `k` of `B` became
/// `c` leaves; returns the number of leaves of the result, after checking
/// that its offsets fit.
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_leaves<const N: usize>(
    am: &[(i64, i64)],
    Leaves { shape, stride }: Leaves<'_>,
    out: &mut LeafRoom<'_>,
    reach: &mut [i64],
    signs: &mut u8,
    mut group: impl FnMut(usize, usize) -> std::result::Result<(), Fail>,
) -> std::result::Result<usize, Fail> {
    let nb = if N > 0 { N } else { shape.len() };
    let (shape, stride) = (shape.get(..nb).ok_or(Fail::ROOM)?, stride.get(..nb).ok_or(Fail::ROOM)?);
    let mut n = 0;
    // With no negative stride (`ors ≥ 0`, the usual case), B's offsets run
    // from 0 to `hi` (which fits: B's extent is checked when it is made).
    let (mut hi, mut ors) = (0i64, 0i64);
    for k in 0..nb {
        let (s, d) = (shape[k], stride[k]);
        let c = compose_leaf(am, (s, d), out, n, reach)?;
        group(k, c)?;
        n += c;
        hi = hi.wrapping_add((s - 1).wrapping_mul(d));
        ors |= d;
    }
    // The size is B's. The offsets are A's own when B stays within A's
    // domain (from 0 to `hi`); otherwise they are new, and checked.
    if ors >= 0 {
        // A leaf moves up when it adds to the largest offset of B.
        *signs |= u8::from(hi > 0);
        let a_size: i64 = am.iter().map(|&(s, _)| s).product();
        if hi < a_size {
            return Ok(n);
        }
    } else {
        // ... and down when it takes from the smallest.
        let (hi, lo) = Leaves { shape, stride }.span();
        *signs |= u8::from(hi > 0) | (u8::from(lo < 0) << 1);
    }
    match layout::extent(&out.shape[..n], &out.stride[..n]) {
        Some(_) => Ok(n),
        None => Err(Fail::Overflow("layout extent")),
    }
}

/// The structure of `A ∘ B` for a flat `B` of `n` leaves, built as its
/// leaves are composed: what each leaf became (a leaf, or a tuple of
/// several), in a tuple when `n > 1`. Packed as in a token list, with its
/// number of tokens.
struct FlatToks {
    word: u64,
    len: usize,
    tuple: bool,
}

impl FlatToks {
    /// Nothing yet, for a `B` of `n` leaves (`(` already, when `n > 1`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn new(n: usize) -> FlatToks {
        let tuple = n > 1;
        FlatToks { word: if tuple { Tok::Open.code() } else { 0 }, len: usize::from(tuple), tuple }
    }

    /// Appends what the next leaf of `B` became: `c` leaves. (A result in
    /// the 8 leaves of the inline room has at most 18 tokens: nothing is
    /// checked here, [`FlatToks::finish`] checks the total.)
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn group(&mut self, c: usize) {
        let (bits, w) = flat_toks(c);
        self.word |= bits.wrapping_shl(2 * self.len as u32);
        self.len += w;
    }

    /// The packed tokens and their number; `None` past the inline room.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn finish(mut self) -> Option<(u64, usize)> {
        if self.tuple {
            self.word |= Tok::Close.code().wrapping_shl(2 * self.len as u32);
            self.len += 1;
        }
        (self.len <= INLINE_TOKS).then_some((self.word, self.len))
    }
}

/// [`compose_leaves`] of a flat `B` (of `N` leaves, or for `N = 0` all of
/// `leaves`), its structure built as they are composed: the number of
/// leaves of `A ∘ B` and its tokens, packed, with their number.
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_flat_leaves<const N: usize>(
    am: &[(i64, i64)],
    leaves: Leaves<'_>,
    out: &mut LeafRoom<'_>,
    reach: &mut [i64],
    signs: &mut u8,
) -> std::result::Result<(usize, u64, usize), Fail> {
    let mut toks = FlatToks::new(if N > 0 { N } else { leaves.len() });
    let n = compose_leaves::<N>(am, leaves, out, reach, signs, |_, c| {
        toks.group(c);
        Ok(())
    })?;
    let (word, len) = toks.finish().ok_or(Fail::ROOM)?;
    Ok((n, word, len))
}

/// The `group` of [`compose_leaves`] that records each leaf's count in
/// `counts`, for [`expand`] (at most one leaf per mode of `A`: a byte).
#[cfg_attr(not(debug_assertions), inline(always))]
fn count_into(counts: &mut [u8]) -> impl FnMut(usize, usize) -> std::result::Result<(), Fail> + '_ {
    |k, c| {
        *counts.get_mut(k).ok_or(Fail::ROOM)? = c as u8;
        Ok(())
    }
}

/// The structure of `A ∘ B`: `B`'s tokens with leaf `k` replaced by
/// `counts[k]` leaves (at least one), as a tuple when there are several.
/// Built a word at a time in a register and handed to `put` packed, with
/// its number of tokens: one word for a result of up to 32 tokens, several
/// in order for a larger one.
#[cfg_attr(not(debug_assertions), inline(always))]
fn expand<E>(
    b: Toks<'_>,
    counts: &[u8],
    mut put: impl FnMut(u64, usize) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut out = Expanded { word: 0, n: 0 };
    let count = |k: usize| usize::from(counts.get(k).copied().unwrap_or(1));
    match (b.flat_leaves(), b.word()) {
        // A flat `B` (one leaf, or a tuple of leaves: most of them): its
        // groups in order, no token read.
        (Some(1), _) => out.group(count(0), &mut put)?,
        (Some(n), _) => {
            out.push(Tok::Open.code(), 1, &mut put)?;
            for k in 0..n {
                out.group(count(k), &mut put)?;
            }
            out.push(Tok::Close.code(), 1, &mut put)?;
        }
        // Any other of up to 32 tokens (every inline one) walks its word.
        (None, Some(w)) => out.tokens(WordToks(w), count, &mut put)?,
        (None, None) => out.tokens(b.iter(), count, &mut put)?,
    }
    if out.n > 0 {
        put(out.word, out.n)?;
    }
    Ok(())
}

/// The structure [`expand`] builds: the tokens of the word in hand, and
/// their number.
struct Expanded {
    word: u64,
    n: usize,
}

impl Expanded {
    /// Appends `w ≤ 32` tokens, handing the word on first if they do not
    /// fit.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn push<E>(
        &mut self,
        bits: u64,
        w: usize,
        put: &mut impl FnMut(u64, usize) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        if self.n + w > PER_WORD {
            put(self.word, self.n)?;
            (self.word, self.n) = (0, 0);
        }
        self.word |= bits << (2 * self.n);
        self.n += w;
        Ok(())
    }

    /// Appends what a leaf of `B` becomes: `c` leaves, a tuple when there
    /// are several.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn group<E>(
        &mut self,
        c: usize,
        put: &mut impl FnMut(u64, usize) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        if c <= 1 {
            return self.push(Tok::Leaf.code(), 1, put);
        }
        if c + 2 <= PER_WORD {
            let (bits, w) = flat_toks(c);
            return self.push(bits, w, put);
        }
        self.push(Tok::Open.code(), 1, put)?;
        for _ in 0..c {
            self.push(Tok::Leaf.code(), 1, put)?;
        }
        self.push(Tok::Close.code(), 1, put)
    }

    /// Appends the tokens `b`, leaf `k` become `count(k)` leaves.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn tokens<E>(
        &mut self,
        b: impl Iterator<Item = Tok>,
        count: impl Fn(usize) -> usize,
        put: &mut impl FnMut(u64, usize) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        let mut k = 0;
        for t in b {
            if t == Tok::Leaf {
                self.group(count(k), put)?;
                k += 1;
            } else {
                self.push(t.code(), 1, put)?;
            }
        }
        Ok(())
    }
}

/// Composes `A` with each of `bs` on the fast path: `A`'s prepared modes on
/// the stack, each result in its inline room. Distributivity is checked over
/// all of `bs` together (as `A ∘ (B0, B1, ...)`). `Room` when `A` or a
/// result is too large: then the slow path, [`compose_slow`], does it all.
///
/// The structure of a result is `B`'s with some leaves become tuples:
/// built as the leaves are composed for a flat `B`, after them otherwise.
/// `parts` are empty on entry.
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_fast<const N: usize>(a: &Layout, bs: [&Layout; N], parts: &mut [Parts; N]) -> std::result::Result<(), Fail> {
    if a.shape.vals().len() > STACK_MODES {
        return Err(Fail::ROOM);
    }
    let mut am = [(0i64, 0i64); STACK_MODES];
    let k = prepare(a.pairs(), &mut am);
    // Most layouts coalesce to a few modes: with their number known to the
    // compiler, the loops over them unroll and their bounds checks go.
    match k {
        1 => compose_prepared::<1, N>(&am[..1], bs, parts),
        2 => compose_prepared::<2, N>(&am[..2], bs, parts),
        3 => compose_prepared::<3, N>(&am[..3], bs, parts),
        _ => compose_prepared::<STACK_MODES, N>(&am[..k], bs, parts),
    }
}

/// [`compose_fast`] for the `K` (or, for `K = STACK_MODES`, up to `K`)
/// prepared modes `am` of `A`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn compose_prepared<const K: usize, const N: usize>(
    am: &[(i64, i64)],
    bs: [&Layout; N],
    parts: &mut [Parts; N],
) -> std::result::Result<(), Fail> {
    let k = if K == STACK_MODES { am.len().min(K) } else { K };
    let am = am.get(..k).ok_or(Fail::ROOM)?;
    let mut reach = [0i64; K];
    let reach = &mut reach[..k];
    let mut signs = 0u8;
    for (b, p) in bs.iter().zip(parts.iter_mut()) {
        let mut out = LeafRoom { shape: &mut p.shape, stride: &mut p.stride };
        let leaves = || b.leaves();
        if let Some(n) = b.shape.flat_leaves() {
            // A flat B (most): the structure is built as the leaves are
            // composed, and B's tokens are never read.
            let (nval, word, len) = match n {
                1 => compose_flat_leaves::<1>(am, leaves(), &mut out, reach, &mut signs)?,
                2 => compose_flat_leaves::<2>(am, leaves(), &mut out, reach, &mut signs)?,
                _ => compose_flat_leaves::<0>(am, leaves(), &mut out, reach, &mut signs)?,
            };
            // (`p` is empty on entry: the structure is all its tokens.)
            (p.nval, p.tok, p.ntok) = (nval, word, len);
            continue;
        }
        let mut counts = [0u8; INLINE_VALS];
        p.nval = compose_leaves::<0>(am, leaves(), &mut out, reach, &mut signs, count_into(&mut counts))?;
        let tok = b.shape.toks();
        if p.nval == b.shape.vals().len() {
            // One leaf per leaf: B's structure as it is, in one word.
            p.toks(tok).ok_or(Fail::ROOM)?;
        } else {
            expand(tok, &counts, |bits, n| p.tok_bits(bits, n).ok_or(Fail::ROOM))?;
        }
    }
    check_signs(am, signs)?;
    check_reach(am, reach)
}

/// [`compose_fast`] with every list on the heap, sized for the largest
/// result: for a large `A` or a result too large to be inline.
#[cold]
#[inline(never)]
fn compose_slow<const N: usize>(a: &Layout, bs: [LayoutRef<'_>; N]) -> std::result::Result<[Layout; N], Fail> {
    let mut am = vec![(0, 0); a.shape.vals().len().max(1)];
    let k = prepare(a.pairs(), &mut am);
    let am = &am[..k];
    let mut reach = vec![0; k];
    let mut signs = 0u8;
    let mut results = [const { None }; N];
    for (b, slot) in bs.iter().zip(results.iter_mut()) {
        // At most one leaf per mode of A for each leaf of B.
        let leaves = b.shape.len();
        let (mut shape, mut stride) = (vec![0; leaves * k], vec![0; leaves * k]);
        let mut counts = vec![0; leaves];
        let mut out = LeafRoom { shape: &mut shape, stride: &mut stride };
        compose_leaves::<0>(am, b.leaves(), &mut out, &mut reach, &mut signs, count_into(&mut counts))?;
        let mut r = Layout::empty();
        let mut leaf = shape.iter().zip(&stride);
        expand(b.tok, &counts, |bits, n| {
            for t in Toks::packed(bits, n).iter() {
                match t {
                    Tok::Open => r.open(),
                    Tok::Close => r.close(),
                    _ => {
                        let (&s, &d) = leaf.next().ok_or(Fail::ROOM)?;
                        r.shape.leaf(s);
                        r.stride.leaf(d);
                    }
                }
            }
            Ok(())
        })?;
        *slot = Some(r);
    }
    check_signs(am, signs)?;
    check_reach(am, &reach)?;
    Ok(results.map(|r| r.unwrap_or_else(Layout::empty)))
}

/// `A ∘ B` for a layout `B`, refusing where `B`'s modes are not
/// distributive over `A` ([`compose_layout_by`] without the by-mode answer).
fn compose_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    compose_layout_by::<false>(a, b)
}

/// `A ∘ B` for a layout `B`; where `B`'s modes are not distributive over
/// `A` and `BY_MODE`, the answer of [`leafwise_if_exact`] (what
/// [`composition`] gives). Every answer is made in the returned value: a
/// caller that matched the result apart and returned it would copy its 144
/// bytes just after they were written, through a library `memcpy` whose
/// wide loads wait on those narrow stores (20 ns of a 35 ns composition).
fn compose_layout_by<const BY_MODE: bool>(a: &Layout, b: &Layout) -> Result<Layout> {
    let mut parts = [Parts::new()];
    let fail = match compose_fast(a, [b], &mut parts) {
        // Built in the returned value, not moved into it.
        Ok(()) => return Ok(parts[0].into_layout()),
        Err(Fail::ROOM) => match compose_slow(a, [b.view()]) {
            Ok([r]) => return Ok(r),
            Err(f) => f,
        },
        Err(f) => f,
    };
    if BY_MODE && matches!(fail, Fail::NotDistributive { .. }) {
        return leafwise_if_exact(a, b).ok_or_else(|| fail.into_error(&|| format!("composition({a}, {b})")));
    }
    Err(fail.into_error(&|| format!("composition({a}, {b})")))
}

/// `(A ∘ B, A ∘ C)`, checked for distributivity as `A ∘ (B, C)` (the reach
/// of both is added up) without building `(B, C)` or taking it apart.
pub(crate) fn compose_pair(a: &Layout, b: &Layout, c: &Layout) -> Result<(Layout, Layout)> {
    let mut parts = [Parts::new(); 2];
    let fail = match compose_fast(a, [b, c], &mut parts) {
        // Built in the returned pair, as in `compose_layout`.
        Ok(()) => return Ok((parts[0].into_layout(), parts[1].into_layout())),
        Err(Fail::ROOM) => match compose_slow(a, [b.view(), c.view()]) {
            Ok([x, y]) => return Ok((x, y)),
            Err(f) => f,
        },
        Err(f) => f,
    };
    Err(fail.into_error(&|| format!("composition({a}, ({b}, {c}))")))
}

/// `A` prepared once for composing several (sub)layouts with it, each
/// written straight into a result under construction: what the divides and
/// products use, so that neither the parts nor their pairs are ever whole
/// layouts of their own. Distributivity is checked over everything composed
/// ([`Composer::check`]), as `A ∘ (B0, B1, ...)`.
///
/// Every failure is reported as `None`/`Err(())` without a message: the
/// callers then run their general path, which names the error.
pub(crate) struct Composer {
    am: [(i64, i64); STACK_MODES],
    k: usize,
    reach: [i64; STACK_MODES],
    signs: u8,
}

impl Composer {
    /// `A` given by its leaves; `None` when it has more than the stack room.
    /// (Prepared in place: a prepared `A` moved into a returned value
    /// stalls on the store-to-load forwarding of its narrow writes.)
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn prepare(&mut self, a: impl ExactSizeIterator<Item = (i64, i64)>) -> Option<()> {
        if a.len() > STACK_MODES {
            return None;
        }
        self.k = prepare(a, &mut self.am);
        Some(())
    }

    /// Nothing prepared yet.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new() -> Composer {
        Composer { am: [(0, 0); STACK_MODES], k: 0, reach: [0; STACK_MODES], signs: 0 }
    }

    /// Appends `A ∘ B` to `out` as one subtree (`B`'s structure, each leaf
    /// become its leaves). With `units`, each size-1 leaf of `B` takes the
    /// stride [`unit_stride`] gives it on that other prepared `A` (see
    /// [`restride_units`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn compose_into(&mut self, b: LayoutRef<'_>, units: Option<&Composer>, out: &mut Parts) -> Option<()> {
        // As in `compose_fast`: the usual few modes of `A` a constant for
        // the compiler, so that the loops over them unroll.
        match self.k {
            1 => self.compose_into_k::<1>(b, units, out),
            2 => self.compose_into_k::<2>(b, units, out),
            _ => self.compose_into_k::<STACK_MODES>(b, units, out),
        }
    }

    /// [`Composer::compose_into`] for a prepared `A` of `K` modes (or, for
    /// `K = STACK_MODES`, up to `K`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn compose_into_k<const K: usize>(
        &mut self,
        b: LayoutRef<'_>,
        units: Option<&Composer>,
        out: &mut Parts,
    ) -> Option<()> {
        // The leaves go straight into the room left in `out`, the
        // structure after them: nothing is composed apart and copied over.
        let base = out.nval;
        let mut counts = [0u8; INLINE_VALS];
        let k = if K == STACK_MODES { self.k.min(K) } else { K };
        let am = self.am.get(..k)?;
        let reach = self.reach.get_mut(..k)?;
        let (shape, stride) = (out.shape.get_mut(base..)?, out.stride.get_mut(base..)?);
        let mut leaves = LeafRoom { shape, stride };
        let group = count_into(&mut counts);
        let n = compose_leaves_unrolled(am, b.leaves(), &mut leaves, reach, &mut self.signs, group).ok()?;
        if let Some(u) = units {
            // Size-1 leaves of B stay one leaf each: leaf `v` of the result.
            let mut v = 0usize;
            for k in 0..b.shape.len() {
                let c = *counts.get(k)?;
                leaves.restride_unit(v, usize::from(c), *b.stride.get(k)?, u);
                v += usize::from(c);
            }
        }
        out.nval = base + n;
        if n == b.shape.len() {
            // One leaf per leaf: B's structure as it is, in one word.
            return out.toks(b.tok);
        }
        expand(b.tok, &counts, |bits, n| out.tok_bits(bits, n).ok_or(())).ok()
    }

    /// Writes the leaves of `A ∘ B` after those of `out`, for a flat `B`
    /// of `n` leaves (`leaf(k)` the `k`-th), and returns the structure of
    /// `A ∘ B` (what one leaf became, or a tuple of what each did when
    /// there are several), packed, with its number of tokens, for the
    /// caller to append: the leaves composed one at a time by
    /// [`Composer::compose_leaf_into`] (the caller checks the extent of
    /// its result). `None` for a structure of more than the inline room's
    /// tokens.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn compose_flat(
        &mut self,
        n: usize,
        leaf: impl Fn(usize) -> Option<(i64, i64)>,
        out: &mut Parts,
    ) -> Option<(u64, usize)> {
        // Tiles of one or two leaves (most) unrolled, as in `compose_fast`.
        match n {
            1 => self.compose_flat_n::<1>(1, leaf, out),
            2 => self.compose_flat_n::<2>(2, leaf, out),
            _ => self.compose_flat_n::<0>(n, leaf, out),
        }
    }

    /// [`Composer::compose_flat`] of `N` leaves (or, for `N = 0`, of `n`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn compose_flat_n<const N: usize>(
        &mut self,
        n: usize,
        leaf: impl Fn(usize) -> Option<(i64, i64)>,
        out: &mut Parts,
    ) -> Option<(u64, usize)> {
        let n = if N > 0 { N } else { n };
        let mut toks = FlatToks::new(n);
        for k in 0..n {
            toks.group(self.compose_leaf_into(leaf(k)?, None, out)?);
        }
        toks.finish()
    }

    /// Writes the leaves of `A ∘ s:d`, for one leaf `s:d` of a `B`, after
    /// the leaves of `out` and returns their number; the caller writes the
    /// structure (a leaf, or a tuple of that many). What
    /// [`Composer::compose_into`] does for each leaf, for callers that lay
    /// out a flat result themselves. `units` as there. Unlike
    /// `compose_into`, it does not check that the offsets of the leaves
    /// fit: the caller checks its whole result (`Parts::fits`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn compose_leaf_into(
        &mut self,
        (s, d): (i64, i64),
        units: Option<&Composer>,
        out: &mut Parts,
    ) -> Option<usize> {
        match self.k {
            1 => self.compose_leaf_into_k::<1>((s, d), units, out),
            2 => self.compose_leaf_into_k::<2>((s, d), units, out),
            _ => self.compose_leaf_into_k::<STACK_MODES>((s, d), units, out),
        }
    }

    /// [`Composer::compose_leaf_into`] for a prepared `A` of `K` modes (or,
    /// for `K = STACK_MODES`, up to `K`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn compose_leaf_into_k<const K: usize>(
        &mut self,
        (s, d): (i64, i64),
        units: Option<&Composer>,
        out: &mut Parts,
    ) -> Option<usize> {
        let base = out.nval;
        let k = if K == STACK_MODES { self.k.min(K) } else { K };
        let am = self.am.get(..k)?;
        let reach = self.reach.get_mut(..k)?;
        let (shape, stride) = (out.shape.get_mut(base..)?, out.stride.get_mut(base..)?);
        let mut leaves = LeafRoom { shape, stride };
        let n = compose_leaf(am, (s, d), &mut leaves, 0, reach).ok()?;
        // The sign check of `compose_leaves`, leaf by leaf (its extent
        // check is the caller's, on the whole result).
        if s > 1 {
            self.signs |= u8::from(d > 0) | (u8::from(d < 0) << 1);
        }
        if let Some(u) = units {
            leaves.restride_unit(0, n, d, u);
        }
        out.nval = base + n;
        Some(n)
    }

    /// The stride of `A ∘ 1:d` as CuTe gives it (see [`unit_stride`]).
    #[inline]
    fn unit(&self, d: i64) -> i64 {
        let Some((&(_, last_d), bounded)) = self.am[..self.k].split_last() else { return 0 };
        let up = match d.checked_abs() {
            Some(x) => unit_stride(bounded, x, last_d),
            None => 0,
        };
        if d < 0 { -up } else { up }
    }

    /// The distributivity and sign checks over everything composed.
    #[inline]
    pub(crate) fn check(&self) -> Option<()> {
        let am = &self.am[..self.k];
        check_signs(am, self.signs).ok()?;
        check_reach(am, &self.reach[..self.k]).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::LayoutError;
    use crate::int_tuple::IntTuple;
    use crate::tiler::Tiler;

    /// `R(i) == A(B(i))` on all of `B`'s domain, and `R` prints and parses back.
    fn assert_composes(a: &Layout, b: &Layout, r: &Layout) {
        assert_eq!(r.size(), b.size());
        for i in 0..b.size() {
            assert_eq!(r.eval(i).unwrap(), a.eval_extended(b.eval(i).unwrap()).unwrap(), "{a} o {b} at {i}");
        }
        let again: Layout = r.to_string().parse().unwrap();
        assert_eq!(&again, r);
    }

    /// An `A` of more than 8 leaves takes the slow path from the start, and
    /// its results outgrow the inline room (8 leaves, 28 tokens).
    #[test]
    fn results_larger_than_inline_storage() {
        let a: Layout = "(2,2,2,2,2,2,2,2,2,2,2,2):(1,4,2,16,8,64,32,256,128,1024,512,2048)".parse().unwrap();
        for b in [
            "4096:1",
            "(64,64):(1,64)",
            "((8,8),(8,8)):((1,8),(64,512))",
            "(2,(2,(2,(2,(2,(2,64)))))):(1,(2,(4,(8,(16,(32,64))))))",
        ] {
            let b: Layout = b.parse().unwrap();
            let r = composition(&a, &b).unwrap();
            assert!(r.shape.leaf_count() > 10, "{r}");
            assert_composes(&a, &b, &r);
        }
    }

    /// An `A` of 8 leaves starts on the fast path; results of more than 10
    /// leaves, or a `B` on the heap, hand over to the slow path part way,
    /// which must start afresh (the reach counted so far included).
    #[test]
    fn fast_path_hands_over_when_out_of_room() {
        let a: Layout = "(2,2,2,2,2,2,2,2):(1,4,2,16,8,64,32,128)".parse().unwrap();
        // B, and the number of leaves of A ∘ B (None: not distributive).
        let cases = [
            ("(16,16):(1,16)", Some(8)),
            ("(256,1,1,1):(1,0,0,0)", Some(11)),
            ("((4,4),(4,4),1,1,1):((1,4),(16,64),0,0,0)", Some(11)),
            ("(2,2,2,2,2,2,2,2,1,1,1,1):(1,2,4,8,16,32,64,128,1,1,1,1)", Some(12)),
            ("(2,2,2,2,2,2,2,2,2,2,2,2):(1,1,1,1,1,1,1,1,1,1,1,1)", None),
        ];
        for (b, leaves) in cases {
            let b: Layout = b.parse().unwrap();
            match (composition(&a, &b), leaves) {
                (Ok(r), Some(n)) => {
                    assert_eq!(r.shape.leaf_count(), n, "{a} o {b} = {r}");
                    assert_composes(&a, &b, &r);
                }
                (Err(e), None) => assert!(matches!(e, LayoutError::NotDistributive { .. }), "{a} o {b}: {e}"),
                (r, _) => panic!("{a} o {b}: {r:?}"),
            }
        }
        // The same through the pair of a divide: both halves, one reach.
        let b: Layout = "(16,4):(1,16)".parse().unwrap();
        let c: Layout = "(2,2):(64,128)".parse().unwrap();
        let (x, y) = compose_pair(&a, &b, &c).unwrap();
        assert_composes(&a, &b, &x);
        assert_composes(&a, &c, &y);
        let c: Layout = "2:1".parse().unwrap();
        assert!(compose_pair(&a, &b, &c).is_err(), "B and C overlap in A's first mode");
    }

    /// Composition by a tiler or a shape on the flat path agrees with the
    /// general one wherever it answers, and answers for most small inputs.
    #[test]
    fn flat_tiler_composition_agrees_with_the_general_path() {
        let ls = crate::layout::small_layouts();
        let (mut answered, mut ok) = (0, 0);
        let mut check = |a: &Layout, view: View<'_>, what: &dyn Fn() -> String| {
            let general = compose_view(a, view);
            ok += usize::from(general.is_ok());
            if let Some(p) = compose_view_flat(a, view) {
                answered += 1;
                assert_eq!(Ok(p.into_layout()), general, "{}", what());
            }
        };
        for a in &ls {
            for b in &ls {
                check(a, View::Layout(b), &|| format!("{a} o {b}"));
                let t = Tiler::Tuple(vec![Tiler::Layout(b.clone()), Tiler::Layout(a.clone())]);
                check(a, View::of(t.as_tiler()), &|| format!("{a} o {t}"));
                let t = Tiler::Tuple(vec![Tiler::Tuple(vec![Tiler::Layout(b.clone())])]);
                check(a, View::of(t.as_tiler()), &|| format!("{a} o {t}"));
            }
            for s in ["2", "(2,2)", "(1,(2,1))", "(3,2,1)", "0"] {
                let s: IntTuple = s.parse().unwrap_or_else(|e| panic!("{e}"));
                check(a, View::of(s.as_tiler()), &|| format!("{a} o {s}"));
            }
        }
        assert!(ok > 1000, "only {ok} inputs with a result");
        assert!(answered * 10 >= ok * 9, "the flat path answered {answered} of {ok}");
    }

    /// The fast path (a flat `B`'s structure built as its leaves are
    /// composed, any other `B`'s expanded from the counts) gives what the
    /// slow path gives, which expands every structure from the counts:
    /// the same layout or the same failure, for one `B` and for two.
    #[test]
    fn fast_composition_agrees_with_the_slow_path() {
        let ls = crate::layout::small_layouts();
        let show = |r: std::result::Result<Vec<Layout>, Fail>| match r {
            Ok(v) => v.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(" "),
            Err(f) => format!("{f:?}"),
        };
        let (mut flat, mut ok) = (0, 0);
        for a in &ls {
            for (b, c) in ls.iter().zip(ls.iter().rev()) {
                let mut one = [Parts::new()];
                let fast = compose_fast(a, [b], &mut one).map(|()| vec![one[0].into_layout()]);
                let slow = compose_slow(a, [b.view()]).map(Vec::from);
                ok += usize::from(fast.is_ok());
                flat += usize::from(b.shape.flat_leaves().is_some() && fast.is_ok());
                assert_eq!(show(fast), show(slow), "{a} o {b}");
                let mut two = [Parts::new(); 2];
                let fast = compose_fast(a, [b, c], &mut two).map(|()| two.map(Parts::into_layout).to_vec());
                let slow = compose_slow(a, [b.view(), c.view()]).map(Vec::from);
                assert_eq!(show(fast), show(slow), "{a} o ({b}, {c})");
            }
        }
        assert!(flat > 1000 && ok > flat, "{flat} flat of {ok} results");
    }
}
