//! Benchmarks live under `benches/`; this library holds the kernels they
//! time that are too large for a benchmark file.

pub mod blocked_gemm;
