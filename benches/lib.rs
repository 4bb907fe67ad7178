//! Benchmarks live under `benches/`; this library holds the kernels they
//! time that are too large for a benchmark file.

pub mod blocked_gemm;

/// `cute-static/examples/sgemm.rs`, CuTe's `sgemm_1` on the CPU with tensors.
#[allow(dead_code)]
#[path = "../cute-static/examples/sgemm.rs"]
pub mod sgemm_example;
pub mod sgemm_hand;
