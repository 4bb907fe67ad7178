//! The static algebra on worked examples of the paper and the CuTe docs.

use cute_static::prelude::*;

#[test]
fn composition_examples() {
    let r = composition(layout!((6,2):(8,2)), layout!((4,3):(3,1)));
    assert_eq!(r.to_string(), "((_2,_2),_3):((_24,_2),_8)");
    let r = composition(layout!((10,2):(16,4)), layout!((5,4):(1,5)));
    assert_eq!(r.to_string(), "(_5,(_2,_2)):(_16,(_80,_4))");
    // Extended domain: the last mode's stride matters even of size 1.
    let r = composition(layout!(1:12), layout!((2,5):(1,2)));
    assert_eq!(r.to_string(), "(_2,_5):(_12,_24)");
    // The paper's apparent violation.
    let r = composition(layout!((4,2,8):(3,12,97)), layout!(3:3));
    assert_eq!(r.to_string(), "_3:_9");
    let t = composition(layout!((12,(4,8)):(59,(13,1))), tile!(3:4, 8:2));
    assert_eq!(t.to_string(), "(_3,(_2,_4)):(_236,(_26,_1))");
    // Table 4.
    let tv = layout!(((4,8),2):((16,1),8));
    assert_eq!(composition(layout!((8,8):(1,8)), tv).to_string(), "((_4,_8),_2):((_16,_1),_8)");
    assert_eq!(composition(layout!((8,8):(8,1)), tv).to_string(), "((_4,_8),_2):((_2,_8),_1)");
    assert_eq!(composition(layout!((8,8):(1,9)), tv).to_string(), "((_4,_8),_2):((_18,_1),_9)");
    assert_eq!(
        composition(layout!(((4,2),(2,4)):((2,16),(1,8))), tv).to_string(),
        "((_4,(_4,_2)),_2):((_8,(_2,_16)),_1)"
    );
}

#[test]
fn complement_examples() {
    // CuTe coalesces the trailing 1:32 away (the paper's Table 7 shows the
    // unbounded form, cute-dynamic's complement_full).
    assert_eq!(complement(layout!((4,8):(1,4)), shape!(32)).to_string(), "_1:_0");
    assert_eq!(complement(layout!((4,8):(1,4)), shape!(64)).to_string(), "_2:_32");
    assert_eq!(complement(layout!(4:2), shape!(24)).to_string(), "(_2,_3):(_1,_8)");
    assert_eq!(complement(layout!(4:32), shape!(256)).to_string(), "(_32,_2):(_1,_128)");
}

#[test]
fn divide_product_examples() {
    let d = logical_divide(layout!((4,2,3):(2,1,8)), layout!(4:2));
    assert_eq!(d.to_string(), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
    let p = logical_product(layout!((3,4):(4,1)), layout!((2,5):(1,2)));
    assert_eq!(p.to_string(), "((_3,_4),(_2,_5)):((_4,_1),(_12,_24))");
    let d = logical_divide(layout!((9,(4,8)):(59,(13,1))), tile!(3:3, (2,4):(1,8)));
    assert_eq!(d.to_string(), "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))");
}

/// Every `try_` form takes the plain form's arguments (by value) and, for
/// all-static arguments, cannot fail: `Ok` of the plain form's zero-sized
/// value.
#[test]
fn try_forms_of_all_static_arguments_are_the_plain_forms() {
    macro_rules! same {
        ($try_op:ident, $op:ident, $($arg:expr),+) => {{
            let r = $try_op($($arg),+).unwrap_or_else(|e| panic!("{}: {e}", stringify!($try_op)));
            assert_eq!(r, $op($($arg),+), "{}", stringify!($try_op));
            assert_eq!(size_of_val(&r), 0, "{}", stringify!($try_op));
        }};
    }
    let (a, b) = (layout!((6,2):(8,2)), layout!((4,3):(3,1)));
    same!(try_composition, composition, a, b);
    same!(try_composition, composition, layout!((12,(4,8)):(59,(13,1))), tile!(3:4, 8:2));
    same!(try_complement, complement, layout!(4:2), shape!(24));
    same!(try_right_inverse, right_inverse, layout!((4,8):(8,1)));
    same!(try_left_inverse, left_inverse, layout!((4,8):(1,5)));
    let (m, t) = (layout!((8,8):(1,8)), tile!(2:1, 4:1));
    same!(try_logical_divide, logical_divide, m, t);
    same!(try_zipped_divide, zipped_divide, m, t);
    same!(try_tiled_divide, tiled_divide, m, t);
    same!(try_flat_divide, flat_divide, m, t);
    same!(try_tiled_divide, tiled_divide, layout!((4,2,3):(2,1,8)), layout!(4:2));
    same!(try_flat_divide, flat_divide, layout!((4,2,3):(2,1,8)), layout!(4:2));
    let (p, q) = (layout!((2,2):(1,2)), layout!((3,4):(1,3)));
    same!(try_logical_product, logical_product, p, q);
    same!(try_zipped_product, zipped_product, p, q);
    same!(try_tiled_product, tiled_product, p, q);
    same!(try_flat_product, flat_product, p, q);
    same!(try_zipped_product, zipped_product, p, tile!(3:1, 2:1));
    same!(try_blocked_product, blocked_product, layout!((2,5):(5,1)), q);
    same!(try_raked_product, raked_product, layout!((2,5):(5,1)), q);
}

/// A `usize` cotarget is run-time, as a `Dyn` (an integer literal is a
/// `usize`); the last mode alone prints `1:0` when the layout already
/// covers the cotarget.
#[test]
fn complement_takes_a_usize_cotarget() {
    let m = 1000usize;
    let r = complement(layout!((4,8):(1,8)), m);
    assert_eq!(r, complement(layout!((4,8):(1,8)), Dyn::new(1000)));
    assert_eq!(r.to_string(), "(_2,16):(_4,_64)");
    assert_eq!(try_complement(layout!((4,8):(1,8)), m).unwrap(), r);
    assert_eq!(try_complement(layout!((4,8):(1,4)), 16).unwrap().to_string(), "1:0");
    assert_eq!(complement(layout!((4,8):(1,4)), 64).to_string(), "2:32");
    assert_eq!(complement(layout!(4:1), 4).to_string(), "1:0");
    assert!(try_complement(layout!(4:1), 0).is_err());
    assert!(try_complement(layout!(4:1), usize::MAX).is_err());
}

/// `complement` and `try_complement` take the cotarget the same way (a
/// `usize`, a `Dyn`, a static shape; by value) and print the same text,
/// cute-dynamic's for the same layout (through `to_dynamic()`, and as
/// printed where the static type allows it). CuTe C++ keeps the static
/// stride of a lone last mode (`1:_32`, `2:_32` for the first two rows);
/// cute-static makes that stride run-time so the text is cute-dynamic's.
#[test]
fn complement_and_try_complement_print_alike() {
    macro_rules! alike {
        ($a:expr, $m:expr, $text:literal) => {{
            let (a, m) = ($a, $m);
            let r = complement(a, m);
            assert_eq!(r.to_string(), $text);
            assert_eq!(try_complement(a, m).unwrap().to_string(), $text);
            assert_eq!(try_complement(a, m).unwrap(), r);
        }};
    }
    alike!(layout!((4,8):(1,4)), 16usize, "1:0");
    alike!(layout!((4,8):(1,4)), 64usize, "2:32");
    alike!(layout!((4,8):(1,4)), Dyn::new(16), "1:0");
    alike!(layout!((4,8):(1,4)), shape!({ 16usize }), "1:0");
    alike!(layout!(4:1), 4usize, "1:0");
    alike!(layout!(4:2), 24usize, "(_2,3):(_1,_8)");
    alike!(layout!((4,8):(1,8)), 1000usize, "(_2,16):(_4,_64)");
    alike!(layout!((4,8):(1,4)), shape!(16), "_1:_0");
    alike!(layout!(4:2), shape!(24), "(_2,_3):(_1,_8)");
    alike!(layout!((4,{8usize}):(1,8)), 256usize, "(1,2,4):(0,4,64)");
    // The same text as cute-dynamic's complement of the same values.
    for (a, m) in [("(4,8):(1,4)", 16), ("(4,8):(1,4)", 64), ("4:1", 4), ("(4,8):(1,8)", 1000)] {
        let d = cute_dynamic::complement(&a.parse().unwrap(), m).unwrap().to_string();
        let s = match a {
            "(4,8):(1,4)" => try_complement(layout!((4,8):(1,4)), m as usize).unwrap().to_dynamic().to_string(),
            "4:1" => try_complement(layout!(4:1), m as usize).unwrap().to_dynamic().to_string(),
            _ => try_complement(layout!((4,8):(1,8)), m as usize).unwrap().to_dynamic().to_string(),
        };
        assert_eq!(s, d, "complement({a}, {m})");
    }
}

/// The `try_` forms added for the one calling convention (tiled/flat
/// divide, zipped/tiled/flat product) with a run-time leaf: the plain
/// form's layout when the run-time conditions hold, cute-dynamic's error
/// when one fails (the plain form would panic with its message).
#[test]
fn try_forms_with_run_time_leaves() {
    use cute_dynamic::LayoutError;
    let (m, n) = (1000i64, 500i64);
    let (a, t) = (layout!(({m},{n}):(1,{m})), tile!(128:1, 64:1));
    assert_eq!(try_tiled_divide(a, t).unwrap(), tiled_divide(a, t));
    assert_eq!(try_flat_divide(a, t).unwrap(), flat_divide(a, t));
    assert_eq!(try_flat_divide(a, t).unwrap().to_string(), "(_128,_64,8,8):(_1,1000,_128,64000)");
    // 6 elements do not split across the mode of 4 (shape divisibility),
    // known only once the run-time stride 9 is.
    let (bad, t) = (layout!((4,{6i64}):(1,{9i64})), layout!(6:1));
    for e in [try_tiled_divide(bad, t).map(|_| ()), try_flat_divide(bad, t).map(|_| ())] {
        let e = e.unwrap_err();
        assert!(matches!(e, LayoutError::ShapeDivisibility { shape: 4, fits: 4, rest: 6, .. }), "{e}");
    }

    let (p, b) = (layout!((2,2):(1,2)), layout!(({3i64},4):(1,3)));
    assert_eq!(try_zipped_product(p, b).unwrap(), zipped_product(p, b));
    assert_eq!(try_tiled_product(p, b).unwrap(), tiled_product(p, b));
    assert_eq!(try_flat_product(p, b).unwrap(), flat_product(p, b));
    assert_eq!(try_tiled_product(p, b).unwrap().to_string(), "((_2,_2),3,_4):((_1,_2),_4,_12)");
    // A* = (2,2):(2,8): its first mode of 2 cannot hold 3 elements.
    let (p, b) = (layout!((2,2):(1,4)), layout!({3i64}:1));
    for e in
        [try_zipped_product(p, b).map(|_| ()), try_tiled_product(p, b).map(|_| ()), try_flat_product(p, b).map(|_| ())]
    {
        let e = e.unwrap_err();
        assert!(matches!(e, LayoutError::ShapeDivisibility { shape: 2, fits: 2, rest: 3, .. }), "{e}");
    }
}
