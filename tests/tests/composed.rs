//! Composed layouts `A o O o B` (CuTe's `ComposedLayout` with a swizzle):
//! CuTe's printing, evaluation as the function composition (brute force),
//! slicing, and divide/product acting on the inner layout.

use cute_dynamic::{
    AnySwizzle, BitFieldXor, ComposedLayout, IntTuple, Layout, SliceCoord, Swizzle, Value, eval, logical_divide,
    logical_product, print_composed_layout, zipped_divide,
};
use proptest::prelude::*;

fn layout(s: &str) -> Layout {
    s.parse().unwrap()
}

#[test]
fn composition_of_a_swizzle_and_a_layout_prints_as_cute() {
    let c = ComposedLayout::compose(Swizzle::new(3, 4, 3).unwrap(), &layout("(8,64):(64,1)"));
    assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
    assert_eq!(eval("composition(Sw<3,4,3>, (8,64):(64,1))").unwrap().to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
    // The domain is the inner layout's.
    assert_eq!(c.shape().to_string(), "(8,64)");
    assert_eq!((c.size(), c.cosize(), c.rank(), c.depth()), (512, 512, 2, 1));
    for (expr, value) in [
        ("size(composition(Sw<3,4,3>, (8,64):(64,1)))", "512"),
        ("cosize(composition(Sw<3,4,3>, (8,64):(64,1)))", "512"),
        ("shape(composition(Sw<3,4,3>, (8,64):(64,1)))", "(8,64)"),
        ("rank(composition(Sw<3,4,3>, (8,64):(64,1)))", "2"),
        // Row 2, element 0: offset 0x80 swizzles to 0x90.
        ("eval(composition(Sw<3,4,3>, (8,64):(64,1)), (2,0))", "144"),
        ("eval(composition(BitFieldXor<3,4,3>, 8:8), 3)", "40"),
        ("get(composition(Sw<3,4,3>, (8,64):(64,1)), 1)", "Sw<3,4,3> o 0 o 64:1"),
    ] {
        assert_eq!(eval(expr).unwrap().to_string(), value, "{expr}");
    }
    // As in CuTe, a swizzle of no bits leaves the layout as it is.
    assert!(matches!(eval("composition(Sw<0,4,3>, (8,64):(64,1))").unwrap(), Value::Layout(_)));
    // A composed layout has no stride (CuTe deletes it).
    assert!(eval("stride(composition(Sw<3,4,3>, 8:1))").unwrap_err().to_string().contains("unsupported"));
}

#[test]
fn slicing_moves_the_fixed_offset_into_the_composed_offset() {
    let text = "slice(composition(Sw<3,4,3>, (8,64):(64,1)), (3,_))";
    assert_eq!(eval(text).unwrap().to_string(), "Sw<3,4,3> o 192 o 64:1");
    let c = ComposedLayout::compose(Swizzle::new(3, 4, 3).unwrap(), &layout("(8,64):(64,1)"));
    for r in 0..8 {
        let row = c.slice(&format!("({r},_)").parse().unwrap()).unwrap();
        for k in 0..64 {
            let coord: IntTuple = format!("({r},{k})").parse().unwrap();
            assert_eq!(row.eval(k).unwrap(), c.eval_coord(&coord).unwrap());
        }
    }
}

#[test]
fn divide_and_product_act_on_the_inner_layout() {
    let inner = layout("(8,64):(64,1)");
    let c = ComposedLayout::compose(Swizzle::new(3, 4, 3).unwrap(), &inner);
    let t: Layout = layout("8:1");
    let d = c.zipped_divide(&t).unwrap();
    assert_eq!(d.inner(), &zipped_divide(&inner, &t).unwrap());
    assert_eq!(d.outer(), c.outer());
    assert_eq!(
        eval("logical_divide(composition(Sw<3,4,3>, (8,64):(64,1)), <2,8>)").unwrap().to_string(),
        format!(
            "Sw<3,4,3> o 0 o {}",
            logical_divide(&inner, &"<2,8>".parse::<cute_dynamic::Tiler>().unwrap()).unwrap()
        )
    );
    assert_eq!(
        eval("logical_product(composition(Sw<1,0,1>, (2,2):(2,1)), 3:1)").unwrap().to_string(),
        format!("Sw<1,0,1> o 0 o {}", logical_product(&layout("(2,2):(2,1)"), &layout("3:1")).unwrap())
    );
    // complement is the inner layout's, as in CuTe.
    assert_eq!(eval("complement(composition(Sw<1,0,1>, 4:2), 16)").unwrap().to_string(), "(2,2):(1,8)");
}

#[test]
fn print_composed_layout_draws_the_swizzled_grid() {
    // Sw<3,4,3> on 8 rows of 128 bytes in 16-byte units: (8,8):(8,1)
    // offsets in units of 16 bytes need Sw<3,0,3>; the chunk of row r,
    // column c is c ^ r.
    let c = ComposedLayout::compose(Swizzle::new(3, 0, 3).unwrap(), &layout("(8,8):(8,1)"));
    let g = print_composed_layout(&c).unwrap();
    let lines: Vec<&str> = g.lines().collect();
    assert_eq!(lines[0], "Sw<3,0,3> o 0 o (8,8):(8,1)");
    assert_eq!(lines[1], "       0    1    2    3    4    5    6    7 ");
    assert_eq!(lines[2], format!("    {}+", "+----".repeat(8)));
    for r in 0..8 {
        let cells: String = (0..8).map(|col| format!("| {:>2} ", r * 8 + (col ^ r))).collect();
        assert_eq!(lines[3 + 2 * r as usize], format!("{r:>2}  {cells}|"));
    }
    assert_eq!(lines.len(), 3 + 16);
}

/// A small layout: 1 to 3 modes, each a leaf or a pair, extents 1..=4,
/// strides 0..=16.
fn small_layout() -> impl Strategy<Value = Layout> {
    let leaf = (1i64..=4, 0i64..=16);
    let mode = prop_oneof![
        leaf.clone().prop_map(|(s, d)| (IntTuple::int(s), IntTuple::int(d))),
        (leaf.clone(), leaf).prop_map(|((s0, d0), (s1, d1))| (IntTuple::flat([s0, s1]), IntTuple::flat([d0, d1]))),
    ];
    proptest::collection::vec(mode, 1..=3).prop_map(|modes| {
        let shape = IntTuple::tuple(modes.iter().map(|m| m.0.clone()));
        let stride = IntTuple::tuple(modes.iter().map(|m| m.1.clone()));
        Layout::new(shape, stride).unwrap()
    })
}

fn any_swizzle() -> impl Strategy<Value = AnySwizzle> {
    prop_oneof![
        (0i64..4, 0i64..4, 0i64..4, any::<bool>()).prop_filter_map("valid", |(b, m, e, neg)| {
            let s = b + e;
            Swizzle::new(b, m, if neg { -s } else { s }).ok().map(AnySwizzle::Cute)
        }),
        (0i64..4, 0i64..6, 0i64..6)
            .prop_filter_map("valid", |(b, m, s)| BitFieldXor::new(b, m, s).ok().map(AnySwizzle::BitFieldXor)),
    ]
}

proptest! {
    #[test]
    fn composition_with_a_swizzle_is_the_function_composition(sw in any_swizzle(), l in small_layout(), off in 0i64..64) {
        let c = ComposedLayout::new(sw, off, l.clone());
        prop_assert_eq!(c.size(), l.size());
        for i in 0..l.size() {
            prop_assert_eq!(c.eval(i).unwrap(), sw.apply(off + l.eval(i).unwrap()));
        }
        // The evaluator builds the same thing (offset 0).
        if !matches!(sw, AnySwizzle::Cute(s) if s.bits() == 0) {
            let v = eval(&format!("composition({sw}, {l})")).unwrap();
            prop_assert_eq!(v, Value::Composed(ComposedLayout::compose(sw, &l)));
        }
    }

    #[test]
    fn slicing_a_composed_layout_agrees_with_evaluating_it(sw in any_swizzle(), l in small_layout(), pick in any::<u64>()) {
        // Fix mode 0 at a coordinate, leave the rest free.
        let c = ComposedLayout::compose(sw, &l);
        let m0 = l.get(0).unwrap().size();
        let fixed = (pick % m0 as u64) as i64;
        let rest = (1..l.rank()).map(|_| "_").collect::<Vec<_>>();
        let coord: SliceCoord = if rest.is_empty() { format!("({fixed})") } else { format!("({fixed},{})", rest.join(",")) }.parse().unwrap();
        let s = c.slice(&coord).unwrap();
        // The sliced layout's k-th element is the element at mode-0 index
        // `fixed` and index k of the remaining modes.
        for k in 0..s.size() {
            prop_assert_eq!(s.eval(k).unwrap(), c.eval(fixed + m0 * k).unwrap());
        }
    }

    #[test]
    fn divide_of_a_composed_layout_is_the_swizzled_divide(sw in any_swizzle(), l in small_layout(), t in 1i64..=4) {
        let c = ComposedLayout::compose(sw, &l);
        let tile = Layout::scalar(t, 1).unwrap();
        match (c.logical_divide(&tile), logical_divide(&l, &tile)) {
            (Ok(cd), Ok(d)) => {
                prop_assert_eq!(cd.inner(), &d);
                for i in 0..d.size() {
                    prop_assert_eq!(cd.eval(i).unwrap(), sw.apply(d.eval(i).unwrap()));
                }
            }
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b),
        }
    }
}

/// The composed-layout algebra's cases of CuTe's own unit tests
/// (`test/unit/cute/core/composition.cpp`, `inverse_left.cpp`,
/// `inverse_right.cpp`), with the text CuTe prints for each.
#[test]
fn the_composed_layout_algebra_prints_as_cute() {
    for (expr, cute) in [
        ("composition((8,8):(8,1), composition(Sw<2,0,-3>, (8,8):(8,1)))", "Sw<2,0,3> o 0 o (8,8):(1,8)"),
        (
            "composition(composition(Sw<2,0,3>, (8,8):(8,1)), composition(Sw<2,0,-3>, (8,8):(8,1)))",
            "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)",
        ),
        ("left_inverse(composition(Sw<1,0,2>, (4,4):(1,4)))", "Sw<1,0,2> o 0 o 16:1"),
        ("left_inverse(composition(Sw<1,0,2>, (4,4):(4,1)))", "Sw<1,0,-2> o 0 o (4,4):(4,1)"),
        ("left_inverse(composition(Sw<1,0,1>, (4,4):(8,1)))", "Sw<1,2,1> o 0 o (8,4):(4,1)"),
        ("right_inverse(composition(Sw<1,0,1>, (4,4):(8,1)))", "Sw<1,2,1> o 0 o 4:4"),
        ("composition((8,8):(8,1), Sw<2,0,-3>)", "Sw<2,0,3> o 0 o (8,8):(8,1)"),
        ("composition(Sw<3,4,3>, composition(Sw<1,0,1>, (4,4):(8,1)))", "Sw<3,4,3> o 0 o Sw<1,0,1> o 0 o (4,4):(8,1)"),
    ] {
        assert_eq!(eval(expr).unwrap().to_string(), cute, "{expr}");
    }
    // The two swizzles of the nested case cancel: the function is (8,8):(1,8).
    let Value::Composed(c) =
        eval("composition(composition(Sw<2,0,3>, (8,8):(8,1)), composition(Sw<2,0,-3>, (8,8):(8,1)))").unwrap()
    else {
        panic!("a composed layout")
    };
    let t = layout("(8,8):(1,8)");
    assert!((0..64).all(|i| c.eval(i).unwrap() == t.eval(i).unwrap()));
    // The left inverses of these injective layouts are exact inverses too.
    for l in ["composition(Sw<1,0,2>, (4,4):(1,4))", "composition(Sw<1,0,2>, (4,4):(4,1))"] {
        let (Value::Composed(c), Value::Composed(r)) = (eval(l).unwrap(), eval(&format!("left_inverse({l})")).unwrap())
        else {
            panic!("composed layouts")
        };
        assert!((0..c.size()).all(|k| r.eval(c.eval(k).unwrap()).unwrap() == k), "{l}");
    }
}

#[test]
fn composed_algebra_refuses_what_it_cannot_answer_exactly() {
    // A swizzle whose masks the layout scatters: no Sw<B,M,S> reads and writes them.
    let e = eval("left_inverse(composition(Sw<3,4,3>, (8,64):(64,1)))").unwrap_err().to_string();
    assert!(e.contains("is not a layout") && e.contains("does not pass through"), "{e}");
    // An offset inside the composed layout on the right (CuTe requires 0).
    let e = eval("composition(8:1, slice(composition(Sw<1,0,1>, (4,4):(4,1)), (1,_)))").unwrap_err().to_string();
    assert!(e.contains("offset 4"), "{e}");
    // The bit-field XOR of the CuTe dialect's descriptor grammar does not pass through a layout.
    let e = eval("composition(8:1, composition(BitFieldXor<1,0,2>, 8:1))").unwrap_err().to_string();
    assert!(e.contains("unsupported"), "{e}");
}

/// Runs `f` on every pair of a small Cute swizzle and a small layout, and
/// returns how many answers it gave (each checked by `f` itself).
fn count_answers(mut f: impl FnMut(Swizzle, &Layout) -> bool) -> usize {
    let layouts =
        ["(4,4):(1,4)", "(4,4):(4,1)", "(4,4):(8,1)", "(8,8):(8,1)", "(2,4,2):(8,1,4)", "16:1", "(8,4):(1,16)"];
    let mut n = 0;
    for b in 1..=2 {
        for m in 0..=2 {
            for s in [-3i64, -2, -1, 1, 2, 3] {
                let Ok(sw) = Swizzle::new(b, m, s) else { continue };
                n += layouts.iter().filter(|l| f(sw, &layout(l))).count();
            }
        }
    }
    n
}

#[test]
fn inverses_of_composed_layouts_meet_their_equations() {
    let answered = count_answers(|sw, b| {
        let c = ComposedLayout::compose(sw, b);
        let mut ok = false;
        if let Ok(r) = c.left_inverse() {
            // Paper eq. (26): C(R(C(k))) = C(k).
            for k in 0..c.size() {
                let y = c.eval(k).unwrap();
                assert_eq!(c.eval(r.eval(y).unwrap()).unwrap(), y, "left_inverse({c}) = {r} at {k}");
            }
            ok = true;
        }
        if let Ok(r) = c.right_inverse() {
            for i in 0..r.size() {
                assert_eq!(c.eval(r.eval(i).unwrap()).unwrap(), i, "right_inverse({c}) = {r} at {i}");
            }
        }
        ok
    });
    // Most of these swizzles pass through the inverses (the check is not vacuous).
    assert!(answered >= 100, "only {answered} left inverses answered");
}

#[test]
fn compositions_with_composed_layouts_are_function_compositions() {
    let lefts = ["(8,8):(8,1)", "(4,4):(4,1)", "64:1", "(8,8):(1,8)", "(2,2,2,2):(8,4,2,1)"];
    let answered = count_answers(|sw, b| {
        let d = ComposedLayout::compose(sw, b);
        let mut n = 0;
        for a in lefts.map(layout) {
            let Ok(r) = cute_dynamic::composition_with_composed(&a, &d) else { continue };
            assert_eq!(r.shape(), cute_dynamic::composition(&a, b).unwrap().shape());
            for c in 0..d.size() {
                assert_eq!(r.eval(c).unwrap(), a.eval_extended(d.eval(c).unwrap()).unwrap(), "{a} o {d} = {r} at {c}");
            }
            // With a composed layout on the left too, the chain grows by its stages.
            let sw2 = Swizzle::new(1, 5, 1).unwrap();
            let rr = ComposedLayout::compose(sw2, &a).composition_with_composed(&d).unwrap();
            assert_eq!(rr.stages().len(), 2);
            for c in 0..d.size() {
                assert_eq!(rr.eval(c).unwrap(), sw2.apply(a.eval_extended(d.eval(c).unwrap()).unwrap()));
            }
            n += 1;
        }
        n > 0
    });
    assert!(answered >= 100, "only {answered} compositions answered");
}

fn cute_swizzle() -> impl Strategy<Value = Swizzle> {
    (1i64..3, 0i64..3, 0i64..3, any::<bool>())
        .prop_filter_map("valid", |(b, m, e, neg)| Swizzle::new(b, m, if neg { -(b + e) } else { b + e }).ok())
}

proptest! {
    /// Whatever the composed-layout algebra answers is the function it
    /// stands for: `A ∘ D` evaluates as `A(D(c))`, and the inverses meet
    /// their equations (refusals are allowed; wrong answers are not).
    #[test]
    fn composed_algebra_answers_are_exact(sw in cute_swizzle(), a in small_layout(), b in small_layout()) {
        let d = ComposedLayout::compose(sw, &b);
        if let Ok(r) = cute_dynamic::composition_with_composed(&a, &d) {
            for c in 0..d.size() {
                prop_assert_eq!(r.eval(c).unwrap(), a.eval_extended(d.eval(c).unwrap()).unwrap());
            }
        }
        if let Ok(r) = cute_dynamic::composition_with_swizzle(&a, sw) {
            for i in 0..a.size() {
                prop_assert_eq!(r.eval(i).unwrap(), a.eval_extended(sw.apply(i)).unwrap());
            }
        }
        if let Ok(r) = d.left_inverse() {
            for k in 0..d.size() {
                let y = d.eval(k).unwrap();
                prop_assert_eq!(d.eval(r.eval(y).unwrap()).unwrap(), y);
            }
        }
        if let Ok(r) = d.right_inverse() {
            for i in 0..r.size() {
                prop_assert_eq!(d.eval(r.eval(i).unwrap()).unwrap(), i);
            }
        }
    }
}

/// A composed layout's offset is an integer (CuTe's static marker `_0` is
/// read too); a lone `_`, the free-mode marker of a coordinate, is not one
/// (the grammar fuzz target read it as the offset i64::MIN, which printed
/// and did not read back).
#[test]
fn a_composed_layouts_offset_is_an_integer() {
    assert!(eval("Sw<1,0,-2> o _ o 8:0").unwrap_err().to_string().contains("expected an integer"));
    for text in ["Sw<1,0,-2> o _3 o 8:0", "Sw<1,0,-2> o -9223372036854775808 o 8:0"] {
        let v = eval(text).unwrap();
        assert_eq!(eval(&v.to_string()).unwrap(), v, "{text}");
    }
}

/// `(2,2,2,2,2,2):(1,2,4,8,16,32)` with 40 size-1 modes between each pair of
/// its modes (strides 3, which never matter): a layout whose leaves are
/// mostly size 1, as tilers and products leave them.
fn padded_with_unit_modes() -> Layout {
    let filler = vec!["1"; 40].join(",");
    let strides = vec!["3"; 40].join(",");
    let shape = (0..6).map(|_| "2").collect::<Vec<_>>().join(&format!(",{filler},"));
    let stride = (0..6).map(|k| (1 << k).to_string()).collect::<Vec<_>>().join(&format!(",{strides},"));
    layout(&format!("({shape}):({stride})"))
}

/// The inverses and compositions of a composed layout check their answer
/// point by point on the coalesced layouts: with an inner layout of many
/// size-1 modes, each answer is the same function as for the coalesced
/// inner layout, and meets its post-condition at every point.
#[test]
fn composed_answers_over_many_unit_modes_are_those_of_the_coalesced_layout() {
    let l = padded_with_unit_modes();
    let c = cute_dynamic::coalesce(&l);
    assert_eq!(c.to_string(), "64:1");
    let sw = Swizzle::new(2, 0, 3).unwrap();
    let (cl, cc) = (ComposedLayout::compose(sw, &l), ComposedLayout::compose(sw, &c));
    let (li, lc) = (cl.left_inverse().unwrap(), cc.left_inverse().unwrap());
    let (ri, rc) = (cl.right_inverse().unwrap(), cc.right_inverse().unwrap());
    for k in 0..64 {
        assert_eq!(li.eval(cl.eval(k).unwrap()).unwrap(), k);
        assert_eq!(li.eval(k).unwrap(), lc.eval(k).unwrap());
        assert_eq!(cl.eval(ri.eval(k).unwrap()).unwrap(), k);
        assert_eq!(ri.eval(k).unwrap(), rc.eval(k).unwrap());
    }
    let (wl, wc) = (
        cute_dynamic::composition_with_swizzle(&l, sw).unwrap(),
        cute_dynamic::composition_with_swizzle(&c, sw).unwrap(),
    );
    let (dl, dc) = (
        cute_dynamic::composition_with_composed(&l, &cc).unwrap(),
        cute_dynamic::composition_with_composed(&c, &cl).unwrap(),
    );
    for k in 0..64 {
        assert_eq!(wl.eval(k).unwrap(), l.eval_extended(sw.apply(k)).unwrap());
        assert_eq!(wl.eval(k).unwrap(), wc.eval(k).unwrap());
        assert_eq!(dl.eval(k).unwrap(), l.eval_extended(cc.eval(k).unwrap()).unwrap());
        assert_eq!(dl.eval(k).unwrap(), dc.eval(k).unwrap());
    }
}
