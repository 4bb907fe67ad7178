//! CuTe layouts as Rust types.
//!
//! A static layout's shape and stride are trees of typenum unsigned
//! integers (Rust tuples of `U4`, `U8`, ...), so `Layout![(4,8):(1,4)]` is a
//! zero-sized type, its size and cosize are associated constants, and
//! [`Layout::index`] inlines to the arithmetic one would write by hand.
//!
//! ```
//! use cute_static::prelude::*;
//! let a = layout!((4,(3,2)):(2,(8,1)));          // a zero-sized value
//! type B = Layout![((2,2),(4,2)):((1,8),(2,16))]; // the same kind of thing as a type
//! assert_eq!(a.to_string(), "(_4,(_3,_2)):(_2,(_8,_1))");
//! const N: usize = <B as StaticLayout>::SIZE;
//! assert_eq!(N, 32);
//! let b = B::default();
//! assert_eq!(b.index(22usize), 26);                  // integral coordinate
//! assert_eq!(b.index((2usize, 5usize)), 26);         // rank-2 coordinate
//! assert_eq!(b.index(((0usize, 1usize), (1usize, 1usize))), 26); // natural coordinate
//! assert_eq!(b.to_dynamic().to_string(), "((2,2),(4,2)):((1,8),(2,16))");
//! ```
//!
//! The algebra runs in trait resolution; for example:
//!
//! ```
//! use cute_static::prelude::*;
//! let a = layout!((6,2):(8,2));              // zero-sized value
//! type B = Layout![(4,3):(3,1)];             // the same thing as a type
//! let r = composition(a, B::default());      // result type found in trait resolution
//! assert_eq!(r.to_string(), "((_2,_2),_3):((_24,_2),_8)");
//! const N: usize = <Layout![(4,8):(1,4)] as StaticLayout>::SIZE;  // also COSIZE, RANK, DEPTH
//! assert_eq!(N, 32);
//! assert_eq!(a.index(5), 40);                // integral coordinate
//! assert_eq!(a.index((2, 1)), 18);           // natural coordinate, nested tuples allowed
//! let t = tile!(3:3, (2,4):(1,8));           // tiler
//! let d = logical_divide(layout!((9,(4,8)):(59,(13,1))), t);
//! let c = complement(layout!(4:2), shape!(24));
//! assert_eq!(c.to_string(), "(_2,_3):(_1,_8)");
//! let dy: cute_dynamic::Layout = d.to_dynamic();
//! assert_eq!(dy.to_string(), "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
//! ```
//!
//! Operations: [`coalesce`], [`coalesce_by`], [`filter`], [`flatten`], [`composition`],
//! [`complement`], [`right_inverse`], [`left_inverse`], [`logical_divide`],
//! [`zipped_divide`], [`tiled_divide`], [`flat_divide`],
//! [`logical_product`], [`zipped_product`], [`tiled_product`],
//! [`flat_product`], [`blocked_product`], [`raked_product`]. Generic code
//! bounds each by two public traits: the result's type, named in CamelCase
//! (`Compose` for composition, `RightInverse`, `LogicalDivide`), and its
//! value, the same name with `Value` (`ComposeValue`, `RightInverseValue`,
//! `LogicalDivideValue`):
//!
//! ```
//! use cute_static::prelude::*;
//! fn tiles<A: LogicalDivide<B>, B>(a: A, b: B) -> A::Output
//! where
//!     A::Output: LogicalDivideValue<A, B>,
//! {
//!     logical_divide(a, b)
//! }
//! assert_eq!(tiles(layout!(8:1), layout!(2:1)).to_string(), "(_2,_4):(_1,_2)");
//! ```
//!
//! An inadmissible operation does not compile; the
//! error names the violated condition (`stride divisibility condition`,
//! `shape divisibility condition`, `rank`, `not injective`). Also [`concat()`] (CuTe's
//! `make_layout(a, b, ...)`) and, with `std`, [`max_common_vector`] and
//! [`max_common_layout`].
//!
//! Coordinates (`coord.rs`): [`Layout::index`] evaluates a layout at any
//! coordinate ([`Coord`]: integral, rank-N or natural); [`idx2crd`] gives
//! the natural coordinate of a point of a shape and [`crd2idx`] its
//! integral one, colexicographically, as CuTe's functions of those names.
//!
//! ```
//! use cute_static::prelude::*;
//! let s = shape!(3, (2, 3));
//! assert_eq!(idx2crd(16usize, s), (1, (1, 2)));
//! assert_eq!(crd2idx((1usize, 5usize), s), 16);
//! ```
//!
//! # Run-time leaves
//!
//! A leaf may also be run-time: [`Dyn`] holds an `i64` in the layout value
//! (CuTe's `int` beside `Int<N>`). In the macros a braced expression is a
//! run-time leaf, in the type macros the word `Dyn` is; [`make_layout`]
//! builds the same from values ([`Int<N>`](Int) static, `usize`/`i64`
//! run-time). Run-time extents are checked positive (and the size and
//! offsets to fit in an `i64`) when the layout is made: `layout!` and
//! [`make_layout`] panic with the error's message, `try_layout!` and
//! [`try_make_layout`] return it. Indexing, printing and conversion work on
//! such layouts, and so do [`composition`], [`logical_divide`],
//! [`zipped_divide`], [`tiled_divide`] and [`flat_divide`] by a static
//! tiler, [`coalesce`], [`coalesce_by`], [`filter`], [`flatten`],
//! [`concat()`], [`complement`] against a run-time cotarget (a `usize` or a
//! [`Dyn`]), and [`logical_product`] (zipped, tiled, flat) of an all-static
//! tile by a layout with run-time leaves:
//! static parts are decided at compile time, a step that depends on a
//! run-time value keeps CuTe's padded form, and run-time conditions are
//! checked when the call runs. Every operation that can fail has two forms
//! with the same arguments (by value) and the same result type: `try_op`
//! returns cute-dynamic's `LayoutError` (always `Ok` for all-static
//! arguments), `op` panics with its message. The other operations take
//! all-static layouts only, for now.
//!
//! ```
//! use cute_static::prelude::*;
//! let (m, n) = (1000usize, 500usize);
//! let a = layout!(({m},{n}):(1,{m}));          // holds m and n
//! assert_eq!(a.to_string(), "(1000,500):(_1,1000)");
//! assert_eq!(a.index((3usize, 2usize)), 2003);
//! let t: Layout![(Dyn,Dyn):(1,Dyn)] = a;       // its type
//! assert_eq!(t.to_dynamic().to_string(), "(1000,500):(1,1000)");
//! let back = <Layout![(Dyn,Dyn):(1,Dyn)]>::try_from(&t.to_dynamic()).unwrap();
//! assert_eq!(back, a);
//! assert!(try_layout!(({0usize},8):(1,8)).is_err());
//! ```
//!
//! The text inside the macros is CuTe's notation (cute-dynamic's text
//! syntax, read by its parser; see `docs/architecture.md`):
//! `layout!(12:1)`, `layout!((4):(1))` (rank 1), `layout!((_4,_8):(_1,_4))`
//! (static markers accepted), `shape!(4,8)`, `stride!(1,4)`,
//! `tile!(3:3, (2,4):(1,8), 4)`.
//!
//! # Kernels
//!
//! [`Tensor`]s over slices, owned arrays or fragments ([`make_fragment_like`]:
//! storage sized by the layout's type), tiled and partitioned as in CuTe
//! ([`local_tile`], [`local_partition`], [`Tensor::partition_mut`] for
//! per-thread mutable parts), over plain or swizzled layouts
//! (`make_tensor(data, swizzle!(3, 4, 3).compose(layout))`). Tiles of a
//! ragged matrix come from a [`Predicated`] view ([`Tensor::predicated`]):
//! they may stick out of the data, interior tiles become ordinary tensors
//! with one check, edge tiles are read and written through predicated
//! copies. A [`Block`] runs threads with barriers ([`Thread::sync`]) over
//! [`SharedTile`]s whose write and read phases are checked. Generic kernels
//! bound their layouts with [`ThreadLayout`], [`PartitionBy`] and
//! [`Part`]. `examples/sgemm.rs` is a GEMM written with all of it.
//!
//! ```
//! use cute_static::prelude::*;
//! let (m, n) = (10usize, 7usize);
//! let data: Vec<f32> = (0..m * n).map(|x| x as f32).collect();
//! let a = make_tensor(&data[..], layout!(({m},{n}):(1,{m}))).predicated();
//! let edge = a.local_tile(shape!(4, 4), (2usize, 1usize));     // rows 8..12, columns 4..8
//! let mut frag = make_fragment_like::<f32, _>(&edge);            // 16 floats, sized by the type
//! edge.copy_to(&mut frag, 0.0);                                  // zero where the matrix ends
//! assert_eq!((frag[(1usize, 2usize)], frag[(2usize, 0usize)]), (69.0, 0.0));
//! ```
//!
//! # Features
//!
//! `std` (default): [`Layout::to_dynamic`] and the `to_dynamic` of shapes and
//! tilers (conversion to `cute-dynamic`'s run-time values, which need the
//! heap), `TryFrom<&cute_dynamic::Layout>`, and the `try_` forms whose
//! error is `cute_dynamic::LayoutError`. Without it the crate is `#![no_std]` and has no dependency on
//! `cute-dynamic`; everything else, `Display` included, stays (CI builds
//! `cargo build -p cute-static --no-default-features`).

#![cfg_attr(not(feature = "std"), no_std)]
// Unsafe code only where the tensor invariant (`tensor.rs`), the
// disjointness of thread parts (`partition.rs`), the checks of predicated
// views (`predication.rs`) and the phases of shared tiles (`block.rs`)
// justify it.
#![deny(unsafe_code)]
#![warn(missing_docs)]
// Without `std` the run-time-checked items (`Tensor::partition_mut`,
// `Block`, the divides' `…Value` traits, ...) do not exist, and the docs
// that mention them link to nothing: rustdoc writes those links as text.
#![cfg_attr(not(feature = "std"), allow(rustdoc::broken_intra_doc_links))]

extern crate self as cute_static;

#[macro_use]
mod arity;
mod algorithm;
mod basis_layout;
#[cfg(feature = "std")]
#[allow(unsafe_code)]
mod block;
mod coalesce;
mod complement;
mod composed;
mod composition;
mod coord;
mod coord_layout;
#[cfg(feature = "std")]
#[allow(unsafe_code)]
mod copy_atom;
#[cfg(feature = "std")]
mod copy_gpu;
// The solver's helper traits (the operations are re-exported at the root,
// their bounds named in `names.rs`).
mod detail;
mod divide;
mod int_tuple;
mod inverse;
mod layout;
mod layout_tv;
#[cfg(feature = "std")]
#[allow(unsafe_code)]
mod mma_atom;
#[cfg(feature = "std")]
mod mma_cpu;
#[cfg(feature = "std")]
mod mma_gpu;
mod names;
#[cfg(feature = "std")]
#[allow(unsafe_code)]
mod partition;
#[cfg(feature = "std")]
#[allow(unsafe_code)]
mod predication;
mod product;
#[cfg(feature = "std")]
#[allow(unsafe_code)]
mod recast;
// The run-time support: leaf values between layout types and flat buffers.
mod run_time;
mod slice;
mod swizzle;
#[allow(unsafe_code)]
mod tensor;
mod tiler;
#[cfg(feature = "std")]
mod vectorize;

pub use algorithm::TopModes;
#[doc(hidden)]
pub use algorithm::{GemmBy, R1, R2, R3, RMore};
pub use algorithm::{Mma, ReadTensor, WriteTensor, axpby, clear, copy, copy_if, fill, gemm};
pub use basis_layout::IdentityShape;
#[doc(hidden)]
pub use basis_layout::PathNode;
pub use basis_layout::{IdentityLayout, make_identity_layout};
#[cfg(feature = "std")]
pub use block::{Block, SharedTile, Thread};
pub use coalesce::{Coalesce, CoalesceBy, Filter, Flatten, coalesce, coalesce_by, filter, flatten};
#[cfg(feature = "std")]
#[doc(hidden)]
pub use complement::TryComplement;
#[cfg(feature = "std")]
pub use complement::try_complement;
pub use complement::{Complement, ComplementValue, complement};
pub use composed::{ComposedLayout, ComposedLeftInverse, ComposedRightInverse, SwizzleThrough, make_composed_layout};
#[cfg(feature = "std")]
#[doc(hidden)]
pub use composition::TryCompose;
#[cfg(feature = "std")]
pub use composition::try_composition;
pub use composition::{Compose, ComposeValue, composition};
pub use coord::{Coord, Crd2Idx, Idx2Crd, NaturalCoord, crd2idx, idx2crd};
#[doc(hidden)]
pub use coord::{CrdIndex, ShapeCoords};
#[cfg(feature = "std")]
#[doc(hidden)]
pub use coord_layout::ApplyOp;
#[doc(hidden)]
pub use coord_layout::{ByComponent, CuteTiler, Ints, LayoutKind, ShapeOf, StrideLeaves, TreeFmt};
#[cfg(feature = "std")]
pub use coord_layout::{ComposeOp, CoordOp, FlatDivideOp, LogicalDivideOp, TiledDivideOp, ZippedDivideOp};
pub use coord_layout::{CoordLayout, Coords, elem_less, make_identity_tensor};
pub use coord_layout::{IdentityAt, IdentityView, Origin, Zero};
#[cfg(feature = "std")]
#[doc(hidden)]
pub use copy_atom::CopyPartition;
#[cfg(feature = "std")]
pub use copy_atom::{
    CopyAtom, CopyBroadcast, CopyCall, CopyVec, DstToRef, PartD, PartS, PartitionD, PartitionS, Retile, Retiled,
    SrcToRef, ThrCopy, TiledCopy, TiledCopyOf, UniversalCopy, copy_atom_text, make_tiled_copy, make_tiled_copy_a,
    make_tiled_copy_b, make_tiled_copy_c,
};
#[cfg(feature = "std")]
pub use copy_gpu::{SM75_U32x4_LDSM_N, SM80_CP_ASYNC_CACHEALWAYS};
pub use divide::{
    FlatDivide, LogicalDivide, TiledDivide, ZippedDivide, flat_divide, logical_divide, tiled_divide, zipped_divide,
};
#[cfg(feature = "std")]
pub use divide::{try_flat_divide, try_logical_divide, try_tiled_divide, try_zipped_divide};
pub use int_tuple::{Dyn, Int, IntTuple, IntoIntTuple, Leaf, OffsetInt, StaticIntTuple, make_shape, make_stride};
pub use inverse::{left_inverse, right_inverse};
#[cfg(feature = "std")]
pub use inverse::{try_left_inverse, try_right_inverse};
pub use layout::{ConcatLayouts, Congruent, Extent, Layout, Mode, ShapeLeaf, StaticLayout, concat, make_layout};
#[cfg(feature = "std")]
pub use layout::{try_concat, try_make_layout};
pub use layout_tv::{MakeLayoutTv, make_layout_tv};
#[cfg(feature = "std")]
pub use mma_atom::mma_atom_text;
#[cfg(feature = "std")]
pub use partition::traits::ThreadLayout;
#[cfg(feature = "std")]
pub use partition::traits::{Dice, Fits, Inner, Outer, Partition, TilerFits};

pub use coord_layout::{ElemLess, IdentityStride};
#[cfg(feature = "std")]
pub use mma_atom::{
    AtomKernel, AtomLayout, MmaAtom, MmaCall, NoPermutation, PartA, PartB, PartC, PartitionA, PartitionB, PartitionC,
    PermMode, Permutation, ThrLayoutVmnk, ThrMma, TiledMma, TiledOperands, make_tiled_mma, make_tiled_mma_permuted,
};
#[cfg(feature = "std")]
pub use mma_atom::{AtomOperand, FragmentOf, IndexOf, Split2, Split3};
#[cfg(feature = "std")]
#[doc(hidden)]
pub use mma_atom::{AtomPartition, ComposeMode, OperandTv, PermLayout, Permute2, PermuteBy, PermutedPartition};
#[cfg(all(feature = "std", target_arch = "aarch64"))]
pub use mma_cpu::FmaF32x4;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub use mma_cpu::{FmaF32x8, FmaF32x16};
#[cfg(feature = "std")]
pub use mma_cpu::{FmaLanes, UniversalFma};
#[cfg(feature = "std")]
pub use mma_gpu::{
    SM70_8x8x4_F32F16F16F32_NT, SM80_16x8x8_F32F16F16F32_TN, SM80_16x8x16_F32F16F16F32_TN, SM90_64x8x16_F32F16F16_SS,
};
#[cfg(feature = "std")]
pub use names::{
    BlockedProductValue, FlatDivideValue, LogicalDivideValue, RakedProductValue, TiledDivideValue, ZippedDivideValue,
};
pub use names::{
    CoalesceByValue, CoalesceValue, FilterValue, FlatProductValue, FlattenValue, LeftInverse, LeftInverseValue,
    LogicalProductValue, RightInverse, RightInverseValue, TiledProductValue, ZippedProductValue,
};
#[cfg(feature = "std")]
pub use partition::{
    Overlap, ThreadTensor, X, inner_partition, local_partition, local_partition_proj, local_tile, local_tile_proj,
    outer_partition, try_inner_partition, try_local_partition, try_local_tile, try_outer_partition,
};
#[cfg(feature = "std")]
pub use partition::{Part, PartitionBy};
#[cfg(feature = "std")]
pub use predication::Predicated;
pub use product::{
    BlockedProduct, FlatProduct, LogicalProduct, RakedProduct, TiledProduct, ZippedProduct, blocked_product,
    flat_product, logical_product, raked_product, tiled_product, zipped_product,
};
#[cfg(feature = "std")]
pub use product::{
    try_blocked_product, try_flat_product, try_logical_product, try_raked_product, try_tiled_product,
    try_zipped_product,
};
#[cfg(feature = "std")]
pub use recast::RecastTarget;
#[cfg(feature = "std")]
#[doc(hidden)]
pub use recast::{Upcast, UpcastLeaves};
#[cfg(feature = "std")]
pub use run_time::FlatValues;
pub use slice::InDomain;
pub use slice::{__, Slice, SliceBy, Underscore, slice, slice_and_offset};
#[doc(hidden)]
pub use slice::{ModesLayout, SliceInto, VCons, VNil};
pub use swizzle::OffsetFn;
pub use swizzle::{Swizzle, Swizzle32B, Swizzle64B, Swizzle128B, SwizzleNone};
#[doc(hidden)]
pub use tensor::CuteCompactCol;
pub use tensor::TensorLayout;
pub use tensor::{CompactCol, OffsetRange, StaticCosize};
pub use tensor::{
    CompactLayout, CosizeType, DataEngine, DataEngineMut, Engine, Fragment, FragmentOrder, FragmentStride, HasLayout,
    LayoutLikeOrder, OutOfStorage, RawEngine, SizeOfShape, Storage, Tensor, TensorLike, make_fragment_like,
    make_owned_tensor, make_tensor, make_tensor_like,
};
#[cfg(feature = "std")]
pub use tensor::{try_make_tensor, try_make_tensor_at};
pub use tiler::{Tile, Tiler};
#[cfg(feature = "std")]
pub use vectorize::{max_common_layout, max_common_vector};

/// The typenum crate, whose unsigned integers are the static leaves.
pub use typenum;

/// Everything needed to write and use static layouts.
///
/// ```
/// use cute_static::prelude::*;
/// let l: Layout![(4,8):(8,1)] = layout!((4,8):(8,1));
/// assert_eq!(l.index((1usize, 1usize)), 9);
/// ```
pub mod prelude {
    pub use crate::ConcatLayouts;
    pub use crate::{
        __, Fragment, HasLayout, RawEngine, ReadTensor, Slice, Tensor, TensorLike, Underscore, WriteTensor, axpby,
        clear, copy, copy_if, crd, crd2idx, elem_less, fill, gemm, idx2crd, make_fragment_like, make_identity_tensor,
        make_owned_tensor, make_tensor, make_tensor_like, slice, slice_and_offset,
    };
    #[cfg(feature = "std")]
    pub use crate::{
        Block, Dice, Inner, Mma, Outer, Part, Partition, PartitionBy, Predicated, SharedTile, SliceBy, TensorLayout,
        Thread, ThreadLayout, TilerFits,
    };
    pub use crate::{
        BlockedProduct, Coalesce, CoalesceBy, Complement, Compose, Congruent, Coord, Crd2Idx, Dyn, Filter, FlatDivide,
        FlatProduct, Flatten, Idx2Crd, Int, IntTuple, Layout, Leaf, LeftInverse, LogicalDivide, LogicalProduct,
        MakeLayoutTv, Mode, RakedProduct, RightInverse, ShapeLeaf, StaticIntTuple, StaticLayout, Tile, TiledDivide,
        TiledProduct, Tiler, ZippedDivide, ZippedProduct, blocked_product, coalesce, coalesce_by, complement,
        composition, concat, filter, flat_divide, flat_product, flatten, left_inverse, logical_divide, logical_product,
        make_layout, make_layout_tv, make_shape, make_stride, raked_product, right_inverse, tiled_divide,
        tiled_product, zipped_divide, zipped_product,
    };
    #[cfg(feature = "std")]
    pub use crate::{
        BlockedProductValue, FlatDivideValue, LogicalDivideValue, RakedProductValue, TiledDivideValue,
        ZippedDivideValue,
    };
    pub use crate::{
        CoalesceByValue, CoalesceValue, ComplementValue, ComposeValue, FilterValue, FlatProductValue, FlattenValue,
        LeftInverseValue, LogicalProductValue, RightInverseValue, TiledProductValue, ZippedProductValue,
    };
    pub use crate::{IdentityLayout, make_identity_layout};
    #[cfg(feature = "std")]
    pub use crate::{
        ThreadTensor, X, inner_partition, local_partition, local_partition_proj, local_tile, local_tile_proj,
        outer_partition, try_inner_partition, try_local_partition, try_local_tile, try_make_tensor, try_make_tensor_at,
        try_outer_partition,
    };
    #[cfg(feature = "std")]
    pub use crate::{max_common_layout, max_common_vector};
    #[cfg(feature = "std")]
    pub use crate::{
        try_blocked_product, try_complement, try_composition, try_flat_divide, try_flat_product, try_left_inverse,
        try_logical_divide, try_logical_product, try_raked_product, try_right_inverse, try_tiled_divide,
        try_tiled_product, try_zipped_divide, try_zipped_product,
    };
    #[cfg(feature = "std")]
    pub use crate::{try_concat, try_make_layout};
    #[cfg(feature = "std")]
    pub use cute_macros::try_layout;
    pub use cute_macros::{Layout, Shape, Stride, Tile, layout, shape, stride, swizzle, tile};
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
