//! # cute-dynamic
//!
//! CuTe's layout algebra on run-time integers. A layout `S:D` (a shape and a
//! stride) is a function from coordinates to offsets, and the algebra
//! (coalesce, composition, complement, inverses, divide, product) builds new
//! layouts from old ones, as NVIDIA's CuTe does for CUTLASS. Layouts are
//! written and printed in CuTe's notation, byte for byte as CuTe prints them;
//! on top of the algebra come tensors (storage viewed through a layout, tiled
//! and partitioned as in CuTe), swizzles, pictures and a shared-memory bank
//! conflict report. The sibling crate `cute-static` does the same algebra on
//! layouts that are types; the `cute` command-line tool (`cute-cli`)
//! evaluates the expressions that [`eval()`] evaluates.
//!
//! The crate is exact:
//!
//! * every result meets the post-conditions of its operation as the CuTe
//!   paper states them (each function's documentation lists them), or the
//!   call returns a [`LayoutError`] that names the failed condition and the
//!   values: a layout is never wrong, whatever the input;
//! * it never panics on any input: every fallible function returns a
//!   [`Result`], and arithmetic is checked (overflow is
//!   [`LayoutError::Overflow`], never a panic or a wrap). The one deliberate
//!   exception is indexing a [`Tensor`] (or a [`ThreadTensor`]) with `[]` at
//!   a coordinate outside its shape, which panics as slice indexing does
//!   (`get` is the checked form).
//!
//! # A tour
//!
//! ## Layouts: text, attributes, evaluation
//!
//! A [`Layout`] parses from CuTe's notation ([`std::str::FromStr`]) and prints
//! back in it ([`std::fmt::Display`]). It maps an integral coordinate, a
//! coordinate of its rank, or a natural (hierarchical) coordinate to an
//! offset:
//!
//! ```
//! use cute_dynamic::{IntTuple, Layout};
//! let l: Layout = "(4,8):(1,4)".parse()?;
//! assert_eq!(l.to_string(), "(4,8):(1,4)");
//! assert_eq!((l.size(), l.cosize()), (32, 32));
//! assert_eq!(l.eval_coord(&"(2,5)".parse()?)?, 22); // 2·1 + 5·4
//!
//! let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse()?;
//! assert_eq!(l.eval(22)?, 26); // integral coordinate
//! let c: IntTuple = "(2,5)".parse()?;
//! assert_eq!(l.eval_coord(&c)?, 26); // rank-2 coordinate
//! let n: IntTuple = "((0,1),(1,1))".parse()?;
//! assert_eq!(l.eval_coord(&n)?, 26); // natural coordinate
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```
//!
//! The syntax (the same grammar is read by `cute-static`'s macros and by the
//! `cute` tool):
//!
//! ```text
//! layout  := tuple ':' tuple | int ':' int         (4,8):(1,4)   12:1
//! tuple   := int | '(' tuple {',' tuple} ')'        static marker '_4' accepted
//! tiler   := '<' tile {',' tile} '>'               <3:3, (2,4):(1,8)>
//! tile    := layout | tuple | tiler | '(' tile {',' tile} ')'
//! ```
//!
//! Whitespace is ignored and CuTe's static marker `_` reads as the integer.
//! A text that does not parse is an error that names the byte column:
//!
//! ```
//! use cute_dynamic::{Layout, Tiler};
//! assert_eq!(" ( 4 , 8 ) : ( 1 , 4 ) ".parse::<Layout>()?, "(4,8):(1,4)".parse::<Layout>()?);
//! assert_eq!("(_4,_8):(_1,_4)".parse::<Layout>()?, "(4,8):(1,4)".parse::<Layout>()?);
//! let e = "(4,8:(1,4)".parse::<Layout>().unwrap_err();
//! assert_eq!(e.to_string(), "expected ',' or ')' at column 5, found ':'");
//! let t: Tiler = "(3,8)".parse()?; // a shape is the tiler of its extents
//! assert_eq!(t.to_string(), "<3:1,8:1>");
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```
//!
//! ## The algebra
//!
//! ```
//! use cute_dynamic::{Layout, Tiler, coalesce, complement, composition, logical_divide};
//! let a: Layout = "(6,2):(8,2)".parse()?;
//! let b: Layout = "(4,3):(3,1)".parse()?;
//! let r = composition(&a, &b)?;
//! assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
//! for i in 0..b.size() {
//!     assert_eq!(r.eval(i)?, a.eval_extended(b.eval(i)?)?); // R = A ∘ B
//! }
//! assert_eq!(complement(&"4:2".parse()?, 24)?.to_string(), "(2,3):(1,8)");
//! assert_eq!(coalesce(&"(2,(1,6)):(1,(6,2))".parse()?).to_string(), "12:1");
//!
//! // Tiles of 4:1 along mode 0 and 8:2 along mode 1, then the rest.
//! let a: Layout = "(8,16):(20,1)".parse()?;
//! let t: Tiler = "<4:1, 8:2>".parse()?;
//! assert_eq!(logical_divide(&a, &t)?.to_string(), "((4,2),(8,2)):((20,80),(2,1))");
//!
//! // A composition the paper does not admit is an error, not a layout.
//! let a: Layout = "(4,6,8):(2,3,5)".parse()?;
//! let e = composition(&a, &"6:3".parse::<Layout>()?).unwrap_err();
//! assert!(e.to_string().contains("stride divisibility condition"));
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```
//!
//! ## The expression evaluator
//!
//! [`eval()`] evaluates an expression of the text syntax (layouts, tilers,
//! tuples and calls of the operations by their CuTe names, nested) to a
//! [`Value`]; its errors ([`EvalError`]) carry the column they concern:
//!
//! ```
//! use cute_dynamic::eval;
//! assert_eq!(eval("composition((6,2):(8,2), (4,3):(3,1))")?.to_string(), "((2,2),3):((24,2),8)");
//! assert_eq!(eval("size(coalesce((2,(1,6)):(1,(6,2))))")?.to_string(), "12");
//! assert_eq!(eval("eval(((2,2),(4,2)):((1,8),(2,16)), 22)")?.to_string(), "26");
//! let e = eval("composition((4,6,8):(2,3,5), 6:3)").unwrap_err();
//! assert!(e.to_string().contains("stride divisibility condition"));
//! assert_eq!(e.column, 1); // the error points at the call
//! # Ok::<(), cute_dynamic::EvalError>(())
//! ```
//!
//! ## Swizzles and composed layouts
//!
//! A [`Swizzle`] `Sw<B,M,S>` XORs the bits `[M+S, M+S+B)` of an offset into
//! `[M, M+B)`. Composed with a layout it is CuTe's composed layout
//! `Sw ∘ offset ∘ L` ([`ComposedLayout`]): slicing moves the fixed offset
//! into the middle, divides and products act on `L`, and compositions with
//! it and its inverses are composed layouts again, each answer checked point
//! by point:
//!
//! ```
//! use cute_dynamic::{ComposedLayout, Layout, Swizzle};
//! let b: Layout = "(8,64):(64,1)".parse()?;
//! let c = ComposedLayout::compose(Swizzle::new(3, 4, 3)?, &b);
//! assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
//! assert_eq!(c.eval_coord(&"(1,0)".parse()?)?, 64);
//! assert_eq!(c.eval_coord(&"(2,0)".parse()?)?, 128 + 16);
//! let row = c.slice(&"(2,_)".parse()?)?;
//! assert_eq!(row.to_string(), "Sw<3,4,3> o 128 o 64:1");
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```
//!
//! ## Tensors
//!
//! A [`Tensor`] is storage (a slice, a `Vec`, ...) viewed through a layout;
//! [`make_tensor`] checks once that the layout stays inside the storage.
//! Slicing, tiling ([`local_tile`]) and partitioning ([`local_partition`])
//! make views of the same data:
//!
//! ```
//! use cute_dynamic::{IntTuple, Layout, local_tile, make_tensor};
//! let data: Vec<i32> = (0..24).collect();
//! let t = make_tensor(&data[..], "(4,6):(6,1)".parse::<Layout>()?)?; // row-major 4×6
//! assert_eq!(t[(1, 2)], 8);
//! assert_eq!(t[5], 7); // integral coordinate (column-major order)
//! let row = t.slice(&"(1,_)".parse()?)?; // the tensor's row 1
//! assert_eq!(row.layout().to_string(), "(6):(1)");
//! assert_eq!((0..6).map(|j| row[j]).collect::<Vec<_>>(), [6, 7, 8, 9, 10, 11]);
//!
//! // Block (2,3) of 128×64 of a column-major 1000×500 matrix.
//! let data = vec![0f32; 1000 * 500];
//! let m = make_tensor(&data[..], "(1000,500):(1,1000)".parse::<Layout>()?)?;
//! let blk = local_tile(m, &"(128,64)".parse::<IntTuple>()?, &"(2,3)".parse()?)?;
//! assert_eq!(blk.layout().to_string(), "(128,64):(1,1000)");
//! assert_eq!(blk.offset(), 256 + 192 * 1000);
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```
//!
//! [`Tensor::partition_mut`] gives each thread a mutable part that the
//! algebra has proven disjoint from the others; [`copy`], [`fill`],
//! [`gemm`] and the other algorithms work on tensors.
//!
//! ## Pictures
//!
//! [`print_layout`](fn@print_layout) draws a rank-2 layout as CuTe's `print_layout` does (rows
//! are mode 0, columns mode 1, each cell the offset):
//!
//! ```
//! use cute_dynamic::{Layout, print_layout};
//! let l: Layout = "(2,2):(1,2)".parse()?;
//! let expected = concat!(
//!     "(2,2):(1,2)\n",
//!     "      0   1 \n", // CuTe prints a blank after each column index
//!     "    +---+---+\n",
//!     " 0  | 0 | 2 |\n",
//!     "    +---+---+\n",
//!     " 1  | 1 | 3 |\n",
//!     "    +---+---+\n",
//! );
//! assert_eq!(print_layout(&l), expected);
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```
//!
//! A [`Grid`] (of a layout, a composed layout, a thread-value layout, or any
//! offset function) is drawn as SVG by [`print_svg`](fn@print_svg), as a self-contained
//! HTML page by [`print_html`](fn@print_html), and as CuTe's TikZ by [`print_latex`](fn@print_latex):
//!
//! ```
//! use cute_dynamic::{Grid, Layout, print_svg};
//! let g = Grid::of_layout(&"(2,3):(3,1)".parse::<Layout>()?)?;
//! let svg = print_svg(&g, None);
//! assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```
//!
//! ## Bank conflicts
//!
//! [`bank_conflicts`](fn@bank_conflicts) reads a layout from thread index (a rank-2 layout:
//! from (thread, value)) to element offsets as a shared-memory access, and
//! counts the wavefronts each group of 32 threads needs (32 banks of 4
//! bytes); [`bank_conflicts_composed`] does the same for a swizzled layout,
//! [`bank_wavefronts`] for any offset function:
//!
//! ```
//! use cute_dynamic::{ComposedLayout, Layout, Swizzle, bank_conflicts, bank_conflicts_composed};
//! // 32 threads read a column of a 32x32 row-major float matrix: all in bank 0.
//! let column: Layout = "32:32".parse()?;
//! let r = bank_conflicts(&column, 4)?;
//! assert_eq!((r.groups[0].total(), r.groups[0].ideal_total()), (32, 1));
//! // 8 threads read the first byte of 8 rows of 128 bytes: all in bank 0...
//! let rows: Layout = "8:128".parse()?;
//! assert_eq!(bank_conflicts(&rows, 1)?.groups[0].total(), 8);
//! // ...unless the rows are swizzled with Sw<3,4,3>.
//! let swizzled = ComposedLayout::compose(Swizzle::smem_128b(), &rows);
//! assert_eq!(bank_conflicts_composed(&swizzled, 1)?.groups[0].total(), 1);
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```
//!
//! [`suggest_swizzle`] goes the other way: given a tile and the
//! thread-value layouts that write and read it, it measures every swizzle
//! `Sw<B,M,S>` of the tile's offsets (and CuTe's shared-memory atoms) and
//! ranks those that serve both patterns without conflicts:
//!
//! ```
//! use cute_dynamic::{Layout, Swizzle, suggest_swizzle};
//! let tile: Layout = "(8,32):(32,1)".parse()?; // 8 rows of 32 floats
//! let write: Layout = "(32,8):(8,1)".parse()?; // a row per request
//! let read: Layout = "(32,8):(1,32)".parse()?; // down the columns
//! let r = suggest_swizzle(&tile, 4, &write, &read)?;
//! assert_eq!(r.unswizzled.read.wavefronts, 64); // ideal 8
//! assert_eq!(r.best.swizzle, Swizzle::new(3, 2, 3)?); // Sw<3,4,3> on bytes
//! assert_eq!(r.best.read.wavefronts, 8);
//! # Ok::<(), cute_dynamic::LayoutError>(())
//! ```
//!
//! # Index by concept
//!
//! * Integer tuples (`int_tuple.rs`): [`IntTuple`], [`inner_product`],
//!   [`prefix_product`], [`shape_div`], [`elem_less`].
//! * Layouts (`layout.rs`): [`Layout`] (`size`, `cosize`, `rank`, `depth`,
//!   `get`, `flatten`, `eval`, `eval_extended`), [`make_layout`],
//!   [`Layout::column_major`].
//! * Coordinates (`coord.rs`): [`idx2crd`], [`crd2idx`],
//!   [`Layout::eval_coord`], [`Coord`].
//! * Text (`parse.rs`, `print.rs`): `FromStr` and `Display` for [`IntTuple`],
//!   [`Layout`], [`Tiler`], [`SliceCoord`] and the swizzles (the same
//!   parser reads the text of `cute-static`'s macros, through hidden entry
//!   points).
//! * Coalesce and filter (`coalesce.rs`): [`coalesce`](fn@coalesce), [`coalesce_by`],
//!   [`filter`].
//! * Composition and tilers (`composition.rs`, `tiler.rs`): [`composition`](fn@composition),
//!   [`Tiler`], [`AsTiler`].
//! * Complement (`complement.rs`): [`complement`](fn@complement), [`complement_full`].
//! * Inverses (`inverse.rs`): [`left_inverse`], [`right_inverse`].
//! * Divide (`divide.rs`): [`logical_divide`], [`zipped_divide`],
//!   [`tiled_divide`], [`flat_divide`].
//! * Product (`product.rs`): [`logical_product`], [`zipped_product`],
//!   [`tiled_product`], [`flat_product`], [`blocked_product`],
//!   [`raked_product`].
//! * Slicing (`slice.rs`): [`slice()`], [`slice_and_offset`], [`SliceCoord`].
//! * Vectorization and admissibility (`max_common.rs`, `admissible.rs`):
//!   [`max_common_vector`], [`max_common_layout`], [`is_admissible`].
//! * The expression evaluator (`expr.rs`): [`eval()`], [`Value`],
//!   [`EvalError`].
//! * Swizzles and composed layouts (`swizzle.rs`, `composed.rs`):
//!   [`Swizzle`], [`BitFieldXor`], [`AnySwizzle`], [`ComposedLayout`],
//!   [`composition_with_swizzle`], [`composition_with_composed`],
//!   [`print_composed_layout`].
//! * Scaled bases and identity layouts (`basis.rs`, `basis_layout.rs`,
//!   `descriptor.rs`): [`ScaledBasis`], [`BasisTuple`], [`BasisLayout`],
//!   [`make_identity_layout`], [`composition_with_basis`],
//!   [`parse_descriptor`], [`Descriptor`].
//! * Thread-value layouts (`layout_tv.rs`): [`make_layout_tv`].
//! * MMA atoms (`mma_atom.rs`): [`MmaAtom`] (CuTe's GPU atoms by name,
//!   `UniversalFMA`, a SIMD FMA), [`TiledMma`], [`make_tiled_mma`],
//!   [`gmma_layout_atom`] (GMMA's shared-memory layout atoms).
//! * Copy atoms (`copy_atom.rs`): [`CopyAtom`] (CuTe's GPU atoms by name,
//!   `UniversalCopy`), [`TiledCopy`], [`make_tiled_copy`],
//!   [`make_tiled_copy_a`], [`make_tiled_copy_b`], [`make_tiled_copy_c`].
//! * Tensors (`tensor.rs`, `recast.rs`): [`Tensor`], [`make_tensor`],
//!   [`make_tensor_at`], [`make_tensor_like`], [`make_fragment_like`],
//!   [`make_identity_tensor`]; [`recast_layout`], [`upcast`], [`downcast`].
//! * Partitioning (`partition.rs`): [`local_tile`], [`local_tile_projected`],
//!   [`local_partition`], [`local_partition_projected`],
//!   [`inner_partition`], [`outer_partition`], [`ThreadTensor`],
//!   [`Tensor::partition_mut`].
//! * Algorithms (`algorithm.rs`): [`copy`], [`copy_if`], [`fill`],
//!   [`clear`], [`axpby`], [`gemm`].
//! * Pictures (`print_layout.rs`, `grid.rs`, `print_svg.rs`,
//!   `print_html.rs`, `print_latex.rs`): [`print_layout`](fn@print_layout),
//!   [`print_basis_layout`], [`Grid`], [`print_svg`](fn@print_svg), [`print_html`](fn@print_html),
//!   [`print_latex`](fn@print_latex).
//! * Pictures of tiled MMAs and copies (`print_atom.rs`): [`Figure`],
//!   [`Panel`], [`print_svg_figure`], [`print_html_figure`],
//!   [`print_latex_figure`].
//! * Bank conflicts (`bank_conflicts.rs`): [`bank_conflicts`](fn@bank_conflicts),
//!   [`bank_conflicts_composed`], [`bank_wavefronts`], [`BankReport`].
//! * Swizzle search (`swizzle_search.rs`): [`suggest_swizzle`],
//!   [`SwizzleSearch`], [`SwizzleCandidate`], [`PhaseFigures`],
//!   [`SmemAtom`], [`swizzle_search_space`].
//! * Errors (`error.rs`): [`LayoutError`], [`Result`].
//!
//! # Representation
//!
//! An [`IntTuple`] keeps its tree as two flat lists, the structure as packed
//! tokens and the leaves as `i64`s, and a [`Layout`] is a shape and a
//! congruent stride. Values of up to 8 leaves (and 28 tokens) are stored
//! inline, with no allocation: a `Layout` is 144 bytes, and so is a
//! `Result<Layout, LayoutError>`. Operations on such layouts do not touch the
//! heap (an error may, to write its message); larger values move to the heap
//! whole. How the operations work on this representation is described in
//! `docs/architecture.md` (section 4) in the repository.

// Unsafe code only where a comment proves it sound: the disjoint thread
// parts of `partition_mut` (partition.rs), the reinterpreted storage of
// `recast` (recast.rs), the stores into the print buffer within the room
// checked for them and the written part of that buffer (print.rs), the
// head word of an inline tuple made and read as one `u64` (int_tuple.rs).
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_code)]
#![warn(missing_docs)]

// Everything above the `core` kernels needs `std` (without it the crate is
// the kernel layer alone).
macro_rules! std_modules {
    ($($m:ident)*) => {
        $(
            #[cfg(feature = "std")]
            mod $m;
        )*
    };
}
std_modules! {
    admissible algorithm bank_conflicts basis basis_layout coalesce complement composed composition coord copy_atom descriptor divide error expr grid int_tuple inverse layout layout_tv max_common mma_atom palette parse partition print print_atom print_html print_latex print_layout print_svg product recast slice swizzle swizzle_search tensor tiler
}
pub mod kernel;

#[cfg(feature = "std")]
pub use admissible::is_admissible;
#[cfg(feature = "std")]
pub use algorithm::{axpby, clear, copy, copy_if, fill, gemm};
#[cfg(feature = "std")]
pub use bank_conflicts::{
    BANK_BYTES, BANKS, BankReport, GroupWavefronts, MAX_ELEM_BYTES, WARP, bank_conflicts, bank_conflicts_composed,
    bank_wavefronts,
};
#[cfg(feature = "std")]
pub use basis::{BasisTuple, MAX_BASIS_DEPTH, MAX_BASIS_INDEX, ScaledBasis};
#[cfg(feature = "std")]
pub use basis_layout::{BasisLayout, composition_with_basis, make_identity_layout};
#[cfg(feature = "std")]
pub use coalesce::{coalesce, coalesce_by, filter};
#[cfg(feature = "std")]
pub use complement::{complement, complement_full};
#[cfg(feature = "std")]
pub use composed::{
    COMPOSED_CHECK_LIMIT, ComposedLayout, Stage, composition_with_composed, composition_with_swizzle,
    print_composed_layout,
};
#[cfg(feature = "std")]
pub use composition::composition;
#[cfg(feature = "std")]
pub use coord::{Coord, crd2idx, idx2crd};
#[cfg(feature = "std")]
pub use copy_atom::{CopyAtom, TiledCopy, make_tiled_copy, make_tiled_copy_a, make_tiled_copy_b, make_tiled_copy_c};
#[cfg(feature = "std")]
pub use descriptor::{BasisEntry, Descriptor, parse_descriptor};
#[cfg(feature = "std")]
pub use divide::{flat_divide, logical_divide, tiled_divide, zipped_divide};
#[cfg(feature = "std")]
pub use error::{LayoutError, Result};
#[cfg(feature = "std")]
pub use expr::{EvalError, Value, eval};
#[cfg(feature = "std")]
pub use grid::{Cell, Grid, MAX_PICTURE_CELLS};
#[cfg(feature = "std")]
pub use int_tuple::{IntTuple, elem_less, inner_product, prefix_product, shape_div};
#[cfg(feature = "std")]
pub use inverse::{left_inverse, right_inverse};
#[cfg(feature = "std")]
pub use layout::{Layout, make_layout};
#[cfg(feature = "std")]
pub use layout_tv::make_layout_tv;
#[cfg(feature = "std")]
pub use max_common::{max_common_layout, max_common_vector};
#[cfg(feature = "std")]
pub use mma_atom::{ATOM_CHECK_LIMIT, MmaAtom, TiledMma, gmma_layout_atom, make_tiled_mma};
// The macro-support API: what cute-macros calls, not for users.
#[doc(hidden)]
#[cfg(feature = "std")]
pub use parse::{LayoutText, LeafKind, LeafText, parse_macro_int_tuple, parse_macro_layout, parse_macro_tiler};
#[cfg(feature = "std")]
pub use partition::{
    Step, ThreadTensor, inner_partition, local_partition, local_partition_projected, local_tile, local_tile_projected,
    outer_partition,
};
#[cfg(feature = "std")]
pub use print_atom::{Figure, Panel, print_html_figure, print_latex_figure, print_svg_figure};
#[cfg(feature = "std")]
pub use print_html::print_html;
#[cfg(feature = "std")]
pub use print_latex::print_latex;
#[cfg(feature = "std")]
pub use print_layout::{print_basis_layout, print_layout};
#[cfg(feature = "std")]
pub use print_svg::{LABEL_LIMIT, RULER, print_svg};
#[cfg(feature = "std")]
pub use product::{blocked_product, flat_product, logical_product, raked_product, tiled_product, zipped_product};
#[cfg(feature = "std")]
pub use recast::{Pod, downcast, recast_layout, upcast, upcast_ceil};
#[cfg(feature = "std")]
pub use slice::{SliceCoord, slice, slice_and_offset};
#[cfg(feature = "std")]
pub use swizzle::{AnySwizzle, BitFieldXor, Swizzle};
#[cfg(feature = "std")]
pub use swizzle_search::{
    MAX_SEARCH_BITS, MAX_SEARCH_ELEMENTS, MAX_SEARCH_WORK, PhaseFigures, SmemAtom, SwizzleCandidate, SwizzleSearch,
    suggest_swizzle, swizzle_search_space,
};
#[cfg(feature = "std")]
pub use tensor::{
    Coords, Engine, EngineMut, ReadTensor, Tensor, TensorLayout, WriteTensor, make_fragment_like, make_identity_tensor,
    make_tensor, make_tensor_at, make_tensor_like,
};
#[cfg(feature = "std")]
pub use tiler::{AsTiler, Tiler, TilerRef};
