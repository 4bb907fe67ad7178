//! End-to-end tests of `cute --mma` and `cute --copy`: the text is CuTe's
//! (`tests/golden/cute_atoms.txt`, printed by CuTe itself, compared once its
//! static `_` marker is taken off), the pictures are drawn, and bad input is
//! a sentence with status 2.

use crate::common::{cute, stderr, stdout};

fn golden(file: &str) -> String {
    let path = format!("{}/../tests/golden/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lines of the golden section `== name`.
fn section(name: &str) -> Vec<String> {
    let text = golden("cute_atoms.txt");
    let header = format!("== {name}");
    let mut lines = text.lines().skip_while(|l| *l != header);
    assert!(lines.next().is_some(), "no section {header}");
    lines.take_while(|l| !l.starts_with("== ")).map(String::from).collect()
}

/// CuTe's text without the static marker: `_4` is `4`, a lone `_` stays.
fn unmark(text: &str) -> String {
    let b = text.as_bytes();
    text.char_indices()
        .filter(|&(i, c)| {
            let marker = c == '_' && b.get(i + 1).is_some_and(|n| n.is_ascii_digit());
            !(marker && (i == 0 || !b[i - 1].is_ascii_alphanumeric()))
        })
        .map(|(_, c)| c)
        .collect()
}

/// `cute ARGS` succeeds; its lines are the golden section's (the thread
/// coordinates left out), but for the atom's header, which names it.
#[track_caller]
fn assert_cutes_text(args: &[&str], name: &str, atom_header: &str) {
    let o = cute(args);
    assert_eq!(o.status.code(), Some(0), "cute {args:?}: {}", stderr(&o));
    let ours = stdout(&o);
    let want: Vec<String> = section(name)
        .iter()
        .filter(|l| !l.starts_with("get_slice(") && !l.starts_with("thr_layout_vmnk:") && !l.starts_with("Tiler_MN:"))
        .map(|l| unmark(l))
        .collect();
    let ours: Vec<&str> = ours.lines().collect();
    assert_eq!(ours.len(), want.len(), "{ours:#?}");
    for (i, (o, w)) in ours.iter().zip(&want).enumerate() {
        if w == "MMA_Atom" || w == "Copy_Atom" {
            assert_eq!(*o, format!("{w} {atom_header}"), "line {i}");
        } else {
            assert_eq!(o, w, "cute {args:?}, line {i}");
        }
    }
}

#[test]
fn mma_prints_cutes_tiled_mma() {
    assert_cutes_text(
        &["--mma", "SM80_16x8x16_F32F16F16F32_TN", "--atom-layout", "(2,2,1)"],
        "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})",
        "SM80_16x8x16_F32F16F16F32_TN",
    );
    assert_cutes_text(
        &[
            "--mma",
            "SM70_8x8x4_F32F16F16F32_NT",
            "--atom-layout",
            "(2,2):(2,1)",
            "--permutation",
            "<(4,4,2):(1,8,4),32,4>",
        ],
        "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{}, \
         Tile<Layout<Shape<_4,_4,_2>,Stride<_1,_8,_4>>,_32,_4>{})",
        "SM70_8x8x4_F32F16F16F32_NT",
    );
    // One atom by default.
    assert_cutes_text(
        &["--mma", "SM70_8x8x4_F32F16F16F32_NT"],
        "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{})",
        "SM70_8x8x4_F32F16F16F32_NT",
    );
    let o = cute(&["--mma", "SimdFMA<4>", "--atom-layout", "(1,8)"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("tile_size_mnk: (4,8,1)\n"), "{}", stdout(&o));
}

#[test]
fn copy_prints_cutes_tiled_copy() {
    assert_cutes_text(
        &["--copy", "SM75_U32x4_LDSM_N", "--thr-layout", "(32,1)", "--val-layout", "(1,8)"],
        "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{})",
        "SM75_U32x4_LDSM_N",
    );
    assert_cutes_text(
        &[
            "--copy",
            "UniversalCopy<uint128_t>",
            "--thr-layout",
            "(32,8)",
            "--val-layout",
            "(4,1)",
            "--value-bits",
            "32",
        ],
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})",
        "UniversalCopy<uint128_t>",
    );
    assert_cutes_text(
        &["--copy", "UniversalCopy<uint128_t>", "--thr-layout", "(16,8):(8,1)", "--val-layout", "(1,8)"],
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, \
         Layout<Shape<_1,_8>>{})",
        "UniversalCopy<uint128_t>",
    );
}

/// `--latex` is CuTe's `print_latex` byte for byte (its comment lines
/// without the static marker); `--svg` has a cell per element of each
/// panel; `--html` embeds it.
#[test]
fn pictures_of_a_tiled_mma_and_copy() {
    for (args, tex, cells) in [
        (
            &["--mma", "SM80_16x8x16_F32F16F16F32_TN", "--atom-layout", "(2,2,1)"][..],
            "cute_latex_mma.tex",
            32 * 16 + 16 * 16 + 32 * 16,
        ),
        (
            &["--copy", "SM75_U32x4_LDSM_N", "--thr-layout", "(32,1)", "--val-layout", "(1,8)"][..],
            "cute_latex_copy.tex",
            2 * 32 * 8,
        ),
    ] {
        let run = |format: &str| {
            let o = cute(&[args, &[format]].concat());
            assert_eq!(o.status.code(), Some(0), "{args:?} {format}: {}", stderr(&o));
            stdout(&o)
        };
        let want: String =
            golden(tex).lines().map(|l| if l.starts_with('%') { unmark(l) } else { l.to_string() } + "\n").collect();
        assert!(run("--latex") == want, "{args:?}: --latex is not CuTe's print_latex");
        let svg = run("--svg");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(svg.matches("<rect ").count(), 1 + cells, "background and one rect per cell");
        assert_eq!(svg.matches(" data-m=").count(), cells);
        let page = run("--html");
        assert!(page.starts_with("<!DOCTYPE html>") && !page.contains("http:") && page.matches("<svg").count() == 1);
    }
    let o = cute(&["--mma", "SM80_16x8x8_F32F16F16F32_TN", "--svg", "--highlight-thread", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("fill=\"#2050e0\"").count(), 4 + 2 + 4, "thread 3's C, B and A cells");
}

/// Bad input: a sentence on stderr, status 2, nothing on stdout.
#[test]
fn atom_errors_are_sentences() {
    for (args, needle) in [
        (&["--mma", "SM80_16x8x32"][..], "the GPU atoms known are SM70_8x8x4_F32F16F16F32_NT"),
        (&["--mma", "SM80_16x8x8_F32F16F16F32_TN", "--atom-layout", "(2,2,2,2)"][..], "expected rank 3"),
        (&["--mma", "SM80_16x8x8_F32F16F16F32_TN", "--permutation", "<24>"][..], "is not a multiple of 16"),
        (&["--mma", "SM80_16x8x8_F32F16F16F32_TN", "--permutation", "<16:2>"][..], "not a bijection"),
        (&["--mma", "SM80_16x8x8_F32F16F16F32_TN", "--atom-layout", "Sw<3,4,3>"][..], "must be a layout or a shape"),
        (
            &["--copy", "SM75_U32x4_LDSM_N", "--thr-layout", "16", "--val-layout", "(1,8)"][..],
            "16 is not a multiple of 32",
        ),
        (&["--copy", "SM90_TMA_LOAD", "--thr-layout", "16", "--val-layout", "8"][..], "SM75_U32x4_LDSM_N"),
        (
            &["--copy", "SM75_U32x4_LDSM_N", "--thr-layout", "32", "--val-layout", "8", "--value-bits", "64"][..],
            "64-bit values",
        ),
        (&["--mma", "UniversalFMA", "--svg", "--highlight-thread", "1"][..], "the thread indices are 0..1"),
    ] {
        let o = cute(args);
        assert_eq!(o.status.code(), Some(2), "cute {args:?}: {}", stdout(&o));
        assert_eq!(stdout(&o), "");
        let err = stderr(&o);
        assert!(err.starts_with("error: ") && err.contains(needle), "cute {args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
    }
    // An expression error points into the option's text.
    let o = cute(&["--mma", "UniversalFMA", "--atom-layout", "(2,2"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "in --atom-layout: error: expected ',' or ')' at column 5, found end of input\n  (2,2\n      ^\n"
    );
    // Missing or conflicting options are clap's errors (status 2).
    for args in [
        &["--copy", "SM75_U32x4_LDSM_N", "--thr-layout", "32"][..],
        &["--mma", "UniversalFMA", "4:1"][..],
        &["--mma", "UniversalFMA", "--show"][..],
        &["--atom-layout", "(2,2,1)", "4:1"][..],
        &["--permutation", "<4>", "4:1"][..],
        &["--value-bits", "32", "--svg", "4:1"][..],
        &["--mma", "UniversalFMA", "--copy", "SM75_U32x4_LDSM_N", "--thr-layout", "32", "--val-layout", "8"][..],
    ] {
        let o = cute(args);
        assert_eq!(o.status.code(), Some(2), "cute {args:?}: {}", stdout(&o));
        assert_eq!(stdout(&o), "");
    }
}

#[test]
fn help_describes_the_atoms() {
    let help = stdout(&cute(&["--help"]));
    for needle in [
        "--mma <ATOM>",
        "--atom-layout <L>",
        "--permutation <T>",
        "--copy <ATOM>",
        "--thr-layout <THR>",
        "--val-layout <VAL>",
        "--value-bits <N>",
        "SM80_16x8x16_F32F16F16F32_TN",
        "SM75_U32x4_LDSM_N",
        "SimdFMA<W>",
        "UniversalCopy<uintB_t>",
    ] {
        assert!(help.contains(needle), "help lacks {needle}:\n{help}");
    }
}
