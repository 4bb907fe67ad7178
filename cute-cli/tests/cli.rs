//! End-to-end tests of the `cute` binary: the "Must show" lines of the core
//! issue, the error report with its caret, `--batch`, `--show` against CuTe's
//! `print_layout`, and the examples printed by `--help` and in the README.

use crate::common::{cute, cute_with_input, stderr, stdout};
use cute_dynamic::{IntTuple, Layout};
use std::io::Write;
use std::process::{Command, Stdio};

/// `cute EXPR` succeeds and prints exactly `expected` on one line.
#[track_caller]
fn assert_value(expr: &str, expected: &str) {
    let o = cute(&[expr]);
    assert_eq!(o.status.code(), Some(0), "cute '{expr}' failed: {}", stderr(&o));
    assert_eq!(stdout(&o), format!("{expected}\n"), "cute '{expr}'");
    assert_eq!(stderr(&o), "", "cute '{expr}' wrote to stderr");
}

/// `cute EXPR` fails with status 2, nothing on stdout, and a three-line
/// report: the message, the expression, and a caret under `column`.
/// Returns the message.
#[track_caller]
fn assert_error(expr: &str, column: usize) -> String {
    let o = cute(&[expr]);
    assert_eq!(o.status.code(), Some(2), "cute '{expr}' should fail; stdout: {}", stdout(&o));
    assert_eq!(stdout(&o), "", "cute '{expr}' printed a value");
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "report of '{expr}':\n{err}");
    let message = lines[0].strip_prefix("error: ").unwrap_or_else(|| panic!("no 'error: ' prefix: {err}"));
    assert_eq!(lines[1], format!("  {expr}"), "the report shows the expression");
    assert_eq!(lines[2], format!("  {}^", " ".repeat(column - 1)), "caret of '{expr}':\n{err}");
    message.to_string()
}

// --- Must show (issue 2) ---------------------------------------------------

#[test]
fn must_show_composition() {
    assert_value("composition((6,2):(8,2), (4,3):(3,1))", "((2,2),3):((24,2),8)");
}

#[test]
fn must_show_complement() {
    assert_value("complement(4:2, 24)", "(2,3):(1,8)");
}

#[test]
fn must_show_apparent_violation() {
    assert_value("composition((4,2,8):(3,12,97), 3:3)", "3:9");
}

#[test]
fn must_show_stride_divisibility_error() {
    let m = assert_error("composition((4,6,8):(2,3,5), 6:3)", 1);
    assert!(m.contains("stride divisibility condition"), "{m}");
}

#[test]
fn must_show_shape_divisibility_error() {
    let m = assert_error("composition((4,6,8):(2,3,5), 6:1)", 1);
    assert!(m.contains("shape divisibility condition"), "{m}");
}

// --- Error reports -----------------------------------------------------------

#[test]
fn syntax_error_caret_points_at_the_column() {
    // Column 25 is the '(' where ',' or ')' was expected.
    let expr = "composition((4,2):(1,2) (3):1)";
    assert_eq!(&expr[24..25], "(");
    let m = assert_error(expr, 25);
    assert!(m.contains("column 25"), "{m}");
    assert!(m.contains("expected ',' or ')'"), "{m}");

    // An unterminated call: the caret goes just past the end.
    let m = assert_error("size((4,8):(1,4)", 17);
    assert!(m.contains("end of input"), "{m}");

    // A nested error points inside the nested call.
    let expr = "size(coalesce((4,8):(1,4,)))";
    let m = assert_error(expr, expr.find(",)").map_or(0, |i| i + 2));
    assert!(m.contains("column"), "{m}");
}

#[test]
fn unknown_operation_points_at_its_name() {
    let m = assert_error("size(frobnicate(4:1))", 6);
    assert!(m.contains("unknown operation 'frobnicate'"), "{m}");
}

#[test]
fn blank_expression_is_an_error() {
    let m = assert_error("  ", 1);
    assert_eq!(m, "empty expression");
}

#[test]
fn non_ascii_input_does_not_panic_and_the_caret_counts_characters() {
    // 'é' is two bytes; the error is at byte column 6 (the 'é'), which is
    // the sixth character, so the caret has five blanks before it.
    let o = cute(&["size(é)"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.get(1), Some(&"  size(é)"), "{err}");
    assert_eq!(lines.get(2), Some(&"       ^"), "{err}");

    // Text after a multi-byte character: byte columns are past characters.
    let o = cute(&["«(4,8):(1,4)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn a_newline_inside_the_expression_keeps_the_report_on_three_lines() {
    let o = cute(&["size(\n(4,8):(1,4)"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 3, "{err}");
    assert!(err.lines().nth(1).is_some_and(|l| l == "  size( (4,8):(1,4)"), "{err}");
}

#[test]
fn bad_arguments_exit_2_with_a_clear_message() {
    for args in [&["--batch", "--show"][..], &["--batch", "8:1"][..]] {
        let o = cute(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("cannot be used with"), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "");
    }
    let o = cute(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("EXPR"), "{}", stderr(&o));
    let o = cute(&["--frobnicate", "8:1"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn negative_numbers_are_expressions_not_options() {
    assert_value("-3", "-3");
    assert_value("4:-1", "4:-1");
}

// --- Batch ----------------------------------------------------------------

#[test]
fn batch_writes_one_line_per_input_line() {
    let input = "composition((6,2):(8,2), (4,3):(3,1))\n\
                 rank(4:1\n\
                 \n\
                 composition((4,6,8):(2,3,5), 6:3)\n\
                 complement(4:2, 24)\r\n\
                 size(frobnicate(1))\n\
                 \t  \n\
                 size((4,8):(1,4))";
    let o = cute_with_input(&["--batch"], input.as_bytes());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), input.lines().count(), "{out}");
    assert_eq!(lines[0], "((2,2),3):((24,2),8)");
    assert_eq!(lines[1], "error: expected ',' or ')' at column 9, found end of input");
    assert_eq!(lines[2], "error: empty expression");
    assert!(lines[3].starts_with("error: stride divisibility condition"), "{}", lines[3]);
    assert_eq!(lines[4], "(2,3):(1,8)", "a CRLF line ending is accepted");
    assert!(lines[5].starts_with("error: unknown operation 'frobnicate'"), "{}", lines[5]);
    assert_eq!(lines[6], "error: empty expression");
    assert_eq!(lines[7], "32", "a last line without a newline is evaluated");
    assert!(out.ends_with('\n'));
    // Some lines were errors: status 2, and nothing on stderr.
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "");
}

#[test]
fn batch_of_good_lines_exits_0_and_empty_input_prints_nothing() {
    let o = cute_with_input(&["--batch"], b"size(8:1)\nrank((2,3))\n");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "8\n2\n");
    let o = cute_with_input(&["--batch"], b"");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
}

#[test]
fn batch_survives_invalid_utf8_and_long_input() {
    let mut input = b"size(8:1)\n\xff\xfe(4,8)\nsize(\xc3\xa9)\n".to_vec();
    for i in 1..=1000 {
        input.extend_from_slice(format!("size({i}:1)\n").as_bytes());
    }
    let o = cute_with_input(&["-b"], &input);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1003);
    assert_eq!(lines[0], "8");
    assert_eq!(lines[1], "error: line is not valid UTF-8");
    assert!(lines[2].starts_with("error: "), "{}", lines[2]);
    assert_eq!(lines[1002], "1000");
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn closed_stdout_ends_quietly() {
    // The reader goes away before (or while) cute writes: no panic, status 0.
    let mut child = Command::new(env!("CARGO_BIN_EXE_cute"))
        .arg("--batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cute");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        for _ in 0..20_000 {
            if stdin.write_all(b"composition((6,2):(8,2), (4,3):(3,1))\n").is_err() {
                break;
            }
        }
    });
    let o = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");

    let mut child = Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(["--show", "(64,64):(64,1)"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cute");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

// --- Show -------------------------------------------------------------------

#[test]
fn show_is_cute_print_layout_byte_for_byte() {
    let o = cute(&["--show", "(2,2):(1,2)"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "(2,2):(1,2)\n      0   1 \n    +---+---+\n 0  | 0 | 2 |\n    +---+---+\n 1  | 1 | 3 |\n    +---+---+\n"
    );
}

/// The cells of a `print_layout` grid, row by row, after checking the frame:
/// the layout line, the column header, and a rule above every row and below
/// the last one.
fn grid_cells(text: &str, layout_line: &str) -> Vec<Vec<i64>> {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.first(), Some(&layout_line), "{text}");
    let header: Vec<i64> = lines[1].split_whitespace().map(|s| s.parse().expect("column index")).collect();
    let cols = header.len();
    assert_eq!(header, (0..cols as i64).collect::<Vec<_>>(), "{text}");
    let body = &lines[2..];
    assert_eq!(body.len() % 2, 1, "{text}");
    let mut rows = Vec::new();
    for (k, line) in body.iter().enumerate() {
        if k % 2 == 0 {
            assert!(line.starts_with("    +") && line.ends_with('+'), "rule: {line}");
            assert_eq!(line.matches('+').count(), cols + 1, "rule: {line}");
        } else {
            let (label, cells) = line.split_once('|').expect("row label");
            assert_eq!(label.trim().parse::<usize>().ok(), Some(rows.len()), "row label: {line}");
            let cells: Vec<i64> = cells
                .trim_end_matches('|')
                .split('|')
                .map(|c| c.trim().parse().unwrap_or_else(|_| panic!("cell '{c}' in {line}")))
                .collect();
            assert_eq!(cells.len(), cols, "{line}");
            rows.push(cells);
        }
    }
    rows
}

#[test]
fn show_grid_matches_the_layouts_own_evaluation() {
    for (expr, printed) in [
        ("composition((6,2):(8,2), (4,3):(3,1))", "((2,2),3):((24,2),8)"),
        ("(4,(2,3)):(2,(1,8))", "(4,(2,3)):(2,(1,8))"),
        ("((2,2),(4,2)):((1,8),(2,16))", "((2,2),(4,2)):((1,8),(2,16))"),
        ("(3,5):(-1,7)", "(3,5):(-1,7)"),
    ] {
        let o = cute(&["--show", expr]);
        assert_eq!(o.status.code(), Some(0), "{expr}: {}", stderr(&o));
        let cells = grid_cells(&stdout(&o), printed);
        let layout: Layout = printed.parse().expect("layout");
        let rows = layout.get(0).expect("mode 0").size();
        let cols = layout.get(1).expect("mode 1").size();
        assert_eq!(cells.len() as i64, rows, "{expr}");
        for (m, row) in cells.iter().enumerate() {
            assert_eq!(row.len() as i64, cols, "{expr}");
            for (n, &cell) in row.iter().enumerate() {
                // A rank-2 coordinate (m, n): rows are mode 0, columns mode 1.
                let c: IntTuple = format!("({m},{n})").parse().expect("coordinate");
                assert_eq!(cell, layout.eval_coord(&c).expect("in bounds"), "{expr} at ({m},{n})");
            }
        }
    }
}

/// Paper Figure 10: the `blocked_product` of the row-major (3,4):(4,1) tile
/// with the column-major (2,5):(1,2) tiling, row by row (copied from the
/// CuTe paper, section 3.5.1).
const FIGURE_10: &str = "\
0 1 2 3 24 25 26 27 48 49 50 51 72 73 74 75 96 97 98 99
4 5 6 7 28 29 30 31 52 53 54 55 76 77 78 79 100 101 102 103
8 9 10 11 32 33 34 35 56 57 58 59 80 81 82 83 104 105 106 107
12 13 14 15 36 37 38 39 60 61 62 63 84 85 86 87 108 109 110 111
16 17 18 19 40 41 42 43 64 65 66 67 88 89 90 91 112 113 114 115
20 21 22 23 44 45 46 47 68 69 70 71 92 93 94 95 116 117 118 119";

/// Paper Figure 11: the `raked_product` of the same two layouts.
const FIGURE_11: &str = "\
0 24 48 72 96 1 25 49 73 97 2 26 50 74 98 3 27 51 75 99
12 36 60 84 108 13 37 61 85 109 14 38 62 86 110 15 39 63 87 111
4 28 52 76 100 5 29 53 77 101 6 30 54 78 102 7 31 55 79 103
16 40 64 88 112 17 41 65 89 113 18 42 66 90 114 19 43 67 91 115
8 32 56 80 104 9 33 57 81 105 10 34 58 82 106 11 35 59 83 107
20 44 68 92 116 21 45 69 93 117 22 46 70 94 118 23 47 71 95 119";

#[test]
fn show_of_blocked_and_raked_products_is_paper_figures_10_and_11() {
    for (op, figure) in [("blocked_product", FIGURE_10), ("raked_product", FIGURE_11)] {
        let expr = format!("{op}((3,4):(4,1), (2,5):(1,2))");
        let value = cute(&[&expr]);
        assert_eq!(value.status.code(), Some(0), "{expr}: {}", stderr(&value));
        let printed = stdout(&value);
        let o = cute(&["--show", &expr]);
        assert_eq!(o.status.code(), Some(0), "{expr}: {}", stderr(&o));
        let cells = grid_cells(&stdout(&o), printed.trim_end());
        let expected: Vec<Vec<i64>> = figure
            .lines()
            .map(|row| row.split_whitespace().map(|v| v.parse().expect("figure cell")).collect())
            .collect();
        assert_eq!(cells, expected, "{expr} against the paper's figure");
    }
}

#[test]
fn show_draws_rank_1_as_one_row_and_higher_ranks_as_the_pictures_do() {
    for expr in ["8:3", "(3):(5)", "(2,2,2):(4,2,1)", "(2,3,4):(1,2,6)"] {
        let o = cute(&["--show", expr]);
        assert_eq!(o.status.code(), Some(0), "{expr}");
        let cells = grid_cells(&stdout(&o), expr);
        let layout: Layout = expr.parse().expect("layout");
        if layout.rank() == 1 {
            let expected: Vec<i64> = (0..layout.size()).map(|i| layout.eval(i).expect("in bounds")).collect();
            assert_eq!(cells, vec![expected], "{expr}");
        } else {
            // Mode 0 down, the rest across: the grid the SVG picture draws.
            let g = cute_dynamic::Grid::of_layout(&layout).expect("a grid");
            let expected: Vec<Vec<i64>> =
                (0..g.rows()).map(|m| (0..g.cols()).map(|n| g.cell(m, n).offset).collect()).collect();
            assert_eq!(cells, expected, "{expr}");
            assert_eq!(cells.len() as i64, layout.get(0).expect("mode 0").size(), "{expr}");
        }
    }
}

#[test]
fn show_of_a_slice_prints_the_value_then_the_sublayout_grid() {
    let o = cute(&["--show", "slice(((3,2),((2,3),2)):((4,1),((2,15),100)), (2,((0,_),_)))"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let (first, rest) = out.split_once('\n').expect("two parts");
    assert_eq!(first, "{8} o (3,2):(15,100)");
    let cells = grid_cells(rest, "(3,2):(15,100)");
    assert_eq!(cells, vec![vec![0, 100], vec![15, 115], vec![30, 130]]);
}

#[test]
fn show_of_other_values_prints_just_the_value() {
    let o = cute(&["--show", "size((4,8):(1,4))"]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), "32\n".to_string()));
    let o = cute(&["-s", "shape((4,8):(1,4))"]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), "(4,8)\n".to_string()));
}

#[test]
fn show_of_a_huge_layout_prints_the_value_and_a_note() {
    let o = cute(&["--show", "(2048,1024):(1,2048)"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "(2048,1024):(1,2048)\n");
    assert!(stderr(&o).contains("not drawing"), "{}", stderr(&o));
}

// --- Help and README --------------------------------------------------------

/// Commands `$ cute 'EXPR'` (no other arguments) followed by their one-line
/// output in `text`, as the help and the README write them.
fn documented_examples(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut found = Vec::new();
    for w in lines.windows(2) {
        if let Some(expr) = w[0].strip_prefix("$ cute '").and_then(|r| r.strip_suffix('\''))
            && !w[1].starts_with('$')
            && !w[1].is_empty()
            && !expr.contains('\'')
        {
            found.push((expr.to_string(), w[1].to_string()));
        }
    }
    found
}

#[test]
fn help_has_examples_and_they_are_right() {
    let o = cute(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let help = stdout(&o);
    for needle in ["--show", "--batch", "Examples:", "cute --show 'composition((6,2):(8,2), (4,3):(3,1))'"] {
        assert!(help.contains(needle), "help lacks {needle}:\n{help}");
    }
    let examples = documented_examples(&help);
    assert!(examples.len() >= 4, "{examples:?}");
    for (expr, expected) in examples {
        assert_value(&expr, &expected);
    }
    // The batch example of the help, run as shown.
    let o = cute_with_input(&["--batch"], b"size((4,8):(1,4))\nrank(4:1\n");
    let shown: String = stdout(&o).lines().map(|l| format!("  {l}\n")).collect();
    assert!(help.contains(&shown), "help's batch example is stale: {shown}");
}

/// The `$ COMMAND` lines of the ```` ```console ```` blocks of a Markdown
/// text, each with the lines that follow it (up to the next command or the
/// end of the block): what the command printed.
fn console_examples(markdown: &str) -> Vec<(String, Vec<String>)> {
    let mut found: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_console = false;
    let mut current: Option<(String, Vec<String>)> = None;
    for line in markdown.lines() {
        if line.starts_with("```") {
            found.extend(current.take());
            in_console = line.starts_with("```console");
        } else if !in_console {
        } else if let Some(cmd) = line.strip_prefix("$ ") {
            found.extend(current.take());
            current = Some((cmd.to_string(), Vec::new()));
        } else if let Some((_, out)) = current.as_mut() {
            out.push(line.to_string());
        }
    }
    found.extend(current);
    found
}

#[test]
fn every_operation_the_help_names_is_known() {
    let help = stdout(&cute(&["--help"]));
    let list: String = help
        .lines()
        .skip_while(|l| !l.starts_with("Operations"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect::<Vec<_>>()
        .join(" ");
    let names: Vec<&str> = list.split_whitespace().collect();
    assert!(names.len() >= 30, "{names:?}");
    for name in names {
        let o = cute(&[&format!("{name}()")]);
        assert!(!stderr(&o).contains("unknown operation"), "help names '{name}': {}", stderr(&o));
    }
}

#[test]
fn readme_examples_are_right() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(path).expect("README.md at the repository root");
    let examples = console_examples(&readme);
    assert!(examples.len() >= 30, "README has few checkable examples: {examples:?}");
    assert!(readme.contains("cargo run --release -p cute-cli -- --show 'composition((6,2):(8,2), (4,3):(3,1))'"));
    assert!(readme.contains("cargo test --workspace"));
    // Run each command as a shell would, with this build's `cute` first on
    // the PATH, stdout and stderr together, as the README shows them.
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_cute")).parent().expect("bin dir").to_path_buf();
    let path_var = std::env::join_paths(
        std::iter::once(bin_dir).chain(std::env::var_os("PATH").iter().flat_map(std::env::split_paths)),
    )
    .expect("PATH");
    for (cmd, expected) in examples {
        let o = Command::new("bash")
            .args(["-c", &format!("{cmd} 2>&1")])
            .env("PATH", &path_var)
            .stdin(Stdio::null())
            .output()
            .expect("run bash");
        let printed = String::from_utf8_lossy(&o.stdout);
        // Trailing blanks (CuTe's grid has some) may be lost by editors.
        let printed: Vec<&str> = printed.lines().map(str::trim_end).collect();
        let expected: Vec<&str> = expected.iter().map(|l| l.trim_end()).collect();
        assert_eq!(printed, expected, "README example `{cmd}`");
    }
}

// --- Pictures -----------------------------------------------------------------

/// `cute ARGS` succeeds; its stdout.
#[track_caller]
fn drawn(args: &[&str]) -> String {
    let o = cute(args);
    assert_eq!(o.status.code(), Some(0), "cute {args:?}: {}", stderr(&o));
    assert_eq!(stderr(&o), "", "cute {args:?} wrote to stderr");
    stdout(&o)
}

#[test]
fn svg_html_latex_draw_the_value_as_the_library_does() {
    use cute_dynamic::{Grid, print_html, print_latex, print_svg};
    let expr = "raked_product((3,4):(4,1), (2,5):(1,2))";
    let layout: Layout = stdout(&cute(&[expr])).trim().parse().expect("a layout");
    let grid = Grid::of_layout(&layout).expect("a grid");
    assert_eq!(drawn(&["--svg", expr]), print_svg(&grid, None));
    assert_eq!(drawn(&["--html", expr]), print_html(&grid, None));
    assert_eq!(drawn(&["--latex", expr]), print_latex(&grid, None));
    // A slice draws its sublayout, as --show does.
    let sub: Layout = "(3,2):(15,100)".parse().expect("layout");
    let svg = drawn(&["--svg", "slice(((3,2),((2,3),2)):((4,1),((2,15),100)), (2,((0,_),_)))"]);
    assert_eq!(svg, print_svg(&Grid::of_layout(&sub).expect("grid"), None));
}

#[test]
fn tv_flag_is_make_layout_tv() {
    use cute_dynamic::{Grid, make_layout_tv, print_svg};
    let (thr, val) = ("(16,16):(16,1)", "(4,4):(4,1)");
    let by_flag = drawn(&["--svg", "--tv", thr, val, "--highlight-thread", "0"]);
    let by_name = drawn(&["--svg", "--highlight-thread", "0", &format!("make_layout_tv({thr}, {val})")]);
    assert_eq!(by_flag, by_name);
    let (tv, tiler) = make_layout_tv(&thr.parse().expect("thr"), &val.parse().expect("val")).expect("tv");
    assert_eq!(by_flag, print_svg(&Grid::of_tv(&tv, &tiler).expect("grid"), Some(0)));
    assert_eq!(drawn(&["--tv", "(2,3):(3,1)", "(2,2):(2,1)"]), "((3,2),(2,2)):((8,2),(4,1)) on tile (4,6)\n");
    let page = drawn(&["--html", "--tv", thr, val]);
    assert!(page.starts_with("<!DOCTYPE html>") && !page.contains("http"), "a self-contained page");
    let tex = drawn(&["--latex", "--tv", "(2,3):(3,1)", "(2,2):(2,1)"]);
    assert!(tex.starts_with("% Layout TV: ((3,2),(2,2)):((8,2),(4,1))\n\\documentclass[convert]{standalone}"));
}

/// `cute ARGS` fails with status 2, nothing on stdout, and a message on
/// stderr containing `needle`.
#[track_caller]
fn assert_refused(args: &[&str], needle: &str) {
    let o = cute(args);
    assert_eq!(o.status.code(), Some(2), "cute {args:?} should fail; stdout: {}", stdout(&o));
    assert_eq!(stdout(&o), "", "cute {args:?} drew something");
    assert!(stderr(&o).contains(needle), "cute {args:?}: {}", stderr(&o));
}

#[test]
fn values_that_cannot_be_drawn_are_clear_errors() {
    assert_refused(&["--svg", "size(4:1)"], "cannot draw 4: pictures are of a layout");
    assert_refused(&["--html", "shape((4,8):(1,4))"], "cannot draw (4,8)");
    assert_refused(&["--svg", "(512,256):(1,512)"], "at most 65536");
    assert_refused(&["--svg", "--highlight-thread", "1", "4:1"], "4:1 is not a thread-value layout");
    assert_refused(&["--svg", "--highlight-thread", "6", "--tv", "(2,3):(3,1)", "(2,2):(2,1)"], "the threads are 0..6");
    assert_refused(&["--svg", "--tv", "(2,2):(0,1)", "2:1"], "do not tile");
    // A bad expression keeps its caret report.
    let o = cute(&["--svg", "size(4:1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).lines().nth(2).is_some_and(|l| l.trim() == "^"), "{}", stderr(&o));
    // Flags that do not go together.
    for args in [
        &["--svg", "--html", "4:1"][..],
        &["--svg", "--show", "4:1"][..],
        &["--batch", "--svg"][..],
        &["--highlight-thread", "1", "4:1"][..],
        &["--tv", "4:1"][..],
        &["--tv", "4:1", "2:1", "8:1"][..],
    ] {
        let o = cute(args);
        assert_eq!(o.status.code(), Some(2), "cute {args:?}: {}", stdout(&o));
        assert_eq!(stdout(&o), "", "cute {args:?}");
    }
}

#[test]
fn help_describes_the_pictures() {
    let help = stdout(&cute(&["--help"]));
    for needle in
        ["--svg", "--html", "--latex", "--tv <THR> <VAL>", "--highlight-thread <K>", "make_layout_tv", "65536"]
    {
        assert!(help.contains(needle), "help lacks {needle}:\n{help}");
    }
}

/// The README's pictures (`cute ... > docs/NAME.svg` in its `sh` blocks)
/// are what those commands draw now.
#[test]
fn readme_pictures_are_what_their_commands_draw() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let commands: Vec<(&str, &str)> = readme
        .lines()
        .filter(|l| l.starts_with("cute ") && l.contains(" > docs/"))
        .filter_map(|l| l.split_once(" > "))
        .collect();
    assert!(commands.len() >= 3, "{commands:?}");
    for (cmd, file) in commands {
        assert!(readme.contains(&format!("]({file})")), "README shows {file}");
        let o = Command::new("bash")
            .args(["-c", &format!("{} {}", env!("CARGO_BIN_EXE_cute"), &cmd["cute ".len()..])])
            .stdin(Stdio::null())
            .output()
            .expect("run bash");
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        let committed = std::fs::read_to_string(format!("{root}/{file}")).expect("the committed picture");
        assert!(stdout(&o) == committed, "{file} is not what `{cmd}` draws now: regenerate it with that command");
    }
}

/// `--show` and `--banks` with `--tv`, `--show` of an identity layout,
/// `get` past the last mode, errors inside `--tv` arguments, and control
/// characters in the input.
#[test]
fn pictures_and_errors_of_every_input_kind() {
    // --show --tv: the value, then the TV layout's grid.
    let o = cute(&["--show", "--tv", "(2,2):(1,2)", "(2,1):(1,2)"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let (first, rest) = out.split_once('\n').expect("two parts");
    assert_eq!(first, "(4,2):(2,1) on tile (4,2)");
    assert_eq!(grid_cells(rest, "(4,2):(2,1)"), vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]]);
    // --banks --tv reads the TV layout.
    let o = cute(&["--banks", "--tv", "(2,2):(1,2)", "(2,1):(1,2)"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("4 threads x 2 values"), "{}", stdout(&o));
    // --show of an identity layout: its coordinates.
    let o = cute(&["--show", "make_identity_layout((2,3))"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("| (1,2) |"), "{}", stdout(&o));
    let o = cute(&["--svg", "make_identity_layout((2,3))"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("its values are coordinates"), "{}", stderr(&o));
    // get past the last mode names the modes there are.
    let e = assert_error("get((4,8):(1,4), 5)", 1);
    assert!(e.contains("mode 5") && e.contains("modes 0..=1"), "{e}");
    // An error in a --tv argument points into that argument.
    let o = cute(&["--tv", "foo", "(2,1):(1,2)"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "in --tv THR: error: expected '(' after the operation name at column 4, found end of input\n  foo\n     ^\n"
    );
    // Control characters of the input are escaped, never echoed raw.
    let o = cute(&["\u{1b}[31m(4,8)"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(err.contains("\\u{1b}"), "{err:?}");
    let o = cute_with_input(&["--batch"], b"\x00(4,8)\n8:1\n");
    let out = stdout(&o);
    assert!(!out.contains('\u{0}') && out.contains("\\u{0}"), "{out:?}");
    assert!(out.ends_with("\n8:1\n"), "{out:?}");
}
