//! `complement` and the products of cute-static layouts with run-time
//! (`Dyn`) leaves in the layout itself (a mixed tile `A`): CuTe's examples
//! with a leaf made run-time (golden), the padded form (`N + 1` run-time
//! leaves for the complement; `A*` so padded in the products),
//! cute-dynamic's errors, and the post-conditions by brute force through
//! `to_dynamic()` on random values of fixed mixed types.

use cute_dynamic::{Layout as DLayout, LayoutError};
use cute_static::prelude::*;
use proptest::prelude::*;

use crate::common::lay as d;
use crate::common::mixed::{ToDyn, agree, fill, padded_form_of, panic_message, same_function, same_values};

// ---------------------------------------------------------- complement

/// CuTe's complement examples with a leaf of the layout run-time.
#[test]
fn complement_of_cute_examples_with_a_run_time_leaf() {
    let r = complement(layout!({4i64}:2), shape!(24));
    assert_eq!(r.to_string(), "(2,3):(1,8)");
    assert_eq!(r.to_dynamic(), cute_dynamic::complement(&d("4:2"), 24).unwrap());
    let r = complement(layout!((2,2):(1,{6i64})), shape!(24));
    assert_eq!(r.to_string(), "(1,3,2):(0,2,12)");
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), d("(3,2):(2,12)"));
    // Both run-time: layout and cotarget.
    let m = 1000usize;
    let r = complement(layout!((4,{m}):(1,8)), shape!({ 64 * m }));
    assert_eq!(r.to_string(), "(1,2,8):(0,4,8000)");
    assert_eq!(try_complement(layout!((4,{m}):(1,8)), Dyn::new(64000)).unwrap(), r);
    // The layout covers the cotarget: CuTe's 1:0 in the padded form.
    let r = complement(layout!({8i64}:1), shape!(8));
    assert_eq!(r.to_string(), "(1,1):(0,0)");
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), cute_dynamic::complement(&d("8:1"), 8).unwrap());
}

/// A run-time leaf in the layout, static strides and a run-time cotarget:
/// CuTe's complement fold, in CuTe C++ 4.2's text, coalesced equal to
/// cute-dynamic's.
#[test]
fn complement_with_a_run_time_cotarget_is_cutes_fold() {
    for (r, a, m, cute) in [
        (complement(layout!(({4i64},8):(1,4)), 64usize).to_string(), "(4,8):(1,4)", 64, "(1,2):(4,_32)"),
        (complement(layout!((4,{8i64}):(1,4)), 64usize).to_string(), "(4,8):(1,4)", 64, "2:32"),
        (complement(layout!(({4i64},8):(1,8)), 128usize).to_string(), "(4,8):(1,8)", 128, "(2,2):(4,_64)"),
        (complement(layout!({4i64}:{2i64}), 64usize).to_string(), "4:2", 64, "(2,8):(_1,8)"),
    ] {
        assert_eq!(r, cute);
        let want = cute_dynamic::complement(&d(a), m).unwrap();
        assert_eq!(cute_dynamic::coalesce(&r.replace('_', "").parse::<DLayout>().unwrap()), want, "{a}, {m}");
    }
    // Where a run-time size of 1 would move the start of the last mode
    // under a static slot (`_2` for the 8 of `(_2,8):(_3,_12)`; CuTe C++
    // prints `(_3,_2,3):(_1,_6,96)` for 200), CuTe's form cannot hold every
    // answer: the padded form.
    let r = complement(layout!((2,{8i64}):(3,12)), 200usize);
    assert_eq!(r.to_string(), "(3,2,3):(1,6,96)");
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), cute_dynamic::complement(&d("(2,8):(3,12)"), 200).unwrap());
    let r = complement(layout!((2,{1i64}):(3,12)), 200usize);
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), cute_dynamic::complement(&d("(2,1):(3,12)"), 200).unwrap());
}

/// Conditions that depend on the run-time leaf: cute-dynamic's error from
/// `try_complement`, its message from `complement`'s panic.
#[test]
fn complement_failures_err_and_panic_as_cute_dynamic() {
    // Not injective (two coordinates meet).
    let a = layout!((4,4):(1,{2i64}));
    let e = try_complement(a, Int::<64>::default()).unwrap_err();
    assert_eq!(e, cute_dynamic::complement(&a.to_dynamic(), 64).unwrap_err());
    assert!(matches!(e, LayoutError::NotInjective { .. }), "{e}");
    assert_eq!(
        panic_message(move || {
            let _ = complement(a, shape!(64));
        }),
        e.to_string()
    );
    // Injective but interleaved.
    let a = layout!((2,2):({3i64},2));
    let e = try_complement(a, Dyn::new(12)).unwrap_err();
    assert_eq!(e, cute_dynamic::complement(&a.to_dynamic(), 12).unwrap_err());
    // A negative stride and a cotarget below 1.
    let a = layout!((2,2):(1,{-2i64}));
    assert_eq!(try_complement(a, Dyn::new(8)).unwrap_err(), cute_dynamic::complement(&a.to_dynamic(), 8).unwrap_err());
    let a = layout!((2,2):(1,{2i64}));
    assert_eq!(try_complement(a, Dyn::new(0)).unwrap_err(), cute_dynamic::complement(&a.to_dynamic(), 0).unwrap_err());
}

// ------------------------------------------------------------ products

/// A mixed tile repeated over a static or run-time grid: `A*` in the padded
/// form, `A* ∘ B` the mixed composition.
#[test]
fn products_of_a_run_time_tile() {
    let m = 2i64;
    let (a, b) = (layout!(({m},2):(1,{m})), layout!((3,4):(1,3)));
    let r = logical_product(a, b);
    let want = cute_dynamic::logical_product(&d("(2,2):(1,2)"), &d("(3,4):(1,3)")).unwrap();
    assert_eq!(want.to_string(), "((2,2),(3,4)):((1,2),(4,12))");
    assert_eq!(r.to_string(), "((2,_2),((1,1,3),(1,1,4))):((_1,2),((0,0,4),(0,0,12)))");
    same_function(&r.to_dynamic(), &want);
    assert_eq!(try_logical_product(a, b).unwrap(), r);
    assert_eq!(zipped_product(a, b).to_string(), r.to_string());
    assert_eq!(tiled_product(a, b).to_string(), "((2,_2),(1,1,3),(1,1,4)):((_1,2),(0,0,4),(0,0,12))");
    assert_eq!(flat_product(a, b).to_string(), "(2,_2,(1,1,3),(1,1,4)):(_1,2,(0,0,4),(0,0,12))");
    // A tile with holes, over a run-time grid: the replicas fill them first.
    let (a, b) = (layout!((2,2):({4i64},1)), layout!({6i64}:1));
    let r = logical_product(a, b);
    same_function(&r.to_dynamic(), &cute_dynamic::logical_product(&d("(2,2):(4,1)"), &d("6:1")).unwrap());
    // cute-dynamic's error when the holes of A hold 3 replicas, not 4.
    let (a, b) = (layout!((2,2):({3i64},10)), layout!(4:1));
    let e = try_logical_product(a, b).unwrap_err();
    assert_eq!(e, cute_dynamic::logical_product(&a.to_dynamic(), &b.to_dynamic()).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = logical_product(a, b);
        }),
        e.to_string()
    );
}

/// A tile with static strides and a run-time size: `A*` is CuTe's
/// complement fold, so the product prints as CuTe C++ prints it (`int` for
/// the run-time leaf); where a run-time size of 1 could make CuTe's static
/// sizes wrong, `A*` is the padded form, the same function.
#[test]
fn products_of_a_tile_with_static_strides() {
    let n = 2i64;
    let a = layout!((4,{n}):(1,8));
    // CuTe's modes, and the leaves static that CuTe's arithmetic finds
    // static through the composition by a two-mode `A*` (as CuTe C++
    // prints them).
    assert_eq!(logical_product(a, layout!(4:1)).to_string(), "((_4,2),(_2,_2)):((_1,_8),(_4,16))");
    assert_eq!(logical_product(a, layout!({6i64}:1)).to_string(), "((_4,2),(2,3)):((_1,_8),(_4,16))");
    // Of run-time size 1, the mode adds nothing: cute-dynamic's function.
    let a1 = layout!((4,{1i64}):(1,8));
    same_function(
        &logical_product(a1, layout!({6i64}:1)).to_dynamic(),
        &cute_dynamic::logical_product(&d("(4,1):(1,8)"), &d("6:1")).unwrap(),
    );
    // 9 is no multiple of 4: CuTe's `_2:_4` would skip offset 8 were the
    // run-time size 1, so `A*` is padded.
    let a = layout!((4,{1i64}):(1,9));
    let r = logical_product(a, layout!({6i64}:1));
    assert_eq!(r.to_string(), "((_4,1),(1,1,6)):((_1,_9),(0,0,4))");
    same_function(&r.to_dynamic(), &cute_dynamic::logical_product(&d("(4,1):(1,9)"), &d("6:1")).unwrap());
}

// ---------------------------------------------------------- properties

/// `complement(a, m)` (type `A`): the shared checker's post-conditions,
/// coalesced equal to cute-dynamic's, or its error.
fn check_complement<A>(a: &DLayout, m: i64) -> Result<(), String>
where
    A: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + Complement<Dyn>,
    <A as Complement<Dyn>>::Output: ComplementValue<A, Dyn> + ToDyn,
{
    let sa = A::try_from(a).map_err(|e| e.to_string())?;
    let got = try_complement(sa, Dyn::new(m)).map(|r| r.to_dyn());
    agree(format_args!("complement({a}, {m})"), got, cute_dynamic::complement(a, m), |r, w| {
        cute_tests::check::complement(a, m, r)?;
        padded_form_of(r, w)
    })
}

/// `logical_product(a, b)` (types `A`, `B`): cute-dynamic's error, or the
/// shared checker's post-conditions and the same function as cute-dynamic's.
fn check_product<A, B>(a: &DLayout, b: &DLayout) -> Result<(), String>
where
    A: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + LogicalProduct<B>,
    <A as LogicalProduct<B>>::Output: LogicalProductValue<A, B> + ToDyn,
    B: for<'x> TryFrom<&'x DLayout, Error = LayoutError>,
{
    let sa = A::try_from(a).map_err(|e| e.to_string())?;
    let sb = B::try_from(b).map_err(|e| e.to_string())?;
    let got = try_logical_product(sa, sb).map(|r| r.to_dyn());
    agree(format_args!("{a} x {b}"), got, cute_dynamic::logical_product(a, b), |r, w| {
        cute_tests::check::logical_product(a, b, r)?;
        same_values(r, w)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random values in layouts of fixed mixed types (gaps, broadcast,
    /// size-1, interleaved, overlapping and negative modes occur) and
    /// random cotargets.
    #[test]
    fn complement_of_mixed_layouts(
        v in prop::collection::vec(prop_oneof![Just(1i64), Just(2), 1i64..=6], 3),
        w in prop::collection::vec(prop_oneof![Just(0i64), Just(1), Just(2), Just(4), Just(-1), 0i64..=24], 3),
        m in -1i64..=400,
    ) {
        let r = (|| {
            check_complement::<Layout![(4,Dyn):(Dyn,1)]>(&fill("(4,{}):({},1)", &[v[0], w[0]]), m)?;
            check_complement::<Layout![(2,(Dyn,2)):(Dyn,(Dyn,8))]>(
                &fill("(2,({},2)):({},({},8))", &[v[1], w[1], w[2]]), m)?;
            check_complement::<Layout![(Dyn,Dyn,Dyn):(Dyn,Dyn,Dyn)]>(
                &fill("({},{},{}):({},{},{})", &[v[0], v[1], v[2], w[0], w[1], w[2]]), m)?;
            check_complement::<Layout![Dyn:Dyn]>(&fill("{}:{}", &[v[2], w[2]]), m)?;
            // Static strides: CuTe's fold where its type holds every answer.
            check_complement::<Layout![(Dyn,8):(1,4)]>(&fill("({},8):(1,4)", &[v[0]]), m)?;
            check_complement::<Layout![(4,Dyn):(1,8)]>(&fill("(4,{}):(1,8)", &[v[1]]), m)?;
            check_complement::<Layout![Dyn:8]>(&fill("{}:8", &[v[2]]), m)?;
            check_complement::<Layout![(2,Dyn,Dyn):(3,12,7)]>(&fill("(2,{},{}):(3,12,7)", &[v[0], v[1]]), m)?;
            check_complement::<Layout![(Dyn,2,Dyn):(1,12,4)]>(&fill("({},2,{}):(1,12,4)", &[v[1], v[2]]), m)?;
            Ok::<(), String>(())
        })();
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    /// Mixed tiles by static and run-time grids.
    #[test]
    fn products_of_mixed_tiles(
        v in prop::collection::vec(prop_oneof![Just(1i64), Just(2), 1i64..=4], 4),
        w in prop::collection::vec(prop_oneof![Just(0i64), Just(1), Just(2), Just(4), 0i64..=12], 4),
    ) {
        let r = (|| {
            check_product::<Layout![(Dyn,2):(1,Dyn)], Layout![(3,2):(1,3)]>(
                &fill("({},2):(1,{})", &[v[0], w[0]]), &d("(3,2):(1,3)"))?;
            check_product::<Layout![(2,Dyn):(Dyn,1)], Layout![(Dyn,Dyn):(Dyn,Dyn)]>(
                &fill("(2,{}):({},1)", &[v[1], w[1]]), &fill("({},{}):({},{})", &[v[2], v[3], w[2], w[3]]))?;
            check_product::<Layout![Dyn:Dyn], Layout![Dyn:Dyn]>(
                &fill("{}:{}", &[v[0], w[3]]), &fill("{}:{}", &[v[1], w[1]]))?;
            // Static strides, run-time sizes: CuTe's complement fold (floor
            // divisions that leave gaps, run-time sizes of 1 anywhere in the
            // order, static modes between run-time ones).
            check_product::<Layout![(Dyn,Dyn):(1,6)], Layout![(Dyn,2):(1,Dyn)]>(
                &fill("({},{}):(1,6)", &[v[0], v[1]]), &fill("({},2):(1,{})", &[v[2], w[2]]))?;
            check_product::<Layout![(Dyn,2,Dyn):(4,1,12)], Layout![3:1]>(
                &fill("({},2,{}):(4,1,12)", &[v[2], v[3]]), &d("3:1"))?;
            check_product::<Layout![(Dyn,(3,Dyn)):(3,(1,9))], Layout![Dyn:Dyn]>(
                &fill("({},(3,{})):(3,(1,9))", &[v[1], v[3]]), &fill("{}:{}", &[v[0], w[0]]))?;
            check_product::<Layout![(Dyn,Dyn):(2,2)], Layout![2:1]>(&fill("({},{}):(2,2)", &[v[0], v[3]]), &d("2:1"))?;
            check_product::<Layout![Dyn:4], Layout![Dyn:1]>(&fill("{}:4", &[v[2]]), &fill("{}:1", &[v[3]]))?;
            // A run-time size that could be 1 where CuTe's fold gives it a
            // static size: padded (a mode before the last, or a last whose
            // stride the extent does not divide), or CuTe's fold.
            check_product::<Layout![(Dyn,Dyn):(3,4)], Layout![Dyn:1]>(
                &fill("({},{}):(3,4)", &[v[0], v[1]]), &fill("{}:1", &[v[2]]))?;
            check_product::<Layout![(4,Dyn):(1,9)], Layout![Dyn:1]>(&fill("(4,{}):(1,9)", &[v[0]]), &fill("{}:1", &[v[2]]))?;
            check_product::<Layout![(4,Dyn):(1,8)], Layout![Dyn:1]>(&fill("(4,{}):(1,8)", &[v[0]]), &fill("{}:1", &[v[2]]))?;
            check_product::<Layout![(4,Dyn,Dyn):(1,6,24)], Layout![Dyn:1]>(
                &fill("(4,{},{}):(1,6,24)", &[v[0], v[1]]), &fill("{}:1", &[v[2]]))?;
            check_product::<Layout![(4,Dyn,Dyn):(1,4,16)], Layout![Dyn:1]>(
                &fill("(4,{},{}):(1,4,16)", &[v[0], v[1]]), &fill("{}:1", &[v[2]]))?;
            Ok::<(), String>(())
        })();
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

// ------------------------------------------------------ blocked / raked

/// CuTe's blocked and raked examples with a leaf of either argument
/// run-time: the same function as cute-dynamic's, mode by mode, and the
/// text CuTe C++ prints for them (`int` for the run-time leaf).
#[test]
fn blocked_and_raked_products_with_a_run_time_leaf() {
    let (a, b) = (layout!((2,{5i64}):(5,1)), layout!((3,4):(1,3)));
    let want = cute_dynamic::blocked_product(&a.to_dynamic(), &b.to_dynamic()).unwrap();
    assert_eq!(want.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    let r = blocked_product(a, b);
    assert_eq!(r.to_string(), "((_2,(1,3)),(5,(1,4))):((_5,(5,10)),(_1,(15,30)))");
    for k in 0..2 {
        same_function(&r.to_dynamic().get(k).unwrap(), &want.get(k).unwrap());
    }
    assert_eq!(try_blocked_product(a, b).unwrap(), r);
    let want = cute_dynamic::raked_product(&a.to_dynamic(), &b.to_dynamic()).unwrap();
    let r = raked_product(a, b);
    assert_eq!(r.to_string(), "(((1,3),_2),((1,4),5)):(((5,10),_5),((15,30),_1))");
    for k in 0..2 {
        same_function(&r.to_dynamic().get(k).unwrap(), &want.get(k).unwrap());
    }
    // Ranks padded with 1:0, a run-time grid.
    let (a, b) = (layout!((2,2):(1,2)), layout!(({3i64}):(1)));
    let r = blocked_product(a, b).to_dynamic();
    let want = cute_dynamic::blocked_product(&a.to_dynamic(), &b.to_dynamic()).unwrap();
    same_function(&r, &want);
    // cute-dynamic's error, from try_ and as the panic's message.
    let (a, b) = (layout!((2,2):({3i64},10)), layout!(4:1));
    let e = try_raked_product(a, b).unwrap_err();
    assert_eq!(e, cute_dynamic::raked_product(&a.to_dynamic(), &b.to_dynamic()).unwrap_err());
    assert_eq!(
        panic_message(move || {
            let _ = raked_product(a, b);
        }),
        e.to_string()
    );
    // All-static: unchanged, zero-sized.
    let s = blocked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    assert_eq!(s.to_string(), "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))");
    assert_eq!(size_of_val(&s), 0);
}

/// `blocked_product` and `raked_product` of `a` by `b` (types `A`, `B`):
/// cute-dynamic's error, or the shared checker's post-conditions and the
/// same function as cute-dynamic's mode by mode.
fn check_rank_products<A, B>(a: &DLayout, b: &DLayout) -> Result<(), String>
where
    A: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + BlockedProduct<B> + RakedProduct<B> + Copy,
    B: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + Copy,
    <A as BlockedProduct<B>>::Output: BlockedProductValue<A, B> + ToDyn,
    <A as RakedProduct<B>>::Output: RakedProductValue<A, B> + ToDyn,
{
    let sa = A::try_from(a).map_err(|e| e.to_string())?;
    let sb = B::try_from(b).map_err(|e| e.to_string())?;
    let pairs = [
        (try_blocked_product(sa, sb).map(|r| r.to_dyn()), cute_dynamic::blocked_product(a, b), true),
        (try_raked_product(sa, sb).map(|r| r.to_dyn()), cute_dynamic::raked_product(a, b), false),
    ];
    for (got, want, blocked) in pairs {
        agree(format_args!("{a} x {b}"), got, want, |r, w| {
            cute_tests::check::rank_product(a, b, blocked, r)?;
            if r.rank() != w.rank() {
                return Err(format!("ranks {} and {}", r.rank(), w.rank()));
            }
            r.modes_iter().zip(w.modes_iter()).try_for_each(|(rk, wk)| same_values(&rk, &wk))
        })?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Mixed tiles by static and run-time grids, blocked and raked.
    #[test]
    fn blocked_and_raked_products_of_mixed_layouts(
        v in prop::collection::vec(prop_oneof![Just(1i64), Just(2), 1i64..=4], 4),
        w in prop::collection::vec(prop_oneof![Just(0i64), Just(1), Just(2), Just(4), 0i64..=12], 4),
    ) {
        let r = (|| {
            check_rank_products::<Layout![(Dyn,2):(1,Dyn)], Layout![(3,2):(1,3)]>(
                &fill("({},2):(1,{})", &[v[0], w[0]]), &d("(3,2):(1,3)"))?;
            check_rank_products::<Layout![(2,2):(1,2)], Layout![(Dyn,Dyn):(Dyn,Dyn)]>(
                &d("(2,2):(1,2)"), &fill("({},{}):({},{})", &[v[2], v[3], w[2], w[3]]))?;
            check_rank_products::<Layout![(Dyn,Dyn):(Dyn,Dyn)], Layout![(Dyn):(Dyn)]>(
                &fill("({},{}):({},{})", &[v[0], v[1], w[0], w[1]]), &fill("({}):({})", &[v[2], w[3]]))?;
            Ok::<(), String>(())
        })();
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}
