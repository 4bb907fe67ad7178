//! The worked examples of the CuTe paper and CuTe's layout-algebra docs
//! computed by the static algebra (trait resolution): each result prints as
//! CuTe prints the all-static computation. Where the docs state a wrong
//! result, the post-conditions win, as in the dynamic golden tests
//! (`golden_core.rs`, `golden_algebra.rs`).

use cute_static::prelude::*;
use static_assertions::{assert_impl_all, assert_not_impl_any};

use cute_tests::static_text as st;

macro_rules! check {
    ($value:expr, $expected:expr) => {{
        let v = $value;
        assert_eq!(v.to_string(), st($expected), "{}", stringify!($value));
    }};
}

#[test]
fn composition_paper_and_docs() {
    // The README's first example and the paper's (10,2):(16,4) ∘ (5,4):(1,5).
    check!(composition(layout!((6,2):(8,2)), layout!((4,3):(3,1))), "((2,2),3):((24,2),8)");
    check!(composition(layout!((10,2):(16,4)), layout!((5,4):(1,5))), "(5,(2,2)):(16,(80,4))");
    // The "apparent violation" the paper admits.
    check!(composition(layout!((4,2,8):(3,12,97)), layout!(3:3)), "3:9");
    // Extended domain of A (paper 2.4.1: A's last mode is unbounded, even of size 1).
    check!(composition(layout!(1:12), layout!((2,5):(1,2))), "(2,5):(12,24)");
    // Table 4 (integer strides).
    let tv = layout!(((4,8),2):((16,1),8));
    check!(composition(layout!((8,8):(1,8)), tv), "((4,8),2):((16,1),8)");
    check!(composition(layout!((8,8):(8,1)), tv), "((4,8),2):((2,8),1)");
    check!(composition(layout!((8,8):(1,9)), tv), "((4,8),2):((18,1),9)");
    check!(composition(layout!(((4,2),(2,4)):((2,16),(1,8))), tv), "((4,(4,2)),2):((8,(2,16)),1)");
    // Tilers (docs, "composition with tilers"), and a shape as a tiler.
    check!(composition(layout!((12,(4,8)):(59,(13,1))), tile!(3:4, 8:2)), "(3,(2,4)):(236,(26,1))");
    check!(composition(layout!((9,(4,8)):(59,(13,1))), tile!(3:3, (2,4):(1,8))), "(3,(2,4)):(177,(13,2))");
    check!(composition(layout!((8,16):(20,1)), shape!(4, 8)), "(4,8):(20,1)");
    // Every-third-element divide (paper 3.5.2): the tiles.
    check!(composition(layout!(24:3), layout!(8:3)), "8:9");
    check!(composition(layout!((6,2,2):(2,1,20)), layout!(8:3)), "(2,2,2):(6,1,20)");
}

#[test]
fn complement_paper_and_docs() {
    check!(complement(layout!(8:3), shape!(24)), "3:1");
    check!(complement(layout!(4:1), shape!(8)), "2:4");
    check!(complement(layout!(8:2), shape!(16)), "2:1");
    check!(complement(layout!(4:2), shape!(24)), "(2,3):(1,8)");
    check!(complement(layout!((2,2):(4,1)), shape!(24)), "(2,3):(2,8)");
    // Errata: complement(4:32, 256) is (32,2):(1,128).
    check!(complement(layout!(4:32), shape!(256)), "(32,2):(1,128)");
    // Table 7 under the cotarget: stride-0 modes do not contribute.
    check!(complement(layout!(((2,2),(2,4)):((0,1),(0,2))), shape!(8)), "1:0");
    check!(complement(layout!((4,8):(1,8)), shape!(256)), "(2,4):(4,64)");
}

#[test]
fn inverses_tables_5_and_6() {
    check!(right_inverse(layout!((4,8):(1,4))), "32:1");
    check!(right_inverse(layout!((4,8):(8,1))), "(8,4):(4,1)");
    check!(right_inverse(layout!((3,7,5):(5,15,1))), "(5,21):(21,1)");
    check!(right_inverse(layout!((4,8):(1,5))), "4:1");
    check!(right_inverse(layout!((4,(4,2)):(4,(1,16)))), "(4,4,2):(4,1,16)");
    check!(right_inverse(layout!(((2,2),(4,2)):((1,8),(2,16)))), "(2,4,2,2):(1,4,2,16)");
    check!(right_inverse(layout!(((2,2),(2,4)):((0,2),(0,4)))), "1:0");
    check!(left_inverse(layout!((4,8):(1,4))), "32:1");
    check!(left_inverse(layout!((4,8):(8,1))), "(8,4):(4,1)");
    check!(left_inverse(layout!((3,7,5):(5,15,1))), "(5,21):(21,1)");
    check!(left_inverse(layout!((4,8):(1,5))), "(5,8):(1,4)");
    check!(left_inverse(layout!((4,(4,2)):(4,(1,16)))), "(4,4,2):(4,1,16)");
    check!(left_inverse(layout!(((2,2),(4,2)):((1,8),(2,16)))), "(2,4,2,2):(1,4,2,16)");
    check!(left_inverse(layout!(((2,2),(2,4)):((0,2),(0,4)))), "(2,2,4):(0,2,8)");
}

#[test]
fn divides_paper_and_docs() {
    check!(logical_divide(layout!(24:3), layout!(8:3)), "(8,3):(9,3)");
    check!(logical_divide(layout!((6,2,2):(2,1,20)), layout!(8:3)), "((2,2,2),3):((6,1,20),2)");
    // Figure 12.
    let a = layout!((8,16):(20,1));
    let t = tile!(4:1, 8:2);
    check!(logical_divide(a, t), "((4,2),(8,2)):((20,80),(2,1))");
    check!(zipped_divide(a, t), "((4,8),(2,2)):((20,2),(80,1))");
    check!(tiled_divide(a, t), "((4,8),2,2):((20,2),80,1)");
    check!(flat_divide(a, t), "(4,8,2,2):(20,2,80,1)");
    // The docs' 1-D example; its stated result is an erratum (see `golden_algebra.rs`).
    let a = layout!((2,4,3):(4,1,8));
    check!(logical_divide(a, layout!(4:2)), "(4,(2,3)):(1,(4,8))");
    check!(zipped_divide(a, layout!(4:2)), "(4,(2,3)):(1,(4,8))");
    check!(tiled_divide(a, layout!(4:2)), "(4,2,3):(1,4,8)");
    check!(flat_divide(a, layout!(4:2)), "(4,2,3):(1,4,8)");
    // The docs' 2-D example: mode shapes ((3,3),(8,4)) / ((3,8),(3,4)).
    let a = layout!((9,(4,8)):(59,(13,1)));
    let t = tile!(3:3, (2,4):(1,8));
    check!(logical_divide(a, t), "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
    check!(zipped_divide(a, t), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
}

/// An integer 1 of a shape used as a tiler is CuTe's `make_layout(_1)`,
/// `_1:_0` (the compact stride of a static 1): CuTe C++'s own print of these
/// cases (`tests/golden/cute_products_divides.txt`), markers and all.
#[test]
fn an_integer_tile_of_1_is_cute_make_layout() {
    let a = layout!((5,2,4):(9,1,2));
    assert_eq!(logical_divide(a, shape!(2, 1)).to_string(), "((_2,_3),(_1,_2),_4):((_9,_18),(_0,_1),_2)");
    assert_eq!(zipped_divide(a, tile!(2, 1)).to_string(), "((_2,_1),(_3,_2,_4)):((_9,_0),(_18,_1,_2))");
    assert_eq!(logical_product(layout!(2:4), shape!(1)).to_string(), "(_2,_1):(_4,_0)");
    assert_eq!(flat_product(layout!((1,2,3):(1,6,2)), shape!(4, 1)).to_string(), "(_1,_2,_4,_1,_3):(_1,_6,_1,_0,_2)");
    assert_eq!(composition(layout!((4,2):(30,14)), shape!(1)).to_string(), "_1:_0");
    // A layout with a run-time leaf, by the same tiles: the same function.
    let m = 5i64;
    let r = logical_divide(layout!(({m},2,4):(9,1,2)), shape!(2, 1));
    let want = cute_dynamic::logical_divide(
        &"(5,2,4):(9,1,2)".parse().unwrap(),
        &"(2,1)".parse::<cute_dynamic::IntTuple>().unwrap(),
    );
    let (r, want) = (r.to_dynamic(), want.unwrap());
    assert_eq!(
        (0..r.size()).map(|i| r.eval(i).unwrap()).collect::<Vec<_>>(),
        (0..want.size()).map(|i| want.eval(i).unwrap()).collect::<Vec<_>>()
    );
}

#[test]
fn products_paper_and_docs() {
    check!(logical_product(layout!((3,4):(4,1)), layout!((2,5):(1,2))), "((3,4),(2,5)):((4,1),(12,24))");
    check!(tiled_product(layout!((3,4):(4,1)), layout!((2,5):(1,2))), "((3,4),2,5):((4,1),12,24)");
    check!(flat_product(layout!((3,4):(4,1)), layout!((2,5):(1,2))), "(3,4,2,5):(4,1,12,24)");
    check!(logical_product(layout!((4,8):(20,2)), layout!((3,2):(2,1))), "((4,8),(3,2)):((20,2),(80,1))");
    check!(tiled_product(layout!((4,8):(20,2)), layout!((3,2):(2,1))), "((4,8),3,2):((20,2),80,1)");
    check!(flat_product(layout!((4,8):(20,2)), layout!((3,2):(2,1))), "(4,8,3,2):(20,2,80,1)");
    check!(logical_product(layout!((2,2):(4,1)), layout!(6:1)), "((2,2),(2,3)):((4,1),(2,8))");
    // Figures 10 and 11.
    check!(blocked_product(layout!((3,4):(4,1)), layout!((2,5):(1,2))), "((3,2),(4,5)):((4,12),(1,24))");
    check!(raked_product(layout!((3,4):(4,1)), layout!((2,5):(1,2))), "((2,3),(5,4)):((12,4),(24,1))");
    // The docs' by-mode products: shapes ((2,3),(5,4)), ((2,5),(3,4)), ...
    let a = layout!((2,5):(5,1));
    let t = tile!(3:5, 4:6);
    assert_eq!(logical_product(a, t).shape().to_string_cute(), st("((2,3),(5,4))"));
    assert_eq!(zipped_product(a, t).shape().to_string_cute(), st("((2,5),(3,4))"));
    assert_eq!(tiled_product(a, t).shape().to_string_cute(), st("((2,5),3,4)"));
    assert_eq!(flat_product(a, t).shape().to_string_cute(), st("(2,5,3,4)"));
    // Lower rank padded with 1:0.
    let r = blocked_product(layout!((3,4):(4,1)), layout!(2:1));
    assert_eq!((r.get::<0>().size(), r.get::<1>().size()), (6, 4));
}

#[test]
fn coalesce_and_filter() {
    check!(coalesce(layout!((2,(1,6)):(1,(6,2)))), "12:1");
    check!(coalesce_by(layout!((2,(1,6)):(1,(6,2))), shape!(1, 1)), "(2,6):(1,2)");
    check!(filter(layout!((2,(3,4)):(0,(1,3)))), "12:1");
    check!(coalesce(layout!((4,1):(1,0))), "4:1");
    check!(coalesce(layout!((1,1):(3,5))), "1:0");
}

// Inadmissible operations have no implementation (the compile errors are
// in ui-tests); admissible ones do.
type A468 = Layout![(4,6,8):(2,3,5)];
assert_not_impl_any!(A468: Compose<Layout![6:3]>, Compose<Layout![6:1]>);
assert_impl_all!(A468: Compose<Layout![2:1]>, Compose<Layout![4:1]>);
// Distributivity: the modes of B may not add up past a mode of A (cute-dynamic's NotDistributive).
assert_not_impl_any!(Layout![(4,1):(0,1)]: Compose<Layout![(2,4):(1,1)]>);
assert_impl_all!(Layout![(4,1):(0,1)]: Compose<Layout![(2,2):(1,1)]>);
// logical_product((2,2):(3,10), 4:1): shape divisibility in A* ∘ B (cute-dynamic errs too).
assert_not_impl_any!(Layout![(2,2):(3,10)]: LogicalProduct<Layout![4:1]>);
assert_not_impl_any!(Layout![(2,3):(1,7)]: LogicalProduct<Layout![4:1]>);
assert_not_impl_any!(Layout![(4,8):(1,4)]: Compose<Tile![2, 2, 2]>, LogicalDivide<Tile![2, 2, 2]>);
assert_not_impl_any!(Layout![(4,4):(1,2)]: Complement<Shape![64]>, LeftInverse);
// left_inverse((3,4):(2,7)): stride 7 is not a multiple of 2 (cute-dynamic errs too).
assert_not_impl_any!(Layout![(3,4):(2,7)]: LeftInverse);

/// Corner cases, checked against cute-dynamic on the same expression.
#[test]
fn corner_cases_agree_with_dynamic() {
    macro_rules! agree {
        ($expr:expr, $stat:expr) => {{
            let r = $stat;
            let dy = cute_dynamic::eval($expr).unwrap_or_else(|e| panic!("{}: {e}", $expr)).to_string();
            assert_eq!(r.to_string().replace('_', ""), dy, "{}", $expr);
            assert_eq!(r.to_dynamic(), dy.parse::<cute_dynamic::Layout>().unwrap(), "{}", $expr);
        }};
    }
    // B leaves of size 1 and of stride 0.
    agree!("composition((4,8):(1,4), (2,1,3):(1,7,0))", composition(layout!((4,8):(1,4)), layout!((2,1,3):(1,7,0))));
    agree!("composition(1:0, 4:1)", composition(layout!(1:0), layout!(4:1)));
    // A whose last leaf has size 1, merged or kept.
    agree!("composition((4,1):(1,4), 8:1)", composition(layout!((4,1):(1,4)), layout!(8:1)));
    agree!("composition((4,1):(1,7), 8:1)", composition(layout!((4,1):(1,7)), layout!(8:1)));
    agree!("composition((4,1):(1,7), 4:1)", composition(layout!((4,1):(1,7)), layout!(4:1)));
    // Nested tilers and nested shapes as tilers.
    agree!(
        "composition(((4,2),(3,8)):((1,4),(8,24)), <<2:1,2:1>,6:1>)",
        composition(layout!(((4,2),(3,8)):((1,4),(8,24))), tile!(<2:1, 2:1>, 6:1))
    );
    agree!(
        "composition(((4,2),(3,8)):((1,4),(8,24)), ((2,2),6))",
        composition(layout!(((4,2),(3,8)):((1,4),(8,24))), shape!((2, 2), 6))
    );
    agree!(
        "logical_divide(((4,2),(3,8)):((1,4),(8,24)), <<2:1,2:1>,6:1>)",
        logical_divide(layout!(((4,2),(3,8)):((1,4),(8,24))), tile!((2:1, 2:1), 6:1))
    );
    agree!(
        "zipped_divide(((4,2),(3,8)):((1,4),(8,24)), <<2:1>,6:1>)",
        zipped_divide(layout!(((4,2),(3,8)):((1,4),(8,24))), tile!((2:1), 6:1))
    );
    agree!(
        "flat_product((4,(3,2)):(1,(4,12)), <2:1,<3:1,2:1>>)",
        flat_product(layout!((4,(3,2)):(1,(4,12))), tile!(2:1, (3:1, 2:1)))
    );
    // A tiler of one tile on a scalar layout; fewer tiles than modes.
    agree!("composition(12:2, <3:4>)", composition(layout!(12:2), tile!(3:4)));
    agree!("logical_divide(12:2, <3:4>)", logical_divide(layout!(12:2), tile!(3:4)));
    agree!("composition((4,6,8):(1,4,24), <2:2>)", composition(layout!((4,6,8):(1,4,24)), tile!(2:2)));
    agree!("tiled_divide((4,6,8):(1,4,24), <2:2,3:1>)", tiled_divide(layout!((4,6,8):(1,4,24)), tile!(2:2, 3:1)));
    // Complement with stride-0 and size-1 modes, and a cotarget below the cosize.
    agree!("complement((3,1,2):(0,9,6), 48)", complement(layout!((3,1,2):(0,9,6)), shape!(48)));
    agree!("complement(4:2, 5)", complement(layout!(4:2), shape!(5)));
    // Complements whose strides leave gaps: the last mode covers the cotarget.
    agree!("complement(((2,2)):((11,1)), 22)", complement(layout!(((2,2)):((11,1))), shape!(22)));
    agree!("complement((2,3):(1,7), 64)", complement(layout!((2,3):(1,7)), shape!(64)));
    // Products compose with the complement that keeps its last mode.
    agree!("logical_product((3,2):(1,4), (2,3):(1,3))", logical_product(layout!((3,2):(1,4)), layout!((2,3):(1,3))));
    // Divides compose (B, B*) at once.
    agree!("logical_divide((4,6):(1,4), 8:3)", logical_divide(layout!((4,6):(1,4)), layout!(8:3)));
    // Inverses of broadcast and of padded layouts.
    agree!("right_inverse((2,4):(0,1))", right_inverse(layout!((2,4):(0,1))));
    agree!("left_inverse((2,4):(0,3))", left_inverse(layout!((2,4):(0,3))));
    // Products of rank-3 by rank-1, padded.
    agree!("blocked_product((2,3,2):(1,2,6), 4:1)", blocked_product(layout!((2,3,2):(1,2,6)), layout!(4:1)));
    agree!("raked_product(4:1, (2,3):(1,2))", raked_product(layout!(4:1), layout!((2,3):(1,2))));
}
