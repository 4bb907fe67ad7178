//! End-to-end tests of the `cute` binary, one test binary.

mod cli;
mod cli_atoms;
mod cli_suggest_swizzle;
mod cli_swizzle;
mod common;
