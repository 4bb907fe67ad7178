//! The algebra of cute-static on layouts with run-time leaves, run-time
//! checks included: the two expressions timed against CuTe C++ in
//! `benches/cute_cpp/` (CuTe with `int` leaves checks nothing).
//!
//! - all-run-time `composition((10,2):(16,4), (5,4):(1,5))`;
//! - `logical_divide(({m},{n}):(1,{m}), <128:1, 64:1>)`.
//!
//! The arguments are read through a `black_box`ed reference, so the
//! run-time values are not constants to the optimizer and are loaded from
//! memory on every call, as CuTe C++ reads its `volatile` inputs in
//! `benches/cute_cpp/ops.cpp`. (Passing the layouts by value through
//! `black_box` instead adds a copy of them to the stack and its reload to
//! every call: 1.4 ns rather than 1.2 for the divide.)
//!
//! Run: `cargo bench -p cute-benches --bench static_mixed_ops`

use criterion::{Criterion, criterion_group, criterion_main};
use cute_static::prelude::*;
use std::hint::black_box;

fn ops(c: &mut Criterion) {
    let mut g = c.benchmark_group("static mixed");
    let (a, b) = (layout!(({10i64},{2i64}):({16i64},{4i64})), layout!(({5i64},{4i64}):({1i64},{5i64})));
    g.bench_function("composition((10,2):(16,4),(5,4):(1,5)) all run-time", |bn| {
        bn.iter(|| composition(*black_box(&a), *black_box(&b)))
    });
    let (m, n) = (1000i64, 500i64);
    let l = layout!(({m},{n}):(1,{m}));
    g.bench_function("logical_divide(({m},{n}):(1,{m}),<128:1,64:1>)", |bn| {
        bn.iter(|| logical_divide(*black_box(&l), tile!(128:1, 64:1)))
    });
    g.finish();
}

criterion_group!(benches, ops);
criterion_main!(benches);
