//! The check of `runtime_forms.rs` (generated): cute-static's result on
//! all-run-time leaves against CuTe's text in
//! `tests/golden/cute_runtime_forms.txt`.

use cute_dynamic::Layout;

const GOLDEN: &str = include_str!("../../golden/cute_runtime_forms.txt");

/// How the cases came out.
#[derive(Default, Debug)]
pub struct Tally {
    /// CuTe right, our text equal to CuTe's.
    pub equal: usize,
    /// CuTe right, our text different (each one fails the test).
    pub different: Vec<String>,
    /// CuTe's answer is not the operation's function: ours is checked
    /// against cute-dynamic instead.
    pub cute_wrong: usize,
}

impl Tally {
    /// Prints the figures (`--nocapture`) and fails on any difference.
    pub fn report(&self) {
        let right = self.equal + self.different.len();
        println!(
            "run-time forms: {}/{} where CuTe is right print as CuTe prints them; CuTe wrong in {} more",
            self.equal, right, self.cute_wrong
        );
        assert!(self.different.is_empty(), "{} differ from CuTe:\n{}", self.different.len(), self.different.join("\n"));
    }
}

/// cute-dynamic's answer for the operation, the reference function.
fn reference(op: &str, a: &Layout, b: &Layout) -> Result<Layout, cute_dynamic::LayoutError> {
    match op {
        "composition" => cute_dynamic::composition(a, b),
        "logical_divide" => cute_dynamic::logical_divide(a, b),
        "zipped_divide" => cute_dynamic::zipped_divide(a, b),
        "tiled_divide" => cute_dynamic::tiled_divide(a, b),
        "flat_divide" => cute_dynamic::flat_divide(a, b),
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

/// One case: `ours` is cute-static's `op(a, b)` (text or error).
#[track_caller]
pub fn check(tally: &mut Tally, op: &str, a: &str, b: &str, ours: Result<String, cute_dynamic::LayoutError>) {
    let key = format!("{op} | {a} | {b} | ");
    let cute = GOLDEN.lines().find_map(|l| l.strip_prefix(&key)).unwrap_or_else(|| panic!("no golden {key}"));
    let (al, bl): (Layout, Layout) = (a.parse().unwrap(), b.parse().unwrap());
    let want = reference(op, &al, &bl);
    let cute_right = match (&want, cute.replace('_', "").parse::<Layout>()) {
        (Ok(w), Ok(c)) => same_function(w, &c),
        _ => false,
    };
    if cute_right {
        match &ours {
            Ok(o) if o == cute => tally.equal += 1,
            _ => tally.different.push(format!("{key}ours {ours:?}, CuTe {cute}")),
        }
    } else {
        tally.cute_wrong += 1;
        // Never wrong: the reference's function, or its error.
        match (&ours, &want) {
            (Ok(o), Ok(w)) => assert!(same_function(&o.parse().unwrap(), w), "{key}ours {o}, reference {w}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{key}ours {ours:?}, reference {want:?}"),
        }
    }
}
