//! Pictures: a [`Grid`] as a self-contained HTML page (the SVG, a legend,
//! and a tooltip on hover).

use crate::grid::Grid;
use crate::palette::{self, Rgb};
use crate::print_svg::{Geometry, print_svg, xml_escape};
use std::fmt::Write;

pub(crate) const STYLE: &str = "\
body{font-family:sans-serif;margin:16px;color:#111}
h1{font-size:18px;font-family:monospace;font-weight:normal}
#legend{display:flex;flex-wrap:wrap;gap:6px 14px;margin:8px 0 12px;font-size:13px}
#legend span.sw{display:inline-block;width:14px;height:14px;border:1px solid #000;vertical-align:middle;margin-right:4px}
#tip{position:absolute;pointer-events:none;background:#ffffe0;border:1px solid #333;padding:3px 6px;font:13px monospace;white-space:pre}
";

/// The tooltip: finds the cell under the pointer from the picture's
/// geometry (`D`), so the page needs no per-cell elements beyond the SVG.
const SCRIPT: &str = "\
(function(){
var svg=document.querySelector('#picture svg'),tip=document.getElementById('tip');
function cell(e){
  var r=svg.getBoundingClientRect();
  var x=(e.clientX-r.left)*D.w/r.width,y=(e.clientY-r.top)*D.h/r.height;
  var n=Math.floor((x-D.x0)/D.cw),m=Math.floor((y-D.y0)/D.ch);
  return (m<0||n<0||m>=D.rows||n>=D.cols)?null:[m,n];
}
svg.addEventListener('mousemove',function(e){
  var c=cell(e);
  if(!c){tip.hidden=true;return;}
  var i=c[0]+D.rows*c[1],s='('+c[0]+','+c[1]+')  offset '+D.o[i];
  if(D.t){s+=D.t[i]<0?'  no thread':'  thread '+D.t[i]+'  value '+D.v[i];}
  tip.textContent=s;tip.hidden=false;
  tip.style.left=(e.pageX+14)+'px';tip.style.top=(e.pageY+14)+'px';
});
svg.addEventListener('mouseleave',function(){tip.hidden=true;});
})();
";

/// The grid as one HTML page that needs nothing else (no network, no
/// files): a heading, a legend of the colours, the SVG of
/// [`print_svg`] (same `highlight`), and a tooltip that shows, for the cell
/// under the pointer, its coordinate `(m,n)`, its offset and, in a
/// thread-value picture, its thread and value.
///
/// Post-conditions: the page holds exactly one `<svg>`, the document of
/// [`print_svg`] without its namespace attribute (HTML gives inline SVG its
/// namespace), and no `http:`/`https:` reference.
///
/// ```
/// use cute_dynamic::{Grid, Layout, print_html};
/// let g = Grid::of_layout(&"(4,8):(1,4)".parse::<Layout>()?)?;
/// let page = print_html(&g, None);
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// assert!(!page.contains("http"));
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn print_html(grid: &Grid, highlight: Option<i64>) -> String {
    let g = Geometry::of(grid);
    let title = xml_escape(grid.title());
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n\
         <style>\n{STYLE}</style>\n</head>\n<body>\n"
    );
    let _ = writeln!(out, "<p>{}</p>", describe(grid));
    legend(&mut out, grid, highlight);
    let svg = print_svg(grid, highlight);
    let svg = svg.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
    // A small picture is drawn larger on the page (its viewBox scales it),
    // a large one at most as wide as the page.
    let w = g.width.max(MIN_PAGE_WIDTH.min(3 * g.width));
    let scaled =
        format!("width=\"{w}\" height=\"{}\" style=\"max-width:100%;height:auto\"", g.height * w / g.width.max(1));
    let svg = svg.replacen(&format!("width=\"{}\" height=\"{}\"", g.width, g.height), &scaled, 1);
    let _ = write!(out, "<div id=\"picture\">\n{svg}</div>\n<div id=\"tip\" hidden></div>\n<script>\n");
    data(&mut out, grid, &g);
    let _ = write!(out, "{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// The width a small picture is enlarged to on the page (at most 3 times
/// its own).
const MIN_PAGE_WIDTH: i64 = 640;

fn describe(grid: &Grid) -> String {
    let shape = format!("{} rows (mode 0) × {} columns (the other modes)", grid.rows(), grid.cols());
    match (grid.threads(), grid.values()) {
        (Some(t), Some(v)) => format!("{t} threads × {v} values over a tile of {shape}. Hover a cell."),
        _ => format!("{shape}, each cell its offset. Hover a cell."),
    }
}

pub(crate) fn swatch(out: &mut String, c: Rgb, text: &str) {
    let _ = writeln!(out, "<span><span class=\"sw\" style=\"background:{}\"></span>{text}</span>", c.hex());
}

pub(crate) fn legend(out: &mut String, grid: &Grid, highlight: Option<i64>) {
    out.push_str("<div id=\"legend\">\n");
    match (grid.threads(), highlight) {
        (None, _) => {
            let s = grid.shade_shift();
            for (k, &p) in palette::GREY_PERCENT.iter().enumerate() {
                let text = match s {
                    0 => format!("offset ≡ {k} (mod 8)"),
                    _ => format!("offset bits {}..{} = {k}", s, s + 2),
                };
                swatch(out, palette::grey(p), &text);
            }
        }
        (Some(_), Some(h)) => {
            swatch(out, palette::HIGHLIGHT, &format!("thread {h}"));
            swatch(out, palette::Rgb(58, 58, 58), "other threads (dimmed)");
        }
        (Some(t), None) => {
            // Up to 32 threads each has a colour of its own, all shown;
            // beyond, the first 8, then the tooltip tells.
            for k in 0..(if t <= 32 { t.max(0) } else { 8 }) {
                swatch(out, palette::thread(k, t), &format!("thread {k}"));
            }
            if t > 32 {
                out.push_str("<span>… one hue per thread (hover a cell)</span>\n");
            }
        }
    }
    if grid.threads().is_some() && grid.cells().any(|(_, _, c)| c.tv.is_none()) {
        swatch(out, palette::UNOWNED, "no thread");
    }
    out.push_str("</div>\n");
}

/// The tooltip's data: geometry and, per cell in column-major order, the
/// offset and (thread, value), -1 for none.
fn data(out: &mut String, grid: &Grid, g: &Geometry) {
    let _ = write!(
        out,
        "var D={{rows:{},cols:{},x0:{},y0:{},cw:{},ch:{},w:{},h:{},\no:[",
        grid.rows(),
        grid.cols(),
        g.x0,
        g.y0,
        g.cw,
        g.ch,
        g.width,
        g.height
    );
    let column_major = || (0..grid.cols()).flat_map(|n| (0..grid.rows()).map(move |m| grid.cell(m, n)));
    list(out, column_major().map(|c| c.offset));
    if grid.threads().is_some() {
        out.push_str("],\nt:[");
        list(out, column_major().map(|c| c.tv.map_or(-1, |tv| tv.0)));
        out.push_str("],\nv:[");
        list(out, column_major().map(|c| c.tv.map_or(-1, |tv| tv.1)));
    }
    out.push_str("]};\n");
}

fn list(out: &mut String, values: impl Iterator<Item = i64>) {
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{v}");
    }
}
