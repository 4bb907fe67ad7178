//! GPU MMA atoms as data: the layouts of CuTe's `MMA_Traits` for the
//! tensor-core instructions users study most, so that partitions,
//! fragments and pictures of real GPU kernels are computed (and checked) in
//! Rust. They cannot run here: they implement [`MmaAtom`], not
//! [`MmaCall`](crate::MmaCall).
//!
//! Each layout is a fact copied from CuTe's traits (`mma_traits_sm70.hpp`,
//! `mma_traits_sm80.hpp`, `mma_traits_sm90_gmma.hpp`) and checked in a test
//! against the text CuTe's own `print(MMA_Atom<...>{})` gives, compiled on
//! the host from CuTe's headers (`benches/cute_cpp/atoms.sh` writes
//! `tests/golden/cute_atoms.txt`).

// CuTe's names: a reader looks the atom up by them.
#![allow(non_camel_case_types)]

use crate::mma_atom::MmaAtom;
use typenum::{U4, U8, U16, U64};

macro_rules! gpu_atom {
    ($(#[$doc:meta])* $name:ident, $cute:literal, ($M:ty, $N:ty, $K:ty), $thr:ty, $a:ty, $b:ty, $c:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl MmaAtom for $name {
            const NAME: &'static str = $cute;
            type M = $M;
            type N = $N;
            type K = $K;
            type ThrId = $thr;
            type LayoutATv = $a;
            type LayoutBTv = $b;
            type LayoutCTv = $c;
        }
    };
}

gpu_atom!(
    /// Volta's `mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32`: an 8×8×4
    /// product by a quad pair (threads `(4,2):(1,16)` of the warp).
    ///
    /// ```
    /// use cute_static::{MmaAtom, SM70_8x8x4_F32F16F16F32_NT};
    /// assert_eq!(SM70_8x8x4_F32F16F16F32_NT::shape_mnk(), (8, 8, 4));
    /// ```
    SM70_8x8x4_F32F16F16F32_NT,
    "SM70_8x8x4_F32F16F16F32_NT",
    (U8, U8, U4),
    cute_macros::Layout![(4,2):(1,16)],
    cute_macros::Layout![((4,2),4):((8,4),1)],
    cute_macros::Layout![((4,2),4):((8,4),1)],
    cute_macros::Layout![((2,2,2),(2,2,2)):((1,16,4),(8,2,32))]
);

gpu_atom!(
    /// Ampere's `mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32`: a
    /// 16×8×8 product by a warp.
    ///
    /// ```
    /// use cute_static::{MmaAtom, SM80_16x8x8_F32F16F16F32_TN};
    /// assert_eq!(SM80_16x8x8_F32F16F16F32_TN::shape_mnk(), (16, 8, 8));
    /// ```
    SM80_16x8x8_F32F16F16F32_TN,
    "SM80_16x8x8_F32F16F16F32_TN",
    (U16, U8, U8),
    cute_macros::Layout![32:1],
    cute_macros::Layout![((4,8),(2,2)):((32,1),(16,8))],
    cute_macros::Layout![((4,8),2):((16,1),8)],
    cute_macros::Layout![((4,8),(2,2)):((32,1),(16,8))]
);

gpu_atom!(
    /// Ampere's `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`: a
    /// 16×8×16 product by a warp.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// assert_eq!(mma.size(), 128);
    /// assert_eq!(mma.tile_size_mnk(), (32, 16, 16));
    /// assert_eq!(mma.get_slice(127).coord(), (31, 1, 1, 0));
    /// ```
    SM80_16x8x16_F32F16F16F32_TN,
    "SM80_16x8x16_F32F16F16F32_TN",
    (U16, U8, U16),
    cute_macros::Layout![32:1],
    cute_macros::Layout![((4,8),(2,2,2)):((32,1),(16,8,128))],
    cute_macros::Layout![((4,8),(2,2)):((16,1),(8,64))],
    cute_macros::Layout![((4,8),(2,2)):((32,1),(16,8))]
);

gpu_atom!(
    /// Hopper's warpgroup MMA `wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16`
    /// with both operands in shared memory, K-major: a 64×8×16 product by
    /// 128 threads; A and B are read from shared memory by the whole
    /// warpgroup (their thread mode has stride 0). The shared-memory layout
    /// atoms CuTe offers for it are swizzled: `Sw<3,4,3> ∘ (8,64):(64,1)`
    /// of `half_t` for 128-byte rows (`GMMA::Layout_K_SW128_Atom`).
    ///
    /// ```
    /// use cute_static::{MmaAtom, SM90_64x8x16_F32F16F16_SS};
    /// assert_eq!(SM90_64x8x16_F32F16F16_SS::shape_mnk(), (64, 8, 16));
    /// ```
    SM90_64x8x16_F32F16F16_SS,
    "SM90_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    (U64, U8, U16),
    cute_macros::Layout![128:1],
    cute_macros::Layout![(128,(64,16)):(0,(1,64))],
    cute_macros::Layout![(128,(8,16)):(0,(1,8))],
    cute_macros::Layout![((4,8,4),(2,2,1)):((128,1,16),(64,8,512))]
);
