//! `Tiler`: what the by-mode operations take as their second argument.

use crate::error::{LayoutError, Result};
use crate::int_tuple::{IntTuple, PER_WORD, Tok, Tree};
use crate::layout::{Concat, Layout, LayoutRef, Leaves, Parts, concat};
use smallvec::SmallVec;

/// A tiler (CuTe docs, "composition with tilers"): a layout, or a tuple of
/// tilers applied mode by mode. A shape is a tiler too: each integer `n`
/// stands for CuTe's `make_layout(n)`, the layout `n:1`, and `1` for `1:0`
/// ([`Tiler::from_shape`]).
///
/// Text form: `<3:3,(2,4):(1,8)>`; a shape `(3,8)` reads as `<3:1,8:1>`,
/// `(1,8)` as `<1:0,8:1>`.
///
/// ```
/// use cute_dynamic::Tiler;
/// let t: Tiler = "<3:3, (2,4):(1,8)>".parse().unwrap();
/// assert_eq!(t.to_string(), "<3:3,(2,4):(1,8)>");
/// let s: Tiler = "(3,8)".parse().unwrap();
/// assert_eq!(s.to_string(), "<3:1,8:1>");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
// A layout is kept inline (not boxed) so that building a tiler does not
// allocate for small layouts.
#[allow(clippy::large_enum_variant)]
pub enum Tiler {
    /// A layout, applied to the whole (sub)layout as a 1-D function.
    Layout(Layout),
    /// One tiler per mode.
    Tuple(Vec<Tiler>),
}

impl Tiler {
    /// The tiler of a shape: an integer `n` is the layout `n:1`, a tuple is a
    /// tuple of tilers. Errors if an extent is below 1.
    ///
    /// The extent 1 is `1:0`. CuTe turns an integer tile `n` into
    /// `make_layout(n)`, whose stride is the compact one
    /// (`compact_major` in CUTLASS's `include/cute/stride.hpp`), and the
    /// compact stride of a static 1 is 0; a size-1 mode moves no offset, so
    /// either stride is the same function, and 0 is the one CuTe prints:
    /// `logical_divide((8,6):(3,7), (1,4))` is `((1,8),(4,2)):((0,3),(7,28))`
    /// and `logical_product(2:4, 1)` is `(2,1):(4,0)`. (CuTe's compact
    /// stride of a run-time 1 is 1; every integer here is read as CuTe's
    /// static form, which is also how results print: see the README's
    /// syntax section.)
    ///
    /// ```
    /// use cute_dynamic::{IntTuple, Tiler};
    /// assert_eq!(Tiler::from_shape(&"(3,8)".parse()?)?.to_string(), "<3:1,8:1>");
    /// assert_eq!(Tiler::from_shape(&"(1,8)".parse()?)?.to_string(), "<1:0,8:1>");
    /// assert_eq!(Tiler::from_shape(&IntTuple::int(4))?.to_string(), "4:1");
    /// assert!(Tiler::from_shape(&"(3,0)".parse()?).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn from_shape(shape: &IntTuple) -> Result<Tiler> {
        from_shape_leaves(shape, &mut std::iter::empty())
    }

    /// Number of top-level tiles (1 for a layout).
    ///
    /// ```
    /// use cute_dynamic::{Layout, Tiler};
    /// assert_eq!("<3:3, (2,4):(1,8)>".parse::<Tiler>()?.rank(), 2);
    /// assert_eq!(Tiler::from("(2,4):(1,8)".parse::<Layout>()?).rank(), 1);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn rank(&self) -> usize {
        match self {
            Tiler::Layout(_) => 1,
            Tiler::Tuple(ts) => ts.len(),
        }
    }
}

/// The stride of the tile an extent `n` of a shape stands for: 1, or 0 for
/// `n == 1` (CuTe's compact stride of a static 1; see [`Tiler::from_shape`]).
pub(crate) fn shape_tile_stride(n: i64) -> i64 {
    i64::from(n != 1)
}

/// [`Tiler::from_shape`] where the leaves of `shape`, in order, may be
/// run-time values (`run_time` says which, for macro text: `{m}` or `Dyn`,
/// read as 1): a run-time leaf is the tile `n:1`, as CuTe's compact stride
/// of a dynamic integer is 1 whatever its value.
pub(crate) fn from_shape_leaves(shape: &IntTuple, run_time: &mut impl Iterator<Item = bool>) -> Result<Tiler> {
    match shape.as_int() {
        Some(n) => {
            let stride = if run_time.next().unwrap_or(false) { 1 } else { shape_tile_stride(n) };
            Ok(Tiler::Layout(Layout::scalar(n, stride)?))
        }
        None => shape.modes().map(|m| from_shape_leaves(&m, run_time)).collect::<Result<Vec<_>>>().map(Tiler::Tuple),
    }
}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Self {
        Tiler::Layout(l)
    }
}

/// How the by-mode results of a divide or product are grouped (CuTe docs'
/// tables; layout shape `(M, N, L, ...)`, tiler `<TileM, TileN>`, each mode
/// split into a first part `X` and a second part `Y`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Arrange {
    /// `((XM,YM), (XN,YN), L, ...)`
    Logical,
    /// `((XM,XN,...), (YM,YN,L,...))`
    Zipped,
    /// `((XM,XN,...), YM, YN, L, ...)`
    Tiled,
    /// `(XM, XN, ..., YM, YN, L, ...)`
    Flat,
}

/// A 1-D operation splitting a layout by a layout into two parts.
pub(crate) type Split = fn(&Layout, &Layout) -> Result<(Layout, Layout)>;

/// A borrowed tiler in any of its spellings, walked without building a
/// [`Tiler`] (so shapes used as tilers do not allocate).
#[derive(Clone, Copy)]
pub(crate) enum View<'a> {
    Layout(&'a Layout),
    Tiles(&'a [Tiler]),
    /// A shape (sub)tree: a leaf `n` is `n:1` (`1` is `1:0`), a tuple
    /// applies by mode.
    Shape(Tree<'a>),
}

impl<'a> View<'a> {
    #[inline]
    pub(crate) fn of(t: TilerRef<'a>) -> View<'a> {
        match t {
            TilerRef::Layout(l) => View::Layout(l),
            TilerRef::Tiler(t) => View::tiler(t),
            TilerRef::Shape(s) => View::Shape(s.tree()),
        }
    }

    /// The view of a tiler (a layout, or the list of its tiles).
    pub(crate) fn tiler(t: &'a Tiler) -> View<'a> {
        match t {
            Tiler::Layout(l) => View::Layout(l),
            Tiler::Tuple(ts) => View::Tiles(ts),
        }
    }

    /// Applies `f` to the 1-D layout this view stands for; `None` for a
    /// tuple. (A callback, not a returned `Cow<Layout>`: that large value
    /// would be copied on every call.)
    #[inline]
    pub(crate) fn with_layout<R>(self, f: impl FnOnce(&Layout) -> Result<R>) -> Result<Option<R>> {
        match self {
            View::Layout(l) => f(l).map(Some),
            View::Shape(n) => match n.leaf() {
                Some(v) => f(&Layout::scalar(v, shape_tile_stride(v))?).map(Some),
                None => Ok(None),
            },
            View::Tiles(_) => Ok(None),
        }
    }

    /// The tiles of a tuple view, in order.
    pub(crate) fn tiles(self) -> impl Iterator<Item = View<'a>> {
        let (tiles, shape): (&'a [Tiler], Option<Tree<'a>>) = match self {
            View::Tiles(ts) => (ts, None),
            View::Shape(n) => (&[], Some(n)),
            View::Layout(_) => (&[], None),
        };
        tiles.iter().map(View::tiler).chain(shape.into_iter().flat_map(Tree::children).map(View::Shape))
    }

    pub(crate) fn rank(self) -> usize {
        self.tiles().count()
    }
}

/// Applies `f` to the next of `modes` (the modes of `a`, walked once, so
/// that a tiler of `n` modes costs `O(n)`; a scalar layout is its own mode
/// 0), or to `a` itself past the last. A callback rather than a returned
/// layout: the mode is used where it is made, not copied out.
pub(crate) fn with_next_mode<R>(
    a: &Layout,
    modes: &mut impl Iterator<Item = Layout>,
    f: impl FnOnce(&Layout) -> R,
) -> R {
    match modes.next() {
        Some(ref m) => f(m),
        None => f(a),
    }
}

/// The modes of `a` a tiler of `n` modes does not reach.
fn untouched(a: &Layout, n: usize) -> impl Iterator<Item = Layout> + '_ {
    let skip = if a.shape().is_int() { a.rank() } else { n };
    a.modes_iter().skip(skip)
}

/// Appends the top-level modes of `l`; a layout of rank 1 (a scalar one, or
/// a tuple of one mode) is appended whole, as CuTe's
/// `result(_, repeat<R>(_))` keeps a part of rank 1 (`repeat<1>(_)` is `_`):
/// `tiled_divide(2:1, <5:8>)` is `((5),(8)):((8),(1))`.
fn push_top_modes(out: &mut Concat, l: &Layout) {
    if l.rank() == 1 {
        out.push(l);
    } else {
        for m in l.modes_iter() {
            out.push(&m);
        }
    }
}

/// Applies `split` by mode along the tiler and groups the parts as `how`
/// says (the CuTe docs' tables). Zipped is `(X, Y)`; tiled splices `Y`'s
/// modes after `X`, flat splices both (CuTe's `result(_, repeat<R1>(_))`),
/// so a layout tiler gives `(A∘B, rest modes...)` for tiled as in CuTe.
pub(crate) fn by_mode(a: &Layout, t: TilerRef<'_>, how: Arrange, split: Split) -> Result<Layout> {
    let view = View::of(t);
    if how == Arrange::Logical {
        return logical(a, view, split);
    }
    let (x, y) = parts(a, view, split)?;
    match how {
        Arrange::Zipped | Arrange::Logical => concat([&x, &y]),
        Arrange::Tiled => {
            let mut out = Concat::new();
            out.push(&x);
            push_top_modes(&mut out, &y);
            out.finish()
        }
        Arrange::Flat => {
            let mut out = Concat::new();
            push_top_modes(&mut out, &x);
            push_top_modes(&mut out, &y);
            out.finish()
        }
    }
}

/// `((XM,YM), (XN,YN), L, ...)`, recursively for nested tilers.
fn logical(a: &Layout, view: View<'_>, split: Split) -> Result<Layout> {
    if let Some(r) = view.with_layout(|b| match split(a, b) {
        // By reference: the parts are not moved out of the result.
        Ok(ref xy) => concat([&xy.0, &xy.1]),
        Err(e) => Err(e),
    })? {
        return Ok(r);
    }
    let n = view.rank();
    check_tiler_rank(a, n, "a divide or product")?;
    // Gathered, then concatenated: across the recursive calls this takes
    // fewer copies than a `Concat` kept open (measured).
    let mut modes: SmallVec<[Layout; 4]> = SmallVec::new();
    let mut a_modes = a.modes_iter();
    for tk in view.tiles() {
        modes.push(with_next_mode(a, &mut a_modes, |m| logical(m, tk, split))?);
    }
    modes.extend(untouched(a, n));
    concat(&modes)
}

/// The `(X, Y)` parts of a by-mode split, hierarchical where the tiler is.
fn parts(a: &Layout, view: View<'_>, split: Split) -> Result<(Layout, Layout)> {
    if let Some(r) = view.with_layout(|b| split(a, b))? {
        return Ok(r);
    }
    let n = view.rank();
    check_tiler_rank(a, n, "a divide or product")?;
    let (mut xs, mut ys) = (Concat::new(), Concat::new());
    let mut a_modes = a.modes_iter();
    for tk in view.tiles() {
        with_next_mode(a, &mut a_modes, |m| match parts(m, tk, split) {
            Ok(ref xy) => {
                xs.push(&xy.0);
                ys.push(&xy.1);
                Ok(())
            }
            Err(e) => Err(e),
        })?;
    }
    // The modes the tiler does not reach go with the second part, at every
    // level (CuTe's `zip2_by`).
    for m in untouched(a, n) {
        ys.push(&m);
    }
    Ok((xs.finish()?, ys.finish()?))
}

/// What the second argument of a by-mode operation can be: a layout, a tiler
/// or a shape (read as a tiler of stride-1 layouts). Implemented for
/// [`Layout`], [`Tiler`] and [`IntTuple`].
///
/// ```
/// use cute_dynamic::{AsTiler, IntTuple, Layout, Tiler, zipped_divide};
/// // The number of tiles, whatever form the tile comes in.
/// fn tiles<T: AsTiler + ?Sized>(l: &Layout, tile: &T) -> cute_dynamic::Result<i64> {
///     Ok(zipped_divide(l, tile)?.get(1).map_or(1, |rest| rest.size()))
/// }
/// let l: Layout = "(8,6):(1,8)".parse()?;
/// assert_eq!(tiles(&l, &"(4,3)".parse::<IntTuple>()?)?, 4); // 2×2 tiles of 4×3
/// assert_eq!(tiles(&l, &"<4:1,3:2>".parse::<Tiler>()?)?, 4); // 4 rows × columns 0, 2, 4
/// assert_eq!(tiles(&l, &"4:1".parse::<Layout>()?)?, 12); // a layout tiles the 48 elements as one mode
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub trait AsTiler {
    /// A borrowed view of the argument as a tiler.
    ///
    /// ```
    /// use cute_dynamic::{AsTiler, IntTuple, Layout, Tiler, TilerRef};
    /// let l: Layout = "4:2".parse()?;
    /// assert!(matches!(l.as_tiler(), TilerRef::Layout(_)));
    /// let t: Tiler = "<2:1, 4:1>".parse()?;
    /// assert!(matches!(t.as_tiler(), TilerRef::Tiler(_)));
    /// let s: IntTuple = "(2,4)".parse()?;
    /// assert!(matches!(s.as_tiler(), TilerRef::Shape(_)));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn as_tiler(&self) -> TilerRef<'_>;
}

/// A borrowed tiler argument (see [`AsTiler`]).
///
/// ```
/// use cute_dynamic::{AsTiler, IntTuple, Layout, TilerRef, zipped_divide};
/// // A type of one's own is a tiler argument when it lends out a tiler, here its shape.
/// struct CtaShape(IntTuple);
/// impl AsTiler for CtaShape {
///     fn as_tiler(&self) -> TilerRef<'_> {
///         TilerRef::Shape(&self.0)
///     }
/// }
/// let cta = CtaShape("(4,3)".parse()?);
/// let z = zipped_divide(&"(8,6):(1,8)".parse::<Layout>()?, &cta)?;
/// assert_eq!(z.to_string(), "((4,3),(2,2)):((1,8),(4,24))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub enum TilerRef<'a> {
    /// A layout: the operation treats both sides as 1-D functions.
    Layout(&'a Layout),
    /// A tuple of tilers, applied mode by mode.
    Tiler(&'a Tiler),
    /// A shape: an integer `n` is `n:1` (`1` is `1:0`, see
    /// [`Tiler::from_shape`]), a tuple applies by mode.
    Shape(&'a IntTuple),
}

impl AsTiler for Layout {
    fn as_tiler(&self) -> TilerRef<'_> {
        TilerRef::Layout(self)
    }
}
impl AsTiler for Tiler {
    fn as_tiler(&self) -> TilerRef<'_> {
        match self {
            Tiler::Layout(l) => TilerRef::Layout(l),
            Tiler::Tuple(_) => TilerRef::Tiler(self),
        }
    }
}
impl AsTiler for IntTuple {
    fn as_tiler(&self) -> TilerRef<'_> {
        TilerRef::Shape(self)
    }
}

/// A tiler of `n` modes fits a layout of rank at least `n` (a scalar layout
/// takes a tiler of one mode).
pub(crate) fn check_tiler_rank(a: &Layout, n: usize, what: &str) -> Result<()> {
    if n > a.rank() {
        return Err(LayoutError::RankMismatch {
            what: format!("{what} of {a} by a tiler of {n} modes (a tiler may not have more modes than the layout)"),
            expected: a.rank(),
            found: n,
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The by-mode walk on the leaves: the speed work below `by_mode`, for the
// divides and the products. Each mode of `A` is a borrowed view and each
// tile's parts are written in place; anything it cannot do (an `A` of more
// than 8 leaves, a result past the inline room, any failure) returns
// `None`, and `by_mode` computes the answer again and names the error. The
// tests of `divide.rs` and `product.rs` check that both agree.
// ---------------------------------------------------------------------------

/// For the tests of the by-mode operations: checks that [`by_mode_leaves`]
/// with `S` gives what [`by_mode`] with `split` gives wherever it answers,
/// in every arrangement, over small layouts split by small layouts, by
/// tilers of one and two modes and by shapes. Returns, for the logical,
/// zipped, tiled and flat forms, how many results the general path gave
/// and how many of those the leaves gave too.
#[cfg(test)]
pub(crate) fn leaves_agree_with_by_mode<S: SplitLeaves>(split: Split) -> [(usize, usize); 4] {
    let ls = crate::layout::small_layouts();
    let mut counts = [(0, 0); 4];
    let mut check = |a: &Layout, t: TilerRef<'_>, what: &dyn Fn() -> String| {
        for (how, (ok, answered)) in [Arrange::Logical, Arrange::Zipped, Arrange::Tiled, Arrange::Flat].into_iter().zip(&mut counts) {
            let general = by_mode(a, t, how, split);
            *ok += usize::from(general.is_ok());
            let mut p = Parts::new();
            if by_mode_leaves::<S>(a, t, how, &mut p).is_some() {
                *answered += 1;
                assert_eq!(Ok(p.into_layout()), general, "{how:?} {}", what());
            }
        }
    };
    for a in &ls {
        for b in &ls {
            check(a, b.as_tiler(), &|| format!("{a} by {b}"));
            let t = Tiler::Tuple(vec![Tiler::Layout(b.clone()), Tiler::Layout(a.clone())]);
            check(a, t.as_tiler(), &|| format!("{a} by {t}"));
            let t = Tiler::Tuple(vec![Tiler::Layout(b.clone())]);
            check(a, t.as_tiler(), &|| format!("{a} by {t}"));
        }
        for s in ["2", "(2,2)", "(1,(2,1))", "(3,2,1)", "0"] {
            let s: IntTuple = s.parse().unwrap_or_else(|e| panic!("{e}"));
            check(a, s.as_tiler(), &|| format!("{a} by {s}"));
        }
    }
    counts
}

/// The 1-D split of one mode by a tile, on the leaves: a divide's
/// `(A ∘ B, A ∘ B*)`, a product's `(A, A* ∘ B)`.
pub(crate) trait SplitLeaves {
    /// Appends the split of the mode `a` by the tile `b` to `out`.
    fn split_into(out: &mut impl SplitOut, a: LayoutRef<'_>, b: Tile<'_>) -> Option<()>;
}

/// [`by_mode_leaves`], or where it cannot, [`by_mode`] with `split` (the
/// same split on whole layouts), which also names the errors.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn by_mode_or<S: SplitLeaves>(a: &Layout, t: TilerRef<'_>, how: Arrange, split: Split) -> Result<Layout> {
    // Built in place and made the returned value in one step.
    let mut out = Parts::new();
    if by_mode_leaves::<S>(a, t, how, &mut out).is_some() {
        return Ok(out.into_layout());
    }
    by_mode(a, t, how, split)
}

/// [`by_mode`] on the leaves, written into `out` (empty on entry): the
/// logical form straight in; the others as the `X` and `Y` parts apart,
/// then arranged: `(X, Y)`, `(X, Y's modes...)` or `(X's modes..., Y's
/// modes...)`, a part of rank 1 kept whole.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn by_mode_leaves<S: SplitLeaves>(a: &Layout, t: TilerRef<'_>, how: Arrange, out: &mut Parts) -> Option<()> {
    if a.shape.vals().len() > 8 {
        return None;
    }
    if how == Arrange::Logical {
        by_mode_into::<S>(&mut Logical(out), a.view(), View::of(t))?;
    } else {
        let (mut x, mut y) = (Parts::new(), Parts::new());
        by_mode_into::<S>(&mut Apart { tiles: &mut x, rests: &mut y }, a.view(), View::of(t))?;
        out.open()?;
        out.append(&x, how == Arrange::Flat)?;
        out.append(&y, how != Arrange::Zipped)?;
        out.close()?;
    }
    // The whole fits, so every part (each a sum over fewer leaves) does.
    out.fits().then_some(())
}

/// Where a by-mode operation on the leaves writes: the logical form's one
/// layout (each tile's `(X, Y)` one subtree, [`Logical`]), or the first
/// parts `X` and the second parts `Y` apart (the zipped, tiled and flat
/// forms, [`Apart`]). A divide's `X` is `A ∘ B` and its `Y` is `A ∘ B*`; a
/// product's are `A` and `A* ∘ B`. A trait, not an enum: each kind gets
/// its own code, the logical form's as fast as when it was the only one.
pub(crate) trait SplitOut {
    /// Where the first parts (`X`) go.
    fn tiles(&mut self) -> &mut Parts;
    /// Where the second parts (`Y`) and the modes of `A` the tiler does
    /// not reach go.
    fn rests(&mut self) -> &mut Parts;
    /// Starts (`tok` is `(`) or ends (`)`) a tuple of the tiler, in each
    /// output.
    fn both(&mut self, tok: Tok) -> Option<()>;
    /// Before a tile's `X` when its tokens are written with its leaves
    /// (the logical form's `(`).
    fn open_nested(&mut self) -> Option<()>;
    /// The tokens of a tile: `X`'s (packed, with their number; `None` where
    /// they are written already) and `Y`'s (the logical form's `)` after).
    fn tile_toks(&mut self, x: Option<(u64, usize)>, y: (u64, usize)) -> Option<()>;
}

/// The logical form's one layout.
pub(crate) struct Logical<'p>(&'p mut Parts);

impl SplitOut for Logical<'_> {
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
    /// `(`, `X`, `Y`, `)` in one step.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn tile_toks(&mut self, x: Option<(u64, usize)>, (y, ny): (u64, usize)) -> Option<()> {
        let (word, len) = x.map_or((0, 0), |(x, nx)| (Tok::Open.code() | x << 2, 1 + nx));
        if len + ny + 1 > PER_WORD {
            return None;
        }
        self.0.tok_bits(word | y << (2 * len) | Tok::Close.code() << (2 * (len + ny)), len + ny + 1)
    }
}

/// The first and second parts, apart.
pub(crate) struct Apart<'p> {
    tiles: &'p mut Parts,
    rests: &'p mut Parts,
}

impl SplitOut for Apart<'_> {
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

/// Appends the by-mode split of `a` by `view` (the 1-D split `S` of each
/// mode by its tile) to `out` as one subtree, or its `X` and its `Y` as one
/// subtree each. `None` where the walk cannot (a tiler of more modes than
/// `a`, more than the inline room) or the split fails.
///
/// Out of line (it recurses for a nested tiler anyway): inlined at the top
/// level, the logical divide of the benchmark took 92 ns, not 84, for 9
/// fewer instructions.
#[inline(never)]
fn by_mode_into<S: SplitLeaves>(out: &mut impl SplitOut, a: LayoutRef<'_>, view: View<'_>) -> Option<()> {
    match view {
        View::Layout(b) => return S::split_into(out, a, Tile::of(b)),
        View::Shape(n) => {
            if let Some(v) = n.leaf() {
                // The tile `v:1`, or `1:0` (a shape below 1 is the general
                // path's error).
                if v < 1 {
                    return None;
                }
                let (shape, stride) = ([v], [shape_tile_stride(v)]);
                return S::split_into(out, a, Tile::Flat(Leaves { shape: &shape, stride: &stride }));
            }
        }
        View::Tiles(_) => {}
    }
    // A tiler of more modes than `A` runs out of modes below (`None`):
    // the general path then names the error.
    out.both(Tok::Open)?;
    // (A structure of more than 32 tokens, with at most 8 leaves, is left
    // to the general path.)
    let mut modes = a.word_modes()?;
    match view {
        // A tuple tiler's tiles straight from its list, a layout tile
        // split here rather than in a call of this function.
        View::Tiles(ts) => {
            for t in ts {
                let m = modes.next()?;
                match t {
                    Tiler::Layout(l) => S::split_into(out, m, Tile::of(l))?,
                    Tiler::Tuple(_) => by_mode_into::<S>(out, m, View::tiler(t))?,
                }
            }
        }
        _ => {
            for tk in view.tiles() {
                by_mode_into::<S>(out, modes.next()?, tk)?;
            }
        }
    }
    // The modes the tiler does not reach stay, with the second parts (a
    // scalar `A` has none left).
    if !modes.leaf {
        for m in modes {
            out.rests().push_view(m)?;
        }
    }
    out.both(Tok::Close)
}

/// A tile of a by-mode operation: its leaves, and for a nested tile its
/// structure.
#[derive(Clone, Copy)]
pub(crate) enum Tile<'a> {
    /// A leaf or a tuple of leaves (most tiles).
    Flat(Leaves<'a>),
    /// Any other tile.
    Nested(LayoutRef<'a>),
}

impl<'a> Tile<'a> {
    /// The tile `l` (its flatness read from the head word of its shape, its
    /// token list only for a nested tile).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn of(l: &'a Layout) -> Tile<'a> {
        if l.shape.flat_leaves().is_some() { Tile::Flat(l.leaves()) } else { Tile::Nested(l.view()) }
    }

    /// The tile's leaves, either way.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn leaves(self) -> Leaves<'a> {
        match self {
            Tile::Flat(l) => l,
            Tile::Nested(b) => b.leaves(),
        }
    }
}
