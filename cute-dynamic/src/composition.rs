//! Functional composition `A ∘ B` (paper 3.3, DESIGN.md "Composition, precisely").

use crate::error::{LayoutError, Result, checked_mul};
use crate::int_tuple::{Builder, IntTuple, Node, Nodes};
use crate::layout::{Layout, Modes};
use crate::tiler::{Tiler, View, mode};
use smallvec::SmallVec;

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
    let mut bs = Builder::new();
    let mut bd = Builder::new();
    bs.open();
    bd.open();
    for (k, tk) in view.tiles().enumerate() {
        let r = compose_view(&mode(a, k), tk)?;
        bs.push_tree(&r.shape.nodes);
        bd.push_tree(&r.stride.nodes);
    }
    bs.close();
    bd.close();
    // Each mode fits, but together the offsets may not.
    let r = Layout::from_parts(bs.finish(), bd.finish());
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

/// `A` flattened and coalesced for composition: size-1 modes dropped and
/// mergeable neighbours merged, except that the last leaf is always kept (it
/// is the unbounded mode of the extended domain, so its stride matters even
/// when its size is 1). Written into the caller's buffer `out`, to keep
/// large values from moving on the hot path.
#[inline]
fn prepare_into(a: &Layout, out: &mut Modes) {
    let mut pending: Option<(i64, i64)> = None;
    for (s, d) in a.shape.leaves().zip(a.stride.leaves()) {
        if let Some((ps, pd)) = pending.replace((s, d)) {
            if ps == 1 {
                continue;
            }
            match out.last_mut() {
                // The product fits: it is at most the layout's checked size.
                Some(last) if last.0.checked_mul(last.1) == Some(pd) => last.0 *= ps,
                _ => out.push((ps, pd)),
            }
        }
    }
    let last = pending.unwrap_or((1, 0));
    match out.last_mut() {
        Some(prev) if prev.0.checked_mul(prev.1) == Some(last.1) => prev.0 *= last.0,
        _ => out.push(last),
    }
}

/// Quotient and remainder of positive `a` and `b`, with the cheap cases
/// first: 64-bit division is the slowest instruction of the composition loop.
#[inline(always)]
fn divmod(a: i64, b: i64) -> (i64, i64) {
    if b == 1 {
        return (a, 0);
    }
    if a < b {
        return (0, a);
    }
    if let (Ok(a32), Ok(b32)) = (u32::try_from(a), u32::try_from(b)) {
        return (i64::from(a32 / b32), i64::from(a32 % b32));
    }
    (a / b, a % b)
}

/// Composes the prepared `A` with one leaf `s:d` of `B`, appending the
/// resulting modes to `out` (none for a size-1 result).
///
/// `reach[r]` accumulates, over all leaves of `B`, how far into mode `r` of
/// `A` the leaves' offsets go (`(n-1)·stride` per piece placed in that
/// mode), for the distributivity check of [`check_reach`].
pub(crate) fn compose_leaf(
    am: &[(i64, i64)],
    s: i64,
    d: i64,
    out: &mut Modes,
    reach: &mut [i64],
    ctx: &dyn Fn() -> String,
) -> Result<()> {
    if s == 1 {
        return Ok(());
    }
    if d == 0 {
        out.push((s, 0));
        return Ok(());
    }
    let last_d = am[am.len() - 1].1;
    if d < 0 {
        // A(x) = x·D for every integer x only when A is one linear mode.
        if am.len() == 1 {
            out.push((s, checked_mul(d, last_d, "composition")?));
            return Ok(());
        }
        return Err(LayoutError::Unsupported {
            what: format!("{}: a negative stride in the right layout needs a left layout of one linear mode", ctx()),
        });
    }
    let mut rest_shape = s;
    let mut rest_stride = d;
    for (r, &(sr, dr)) in am[..am.len() - 1].iter().enumerate() {
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
                return Err(LayoutError::ShapeDivisibility { shape: sr, fits: n, rest: rest_shape, context: ctx() });
            }
            out.push((n, checked_mul(rest_stride, dr, "composition")?));
            reach[r] = reach[r].saturating_add((n - 1) * rest_stride);
            rest_shape = rest;
            rest_stride = 1;
            if rest_shape == 1 {
                return Ok(());
            }
            continue;
        }
        let stays = (rest_shape - 1).checked_mul(rest_stride).is_some_and(|reach| reach < sr);
        if stays {
            out.push((rest_shape, checked_mul(rest_stride, dr, "composition")?));
            reach[r] = reach[r].saturating_add((rest_shape - 1) * rest_stride);
            return Ok(());
        }
        return Err(LayoutError::StrideDivisibility { shape: sr, stride: rest_stride, context: ctx() });
    }
    out.push((rest_shape, checked_mul(rest_stride, last_d, "composition")?));
    Ok(())
}

/// Composing leaf by leaf is only `A ∘ B` when the leaves' offsets, added
/// up, never carry out of a (bounded) mode of `A`: then every mode of `A`
/// sees the sum of the leaves' digits and `A(Σ x_k) = Σ A(x_k)`. A single
/// leaf always fits (rules 2 and 3 keep its reach below the mode's shape);
/// several leaves may not (`(4,1):(0,1) ∘ (2,4):(1,1)`).
pub(crate) fn check_reach(am: &[(i64, i64)], reach: &[i64], ctx: &dyn Fn() -> String) -> Result<()> {
    for (&(shape, _), &used) in am.iter().zip(reach).take(am.len() - 1) {
        if used >= shape {
            return Err(LayoutError::NotDistributive { shape, reach: used, context: ctx() });
        }
    }
    Ok(())
}

fn compose_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let mut am = Modes::new();
    prepare_into(a, &mut am);
    let ctx = || format!("composition({a}, {b})");
    let mut reach: SmallVec<[i64; 9]> = SmallVec::new();
    reach.resize(am.len(), 0);
    let r = compose_into(&am, b, &mut reach, &ctx)?;
    check_reach(&am, &reach, &ctx)?;
    r.check_extent()?;
    Ok(r)
}

/// `(A ∘ B, A ∘ C)`, checked for distributivity as `A ∘ (B, C)` (the reach
/// of both is added up) without building `(B, C)` or taking it apart.
pub(crate) fn compose_pair(a: &Layout, b: &Layout, c: &Layout) -> Result<(Layout, Layout)> {
    let mut am = Modes::new();
    prepare_into(a, &mut am);
    let ctx = || format!("composition({a}, ({b}, {c}))");
    let mut reach: SmallVec<[i64; 9]> = SmallVec::new();
    reach.resize(am.len(), 0);
    let x = compose_into(&am, b, &mut reach, &ctx)?;
    let y = compose_into(&am, c, &mut reach, &ctx)?;
    check_reach(&am, &reach, &ctx)?;
    x.check_extent()?;
    y.check_extent()?;
    Ok((x, y))
}

/// `A ∘ B` for `A`'s prepared modes, adding `B`'s reach into `reach`.
fn compose_into(am: &[(i64, i64)], b: &Layout, reach: &mut [i64], ctx: &dyn Fn() -> String) -> Result<Layout> {
    let (bs, bd) = (&b.shape.nodes[..], &b.stride.nodes[..]);
    let mut rs = Nodes::new();
    let mut rd = Nodes::new();
    let mut pieces = Modes::new();
    // B's tree is walked in pre-order without recursion: a tuple of B is a
    // tuple of the same rank in R (one child per child), so only its span
    // changes; `open` holds (position in R, end of the tuple in B) until the
    // span can be patched.
    let mut open: SmallVec<[(usize, usize); 8]> = SmallVec::new();
    for (i, (&sn, &dn)) in bs.iter().zip(bd).enumerate() {
        match (sn, dn) {
            (Node::Tuple { rank, span }, _) => {
                open.push((rs.len(), i + span as usize));
                rs.push(Node::Tuple { rank, span: 0 });
                rd.push(Node::Tuple { rank, span: 0 });
            }
            (Node::Leaf(s), Node::Leaf(d)) => {
                pieces.clear();
                compose_leaf(am, s, d, &mut pieces, reach, ctx)?;
                match pieces.as_slice() {
                    [] => {
                        rs.push(Node::Leaf(1));
                        rd.push(Node::Leaf(0));
                    }
                    [(s, d)] => {
                        rs.push(Node::Leaf(*s));
                        rd.push(Node::Leaf(*d));
                    }
                    many => {
                        let header = Node::Tuple { rank: many.len() as u32, span: many.len() as u32 + 1 };
                        rs.push(header);
                        rd.push(header);
                        for &(s, d) in many {
                            rs.push(Node::Leaf(s));
                            rd.push(Node::Leaf(d));
                        }
                    }
                }
            }
            // Congruent by construction; a leaf never pairs with a tuple.
            (Node::Leaf(_), Node::Tuple { .. }) => {}
        }
        while let Some(&(at, end)) = open.last() {
            if end != i + 1 {
                break;
            }
            open.pop();
            let span = (rs.len() - at) as u32;
            if let Node::Tuple { rank, .. } = rs[at] {
                rs[at] = Node::Tuple { rank, span };
                rd[at] = Node::Tuple { rank, span };
            }
        }
    }
    Ok(Layout::from_parts(IntTuple::from_nodes(rs), IntTuple::from_nodes(rd)))
}
