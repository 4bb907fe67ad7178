//! Layouts of cute-static with run-time (`Dyn`) leaves beside static ones:
//! printing as CuTe prints them, indexing against cute-dynamic's `eval` at
//! every coordinate, conversion both ways, and the run-time checks of
//! `make_layout` / `layout!` (their `try_` forms and panics).

use cute_dynamic::LayoutError;
use cute_static::prelude::*;
use proptest::prelude::*;

/// Every integral coordinate of `l` (and its rank-N coordinate when the
/// caller gives one) evaluates as cute-dynamic's parse of `text`; the
/// layout converts to that dynamic layout and back.
macro_rules! check {
    ($l:expr, $text:expr) => {{
        let l = $l;
        let text: &str = $text;
        let d: cute_dynamic::Layout = text.parse().expect("valid layout text");
        assert_eq!(l.to_dynamic(), d, "to_dynamic of {text}");
        assert_eq!(l.size() as i64, d.size(), "size of {text}");
        assert_eq!(l.cosize() as i64, d.cosize(), "cosize of {text}");
        for i in 0..l.size() {
            assert_eq!(l.index(i) as i64, d.eval(i as i64).unwrap(), "{text} at {i}");
        }
        let back = <_>::try_from(&d).expect("the dynamic layout converts back");
        assert!(l == back, "round trip of {text}");
        l
    }};
}

#[test]
fn print_static_leaves_underscored_run_time_plain() {
    let (m, n, s) = (1000usize, 500i64, -3i64);
    assert_eq!(layout!((8,{m}):(1,8)).to_string(), "(_8,1000):(_1,_8)");
    assert_eq!(layout!(({m},{n}):(1,{m})).to_string(), "(1000,500):(_1,1000)");
    assert_eq!(layout!((({m},4),2):((4,1),{s})).to_string(), "((1000,_4),_2):((_4,_1),-3)");
    assert_eq!(layout!({n}:{s}).to_string(), "500:-3");
    assert_eq!(format!("{:?}", layout!((8,{m}):(1,8))), "Layout((_8,1000):(_1,_8))");
    assert_eq!(shape!({ m }, (8, { n })).to_string_cute(), "(1000,(_8,500))");
    assert_eq!(stride!(1, { s }).to_string_cute(), "(_1,-3)");
}

#[test]
fn static_layouts_stay_zero_sized_dyn_leaves_hold_an_i64_each() {
    assert_eq!(std::mem::size_of::<Layout![((4,2),(2,8)):((1,16),(4,32))]>(), 0);
    assert_eq!(std::mem::size_of::<Layout![(8,Dyn):(1,8)]>(), 8);
    assert_eq!(std::mem::size_of::<Layout![((Dyn,4),2):((4,1),Dyn)]>(), 16);
    assert_eq!(std::mem::size_of::<Layout![(Dyn,Dyn):(Dyn,Dyn)]>(), 32);
}

#[test]
fn index_equals_dynamic_eval_at_every_coordinate() {
    let (m, n) = (7usize, 5usize);
    check!(layout!((8,{m}):(1,8)), "(8,7):(1,8)");
    check!(layout!(({m},{n}):(1,{m})), "(7,5):(1,7)");
    check!(layout!(({m},{n}):({n},1)), "(7,5):(5,1)");
    let s = -4i64;
    check!(layout!((({m},4),2):((4,1),{s})), "((7,4),2):((4,1),-4)");
    check!(layout!((4,({m},3)):({s},(1,{m}))), "(4,(7,3)):(-4,(1,7))");
    check!(layout!({m}:{s}), "7:-4");
    check!(layout!(({m}):(0)), "(7):(0)");
    check!(layout!((2,{n},3):({-100i64},{n},0)), "(2,5,3):(-100,5,0)");
}

#[test]
fn index_at_natural_and_rank_n_coordinates() {
    let (m, s) = (6usize, -10i64);
    let l = layout!((({m},4),2):((4,1),{s}));
    let d: cute_dynamic::Layout = "((6,4),2):((4,1),-10)".parse().unwrap();
    for a in 0..6usize {
        for b in 0..4usize {
            for c in 0..2usize {
                let nat = cute_dynamic::IntTuple::tuple([
                    cute_dynamic::IntTuple::tuple([(a as i64).into(), (b as i64).into()]),
                    (c as i64).into(),
                ]);
                let want = d.eval_coord(&nat).unwrap();
                assert_eq!(l.index(((a, b), c)), want, "natural ({a},{b}),{c}");
                assert_eq!(l.index((a + 6 * b, c)), want, "rank-2 ({},{c})", a + 6 * b);
            }
        }
    }
}

#[test]
fn offsets_are_usize_with_static_strides_i64_with_run_time_ones() {
    let m = 3usize;
    let a: usize = layout!((8,{m}):(1,8)).index(9usize);
    let b: i64 = layout!((8,3):(1,{m})).index(9usize);
    assert_eq!((a, b), (9, 4));
}

#[test]
fn make_layout_takes_int_usize_and_i64_values() {
    let (m, s) = (1000usize, -2i64);
    let l = make_layout((m, Int::<8>::new()), (Int::<1>::new(), s));
    assert_eq!(l.to_string(), "(1000,_8):(_1,-2)");
    let t: Layout![(Dyn, 8):(1, Dyn)] = l;
    assert_eq!(t, layout!(({m},8):(1,{s})));
    assert_eq!(make_layout(make_shape((4usize, 2i64)), make_stride((1i32, 4u32))).to_string(), "(4,2):(1,4)");
    let st = make_layout((Int::<4>::new(), Int::<8>::new()), (Int::<1>::new(), Int::<4>::new()));
    assert_eq!(st, layout!((4,8):(1,4)));
    assert_eq!(std::mem::size_of_val(&st), 0);
}

#[test]
fn try_from_dynamic_fills_run_time_leaves() {
    let d: cute_dynamic::Layout = "((6,4),2):((4,1),-10)".parse().unwrap();
    let l = <Layout![((Dyn, 4), 2):((4, 1), Dyn)]>::try_from(&d).unwrap();
    assert_eq!(l.to_string(), "((6,_4),_2):((_4,_1),-10)");
    let all = <Layout![((Dyn, Dyn), Dyn):((Dyn, Dyn), Dyn)]>::try_from(&d).unwrap();
    assert_eq!(all.to_string(), "((6,4),2):((4,1),-10)");
    let st = <Layout![((6, 4), 2):((4, 1), 0)]>::try_from(&"((6,4),2):((4,1),0)".parse().unwrap()).unwrap();
    assert_eq!(st, layout!(((6,4),2):((4,1),0)));
}

#[test]
fn try_from_dynamic_names_the_mismatch() {
    let d: cute_dynamic::Layout = "((6,4),2):((4,1),-10)".parse().unwrap();
    let mismatch = |at: &str, expected: &str, found: &str| LayoutError::TypeMismatch {
        at: at.into(),
        expected: expected.into(),
        found: found.into(),
    };
    // A static leaf of another value, in the shape and in the stride.
    assert_eq!(
        <Layout![((Dyn, 8), 2):((4, 1), Dyn)]>::try_from(&d).unwrap_err(),
        mismatch("shape mode 0.1", "the static integer _8", "the integer 4")
    );
    let e = <Layout![((Dyn, 4), 2):((4, 2), Dyn)]>::try_from(&d).unwrap_err();
    assert_eq!(e, mismatch("stride mode 0.1", "the static integer _2", "the integer 1"));
    assert_eq!(
        e.to_string(),
        "stride mode 0.1: the layout type has the static integer _2, the layout has the integer 1"
    );
    // A leaf where the type has a tuple, a tuple where it has a leaf.
    assert_eq!(
        <Layout![((Dyn, Dyn), (Dyn, Dyn)):((Dyn, Dyn), (Dyn, Dyn))]>::try_from(&d).unwrap_err(),
        mismatch("shape mode 1", "a tuple of rank 2", "the integer 2")
    );
    // The first mismatch, left to right, is named.
    assert_eq!(
        <Layout![(Dyn, (Dyn, Dyn)):(Dyn, (Dyn, Dyn))]>::try_from(&d).unwrap_err(),
        mismatch("shape mode 0", "an integer", "the tuple (6,4) of rank 2")
    );
    // The shape matches, the stride does not.
    let e = <Layout![((Dyn, Dyn), Dyn):((Dyn, Dyn), 0)]>::try_from(&d).unwrap_err();
    assert_eq!(e, mismatch("stride mode 1", "the static integer _0", "the integer -10"));
    assert_eq!(
        <Layout![(Dyn, Dyn):(Dyn, Dyn)]>::try_from(&d).unwrap_err(),
        mismatch("shape mode 0", "an integer", "the tuple (6,4) of rank 2")
    );
    // Another rank at the top, and a leaf for a whole tuple type.
    assert_eq!(
        <Layout![(Dyn, Dyn, Dyn):(Dyn, Dyn, Dyn)]>::try_from(&d).unwrap_err(),
        mismatch("shape (the whole tree)", "a tuple of rank 3", "the tuple ((6,4),2) of rank 2")
    );
    let scalar: cute_dynamic::Layout = "7:1".parse().unwrap();
    assert_eq!(
        <Layout![(Dyn):(1)]>::try_from(&scalar).unwrap_err(),
        mismatch("shape (the whole tree)", "a tuple of rank 1", "the integer 7")
    );
}

/// The panic message of `f`.
fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let e = std::panic::catch_unwind(f).expect_err("panics");
    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap()
}

#[test]
fn run_time_checks_err_from_try_and_panic_with_the_same_message() {
    let zero = 0usize;
    let neg = -2i64;
    let big = 1i64 << 40;
    let huge = u64::MAX;
    let cases: Vec<(LayoutError, String)> = vec![
        (
            try_layout!(({zero},8):(1,{zero})).unwrap_err(),
            panic_message(|| {
                let _ = layout!(({zero},8):(1,{zero}));
            }),
        ),
        (
            try_make_layout((Int::<4>::new(), (neg, 2usize)), (1usize, (1usize, 8usize))).unwrap_err(),
            panic_message(|| {
                let _ = make_layout((Int::<4>::new(), (neg, 2usize)), (1usize, (1usize, 8usize)));
            }),
        ),
        (
            try_layout!(({big},{big}):(1,{big})).unwrap_err(),
            panic_message(|| {
                let _ = layout!(({big},{big}):(1,{big}));
            }),
        ),
        (
            try_layout!(({big},4):({big},{big})).unwrap_err(),
            panic_message(|| {
                let _ = layout!(({big},4):({big},{big}));
            }),
        ),
        (
            try_layout!(({big},4):({-big},{-big})).unwrap_err(),
            panic_message(|| {
                let _ = layout!(({big},4):({-big},{-big}));
            }),
        ),
        (
            try_layout!(({huge}):(1)).unwrap_err(),
            panic_message(|| {
                let _ = layout!(({huge}):(1));
            }),
        ),
    ];
    let want = [
        LayoutError::NonPositiveShape { shape: "(0,_8)".into() },
        LayoutError::NonPositiveShape { shape: "(_4,(-2,2))".into() },
        LayoutError::Overflow { operation: "layout size" },
        LayoutError::Overflow { operation: "layout extent" },
        LayoutError::Overflow { operation: "layout extent" },
        LayoutError::Overflow { operation: "make_layout" },
    ];
    for ((got, msg), want) in cases.into_iter().zip(want) {
        assert_eq!(got, want);
        assert_eq!(msg, want.to_string());
    }
    // cute-dynamic rejects the same layouts with the same variants.
    let d = |s: [i64; 2], t: [i64; 2]| {
        cute_dynamic::Layout::new(cute_dynamic::IntTuple::flat(s), cute_dynamic::IntTuple::flat(t)).unwrap_err()
    };
    assert_eq!(d([0, 8], [1, 0]), LayoutError::NonPositiveShape { shape: "(0,8)".into() });
    let b = 1i64 << 40;
    assert_eq!(d([b, b], [1, b]), LayoutError::Overflow { operation: "layout size" });
    assert_eq!(d([b, 4], [b, b]), LayoutError::Overflow { operation: "layout extent" });
    assert_eq!(d([b, 4], [-b, -b]), LayoutError::Overflow { operation: "layout extent" });
    // Checks pass: the result is the layout.
    assert_eq!(try_layout!(({big}):(1)).unwrap().size(), 1 << 40);
}

/// `(a,b):(c,d)` from random values, the leaves set in `mask` replaced by
/// the static values of the types below (4 in the shape, 2 in the stride).
fn random_layout(shape: [i64; 2], stride: [i64; 2], mask: u8) -> cute_dynamic::Layout {
    let s: Vec<i64> = (0..2).map(|k| if mask & (1 << k) != 0 { 4 } else { shape[k] }).collect();
    let d: Vec<i64> = (0..2).map(|k| if mask & (1 << (k + 2)) != 0 { 2 } else { stride[k] }).collect();
    format!("({},{}):({},{})", s[0], s[1], d[0], d[1]).parse().unwrap()
}

/// The dynamic layout converts into `L` exactly when its static leaves
/// match, and then `L::index` agrees with `eval` everywhere.
fn agrees<L>(d: &cute_dynamic::Layout) -> bool
where
    L: for<'a> TryFrom<&'a cute_dynamic::Layout, Error = LayoutError> + MixedIndex,
{
    match L::try_from(d) {
        Ok(l) => {
            for i in 0..d.size() {
                assert_eq!(l.index_i64(i as usize), d.eval(i).unwrap(), "{d} at {i}");
            }
            assert_eq!(l.dynamic(), *d);
            true
        }
        Err(LayoutError::TypeMismatch { .. }) => false,
        Err(e) => panic!("unexpected error {e}"),
    }
}

/// `index` as an i64 and `to_dynamic`, for the generic property.
trait MixedIndex {
    fn index_i64(&self, i: usize) -> i64;
    fn dynamic(&self) -> cute_dynamic::Layout;
}

impl<S: Congruent<D>, D: IntTuple> MixedIndex for Layout<S, D>
where
    D::Offset: TryInto<i64>,
{
    fn index_i64(&self, i: usize) -> i64 {
        self.index(i).try_into().unwrap_or_else(|_| panic!("offset beyond i64"))
    }
    fn dynamic(&self) -> cute_dynamic::Layout {
        self.to_dynamic()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_mixed_flat_type_indexes_as_dynamic_eval(
        shape in prop::array::uniform2(1i64..7),
        stride in prop::array::uniform2(-20i64..20),
        mask in 0u8..16,
    ) {
        let d = random_layout(shape, stride, mask);
        let mut matched = 0;
        let mut count = |ok: bool| matched += ok as usize;
        macro_rules! each {
            ($($t:ty),+ $(,)?) => { $( count(agrees::<$t>(&d)); )+ };
        }
        // Every way of making the leaves of `(a,b):(c,d)` run-time.
        each!(
            Layout![(Dyn, Dyn):(Dyn, Dyn)], Layout![(4, Dyn):(Dyn, Dyn)], Layout![(Dyn, 4):(Dyn, Dyn)],
            Layout![(4, 4):(Dyn, Dyn)], Layout![(Dyn, Dyn):(2, Dyn)], Layout![(4, Dyn):(2, Dyn)],
            Layout![(Dyn, 4):(2, Dyn)], Layout![(4, 4):(2, Dyn)], Layout![(Dyn, Dyn):(Dyn, 2)],
            Layout![(4, Dyn):(Dyn, 2)], Layout![(Dyn, 4):(Dyn, 2)], Layout![(4, 4):(Dyn, 2)],
            Layout![(Dyn, Dyn):(2, 2)], Layout![(4, Dyn):(2, 2)], Layout![(Dyn, 4):(2, 2)],
            Layout![(4, 4):(2, 2)],
        );
        // At least the all-run-time type and the one of `mask` match.
        prop_assert!(matched >= 2 || mask == 0);
        prop_assert!(agrees::<Layout![(Dyn, Dyn):(Dyn, Dyn)]>(&d));
    }

    #[test]
    fn random_nested_text_indexes_as_dynamic_eval(
        leaves in prop::collection::vec((1i64..6, -30i64..30), 6),
        form in 0usize..4,
    ) {
        let l = |k: usize| leaves[k];
        let text = match form {
            0 => format!("(({},{}),{}):(({},{}),{})", l(0).0, l(1).0, l(2).0, l(0).1, l(1).1, l(2).1),
            1 => format!("({},({},{})):({},({},{}))", l(0).0, l(1).0, l(2).0, l(0).1, l(1).1, l(2).1),
            2 => format!("(({},{}),({},{})):(({},{}),({},{}))",
                l(0).0, l(1).0, l(2).0, l(3).0, l(0).1, l(1).1, l(2).1, l(3).1),
            _ => format!("({},{},{}):({},{},{})", l(0).0, l(1).0, l(2).0, l(0).1, l(1).1, l(2).1),
        };
        let dl: cute_dynamic::Layout = text.parse().unwrap();
        let matched = [
            agrees::<Layout![((Dyn, Dyn), Dyn):((Dyn, Dyn), Dyn)]>(&dl),
            agrees::<Layout![(Dyn, (Dyn, Dyn)):(Dyn, (Dyn, Dyn))]>(&dl),
            agrees::<Layout![((Dyn, Dyn), (Dyn, Dyn)):((Dyn, Dyn), (Dyn, Dyn))]>(&dl),
            agrees::<Layout![(Dyn, Dyn, Dyn):(Dyn, Dyn, Dyn)]>(&dl),
        ];
        // Exactly the type of the text's structure matches.
        prop_assert_eq!(matched.iter().filter(|&&m| m).count(), 1);
        prop_assert!(matched[form]);
    }
}
