//! Compile-fail snapshots: what a user sees for a malformed layout macro, a
//! shape and stride that are not congruent, and a coordinate of the wrong
//! rank. Regenerate with `TRYBUILD=overwrite cargo test -p cute-ui-tests`
//! and read the `.stderr` files before committing them.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
