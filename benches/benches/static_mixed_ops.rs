//! The algebra of cute-static on layouts with run-time leaves, run-time
//! checks included: the two expressions timed against CuTe C++ in
//! `benches/cute_cpp/` (CuTe with `int` leaves checks nothing).
//!
//! - all-run-time `composition((10,2):(16,4), (5,4):(1,5))`;
//! - `logical_divide(({m},{n}):(1,{m}), <128:1, 64:1>)`.
//!
//! The arguments are read with a volatile load on every call, as CuTe C++
//! reads its `volatile` inputs in `benches/cute_cpp/ops.cpp`: the run-time
//! values are not constants to the optimizer, and reading them costs what
//! it costs CuTe. (Reading them through a `black_box`ed reference instead
//! also stores the reference and loads it back on every call: 1.88 ns
//! rather than 1.60 for the divide; passing the layouts by value through
//! `black_box` copies them to the stack and back.)
//!
//! Run: `cargo bench -p cute-benches --bench static_mixed_ops`

use criterion::{Criterion, criterion_group, criterion_main};
use cute_static::prelude::*;

/// A volatile read of `x` (see the module docs).
#[inline(always)]
fn read<T: Copy>(x: &T) -> T {
    // SAFETY: `x` is a valid, aligned reference to an initialised `T`.
    unsafe { std::ptr::read_volatile(x) }
}

fn ops(c: &mut Criterion) {
    let mut g = c.benchmark_group("static mixed");
    let (a, b) = (layout!(({10i64},{2i64}):({16i64},{4i64})), layout!(({5i64},{4i64}):({1i64},{5i64})));
    g.bench_function("composition((10,2):(16,4),(5,4):(1,5)) all run-time", |bn| {
        bn.iter(|| composition(read(&a), read(&b)))
    });
    let (m, n) = (1000i64, 500i64);
    let l = layout!(({m},{n}):(1,{m}));
    g.bench_function("logical_divide(({m},{n}):(1,{m}),<128:1,64:1>)", |bn| {
        bn.iter(|| logical_divide(read(&l), tile!(128:1, 64:1)))
    });
    g.finish();
}

criterion_group!(benches, ops);
criterion_main!(benches);
