//! The divide family: `logical_divide`, `zipped_divide`, `tiled_divide`,
//! `flat_divide` (paper 3.5.2, CuTe docs "Division").

use crate::complement::{STACK_MODES, complement, complement_on_stack};
use crate::composition::compose_pair;
use crate::composition::composer::Composer;
use crate::error::Result;
use crate::int_tuple::{PER_WORD, Tok, flat_toks};
use crate::kernel::unit_stride;
use crate::layout::{Layout, LayoutRef, Leaves, Parts};
use crate::tiler::{Arrange, Tiler, View, by_mode};
use crate::tiler::{AsTiler, TilerRef};

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
    let t = b.as_tiler();
    // Built in place and made the returned value in one step.
    let mut out = Parts::new();
    if logical_divide_into(a, t, &mut out).is_some() {
        return Ok(out.into_layout());
    }
    by_mode(a, t, Arrange::Logical, divide_1d)
}

/// [`logical_divide_into`] into a new `Parts`, for the tests.
#[cfg(test)]
fn logical_divide_flat(a: &Layout, t: TilerRef<'_>) -> Option<Parts> {
    let mut out = Parts::new();
    logical_divide_into(a, t, &mut out).map(|()| out)
}

/// [`logical_divide`] on the leaves, written straight into `out` (empty on
/// entry): each mode of `A` is a borrowed view, each tile's `(A ∘ B, A ∘
/// B*)` is composed into place. `None` for an `A` of more than 8 leaves and
/// on any failure; then the general path computes it again and names the
/// error.
#[cfg_attr(not(debug_assertions), inline(always))]
fn logical_divide_into(a: &Layout, t: TilerRef<'_>, out: &mut Parts) -> Option<()> {
    if a.shape.vals().len() > 8 {
        return None;
    }
    divide_into(&mut Logical(out), a.view(), View::of(t))?;
    // The whole fits, so every part (each a sum over fewer leaves) does.
    out.fits().then_some(())
}

/// The zipped, tiled or flat divide (`how`) on the leaves, as
/// [`logical_divide_into`]: the tiles `X` and the rests `Y` (with the
/// modes of `A` the tiler does not reach) are written apart, as the
/// general path's `(X, Y)` parts, then arranged into `out` (empty on
/// entry): `(X, Y)`, `(X, Y's modes...)` or `(X's modes..., Y's modes...)`,
/// a part of rank 1 kept whole.
fn arranged_divide_into(a: &Layout, t: TilerRef<'_>, how: Arrange, out: &mut Parts) -> Option<()> {
    if a.shape.vals().len() > 8 {
        return None;
    }
    let (mut tiles, mut rests) = (Parts::new(), Parts::new());
    divide_into(&mut Apart { tiles: &mut tiles, rests: &mut rests }, a.view(), View::of(t))?;
    out.open()?;
    out.append(&tiles, how == Arrange::Flat)?;
    out.append(&rests, how != Arrange::Zipped)?;
    out.close()?;
    out.fits().then_some(())
}

/// Where a divide on the leaves writes: the logical divide's one layout
/// (each tile's `(A ∘ B, A ∘ B*)` one subtree, [`Logical`]), or the tiles
/// and the rests apart (the other three divides, [`Apart`]). A trait, not
/// an enum: each kind gets its own code, the logical divide's as fast as
/// when it was the only one.
trait DivideOut {
    /// Where `A ∘ B` goes.
    fn tiles(&mut self) -> &mut Parts;
    /// Where `A ∘ B*` and the modes of `A` the tiler does not reach go.
    fn rests(&mut self) -> &mut Parts;
    /// Starts (`tok` is `(`) or ends (`)`) a tuple of the tiler, in each
    /// output.
    fn both(&mut self, tok: Tok) -> Option<()>;
    /// Before the leaves of a tile that is not flat (which writes its own
    /// tokens as it is composed).
    fn open_nested(&mut self) -> Option<()>;
    /// The tokens of a tile, `A ∘ B`'s (packed, with their number; `None`
    /// where they are written already) and `A ∘ B*`'s.
    fn tile_toks(&mut self, x: Option<(u64, usize)>, y: (u64, usize)) -> Option<()>;
}

/// The logical divide's one layout.
struct Logical<'p>(&'p mut Parts);

impl DivideOut for Logical<'_> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn tiles(&mut self) -> &mut Parts {
        self.0
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn rests(&mut self) -> &mut Parts {
        self.0
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn both(&mut self, tok: Tok) -> Option<()> {
        self.0.tok(tok)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn open_nested(&mut self) -> Option<()> {
        self.0.open()
    }
    /// `(`, A ∘ B, A ∘ B*, `)` in one step.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn tile_toks(&mut self, x: Option<(u64, usize)>, (y, ny): (u64, usize)) -> Option<()> {
        let (word, len) = x.map_or((0, 0), |(x, nx)| (Tok::Open.code() | x << 2, 1 + nx));
        if len + ny + 1 > PER_WORD {
            return None;
        }
        self.0.tok_bits(word | y << (2 * len) | Tok::Close.code() << (2 * (len + ny)), len + ny + 1)
    }
}

/// The tiles and the rests, apart.
struct Apart<'p> {
    tiles: &'p mut Parts,
    rests: &'p mut Parts,
}

impl DivideOut for Apart<'_> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn tiles(&mut self) -> &mut Parts {
        self.tiles
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn rests(&mut self) -> &mut Parts {
        self.rests
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn both(&mut self, tok: Tok) -> Option<()> {
        self.tiles.tok(tok)?;
        self.rests.tok(tok)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn open_nested(&mut self) -> Option<()> {
        Some(())
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn tile_toks(&mut self, x: Option<(u64, usize)>, (y, ny): (u64, usize)) -> Option<()> {
        if let Some((x, nx)) = x {
            self.tiles.tok_bits(x, nx)?;
        }
        self.rests.tok_bits(y, ny)
    }
}

/// Appends `A ⊘ view` to `out` as one subtree (see [`logical_divide_into`]),
/// or its tiles and its rests as one subtree each.
fn divide_into(out: &mut impl DivideOut, a: LayoutRef<'_>, view: View<'_>) -> Option<()> {
    match view {
        View::Layout(b) => return divide_1d_into(out, a, Tile::of(b)),
        View::Shape(n) => {
            if let Some(v) = n.leaf() {
                // The tile `v:1`, or `1:0` (a shape below 1 is the general
                // path's error).
                if v < 1 {
                    return None;
                }
                let (shape, stride) = ([v], [crate::tiler::shape_tile_stride(v)]);
                return divide_1d_into(out, a, Tile::Flat(Leaves { shape: &shape, stride: &stride }));
            }
        }
        View::Tiles(_) => {}
    }
    // A tiler of more modes than `A` runs out of modes below (`None`):
    // the general path then names the error.
    out.both(Tok::Open)?;
    let mut modes = a.modes();
    match view {
        // A tuple tiler's tiles straight from its list, a layout tile
        // divided here rather than in a call of this function.
        View::Tiles(ts) => {
            for t in ts {
                let m = modes.next()?;
                match t {
                    Tiler::Layout(l) => divide_1d_into(out, m, Tile::of(l))?,
                    Tiler::Tuple(_) => divide_into(out, m, View::tiler(t))?,
                }
            }
        }
        _ => {
            for tk in view.tiles() {
                divide_into(out, modes.next()?, tk)?;
            }
        }
    }
    // The modes the tiler does not reach stay, with the rests (a scalar
    // `A` has none left).
    if !a.is_leaf() {
        for m in modes {
            out.rests().push_view(m)?;
        }
    }
    out.both(Tok::Close)
}

/// A tile of a divide: its leaves, and for a nested tile its structure.
#[derive(Clone, Copy)]
enum Tile<'a> {
    /// A leaf or a tuple of leaves (most tiles).
    Flat(Leaves<'a>),
    /// Any other tile.
    Nested(LayoutRef<'a>),
}

impl<'a> Tile<'a> {
    /// The tile `l` (its flatness read from the head word of its shape, its
    /// token list only for a nested tile).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn of(l: &'a Layout) -> Tile<'a> {
        if l.shape.flat_leaves().is_some() { Tile::Flat(l.leaves()) } else { Tile::Nested(l.view()) }
    }

    /// The tile's leaves, either way.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn leaves(self) -> Leaves<'a> {
        match self {
            Tile::Flat(l) => l,
            Tile::Nested(b) => b.leaves(),
        }
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
fn divide_1d_into(out: &mut impl DivideOut, a: LayoutRef<'_>, b: Tile<'_>) -> Option<()> {
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
            Tile::Flat(l) => Some(c.compose_flat(l.len(), |k| Some((*l.shape.get(k)?, *l.stride.get(k)?)), out.tiles())?),
            Tile::Nested(b) => {
                out.open_nested()?;
                c.compose_into(b, None, out.tiles())?;
                None
            }
        };
        // B*, a complement, is flat: leaf by leaf, read where the
        // complement left it.
        let y = c.compose_flat(n, |k| star.get(k).copied(), out.rests())?;
        c.check()?;
        (x, y)
    };
    out.tile_toks(x, y)
}

/// The zipped, tiled or flat divide: on the leaves
/// ([`arranged_divide_into`]), or by the general path, which also names
/// the errors.
fn arranged_divide(a: &Layout, t: TilerRef<'_>, how: Arrange) -> Result<Layout> {
    // Built in place and made the returned value in one step.
    let mut out = Parts::new();
    if arranged_divide_into(a, t, how, &mut out).is_some() {
        return Ok(out.into_layout());
    }
    by_mode(a, t, how, divide_1d)
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
    arranged_divide(a, b.as_tiler(), Arrange::Zipped)
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
    arranged_divide(a, b.as_tiler(), Arrange::Tiled)
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
    arranged_divide(a, b.as_tiler(), Arrange::Flat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiler::Tiler;

    /// The flat logical divide agrees with the general path wherever it
    /// answers (by a layout, by tilers, by shapes), and answers for most
    /// small inputs.
    #[test]
    fn flat_divide_agrees_with_the_general_path() {
        let ls = crate::layout::small_layouts();
        let (mut answered, mut ok, mut arranged) = (0, 0, 0);
        let mut check = |a: &Layout, t: TilerRef<'_>, what: &dyn Fn() -> String| {
            let general = by_mode(a, t, Arrange::Logical, divide_1d);
            ok += usize::from(general.is_ok());
            if let Some(p) = logical_divide_flat(a, t) {
                answered += 1;
                assert_eq!(Ok(p.into_layout()), general, "{}", what());
            }
            for how in [Arrange::Zipped, Arrange::Tiled, Arrange::Flat] {
                let mut p = Parts::new();
                if arranged_divide_into(a, t, how, &mut p).is_some() {
                    arranged += 1;
                    assert_eq!(Ok(p.into_layout()), by_mode(a, t, how, divide_1d), "{how:?} {}", what());
                }
            }
        };
        for a in &ls {
            for b in &ls {
                check(a, b.as_tiler(), &|| format!("{a} / {b}"));
                let t = Tiler::Tuple(vec![Tiler::Layout(b.clone()), Tiler::Layout(a.clone())]);
                check(a, t.as_tiler(), &|| format!("{a} / {t}"));
                let t = Tiler::Tuple(vec![Tiler::Layout(b.clone())]);
                check(a, t.as_tiler(), &|| format!("{a} / {t}"));
            }
            for s in ["2", "(2,2)", "(1,(2,1))", "(3,2,1)", "0"] {
                let s: crate::IntTuple = s.parse().unwrap_or_else(|e| panic!("{e}"));
                check(a, s.as_tiler(), &|| format!("{a} / {s}"));
            }
        }
        assert!(ok > 1000, "only {ok} inputs with a result");
        assert!(answered * 10 >= ok * 9, "the flat path answered {answered} of {ok}");
        assert!(arranged * 10 >= ok * 3 * 8, "the arranged divides answered {arranged} of 3 × {ok}");
    }
}
