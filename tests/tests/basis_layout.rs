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
    assert_eq!(make_identity_layout(&shape("(4,8)")).unwrap().to_string(), "(4,8):(1@0,1@1)");
    assert_eq!(make_identity_layout(&shape("(2,(3,4))")).unwrap().to_string(), "(2,(3,4)):(1@0,(1@0@1,1@1@1))");
    assert_eq!(eval("make_identity_layout((4,8))").unwrap().to_string(), "(4,8):(1@0,1@1)");
    assert_eq!(eval("(4,8):(1@0,1@1)").unwrap(), Value::BasisLayout(make_identity_layout(&shape("(4,8)")).unwrap()));
    assert_eq!(make_identity_layout(&shape("(4,8)")).unwrap().eval(0).unwrap().to_string(), "(0,0)");
    assert_eq!(make_identity_layout(&shape("(2,(3,4))")).unwrap().eval(7).unwrap().to_string(), "(1,(0,1))");
}

#[test]
fn issue_algebra_examples() {
    for (expr, value) in [
        ("composition(make_identity_layout((4,8)), (2,4):(1,4))", "(2,4):(1@0,1@1)"),
        ("logical_divide(make_identity_layout((1000,500)), <128,64>)", "((128,8),(64,8)):((1@0,128@0),(1@1,64@1))"),
        ("zipped_divide(make_identity_layout((1000,500)), <128,64>)", "((128,64),(8,8)):((1@0,1@1),(128@0,64@1))"),
        ("tiled_divide(make_identity_layout((8,8)), <2,4>)", "((2,4),4,2):((1@0,1@1),2@0,4@1)"),
        ("flat_divide(make_identity_layout((8,8)), <2,4>)", "(2,4,4,2):(1@0,1@1,2@0,4@1)"),
        ("tiled_divide(make_identity_layout((8,8)), (2,4):(4,1))", "((2,4),8):((4@0,1@0),1@1)"),
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
    assert!(eval("complement((4,8):(1@0,1@1), 64)").unwrap_err().to_string().contains("rank mismatch"));
    assert!(eval("logical_product((4,8):(1@0,1@1), 2)").unwrap_err().to_string().contains("not all along one basis"));
    assert!(eval("blocked_product((4,8):(1@0,1@1), <2,2>)").unwrap_err().to_string().contains("unsupported"));
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
        let id = make_identity_layout(&s).unwrap();
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
    fn divides_are_reshapes_of_the_zipped_divide(a in basis_layout(), b in small_layout()) {
        // tiled_divide unpacks the rest modes of zipped_divide, flat_divide
        // both modes; by a 1-D tiler all three are one function of the index.
        prop_assume!(b.size() <= a.size());
        if let Ok(z) = a.zipped_divide(&b) {
            let t = a.tiled_divide(&b).unwrap();
            let f = a.flat_divide(&b).unwrap();
            let l = a.logical_divide(&b).unwrap();
            prop_assert_eq!(t.size(), z.size());
            for i in 0..z.size() {
                let zi = padded(&z.eval(i).unwrap(), 3);
                prop_assert_eq!(padded(&t.eval(i).unwrap(), 3), zi.clone());
                prop_assert_eq!(padded(&f.eval(i).unwrap(), 3), zi.clone());
                prop_assert_eq!(padded(&l.eval(i).unwrap(), 3), zi);
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

/// The distinct basis paths of `l`, sorted (outermost index first).
fn paths_of(l: &BasisLayout) -> Vec<Vec<u32>> {
    fn walk(t: &BasisTuple, out: &mut Vec<Vec<u32>>) {
        match t {
            BasisTuple::Basis(b) => out.push(b.path().to_vec()),
            BasisTuple::Tuple(items) => items.iter().for_each(|i| walk(i, out)),
            BasisTuple::Int(_) => {}
        }
    }
    let mut out = Vec::new();
    walk(l.stride(), &mut out);
    out.sort();
    out.dedup();
    out
}

/// Whether one path is a proper prefix of another (a mode and its sub-mode).
fn prefix_conflict(paths: &[Vec<u32>]) -> bool {
    paths.iter().any(|p| paths.iter().any(|q| q.len() > p.len() && q.starts_with(p)))
}

/// The node of `t` at `path` (`None` past its tree).
fn node(t: &IntTuple, path: &[u32]) -> Option<IntTuple> {
    path.iter().try_fold(t.clone(), |n, &i| if n.is_int() { None } else { n.get(i as usize) })
}

/// The component of the coordinate (arithmetic tuple) `c` along `path`;
/// zero where `c` has none.
fn component(c: &IntTuple, path: &[u32]) -> i64 {
    node(c, path).and_then(|n| n.as_int()).unwrap_or(0)
}

/// The codomain coordinate of the inverses: one integer per path, nested as
/// the paths are, zeros for indices no path names.
fn codomain_coord(paths: &[Vec<u32>], depth: usize, value: &dyn Fn(&[u32]) -> i64) -> IntTuple {
    if let [p] = paths
        && p.len() == depth
    {
        return IntTuple::int(value(p));
    }
    let n = paths.iter().map(|p| p[depth] as usize + 1).max().unwrap_or(1);
    IntTuple::tuple((0..n).map(|i| {
        let sub: Vec<Vec<u32>> = paths.iter().filter(|p| p[depth] as usize == i).cloned().collect();
        if sub.is_empty() { IntTuple::int(0) } else { codomain_coord(&sub, depth + 1, value) }
    }))
}

/// `l`'s leaves whose basis has `path`, as an integer layout (their scales
/// as strides), `None` if there are none.
fn leaves_along(l: &BasisLayout, path: &[u32]) -> Option<Layout> {
    fn walk(s: &IntTuple, t: &BasisTuple, path: &[u32], out: &mut Vec<(i64, i64)>) {
        match t {
            BasisTuple::Basis(b) if b.path() == path => out.push((s.as_int().unwrap(), b.scale())),
            BasisTuple::Tuple(items) => items.iter().zip(s.modes()).for_each(|(i, m)| walk(&m, i, path, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(l.shape(), l.stride(), path, &mut out);
    (!out.is_empty())
        .then(|| Layout::new(IntTuple::flat(out.iter().map(|m| m.0)), IntTuple::flat(out.iter().map(|m| m.1))).unwrap())
}

/// Basis layouts for the inverses: flat ones with bases `E<0..3>` and ones
/// with nested bases `E<i>`, `E<i,j>`.
fn inverse_input() -> impl Strategy<Value = BasisLayout> {
    prop_oneof![basis_layout(), selecting_layout()]
}

fn check_right_inverse(l: &BasisLayout) -> Result<(), TestCaseError> {
    let paths = paths_of(l);
    let r = match l.right_inverse() {
        Ok(r) => r,
        Err(e) => {
            // Only a mode named together with its sub-mode is refused.
            prop_assert!(prefix_conflict(&paths), "{:?} for {}", e, l);
            return Ok(());
        }
    };
    for i in 0..r.size() {
        // Along each path, the index within R's mode for it is what l
        // gives back.
        let c = natural(i, r.shape());
        let back = l.eval(r.eval(i).unwrap()).unwrap();
        for p in &paths {
            let want = cute_dynamic::crd2idx(&node(&c, p).unwrap(), &node(r.shape(), p).unwrap()).unwrap();
            prop_assert_eq!(component(&back, p), want, "{} of {} at {} along {:?}", r, l, i, p);
        }
    }
    Ok(())
}

fn check_left_inverse(l: &BasisLayout) -> Result<(), TestCaseError> {
    let paths = paths_of(l);
    if prefix_conflict(&paths) {
        // No coordinate has both a mode and its sub-mode.
        prop_assert!(l.left_inverse().is_err());
        return Ok(());
    }
    match l.left_inverse() {
        Ok(li) => {
            for i in 0..l.size() {
                let c = l.eval(i).unwrap();
                let coord = codomain_coord(&paths, 0, &|p| component(&c, p));
                // Eq. (26): l(l†(l(i))) = l(i); for an injective l that is
                // l†(l(i)) = i.
                let j = li.eval_coord(&coord).unwrap();
                prop_assert!((0..l.size()).contains(&j), "{} of {} at {} leaves l's domain: {}", li, l, i, j);
                prop_assert_eq!(l.eval(j).unwrap(), c, "{} of {} at {}", li, l, i);
            }
        }
        Err(e) => {
            let image: std::collections::HashSet<IntTuple> = (0..l.size()).map(|i| l.eval(i).unwrap()).collect();
            let injective = image.len() as i64 == l.size();
            if injective {
                // An injective layout is refused only where the integer
                // left inverse of one codomain mode's leaves is, or where a
                // searched one (not a nesting of strides) does not carry
                // over to the whole domain.
                let refused = paths.iter().any(|p| cute_dynamic::left_inverse(&leaves_along(l, p).unwrap()).is_err())
                    || e.to_string().contains("does not carry over");
                prop_assert!(refused, "{:?} for {}", e, l);
                prop_assert!(matches!(e, cute_dynamic::LayoutError::NoLayout { .. }), "{:?} for {}", e, l);
            }
        }
    }
    Ok(())
}

#[test]
fn inverses_of_the_papers_tables_with_basis_strides() {
    // Table 5 and 6 rows with e_i strides, and the issue's examples.
    for (expr, value) in [
        ("right_inverse((4,8):(1@0,1@1))", "(4,8):(1,4)"),
        ("left_inverse((4,(4,2)):(1@1,(1@0,6@1)))", "(4,(6,2)):(4,(1,16))"),
        ("right_inverse((4,(4,2)):(1@1,(1@0,6@1)))", "(4,4):(4,1)"),
        ("left_inverse((4,8):(1@0,1@1))", "(4,8):(1,4)"),
        ("right_inverse((8,4):(1@1,1@0))", "(4,8):(8,1)"),
        // Nested bases: the codomain is nested as the identity's shape.
        ("right_inverse(make_identity_layout((2,(3,4))))", "(2,(3,4)):(1,(2,6))"),
        ("left_inverse(make_identity_layout((2,(3,4))))", "(2,(3,4)):(1,(2,6))"),
        ("right_inverse(make_identity_layout(((2,3),4)))", "((2,3),4):((1,2),6)"),
        // A codomain mode no basis names is 1:0; a scale skips coordinates.
        ("right_inverse((2,2):(1@1,2@1))", "(1,4):(0,1)"),
        ("right_inverse((4,2):(2@0,1@1))", "(1,2):(0,4)"),
        ("left_inverse((4,2):(2@0,1@1))", "((2,4),2):((0,1),4)"),
    ] {
        assert_eq!(eval(expr).unwrap().to_string(), value, "{expr}");
    }
    // A mode and its sub-mode at once have no codomain; a codomain mode
    // whose leaves have no integer left inverse has none either.
    let e = eval("right_inverse((2,2):(1@1,1@0@1))").unwrap_err().to_string();
    assert!(e.contains("name a mode and a sub-mode"), "{e}");
    // As the integer left inverse: (2,3):(3,2) has the searched (2,4):(-1,2),
    // and where a searched inverse does not carry over to the whole domain
    // (its leaves not neighbours there) it is refused, never wrong.
    assert_eq!(eval("left_inverse((2,3):(3@0,2@0))").unwrap().to_string(), "((2,4)):((-1,2))");
    let e = eval("left_inverse((2,2,2):(3@0,1@1,2@0))").unwrap_err().to_string();
    assert!(e.contains("does not carry over to the whole domain"), "{e}");
    // The transposed identity's inverse is the transpose.
    let t =
        make_identity_layout(&shape("(2,2)")).unwrap().composition(&"(2,2):(2,1)".parse::<Layout>().unwrap()).unwrap();
    assert_eq!(t.to_string(), "(2,2):(1@1,1@0)");
    assert_eq!(t.left_inverse().unwrap().to_string(), "(2,2):(2,1)");
    // Not injective: eq. (26), as the integer left inverse of (2,2):(1,1).
    assert_eq!(eval("left_inverse((2,2):(1@0,1@0))").unwrap().to_string(), "((2,2)):((1,3))");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn right_inverse_undoes_the_layout(l in inverse_input()) {
        check_right_inverse(&l)?;
    }

    #[test]
    fn left_inverse_undoes_the_layout(l in inverse_input()) {
        check_left_inverse(&l)?;
    }

    #[test]
    fn inverses_of_identity_layouts_are_the_compact_layout(s in small_shape()) {
        // identity(s)(i) is the natural coordinate of i, so both inverses
        // read a coordinate back to its index: the column-major layout of s.
        let id = make_identity_layout(&s).unwrap();
        let compact = Layout::column_major(&s).unwrap();
        prop_assert_eq!(cute_dynamic::coalesce(&id.right_inverse().unwrap()), cute_dynamic::coalesce(&compact));
        let li = id.left_inverse().unwrap();
        for i in 0..compact.size() {
            prop_assert_eq!(li.eval_coord(&natural(i, &s)).unwrap(), i);
        }
    }
}

// ---- Composition whose right side has basis strides (they select modes). ----

fn basis_layout_value(text: &str) -> BasisLayout {
    match eval(text).unwrap() {
        Value::BasisLayout(l) => l,
        v => panic!("{text} is {v}, not a layout with basis strides"),
    }
}

#[test]
fn basis_strides_on_the_right_select_modes() {
    for (expr, value) in [
        // The issue's examples: E<1> then E<0> transposes; E<1,1> (1@1@1) is
        // sub-mode 1 of mode 1.
        ("composition((4,4):(4,1), (4,4):(1@1,1@0))", "(4,4):(1,4)"),
        ("composition((4,(2,3)):(6,(3,1)), (2,4):(1@1@1,1@0))", "(2,4):(1,6)"),
        // 1@0@1 is E<1,0>: sub-mode 0 of mode 1.
        ("composition((4,(2,3)):(6,(3,1)), (3,2):(1@1@1,1@0@1))", "(3,2):(1,3)"),
        // A scale walks the selected mode with that stride.
        ("composition((4,8):(1,4), (2,4):(2@1,1@0))", "(2,4):(8,1)"),
        // Two leaves on one mode compose with it together.
        ("composition((4,(2,3)):(6,(3,1)), ((2,2),6):((1@0,2@0),1@1))", "((2,2),(2,3)):((6,12),(3,1))"),
        // A basis left side: the identity, transposed.
        ("composition(make_identity_layout((4,8)), (8,4):(1@1,1@0))", "(8,4):(1@1,1@0)"),
    ] {
        assert_eq!(eval(expr).unwrap().to_string(), value, "{expr}");
    }
    let a: Layout = "(4,4):(4,1)".parse().unwrap();
    let b = basis_layout_value("(4,4):(1@1,1@0)");
    assert_eq!(cute_dynamic::composition_with_basis(&a, &b).unwrap().to_string(), "(4,4):(1,4)");
    // A mode A does not have, a mode and its sub-mode at once, and an
    // integer stride among bases are errors naming the case.
    let e = eval("composition((4,4):(4,1), (4,4):(1@2,1@0))").unwrap_err().to_string();
    assert!(e.contains("1@2 names mode 2"), "{e}");
    let e = eval("composition((4,(2,3)):(6,(3,1)), (2,2):(1@1,1@0@1))").unwrap_err().to_string();
    assert!(e.contains("name a mode and a sub-mode"), "{e}");
    let e = eval("composition((4,(2,3)):(6,(3,1)), (2,2):(1@1@0@1,1@0))").unwrap_err().to_string();
    assert!(e.contains("rank mismatch"), "{e}");
    // Two leaves on one mode whose offsets carry past it.
    let e = eval("composition((4,(2,3)):(6,(3,1)), (2,2):(1@1,1@1))").unwrap_err().to_string();
    assert!(e.contains("does not distribute"), "{e}");
}

/// `a` read at the coordinate `c` (an arithmetic tuple): mode `k` of `c`
/// indexes mode `k` of `a`, an integer over its extended domain; `None`
/// when `c` names a mode `a` does not have.
fn eval_at(a: &Layout, c: &IntTuple) -> Option<i64> {
    match c.as_int() {
        Some(x) => a.eval_extended(x).ok(),
        None => c.modes().enumerate().map(|(k, ck)| eval_at(&a.get(k)?, &ck)).sum(),
    }
}

/// A layout of rank 1..=3 whose modes are leaves or pairs.
fn nested_layout() -> impl Strategy<Value = Layout> {
    let mode = prop_oneof![
        (1i64..=4, 0i64..=12).prop_map(|(s, d)| Layout::scalar(s, d).unwrap()),
        (1i64..=4, 1i64..=4, 0i64..=12, 0i64..=12)
            .prop_map(|(s0, s1, d0, d1)| { Layout::new(IntTuple::flat([s0, s1]), IntTuple::flat([d0, d1])).unwrap() }),
    ];
    proptest::collection::vec(mode, 1..=3).prop_map(|m| cute_dynamic::make_layout(&m).unwrap())
}

/// A flat basis layout whose bases are `E<i>` or `E<i,j>` with `i, j < 3`.
fn selecting_layout() -> impl Strategy<Value = BasisLayout> {
    let path = prop_oneof![(0u32..3).prop_map(|i| vec![i]), (0u32..3, 0u32..2).prop_map(|(i, j)| vec![i, j])];
    proptest::collection::vec((1i64..=4, 1i64..=3, path), 1..=3).prop_map(|modes| {
        let shape = IntTuple::flat(modes.iter().map(|m| m.0));
        let stride =
            BasisTuple::Tuple(modes.iter().map(|m| BasisTuple::Basis(ScaledBasis::new(m.1, &m.2).unwrap())).collect());
        BasisLayout::new(shape, stride).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn composition_with_basis_is_the_function_composition(a in nested_layout(), b in selecting_layout()) {
        if let Ok(r) = cute_dynamic::composition_with_basis(&a, &b) {
            prop_assert_eq!(r.size(), b.size());
            prop_assert_eq!(r.shape().rank(), b.shape().rank());
            for i in 0..b.size() {
                let c = b.eval(i).unwrap();
                prop_assert_eq!(Some(r.eval(i).unwrap()), eval_at(&a, &c), "{} ∘ {} at {} = {}", a, b, i, c);
            }
        }
    }

    #[test]
    fn distinct_bases_into_leaf_modes_always_compose(
        modes in proptest::collection::vec((1i64..=4, 0i64..=9), 1..=4),
        picks in proptest::collection::vec((1i64..=4, 0i64..=3, any::<prop::sample::Index>()), 1..=4),
    ) {
        // A flat left side: composing any of its modes with s:k is s:(k·d),
        // so every selection of distinct modes composes, and gives that.
        let a = Layout::new(IntTuple::flat(modes.iter().map(|m| m.0)), IntTuple::flat(modes.iter().map(|m| m.1))).unwrap();
        let mut used = Vec::new();
        let mut leaves = Vec::new();
        for (s, k, idx) in &picks {
            let i = idx.index(modes.len());
            if !used.contains(&i) {
                used.push(i);
                leaves.push((*s, *k, i));
            }
        }
        let b = BasisLayout::new(
            IntTuple::flat(leaves.iter().map(|l| l.0)),
            BasisTuple::Tuple(leaves.iter().map(|l| BasisTuple::Basis(ScaledBasis::new(l.1, &[l.2 as u32]).unwrap())).collect()),
        ).unwrap();
        let r = cute_dynamic::composition_with_basis(&a, &b).unwrap();
        for i in 0..b.size() {
            prop_assert_eq!(Some(r.eval(i).unwrap()), eval_at(&a, &b.eval(i).unwrap()));
        }
    }
}

#[test]
fn complements_of_the_papers_table_7_with_basis_strides() {
    for (expr, value) in [
        // Table 7 prints (1,1):(4e_0,4e_1) for this row, but 4@1 = (0,4) is
        // the image of (0,4): along E<1> the complement of 8:1 is 1:8.
        ("complement((4,8):(1@0,1@1))", "(1,1):(4@0,8@1)"),
        ("complement((4,(4,2)):(1@1,(1@0,12@1)))", "(1,(3,1)):(4@0,(4@1,24@1))"),
        // With a cotarget: an extent per codomain mode.
        ("complement((4,8):(1@0,1@1), (8,16))", "(2,2):(4@0,8@1)"),
        ("complement(make_identity_layout((2,(3,4))))", "(1,(1,1)):(2@0,(3@0@1,4@1@1))"),
    ] {
        assert_eq!(eval(expr).unwrap().to_string(), value, "{expr}");
    }
    let e = eval("complement((2,2):(1@0,1@0))").unwrap_err().to_string();
    assert!(e.contains("(2,2):(1@0,1@0) is not injective"), "{e}");
}

proptest! {
    #[test]
    fn complement_is_disjoint_and_ordered_along_each_mode(l in inverse_input()) {
        let paths = paths_of(&l);
        let Ok(c) = l.complement(None) else {
            // Refused only where the integer complement of one codomain
            // mode's leaves is, or for a mode with its sub-mode.
            let refused = prefix_conflict(&paths)
                || paths.iter().any(|p| cute_dynamic::complement_full(&leaves_along(&l, p).unwrap()).is_err());
            prop_assert!(refused, "{}", l);
            return Ok(());
        };
        let image: std::collections::HashSet<Vec<i64>> =
            (0..l.size()).map(|b| paths.iter().map(|p| component(&l.eval(b).unwrap(), p)).collect()).collect();
        for a in 1..c.size() {
            let v: Vec<i64> = paths.iter().map(|p| component(&c.eval(a).unwrap(), p)).collect();
            prop_assert!(!image.contains(&v), "{} of {} at {}", c, l, a);
        }
        // Along each codomain mode, the complement's own mode is ordered.
        for p in &paths {
            let Some(shape) = node(c.shape(), p) else { continue };
            let n = shape.size().unwrap();
            let mut last = -1;
            for a in 0..n {
                // The coordinate with `a` at mode p, zeros elsewhere.
                let coord = codomain_coord(&paths, 0, &|q| if q == p.as_slice() { a } else { 0 });
                let idx = cute_dynamic::crd2idx(&coord, c.shape()).unwrap();
                let v = component(&c.eval(idx).unwrap(), p);
                prop_assert!(v > last || n == 1, "{} of {} along {:?}", c, l, p);
                last = v;
            }
        }
    }
}

/// The figure for the left inverse on the inverses' flat generator: how
/// many injective layouts are refused, and that each refusal is one the
/// integer left inverse of a codomain mode's leaves makes too. Run with
/// `cargo test -p cute-tests --test basis_layout -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, printed"]
fn left_inverse_refusals_on_injective_layouts() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut injective, mut refused, mut not_carried) = (0, 0, 0);
    for _ in 0..100_000 {
        let l = basis_layout().new_tree(&mut runner).unwrap().current();
        let image: std::collections::HashSet<IntTuple> = (0..l.size()).map(|i| l.eval(i).unwrap()).collect();
        if image.len() as i64 != l.size() {
            continue;
        }
        injective += 1;
        if l.left_inverse().is_err() {
            refused += 1;
            let paths = paths_of(&l);
            let integer = paths.iter().any(|p| cute_dynamic::left_inverse(&leaves_along(&l, p).unwrap()).is_err());
            if !integer {
                not_carried += 1;
            }
        }
    }
    println!(
        "injective {injective}, left_inverse refused {refused}, of which {not_carried} where a searched integer inverse does not carry over"
    );
}

#[test]
fn products_of_identity_layouts() {
    for (expr, value) in [
        ("logical_product(make_identity_layout((4,8)), <2,2>)", "((4,2),(8,2)):((1@0,4@0),(1@1,8@1))"),
        ("logical_product(make_identity_layout((4,8)), <2>)", "((4,2),8):((1@0,4@0),1@1)"),
        ("logical_product((4,2):(1@0,4@0), 3:1)", "((4,2),3):((1@0,4@0),8@0)"),
        (
            "logical_product(make_identity_layout((2,(3,4))), <2,<2,3>>)",
            "((2,2),((3,2),(4,3))):((1@0,2@0),((1@0@1,3@0@1),(1@1@1,4@1@1)))",
        ),
    ] {
        assert_eq!(eval(expr).unwrap().to_string(), value, "{expr}");
    }
}

proptest! {
    #[test]
    fn identity_products_tile_the_coordinate_box(
        modes in proptest::collection::vec((1i64..=4, 1i64..=3), 1..=3),
    ) {
        // identity(S) ⊗ <T0, T1, ...> reaches every coordinate of the box
        // (S_i·T_i) exactly once.
        let s = IntTuple::flat(modes.iter().map(|m| m.0));
        let tiler: cute_dynamic::Tiler =
            format!("<{}>", modes.iter().map(|m| m.1.to_string()).collect::<Vec<_>>().join(",")).parse().unwrap();
        let r = make_identity_layout(&s).unwrap().logical_product(&tiler).unwrap();
        let boxed = IntTuple::flat(modes.iter().map(|m| m.0 * m.1));
        prop_assert_eq!(r.size(), boxed.size().unwrap());
        let mut seen = std::collections::HashSet::new();
        for i in 0..r.size() {
            let c = IntTuple::flat(padded(&r.eval(i).unwrap(), modes.len()));
            prop_assert!(c.leaves().zip(boxed.leaves()).all(|(x, b)| 0 <= x && x < b), "{} at {}", r, i);
            prop_assert!(seen.insert(c), "{} at {}", r, i);
        }
    }
}

proptest! {
    #[test]
    fn the_identity_is_a_left_identity_of_selecting_layouts(
        leaves in proptest::collection::vec((1i64..=4, 1i64..=3, 0u32..3, 0u32..2), 1..=3),
        extents in proptest::collection::vec((1i64..=4, 1i64..=4), 3),
    ) {
        let b = BasisLayout::new(
            IntTuple::flat(leaves.iter().map(|l| l.0)),
            BasisTuple::Tuple(
                leaves.iter().map(|l| BasisTuple::Basis(ScaledBasis::new(l.1, &[l.2, l.3]).unwrap())).collect(),
            ),
        )
        .unwrap();
        // Paper: I_D ∘ B = B. Every path of b (E<i> or E<i,j>, i < 3,
        // j < 2) names a mode of an identity layout of three pairs.
        // (A path E<i> alone would select a pair of the identity, which
        // gives the hierarchical coordinate instead: not B's own text.)
        let paths = paths_of(&b);
        let s = IntTuple::tuple(extents.iter().map(|e| IntTuple::flat([e.0, e.1])));
        let id = make_identity_layout(&s).unwrap();
        let r = b.selecting_from(&id).unwrap();
        for i in 0..b.size() {
            let (ri, bi) = (r.eval(i).unwrap(), b.eval(i).unwrap());
            for p in &paths {
                prop_assert_eq!(component(&ri, p), component(&bi, p), "{} ∘ {} = {} at {}", id, b, r, i);
            }
        }
    }
}

/// A basis index asks for a coordinate (or a codomain) of that rank: every
/// one above the limit is an error that names it, not an allocation that
/// fails (these inputs once aborted the process).
#[test]
fn basis_indices_are_bounded() {
    for text in [
        "right_inverse((2):(1@2000000000))",
        "left_inverse((2):(1@999999999))",
        "complement((4,8):(1@1,1@2000000000))",
        "eval((2):(1@100000000), 1)",
        "coalesce((2):(1@65536))",
    ] {
        let e = cute_dynamic::eval(text).unwrap_err().to_string();
        assert!(e.contains("basis index") && e.contains("above the limit of 65535"), "{text}: {e}");
    }
    // At the limit it is a value, with a coordinate of that rank.
    let v = cute_dynamic::eval("eval((2):(1@65535), 1)").unwrap().to_string();
    assert_eq!(v.matches(',').count(), 65535);
    let e = cute_dynamic::ScaledBasis::new(1, &[0; 33]).unwrap_err().to_string();
    assert!(e.contains("basis nesting depth 33 is above the limit of 32"), "{e}");
    // At the limit, the inverse's codomain (nested as deep) still reads back
    // (the grammar fuzz target found a 64-deep one that did not).
    let deep = format!("left_inverse(4:1{})", "@0".repeat(32));
    let v = cute_dynamic::eval(&deep).unwrap();
    assert_eq!(cute_dynamic::eval(&v.to_string()).unwrap(), v);
}

/// An identity layout whose size overflows, or whose rank or nesting is past
/// the bases' limits, is an error, never a wrong layout or a panic later
/// (the grammar fuzz target found `right_inverse` panicking on one).
#[test]
fn identity_layouts_of_shapes_past_the_limits_are_errors() {
    for text in [
        "make_identity_layout((4,9223372036854775807))",
        "right_inverse(make_identity_layout((((((4,2)), ((4,2),(4,2)),9223372036854775807,((((4,2)), ((4,2)))))))))",
    ] {
        let e = cute_dynamic::eval(text).unwrap_err().to_string();
        assert!(e.contains("overflow"), "{text}: {e}");
    }
    let deep = format!("{}4{}", "(".repeat(33), ")".repeat(33));
    let e = make_identity_layout(&shape(&deep)).unwrap_err().to_string();
    assert!(e.contains("basis nesting depth 33 is above the limit of 32"), "{e}");
}
