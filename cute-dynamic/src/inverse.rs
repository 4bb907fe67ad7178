//! `right_inverse` and `left_inverse` (paper 3.4).

use crate::coalesce::coalesce_modes;
use crate::complement::is_injective_small;
use crate::error::{LayoutError, Result};
use crate::kernel::{self, Nest};
use crate::layout::{Layout, eval_modes_checked, layout_from_modes};
use smallvec::SmallVec;
use std::ops::ControlFlow;

/// A mode of the coalesced layout with its integral-coordinate stride
/// (the product of the shapes before it): `(shape, stride, prefix)`.
type Ranked = SmallVec<[(i64, i64, i64); 9]>;

/// The coalesced modes of `l` with their prefix products, stride-0 modes
/// removed, sorted by stride ([`kernel::ranked`]).
fn sorted_modes(l: &Layout) -> Ranked {
    let mut m = l.modes();
    let mut out: Ranked = smallvec::smallvec![(0, 0, 0); m.len()];
    let k = kernel::ranked(&mut m, &mut out);
    out.truncate(k);
    out
}

/// The right inverse of largest size (paper 3.4.1, Table 5): the layout
/// `L‡` with `L(L‡(k)) == k` for every `k` in `0..size(L‡)`.
///
/// It collects, in order of stride, the modes whose stride continues the
/// contiguous run `1, s0, s0·s1, …` of offsets; a layout that does not reach
/// offset 1 has the trivial right inverse `1:0`. The result is coalesced.
///
/// Post-conditions:
/// * `L(L‡(k)) == k` for all `0 <= k < size(L‡)`;
/// * `L‡` is injective and `size(L‡) <= size(L)`;
/// * maximality: no offset `size(L‡)` is reachable right after the run (the
///   run of offsets `0..size(L‡)` is the longest contiguous one from 0 that
///   this construction can express).
///
/// ```
/// use cute_dynamic::{Layout, right_inverse};
/// let l: Layout = "(4,8):(8,1)".parse().unwrap();
/// assert_eq!(right_inverse(&l).to_string(), "(8,4):(4,1)");
/// let l: Layout = "(4,8):(1,5)".parse().unwrap();
/// assert_eq!(right_inverse(&l).to_string(), "4:1");
/// ```
pub fn right_inverse(l: &Layout) -> Layout {
    let modes = sorted_modes(l);
    let mut out: crate::layout::Modes = smallvec::smallvec![(0, 0); modes.len()];
    let k = kernel::right_inverse_modes(&modes, &mut out);
    out.truncate(k);
    layout_from_modes(&coalesce_modes(&out))
}

/// A left inverse (paper 3.4.3, Table 6): a layout `L†` with
/// `L(L†(L(k))) == L(k)` for every `k` in `0..size(L)` (paper eq. 26); for
/// injective `L` that is `L†(L(k)) == k`. Offsets off the image of `L` may
/// go anywhere.
///
/// The answer is CuTe's wherever CuTe's answer meets the post-conditions
/// below. For strides `>= 0`, in order:
/// * CuTe's construction (CuTe 3.9 on): the coalesced modes sorted by
///   stride, stride-0 modes skipped, `s_i:d_i` give
///   `(d_0, d_1/d_0, …, d_{n-1}/d_{n-2}, s_{n-1}) : (0, p_0, …, p_{n-2}, p_{n-1})`
///   (`p_i` the integral-coordinate stride of mode `i`), coalesced; there is
///   none when a stride is not a multiple of the one before it (CuTe's
///   static assertion). Where the sorted strides nest (each past the extent
///   of the mode before it) this is the paper's Table 6 and holds by
///   construction: holes in the image are skipped by the larger shapes, so
///   `(4,8):(1,5)` gives `(5,8):(1,4)`. A layout with no non-zero stride
///   gets `size(L):0`.
/// * Else CuTe's earlier construction `right_inverse(make_layout(L,
///   complement(L)))` as pycute, CuTe's Python model, computes it (its
///   complement takes layouts that are not injective too).
///
///   Where the strides do not nest, each of these is checked against the
///   post-conditions by brute force over `L`'s domain, for `size(L)` at most
///   2^16 (above that it is not tried), and returned only when they hold.
///   E.g. `(12,2):(1,9)` gives CuTe's `(9,2):(1,12)` and `(8,4,3):(48,8,4)`
///   the earlier `(4,3):(96,32)` (CuTe's own `(4,2,6,8):(0,32,8,1)` sends the
///   offset 32 to `(0,0,1)`, which is offset 4).
/// * Otherwise a layout over the offsets `0..=max L(k)` found mode by mode:
///   mode `j` has the shape `n_j` of a mixed radix of the offsets and, as
///   stride, the coordinate of the offset `n_0·…·n_{j-1}` (one of the
///   coordinates that reach it, the one that keeps the longest run of
///   offsets right), so that every offset of the image is mapped to a
///   coordinate that reaches it: `(3,2):(2,3)` gives `(2,4):(2,1)`. This
///   search looks at every coordinate, so it is done only for layouts of
///   size and cosize at most 2^16.
///
/// Strides `≤ 0`: offsets are `≤ 0` and `L†` is read on its extended
/// domain, whose odd extension `L†(-x) = -L†(x)` (see
/// [`Layout::eval_extended`]) makes `L†` the left inverse of `-L` (the same
/// layout with its strides negated) with its strides negated, `-L`'s found
/// by the paper's form or the search above (not CuTe's, which does not take
/// negative strides): `left_inverse(4:-1)` is `4:-1`.
///
/// Post-conditions, for every `k` in `0..size(L)`, with `o = L(k)` and
/// `c = L†(o)` read on `L†`'s extended domain (paper 2.4.1: the last mode
/// unbounded, odd below 0):
/// * `L` injective: `o` is in the domain of `L†` (`|o| < size(L†)`) and
///   `c == k`;
/// * otherwise (eq. 26): `c >= 0` and `L(c) == o`, with `L` read on its
///   extended domain. Only CuTe's forms need the extended domains, where
///   CuTe's answer does: `left_inverse((12,2):(1,9))` is `(9,2):(1,12)`, and
///   `L(23) = 20`, `L†(20) = 26` (past `size(L†) = 18`), `L(26) = 20` (past
///   `size(L) = 24`). Every other answer has `o` in the domain of `L†` and
///   `c` in `0..size(L)`.
///
/// Every answer is checked (or holds by construction) before it is returned.
///
/// Errors: `Unsupported` for strides of both signs (with the odd extension
/// no layout serves an image holding `x` and `-x`: `L†(x)` and
/// `L†(-x) = -L†(x)` would both have to be coordinates, so both 0, but
/// `L(0) = 0 != x`; other mixed images are not attempted); `NoLayout`
/// when CuTe's forms do not hold or are not tried, the strides do not nest
/// and the search finds no layout (it is not exhaustive) or the layout is
/// too large to search; `Overflow`.
///
/// ```
/// use cute_dynamic::{Layout, left_inverse};
/// let l: Layout = "(4,8):(1,5)".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap().to_string(), "(5,8):(1,4)");
/// let l: Layout = "(12,2):(1,9)".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap().to_string(), "(9,2):(1,12)");
/// let l: Layout = "(8,4,3):(48,8,4)".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap().to_string(), "(4,3):(96,32)");
/// let l: Layout = "(3,2):(2,3)".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap().to_string(), "(2,4):(2,1)");
/// ```
pub fn left_inverse(l: &Layout) -> Result<Layout> {
    left_inverse_read(l).map(|(r, _)| r)
}

/// How an answer of [`left_inverse`] is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Every offset of `L` is in the domain of `L†` and every `L†(L(k))` is
    /// a coordinate of `L`.
    Domain,
    /// Only on the extended domains (a form of CuTe's, for a layout that
    /// is not injective).
    Extended,
}

/// [`left_inverse`], and how its answer is read.
pub(crate) fn left_inverse_read(l: &Layout) -> Result<(Layout, Reading)> {
    let modes = sorted_modes(l);
    if modes.iter().any(|m| m.1 < 0) {
        return domain_left_inverse(l).map(|r| (r, Reading::Domain));
    }
    let nested = nested_left_inverse(l, &modes);
    if let Some(found) = cute_left_inverse(l, modes.is_empty(), nested.as_ref().ok()) {
        return Ok(found);
    }
    own_left_inverse(l, nested)
}

/// The left inverse without CuTe's forms: the paper's nested form, the
/// search, the negation for strides `≤ 0` (see [`left_inverse`]); every
/// answer is read in the domains ([`Reading::Domain`]).
pub(crate) fn domain_left_inverse(l: &Layout) -> Result<Layout> {
    let modes = sorted_modes(l);
    let neg = modes.iter().any(|m| m.1 < 0);
    if neg {
        if modes.iter().any(|m| m.1 > 0) {
            return Err(LayoutError::Unsupported {
                what: format!(
                    "left_inverse of {l}: strides of both signs (offsets below 0 are read on the odd extension \
                     L(-x) = -L(x), which cannot serve both an offset and its negation)"
                ),
            });
        }
        let r = domain_left_inverse(&negated(l)?)?;
        return negated(&r);
    }
    own_left_inverse(l, nested_left_inverse(l, &modes)).map(|(r, _)| r)
}

/// The nested form, else the search (strides `>= 0`).
fn own_left_inverse(l: &Layout, nested: Result<Layout>) -> Result<(Layout, Reading)> {
    match nested {
        Err(e @ (LayoutError::NotInjective { .. } | LayoutError::NoLayout { .. })) => match searched_left_inverse(l) {
            Ok(r) => Ok((r, Reading::Domain)),
            Err(why) => Err(LayoutError::NoLayout {
                operation: "left_inverse",
                layout: l.to_string(),
                reason: format!("{}; {why}", nested_failure(&e)),
            }),
        },
        r => r.map(|r| (r, Reading::Domain)),
    }
}

/// The largest size of a layout whose left inverse from one of CuTe's
/// constructions is checked by brute force (where it does not hold by
/// construction).
const CHECK_LIMIT: i64 = 1 << 16;

/// CuTe's left inverse of `l` (strides `>= 0`; see [`left_inverse`]) when
/// it meets the post-conditions, and how it is read. `no_stride`: `l` has no
/// non-zero stride; `nested`: the paper's form, where the strides nest.
fn cute_left_inverse(l: &Layout, no_stride: bool, nested: Option<&Layout>) -> Option<(Layout, Reading)> {
    let flat = l.modes();
    if let Some(r) = cute_construction(&coalesce_modes(&flat)) {
        // The paper's form (the same modes), or `size(L):0` for offsets all 0.
        if no_stride || nested == Some(&r) {
            return Some((r, Reading::Domain));
        }
        if let Some(reading) = verified(l, &flat, &r) {
            return Some((r, reading));
        }
    }
    if nested.is_some() {
        return None;
    }
    let r = earlier_construction(&flat)?;
    verified(l, &flat, &r).map(|reading| (r, reading))
}

/// CuTe's `left_inverse` of the coalesced modes `m` (CuTe 3.9 on): `None`
/// where CuTe asserts ("Left inverse divisibility condition") or for a
/// negative stride or an overflow.
fn cute_construction(m: &[(i64, i64)]) -> Option<Layout> {
    if m.is_empty() {
        return Some(layout_from_modes(&[]));
    }
    // CuTe's sort by stride (an exchange sort: equal strides keep the order
    // it leaves them in).
    let mut order: SmallVec<[usize; 9]> = (0..m.len()).collect();
    for i in 0..order.len() {
        for j in i + 1..order.len() {
            if m[order[j]].1 < m[order[i]].1 {
                order.swap(i, j);
            }
        }
    }
    let mut prefix: SmallVec<[i64; 9]> = SmallVec::new();
    let mut p = 1i64;
    for &(s, _) in m {
        prefix.push(p);
        p = p.checked_mul(s)?;
    }
    // Each shape goes with the stride of the mode before it (0 for the first).
    let mut out: crate::layout::Modes = SmallVec::new();
    let (mut size, mut stride) = (1i64, 0i64);
    for &i in &order {
        let d = m[i].1;
        if d == 0 {
            continue;
        }
        if d < 0 || d % size != 0 {
            return None;
        }
        out.push((d / size, stride));
        size = size.checked_mul(d / size)?;
        stride = prefix[i];
    }
    out.push((m[*order.last()?].0, stride));
    let r = layout_from_modes(&coalesce_modes(&out));
    r.check_extent().ok()?;
    Some(r)
}

/// CuTe's earlier `left_inverse(L) = right_inverse(make_layout(L,
/// complement(L)))` of the flat modes `m`, as pycute computes it: its
/// `complement(L)` (cotarget 1) takes the modes sorted by `(stride, shape)`
/// with the shape `d / current` rounded down (0 where a mode starts inside
/// the one before it) and refuses a mode that ends before the current
/// offset; its `right_inverse` takes the modes of `(L, complement)` sorted by
/// `(stride, shape, prefix)` while their strides continue the run
/// `1, s·d, …`. `None` where pycute raises, where a shape of the answer is 0
/// and on overflow.
fn earlier_construction(m: &[(i64, i64)]) -> Option<Layout> {
    let mut by_stride: crate::layout::Modes = m.iter().map(|&(s, d)| (d, s)).collect();
    by_stride.sort_unstable();
    // pycute's coalesce of the complement: size-1 modes dropped, `s0:d0,
    // s1:s0·d0` merged (a shape 0 too).
    fn push(comp: &mut crate::layout::Modes, (s, d): (i64, i64)) -> Option<()> {
        match comp.last_mut() {
            _ if s == 1 => {}
            Some(last) if last.0 == 1 => *last = (s, d),
            Some(last) if last.0.checked_mul(last.1)? == d => last.0 = last.0.checked_mul(s)?,
            _ => comp.push((s, d)),
        }
        Some(())
    }
    let mut comp: crate::layout::Modes = SmallVec::new();
    comp.push((1, 0));
    let mut cur = 1i64;
    for &(d, s) in &by_stride {
        if d == 0 || s == 1 {
            continue;
        }
        let end = s.checked_mul(d)?;
        if cur > end {
            return None;
        }
        push(&mut comp, (d / cur, cur))?;
        cur = end;
    }
    push(&mut comp, (1, cur))?;
    // right_inverse of (L, complement): (stride, shape, prefix), sorted.
    let mut all: SmallVec<[(i64, i64, i64); 18]> = SmallVec::new();
    let mut p = 1i64;
    for &(s, d) in m.iter().chain(comp.iter()) {
        all.push((d, s, p));
        p = p.checked_mul(s)?;
    }
    all.sort_unstable();
    let mut out: crate::layout::Modes = SmallVec::new();
    let mut cur = 1i64;
    for &(d, s, p) in &all {
        if s == 1 {
            continue;
        }
        if d != cur {
            break;
        }
        if s < 1 {
            // pycute's answer would have size 0.
            return None;
        }
        out.push((s, p));
        cur = s.checked_mul(d)?;
    }
    let r = layout_from_modes(&coalesce_modes(&out));
    r.check_extent().ok()?;
    Some(r)
}

/// How `r` meets [`left_inverse`]'s post-conditions for `l` (flat modes
/// `m`, strides `>= 0`), checked at every coordinate: `None` when they do
/// not hold or `l` is larger than [`CHECK_LIMIT`].
fn verified(l: &Layout, m: &[(i64, i64)], r: &Layout) -> Option<Reading> {
    let n = l.size();
    if n > CHECK_LIMIT {
        return None;
    }
    let (rm, rn) = (r.modes(), r.size());
    // `back`: `R(L(k)) == k` so far; `witness`: two coordinates of `L`
    // met (`L` is not injective).
    let (mut back, mut domain, mut witness) = (true, true, false);
    for k in 0..n {
        let o = eval_modes_checked(m, k).ok()?;
        let c = eval_modes_checked(&rm, o).ok()?;
        domain &= o < rn;
        if c == k {
            continue;
        }
        back = false;
        if c < 0 || eval_modes_checked(m, c).ok()? != o {
            return None;
        }
        if c < n {
            witness = true;
        } else {
            domain = false;
        }
    }
    if back {
        // `L` is injective: its offsets must be in the domain of `R`.
        return domain.then_some(Reading::Domain);
    }
    if !witness && is_injective_small(m) != Some(false) {
        return None;
    }
    Some(if domain { Reading::Domain } else { Reading::Extended })
}

/// Why the nested form failed, as a sentence fragment.
#[cold]
fn nested_failure(e: &LayoutError) -> String {
    match e {
        LayoutError::NoLayout { reason, .. } => reason.clone(),
        _ => "two coordinates of its non-zero-stride modes meet".to_string(),
    }
}

/// `l` with every stride negated.
fn negated(l: &Layout) -> Result<Layout> {
    let mut r = l.clone();
    for d in r.stride.vals_mut() {
        *d = d.checked_neg().ok_or(LayoutError::Overflow { operation: "left_inverse" })?;
    }
    Ok(r)
}

/// The paper's left inverse of a layout whose sorted non-zero strides nest
/// (see [`left_inverse`]); `NotInjective` or `NoLayout` when they do not.
fn nested_left_inverse(l: &Layout, modes: &Ranked) -> Result<Layout> {
    let mut out: crate::layout::Modes = smallvec::smallvec![(0, 0); modes.len() + 1];
    let k = match kernel::nested_left_inverse(modes, &mut out) {
        Ok(k) => k,
        Err(why) => return Err(not_nested(l, modes, why)),
    };
    out.truncate(k);
    let r = layout_from_modes(&coalesce_modes(&out));
    r.check_extent()?;
    Ok(r)
}

/// The error of [`nested_left_inverse`] where the strides do not nest.
#[cold]
#[inline(never)]
fn not_nested(l: &Layout, modes: &Ranked, why: Nest) -> LayoutError {
    let reason = match why {
        Nest::Overflow => return LayoutError::Overflow { operation: "left_inverse" },
        Nest::Inside { extent, next } => {
            let flat: crate::layout::Modes = modes.iter().map(|m| (m.0, m.1)).collect();
            if is_injective_small(&flat) == Some(false) {
                return LayoutError::NotInjective { layout: l.to_string() };
            }
            format!("sorted by stride, a mode of stride {next} starts inside the extent {extent} of the previous mode")
        }
        Nest::NotMultiple { stride, next } => {
            format!("sorted by stride, stride {next} is not a multiple of the previous stride {stride}")
        }
    };
    LayoutError::NoLayout { operation: "left_inverse", layout: l.to_string(), reason }
}

/// The largest size and cosize [`searched_left_inverse`] looks at.
const SEARCH_LIMIT: i64 = 1 << 16;

/// About how many offsets the search may look at (over all the modes it
/// tries) before it gives up.
const SEARCH_WORK: i64 = 1 << 20;

/// A left inverse of `l` (strides `>= 0`) over the offsets `0..=max L(k)`,
/// found mode by mode (see [`left_inverse`]), or `None`.
#[cold]
#[inline(never)]
fn searched_left_inverse(l: &Layout) -> std::result::Result<Layout, &'static str> {
    const NOT_FOUND: &str =
        "the search over mixed radices of its offsets found no layout either (it is not exhaustive)";
    let n = l.size();
    if n > SEARCH_LIMIT || l.cosize() > SEARCH_LIMIT {
        return Err("it is too large to search for another form (size or cosize above 65536)");
    }
    // Every offset, from the coalesced layout (the same function on the
    // domain, with at most 16 modes here): `l` may have thousands of size-1
    // modes, which each evaluation would walk.
    let lc = crate::coalesce::coalesce(l);
    let offs: Vec<i64> = (0..n).map(|k| lc.eval(k)).collect::<Result<_>>().map_err(|_| NOT_FOUND)?;
    let top = offs.iter().copied().max().unwrap_or(0);
    if offs.iter().any(|&o| o < 0) {
        return Err(NOT_FOUND);
    }
    // For each offset, the coordinates that reach it, smallest first.
    let mut reps: Vec<Vec<i64>> = vec![Vec::new(); usize::try_from(top).map_err(|_| NOT_FOUND)? + 1];
    for (k, &o) in offs.iter().enumerate() {
        reps[o as usize].push(k as i64);
    }
    let mut search = Search { reps: &reps, top, n, modes: Vec::new(), work: SEARCH_WORK };
    if !search.extend(1) {
        return Err(NOT_FOUND);
    }
    let r = layout_from_modes(&coalesce_modes(&search.modes));
    // Never a wrong layout: eq. 26, checked.
    let holds = offs.iter().all(|&o| r.eval(o).is_ok_and(|c| c >= 0 && c < n && offs[c as usize] == o));
    if holds { Ok(r) } else { Err(NOT_FOUND) }
}

/// The state of [`searched_left_inverse`]: the modes `(shape, stride)`
/// chosen so far over the offsets below the product of their shapes.
struct Search<'a> {
    /// The coordinates reaching each offset (empty: not in the image).
    reps: &'a [Vec<i64>],
    /// The largest offset.
    top: i64,
    /// The size of the layout.
    n: i64,
    modes: Vec<(i64, i64)>,
    /// How many more offsets the search may look at.
    work: i64,
}

impl Search<'_> {
    /// The modes so far at an offset below the product of their shapes.
    fn eval(&self, mut o: i64) -> i64 {
        let mut c = 0;
        for &(s, d) in &self.modes {
            c += (o % s) * d;
            o /= s;
        }
        c
    }

    /// Whether the coordinate `c` reaches the offset `o`.
    fn reaches(&self, o: i64, c: i64) -> bool {
        (0..self.n).contains(&c) && self.reps[o as usize].binary_search(&c).is_ok()
    }

    /// The first offset of the image at or after `p` that a new mode of
    /// radix `p` and stride `e`, unbounded, maps wrongly (`top + 1` if none).
    fn first_wrong(&mut self, p: i64, e: i64) -> i64 {
        let wrong = (p..=self.top)
            .find(|&o| {
                !self.reps[o as usize].is_empty() && {
                    let c = (o / p).checked_mul(e).and_then(|x| x.checked_add(self.eval(o % p)));
                    !c.is_some_and(|c| self.reaches(o, c))
                }
            })
            .unwrap_or(self.top + 1);
        self.work -= wrong - p + 1;
        wrong
    }

    /// Tries `s:e` as the next mode (radix `p`): `Break(true)` when the modes
    /// then cover every offset, `Break(false)` when the work budget ran out,
    /// `Continue` (the mode taken back) to try the next candidate.
    fn try_mode(&mut self, p: i64, s: i64, e: i64) -> ControlFlow<bool> {
        self.modes.push((s, e));
        if self.extend(p * s) {
            return ControlFlow::Break(true);
        }
        self.modes.pop();
        if self.work <= 0 { ControlFlow::Break(false) } else { ControlFlow::Continue(()) }
    }

    /// Adds modes from the offset `p` (the product of the shapes so far) on
    /// until they cover every offset; `false` if no way was found.
    fn extend(&mut self, p: i64) -> bool {
        if p > self.top {
            return true;
        }
        if self.work <= 0 {
            return false;
        }
        let Some(first) = (p..=self.top).find(|&o| !self.reps[o as usize].is_empty()) else {
            return true;
        };
        let (j, low) = (first / p, self.eval(first % p));
        // Strides that map the first offset of the image right, by how far
        // they keep mapping right.
        let strides: Vec<i64> =
            self.reps[first as usize].iter().filter(|&&c| (c - low) % j == 0).map(|&c| (c - low) / j).collect();
        let mut cands: Vec<(i64, i64)> = strides.into_iter().map(|e| (self.first_wrong(p, e), e)).collect();
        cands.sort_by_key(|c| std::cmp::Reverse(c.0));
        for (wrong, e) in cands {
            // Every shape that keeps the offsets below the next radix point
            // right: first one that covers the rest, then those whose next
            // radix point is in the image (its stride is then one of its
            // coordinates), largest first, then the others.
            let most = if wrong > self.top { (self.top + p) / p } else { wrong / p };
            let in_image = |s: &i64| p * s > self.top || !self.reps[(p * s) as usize].is_empty();
            let (mut shapes, others): (Vec<i64>, Vec<i64>) = (j + 1..=most).rev().partition(in_image);
            shapes.extend(others);
            for s in shapes.into_iter().filter(|&s| s >= 2) {
                if let ControlFlow::Break(found) = self.try_mode(p, s, e) {
                    return found;
                }
            }
        }
        // A mode the image skips below its first offset (shape `j`, or
        // smaller): its stride is read only by later offsets, which are
        // also read by later modes. Tried: the step between two offsets of
        // the image one digit apart in this mode (the first such pair), and 0.
        let free = std::iter::once(j).chain((2..j.min(9)).rev()).filter(|&s| s >= 2);
        for s in free {
            self.work -= self.top - first + 1;
            let step = (first..=self.top).find(|&o| {
                (o / p) % s == 1 && !self.reps[o as usize].is_empty() && !self.reps[(o - p) as usize].is_empty()
            });
            let mut strides: Vec<i64> = step
                .map(|o| {
                    let (hi, lo) = (&self.reps[o as usize], &self.reps[(o - p) as usize]);
                    hi.iter().take(8).flat_map(|&c| lo.iter().take(8).map(move |&d| c - d)).collect()
                })
                .unwrap_or_default();
            strides.push(0);
            strides.dedup();
            for e in strides {
                if let ControlFlow::Break(found) = self.try_mode(p, s, e) {
                    return found;
                }
            }
        }
        false
    }
}
