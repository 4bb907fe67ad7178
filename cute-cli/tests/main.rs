//! End-to-end tests of the `cute` binary, one test binary.

mod cli;
mod cli_swizzle;
