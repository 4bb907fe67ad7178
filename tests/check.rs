//! The post-conditions of the algebra, checked by brute force: one checker
//! per operation, shared by the property tests under `tests/` and the fuzz
//! targets under `fuzz/` (a path dependency on this crate), so that both
//! hold every answer to the same conditions.
//!
//! Each checker takes the arguments and the answer of an operation and
//! returns `Err` with a sentence naming the first condition that fails. The
//! checks enumerate the domains: keep the layouts small.

use crate::{compatible, natural};
use cute_dynamic::{IntTuple, Layout, LayoutError, complement as complement_of, make_layout};
use std::collections::HashSet;

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

/// Left inverse (paper 3.4.3, eq. 26), as `left_inverse` documents it: for
/// every `k`, with `o = L(k)` and `c = R(o)` read on `R`'s extended domain
/// (odd below 0):
/// * `L` injective: `o` is in the domain of `R` (`|o| < size(R)`) and
///   `c == k`;
/// * otherwise `c >= 0` and `L(c) == o`, `L` read on its extended domain;
///   and where that needs the extended domains (`o` past `size(R)`, or `c`
///   past `size(L)`), `R` is, coalesced, one of CuTe's forms
///   ([`cute_left_inverse`], [`pycute_left_inverse`]; cute-static pads its
///   answers with `1:0` modes): every other answer is read in the domains.
pub fn left_inverse(l: &Layout, r: &Layout) -> Check {
    if left_inverse_eq26(l, r)? {
        return Ok(());
    }
    let cute = [cute_left_inverse(l), pycute_left_inverse(l)];
    let coalesced = cute_dynamic::coalesce(r);
    ensure!(
        cute.iter().flatten().any(|c| *c == coalesced),
        "left_inverse({l}) = {r} is read on the extended domains, and is not one of CuTe's forms ({cute:?})"
    );
    Ok(())
}

/// The post-conditions of [`left_inverse`] without the rule on whose forms
/// may need the extended domains: `Ok(true)` when they hold in the domains
/// (every offset `o` of `L` in `R`'s domain, every `R(o)` a coordinate of
/// `L`), `Ok(false)` when they need the extended domains.
pub fn left_inverse_eq26(l: &Layout, r: &Layout) -> Result<bool, String> {
    valid(r)?;
    let inj = injective(l)?;
    let mut in_domains = true;
    for k in 0..l.size() {
        let o = at(l, k)?;
        let c = ext(r, o)?;
        if inj {
            ensure!(
                o.unsigned_abs() < r.size().unsigned_abs(),
                "left_inverse({l}) = {r}: L({k}) = {o} is not in its domain"
            );
            ensure!(c == k, "left_inverse({l}) = {r}: R(L({k})) = {c} != {k} for an injective L");
            continue;
        }
        ensure!(c >= 0, "left_inverse({l}) = {r}: R(L({k})) = R({o}) = {c} is below 0");
        let back = ext(l, c)?;
        ensure!(back == o, "left_inverse({l}) = {r}: L(R(L({k}))) = L({c}) = {back} != L({k}) = {o} (eq. 26)");
        in_domains &= o.unsigned_abs() < r.size().unsigned_abs() && c < l.size();
    }
    Ok(in_domains)
}

/// The flat `(shape, stride)` leaves of `l`.
fn leaves(l: &Layout) -> Vec<(i64, i64)> {
    l.shape().leaves().zip(l.stride().leaves()).collect()
}

/// The coalesced layout of the flat modes `m` (`1:0` for none).
fn flat_layout(m: &[(i64, i64)]) -> Option<Layout> {
    if m.is_empty() {
        return Layout::new(IntTuple::int(1), IntTuple::int(0)).ok();
    }
    let l = Layout::new(IntTuple::flat(m.iter().map(|x| x.0)), IntTuple::flat(m.iter().map(|x| x.1))).ok()?;
    Some(cute_dynamic::coalesce(&l))
}

/// CuTe's `left_inverse` of `l` (CuTe 3.9 on, `include/cute/layout.hpp`),
/// for strides `>= 0`: the coalesced modes sorted by stride (CuTe's
/// exchange sort), stride-0 modes skipped; each stride divided by the size
/// of the shapes so far is the next shape, each with the prefix of the mode
/// before it as stride (0 for the first); then the last mode's shape.
/// `None` where CuTe's static assertion ("Left inverse divisibility
/// condition") fails. Checked against CuTe's own answers in
/// `tests/golden/cute_left_inverse.txt`.
pub fn cute_left_inverse(l: &Layout) -> Option<Layout> {
    let m = leaves(&cute_dynamic::coalesce(l));
    if m.iter().any(|x| x.1 < 0) {
        return None;
    }
    let mut prefix = vec![1i64];
    for x in &m {
        prefix.push(prefix.last()?.checked_mul(x.0)?);
    }
    let mut order: Vec<usize> = (0..m.len()).collect();
    for i in 0..order.len() {
        for j in i + 1..order.len() {
            if m[order[j]].1 < m[order[i]].1 {
                order.swap(i, j);
            }
        }
    }
    let (mut shapes, mut strides) = (Vec::new(), vec![0i64]);
    for &i in &order {
        let d = m[i].1;
        if d == 0 {
            continue;
        }
        let size: i64 = shapes.iter().product();
        if d % size != 0 {
            return None;
        }
        shapes.push(d / size);
        strides.push(prefix[i]);
    }
    shapes.push(m[*order.last()?].0);
    flat_layout(&shapes.into_iter().zip(strides).collect::<Vec<_>>())
}

/// pycute's `left_inverse(l)` (CuTe's Python model, and CuTe's
/// construction before 3.9): `right_inverse(make_layout(L, complement(L)))`
/// with pycute's `complement` (cotarget 1, the shapes rounded down, no
/// refusal of layouts that are not injective) and `right_inverse` (modes
/// sorted by `(stride, shape, prefix)`, taken while the stride continues the
/// run `1, s·d, …`). `None` where pycute raises or answers a layout of size
/// 0. Checked against pycute's answers in `tests/golden/cute_left_inverse.txt`.
pub fn pycute_left_inverse(l: &Layout) -> Option<Layout> {
    let m = leaves(l);
    let mut sorted: Vec<(i64, i64)> = m.iter().map(|&(s, d)| (d, s)).collect();
    sorted.sort();
    // complement, then pycute's coalesce (starting from 1:0).
    let (mut comp, mut cur) = (vec![(1i64, 0i64)], 1i64);
    let add = |comp: &mut Vec<(i64, i64)>, s: i64, d: i64| -> Option<()> {
        let last = comp.last_mut()?;
        if s == 1 {
            return Some(());
        }
        if last.0 == 1 {
            *last = (s, d);
        } else if last.0.checked_mul(last.1)? == d {
            last.0 = last.0.checked_mul(s)?;
        } else {
            comp.push((s, d));
        }
        Some(())
    };
    for (d, s) in sorted {
        if d == 0 || s == 1 {
            continue;
        }
        if cur > s.checked_mul(d)? {
            return None;
        }
        add(&mut comp, d / cur, cur)?;
        cur = s * d;
    }
    add(&mut comp, 1, cur)?;
    // right_inverse of (L, complement).
    let mut all = Vec::new();
    let mut p = 1i64;
    for &(s, d) in m.iter().chain(&comp) {
        all.push((d, s, p));
        p = p.checked_mul(s)?;
    }
    all.sort();
    let (mut out, mut cur) = (Vec::new(), 1i64);
    for (d, s, p) in all {
        if s == 1 {
            continue;
        }
        if d != cur {
            break;
        }
        if s == 0 {
            return None;
        }
        out.push((s, p));
        cur = s.checked_mul(d)?;
    }
    flat_layout(&out)
}

/// The image of `l`.
fn image(l: &Layout) -> Result<HashSet<i64>, String> {
    (0..l.size()).map(|i| at(l, i)).collect()
}

/// Coalesce: the same function on the same domain, flat (depth <= 1), and
/// no two neighbouring modes that could merge.
pub fn coalesce(l: &Layout, r: &Layout) -> Check {
    valid(r)?;
    ensure!(r.size() == l.size(), "coalesce({l}) = {r}: size {} != {}", r.size(), l.size());
    ensure!(r.depth() <= 1, "coalesce({l}) = {r}: not flat");
    for i in 0..l.size() {
        ensure!(at(r, i)? == at(l, i)?, "coalesce({l}) = {r}: differs at {i}");
    }
    let m: Vec<(i64, i64)> = r.shape().leaves().zip(r.stride().leaves()).collect();
    ensure!(m.len() == 1 || m.iter().all(|&(s, _)| s != 1), "coalesce({l}) = {r}: keeps a size-1 mode");
    for w in m.windows(2) {
        ensure!(w[0].0 * w[0].1 != w[1].1, "coalesce({l}) = {r}: modes {w:?} merge");
    }
    Ok(())
}

/// Complement (CuTe's unit test): `R` is ordered (`R(i-1) < R(i)`), meets
/// `A`'s image only at 0, `(A, R)` reaches `cotarget` (`cosize >= M`), and
/// `(filter(A), R)` is injective.
pub fn complement(a: &Layout, m: i64, r: &Layout) -> Check {
    valid(r)?;
    let img = image(a)?;
    for i in 1..r.size() {
        let v = at(r, i)?;
        ensure!(!img.contains(&v), "complement({a}, {m}) = {r} hits A at {v}");
        ensure!(at(r, i - 1)? < v, "complement({a}, {m}) = {r}: not ordered at {i}");
    }
    let both = make_layout(&[a.clone(), r.clone()]).map_err(|e| e.to_string())?;
    ensure!(both.cosize() >= m, "complement({a}, {m}) = {r}: cosize of {both} below {m}");
    let fr = make_layout(&[cute_dynamic::filter(a), r.clone()]).map_err(|e| e.to_string())?;
    ensure!(injective(&fr)?, "complement({a}, {m}) = {r}: {fr} is not injective");
    Ok(())
}

/// Right inverse (paper 3.4.1): `L(R(k)) == k` for `k < size(R)`, `R`
/// injective into `L`'s domain, `size(R) <= size(L)`.
pub fn right_inverse(l: &Layout, r: &Layout) -> Check {
    valid(r)?;
    ensure!(r.size() <= l.size(), "right_inverse({l}) = {r}: larger than L");
    ensure!(injective(r)?, "right_inverse({l}) = {r}: not injective");
    for k in 0..r.size() {
        let c = at(r, k)?;
        ensure!((0..l.size()).contains(&c), "right_inverse({l}) = {r}: R({k}) = {c} outside L");
        ensure!(at(l, c)? == k, "right_inverse({l}) = {r}: L(R({k})) != {k}");
    }
    Ok(())
}

/// Logical divide by a layout (paper 3.5.2): `R(i) == A((B, B*)(i))` for
/// every `i`, `B* = complement(B, size(A))`, `A` on its extended domain;
/// mode 0 is `A ∘ B`, which meets the composition's post-conditions.
pub fn logical_divide(a: &Layout, b: &Layout, r: &Layout) -> Check {
    valid(r)?;
    ensure!(r.rank() == 2, "logical_divide({a}, {b}) = {r}: rank {} != 2", r.rank());
    let star = complement_of(b, a.size()).map_err(|e| format!("logical_divide({a}, {b}) = {r}, but B* fails: {e}"))?;
    let bb = make_layout(&[b.clone(), star]).map_err(|e| e.to_string())?;
    ensure!(r.size() == bb.size(), "logical_divide({a}, {b}) = {r}: size != size of (B, B*) = {bb}");
    for i in 0..r.size() {
        let want = ext(a, at(&bb, i)?)?;
        ensure!(at(r, i)? == want, "logical_divide({a}, {b}) = {r}: R({i}) != A({bb}({i})) = {want}");
    }
    let tile = r.get(0).ok_or("no mode 0")?;
    composition(a, b, &tile)
}

/// The other divides (and products) by a layout: the same leaves, in the
/// same order, as the logical one, regrouped; so the same function of the
/// integral coordinate, and the same size.
pub fn regrouped(what: &str, logical: &Layout, r: &Layout) -> Check {
    valid(r)?;
    ensure!(r.size() == logical.size(), "{what} = {r}: size differs from the logical form {logical}");
    for i in 0..r.size() {
        ensure!(at(r, i)? == at(logical, i)?, "{what} = {r}: differs from the logical form {logical} at {i}");
    }
    let flat = |l: &Layout| l.shape().leaves().zip(l.stride().leaves()).collect::<Vec<_>>();
    ensure!(flat(r) == flat(logical), "{what} = {r}: not the leaves of the logical form {logical}");
    Ok(())
}

/// Logical product by a layout (paper 3.5.1, CuTe's unit test): rank 2,
/// mode 0 is `A`, mode 1 is compatible with `B`, `R(i, j) == A(i) + R(0, j)`,
/// the replicas `A + R(0, j)` are pairwise disjoint and meet `A` only for
/// `j` with `R(0, j) == 0`, and `R` is injective when `A` and `B` are.
/// (Nothing is read past a layout's domain.)
pub fn logical_product(a: &Layout, b: &Layout, r: &Layout) -> Check {
    valid(r)?;
    ensure!(r.rank() == 2, "logical_product({a}, {b}) = {r}: rank {} != 2", r.rank());
    let (m0, grid) = (r.get(0).ok_or("no mode 0")?, r.get(1).ok_or("no mode 1")?);
    ensure!(&m0 == a, "logical_product({a}, {b}) = {r}: mode 0 is not A");
    ensure!(compatible(b.shape(), grid.shape()), "logical_product({a}, {b}) = {r}: mode 1 not compatible with B");
    for j in 0..grid.size() {
        let shift = at(&grid, j)?;
        for i in 0..a.size() {
            let c = IntTuple::tuple([IntTuple::int(i), IntTuple::int(j)]);
            let got = r.eval_coord(&c).map_err(|e| e.to_string())?;
            ensure!(got == at(a, i)? + shift, "logical_product({a}, {b}) = {r}: R({c}) != A({i}) + {shift}");
        }
    }
    let img = image(a)?;
    let mut seen = HashSet::new();
    for s in image(&grid)? {
        for o in &img {
            ensure!(seen.insert(o + s), "logical_product({a}, {b}) = {r}: replicas overlap at {}", o + s);
            ensure!(
                s == 0 || !img.contains(&(o + s)),
                "logical_product({a}, {b}) = {r}: a replica meets A at {}",
                o + s
            );
        }
    }
    if injective(a)? && injective(b)? {
        ensure!(injective(r)?, "logical_product({a}, {b}) = {r}: not injective");
    }
    Ok(())
}

/// Blocked (`blocked = true`) or raked product: rank `max(rank A, rank B)`;
/// with `(A', B')` both padded to that rank by `1:0` modes and
/// `G = mode 1 of logical_product(A', B')` (itself checked), mode `k` of `R`
/// has size `|A'_k|·|B'_k|` and `R` at the coordinate whose mode `k` is
/// `a_k + |A'_k|·b_k` (blocked) or `b_k + |B'_k|·a_k` (raked) is
/// `A'(a) + G(b)`.
pub fn rank_product(a: &Layout, b: &Layout, blocked: bool, r: &Layout) -> Check {
    let what = if blocked { "blocked_product" } else { "raked_product" };
    valid(r)?;
    let n = a.rank().max(b.rank());
    ensure!(r.rank() == n, "{what}({a}, {b}) = {r}: rank {} != {n}", r.rank());
    let one = Layout::scalar(1, 0).map_err(|e| e.to_string())?;
    let pad = |l: &Layout| {
        let modes: Vec<Layout> = (0..n)
            .map(|k| if l.shape().is_int() && k == 0 { l.clone() } else { l.get(k).unwrap_or_else(|| one.clone()) })
            .collect();
        make_layout(&modes).map_err(|e| e.to_string())
    };
    let (pa, pb) = (pad(a)?, pad(b)?);
    let lp = cute_dynamic::logical_product(&pa, &pb)
        .map_err(|e| format!("{what}({a}, {b}) = {r}, but the logical product fails: {e}"))?;
    logical_product(&pa, &pb, &lp)?;
    let grid = lp.get(1).ok_or("no mode 1")?;
    let sa: Vec<i64> = pa.modes_iter().map(|m| m.size()).collect();
    let sb: Vec<i64> = grid.modes_iter().map(|m| m.size()).collect();
    for k in 0..n {
        let rk = if r.shape().is_int() { r.clone() } else { r.get(k).ok_or("missing mode")? };
        ensure!(
            rk.size() == sa[k] * sb[k],
            "{what}({a}, {b}) = {r}: mode {k} of size {} != {}·{}",
            rk.size(),
            sa[k],
            sb[k]
        );
    }
    for i in 0..pa.size() {
        for j in 0..grid.size() {
            let (mut ri, mut rj) = (i, j);
            let mut coord = Vec::new();
            for k in 0..n {
                let (ak, bk) = (ri % sa[k], rj % sb[k]);
                ri /= sa[k];
                rj /= sb[k];
                coord.push(IntTuple::int(if blocked { ak + sa[k] * bk } else { bk + sb[k] * ak }));
            }
            let c = if r.shape().is_int() { coord[0].clone() } else { IntTuple::tuple(coord) };
            let got = r.eval_coord(&c).map_err(|e| format!("{what}({a}, {b}) = {r} at {c}: {e}"))?;
            let want = at(&pa, i)? + at(&grid, j)?;
            ensure!(got == want, "{what}({a}, {b}) = {r}: R({c}) = {got} != A'({i}) + G({j}) = {want}");
        }
    }
    Ok(())
}

/// An accepted answer meets `post`; a refusal is one of the documented
/// errors of `op`.
fn judge(what: &str, op: &str, r: Result<Layout, LayoutError>, post: impl FnOnce(&Layout) -> Check) -> Check {
    match r {
        Ok(r) => post(&r).map_err(|why| format!("{what} = {r}: {why}")),
        Err(e) if documented_error(op, &e) => Ok(()),
        Err(e) => Err(format!("{what}: undocumented error {e:?}")),
    }
}

/// Every operation of the algebra on `A` and `B` (and `complement(A, M)`),
/// each accepted answer checked against its post-conditions, each refusal
/// against the documented errors: coalesce, composition, complement, both
/// inverses, the four divides and the six products.
pub fn every_operation(a: &Layout, b: &Layout, m: i64) -> Check {
    use cute_dynamic as c;
    judge(&format!("coalesce({a})"), "coalesce", Ok(c::coalesce(a)), |r| coalesce(a, r))?;
    judge(&format!("composition({a}, {b})"), "composition", c::composition(a, b), |r| composition(a, b, r))?;
    judge(&format!("complement({a}, {m})"), "complement", c::complement(a, m), |r| complement(a, m, r))?;
    judge(&format!("right_inverse({a})"), "right_inverse", Ok(c::right_inverse(a)), |r| right_inverse(a, r))?;
    judge(&format!("left_inverse({a})"), "left_inverse", c::left_inverse(a), |r| left_inverse(a, r))?;
    let what = format!("logical_divide({a}, {b})");
    judge(&what, "divide", c::logical_divide(a, b), |r| logical_divide(a, b, r))?;
    if let Ok(l) = c::logical_divide(a, b) {
        judge(&format!("zipped_divide({a}, {b})"), "divide", c::zipped_divide(a, b), |r| {
            regrouped("zipped_divide", &l, r)
        })?;
        judge(&format!("tiled_divide({a}, {b})"), "divide", c::tiled_divide(a, b), |r| {
            regrouped("tiled_divide", &l, r)
        })?;
        judge(&format!("flat_divide({a}, {b})"), "divide", c::flat_divide(a, b), |r| regrouped("flat_divide", &l, r))?;
    }
    let what = format!("logical_product({a}, {b})");
    judge(&what, "product", c::logical_product(a, b), |r| logical_product(a, b, r))?;
    if let Ok(l) = c::logical_product(a, b) {
        let z = c::zipped_product(a, b);
        judge(&format!("zipped_product({a}, {b})"), "product", z, |r| regrouped("zipped_product", &l, r))?;
        let t = c::tiled_product(a, b);
        judge(&format!("tiled_product({a}, {b})"), "product", t, |r| regrouped("tiled_product", &l, r))?;
        let f = c::flat_product(a, b);
        judge(&format!("flat_product({a}, {b})"), "product", f, |r| regrouped("flat_product", &l, r))?;
    }
    let bp = c::blocked_product(a, b);
    judge(&format!("blocked_product({a}, {b})"), "product", bp, |r| rank_product(a, b, true, r))?;
    let rp = c::raked_product(a, b);
    judge(&format!("raked_product({a}, {b})"), "product", rp, |r| rank_product(a, b, false, r))
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
        "complement" => matches!(
            e,
            E::NotInjective { .. } | E::NotComplementable { .. } | E::Unsupported { .. } | E::Overflow { .. }
        ),
        // Those of complement and composition, and a tiler longer than A.
        "divide" | "product" => matches!(
            e,
            E::StrideDivisibility { .. }
                | E::ShapeDivisibility { .. }
                | E::NotDistributive { .. }
                | E::NotInjective { .. }
                | E::NotComplementable { .. }
                | E::Unsupported { .. }
                | E::Overflow { .. }
                | E::RankMismatch { .. }
        ),
        "coalesce" | "right_inverse" => false,
        "left_inverse" => {
            matches!(e, E::NotInjective { .. } | E::NoLayout { .. } | E::Unsupported { .. } | E::Overflow { .. })
        }
        _ => false,
    }
}
