//! The cross-crate tests of cute-static's algebra on run-time leaves:
//! CuTe C++'s padded forms (`runtime_forms`, generated) and agreement with
//! cute-dynamic on mixed static and run-time leaves
//! (`static_mixed_algebra`). A binary of their own beside `main.rs`: they
//! are most of the type checking of the cross-crate tests, and two
//! binaries are checked on two cores at once. Run one module with
//! `cargo test -p cute-tests --test runtime_leaves -- <module>::`.

mod common;

mod runtime_forms;
mod static_mixed_algebra;
