//! Pictures: the grid's rank rule, and the SVG, HTML and TikZ drawings of
//! layouts and thread-value layouts. Every SVG made here is parsed with a
//! real XML parser and checked cell by cell against the grid; the small ones
//! and a GEMM's 128×128 tile of 256 threads are also snapshots
//! (`tests/snapshots/*.svg`; `CUTE_UPDATE_SNAPSHOTS=1` rewrites them).

use cute_dynamic::{
    Grid, IntTuple, Layout, LayoutError, MAX_PICTURE_CELLS, Value, eval, make_layout_tv, print_html, print_latex,
    print_svg,
};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

fn lay(s: &str) -> Layout {
    s.parse().expect("layout")
}

// --- The grid and its rank rule -----------------------------------------------------

#[test]
fn rank_rule_mode_0_down_the_rest_across() {
    for (text, rows, cols) in [("(4,8):(1,4)", 4, 8), ("8:3", 8, 1), ("(3):(5)", 3, 1), ("(2,3,4):(12,4,1)", 2, 12)] {
        let l = lay(text);
        let g = Grid::of_layout(&l).unwrap();
        assert_eq!((g.rows(), g.cols()), (rows, cols), "{text}");
        for (m, n, c) in g.cells() {
            assert_eq!(c.offset, l.eval(m + rows * n).unwrap(), "{text} at ({m},{n})");
        }
    }
    // Rank 3: column n is the colexicographic coordinate of the other modes.
    let g = Grid::of_layout(&lay("(2,3,4):(12,4,1)")).unwrap();
    // Column 9 of the (3,4) rest is its coordinate (0,3).
    assert_eq!(g.cell(1, 9).offset, 12 + 3);
}

#[test]
fn from_fn_draws_any_offset_function_as_a_layout_would() {
    let l = lay("((2,4),8):((1,16),2)");
    let g = Grid::of_layout(&l).unwrap();
    let f = Grid::from_fn(l.to_string(), 8, 8, |m, n| l.eval(m + 8 * n).unwrap()).unwrap();
    assert_eq!(print_svg(&g, None), print_svg(&f, None));
    assert_eq!(print_html(&g, None), print_html(&f, None));
    assert_eq!(print_latex(&g, None), print_latex(&f, None));
    // A swizzle-like function (bits 4..6 XORed into 0..2).
    let xor = Grid::from_fn("xor", 8, 8, |m, n| {
        let i = m + 8 * n;
        i ^ ((i >> 3) & 7)
    })
    .unwrap();
    check_svg(&print_svg(&xor, None), &xor, None);
}

/// A swizzled layout is drawn as its inner layout's grid with each cell the
/// swizzled offset: Hopper's 128-byte swizzle `Sw<3,4,3>` on 8 rows of 64
/// (128-byte rows of 16-bit elements) moves row r's columns by `r` units of 8.
#[test]
fn swizzled_layouts_draw_the_swizzled_offsets() {
    let Value::Composed(c) = eval("composition(Sw<3,4,3>, (8,64):(64,1))").unwrap() else {
        panic!("a composed layout")
    };
    let g = Grid::of_composed(&c).unwrap();
    assert_eq!((g.rows(), g.cols(), g.title()), (8, 64, "Sw<3,4,3> o 0 o (8,64):(64,1)"));
    for (m, n, cell) in g.cells() {
        let plain = 64 * m + n;
        assert_eq!(cell.offset, plain ^ (((plain >> 7) & 7) << 4), "cell ({m},{n})");
    }
    assert_ne!(g, Grid::of_layout(c.inner()).unwrap(), "the swizzle moves cells");
    check_svg(&print_svg(&g, None), &g, None);
}

#[test]
fn pictures_have_a_size_limit() {
    let big = lay("(512,256):(1,512)");
    assert!(big.size() > MAX_PICTURE_CELLS);
    let e = Grid::of_layout(&big).unwrap_err();
    assert!(e.to_string().contains("at most 65536"), "{e}");
    assert!(Grid::of_layout(&lay("(256,256):(256,1)")).is_ok());
    assert!(Grid::from_fn("empty", 0, 4, |_, _| 0).is_err());
}

#[test]
fn tv_grid_needs_a_rank_2_layout_inside_the_tile() {
    assert!(matches!(Grid::of_tv(&lay("8:1"), &IntTuple::flat([2, 4])), Err(LayoutError::RankMismatch { .. })));
    assert!(matches!(Grid::of_tv(&lay("(2,4):(1,4)"), &IntTuple::flat([2, 4])), Err(LayoutError::OutOfBounds { .. })));
    // Two (t, v) on one cell: the first thread keeps it (CuTe's
    // print_latex_tv), and an unreached cell has no owner.
    let g = Grid::of_tv(&lay("(2,2):(0,1)"), &IntTuple::flat([2, 2])).unwrap();
    assert_eq!(g.cell(0, 0).tv, Some((0, 0)));
    assert_eq!(g.cell(1, 0).tv, Some((0, 1)));
    assert_eq!(g.cell(0, 1).tv, None);
    check_svg(&print_svg(&g, None), &g, None);
}

// --- SVG: parsed, cell by cell ---------------------------------------------------------

/// Parses an SVG with a real XML parser and checks it against its grid:
/// well-formed; the `cells` group holds one `rect` per cell, each position
/// once; fills follow the grid (greys by three offset bits, or one colour per
/// thread, the highlight apart); labelled pictures carry each
/// cell's label. Returns the number of threads in colour classes of their own
/// (the highlighted one apart).
fn check_svg(svg: &str, grid: &Grid, highlight: Option<i64>) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{}: not well-formed XML: {e}", grid.title()));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    let group = root.descendants().find(|n| n.attribute("id") == Some("cells")).expect("a cells group");
    let rects: Vec<_> = group.children().filter(|n| n.is_element()).collect();
    assert_eq!(rects.len() as i64, grid.rows() * grid.cols(), "one rect per cell");
    let num = |n: &roxmltree::Node, a: &str| -> i64 { n.attribute(a).expect(a).parse().expect("number") };
    let (w, h) = (num(&rects[0], "width"), num(&rects[0], "height"));
    let x0 = rects.iter().map(|r| num(r, "x")).min().unwrap();
    let y0 = rects.iter().map(|r| num(r, "y")).min().unwrap();
    let mut at: HashMap<(i64, i64), String> = HashMap::new();
    for r in &rects {
        assert_eq!(r.tag_name().name(), "rect");
        let (dx, dy) = (num(r, "x") - x0, num(r, "y") - y0);
        assert!(dx % w == 0 && dy % h == 0, "rect off the grid");
        let (m, n) = (dy / h, dx / w);
        if let Some(dm) = r.attribute("data-m") {
            assert_eq!((dm.parse::<i64>().unwrap(), num(r, "data-n")), (m, n));
        }
        let old = at.insert((m, n), r.attribute("fill").expect("fill").to_string());
        assert!(old.is_none(), "cell ({m},{n}) drawn twice");
    }
    for (m, n, _) in grid.cells() {
        assert!(at.contains_key(&(m, n)), "cell ({m},{n}) missing");
    }
    // Fills: a function of the colour class, different classes different.
    let class = |m: i64, n: i64| -> (i64, i64) {
        let c = grid.cell(m, n);
        match (grid.threads(), c.tv, highlight) {
            (None, _, _) => (0, (c.offset >> grid.shade_shift()).rem_euclid(8)),
            (Some(_), None, _) => (1, 0),
            (Some(_), Some((t, _)), Some(k)) if t == k => (2, 0),
            (Some(_), Some((t, _)), _) => (3, t),
        }
    };
    let mut fill_of: HashMap<(i64, i64), &str> = HashMap::new();
    for (m, n, _) in grid.cells() {
        let f = at[&(m, n)].as_str();
        assert_eq!(*fill_of.entry(class(m, n)).or_insert(f), f, "cell ({m},{n}) of one class, two fills");
    }
    let distinct: BTreeSet<&str> = fill_of.values().copied().collect();
    if highlight.is_none() {
        assert_eq!(distinct.len(), fill_of.len(), "two colour classes share a fill: {fill_of:?}");
    } else {
        // Dimmed, the other threads may share shades; the highlight stands apart.
        let lit = fill_of.get(&(2, 0)).copied();
        assert!(lit.is_none() || fill_of.iter().all(|(k, f)| k.0 == 2 || Some(*f) != lit), "highlight not unique");
    }
    if let Some(labels) = root.descendants().find(|n| n.attribute("id") == Some("labels")) {
        let texts: Vec<String> =
            labels.children().filter(|n| n.is_element()).map(|n| n.text().unwrap_or("").to_string()).collect();
        let mut want = Vec::new();
        for (_, _, c) in grid.cells() {
            match (grid.threads(), c.tv) {
                (None, _) => want.push(c.offset.to_string()),
                (Some(_), Some((t, v))) => want.extend([format!("T{t}"), format!("V{v}")]),
                (Some(_), None) => {}
            }
        }
        assert_eq!(texts, want, "cell labels, row by row");
    }
    fill_of.keys().filter(|k| k.0 == 3).count()
}

/// Compares with `tests/snapshots/<name>`, or writes it when
/// `CUTE_UPDATE_SNAPSHOTS` is set.
fn snapshot(name: &str, text: &str) {
    let path = format!("{}/snapshots/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("CUTE_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, text).expect("write snapshot");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(want == text, "{path} differs from the picture drawn now; review, then rerun with CUTE_UPDATE_SNAPSHOTS=1");
}

/// The paper's Figures 10 and 11: blocked and raked products of a 3×4
/// row-major tile by a 2×5 column-major grid, first rows as printed there.
#[test]
fn svg_of_paper_figures_10_and_11() {
    for (op, name, row0) in [
        ("blocked_product", "blocked_product.svg", "0 1 2 3 24 25 26 27 48 49 50 51 72 73 74 75 96 97 98 99"),
        ("raked_product", "raked_product.svg", "0 24 48 72 96 1 25 49 73 97 2 26 50 74 98 3 27 51 75 99"),
    ] {
        let Value::Layout(l) = eval(&format!("{op}((3,4):(4,1), (2,5):(1,2))")).unwrap() else { panic!("{op}") };
        let g = Grid::of_layout(&l).unwrap();
        assert_eq!((g.rows(), g.cols()), (6, 20));
        let first: Vec<String> = (0..20).map(|n| g.cell(0, n).offset.to_string()).collect();
        assert_eq!(first.join(" "), row0, "{op}: the paper's first row");
        let svg = print_svg(&g, None);
        check_svg(&svg, &g, None);
        snapshot(name, &svg);
    }
}

#[test]
fn svg_of_a_tv_layout_colours_threads_and_highlights_one() {
    let (tv, tiler) = make_layout_tv(&lay("(2,3):(3,1)"), &lay("(2,2):(2,1)")).unwrap();
    let g = Grid::of_tv(&tv, &tiler).unwrap();
    let svg = print_svg(&g, None);
    assert_eq!(check_svg(&svg, &g, None), 6, "6 threads, 6 colours");
    snapshot("tv_2x3_2x2.svg", &svg);
    let lit = print_svg(&g, Some(4));
    assert_eq!(check_svg(&lit, &g, Some(4)), 5, "the other 5 threads, dimmed");
    // 16 threads: a colour each (by t % 8 the rows of this row-major
    // thread layout would look alike).
    let (tv, tiler) = make_layout_tv(&lay("(4,4):(4,1)"), &lay("(2,2):(2,1)")).unwrap();
    let g = Grid::of_tv(&tv, &tiler).unwrap();
    assert_eq!(check_svg(&print_svg(&g, None), &g, None), 16);
    // 8 threads: CuTe's 8 colours, thread t in TikzColor_TV[t].
    let (tv, tiler) = make_layout_tv(&lay("(2,4):(4,1)"), &lay("(2,2):(2,1)")).unwrap();
    let svg = print_svg(&Grid::of_tv(&tv, &tiler).unwrap(), None);
    for c in ["#afafff", "#afffaf", "#ffffaf", "#ffafaf", "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2"] {
        assert!(svg.contains(&format!("fill=\"{c}\"")), "CuTe's colour {c}");
    }
}

/// A GEMM's 128×128 tile of C and its 256 threads (a CuTe DSL tiled MMA
/// with permutation `(16,4):(4,1)`: 16×16 threads, each four 4×4 blocks:
/// rows `4·tm + {0..3} + {0, 64}`, the same columns), at pixel scale with
/// thread 0 highlighted.
#[test]
fn svg_of_the_walkthroughs_128x128_tile() {
    // (t, v) → m + 128·n; thread t = 16·tm + tn, value v = ((r, rest), (c, rest)).
    let tv = lay("((16,16),((4,2),(4,2))):((512,4),((1,64),(128,8192)))");
    let g = Grid::of_tv(&tv, &IntTuple::flat([128, 128])).unwrap();
    for (m, n, c) in g.cells() {
        let (tm, tn) = ((m % 64) / 4, (n % 64) / 4);
        assert_eq!(c.tv.map(|p| p.0), Some(16 * tm + tn), "owner of ({m},{n})");
    }
    let svg = print_svg(&g, Some(0));
    assert!(!svg.contains("id=\"labels\""), "no labels at pixel scale");
    assert_eq!(check_svg(&svg, &g, Some(0)), 255);
    assert_eq!(check_svg(&print_svg(&g, None), &g, None), 256, "256 threads, a colour each");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let rulers = doc.descendants().find(|n| n.attribute("id") == Some("rulers")).expect("rulers");
    assert_eq!(rulers.children().filter(|n| n.has_tag_name("line")).count(), 2 * (128 / 8 + 1));
    snapshot("walkthrough_128x128.svg", &svg);
}

proptest! {
    /// Any small layout, of rank 1 to 3: its SVG parses and holds each cell
    /// once with the right shade and label; HTML and TikZ have a cell each.
    #[test]
    fn every_small_layout_draws_every_cell_once(
        modes in prop::collection::vec((1i64..7, -3i64..12), 1..4),
    ) {
        let l = Layout::new(IntTuple::flat(modes.iter().map(|m| m.0)), IntTuple::flat(modes.iter().map(|m| m.1))).unwrap();
        let g = Grid::of_layout(&l).unwrap();
        prop_assert_eq!(g.rows() * g.cols(), l.size());
        check_svg(&print_svg(&g, None), &g, None);
        let page = print_html(&g, None);
        prop_assert_eq!(page.matches("<rect ").count() as i64, l.size() + 1);
        let tex = print_latex(&g, None);
        prop_assert_eq!(tex.lines().filter(|t| t.starts_with("\\node[fill=")).count() as i64, l.size());
    }
}

// --- HTML and TikZ -----------------------------------------------------------------------

#[test]
fn html_is_self_contained_and_embeds_the_svg() {
    let (tv, tiler) = make_layout_tv(&lay("(16,16):(16,1)"), &lay("(4,4):(4,1)")).unwrap();
    for (g, h) in [(Grid::of_tv(&tv, &tiler).unwrap(), Some(0)), (Grid::of_layout(&lay("(4,8):(1,4)")).unwrap(), None)]
    {
        let page = print_html(&g, h);
        assert!(!page.contains("http:") && !page.contains("https:"), "a network reference");
        assert!(!page.contains(" src=") && !page.contains(" href="), "an external resource");
        let start = page.find("<svg").expect("an svg");
        let end = page.find("</svg>").expect("its end") + "</svg>".len();
        assert_eq!(page.matches("<svg").count(), 1);
        // Inline SVG takes HTML's namespace; put it back to parse it alone.
        let svg = page[start..end].replacen("<svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"", 1);
        // The same picture; only its size on the page may differ (a small
        // one is enlarged, its viewBox unchanged).
        let natural = print_svg(&g, h);
        let body = |s: &str| s[s.find('>').unwrap()..].trim_end().to_string();
        assert_eq!(body(&svg), body(&natural));
        let view_box = |s: &str| s[s.find("viewBox=").unwrap()..].split('"').nth(1).unwrap().to_string();
        assert_eq!(view_box(&svg), view_box(&natural));
        check_svg(&svg, &g, h);
        // The tooltip's data: one offset (and thread, value) per cell, column-major.
        let data = &page[page.find("o:[").expect("offsets") + 3..];
        let offsets: Vec<i64> = data[..data.find(']').unwrap()].split(',').map(|v| v.parse().unwrap()).collect();
        let want: Vec<i64> =
            (0..g.cols()).flat_map(|n| (0..g.rows()).map(move |m| (m, n))).map(|(m, n)| g.cell(m, n).offset).collect();
        assert_eq!(offsets, want);
        assert!(page.contains("id=\"legend\"") && page.contains("id=\"tip\""));
    }
}

#[test]
fn latex_is_cutes_print_latex() {
    let g = Grid::of_layout(&lay("(2,3):(3,1)")).unwrap();
    let tex = print_latex(&g, None);
    let want = "% Layout: (2,3):(3,1)\n\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\
\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n\
\\node[fill=black!00] at (0,0) {0};\n\\node[fill=black!40] at (0,1) {1};\n\\node[fill=black!20] at (0,2) {2};\n\
\\node[fill=black!60] at (1,0) {3};\n\\node[fill=black!10] at (1,1) {4};\n\\node[fill=black!50] at (1,2) {5};\n\
\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,3);\n\n\
\\node at (0,-1) {\\Large{\\texttt{0}}};\n\\node at (1,-1) {\\Large{\\texttt{1}}};\n\
\\node at (-1,0) {\\Large{\\texttt{0}}};\n\\node at (-1,1) {\\Large{\\texttt{1}}};\n\\node at (-1,2) {\\Large{\\texttt{2}}};\n\
\\end{tikzpicture}\n\\end{document}\n";
    assert_eq!(tex, want);
    // Thread-value: nodes in thread, then value, order, as print_latex_tv.
    let (tv, tiler) = make_layout_tv(&lay("(2,3):(3,1)"), &lay("(2,2):(2,1)")).unwrap();
    let tex = print_latex(&Grid::of_tv(&tv, &tiler).unwrap(), None);
    assert!(tex.starts_with("% Layout TV: ((3,2),(2,2)):((8,2),(4,1))\n"));
    let nodes: Vec<&str> = tex.lines().filter(|l| l.starts_with("\\node[fill=")).collect();
    assert_eq!(nodes.len(), 24);
    assert_eq!(nodes[0], "\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,0) {\\shortstack{T0 \\\\ V0}};");
    assert_eq!(nodes[4], "\\node[fill={rgb,255:red,175;green,255;blue,175}] at (0,2) {\\shortstack{T1 \\\\ V0}};");
}

/// A swizzled layout is shaded by the bits its swizzle writes, so that the
/// swizzle shows: `Sw<3,4,3>` over 8 rows of 64 writes bits 4 to 6, and
/// shading by `offset % 8` drew only the same vertical stripes in every row.
#[test]
fn swizzled_pictures_shade_by_the_swizzled_bits() {
    let Value::Composed(c) = eval("composition(Sw<3,4,3>, (8,64):(64,1))").unwrap() else { panic!("composed") };
    let g = Grid::of_composed(&c).unwrap();
    assert_eq!(g.shade_shift(), 4);
    check_svg(&print_svg(&g, None), &g, None);
    let shade = |m: i64, n: i64| (g.cell(m, n).offset >> 4) & 7;
    // Down a column the shade changes: the rows are not alike.
    assert!((0..g.cols()).all(|n| (1..g.rows()).any(|m| shade(m, n) != shade(0, n))));
    // A plain layout is still shaded by offset % 8, as CuTe's print_latex.
    assert_eq!(Grid::of_layout(&lay("(8,64):(64,1)")).unwrap().shade_shift(), 0);
    let page = print_html(&g, None);
    assert!(page.contains("offset bits 4..6 = 7"), "the legend names the bits");
    // The title is drawn once (in the picture), besides the page's and the
    // picture's <title> elements.
    assert!(!page.contains("<h1>"));
    assert_eq!(page.matches(c.to_string().replace('<', "&lt;").replace('>', "&gt;").as_str()).count(), 3);
}

/// Up to 32 threads, every thread has a colour of its own, far from every
/// other's (no two alike, as thread 0 and thread 8 were).
#[test]
fn up_to_32_threads_have_distinct_colours() {
    let (tv, tiler) = make_layout_tv(&lay("(8,4):(4,1)"), &lay("(1,2):(2,1)")).unwrap();
    let g = Grid::of_tv(&tv, &tiler).unwrap();
    assert_eq!(g.threads(), Some(32));
    let svg = print_svg(&g, None);
    assert_eq!(check_svg(&svg, &g, None), 32);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let group = doc.root_element().descendants().find(|n| n.attribute("id") == Some("cells")).unwrap();
    let mut colour = HashMap::new();
    for (r, (_, _, c)) in group.children().filter(|n| n.is_element()).zip(g.cells()) {
        let hex = r.attribute("fill").unwrap();
        let rgb: Vec<i64> = (1..7).step_by(2).map(|i| i64::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        colour.insert(c.tv.unwrap().0, rgb);
    }
    let dist = |a: &[i64], b: &[i64]| a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<i64>();
    for t in 0..32 {
        for u in t + 1..32 {
            assert!(
                dist(&colour[&t], &colour[&u]) >= 24 * 24,
                "threads {t} and {u} look alike: {:?} {:?}",
                colour[&t],
                colour[&u]
            );
        }
    }
}

// --- Pictures of tiled MMAs and tiled copies ---------------------------------------------

use cute_dynamic::{
    CopyAtom, Figure, MmaAtom, make_tiled_copy, make_tiled_mma, print_html_figure, print_latex_figure, print_svg_figure,
};
use cute_tests::golden_text::{CUTE_LATEX_COPY, CUTE_LATEX_MMA, unmark};

/// The owner CuTe's pictures give element `k` of a TV layout's tile: the
/// first `(t, v)`, threads in order then values, that maps to it.
fn owners(tv: &Layout, cells: i64) -> Vec<Option<(i64, i64)>> {
    let (t_count, v_count) = (tv.get(0).unwrap().size(), tv.get(1).unwrap().size());
    let mut owner = vec![None; cells as usize];
    for t in 0..t_count {
        for v in 0..v_count {
            let k = tv.eval(t + t_count * v).unwrap();
            owner[k as usize].get_or_insert((t, v));
        }
    }
    owner
}

fn sm80_2x2x1() -> cute_dynamic::TiledMma {
    let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    make_tiled_mma(&atom, &lay("(2,2,1):(1,2,0)"), None).unwrap()
}

fn ldsm_32x8() -> cute_dynamic::TiledCopy {
    let atom = CopyAtom::gpu("SM75_U32x4_LDSM_N", 16).unwrap();
    make_tiled_copy(&atom, &lay("(32,1):(1,0)"), &lay("(1,8):(0,1)")).unwrap()
}

/// The TikZ of a tiled MMA and of a tiled copy is CuTe's `print_latex`
/// (`tests/golden/cute_latex_*.tex`, written by CuTe itself) byte for byte,
/// once the static `_` marker is taken off CuTe's comment lines.
#[test]
fn latex_of_a_tiled_mma_and_copy_is_cutes() {
    for (figure, golden) in [
        (Figure::of_mma(&sm80_2x2x1()).unwrap(), CUTE_LATEX_MMA),
        (Figure::of_copy(&ldsm_32x8()).unwrap(), CUTE_LATEX_COPY),
    ] {
        let want: String = golden
            .lines()
            .map(|l| if l.starts_with('%') { unmark(l) } else { l.to_string() })
            .map(|l| l + "\n")
            .collect();
        let ours = print_latex_figure(&figure, None);
        let (ol, wl): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), want.lines().collect());
        for (i, (o, w)) in ol.iter().zip(&wl).enumerate() {
            assert_eq!(o, w, "{}: line {}", figure.title(), i + 1);
        }
        assert_eq!(ol.len(), wl.len());
        assert!(ours == want);
    }
}

/// Checks a figure's SVG against the TV layouts it draws: well-formed XML,
/// one rect per cell of each panel (A + B + C, or S + D), each at its
/// panel's row and column, and each cell's label the (thread, value) that
/// owns the element (the first to reach it). Returns the rects counted.
fn check_figure_svg(svg: &str, panels: &[(&str, &Layout, i64, i64, bool)]) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let mut total = 0;
    for &(name, tv, rows, cols, transposed) in panels {
        let by_id = |id: String| doc.descendants().find(|n| n.attribute("id") == Some(id.as_str()));
        let cells = by_id(format!("cells-{name}")).unwrap_or_else(|| panic!("cells of {name}"));
        let rects: Vec<_> = cells.children().filter(|n| n.is_element()).collect();
        assert_eq!(rects.len() as i64, rows * cols, "{name}: one rect per cell");
        total += rects.len();
        // The layout's tile is (rows, cols), or (cols, rows) for B, drawn transposed.
        let tile_rows = if transposed { cols } else { rows };
        let owner = owners(tv, rows * cols);
        let owner_at = |m: i64, n: i64| {
            let (i, j) = if transposed { (n, m) } else { (m, n) };
            owner[(i + tile_rows * j) as usize]
        };
        let mut want = Vec::new();
        for (k, r) in rects.iter().enumerate() {
            let (m, n) = ((k as i64) / cols, (k as i64) % cols);
            let attr = |a: &str| r.attribute(a).unwrap().parse::<i64>().unwrap();
            assert_eq!((attr("data-m"), attr("data-n")), (m, n), "{name}: rects row by row");
            let (t, v) = owner_at(m, n).expect("every cell owned");
            want.push(format!("T{t}"));
            want.push(format!("V{v}"));
        }
        let labels = by_id(format!("labels-{name}")).unwrap_or_else(|| panic!("labels of {name}"));
        let texts: Vec<String> =
            labels.children().filter(|n| n.is_element()).map(|n| n.text().unwrap_or("").to_string()).collect();
        assert_eq!(texts, want, "{name}: each cell labelled with its owner");
        // Same thread, same fill; a colour per thread (128 threads: hues of their own).
        let mut fill_of: HashMap<i64, &str> = HashMap::new();
        for (k, r) in rects.iter().enumerate() {
            let (t, _) = owner_at(k as i64 / cols, k as i64 % cols).unwrap();
            let f = r.attribute("fill").unwrap();
            assert_eq!(*fill_of.entry(t).or_insert(f), f, "{name}: thread {t} in two colours");
        }
    }
    total
}

#[test]
fn svg_of_a_tiled_mma_labels_every_cell_with_its_owner() {
    let mma = sm80_2x2x1();
    let (m, n, k) = mma.tile_size_mnk();
    let figure = Figure::of_mma(&mma).unwrap();
    let svg = print_svg_figure(&figure, None);
    let total = check_figure_svg(
        &svg,
        &[
            ("A", mma.layout_a_tv(), m, k, false),
            ("B", mma.layout_b_tv(), k, n, true),
            ("C", mma.layout_c_tv(), m, n, false),
        ],
    );
    assert_eq!(total as i64, m * k + k * n + m * n);
    // CuTe's layout: A left of C, B above it, aligned with C's rows and columns.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let rect = |name: &str, i: usize| {
        let g = doc.descendants().find(|x| x.attribute("id") == Some(&format!("cells-{name}")[..])).unwrap();
        let r = g.children().filter(|x| x.is_element()).nth(i).unwrap();
        (r.attribute("x").unwrap().parse::<i64>().unwrap(), r.attribute("y").unwrap().parse::<i64>().unwrap())
    };
    let (c00, a00, b00) = (rect("C", 0), rect("A", 0), rect("B", 0));
    assert_eq!(a00.1, c00.1, "A's row 0 is C's row 0");
    assert_eq!(b00.0, c00.0, "B's column 0 is C's column 0");
    assert!(a00.0 < c00.0 && b00.1 < c00.1, "A on the left, B on top");
    // The TikZ has a node per cell, the HTML page embeds the SVG.
    let tex = print_latex_figure(&figure, None);
    assert_eq!(tex.lines().filter(|l| l.starts_with("\\node[fill=")).count() as i64, m * k + k * n + m * n);
    let page = print_html_figure(&figure, Some(0));
    assert!(!page.contains("http:") && !page.contains("https:"));
    assert_eq!(page.matches("<svg").count(), 1);
    let lit = print_svg_figure(&figure, Some(0));
    assert!(lit.contains("fill=\"#2050e0\""), "thread 0 highlighted");
}

#[test]
fn svg_of_a_tiled_copy_draws_source_and_destination() {
    let copy = ldsm_32x8();
    let figure = Figure::of_copy(&copy).unwrap();
    let svg = print_svg_figure(&figure, None);
    let total =
        check_figure_svg(&svg, &[("S", copy.layout_s_tv(), 32, 8, false), ("D", copy.layout_d_tv(), 32, 8, false)]);
    assert_eq!(total, 2 * 32 * 8);
    let tex = print_latex_figure(&figure, None);
    assert_eq!(tex.lines().filter(|l| l.starts_with("\\node[fill=")).count(), 2 * 32 * 8);
    // 32 threads: each a colour of its own.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let fills: BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("data-m").is_some())
        .map(|n| n.attribute("fill").unwrap())
        .collect();
    assert_eq!(fills.len(), 32);
}

/// A figure too large for labels (SM90's 128x8x16 tile over 256 threads)
/// is small squares, still one per cell.
#[test]
fn large_figures_are_small_squares() {
    let atom = MmaAtom::gpu("SM90_64x8x16_F32F16F16_SS").unwrap();
    let mma = make_tiled_mma(&atom, &lay("2:1"), None).unwrap();
    let figure = Figure::of_mma(&mma).unwrap();
    let svg = print_svg_figure(&figure, None);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(doc.descendants().all(|n| n.attribute("id") != Some("labels-C")));
    let rects = doc.descendants().filter(|n| n.has_tag_name("rect") && n.attribute("data-m").is_some()).count();
    assert_eq!(rects, 128 * 16 + 16 * 8 + 128 * 8);
}
