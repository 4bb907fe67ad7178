//! Compile-fail tests live under `tests/`.
