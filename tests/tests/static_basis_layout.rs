//! cute-static's identity layouts (static basis strides) against
//! cute-dynamic's `make_identity_layout`: the same text once the static
//! markers `_` are removed, `to_dynamic()` equal, and `index(i)` the
//! coordinate cute-dynamic's `eval(i)` gives, for every `i` of the domain.

use cute_static::prelude::*;

fn agree<S: cute_static::IdentityShape>(id: IdentityLayout<S>, shape: &str) {
    let dy = cute_dynamic::eval(&format!("make_identity_layout({shape})")).unwrap().to_string();
    assert_eq!(id.to_string().replace('_', ""), dy, "{shape}: display");
    let dl = cute_dynamic::make_identity_layout(&shape.parse().unwrap()).unwrap();
    assert_eq!(id.to_dynamic(), dl, "{shape}: to_dynamic");
    assert_eq!(core::mem::size_of_val(&id), 0, "{shape}: zero-sized");
    assert_eq!(IdentityLayout::<S>::SIZE as i64, dl.size(), "{shape}: size");
    for i in 0..IdentityLayout::<S>::SIZE {
        let c = id.index(i);
        assert_eq!(IdentityLayout::<S>::coord_to_dynamic(&c), dl.eval(i as i64).unwrap(), "{shape} at {i}");
    }
}

#[test]
fn identity_layouts_print_as_cute() {
    assert_eq!(make_identity_layout(shape!(4, 8)).to_string(), "(_4,_8):(_1@0,_1@1)");
    assert_eq!(make_identity_layout(shape!(2, (3, 4))).to_string(), "(_2,(_3,_4)):(_1@0,(_1@0@1,_1@1@1))");
    assert_eq!(make_identity_layout(shape!(4)).to_string(), "_4:_1@0");
    assert_eq!(
        make_identity_layout(shape!(((2, 3), 2), 5)).to_string(),
        "(((_2,_3),_2),_5):(((_1@0@0@0,_1@1@0@0),_1@1@0),_1@1)"
    );
}

#[test]
fn identity_layouts_map_each_coordinate_to_itself() {
    let id = make_identity_layout(shape!(4, 8));
    for j in 0..8 {
        for i in 0..4 {
            assert_eq!(id.index(i + 4 * j), (i, j));
        }
    }
    let id = make_identity_layout(shape!(2, (3, 4)));
    assert_eq!(id.index(23), (1, (2, 3)));
    // Past the size, the coordinate of i % size.
    assert_eq!(id.index(24 + 7), id.index(7));
}

#[test]
fn identity_layouts_agree_with_cute_dynamic() {
    agree(make_identity_layout(shape!(4, 8)), "(4,8)");
    agree(make_identity_layout(shape!(2, (3, 4))), "(2,(3,4))");
    agree(make_identity_layout(shape!(7)), "7");
    agree(make_identity_layout(shape!((2, 3), 4)), "((2,3),4)");
    agree(make_identity_layout(shape!(1, (2, 1), 3)), "(1,(2,1),3)");
    agree(make_identity_layout(shape!((2, 2), (2, (3, 2)))), "((2,2),(2,(3,2)))");
    agree(make_identity_layout(shape!(((2, 3), 2), 5)), "(((2,3),2),5)");
    agree(make_identity_layout(shape!(3, 1, 2, 2, 1, 3)), "(3,1,2,2,1,3)");
    agree(make_identity_layout(shape!((5))), "(5)");
    agree(make_identity_layout(shape!(2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)), "(2,2,2,2,2,2,2,2,2,2,2,2)");
}
