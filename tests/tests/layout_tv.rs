//! Thread-value layouts: `make_layout_tv` (CuTe's `make_tiled_copy`
//! construction) in cute-dynamic, the evaluator and cute-static: the
//! issue's golden case, the tiling post-condition by brute force, refusals,
//! and static/dynamic agreement.

use cute_dynamic::{IntTuple, Layout, LayoutError, Value, eval, make_layout_tv, raked_product};
use proptest::prelude::*;

fn lay(s: &str) -> Layout {
    s.parse().expect("layout")
}

/// The golden case: CuTe's `make_tiled_copy` with a 2×3 row-major
/// thread layout and 2×2 row-major values.
#[test]
fn make_layout_tv_golden() {
    let (tv, tiler) = make_layout_tv(&lay("(2,3):(3,1)"), &lay("(2,2):(2,1)")).unwrap();
    assert_eq!(tv.to_string(), "((3,2),(2,2)):((8,2),(4,1))");
    assert_eq!(tiler.to_string(), "(4,6)");
    assert_tiles(&lay("(2,3):(3,1)"), &lay("(2,2):(2,1)"));
}

/// The post-condition by brute force: `tv(t, v)` is the column-major index
/// of a cell of the tile, the raked product maps that cell back to
/// `t + T·v`, and every cell of the tile is reached exactly once.
fn assert_tiles(thr: &Layout, val: &Layout) {
    let (tv, tiler) = make_layout_tv(thr, val).unwrap();
    let mn = raked_product(thr, val).unwrap();
    let (t_count, v_count) = (thr.size(), val.size());
    assert_eq!(tv.rank(), 2, "{tv}");
    assert_eq!((tv.get(0).unwrap().size(), tv.get(1).unwrap().size()), (t_count, v_count), "{tv}");
    let per_mode: Vec<i64> = mn.modes_iter().map(|m| m.size()).collect();
    assert_eq!(tiler.leaves().collect::<Vec<_>>(), per_mode, "tiler of {mn}");
    let cells = tiler.size().unwrap();
    assert_eq!(cells, t_count * v_count);
    let mut seen = vec![false; cells as usize];
    for t in 0..t_count {
        for v in 0..v_count {
            let k = tv.eval_coord(&IntTuple::flat([t, v])).unwrap();
            assert!((0..cells).contains(&k), "tv({t},{v}) = {k} outside the tile {tiler}");
            assert!(!seen[k as usize], "cell {k} reached twice");
            seen[k as usize] = true;
            assert_eq!(mn.eval(k).unwrap(), t + t_count * v, "layout_mn(tv({t},{v}))");
        }
    }
}

/// A compact layout of a shape, column- or row-major.
fn compact(shape: &[i64], row_major: bool) -> Layout {
    let mut stride = vec![0; shape.len()];
    let mut acc = 1;
    let order: Vec<usize> = if row_major { (0..shape.len()).rev().collect() } else { (0..shape.len()).collect() };
    for i in order {
        stride[i] = acc;
        acc *= shape[i];
    }
    Layout::new(IntTuple::flat(shape.iter().copied()), IntTuple::flat(stride)).unwrap()
}

proptest! {
    #[test]
    fn make_layout_tv_tiles_the_product(
        ts in prop::collection::vec(1i64..6, 1..3), tr in any::<bool>(),
        vs in prop::collection::vec(1i64..5, 1..3), vr in any::<bool>(),
    ) {
        assert_tiles(&compact(&ts, tr), &compact(&vs, vr));
    }

    /// Any thread and value layouts: a thread-value layout that tiles, or an
    /// error; never a wrong layout.
    #[test]
    fn make_layout_tv_is_right_or_an_error(
        ts in prop::collection::vec((1i64..4, 0i64..9), 1..3),
        vs in prop::collection::vec((1i64..4, 0i64..9), 1..3),
    ) {
        let mk = |m: &[(i64, i64)]| {
            Layout::new(IntTuple::flat(m.iter().map(|p| p.0)), IntTuple::flat(m.iter().map(|p| p.1))).unwrap()
        };
        let (thr, val) = (mk(&ts), mk(&vs));
        if make_layout_tv(&thr, &val).is_ok() {
            assert_tiles(&thr, &val);
        }
    }
}

#[test]
fn make_layout_tv_refuses_threads_that_do_not_tile() {
    // Two threads on the same offset: no thread-value layout covers the tile.
    let e = make_layout_tv(&lay("(2,2):(0,1)"), &lay("2:1")).unwrap_err();
    assert!(matches!(e, LayoutError::NoLayout { operation: "make_layout_tv", .. }), "{e}");
    assert!(e.to_string().contains("thread-value"), "{e}");
}

#[test]
fn evaluator_knows_make_layout_tv() {
    let v = eval("make_layout_tv((2,3):(3,1), (2,2):(2,1))").unwrap();
    assert_eq!(v.to_string(), "((3,2),(2,2)):((8,2),(4,1)) on tile (4,6)");
    assert!(matches!(v, Value::LayoutTv { .. }));
    // Operations that take a layout take its TV layout.
    assert_eq!(eval("size(get(make_layout_tv((2,3):(3,1), (2,2):(2,1)), 0))").unwrap().to_string(), "6");
}

/// cute-static computes the same thread-value layout and tile in trait
/// resolution.
#[test]
fn static_make_layout_tv_agrees_with_dynamic() {
    use cute_static::prelude::*;
    macro_rules! agree {
        ($thr:tt, $val:tt) => {{
            let (tv, tiler) = make_layout_tv(layout!$thr, layout!$val);
            let (dtv, dtiler) = cute_dynamic::make_layout_tv(&lay(stringify!$thr), &lay(stringify!$val)).unwrap();
            assert_eq!(tv.to_dynamic(), dtv, "{} {}", stringify!$thr, stringify!$val);
            assert_eq!(tiler.to_dynamic(), dtiler);
        }};
    }
    agree!(((2,3):(3,1)), ((2,2):(2,1)));
    agree!(((16,16):(16,1)), ((4,4):(4,1)));
    agree!(((32,8):(8,1)), ((4,1):(1,1)));
    agree!(((4,8):(1,4)), ((1,8):(1,1)));
    agree!(((2,2):(1,2)), ((3,5):(5,1)));
}
