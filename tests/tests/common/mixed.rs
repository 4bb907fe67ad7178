//! Helpers for the tests of cute-static layouts with run-time (`Dyn`)
//! leaves: a static result checked against cute-dynamic's answer for the
//! same expression.

use cute_dynamic::{Layout as DLayout, LayoutError};
use cute_static::{Congruent, IntTuple, Layout};
use std::fmt::Display;

/// The message `f` panics with (it must panic).
pub fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let e = std::panic::catch_unwind(f).expect_err("panics");
    e.downcast_ref::<String>().cloned().unwrap_or_default()
}

/// `to_dynamic()` as a trait, for bounds on generic checkers.
pub trait ToDyn {
    fn to_dyn(&self) -> DLayout;
}

impl<S: Congruent<D>, D: IntTuple> ToDyn for Layout<S, D> {
    fn to_dyn(&self) -> DLayout {
        self.to_dynamic()
    }
}

/// The layout `template` (CuTe text, `{}` where the type has a run-time
/// leaf) with the values `vals` in order.
pub fn fill(template: &str, vals: &[i64]) -> DLayout {
    let mut out = String::new();
    let mut it = vals.iter();
    for (k, part) in template.split("{}").enumerate() {
        if k > 0 {
            out.push_str(&it.next().unwrap().to_string());
        }
        out.push_str(part);
    }
    out.parse().unwrap()
}

/// One expression `what` computed by cute-static (`got`, through
/// `to_dynamic()`) and by cute-dynamic (`want`): the same error, or both
/// layouts and `check(got, want)` holds (the operation's post-conditions on
/// `got` and its comparison with `want`).
pub fn agree(
    what: impl Display,
    got: Result<DLayout, LayoutError>,
    want: Result<DLayout, LayoutError>,
    check: impl FnOnce(&DLayout, &DLayout) -> Result<(), String>,
) -> Result<(), String> {
    match (got, want) {
        (Ok(r), Ok(w)) => check(&r, &w).map_err(|e| format!("{what} = {r}, cute-dynamic {w}: {e}")),
        (Err(e), Err(w)) if e == w => Ok(()),
        (got, want) => {
            Err(format!("{what}: {:?} but cute-dynamic {:?}", got.map(|r| r.to_string()), want.map(|w| w.to_string())))
        }
    }
}

/// `got` and `want` are the same function: equal sizes, equal offsets at
/// every index.
pub fn same_values(got: &DLayout, want: &DLayout) -> Result<(), String> {
    if got.size() != want.size() {
        return Err(format!("sizes {} and {}", got.size(), want.size()));
    }
    for i in 0..got.size() {
        let (g, w) = (got.eval(i).map_err(|e| e.to_string())?, want.eval(i).map_err(|e| e.to_string())?);
        if g != w {
            return Err(format!("at {i}: {g} and {w}"));
        }
    }
    Ok(())
}

/// `same_values` as an assertion.
#[track_caller]
pub fn same_function(got: &DLayout, want: &DLayout) {
    if let Err(e) = same_values(got, want) {
        panic!("{got} and {want}: {e}");
    }
}

/// CuTe's padded form: `got` is flat and coalesces to `want`.
pub fn padded_form_of(got: &DLayout, want: &DLayout) -> Result<(), String> {
    if got.depth() > 1 || cute_dynamic::coalesce(got) != *want {
        return Err(format!("not a flat padding of {want}"));
    }
    Ok(())
}
