//! The cross-crate tests (compiling one binary is several times faster
//! than compiling one per file): golden cases from the CuTe paper and
//! docs, property tests of the post-conditions, static/dynamic agreement,
//! tensors, pictures and the conformance suite. Each module is one
//! concept; run one with `cargo test -p cute-tests -- <module>::`.
//!
//! cute-static's algebra on run-time leaves (`runtime_forms`,
//! `static_mixed_algebra`) is the second binary, `runtime_leaves.rs`: those
//! two modules are most of the type checking of these tests, which is one
//! thread per binary, so two binaries build on two cores at once.

mod common;

mod algebra_checks;
mod atoms;
mod bank_conflicts;
mod basis_layout;
mod blocked_gemm;
mod composed;
mod conformance;
mod coord;
mod cute_print_forms;
mod descriptor;
mod golden_algebra;
mod golden_core;
mod layout_tv;
mod left_inverse;
mod negative_strides;
mod no_alloc;
mod pictures;
mod predication;
mod props_algebra;
mod props_core;
mod readme;
mod retile;
mod static_agreement;
mod static_algebra;
mod static_basis_layout;
mod static_display;
mod static_mixed;
mod static_mixed_complement;
mod static_mixed_inverse;
mod static_swizzle;
mod static_tensor;
mod stride_zero;
mod swizzle;
mod swizzle_search;
mod tensor;
mod text_syntax;
