//! Pictures of tiled MMAs and tiled copies, as CuTe's `print_latex(mma)`
//! and `print_latex(copy)` draw them: several thread-value panels in one
//! figure ([`Figure`]), drawn as SVG, HTML and TikZ.

use crate::basis_layout::make_identity_layout;
use crate::copy_atom::TiledCopy;
use crate::error::{LayoutError, Result};
use crate::grid::{Cell, Grid};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::mma_atom::TiledMma;
use crate::palette::{THREAD, fill};
use crate::print_html::{STYLE, legend};
use crate::print_svg::{LABEL_LIMIT, label, xml_escape};
use std::fmt::Write;

/// One thread-value panel of a [`Figure`]: a [`Grid`] whose cells carry
/// their owner `(thread, value)`, placed at a row and column of the figure
/// (CuTe's TikZ coordinates: row down, column across, in cells; the first
/// panel at `(0, 0)`, others at negative or larger coordinates), with the
/// row and column indices CuTe writes beside it.
///
/// ```
/// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma};
/// // 2×2 threads of one FMA each: a tile (M,N,K) = (2,2,1).
/// let mma = make_tiled_mma(&MmaAtom::universal_fma(), &"(2,2,1):(1,2,0)".parse::<Layout>()?, None)?;
/// let f = Figure::of_mma(&mma)?;
/// let c = f.panel("C").unwrap();
/// assert_eq!((c.name(), c.origin()), ("C", (0, 0)));
/// assert_eq!(c.grid().cell(1, 1).tv, Some((3, 0))); // thread 3 is (m,n) = (1,1)
/// let a = f.panel("A").unwrap();
/// assert_eq!((a.grid().rows(), a.grid().cols(), a.origin()), (2, 1, (0, -2))); // M × K, left of C
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    name: &'static str,
    grid: Grid,
    origin: (i64, i64),
    /// `(row, column, text)` of each index CuTe writes for this panel.
    indices: Vec<(i64, i64, String)>,
}

impl Panel {
    /// The panel's name: `A`, `B`, `C` (an MMA), `S`, `D` (a copy).
    ///
    /// ```
    /// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(&MmaAtom::universal_fma(), &"(2,2,1):(1,2,0)".parse::<Layout>()?, None)?;
    /// let names: Vec<&str> = Figure::of_mma(&mma)?.panels().iter().map(|p| p.name()).collect();
    /// assert_eq!(names, ["C", "A", "B"]); // CuTe's drawing order
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The panel's cells: cell `(r, c)` is row `r`, column `c` of the panel
    /// (for B of an MMA, row `k` and column `n`), with its owner.
    ///
    /// ```
    /// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(&MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN")?, &"1:0".parse::<Layout>()?, None)?;
    /// let f = Figure::of_mma(&mma)?;
    /// let b = f.panel("B").unwrap().grid();
    /// assert_eq!((b.rows(), b.cols()), (8, 8)); // K x N
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Where the panel's cell `(0, 0)` is in the figure, `(row, column)`:
    /// CuTe's TikZ coordinates (for an MMA, C at `(0, 0)`, A at
    /// `(0, -K-1)`, B at `(-K-1, 0)`; for a copy, S at `(0, 0)` and D at
    /// `(0, N+3)`).
    ///
    /// ```
    /// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(&MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?, &"1:0".parse::<Layout>()?, None)?;
    /// let f = Figure::of_mma(&mma)?;
    /// assert_eq!(f.panel("A").unwrap().origin(), (0, -17));
    /// assert_eq!(f.panel("B").unwrap().origin(), (-17, 0));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn origin(&self) -> (i64, i64) {
        self.origin
    }
}

/// Which CuTe picture a figure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Mma,
    Copy,
}

/// A picture of a tiled MMA or a tiled copy: its thread-value panels, each
/// cell labelled with the `(thread, value)` that owns it (the first, threads
/// in order, that maps to it, as CuTe's `print_latex`) and coloured by that
/// thread.
///
/// * A tiled MMA ([`Figure::of_mma`]): C (`M × N`) in the middle, A
///   (`M × K`) on its left, B on top drawn `K × N` (transposed, as CuTe
///   draws it, so that its columns are C's).
/// * A tiled copy ([`Figure::of_copy`]): the source S on the left, the
///   destination D on the right, both over the tile `M × N`.
///
/// Drawn by [`print_svg_figure`], [`print_html_figure`] and
/// [`print_latex_figure`] (CuTe's TikZ, line for line).
///
/// ```
/// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma};
/// let mma =
///     make_tiled_mma(&MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?, &"(2,2,1):(1,2,0)".parse::<Layout>()?, None)?;
/// let f = Figure::of_mma(&mma)?;
/// let cells: i64 = f.panels().iter().map(|p| p.grid().rows() * p.grid().cols()).sum();
/// assert_eq!(cells, 32 * 16 + 16 * 16 + 32 * 16); // A + B + C
/// assert_eq!(f.panel("C").unwrap().grid().cell(0, 1).tv, Some((0, 1)));
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    title: String,
    kind: Kind,
    panels: Vec<Panel>,
    /// CuTe's comment lines: `(label, layout)`.
    comments: Vec<(&'static str, String)>,
}

impl Figure {
    /// The figure of a tiled MMA: panels C, A, B (CuTe's drawing order).
    ///
    /// Errors: those of [`Grid::of_tv`] (more than
    /// [`MAX_PICTURE_CELLS`](crate::MAX_PICTURE_CELLS) cells in a panel).
    ///
    /// ```
    /// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(&MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN")?, &"1:0".parse::<Layout>()?, None)?;
    /// let f = Figure::of_mma(&mma)?;
    /// // Thread 1 holds C(0,2) and C(0,3) in values 0 and 1.
    /// assert_eq!(f.panel("C").unwrap().grid().cell(0, 3).tv, Some((1, 1)));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn of_mma(mma: &TiledMma) -> Result<Figure> {
        let (m, n, k) = mma.tile_size_mnk();
        let c = Grid::of_tv(mma.layout_c_tv(), &IntTuple::flat([m, n]))?;
        let a = Grid::of_tv(mma.layout_a_tv(), &IntTuple::flat([m, k]))?;
        let b = Grid::of_tv(mma.layout_b_tv(), &IntTuple::flat([n, k]))?;
        let b = b.transposed(b.title().to_string());
        // CuTe's labels: A's rows left of it and its columns above it; B's
        // columns above it and its rows (k) left of it; C none (A's rows
        // and B's columns are C's).
        let mut a_idx: Vec<(i64, i64, String)> = (0..m).map(|i| (i, -k - 2, i.to_string())).collect();
        a_idx.extend((0..k).map(|j| (-1, j - k - 1, j.to_string())));
        let mut b_idx: Vec<(i64, i64, String)> = (0..n).map(|j| (-k - 2, j, j.to_string())).collect();
        b_idx.extend((0..k).map(|i| (i - k - 1, -1, i.to_string())));
        let atom = mma.atom();
        let title = format!("TiledMMA {} over {}: tile (M,N,K) = ({m},{n},{k})", atom.name(), mma.thr_layout_vmnk());
        Ok(Figure {
            title,
            kind: Kind::Mma,
            panels: vec![
                Panel { name: "C", grid: c, origin: (0, 0), indices: Vec::new() },
                Panel { name: "A", grid: a, origin: (0, -k - 1), indices: a_idx },
                Panel { name: "B", grid: b, origin: (-k - 1, 0), indices: b_idx },
            ],
            comments: vec![
                ("LayoutC", coordinates(mma.layout_c_tv(), [m, n])?),
                ("LayoutA", coordinates(mma.layout_a_tv(), [m, k])?),
                ("LayoutB", coordinates(mma.layout_b_tv(), [n, k])?),
            ],
        })
    }

    /// The figure of a tiled copy: panels S and D over its tile.
    ///
    /// Errors: `RankMismatch` for a tile that is not rank 2; those of
    /// [`Grid::of_tv`].
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Figure, Layout, make_tiled_copy};
    /// let copy = make_tiled_copy(&CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?, &"(32,1):(1,0)".parse::<Layout>()?,
    ///                            &"(1,8):(0,1)".parse::<Layout>()?)?;
    /// let f = Figure::of_copy(&copy)?;
    /// assert_eq!(f.panel("D").unwrap().origin(), (0, 11)); // N + 3
    /// assert_eq!(f.panel("S").unwrap().grid().cell(1, 0).tv, Some((0, 2)));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn of_copy(copy: &TiledCopy) -> Result<Figure> {
        let tile = copy.tiler_mn();
        let (Some(m), Some(n), 2) =
            (tile.get(0).and_then(|t| t.size().ok()), tile.get(1).and_then(|t| t.size().ok()), tile.rank())
        else {
            return Err(LayoutError::RankMismatch {
                what: format!("the tile {tile} of a picture of a tiled copy"),
                expected: 2,
                found: tile.rank(),
            });
        };
        let flat = IntTuple::flat([m, n]);
        let s = Grid::of_tv(copy.layout_s_tv(), &flat)?;
        let d = Grid::of_tv(copy.layout_d_tv(), &flat)?;
        let mut s_idx: Vec<(i64, i64, String)> = (0..m).map(|i| (i, -1, i.to_string())).collect();
        s_idx.extend((0..n).map(|j| (-1, j, j.to_string())));
        // CuTe writes D's row indices on its right.
        let mut d_idx: Vec<(i64, i64, String)> = (0..m).map(|i| (i, 2 * n + 3, i.to_string())).collect();
        d_idx.extend((0..n).map(|j| (-1, j + n + 3, j.to_string())));
        let title = format!(
            "TiledCopy {} ({}b values) over {}: tile (M,N) = ({m},{n})",
            copy.atom().name(),
            copy.atom().value_bits(),
            copy.layout_tv()
        );
        Ok(Figure {
            title,
            kind: Kind::Copy,
            panels: vec![
                Panel { name: "S", grid: s, origin: (0, 0), indices: s_idx },
                Panel { name: "D", grid: d, origin: (0, n + 3), indices: d_idx },
            ],
            comments: vec![
                ("Layout S TV", coordinates(copy.layout_s_tv(), [m, n])?),
                ("Layout D TV", coordinates(copy.layout_d_tv(), [m, n])?),
            ],
        })
    }

    /// The title: what is drawn, its thread layout and tile.
    ///
    /// ```
    /// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(&MmaAtom::universal_fma(), &"(2,2,1):(1,2,0)".parse::<Layout>()?, None)?;
    /// assert_eq!(
    ///     Figure::of_mma(&mma)?.title(),
    ///     "TiledMMA UniversalFMA over (1,2,2,1):(0,1,2,0): tile (M,N,K) = (2,2,1)"
    /// );
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The panels, in CuTe's drawing order (C, A, B; or S, D).
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Figure, Layout, make_tiled_copy};
    /// let copy = make_tiled_copy(
    ///     &CopyAtom::universal(32, 32)?,
    ///     &"4:1".parse::<Layout>()?,
    ///     &"(1,2):(0,1)".parse::<Layout>()?,
    /// )?;
    /// assert_eq!(Figure::of_copy(&copy)?.panels().len(), 2);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn panels(&self) -> &[Panel] {
        &self.panels
    }

    /// The panel of a name (`A`, `B`, `C`, `S`, `D`), if the figure has it.
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Figure, Layout, make_tiled_copy};
    /// let copy = make_tiled_copy(
    ///     &CopyAtom::universal(32, 32)?,
    ///     &"4:1".parse::<Layout>()?,
    ///     &"(1,2):(0,1)".parse::<Layout>()?,
    /// )?;
    /// let f = Figure::of_copy(&copy)?;
    /// assert!(f.panel("S").is_some() && f.panel("C").is_none());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn panel(&self, name: &str) -> Option<&Panel> {
        self.panels.iter().find(|p| p.name == name)
    }

    /// The number of thread indices (the TV layouts' thread mode).
    ///
    /// ```
    /// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(
    ///     &MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?,
    ///     &"(2,2,1):(1,2,0)".parse::<Layout>()?,
    ///     None,
    /// )?;
    /// assert_eq!(Figure::of_mma(&mma)?.threads(), 128);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn threads(&self) -> i64 {
        self.panels.first().and_then(|p| p.grid.threads()).unwrap_or(0)
    }

    /// The rows and columns of the figure, in cells, with CuTe's indices:
    /// `(top row, left column, rows, columns)`.
    fn extent(&self) -> (i64, i64, i64, i64) {
        let (mut r0, mut c0, mut r1, mut c1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for p in &self.panels {
            let (r, c) = p.origin;
            let corners = [(r, c), (r + p.grid.rows() - 1, c + p.grid.cols() - 1)];
            for (rr, cc) in corners.into_iter().chain(p.indices.iter().map(|i| (i.0, i.1))) {
                (r0, c0, r1, c1) = (r0.min(rr), c0.min(cc), r1.max(rr), c1.max(cc));
            }
        }
        (r0, c0, r1 - r0 + 1, c1 - c0 + 1)
    }
}

/// CuTe's comment text of a TV layout: the identity of the tile composed
/// with it, `(thread, value) → (m, n)` as scaled bases, after CuTe's
/// `ArithTuple(0,0) o`.
fn coordinates(tv: &Layout, tile: [i64; 2]) -> Result<String> {
    let id = make_identity_layout(&IntTuple::flat(tile))?;
    Ok(match id.composition(tv) {
        Ok(b) => format!("ArithTuple(0,0) o {b}"),
        // A layout the basis algebra cannot express: the TV layout itself.
        Err(_) => tv.to_string(),
    })
}

/// The pixel geometry of an SVG figure.
struct Geom {
    labelled: bool,
    /// Row and column of the figure's top-left cell.
    r0: i64,
    c0: i64,
    cw: i64,
    ch: i64,
    x0: i64,
    y0: i64,
    width: i64,
    height: i64,
}

const CHAR_W: i64 = 8;
const TITLE_H: i64 = 48;

impl Geom {
    fn of(f: &Figure) -> Geom {
        let (r0, c0, rows, cols) = f.extent();
        let labelled = f.panels.iter().all(|p| p.grid.rows() <= LABEL_LIMIT && p.grid.cols() <= LABEL_LIMIT);
        let (cw, ch) = if labelled {
            let cells = f.panels.iter().flat_map(|p| p.grid.cells().map(move |(_, _, c)| label(&p.grid, c)));
            let widest = cells.flat_map(|l| l.into_iter().map(|s| s.len())).max().unwrap_or(1);
            let widest = widest.max(f.panels.iter().flat_map(|p| &p.indices).map(|i| i.2.len()).max().unwrap_or(1));
            ((CHAR_W * widest as i64 + 14).max(32), 40)
        } else {
            let px = (768 / rows.max(cols).max(1)).clamp(4, 16);
            (px, px)
        };
        let (x0, y0) = (8, TITLE_H + 8);
        let width = (x0 + cw * cols + 8).max(9 * f.title.chars().count() as i64 + 24);
        Geom { labelled, r0, c0, cw, ch, x0, y0, width, height: y0 + ch * rows + 8 }
    }

    /// The pixel `(x, y)` of the top-left corner of figure cell `(r, c)`.
    fn at(&self, r: i64, c: i64) -> (i64, i64) {
        (self.x0 + (c - self.c0) * self.cw, self.y0 + (r - self.r0) * self.ch)
    }
}

/// A figure as a standalone SVG document, laid out as CuTe's TikZ (see
/// [`Figure`]): each panel a group `<g id="panel-X">` holding its cells
/// (`<g id="cells-X">`, one `<rect>` per cell, row by row, with the
/// `data-m`/`data-n` of its row and column in the panel), and, when every
/// panel is at most [`LABEL_LIMIT`] cells a side, CuTe's row and column
/// indices (`<g id="indices-X">`) and each cell's label `T<t>` over `V<v>`
/// (`<g id="labels-X">`, two `<text>` per owned cell, row by row); larger
/// figures are small squares. Cells are coloured by thread as
/// [`print_svg`](fn@crate::print_svg) colours them (a colour of its own for
/// each of up to 32 threads); with `highlight = Some(k)` thread `k`'s cells
/// are blue and the others dimmed.
///
/// Post-conditions: the document is well-formed XML; the cell groups hold
/// exactly one `<rect>` per cell of each panel.
///
/// ```
/// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma, print_svg_figure};
/// let mma = make_tiled_mma(&MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN")?, &"1:0".parse::<Layout>()?, None)?;
/// let svg = print_svg_figure(&Figure::of_mma(&mma)?, None);
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert_eq!(svg.matches("<rect ").count(), 1 + 16 * 8 + 8 * 8 + 16 * 8); // background + C + B + A
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn print_svg_figure(figure: &Figure, highlight: Option<i64>) -> String {
    let g = Geom::of(figure);
    let mut out = String::new();
    crate::print_svg::svg_open(&mut out, g.width, g.height);
    let title = xml_escape(&figure.title);
    let _ = writeln!(out, "<title>{title}</title>");
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
    let _ = writeln!(out, "<text x=\"8\" y=\"20\" font-size=\"15\">{title}</text>");
    let _ = writeln!(out, "<text x=\"8\" y=\"40\">{}</text>", xml_escape(&caption(figure)));
    for p in &figure.panels {
        panel_svg(&mut out, p, &g, highlight);
    }
    out.push_str("</svg>\n");
    out
}

/// What each panel is, for the line under the title.
fn caption(f: &Figure) -> String {
    let dims = |p: &Panel| format!("{}×{}", p.grid.rows(), p.grid.cols());
    let part = |name: &str, what: &str| f.panel(name).map(|p| format!("{name} {} ({what})", dims(p)));
    let parts: Vec<String> = match f.kind {
        Kind::Mma => [part("A", "m,k; left"), part("B", "k,n; top"), part("C", "m,n")].into_iter().flatten().collect(),
        Kind::Copy => [part("S", "source; left"), part("D", "destination; right")].into_iter().flatten().collect(),
    };
    format!("{}; each cell T<thread> V<value>", parts.join(", "))
}

fn panel_svg(out: &mut String, p: &Panel, g: &Geom, highlight: Option<i64>) {
    let grid = &p.grid;
    let name = p.name;
    let _ = writeln!(out, "<g id=\"panel-{name}\" data-rows=\"{}\" data-cols=\"{}\">", grid.rows(), grid.cols());
    let stroke = if g.labelled { " stroke=\"#000000\" stroke-width=\"1\"" } else { "" };
    let _ = writeln!(out, "<g id=\"cells-{name}\"{stroke}>");
    for (m, n, c) in grid.cells() {
        let (x, y) = g.at(p.origin.0 + m, p.origin.1 + n);
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{}\" data-m=\"{m}\" data-n=\"{n}\"/>",
            g.cw,
            g.ch,
            fill(grid, c, highlight).hex()
        );
    }
    out.push_str("</g>\n");
    if g.labelled {
        let _ = writeln!(
            out,
            "<g id=\"indices-{name}\" fill=\"#000000\" text-anchor=\"middle\" dominant-baseline=\"central\">"
        );
        for (r, c, text) in &p.indices {
            let (x, y) = g.at(*r, *c);
            let _ = writeln!(out, "<text x=\"{}\" y=\"{}\">{text}</text>", x + g.cw / 2, y + g.ch / 2);
        }
        out.push_str("</g>\n");
        let _ = writeln!(out, "<g id=\"labels-{name}\" text-anchor=\"middle\" dominant-baseline=\"central\">");
        for (m, n, c) in grid.cells() {
            let lines = label(grid, c);
            let colour = if fill(grid, c, highlight).is_dark() { "#ffffff" } else { "#000000" };
            let (x, y) = g.at(p.origin.0 + m, p.origin.1 + n);
            let top = y + g.ch / 2 - 8 * (lines.len() as i64 - 1);
            for (i, line) in lines.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "<text x=\"{}\" y=\"{}\" fill=\"{colour}\">{line}</text>",
                    x + g.cw / 2,
                    top + 16 * i as i64
                );
            }
        }
        out.push_str("</g>\n");
    }
    // The panel's name in the free corner above-left of it (CuTe has none).
    let (x, y) = g.at(p.origin.0, p.origin.1);
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\" text-anchor=\"end\">{name}</text>",
        x - 4,
        y - 4
    );
    out.push_str("</g>\n");
}

/// The tooltip of the page: finds the panel and cell under the pointer
/// from the geometry in `D`.
const SCRIPT: &str = "\
(function(){
var svg=document.querySelector('#picture svg'),tip=document.getElementById('tip');
function find(e){
  var r=svg.getBoundingClientRect();
  var x=(e.clientX-r.left)*D.w/r.width,y=(e.clientY-r.top)*D.h/r.height;
  for(var i=0;i<D.p.length;i++){
    var p=D.p[i],n=Math.floor((x-p.x)/D.cw),m=Math.floor((y-p.y)/D.ch);
    if(m>=0&&n>=0&&m<p.rows&&n<p.cols){return [p,m,n];}
  }
  return null;
}
svg.addEventListener('mousemove',function(e){
  var c=find(e);
  if(!c){tip.hidden=true;return;}
  var p=c[0],i=c[1]+p.rows*c[2];
  var s=p.name+' '+p.crd+' = ('+c[1]+','+c[2]+')  '+(p.t[i]<0?'no thread':'thread '+p.t[i]+'  value '+p.v[i]);
  tip.textContent=s;tip.hidden=false;
  tip.style.left=(e.pageX+14)+'px';tip.style.top=(e.pageY+14)+'px';
});
svg.addEventListener('mouseleave',function(){tip.hidden=true;});
})();
";

/// A figure as one self-contained HTML page (no network, no files): a
/// description, a legend of the thread colours, the SVG of
/// [`print_svg_figure`] (same `highlight`), and a tooltip naming, for the
/// cell under the pointer, its panel, coordinate, thread and value.
///
/// Post-conditions: the page holds exactly one `<svg>`, the document of
/// [`print_svg_figure`] without its namespace attribute, and no
/// `http:`/`https:` reference.
///
/// ```
/// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma, print_html_figure};
/// let mma = make_tiled_mma(&MmaAtom::universal_fma(), &"(2,2,1):(1,2,0)".parse::<Layout>()?, None)?;
/// let page = print_html_figure(&Figure::of_mma(&mma)?, None);
/// assert!(page.starts_with("<!DOCTYPE html>") && !page.contains("http"));
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn print_html_figure(figure: &Figure, highlight: Option<i64>) -> String {
    let g = Geom::of(figure);
    let title = xml_escape(&figure.title);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n\
         <style>\n{STYLE}</style>\n</head>\n<body>\n"
    );
    let _ =
        writeln!(out, "<p>{} thread indices. {}. Hover a cell.</p>", figure.threads(), xml_escape(&caption(figure)));
    if let Some(p) = figure.panels.first() {
        legend(&mut out, &p.grid, highlight);
    }
    let svg = print_svg_figure(figure, highlight).replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
    let scaled = format!("width=\"{}\" height=\"{}\" style=\"max-width:100%;height:auto\"", g.width, g.height);
    let svg = svg.replacen(&format!("width=\"{}\" height=\"{}\"", g.width, g.height), &scaled, 1);
    let _ = write!(out, "<div id=\"picture\">\n{svg}</div>\n<div id=\"tip\" hidden></div>\n<script>\n");
    let _ = writeln!(out, "var D={{w:{},h:{},cw:{},ch:{},p:[", g.width, g.height, g.cw, g.ch);
    for p in &figure.panels {
        let (x, y) = g.at(p.origin.0, p.origin.1);
        let crd = match (figure.kind, p.name) {
            (Kind::Mma, "A") => "(m,k)",
            (Kind::Mma, "B") => "(k,n)",
            _ => "(m,n)",
        };
        let _ = write!(
            out,
            "{{name:'{}',crd:'{crd}',x:{x},y:{y},rows:{},cols:{},\nt:[",
            p.name,
            p.grid.rows(),
            p.grid.cols()
        );
        let column_major = || (0..p.grid.cols()).flat_map(|n| (0..p.grid.rows()).map(move |m| p.grid.cell(m, n)));
        list(&mut out, column_major().map(|c| c.tv.map_or(-1, |tv| tv.0)));
        out.push_str("],\nv:[");
        list(&mut out, column_major().map(|c| c.tv.map_or(-1, |tv| tv.1)));
        out.push_str("]},\n");
    }
    let _ = write!(out, "]}};\n{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

fn list(out: &mut String, values: impl Iterator<Item = i64>) {
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{v}");
    }
}

const HEADER: &str = "\\documentclass[convert]{standalone}\n\
\\usepackage{tikz}\n\n\
\\begin{document}\n\
\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";

/// A figure as CuTe's standalone TikZ document, line for line what CuTe's
/// `print_latex(tiled_mma)` and `print_latex(tiled_copy)` write: a comment
/// per TV layout (CuTe prints them composed with the tile's identity,
/// `ArithTuple(0,0) o ...`; we print the same without the static `_`
/// marker), then per panel one `\node[fill=...] at (row,col)
/// {\shortstack{T<t> \\ V<v>}};` per owned cell in thread, then value,
/// order, its grid, and CuTe's indices. Threads are coloured by `t % 8`
/// (CuTe's 8 colours); `highlight` as [`print_latex`](fn@crate::print_latex).
///
/// ```
/// use cute_dynamic::{Figure, Layout, MmaAtom, make_tiled_mma, print_latex_figure};
/// let mma = make_tiled_mma(&MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN")?, &"1:0".parse::<Layout>()?, None)?;
/// let tex = print_latex_figure(&Figure::of_mma(&mma)?, None);
/// assert!(tex.contains("\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,-9) grid (16,-1);")); // A
/// assert_eq!(tex.lines().filter(|l| l.starts_with("\\node[fill=")).count(), 16 * 8 + 16 * 8 + 8 * 8);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn print_latex_figure(figure: &Figure, highlight: Option<i64>) -> String {
    let mut out = String::new();
    for (label, text) in &figure.comments {
        let _ = writeln!(out, "% {label}: {text}");
    }
    out.push_str(HEADER);
    for p in &figure.panels {
        let grid = &p.grid;
        let mut owned: Vec<(i64, i64, Cell)> = grid.cells().filter(|(_, _, c)| c.tv.is_some()).collect();
        owned.sort_by_key(|&(_, _, c)| c.tv);
        for (m, n, c) in owned {
            let (t, v) = c.tv.unwrap_or((0, 0));
            let colour = match highlight {
                None => THREAD[t.rem_euclid(8) as usize].tikz(),
                Some(_) => fill(grid, c, highlight).tikz(),
            };
            let (r, col) = (p.origin.0 + m, p.origin.1 + n);
            let _ = writeln!(out, "\\node[fill={colour}] at ({r},{col}) {{\\shortstack{{T{t} \\\\ V{v}}}}};");
        }
        let (r0, c0) = p.origin;
        let _ = writeln!(
            out,
            "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({r0},{c0}) grid ({},{});\n",
            r0 + grid.rows(),
            c0 + grid.cols()
        );
        for (r, c, text) in &p.indices {
            let _ = writeln!(out, "\\node at ({r},{c}) {{\\Large{{\\texttt{{{text}}}}}}};");
        }
    }
    out.push_str("\\end{tikzpicture}\n\\end{document}\n");
    out
}
