//! Pictures: a [`Grid`] as CuTe's `print_latex` TikZ document.

use crate::grid::{Cell, Grid};
use crate::palette::{GREY_PERCENT, THREAD, fill};
use std::fmt::Write;

const HEADER: &str = "\\documentclass[convert]{standalone}\n\
\\usepackage{tikz}\n\n\
\\begin{document}\n\
\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";

/// The grid as a standalone TikZ document, line for line what CuTe's
/// `print_latex` (offset pictures) and `print_latex_tv` (thread-value
/// pictures) write: a `% Layout: ` (or `% Layout TV: `) comment, one
/// `\node[fill=...] at (m,n) {...};` per cell, the grid, then row and
/// column indices. Offsets are shaded `black!p` by `offset % 8`; thread
/// cells are coloured by `t % 8` (CuTe's 8 colours, for any number of
/// threads) and written in thread, then value, order
/// as `\shortstack{T<t> \\ V<v>}` (a cell no thread owns gets no node).
/// With `highlight = Some(k)` thread `k`'s cells and the others take the
/// colours of [`print_svg`](fn@crate::print_svg) (CuTe has no highlight).
///
/// The comment carries the grid's title; for a rank-1 layout CuTe prints
/// the layout with its appended `1:0` mode there, we print the layout.
///
/// ```
/// use cute_dynamic::{Grid, Layout, print_latex};
/// let g = Grid::of_layout(&"(2,2):(1,2)".parse::<Layout>()?)?;
/// let tex = print_latex(&g, None);
/// assert!(tex.contains("\\node[fill=black!40] at (1,0) {1};\n"));
/// assert!(tex.contains("\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,2);"));
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn print_latex(grid: &Grid, highlight: Option<i64>) -> String {
    let mut out = String::new();
    let tv = grid.threads().is_some();
    let what = if tv { "Layout TV" } else { "Layout" };
    let _ = write!(out, "% {what}: {}\n{HEADER}", grid.title());
    if tv {
        let mut owned: Vec<(i64, i64, Cell)> = grid.cells().filter(|(_, _, c)| c.tv.is_some()).collect();
        owned.sort_by_key(|&(_, _, c)| c.tv);
        for (m, n, c) in owned {
            let (t, v) = c.tv.unwrap_or((0, 0));
            let colour = colour(grid, c, highlight);
            let _ = writeln!(out, "\\node[fill={colour}] at ({m},{n}) {{\\shortstack{{T{t} \\\\ V{v}}}}};");
        }
    } else {
        for (m, n, c) in grid.cells() {
            let _ = writeln!(out, "\\node[fill={}] at ({m},{n}) {{{}}};", colour(grid, c, highlight), c.offset);
        }
    }
    let (rows, cols) = (grid.rows(), grid.cols());
    let _ = writeln!(out, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({rows},{cols});\n");
    for m in 0..rows {
        let _ = writeln!(out, "\\node at ({m},-1) {{\\Large{{\\texttt{{{m}}}}}}};");
    }
    for n in 0..cols {
        let _ = writeln!(out, "\\node at (-1,{n}) {{\\Large{{\\texttt{{{n}}}}}}};");
    }
    out.push_str("\\end{tikzpicture}\n\\end{document}\n");
    out
}

/// CuTe's colour names: `black!p` for offsets, `{rgb,255:...}` for threads.
/// (Threads always by `t % 8`, as CuTe, even where SVG gives each of more
/// than 8 threads a hue of its own.)
fn colour(grid: &Grid, c: Cell, highlight: Option<i64>) -> String {
    match (grid.threads(), c.tv, highlight) {
        (None, _, _) => format!("black!{:02}", GREY_PERCENT[c.offset.rem_euclid(8) as usize]),
        (Some(_), Some((t, _)), None) => THREAD[t.rem_euclid(8) as usize].tikz(),
        _ => fill(grid, c, highlight).tikz(),
    }
}
