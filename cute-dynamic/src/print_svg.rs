//! Pictures: a [`Grid`] as SVG.

use crate::grid::{Cell, Grid};
use crate::palette::fill;
use std::fmt::{self, Write};

/// Grids with at most this many rows and columns get a label in every cell
/// and an index on every row and column; larger ones are drawn as small
/// squares with rulers every [`RULER`] cells.
pub const LABEL_LIMIT: i64 = 32;

/// Rulers of a large picture: a line and an index every this many cells.
pub const RULER: i64 = 8;

/// Where a picture's cells are (shared with the HTML page, whose tooltip
/// finds the cell under the pointer from it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    /// Whether cells carry labels (else the picture is small squares).
    pub labelled: bool,
    /// Left edge of column 0.
    pub x0: i64,
    /// Top edge of row 0.
    pub y0: i64,
    /// Cell width.
    pub cw: i64,
    /// Cell height.
    pub ch: i64,
    /// Width of the whole picture.
    pub width: i64,
    /// Height of the whole picture.
    pub height: i64,
}

const CHAR_W: i64 = 8; // of the 13px monospace labels, with room
const TITLE_H: i64 = 28;

impl Geometry {
    pub(crate) fn of(grid: &Grid) -> Geometry {
        let labelled = grid.rows() <= LABEL_LIMIT && grid.cols() <= LABEL_LIMIT;
        let index_chars = digits(grid.rows().max(grid.cols()) - 1);
        let (cw, ch) = if labelled {
            let widest = grid.cells().map(|(_, _, c)| label(grid, c).iter().map(|l| l.len()).max().unwrap_or(0));
            let chars = widest.max().unwrap_or(1) as i64;
            let tall = if grid.threads().is_some() { 40 } else { 32 };
            ((CHAR_W * chars + 14).max(32), tall)
        } else {
            // 512 pixels across the longer side, within 4..=16 per cell.
            let px = (512 / grid.rows().max(grid.cols())).clamp(4, 16);
            (px, px)
        };
        let x0 = CHAR_W * index_chars + 16;
        let y0 = TITLE_H + 20;
        // The title is 15px monospace: about 9 pixels a character.
        let width = (x0 + cw * grid.cols() + 8).max(10 * grid.title().chars().count() as i64 + 16);
        Geometry { labelled, x0, y0, cw, ch, width, height: y0 + ch * grid.rows() + 8 }
    }
}

fn digits(v: i64) -> i64 {
    v.max(0).to_string().len() as i64
}

/// The label lines of a cell: its offset, or `T<t>`, `V<v>` (nothing for a
/// cell no thread owns).
pub(crate) fn label(grid: &Grid, c: Cell) -> Vec<String> {
    match (grid.threads(), c.tv) {
        (None, _) => vec![c.offset.to_string()],
        (Some(_), Some((t, v))) => vec![format!("T{t}"), format!("V{v}")],
        (Some(_), None) => Vec::new(),
    }
}

/// Escapes text for XML content and attribute values.
pub(crate) fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// The grid as a standalone SVG document: mode 0 down, the rest across
/// (see [`Grid`]'s rank rule), the title above.
///
/// * Offset pictures shade each cell by `offset % 8` in CuTe's 8 grey
///   levels (`print_latex`'s `TikzColor_BWx8`); a swizzled layout by the
///   three offset bits its swizzle writes ([`Grid::shade_shift`]).
/// * Thread-value pictures colour each cell by its thread and label it
///   `T<t>`/`V<v>`: up to 8 threads in CuTe's 8 `TikzColor_TV` colours, up
///   to 32 each in a colour of its own far from its neighbours', more each
///   in a hue of its own (by `t % 8`, rows of a 16×16 thread layout would
///   all look alike); with
///   `highlight = Some(k)` thread `k`'s cells are blue and the others
///   dimmed.
/// * Grids up to [`LABEL_LIMIT`] per side carry labels and an index on
///   every row and column; larger ones are small squares (4 to 16 pixels)
///   with rulers every [`RULER`] cells.
///
/// Post-conditions: the document is well-formed XML; the group
/// `<g id="cells">` holds exactly one `<rect>` per cell, row by row, cell
/// `(m, n)` at `x = x0 + n·w`, `y = y0 + m·h` with the `data-m`/`data-n`
/// of its row and column on labelled pictures.
///
/// ```
/// use cute_dynamic::{Grid, Layout, print_svg};
/// let g = Grid::of_layout(&"(2,3):(3,1)".parse::<Layout>()?)?;
/// let svg = print_svg(&g, None);
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert_eq!(svg.matches("<rect ").count(), 1 + 6); // background + cells
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn print_svg(grid: &Grid, highlight: Option<i64>) -> String {
    let g = Geometry::of(grid);
    let mut out = String::new();
    svg_open(&mut out, g.width, g.height);
    let title = xml_escape(grid.title());
    let _ = writeln!(out, "<title>{title}</title>");
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
    let _ = writeln!(out, "<text x=\"8\" y=\"20\" font-size=\"15\">{title}</text>");
    cells(&mut out, grid, &g, highlight);
    if g.labelled {
        indices(&mut out, grid, &g, 1);
        cell_labels(&mut out, grid, &g, highlight);
    } else {
        rulers(&mut out, grid, &g);
    }
    out.push_str("</svg>\n");
    out
}

fn cells(out: &mut String, grid: &Grid, g: &Geometry, highlight: Option<i64>) {
    let stroke = if g.labelled { " stroke=\"#000000\" stroke-width=\"1\"" } else { "" };
    let _ = writeln!(out, "<g id=\"cells\"{stroke}>");
    for (m, n, c) in grid.cells() {
        let (x, y) = (g.x0 + n * g.cw, g.y0 + m * g.ch);
        let fill = fill(grid, c, highlight).hex();
        let _ = write!(out, "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"", g.cw, g.ch);
        if g.labelled {
            let _ = write!(out, " data-m=\"{m}\" data-n=\"{n}\"");
        }
        out.push_str("/>\n");
    }
    out.push_str("</g>\n");
}

/// Row indices left of the grid and column indices above it, every `step`.
fn indices(out: &mut String, grid: &Grid, g: &Geometry, step: i64) {
    out.push_str("<g id=\"indices\" fill=\"#000000\" text-anchor=\"middle\" dominant-baseline=\"central\">\n");
    for m in (0..grid.rows()).step_by(step as usize) {
        let y = g.y0 + m * g.ch + if step == 1 { g.ch / 2 } else { 0 };
        let _ = writeln!(out, "<text x=\"{}\" y=\"{y}\" text-anchor=\"end\">{m}</text>", g.x0 - 6);
    }
    for n in (0..grid.cols()).step_by(step as usize) {
        let x = g.x0 + n * g.cw + if step == 1 { g.cw / 2 } else { 0 };
        let _ = writeln!(out, "<text x=\"{x}\" y=\"{}\">{n}</text>", g.y0 - 10);
    }
    out.push_str("</g>\n");
}

fn cell_labels(out: &mut String, grid: &Grid, g: &Geometry, highlight: Option<i64>) {
    out.push_str("<g id=\"labels\" text-anchor=\"middle\" dominant-baseline=\"central\">\n");
    for (m, n, c) in grid.cells() {
        let lines = label(grid, c);
        let colour = if fill(grid, c, highlight).is_dark() { "#ffffff" } else { "#000000" };
        let cx = g.x0 + n * g.cw + g.cw / 2;
        let top = g.y0 + m * g.ch + g.ch / 2 - 8 * (lines.len() as i64 - 1);
        for (i, line) in lines.iter().enumerate() {
            let y = top + 16 * i as i64;
            let _ = writeln!(out, "<text x=\"{cx}\" y=\"{y}\" fill=\"{colour}\">{line}</text>");
        }
    }
    out.push_str("</g>\n");
}

/// Lines every [`RULER`] cells across the grid, and their indices.
fn rulers(out: &mut String, grid: &Grid, g: &Geometry) {
    let (right, bottom) = (g.x0 + g.cw * grid.cols(), g.y0 + g.ch * grid.rows());
    out.push_str("<g id=\"rulers\" stroke=\"#000000\" stroke-width=\"1\" stroke-opacity=\"0.5\">\n");
    for m in (0..=grid.rows()).step_by(RULER as usize).chain((grid.rows() % RULER != 0).then_some(grid.rows())) {
        let y = g.y0 + m * g.ch;
        let _ = writeln!(out, "<line x1=\"{}\" y1=\"{y}\" x2=\"{right}\" y2=\"{y}\"/>", g.x0);
    }
    for n in (0..=grid.cols()).step_by(RULER as usize).chain((grid.cols() % RULER != 0).then_some(grid.cols())) {
        let x = g.x0 + n * g.cw;
        let _ = writeln!(out, "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{bottom}\"/>", g.y0);
    }
    out.push_str("</g>\n");
    // An index every RULER cells, or every few RULERs where the numbers
    // would not fit between two rulers.
    let room = CHAR_W * (digits(grid.rows().max(grid.cols()) - 1) + 1);
    let every = (room + RULER * g.cw - 1) / (RULER * g.cw).max(1);
    indices(out, grid, g, RULER * every.max(1));
}

/// The opening `<svg>` element of a picture `width` by `height` pixels, in
/// the font every picture uses.
pub(crate) fn svg_open(out: &mut String, width: impl fmt::Display, height: impl fmt::Display) {
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"13\">"
    );
}
