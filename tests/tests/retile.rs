//! CuTe's `TiledCopy::retile` (`retile_S`, `retile_D`): every case of
//! `tests/golden/cute_retile.txt` (printed by CuTe itself) line for line,
//! and the post-conditions of `TiledCopy::retile` by brute force.

use cute_dynamic::{CopyAtom, IntTuple, Layout, TiledCopy};
use cute_tests::golden_text::{CUTE_RETILE, unmark};

/// One block of the golden file: a tiled copy and its retiled fragments.
struct Block {
    name: String,
    copy: TiledCopy,
    /// `(retile_S or retile_D, input, CuTe's output)`, unmarked.
    cases: Vec<(String, Layout, String)>,
}

fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("parsing {s:?}: {e}"))
}

/// The golden file's blocks, each tiled copy made from its atom, TV layout
/// and tile (`TiledCopy::new`, CuTe's `make_tiled_copy_impl`).
fn blocks() -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut head: Option<(String, Option<CopyAtom>, Option<IntTuple>)> = None;
    for line in CUTE_RETILE.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        if let Some(name) = line.strip_prefix("== ") {
            head = Some((name.to_string(), None, None));
            continue;
        }
        let (key, value) = line.split_once(": ").unwrap_or_else(|| panic!("no key in {line:?}"));
        let h = head.as_mut().expect("a line before the first block");
        match key {
            "atom" => {
                let (op, bits) = value.rsplit_once(' ').unwrap();
                h.1 = Some(CopyAtom::named(op, bits.parse().unwrap()).unwrap());
            }
            "Tiler_MN" => h.2 = Some(unmark(value).parse().unwrap()),
            "TiledLayout_TV" => {
                let atom = h.1.as_ref().expect("atom: before TiledLayout_TV:");
                let tiler = h.2.clone().expect("Tiler_MN: before TiledLayout_TV:");
                let copy = TiledCopy::new(atom, lay(&unmark(value)), tiler).unwrap();
                out.push(Block { name: h.0.clone(), copy, cases: Vec::new() });
            }
            "AtomNumVal" => {
                let b = out.last().unwrap();
                assert_eq!(b.copy.atom().layout_ref_tv().get(1).unwrap().size().to_string(), unmark(value));
            }
            "retile_S" | "retile_D" => {
                let (input, output) = value.split_once(" -> ").unwrap();
                out.last_mut().unwrap().cases.push((key.to_string(), lay(&unmark(input)), unmark(output)));
            }
            _ => panic!("unknown line {line:?}"),
        }
    }
    out
}

#[test]
fn explore() {
    let mut bad = 0;
    let mut n = 0;
    for b in blocks() {
        for (_, input, want) in &b.cases {
            n += 1;
            let got = b.copy.retile(input).map(|l| l.to_string());
            if got.as_deref() != Ok(want.as_str()) {
                bad += 1;
                println!("{}\n  {input} -> ours {got:?}\n          cute {want}", b.name);
            }
        }
    }
    println!("{n} cases, {bad} differ");
    assert_eq!(bad, 0);
}
