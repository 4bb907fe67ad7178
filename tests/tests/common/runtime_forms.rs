//! The check of `runtime_forms.rs` (generated): cute-static's result on
//! run-time leaves against CuTe's text in
//! `tests/golden/cute_runtime_forms.txt`.

use cute_dynamic::Layout;
use std::collections::BTreeMap;

const GOLDEN: &str = include_str!("../../golden/cute_runtime_forms.txt");
/// The cases (`op | A | B`) where CuTe is right and cute-static's text is
/// known to differ still (its function is checked against cute-dynamic's):
/// the work left, which may only shrink (a case listed here that now
/// prints as CuTe's fails the test until it is taken off).
const OPEN: &str = include_str!("../../golden/cute_runtime_forms_open.txt");

/// How the cases of one operation came out.
#[derive(Default, Debug)]
pub struct OpTally {
    /// CuTe right, our text equal to CuTe's.
    pub equal: usize,
    /// CuTe right, our text different and not listed open (each one
    /// fails the test).
    pub different: Vec<String>,
    /// CuTe right, our text different, listed open.
    pub open: usize,
    /// Listed open but now equal (each one fails the test).
    pub closed: Vec<String>,
    /// CuTe's answer is not the operation's function: ours is checked
    /// against cute-dynamic instead.
    pub cute_wrong: usize,
}

/// How the cases came out, by operation, and over the cases whose leaves
/// are all run-time (text-equal, CuTe right, CuTe wrong).
#[derive(Default, Debug)]
pub struct Tally(BTreeMap<String, OpTally>, [usize; 3]);

impl Tally {
    /// Prints the figures (`--nocapture`) and fails on any difference.
    pub fn report(&self) {
        let (mut different, mut closed) = (Vec::new(), Vec::new());
        for (op, t) in &self.0 {
            let right = t.equal + t.different.len() + t.open;
            println!(
                "run-time forms, {op}: {}/{right} text-equal where CuTe is right (+{} CuTe wrong; {} open)",
                t.equal, t.cute_wrong, t.open
            );
            different.extend(t.different.iter().cloned());
            closed.extend(t.closed.iter().cloned());
        }
        let [equal, right, wrong] = self.1;
        println!(
            "run-time forms, every leaf run-time: {equal}/{right} text-equal where CuTe is right (+{wrong} CuTe wrong)"
        );
        assert!(different.is_empty(), "{} differ from CuTe:\n{}", different.len(), different.join("\n"));
        assert!(
            closed.is_empty(),
            "{} now print as CuTe's: take them off the open list\n{}",
            closed.len(),
            closed.join("\n")
        );
    }
}

/// cute-dynamic's answer for the operation, the reference function (`b` a
/// layout, or a tuple tiler for the divides).
fn reference(op: &str, a: &Layout, b: &cute_dynamic::Tiler) -> Result<Layout, cute_dynamic::LayoutError> {
    if let cute_dynamic::Tiler::Layout(l) = b {
        return reference_by_layout(op, a, l);
    }
    match op {
        "logical_divide" => cute_dynamic::logical_divide(a, b),
        "zipped_divide" => cute_dynamic::zipped_divide(a, b),
        "tiled_divide" => cute_dynamic::tiled_divide(a, b),
        "flat_divide" => cute_dynamic::flat_divide(a, b),
        _ => panic!("no tuple tiler for {op}"),
    }
}

/// [`reference`] by a layout.
fn reference_by_layout(op: &str, a: &Layout, b: &Layout) -> Result<Layout, cute_dynamic::LayoutError> {
    match op {
        "composition" => cute_dynamic::composition(a, b),
        "logical_divide" => cute_dynamic::logical_divide(a, b),
        "zipped_divide" => cute_dynamic::zipped_divide(a, b),
        "tiled_divide" => cute_dynamic::tiled_divide(a, b),
        "flat_divide" => cute_dynamic::flat_divide(a, b),
        "logical_product" => cute_dynamic::logical_product(a, b),
        "zipped_product" => cute_dynamic::zipped_product(a, b),
        "tiled_product" => cute_dynamic::tiled_product(a, b),
        "flat_product" => cute_dynamic::flat_product(a, b),
        "blocked_product" => cute_dynamic::blocked_product(a, b),
        "raked_product" => cute_dynamic::raked_product(a, b),
        _ => panic!("unknown operation {op}"),
    }
}

/// A result's text.
pub fn text<L: core::fmt::Display>(
    r: Result<L, cute_dynamic::LayoutError>,
) -> Result<String, cute_dynamic::LayoutError> {
    r.map(|l| l.to_string())
}

/// The same function on the same domain size.
fn same_function(x: &Layout, y: &Layout) -> bool {
    x.size() == y.size() && (0..x.size()).all(|i| x.eval(i).ok() == y.eval(i).ok())
}

/// One case: `ours` is cute-static's `op(a, b)` (text or error); `a` and
/// `b` as CuTe prints them (a static leaf `_n`).
#[track_caller]
pub fn check(tally: &mut Tally, op: &str, a: &str, b: &str, ours: Result<String, cute_dynamic::LayoutError>) {
    let key = format!("{op} | {a} | {b} | ");
    let cute = GOLDEN.lines().find_map(|l| l.strip_prefix(&key)).unwrap_or_else(|| panic!("no golden {key}"));
    let al: Layout = a.replace('_', "").parse().unwrap();
    let want = if op == "complement" {
        // A cotarget.
        cute_dynamic::complement(&al, b.parse().unwrap())
    } else if op == "coalesce" {
        Ok(cute_dynamic::coalesce(&al))
    } else if op == "filter" {
        Ok(cute_dynamic::filter(&al))
    } else if op == "right_inverse" {
        Ok(cute_dynamic::right_inverse(&al))
    } else if op == "left_inverse" {
        cute_dynamic::left_inverse(&al)
    } else {
        // A tuple tiler `<B0, B1>`, or a layout.
        reference(op, &al, &b.replace('_', "").parse().unwrap())
    };
    let cute_right = match (&want, cute.replace('_', "").parse::<Layout>()) {
        (Ok(w), Ok(c)) => same_function(w, &c),
        _ => false,
    };
    let open = OPEN.lines().any(|l| l == key.trim_end_matches(" | "));
    if !a.contains('_') && !b.contains('_') {
        let equal = cute_right && ours.as_ref().is_ok_and(|o| o == cute);
        let all = &mut tally.1;
        all[0] += usize::from(equal);
        all[if cute_right { 1 } else { 2 }] += 1;
    }
    let tally = tally.0.entry(op.to_string()).or_default();
    if cute_right {
        match (&ours, open) {
            (Ok(o), false) if o == cute => tally.equal += 1,
            (Ok(o), true) if o == cute => tally.closed.push(key),
            (Ok(o), true) => {
                tally.open += 1;
                // `CUTE_FORMS_SHOW=1`: the open cases' texts, to work on them.
                if std::env::var_os("CUTE_FORMS_SHOW").is_some() {
                    println!("open: {key}ours {o}, CuTe {cute}");
                }
                let want = want.as_ref().unwrap();
                assert!(same_function(&o.replace('_', "").parse().unwrap(), want), "{key}ours {o}, reference {want}");
            }
            _ => tally.different.push(format!("{key}ours {ours:?}, CuTe {cute}")),
        }
    } else {
        tally.cute_wrong += 1;
        // Never wrong: the reference's function, or its error.
        match (&ours, &want) {
            (Ok(o), Ok(w)) => {
                assert!(same_function(&o.replace('_', "").parse().unwrap(), w), "{key}ours {o}, reference {w}")
            }
            (Err(_), Err(_)) => {}
            _ => panic!("{key}ours {ours:?}, reference {want:?}"),
        }
    }
}
