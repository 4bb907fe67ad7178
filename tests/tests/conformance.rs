//! CuTe's and pycute's own unit tests as a conformance suite.
//!
//! `tests/conformance/cases.txt` holds the cases of CUTLASS's CuTe unit
//! tests (`test/unit/cute/core/*.cpp`) and of pycute's tests
//! (`test/python/pycute/test_*.py`): for each test call, its source file and
//! line, the arguments, and the name of the property that peer test checks.
//! No result is stored: each case is computed here with cute-dynamic and
//! judged by the same property the peer test checks (the file's header
//! lists them). A case that cute-rs answers differently on purpose carries a
//! last field `departure: <reason>`; it is checked to still depart, so a
//! departure that stops being one is noticed.

use cute_dynamic::{
    ComposedLayout, IntTuple, Layout, SliceCoord, Value, coalesce, complement, complement_full, eval, filter,
    make_layout,
};
use cute_tests::compatible;
use std::fmt::Write;

const CASES: &str = include_str!("../conformance/cases.txt");

/// A function of the domain `0..size`: a layout or a composed layout.
enum Func {
    Layout(Layout),
    Composed(ComposedLayout),
}

impl Func {
    fn of(v: Value) -> Result<Func, String> {
        match v {
            Value::Layout(l) => Ok(Func::Layout(l)),
            Value::Composed(c) => Ok(Func::Composed(c)),
            other => Err(format!("expected a layout, got {other}")),
        }
    }

    fn size(&self) -> i64 {
        match self {
            Func::Layout(l) => l.size(),
            Func::Composed(c) => c.size(),
        }
    }

    fn shape(&self) -> &IntTuple {
        match self {
            Func::Layout(l) => l.shape(),
            Func::Composed(c) => c.shape(),
        }
    }

    /// The value at an integral coordinate; a layout is read on its
    /// extended domain, as CuTe's `layout(i)` is.
    fn at(&self, i: i64) -> Result<i64, String> {
        match self {
            Func::Layout(l) => l.eval_extended(i),
            Func::Composed(c) => c.eval(i),
        }
        .map_err(|e| format!("evaluating at {i}: {e}"))
    }
}

/// One case of the data file.
struct Case<'a> {
    source: &'a str,
    check: &'a str,
    args: Vec<&'a str>,
    departure: Option<&'a str>,
}

fn cases() -> Vec<Case<'static>> {
    CASES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
            let departure = match fields.last() {
                Some(f) if f.starts_with("departure:") => {
                    let reason = f["departure:".len()..].trim();
                    fields.pop();
                    Some(reason)
                }
                _ => None,
            };
            assert!(fields.len() >= 3, "malformed case line: {line}");
            Case { source: fields[0], check: fields[1], args: fields[2..].to_vec(), departure }
        })
        .collect()
}

fn value(text: &str) -> Result<Value, String> {
    eval(text).map_err(|e| format!("{text}: {e}"))
}

fn func(text: &str) -> Result<Func, String> {
    Func::of(value(text)?)
}

fn layout(text: &str) -> Result<Layout, String> {
    match value(text)? {
        Value::Layout(l) => Ok(l),
        other => Err(format!("{text}: expected a layout, got {other}")),
    }
}

fn ensure(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what()) }
}

/// `true` when every integer of the text carries CuTe's static marker `_`
/// (so that CuTe's conditions on static layouts apply to the case).
fn all_static(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).all(|i| !b[i].is_ascii_digit() || i == 0 || b[i - 1].is_ascii_digit() || b[i - 1] == b'_')
        && !text.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

fn is_cute(source: &str) -> bool {
    source.starts_with("cute/")
}

/// Judges one case by its peer test's property; `Err` says what failed.
fn judge(case: &Case<'_>) -> Result<(), String> {
    let a = &case.args;
    let arg = |i: usize| a.get(i).copied().ok_or_else(|| format!("{} needs argument {}", case.check, i + 1));
    match case.check {
        "coalesce" => {
            let l = layout(arg(0)?)?;
            let r = coalesce(&l);
            ensure(!is_cute(case.source) || r.depth() <= 1, || format!("depth of {r} is above 1"))?;
            ensure(r.size() == l.size(), || format!("size of {r} differs from {l}'s"))?;
            for i in 0..l.size() {
                ensure(r.eval(i) == l.eval(i), || format!("{r} and {l} differ at {i}"))?;
            }
            Ok(())
        }
        "complement" => {
            let l = layout(arg(0)?)?;
            let (r, target) = match a.get(1) {
                Some(t) => {
                    let target = match value(t)? {
                        Value::Int(n) => n,
                        Value::Tuple(s) => s.size().map_err(|e| e.to_string())?,
                        other => return Err(format!("cotarget {other}")),
                    };
                    (complement(&l, target).map_err(|e| e.to_string())?, target)
                }
                None => (complement_full(&l).map_err(|e| e.to_string())?, l.cosize()),
            };
            check_complement(&l, &r, target)?;
            // CuTe's checks that need static values (complement applied again).
            if all_static(arg(0)?) && a.get(1).is_none_or(|t| all_static(t)) {
                let c = make_layout(&[l.clone(), r.clone()]).map_err(|e| e.to_string())?;
                let rest = complement_full(&c).map_err(|e| e.to_string())?;
                ensure(rest.size() == 1, || format!("complement({c}) = {rest} has size above 1"))?;
                let back = complement(&complement(&r, l.cosize()).map_err(|e| e.to_string())?, target)
                    .map_err(|e| e.to_string())?;
                // CuTe compares static layouts, whose complement drops its
                // size-1 modes; cute-dynamic keeps them as CuTe does for
                // run-time integers (`(2,1):(2,16)` for `_2:_2`). So the
                // two are compared in coalesced form, shape and stride.
                ensure(coalesce(&back) == coalesce(&r), || {
                    format!("complement(complement({r}, {}), {target}) = {back}", l.cosize())
                })?;
            }
            Ok(())
        }
        "complement1" => {
            let l = layout(arg(0)?)?;
            let m = match a.get(1) {
                Some(t) => t.parse::<i64>().map_err(|e| e.to_string())?,
                None => 1,
            };
            let r = complement(&l, m).map_err(|e| e.to_string())?;
            for i in 0..l.size() {
                for j in 0..r.size() {
                    let (x, y) = (l.eval(i).unwrap(), r.eval(j).unwrap());
                    ensure(x != y || x == 0, || format!("{l}({i}) = {r}({j}) = {x}"))?;
                }
            }
            Ok(())
        }
        "composition" if matches!(value(arg(1)?)?, Value::BasisLayout(_)) => {
            // B maps to coordinates of A (CuTe's `E<i>` strides): R(c) = A(B(c)).
            let (x, Value::BasisLayout(y)) = (layout(arg(0)?)?, value(arg(1)?)?) else { unreachable!() };
            let r = layout(&format!("composition({}, {})", arg(0)?, arg(1)?))?;
            ensure(compatible(y.shape(), r.shape()), || format!("{} is not compatible with {}", y.shape(), r.shape()))?;
            for c in 0..y.size() {
                let coord = y.eval(c).map_err(|e| e.to_string())?;
                let want = x.eval_coord(&coord).map_err(|e| e.to_string())?;
                ensure(r.eval(c) == Ok(want), || format!("R({c}) != A(B({c})) = A({coord}) = {want}"))?;
            }
            Ok(())
        }
        "composition" => {
            let (x, y) = (func(arg(0)?)?, func(arg(1)?)?);
            let r = func(&format!("composition({}, {})", arg(0)?, arg(1)?))?;
            let n = if is_cute(case.source) {
                ensure(compatible(y.shape(), r.shape()), || {
                    format!("{} is not compatible with {}", y.shape(), r.shape())
                })?;
                y.size()
            } else {
                r.size()
            };
            for c in 0..n {
                let (got, want) = (r.at(c)?, x.at(y.at(c)?)?);
                ensure(got == want, || format!("R({c}) = {got}, A(B({c})) = {want}"))?;
            }
            Ok(())
        }
        "left_inverse" => {
            let l = func(arg(0)?)?;
            let r = func(&format!("left_inverse({})", arg(0)?))?;
            for i in 0..l.size() {
                let y = l.at(i)?;
                if is_cute(case.source) {
                    ensure(l.at(r.at(y)?)? == y, || format!("L(R(L({i}))) != L({i}) = {y}"))?;
                } else {
                    ensure(r.at(y)? == i, || format!("R(L({i})) != {i}"))?;
                }
            }
            Ok(())
        }
        "right_inverse" => {
            let l = func(arg(0)?)?;
            let r = func(&format!("right_inverse({})", arg(0)?))?;
            for i in 0..r.size() {
                ensure(l.at(r.at(i)?)? == i, || format!("L(R({i})) != {i}"))?;
            }
            Ok(())
        }
        "logical_divide" => {
            let b = func(arg(1)?)?;
            let r = layout(&format!("logical_divide({}, {})", arg(0)?, arg(1)?))?;
            ensure(r.rank() == 2, || format!("{r} is not of rank 2"))?;
            let r0 = r.get(0).unwrap();
            ensure(compatible(b.shape(), r0.shape()), || format!("{} is not compatible with {}", b.shape(), r0.shape()))
        }
        "logical_product" => {
            let (x, b) = (layout(arg(0)?)?, func(arg(1)?)?);
            let r = layout(&format!("logical_product({}, {})", arg(0)?, arg(1)?))?;
            ensure(r.rank() == 2, || format!("{r} is not of rank 2"))?;
            let (r0, r1) = (r.get(0).unwrap(), r.get(1).unwrap());
            ensure(r0 == x, || format!("mode 0 of {r} is not {x}"))?;
            ensure(compatible(b.shape(), r1.shape()), || format!("{} is not compatible with {}", b.shape(), r1.shape()))
        }
        "swizzle_2d" => {
            let Value::Composed(c) = value(arg(0)?)? else { return Err("expected a composed layout".into()) };
            let (m, n) = (c.inner().get(0).unwrap().size(), c.inner().get(1).unwrap().size());
            let at = |i: i64, j: i64| c.eval_coord(&IntTuple::flat([i, j])).map_err(|e| e.to_string());
            for i in 0..m {
                let row = c.slice(&format!("({i},_)").parse::<SliceCoord>().unwrap()).map_err(|e| e.to_string())?;
                for j in 0..n {
                    ensure(at(i, j)? == row.eval(j).map_err(|e| e.to_string())?, || format!("row {i} at {j}"))?;
                }
            }
            for j in 0..n {
                let col = c.slice(&format!("(_,{j})").parse::<SliceCoord>().unwrap()).map_err(|e| e.to_string())?;
                for i in 0..m {
                    ensure(at(i, j)? == col.eval(i).map_err(|e| e.to_string())?, || format!("column {j} at {i}"))?;
                }
            }
            Ok(())
        }
        "equal" | "equal_static" => {
            let (got, want) = (value(arg(0)?)?, value(arg(1)?)?);
            ensure(got == want, || format!("{} is {got}, the peer expects {want}", arg(0).unwrap()))?;
            // cute-dynamic has no static integers: that the value is a
            // compile-time constant is cute-static's to show.
            Ok(())
        }
        other => Err(format!("unknown check {other}")),
    }
}

/// CuTe's `test_complement` post-conditions (1)–(4) and its other
/// observations, for `R = complement(L, target)`.
fn check_complement(l: &Layout, r: &Layout, target: i64) -> Result<(), String> {
    let c = make_layout(&[l.clone(), r.clone()]).map_err(|e| e.to_string())?;
    let round_up = |a: i64, b: i64| (a + b - 1) / b * b;
    let filtered = filter(l).size();
    ensure(c.cosize() >= target, || format!("cosize({c}) < {target}"))?;
    ensure(r.cosize() <= round_up(target, l.cosize()), || {
        format!("cosize({r}) above round_up({target}, cosize({l}))")
    })?;
    for i in 1..r.size() {
        let (p, q) = (r.eval(i - 1).unwrap(), r.eval(i).unwrap());
        ensure(p < q, || format!("{r} is not ordered at {i}"))?;
        for j in 0..l.size() {
            ensure(q != l.eval(j).unwrap(), || format!("{r}({i}) = {l}({j})"))?;
        }
    }
    ensure(r.size() <= r.cosize(), || format!("size({r}) > cosize"))?;
    ensure(r.size() >= target / filtered, || format!("size({r}) < {target}/{filtered}"))?;
    ensure(c.cosize() <= r.cosize() + l.cosize(), || format!("cosize({c}) > cosize(R) + cosize(L)"))?;
    ensure(r.cosize() >= target / filtered, || format!("cosize({r}) < {target}/{filtered}"))
}

#[test]
fn cute_and_pycute_unit_test_cases() {
    let cases = cases();
    let (mut passed, mut departed) = (0usize, 0usize);
    let mut report = String::new();
    for case in &cases {
        let result = judge(case);
        match (&result, case.departure) {
            (Ok(()), None) => passed += 1,
            (Err(_), Some(_)) => departed += 1,
            (Err(e), None) => {
                let _ = writeln!(report, "{} {} {}: {e}", case.source, case.check, case.args.join(" | "));
            }
            (Ok(()), Some(reason)) => {
                let _ = writeln!(report, "{} passes but is listed as a departure ({reason})", case.source);
            }
        }
    }
    let by = |p: &str| cases.iter().filter(|c| c.source.starts_with(p)).count();
    println!(
        "conformance: {passed} of {} cases pass ({} CuTe, {} pycute), {departed} documented departures",
        cases.len(),
        by("cute/"),
        by("pycute/")
    );
    assert!(report.is_empty(), "cases that fail:\n{report}");
    assert_eq!(passed + departed, cases.len());
}

#[test]
fn the_data_names_real_sources() {
    // Every case names its peer file and a line, and the checks are the
    // ones this runner knows (a typo would otherwise fail as a case).
    for case in cases() {
        let (file, line) = case.source.rsplit_once(':').expect("source:line");
        assert!(file.starts_with("cute/core/") || file.starts_with("pycute/test_"), "{file}");
        assert!(line.parse::<u32>().is_ok_and(|n| n > 0), "{}", case.source);
    }
    assert!(cases().len() > 350, "the data file lost cases");
}
