//! Negative strides in composition (issue "CuTe parity", item 3), and the
//! extended domain below 0 that they read.
//!
//! A negative stride in `B` reads `A` at negative integral coordinates. The
//! extended domain splits those with truncating division, as CuTe's C++
//! `idx2crd` (`/` and `%`): the coordinate of `-x` is the negated coordinate
//! of `x`, so `A(-x) == -A(x)` (the odd extension). With it,
//! `A ∘ s:-d == -(A ∘ s:d)`, the answers CuTe gives.

use crate::common::{composes_to, lay};
use cute_dynamic::{IntTuple, Layout, LayoutError, composition, idx2crd};
use cute_tests::check;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// The examples (CuTe's answers).
#[test]
fn cute_examples() {
    composes_to("(1,(2,4)):(0,(-1,512))", "4:-1", "(2,2):(1,-512)");
    composes_to("(1,(2,4)):(0,(-1,512))", "2:-1", "2:1");
}

/// More by hand: `A ∘ s:-d` is `A ∘ s:d` with the strides negated.
#[test]
fn negation_of_the_positive_composition() {
    composes_to("(4,8):(1,5)", "8:-2", "(2,4):(-2,-5)");
    composes_to("(4,8):(8,1)", "(2,4):(-2,-4)", "(2,4):(-16,-1)");
    composes_to("(3,4):(5,-1)", "4:-3", "4:1");
    // One linear mode is linear everywhere: any signs.
    composes_to("8:3", "(2,2):(1,-2)", "(2,2):(3,-6)");
    // Stride 0 is neither sign.
    composes_to("(4,8):(1,5)", "(2,3):(-1,0)", "(2,3):(-1,0)");
}

/// The extended domain below 0: truncating division, `L(-i) == -L(i)`.
#[test]
fn odd_extension_below_zero() {
    let l = lay("(2,4):(-1,512)");
    assert_eq!(l.eval_extended(-1).unwrap(), 1);
    assert_eq!(l.eval_extended(-2).unwrap(), -512);
    assert_eq!(l.eval_extended(-3).unwrap(), -511);
    let s: IntTuple = "(2,4)".parse().unwrap();
    assert_eq!(idx2crd(-3, &s).unwrap().to_string(), "(-1,-1)");
    assert_eq!(idx2crd(3, &s).unwrap().to_string(), "(1,1)");
    for i in -40..40 {
        assert_eq!(l.eval_extended(-i).unwrap(), -l.eval_extended(i).unwrap(), "at {i}");
    }
}

/// Leaves of both signs do not distribute over an `A` of several modes: the
/// refusal names it, and the answer would indeed not be the sum of the
/// leaves' compositions.
#[test]
fn mixed_signs_refused_over_several_modes() {
    let (a, b) = (lay("(2,4):(1,10)"), lay("(2,2):(2,-1)"));
    let e = composition(&a, &b).unwrap_err();
    assert!(matches!(e, LayoutError::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("both positive and negative strides"), "{e}");
    // B(1,1) = 2 - 1 = 1 and A(1) = 1, but A(2) + A(-1) = 10 - 1 = 9.
    assert_eq!(a.eval_extended(b.eval(3).unwrap()).unwrap(), 1);
    assert_eq!(a.eval_extended(2).unwrap() + a.eval_extended(-1).unwrap(), 9);
}

/// `A ∘ -B` and `-A ∘ B` (`a_up ∘ b_down`, `a_down ∘ b_up`) give the same
/// layout, or the same error (its context names the operands, so only
/// the kind and, for an overflow, the operation are compared).
fn one_answer(a_up: &Layout, b_up: &Layout, a_down: &Layout, b_down: &Layout) -> Result<(), String> {
    let (x, y) = (composition(a_up, b_down), composition(a_down, b_up));
    let same = match (&x, &y) {
        (Ok(x), Ok(y)) => x == y,
        (Err(LayoutError::Overflow { operation: p }), Err(LayoutError::Overflow { operation: q })) => p == q,
        (Err(e), Err(f)) => std::mem::discriminant(e) == std::mem::discriminant(f),
        _ => false,
    };
    if same { Ok(()) } else { Err(format!("{a_up} o {b_down} = {x:?} but {a_down} o {b_up} = {y:?}")) }
}

/// Where the sign sits does not change the answer: `A ∘ s:-d` and
/// `-A ∘ s:d` are one function, so they give one result or one error,
/// also where a stride of the result is exactly `-2^63` (a stride that
/// fits, in a layout whose extent does not).
#[test]
fn the_sign_in_a_or_in_b_gives_the_same_answer() {
    for (k, s) in [(44, 2), (40, 1), (10, 4), (62, 2)] {
        let m = 63 - k;
        let (a_up, a_down) =
            (lay(&format!("({s},2):(1,{})", 1i64 << k)), lay(&format!("({s},2):(-1,{})", -(1i64 << k))));
        for b in [
            format!("(2):({})", 1i64 << m),
            format!("(1):({})", 1i64 << m),
            format!("(4):({})", (1i64 << m) - 1),
            format!("(8):({s})"),
        ] {
            let b_up = lay(&b);
            let b_down = lay(&b.replace(":(", ":(-"));
            one_answer(&a_up, &b_up, &a_down, &b_down).unwrap();
        }
    }
    let e = composition(&lay("(1):(17592186044416)"), &lay("(2):(-524288)")).unwrap_err();
    assert_eq!(e, LayoutError::Overflow { operation: "layout extent" });
    // A leaf of stride -2^63 (its magnitude has no i64) is of size 1: it
    // moves nothing, and composes to 1:0 rather than an error.
    for a in ["4:1", "(4,8):(1,4)", "(2,3):(3,1)"] {
        assert_eq!(composition(&lay(a), &lay("1:-9223372036854775808")).unwrap().to_string(), "1:0", "{a}");
        assert_eq!(composition(&lay(a), &lay("(1):(-9223372036854775808)")).unwrap().to_string(), "(1):(0)", "{a}");
    }
}

fn layout(lo: i64, hi: i64) -> impl Strategy<Value = Layout> {
    crate::common::small_layout(4, lo, hi)
}

fn config() -> Config {
    Config { failure_persistence: None, ..Config::with_cases(2000) }
}

proptest! {
    #![proptest_config(config())]

    /// Negative strides on both sides: every answer meets the composition's
    /// post-conditions on the extended domain (odd below 0), and every
    /// refusal is one of the documented errors.
    #[test]
    fn composition_with_signed_strides(a in layout(-8, 8), b in layout(-6, 6)) {
        match composition(&a, &b) {
            Ok(r) => check::composition(&a, &b, &r).map_err(TestCaseError::fail)?,
            Err(e) => prop_assert!(check::documented_error("composition", &e), "{} o {}: {}", a, b, e),
        }
    }

    /// B of one sign only, negative: accepted exactly when `A ∘ |B|` is, and
    /// then it is `A ∘ |B|` with its strides negated.
    #[test]
    fn negative_b_is_the_negated_positive_one(a in layout(-8, 8), b in layout(0, 6)) {
        let b = b.flatten();
        let neg = Layout::new(b.shape().clone(), IntTuple::flat(b.stride().leaves().map(|d| -d))).unwrap();
        match (composition(&a, &b), composition(&a, &neg)) {
            (Ok(p), Ok(n)) => {
                let negated: Vec<i64> = p.stride().leaves().map(|d| -d).collect();
                prop_assert_eq!(n.stride().leaves().collect::<Vec<_>>(), negated);
                check::composition(&a, &neg, &n).map_err(TestCaseError::fail)?;
            }
            (Err(_), Err(_)) => {}
            (p, n) => prop_assert!(false, "{} o {}: {:?}, but with negated strides {:?}", a, b, p, n),
        }
    }

    /// `A ∘ -B` and `-A ∘ B` are one function: the same layout or the same
    /// error, with strides scaled near the limit of `i64` (results whose
    /// strides or extent reach 2^63 on either side).
    #[test]
    fn the_sign_in_a_or_in_b_gives_one_answer(
        a in layout(-8, 8),
        b in layout(0, 6),
        ka in 0u32..=62,
        slack in 0u32..=6,
    ) {
        // Products of the scales near 2^63, where the sign's place mattered.
        let kb = 63u32.saturating_sub(ka + slack).min(62);
        let scaled = |l: &Layout, k: u32, sign: i64| {
            let l = l.flatten();
            let d: Option<Vec<i64>> = l.stride().leaves().map(|d| d.checked_mul(sign << k)).collect();
            Layout::new(l.shape().clone(), IntTuple::flat(d?)).ok()
        };
        let (Some(a_up), Some(a_down), Some(b_up), Some(b_down)) =
            (scaled(&a, ka, 1), scaled(&a, ka, -1), scaled(&b, kb, 1), scaled(&b, kb, -1))
        else {
            return Ok(());
        };
        one_answer(&a_up, &b_up, &a_down, &b_down).map_err(TestCaseError::fail)?;
    }
}
