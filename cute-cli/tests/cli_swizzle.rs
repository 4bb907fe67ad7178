//! End-to-end tests of `cute` on descriptors (`N@dim`), swizzles, composed
//! layouts and the bank-conflict report (issue "Basis strides, descriptors
//! and swizzles").

use crate::common::{cute, stderr, stdout};

/// `cute ARGS` succeeds and prints exactly `expected`.
#[track_caller]
fn assert_prints(args: &[&str], expected: &str) {
    let o = cute(args);
    assert_eq!(o.status.code(), Some(0), "cute {args:?} failed: {}", stderr(&o));
    assert_eq!(stdout(&o), expected, "cute {args:?}");
}

/// `cute EXPR` fails with status 2 and a report whose caret is under
/// `column`; returns the message line.
#[track_caller]
fn assert_error(expr: &str, column: usize) -> String {
    let o = cute(&[expr]);
    assert_eq!(o.status.code(), Some(2), "cute '{expr}' should fail; stdout: {}", stdout(&o));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert_eq!(lines[1], format!("  {expr}"));
    assert_eq!(lines[2], format!("  {}^", " ".repeat(column - 1)), "caret of '{expr}':\n{err}");
    lines[0].to_string()
}

#[test]
fn descriptors_evaluate_to_normalized_bases() {
    assert_prints(&["(4/2@0, 4@1)"], "(2@0,4@1)\n");
    assert_prints(&["((1@0, 8@1), 1@2)"], "((1@0,8@1),1@2)\n");
    assert_prints(&["(1@0@1)"], "(1@0@1)\n");
    assert_prints(&["()"], "()\n");
}

#[test]
fn non_integral_count_is_an_error_at_its_column() {
    let msg = assert_error("(1/2@0, 4@1)", 2);
    assert!(msg.contains("non-integral count 1/2") && msg.contains("'1/2@0'") && msg.contains("column 2"), "{msg}");
    let msg = assert_error("(1@0, 3/0@1)", 7);
    assert!(msg.contains("zero denominator") && msg.contains("'3/0@1'"), "{msg}");
    // A syntax error is reported at its own column.
    let msg = assert_error("(1@0, 2@)", 9);
    assert!(msg.contains("expected a dimension"), "{msg}");
}

#[test]
fn composition_with_a_swizzle_prints_as_cute() {
    assert_prints(&["composition(Sw<3,4,3>, (8,64):(64,1))"], "Sw<3,4,3> o 0 o (8,64):(64,1)\n");
    assert_prints(&["Sw<3,4,3>"], "Sw<3,4,3>\n");
    assert_prints(&["BitFieldXor<3,4,3>"], "BitFieldXor<3,4,3>\n");
    let msg = assert_error("Sw<3,4,2>", 1);
    assert!(msg.contains("|S| = 2 is less than B = 3"), "{msg}");
}

#[test]
fn show_draws_the_swizzled_grid() {
    let expr = "composition(Sw<3,0,3>, (8,8):(8,1))";
    let o = cute(&["--show", expr]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Sw<3,0,3> o 0 o (8,8):(8,1)");
    // Row r holds r*8 + (c ^ r) in column c: the XOR pattern, drawn.
    for r in 0..8 {
        let cells: String = (0..8).map(|c| format!("| {:>2} ", r * 8 + (c ^ r))).collect();
        assert_eq!(lines[3 + 2 * r as usize], format!("{r:>2}  {cells}|"));
    }
    let c = cute_dynamic::ComposedLayout::compose(
        cute_dynamic::Swizzle::new(3, 0, 3).unwrap(),
        &"(8,8):(8,1)".parse().unwrap(),
    );
    assert_eq!(out, cute_dynamic::print_composed_layout(&c).unwrap());
}

#[test]
fn banks_reports_wavefronts_per_warp() {
    assert_prints(
        &["--banks", "32:32"],
        "32:32\n32 threads x 1 value, 4-byte elements, 32 banks x 4 bytes\nthreads 0-31: 32 wavefronts (ideal 1)\n",
    );
    assert_prints(
        &["--banks", "composition(Sw<3,4,3>, 8:128)", "--elem-bytes", "1"],
        "Sw<3,4,3> o 0 o 8:128\n8 threads x 1 value, 1-byte elements, 32 banks x 4 bytes\nthreads 0-7: 1 wavefront (ideal 1)\n",
    );
    assert_prints(
        &["--banks", "8:128", "--elem-bytes", "1"],
        "8:128\n8 threads x 1 value, 1-byte elements, 32 banks x 4 bytes\nthreads 0-7: 8 wavefronts (ideal 1)\n",
    );
    // Not a layout; --elem-bytes without --banks; a bad element size.
    assert_eq!(cute(&["--banks", "(4,8)"]).status.code(), Some(2));
    assert_eq!(cute(&["--elem-bytes", "4", "8:1"]).status.code(), Some(2));
    assert_eq!(cute(&["--banks", "8:1", "--elem-bytes", "0"]).status.code(), Some(2));
    // Too many accesses to examine: refused, not a hang.
    let o = cute(&["--banks", "(65536,65536):(1,65536)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("more than the limit"), "{}", stderr(&o));
}

#[test]
fn identity_layouts_and_basis_strides() {
    assert_prints(&["make_identity_layout((4,8))"], "(4,8):(1@0,1@1)\n");
    assert_prints(&["composition(make_identity_layout((4,8)), (2,4):(1,4))"], "(2,4):(1@0,1@1)\n");
    assert_prints(
        &["logical_divide(make_identity_layout((1000,500)), <128,64>)"],
        "((128,8),(64,8)):((1@0,128@0),(1@1,64@1))\n",
    );
    assert_prints(&["eval((4,8):(1@0,1@1), 9)"], "(1,2)\n");
    assert_prints(&["right_inverse((4,8):(1@0,1@1))"], "(4,8):(1,4)\n");
    assert_prints(&["left_inverse((4,(4,2)):(1@1,(1@0,6@1)))"], "(4,(6,2)):(4,(1,16))\n");
    assert_prints(&["right_inverse(make_identity_layout((2,(3,4))))"], "(2,(3,4)):(1,(2,6))\n");
    // Basis strides on the right of a composition select modes.
    assert_prints(&["composition((4,4):(4,1), (4,4):(1@1,1@0))"], "(4,4):(1,4)\n");
    assert_prints(&["composition((4,(2,3)):(6,(3,1)), (2,4):(1@1@1,1@0))"], "(2,4):(1,6)\n");
}

/// `--svg`, `--html` and `--latex` draw a swizzled layout as the library's
/// picture of its grid (`Grid::of_composed`).
#[test]
fn pictures_of_a_swizzled_layout() {
    let expr = "composition(Sw<3,0,3>, (8,8):(8,1))";
    let Ok(cute_dynamic::Value::Composed(c)) = cute_dynamic::eval(expr) else { panic!("a composed layout") };
    let grid = cute_dynamic::Grid::of_composed(&c).unwrap();
    assert_prints(&["--svg", expr], &cute_dynamic::print_svg(&grid, None));
    assert_prints(&["--html", expr], &cute_dynamic::print_html(&grid, None));
    assert_prints(&["--latex", expr], &cute_dynamic::print_latex(&grid, None));
}
