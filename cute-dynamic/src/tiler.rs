//! `Tiler`: what the by-mode operations take as their second argument.

use crate::error::{LayoutError, Result};
use crate::int_tuple::{IntTuple, Tree};
use crate::layout::{Concat, Layout, concat};
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
pub trait AsTiler {
    /// A borrowed view of the argument as a tiler.
    fn as_tiler(&self) -> TilerRef<'_>;
}

/// A borrowed tiler argument (see [`AsTiler`]).
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
