//! GPU copy atoms as data, in units of `half_t` (16-bit) values as CuTe
//! prints `Copy_Atom<..., half_t>`: the layouts are facts copied from
//! CuTe's traits (`copy_traits_sm75.hpp`, `copy_traits_sm80.hpp`) and
//! checked in a test against CuTe's own print (`tests/golden/cute_atoms.txt`).
//! They cannot run here: they implement [`CopyAtom`], not
//! [`CopyCall`](crate::CopyCall).

// CuTe's names: a reader looks the atom up by them.
#![allow(non_camel_case_types)]

use crate::copy_atom::CopyAtom;
use typenum::{U1, U8, U32};

/// `ldmatrix.sync.aligned.x4.m8n8.shared.b16`: a warp loads four 8×8
/// matrices of 16-bit values from shared memory; each thread gives one row
/// address (8 values) and receives 2 values of each matrix.
///
/// ```
/// use cute_static::{copy_atom_text, SM75_U32x4_LDSM_N};
/// assert!(copy_atom_text::<SM75_U32x4_LDSM_N>(16).contains("ValLayoutDst: (_32,(_2,_4)):(_2,(_1,_64))"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SM75_U32x4_LDSM_N;
impl CopyAtom for SM75_U32x4_LDSM_N {
    const NAME: &'static str = "SM75_U32x4_LDSM_N";
    type NumThr = U32;
    type NumVal = U8;
    type ThrId = cute_macros::Layout![32:1];
    type LayoutSrcTv = cute_macros::Layout![(32,8):(8,1)];
    type LayoutDstTv = cute_macros::Layout![(32,(2,4)):(2,(1,64))];
    type LayoutRefTv = cute_macros::Layout![(32,(2,4)):(2,(1,64))];
}

/// `cp.async.ca.shared.global` of 16 bytes (`SM80_CP_ASYNC_CACHEALWAYS<uint128_t>`):
/// one thread copies 8 `half_t` from global to shared memory without
/// passing through registers.
///
/// ```
/// use cute_static::{copy_atom_text, SM80_CP_ASYNC_CACHEALWAYS};
/// assert!(copy_atom_text::<SM80_CP_ASYNC_CACHEALWAYS>(16).contains("ValLayoutSrc: (_1,_8):(_0,_1)"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SM80_CP_ASYNC_CACHEALWAYS;
impl CopyAtom for SM80_CP_ASYNC_CACHEALWAYS {
    const NAME: &'static str = "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>";
    type NumThr = U1;
    type NumVal = U8;
    type ThrId = cute_macros::Layout![1:0];
    type LayoutSrcTv = cute_macros::Layout![(1,8):(0,1)];
    type LayoutDstTv = cute_macros::Layout![(1,8):(0,1)];
    type LayoutRefTv = cute_macros::Layout![(1,8):(0,1)];
}
