//! Nanoseconds per operation of cute-dynamic, the run-time layout algebra.
//!
//! The bar is CuTe C++ compiled with run-time integers:
//! `bash benches/cute_cpp/run.sh` times CuTe C++ on composition, complement,
//! logical_divide and blocked_product and prints this benchmark's figures
//! for the same expressions beside them. Inputs are parsed outside the timed closures;
//! arguments pass through `black_box`, and results are kept as CuTe C++'s
//! side keeps them (see [`in_place`]). Run with
//! `cargo bench -p cute-benches --bench dynamic_ops`.

use criterion::{Bencher, Criterion, criterion_group, criterion_main};
use cute_dynamic::{
    IntTuple, Layout, Tiler, blocked_product, coalesce, complement, composition, logical_divide, zipped_divide,
};
use std::fmt::Write;
use std::hint::black_box;

/// Times `f` as `benches/cute_cpp/ops.cpp` times CuTe C++ (`auto r = f();
/// keep(r);`): the result is made where it stays and kept by reference, so
/// it must be computed, but it is not moved. (Criterion's `iter` moves the
/// result into `black_box`: a copy of the 144 bytes just written, 5–7 ns
/// of composition's and complement's figures, that CuTe's side does not
/// make. The `moved/` group keeps those figures.)
fn in_place<R>(bench: &mut Bencher<'_>, mut f: impl FnMut() -> R) {
    bench.iter(|| {
        let r = f();
        black_box(&r);
    })
}

/// Parses a layout of the benchmark inputs (known good).
fn layout(text: &str) -> Layout {
    text.parse().unwrap_or_else(|e| panic!("bench input {text}: {e}"))
}

/// The operations named by the core issue: composition, complement,
/// coalesce, and parse+print.
fn algebra(c: &mut Criterion) {
    let mut g = c.benchmark_group("dynamic");

    let a = layout("(10,2):(16,4)");
    let b = layout("(5,4):(1,5)");
    g.bench_function("composition((10,2):(16,4), (5,4):(1,5))", |bench| {
        in_place(bench, || composition(black_box(&a), black_box(&b)))
    });

    // The floor under every operation that returns a layout: the result
    // alone, a copy of `b` made the same way (a layout of up to 8 leaves
    // is 144 bytes, inline). CuTe C++'s results are a few registers.
    g.bench_function("Ok(clone) of (5,4):(1,5), the cost of a result", |bench| {
        in_place(bench, || Ok::<Layout, cute_dynamic::LayoutError>(black_box(&b).clone()))
    });

    let a = layout("(2,4):(1,6)");
    g.bench_function("complement((2,4):(1,6), 24)", |bench| {
        in_place(bench, || complement(black_box(&a), black_box(24)))
    });

    let a = layout("(2,(1,6)):(1,(6,2))");
    g.bench_function("coalesce((2,(1,6)):(1,(6,2)))", |bench| in_place(bench, || coalesce(black_box(&a))));

    // Parse and print into a reused buffer: the cost of the text syntax,
    // not of a fresh String's allocation.
    const TEXT: &str = "((2,2),(4,2)):((1,8),(2,16))";
    let mut buf = String::with_capacity(64);
    g.bench_function("parse+print ((2,2),(4,2)):((1,8),(2,16))", |bench| {
        bench.iter(|| {
            let l: Layout = black_box(TEXT).parse().ok()?;
            buf.clear();
            write!(buf, "{l}").ok()?;
            Some(black_box(buf.len()))
        })
    });
    g.bench_function("parse ((2,2),(4,2)):((1,8),(2,16))", |bench| {
        in_place(bench, || black_box(TEXT).parse::<Layout>())
    });
    let l = layout(TEXT);
    g.bench_function("print ((2,2),(4,2)):((1,8),(2,16))", |bench| {
        bench.iter(|| {
            buf.clear();
            write!(buf, "{}", black_box(&l)).ok()?;
            Some(black_box(buf.len()))
        })
    });

    // Evaluation, the operation a kernel does most: an integral and a
    // natural coordinate.
    g.bench_function("eval(((2,2),(4,2)):((1,8),(2,16)), 22)", |bench| {
        bench.iter(|| black_box(&l).eval(black_box(22)))
    });
    let coord: IntTuple = "((0,1),(1,1))".parse().unwrap_or_else(|e| panic!("{e}"));
    g.bench_function("eval(((2,2),(4,2)):((1,8),(2,16)), ((0,1),(1,1)))", |bench| {
        bench.iter(|| black_box(&l).eval_coord(black_box(&coord)))
    });

    // The whole expression evaluator (parse, dispatch, compose), as the
    // `cute` tool runs it.
    g.bench_function("cute_dynamic::eval(\"composition((10,2):(16,4), (5,4):(1,5))\")", |bench| {
        bench.iter(|| cute_dynamic::eval(black_box("composition((10,2):(16,4), (5,4):(1,5))")))
    });

    g.finish();
}

/// The divide and product families (the inverses/divide/product issue).
fn divide_product(c: &mut Criterion) {
    let mut g = c.benchmark_group("dynamic");

    let a = layout("(9,(4,8)):(59,(13,1))");
    // A tuple tiler is parsed (and its Vec built) outside the timed closure.
    let t: Tiler = "<3:3, (2,4):(1,8)>".parse().unwrap_or_else(|e| panic!("{e}"));
    g.bench_function("logical_divide((9,(4,8)):(59,(13,1)), <3:3, (2,4):(1,8)>)", |bench| {
        in_place(bench, || logical_divide(black_box(&a), black_box(&t)))
    });

    // The divide kernels tile with most (CuTe's tutorials' `zipped_divide`
    // of a tensor by a tile), on the same inputs.
    g.bench_function("zipped_divide((9,(4,8)):(59,(13,1)), <3:3, (2,4):(1,8)>)", |bench| {
        in_place(bench, || zipped_divide(black_box(&a), black_box(&t)))
    });

    let a = layout("(3,4):(4,1)");
    let b = layout("(2,5):(1,2)");
    g.bench_function("blocked_product((3,4):(4,1), (2,5):(1,2))", |bench| {
        in_place(bench, || blocked_product(black_box(&a), black_box(&b)))
    });

    g.finish();
}

/// The four operations of `run.sh` timed with criterion's own `iter`: the
/// result moved into `black_box` (see [`in_place`]).
fn moved(c: &mut Criterion) {
    let mut g = c.benchmark_group("moved");
    let (a, b) = (layout("(10,2):(16,4)"), layout("(5,4):(1,5)"));
    g.bench_function("composition((10,2):(16,4), (5,4):(1,5))", |bench| {
        bench.iter(|| composition(black_box(&a), black_box(&b)))
    });
    let a = layout("(2,4):(1,6)");
    g.bench_function("complement((2,4):(1,6), 24)", |bench| bench.iter(|| complement(black_box(&a), black_box(24))));
    let a = layout("(9,(4,8)):(59,(13,1))");
    let t: Tiler = "<3:3, (2,4):(1,8)>".parse().unwrap_or_else(|e| panic!("{e}"));
    g.bench_function("logical_divide((9,(4,8)):(59,(13,1)), <3:3, (2,4):(1,8)>)", |bench| {
        bench.iter(|| logical_divide(black_box(&a), black_box(&t)))
    });
    let (a, b) = (layout("(3,4):(4,1)"), layout("(2,5):(1,2)"));
    g.bench_function("blocked_product((3,4):(4,1), (2,5):(1,2))", |bench| {
        bench.iter(|| blocked_product(black_box(&a), black_box(&b)))
    });
    g.finish();
}

criterion_group!(benches, algebra, divide_product, moved);
criterion_main!(benches);
