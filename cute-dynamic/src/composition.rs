//! Functional composition `A ∘ B` (paper 3.3; the paper's rule of 3.3.3,
//! made precise below).
//!
//! # The rule
//!
//! `A` is coalesced to flat modes `(S_0..S_R):(D_0..D_R)`, the last one
//! unbounded (the extended domain, paper 2.4.1). `B`'s leaves are composed
//! one at a time, and `A ∘ B` has `B`'s tree with each leaf `s:d` replaced by
//! `A ∘ s:d`, which is found by walking `A`'s modes with `rest_shape = s`,
//! `rest_stride = d` (`compose_leaf_up`, below):
//!
//! 1. `S_r` divides `rest_stride`: the walk skips the mode,
//!    `rest_stride /= S_r`;
//! 2. else `rest_stride` divides `S_r`: the mode holds `n = min(S_r /
//!    rest_stride, rest_shape)` steps, `n` must divide `rest_shape` (shape
//!    divisibility); emit `n : rest_stride·D_r`, go on with `rest_shape / n`
//!    steps of stride 1;
//! 3. else, if the `rest_shape` steps stay inside the mode (`(rest_shape −
//!    1)·rest_stride < S_r`), emit `rest_shape : rest_stride·D_r` and stop;
//! 4. else, for a stride-0 mode, only its carries matter (see the code);
//!    otherwise a stride divisibility error.
//!
//! The walk stops once `rest_shape` is 1; what is left goes to the last mode,
//! `rest_shape : rest_stride·D_R`. A negative `d` walks `|d|` and multiplies
//! by `-rest_stride` (the odd extension; a stride of `-2^63` fits, as where
//! `A` carries the sign), `d = 0` gives `s:0`, and a size-1 leaf
//! gets CuTe's stride (`unit_stride`). Composing leaf by leaf is `A ∘ B`
//! only when the leaves' offsets added up never carry out of a mode of `A`
//! (`check_reach`) and do not mix signs over several modes
//! (`check_signs`).
//!
//! # Speed
//!
//! The speed work below the rule (`A` prepared once onto the stack, the
//! leaves written straight into the inline room of the result, the
//! `Composer` the divides and products share) is in [`composer`]; this
//! file keeps the operation and its cases.

pub(crate) mod composer;

use crate::error::Result;
#[cfg(doc)]
use crate::error::LayoutError;
use crate::int_tuple::LEAF;
use crate::kernel::Fail;
use crate::layout::{Concat, Layout, LayoutRef, Parts};
use crate::tiler::{AsTiler, TilerRef, View, check_tiler_rank, with_next_mode};
use composer::{Composer, compose_fast, compose_slow};

// ---------------------------------------------------------------------------
// The public operation and its cases.
// ---------------------------------------------------------------------------

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
/// mode unbounded), so `B` may reach past `size(A)`; a negative stride in
/// `B` reads `A` below 0, where the extended domain is the odd extension
/// `A(-x) = -A(x)` (see [`Layout::eval_extended`]): `A ∘ s:-d` is
/// `A ∘ s:d` with its strides negated, as CuTe computes it
/// (`(1,(2,4)):(0,(-1,512)) ∘ 4:-1` is `(2,2):(1,-512)`).
///
/// A size-1 leaf `1:d` of `B` becomes `1:d'` with the stride CuTe gives it
/// (`d` ceiling-divided by each bounded mode of the coalesced `A`, times the
/// stride of its last mode; `0` for `d = 0`): it moves no offset, but the
/// result prints as CuTe's (`composition(1:1, 1:1)` is `1:1`).
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
/// add up past a mode of `A` and the concatenation of the `A ∘ B_i` is not
/// `A ∘ B` (then it is not a layout of `B`'s shape; the concatenation is
/// returned when it is exact, checked at every coordinate of a `B` of at
/// most 2^16 elements), `RankMismatch` for a tiler
/// with more modes than `A`, `Overflow`, and `Unsupported` when `B` has
/// leaves of both signs of stride and `A` is not a single linear mode.
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
        TilerRef::Layout(l) => compose_layout_by::<true>(a, l),
        t => compose_tiler(a, t),
    }
}

/// [`composition`] by a tiler or a shape. Out of line, so that the
/// generic `composition` stays small enough to inline at its callers.
#[inline(never)]
fn compose_tiler(a: &Layout, t: TilerRef<'_>) -> Result<Layout> {
    // Built in place and made the returned value in one step.
    let mut out = Parts::new();
    if compose_view_flat_into(a, View::of(t), &mut out).is_some() {
        return Ok(out.into_layout());
    }
    compose_view(a, View::of(t))
}

/// The cold path of a `NotDistributive` refusal: the offsets of `B`'s
/// modes carry across a mode of `A`, so composing mode by mode is not `A ∘
/// B` in general, but it may still be for this pair (a stride-0 mode of `A`
/// can absorb the carry). Then it is the answer (CuTe's, which composes
/// mode by mode unchecked): checked at every coordinate of `B`, for a `B`
/// of at most 2^16 elements; otherwise the refusal stands.
#[cold]
fn leafwise_if_exact(a: &Layout, b: &Layout) -> Option<Layout> {
    fn by_mode(a: &Layout, b: &Layout) -> Option<Layout> {
        if b.shape().is_int() {
            return compose_layout(a, b).ok();
        }
        let modes = b.modes_iter().map(|m| by_mode(a, &m)).collect::<Option<Vec<_>>>()?;
        crate::layout::make_layout(&modes).ok()
    }
    if b.size() > 1 << 16 {
        return None;
    }
    // `A` as composition reads it, in a few modes: composing `B`'s modes
    // one by one and the check below are then linear in the ranks, and the
    // check evaluates `B` and `R` coalesced (the same functions on their
    // domain).
    let a = composer::prepared_layout(a);
    let r = by_mode(&a, b)?;
    let (bc, rc) = (crate::coalesce::coalesce(b), crate::coalesce::coalesce(&r));
    let exact = r.size() == b.size()
        && (0..b.size()).all(|i| match (rc.eval(i), bc.eval(i).and_then(|x| a.eval_extended(x))) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        });
    exact.then_some(r)
}

/// [`compose_view_flat_into`] into a new `Parts`, for the tests.
#[cfg(test)]
fn compose_view_flat(a: &Layout, view: View<'_>) -> Option<Parts> {
    let mut out = Parts::new();
    compose_view_flat_into(a, view, &mut out).map(|()| out)
}

/// [`composition`] by a tiler on borrowed modes of `A`, each tile composed
/// straight into `out` (empty on entry). `None` for an `A` of more than 8
/// leaves and on any failure; then [`compose_view`] computes it again and
/// names the error.
fn compose_view_flat_into(a: &Layout, view: View<'_>, out: &mut Parts) -> Option<()> {
    compose_view_into(out, a.view(), view)?;
    // The whole fits, so every part (each a sum over fewer leaves) does.
    out.fits().then_some(())
}

/// Appends `A ∘ view` to `out` as one subtree (see
/// [`compose_view_flat_into`]).
fn compose_view_into(out: &mut Parts, a: LayoutRef<'_>, view: View<'_>) -> Option<()> {
    let one = |out: &mut Parts, b: LayoutRef<'_>| {
        let mut c = Composer::new();
        c.prepare(a.pairs())?;
        c.compose_into(b, None, out)?;
        c.check()
    };
    match view {
        View::Layout(b) => return one(out, b.view()),
        View::Shape(n) => {
            if let Some(v) = n.leaf() {
                // The tile `v:1`, or `1:0` (a shape below 1 is the general
                // path's error).
                if v < 1 {
                    return None;
                }
                let (shape, stride) = ([v], [crate::tiler::shape_tile_stride(v)]);
                return one(out, LayoutRef { tok: LEAF, shape: &shape, stride: &stride });
            }
        }
        View::Tiles(_) => {}
    }
    // A tiler of more modes than `A` runs out of modes below (`None`):
    // the general path then names the error.
    out.open()?;
    let mut modes = a.modes();
    for tk in view.tiles() {
        compose_view_into(out, modes.next()?, tk)?;
    }
    out.close()
}

fn compose_view(a: &Layout, view: View<'_>) -> Result<Layout> {
    if let Some(r) = view.with_layout(|b| compose_layout(a, b))? {
        return Ok(r);
    }
    let n = view.rank();
    check_tiler_rank(a, n, "composition")?;
    let mut r = Concat::new();
    let mut a_modes = a.modes_iter();
    for tk in view.tiles() {
        r.push(&with_next_mode(a, &mut a_modes, |m| compose_view(m, tk))?);
    }
    r.finish()
}

/// `A ∘ B` for a layout `B`, refusing where `B`'s modes are not
/// distributive over `A` ([`compose_layout_by`] without the by-mode answer).
fn compose_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    compose_layout_by::<false>(a, b)
}

/// `A ∘ B` for a layout `B`; where `B`'s modes are not distributive over
/// `A` and `BY_MODE`, the answer of [`leafwise_if_exact`] (what
/// [`composition`] gives). Every answer is made in the returned value: a
/// caller that matched the result apart and returned it would copy its 144
/// bytes just after they were written, through a library `memcpy` whose
/// wide loads wait on those narrow stores (20 ns of a 35 ns composition).
fn compose_layout_by<const BY_MODE: bool>(a: &Layout, b: &Layout) -> Result<Layout> {
    let mut parts = [Parts::new()];
    let fail = match compose_fast(a, [b], &mut parts) {
        // Built in the returned value, not moved into it.
        Ok(()) => return Ok(parts[0].into_layout()),
        Err(Fail::ROOM) => match compose_slow(a, [b.view()]) {
            Ok([r]) => return Ok(r),
            Err(f) => f,
        },
        Err(f) => f,
    };
    if BY_MODE && matches!(fail, Fail::NotDistributive { .. }) {
        return leafwise_if_exact(a, b).ok_or_else(|| fail.into_error(&|| format!("composition({a}, {b})")));
    }
    Err(fail.into_error(&|| format!("composition({a}, {b})")))
}

/// `(A ∘ B, A ∘ C)`, checked for distributivity as `A ∘ (B, C)` (the reach
/// of both is added up) without building `(B, C)` or taking it apart.
pub(crate) fn compose_pair(a: &Layout, b: &Layout, c: &Layout) -> Result<(Layout, Layout)> {
    let mut parts = [Parts::new(); 2];
    let fail = match compose_fast(a, [b, c], &mut parts) {
        // Built in the returned pair, as in `compose_layout`.
        Ok(()) => return Ok((parts[0].into_layout(), parts[1].into_layout())),
        Err(Fail::ROOM) => match compose_slow(a, [b.view(), c.view()]) {
            Ok([x, y]) => return Ok((x, y)),
            Err(f) => f,
        },
        Err(f) => f,
    };
    Err(fail.into_error(&|| format!("composition({a}, ({b}, {c}))")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::LayoutError;
    use crate::int_tuple::IntTuple;
    use crate::tiler::Tiler;

    /// `R(i) == A(B(i))` on all of `B`'s domain, and `R` prints and parses back.
    fn assert_composes(a: &Layout, b: &Layout, r: &Layout) {
        assert_eq!(r.size(), b.size());
        for i in 0..b.size() {
            assert_eq!(r.eval(i).unwrap(), a.eval_extended(b.eval(i).unwrap()).unwrap(), "{a} o {b} at {i}");
        }
        let again: Layout = r.to_string().parse().unwrap();
        assert_eq!(&again, r);
    }

    /// An `A` of more than 8 leaves takes the slow path from the start, and
    /// its results outgrow the inline room (8 leaves, 28 tokens).
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
            assert_composes(&a, &b, &r);
        }
    }

    /// An `A` of 8 leaves starts on the fast path; results of more than 10
    /// leaves, or a `B` on the heap, hand over to the slow path part way,
    /// which must start afresh (the reach counted so far included).
    #[test]
    fn fast_path_hands_over_when_out_of_room() {
        let a: Layout = "(2,2,2,2,2,2,2,2):(1,4,2,16,8,64,32,128)".parse().unwrap();
        // B, and the number of leaves of A ∘ B (None: not distributive).
        let cases = [
            ("(16,16):(1,16)", Some(8)),
            ("(256,1,1,1):(1,0,0,0)", Some(11)),
            ("((4,4),(4,4),1,1,1):((1,4),(16,64),0,0,0)", Some(11)),
            ("(2,2,2,2,2,2,2,2,1,1,1,1):(1,2,4,8,16,32,64,128,1,1,1,1)", Some(12)),
            ("(2,2,2,2,2,2,2,2,2,2,2,2):(1,1,1,1,1,1,1,1,1,1,1,1)", None),
        ];
        for (b, leaves) in cases {
            let b: Layout = b.parse().unwrap();
            match (composition(&a, &b), leaves) {
                (Ok(r), Some(n)) => {
                    assert_eq!(r.shape.leaf_count(), n, "{a} o {b} = {r}");
                    assert_composes(&a, &b, &r);
                }
                (Err(e), None) => assert!(matches!(e, LayoutError::NotDistributive { .. }), "{a} o {b}: {e}"),
                (r, _) => panic!("{a} o {b}: {r:?}"),
            }
        }
        // The same through the pair of a divide: both halves, one reach.
        let b: Layout = "(16,4):(1,16)".parse().unwrap();
        let c: Layout = "(2,2):(64,128)".parse().unwrap();
        let (x, y) = compose_pair(&a, &b, &c).unwrap();
        assert_composes(&a, &b, &x);
        assert_composes(&a, &c, &y);
        let c: Layout = "2:1".parse().unwrap();
        assert!(compose_pair(&a, &b, &c).is_err(), "B and C overlap in A's first mode");
    }

    /// Composition by a tiler or a shape on the flat path agrees with the
    /// general one wherever it answers, and answers for most small inputs.
    #[test]
    fn flat_tiler_composition_agrees_with_the_general_path() {
        let ls = crate::layout::small_layouts();
        let (mut answered, mut ok) = (0, 0);
        let mut check = |a: &Layout, view: View<'_>, what: &dyn Fn() -> String| {
            let general = compose_view(a, view);
            ok += usize::from(general.is_ok());
            if let Some(p) = compose_view_flat(a, view) {
                answered += 1;
                assert_eq!(Ok(p.into_layout()), general, "{}", what());
            }
        };
        for a in &ls {
            for b in &ls {
                check(a, View::Layout(b), &|| format!("{a} o {b}"));
                let t = Tiler::Tuple(vec![Tiler::Layout(b.clone()), Tiler::Layout(a.clone())]);
                check(a, View::of(t.as_tiler()), &|| format!("{a} o {t}"));
                let t = Tiler::Tuple(vec![Tiler::Tuple(vec![Tiler::Layout(b.clone())])]);
                check(a, View::of(t.as_tiler()), &|| format!("{a} o {t}"));
            }
            for s in ["2", "(2,2)", "(1,(2,1))", "(3,2,1)", "0"] {
                let s: IntTuple = s.parse().unwrap_or_else(|e| panic!("{e}"));
                check(a, View::of(s.as_tiler()), &|| format!("{a} o {s}"));
            }
        }
        assert!(ok > 1000, "only {ok} inputs with a result");
        assert!(answered * 10 >= ok * 9, "the flat path answered {answered} of {ok}");
    }

    /// The fast path (a flat `B`'s structure built as its leaves are
    /// composed, any other `B`'s expanded from the counts) gives what the
    /// slow path gives, which expands every structure from the counts:
    /// the same layout or the same failure, for one `B` and for two.
    #[test]
    fn fast_composition_agrees_with_the_slow_path() {
        let ls = crate::layout::small_layouts();
        let show = |r: std::result::Result<Vec<Layout>, Fail>| match r {
            Ok(v) => v.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(" "),
            Err(f) => format!("{f:?}"),
        };
        let (mut flat, mut ok) = (0, 0);
        for a in &ls {
            for (b, c) in ls.iter().zip(ls.iter().rev()) {
                let mut one = [Parts::new()];
                let fast = compose_fast(a, [b], &mut one).map(|()| vec![one[0].into_layout()]);
                let slow = compose_slow(a, [b.view()]).map(Vec::from);
                ok += usize::from(fast.is_ok());
                flat += usize::from(b.shape.flat_leaves().is_some() && fast.is_ok());
                assert_eq!(show(fast), show(slow), "{a} o {b}");
                let mut two = [Parts::new(); 2];
                let fast = compose_fast(a, [b, c], &mut two).map(|()| two.map(Parts::into_layout).to_vec());
                let slow = compose_slow(a, [b.view(), c.view()]).map(Vec::from);
                assert_eq!(show(fast), show(slow), "{a} o ({b}, {c})");
            }
        }
        assert!(flat > 1000 && ok > flat, "{flat} flat of {ok} results");
    }
}
