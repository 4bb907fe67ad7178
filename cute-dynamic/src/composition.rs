//! Functional composition `A ∘ B` (paper 3.3, DESIGN.md "Composition, precisely").

use crate::error::{LayoutError, Result};
use crate::int_tuple::{IntTuple, PairWriter, Tok};
use crate::layout::Layout;
use crate::tiler::{Tiler, View, mode};

/// What the second argument of a by-mode operation can be: a layout, a tiler
/// or a shape (read as a tiler of stride-1 layouts). Implemented for
/// [`Layout`], [`Tiler`] and [`IntTuple`].
pub trait AsTiler {
    /// A borrowed view of the argument as a tiler.
    fn as_tiler(&self) -> TilerRef<'_>;
}

/// A borrowed tiler argument (see [`AsTiler`]).
#[derive(Clone, Copy, Debug)]
pub enum TilerRef<'a> {
    /// A layout: the operation treats both sides as 1-D functions.
    Layout(&'a Layout),
    /// A tuple of tilers, applied mode by mode.
    Tiler(&'a Tiler),
    /// A shape: an integer `n` is `n:1`, a tuple applies by mode.
    Shape(&'a IntTuple),
}

impl AsTiler for Layout {
    fn as_tiler(&self) -> TilerRef<'_> {
        TilerRef::Layout(self)
    }
}
impl AsTiler for Tiler {
    fn as_tiler(&self) -> TilerRef<'_> {
        match self {
            Tiler::Layout(l) => TilerRef::Layout(l),
            Tiler::Tuple(_) => TilerRef::Tiler(self),
        }
    }
}
impl AsTiler for IntTuple {
    fn as_tiler(&self) -> TilerRef<'_> {
        TilerRef::Shape(self)
    }
}

/// Functional composition `R = A ∘ B`.
///
/// * `B` a layout: both are 1-D functions of integers; `B`'s modes are
///   distributed over, so `R` has `B`'s tree with each leaf `s:d` of `B`
///   replaced by `A ∘ s:d`.
/// * `B` a tiler `<B0, B1, ...>`: `R = (A0 ∘ B0, A1 ∘ B1, ...)`, one mode per
///   tile; modes of `A` the tiler does not reach are not in `R`.
/// * `B` a shape: the tiler of stride-1 layouts of that shape.
///
/// `A` is read on its extended domain (paper 2.4.1: `idx2crd` with the last
/// mode unbounded), so `B` may reach past `size(A)`.
///
/// Post-conditions (paper eqs. 16–17), for a layout `B`:
/// * `B ⪯ R`: `R`'s shape is compatible with `B`'s (same tree, each leaf of
///   `B` of size `s` replaced by a shape of size `s`);
/// * `R(c) == A(B(c))` for every coordinate `c` of `B`.
///
/// For a tiler, each mode of the result satisfies them for its tile.
///
/// Errors: [`LayoutError::StrideDivisibility`] and
/// [`LayoutError::ShapeDivisibility`] when the composition is not a layout
/// (paper 3.3.3, the two divisibility conditions),
/// [`LayoutError::NotDistributive`] when `B` has several modes whose offsets
/// add up past a mode of `A` (then `A ∘ B` is not the concatenation of the
/// `A ∘ B_i`, and not a layout of `B`'s shape), `RankMismatch` for a tiler
/// with more modes than `A`, `Overflow`, and `Unsupported` for a negative
/// stride in `B` when `A` is not a single linear mode.
///
/// ```
/// use cute_dynamic::{Layout, composition};
/// let a: Layout = "(6,2):(8,2)".parse().unwrap();
/// let b: Layout = "(4,3):(3,1)".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "((2,2),3):((24,2),8)");
///
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
/// let t: cute_dynamic::Tiler = "<3:4, 8:2>".parse().unwrap();
/// assert_eq!(composition(&a, &t).unwrap().to_string(), "(3,(2,4)):(236,(26,1))");
/// ```
pub fn composition<T: AsTiler + ?Sized>(a: &Layout, b: &T) -> Result<Layout> {
    match b.as_tiler() {
        // The common case, straight through: every wrapper around the large
        // result value costs a copy.
        TilerRef::Layout(l) => compose_layout(a, l),
        t => compose_view(a, View::of(t)),
    }
}

fn compose_view(a: &Layout, view: View<'_>) -> Result<Layout> {
    if let Some(r) = view.with_layout(|b| compose_layout(a, b))? {
        return Ok(r);
    }
    let n = view.rank();
    check_tiler_rank(a, n, "composition")?;
    let mut r = Layout::empty();
    r.open();
    for (k, tk) in view.tiles().enumerate() {
        r.push_layout(&compose_view(&mode(a, k), tk)?);
    }
    r.close();
    // Each mode fits, but together the offsets may not.
    r.check_extent()?;
    Ok(r)
}

/// A tiler of `n` modes fits a layout of rank at least `n` (a scalar layout
/// takes a tiler of one mode).
pub(crate) fn check_tiler_rank(a: &Layout, n: usize, what: &str) -> Result<()> {
    if n > a.rank() {
        return Err(LayoutError::RankMismatch {
            what: format!("{what} of {a} by a tiler of {n} modes (a tiler may not have more modes than the layout)"),
            expected: a.rank(),
            found: n,
        });
    }
    Ok(())
}

/// Room on the stack for the prepared modes of `A` (and their reach); a
/// layout of more leaves takes its scratch space from the heap.
const STACK_MODES: usize = 8;

/// `A` flattened and coalesced for composition: size-1 modes dropped and
/// mergeable neighbours merged, except that the last leaf is always kept (it
/// is the unbounded mode of the extended domain, so its stride matters even
/// when its size is 1). Written into `out` (room for one mode per leaf of
/// `A`, at least one); returns the number of modes.
#[inline(always)]
fn prepare(a: &Layout, out: &mut [(i64, i64)]) -> usize {
    let mut n = 0usize;
    let mut pending: Option<(i64, i64)> = None;
    for (s, d) in a.pairs() {
        if let Some((ps, pd)) = pending.replace((s, d)) {
            if ps == 1 {
                continue;
            }
            // The product fits: it is at most the layout's checked size.
            if n > 0 && out[n - 1].0.checked_mul(out[n - 1].1) == Some(pd) {
                out[n - 1].0 *= ps;
            } else {
                out[n] = (ps, pd);
                n += 1;
            }
        }
    }
    let last = pending.unwrap_or((1, 0));
    if n > 0 && out[n - 1].0.checked_mul(out[n - 1].1) == Some(last.1) {
        out[n - 1].0 *= last.0;
    } else {
        out[n] = last;
        n += 1;
    }
    n
}

/// Quotient and remainder of positive `a` and `b`, with the cheap cases
/// first: integer division is the slowest instruction of the composition
/// loop, and its latency adds up along the chain of a leaf's modes. Shapes
/// and strides are most often powers of two, which need only a shift.
#[inline(always)]
fn divmod(a: i64, b: i64) -> (i64, i64) {
    if a < b {
        return (0, a);
    }
    if a == b {
        return (1, 0);
    }
    if b & (b - 1) == 0 {
        return (a >> b.trailing_zeros(), a & (b - 1));
    }
    if let (Ok(a32), Ok(b32)) = (u32::try_from(a), u32::try_from(b)) {
        return (i64::from(a32 / b32), i64::from(a32 % b32));
    }
    (a / b, a % b)
}

/// Where [`compose_leaf`] puts the modes of `A ∘ s:d`: straight into the
/// result, as a leaf for one mode, a tuple for several, `1:0` for none (the
/// first mode waits until it is known whether a second follows).
///
/// It also adds up the result's extent as the modes go in, for the
/// invariant that every offset fits in `i64` (the size needs no check: it
/// is `B`'s).
struct Pieces<'a> {
    out: PairWriter<'a>,
    first: (i64, i64),
    count: usize,
    /// Sums of the positive and of the negative `(s-1)·d`.
    hi: i64,
    lo: i64,
    overflow: bool,
}

impl<'a> Pieces<'a> {
    #[inline(always)]
    fn new(out: &'a mut Layout) -> Self {
        Pieces { out: out.writer(), first: (1, 0), count: 0, hi: 0, lo: 0, overflow: false }
    }

    /// Starts the modes of the next leaf of `B`.
    #[inline(always)]
    fn begin(&mut self) {
        self.first = (1, 0);
        self.count = 0;
    }

    #[inline(always)]
    fn push(&mut self, s: i64, d: i64) {
        // No branch per mode: an overflow is remembered and reported at the end.
        let (span, o1) = (s - 1).overflowing_mul(d);
        let (hi, o2) = self.hi.overflowing_add(span.max(0));
        let (lo, o3) = self.lo.overflowing_add(span.min(0));
        (self.hi, self.lo) = (hi, lo);
        self.overflow |= o1 | o2 | o3;
        match self.count {
            0 => self.first = (s, d),
            1 => {
                self.out.open();
                self.out.leaf(self.first.0, self.first.1);
                self.out.leaf(s, d);
            }
            _ => self.out.leaf(s, d),
        }
        self.count += 1;
    }

    /// Ends the modes of the current leaf of `B`.
    #[inline(always)]
    fn finish(&mut self) {
        match self.count {
            0 | 1 => self.out.leaf(self.first.0, self.first.1),
            _ => self.out.close(),
        }
    }

    /// Every offset of the result fits in `i64` (one past the largest too).
    #[inline(always)]
    fn fits(&self) -> bool {
        !self.overflow && self.hi < i64::MAX
    }
}

/// Why a composition failed, without the text that names the operands: the
/// hot path only records the numbers, [`Fail::into_error`] writes the message.
#[derive(Clone, Copy, Debug)]
enum Fail {
    Stride { shape: i64, stride: i64 },
    Shape { shape: i64, fits: i64, rest: i64 },
    NotDistributive { shape: i64, reach: i64 },
    Negative,
    Overflow(&'static str),
}

impl Fail {
    #[cold]
    #[inline(never)]
    fn into_error(self, ctx: &dyn Fn() -> String) -> LayoutError {
        match self {
            Fail::Stride { shape, stride } => LayoutError::StrideDivisibility { shape, stride, context: ctx() },
            Fail::Shape { shape, fits, rest } => LayoutError::ShapeDivisibility { shape, fits, rest, context: ctx() },
            Fail::NotDistributive { shape, reach } => LayoutError::NotDistributive { shape, reach, context: ctx() },
            Fail::Negative => LayoutError::Unsupported {
                what: format!(
                    "{}: a negative stride in the right layout needs a left layout of one linear mode",
                    ctx()
                ),
            },
            Fail::Overflow(operation) => LayoutError::Overflow { operation },
        }
    }
}

/// `a·b`, or the overflow failure.
#[inline(always)]
fn mul(a: i64, b: i64) -> std::result::Result<i64, Fail> {
    a.checked_mul(b).ok_or(Fail::Overflow("composition"))
}

/// Composes the prepared `A` with one leaf `s:d` of `B`, putting the
/// resulting modes into `out`.
///
/// `reach[r]` accumulates, over all leaves of `B`, how far into mode `r` of
/// `A` the leaves' offsets go (`(n-1)·stride` per piece placed in that
/// mode), for the distributivity check of [`check_reach`].
#[inline(always)]
fn compose_leaf(
    am: &[(i64, i64)],
    s: i64,
    d: i64,
    out: &mut Pieces<'_>,
    reach: &mut [i64],
) -> std::result::Result<(), Fail> {
    if s == 1 {
        return Ok(());
    }
    if d == 0 {
        out.push(s, 0);
        return Ok(());
    }
    let Some((&(_, last_d), bounded)) = am.split_last() else { return Ok(()) };
    if d < 0 {
        // A(x) = x·D for every integer x only when A is one linear mode.
        if bounded.is_empty() {
            out.push(s, mul(d, last_d)?);
            return Ok(());
        }
        return Err(Fail::Negative);
    }
    let mut rest_shape = s;
    let mut rest_stride = d;
    for (&(sr, dr), used) in bounded.iter().zip(reach.iter_mut()) {
        let (skip, left) = divmod(rest_stride, sr);
        if left == 0 {
            rest_stride = skip;
            continue;
        }
        let (fits, left) = divmod(sr, rest_stride);
        if left == 0 {
            let n = fits.min(rest_shape);
            let (rest, left) = divmod(rest_shape, n);
            if left != 0 {
                return Err(Fail::Shape { shape: sr, fits: n, rest: rest_shape });
            }
            out.push(n, mul(rest_stride, dr)?);
            *used = used.saturating_add((n - 1) * rest_stride);
            rest_shape = rest;
            rest_stride = 1;
            if rest_shape == 1 {
                return Ok(());
            }
            continue;
        }
        let stays = (rest_shape - 1).checked_mul(rest_stride).is_some_and(|reach| reach < sr);
        if stays {
            out.push(rest_shape, mul(rest_stride, dr)?);
            *used = used.saturating_add((rest_shape - 1) * rest_stride);
            return Ok(());
        }
        return Err(Fail::Stride { shape: sr, stride: rest_stride });
    }
    out.push(rest_shape, mul(rest_stride, last_d)?);
    Ok(())
}

/// Composing leaf by leaf is only `A ∘ B` when the leaves' offsets, added
/// up, never carry out of a (bounded) mode of `A`: then every mode of `A`
/// sees the sum of the leaves' digits and `A(Σ x_k) = Σ A(x_k)`. A single
/// leaf always fits (rules 2 and 3 keep its reach below the mode's shape);
/// several leaves may not (`(4,1):(0,1) ∘ (2,4):(1,1)`).
#[inline(always)]
fn check_reach(am: &[(i64, i64)], reach: &[i64]) -> std::result::Result<(), Fail> {
    let bounded = &am[..am.len().saturating_sub(1)];
    for (&(shape, _), &used) in bounded.iter().zip(reach) {
        if used >= shape {
            return Err(Fail::NotDistributive { shape, reach: used });
        }
    }
    Ok(())
}

/// Composes `A` with each of `bs` in turn into the matching `outs`, checking
/// distributivity over all of them together (as `A ∘ (B0, B1, ...)`).
#[inline(always)]
fn compose_all(a: &Layout, bs: &[&Layout], outs: &mut [&mut Layout]) -> std::result::Result<(), Fail> {
    // Prepared A has at most one mode per leaf, and at least one.
    // Not `with_scratch`: two buffers through nested closures are not
    // inlined, and this is the hot path (20% slower measured).
    let n = a.shape.vals().len().max(1);
    if n <= STACK_MODES {
        let mut am = [(0i64, 0i64); STACK_MODES];
        let mut reach = [0i64; STACK_MODES];
        compose_all_in(a, bs, outs, &mut am, &mut reach)
    } else {
        compose_all_in(a, bs, outs, &mut vec![(0, 0); n], &mut vec![0; n])
    }
}

/// [`compose_all`] with scratch space for the prepared modes of `A` and
/// their reach (both at least one per leaf of `A`, and at least one).
#[inline(always)]
fn compose_all_in(
    a: &Layout,
    bs: &[&Layout],
    outs: &mut [&mut Layout],
    am: &mut [(i64, i64)],
    reach: &mut [i64],
) -> std::result::Result<(), Fail> {
    let k = prepare(a, am);
    let am = &am[..k];
    let reach = &mut reach[..k];
    for (b, out) in bs.iter().zip(outs.iter_mut()) {
        compose_into(am, b, reach, out)?;
    }
    check_reach(am, reach)?;
    Ok(())
}

fn compose_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let mut r = Layout::empty();
    match compose_all(a, &[b], &mut [&mut r]) {
        Ok(()) => Ok(r),
        Err(f) => Err(f.into_error(&|| format!("composition({a}, {b})"))),
    }
}

/// `(A ∘ B, A ∘ C)`, checked for distributivity as `A ∘ (B, C)` (the reach
/// of both is added up) without building `(B, C)` or taking it apart.
pub(crate) fn compose_pair(a: &Layout, b: &Layout, c: &Layout) -> Result<(Layout, Layout)> {
    let mut x = Layout::empty();
    let mut y = Layout::empty();
    match compose_all(a, &[b, c], &mut [&mut x, &mut y]) {
        Ok(()) => Ok((x, y)),
        Err(f) => Err(f.into_error(&|| format!("composition({a}, ({b}, {c}))"))),
    }
}

/// `A ∘ B` for `A`'s prepared modes into `r`, adding `B`'s reach into `reach`.
#[inline(always)]
fn compose_into(am: &[(i64, i64)], b: &Layout, reach: &mut [i64], r: &mut Layout) -> std::result::Result<(), Fail> {
    // R has B's structure, with each leaf replaced by its composition with A.
    let (shapes, strides) = (b.shape.vals(), b.stride.vals());
    let mut k = 0;
    let mut pieces = Pieces::new(r);
    for &t in b.shape.toks() {
        match t {
            Tok::Open => pieces.out.open(),
            Tok::Close => pieces.out.close(),
            Tok::Leaf => {
                // Congruent by construction: one value each per leaf token.
                let (Some(&s), Some(&d)) = (shapes.get(k), strides.get(k)) else { break };
                k += 1;
                pieces.begin();
                compose_leaf(am, s, d, &mut pieces, reach)?;
                pieces.finish();
            }
        }
    }
    if pieces.fits() { Ok(()) } else { Err(Fail::Overflow("layout extent")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results past the inline room (10 leaves, 30 tokens) move to the heap
    /// part way through; they must still be the composition.
    #[test]
    fn results_larger_than_inline_storage() {
        let a: Layout = "(2,2,2,2,2,2,2,2,2,2,2,2):(1,4,2,16,8,64,32,256,128,1024,512,2048)".parse().unwrap();
        for b in [
            "4096:1",
            "(64,64):(1,64)",
            "((8,8),(8,8)):((1,8),(64,512))",
            "(2,(2,(2,(2,(2,(2,64)))))):(1,(2,(4,(8,(16,(32,64))))))",
        ] {
            let b: Layout = b.parse().unwrap();
            let r = composition(&a, &b).unwrap();
            assert!(r.shape.leaf_count() > 10, "{r}");
            assert_eq!(r.size(), b.size());
            for i in 0..b.size() {
                assert_eq!(r.eval(i).unwrap(), a.eval(b.eval(i).unwrap()).unwrap(), "{a} o {b} at {i}");
            }
            let again: Layout = r.to_string().parse().unwrap();
            assert_eq!(again, r);
        }
    }

    #[test]
    fn divmod_matches_division() {
        for a in 1..300i64 {
            for b in 1..70i64 {
                assert_eq!(divmod(a, b), (a / b, a % b), "{a} / {b}");
            }
        }
        let big = i64::MAX - 6;
        for b in [1, 2, 3, 1 << 40, (1 << 40) + 1, i64::MAX] {
            assert_eq!(divmod(big, b), (big / b, big % b));
        }
    }
}
