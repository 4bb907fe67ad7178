//! CuTe's tutorial GEMM on the CPU written with cute-static tensors
//! (`cute-static/examples/sgemm.rs`, compiled in here) against the
//! identical loop nest with the index arithmetic written by hand: the same
//! panels, blocks, k-tiles, copy threads (32×8), compute threads (16×16),
//! predicates and loop orders, on the same caller buffers, with raw-pointer accesses (as C code indexes, without
//! `restrict`) where the tensor kernel indexes. One worker thread, so that the figure is the
//! abstraction's cost and not the machine's scheduling. Criterion's
//! throughput is in FLOP (`2·M·N·K` per call).
//!
//! Run: `cargo bench -p cute-benches --bench tensor_gemm`
//! (criterion's samples scatter ±10% on a busy machine; the ratio itself
//! is measured with alternating runs by `tensor_gemm_ratio.rs`).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use cute_benches::sgemm_checked_problem;
use cute_benches::sgemm_example::sgemm;
use cute_benches::sgemm_hand::sgemm_hand;

fn tensor_gemm(c: &mut Criterion) {
    let mut g = c.benchmark_group("sgemm");
    g.sample_size(10);
    for (m, n, k) in [(512usize, 512usize, 512usize), (1000, 777, 333)] {
        // Checked there: the two kernels agree exactly on it.
        let (d, a, b, mut out) = sgemm_checked_problem(m, n, k);
        let id = format!("{m}x{n}x{k}");
        g.throughput(Throughput::Elements(2 * (m * n * k) as u64));
        g.bench_with_input(BenchmarkId::new("tensor", &id), &d, |bench, &d| {
            bench.iter(|| sgemm(d, black_box(&a), black_box(&b), &mut out, 1))
        });
        g.bench_with_input(BenchmarkId::new("hand", &id), &d, |bench, &d| {
            bench.iter(|| sgemm_hand(d, black_box(&a), black_box(&b), &mut out, 1))
        });
    }
    g.finish();
}

criterion_group!(benches, tensor_gemm);
criterion_main!(benches);
