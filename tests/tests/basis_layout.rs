//! Layouts with scaled-basis strides: identity layouts, evaluation to
//! coordinates, and the algebra where the issue defines it (composition
//! with an integer layout, divides, coalesce).

use cute_dynamic::{BasisLayout, BasisTuple, IntTuple, Layout, ScaledBasis, Value, eval, make_identity_layout};
use cute_tests::natural;
use proptest::prelude::*;

fn shape(s: &str) -> IntTuple {
    s.parse().unwrap()
}

#[test]
fn identity_layouts_print_as_the_issue() {
    assert_eq!(make_identity_layout(&shape("(4,8)")).to_string(), "(4,8):(1@0,1@1)");
    assert_eq!(make_identity_layout(&shape("(2,(3,4))")).to_string(), "(2,(3,4)):(1@0,(1@0@1,1@1@1))");
    assert_eq!(eval("make_identity_layout((4,8))").unwrap().to_string(), "(4,8):(1@0,1@1)");
    assert_eq!(eval("(4,8):(1@0,1@1)").unwrap(), Value::BasisLayout(make_identity_layout(&shape("(4,8)"))));
    assert_eq!(make_identity_layout(&shape("(4,8)")).eval(0).unwrap().to_string(), "(0,0)");
    assert_eq!(make_identity_layout(&shape("(2,(3,4))")).eval(7).unwrap().to_string(), "(1,(0,1))");
}

#[test]
fn issue_algebra_examples() {
    for (expr, value) in [
        ("composition(make_identity_layout((4,8)), (2,4):(1,4))", "(2,4):(1@0,1@1)"),
        ("logical_divide(make_identity_layout((1000,500)), <128,64>)", "((128,8),(64,8)):((1@0,128@0),(1@1,64@1))"),
        // Only like bases merge.
        ("coalesce((2,2,4):(1@0,2@0,1@1))", "(4,4):(1@0,1@1)"),
        ("coalesce((2,4):(1@0,2@1))", "(2,4):(1@0,2@1)"),
    ] {
        assert_eq!(eval(expr).unwrap().to_string(), value, "{expr}");
    }
    // The paper's Tables 5 and 6 with e_i strides (CuTe C++ has neither).
    assert_eq!(eval("right_inverse((4,8):(1@0,1@1))").unwrap().to_string(), "(4,8):(1,4)");
    assert_eq!(eval("left_inverse((4,(4,2)):(1@1,(1@0,6@1)))").unwrap().to_string(), "(4,(6,2)):(4,(1,16))");
    // What is not supported is an error, never a wrong layout.
    assert!(eval("right_inverse(make_identity_layout((2,(3,4))))").unwrap_err().to_string().contains("unsupported"));
    assert!(eval("complement((4,8):(1@0,1@1), 64)").unwrap_err().to_string().contains("unsupported"));
    assert!(eval("(4,8):(1@0)").is_err());
}

/// A shape of rank 1..=3, each mode a leaf or a pair, extents 1..=4.
fn small_shape() -> impl Strategy<Value = IntTuple> {
    let mode =
        prop_oneof![(1i64..=4).prop_map(IntTuple::int), (1i64..=4, 1i64..=4).prop_map(|(a, b)| IntTuple::flat([a, b]))];
    proptest::collection::vec(mode, 1..=3).prop_map(IntTuple::tuple)
}

/// A basis layout over `shape` with random scales and bases `E<0..3>`.
fn basis_layout() -> impl Strategy<Value = BasisLayout> {
    proptest::collection::vec((1i64..=3, 1i64..=6, 0u32..3), 1..=4).prop_map(|modes| {
        let shape = IntTuple::flat(modes.iter().map(|m| m.0));
        let stride = BasisTuple::Tuple(
            modes.iter().map(|m| BasisTuple::Basis(ScaledBasis::new(m.1, &[m.2]).unwrap())).collect(),
        );
        BasisLayout::new(shape, stride).unwrap()
    })
}

fn small_layout() -> impl Strategy<Value = Layout> {
    proptest::collection::vec((1i64..=4, 0i64..=8), 1..=3).prop_map(|modes| {
        Layout::new(IntTuple::flat(modes.iter().map(|m| m.0)), IntTuple::flat(modes.iter().map(|m| m.1))).unwrap()
    })
}

/// `t` padded with zeros to rank `n` (arithmetic tuples compare so).
fn padded(t: &IntTuple, n: usize) -> Vec<i64> {
    let mut v: Vec<i64> = if t.is_int() { vec![t.as_int().unwrap()] } else { t.leaves().collect() };
    v.resize(n, 0);
    v
}

proptest! {
    #[test]
    fn identity_layouts_map_each_coordinate_to_itself(s in small_shape()) {
        let id = make_identity_layout(&s);
        for i in 0..s.size().unwrap() {
            prop_assert_eq!(id.eval(i).unwrap(), natural(i, &s));
        }
    }

    #[test]
    fn basis_layouts_agree_with_their_integer_projections(l in basis_layout()) {
        // Mode p of the coordinate is the layout with the scales of the
        // bases E<p> and 0 elsewhere.
        let scales: Vec<(i64, u32)> = match l.stride() {
            BasisTuple::Tuple(items) => items.iter().map(|b| match b {
                BasisTuple::Basis(b) => (b.scale(), b.path()[0]),
                _ => unreachable!(),
            }).collect(),
            _ => unreachable!(),
        };
        for p in 0..3u32 {
            let proj = Layout::new(l.shape().clone(), IntTuple::flat(scales.iter().map(|&(k, q)| if q == p { k } else { 0 }))).unwrap();
            for i in 0..l.size() {
                prop_assert_eq!(padded(&l.eval(i).unwrap(), 3)[p as usize], proj.eval(i).unwrap());
            }
        }
    }

    #[test]
    fn composition_is_the_function_composition(a in basis_layout(), b in small_layout()) {
        prop_assume!(b.cosize() <= a.size());
        if let Ok(r) = a.composition(&b) {
            prop_assert_eq!(r.size(), b.size());
            for i in 0..b.size() {
                prop_assert_eq!(padded(&r.eval(i).unwrap(), 3), padded(&a.eval(b.eval(i).unwrap()).unwrap(), 3));
            }
        }
    }

    #[test]
    fn coalesce_keeps_the_function(a in basis_layout()) {
        let c = a.coalesce().unwrap();
        for i in 0..a.size() {
            prop_assert_eq!(padded(&c.eval(i).unwrap(), 3), padded(&a.eval(i).unwrap(), 3));
        }
    }
}

/// A basis layout whose bases `E<0>..E<n-1>` are all present.
fn covering_basis_layout() -> impl Strategy<Value = BasisLayout> {
    basis_layout().prop_filter("every codomain mode 0..n has a basis", |l| {
        let ps: Vec<u32> = match l.stride() {
            BasisTuple::Tuple(items) => items
                .iter()
                .map(|b| match b {
                    BasisTuple::Basis(b) => b.path()[0],
                    _ => 0,
                })
                .collect(),
            _ => vec![],
        };
        let n = ps.iter().max().map_or(0, |m| m + 1);
        (0..n).all(|p| ps.contains(&p))
    })
}

/// The per-mode integers of a coordinate (arithmetic tuple) of rank `n`.
fn coord_of(t: &IntTuple, n: usize) -> IntTuple {
    IntTuple::flat(padded(t, n))
}

proptest! {
    #[test]
    fn right_inverse_undoes_the_layout(l in covering_basis_layout()) {
        let r = l.right_inverse().unwrap();
        let n = r.rank();
        for i in 0..r.size() {
            // The i-th codomain coordinate, mode by mode, is what l gives back.
            let c = natural(i, r.shape());
            let per_mode: Vec<i64> = if n == 1 {
                vec![i]
            } else {
                c.modes().zip(r.shape().modes()).map(|(cm, sm)| cute_dynamic::crd2idx(&cm, &sm).unwrap()).collect()
            };
            let back = l.eval(r.eval(i).unwrap()).unwrap();
            prop_assert_eq!(padded(&back, 3)[..per_mode.len()].to_vec(), per_mode, "{} at {}", r, i);
        }
    }

    #[test]
    fn left_inverse_undoes_the_layout(l in covering_basis_layout()) {
        match l.left_inverse() {
            Ok(li) => {
                let n = li.rank();
                for i in 0..l.size() {
                    let c = coord_of(&l.eval(i).unwrap(), n.max(1));
                    let c = if n == 1 { IntTuple::int(c.leaves().next().unwrap()) } else { c };
                    // Eq. (26): l(l†(l(i))) = l(i); for an injective l that is l†(l(i)) = i.
                    let j = li.eval_coord(&c).unwrap();
                    prop_assert!((0..l.size()).contains(&j), "{} of {} at {} leaves l's domain: {}", li, l, i, j);
                    prop_assert_eq!(l.eval(j).unwrap(), l.eval(i).unwrap(), "{} of {} at {}", li, l, i);
                }
            }
            Err(e) => {
                // Only non-injective layouts (or inverses that are no layout) are refused.
                let image: std::collections::HashSet<IntTuple> = (0..l.size()).map(|i| l.eval(i).unwrap()).collect();
                let injective = image.len() as i64 == l.size();
                prop_assert!(!injective || matches!(e, cute_dynamic::LayoutError::NoLayout { .. }), "{:?} for {}", e, l);
            }
        }
    }
}
