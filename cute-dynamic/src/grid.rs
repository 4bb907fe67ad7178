//! Pictures: the grid every picture draws ([`Grid`]), and the rule that
//! turns a layout of any rank into rows and columns.

use crate::composed::ComposedLayout;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::AnySwizzle;

/// The most cells a picture ([`Grid`]) holds: 65536, a 256×256 tile. Larger
/// layouts are refused with an error that says how to slice them: an SVG
/// of a million cells is tens of megabytes that no viewer draws well.
pub const MAX_PICTURE_CELLS: i64 = 1 << 16;

/// One cell of a [`Grid`].
///
/// ```
/// use cute_dynamic::{Cell, Grid, make_layout_tv};
/// // 2×3 threads, each holding a 2×2 block of values: a 4×6 tile.
/// let (tv, tiler) = make_layout_tv(&"(2,3):(3,1)".parse()?, &"(2,2):(2,1)".parse()?)?;
/// let g = Grid::of_tv(&tv, &tiler)?;
/// assert_eq!(g.cell(1, 1), Cell { offset: 1 + 4 * 1, tv: Some((0, 3)) }); // thread 0's last value
/// // In an offset picture a cell is the offset alone: here tv(0 + 6·1), thread 0's value 1.
/// assert_eq!(Grid::of_layout(&tv)?.cell(0, 1), Cell { offset: 4, tv: None });
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The offset the layout gives the cell (for a thread-value picture the
    /// column-major index `m + M·n` of the cell in the tile).
    pub offset: i64,
    /// For a thread-value picture, the (thread, value) that owns the cell;
    /// `None` in an offset picture, or for a cell no thread owns.
    pub tv: Option<(i64, i64)>,
}

impl From<i64> for Cell {
    /// A cell of an offset picture.
    fn from(offset: i64) -> Cell {
        Cell { offset, tv: None }
    }
}

/// What a picture draws: a titled `rows × cols` grid of [`Cell`]s, mode 0 of
/// the layout down the rows and the rest across the columns. SVG
/// ([`print_svg`](fn@crate::print_svg)), HTML ([`print_html`](fn@crate::print_html))
/// and TikZ ([`print_latex`](fn@crate::print_latex)) all draw a `Grid`, so a
/// grid built from any function gets all three pictures.
///
/// The rank rule ([`Grid::of_layout`]): rows are the first mode, columns
/// everything else, cell `(m, n)` is `L(m + rows·n)`. A rank-2 layout is
/// drawn as it is (as CuTe's `print_latex`); a rank-1 layout is one column
/// (CuTe's `print_latex` appends a `1:0` mode); a layout of rank 3 or more
/// is drawn as mode 0 by the other modes taken together, in colexicographic
/// order (slice it first, e.g. `slice(L, (_,_,k))`, to see one `k`). The text
/// grid of [`print_layout`](fn@crate::print_layout) differs: it draws a layout
/// that is not rank 2 as one row.
///
/// ```
/// use cute_dynamic::{Grid, Layout};
/// let l: Layout = "((2,2),3):((1,6),2)".parse()?;
/// let g = Grid::of_layout(&l)?;
/// assert_eq!((g.rows(), g.cols()), (4, 3));
/// assert_eq!(g.cell(1, 2).offset, l.eval(1 + 4 * 2)?);
/// // Any offset function draws the same way: a swizzled layout, say.
/// let f = |i: i64| i ^ ((i >> 2) & 3);
/// let s = Grid::from_fn("xor", 4, 4, |m, n| f(m + 4 * n))?;
/// assert_eq!(s.cell(1, 1).offset, 5 ^ 1);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    title: String,
    rows: i64,
    cols: i64,
    cells: Vec<Cell>,
    /// `(threads, values)` of a thread-value picture.
    tv_counts: Option<(i64, i64)>,
    /// The lowest bit of the offset bits an offset picture shades by.
    shade_shift: u32,
}

impl Grid {
    /// A grid of `rows × cols` cells, cell `(m, n)` being `cell(m, n)` (an
    /// offset, or a [`Cell`]). This is how a picture of any function is
    /// made: a swizzled layout is `Grid::from_fn(title, rows, cols, |m, n|
    /// swizzle(layout(m + rows·n)))`.
    ///
    /// Errors: `Unsupported` if a side is below 1 or there are more than
    /// [`MAX_PICTURE_CELLS`] cells.
    ///
    /// ```
    /// use cute_dynamic::Grid;
    /// let g = Grid::from_fn("m + 10n", 2, 3, |m, n| m + 10 * n)?;
    /// assert_eq!((g.rows(), g.cols()), (2, 3));
    /// assert_eq!(g.cell(1, 2).offset, 21);
    /// assert!(Grid::from_fn("empty", 0, 3, |m, n| m + n).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn from_fn<C: Into<Cell>>(
        title: impl Into<String>,
        rows: i64,
        cols: i64,
        mut cell: impl FnMut(i64, i64) -> C,
    ) -> Result<Grid> {
        let title = title.into();
        let count = check_size(&title, rows, cols)?;
        let mut cells = Vec::with_capacity(count);
        for n in 0..cols {
            for m in 0..rows {
                cells.push(cell(m, n).into());
            }
        }
        Ok(Grid { title, rows, cols, cells, tv_counts: None, shade_shift: 0 })
    }

    /// The grid of a layout by the rank rule (see the type's docs), titled
    /// with the layout. Cell `(m, n)` is `L(m + rows·n)`.
    ///
    /// Errors: as [`Grid::from_fn`].
    ///
    /// ```
    /// use cute_dynamic::Grid;
    /// let g = Grid::of_layout(&"(4,8):(8,1)".parse()?)?;
    /// assert_eq!((g.rows(), g.cols()), (4, 8));
    /// assert_eq!(g.cell(1, 3).offset, 11);
    /// assert_eq!(Grid::of_layout(&"8:2".parse()?)?.cols(), 1); // rank 1: one column
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn of_layout(layout: &Layout) -> Result<Grid> {
        let (rows, cols) = rows_cols(layout.shape());
        // In bounds by construction: evaluation cannot fail.
        Grid::from_fn(layout.to_string(), rows, cols, |m, n| layout.eval(m + rows * n).unwrap_or(0))
    }

    /// The grid of a swizzled (composed) layout `A o O o B` by the rank rule
    /// of its inner layout `B`, titled with it: cell `(m, n)` is
    /// `A(O + B(m + rows·n))`, so the picture shows where the swizzle moves
    /// each element.
    ///
    /// Errors: as [`Grid::from_fn`].
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Grid, Swizzle};
    /// let c = ComposedLayout::compose(Swizzle::new(1, 0, 2)?, &"(4,4):(4,1)".parse()?);
    /// let g = Grid::of_composed(&c)?;
    /// assert_eq!(g.title(), "Sw<1,0,2> o 0 o (4,4):(4,1)");
    /// assert_eq!(g.cell(1, 0).offset, 4 ^ 1); // row 1 has bit 2 set: bit 0 flips
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    ///
    /// The picture shades its cells by the offset bits the outermost swizzle
    /// writes (see [`shade_shift`](Self::shade_shift)), so that the swizzle
    /// shows: `Sw<3,4,3>` writes bits 4 to 6, which `offset % 8` would not
    /// see.
    pub fn of_composed(layout: &ComposedLayout) -> Result<Grid> {
        let (rows, cols) = rows_cols(layout.shape());
        // In bounds by construction: evaluation cannot fail.
        let mut g = Grid::from_fn(layout.to_string(), rows, cols, |m, n| layout.eval(m + rows * n).unwrap_or(0))?;
        g.shade_shift = match layout.outer() {
            AnySwizzle::Cute(s) => s.zzz_mask().trailing_zeros().min(63),
            AnySwizzle::BitFieldXor(s) => s.dst(),
        };
        Ok(g)
    }

    /// The lowest of the three offset bits an offset picture shades its
    /// cells by (in CuTe's 8 grey levels): 0 (`offset % 8`, as CuTe's
    /// `print_latex`) for a layout, the lowest bit the outermost swizzle
    /// writes for a swizzled layout.
    ///
    /// ```
    /// use cute_dynamic::{ComposedLayout, Grid, Swizzle};
    /// let l = "(8,64):(64,1)".parse()?;
    /// assert_eq!(Grid::of_layout(&l)?.shade_shift(), 0);
    /// let c = ComposedLayout::compose(Swizzle::smem_128b(), &l); // writes bits 4-6
    /// assert_eq!(Grid::of_composed(&c)?.shade_shift(), 4);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn shade_shift(&self) -> u32 {
        self.shade_shift
    }

    /// The thread-value picture of a TV layout `(t, v) → m + M·n` over a
    /// tile of shape `tiler` (as [`make_layout_tv`](crate::make_layout_tv)
    /// returns them): the tile drawn by the rank rule, each cell owned by the
    /// first `(t, v)`, threads in order, that maps to it (as CuTe's
    /// `print_latex_tv`); a cell no thread reaches has no owner.
    ///
    /// Errors: `RankMismatch` if `tv` is not rank 2; `OutOfBounds` if it maps
    /// outside the tile; those of [`Grid::from_fn`].
    ///
    /// ```
    /// use cute_dynamic::{Grid, Layout, make_layout_tv};
    /// let (tv, tiler) = make_layout_tv(&"(2,3):(3,1)".parse()?, &"(2,2):(2,1)".parse()?)?;
    /// let g = Grid::of_tv(&tv, &tiler)?;
    /// assert_eq!((g.rows(), g.cols(), g.threads()), (4, 6, Some(6)));
    /// assert_eq!(g.cell(0, 1).tv, Some((0, 1))); // each thread holds a 2×2 block
    /// assert_eq!(g.cell(0, 2).tv, Some((1, 0)));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn of_tv(tv: &Layout, tiler: &IntTuple) -> Result<Grid> {
        let (Some(thr), Some(val), 2) = (tv.get(0), tv.get(1), tv.rank()) else {
            return Err(LayoutError::RankMismatch {
                what: format!("the thread-value layout {tv}"),
                expected: 2,
                found: tv.rank(),
            });
        };
        let (t_count, v_count) = (thr.size(), val.size());
        let (rows, cols) = rows_cols(tiler);
        let mut grid = Grid::from_fn(tv.to_string(), rows, cols, |m, n| m + rows * n)?;
        for t in 0..t_count {
            for v in 0..v_count {
                let k = tv.eval(t + t_count * v)?;
                let Some(cell) = usize::try_from(k).ok().and_then(|k| grid.cells.get_mut(k)) else {
                    return Err(LayoutError::OutOfBounds { coord: k.to_string(), shape: tiler.to_string() });
                };
                cell.tv.get_or_insert((t, v));
            }
        }
        grid.tv_counts = Some((t_count, v_count));
        Ok(grid)
    }

    /// The grid with rows and columns swapped (cell `(n, m)` of the result
    /// is cell `(m, n)` of this one), titled `title`: how a picture of a
    /// tiled MMA draws B, whose layout is over `N × K`, as `K × N`.
    pub(crate) fn transposed(&self, title: impl Into<String>) -> Grid {
        let mut cells = Vec::with_capacity(self.cells.len());
        for m in 0..self.rows {
            for n in 0..self.cols {
                cells.push(self.cell(m, n));
            }
        }
        Grid {
            title: title.into(),
            rows: self.cols,
            cols: self.rows,
            cells,
            tv_counts: self.tv_counts,
            shade_shift: self.shade_shift,
        }
    }

    /// The title (the layout, or the thread-value layout, as text).
    ///
    /// ```
    /// use cute_dynamic::Grid;
    /// assert_eq!(Grid::of_layout(&"(4,8):(1,4)".parse()?)?.title(), "(4,8):(1,4)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Number of rows (the size of mode 0).
    ///
    /// ```
    /// use cute_dynamic::Grid;
    /// assert_eq!(Grid::of_layout(&"(4,2,3):(1,4,8)".parse()?)?.rows(), 4);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn rows(&self) -> i64 {
        self.rows
    }

    /// Number of columns.
    ///
    /// ```
    /// use cute_dynamic::Grid;
    /// assert_eq!(Grid::of_layout(&"(4,2,3):(1,4,8)".parse()?)?.cols(), 6); // modes 1 and 2 together
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn cols(&self) -> i64 {
        self.cols
    }

    /// The number of threads of a thread-value picture; `None` for an
    /// offset picture.
    ///
    /// ```
    /// use cute_dynamic::{Grid, make_layout_tv};
    /// let (tv, tiler) = make_layout_tv(&"(2,3):(3,1)".parse()?, &"(2,2):(2,1)".parse()?)?;
    /// assert_eq!(Grid::of_tv(&tv, &tiler)?.threads(), Some(6));
    /// assert_eq!(Grid::of_layout(&tv)?.threads(), None);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn threads(&self) -> Option<i64> {
        self.tv_counts.map(|c| c.0)
    }

    /// The number of values per thread of a thread-value picture; `None`
    /// for an offset picture.
    ///
    /// ```
    /// use cute_dynamic::{Grid, make_layout_tv};
    /// let (tv, tiler) = make_layout_tv(&"(2,3):(3,1)".parse()?, &"(2,2):(2,1)".parse()?)?;
    /// assert_eq!(Grid::of_tv(&tv, &tiler)?.values(), Some(4));
    /// assert_eq!(Grid::of_layout(&tv)?.values(), None);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn values(&self) -> Option<i64> {
        self.tv_counts.map(|c| c.1)
    }

    /// The cell at row `m`, column `n` (a cell of offset 0 outside the grid).
    ///
    /// ```
    /// use cute_dynamic::{Cell, Grid};
    /// let g = Grid::of_layout(&"(4,8):(8,1)".parse()?)?;
    /// assert_eq!(g.cell(1, 3), Cell { offset: 11, tv: None });
    /// assert_eq!(g.cell(4, 0), Cell::from(0)); // outside the grid
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn cell(&self, m: i64, n: i64) -> Cell {
        let inside = (0..self.rows).contains(&m) && (0..self.cols).contains(&n);
        let at = if inside { usize::try_from(m + self.rows * n).ok() } else { None };
        at.and_then(|i| self.cells.get(i)).copied().unwrap_or(Cell { offset: 0, tv: None })
    }

    /// Every cell with its row and column, row by row.
    ///
    /// ```
    /// use cute_dynamic::Grid;
    /// let g = Grid::of_layout(&"(2,2):(1,2)".parse()?)?;
    /// let cells: Vec<(i64, i64, i64)> = g.cells().map(|(m, n, c)| (m, n, c.offset)).collect();
    /// assert_eq!(cells, [(0, 0, 0), (0, 1, 2), (1, 0, 1), (1, 1, 3)]);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn cells(&self) -> impl Iterator<Item = (i64, i64, Cell)> + '_ {
        (0..self.rows).flat_map(move |m| (0..self.cols).map(move |n| (m, n, self.cell(m, n))))
    }
}

/// The rank rule: the size of mode 0 down, the size of the rest across.
fn rows_cols(shape: &IntTuple) -> (i64, i64) {
    // Sizes of a layout's shape or a tiler were checked when it was made.
    let size = shape.size().unwrap_or(1);
    let rows = match shape.as_int() {
        Some(n) => n,
        None => shape.get(0).and_then(|m| m.size().ok()).unwrap_or(size),
    };
    (rows, size / rows.max(1))
}

fn check_size(title: &str, rows: i64, cols: i64) -> Result<usize> {
    match rows.checked_mul(cols) {
        Some(c) if rows >= 1 && cols >= 1 && c <= MAX_PICTURE_CELLS => Ok(c as usize),
        _ => Err(too_large(title, rows, cols)),
    }
}

#[cold]
fn too_large(title: &str, rows: i64, cols: i64) -> LayoutError {
    LayoutError::Unsupported {
        what: format!(
            "a picture of {title}: {rows}×{cols} cells (at most {MAX_PICTURE_CELLS}, each side at least 1); \
             draw a part of it, e.g. slice(L, (_,k)) or composition(L, (64,64))"
        ),
    }
}
