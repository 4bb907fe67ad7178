//! cute-static's integration tests, one test binary: the algebra on worked
//! examples, core behaviour, and typical kernel code.

mod algebra;
mod block;
mod copy_atom;
mod core;
mod gemm_tiled;
mod identity;
mod kernel;
mod mma_atom;
mod sgemm;
