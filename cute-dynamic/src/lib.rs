//! # cute-dynamic
//!
//! CuTe's layout algebra on run-time integers. A layout `S:D` is a function
//! from coordinates to offsets; the algebra (coalesce, composition,
//! complement, inverses, divide, product) builds new layouts from old ones.
//! Everything here follows the CuTe paper (sections 2–3) and CuTe's layout
//! algebra documentation:
//!
//! * every result meets the post-conditions stated on its function, or the
//!   call returns a [`LayoutError`] that names the failed condition;
//! * arithmetic is checked: overflow is [`LayoutError::Overflow`], never a
//!   panic or a wrap;
//! * layouts of up to 8 leaves live inline: operations on them do not touch
//!   the heap (errors may, to describe themselves).
//!
//! # Representation
//!
//! An [`IntTuple`] keeps its tree as two flat lists: the structure, as
//! pre-order tokens (`(`, `)`, leaf) packed two bits a token into one
//! machine word, and the leaf values left to right. Up to 28 tokens and 8
//! leaves live inline in 72 bytes (a word for the tokens and the number of
//! leaves, then the leaves), so a [`Layout`] of up to 8 leaves is 144 bytes,
//! and so is a `Result<Layout, LayoutError>` (the type of that count has
//! room to mark the error); a tuple larger than that moves to the heap
//! whole. A [`Layout`] is a shape and a congruent stride, so inside the
//! crate it is read as one structure shared by two leaf lists (a borrowed
//! `LayoutRef`: the token word, the shapes, the strides); taking a mode of
//! it is a shift of the word and a slice of each list, and the structure of
//! a result is copied or built a word at a time. (A `Layout` stores the
//! token word twice, once in each tree, because [`Layout::shape`] and
//! [`Layout::stride`] lend `&IntTuple`s; a word shared in storage would
//! change that public signature, and copying a word costs nothing.)
//!
//! The operations work on those lists, not on trees:
//!
//! * one coalesce rule over flat `(shape, stride)` modes (`coalesce_push`,
//!   one mode at a time, in place), computed once per operation on the stack:
//!   composition reads `A` through it (keeping the last, unbounded mode),
//!   complement coalesces its result through it;
//! * one composition kernel, the paper's rule for one leaf of `B` against
//!   the coalesced `A` (stated at the top of `composition.rs`), and one
//!   `Composer` that applies it to several (sub)layouts with one prepared
//!   `A`: the divides and products compose their parts through it. A flat
//!   `B`, tile or grid (a leaf or a tuple of leaves, the usual case, known
//!   from the head word of its shape) is composed leaf by leaf, and the
//!   structure of its part of the result built from the leaves' counts as
//!   they come, with no walk of its tokens;
//! * results are written in place: the leaves and the structure of a
//!   result go straight into the inline room of the layout returned (the
//!   `Parts` of `layout.rs`), the divides and products walk the modes of
//!   their arguments as borrowed views, the `Composer` writes the leaves of
//!   `A ∘ B` straight into that room, and the room is made the returned
//!   value in one step (no `Option<Parts>` or whole layout moved through
//!   several frames). Inputs too large for the stack room, and every
//!   failure, take a general path that builds whole layouts and names the
//!   error; the fast paths are tested against it;
//! * one layout builder: `Parts`, with `Concat` (what the general paths and
//!   `make_layout` use) writing into it and moving to a growing layout only
//!   once a mode does not fit;
//! * one evaluation kernel (`eval_kernel`), checked for the extended
//!   domain, unchecked in bounds (where the offsets are known to fit);
//! * complement works in one stack buffer, specialised for inputs of 1, 2
//!   and 3 leaves (their number a constant for the compiler), and builds
//!   its flat result in one expression (the structure from a table);
//! * text: a layout is parsed in one pass into the room of the result (the
//!   shape writes the structure and checks its extents as it reads them,
//!   the stride is checked against the structure token by token), anything
//!   unusual taking the general parser, which words the errors; printing
//!   writes a whole layout into an unzeroed stack buffer with one check of
//!   the room for both trees (bounded by their tokens and leaves), every
//!   byte then stored unchecked, and hands it on in one piece;
//! * errors carry numbers on the hot path; their text is written on the
//!   cold path.
//!
//! ```
//! use cute_dynamic::{Layout, composition, complement, coalesce};
//! let a: Layout = "(6,2):(8,2)".parse()?;
//! let b: Layout = "(4,3):(3,1)".parse()?;
//! let r = composition(&a, &b)?;
//! assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
//! for i in 0..b.size() {
//!     assert_eq!(r.eval(i)?, a.eval_extended(b.eval(i)?)?);
//! }
//! assert_eq!(complement(&"4:2".parse()?, 24)?.to_string(), "(2,3):(1,8)");
//! assert_eq!(coalesce(&"(2,(1,6)):(1,(6,2))".parse()?).to_string(), "12:1");
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```

// Unsafe code only where a comment proves it sound: the disjoint thread
// parts of `partition_mut` (partition.rs), the reinterpreted storage of
// `recast` (recast.rs), the stores into the print buffer within the room
// checked for them and the written part of that buffer (print.rs), the
// head word of an inline tuple made and read as one `u64` (int_tuple.rs).
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod admissible;
mod algorithm;
mod bank_conflicts;
mod basis;
mod basis_layout;
mod coalesce;
mod complement;
mod composed;
mod composition;
mod descriptor;
mod divide;
mod error;
mod expr;
mod grid;
mod int_tuple;
mod inverse;
mod layout;
mod layout_tv;
mod max_common;
mod palette;
mod parse;
mod partition;
mod print;
mod print_html;
mod print_latex;
mod print_layout;
mod print_svg;
mod product;
mod recast;
mod slice;
mod swizzle;
mod tensor;
mod tiler;

pub use admissible::is_admissible;
pub use algorithm::{axpby, clear, copy, copy_if, fill, gemm};
pub use bank_conflicts::{
    BANK_BYTES, BANKS, BankReport, GroupWavefronts, MAX_ELEM_BYTES, WARP, bank_conflicts, bank_conflicts_composed,
    bank_wavefronts,
};
pub use basis::{BasisTuple, MAX_BASIS_DEPTH, MAX_BASIS_INDEX, ScaledBasis};
pub use basis_layout::{BasisLayout, composition_with_basis, make_identity_layout};
pub use coalesce::{coalesce, coalesce_by, filter};
pub use complement::{complement, complement_full};
pub use composed::{
    COMPOSED_CHECK_LIMIT, ComposedLayout, Stage, composition_with_composed, composition_with_swizzle,
    print_composed_layout,
};
pub use composition::{AsTiler, TilerRef, composition};
pub use descriptor::{BasisEntry, Descriptor, parse_descriptor};
pub use divide::{flat_divide, logical_divide, tiled_divide, zipped_divide};
pub use error::{LayoutError, Result};
pub use expr::{EvalError, Value, eval};
pub use grid::{Cell, Grid, MAX_PICTURE_CELLS};
pub use int_tuple::{IntTuple, crd2idx, elem_less, idx2crd, inner_product, prefix_product, shape_div};
pub use inverse::{left_inverse, right_inverse};
pub use layout::{Layout, make_layout};
pub use layout_tv::make_layout_tv;
pub use max_common::{max_common_layout, max_common_vector};
pub use parse::{LayoutText, LeafKind, LeafText, parse_macro_int_tuple, parse_macro_layout, parse_macro_tiler};
pub use partition::{
    Step, ThreadTensor, inner_partition, local_partition, local_partition_projected, local_tile, local_tile_projected,
    outer_partition,
};
pub use print_html::print_html;
pub use print_latex::print_latex;
pub use print_layout::{print_basis_layout, print_layout};
pub use print_svg::{LABEL_LIMIT, RULER, print_svg};
pub use product::{blocked_product, flat_product, logical_product, raked_product, tiled_product, zipped_product};
pub use recast::{Pod, downcast, recast_layout, upcast};
pub use slice::{SliceCoord, slice, slice_and_offset};
pub use swizzle::{AnySwizzle, BitFieldXor, Swizzle};
pub use tensor::{
    Coord, Coords, Engine, EngineMut, ReadTensor, Tensor, WriteTensor, make_fragment_like, make_identity_tensor,
    make_tensor, make_tensor_at, make_tensor_like,
};
pub use tiler::Tiler;
