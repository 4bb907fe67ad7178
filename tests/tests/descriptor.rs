//! The `N@dim` descriptor grammar of the CuTe dialect (reproduced in
//! cute-dynamic's `descriptor.rs`) and scaled bases: the grammar's five
//! examples, normalization and its errors,
//! the round trip `parse(print(parse(x))) == parse(x)`, and no panic on any
//! input.

use cute_dynamic::{BasisEntry, Descriptor, LayoutError, ScaledBasis, Value, eval, parse_descriptor};
use proptest::prelude::*;

fn basis(count: i64, denominator: Option<i64>, dims: &[u32]) -> Descriptor {
    Descriptor::Basis(BasisEntry { count, denominator, dims: dims.to_vec(), column: 0 })
}

fn group(items: Vec<Descriptor>) -> Descriptor {
    Descriptor::Group(items)
}

#[test]
fn seed_examples_parse_to_their_trees() {
    let cases = [
        ("(1@0, 1@1)", group(vec![basis(1, None, &[0]), basis(1, None, &[1])]), "(1@0,1@1)"),
        ("(16@0, 1@1)", group(vec![basis(16, None, &[0]), basis(1, None, &[1])]), "(16@0,1@1)"),
        (
            "((1@0, 8@1), 1@2)",
            group(vec![group(vec![basis(1, None, &[0]), basis(8, None, &[1])]), basis(1, None, &[2])]),
            "((1@0,8@1),1@2)",
        ),
        ("(1/2@0, 4@1)", group(vec![basis(1, Some(2), &[0]), basis(4, None, &[1])]), "(1/2@0,4@1)"),
        ("(1@0@1)", group(vec![basis(1, None, &[0, 1])]), "(1@0@1)"),
    ];
    for (text, tree, printed) in cases {
        let d = parse_descriptor(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(d, tree, "{text}");
        assert_eq!(d.to_string(), printed, "{text}");
    }
}

#[test]
fn seed_examples_normalize() {
    let ok = [
        ("(1@0, 1@1)", "(1@0,1@1)"),
        ("(16@0, 1@1)", "(16@0,1@1)"),
        ("((1@0, 8@1), 1@2)", "((1@0,8@1),1@2)"),
        ("(1@0@1)", "(1@0@1)"),
    ];
    for (text, normal) in ok {
        assert_eq!(parse_descriptor(text).unwrap().normalize().unwrap().to_string(), normal, "{text}");
    }
    // The fourth example parses but does not normalize: 1/2 is no integer.
    let e = parse_descriptor("(1/2@0, 4@1)").unwrap().normalize().unwrap_err();
    assert_eq!(e, LayoutError::NonIntegralCount { entry: "1/2@0".into(), count: 1, denominator: 2, column: 2 });
    let msg = e.to_string();
    assert!(msg.contains("1/2@0") && msg.contains("column 2") && msg.contains("non-integral"), "{msg}");
}

#[test]
fn integral_fractions_become_integers() {
    for (text, normal) in [
        ("(4/2@0, 4@1)", "(2@0,4@1)"),
        ("(-6/3@2)", "(-2@2)"),
        ("(6/-3@0)", "(-2@0)"),
        ("(0/5@1)", "(0@1)"),
        ("((), (8/8@0@1))", "((),(1@0@1))"),
    ] {
        assert_eq!(parse_descriptor(text).unwrap().normalize().unwrap().to_string(), normal, "{text}");
    }
}

#[test]
fn zero_denominators_and_non_integral_counts_name_entry_and_column() {
    let e = parse_descriptor("(1@0, (3/0@1))").unwrap().normalize().unwrap_err();
    assert_eq!(e, LayoutError::ZeroDenominator { entry: "3/0@1".into(), column: 8 });
    let e = parse_descriptor("(\t7/-2 @ 1)").unwrap().normalize().unwrap_err();
    assert_eq!(e, LayoutError::NonIntegralCount { entry: "7/-2@1".into(), count: 7, denominator: -2, column: 3 });
    // i64::MIN / -1 does not fit.
    let e = parse_descriptor("(-9223372036854775808/-1@0)").unwrap().normalize().unwrap_err();
    assert!(matches!(e, LayoutError::Overflow { .. }), "{e:?}");
}

#[test]
fn empty_groups_and_whitespace() {
    assert_eq!(parse_descriptor("()").unwrap(), group(vec![]));
    assert_eq!(parse_descriptor("( \t )").unwrap(), group(vec![]));
    assert_eq!(parse_descriptor("((),(()))").unwrap(), group(vec![group(vec![]), group(vec![group(vec![])])]));
    assert_eq!(
        parse_descriptor("(\t1 @ 0 @\t1 ,2@3 )  \t").unwrap(),
        group(vec![basis(1, None, &[0, 1]), basis(2, None, &[3])])
    );
    assert_eq!(parse_descriptor("()").unwrap().normalize().unwrap().to_string(), "()");
}

#[test]
fn malformed_descriptors_are_errors_with_columns() {
    let cases = [
        ("", 1),          // no group
        (" (1@0)", 1),    // the grammar has no blank before the first '('
        ("1@0", 1),       // a basis is not a layout
        ("(1@0", 5),      // unclosed
        ("(1@0,)", 6),    // an entry after ','
        ("(1)", 2),       // a count needs @dim: the error points at the integer
        ("(1@)", 4),      // a dim needs digits
        ("(1@-1)", 4),    // dims are unsigned
        ("(1 / 2@0)", 4), // no blank before '/'
        ("(1/ 2@0)", 4),  // nor after
        ("(- 1@0)", 3),   // nor inside a number
        ("(1@0) x", 7),   // trailing text
        ("(1@0\n)", 5),   // only blanks and tabs are whitespace
        ("(99999999999999999999@0)", 2),
        ("(1@4294967296)", 4),
        ("(1@0 1@1)", 6),
    ];
    for (text, column) in cases {
        let e = parse_descriptor(text).unwrap_err();
        assert!(matches!(e, LayoutError::Parse { .. }), "{text:?}: {e:?}");
        assert_eq!(e.column(), Some(column), "{text:?}: {e}");
    }
    let deep = format!("{}1@0{}", "(".repeat(100), ")".repeat(100));
    assert!(parse_descriptor(&deep).is_err());
}

#[test]
fn scaled_basis_prints_as_cute() {
    // CuTe's E<1,0> (mode 1, then mode 0 inside it) prints `_1@0@1`.
    let e = ScaledBasis::new(1, &[1, 0]).unwrap();
    assert_eq!(e.to_string(), "1@0@1");
    assert_eq!(e.to_arithmetic_tuple().to_string(), "(0,(1))");
    assert_eq!(ScaledBasis::new(3, &[2]).unwrap().to_arithmetic_tuple().to_string(), "(0,0,3)");
    // The descriptor `1@0@1` is that basis.
    let d = parse_descriptor("(1@0@1)").unwrap();
    assert_eq!(d.normalize().unwrap(), cute_dynamic::BasisTuple::Tuple(vec![cute_dynamic::BasisTuple::Basis(e)]));
    assert!(ScaledBasis::new(1, &[]).is_err());
}

#[test]
fn the_evaluator_reads_descriptors() {
    assert_eq!(eval("(4/2@0, 4@1)").unwrap().to_string(), "(2@0,4@1)");
    assert!(matches!(eval(" ((1@0, 8@1), 1@2)").unwrap(), Value::Basis(_)));
    let e = eval("(1/2@0, 4@1)").unwrap_err();
    assert_eq!(e.column, 2);
    assert!(matches!(e.error, LayoutError::NonIntegralCount { .. }));
    // Columns count from the start of the whole expression.
    let e = eval("  (1@0, 5/0@1)").unwrap_err();
    assert_eq!(e.column, 9);
    // Plain tuples are not descriptors.
    assert_eq!(eval("(4,8)").unwrap().to_string(), "(4,8)");
}

/// A descriptor tree with random counts, denominators and dims.
fn arb_descriptor() -> impl Strategy<Value = Descriptor> {
    let leaf = (any::<i64>(), proptest::option::of(any::<i64>()), proptest::collection::vec(any::<u32>(), 1..4))
        .prop_map(|(count, denominator, dims)| basis(count, denominator, &dims));
    leaf.prop_recursive(4, 24, 5, |inner| proptest::collection::vec(inner, 0..5).prop_map(Descriptor::Group)).prop_map(
        |d| match d {
            g @ Descriptor::Group(_) => g,
            b => group(vec![b]),
        },
    )
}

/// Prints `d` with blanks and tabs wherever the grammar allows them.
fn print_spaced(d: &Descriptor, ws: &mut impl Iterator<Item = &'static str>) -> String {
    fn w(ws: &mut impl Iterator<Item = &'static str>) -> &'static str {
        ws.next().unwrap_or("")
    }
    match d {
        Descriptor::Basis(b) => {
            let mut s = b.count.to_string();
            if let Some(den) = b.denominator {
                s += &format!("/{den}");
            }
            for dim in &b.dims {
                s += &format!("{}@{}{dim}", w(ws), w(ws));
            }
            s
        }
        Descriptor::Zero => "0".to_string(),
        Descriptor::Group(items) => {
            let mut s = format!("({}", w(ws));
            for (k, e) in items.iter().enumerate() {
                if k > 0 {
                    s += &format!("{},{}", w(ws), w(ws));
                }
                s += &print_spaced(e, ws);
            }
            s + &format!("{})", w(ws))
        }
    }
}

/// The normalization of `d`, with errors reduced to their kind and entry.
fn normal_form(d: &Descriptor) -> Result<String, String> {
    d.normalize().map(|b| b.to_string()).map_err(|e| match e {
        LayoutError::NonIntegralCount { entry, .. } => format!("non-integral {entry}"),
        LayoutError::ZeroDenominator { entry, .. } => format!("zero denominator {entry}"),
        other => format!("{other:?}"),
    })
}

proptest! {
    #[test]
    fn print_then_parse_is_the_same_descriptor(d in arb_descriptor(), seed in proptest::collection::vec(0usize..4, 64)) {
        const WS: [&str; 4] = ["", " ", "\t", "  \t "];
        let mut ws = seed.into_iter().map(|k| WS[k]).cycle();
        let spaced = print_spaced(&d, &mut ws);
        let parsed = parse_descriptor(&spaced).unwrap();
        prop_assert_eq!(&parsed, &d);
        let again = parse_descriptor(&parsed.to_string()).unwrap();
        prop_assert_eq!(&again, &parsed);
        // Normalization depends on the tree only (error columns aside).
        prop_assert_eq!(normal_form(&again), normal_form(&parsed));
    }

    #[test]
    fn normalization_is_exact_division(n in any::<i64>(), d in any::<i64>(), dim in any::<u32>()) {
        let text = format!("({n}/{d}@{dim})");
        let r = parse_descriptor(&text).unwrap().normalize();
        match (d, n.checked_rem(d)) {
            (0, _) => prop_assert!(matches!(r, Err(LayoutError::ZeroDenominator { column: 2, .. })), "{:?}", r),
            (_, Some(0)) => prop_assert_eq!(r.unwrap().to_string(), format!("({}@{dim})", n / d)),
            (_, Some(_)) => prop_assert!(matches!(r, Err(LayoutError::NonIntegralCount { column: 2, .. })), "{:?}", r),
            (_, None) => prop_assert!(matches!(r, Err(LayoutError::Overflow { .. })), "{:?}", r),
        }
    }

    #[test]
    fn random_text_never_panics(s in "[()@/0-9, \\t-]{0,40}") {
        if let Ok(d) = parse_descriptor(&s) {
            let _ = d.normalize();
            prop_assert_eq!(parse_descriptor(&d.to_string()).unwrap(), d);
        }
        let _ = eval(&s);
    }

    #[test]
    fn random_bytes_never_panic(s in any::<String>()) {
        let _ = parse_descriptor(&s);
        let _ = eval(&s);
    }
}
