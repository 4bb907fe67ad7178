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
