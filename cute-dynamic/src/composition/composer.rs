//! The speed work below composition's rule (the rule is stated in
//! `composition.rs`, above [`composition`](fn@crate::composition::composition),
//! and walked by [`kernel::compose_leaf`]): that walk applied to every leaf
//! of `B`, with `A` prepared on the stack and the result written in place.
//!
//! `A` is prepared (coalesced) once per operation onto the stack, the
//! leaves of a result are written straight into the inline room of the
//! result (`Parts`). Its structure is `B`'s: for a flat `B` (a leaf
//! or a tuple of leaves, most), built from each leaf's count as the leaves
//! are composed (`FlatToks`); otherwise copied as one word or expanded a
//! word at a time. Results too large for the inline room take a slow path
//! with lists on the heap. `Composer` is the same kernel for the divides
//! and products, which compose several (sub)layouts with one prepared `A`
//! into one result under construction. Failures carry numbers only; the
//! message is written on the cold path.

use crate::int_tuple::flat_toks;
use crate::int_tuple::{INLINE_TOKS, INLINE_VALS, PER_WORD, Tok, Toks, WordToks};
use crate::kernel::{self, Fail, LeafSink, May, unit_stride};
use crate::layout::{self, Layout, LayoutRef, Leaves, Parts};

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
// Every leaf of B, A prepared on the stack, the result written in place.
// ---------------------------------------------------------------------------

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

/// The leaves of an `A` of `L` leaves, when [`prepare`] keeps them as
/// they are (nothing merges, nothing is dropped: most layouts of two
/// leaves). Then they are read straight from `A` and stay in registers;
/// `prepare` writes its modes into memory, where the walks that read them
/// back wait on those stores (15 % of a composition's time).
#[cfg_attr(not(debug_assertions), inline(always))]
fn prepared_as_is<const L: usize>(a: &Layout) -> Option<[(i64, i64); L]> {
    let (shape, stride) = (a.shape.vals(), a.stride.vals());
    if shape.len() != L || stride.len() != L {
        return None;
    }
    let m: [(i64, i64); L] = std::array::from_fn(|k| (shape[k], stride[k]));
    // As `prepare` walks them: each mode but the last by the full rule,
    // the last kept even when of size 1.
    for k in 0..L {
        let may = if k + 1 < L { May::ALL } else { May::KEEP_UNIT };
        let last = k.checked_sub(1).map(|j| m[j]);
        if kernel::coalesce_step(last, m[k], may) != kernel::Step::Append {
            return None;
        }
    }
    Some(m)
}

/// `A` as composition reads it ([`prepare`]), as a layout of flat modes:
/// the same function on the extended domain and the same compositions,
/// in at most 64 modes (every other one has a size of at least 2, and the
/// size fits in an `i64`). For the checks that evaluate `A` at every point
/// of a domain: each evaluation walks these few modes, not every leaf.
pub(crate) fn prepared_layout(a: &Layout) -> Layout {
    let mut modes = vec![(0, 0); a.shape.vals().len().max(1)];
    let k = prepare(a.pairs(), &mut modes);
    layout::layout_from_modes(&modes[..k])
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
                r.stride.vals_mut()[rv] = unit_stride(bounded, d, last_d);
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
pub(crate) fn compose_fast<const N: usize>(a: &Layout, bs: [&Layout; N], parts: &mut [Parts; N]) -> std::result::Result<(), Fail> {
    if a.shape.vals().len() > STACK_MODES {
        return Err(Fail::ROOM);
    }
    if let Some(am) = prepared_as_is::<2>(a) {
        return compose_prepared::<2, N>(&am, bs, parts);
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
pub(crate) fn compose_slow<const N: usize>(a: &Layout, bs: [LayoutRef<'_>; N]) -> std::result::Result<[Layout; N], Fail> {
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
    /// caller to append: the leaves composed one at a time as
    /// [`Composer::compose_leaf_into`] does it (the caller checks the extent of
    /// its result). `None` for a structure of more than the inline room's
    /// tokens.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn compose_flat(
        &mut self,
        n: usize,
        leaf: impl Fn(usize) -> Option<(i64, i64)>,
        units: Option<&Composer>,
        out: &mut Parts,
    ) -> Option<(u64, usize)> {
        // Tiles of one or two leaves (most) unrolled, as in `compose_fast`.
        match n {
            1 => self.compose_flat_n::<1>(1, leaf, units, out),
            2 => self.compose_flat_n::<2>(2, leaf, units, out),
            _ => self.compose_flat_n::<0>(n, leaf, units, out),
        }
    }

    /// [`Composer::compose_flat`] of `N` leaves (or, for `N = 0`, of `n`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn compose_flat_n<const N: usize>(
        &mut self,
        n: usize,
        leaf: impl Fn(usize) -> Option<(i64, i64)>,
        units: Option<&Composer>,
        out: &mut Parts,
    ) -> Option<(u64, usize)> {
        // The modes of `A` chosen once for all the leaves, not per leaf.
        match self.k {
            1 => self.compose_flat_nk::<N, 1>(n, leaf, units, out),
            2 => self.compose_flat_nk::<N, 2>(n, leaf, units, out),
            _ => self.compose_flat_nk::<N, STACK_MODES>(n, leaf, units, out),
        }
    }

    /// [`Composer::compose_flat_n`] for a prepared `A` of `K` modes (or,
    /// for `K = STACK_MODES`, up to `K`): each leaf as
    /// [`Composer::compose_leaf_into`] does it, into one room taken once.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn compose_flat_nk<const N: usize, const K: usize>(
        &mut self,
        n: usize,
        leaf: impl Fn(usize) -> Option<(i64, i64)>,
        units: Option<&Composer>,
        out: &mut Parts,
    ) -> Option<(u64, usize)> {
        let n = if N > 0 { N } else { n };
        let base = out.nval;
        let k = if K == STACK_MODES { self.k.min(K) } else { K };
        let am = self.am.get(..k)?;
        let reach = self.reach.get_mut(..k)?;
        let (shape, stride) = (out.shape.get_mut(base..)?, out.stride.get_mut(base..)?);
        let mut leaves = LeafRoom { shape, stride };
        let mut toks = FlatToks::new(n);
        let mut at = 0;
        for j in 0..n {
            let (s, d) = leaf(j)?;
            let c = compose_leaf(am, (s, d), &mut leaves, at, reach).ok()?;
            // The sign check of `compose_leaves`, as in `compose_leaf_into`.
            if s > 1 {
                self.signs |= u8::from(d > 0) | (u8::from(d < 0) << 1);
            }
            if let Some(u) = units {
                leaves.restride_unit(at, c, d, u);
            }
            toks.group(c);
            at += c;
        }
        out.nval = base + at;
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
        unit_stride(bounded, d, last_d)
    }

    /// The distributivity and sign checks over everything composed.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn check(&self) -> Option<()> {
        let am = &self.am[..self.k];
        check_signs(am, self.signs).ok()?;
        check_reach(am, &self.reach[..self.k]).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `prepared_as_is` gives `A`'s leaves exactly when `prepare` keeps
    /// them all as they are, and nothing otherwise.
    #[test]
    fn leaves_as_is_exactly_when_prepare_keeps_them() {
        let leaves = [(1, 0), (1, 5), (2, 0), (2, 1), (3, 2), (4, 2), (2, 4), (6, 1), (3, 0), (2, -2), (5, 7)];
        let mut kept = 0;
        for &x in &leaves {
            for &y in &leaves {
                let a = layout::layout_from_modes(&[x, y]);
                let mut am = [(0i64, 0i64); 2];
                let k = prepare(a.pairs(), &mut am[..]);
                match prepared_as_is::<2>(&a) {
                    Some(m) => {
                        assert_eq!((k, am), (2, m), "{a}");
                        assert_eq!(m, [x, y], "{a}");
                        kept += 1;
                    }
                    None => assert!(k < 2, "{a}: prepare kept {am:?}"),
                }
            }
        }
        // Both outcomes are exercised.
        assert!(kept > 0 && kept < leaves.len() * leaves.len());
        // Not for another number of leaves.
        assert_eq!(prepared_as_is::<2>(&"(2,3,4):(1,2,6)".parse().unwrap()), None);
    }
}
