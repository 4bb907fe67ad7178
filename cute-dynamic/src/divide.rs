//! The divide family: `logical_divide`, `zipped_divide`, `tiled_divide`,
//! `flat_divide` (paper 3.5.2, CuTe docs "Division").

use crate::complement::{STACK_MODES, complement, complement_on_stack};
use crate::composition::compose_pair;
use crate::composition::composer::Composer;
use crate::error::Result;
use crate::int_tuple::flat_toks;
use crate::kernel::unit_stride;
use crate::layout::{Layout, LayoutRef};
use crate::tiler::{Arrange, AsTiler, SplitLeaves, SplitOut, Tile, by_mode_or};

/// `(A ∘ B, A ∘ B*)` with `B* = complement(B, size(A))`.
fn divide_1d(a: &Layout, b: &Layout) -> Result<(Layout, Layout)> {
    // Composed as A ∘ (B, B*), not one part at a time: the distributivity
    // check must see B's and B*'s offsets added up. (B* by reference: it is
    // not moved out of its result.)
    match complement(b, a.size()) {
        Ok(ref star) => compose_pair(a, b, star),
        Err(e) => Err(e),
    }
}

/// Logical divide `A ⊘ B = A ∘ (B, B*)` with `B* = complement(B, size(A))`
/// (paper 3.5.2): mode 0 of the result is the tile `A ∘ B`, mode 1 iterates
/// over the tiles. With a tiler `<B0, B1, ...>` (or a shape) it applies by
/// mode: `((TileM,RestM), (TileN,RestN), L, ...)`; modes of `A` beyond the
/// tiler stay as they are.
///
/// Post-conditions, for a layout `B`:
/// * `R(i) == A((B, B*)(i))` for every `i` in `0..size(R)` (`A` on its
///   extended domain);
/// * `R`'s mode 0 is `composition(A, B)`;
/// * when `(B, B*)` is a bijection onto `0..size(A)` (the paper requires
///   `(B, B*)` to be surjective onto `Z_|A|`), `size(R) == size(A)` and the
///   offsets of `R` are a permutation of those of `A`. `size(B)` dividing
///   `size(A)` is not enough: `logical_divide(4:1, 2:3)` is `(2,3):(3,1)`
///   (no layout of size 4 splits `4:1` by `2:3`).
///
/// Errors: those of [`complement`] and [`composition`](fn@crate::composition), and `RankMismatch`
/// for a tiler with more modes than `A`.
///
/// ```
/// use cute_dynamic::{Layout, Tiler, logical_divide};
/// let a: Layout = "(2,4,3):(4,1,8)".parse().unwrap();
/// let b: Layout = "4:2".parse().unwrap();
/// assert_eq!(logical_divide(&a, &b).unwrap().to_string(), "(4,(2,3)):(1,(4,8))");
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1, 8:2>".parse().unwrap();
/// assert_eq!(logical_divide(&a, &t).unwrap().to_string(), "((4,2),(8,2)):((20,80),(2,1))");
/// ```
pub fn logical_divide<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    by_mode_or::<Divide>(a, b.as_tiler(), Arrange::Logical, divide_1d)
}

/// The 1-D divide of one mode on the leaves, for the by-mode walk
/// ([`by_mode_leaves`](crate::tiler::by_mode_leaves)).
struct Divide;

impl SplitLeaves for Divide {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn split_into(out: &mut impl SplitOut, a: LayoutRef<'_>, b: Tile<'_>) -> Option<()> {
        divide_1d_into(out, a, b)
    }
}

/// Appends `(A ∘ B, A ∘ B*)`, `B* = complement(B, size(A))`, to `out` (or
/// `A ∘ B` to its tiles and `A ∘ B*` to its rests).
///
/// A mode `A` of one leaf `S:D` with a flat tile is not walked: on its
/// extended domain `A(x) = x·D` is linear, so `A ∘ s:d` is `s:(d·D)` for
/// every leaf (the composition rule with no bounded mode of `A`: no
/// division and no condition but overflow; a leaf of size 1 gets CuTe's
/// stride, [`unit_stride`]), and each part keeps the flat structure of `B`
/// and of `B*`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn divide_1d_into(out: &mut impl SplitOut, a: LayoutRef<'_>, b: Tile<'_>) -> Option<()> {
    let leaves = b.leaves();
    if leaves.len() > 8 {
        return None;
    }
    let mut star = [(0i64, 0i64); STACK_MODES];
    let n = complement_on_stack(leaves.shape, leaves.stride, a.size()?, &mut star, false)?.ok()?;
    let star = star.get(..n)?;
    // The tokens of A ∘ B and of A ∘ B*, each packed in a word; a B that
    // is not flat appends its own as it is composed.
    let (x, y) = if let (&[d], Tile::Flat(b)) = (a.stride, b) {
        let composed = |(s, x): (i64, i64)| Some((s, if s == 1 { unit_stride(&[], x, d) } else { x.checked_mul(d)? }));
        for m in b.shape.iter().copied().zip(b.stride.iter().copied()) {
            out.tiles().leaf_vals(composed(m)?)?;
        }
        for &m in star {
            out.rests().leaf_vals(composed(m)?)?;
        }
        (Some(flat_toks(b.len())), flat_toks(n))
    } else {
        let mut c = Composer::new();
        c.prepare(a.pairs())?;
        let x = match b {
            // A flat B (most tiles) leaf by leaf.
            Tile::Flat(l) => Some(c.compose_flat(l.len(), |k| Some((*l.shape.get(k)?, *l.stride.get(k)?)), None, out.tiles())?),
            Tile::Nested(b) => {
                out.open_nested()?;
                c.compose_into(b, None, out.tiles())?;
                None
            }
        };
        // B*, a complement, is flat: leaf by leaf, read where the
        // complement left it.
        let y = c.compose_flat(n, |k| star.get(k).copied(), None, out.rests())?;
        c.check()?;
        (x, y)
    };
    out.tile_toks(x, y)
}

/// Zipped divide: the by-mode logical divide with the tiles gathered into
/// mode 0 and the rests (and the untouched modes of `A`) into mode 1:
/// `((TileM,TileN,...), (RestM,RestN,L,...))`. For a layout `B` it equals
/// [`logical_divide`].
///
/// Post-conditions: mode 0 of the result is `composition(A, B)`; the result
/// is the same function as [`logical_divide`] with the modes regrouped.
///
/// ```
/// use cute_dynamic::{Layout, Tiler, zipped_divide};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1, 8:2>".parse().unwrap();
/// assert_eq!(zipped_divide(&a, &t).unwrap().to_string(), "((4,8),(2,2)):((20,2),(80,1))");
/// ```
pub fn zipped_divide<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    by_mode_or::<Divide>(a, b.as_tiler(), Arrange::Zipped, divide_1d)
}

/// Tiled divide: `((TileM,TileN,...), RestM, RestN, L, ...)`: the zipped
/// divide with the modes of its rest part spliced in (CuTe's
/// `zipped_divide(A, B)(_, repeat<R1>(_))`); for a layout `B` that is
/// `(A ∘ B, modes of A ∘ B*...)`, e.g. `tiled_divide((2,4,3):(4,1,8), 4:2)`
/// is `(4,2,3):(1,4,8)`. A part of rank 1 is kept whole, as CuTe's
/// `result(_, repeat<1>(_))` does: `tiled_divide(2:1, <5:8>)` is
/// `((5),(8)):((8),(1))` (and so is `flat_divide`'s).
///
/// Post-conditions: the same function as [`logical_divide`] with the modes
/// regrouped; mode 0 is `composition(A, B)`.
///
/// ```
/// use cute_dynamic::{Layout, Tiler, tiled_divide};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1, 8:2>".parse().unwrap();
/// assert_eq!(tiled_divide(&a, &t).unwrap().to_string(), "((4,8),2,2):((20,2),80,1)");
/// ```
pub fn tiled_divide<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    by_mode_or::<Divide>(a, b.as_tiler(), Arrange::Tiled, divide_1d)
}

/// Flat divide: `(TileM, TileN, ..., RestM, RestN, L, ...)`: the zipped
/// divide with the modes of both parts spliced in; for a layout `B` that is
/// `(modes of A ∘ B..., modes of A ∘ B*...)`.
///
/// Post-conditions: the same function as [`logical_divide`] with the modes
/// regrouped.
///
/// ```
/// use cute_dynamic::{Layout, Tiler, flat_divide};
/// let a: Layout = "(8,16):(20,1)".parse().unwrap();
/// let t: Tiler = "<4:1, 8:2>".parse().unwrap();
/// assert_eq!(flat_divide(&a, &t).unwrap().to_string(), "(4,8,2,2):(20,2,80,1)");
/// ```
pub fn flat_divide<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    by_mode_or::<Divide>(a, b.as_tiler(), Arrange::Flat, divide_1d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The divides on the leaves agree with the general path wherever they
    /// answer (by a layout, by tilers, by shapes), and answer for most
    /// small inputs.
    #[test]
    fn divides_on_the_leaves_agree_with_the_general_path() {
        let counts = crate::tiler::leaves_agree_with_by_mode::<Divide>(divide_1d);
        for ((ok, answered), least) in counts.into_iter().zip([9, 8, 8, 8]) {
            assert!(ok > 1000, "only {ok} inputs with a result");
            assert!(answered * 10 >= ok * least, "the leaves answered {answered} of {ok}");
        }
    }
}
