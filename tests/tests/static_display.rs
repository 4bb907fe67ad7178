//! Every integer-stride layout of the paper's Figure 3 and Tables 4–7,
//! written with `layout!`, prints exactly as CuTe prints it statically, and
//! its `to_dynamic()` equals cute-dynamic's parse of the same text.

use cute_static::prelude::*;
use static_assertions::const_assert_eq;

use cute_tests::static_text as underscored;

/// Checks `layout!(...)` of the text against CuTe's static print and the
/// dynamic parse; also the dynamic layout's size and cosize.
macro_rules! check {
    ($($text:tt)+) => {{
        let text = stringify!($($text)+).replace(' ', "");
        let s = layout!($($text)+);
        assert_eq!(s.to_string(), underscored(&text), "display of {text}");
        let d: cute_dynamic::Layout = text.parse().expect("cute-dynamic parses the layout");
        assert_eq!(s.to_dynamic(), d, "to_dynamic of {text}");
        assert_eq!(s.size() as i64, d.size(), "size of {text}");
        assert_eq!(s.cosize() as i64, d.cosize(), "cosize of {text}");
        for i in 0..s.size() {
            assert_eq!(s.index(i) as i64, d.eval(i as i64).unwrap(), "{text} at {i}");
        }
    }};
}

#[test]
fn figure_3_layouts() {
    // (a) column-major, (b) row-major, (c) padded, (d) column-interleaved,
    // (e) mixed: the layouts of Figure 3, compatible with (4,8).
    check!((4,8):(1,4));
    check!((4,8):(8,1));
    check!((4,8):(1,5));
    check!((4,(4,2)):(4,(1,16)));
    check!(((2,2),(4,2)):((1,8),(2,16)));
}

#[test]
fn figure_3e_evaluation_example() {
    // Paper 2.4.1: L(22) = L(2,5) = L((0,1),(1,1)) = 26.
    let l = layout!(((2,2),(4,2)):((1,8),(2,16)));
    assert_eq!(l.index(22), 26);
    assert_eq!(l.index((2, 5)), 26);
    assert_eq!(l.index(((0, 1), (1, 1))), 26);
}

#[test]
fn table_4_layouts() {
    // Data layouts A, the TV layout B and the results R (integer strides).
    check!((8,8):(1,8));
    check!((8,8):(8,1));
    check!((8,8):(1,9));
    check!(((4,2),(2,4)):((2,16),(1,8)));
    check!(((4,8),2):((16,1),8));
    check!(((4,8),2):((2,8),1));
    check!(((4,8),2):((18,1),9));
    check!(((4,(4,2)),2):((8,(2,16)),1));
}

#[test]
fn table_5_layouts() {
    check!((4,8):(1,4));
    check!(32:1);
    check!((4,8):(8,1));
    check!((8,4):(4,1));
    check!((3,7,5):(5,15,1));
    check!((5,21):(21,1));
    check!((4,8):(1,5));
    check!(4:1);
    check!((4,(4,2)):(4,(1,16)));
    check!((4,4,2):(4,1,16));
    check!(((2,2),(4,2)):((1,8),(2,16)));
    check!((2,4,2,2):(1,4,2,16));
    check!(((2,2),(2,4)):((0,1),(0,2)));
    check!((2,2):(4,8));
    check!(((2,2),(2,4)):((0,2),(0,4)));
    check!(1:0);
}

#[test]
fn table_6_layouts() {
    check!((5,8):(1,4));
    check!((2,2,4):(0,2,8));
    check!((4,(6,2)):(4,(1,16)));
}

#[test]
fn table_7_layouts() {
    check!(1:32);
    check!(1:40);
    check!((4,8):(1,8));
    check!((2,1):(4,64));
    check!(1:8);
    check!((2,1):(1,16));
}

#[test]
fn print_formats() {
    assert_eq!(layout!(12:1).to_string(), "_12:_1");
    assert_eq!(layout!((4):(1)).to_string(), "(_4):(_1)");
    assert_eq!(layout!((_4,_8):(_1,_4)).to_string(), "(_4,_8):(_1,_4)");
    assert_eq!(layout!((4):(1)).to_dynamic().to_string(), "(4):(1)");
    assert_eq!(tile!(3:3, (2,4):(1,8)).to_string(), "<_3:_3,(_2,_4):(_1,_8)>");
    let t: cute_dynamic::Tiler = "<3:3,(2,4):(1,8)>".parse().unwrap();
    assert_eq!(tile!(3:3, (2,4):(1,8)).to_dynamic(), t);
}

// Static facts, checked by the compiler.
const_assert_eq!(<Layout![(4,8):(1,4)] as StaticLayout>::SIZE, 32);
const_assert_eq!(<Layout![(4,8):(1,4)] as StaticLayout>::COSIZE, 32);
const_assert_eq!(<Layout![(4,8):(8,1)] as StaticLayout>::COSIZE, 32);
const_assert_eq!(<Layout![(4,8):(1,5)] as StaticLayout>::COSIZE, 39);
const_assert_eq!(<Layout![(4,(4,2)):(4,(1,16))] as StaticLayout>::SIZE, 32);
const_assert_eq!(<Layout![(4,(4,2)):(4,(1,16))] as StaticLayout>::COSIZE, 32);
const_assert_eq!(<Layout![((2,2),(4,2)):((1,8),(2,16))] as StaticLayout>::COSIZE, 32);
const_assert_eq!(<Layout![((2,2),(4,2)):((1,8),(2,16))] as StaticLayout>::RANK, 2);
const_assert_eq!(<Layout![((2,2),(4,2)):((1,8),(2,16))] as StaticLayout>::DEPTH, 2);
const_assert_eq!(<Layout![(3,7,5):(5,15,1)] as StaticLayout>::SIZE, 105);
const_assert_eq!(<Layout![(3,7,5):(5,15,1)] as StaticLayout>::COSIZE, 105);
const_assert_eq!(<Layout![((2,2),(2,4)):((0,2),(0,4))] as StaticLayout>::COSIZE, 15);
const_assert_eq!(<Layout![12:1] as StaticLayout>::RANK, 1);
const_assert_eq!(<Layout![12:1] as StaticLayout>::DEPTH, 0);
const_assert_eq!(<Layout![1:0] as StaticLayout>::COSIZE, 1);
// Depth 3, rank 4, values up to 65536: no recursion_limit needed.
const_assert_eq!(
    <Layout![((2,(3,65536)),5,(7,1),65536):((1,(2,6)),393216,(1966080,0),13762560)] as StaticLayout>::DEPTH,
    3
);
const_assert_eq!(
    <Layout![((2,(3,65536)),5,(7,1),65536):((1,(2,6)),393216,(1966080,0),13762560)] as StaticLayout>::SIZE,
    2 * 3 * 65536 * 5 * 7 * 65536
);

#[test]
fn deep_wide_large_layout_indexes() {
    let l = layout!(((2,(3,65536)),5,(7,1),65536):((1,(2,6)),393216,(1966080,0),13762560));
    let d = l.to_dynamic();
    for i in [0usize, 1, 7, 393215, 393216, 1966079, 13762559, 13762560, 999_999_999] {
        assert_eq!(l.index(i) as i64, d.eval(i as i64).unwrap(), "at {i}");
    }
    assert_eq!(l.get::<1>().to_string(), "_5:_393216");
    assert_eq!(l.get::<0>().get::<1>().to_string(), "(_3,_65536):(_2,_6)");
}
