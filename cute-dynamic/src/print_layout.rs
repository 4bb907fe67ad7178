//! Pictures: CuTe's `print_layout` grid.

use crate::layout::Layout;
use std::fmt::Write;

/// The characters of `x` in decimal, its sign included.
pub(crate) fn num_digits(x: i64) -> usize {
    let mut n = if x < 0 { 2 } else { 1 };
    let mut x = x.unsigned_abs();
    while x >= 10 {
        x /= 10;
        n += 1;
    }
    n
}

/// Rows and columns of a layout's grid: mode 0 down and the rest across for
/// a rank of 2 or more, one row for rank 1.
pub(crate) fn grid_shape(layout: &Layout) -> (i64, i64) {
    match layout.get(0) {
        Some(m) if layout.rank() >= 2 => (m.size(), layout.size() / m.size()),
        _ => (1, layout.size()),
    }
}

/// CuTe's `print_layout`: the layout on the first line, then a grid with
/// mode 0 down the rows and mode 1 across the columns, each cell the offset
/// at that coordinate; character for character what CuTe prints for a rank-2
/// layout. A layout of rank 3 or more is drawn as the pictures draw it
/// (`Grid::of_layout`'s rank rule): mode 0 down the rows, the other modes
/// across (cell `(m, n)` is `L(m + rows·n)`); a rank-1 layout as one row of
/// `size` cells (cell `j` is `L(j)`).
///
/// ```
/// use cute_dynamic::{Layout, print_layout};
/// let l: Layout = "(2,2):(1,2)".parse().unwrap();
/// let expected = concat!(
///     "(2,2):(1,2)\n",
///     "      0   1 \n", // CuTe prints a blank after each column index
///     "    +---+---+\n",
///     " 0  | 0 | 2 |\n",
///     "    +---+---+\n",
///     " 1  | 1 | 3 |\n",
///     "    +---+---+\n",
/// );
/// assert_eq!(print_layout(&l), expected);
/// ```
pub fn print_layout(layout: &Layout) -> String {
    let (rows, cols) = grid_shape(layout);
    let at = |m: i64, n: i64| -> i64 {
        // In bounds by construction, so evaluation cannot fail.
        layout.eval(m + n * rows).unwrap_or(0)
    };
    let mut width = num_digits(layout.cosize());
    for m in 0..rows {
        for n in 0..cols {
            let v = at(m, n);
            if v < 0 {
                width = width.max(num_digits(v));
            }
        }
    }
    text_grid(layout, rows, cols, width, |m, n| at(m, n).to_string())
}

/// The text of a `print_layout` grid: `title` on the first line, column
/// indices, and `rows × cols` cells of `width` characters, each `cell(m,
/// n)` right-aligned (CuTe's format, shared by every text picture).
pub(crate) fn text_grid(
    title: &dyn std::fmt::Display,
    rows: i64,
    cols: i64,
    width: usize,
    cell: impl Fn(i64, i64) -> String,
) -> String {
    let delim: String = std::iter::once('+').chain(std::iter::repeat_n('-', width + 2)).collect();
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    out.push_str("    ");
    for n in 0..cols {
        let _ = write!(out, "  {n:>width$} ");
    }
    out.push('\n');
    let rule = |out: &mut String| {
        out.push_str("    ");
        for _ in 0..cols {
            out.push_str(&delim);
        }
        out.push_str("+\n");
    };
    for m in 0..rows {
        rule(&mut out);
        let _ = write!(out, "{m:>2}  ");
        for n in 0..cols {
            let _ = write!(out, "| {:>width$} ", cell(m, n));
        }
        out.push_str("|\n");
    }
    rule(&mut out);
    out
}

/// The `print_layout` grid of a layout with basis strides (an identity
/// layout, say): each cell the coordinate it maps to, as CuTe's
/// `print_layout` of such a layout shows them; mode 0 down, the rest across
/// (one row for rank 1).
///
/// Errors: those of evaluating the layout.
///
/// ```
/// use cute_dynamic::{make_identity_layout, print_basis_layout};
/// let l = make_identity_layout(&"(2,2)".parse()?)?;
/// let expected = concat!(
///     "(2,2):(1@0,1@1)\n",
///     "          0       1 \n",
///     "    +-------+-------+\n",
///     " 0  | (0,0) | (0,1) |\n",
///     "    +-------+-------+\n",
///     " 1  | (1,0) | (1,1) |\n",
///     "    +-------+-------+\n",
/// );
/// assert_eq!(print_basis_layout(&l)?, expected);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn print_basis_layout(layout: &crate::BasisLayout) -> crate::error::Result<String> {
    let shape = layout.shape();
    let size = layout.size();
    let rows = match shape.get(0) {
        Some(m) if shape.rank() >= 2 => m.size()?,
        _ => 1,
    };
    let cells = (0..size).map(|i| layout.eval(i).map(|c| c.to_string())).collect::<crate::error::Result<Vec<_>>>()?;
    let width = cells.iter().map(String::len).max().unwrap_or(1);
    Ok(text_grid(layout, rows, size / rows, width, |m, n| cells[(m + rows * n) as usize].clone()))
}
