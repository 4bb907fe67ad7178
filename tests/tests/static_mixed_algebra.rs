//! The algebra of cute-static on layouts with run-time (`Dyn`) leaves:
//! CuTe's printed results (golden), agreement with cute-dynamic on the
//! generated cases of `static_agreement.rs` with their leaves made
//! run-time, the same `LayoutError` when cute-dynamic rejects, and the
//! post-condition `R(i) = A(B(i))` by brute force.
//!
//! What is compared: the mixed result keeps CuTe's padded form (one mode
//! per flat mode of `A` for each leaf of `B`), cute-dynamic's is coalesced.
//! So for each top-level mode `k` of `B`, `coalesce(mode k of
//! to_dynamic(R))` equals `coalesce(mode k of cute-dynamic's A ∘ B)` (for a
//! scalar `B`, the whole layouts), and `R(i) = A(B(i))` at every `i`.

use cute_dynamic::{Layout as DLayout, LayoutError};
use cute_static::prelude::*;
use proptest::prelude::*;

use crate::common::mixed::{ToDyn, agree, fill, padded_form_of, panic_message, same_function, same_values};

// ------------------------------------------------------------ golden

#[test]
fn composition_all_run_time_prints_cute_padded_form() {
    let (a, b) = (layout!(({10i64},{2i64}):({16i64},{4i64})), layout!(({5i64},{4i64}):({1i64},{5i64})));
    let r = composition(a, b);
    assert_eq!(r.to_string(), "((5,1),(2,2)):((16,4),(80,4))");
    assert_eq!(try_composition(a, b).unwrap(), r);
    // The all-static composition is unchanged: CuTe's static form.
    let s = composition(layout!((10,2):(16,4)), layout!((5,4):(1,5)));
    assert_eq!(s.to_string(), "(_5,(_2,_2)):(_16,(_80,_4))");
    assert_eq!(size_of_val(&s), 0);
}

#[test]
fn composition_with_one_flat_mode_keeps_static_products() {
    let m = 1000usize;
    // A of one mode: s:(d·D) per leaf of B, static when d and D are.
    let r = composition(layout!({m}:1), layout!((4,{m}):(1,4)));
    assert_eq!(r.to_string(), "(_4,1000):(_1,_4)");
    let r = composition(layout!(8:{m}), layout!((2,4):(1,2)));
    assert_eq!(r.to_string(), "(_2,_4):(1000,2000)");
}

#[test]
fn composition_of_several_modes_keeps_cutes_static_leaves() {
    // CuTe's fold over modes that do not coalesce statically: the leaves
    // CuTe computes from static values stay static (CuTe C++ 4.2 prints
    // `(8,1):(_1,8)` and `_2:16`).
    let r = composition(layout!(({8i64},2):(1,{8i64})), layout!(8:1));
    assert_eq!(r.to_string(), "(8,1):(_1,8)");
    let r = composition(layout!((128,64):({1i64},128)), layout!(2:16));
    assert_eq!(r.to_string(), "_2:16");
}

#[test]
fn composition_where_cutes_modes_fail_at_run_time_is_cute_dynamics_answer_in_cutes_form() {
    // `(6,8):(1,6)` coalesces to `48:1` at run time, CuTe's modes do not
    // (the stride 1 is a run-time leaf), and CuTe's fold cannot place the
    // 4 elements of `4:2` in the 3 its first mode holds: cute-dynamic's
    // answer is `4:2`. CuTe's type for it is `(d,d):(d,_6)`: the answer
    // goes to the slot that takes it, the other is of size 1.
    let (a, b) = (layout!((6,8):({1i64},6)), layout!({4i64}:2));
    let r = try_composition(a, b).unwrap();
    assert_eq!(r.to_string(), "(4,1):(2,_6)");
    assert_eq!(composition(a, b), r);
    let d = cute_dynamic::composition(&a.to_dynamic(), &b.to_dynamic()).unwrap();
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), d);
    // Where CuTe's fold holds, its form and values.
    let r = composition(layout!((6,8):({1i64},6)), layout!({3i64}:2));
    assert_eq!(r.to_string(), "(3,1):(2,_6)");
    let r = composition(layout!((6,8):({1i64},6)), layout!({6i64}:2));
    assert_eq!(r.to_string(), "(3,2):(2,_6)");
    // A static shape of CuTe's form takes a part of the answer's mode:
    // `(4,3,8):(1,4,12)` is `96:1` at run time, CuTe's fold cannot place
    // 16 elements in `_4` then 3, and `16:1` is split as `(_4,4):(_1,4)`.
    let (a, b) = (layout!((4,{3i64},8):(1,{4i64},{12i64})), layout!((16,2):(1,{3i64})));
    let r = try_composition(a, b).unwrap();
    assert_eq!(r.to_string(), "((_4,4,1),(1,1,2)):((_1,4,0),(0,0,3))");
    let d = cute_dynamic::composition(&a.to_dynamic(), &b.to_dynamic()).unwrap();
    assert_eq!(d.to_string(), "(16,2):(1,3)");
    for (x, y) in r.to_dynamic().modes_iter().zip(d.modes_iter()) {
        assert_eq!(cute_dynamic::coalesce(&x), y);
    }
}

#[test]
fn composition_run_time_failures_err_and_panic_with_the_same_message() {
    let (a, b) = (layout!(({4i64},6,8):(2,3,{5i64})), layout!({6i64}:{3i64}));
    let e = try_composition(a, b).unwrap_err();
    let d = cute_dynamic::composition(&a.to_dynamic(), &b.to_dynamic()).unwrap_err();
    assert_eq!(e, d);
    assert!(matches!(e, LayoutError::StrideDivisibility { shape: 4, stride: 3, .. }), "{e}");
    assert_eq!(
        panic_message(move || {
            let _ = composition(a, b);
        }),
        e.to_string()
    );
    // Shape divisibility, with a static leaf beside the run-time one.
    let (a, b) = (layout!((4,{6i64},8):(2,3,5)), layout!(6:1));
    let e = try_composition(a, b).unwrap_err();
    assert!(matches!(e, LayoutError::ShapeDivisibility { shape: 4, fits: 4, rest: 6, .. }), "{e}");
    assert_eq!(e, cute_dynamic::composition(&a.to_dynamic(), &b.to_dynamic()).unwrap_err());
    // Not distributive.
    let (a, b) = (layout!(({4i64},1):(0,1)), layout!(({2i64},4):(1,1)));
    let e = try_composition(a, b).unwrap_err();
    assert!(matches!(e, LayoutError::NotDistributive { .. }), "{e}");
    assert_eq!(e, cute_dynamic::composition(&a.to_dynamic(), &b.to_dynamic()).unwrap_err());
}

#[test]
fn logical_divide_of_a_run_time_matrix_by_a_static_tiler_prints_as_cute() {
    let (m, n) = (1000i64, 500i64);
    let a = layout!(({m},{n}):(1,{m}));
    let r = logical_divide(a, tile!(128:1, 64:1));
    assert_eq!(r.to_string(), "((_128,8),(_64,8)):((_1,_128),(1000,64000))");
    assert_eq!(try_logical_divide(a, tile!(128:1, 64:1)).unwrap(), r);
    assert_eq!(
        r.to_dynamic(),
        cute_dynamic::logical_divide(&a.to_dynamic(), &tile!(128:1, 64:1).to_dynamic()).unwrap()
    );
    // Every leaf run-time, the stride 1 too.
    let (one, all) = (1i64, layout!(({m},{n}):({1i64},{m})));
    let _ = one;
    let r = logical_divide(all, tile!(128:1, 64:1));
    assert_eq!(r.to_string(), "((_128,8),(_64,8)):((1,128),(1000,64000))");
    // zipped: tiles together, rests together (CuTe's local_tile layout).
    let z = zipped_divide(a, tile!(128:1, 64:1));
    assert_eq!(z.to_string(), "((_128,_64),(8,8)):((_1,1000),(_128,64000))");
    assert_eq!(z.to_dynamic(), cute_dynamic::zipped_divide(&a.to_dynamic(), &tile!(128:1, 64:1).to_dynamic()).unwrap());
}

/// `r` (cute-static's divide, as cute-dynamic) is cute-dynamic's divide
/// `want` as a function of the 1-D index.
fn same_as(r: &DLayout, want: Result<DLayout, LayoutError>) {
    let w = want.expect("cute-dynamic divides");
    same_values(r, &w).unwrap_or_else(|e| panic!("{r} and cute-dynamic {w}: {e}"));
}

#[test]
fn divides_by_run_time_tiles_print_as_cute() {
    // The example: every leaf run-time, CuTe's text, and the same
    // function as cute-dynamic.
    let (a, t) = (layout!({1i64}:{0i64}), layout!({1i64}:{1i64}));
    let r = try_logical_divide(a, t).unwrap();
    assert_eq!(r.to_string(), "(1,(1,1)):(0,(0,0))");
    same_as(&r.to_dynamic(), cute_dynamic::logical_divide(&a.to_dynamic(), &t.to_dynamic()));
    // A kernel's matrix by a run-time CTA tile: texts of CuTe C++ with
    // `int` leaves (`make_layout(bm, _1{})`, an `int` tile `100`).
    let (m, n, bm) = (1000usize, 333usize, 128usize);
    let a = layout!(({m},{n}):(1,{m}));
    let z = zipped_divide(a, (layout!({bm}:1), layout!(8:1)));
    assert_eq!(z.to_string(), "((128,_8),(8,42)):((_1,1000),(128,8000))");
    assert_eq!(zipped_divide(a, (Dyn::new(128), layout!(8:1))), z);
    let dt: cute_dynamic::Tiler = "<128:1,8:1>".parse().unwrap();
    same_as(&z.to_dynamic(), cute_dynamic::zipped_divide(&a.to_dynamic(), &dt));
    let t = (layout!({bm}:{1i64}), layout!({8i64}:{1i64}));
    let z = try_zipped_divide(a, t).unwrap();
    assert_eq!(z.to_string(), "((128,8),((1,8),(1,42))):((1,1000),((_1,128),(1000,8000)))");
    same_as(&z.to_dynamic(), cute_dynamic::zipped_divide(&a.to_dynamic(), &dt));
    let l = logical_divide(a, t);
    assert_eq!(l.to_string(), "((128,(1,8)),(8,(1,42))):((1,(_1,128)),(1000,(1000,8000)))");
    let data = vec![0f32; m * n];
    let g = local_tile(make_tensor(&data[..], a), (Dyn::new(100), layout!(8:1)), (2usize, 3usize));
    assert_eq!(g.layout().to_string(), "(100,_8):(_1,1000)");
    assert_eq!(g.layout().index((1usize, 1usize)), 1001);
}

#[test]
fn divides_by_run_time_tiles_err_where_cute_dynamic_does() {
    let a = layout!(({8i64},{4i64}):({1i64},{8i64}));
    // A negative stride: no complement. The plain form panics with the
    // message of the `try_` form's error, which is cute-dynamic's.
    let t = layout!({2i64}:{-1i64});
    let e = try_logical_divide(a, t).unwrap_err();
    assert_eq!(e, cute_dynamic::logical_divide(&a.to_dynamic(), &t.to_dynamic()).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = logical_divide(a, t);
        }),
        e.to_string()
    );
    // Shape divisibility inside a mode, with run-time values only.
    let a = layout!(({4i64},{6i64}):({1i64},{9i64}));
    let t = layout!({6i64}:{1i64});
    for (got, want) in [
        (
            try_logical_divide(a, t).map(|r| r.to_dynamic()),
            cute_dynamic::logical_divide(&a.to_dynamic(), &t.to_dynamic()),
        ),
        (
            try_zipped_divide(a, t).map(|r| r.to_dynamic()),
            cute_dynamic::zipped_divide(&a.to_dynamic(), &t.to_dynamic()),
        ),
        (try_tiled_divide(a, t).map(|r| r.to_dynamic()), cute_dynamic::tiled_divide(&a.to_dynamic(), &t.to_dynamic())),
        (try_flat_divide(a, t).map(|r| r.to_dynamic()), cute_dynamic::flat_divide(&a.to_dynamic(), &t.to_dynamic())),
    ] {
        assert_eq!(got.unwrap_err(), want.unwrap_err());
    }
    // A tile of run-time size 1 or stride 0 adds no offset: cute-dynamic's
    // `M:1` rest, as a function.
    for t in [layout!({1i64}:{3i64}), layout!({4i64}:{0i64})] {
        let a = layout!(({6i64},{4i64}):({1i64},{6i64}));
        let r = try_logical_divide(a, t).unwrap().to_dynamic();
        same_as(&r, cute_dynamic::logical_divide(&a.to_dynamic(), &t.to_dynamic()));
    }
}

/// `tile!` with run-time leaves: the same tiler as the tuple of
/// `layout!` tiles (a `{m}` integer tile is `m:_1`), CuTe's text, and the
/// divides are cute-dynamic's functions of its `to_dynamic()`.
#[test]
fn tile_macro_takes_run_time_leaves() {
    let (bm, d) = (std::hint::black_box(128i64), std::hint::black_box(2i64));
    let t = tile!({bm}, 8:{d}, (2,4):(1,8));
    assert_eq!(t.to_string(), "<128:_1,_8:2,(_2,_4):(_1,_8)>");
    assert_eq!(t.tiles(), (layout!({bm}:1), layout!(8:{d}), layout!((2,4):(1,8))));
    assert_eq!(t.to_dynamic().to_string(), "<128:1,8:2,(2,4):(1,8)>");
    let (m, n) = (1000i64, 333i64);
    let a = layout!(({m},{n}):(1,{m}));
    let t = tile!({bm}, 8:{d});
    let z = zipped_divide(a, t);
    assert_eq!(z, zipped_divide(a, (layout!({bm}:1), layout!(8:{d}))));
    same_as(&z.to_dynamic(), cute_dynamic::zipped_divide(&a.to_dynamic(), &t.to_dynamic()));
    let l = layout!((12,(4,8)):(59,(13,1)));
    let t = tile!({bm / 32 - 1}:4, 8:2);
    let r = logical_divide(l, t);
    assert_eq!(r.to_string(), "((3,(4,1)),((_2,_4),(_2,_2))):((_236,(_59,708)),((_26,_1),(_13,_4)))");
    same_as(&r.to_dynamic(), cute_dynamic::logical_divide(&l.to_dynamic(), &t.to_dynamic()));
}

/// Composition by a tiler with a run-time leaf in the layout or a tile:
/// mode by mode, the modes past the tiler dropped, as cute-dynamic (and
/// each mode's form is that mode's composition).
#[test]
fn composition_by_tilers_with_run_time_leaves() {
    let m = std::hint::black_box(12i64);
    let a = layout!((12,(4,8)):(59,(13,1)));
    let b = layout!(({m},(4,8)):(59,(13,1)));
    let dt = |t: &str| t.parse::<cute_dynamic::Tiler>().unwrap();
    let r = composition(a, tile!({m / 4}:4, 8:2));
    assert_eq!(r.to_string(), "(3,(_2,_4)):(_236,(_26,_1))");
    same_as(&r.to_dynamic(), cute_dynamic::composition(&a.to_dynamic(), &dt("<3:4,8:2>")));
    let r = composition(b, tile!(3:4, 8:2));
    assert_eq!(r.to_string(), "(_3,(_2,_4)):(_236,(_26,_1))");
    let r = composition(b, tile!(3:{m / 3}));
    assert_eq!(r.to_string(), "(_3):(236)");
    same_as(&r.to_dynamic(), cute_dynamic::composition(&b.to_dynamic(), &dt("<3:4>")));
    // A failing mode fails the whole, with cute-dynamic's error.
    let c = layout!(({m},({m / 3},8)):(1,(13,1)));
    let e = try_composition(c, tile!({m}:1, 8:3)).unwrap_err();
    assert_eq!(e, cute_dynamic::composition(&c.to_dynamic(), &dt("<12:1,8:3>")).unwrap_err());
}

/// Tiles of several modes, static or with run-time leaves, on layouts with
/// run-time leaves: `A ∘ (B, complement(B, size(A)))` by the run-time
/// composition and complement, each mode the same function as
/// cute-dynamic's, or its error.
#[test]
fn divides_by_tiles_of_several_modes() {
    let dt = |t: &str| t.parse::<cute_dynamic::Tiler>().unwrap();
    for m in [6i64, 8, 12, 24] {
        let a = layout!(({m},{m}):(1,{m}));
        let r = logical_divide(a, tile!((2,3):(1,2), 6:1));
        same_as(&r.to_dynamic(), cute_dynamic::logical_divide(&a.to_dynamic(), &dt("<(2,3):(1,2),6:1>")));
        let h = m / 2;
        let r = try_zipped_divide(a, tile!((2,{h}):(1,2), 2:1)).map(|r| r.to_dynamic());
        let want = cute_dynamic::zipped_divide(&a.to_dynamic(), &dt(&format!("<(2,{h}):(1,2),2:1>")));
        match (r, want) {
            (Ok(r), want) => same_as(&r, want),
            (Err(e), want) => assert_eq!(e, want.unwrap_err()),
        }
        let one = layout!({m * 4}:1);
        // (The tiles are of different types.)
        macro_rules! check {
            ($t:expr, $text:expr) => {{
                let text: String = $text;
                let want = cute_dynamic::logical_divide(&one.to_dynamic(), &dt(&text));
                match try_logical_divide(one, $t) {
                    Ok(r) => same_as(&r.to_dynamic(), want),
                    Err(e) => assert_eq!(e, want.unwrap_err(), "{one} / {text}"),
                }
            }};
        }
        check!(layout!(({m},2):(1,{m})), format!("({m},2):(1,{m})"));
        check!(layout!((2,{h}):(1,4)), format!("(2,{h}):(1,4)"));
        check!(layout!((2,2):(1,3)), "(2,2):(1,3)".to_string());
    }
    // CuTe's text: B* = complement(B, M) with an `int` M keeps its last mode.
    let r = logical_divide(layout!({24i64}:1), layout!((2,2):(1,4)));
    assert_eq!(r.to_string(), "((_2,_2),(_2,3)):((_1,_4),(_2,_8))");
    // A transposed static tile, whose filter keeps both modes: B* is the
    // walk's static modes, then the rest against A's shape, which keeps
    // A's static 32 (CuTe C++ 4.2's text).
    let a = layout!(({256i64},32):(32,{1i64}));
    let r = try_logical_divide(a, layout!((8,4):(4,1))).unwrap();
    assert_eq!(r.to_string(), "(((8,1),(4,1)),(8,32)):(((_128,1),(_32,1)),(_1024,1))");
    same_as(&r.to_dynamic(), cute_dynamic::logical_divide(&a.to_dynamic(), &dt("(8,4):(4,1)")));
    // A walk with a gap (3 is no multiple of 2): CuTe's rest `⌈M/6⌉` falls
    // short of M; B* is against the size, cute-dynamic's complement.
    let r = try_logical_divide(layout!({24i64}:1), layout!((2,2):(1,3))).unwrap();
    same_as(&r.to_dynamic(), cute_dynamic::logical_divide(&layout!({24i64}:1).to_dynamic(), &dt("(2,2):(1,3)")));
    // A tile with a run-time leaf whose complement fold ends at a static
    // N = 16·12: CuTe's rest against A's shape `(768, _16)` is one run-time
    // leaf, so B* is the fold, `(1, 64):(12, _192)` (CuTe C++ 4.2's text).
    let a = layout!(((24,{32i64}),16):((1,24),768));
    let r = try_logical_divide(a, layout!(({12i64},16):(1,12))).unwrap();
    assert_eq!(
        r.to_string(),
        "(((12,1,1),(_2,8,1)),((1,1,1),(4,16))):(((_1,_24,768),(_12,_24,768)),((12,24,768),(_192,768)))"
    );
    // A run-time size that may be 1 under a static slot of the fold (the
    // `_2` of `t:8` after `4:1`): B* then counts as cute-dynamic's
    // complement does (against A's size here), not CuTe's rounded-up count.
    for m in 1..40i64 {
        for t in 1..4i64 {
            let (a, b) = (layout!({m}:1), layout!((4,{t}):(1,8)));
            let want = cute_dynamic::logical_divide(&a.to_dynamic(), &cute_dynamic::Tiler::Layout(b.to_dynamic()));
            match try_logical_divide(a, b) {
                Ok(r) => same_as(&r.to_dynamic(), want),
                Err(e) => assert_eq!(e, want.unwrap_err(), "{a} / {b}"),
            }
        }
    }
    // The same types on other values: run-time gaps (12 % t ≠ 0), extents
    // the tile does not divide, and errors, each cute-dynamic's function or
    // its error (with `(B, B*)` as cute-dynamic writes it).
    for m in 1..24i64 {
        for t in 1..14i64 {
            let (a, b) = (layout!(((24,{m}),16):((1,24),768)), layout!(({t},16):(1,12)));
            let want = cute_dynamic::logical_divide(&a.to_dynamic(), &cute_dynamic::Tiler::Layout(b.to_dynamic()));
            match try_logical_divide(a, b) {
                Ok(r) => same_as(&r.to_dynamic(), want),
                Err(e) => assert_eq!(e, want.unwrap_err(), "{a} / {b}"),
            }
        }
    }
}

/// An all-static layout by a run-time tile: the result has run-time leaves
/// (CuTe's `_` markers are not all there: the static `A` is not
/// coalesced first), the same function as cute-dynamic's.
#[test]
fn static_layout_by_a_run_time_tile_is_cute_dynamics_function() {
    let a = layout!((8,4):(1,8));
    for (n, d) in [(2i64, 1i64), (4, 2), (1, 3), (3, 1), (5, 1)] {
        let t = layout!({n}:{d});
        let dt = cute_dynamic::Tiler::Layout(t.to_dynamic());
        match try_logical_divide(a, t) {
            Ok(r) => same_as(&r.to_dynamic(), cute_dynamic::logical_divide(&a.to_dynamic(), &t.to_dynamic())),
            Err(e) => assert_eq!(e, cute_dynamic::logical_divide(&a.to_dynamic(), &t.to_dynamic()).unwrap_err()),
        }
        match try_flat_divide(a, (t, Dyn::new(2))) {
            Ok(r) => same_as(
                &r.to_dynamic(),
                cute_dynamic::flat_divide(
                    &a.to_dynamic(),
                    &cute_dynamic::Tiler::Tuple(vec![dt, "2:1".parse().unwrap()]),
                ),
            ),
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn logical_divide_ragged_run_time_extent() {
    let m = 1000i64;
    let r = logical_divide(layout!({m}:1), layout!(128:1));
    assert_eq!(r.to_string(), "(_128,8):(_1,_128)");
    let r = logical_divide(layout!({m}:1), layout!(128:2));
    assert_eq!(r.to_string(), "(_128,(_2,4)):(_2,(_1,_256))");
    assert_eq!(r.to_dynamic().to_string(), "(128,(2,4)):(2,(1,256))");
}

/// A mode of one run-time leaf takes a short path while its extent and
/// stride are small (an extent up to 2^21, a stride in -2^20..2^20) and
/// the rule otherwise: the same answer on both sides of those bounds, and
/// overflow found where it happens.
#[test]
fn divide_of_a_run_time_mode_agrees_across_the_small_value_bound() {
    let halves = |r: &DLayout| -> Vec<DLayout> { r.modes_iter().map(|h| cute_dynamic::coalesce(&h)).collect() };
    macro_rules! check {
        ($a:expr, $tile:expr) => {{
            let (a, t) = ($a, $tile);
            let got = try_logical_divide(a, t).map(|r| r.to_dynamic());
            let want = cute_dynamic::logical_divide(&a.to_dynamic(), &t.to_dynamic());
            let what = format!("logical_divide({}, {})", a.to_dynamic(), t.to_dynamic());
            agree(
                what,
                got,
                want,
                |g, w| if halves(g) == halves(w) { Ok(()) } else { Err("the halves differ".into()) },
            )
            .unwrap_or_else(|e| panic!("{e}"));
        }};
    }
    // The small rule's bounds: 2^21 on an extent, -2^20..2^20 on a stride.
    let edges = [1i64, 2, 127, 128, 129, (1 << 21) - 1, 1 << 21, (1 << 21) + 1, 1 << 40, i64::MAX / 2];
    let mut tried = 0;
    for &m in &edges {
        for d in [1i64, -3, 0, (1 << 20) - 1, 1 << 20, -(1 << 20), -(1 << 20) - 1, 1 << 40, i64::MIN + 1] {
            // Only layouts that exist: their extent fits.
            let Ok(a) = try_layout!({m}:{d}) else { continue };
            tried += 1;
            check!(a, layout!(128:1));
            check!(a, layout!(1:4));
            check!(a, layout!(4:3));
            check!(a, layout!(64:1));
            // A static stride beside the run-time extent.
            check!(layout!({m}:1), layout!(4:3));
        }
    }
    assert!(tried > 50, "{tried} layouts");
    // Two such modes by a tuple tiler: the modes test the bound together,
    // and where one is past it every mode takes the rule (each of the four
    // halves, coalesced, equals cute-dynamic's).
    let mut pairs = 0;
    for &m in &edges[..8] {
        for &n in &edges[..8] {
            // (A stride past 2^62 overflows the tile's extent: an error on both sides.)
            for d in [1i64, (1 << 20) - 1, 1 << 20, -(1 << 20), -(1 << 20) - 1, 1 << 30, 1 << 58, i64::MIN + 1] {
                let Ok(a) = try_layout!(({m},{n}):(1,{d})) else { continue };
                pairs += 1;
                let got = try_logical_divide(a, tile!(128:1, 64:1)).map(|r| r.to_dynamic());
                tiler_divide_agrees(&a.to_dynamic(), "<128:1, 64:1>", got).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    assert!(pairs > 200, "{pairs} layouts of two modes");
}

/// `logical_divide(a, tiler)` of a two-mode `a` by a tiler of two tiles
/// (its text), computed by cute-static (`got`) and by cute-dynamic: the
/// same error, or the same four halves, each coalesced.
fn tiler_divide_agrees(a: &DLayout, tiler: &str, got: Result<DLayout, LayoutError>) -> Result<(), String> {
    let quarters = |r: &DLayout| -> Vec<DLayout> {
        r.modes_iter().flat_map(|m| m.modes_iter().map(|h| cute_dynamic::coalesce(&h)).collect::<Vec<_>>()).collect()
    };
    let want = cute_dynamic::logical_divide(a, &tiler.parse::<cute_dynamic::Tiler>().unwrap());
    agree(format!("logical_divide({a}, {tiler})"), got, want, |g, w| {
        if quarters(g) == quarters(w) { Ok(()) } else { Err("the halves differ".into()) }
    })
}

/// A value around the small rule's bounds (2^20, 2^21), of either sign, or
/// a small one.
fn around_the_bounds() -> impl Strategy<Value = i64> {
    prop_oneof![
        -3i64..=300,
        ((1i64 << 20) - 300..=(1i64 << 20) + 300),
        ((1i64 << 21) - 300..=(1i64 << 21) + 300),
        (-(1i64 << 20) - 300..=-(1i64 << 20) + 300),
        1i64..=(1 << 23),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A run-time matrix `({m},{n}):(1,{d})` divided by static tilers, with
    /// values on both sides of the small rule's bounds: each of the four
    /// halves, coalesced, is cute-dynamic's, or both refuse with the same
    /// error.
    #[test]
    fn divide_of_run_time_modes_by_a_static_tiler_agrees_with_cute_dynamic(
        m in around_the_bounds(),
        n in around_the_bounds(),
        d in around_the_bounds(),
    ) {
        let Ok(a) = try_layout!(({m},{n}):(1,{d})) else { return Ok(()) };
        macro_rules! check {
            ($tile:expr, $text:expr) => {{
                let got = try_logical_divide(a, $tile).map(|r| r.to_dynamic());
                tiler_divide_agrees(&a.to_dynamic(), $text, got).map_err(TestCaseError::fail)?;
            }};
        }
        check!(tile!(128:1, 64:1), "<128:1, 64:1>");
        check!(tile!(4:3, 1:4), "<4:3, 1:4>");
        check!(tile!(8:1, (2,2):(1,4)), "<8:1, (2,2):(1,4)>");
    }
}

#[test]
fn divide_run_time_failures_err_and_panic_with_the_same_message() {
    // (4,{6}):(1,{9}) by 6:1: 6 elements do not split across the mode of
    // 4 (shape divisibility), found only when the run-time stride 9 is known.
    let a = layout!((4,{6i64}):(1,{9i64}));
    let e = try_logical_divide(a, layout!(6:1)).unwrap_err();
    let d = cute_dynamic::logical_divide(&a.to_dynamic(), &layout!(6:1).to_dynamic()).unwrap_err();
    assert_eq!(e, d);
    assert!(matches!(e, LayoutError::ShapeDivisibility { shape: 4, fits: 4, rest: 6, .. }), "{e}");
    assert_eq!(
        panic_message(move || {
            let _ = logical_divide(a, layout!(6:1));
        }),
        e.to_string()
    );
    let e = try_zipped_divide(a, layout!(6:1)).unwrap_err();
    assert_eq!(e, d);
}

// --------------------------------------------------- agreement helpers

/// `R(i) = A(B(i))` for every `i` of `B`'s domain, and by top-level mode of
/// `B` the coalesced modes equal cute-dynamic's.
fn agrees(a: &DLayout, b: &DLayout, r: &DLayout, d: &DLayout) -> Result<(), String> {
    for i in 0..b.size() {
        let bi = b.eval(i).map_err(|e| e.to_string())?;
        let want = a.eval_extended(bi).map_err(|e| e.to_string())?;
        let got = r.eval(i).map_err(|e| e.to_string())?;
        if want != got {
            return Err(format!("R({i}) = {got}, A(B({i})) = {want}"));
        }
    }
    let modes = |l: &DLayout| -> Vec<DLayout> {
        if b.shape().as_int().is_some() { vec![l.clone()] } else { l.modes_iter().collect() }
    };
    let (rm, dm) = (modes(r), modes(d));
    if rm.len() != dm.len() {
        return Err(format!("ranks {} and {}", rm.len(), dm.len()));
    }
    for (x, y) in rm.iter().zip(&dm) {
        let (cx, cy) = (cute_dynamic::coalesce(x), cute_dynamic::coalesce(y));
        if cx != cy {
            return Err(format!("mode {x} coalesces to {cx}, cute-dynamic's {y} to {cy}"));
        }
    }
    Ok(())
}

/// Composes `a` and `b` with every leaf run-time (types of the given flat
/// ranks) and checks against cute-dynamic: the same error, or agreement.
fn check_all_run_time<A, B>(a: &DLayout, b: &DLayout) -> Result<(), String>
where
    A: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + Compose<B> + Copy + std::panic::UnwindSafe,
    B: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + Copy + std::panic::UnwindSafe,
    <A as Compose<B>>::Output: ComposeValue<A, B> + ToDyn,
{
    let (sa, sb) = (A::try_from(a).map_err(|e| e.to_string())?, B::try_from(b).map_err(|e| e.to_string())?);
    let got = try_composition(sa, sb).map(|r| r.to_dyn());
    agree(format_args!("{a} o {b}"), got, cute_dynamic::composition(a, b), |r, d| agrees(a, b, r, d))
}

type D1 = Layout![Dyn:Dyn];
type T1 = Layout![(Dyn):(Dyn)];
type T2 = Layout![(Dyn,Dyn):(Dyn,Dyn)];
type T3 = Layout![(Dyn,Dyn,Dyn):(Dyn,Dyn,Dyn)];
type T4 = Layout![(Dyn,Dyn,Dyn,Dyn):(Dyn,Dyn,Dyn,Dyn)];

/// The structure of a flat layout: 0 for a scalar, its rank for a flat
/// tuple, `None` when nested.
fn flat_rank(l: &DLayout) -> Option<usize> {
    if l.shape().as_int().is_some() {
        return Some(0);
    }
    (l.depth() == 1).then(|| l.rank())
}

/// Runs one case with all leaves run-time, when its structure is one of
/// the typed ones; `None` when it is not.
fn run_case(a: &DLayout, b: &DLayout) -> Option<Result<(), String>> {
    macro_rules! by_b {
        ($A:ty) => {
            match flat_rank(b)? {
                0 => check_all_run_time::<$A, D1>(a, b),
                1 => check_all_run_time::<$A, T1>(a, b),
                2 => check_all_run_time::<$A, T2>(a, b),
                3 => check_all_run_time::<$A, T3>(a, b),
                _ => return None,
            }
        };
    }
    Some(match flat_rank(a)? {
        0 => by_b!(D1),
        1 => by_b!(T1),
        2 => by_b!(T2),
        3 => by_b!(T3),
        4 => by_b!(T4),
        _ => return None,
    })
}

/// Splits `op(x, y)` into `x` and `y` at the top-level comma.
fn split_args(expr: &str, op: &str) -> Option<(String, String)> {
    let inner = expr.strip_prefix(op)?.strip_prefix('(')?.strip_suffix(')')?;
    let mut depth = 0i32;
    for (k, c) in inner.char_indices() {
        match c {
            '(' | '<' => depth += 1,
            ')' | '>' => depth -= 1,
            ',' if depth == 0 => return Some((inner[..k].trim().into(), inner[k + 1..].trim().into())),
            _ => {}
        }
    }
    None
}

/// The expressions of the generated agreement file for `op`.
fn generated(op: &str) -> Vec<String> {
    let text = include_str!("static_agreement.rs");
    let pat = format!("case!(\"{op}(");
    text.lines()
        .filter_map(|l| {
            let at = l.find(&pat)?;
            let rest = &l[at + "case!(\"".len()..];
            Some(rest[..rest.find('"')?].to_string())
        })
        .collect()
}

#[test]
fn composition_agrees_on_generated_cases_with_every_leaf_run_time() {
    let mut ran = 0;
    for expr in generated("composition") {
        let Some((a, b)) = split_args(&expr, "composition") else { continue };
        if b.starts_with('<') {
            continue; // tilers: not yet on the mixed path
        }
        // An integer `n` stands for the layout `n:1`: its leaves are
        // run-time here, and CuTe's compact stride of a dynamic 1 is 1.
        // A shape is a tiler (not yet on the mixed path).
        let b = match b.parse::<i64>() {
            Ok(_) => format!("{b}:1"),
            Err(_) if b.contains(':') => b,
            Err(_) => continue,
        };
        let (a, b): (DLayout, DLayout) = (a.parse().unwrap(), b.parse().unwrap());
        if let Some(r) = run_case(&a, &b) {
            r.unwrap_or_else(|e| panic!("{expr}: {e}"));
            ran += 1;
        }
    }
    assert!(ran >= 60, "only {ran} generated cases have a flat structure");
}

/// One all-run-time composition of the typed structures: cute-dynamic's
/// answer or its error.
fn composition_agrees(a: &DLayout, b: &DLayout) -> Result<(), TestCaseError> {
    let r = run_case(a, b).expect("typed structure");
    prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    Ok(())
}

fn small_layout(rank: usize) -> impl Strategy<Value = DLayout> {
    (prop::collection::vec(1i64..=8, rank), prop::collection::vec(0i64..=40, rank)).prop_map(move |(s, d)| {
        if rank == 0 {
            DLayout::new(cute_dynamic::IntTuple::int(s[0]), cute_dynamic::IntTuple::int(d[0])).unwrap()
        } else {
            let t = |v: &[i64]| {
                cute_dynamic::IntTuple::tuple(v.iter().map(|&x| cute_dynamic::IntTuple::int(x)).collect::<Vec<_>>())
            };
            DLayout::new(t(&s), t(&d)).unwrap()
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random all-run-time compositions: cute-dynamic's error exactly when
    /// it rejects, otherwise `R(i) = A(B(i))` and the coalesced modes agree.
    #[test]
    fn composition_all_run_time_agrees_with_cute_dynamic(
        a in (1usize..=4).prop_flat_map(small_layout),
        b in (0usize..=3).prop_flat_map(|r| small_layout(r.max(1)).prop_map(move |l| if r == 0 { l.get(0).unwrap() } else { l })),
    ) {
        composition_agrees(&a, &b)?;
    }
}

/// A result stride of exactly `-2^63` (`2^44 · -2^19`): it fits, the
/// result's extent does not, and both crates say so, whichever operand
/// carries the sign.
#[test]
fn composition_to_a_stride_of_minus_2_to_the_63_agrees_with_cute_dynamic() {
    for (a, b) in [("(1):(17592186044416)", "(2):(-524288)"), ("(1):(-17592186044416)", "(2):(524288)")] {
        let (a, b): (DLayout, DLayout) = (a.parse().unwrap(), b.parse().unwrap());
        assert_eq!(cute_dynamic::composition(&a, &b), Err(LayoutError::Overflow { operation: "layout extent" }));
        composition_agrees(&a, &b).unwrap();
    }
    // Leaves of size 1: the stride -2^63 itself, and a product that is -2^63.
    for (a, b) in [
        ("(4):(1)", "(1):(-9223372036854775808)"),
        ("(4,8):(1,4)", "(1):(-9223372036854775808)"),
        ("(1):(17592186044416)", "(1):(-524288)"),
        ("(1):(-17592186044416)", "(1):(524288)"),
    ] {
        let (a, b): (DLayout, DLayout) = (a.parse().unwrap(), b.parse().unwrap());
        composition_agrees(&a, &b).unwrap();
    }
}

/// A layout whose modes mostly coalesce (compact column-major strides
/// times `k`, one of them moved by `nudge`): CuTe's uncoalesced form
/// lets a leaf's reach carry between such modes.
fn mergeable_layout(rank: usize) -> impl Strategy<Value = DLayout> {
    (prop::collection::vec(1i64..=8, rank), 1i64..=3, 0..rank, 0i64..=2).prop_map(move |(s, k, at, nudge)| {
        let mut d = Vec::with_capacity(rank);
        let mut c = k;
        for &x in &s {
            d.push(c);
            c *= x;
        }
        d[at] += nudge;
        DLayout::new(cute_dynamic::IntTuple::flat(s), cute_dynamic::IntTuple::flat(d)).unwrap()
    })
}

/// `small_layout` with strides of either sign.
fn signed_layout(rank: usize) -> impl Strategy<Value = DLayout> {
    (prop::collection::vec(1i64..=6, rank), prop::collection::vec(-6i64..=6, rank))
        .prop_map(|(s, d)| DLayout::new(cute_dynamic::IntTuple::flat(s), cute_dynamic::IntTuple::flat(d)).unwrap())
}

#[test]
fn composition_by_negative_strides_over_several_modes() {
    // One leaf moving down over A's two modes: the odd extension,
    // A(-x) = -A(x) (cute-dynamic's `3:-10`); leaves moving both ways over
    // several modes: cute-dynamic's error.
    for (a, b) in [
        ("(2,3):(1,10)", "3:-2"),
        ("(2,3):(1,10)", "(3):(-2)"),
        ("(2,3):(1,10)", "(2,3):(1,-2)"),
        ("(2,3):(1,2)", "(2,3):(1,-2)"),
        ("(4,3):(1,10)", "(2,3):(-1,-4)"),
    ] {
        let (a, b): (DLayout, DLayout) = (a.parse().unwrap(), b.parse().unwrap());
        run_case(&a, &b).expect("typed structure").unwrap_or_else(|e| panic!("{e}"));
    }
    let a = layout!(({2i64},{3i64}):({1i64},{10i64}));
    assert_eq!(try_composition(a, layout!({3i64}:{-2i64})).unwrap().to_dynamic().to_string(), "(1,3):(-2,-10)");
    // A product whose A* has two modes, by a grid moving down.
    let r = try_logical_product(layout!(2:2), layout!(2:{-1i64})).unwrap().to_dynamic();
    let d =
        cute_dynamic::logical_product(&"2:2".parse::<DLayout>().unwrap(), &"2:-1".parse::<DLayout>().unwrap()).unwrap();
    assert_eq!(cute_dynamic::coalesce(&r), cute_dynamic::coalesce(&d), "{r} and {d}");
}

/// `try_composition(a, b)` against cute-dynamic's composition of the same
/// values: the same error, or `R(i) = A(B(i))` with the same coalesced modes.
fn mixed_composition_agrees<A, B>(a: A, b: B) -> Result<(), String>
where
    A: Compose<B> + ToDyn + Copy,
    B: ToDyn + Copy,
    <A as Compose<B>>::Output: ComposeValue<A, B> + ToDyn,
{
    let (da, db) = (a.to_dyn(), b.to_dyn());
    let got = try_composition(a, b).map(|r| r.to_dyn());
    agree(format!("composition({da}, {db})"), got, cute_dynamic::composition(&da, &db), |r, w| agrees(&da, &db, r, w))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Mixed static and run-time leaves where `A`'s modes merge at run time
    /// and not statically (CuTe keeps them apart, cute-dynamic coalesces
    /// them): CuTe's form holds cute-dynamic's answer, or its error.
    #[test]
    fn composition_of_modes_that_merge_at_run_time_agrees_with_cute_dynamic(
        d0 in 1i64..=4,
        d1 in 1i64..=24,
        s in 1i64..=24,
        t in prop::sample::select(vec![1i64, 2, 3, 4, 6]),
    ) {
        let r = mixed_composition_agrees(layout!((6,8):({d0},6)), layout!({s}:2))
            .and(mixed_composition_agrees(layout!((6,8):({d0},6)), layout!({s}:{t})))
            .and(mixed_composition_agrees(layout!((4,2,8):({d0},{d1},8)), layout!(({s},2):(1,{t}))))
            .and(mixed_composition_agrees(layout!(({t},8):(1,{d1})), layout!((12,{s}):(1,{d0}))))
            .and(mixed_composition_agrees(layout!((6,{t},4):(1,{d1},48)), layout!((4,{s}):(2,1))))
            .and(mixed_composition_agrees(layout!((2,{t},3,4):({d0},2,{d1},6)), layout!({s}:{d0})))
            .and(mixed_composition_agrees(layout!((4,{t},8):(1,{d1},{d1 * t})), layout!((16,2):(1,{s}))));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// `l` with its first shape times `ks` and every stride times `kd`, if that
/// is a layout (its extent fits).
fn rescaled(l: &DLayout, ks: i64, kd: i64) -> Option<DLayout> {
    let shapes: Vec<i64> = l.shape().leaves().enumerate().map(|(k, s)| if k == 0 { s * ks } else { s }).collect();
    let strides: Vec<i64> = l.stride().leaves().map(|d| d.checked_mul(kd)).collect::<Option<_>>()?;
    let t = |v: &[i64]| -> cute_dynamic::IntTuple {
        if l.shape().as_int().is_some() {
            cute_dynamic::IntTuple::int(v[0])
        } else {
            cute_dynamic::IntTuple::flat(v.iter().copied())
        }
    };
    DLayout::new(t(&shapes), t(&strides)).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random all-run-time compositions of an `A` whose modes coalesce
    /// (CuTe's fold walks them uncoalesced, the distributivity check
    /// counts them as one).
    #[test]
    fn composition_of_coalescing_modes_agrees_with_cute_dynamic(
        a in (2usize..=4).prop_flat_map(mergeable_layout),
        b in (1usize..=3).prop_flat_map(mergeable_layout),
    ) {
        composition_agrees(&a, &b)?;
    }

    /// Random all-run-time compositions by leaves of either sign (a leaf
    /// moving down over several modes, leaves moving both ways).
    #[test]
    fn composition_by_strides_of_either_sign_agrees_with_cute_dynamic(
        a in (1usize..=3).prop_flat_map(mergeable_layout),
        b in (1usize..=3).prop_flat_map(signed_layout),
    ) {
        composition_agrees(&a, &b)?;
    }

    /// The walk runs without its overflow checks when every shape is below
    /// 2^16 and every stride in `-2^16..2^16`, and with them otherwise:
    /// random compositions whose shapes and strides (of either sign) lie on
    /// both sides of that bound, and far past it, give cute-dynamic's
    /// answer or its error.
    #[test]
    fn composition_all_run_time_agrees_across_the_small_value_bound(
        a in (1usize..=3).prop_flat_map(small_layout),
        b in (1usize..=2).prop_flat_map(small_layout),
        ks in prop::sample::select(vec![1i64, (1 << 15) + 1, 1 << 16, (1 << 16) + 1]),
        ka in prop::sample::select(vec![1i64, (1 << 16) - 1, 1 << 16, 1 << 17, 1 << 40, -(1 << 16), -(1 << 16) - 1]),
        kb in prop::sample::select(vec![
            1i64,
            1 << 4,
            (1 << 16) - 1,
            1 << 16,
            1 << 30,
            -1,
            -((1 << 16) - 1),
            -(1 << 16),
            -(1 << 16) - 1,
        ]),
    ) {
        if let (Some(a), Some(b)) = (rescaled(&a, ks, ka), rescaled(&b, 1, kb)) {
            composition_agrees(&a, &b)?;
        }
    }
}

/// The divide `r` equals cute-dynamic's `d`: the same function of the 1-D
/// index, and the same coalesced modes two levels down (the arrangement).
fn same_divide(r: &DLayout, d: &DLayout) -> Result<(), String> {
    same_values(r, d)?;
    let modes = |l: &DLayout| -> Vec<DLayout> {
        if l.shape().as_int().is_some() { vec![l.clone()] } else { l.modes_iter().collect() }
    };
    let (rm, dm) = (modes(r), modes(d));
    if rm.len() != dm.len() {
        return Err(format!("ranks {} and {}", rm.len(), dm.len()));
    }
    for (x, y) in rm.iter().zip(&dm) {
        let (xs, ys) = (modes(x), modes(y));
        let same = xs.len() == ys.len()
            && xs.iter().zip(&ys).all(|(p, q)| cute_dynamic::coalesce(p) == cute_dynamic::coalesce(q));
        if !same && cute_dynamic::coalesce(x) != cute_dynamic::coalesce(y) {
            return Err(format!("mode {x} and {y}"));
        }
    }
    Ok(())
}

/// Divides the all-run-time `a` (typed `A`) by the tiler `t`, every
/// arrangement, against cute-dynamic: the same error, or the same divide.
fn check_divide<A, T>(a: &DLayout, t: T) -> Result<(), String>
where
    A: for<'x> TryFrom<&'x DLayout, Error = LayoutError>
        + LogicalDivide<T>
        + ZippedDivide<T>
        + TiledDivide<T>
        + FlatDivide<T>
        + Copy,
    <A as LogicalDivide<T>>::Output: LogicalDivideValue<A, T> + ToDyn,
    <A as ZippedDivide<T>>::Output: ZippedDivideValue<A, T> + ToDyn,
    <A as TiledDivide<T>>::Output: TiledDivideValue<A, T> + ToDyn,
    <A as FlatDivide<T>>::Output: FlatDivideValue<A, T> + ToDyn,
    T: AsDynTiler + Copy,
{
    check_divide_as::<A, T>(a, t, false)
}

/// [`check_divide`]; with `spread`, the tiled and flat divides are
/// compared as functions only: a run-time tile's complement keeps CuTe's
/// two modes where cute-dynamic's coalesces to one, and those two put
/// their rests at the top level.
fn check_divide_as<A, T>(a: &DLayout, t: T, spread: bool) -> Result<(), String>
where
    A: for<'x> TryFrom<&'x DLayout, Error = LayoutError>
        + LogicalDivide<T>
        + ZippedDivide<T>
        + TiledDivide<T>
        + FlatDivide<T>
        + Copy,
    <A as LogicalDivide<T>>::Output: LogicalDivideValue<A, T> + ToDyn,
    <A as ZippedDivide<T>>::Output: ZippedDivideValue<A, T> + ToDyn,
    <A as TiledDivide<T>>::Output: TiledDivideValue<A, T> + ToDyn,
    <A as FlatDivide<T>>::Output: FlatDivideValue<A, T> + ToDyn,
    T: AsDynTiler + Copy,
{
    let sa = A::try_from(a).map_err(|e| e.to_string())?;
    let dt = t.dyn_tiler();
    let cases = [
        (try_logical_divide(sa, t).map(|r| r.to_dyn()), cute_dynamic::logical_divide(a, &dt)),
        (try_zipped_divide(sa, t).map(|r| r.to_dyn()), cute_dynamic::zipped_divide(a, &dt)),
        (try_tiled_divide(sa, t).map(|r| r.to_dyn()), cute_dynamic::tiled_divide(a, &dt)),
        (try_flat_divide(sa, t).map(|r| r.to_dyn()), cute_dynamic::flat_divide(a, &dt)),
    ];
    cases.into_iter().enumerate().try_for_each(|(k, (got, want))| {
        let check = if spread && k >= 2 { same_values } else { same_divide };
        agree(format_args!("{a} / {dt}"), got, want, check)
    })
}

trait AsDynTiler {
    fn dyn_tiler(&self) -> cute_dynamic::Tiler;
}
impl<T: Tile> AsDynTiler for Tiler<T> {
    fn dyn_tiler(&self) -> cute_dynamic::Tiler {
        self.to_dynamic()
    }
}

impl<S: Congruent<D>, D: IntTuple> AsDynTiler for Layout<S, D> {
    fn dyn_tiler(&self) -> cute_dynamic::Tiler {
        cute_dynamic::Tiler::Layout(self.to_dynamic())
    }
}
impl AsDynTiler for Dyn {
    /// CuTe's `make_layout(m)`: `m:1`.
    fn dyn_tiler(&self) -> cute_dynamic::Tiler {
        cute_dynamic::Tiler::Layout(DLayout::new(self.get().into(), 1.into()).unwrap())
    }
}
impl<X: AsDynTiler, Y: AsDynTiler> AsDynTiler for (X, Y) {
    fn dyn_tiler(&self) -> cute_dynamic::Tiler {
        cute_dynamic::Tiler::Tuple(vec![self.0.dyn_tiler(), self.1.dyn_tiler()])
    }
}

/// Tiles with run-time leaves `n:d` (any `d`, 0 and negative included,
/// and `n = 1`) on `a`: whole, as an integer, and in a tuple tiler.
fn run_time_tile_menu(a: &DLayout, n: i64, d: i64) -> Result<(), String> {
    macro_rules! one {
        ($A:ty) => {{
            check_divide_as::<$A, _>(a, layout!({n}:{d}), true)?;
            check_divide_as::<$A, _>(a, layout!({n}:1), true)?;
            check_divide_as::<$A, _>(a, layout!({n}:2), true)?;
            check_divide_as::<$A, _>(a, layout!(1:{d}), true)?;
            check_divide_as::<$A, _>(a, layout!(3:{d}), true)?;
            check_divide_as::<$A, _>(a, Dyn::new(n), true)?;
        }};
    }
    macro_rules! two {
        ($A:ty) => {{
            one!($A);
            check_divide_as::<$A, _>(a, (Dyn::new(n), layout!(2:{d})), true)?;
            check_divide_as::<$A, _>(a, (layout!({n}:{d}), layout!(2:1)), true)?;
        }};
    }
    match flat_rank(a) {
        Some(1) => one!(T1),
        Some(2) => two!(T2),
        Some(3) => two!(T3),
        _ => {}
    }
    Ok(())
}

/// Every static tiler of the menu on `a` (when its rank allows).
fn divide_menu(a: &DLayout) -> Result<(), String> {
    macro_rules! one {
        ($A:ty) => {{
            check_divide::<$A, _>(a, tile!(4:1))?;
            check_divide::<$A, _>(a, tile!(3:2))?;
            check_divide::<$A, _>(a, tile!(2))?;
        }};
    }
    macro_rules! two {
        ($A:ty) => {{
            one!($A);
            check_divide::<$A, _>(a, tile!(2:1, 4:1))?;
            check_divide::<$A, _>(a, tile!(4:2, 3:1))?;
        }};
    }
    match flat_rank(a) {
        Some(1) => one!(T1),
        Some(2) => two!(T2),
        Some(3) => two!(T3),
        _ => {}
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random all-run-time layouts divided by static tilers: cute-dynamic's
    /// error exactly when it rejects, otherwise the same divide.
    #[test]
    fn divides_all_run_time_agree_with_cute_dynamic(a in (1usize..=3).prop_flat_map(small_layout)) {
        let r = divide_menu(&a);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random all-run-time layouts divided by tiles with run-time leaves:
    /// cute-dynamic's error exactly when it rejects, otherwise the same
    /// divide.
    #[test]
    fn divides_by_run_time_tiles_agree_with_cute_dynamic(
        a in (1usize..=3).prop_flat_map(small_layout),
        n in 1i64..=6,
        d in -1i64..=5,
    ) {
        let r = run_time_tile_menu(&a, n, d);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// cute-dynamic's stride-0 rule and CuTe's size-1 strides hold on the
/// run-time path too: `(8,2):(0,9) ∘ 6:3` is `(3,2):(0,9)` (one mode per
/// mode of A), and all-run-time `(4,8):(2,16) ∘ 1:1` is CuTe C++'s
/// `(1,1):(2,16)` (its fold gives the size-1 leaf a stride in every mode).
#[test]
fn composition_through_a_stride_0_mode_and_of_a_size_1_leaf() {
    let a = layout!(({8i64},{2i64}):({0i64},{9i64}));
    let r = composition(a, layout!({6i64}:{3i64}));
    assert_eq!(r.to_string(), "(3,2):(0,9)");
    let d = cute_dynamic::composition(&a.to_dynamic(), &"6:3".parse::<DLayout>().unwrap()).unwrap();
    assert_eq!(d.to_string(), "(3,2):(0,9)");
    let r = composition(layout!({4i64}:{2i64}), layout!({1i64}:{1i64}));
    assert_eq!(r.to_string(), "1:2");
    let r = composition(layout!(({4i64},{8i64}):({2i64},{16i64})), layout!({1i64}:{1i64}));
    assert_eq!(r.to_dynamic().to_string(), "(1,1):(2,16)");
}

// ------------------------------------------ coalesce, filter, flatten

/// `coalesce`, `filter` and `flatten` of a layout with run-time leaves: the
/// merges and drops known at compile time are made, the ones that depend
/// on a run-time value are not (CuTe's `bw_coalesce`), so a run-time 1 or
/// a run-time stride that happens to line up keeps its mode.
#[test]
fn coalesce_of_run_time_leaves_merges_only_what_is_known() {
    let m = 1000i64;
    let a = layout!((2,(1,{m}),4):(1,(6,2),{m}));
    assert_eq!(coalesce(a).to_string(), "(_2,1000,_4):(_1,_2,1000)");
    // Static neighbours still merge, beside a run-time mode.
    assert_eq!(coalesce(layout!((2,4,{m}):(1,2,8))).to_string(), "(_8,1000):(_1,_8)");
    // A run-time 1 is kept (the same function), cute-dynamic drops it.
    let one = layout!(({1i64},4):(1,1));
    assert_eq!(coalesce(one).to_string(), "(1,_4):(_1,_1)");
    assert_eq!(cute_dynamic::coalesce(&coalesce(one).to_dynamic()), cute_dynamic::coalesce(&one.to_dynamic()));
    // A run-time stride that lines up is not merged either.
    let lined = layout!((4,8):(1,{4i64}));
    assert_eq!(coalesce(lined).to_string(), "(_4,_8):(_1,4)");
    // `m:_0` then `_4:_0`: the product is a static 0 (CuTe's `m * _0`), so
    // they merge into a run-time extent.
    assert_eq!(coalesce(layout!(({m},4):(0,0))).to_string(), "4000:_0");
    // All-static calls are unchanged: zero-sized.
    let s = coalesce(layout!((2,(1,6)):(1,(6,2))));
    assert_eq!(s.to_string(), "_12:_1");
    assert_eq!(size_of_val(&s), 0);
}

#[test]
fn filter_flatten_and_coalesce_by_with_run_time_leaves() {
    let m = 7i64;
    assert_eq!(filter(layout!(({m},(3,4)):(0,(1,3)))).to_string(), "_12:_1");
    // A run-time stride 0 keeps its mode; cute-dynamic's filter of the
    // result is cute-dynamic's filter of the argument.
    let z = layout!((4,{m},2):({0i64},1,{m}));
    assert_eq!(filter(z).to_string(), "(_4,7,_2):(0,_1,7)");
    assert_eq!(cute_dynamic::filter(&filter(z).to_dynamic()), cute_dynamic::filter(&z.to_dynamic()));
    let f = flatten(layout!(((2,{m}),4):((1,2),{m})));
    assert_eq!(f.to_string(), "(_2,7,_4):(_1,_2,7)");
    assert_eq!(flatten(layout!({m}:2)).to_string(), "7:_2");
    assert_eq!(flatten(layout!(((2,4),8):((1,2),8))).to_string(), "(_2,_4,_8):(_1,_2,_8)");
    let b = layout!(((2,4),({m},3),5):((1,2),(8,{m}),{m}));
    assert_eq!(coalesce_by(b, shape!(1, 1)).to_string(), "(_8,(7,_3),_5):(_1,(_8,7),7)");
    assert_eq!(coalesce_by(b, shape!(1)).to_string(), "(_8,7,_3,_5):(_1,_8,7,7)");
    assert_eq!(coalesce_by(b, shape!(1, (1, 1))).to_string(), "(_8,(7,_3),_5):(_1,(_8,7),7)");
    let c = coalesce_by(layout!(((2,4),({m},1)):((1,2),(8,9))), shape!(1, 1));
    assert_eq!(c.to_string(), "(_8,7):(_1,_8)");
}

/// The post-conditions of `coalesce`, `filter` and `flatten` of the mixed
/// layout `a` (of type `A`), through `to_dynamic()` and the shared checker:
/// CuTe's padded form coalesces (with cute-dynamic) to cute-dynamic's
/// coalesce, whose post-conditions `check::coalesce` verifies; `R(i) = A(i)`.
fn check_leaf_ops<A>(a: &DLayout) -> Result<(), String>
where
    A: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + Coalesce + Filter + Flatten + Copy,
    <A as Coalesce>::Output: CoalesceValue<A> + ToDyn,
    <A as Filter>::Output: FilterValue<A> + ToDyn,
    <A as Flatten>::Output: FlattenValue<A> + ToDyn,
{
    let sa = A::try_from(a).map_err(|e| e.to_string())?;
    let r = coalesce(sa).to_dyn();
    if r.depth() > 1 || r.size() != a.size() {
        return Err(format!("coalesce({a}) = {r}: depth or size"));
    }
    for i in 0..a.size() {
        if r.eval(i) != a.eval(i) {
            return Err(format!("coalesce({a}) = {r}: differs at {i}"));
        }
    }
    let cr = cute_dynamic::coalesce(&r);
    cute_tests::check::coalesce(a, &cr).map_err(|e| format!("coalesce({a}) = {r}: {e}"))?;
    if cr != cute_dynamic::coalesce(a) {
        return Err(format!("coalesce({a}) = {r}, coalesced {cr}"));
    }
    let f = filter(sa).to_dyn();
    if cute_dynamic::filter(&f) != cute_dynamic::filter(a) || f.depth() > 1 {
        return Err(format!("filter({a}) = {f}"));
    }
    let fl = flatten(sa).to_dyn();
    if fl != a.flatten() {
        return Err(format!("flatten({a}) = {fl}"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random values in layouts of fixed mixed types: the post-conditions
    /// of coalesce, filter and flatten (see `check_leaf_ops`).
    #[test]
    fn coalesce_filter_flatten_of_mixed_layouts(
        v in prop::collection::vec(prop_oneof![Just(1i64), Just(2), 1i64..=6], 6),
        w in prop::collection::vec(prop_oneof![Just(0i64), Just(1), Just(2), Just(4), 0i64..=24], 6),
    ) {
        let r = (|| {
            check_leaf_ops::<Layout![((2,Dyn),(Dyn,4)):((1,Dyn),(Dyn,Dyn))]>(
                &fill("((2,{}),({},4)):((1,{}),({},{}))", &[v[0], v[1], w[0], w[1], w[2]]))?;
            check_leaf_ops::<Layout![(Dyn,(1,Dyn),2):(0,(Dyn,Dyn),Dyn)]>(
                &fill("({},(1,{}),2):(0,({},{}),{})", &[v[0], v[2], w[3], w[4], w[5]]))?;
            check_leaf_ops::<Layout![(Dyn,Dyn,Dyn,Dyn):(Dyn,Dyn,Dyn,Dyn)]>(
                &fill("({},{},{},{}):({},{},{},{})", &[v[0], v[1], v[2], v[3], w[0], w[1], w[2], w[3]]))?;
            check_leaf_ops::<Layout![(4,Dyn,2,Dyn):(0,Dyn,Dyn,0)]>(
                &fill("(4,{},2,{}):(0,{},{},0)", &[v[4], v[5], w[4], w[5]]))?;
            check_leaf_ops::<Layout![(2,(2,Dyn)):(Dyn,(2,4))]>(&fill("(2,(2,{})):({},(2,4))", &[v[3], w[1]]))?;
            check_leaf_ops::<Layout![Dyn:Dyn]>(&fill("{}:{}", &[v[1], w[2]]))?;
            Ok::<(), String>(())
        })();
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// Layouts with static extents beside run-time ones (`x`, `y`; strides
/// `d`, run-time) divided by static tiles, whole and as tuple tilers.
/// CuTe's complement is taken against `shape(coalesce(A))`, whose runs of
/// static extents it keeps: a tile of size 1 makes `B*` those runs, and a
/// tile whose span divides the first (static) run takes its quotient
/// statically (`(_4,_32,x)` by `_8:_1`: `B* = (_4,x):(_8,_32)`), and not
/// where it does not (`_5:_1`) or where the first run is run-time.
/// Each divide is cute-dynamic's, or its error (the tiled and flat ones as
/// functions: the rest's runs are modes at the top level there, see
/// [`check_divide_as`]).
fn mixed_shape_menu(x: i64, y: i64, d: &[i64]) -> Result<(), String> {
    macro_rules! tiles {
        ($A:ty, $text:expr) => {{
            let a: DLayout = $text.parse().map_err(|e: LayoutError| e.to_string())?;
            check_divide_as::<$A, _>(&a, layout!(1:1), true)?;
            check_divide_as::<$A, _>(&a, layout!(1:3), true)?;
            check_divide_as::<$A, _>(&a, layout!(4:1), true)?;
            check_divide_as::<$A, _>(&a, layout!(8:1), true)?;
            check_divide_as::<$A, _>(&a, layout!(3:2), true)?;
            check_divide_as::<$A, _>(&a, layout!(2:4), true)?;
            check_divide_as::<$A, _>(&a, layout!(5:1), true)?;
            check_divide_as::<$A, _>(&a, tile!(1), true)?;
            check_divide_as::<$A, _>(&a, tile!(2:2), true)?;
        }};
    }
    tiles!(Layout![(4,8,Dyn):(Dyn,Dyn,Dyn)], format!("(4,8,{x}):({},{},{})", d[0], d[1], d[2]));
    tiles!(Layout![(Dyn,2,Dyn):(Dyn,Dyn,Dyn)], format!("({x},2,{y}):({},{},{})", d[0], d[1], d[2]));
    tiles!(Layout![(6,4,Dyn,1):(Dyn,Dyn,Dyn,Dyn)], format!("(6,4,{x},1):({},{},{},{})", d[0], d[1], d[2], d[3]));
    tiles!(Layout![((4,Dyn),2):((Dyn,Dyn),Dyn)], format!("((4,{x}),2):(({},{}),{})", d[0], d[1], d[2]));
    // All-static extents: `B*` is static.
    tiles!(Layout![(4,6):(Dyn,Dyn)], format!("(4,6):({},{})", d[0], d[1]));
    tiles!(Layout![(8,Dyn):(Dyn,Dyn)], format!("(8,{x}):({},{})", d[0], d[1]));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// [`mixed_shape_menu`] on random run-time extents and strides.
    #[test]
    fn divides_of_mixed_shapes_by_static_tiles_agree_with_cute_dynamic(
        x in 1i64..=9,
        y in 1i64..=4,
        d in prop::collection::vec(0i64..=40, 4),
    ) {
        let r = mixed_shape_menu(x, y, &d);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// CuTe's forms of the complement against `A`'s shape, as CuTe C++ 4.2
/// prints them (the runs of the shape, and a tile's span dividing the
/// first run); and where the span does not divide it, the complement
/// against the size.
#[test]
fn divides_keep_the_static_runs_of_the_shape() {
    let x = 24i64;
    let a = layout!((4,32,{x}):(1,{4i64},{128i64}));
    assert_eq!(tiled_divide(a, layout!(1:24)).to_string(), "(_1,(_4,_32),24):(128,(_1,4),128)");
    let a = layout!((100,{333i64}):({333i64},1));
    assert_eq!(zipped_divide(a, layout!(5:4)).to_string(), "(_5,(_4,_5,333)):(1332,(333,6660,_1))");
    let a = layout!((4,8,{x}):(1,4,32));
    assert_eq!(logical_divide(a, layout!(8:1)).to_string(), "(_8,(_4,24)):(_1,(_8,_32))");
    // 5 does not divide 32: the rest is one run-time mode of ⌈768/5⌉ =
    // 154, cute-dynamic's (CuTe C++ does not compile it: its `ceil_div`
    // over `(_32,24)` gives `B* = (_7,24):(_5,_35)`, and `_35` fails the
    // stride divisibility in the mode `_32`).
    let r = logical_divide(a, layout!(5:1));
    let d = cute_dynamic::logical_divide(&a.to_dynamic(), &layout!(5:1).to_dynamic()).unwrap();
    same_function(&r.to_dynamic(), &d);
    assert_eq!(r.to_dynamic().get(1).unwrap().size(), 154);
    // All-static extents with a run-time stride: `B*` is static, `1:0` where
    // the tile covers the mode.
    let a = layout!((256,{32i64}):({1i64},256));
    assert_eq!(flat_divide(a, tile!(8:1, 16:1)).to_string(), "(_8,_16,_32,2):(1,_256,8,_4096)");
    let a = layout!((6,1):({1i64},{1i64}));
    assert_eq!(zipped_divide(a, tile!(6:1, 1:{1i64})).to_string(), "((_6,_1),(_1,1)):((1,1),(_0,1))");
}

/// Found by the agreement cases with one leaf run-time: a tile of size 1
/// and stride above 1 has the complement `M:1` (its mode drops out), and a
/// static mode beside a run-time one takes its halves from the static
/// algebra, values included.
#[test]
fn divide_by_a_size_1_tile_and_a_static_mode_beside_a_run_time_one() {
    let a = layout!(({1i64}):(1));
    let r = logical_divide(a, tile!(1:2));
    let d = cute_dynamic::logical_divide(&a.to_dynamic(), &tile!(1:2).to_dynamic()).unwrap();
    same_function(&r.to_dynamic(), &d);
    let a = layout!((1,5,{4i64}):(5,1,5));
    let t = tile!(1:4, 5);
    let r = zipped_divide(a, t);
    let d = cute_dynamic::zipped_divide(&a.to_dynamic(), &t.to_dynamic()).unwrap();
    same_function(&r.to_dynamic(), &d);
    let m = 6i64;
    let r = logical_divide(layout!((8,{m}):(1,8)), tile!(4:2, 3:1));
    assert_eq!(r.to_string(), "((_4,_2),(_3,2)):((_2,_1),(_8,_24))");
}

// -------------------------------------------------------- complement

/// `complement` against a run-time cotarget: the static modes are found
/// at compile time, the last mode's size when it runs (kept even of size
/// 1 after other modes, CuTe's form; alone, `1:0` as cute-dynamic); a
/// cotarget below 1 is cute-dynamic's error.
#[test]
fn complement_against_a_run_time_cotarget() {
    let m = 1000usize;
    let r = complement(layout!((4,8):(1,8)), shape!({ m }));
    assert_eq!(r.to_string(), "(_2,16):(_4,_64)");
    let d = cute_dynamic::complement(&"(4,8):(1,8)".parse().unwrap(), 1000).unwrap();
    assert_eq!(r.to_dynamic(), d);
    // A plain integer is a run-time cotarget, as a `Dyn`.
    assert_eq!(complement(layout!((4,8):(1,8)), m), r);
    assert_eq!(try_complement(layout!((4,8):(1,8)), m).unwrap(), r);
    // A cotarget the layout already covers: the last mode alone, of size 1,
    // prints `1:0`, as cute-dynamic's.
    let r = complement(layout!(4:1), shape!({ 4usize }));
    assert_eq!(r.to_string(), "1:0");
    assert_eq!(r.to_dynamic(), cute_dynamic::complement(&"4:1".parse().unwrap(), 4).unwrap());
    let r = try_complement(layout!((4,8):(1,4)), 16usize).unwrap();
    assert_eq!(r.to_string(), "1:0");
    assert_eq!(
        r.to_dynamic().to_string(),
        cute_dynamic::complement(&"(4,8):(1,4)".parse().unwrap(), 16).unwrap().to_string()
    );
    // Larger, the same mode: its stride run-time.
    assert_eq!(try_complement(layout!((4,8):(1,4)), 64usize).unwrap().to_string(), "2:32");
    // Below 1: the error cute-dynamic gives, and the panic with its text.
    let a = layout!((2,2):(1,6));
    let e = try_complement(a, Dyn::new(0)).unwrap_err();
    assert_eq!(e, cute_dynamic::complement(&a.to_dynamic(), 0).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = complement(a, shape!({ 0i64 }));
        }),
        e.to_string()
    );
    // The all-static call is unchanged.
    let s = complement(layout!((2,2):(1,6)), shape!(24));
    assert_eq!(s.to_string(), "(_3,_2):(_2,_12)");
    assert_eq!(size_of_val(&s), 0);
}

/// `complement(a, {m})` for the static `a` of type `A`: the shared
/// checker's post-conditions on `to_dynamic()`, and coalesced, cute-dynamic's
/// answer (or its error).
fn check_complement<A>(a: A, m: i64) -> Result<(), String>
where
    A: Complement<Dyn> + std::fmt::Display + Copy,
    <A as Complement<Dyn>>::Output: ComplementValue<A, Dyn> + ToDyn,
    A: ToDyn,
{
    let da = a.to_dyn();
    let got = try_complement(a, Dyn::new(m)).map(|r| r.to_dyn());
    agree(format_args!("complement({da}, {m})"), got, cute_dynamic::complement(&da, m), |r, d| {
        cute_tests::check::complement(&da, m, r)?;
        padded_form_of(r, d)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random run-time cotargets against static layouts with gaps, broadcast
    /// and size-1 modes.
    #[test]
    fn complement_against_random_run_time_cotargets(m in -2i64..=300) {
        let r = (|| {
            check_complement(layout!(4:2), m)?;
            check_complement(layout!((2,2):(1,6)), m)?;
            check_complement(layout!((4,8):(1,8)), m)?;
            check_complement(layout!((2,(1,3)):(11,(7,1))), m)?;
            check_complement(layout!((3,4):(0,3)), m)?;
            check_complement(layout!((2,2):(11,1)), m)?;
            check_complement(layout!(1:0), m)?;
            Ok::<(), String>(())
        })();
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// The text of `complement(a, m)` for an all-static `a` against the
/// run-time cotargets `1..=300` (`usize`), through `to_dynamic()`, is
/// cute-dynamic's text for the same values, with one structural exception:
/// after static modes, the run-time last mode stays when it has size 1
/// (CuTe's form; cute-dynamic coalesces it away), and without it the text
/// is cute-dynamic's. A last mode that is the whole answer prints as
/// cute-dynamic (`1:0` for size 1, where it printed `1:_C`). Returns the
/// number of cotargets whose texts are equal.
fn complement_texts<A>(a: A) -> usize
where
    A: Complement<usize> + ToDyn + Copy,
    <A as Complement<usize>>::Output: ComplementValue<A, usize> + ToDyn,
{
    let da = a.to_dyn();
    let mut equal = 0;
    for m in 1..=300usize {
        let got = try_complement(a, m).unwrap_or_else(|e| panic!("complement({da}, {m}): {e}")).to_dyn();
        let want = cute_dynamic::complement(&da, m as i64).unwrap();
        if got.to_string() == want.to_string() {
            equal += 1;
            continue;
        }
        let last = got.modes_iter().last().unwrap();
        assert!(
            got.rank() > 1 && last.size() == 1 && cute_dynamic::coalesce(&got).to_string() == want.to_string(),
            "complement({da}, {m}) = {got}, cute-dynamic {want}"
        );
    }
    equal
}

#[test]
fn complement_against_a_run_time_cotarget_prints_as_cute_dynamic() {
    // The brief's case: one mode, of size 1 below the cosize, prints 1:0.
    assert_eq!(complement_texts(layout!((4,8):(1,4))), 300);
    assert_eq!(try_complement(layout!((4,8):(1,4)), 16).unwrap().to_dynamic().to_string(), "1:0");
    assert_eq!(complement_texts(layout!(4:1)), 300);
    assert_eq!(complement_texts(layout!((2,3):(3,1))), 300);
    assert_eq!(complement_texts(layout!(1:0)), 300);
    assert_eq!(complement_texts(layout!((3,4):(4,1))), 300);
    // Static modes before the last: equal texts from the cotarget where the
    // last mode grows past 1.
    assert_eq!(complement_texts(layout!(4:2)), 300 - 8);
    assert_eq!(complement_texts(layout!((4,8):(1,8))), 300 - 64);
    assert_eq!(complement_texts(layout!((2,2):(1,6))), 300 - 12);
    assert_eq!(complement_texts(layout!((2,(1,3)):(11,(7,1)))), 300 - 20);
    assert_eq!(complement_texts(layout!((3,4):(0,3))), 300 - 12);
    assert_eq!(complement_texts(layout!((2,2):(11,1))), 300 - 21);
}

/// All-static complements print as cute-dynamic's (through `to_dynamic()`),
/// for static cotargets below, at and past the layout's cosize.
#[test]
fn complement_against_a_static_cotarget_prints_as_cute_dynamic() {
    macro_rules! texts {
        ($a:expr; $($m:literal),+) => {{
            let (a, da) = ($a, $a.to_dynamic());
            $(
                let r = complement(a, shape!($m));
                assert_eq!(try_complement(a, shape!($m)).unwrap(), r);
                assert_eq!(
                    r.to_dynamic().to_string(),
                    cute_dynamic::complement(&da, $m).unwrap().to_string(),
                    "complement({da}, {})", $m
                );
            )+
        }};
    }
    texts!(layout!((4,8):(1,4)); 1, 16, 32, 33, 64, 100);
    texts!(layout!(4:2); 1, 7, 8, 9, 24, 100);
    texts!(layout!((4,8):(1,8)); 16, 64, 65, 256);
    texts!(layout!((2,2):(1,6)); 4, 12, 13, 24, 48);
    texts!(layout!((2,(1,3)):(11,(7,1))); 8, 33, 34, 77);
    texts!(layout!((3,4):(0,3)); 1, 12, 13, 40);
    texts!(layout!(1:0); 1, 2, 9);
    texts!(layout!((2,2):(11,1)); 22, 23, 44);
}

// ---------------------------------------------------------- products

/// A static tile repeated over a run-time grid: `A* = complement(A,
/// size(A)·span(B))` has a run-time last mode, `A* ∘ B` is the mixed
/// composition; the four arrangements hold the same leaves.
#[test]
fn products_of_a_static_tile_by_a_run_time_grid() {
    let (m, n) = (3i64, 4i64);
    let (a, b) = (layout!((2,2):(1,2)), layout!(({m},{n}):(1,{m})));
    let r = logical_product(a, b);
    assert_eq!(r.to_string(), "((_2,_2),(3,4)):((_1,_2),(_4,12))");
    assert_eq!(try_logical_product(a, b).unwrap(), r);
    let d = cute_dynamic::logical_product(&a.to_dynamic(), &b.to_dynamic()).unwrap();
    assert_eq!(r.to_dynamic(), d);
    assert_eq!(zipped_product(a, b).to_string(), "((_2,_2),(3,4)):((_1,_2),(_4,12))");
    assert_eq!(tiled_product(a, b).to_string(), "((_2,_2),3,4):((_1,_2),_4,12)");
    assert_eq!(flat_product(a, b).to_string(), "(_2,_2,3,4):(_1,_2,_4,12)");
    // A with holes: the replicas go into them first.
    let r = logical_product(layout!((2,2):(4,1)), layout!({6i64}:1));
    assert_eq!(
        r.to_dynamic(),
        cute_dynamic::logical_product(&"(2,2):(4,1)".parse().unwrap(), &"6:1".parse::<DLayout>().unwrap()).unwrap()
    );
    // cute-dynamic's shape divisibility error: the holes of A hold 3 replicas, not 4.
    let (a, b) = (layout!((2,2):(3,10)), layout!({4i64}:1));
    let e = try_logical_product(a, b).unwrap_err();
    assert_eq!(e, cute_dynamic::logical_product(&a.to_dynamic(), &b.to_dynamic()).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = logical_product(a, b);
        }),
        e.to_string()
    );
    // All-static: unchanged, zero-sized.
    let s = logical_product(layout!((2,2):(1,2)), layout!((3,4):(1,3)));
    assert_eq!(s.to_string(), "((_2,_2),(_3,_4)):((_1,_2),(_4,_12))");
    assert_eq!(size_of_val(&s), 0);
}

/// The try_ forms added beside the logical ones: the plain form's value on
/// valid inputs (all-static ones included, where they cannot fail), equal
/// to cute-dynamic's operation through `to_dynamic()`.
#[test]
fn try_tiled_flat_divides_and_products_equal_the_plain_forms_and_cute_dynamic() {
    let (m, n) = (1000i64, 500i64);
    let (a, t) = (layout!(({m},{n}):(1,{m})), tile!(128:1, 64:1));
    let (da, dt) = (a.to_dynamic(), t.to_dynamic());
    let r = try_tiled_divide(a, t).unwrap();
    assert_eq!(r, tiled_divide(a, t));
    assert_eq!(r.to_string(), "((_128,_64),8,8):((_1,1000),_128,64000)");
    assert_eq!(r.to_dynamic(), cute_dynamic::tiled_divide(&da, &dt).unwrap());
    let r = try_flat_divide(a, t).unwrap();
    assert_eq!(r, flat_divide(a, t));
    assert_eq!(r.to_string(), "(_128,_64,8,8):(_1,1000,_128,64000)");
    assert_eq!(r.to_dynamic(), cute_dynamic::flat_divide(&da, &dt).unwrap());
    // Ragged (1000 = 7·128 + 104) and a strided tile: CuTe's form, the same
    // function and modes as cute-dynamic's.
    let (a, t) = (layout!(({m},8):(1,{m})), tile!(128:1, 2:2));
    let (da, dt) = (a.to_dynamic(), t.to_dynamic());
    for (got, want) in [
        (try_tiled_divide(a, t).map(|r| r.to_dynamic()), cute_dynamic::tiled_divide(&da, &dt)),
        (try_flat_divide(a, t).map(|r| r.to_dynamic()), cute_dynamic::flat_divide(&da, &dt)),
    ] {
        agree(format_args!("{da} / {dt}"), got, want, same_divide).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(try_tiled_divide(a, t).unwrap(), tiled_divide(a, t));
    assert_eq!(try_flat_divide(a, t).unwrap(), flat_divide(a, t));
    // All-static: the zero-sized value, the same as the plain form's.
    let (s, st) = (layout!((8,8):(1,8)), shape!(2, 4));
    let r = try_tiled_divide(s, st).unwrap();
    assert_eq!((r, size_of_val(&r)), (tiled_divide(s, st), 0));
    assert_eq!(r.to_dynamic(), cute_dynamic::tiled_divide(&s.to_dynamic(), &st.to_dynamic()).unwrap());
    let r = try_flat_divide(s, st).unwrap();
    assert_eq!((r, size_of_val(&r)), (flat_divide(s, st), 0));
    assert_eq!(r.to_dynamic(), cute_dynamic::flat_divide(&s.to_dynamic(), &st.to_dynamic()).unwrap());

    // Products: a static tile by a run-time grid, a tile with a run-time leaf
    // (A* in the padded form), and all-static.
    let (a, b) = (layout!((2,2):(1,2)), layout!(({3i64},{4i64}):(1,{3i64})));
    let (da, db) = (a.to_dynamic(), b.to_dynamic());
    let r = try_zipped_product(a, b).unwrap();
    assert_eq!(r, zipped_product(a, b));
    assert_eq!(r.to_string(), "((_2,_2),(3,4)):((_1,_2),(_4,12))");
    assert_eq!(r.to_dynamic(), cute_dynamic::zipped_product(&da, &db).unwrap());
    let r = try_tiled_product(a, b).unwrap();
    assert_eq!(r, tiled_product(a, b));
    assert_eq!(r.to_dynamic(), cute_dynamic::tiled_product(&da, &db).unwrap());
    let r = try_flat_product(a, b).unwrap();
    assert_eq!(r, flat_product(a, b));
    assert_eq!(r.to_dynamic(), cute_dynamic::flat_product(&da, &db).unwrap());
    let (a, b) = (layout!(({2i64},2):(1,{2i64})), layout!((3,4):(1,3)));
    let (da, db) = (a.to_dynamic(), b.to_dynamic());
    assert_eq!(try_zipped_product(a, b).unwrap(), zipped_product(a, b));
    assert_eq!(try_tiled_product(a, b).unwrap(), tiled_product(a, b));
    assert_eq!(try_flat_product(a, b).unwrap(), flat_product(a, b));
    same_function(&try_zipped_product(a, b).unwrap().to_dynamic(), &cute_dynamic::zipped_product(&da, &db).unwrap());
    same_function(&try_tiled_product(a, b).unwrap().to_dynamic(), &cute_dynamic::tiled_product(&da, &db).unwrap());
    same_function(&try_flat_product(a, b).unwrap().to_dynamic(), &cute_dynamic::flat_product(&da, &db).unwrap());
    let (s, sb) = (layout!((2,2):(1,2)), tile!(3:1, 2:1));
    let (ds, dsb) = (s.to_dynamic(), sb.to_dynamic());
    let r = try_zipped_product(s, sb).unwrap();
    assert_eq!((r, size_of_val(&r)), (zipped_product(s, sb), 0));
    assert_eq!(r.to_dynamic(), cute_dynamic::zipped_product(&ds, &dsb).unwrap());
    let r = try_tiled_product(s, sb).unwrap();
    assert_eq!((r, size_of_val(&r)), (tiled_product(s, sb), 0));
    assert_eq!(r.to_dynamic(), cute_dynamic::tiled_product(&ds, &dsb).unwrap());
    let r = try_flat_product(s, sb).unwrap();
    assert_eq!((r, size_of_val(&r)), (flat_product(s, sb), 0));
    assert_eq!(r.to_dynamic(), cute_dynamic::flat_product(&ds, &dsb).unwrap());
}

/// A run-time leaf that breaks the shape divisibility condition: each new
/// try_ form returns cute-dynamic's error (no panic), and the plain form
/// panics with its message.
#[test]
fn try_tiled_flat_divides_and_products_err_where_the_plain_forms_panic() {
    // (4,{6}):(1,{9}) by 6:1: 6 elements do not split across the mode of 4.
    let (a, t) = (layout!((4,{6i64}):(1,{9i64})), layout!(6:1));
    let (da, dt) = (a.to_dynamic(), t.to_dynamic());
    let e = std::panic::catch_unwind(|| try_tiled_divide(a, t)).expect("no panic").unwrap_err();
    assert!(matches!(e, LayoutError::ShapeDivisibility { shape: 4, fits: 4, rest: 6, .. }), "{e}");
    assert_eq!(e, cute_dynamic::tiled_divide(&da, &dt).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = tiled_divide(a, t);
        }),
        e.to_string()
    );
    let e = std::panic::catch_unwind(|| try_flat_divide(a, t)).expect("no panic").unwrap_err();
    assert!(matches!(e, LayoutError::ShapeDivisibility { shape: 4, fits: 4, rest: 6, .. }), "{e}");
    assert_eq!(e, cute_dynamic::flat_divide(&da, &dt).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = flat_divide(a, t);
        }),
        e.to_string()
    );
    // (2,2):(1,4) by {3}:1: A* = (2,2):(2,8), whose first mode of 2 cannot
    // hold 3 elements.
    let (a, b) = (layout!((2,2):(1,4)), layout!({3i64}:1));
    let (da, db) = (a.to_dynamic(), b.to_dynamic());
    let e = std::panic::catch_unwind(|| try_zipped_product(a, b)).expect("no panic").unwrap_err();
    assert!(matches!(e, LayoutError::ShapeDivisibility { shape: 2, fits: 2, rest: 3, .. }), "{e}");
    assert_eq!(e, cute_dynamic::zipped_product(&da, &db).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = zipped_product(a, b);
        }),
        e.to_string()
    );
    let e = std::panic::catch_unwind(|| try_tiled_product(a, b)).expect("no panic").unwrap_err();
    assert_eq!(e, cute_dynamic::tiled_product(&da, &db).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = tiled_product(a, b);
        }),
        e.to_string()
    );
    let e = std::panic::catch_unwind(|| try_flat_product(a, b)).expect("no panic").unwrap_err();
    assert_eq!(e, cute_dynamic::flat_product(&da, &db).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = flat_product(a, b);
        }),
        e.to_string()
    );
}

/// `logical_product(a, b)` for the static `a` and the run-time `b` (typed
/// `B`): cute-dynamic's error when it rejects, otherwise the shared
/// checker's post-conditions and the same function as cute-dynamic's; the
/// zipped, tiled and flat products the same error or the same function
/// with as many top-level modes as cute-dynamic's.
fn check_product<A, B>(a: A, b: &DLayout) -> Result<(), String>
where
    A: LogicalProduct<B> + ZippedProduct<B> + TiledProduct<B> + FlatProduct<B> + ToDyn + Copy,
    <A as LogicalProduct<B>>::Output: LogicalProductValue<A, B> + ToDyn,
    <A as ZippedProduct<B>>::Output: ZippedProductValue<A, B> + ToDyn,
    <A as TiledProduct<B>>::Output: TiledProductValue<A, B> + ToDyn,
    <A as FlatProduct<B>>::Output: FlatProductValue<A, B> + ToDyn,
    B: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + Copy,
{
    let da = a.to_dyn();
    let sb = B::try_from(b).map_err(|e| e.to_string())?;
    let got = try_logical_product(a, sb).map(|r| r.to_dyn());
    agree(format_args!("{da} x {b}"), got, cute_dynamic::logical_product(&da, b), |r, d| {
        cute_tests::check::logical_product(&da, b, r)?;
        same_values(r, d)
    })?;
    let same_arrangement = |r: &DLayout, d: &DLayout| {
        same_values(r, d)?;
        if r.rank() != d.rank() { Err(format!("ranks {} and {}", r.rank(), d.rank())) } else { Ok(()) }
    };
    let arranged = [
        ("zipped", try_zipped_product(a, sb).map(|r| r.to_dyn()), cute_dynamic::zipped_product(&da, b)),
        ("tiled", try_tiled_product(a, sb).map(|r| r.to_dyn()), cute_dynamic::tiled_product(&da, b)),
        ("flat", try_flat_product(a, sb).map(|r| r.to_dyn()), cute_dynamic::flat_product(&da, b)),
    ];
    arranged
        .into_iter()
        .try_for_each(|(how, got, want)| agree(format_args!("{how}_product({da}, {b})"), got, want, same_arrangement))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Static tiles (with holes, broadcast, size-1 modes) by random
    /// all-run-time grids of rank 1 and 2.
    #[test]
    fn products_of_static_tiles_by_run_time_grids(
        b1 in small_layout(1),
        b2 in small_layout(2),
    ) {
        let r = (|| {
            check_product::<_, T1>(layout!(4:1), &b1)?;
            check_product::<_, T1>(layout!((2,2):(4,1)), &b1)?;
            check_product::<_, T2>(layout!((2,2):(1,2)), &b2)?;
            check_product::<_, T2>(layout!((2,(1,3)):(3,(5,1))), &b2)?;
            check_product::<_, T2>(layout!((3,2):(0,1)), &b2)?;
            check_product::<_, T2>(layout!((2,2):(3,10)), &b2)?;
            Ok::<(), String>(())
        })();
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

// ------------------------------------------------------------ concatenation

#[test]
fn concat_of_mixed_layouts_keeps_each_mode() {
    let m = 1000usize;
    // cute-dynamic's doc example, with one leaf run-time.
    let (a, b) = (layout!(4:1), layout!((2,{m}):(4,8)));
    let c = concat((a, b));
    assert_eq!(c.to_string(), "(_4,(_2,1000)):(_1,(_4,_8))");
    assert_eq!(c.get::<0>(), a);
    assert_eq!(c.get::<1>(), b);
    let d = cute_dynamic::make_layout(&[a.to_dynamic(), b.to_dynamic()]).unwrap();
    assert_eq!(c.to_dynamic(), d);
    // Three modes, and an all-static concatenation stays zero-sized.
    let s = concat((layout!(2:1), layout!((3,4):(2,6)), layout!(5:24)));
    assert_eq!(s.to_string(), "(_2,(_3,_4),_5):(_1,(_2,_6),_24)");
    assert_eq!(size_of_val(&s), 0);
    // A rank-1 concatenation wraps its layout in one mode.
    assert_eq!(concat((layout!({m}:1),)).to_string(), "(1000):(_1)");
}

#[test]
fn concat_overflow_errs_and_panics_as_cute_dynamic() {
    let big = 1i64 << 40;
    let (a, b) = (layout!(({big}):(1)), layout!(({big}):(1)));
    let e = try_concat((a, b)).unwrap_err();
    let d = cute_dynamic::make_layout(&[a.to_dynamic(), b.to_dynamic()]).unwrap_err();
    assert_eq!(e, d);
    assert_eq!(
        panic_message(move || {
            let _ = concat((a, b));
        }),
        e.to_string()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random values in mixed layouts: the concatenation equals
    /// cute-dynamic's `make_layout`, and its value at `(c0, c1)` is
    /// `A(c0) + B(c1)`.
    #[test]
    fn concat_of_mixed_layouts_agrees_with_cute_dynamic(
        v in prop::collection::vec(1i64..=6, 3),
        w in prop::collection::vec(-8i64..=24, 3),
    ) {
        let a = <Layout![((2,Dyn),Dyn):((1,Dyn),4)]>::try_from(&fill("((2,{}),{}):((1,{}),4)", &[v[0], v[1], w[0]])).unwrap();
        let b = <Layout![Dyn:Dyn]>::try_from(&fill("{}:{}", &[v[2], w[1]])).unwrap();
        let c = <Layout![(3,Dyn):(Dyn,0)]>::try_from(&fill("(3,{}):({},0)", &[v[1], w[2]])).unwrap();
        let r = concat((a, b, c));
        let d = cute_dynamic::make_layout(&[a.to_dynamic(), b.to_dynamic(), c.to_dynamic()]).unwrap();
        prop_assert_eq!(r.to_dynamic(), d.clone());
        let (ad, bd, cd) = (a.to_dynamic(), b.to_dynamic(), c.to_dynamic());
        for i in 0..ad.size() {
            for j in 0..bd.size() {
                for k in 0..cd.size() {
                    let want = ad.eval(i).unwrap() + bd.eval(j).unwrap() + cd.eval(k).unwrap();
                    prop_assert_eq!(r.index((i as usize, j as usize, k as usize)) as i64, want);
                    prop_assert_eq!(d.eval(i + j * ad.size() + k * ad.size() * bd.size()).unwrap(), want);
                }
            }
        }
    }
}

// ------------------------------------------------------------ vectorization

#[test]
fn max_common_vector_of_mixed_layouts() {
    let (m, n) = (1000usize, 8usize);
    // A run-time column-major matrix against itself: one vector of all of it
    // (CuTe, deciding at compile time, says 1 here).
    let a = layout!(({m},{n}):(1,{m}));
    assert_eq!(max_common_vector(&a, &a), 8000);
    assert_eq!(max_common_layout(&a, &a).to_string(), "8000:1");
    // Against its transpose: only one element in common.
    let t = layout!(({m},{n}):({n},1));
    assert_eq!(max_common_vector(&a, &t), 1);
    assert_eq!(max_common_layout(&a, &t).to_string(), "1:1");
    // A static 4-vector inside a run-time tile (the sgemm copy case).
    let r = layout!((4,{n}):(1,{m}));
    assert_eq!(max_common_vector(&r, &layout!((4,{n}):(1,4))), 4);
    assert_eq!(max_common_layout(&r, &layout!((4,{n}):(1,4))).to_string(), "4:1");
    // All-static: cute-dynamic's doc examples, and CuTe's static answers.
    assert_eq!(max_common_vector(&layout!((4,8):(1,4)), &layout!((4,8):(1,4))), 32);
    assert_eq!(max_common_vector(&layout!((4,8):(1,4)), &layout!((4,8):(8,1))), 1);
    assert_eq!(max_common_layout(&layout!((4,8):(1,4)), &layout!(((2,2),8):((1,8),2))).to_string(), "2:1");
}

/// The post-conditions of `max_common_vector` and `max_common_layout` of
/// the mixed layouts `a`, `b` (types `A`, `B`), by brute force (`A`
/// extended past its size, as cute-dynamic's rule reads it), and agreement
/// with cute-dynamic.
fn check_max_common<A, B>(a: &DLayout, b: &DLayout) -> Result<(), String>
where
    A: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + ToDyn,
    B: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + ToDyn,
    A: MaxCommon<B>,
{
    let (sa, sb) = (A::try_from(a).map_err(|e| e.to_string())?, B::try_from(b).map_err(|e| e.to_string())?);
    let (k, r) = sa.max_common(&sb);
    let inv = cute_dynamic::right_inverse(b);
    if k < 1 || k as i64 > inv.size() {
        return Err(format!("max_common_vector({a}, {b}) = {k}, size(B‡) = {}", inv.size()));
    }
    for x in 0..k as i64 {
        if a.eval_extended(inv.eval(x).unwrap()).unwrap() != x {
            return Err(format!("max_common_vector({a}, {b}) = {k}: A(B‡({x})) != {x}"));
        }
    }
    if (k as i64) < inv.size() && a.eval_extended(inv.eval(k as i64).unwrap()).ok() == Some(k as i64) {
        return Err(format!("max_common_vector({a}, {b}) = {k} is not the largest"));
    }
    if k as i64 != cute_dynamic::max_common_vector(a, b) {
        return Err(format!("max_common_vector({a}, {b}) = {k}, cute-dynamic differs"));
    }
    if r.size() != k as i64 {
        return Err(format!("max_common_layout({a}, {b}) = {r}: size"));
    }
    for x in 0..r.size() {
        let c = r.eval(x).unwrap();
        if a.eval_extended(c).unwrap() != x || b.eval(c).unwrap() != x {
            return Err(format!("max_common_layout({a}, {b}) = {r}: A or B at R({x}) != {x}"));
        }
    }
    Ok(())
}

trait MaxCommon<B> {
    fn max_common(&self, b: &B) -> (usize, DLayout);
}
impl<SA: Congruent<DA>, DA: IntTuple, SB: Congruent<DB>, DB: IntTuple> MaxCommon<Layout<SB, DB>> for Layout<SA, DA> {
    fn max_common(&self, b: &Layout<SB, DB>) -> (usize, DLayout) {
        (max_common_vector(self, b), max_common_layout(self, b))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random values in mixed layouts of size 16: A and B are made compact
    /// often enough that long common vectors occur.
    #[test]
    fn max_common_of_mixed_layouts(
        v in prop::collection::vec(prop_oneof![Just(1i64), Just(2), Just(4), Just(8)], 2),
        p in prop::sample::select(vec![[1i64, 2, 4, 8], [4, 8, 1, 2], [1, 4, 2, 8], [2, 1, 8, 4]]),
        q in prop::sample::select(vec![[1i64, 2, 4, 8], [1, 2, 8, 4], [8, 4, 2, 1], [1, 4, 2, 8]]),
    ) {
        // Strides permutations of 1,2,4,8 (compact layouts of size 16 in
        // different orders), run-time; one A with a run-time extent.
        let a = fill("((2,2),(2,2)):(({},{}),({},{}))", &p);
        let b = fill("(2,(2,2),2):({},({},{}),{})", &q);
        let r = (|| {
            check_max_common::<Layout![((Dyn,2),(2,2)):((Dyn,Dyn),(Dyn,Dyn))], Layout![(2,(2,2),2):(Dyn,(Dyn,Dyn),Dyn)]>(
                &fill("(({},2),(2,2)):(({},{}),({},{}))", &[v[0], p[0], p[1], p[2], p[3]]), &b)?;
            check_max_common::<Layout![(Dyn,Dyn):(1,Dyn)], Layout![((2,2),(2,2)):((Dyn,Dyn),(Dyn,Dyn))]>(
                &fill("({},{}):(1,{})", &[v[0], v[1], v[0]]), &fill("((2,2),(2,2)):(({},{}),({},{}))", &q))?;
            check_max_common::<Layout![((2,2),(2,2)):((Dyn,Dyn),(Dyn,Dyn))], Layout![((2,2),(2,2)):((Dyn,Dyn),(Dyn,Dyn))]>(&a, &fill("((2,2),(2,2)):(({},{}),({},{}))", &q))?;
            Ok::<(), String>(())
        })();
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// A size-1 padding mode whose stride overflows (`2^20 · 2^43`) is the
/// same function with stride 0, as cute-dynamic gives it: not an overflow
/// (a case the random compositions above found).
#[test]
fn a_padding_stride_that_overflows_is_zero_as_in_cute_dynamic() {
    let a: DLayout = "(65536,1):(8796093022208,0)".parse().unwrap();
    let b: DLayout = "(2):(1048576)".parse().unwrap();
    let r = run_case(&a, &b).expect("typed");
    assert!(r.is_ok(), "{}", r.unwrap_err());
}

// ------------------------------------------ products by run-time tilers

/// Products by tilers with run-time tiles: mode `k` of `A` producted with
/// tile `k` (CuTe's by-mode product), the modes past the tiler untouched,
/// each mode by its own branch (static where the mode and the tile are).
/// Checked against cute-dynamic's product by the same tiler: the same
/// error, or the same function arranged in the same modes.
mod products_by_run_time_tilers {
    use super::*;
    use cute_static::typenum::{U2, Unsigned};

    impl<U: Unsigned, B: cute_static::typenum::Bit> AsDynTiler for cute_static::typenum::UInt<U, B> {
        /// CuTe's `make_layout(n)`: `n:1`.
        fn dyn_tiler(&self) -> cute_dynamic::Tiler {
            cute_dynamic::Tiler::Layout(DLayout::new(Self::I64.into(), 1.into()).unwrap())
        }
    }

    /// The modes of `l`, a scalar being its one mode.
    fn modes(l: &DLayout) -> Vec<DLayout> {
        if l.shape().as_int().is_some() { vec![l.clone()] } else { l.modes_iter().collect() }
    }

    /// `r` is the product cute-dynamic gives as `d`: the same function, as
    /// many top-level modes, each the same function, and one level down the
    /// same modes as functions (or, where a run-time step kept CuTe's
    /// padded form, `(1,3):(0,4)` for `3:4`, the same coalesced mode).
    fn same_product(r: &DLayout, d: &DLayout) -> Result<(), String> {
        same_values(r, d)?;
        let (rm, dm) = (modes(r), modes(d));
        if rm.len() != dm.len() {
            return Err(format!("ranks {} and {}", rm.len(), dm.len()));
        }
        for (x, y) in rm.iter().zip(&dm) {
            same_values(x, y).map_err(|e| format!("mode {x} and {y}: {e}"))?;
            let (xs, ys) = (modes(x), modes(y));
            if xs.len() == ys.len() {
                for (p, q) in xs.iter().zip(&ys) {
                    same_values(p, q).map_err(|e| format!("mode {p} of {x} and {q} of {y}: {e}"))?;
                }
            } else if cute_dynamic::coalesce(x) != cute_dynamic::coalesce(y) {
                return Err(format!("mode {x} and {y}"));
            }
        }
        Ok(())
    }

    /// Mode `k` of `logical_product(A, <B0, B1, ...>)` is
    /// `logical_product(A_k, B_k)`: the shared checker's post-conditions on
    /// each mode whose tile is a layout (a nested tiler's mode is checked
    /// as a function by [`same_product`]).
    fn logical_modes(a: &DLayout, t: &cute_dynamic::Tiler, r: &DLayout) -> Result<(), String> {
        let cute_dynamic::Tiler::Tuple(ts) = t else { return Ok(()) };
        let (am, rm) = (modes(a), modes(r));
        for (k, tk) in ts.iter().enumerate() {
            if let cute_dynamic::Tiler::Layout(b) = tk {
                cute_tests::check::logical_product(&am[k], b, &rm[k])?;
            }
        }
        // The modes past the tiler are A's, untouched.
        if am[ts.len()..] != rm[ts.len()..] {
            return Err(format!("untouched modes of {a}: {r}"));
        }
        Ok(())
    }

    /// The four products of `a` by the tiler `t`, the `try_` forms against
    /// cute-dynamic (the same error, or [`same_product`], and for the
    /// logical one [`logical_modes`]); on success the panicking form gives
    /// the same layout.
    fn check<A, T>(a: A, t: T) -> Result<(), String>
    where
        A: LogicalProduct<T> + ZippedProduct<T> + TiledProduct<T> + FlatProduct<T> + ToDyn + Copy,
        <A as LogicalProduct<T>>::Output: LogicalProductValue<A, T> + ToDyn,
        <A as ZippedProduct<T>>::Output: ZippedProductValue<A, T> + ToDyn,
        <A as TiledProduct<T>>::Output: TiledProductValue<A, T> + ToDyn,
        <A as FlatProduct<T>>::Output: FlatProductValue<A, T> + ToDyn,
        T: AsDynTiler + Copy,
    {
        let (da, dt) = (a.to_dyn(), t.dyn_tiler());
        macro_rules! one {
            ($name:literal, $try_f:ident, $f:ident, $extra:expr) => {{
                let got = $try_f(a, t).map(|r| r.to_dyn());
                if let Ok(r) = &got {
                    let plain = $f(a, t).to_dyn();
                    if *r != plain {
                        return Err(format!("{}({da}, {dt}): try_ {r}, plain {plain}", $name));
                    }
                }
                let want = cute_dynamic::$f(&da, &dt);
                agree(format_args!("{}({da}, {dt})", $name), got, want, |r, d| {
                    same_product(r, d)?;
                    $extra(r)
                })?;
            }};
        }
        one!("logical_product", try_logical_product, logical_product, |r: &DLayout| logical_modes(&da, &dt, r));
        let none = |_: &DLayout| Ok(());
        one!("zipped_product", try_zipped_product, zipped_product, none);
        one!("tiled_product", try_tiled_product, tiled_product, none);
        one!("flat_product", try_flat_product, flat_product, none);
        Ok(())
    }

    /// The tilers with run-time tiles `n:d` (and `n` as an integer) on a
    /// layout of rank at least 2: two tiles, one tile (the other modes
    /// untouched), a tile of several modes, a bare tuple with integers.
    macro_rules! menu {
        ($a:expr, $n:expr, $d:expr) => {{
            let (a, n, d) = ($a, $n, $d);
            check(a, tile!({n}:{d}, 2:1))?;
            check(a, tile!(2:1, {n}:1))?;
            check(a, tile!({n}:{d}))?;
            check(a, tile!(({n},2):(1,{d}), 2:1))?;
            check(a, (Dyn::new(n), layout!(2:{d})))?;
            check(a, (U2::new(), Dyn::new(n)))?;
        }};
    }

    type T22 = Layout![((Dyn,Dyn),Dyn):((Dyn,Dyn),Dyn)];

    /// Every layout of the cases: static ones (compact, with holes, a
    /// broadcast mode, a size-1 leaf), one with static and run-time leaves,
    /// random all-run-time ones (flat of rank 2 and 3, nested, scalar).
    fn cases(r2: &DLayout, r3: &DLayout, n: i64, d: i64) -> Result<(), String> {
        menu!(layout!((2,2):(1,2)), n, d);
        menu!(layout!((4,3):(1,4)), n, d);
        menu!(layout!((2,2):(4,1)), n, d);
        menu!(layout!((2,(1,3)):(1,(5,2))), n, d);
        menu!(layout!((3,2):(0,1)), n, d);
        menu!(layout!((2,2,2):(1,4,2)), n, d);
        let m = r2.size();
        menu!(layout!(({m},8):(1,{m})), n, d);
        menu!(T2::try_from(r2).map_err(|e| e.to_string())?, n, d);
        menu!(T3::try_from(r3).map_err(|e| e.to_string())?, n, d);
        let leaf = |k: usize| {
            let l = r3.get(k).unwrap();
            (l.shape().as_int().unwrap(), l.stride().as_int().unwrap())
        };
        let ((s0, d0), (s1, d1), (s2, d2)) = (leaf(0), leaf(1), leaf(2));
        let nested = fill("(({},{}),{}):(({},{}),{})", &[s0, s1, s2, d0, d1, d2]);
        let nested = T22::try_from(&nested).map_err(|e| e.to_string())?;
        menu!(nested, n, d);
        // A nested tiler on the nested mode, its run-time tile inside.
        check(nested, tile!(({n}:{d}, 2:1), 3:1))?;
        check(nested, tile!((2:1, {n}:1)))?;
        // A scalar layout: a tiler of one tile, a run-time or a static one.
        let s = D1::try_from(&r2.get(0).unwrap()).map_err(|e| e.to_string())?;
        check(s, tile!({n}:{d}))?;
        check(s, tile!(3:1))?;
        check(layout!(4:2), tile!({n}:{d}))?;
        Ok(())
    }

    /// A static tile by a tiler with a run-time tile: CuTe's arrangements,
    /// the static mode and tile static in the result; the same layout as
    /// cute-dynamic's, from the panicking and the `try_` forms.
    #[test]
    fn products_by_run_time_tiles_print_as_cute() {
        let m = 4i64;
        let (a, t) = (layout!((2,2):(1,2)), tile!({m}:1, 2:1));
        let (da, dt) = (a.to_dynamic(), t.to_dynamic());
        // Each product: its text, its `try_` form the same, and its layout
        // cute-dynamic's.
        macro_rules! prints {
            ($op:ident, $try_op:ident, $text:expr) => {
                let r = $op(a, t);
                assert_eq!(r.to_string(), $text);
                assert_eq!(($try_op(a, t).unwrap(), r.to_dynamic()), (r, cute_dynamic::$op(&da, &dt).unwrap()));
            };
        }
        prints!(logical_product, try_logical_product, "((_2,4),(_2,_2)):((_1,_2),(_2,_1))");
        prints!(zipped_product, try_zipped_product, "((_2,_2),(4,_2)):((_1,_2),(_2,_1))");
        prints!(tiled_product, try_tiled_product, "((_2,_2),4,_2):((_1,_2),_2,_1)");
        prints!(flat_product, try_flat_product, "(_2,_2,4,_2):(_1,_2,_2,_1)");
        // The four products of `a` by `t` (`try_` forms) against
        // cute-dynamic's: the same function in the same modes.
        macro_rules! agree_with_cute_dynamic {
            ($a:expr, $t:expr) => {{
                let (a, t) = ($a, $t);
                let (da, dt) = &(a.to_dynamic(), t.to_dynamic());
                for (got, want) in [
                    (try_logical_product(a, t).map(|r| r.to_dynamic()), cute_dynamic::logical_product(da, dt)),
                    (try_zipped_product(a, t).map(|r| r.to_dynamic()), cute_dynamic::zipped_product(da, dt)),
                    (try_tiled_product(a, t).map(|r| r.to_dynamic()), cute_dynamic::tiled_product(da, dt)),
                    (try_flat_product(a, t).map(|r| r.to_dynamic()), cute_dynamic::flat_product(da, dt)),
                ] {
                    agree(format_args!("{da} x {dt}"), got, want, same_product).unwrap_or_else(|e| panic!("{e}"));
                }
            }};
        }
        // A mode past the tiler stays, after the repetitions when zipped; a
        // run-time mode by a static tile beside a static mode by a run-time
        // one; a nested tiler. The same function in the same modes as
        // cute-dynamic's (a grid with a run-time step in CuTe's padded form,
        // `(1,4):(4,12)` for `4:12`).
        let (a, t) = (layout!((2,3,5):(1,2,6)), tile!(2:1, {m}:{m}));
        assert_eq!(zipped_product(a, t).to_string(), "((_2,_3),(_2,(1,4),_5)):((_1,_2),(_2,(4,12),_6))");
        assert_eq!(logical_product(a, t).to_string(), "((_2,_2),(_3,(1,4)),_5):((_1,_2),(_2,(4,12)),_6)");
        agree_with_cute_dynamic!(a, t);
        let (a, t) = (layout!(({m},(2,3)):(1,({m},8))), tile!(2:1, ({m}:1, 2:1)));
        agree_with_cute_dynamic!(a, t);
        // As CuTe C++ prints it: the stride `_1` is a product of static
        // strides through the composition by a two-mode `A*`.
        assert_eq!(zipped_product(a, t).to_string(), "((4,(_2,_3)),(_2,((4,1),_2))):((_1,(4,_8)),(4,((_1,8),_1)))");
        // An integer as a run-time tile (CuTe's `make_layout(m)`, `m:1`) and
        // a static integer, in a bare tuple.
        let a = layout!((2,{m}):(1,2));
        let r = tiled_product(a, (Dyn::new(3), U2::new()));
        let d = cute_dynamic::tiled_product(&a.to_dynamic(), &"<3:1,2:1>".parse::<cute_dynamic::Tiler>().unwrap());
        same_product(&r.to_dynamic(), &d.unwrap()).unwrap();
    }

    /// Each product in both forms on a failing case: the `try_` form
    /// returns cute-dynamic's error (no panic), the panicking form panics
    /// with its message.
    macro_rules! fails_as_cute_dynamic {
        ($a:expr, $t:expr, $pat:pat) => {{
            let (a, t) = ($a, $t);
            let (da, dt) = (a.to_dynamic(), t.to_dynamic());
            macro_rules! one {
                ($try_f:ident, $f:ident) => {{
                    let e = std::panic::catch_unwind(|| $try_f(a, t)).expect("no panic").unwrap_err();
                    assert!(matches!(e, $pat), "{e}");
                    assert_eq!(e, cute_dynamic::$f(&da, &dt).unwrap_err());
                    assert_eq!(
                        panic_message(move || {
                            let _ = $f(a, t);
                        }),
                        e.to_string()
                    );
                }};
            }
            one!(try_logical_product, logical_product);
            one!(try_zipped_product, zipped_product);
            one!(try_tiled_product, tiled_product);
            one!(try_flat_product, flat_product);
        }};
    }

    #[test]
    fn products_by_run_time_tiles_err_where_cute_dynamic_does() {
        // A static mode (2,2):(1,4) by the run-time tile 3:1: its A* =
        // (2,2):(2,8), whose first mode of 2 cannot hold 3 elements.
        fails_as_cute_dynamic!(
            layout!(((2,2),2):((1,4),8)),
            tile!({3i64}:1, 2:1),
            LayoutError::ShapeDivisibility { shape: 2, fits: 2, rest: 3, .. }
        );
        // The same mode with run-time leaves, by a static tile.
        fails_as_cute_dynamic!(
            layout!(((2,{2i64}),2):((1,{4i64}),8)),
            tile!(3:1, 2:1),
            LayoutError::ShapeDivisibility { shape: 2, fits: 2, rest: 3, .. }
        );
        // The second mode fails after the first one's product.
        fails_as_cute_dynamic!(
            layout!((4,(2,2)):(1,(1,4))),
            tile!(2:1, {3i64}:1),
            LayoutError::ShapeDivisibility { shape: 2, fits: 2, rest: 3, .. }
        );
        // In a nested tiler.
        fails_as_cute_dynamic!(
            layout!((4,((2,2),3)):(1,((1,4),16))),
            tile!(2:1, ({3i64}:1, 1:0)),
            LayoutError::ShapeDivisibility { shape: 2, fits: 2, rest: 3, .. }
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// Random layouts and run-time tiles (stride 0 and negative
        /// strides included): cute-dynamic's error exactly when it rejects,
        /// otherwise the same product in the same modes.
        #[test]
        fn products_by_run_time_tilers_agree_with_cute_dynamic(
            r2 in small_layout(2),
            r3 in small_layout(3),
            n in 1i64..=6,
            d in -3i64..=5,
        ) {
            let r = cases(&r2, &r3, n, d);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
    }
}
