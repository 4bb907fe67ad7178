//! The run-time support of layouts with run-time ([`Dyn`](crate::Dyn))
//! leaves: the types and traits that move leaf values between a layout
//! type and flat buffers, shared by every operation's run-time path (the
//! `mixed.rs` files and the `run_time` modules of the concept files).
//!
//! * the room (`buf.rs`): [`Buf`], the fixed-size buffer on the stack, and
//!   the mode limit `MAX_MODES` (its failure `TOO_MANY_MODES`);
//! * reading (`read.rs`): [`FlatValues`], a shape or stride tree's leaves
//!   into a fixed buffer, and the flat modes of a layout from it
//!   (`flat_modes`; `marked_modes`, with which leaves are static,
//!   [`FlatMode`]);
//! * building (`build.rs`): [`FromValue`], a leaf from its value,
//!   [`FromLeaves`], a tree from leaf values in order, and [`Leaves`], the
//!   values written in order;
//! * the padded form of a result whose number of modes is only known at
//!   run time (`pad.rs`): [`PadDyn`], [`PadN`], [`PadN1`], and `padded`,
//!   `extent_fits` to fill it.
//!
//! An operation's own rule stays in its file. This module imports only
//! `int_tuple`, `layout`, `arity`, `detail` and cute-dynamic's `kernel`
//! (enforced by `scripts/module_graph.py`). The padded form's type is
//! needed without `std` (the type-level run-time branches of the
//! inverses and the complement name it); the rest is `std` only, as the
//! run-time paths are.

#[cfg(feature = "std")]
mod buf;
#[cfg(feature = "std")]
mod build;
mod pad;
#[cfg(feature = "std")]
mod read;

#[cfg(feature = "std")]
pub use buf::*;
#[cfg(feature = "std")]
pub use build::*;
pub use pad::*;
#[cfg(feature = "std")]
pub use read::*;
