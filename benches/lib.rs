//! Benchmarks live under `benches/`; this library holds the kernels they
//! time that are too large for a benchmark file.

pub mod blocked_gemm;

/// `cute-static/examples/gemm_tiled.rs`, the BLIS GEMM written with the
/// atom layer (a tiled MMA of a SIMD FMA atom).
#[allow(dead_code)]
#[path = "../cute-static/examples/gemm_tiled.rs"]
pub mod gemm_tiled;

/// `cute-static/examples/sgemm.rs`, CuTe's tutorial GEMM on the CPU with
/// tensors, predicated tiles and a cooperative block.
#[allow(dead_code)]
#[path = "../cute-static/examples/sgemm.rs"]
pub mod sgemm_example;
pub mod sgemm_hand;

use sgemm_example::{Dims, sgemm};

/// An `m×n×k` problem on tight column-major buffers: `(dims, A, B)`. The data are small integers, so
/// every sum is exact.
pub fn sgemm_problem(m: usize, n: usize, k: usize) -> (Dims, Vec<f32>, Vec<f32>) {
    let d = Dims { m, n, k, lda: m, ldb: n, ldc: m };
    let a = (0..m * k).map(|x| ((x * 7 + 3) % 13) as f32 - 6.0).collect();
    let b = (0..n * k).map(|x| ((x * 5 + 1) % 17) as f32 - 8.0).collect();
    (d, a, b)
}

/// The problem that `tensor_gemm` and `tensor_gemm_ratio` time, after
/// checking that the tensor kernel and the hand-written one give exactly
/// the same C on it. Panics if they disagree.
pub fn sgemm_checked_problem(m: usize, n: usize, k: usize) -> (Dims, Vec<f32>, Vec<f32>, Vec<f32>) {
    let (d, a, b) = sgemm_problem(m, n, k);
    let (mut out, mut check) = (vec![0f32; m * n], vec![0f32; m * n]);
    sgemm(d, &a, &b, &mut out, 1);
    sgemm_hand::sgemm_hand(d, &a, &b, &mut check, 1);
    assert_eq!(out, check, "tensor and hand-written kernels disagree at {m}x{n}x{k}");
    (d, a, b, out)
}
