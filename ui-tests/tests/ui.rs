//! Compile-fail snapshots: what a user sees for a malformed layout macro, a
//! shape and stride that are not congruent, and a coordinate of the wrong
//! rank; and a generic kernel that must compile with public bounds only.
//! Regenerate with `TRYBUILD=overwrite cargo test -p cute-ui-tests`
//! and read the `.stderr` files before committing them.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    // A kernel generic over its layouts compiles (and runs) with public
    // bounds only: the example names no hidden item.
    t.pass("../cute-static/examples/generic_gemm.rs");
}
