//! The product family: `logical_product`, `zipped_product`, `tiled_product`,
//! `flat_product`, `blocked_product`, `raked_product` (paper 3.5.1, CuTe
//! docs "Product").

use crate::coalesce::coalesce_slice;
use crate::complement::{STACK_MODES, complement_extended, complement_on_stack};
use crate::composition::composer::{Composer, restride_units};
use crate::composition::composition;
use crate::error::{LayoutError, Result, checked_mul};
use crate::int_tuple::flat_toks;
use crate::int_tuple::{LEAF, Tok};
use crate::layout::{Concat, Layout, LayoutRef, Leaves, Parts, concat};
use crate::tiler::{Arrange, AsTiler, SplitLeaves, SplitOut, Tile, by_mode_or};

/// `(A, A* ∘ B)` with `A* = complement(A, size(A)·cosize(B))`, the
/// complement keeping its last mode even when that has size 1: `B` may
/// read `A*` past its end, along that mode, where the next replicas start
/// (`(2,2):(3,10)` by `4:1`: the complement `(3,1):(1,20)` makes that a
/// shape divisibility error; coalesced to `3:1` it would put `A*(3) = 3 =
/// A(1)`, a replica meeting `A`).
fn product_1d(a: &Layout, b: &Layout) -> Result<(Layout, Layout)> {
    // The replicas must be told apart over the whole span of B's offsets:
    // with negative strides that is more than `cosize(B)` (`2:-2` spans 3
    // offsets but has cosize 1, which would collapse A* to `1:0`).
    // (Each of `hi` and `lo` fits, their difference may not.)
    let (hi, lo) = b.leaves().span();
    let overflow = LayoutError::Overflow { operation: "logical_product" };
    let span = hi.checked_sub(lo).and_then(|x| x.checked_add(1)).ok_or(overflow)?;
    let m = checked_mul(a.size(), span, "logical_product")?;
    let star = complement_extended(a, m)?;
    let mut r = composition(&star, b)?;
    // CuTe composes with the coalesced complement: its size-1 leaves get
    // their strides from that one (`(1,4):(6,4) ⊗ 1:1` is `((1,4),1):((6,4),1)`).
    restride_units(&mut r, b, &crate::coalesce::coalesce(&star));
    Ok((a.clone(), r))
}

/// Logical product `A ⊗ B = (A, A* ∘ B)` (paper 3.5.1): mode 0 is the tile
/// `A`, mode 1 replaces each element of `B` by a unique replica of `A`.
/// With a tiler `<B0, B1, ...>` it applies by mode:
/// `((M,TileM), (N,TileN), L, ...)`.
///
/// Post-conditions, for a layout `B` (CuTe's unit test and the paper):
/// * `rank(R) == 2` and `layout<0>(R) == A`;
/// * `layout<1>(R)` is compatible with `B` (same tree as `B`, each leaf of
///   `B` replaced by a shape of the same size);
/// * the replicas are disjoint: `R` is injective when `A` and `B` are.
///
/// Errors: those of [`complement`](fn@crate::complement) (of `A`) and [`composition`] (of the
/// complement with `B`: e.g. `(2,2):(3,10)` by `4:1` is a shape
/// divisibility error, as the holes of `A` hold 3 replicas, not 4).
///
/// ```
/// use cute_dynamic::{Layout, logical_product};
/// let a: Layout = "(2,2):(4,1)".parse().unwrap();
/// let b: Layout = "6:1".parse().unwrap();
/// assert_eq!(logical_product(&a, &b).unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub fn logical_product<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    by_mode_or::<Product>(a, b.as_tiler(), Arrange::Logical, product_1d)
}

/// Zipped product: `((M,N,...), (TileM,TileN,L,...))`; for a layout `B` it
/// equals [`logical_product`].
///
/// Post-conditions: the same function as [`logical_product`] with the modes
/// regrouped.
///
/// ```
/// use cute_dynamic::{Layout, Tiler, zipped_product};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let t: Tiler = "<3:1, 4:1>".parse().unwrap();
/// // Each mode is multiplied in its own codomain: the complement of `2:5`
/// // is taken up to 2·3 = 6, not past the other mode's offsets.
/// assert_eq!(zipped_product(&a, &t).unwrap().to_string(), "((2,5),(3,4)):((5,1),(1,5))");
/// ```
pub fn zipped_product<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    by_mode_or::<Product>(a, b.as_tiler(), Arrange::Zipped, product_1d)
}

/// Tiled product: `((M,N,...), TileM, TileN, L, ...)`: the zipped product
/// with the modes of its second part spliced in; for a layout `B` that is
/// `(A, modes of A* ∘ B...)`, e.g. `tiled_product((3,4):(4,1), (2,5):(1,2))`
/// is `((3,4),2,5):((4,1),12,24)`.
///
/// A part of rank 1 is kept whole, as CuTe's `result(_, repeat<1>(_))` does:
/// `tiled_product(2:1, <5:8>)` is `((2),(5)):((1),(16))`.
///
/// Post-conditions: the same function as [`logical_product`] with the modes
/// regrouped.
///
/// ```
/// use cute_dynamic::{Layout, Tiler, tiled_product};
/// let a: Layout = "(3,4):(4,1)".parse()?;
/// let b: Layout = "(2,5):(1,2)".parse()?;
/// assert_eq!(tiled_product(&a, &b)?.to_string(), "((3,4),2,5):((4,1),12,24)");
/// let t: Tiler = "<2:1, 5:1>".parse()?;
/// assert_eq!(tiled_product(&a, &t)?.to_string(), "((3,4),2,5):((4,1),1,4)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn tiled_product<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    by_mode_or::<Product>(a, b.as_tiler(), Arrange::Tiled, product_1d)
}

/// Flat product: `(M, N, ..., TileM, TileN, L, ...)`: the zipped product
/// with the modes of both parts spliced in; for a layout `B` that is
/// `(modes of A..., modes of A* ∘ B...)`.
///
/// A part of rank 1 is kept whole (see [`tiled_product`]).
///
/// Post-conditions: the same function as [`logical_product`] with the modes
/// regrouped.
///
/// ```
/// use cute_dynamic::{Layout, Tiler, flat_product};
/// let a: Layout = "(3,4):(4,1)".parse()?;
/// let b: Layout = "(2,5):(1,2)".parse()?;
/// assert_eq!(flat_product(&a, &b)?.to_string(), "(3,4,2,5):(4,1,12,24)");
/// let t: Tiler = "<2:1, 5:1>".parse()?;
/// assert_eq!(flat_product(&a, &t)?.to_string(), "(3,4,2,5):(4,1,1,4)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn flat_product<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    by_mode_or::<Product>(a, b.as_tiler(), Arrange::Flat, product_1d)
}

/// The rank-sensitive products: pad both to the same rank with `1:0` modes,
/// take the 1-D logical product and zip like modes (`block_first`: the mode
/// of `A` first), not coalesced (CuTe 4.x and the paper; older CuTe
/// coalesced them).
fn rank_product(a: &Layout, b: &Layout, block_first: bool) -> Result<Layout> {
    // Built in place and made the returned value in one step.
    let mut out = Parts::new();
    if rank_product_into(a, b, block_first, &mut out).is_some() {
        return Ok(out.into_layout());
    }
    rank_product_general(a, b, block_first)
}

/// [`rank_product_into`] into a new `Parts`, for the tests.
#[cfg(test)]
fn rank_product_flat(a: &Layout, b: &Layout, block_first: bool) -> Option<Parts> {
    let mut out = Parts::new();
    rank_product_into(a, b, block_first, &mut out).map(|()| out)
}

/// [`rank_product`] on the leaves, written straight into `out` (empty on
/// entry): no padded copies of `A` and `B`, no intermediate layouts. `None`
/// for inputs of more than 8 leaves and on any failure; then the general
/// path computes it again and names the error.
#[cfg_attr(not(debug_assertions), inline(always))]
fn rank_product_into(a: &Layout, b: &Layout, block_first: bool, out: &mut Parts) -> Option<()> {
    // The leaves; the token lists are read only for a nested `A` or `B`.
    if a.shape.vals().len() > 8 || b.shape.vals().len() > 8 {
        return None;
    }
    // The padding modes 1:0 add nothing to B's span, the size or the
    // complement (which skips size-1 modes).
    let mut grid = Composer::new();
    let mut units = None;
    prepare_grid(a.leaves(), a.size(), b.leaves(), &mut grid, &mut units)?;
    rank_product_modes(a, b, &mut grid, units.as_ref(), block_first, out)?;
    grid.check()?;
    // The whole fits, so every part (each a sum over fewer leaves) does.
    out.fits().then_some(())
}

/// Prepares `grid` with the complement `A* = complement(A, size(A)·span(B))`
/// (its last mode kept, as in `product_1d`) of the leaves of `A` (of size
/// `a_size`), and, where `B` has a size-1 leaf of non-zero stride, `units`
/// with the coalesced `A*`: those leaves take their strides from it, as
/// CuTe's (see `product_1d`); a stride of 0 stays 0 either way.
#[cfg_attr(not(debug_assertions), inline(always))]
fn prepare_grid(
    a: Leaves<'_>,
    a_size: i64,
    b: Leaves<'_>,
    grid: &mut Composer,
    units: &mut Option<Composer>,
) -> Option<()> {
    // B's span and whether it has such a leaf, in one pass over its leaves
    // (B's offsets fit: its extent is checked when it is made).
    let (mut hi, mut lo, mut unit) = (0i64, 0i64, false);
    for (s, d) in b.shape.iter().copied().zip(b.stride.iter().copied()) {
        (hi, lo) = (hi + (s - 1) * d.max(0), lo + (s - 1) * d.min(0));
        unit |= s == 1 && d != 0;
    }
    let m = a_size.checked_mul(hi.checked_sub(lo)?.checked_add(1)?)?;
    let mut star = [(0i64, 0i64); STACK_MODES];
    let n = complement_on_stack(a.shape, a.stride, m, &mut star, true)?.ok()?;
    crate::kernel::complement_fits(&star[..n]).ok()?;
    grid.prepare(star[..n].iter().copied())?;
    if unit {
        let k = coalesce_slice(&mut star[..n]);
        if k == 0 {
            star[0] = (1, 0);
        }
        units.insert(Composer::new()).prepare(star[..k.max(1)].iter().copied())?;
    }
    Some(())
}

/// The 1-D product of one mode on the leaves, for the by-mode walk
/// ([`by_mode_leaves`](crate::tiler::by_mode_leaves)): `(A, A* ∘ B)`, as
/// `product_1d`.
struct Product;

impl SplitLeaves for Product {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn split_into(out: &mut impl SplitOut, a: LayoutRef<'_>, b: Tile<'_>) -> Option<()> {
        let mut grid = Composer::new();
        let mut units = None;
        prepare_grid(a.leaves(), a.size()?, b.leaves(), &mut grid, &mut units)?;
        out.open_nested()?;
        out.tiles().push_view(a)?;
        let y = match b {
            // A flat B (most tiles) leaf by leaf.
            Tile::Flat(l) => {
                let leaf = |k: usize| Some((*l.shape.get(k)?, *l.stride.get(k)?));
                grid.compose_flat(l.len(), leaf, units.as_ref(), out.rests())?
            }
            Tile::Nested(b) => {
                grid.compose_into(b, units.as_ref(), out.rests())?;
                (0, 0)
            }
        };
        grid.check()?;
        out.tile_toks(None, y)
    }
}

/// [`rank_product_into`]'s modes, `(A_k, A* ∘ B_k)` (`block_first`) or
/// `(A* ∘ B_k, A_k)`, into the empty `out`, as one tuple of
/// `max(rank(A), rank(B))` modes, the shorter padded with `1:0`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn rank_product_modes(
    a: &Layout,
    b: &Layout,
    grid: &mut Composer,
    units: Option<&Composer>,
    block_first: bool,
    out: &mut Parts,
) -> Option<()> {
    if a.shape.flat_leaves().is_some() && b.shape.flat_leaves().is_some() {
        // The usual tile and grid, each a leaf or a tuple of leaves: `A_k`
        // is a leaf, and so is `B_k`, composed by `compose_leaf_into`. The
        // structure is written from their number in a word, with no walk
        // of either token list, and appended once.
        let (a, b) = (a.leaves(), b.leaves());
        let (open, leaf, close) = (Tok::Open.code(), Tok::Leaf.code(), Tok::Close.code());
        let (mut word, mut len) = (open, 1usize);
        for k in 0..a.len().max(b.len()) {
            let (x, y) = (a.leaf_or_pad(k), b.leaf_or_pad(k));
            // `(x, A* ∘ y)` or `(A* ∘ y, x)`, the second a leaf or a tuple.
            let (group, w) = if block_first {
                out.leaf_vals(x)?;
                let (g, w) = flat_toks(grid.compose_leaf_into(y, units, out)?);
                (leaf | g << 2, w + 1)
            } else {
                let (g, w) = flat_toks(grid.compose_leaf_into(y, units, out)?);
                out.leaf_vals(x)?;
                (g | leaf << (2 * w), w + 1)
            };
            // (Within the 8 leaves of the inline room, at most 18 tokens:
            // no shift overflows before the check below.)
            word |= (open | group << 2 | close << (2 * (w + 1))).wrapping_shl(2 * len as u32);
            len += w + 2;
        }
        word |= close.wrapping_shl(2 * len as u32);
        return out.tok_bits(word, len + 1);
    }
    // Otherwise mode by mode, each a borrowed view, until both run out.
    let pad = LayoutRef { tok: LEAF, shape: &[1], stride: &[0] };
    let (mut am, mut bm) = (a.view().modes(), b.view().modes());
    out.open()?;
    loop {
        let (x, y) = match (am.next(), bm.next()) {
            (None, None) => return out.close(),
            (x, y) => (x.unwrap_or(pad), y.unwrap_or(pad)),
        };
        out.open()?;
        if block_first {
            out.push_view(x)?;
            grid.compose_into(y, units, out)?;
        } else {
            grid.compose_into(y, units, out)?;
            out.push_view(x)?;
        }
        out.close()?;
    }
}

/// [`rank_product`] through whole layouts: the padded `A` and `B`, their
/// 1-D product, then the modes zipped.
#[cold]
#[inline(never)]
fn rank_product_general(a: &Layout, b: &Layout, block_first: bool) -> Result<Layout> {
    let r = a.rank().max(b.rank());
    let one = Layout::scalar(1, 0)?;
    let pad = |l: &Layout| concat(l.modes_iter().chain(std::iter::repeat_n(one.clone(), r.saturating_sub(l.rank()))));
    let (pa, pb) = (pad(a)?, pad(b)?);
    let (_, grid) = product_1d(&pa, &pb)?;
    let mut out = Concat::new();
    // Both walked once, mode by mode (linear in rank).
    let (mut xs, mut ys) = (pa.modes_iter(), grid.modes_iter());
    for _ in 0..r {
        match (xs.next(), ys.next()) {
            (Some(x), Some(y)) => {
                let pair = if block_first { [&x, &y] } else { [&y, &x] };
                out.push(&concat(pair)?);
            }
            _ => return Err(LayoutError::Unsupported { what: "internal: a product lost a mode".into() }),
        }
    }
    out.finish()
}

/// Blocked product: the logical product of `A` and `B` (padded to the same
/// rank with `1:0` modes) with like modes reassociated, `A`'s first: mode
/// `k` is `(A_k, (A* ∘ B)_k)`, not coalesced (as CuTe 4.x prints it). A 3×4
/// tile by a 2×5 grid gives a 6×20 layout of 3×4 blocks (paper Figure 10).
///
/// Post-conditions:
/// * `rank(R) == max(rank(A), rank(B))`, `size(R_k) == size(A_k)·size(B_k)`;
/// * `R` is the same function as `logical_product(A, B)` with its modes
///   regrouped: `R(a + size(A_k)·b)` in mode `k` walks `A_k` then `B_k`.
///
/// ```
/// use cute_dynamic::{Layout, blocked_product};
/// let a: Layout = "(3,4):(4,1)".parse().unwrap();
/// let b: Layout = "(2,5):(1,2)".parse().unwrap();
/// assert_eq!(blocked_product(&a, &b).unwrap().to_string(), "((3,2),(4,5)):((4,12),(1,24))");
/// ```
pub fn blocked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    rank_product(a, b, true)
}

/// Raked product: as [`blocked_product`] with like modes zipped the other
/// way, `B`'s first: mode `k` is `((A* ∘ B)_k, A_k)`, so the tile
/// is spread ("raked") across the grid (paper Figure 11).
///
/// Post-conditions: `rank(R) == max(rank(A), rank(B))`,
/// `size(R_k) == size(A_k)·size(B_k)`, and `R` is the same function as
/// `logical_product(A, B)` with its modes regrouped.
///
/// ```
/// use cute_dynamic::{Layout, raked_product};
/// let a: Layout = "(3,4):(4,1)".parse().unwrap();
/// let b: Layout = "(2,5):(1,2)".parse().unwrap();
/// assert_eq!(raked_product(&a, &b).unwrap().to_string(), "((2,3),(5,4)):((12,4),(24,1))");
/// ```
pub fn raked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    rank_product(a, b, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `B` whose offsets run from near `i64::MIN` to near `i64::MAX`:
    /// each end fits, the span between them (the cosize) does not, so it
    /// is no layout; one whose span is just `i64::MAX` is, and the products
    /// say that their results overflow rather than wrap (or panic).
    #[test]
    fn span_of_b_past_i64_is_an_overflow() {
        let a: Layout = "2:1".parse().unwrap_or_else(|e| panic!("{e}"));
        let tuple = |s: &str| s.parse::<crate::IntTuple>().unwrap_or_else(|e| panic!("{e}"));
        let past = Layout::new(tuple("(2,2)"), tuple("(9223372036854775806,-9223372036854775808)"));
        assert_eq!(past, Err(LayoutError::Overflow { operation: "layout extent" }));
        let b = Layout::new(tuple("(2,2)"), tuple("(4611686018427387903,-4611686018427387903)"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b.cosize(), i64::MAX);
        let overflow = Err(LayoutError::Overflow { operation: "logical_product" });
        assert_eq!(blocked_product(&a, &b), overflow);
        assert_eq!(raked_product(&a, &b), overflow);
        assert_eq!(logical_product(&a, &b), overflow);
    }

    /// The flat blocked and raked products agree with the general path
    /// wherever they answer, and answer for most small inputs.
    #[test]
    fn flat_products_agree_with_the_general_path() {
        let ls = crate::layout::small_layouts();
        let (mut answered, mut ok) = (0, 0);
        for a in &ls {
            for b in &ls {
                for block_first in [true, false] {
                    let general = rank_product_general(a, b, block_first);
                    ok += usize::from(general.is_ok());
                    if let Some(p) = rank_product_flat(a, b, block_first) {
                        answered += 1;
                        assert_eq!(Ok(p.into_layout()), general, "{a} x {b} ({block_first})");
                    }
                }
            }
        }
        assert!(ok > 1000, "only {ok} inputs with a result");
        assert!(answered * 10 >= ok * 9, "the flat path answered {answered} of {ok}");
    }

    /// The by-mode products on the leaves (logical, zipped, tiled, flat)
    /// agree with the general path wherever they answer (by a layout, by
    /// tilers, by shapes), and answer for most small inputs.
    #[test]
    fn by_mode_products_on_the_leaves_agree_with_the_general_path() {
        for (ok, answered) in crate::tiler::leaves_agree_with_by_mode::<Product>(product_1d) {
            assert!(ok > 1000, "only {ok} inputs with a result");
            assert!(answered * 10 >= ok * 8, "the leaves answered {answered} of {ok}");
        }
    }
}
