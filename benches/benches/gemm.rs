//! Single-precision GEMM, single-threaded: the GEMM written with the atom
//! layer (`cute-static/examples/gemm_tiled.rs`) and the hand-written
//! register-blocked, packed kernel of `cute_benches::blocked_gemm` against
//! `matrixmultiply::sgemm`; then the atom-layer GEMM on 1 and 2 threads,
//! `C += A·B` on column-major square matrices. Criterion's throughput is
//! in floating-point operations (`2·M·N·K` per call): its `elem/s` are
//! FLOP/s.
//!
//! Run: `cargo bench -p cute-benches --bench gemm`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use cute_benches::{blocked_gemm, gemm_tiled};
use std::hint::black_box;

fn matrices(n: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let a = (0..n * n).map(|i| ((i * 7 + 3) % 11) as f32 * 0.1).collect();
    let b = (0..n * n).map(|i| ((i * 5 + 1) % 7) as f32 * 0.1).collect();
    (a, b, vec![0f32; n * n])
}

fn sgemm(c: &mut Criterion) {
    let mut g = c.benchmark_group("sgemm");
    g.sample_size(10);
    for n in [256usize, 512, 1024] {
        let (a, b, mut out) = matrices(n);
        g.throughput(Throughput::Elements(2 * (n * n * n) as u64));
        g.bench_with_input(BenchmarkId::new("atom_layer", n), &n, |bench, &n| {
            bench.iter(|| gemm_tiled::sgemm(n, n, n, black_box(&a), n, black_box(&b), n, &mut out, n, 1))
        });
        g.bench_with_input(BenchmarkId::new("blocked", n), &n, |bench, &n| {
            bench.iter(|| blocked_gemm::sgemm(n, n, n, black_box(&a), n, black_box(&b), n, &mut out, n))
        });
        g.bench_with_input(BenchmarkId::new("matrixmultiply", n), &n, |bench, &n| {
            bench.iter(|| {
                // SAFETY: the three buffers hold n×n column-major matrices
                // (row stride 1, column stride n) and do not overlap.
                unsafe {
                    matrixmultiply::sgemm(
                        n,
                        n,
                        n,
                        1.0,
                        black_box(a.as_ptr()),
                        1,
                        n as isize,
                        black_box(b.as_ptr()),
                        1,
                        n as isize,
                        1.0,
                        out.as_mut_ptr(),
                        1,
                        n as isize,
                    )
                }
            })
        });
    }
    g.finish();
}

/// The atom-layer GEMM on one and on two OS threads at 1024³.
fn threads(c: &mut Criterion) {
    let mut g = c.benchmark_group("sgemm_threads");
    g.sample_size(10);
    let n = 1024usize;
    let (a, b, mut out) = matrices(n);
    g.throughput(Throughput::Elements(2 * (n * n * n) as u64));
    for t in [1usize, 2] {
        g.bench_with_input(BenchmarkId::new("atom_layer", t), &t, |bench, &t| {
            bench.iter(|| gemm_tiled::sgemm(n, n, n, black_box(&a), n, black_box(&b), n, &mut out, n, t))
        });
    }
    g.finish();
}

criterion_group!(benches, sgemm, threads);
criterion_main!(benches);
