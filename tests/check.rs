//! The post-conditions of the algebra, checked by brute force: one checker
//! per operation, shared by the property tests under `tests/` and the fuzz
//! targets under `fuzz/` (a path dependency on this crate), so that both
//! hold every answer to the same conditions.
//!
//! Each checker takes the arguments and the answer of an operation and
//! returns `Err` with a sentence naming the first condition that fails. The
//! checks enumerate the domains: keep the layouts small.

use crate::{compatible, natural};
use cute_dynamic::{Layout, LayoutError};

/// The outcome of a check: `Err(why)` names the failed condition.
pub type Check = Result<(), String>;

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)*) => {
        if !$cond {
            return Err(format!($($fmt)*));
        }
    };
}

/// `l(i)` for `i` in the domain.
fn at(l: &Layout, i: i64) -> Result<i64, String> {
    l.eval(i).map_err(|e| format!("{l} at {i}: {e}"))
}

/// `l(i)` on the extended domain (odd below 0).
fn ext(l: &Layout, i: i64) -> Result<i64, String> {
    l.eval_extended(i).map_err(|e| format!("{l} at {i} (extended): {e}"))
}

/// The answer is a valid layout: its parts make a layout again, and its text
/// parses back to it.
pub fn valid(r: &Layout) -> Check {
    ensure!(Layout::new(r.shape().clone(), r.stride().clone()).is_ok(), "{r} is not a valid layout");
    let again: Result<Layout, _> = r.to_string().parse();
    ensure!(again.as_ref() == Ok(r), "{r} does not parse back to itself: {again:?}");
    Ok(())
}

/// Composition (paper eqs. 16–17) for a layout `b`: `b ⪯ r`, and
/// `r(c) == a(b(c))` for every integral and natural coordinate `c` of `b`,
/// `a` read on its extended domain.
pub fn composition(a: &Layout, b: &Layout, r: &Layout) -> Check {
    valid(r)?;
    ensure!(compatible(b.shape(), r.shape()), "{a} o {b} = {r}: shape not compatible with B's");
    for i in 0..b.size() {
        let want = ext(a, at(b, i)?)?;
        ensure!(at(r, i)? == want, "{a} o {b} = {r}: R({i}) != A(B({i})) = {want}");
        let c = natural(i, b.shape());
        let got = r.eval_coord(&c).map_err(|e| format!("{r} at {c}: {e}"))?;
        ensure!(got == want, "{a} o {b} = {r}: R({c}) != {want}");
    }
    Ok(())
}

/// Whether `e` is one of the errors `operation` documents.
pub fn documented_error(operation: &str, e: &LayoutError) -> bool {
    use LayoutError as E;
    match operation {
        "composition" => matches!(
            e,
            E::StrideDivisibility { .. }
                | E::ShapeDivisibility { .. }
                | E::NotDistributive { .. }
                | E::Overflow { .. }
                | E::Unsupported { .. }
                | E::RankMismatch { .. }
        ),
        _ => false,
    }
}
