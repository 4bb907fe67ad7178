//! Degenerate (size-1) modes print as CuTe 4.x prints them, in both crates.
//!
//! A mode of size 1 moves no offset, so its stride is free; CuTe's
//! algorithms still give it one, and a result prints byte for byte as
//! CuTe's only if the library gives it the same. The rules (CuTe's
//! `composition_impl`, `complement`, `coalesce`, `make_layout`):
//! * `A ∘ 1:d` is `1:d'` with `d'` the stride `d` carried through the
//!   bounded modes of the coalesced `A` (a ceiling division by each shape)
//!   times the stride of its last mode, and `1:0` for `d = 0`;
//! * a complement, and a coalesced layout, with nothing left is `1:0`;
//! * the padding modes of `blocked_product`/`raked_product` are `1:0`.
//!
//! Each expected text below is CuTe's (from the issue); every result is
//! also checked to be the same function as before (the stride of a size-1
//! mode changes no offset).

use cute_dynamic::{self as cd, Layout};
use cute_static::prelude::*;

fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("parsing {s:?}: {e}"))
}

fn offsets(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|i| l.eval(i).unwrap()).collect()
}

/// `R(i) == A(B(i))` on `B`'s domain (A on its extended domain).
fn assert_composes(a: &Layout, b: &Layout, r: &Layout) {
    assert_eq!(r.size(), b.size(), "{a} o {b} = {r}");
    for i in 0..b.size() {
        let want = a.eval_extended(b.eval(i).unwrap()).unwrap();
        assert_eq!(r.eval(i).unwrap(), want, "{a} o {b} = {r} at {i}");
    }
}

use cute_tests::static_text as st;

#[test]
fn composition_with_a_size_one_leaf() {
    // (A, B, CuTe's A ∘ B)
    let cases = [
        ("1:1", "1:1", "1:1"),
        // Carried through (4):(2) by ceil(1/4) = 1, times the last stride.
        ("(4,8):(2,16)", "1:1", "1:16"),
        ("(4,8):(2,16)", "1:5", "1:32"),
        ("(4,8):(2,16)", "1:0", "1:0"),
        // Inside a tuple: the size-1 leaf keeps B's place and gets its stride.
        ("(4,8):(2,16)", "(1,4):(4,1)", "(1,4):(16,2)"),
        ("12:3", "(2,1,3):(1,5,2)", "(2,1,3):(3,15,6)"),
        // A negative stride: the same, negated.
        ("(4,8):(2,16)", "1:-5", "1:-32"),
    ];
    for (a, b, want) in cases {
        let (a, b) = (lay(a), lay(b));
        let r = cd::composition(&a, &b).unwrap();
        assert_eq!(r.to_string(), want, "composition({a}, {b})");
        assert_composes(&a, &b, &r);
    }
}

#[test]
fn divides_keep_cute_strides_on_size_one_modes() {
    // (A, B, the function, CuTe's text)
    let cases = [
        ("zipped_divide", "4:1", "1:4", "(1,4):(4,1)"),
        ("zipped_divide", "3:1", "1:1", "(1,3):(1,1)"),
        ("logical_divide", "1:1", "1:1", "(1,1):(1,0)"),
    ];
    for (op, a, b, want) in cases {
        let (a, b) = (lay(a), lay(b));
        let r = match op {
            "zipped_divide" => cd::zipped_divide(&a, &b),
            _ => cd::logical_divide(&a, &b),
        }
        .unwrap();
        assert_eq!(r.to_string(), want, "{op}({a}, {b})");
        // (B, B*) is a bijection onto 0..size(A) here: the offsets of R
        // are those of A, permuted.
        let mut got = offsets(&r);
        got.sort_unstable();
        let mut want_offsets = offsets(&a);
        want_offsets.sort_unstable();
        assert_eq!(got, want_offsets, "{op}({a}, {b}) = {r}");
    }
}

#[test]
fn raked_product_keeps_its_padding_mode() {
    let (a, b) = (lay("(4,16):(16,1)"), lay("3:1"));
    let r = cd::raked_product(&a, &b).unwrap();
    assert_eq!(r.to_string(), "((3,4),(1,16)):((64,16),(0,1))");
    // Injective: 3 disjoint replicas of A.
    let mut offs = offsets(&r);
    offs.sort_unstable();
    offs.dedup();
    assert_eq!(offs.len() as i64, r.size());
}

#[test]
fn static_prints_follow_cute() {
    assert_eq!(composition(layout!(1:1), layout!(1:1)).to_string(), st("1:1"));
    assert_eq!(composition(layout!((4,8):(2,16)), layout!(1:1)).to_string(), st("1:16"));
    assert_eq!(composition(layout!((4,8):(2,16)), layout!(1:5)).to_string(), st("1:32"));
    assert_eq!(composition(layout!((4,8):(2,16)), layout!(1:0)).to_string(), st("1:0"));
    assert_eq!(composition(layout!((4,8):(2,16)), layout!((1,4):(4,1))).to_string(), st("(1,4):(16,2)"));
    assert_eq!(composition(layout!(12:3), layout!((2,1,3):(1,5,2))).to_string(), st("(2,1,3):(3,15,6)"));
    assert_eq!(zipped_divide(layout!(4:1), layout!(1:4)).to_string(), st("(1,4):(4,1)"));
    assert_eq!(zipped_divide(layout!(3:1), layout!(1:1)).to_string(), st("(1,3):(1,1)"));
    assert_eq!(logical_divide(layout!(1:1), layout!(1:1)).to_string(), st("(1,1):(1,0)"));
    assert_eq!(raked_product(layout!((4,16):(16,1)), layout!(3:1)).to_string(), st("((3,4),(1,16)):((64,16),(0,1))"));
}

#[test]
fn static_and_dynamic_agree_on_size_one_leaves() {
    let pairs = [
        (composition(layout!((4,8):(2,16)), layout!((1,4):(4,1))).to_dynamic(), "(1,4):(16,2)"),
        (zipped_divide(layout!(4:1), layout!(1:4)).to_dynamic(), "(1,4):(4,1)"),
        (logical_divide(layout!(1:1), layout!(1:1)).to_dynamic(), "(1,1):(1,0)"),
    ];
    for (s, text) in pairs {
        assert_eq!(s, lay(text));
    }
}

#[test]
fn products_take_size_one_strides_from_the_coalesced_complement() {
    // (A, B, CuTe's logical_product)
    let cases = [
        ("(1,4):(6,4)", "1:1", "((1,4),1):((6,4),1)"),
        ("((2,2)):((2,4))", "(1):(1)", "(((2,2)),(1)):(((2,4)),(1))"),
        ("1:6", "(1,1,1):(3,4,2)", "(1,(1,1,1)):(6,(0,0,0))"),
    ];
    for (a, b, want) in cases {
        let (a, b) = (lay(a), lay(b));
        let r = cd::logical_product(&a, &b).unwrap();
        assert_eq!(r.to_string(), want, "logical_product({a}, {b})");
        // The same function as A then A* ∘ B, with A* the complement.
        let star = cd::complement(&a, a.size() * b.cosize()).unwrap();
        let tail = cd::composition(&star, &b).unwrap();
        for i in 0..r.size() {
            let (x, y) = (i % a.size(), i / a.size());
            assert_eq!(r.eval(i).unwrap(), a.eval(x).unwrap() + tail.eval(y).unwrap(), "{r} at {i}");
        }
    }
    assert_eq!(logical_product(layout!((1,4):(6,4)), layout!(1:1)).to_string(), st("((1,4),1):((6,4),1)"));
    assert_eq!(logical_product(layout!(1:6), layout!((1,1,1):(3,4,2))).to_string(), st("(1,(1,1,1)):(6,(0,0,0))"));
}

/// The tiled and flat divides and products splice in the modes of a part,
/// but keep a part of rank 1 whole (CuTe's `result(_, repeat<R1>(_))`, where
/// `repeat<1>(_)` is `_`). Each text is what CuTe 4.2 prints for the
/// all-static arguments; both crates print it, and it is the zipped result
/// regrouped (the same offsets in order).
#[test]
fn tiled_and_flat_keep_a_part_of_rank_1_whole() {
    for (expr, cute) in [
        ("tiled_divide(2:1, <5:8>)", "((5),(8)):((8),(1))"),
        ("flat_divide(2:1, <5:8>)", "((5),(8)):((8),(1))"),
        ("tiled_divide((8,6):(1,8), <2:1>)", "((2),4,6):((1),2,8)"),
        ("flat_divide((8,6):(1,8), <2:1>)", "((2),4,6):((1),2,8)"),
        ("tiled_divide((8,6):(1,8), <2:1,3:1>)", "((2,3),4,2):((1,8),2,24)"),
        ("flat_divide((8,6):(1,8), <2:1,3:1>)", "(2,3,4,2):(1,8,2,24)"),
        ("tiled_divide(16:1, 4:1)", "(4,4):(1,4)"),
        ("tiled_product(2:1, <5:8>)", "((2),(5)):((1),(16))"),
        ("flat_product(2:1, <5:8>)", "((2),(5)):((1),(16))"),
        ("tiled_product((2,3):(1,2), <2:1>)", "((2),2,3):((1),2,2)"),
    ] {
        let r = match cd::eval(expr).unwrap() {
            cd::Value::Layout(l) => l,
            other => panic!("{expr}: {other}"),
        };
        assert_eq!(r.to_string(), cute, "{expr}");
        let zipped = expr.replacen("tiled_", "zipped_", 1).replacen("flat_", "zipped_", 1);
        let z = match cd::eval(&zipped).unwrap() {
            cd::Value::Layout(l) => l,
            other => panic!("{zipped}: {other}"),
        };
        assert_eq!(offsets(&r), offsets(&z), "{expr} regroups {zipped}");
    }
    let s = cute_static::tiled_divide(layout!(2:1), tile!(5:8));
    assert_eq!(s.to_string(), "((_5),(_8)):((_8),(_1))");
    let s = cute_static::flat_divide(layout!((8,6):(1,8)), tile!(2:1));
    assert_eq!(s.to_string(), "((_2),_4,_6):((_1),_2,_8)");
    let s = cute_static::tiled_product(layout!(2:1), tile!(5:8));
    assert_eq!(s.to_string(), "((_2),(_5)):((_1),(_16))");
    let s = cute_static::flat_product(layout!(2:1), tile!(5:8));
    assert_eq!(s.to_string(), "((_2),(_5)):((_1),(_16))");
}
