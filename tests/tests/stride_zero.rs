//! Stride-0 modes of `A` in composition, and so in the divides and products
//! that compose (issue "CuTe parity", item 2).
//!
//! A stride-0 mode of shape `S` adds nothing to the offset: only its carry
//! into the next mode matters. A leaf `s:d` of `B` whose stride neither
//! divides nor is divided by `S` carries once every `n = ceil(S/d)` steps
//! as long as the slip `e = n·d - S` per group never carries an extra time
//! (`d·(n-1) + (s/n - 1)·e < S`); then `A ∘ s:d` has the mode `n:0` and
//! goes on with `s/n` steps of 1 into the next mode. Other carry patterns
//! are refused as before; some of them are layouts all the same (`(8,1):(0,1)
//! ∘ 8:12` reads `floor(3i/2)`, which is `(2,4):(1,3)`): a stride past the
//! mode's shape would need the carries split into two modes of `B`, which
//! the fold over A's modes does not do.

use crate::common::{composes_to, lay};
use cute_dynamic::{Layout, LayoutError, blocked_product, complement, composition, logical_divide, make_layout};
use cute_tests::check;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// The tile of the issue's divide, refused before (stride divisibility):
/// `A(3i)` is `0,0,0,9,9,9`.
#[test]
fn composition_through_a_stride_0_mode() {
    composes_to("(8,2):(0,9)", "6:3", "(3,2):(0,9)");
    // A stride past S: every step carries (5 = 4 + 1, slip 1 per step).
    composes_to("(4,3):(0,1)", "3:5", "3:1");
    // Several leaves: the second starts past the stride-0 mode (24 = 3·8),
    // the first leaves digits up to 7 < 8 in it, so nothing carries across.
    composes_to("(8,3):(0,7)", "(6,2):(3,24)", "((3,2),2):((0,7),21)");
}

/// Where a group slips a whole carry the function is not a layout, and it
/// is still refused: `(8,2):(0,9) ∘ 8:3` reads A at 0,3,..,21, whose
/// carries (0,0,0,1,1,1,2,2) do not repeat in equal groups.
#[test]
fn uneven_carries_still_refused() {
    let (a, b) = (lay("(8,2):(0,9)"), lay("6:5"));
    let e = composition(&a, &b).unwrap_err();
    assert!(matches!(e, LayoutError::StrideDivisibility { .. } | LayoutError::ShapeDivisibility { .. }), "{e}");
    let carries: Vec<i64> = (0..6).map(|i| a.eval_extended(5 * i).unwrap() / 9).collect();
    assert_eq!(carries, [0, 0, 1, 1, 2, 3]);
}

/// The issue proposes `((3,2),3):((0,9),0)` for `logical_divide((8,2):(0,9),
/// 6:3)`. By the definition `R = A ∘ (B, B*)` with `B* = complement(6:3, 16)
/// = 3:1`: `(B, B*) = (6,3):(3,1)` reaches offset 17, past `size(A) = 16`,
/// where A is read on its extended domain (`A(16) = A(17) = 18`), and at the
/// coordinate `((2,0),2)` it reads `A(6 + 2) = A(8) = 9`, while the proposed
/// layout gives 0. `B` and `B*` together carry out of A's stride-0 mode, so
/// `A ∘ (B, B*)` is not the pair `(A ∘ B, A ∘ B*)`: no layout of that shape
/// is the divide, and it stays refused (NotDistributive).
#[test]
fn issue_divide_contradicts_the_definition() {
    let (a, b) = (lay("(8,2):(0,9)"), lay("6:3"));
    let star = complement(&b, a.size()).unwrap();
    assert_eq!(star.to_string(), "3:1");
    let bb = make_layout(&[b.clone(), star]).unwrap();
    assert_eq!(bb.cosize(), 18);
    assert_eq!((a.eval_extended(16).unwrap(), a.eval_extended(17).unwrap()), (18, 18));
    let proposed = lay("((3,2),3):((0,9),0)");
    let c = "((2,0),2)".parse().unwrap();
    assert_eq!(bb.eval_coord(&"(2,2)".parse().unwrap()).unwrap(), 8);
    assert_eq!(a.eval(8).unwrap(), 9);
    assert_eq!(proposed.eval_coord(&c).unwrap(), 0);
    assert!(check::logical_divide(&a, &b, &proposed).is_err());
    let e = logical_divide(&a, &b).unwrap_err();
    assert!(matches!(e, LayoutError::NotDistributive { .. }), "{e}");
    // Its tile alone is a layout (above), and so is the tile of a tiler that
    // does not carry: 4:2 walks the stride-0 mode exactly.
    let r = logical_divide(&a, &lay("4:2")).unwrap();
    check::logical_divide(&a, &lay("4:2"), &r).unwrap();
}

/// `blocked_product((2,4):(0,10), (4,2,2):(1,4,8))`: A (padded to rank 3)
/// has the complement `A* = complement(A, 8·16) = (10,4):(1,40)` (stride-0
/// modes filtered out), and `B` reads it at the offsets 0..=15, past its
/// first mode: `A*(8) = 8` but `A*(12) = 42 != A*(8) + A*(4)`, so `A* ∘ B`
/// is not a layout of B's shape (NotDistributive). A grid that would work
/// (`(4,2,2):(1,4,40)`) is not `A* ∘ B`. Refused, as the definition says.
#[test]
fn issue_blocked_product_contradicts_the_definition() {
    let (a, b) = (lay("(2,4):(0,10)"), lay("(4,2,2):(1,4,8)"));
    let star = complement(&lay("(2,4,1):(0,10,0)"), 128).unwrap();
    assert_eq!(star.to_string(), "(10,4):(1,40)");
    assert_eq!(star.eval(8).unwrap(), 8);
    assert_eq!(star.eval(12).unwrap(), 42);
    assert_ne!(star.eval(12).unwrap(), star.eval(8).unwrap() + star.eval(4).unwrap());
    let e = blocked_product(&a, &b).unwrap_err();
    assert!(matches!(e, LayoutError::NotDistributive { .. }), "{e}");
}

/// cute-static follows the same rule in trait resolution.
#[test]
fn static_agrees() {
    use cute_static::prelude as st;
    let r = st::composition(st::layout!((8, 2):(0, 9)), st::layout!(6:3));
    assert_eq!(r.to_dynamic(), composition(&lay("(8,2):(0,9)"), &lay("6:3")).unwrap());
    assert_eq!(r.to_string(), "(_3,_2):(_0,_9)");
    let r = st::composition(st::layout!((2, 2):(0, 1)), st::layout!((2, 3):(3, 2)));
    assert_eq!(r.to_dynamic(), composition(&lay("(2,2):(0,1)"), &lay("(2,3):(3,2)")).unwrap());
    let r = st::composition(st::layout!((4, 3):(0, 1)), st::layout!(3:5));
    assert_eq!(r.to_string(), "_3:_1");
}

fn config() -> Config {
    Config { failure_persistence: None, ..Config::with_cases(3000) }
}

proptest! {
    #![proptest_config(config())]

    /// A of two modes, the first of stride 0, and one leaf of B: every
    /// answer meets the composition's post-conditions, and a stride below
    /// the mode's shape whose carries come in equal groups without an
    /// extra one is accepted (the rule above).
    #[test]
    fn stride_0_first_mode(s0 in 2i64..=9, s1 in 1i64..=4, d1 in 1i64..=9, s in 1i64..=12, d in 1i64..=12) {
        let a = Layout::new(
            cute_dynamic::IntTuple::flat([s0, s1]),
            cute_dynamic::IntTuple::flat([0, d1]),
        ).unwrap();
        let b = Layout::scalar(s, d).unwrap();
        // The carries out of the stride-0 mode, and whether they come in
        // equal groups of n = ceil(s0/d) steps, one carry per group.
        let carries: Vec<i64> = (0..s).map(|i| i * d / s0).collect();
        let n = (s0 + d - 1) / d;
        let grouped = d < s0 && s % n == 0 && (0..s).all(|i| carries[i as usize] == i / n);
        match composition(&a, &b) {
            Ok(r) => check::composition(&a, &b, &r).map_err(TestCaseError::fail)?,
            Err(e) => prop_assert!(!grouped, "{} o {}: refused ({}), but the carries {:?} come in groups of {}", a, b, e, carries, n),
        }
    }
}
