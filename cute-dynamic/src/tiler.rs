//! `Tiler`: what the by-mode operations take as their second argument.

use crate::composition::{TilerRef, check_tiler_rank};
use crate::error::Result;
use crate::int_tuple::IntTuple;
use crate::layout::{Layout, make_layout};

/// A tiler (CuTe docs, "composition with tilers"): a layout, or a tuple of
/// tilers applied mode by mode. A shape is a tiler too: each integer `n`
/// stands for the layout `n:1` ([`Tiler::from_shape`]).
///
/// Text form: `<3:3,(2,4):(1,8)>`; a shape `(3,8)` reads as `<3:1,8:1>`.
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
    pub fn from_shape(shape: &IntTuple) -> Result<Tiler> {
        match shape.as_int() {
            Some(n) => Ok(Tiler::Layout(Layout::scalar(n, 1)?)),
            None => shape.modes().map(|m| Tiler::from_shape(&m)).collect::<Result<Vec<_>>>().map(Tiler::Tuple),
        }
    }

    /// Number of top-level tiles (1 for a layout).
    pub fn rank(&self) -> usize {
        match self {
            Tiler::Layout(_) => 1,
            Tiler::Tuple(ts) => ts.len(),
        }
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

/// Mode `k` of `a` (a scalar layout is its own mode 0).
fn mode(a: &Layout, k: usize) -> Layout {
    a.get(k).unwrap_or_else(|| a.clone())
}

/// The modes of `a` a tiler of `n` modes does not reach.
fn untouched(a: &Layout, n: usize) -> impl Iterator<Item = Layout> + '_ {
    let skip = if a.shape().is_int() { a.rank() } else { n };
    a.modes_iter().skip(skip)
}

/// Applies `split` by mode along the tiler and groups the parts as `how`
/// says. A layout tiler splits `a` as a whole: the result is `(X, Y)`.
pub(crate) fn by_mode(a: &Layout, t: TilerRef<'_>, how: Arrange, split: Split) -> Result<Layout> {
    let owned;
    let tiles: &[Tiler] = match t {
        TilerRef::Layout(b) | TilerRef::Tiler(Tiler::Layout(b)) => {
            let (x, y) = split(a, b)?;
            return make_layout(&[x, y]);
        }
        TilerRef::Tiler(Tiler::Tuple(ts)) => ts,
        TilerRef::Shape(s) => {
            owned = Tiler::from_shape(s)?;
            match &owned {
                Tiler::Layout(b) => {
                    let (x, y) = split(a, b)?;
                    return make_layout(&[x, y]);
                }
                Tiler::Tuple(ts) => ts,
            }
        }
    };
    check_tiler_rank(a, tiles.len(), "a divide or product")?;
    if how == Arrange::Logical {
        let modes = tiles
            .iter()
            .enumerate()
            .map(|(k, tk)| by_mode(&mode(a, k), TilerRef::Tiler(tk), Arrange::Logical, split))
            .chain(untouched(a, tiles.len()).map(Ok))
            .collect::<Result<Vec<_>>>()?;
        return make_layout(&modes);
    }
    let mut xs = Vec::with_capacity(tiles.len());
    let mut ys = Vec::with_capacity(tiles.len());
    for (k, tk) in tiles.iter().enumerate() {
        let (x, y) = parts(&mode(a, k), tk, split)?;
        xs.push(x);
        ys.push(y);
    }
    let rest = untouched(a, tiles.len());
    let modes: Vec<Layout> = match how {
        Arrange::Zipped => vec![make_layout(&xs)?, make_layout(&ys.into_iter().chain(rest).collect::<Vec<_>>())?],
        Arrange::Tiled => std::iter::once(make_layout(&xs)?).chain(ys).chain(rest).collect(),
        Arrange::Flat | Arrange::Logical => xs.into_iter().chain(ys).chain(rest).collect(),
    };
    make_layout(&modes)
}

/// The `(X, Y)` parts of a by-mode split, hierarchical where the tiler is.
fn parts(a: &Layout, t: &Tiler, split: Split) -> Result<(Layout, Layout)> {
    match t {
        Tiler::Layout(b) => split(a, b),
        Tiler::Tuple(ts) => {
            check_tiler_rank(a, ts.len(), "a divide or product")?;
            let mut xs = Vec::with_capacity(ts.len());
            let mut ys = Vec::with_capacity(ts.len());
            for (k, tk) in ts.iter().enumerate() {
                let (x, y) = parts(&mode(a, k), tk, split)?;
                xs.push(x);
                ys.push(y);
            }
            // The sub-modes the nested tiler does not reach go with the
            // second part, as at the top level (CuTe's `zip2_by`).
            ys.extend(untouched(a, ts.len()));
            Ok((make_layout(&xs)?, make_layout(&ys)?))
        }
    }
}
