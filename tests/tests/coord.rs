//! Coordinates (`coord.rs` of both crates): `idx2crd` and `crd2idx` on
//! CuTe's worked examples (`01_layout.md`, "Coordinate mapping" and
//! "Index mapping"; paper 2.2.2), their post-conditions, and cute-static
//! against cute-dynamic on every coordinate of small static shapes and of
//! shapes with run-time (`{n}`) leaves, enumerated and random.

use cute_dynamic::IntTuple as DTuple;
use cute_static::prelude::*;
use cute_tests::natural;
use proptest::prelude::*;

fn tup(s: &str) -> DTuple {
    s.parse().unwrap_or_else(|e| panic!("parsing {s:?}: {e}"))
}

/// cute-dynamic's value of a natural coordinate of cute-static.
fn dynamic<T: cute_static::IntoIntTuple>(c: T) -> DTuple {
    make_shape(c).to_dynamic()
}

/// CuTe's table of the shape (3,(2,3)) (`01_layout.md`): the 1-D, 2-D and
/// natural coordinate of each point.
const TABLE_3_2X3: [(usize, &str, &str); 18] = [
    (0, "(0,0)", "(0,(0,0))"),
    (1, "(1,0)", "(1,(0,0))"),
    (2, "(2,0)", "(2,(0,0))"),
    (3, "(0,1)", "(0,(1,0))"),
    (4, "(1,1)", "(1,(1,0))"),
    (5, "(2,1)", "(2,(1,0))"),
    (6, "(0,2)", "(0,(0,1))"),
    (7, "(1,2)", "(1,(0,1))"),
    (8, "(2,2)", "(2,(0,1))"),
    (9, "(0,3)", "(0,(1,1))"),
    (10, "(1,3)", "(1,(1,1))"),
    (11, "(2,3)", "(2,(1,1))"),
    (12, "(0,4)", "(0,(0,2))"),
    (13, "(1,4)", "(1,(0,2))"),
    (14, "(2,4)", "(2,(0,2))"),
    (15, "(0,5)", "(0,(1,2))"),
    (16, "(1,5)", "(1,(1,2))"),
    (17, "(2,5)", "(2,(1,2))"),
];

#[test]
fn cute_docs_coordinate_table_of_3_2x3() {
    let s = shape!(3, (2, 3));
    let d = tup("(3,(2,3))");
    for (i, two, nat) in TABLE_3_2X3 {
        // cute-static: the natural coordinate at once, from any form.
        let c = idx2crd(i, s);
        assert_eq!(dynamic(c).to_string(), nat, "idx2crd({i})");
        let two_d = tup(two);
        let (x, y) = (two_d.leaves().next().unwrap() as usize, two_d.leaves().nth(1).unwrap() as usize);
        assert_eq!(idx2crd((x, y), s), c, "idx2crd({two})");
        assert_eq!(idx2crd(c, s), c);
        assert_eq!(crd2idx(i, s), i);
        assert_eq!(crd2idx((x, y), s), i, "crd2idx({two})");
        assert_eq!(crd2idx(c, s), i, "crd2idx({nat})");
        // cute-dynamic: one level (the 2-D coordinate), the natural one by repetition.
        assert_eq!(cute_dynamic::idx2crd(i as i64, &d).unwrap().to_string(), two);
        assert_eq!(natural(i as i64, &d).to_string(), nat);
        assert_eq!(cute_dynamic::crd2idx(&two_d, &d).unwrap(), i as i64);
        assert_eq!(cute_dynamic::crd2idx(&tup(nat), &d).unwrap(), i as i64);
    }
}

#[test]
fn cute_docs_idx2crd_and_crd2idx_examples() {
    // idx2crd(16, (3,(2,3))) and its coordinate forms: (1,(1,2)).
    let s = shape!(3, (2, 3));
    assert_eq!(idx2crd(16usize, s), (1, (1, 2)));
    assert_eq!(idx2crd((1usize, 5usize), s), (1, (1, 2)));
    assert_eq!(idx2crd((1usize, (1usize, 2usize)), s), (1, (1, 2)));
    // crd2idx with the stride (3,(12,1)): every form of 16 is offset 17.
    let l = layout!((3,(2,3)):(3,(12,1)));
    assert_eq!(l.index(16usize), 17);
    assert_eq!(l.index((1usize, 5usize)), 17);
    assert_eq!(l.index((1usize, (1usize, 2usize))), 17);
    assert_eq!(l.index(idx2crd(16usize, l.shape())), 17);
    let dl: cute_dynamic::Layout = "(3,(2,3)):(3,(12,1))".parse().unwrap();
    for c in ["16", "(1,5)", "(1,(1,2))"] {
        assert_eq!(dl.eval_coord(&tup(c)).unwrap(), 17, "{c}");
    }
    // The same with run-time leaves.
    let (two, three) = (2usize, 3usize);
    let s = shape!({ three }, ({ two }, 3));
    assert_eq!(idx2crd(16usize, s), (1, (1, 2)));
    assert_eq!(crd2idx((1usize, 5usize), s), 16);
    assert_eq!(crd2idx((1usize, (1usize, 2usize)), s), 16);
}

#[test]
fn paper_2_2_2_natural_coordinates_of_2x3_2() {
    // The natural column of the paper's table for ((2,3),2) (golden_core.rs).
    let nat = [
        "((0,0),0)",
        "((1,0),0)",
        "((0,1),0)",
        "((1,1),0)",
        "((0,2),0)",
        "((1,2),0)",
        "((0,0),1)",
        "((1,0),1)",
        "((0,1),1)",
        "((1,1),1)",
        "((0,2),1)",
        "((1,2),1)",
    ];
    let s = shape!((2, 3), 2);
    for (i, want) in nat.into_iter().enumerate() {
        assert_eq!(dynamic(idx2crd(i, s)).to_string(), want);
        assert_eq!(crd2idx(idx2crd(i, s), s), i);
    }
    // An integer for the mode (2,3) (paper: weakly congruent coordinates).
    assert_eq!(crd2idx((4usize, 1usize), s), 10);
    assert_eq!(idx2crd((4usize, 1usize), s), ((0, 2), 1));
    // A leaf shape's coordinate is the integer itself.
    assert_eq!(idx2crd(3usize, shape!(4)), 3);
    assert_eq!(crd2idx(3usize, shape!(4)), 3);
}

/// cute-static's `idx2crd`, `crd2idx` and `index` against cute-dynamic's
/// on every integral coordinate `i < 3·size(s)` of the shape `s` (past the
/// size the last leaf takes the quotient in both), for the layout `s:d`.
/// `$rank_n` makes the static rank-N coordinate from the leaves of
/// cute-dynamic's one-level `idx2crd`.
macro_rules! agree {
    ($s:expr, $d:expr, $rank_n:expr) => {{
        let (s, stride) = ($s, $d);
        let l = make_layout(s, stride);
        let (ds, dl) = (s.to_dynamic(), l.to_dynamic());
        let n = s.size();
        let rank_n = $rank_n;
        for i in 0..3 * n {
            let c = idx2crd(i, s);
            let dc = dynamic(c);
            let what = format!("{i} in {ds}");
            // The natural coordinate is cute-dynamic's idx2crd at every level.
            assert_eq!(dc, natural(i as i64, &ds), "idx2crd({what})");
            // Post-conditions: crd2idx inverts idx2crd, in both crates.
            assert_eq!(crd2idx(c, s), i, "crd2idx(idx2crd({what}))");
            assert_eq!(cute_dynamic::crd2idx(&dc, &ds).unwrap(), i as i64, "dynamic crd2idx({what})");
            assert_eq!(idx2crd(c, s), c, "idx2crd of the natural coordinate of {what}");
            // Inside the shape every leaf is inside its extent.
            if i < n {
                assert!(dc.leaves().zip(ds.leaves()).all(|(c, s)| (0..s).contains(&c)), "leaves of {dc} in {ds}");
            }
            // The rank-N coordinate (cute-dynamic's one level) is the same point.
            let one = cute_dynamic::idx2crd(i as i64, &ds).unwrap();
            let leaves: Vec<usize> = one.leaves().map(|v| v as usize).collect();
            let r = rank_n(&leaves[..]);
            assert_eq!(crd2idx(r, s), i, "crd2idx({one}) in {ds}");
            assert_eq!(idx2crd(r, s), c, "idx2crd({one}) in {ds}");
            // The layout's value at the natural coordinate is its value at i.
            assert_eq!(l.index(c) as i64, l.index(i) as i64, "{dl} at {dc}");
            let want = if i < n { dl.eval_coord(&dc).unwrap() } else { dl.eval_extended(i as i64).unwrap() };
            assert_eq!(l.index(c) as i64, want, "{dl} at {dc}");
        }
    }};
}

fn one(v: &[usize]) -> usize {
    v[0]
}
fn two(v: &[usize]) -> (usize, usize) {
    (v[0], v[1])
}
fn three(v: &[usize]) -> (usize, usize, usize) {
    (v[0], v[1], v[2])
}

#[test]
fn static_shapes_agree_with_cute_dynamic() {
    agree!(shape!(1), stride!(0), one);
    agree!(shape!(4), stride!(3), one);
    agree!(shape!(3, (2, 3)), stride!(3, (12, 1)), two);
    agree!(shape!((2, 3), 2), stride!((1, 2), 6), two);
    agree!(shape!((2, 2), (4, 2)), stride!((1, 8), (2, 16)), two);
    agree!(shape!(2, 3, 4), stride!(12, 4, 1), three);
    agree!(shape!((2, (3, 2)), (1, 4)), stride!((1, (2, 6)), (0, 12)), two);
    agree!(shape!((1, 1), 1), stride!((0, 0), 0), two);
    agree!(shape!(((2, 2), 2), ((2, 1), 3)), stride!(((1, 2), 4), ((8, 0), 16)), two);
    agree!(shape!(2, 1, 3, 2, 2), stride!(1, 0, 2, 6, 12), |v: &[usize]| (v[0], v[1], v[2], v[3], v[4]));
    agree!(shape!((4)), stride!((2)), |v: &[usize]| (v[0],));
}

#[test]
fn mixed_shapes_agree_with_cute_dynamic() {
    for a in 1..=4usize {
        agree!(shape!({ a }), stride!({ a as i64 - 2 }), one);
        for b in 1..=3usize {
            agree!(shape!(2, ({ b }, 3)), stride!(1, ({ 2 * b }, 2)), two);
            agree!(shape!(({ a }, 2), { b }), stride!((2, 1), { 2 * a }), two);
            for c in 1..=3usize {
                agree!(shape!({ a }, ({ b }, { c })), stride!(1, ({ a }, { a * b })), two);
                agree!(shape!({ c }, { b }, { a }), stride!({ a * b }, { a }, 1), three);
                agree!(
                    shape!(((2, { a }), 3), ({ b }, (2, { c }))),
                    stride!(((1, 2), { 2 * a }), ({ 6 * a }, (0, { -1i64 }))),
                    two
                );
            }
        }
    }
}

proptest! {
    /// Larger random run-time extents, random points (in and past the size).
    #[test]
    fn random_mixed_shapes_agree(a in 1usize..=40, b in 1usize..=40, c in 1usize..=12, k in 0usize..100_000) {
        let s = shape!(({ a }, 3), ({ b }, ({ c }, 2)));
        let ds = s.to_dynamic();
        let i = k % (2 * s.size());
        let nat = idx2crd(i, s);
        prop_assert_eq!(dynamic(nat), natural(i as i64, &ds));
        prop_assert_eq!(crd2idx(nat, s), i);
        let one = cute_dynamic::idx2crd(i as i64, &ds).unwrap();
        let v: Vec<usize> = one.leaves().map(|v| v as usize).collect();
        prop_assert_eq!(crd2idx((v[0], v[1]), s), i);
        prop_assert_eq!(idx2crd((v[0], v[1]), s), nat);
    }
}
