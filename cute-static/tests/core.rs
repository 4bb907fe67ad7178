//! Core behaviour of static layouts: printing, facts, indexing.

use cute_static::prelude::*;

#[test]
fn literal_coordinates_infer_usize() {
    let l = layout!((4,8):(8,1));
    assert_eq!(l.index((2, 1)), 17);
    assert_eq!(l.index(9), l.index((1, 2)));
}

#[test]
fn display_formats() {
    assert_eq!(layout!(12:1).to_string(), "_12:_1");
    assert_eq!(layout!((4):(1)).to_string(), "(_4):(_1)");
    assert_eq!(layout!((_4,_8):(_1,_4)).to_string(), "(_4,_8):(_1,_4)");
    assert_eq!(layout!((5,(2,2)):(16,(80,4))).to_string(), "(_5,(_2,_2)):(_16,(_80,_4))");
    assert_eq!(layout!(65536:0).to_string(), "_65536:_0");
    assert_eq!(layout!(3000:70000).to_string(), "_3000:_70000");
}

#[test]
fn nested_tilers() {
    assert_eq!(tile!(<2:1, 2:1>, 6:1).to_string(), "<<_2:_1,_2:_1>,_6:_1>");
    assert_eq!(tile!((2:1, 3:2), 6).to_string(), "<<_2:_1,_3:_2>,_6:_1>");
    assert_eq!(tile!((2, 4), 3:3).to_string(), "<<_2:_1,_4:_1>,_3:_3>");
    assert_eq!(tile!((2,4):(1,8)).to_string(), "<(_2,_4):(_1,_8)>");
    let d: cute_dynamic::Tiler = "<<2:1,3:2>,6:1>".parse().unwrap();
    assert_eq!(tile!(<2:1, 3:2>, 6).to_dynamic(), d);
}
