//! The flat-mode kernels of the algebra: the rules of composition,
//! coalescing, complement and inversion on a layout's flat modes, as `i64`
//! pairs in room the caller provides.
//!
//! This is the lowest layer of the workspace and needs only `core` (it is
//! what cute-dynamic builds without its `std` feature): cute-dynamic's
//! operations call it on their inline lists, and cute-static calls it for
//! its run-time (`Dyn`) leaves, so each rule is written once. A kernel
//! records a failure as numbers ([`Fail`]); the caller writes the message on
//! its cold path (`Fail::into_error`, with `std`).
//!
//! Not an API for users: the operations of the crate root are. The layer
//! map is in the repository's `docs/architecture.md`.

mod arith;
mod coalesce;
mod complement;
mod composition;
mod fail;
mod inverse;

pub use arith::{ceil_div, divmod};
pub use coalesce::{May, Step, coalesce_in_place, coalesce_push, coalesce_step};
pub use complement::{
    complement_coalesced, complement_coalesced_fixed, complement_extended, complement_extended_fixed, complement_fits,
    complement_last,
};
pub use composition::{
    LeafSink, check_reach, check_reach_coalescing, check_signs, compose_leaf, compose_mul, unit_stride,
};
pub use fail::Fail;
pub use inverse::{Nest, extent, nested_left_inverse, rank_modes, ranked, right_inverse_modes, sort_by_key};
