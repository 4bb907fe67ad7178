//! Pictures: CuTe's `print_layout` grid.

use crate::layout::Layout;
use std::fmt::Write;

fn num_digits(mut x: i64) -> usize {
    let mut n = if x < 0 { 2 } else { 1 };
    x = x.abs();
    while x >= 10 {
        x /= 10;
        n += 1;
    }
    n
}

/// CuTe's `print_layout`: the layout on the first line, then a grid with
/// mode 0 down the rows and mode 1 across the columns, each cell the offset
/// at that coordinate; character for character what CuTe prints for a rank-2
/// layout. A layout of another rank is drawn as one row of `size` cells
/// (cell `j` is `L(j)`).
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
    let (rows, cols) = if layout.rank() == 2 {
        (layout.get(0).map_or(1, |m| m.size()), layout.get(1).map_or(1, |m| m.size()))
    } else {
        (1, layout.size())
    };
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
    let idx_width = width + 2;
    let delim: String = std::iter::once('+').chain(std::iter::repeat_n('-', idx_width)).collect();
    let mut out = String::new();
    let _ = writeln!(out, "{layout}");
    out.push_str("    ");
    for n in 0..cols {
        let _ = write!(out, "  {:>w$} ", n, w = idx_width - 2);
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
            let _ = write!(out, "| {:>w$} ", at(m, n), w = idx_width - 2);
        }
        out.push_str("|\n");
    }
    rule(&mut out);
    out
}
