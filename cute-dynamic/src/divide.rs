//! The divide family: `logical_divide`, `zipped_divide`, `tiled_divide`,
//! `flat_divide` (paper 3.5.2, CuTe docs "Division").

use crate::complement::complement;
use crate::composition::{AsTiler, compose_pair};
use crate::error::Result;
use crate::layout::Layout;
use crate::tiler::{Arrange, by_mode};

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
/// Errors: those of [`complement`] and [`composition`](crate::composition), and `RankMismatch`
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
    by_mode(a, b.as_tiler(), Arrange::Logical, divide_1d)
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
    by_mode(a, b.as_tiler(), Arrange::Zipped, divide_1d)
}

/// Tiled divide: `((TileM,TileN,...), RestM, RestN, L, ...)`: the zipped
/// divide with the modes of its rest part spliced in (CuTe's
/// `zipped_divide(A, B)(_, repeat<R1>(_))`); for a layout `B` that is
/// `(A ∘ B, modes of A ∘ B*...)`, e.g. `tiled_divide((2,4,3):(4,1,8), 4:2)`
/// is `(4,2,3):(1,4,8)`.
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
    by_mode(a, b.as_tiler(), Arrange::Tiled, divide_1d)
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
    by_mode(a, b.as_tiler(), Arrange::Flat, divide_1d)
}
