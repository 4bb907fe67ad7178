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

/// Whether `l` maps distinct coordinates to distinct offsets.
pub fn injective(l: &Layout) -> Result<bool, String> {
    let mut seen = std::collections::HashSet::new();
    for i in 0..l.size() {
        if !seen.insert(at(l, i)?) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Left inverse (paper 3.4.3, eq. 26): every offset `o = L(k)` is in the
/// domain of `R` (`|o| < size(R)`; an offset below 0 is read on `R`'s
/// extended domain, odd below 0), `R(o)` is a coordinate of `L` and
/// `L(R(o)) == o`; for injective `L`, `R(L(k)) == k`.
pub fn left_inverse(l: &Layout, r: &Layout) -> Check {
    valid(r)?;
    let inj = injective(l)?;
    for k in 0..l.size() {
        let o = at(l, k)?;
        ensure!(
            o.unsigned_abs() < r.size().unsigned_abs(),
            "left_inverse({l}) = {r}: L({k}) = {o} is not in its domain"
        );
        let c = if o >= 0 { at(r, o)? } else { ext(r, o)? };
        ensure!(
            (0..l.size()).contains(&c),
            "left_inverse({l}) = {r}: R(L({k})) = R({o}) = {c} is not a coordinate of L"
        );
        let back = at(l, c)?;
        ensure!(back == o, "left_inverse({l}) = {r}: L(R(L({k}))) = L({c}) = {back} != L({k}) = {o} (eq. 26)");
        ensure!(!inj || c == k, "left_inverse({l}) = {r}: R(L({k})) = {c} != {k} for an injective L");
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
        "left_inverse" => {
            matches!(e, E::NotInjective { .. } | E::NoLayout { .. } | E::Unsupported { .. } | E::Overflow { .. })
        }
        _ => false,
    }
}
