//! `right_inverse` and `left_inverse` of cute-static layouts with run-time
//! (`Dyn`) leaves: CuTe's examples with a leaf made run-time (golden), CuTe's
//! form where it is taken (CuTe C++'s text), the padded form (a flat layout
//! of run-time leaves, the coalesced answer at its end) elsewhere,
//! cute-dynamic's errors, and the post-conditions by brute force through
//! `to_dynamic()` on random values of fixed mixed types.

use cute_dynamic::{Layout as DLayout, LayoutError};
use cute_static::prelude::*;
use proptest::prelude::*;

use crate::common::lay as d;
use crate::common::mixed::{ToDyn, agree, fill, padded_form_of, panic_message};

// ------------------------------------------------------------ golden

/// The paper's and CuTe's right inverses, each with one leaf run-time: the
/// padded form of `N` run-time leaves, coalesced equal to cute-dynamic's.
#[test]
fn right_inverse_of_cute_examples_with_a_run_time_leaf() {
    let m = 8usize;
    let r = right_inverse(layout!((4,{m}):(8,1)));
    assert_eq!(r.to_string(), "(8,4):(4,1)");
    assert_eq!(r.to_dynamic(), cute_dynamic::right_inverse(&d("(4,8):(8,1)")));
    let r = right_inverse(layout!((4,8):({m},1)));
    assert_eq!(r.to_string(), "(8,4):(4,1)");
    // Only 4:1 continues the run: a 1:0 mode in front.
    let r = right_inverse(layout!((4,8):(1,{5i64})));
    assert_eq!(r.to_string(), "(1,4):(0,1)");
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), d("4:1"));
    // Nothing reaches offset 1, whatever the run-time leaf: CuTe's `_1:_0`.
    let r = right_inverse(layout!((2,{3i64}):(2,4)));
    assert_eq!(r.to_string(), "_1:_0");
    // Static strides, the run takes every mode: CuTe's form (CuTe C++'s
    // text), the run-time extent last.
    let r = right_inverse(layout!({6i64}:1));
    assert_eq!(r.to_string(), "6:_1");
    assert_eq!(try_right_inverse(layout!({6i64}:1)).unwrap(), r);
    let r = right_inverse(layout!((2,4,{8i64}):(1,2,8)));
    assert_eq!(r.to_string(), "(_8,8):(_1,_8)");
    let r = right_inverse(layout!(({8i64},4):(4,1)));
    assert_eq!(r.to_string(), "(_4,8):(8,_1)");
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), cute_dynamic::right_inverse(&d("(8,4):(4,1)")));
    // The run ends at a static offset no stride can be: CuTe's form.
    let r = right_inverse(layout!((2,{8i64}):(1,5)));
    assert_eq!(r.to_string(), "_2:_1");
    // A mode left after the run-time extent 2·8, whose stride 8 a smaller
    // extent would continue (8 = 2·4): the padded form. (CuTe prints
    // `(_2,8):(_1,_2)`, the same function here, a smaller one for 4.)
    let r = right_inverse(layout!((2,{8i64},4):(1,2,8)));
    assert_eq!(r.to_string(), "(1,1,16):(0,0,1)");
    let r = right_inverse(layout!((2,{4i64},4):(1,2,8)));
    assert_eq!(r.to_string(), "(1,1,32):(0,0,1)");
    // The all-static call is unchanged and zero-sized.
    let s = right_inverse(layout!((4,8):(8,1)));
    assert_eq!(s.to_string(), "(_8,_4):(_4,_1)");
    assert_eq!(size_of_val(&s), 0);
}

/// The paper's left inverses (Table 6) with one leaf run-time: `N + 1`
/// run-time leaves, coalesced equal to cute-dynamic's.
#[test]
fn left_inverse_of_cute_examples_with_a_run_time_leaf() {
    let r = left_inverse(layout!((4,8):(1,{5i64})));
    assert_eq!(r.to_string(), "(1,5,8):(0,1,4)");
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), cute_dynamic::left_inverse(&d("(4,8):(1,5)")).unwrap());
    // Static strides that nest, the run-time extent last: CuTe's form
    // (CuTe C++'s text).
    let r = left_inverse(layout!((3,{7i64},5):(5,15,1)));
    assert_eq!(r.to_string(), "(_5,_3,7):(21,_1,_3)");
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), cute_dynamic::left_inverse(&d("(3,7,5):(5,15,1)")).unwrap());
    // A run-time shape before the last mode: whether the strides nest is
    // known only at run time, so the padded form.
    let r = left_inverse(layout!(({8i64},4):(1,16)));
    assert_eq!(r.to_string(), "(1,16,4):(0,1,8)");
    // A last run-time shape not starting where the mode before it ends:
    // were it 1, cute-dynamic's answer would be smaller (2:1 for 2:1 and
    // 1:5), so the padded form too.
    let r = left_inverse(layout!((2,{3i64}):(1,5)));
    assert_eq!(r.to_string(), "(1,5,3):(0,1,2)");
    assert_eq!(left_inverse(layout!((2,{1i64}):(1,5))).to_string(), "(1,1,2):(0,0,1)");
    // Smallest stride above 1: the leading d0:0 mode.
    let r = left_inverse(layout!(({4i64}):(2)));
    assert_eq!(r.to_string(), "(2,4):(0,1)");
    assert_eq!(r.to_dynamic(), cute_dynamic::left_inverse(&d("(4):(2)")).unwrap());
    // Strides that do not nest: cute-dynamic's answer (here CuTe's, read on
    // the extended domains), padded.
    let r = left_inverse(layout!(({12i64},2):(1,9)));
    assert_eq!(r.to_string(), "(1,9,2):(0,1,12)");
    // CuTe's form padded with 1:0 modes: the same layout, coalesced.
    let a = d("(2,(4,2)):(0,(4,8))");
    let r = left_inverse(layout!((2,({4i64},2)):({0i64},({4i64},8)))).to_dynamic();
    assert_eq!(r.to_string(), "(1,4,2,2):(0,0,2,8)");
    assert_eq!(cute_dynamic::coalesce(&r), cute_dynamic::left_inverse(&a).unwrap());
    cute_tests::check::left_inverse(&a, &r).unwrap();
    // Negative strides: cute-dynamic's odd extension.
    let r = left_inverse(layout!({4i64}:{-1i64}));
    assert_eq!(cute_dynamic::coalesce(&r.to_dynamic()), d("4:-1"));
    // The all-static call is unchanged and zero-sized.
    let s = left_inverse(layout!((4,8):(1,5)));
    assert_eq!(s.to_string(), "(_5,_8):(_1,_4)");
    assert_eq!(size_of_val(&s), 0);
}

/// Where cute-dynamic has no left inverse, `try_left_inverse` gives its
/// error and `left_inverse` panics with its message.
#[test]
fn left_inverse_failures_err_and_panic_as_cute_dynamic() {
    // Strides of both signs.
    let a = layout!((4,4):({1i64},{-2i64}));
    let e = try_left_inverse(a).unwrap_err();
    assert_eq!(e, cute_dynamic::left_inverse(&a.to_dynamic()).unwrap_err());
    assert!(matches!(e, LayoutError::Unsupported { .. }), "{e}");
    assert_eq!(
        panic_message(move || {
            let _ = left_inverse(a);
        }),
        e.to_string()
    );
    // Too large to search and not nested.
    let a = layout!(({300i64},300):(1,299));
    let e = try_left_inverse(a).unwrap_err();
    assert_eq!(e, cute_dynamic::left_inverse(&a.to_dynamic()).unwrap_err());
    assert!(matches!(e, LayoutError::NoLayout { .. }), "{e}");
}

// ---------------------------------------------------------- properties

/// Both inverses of `a` (of type `A`) against the shared checker's
/// post-conditions and cute-dynamic's answer or error.
fn check_inverses<A>(a: &DLayout) -> Result<(), String>
where
    A: for<'x> TryFrom<&'x DLayout, Error = LayoutError> + RightInverse + LeftInverse + Copy,
    <A as RightInverse>::Output: RightInverseValue<A> + ToDyn,
    <A as LeftInverse>::Output: LeftInverseValue<A> + ToDyn,
{
    let sa = A::try_from(a).map_err(|e| e.to_string())?;
    let r = right_inverse(sa).to_dyn();
    cute_tests::check::right_inverse(a, &r).map_err(|e| format!("right_inverse({a}) = {r}: {e}"))?;
    padded_form_of(&r, &cute_dynamic::right_inverse(a)).map_err(|e| format!("right_inverse({a}) = {r}: {e}"))?;
    let (got, want) = (try_left_inverse(sa).map(|r| r.to_dyn()), cute_dynamic::left_inverse(a));
    // cute-dynamic's search may find more modes than the padded form holds.
    if let (Err(LayoutError::Unsupported { what }), Ok(w)) = (&got, &want)
        && what.contains("padded form")
        && w.rank() > a.flatten().rank() + 1
    {
        return Ok(());
    }
    agree(format_args!("left_inverse({a})"), got, want, |r, w| {
        cute_tests::check::left_inverse(a, r)?;
        padded_form_of(r, w)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random values in layouts of fixed mixed types (strides 0, 1, powers
    /// of two and others, so nested, interleaved, broadcast and negative
    /// layouts all occur): both inverses' post-conditions by brute force.
    #[test]
    fn inverses_of_mixed_layouts(
        v in prop::collection::vec(prop_oneof![Just(1i64), Just(2), Just(4), 1i64..=6], 4),
        w in prop::collection::vec(prop_oneof![Just(0i64), Just(1), Just(2), Just(4), Just(8), Just(-1), 0i64..=24], 4),
    ) {
        let r = (|| {
            check_inverses::<Layout![(4,Dyn):(Dyn,1)]>(&fill("(4,{}):({},1)", &[v[0], w[0]]))?;
            check_inverses::<Layout![(2,(Dyn,2)):(Dyn,(Dyn,8))]>(
                &fill("(2,({},2)):({},({},8))", &[v[1], w[1], w[2]]))?;
            check_inverses::<Layout![(Dyn,Dyn,Dyn):(Dyn,Dyn,Dyn)]>(
                &fill("({},{},{}):({},{},{})", &[v[0], v[1], v[2], w[0], w[1], w[3]]))?;
            check_inverses::<Layout![Dyn:Dyn]>(&fill("{}:{}", &[v[3], w[3]]))?;
            check_inverses::<Layout![(3,Dyn,5):(5,Dyn,1)]>(&fill("(3,{},5):(5,{},1)", &[v[2], w[2]]))?;
            // Static strides: CuTe's forms where they are taken.
            check_inverses::<Layout![(Dyn,4):(4,1)]>(&fill("({},4):(4,1)", &[v[0]]))?;
            check_inverses::<Layout![(2,Dyn,4):(1,2,8)]>(&fill("(2,{},4):(1,2,8)", &[v[1]]))?;
            check_inverses::<Layout![(3,Dyn,5):(5,15,1)]>(&fill("(3,{},5):(5,15,1)", &[v[2]]))?;
            check_inverses::<Layout![(Dyn,Dyn,2):(0,4,1)]>(&fill("({},{},2):(0,4,1)", &[v[0], v[3]]))?;
            check_inverses::<Layout![((2,Dyn),4):((1,8),2)]>(&fill("((2,{}),4):((1,8),2)", &[v[1]]))?;
            check_inverses::<Layout![(2,Dyn):(3,6)]>(&fill("(2,{}):(3,6)", &[v[3]]))?;
            check_inverses::<Layout![(Dyn,2,3):(6,1,2)]>(&fill("({},2,3):(6,1,2)", &[v[2]]))?;
            Ok::<(), String>(())
        })();
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}
