//! Benchmarks live under `benches/`; this library holds the kernels they
//! time that are too large for a benchmark file.

pub mod blocked_gemm;

/// `cute-static/examples/sgemm.rs`, CuTe's `sgemm_1` on the CPU with tensors.
#[allow(dead_code)]
#[path = "../cute-static/examples/sgemm.rs"]
pub mod sgemm_example;
pub mod sgemm_hand;

use sgemm_example::{BK, BM, BN, Padded, sgemm_tensor};

/// The `s`×`s`×`s` problem that `tensor_gemm` and `tensor_gemm_ratio` time,
/// `(A, B, C)`, after checking that the tensor kernel and the hand-written
/// one give exactly the same C on it (the data are small integers, so the
/// sums are exact). Panics if they disagree.
pub fn sgemm_1_problem(s: usize) -> (Padded, Padded, Padded) {
    let a = Padded::new(s, s, BM, BK, |i, j| ((i * 7 + j * 3) % 13) as f32 - 6.0);
    let b = Padded::new(s, s, BN, BK, |i, j| ((i * 5 + j * 11) % 17) as f32 - 8.0);
    let zero = || Padded::new(s, s, BM, BN, |_, _| 0.0);
    let (mut out, mut check) = (zero(), zero());
    sgemm_tensor(&a, &b, &mut out, 1);
    sgemm_hand::sgemm_hand(&a, &b, &mut check, 1);
    assert_eq!(out.data, check.data, "tensor and hand-written kernels disagree at {s}");
    (a, b, out)
}
