//! CuTe's copy atoms and tiled copies (`atom/copy_atom.hpp`): which thread
//! moves which values in one instruction, and the partitions of a source
//! and a destination tile that follow.
//!
//! A [`CopyAtom`] is CuTe's `Copy_Traits` read in units of the value type:
//! a thread layout and the source, destination and reference thread-value
//! layouts. [`make_tiled_copy`] repeats an atom over a layout of threads and
//! values (CuTe's `make_tiled_copy(atom, thr_layout, val_layout)`: the
//! thread-value layout of `make_layout_tv` and its tile), and
//! [`TiledCopy::get_slice`]'s `partition_s` / `partition_d` split a tile
//! into one thread's values, `(CPY, CPY_M, CPY_N)`, as CuTe's `tidfrg_S|D`
//! (its `tile2thrfrg`):
//!
//! ```text
//! tile (M',N') --zipped_divide by Tiler_MN-->  ((TileM,TileN), (RestM,RestN))
//! TV (thr,val) --zipped_divide by (NT,W)-->    ((atom_tid,atom_val), (rest_tid,rest_val))
//!              --atom mode ∘ right_inverse(Ref) ∘ Src|Dst, zipped-->
//!                                               ((trg_tid,rest_tid), (trg_val,rest_val))
//! tile mode ∘ that, thread tid's offset, its values with the rest tiles: (CPY, CPY_M, CPY_N)
//! ```
//!
//! [`make_tiled_copy_a`] (`_b`, `_c`) take their thread-value layout from a
//! tiled MMA (CuTe's `make_tiled_copy_A|B|C`), and [`ThrCopy::retile_d`]
//! (CuTe's `retile_D`) views a fragment held in the MMA's value order in
//! the copy's order, so that the copy fills what the MMA reads.
//!
//! The atoms that run on the CPU are one thread each (`UniversalCopy`,
//! `CopyVec` of `W` contiguous values, `CopyBroadcast` of one value into
//! `W`) and implement [`CopyCall`], so `TiledCopy::copy` moves data with
//! them; the GPU copy atoms are data (`copy_gpu.rs`): their tiled copies
//! partition tiles (checked against CuTe's `get_layoutS|D_TV`) but do not
//! copy.

use crate::composition::{Compose, ComposeValue};
use crate::detail::SizeOf;
use crate::detail::{Ints, LayoutKind};
use crate::divide::{DivideValue, ZippedArr, ZippedDivide};
use crate::inverse::StaticRightInverse as RightInverse;
use crate::layout::{ConcatLayouts, Layout, StaticLayout};
use crate::layout_tv::MakeLayoutTv;
use crate::mma_atom::{AtomOperand, IndexOf, Split2, Split3, TiledOperands};
use crate::partition::traits::Fits;
use crate::product::LogicalProduct;
use crate::recast::Upcast;
use crate::tensor::CuteCompactCol;
use crate::tensor::{DataEngine, DataEngineMut, Engine, Tensor};
use core::marker::PhantomData;
use core::ops::Mul;
use typenum::Prod;
use typenum::{U0, U1, Unsigned};

/// CuTe's `Copy_Traits` of an instruction, in units of its value type: the
/// threads that take part and which values each moves.
///
/// Post-conditions of the atoms in this crate (tested): the thread-value
/// layouts' two modes have sizes `size(ThrId)` and `NumVal`; `LayoutRefTv`
/// (the destination's, for every atom here) is a bijection onto
/// `0..size(ThrId)·NumVal`.
///
/// ```
/// use cute_static::{CopyAtom, CopyBroadcast, CopyVec, SM75_U32x4_LDSM_N};
/// use cute_static::typenum::{U4, Unsigned};
/// // The values one instruction moves over all its threads, and where each thread reads them.
/// fn describe<A: CopyAtom>(_: A) -> (usize, String) {
///     (A::NumThr::USIZE * A::NumVal::USIZE, A::LayoutSrcTv::default().to_string())
/// }
/// assert_eq!(describe(CopyVec::<f32, U4>::new()), (4, "(_1,_4):(_0,_1)".to_string()));
/// assert_eq!(describe(CopyBroadcast::<f32, U4>::new()), (4, "(_1,_4):(_0,_0)".to_string())); // one value, 4 times
/// // ldmatrix.x4 in 16-bit values: 32 threads each read one 8-value row of four 8x8 matrices.
/// assert_eq!(describe(SM75_U32x4_LDSM_N), (256, "(_32,_8):(_8,_1)".to_string()));
/// ```
pub trait CopyAtom: Copy {
    /// CuTe's name of the atom.
    const NAME: &'static str;
    /// Threads of one atom: `size(ThrId)`.
    type NumThr: Unsigned + Default + Copy + 'static;
    /// Values each thread moves.
    type NumVal: Unsigned + Default + Copy + 'static;
    /// `thr → thread index`.
    type ThrId: StaticLayout + IndexOf;
    /// `(thr, val) →` index of the source value.
    type LayoutSrcTv: StaticLayout;
    /// `(thr, val) →` index of the destination value.
    type LayoutDstTv: StaticLayout;
    /// `(thr, val) →` index in the atom's reference order.
    type LayoutRefTv: StaticLayout;
}

/// CuTe's `print(Copy_Atom<...>{})` of an atom, byte for byte as CuTe
/// prints it (`bits`: the value type's width, CuTe's `ValueType`).
///
/// ```
/// use cute_static::{copy_atom_text, CopyVec};
/// use cute_static::typenum::U8;
/// assert_eq!(
///     copy_atom_text::<CopyVec<u16, U8>>(16),
///     "Copy_Atom\n  ThrID:        _1:_0\n  ValLayoutSrc: (_1,_8):(_0,_1)\n  ValLayoutDst: (_1,_8):(_0,_1)\n  \
///      ValLayoutRef: (_1,_8):(_0,_1)\n  ValueType:    16b\n"
/// );
/// ```
#[cfg(feature = "std")]
pub fn copy_atom_text<Atom: CopyAtom>(bits: usize) -> String {
    format!(
        "Copy_Atom\n  ThrID:        {}\n  ValLayoutSrc: {}\n  ValLayoutDst: {}\n  ValLayoutRef: {}\n  ValueType:    {bits}b\n",
        Atom::ThrId::default(),
        Atom::LayoutSrcTv::default(),
        Atom::LayoutDstTv::default(),
        Atom::LayoutRefTv::default()
    )
}

/// A copy atom that runs on this CPU: one thread moves `NumVal` values a
/// call. What [`TiledCopy::copy`] needs of its atom.
///
/// ```
/// use cute_static::{CopyBroadcast, CopyCall, CopyVec};
/// use cute_static::typenum::{U2, Unsigned};
/// // Fills `dst` call by call, the call for `dst[i..i + W]` reading from `src[i..]`.
/// fn fill_by<A: CopyCall<Elem = u8>>(atom: A, src: &[u8], dst: &mut [u8]) {
///     let w = A::NumVal::USIZE;
///     for (i, d) in dst.chunks_mut(w).enumerate() {
///         atom.call(&src[i * w..], d);
///     }
/// }
/// let (src, mut dst) = ([1, 2, 3, 4, 5, 6], [0u8; 6]);
/// fill_by(CopyVec::<u8, U2>::new(), &src, &mut dst);
/// assert_eq!(dst, [1, 2, 3, 4, 5, 6]);
/// fill_by(CopyBroadcast::<u8, U2>::new(), &src, &mut dst);
/// assert_eq!(dst, [1, 1, 3, 3, 5, 5]);                    // a broadcast reads one value a call
/// ```
pub trait CopyCall: CopyAtom<ThrId = Layout<U1, U0>> {
    /// The element type.
    type Elem: Copy;
    /// The source values of one call, as a layout of the atom's values
    /// (`W:1` for a contiguous load, `W:0` for a broadcast).
    type SrcVals: StaticLayout + IndexOf;
    /// The destination values of one call (`W:1`).
    type DstVals: StaticLayout + IndexOf;
    /// Moves the values: `src` holds the distinct source values of one
    /// call (`cosize(SrcVals)`), `dst` the `NumVal` destinations.
    ///
    /// # Panics
    ///
    /// When a slice is shorter than that.
    ///
    /// ```
    /// use cute_static::{CopyBroadcast, CopyCall, CopyVec};
    /// use cute_static::typenum::U4;
    /// let mut d = [0u8; 4];
    /// CopyVec::<u8, U4>::new().call(&[1, 2, 3, 4, 5], &mut d);       // reads 4 source values
    /// assert_eq!(d, [1, 2, 3, 4]);
    /// CopyBroadcast::<u8, U4>::new().call(&[9], &mut d);             // reads 1
    /// assert_eq!(d, [9; 4]);
    /// ```
    fn call(&self, src: &[Self::Elem], dst: &mut [Self::Elem]);
}

macro_rules! one_thread_atom {
    ($(#[$doc:meta])* $name:ident, $cute:literal, $W:ty => $Wv:ident, src $src:ty, $vals:ty, |$s:ident, $d:ident| $body:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name<T, W = U1>(PhantomData<fn() -> (T, W)>);
        impl<T, W> $name<T, W> {
            /// The atom: a zero-sized value (all there is to it is in its
            /// type), made in `const` contexts too.
            ///
            /// ```
            #[doc = concat!("use cute_static::", stringify!($name), ";")]
            /// use cute_static::typenum::U4;
            #[doc = concat!("const ATOM: ", stringify!($name), "<f32, U4> = ", stringify!($name), "::new();")]
            /// assert_eq!(size_of_val(&ATOM), 0);
            /// ```
            #[inline(always)]
            pub const fn new() -> Self {
                $name(PhantomData)
            }
        }
        impl<T, W> Default for $name<T, W> {
            #[inline(always)]
            fn default() -> Self {
                Self::new()
            }
        }
        impl<T, W> Clone for $name<T, W> {
            #[inline(always)]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T, W> Copy for $name<T, W> {}
        impl<T, $Wv> CopyAtom for $name<T, $Wv>
        where
            $Wv: Unsigned + Default + Copy + 'static,
            Layout<(U1, $Wv), (U0, U1)>: StaticLayout,
            Layout<(U1, $Wv), (U0, U0)>: StaticLayout,
        {
            const NAME: &'static str = $cute;
            type NumThr = U1;
            type NumVal = $W;
            type ThrId = Layout<U1, U0>;
            type LayoutSrcTv = $src;
            type LayoutDstTv = Layout<(U1, $W), (U0, U1)>;
            type LayoutRefTv = Layout<(U1, $W), (U0, U1)>;
        }
        impl<T: Copy, $Wv> CopyCall for $name<T, $Wv>
        where
            $Wv: Unsigned + Default + Copy + 'static,
            Layout<(U1, $Wv), (U0, U1)>: StaticLayout,
            Layout<(U1, $Wv), (U0, U0)>: StaticLayout,
            Layout<$Wv, U1>: StaticLayout + IndexOf,
            Layout<$Wv, U0>: StaticLayout + IndexOf,
        {
            type Elem = T;
            type SrcVals = $vals;
            type DstVals = Layout<$W, U1>;
            #[inline(always)]
            #[track_caller]
            fn call(&self, $s: &[T], $d: &mut [T]) {
                $body
            }
        }
    };
}

one_thread_atom!(
    /// `W` contiguous values (CuTe's `UniversalCopy<uint_bit_t<W·bits>>`
    /// read in values of `T`): one load and one store of `W·size_of::<T>()`
    /// bytes, which the compiler emits as vector moves. `CopyVec<T>` (W = 1)
    /// is CuTe's `UniversalCopy<T>`.
    ///
    /// ```
    /// use cute_static::{CopyCall, CopyVec};
    /// use cute_static::typenum::U4;
    /// let mut d = [0u8; 4];
    /// CopyVec::<u8, U4>::new().call(&[1, 2, 3, 4], &mut d);
    /// assert_eq!(d, [1, 2, 3, 4]);
    /// ```
    CopyVec, "UniversalCopy", W => W, src Layout<(U1, W), (U0, U1)>, Layout<W, U1>,
    |src, dst| dst[..W::USIZE].copy_from_slice(&src[..W::USIZE])
);

one_thread_atom!(
    /// One source value into `W` destinations (a broadcast: its source
    /// layout `(1,W):(0,0)`), as a SIMD broadcast load does.
    ///
    /// ```
    /// use cute_static::{CopyBroadcast, CopyCall};
    /// use cute_static::typenum::U4;
    /// let mut d = [0f32; 4];
    /// CopyBroadcast::<f32, U4>::new().call(&[2.5], &mut d);
    /// assert_eq!(d, [2.5; 4]);
    /// ```
    CopyBroadcast, "Broadcast", W => W, src Layout<(U1, W), (U0, U0)>, Layout<W, U0>,
    |src, dst| dst[..W::USIZE].fill(src[0])
);

/// CuTe's `UniversalCopy<T>`: one value. The same as `CopyVec<T, U1>`.
///
/// One value a call, so a group is always contiguous: a tiled copy of it
/// takes a source and a destination of any strides (a gather, a transpose),
/// where a wider [`CopyVec`] needs its groups contiguous.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{copy_atom_text, make_tiled_copy, UniversalCopy};
/// let atom: UniversalCopy<i32> = UniversalCopy::new();
/// assert!(copy_atom_text::<UniversalCopy<i32>>(32).contains("ValLayoutSrc: (_1,_1):(_0,_1)"));
/// let copy = make_tiled_copy(atom, layout!((1,1):(0,0)), layout!((1,1):(0,0)));
/// let (src, mut dst) = ([0, 1, 2, 3, 4, 5], [0; 6]);
/// let thr = copy.get_slice(0);
/// let s = thr.partition_s(make_tensor(&src[..], layout!((2,3):(3,1))));         // row-major
/// copy.copy(&s, &mut thr.partition_d(make_tensor(&mut dst[..], layout!((2,3):(1,2)))));
/// assert_eq!(dst, [0, 3, 1, 4, 2, 5]);                    // stored column-major: the transpose
/// ```
pub type UniversalCopy<T> = CopyVec<T, U1>;

/// CuTe's `TiledCopy`: a copy atom repeated over the threads and values of
/// a thread-value layout `Tv` (`(thr, val) →` index in the column-major
/// tile) covering a tile of shape `TilerMn`. Made by [`make_tiled_copy`]
/// (or [`make_tiled_copy_a`], `_b`, `_c` from a tiled MMA); each thread's
/// [`get_slice`](Self::get_slice) partitions a source and a destination,
/// and [`copy`](Self::copy) moves them when the atom runs on this CPU.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy, CopyVec};
/// use cute_static::typenum::U2;
/// // 4x2 threads, each moving 2 adjacent rows in one call: an (8,2) tile a step.
/// let copy = make_tiled_copy(CopyVec::<i32, U2>::new(), layout!((4,2):(1,4)), layout!((2,1):(1,0)));
/// assert_eq!((copy.size(), copy.tiler_mn().to_string_cute()), (8, "(_8,_2)".to_string()));
/// assert_eq!(copy.layout_tv().to_string(), "(_8,_2):(_2,_1)");    // thread t, value v: element 2t + v
/// // A (16,4) matrix into one with leading dimension 20, each thread its part of the 2x2 tiles.
/// let src: Vec<i32> = (0..64).collect();
/// let mut dst = vec![0; 80];
/// for t in 0..copy.size() {
///     let thr = copy.get_slice(t);
///     let s = thr.partition_s(make_tensor(&src[..], layout!((16,4):(1,16))));
///     copy.copy(&s, &mut thr.partition_d(make_tensor(&mut dst[..], layout!((16,4):(1,20)))));
/// }
/// assert!((0..4).all(|n| dst[20 * n..20 * n + 16] == src[16 * n..16 * n + 16]));
/// ```
#[derive(Debug)]
pub struct TiledCopy<Atom, Tv, TilerMn> {
    atom: Atom,
    tv: PhantomData<fn() -> (Tv, TilerMn)>,
}
impl<Atom: Copy, Tv, TilerMn> Clone for TiledCopy<Atom, Tv, TilerMn> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<Atom: Copy, Tv, TilerMn> Copy for TiledCopy<Atom, Tv, TilerMn> {}

/// The type of `make_tiled_copy(atom, thr, val)` for layouts of types
/// `Thr` and `Val`: name it in signatures.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy, CopyVec, TiledCopyOf};
/// use cute_static::typenum::U8;
/// type Pack = TiledCopyOf<CopyVec<f32, U8>, Layout![(1,1):(0,0)], Layout![(16,1):(1,0)]>;
/// let c: Pack = make_tiled_copy(CopyVec::<f32, U8>::new(), layout!((1,1):(0,0)), layout!((16,1):(1,0)));
/// assert_eq!(c.tiler_mn().to_string_cute(), "(_16,_1)");
/// ```
pub type TiledCopyOf<Atom, Thr, Val> =
    TiledCopy<Atom, <Thr as MakeLayoutTv<Val>>::Tv, <Thr as MakeLayoutTv<Val>>::Tiler>;

/// `make_tiled_copy(atom, thr_layout, val_layout)`: CuTe's construction,
/// the thread-value layout and tile of
/// [`make_layout_tv`](crate::make_layout_tv)`(thr_layout, val_layout)`.
/// Each thread's values come in groups of the atom's `NumVal`, which must
/// divide `size(val_layout)`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy, CopyVec};
/// use cute_static::typenum::U4;
/// // 32x8 threads, 4 values each along M: a (128,8) tile, as CuTe's docs.
/// let copy = make_tiled_copy(CopyVec::<f32, U4>::new(), layout!((32,8):(1,32)), layout!((4,1):(1,0)));
/// assert_eq!(copy.layout_tv().to_string(), "(_256,_4):(_4,_1)");
/// assert_eq!(copy.tiler_mn().to_string_cute(), "(_128,_8)");
/// ```
#[inline(always)]
pub fn make_tiled_copy<Atom: CopyAtom, Thr, Val>(atom: Atom, thr: Thr, val: Val) -> TiledCopy<Atom, Thr::Tv, Thr::Tiler>
where
    Thr: MakeLayoutTv<Val>,
{
    let _ = (thr, val);
    TiledCopy { atom, tv: PhantomData }
}

// CuTe's `make_tiled_copy_A|B|C`: a tiled copy over one operand's
// thread-value layout and tile of a tiled MMA.
macro_rules! tiled_copy_of_operand {
    ($(#[$doc:meta])* $name:ident, $Tv:ident, $Tile:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<Atom: CopyAtom, M: TiledOperands>(atom: Atom, mma: &M) -> TiledCopy<Atom, M::$Tv, M::$Tile> {
            let _ = mma;
            TiledCopy { atom, tv: PhantomData }
        }
    };
}

tiled_copy_of_operand!(
    /// CuTe's `make_tiled_copy_A(copy_atom, tiled_mma)`: a tiled copy whose
    /// threads move the A values the tiled MMA's threads hold, over its
    /// `(M, K)` tile: thread-value layout [`TiledMma::layout_a_tv`](crate::TiledMma::layout_a_tv), tile
    /// `(tile_size_m, tile_size_k)`. Its `retile_d` turns an A fragment from
    /// `partition_fragment_a` into the copy's order.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy_a, make_tiled_mma, SM75_U32x4_LDSM_N, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// let copy = make_tiled_copy_a(SM75_U32x4_LDSM_N, &mma);
    /// assert_eq!(copy.tiler_mn().to_string_cute(), "(_32,_16)");
    /// assert_eq!(copy.size(), 128);
    /// ```
    make_tiled_copy_a, LayoutATv, TileA
);

tiled_copy_of_operand!(
    /// CuTe's `make_tiled_copy_B(copy_atom, tiled_mma)`: as
    /// [`make_tiled_copy_a`] for B, over the `(N, K)` tile.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy_b, make_tiled_mma, CopyVec, SM80_16x8x16_F32F16F16F32_TN};
    /// use cute_static::typenum::U2;
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// let copy = make_tiled_copy_b(CopyVec::<u16, U2>::new(), &mma);
    /// assert_eq!(copy.tiler_mn().to_string_cute(), "(_16,_16)");
    /// ```
    make_tiled_copy_b, LayoutBTv, TileB
);

tiled_copy_of_operand!(
    /// CuTe's `make_tiled_copy_C(copy_atom, tiled_mma)`: as
    /// [`make_tiled_copy_a`] for the accumulators C, over the `(M, N)` tile.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy_c, make_tiled_mma, UniversalCopy, UniversalFma};
    /// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,8,1):(1,4,0)));
    /// let copy = make_tiled_copy_c(UniversalCopy::<f32>::new(), &mma);
    /// assert_eq!(copy.tiler_mn().to_string_cute(), "(_4,_8)");
    /// assert_eq!(copy.layout_tv().to_string(), "(_32,(_1,(_1,_1))):(_1,(_0,(_0,_0)))"); // CuTe's get_layoutC_TV
    /// ```
    make_tiled_copy_c, LayoutCTv, TileC
);

impl<Atom: CopyAtom, Tv: StaticLayout, TilerMn: Default + Copy> TiledCopy<Atom, Tv, TilerMn> {
    /// The thread-value layout `(thr, val) →` index in the column-major
    /// tile of shape [`tiler_mn`](Self::tiler_mn).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// // Thread t's value v is element 4t + v of the (16,2) tile: 4 consecutive rows.
    /// assert_eq!(copy.layout_tv().to_string(), "(_8,_4):(_4,_1)");
    /// ```
    #[inline(always)]
    pub fn layout_tv(&self) -> Tv {
        Tv::default()
    }
    /// The tile's shape `(M, N)`: what the threads copy together in one
    /// step.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// assert_eq!(copy.tiler_mn().to_string_cute(), "(_16,_2)");   // (4·4, 2·1)
    /// ```
    #[inline(always)]
    pub fn tiler_mn(&self) -> TilerMn {
        TilerMn::default()
    }
    /// The atom.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyCall, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// let mut d = [0u32; 4];
    /// copy.atom().call(&[5, 6, 7, 8], &mut d);                // one thread's one call
    /// assert_eq!(d, [5, 6, 7, 8]);
    /// ```
    #[inline(always)]
    pub fn atom(&self) -> Atom {
        self.atom
    }
    /// The number of threads: `size(thr_layout)` for
    /// [`make_tiled_copy`], the MMA's for [`make_tiled_copy_a`] (`_b`, `_c`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// assert_eq!(copy.size(), 8);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize
    where
        Tv: Split2,
        <Tv as Split2>::M0: StaticLayout,
    {
        <<Tv as Split2>::M0 as StaticLayout>::SIZE
    }
    /// Thread `tid`'s view (CuTe's `get_slice`).
    ///
    /// # Panics
    ///
    /// When `tid` is not a thread of the tiled copy.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// // Thread 5 is (1,1) of the (4,2) threads: rows 4..8 of column 1.
    /// let coords = copy.get_slice(5).partition_s(make_identity_tensor(shape!(16, 2)));
    /// assert_eq!(coords.at((0usize, 0usize, 0usize)), (4, 1));
    /// assert_eq!(coords.at((3usize, 0usize, 0usize)), (7, 1));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn get_slice(&self, tid: usize) -> ThrCopy<Atom, Tv, TilerMn>
    where
        Tv: Split2,
        <Tv as Split2>::M0: StaticLayout,
    {
        let n = self.size();
        if tid >= n {
            thread_panic(tid, n)
        }
        ThrCopy { tiled: *self, tid }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn thread_panic(tid: usize, n: usize) -> ! {
    panic!("get_slice: thread {tid} of a tiled copy of {n} threads")
}

/// One thread's view of a [`TiledCopy`] (CuTe's `ThrCopy`), made by
/// [`TiledCopy::get_slice`]: its parts of a source and a destination
/// tile, `(CPY, CPY_M, CPY_N)`, and its fragments in the copy's order.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy, CopyVec};
/// use cute_static::typenum::U2;
/// let copy = make_tiled_copy(CopyVec::<i32, U2>::new(), layout!((4,2):(1,4)), layout!((2,1):(1,0)));
/// let data: Vec<i32> = (0..64).collect();
/// // Thread 3 is (3,0) of the 4x2 threads: rows 6 and 7 of column 0 of each (8,2) tile.
/// let thr = copy.get_slice(3);
/// let part = thr.partition_s(make_tensor(&data[..], layout!((16,4):(1,16))));
/// assert_eq!(part.layout().to_string(), "((_2,_1),_2,_2):((_1,_0),_8,_32)");
/// // Its values into registers: the 8 elements of rows 6, 7, 14, 15 of columns 0 and 2.
/// let mut frg = make_fragment_like::<i32, _>(part.layout());
/// copy.copy(&part, &mut frg);
/// assert_eq!(frg.engine()[..], [6, 7, 14, 15, 38, 39, 46, 47]);
/// ```
#[derive(Debug)]
pub struct ThrCopy<Atom, Tv, TilerMn> {
    tiled: TiledCopy<Atom, Tv, TilerMn>,
    tid: usize,
}
impl<Atom: Copy, Tv, TilerMn> Clone for ThrCopy<Atom, Tv, TilerMn> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<Atom: Copy, Tv, TilerMn> Copy for ThrCopy<Atom, Tv, TilerMn> {}

/// The partition of a tile by a tiled copy (CuTe's `tidfrg_S|D` by
/// `tile2thrfrg`): the tile divided by the tiler, its mode composed with
/// the threads' and values' layout, the thread's offset and its
/// `(CPY, CPY_M, CPY_N)`. `NT`, `W`: the atom's threads and values; `R2t`:
/// `right_inverse(Ref) ∘ Src` (or `∘ Dst`), the atom's side in its
/// reference order.
#[doc(hidden)]
pub trait CopyPartition<K, TilerMn, Tv, NT, W, R2t>: Copy {
    /// `(CPY, CPY_M, CPY_N)`.
    type Val: Copy;
    /// `(offset of thread tid, its values)`.
    fn copy_part(self, tid: usize) -> (usize, Self::Val);
}

type Zd<L, T> = <L as ZippedDivide<T>>::Output;
type M0<L> = <L as Split2>::M0;
type M1<L> = <L as Split2>::M1;
/// `((atom_tid, atom_val), (rest_tid, rest_val))`.
type AtomTv<Tv, NT, W> = Zd<Tv, (NT, W)>;
/// `(trg_tid, trg_val)`: the atom's mode in the side's order.
type Trg<Tv, NT, W, R2t> = <M0<AtomTv<Tv, NT, W>> as Compose<R2t>>::Output;
/// `((trg_tid, rest_tid), (trg_val, rest_val))`.
type ThrVal<Tv, NT, W, R2t> = <(
    <(M0<Trg<Tv, NT, W, R2t>>, M0<M1<AtomTv<Tv, NT, W>>>) as ConcatLayouts>::Output,
    <(M1<Trg<Tv, NT, W, R2t>>, M1<M1<AtomTv<Tv, NT, W>>>) as ConcatLayouts>::Output,
) as ConcatLayouts>::Output;
type TvMn<L, T, Tv, NT, W, R2t> = <M0<Zd<L, T>> as Compose<ThrVal<Tv, NT, W, R2t>>>::Output;

impl<L, T, Tv, NT, W, R2t> CopyPartition<Ints, T, Tv, NT, W, R2t> for L
where
    L: Copy + ZippedDivide<T>,
    T: Default,
    Tv: Default + ZippedDivide<(NT, W)>,
    NT: Default,
    W: Default,
    R2t: Default,
    Zd<L, T>: DivideValue<ZippedArr, L, T> + Split2,
    AtomTv<Tv, NT, W>: DivideValue<ZippedArr, Tv, (NT, W)> + Split2,
    M0<AtomTv<Tv, NT, W>>: Compose<R2t>,
    Trg<Tv, NT, W, R2t>: ComposeValue<M0<AtomTv<Tv, NT, W>>, R2t> + Split2,
    M1<AtomTv<Tv, NT, W>>: Split2,
    (M0<Trg<Tv, NT, W, R2t>>, M0<M1<AtomTv<Tv, NT, W>>>): ConcatLayouts,
    (M1<Trg<Tv, NT, W, R2t>>, M1<M1<AtomTv<Tv, NT, W>>>): ConcatLayouts,
    (
        <(M0<Trg<Tv, NT, W, R2t>>, M0<M1<AtomTv<Tv, NT, W>>>) as ConcatLayouts>::Output,
        <(M1<Trg<Tv, NT, W, R2t>>, M1<M1<AtomTv<Tv, NT, W>>>) as ConcatLayouts>::Output,
    ): ConcatLayouts,
    M0<Zd<L, T>>: Compose<ThrVal<Tv, NT, W, R2t>>,
    TvMn<L, T, Tv, NT, W, R2t>: ComposeValue<M0<Zd<L, T>>, ThrVal<Tv, NT, W, R2t>> + Split2,
    M0<TvMn<L, T, Tv, NT, W, R2t>>: IndexOf,
    M1<Zd<L, T>>: Split2,
    (M1<TvMn<L, T, Tv, NT, W, R2t>>, M0<M1<Zd<L, T>>>, M1<M1<Zd<L, T>>>): ConcatLayouts,
    <(M1<TvMn<L, T, Tv, NT, W, R2t>>, M0<M1<Zd<L, T>>>, M1<M1<Zd<L, T>>>) as ConcatLayouts>::Output: Copy,
{
    type Val = <(M1<TvMn<L, T, Tv, NT, W, R2t>>, M0<M1<Zd<L, T>>>, M1<M1<Zd<L, T>>>) as ConcatLayouts>::Output;

    #[inline(always)]
    #[track_caller]
    fn copy_part(self, tid: usize) -> (usize, Self::Val) {
        let (tile, rest) = crate::zipped_divide(self, T::default()).split2();
        // The atom's threads and values, and the rest of the tiled copy's.
        let (atom, rest_tv) = crate::zipped_divide(Tv::default(), (NT::default(), W::default())).split2();
        // The atom's mode in this side's order (a broadcast source repeats
        // one value), then threads with threads and values with values.
        let (trg_t, trg_v) = crate::composition(atom, R2t::default()).split2();
        let (rest_t, rest_v) = rest_tv.split2();
        let thrval = crate::concat((crate::concat((trg_t, rest_t)), crate::concat((trg_v, rest_v))));
        let (t, v) = crate::composition(tile, thrval).split2();
        let (rm, rn) = rest.split2();
        (t.index_of(tid), crate::concat((v, rm, rn)))
    }
}

/// `right_inverse(Ref) ∘ Src` of an atom: `(src thread, src value) →` the
/// index `thread + NumThr·value` of the same element in the atom's
/// reference thread-value layout (CuTe's `ref2trg` of `tidfrg_S`), by
/// which a tiled copy partitions the source side.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{SM75_U32x4_LDSM_N, SrcToRef};
/// // ldmatrix: source thread 8j + r reads row r of matrix j; its value 2c + b
/// // is value 2j + b of reference (destination) thread 4r + c.
/// let s2r: SrcToRef<SM75_U32x4_LDSM_N> = Default::default();
/// assert_eq!(s2r.to_string(), "((_8,_4),(_2,_4)):((_4,_64),(_32,_1))");
/// assert_eq!(s2r.index((9usize, 3usize)), (4 + 1) + 32 * (2 + 1));   // j = r = c = b = 1
/// ```
pub type SrcToRef<Atom> =
    <<<Atom as CopyAtom>::LayoutRefTv as RightInverse>::Output as Compose<<Atom as CopyAtom>::LayoutSrcTv>>::Output;
/// `right_inverse(Ref) ∘ Dst` of an atom: as [`SrcToRef`], for the
/// destination side (CuTe's `ref2trg` of `tidfrg_D`).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{DstToRef, SM75_U32x4_LDSM_N};
/// // The reference is the destination: the identity, (thread, value) → thread + 32·value.
/// let d2r: DstToRef<SM75_U32x4_LDSM_N> = Default::default();
/// assert_eq!(d2r.to_string(), "(_32,(_2,_4)):(_1,(_32,_64))");
/// assert!((0..256usize).all(|i| d2r.index(i) == i));
/// ```
pub type DstToRef<Atom> =
    <<<Atom as CopyAtom>::LayoutRefTv as RightInverse>::Output as Compose<<Atom as CopyAtom>::LayoutDstTv>>::Output;

/// The partition of a tile of layout `Self` by the source side of a tiled
/// copy of `Atom` with thread-value layout `Tv` over tiles `TilerMn`: what
/// [`ThrCopy::partition_s`] needs, under one name (`L: PartitionS<Atom,
/// Tv, TilerMn>` in a kernel generic over its layouts).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy, PartitionS, ThrCopy, UniversalCopy};
/// // A thread's four values of a (4,4) tile, whatever the tile's layout.
/// type Atom = UniversalCopy<i32>;
/// fn load<Tv, T, L: PartitionS<Atom, Tv, T>>(thr: ThrCopy<Atom, Tv, T>, src: Tensor<&[i32], L>) -> [i32; 4] {
///     let mut out = [0; 4];
///     let mut frg = make_tensor(&mut out[..], layout!((1,2,2):(0,1,2)));
///     thr.tiled_copy().copy(&thr.partition_s(src), &mut frg);
///     out
/// }
/// let copy = make_tiled_copy(UniversalCopy::<i32>::new(), layout!((2,2):(1,2)), layout!((1,1):(0,0)));
/// let data: Vec<i32> = (0..16).collect();
/// // Thread 1 is (1,0) of the 2x2 threads: rows 1 and 3 of columns 0 and 2.
/// assert_eq!(load(copy.get_slice(1), make_tensor(&data[..], layout!((4,4):(1,4)))), [1, 3, 9, 11]);
/// assert_eq!(load(copy.get_slice(1), make_tensor(&data[..], layout!((4,4):(4,1)))), [4, 12, 6, 14]);
/// ```
pub trait PartitionS<Atom, Tv, TilerMn>: Copy {
    /// The layout of a thread's part, `(CPY, CPY_M, CPY_N)`.
    type Part: Fits + AtomOperand + IndexOf;
    /// `(offset of thread tid, its part)`.
    #[doc(hidden)]
    fn part_s(self, tid: usize) -> (usize, Self::Part);
}
/// As [`PartitionS`], for the destination side ([`ThrCopy::partition_d`]).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy, PartitionD, ThrCopy, UniversalCopy};
/// // Stores a thread's four values into a (4,4) tile, whatever the tile's layout.
/// type Atom = UniversalCopy<f32>;
/// fn store<Tv, T, L: PartitionD<Atom, Tv, T>>(thr: ThrCopy<Atom, Tv, T>, v: [f32; 4], dst: Tensor<&mut [f32], L>) {
///     let frg = make_tensor(&v[..], layout!((1,2,2):(0,1,2)));
///     thr.tiled_copy().copy(&frg, &mut thr.partition_d(dst));
/// }
/// let copy = make_tiled_copy(UniversalCopy::<f32>::new(), layout!((2,2):(1,2)), layout!((1,1):(0,0)));
/// // Thread 3 is (1,1): rows 1 and 3 of columns 1 and 3, here of a tile with leading dimension 6.
/// let mut c = [0f32; 24];
/// store(copy.get_slice(3), [1.0, 2.0, 3.0, 4.0], make_tensor(&mut c[..], layout!((4,4):(1,6))));
/// assert_eq!([c[7], c[9], c[19], c[21]], [1.0, 2.0, 3.0, 4.0]);
/// assert_eq!(c.iter().sum::<f32>(), 10.0);                // nothing else written
/// ```
pub trait PartitionD<Atom, Tv, TilerMn>: Copy {
    /// The layout of a thread's part, `(CPY, CPY_M, CPY_N)`.
    type Part: Fits + AtomOperand + IndexOf;
    /// `(offset of thread tid, its part)`.
    #[doc(hidden)]
    fn part_d(self, tid: usize) -> (usize, Self::Part);
}
// Both sides alike: the copy partition by the atom's side read in its
// reference order (`right_inverse(Ref) ∘ Src|Dst`).
macro_rules! partition_side {
    ($Trait:ident, $f:ident, $Side:ident, $ToRef:ident) => {
        impl<L, Atom: CopyAtom, Tv, TilerMn> $Trait<Atom, Tv, TilerMn> for L
        where
            Atom::LayoutRefTv: RightInverse,
            <Atom::LayoutRefTv as RightInverse>::Output: Compose<Atom::$Side>,
            L: LayoutKind
                + CopyPartition<
                    L::Kind,
                    TilerMn,
                    Tv,
                    Atom::NumThr,
                    Atom::NumVal,
                    $ToRef<Atom>,
                    Val: Fits + AtomOperand + IndexOf,
                >,
        {
            type Part = <L as CopyPartition<L::Kind, TilerMn, Tv, Atom::NumThr, Atom::NumVal, $ToRef<Atom>>>::Val;
            #[inline(always)]
            #[track_caller]
            fn $f(self, tid: usize) -> (usize, Self::Part) {
                self.copy_part(tid)
            }
        }
    };
}
partition_side!(PartitionS, part_s, LayoutSrcTv, SrcToRef);
partition_side!(PartitionD, part_d, LayoutDstTv, DstToRef);

/// The layout of a thread's source part of a tile of layout `L`: what
/// [`ThrCopy::partition_s`] returns a tensor of, to name in signatures.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy, CopyAtom, PartS, PartitionS, ThrCopy, CopyVec};
/// use cute_static::typenum::U4;
/// // A helper generic over the tile's layout names the part it returns.
/// fn rows<'a, A: CopyAtom, Tv, T, L: PartitionS<A, Tv, T>>(
///     thr: &ThrCopy<A, Tv, T>,
///     tile: Tensor<&'a [u32], L>,
/// ) -> Tensor<&'a [u32], PartS<L, A, Tv, T>> {
///     thr.partition_s(tile)
/// }
/// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
/// let data: Vec<u32> = (0..128).collect();
/// let part = rows(&copy.get_slice(1), make_tensor(&data[..], layout!((32,4):(1,32))));
/// assert_eq!(part.layout().to_string(), "((_4,_1),_2,_2):((_1,_0),_16,_64)");
/// ```
pub type PartS<L, Atom, Tv, TilerMn> = <L as PartitionS<Atom, Tv, TilerMn>>::Part;
/// The layout of a thread's destination part of a tile of layout `L`: what
/// [`ThrCopy::partition_d`] returns a tensor of.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy, CopyVec, PartD};
/// use cute_static::typenum::U4;
/// type Thr = Layout![(4,2):(1,4)];
/// type Val = Layout![(4,1):(1,0)];
/// // The part's type in full: the copy's thread-value layout and tile come from make_layout_tv.
/// type Tv = <Thr as MakeLayoutTv<Val>>::Tv;
/// type Tile = <Thr as MakeLayoutTv<Val>>::Tiler;
/// type Dst<'a> = Tensor<&'a mut [u32], PartD<Layout![(16,2):(1,16)], CopyVec<u32, U4>, Tv, Tile>>;
/// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), Thr::default(), Val::default());
/// let mut out = [0u32; 32];
/// // Thread 5 is (1,1) of the 4x2 threads: rows 4..8 of column 1, of the one (16,2) tile.
/// let d: Dst = copy.get_slice(5).partition_d(make_tensor(&mut out[..], layout!((16,2):(1,16))));
/// assert_eq!((d.offset(), d.layout().to_string()), (4 + 16, "((_4,_1),_1,_1):((_1,_0),_0,_0)".to_string()));
/// ```
pub type PartD<L, Atom, Tv, TilerMn> = <L as PartitionD<Atom, Tv, TilerMn>>::Part;

impl<Atom: CopyAtom, Tv, TilerMn> ThrCopy<Atom, Tv, TilerMn> {
    /// The thread's index: the `tid` it was made with by
    /// [`TiledCopy::get_slice`].
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// assert_eq!(copy.get_slice(5).thread(), 5);
    /// ```
    #[inline(always)]
    pub fn thread(&self) -> usize {
        self.tid
    }

    /// The tiled copy this thread is a slice of.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// let thr = copy.get_slice(5);
    /// assert_eq!(thr.tiled_copy().size(), 8);
    /// assert_eq!(thr.tiled_copy().tiler_mn().to_string_cute(), "(_16,_2)");
    /// ```
    #[inline(always)]
    pub fn tiled_copy(&self) -> TiledCopy<Atom, Tv, TilerMn> {
        self.tiled
    }

    /// The thread's values of a source tile (CuTe's `partition_S`):
    /// `(CPY, CPY_M, CPY_N)`, the thread's values of one tile of the tiled
    /// copy, then the tiles along M and N.
    ///
    /// # Panics
    ///
    /// When a run-time divide condition fails, or the part reaches past the
    /// tensor's storage.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// let data: Vec<u32> = (0..32 * 4).collect();
    /// // A (32,4) tile: thread 1 copies rows 4..8 of columns 0 and 2 of each (16,2) tile.
    /// let part = copy.get_slice(1).partition_s(make_tensor(&data[..], layout!((32,4):(1,32))));
    /// assert_eq!(part.layout().shape().to_string_cute(), "((_4,_1),_2,_2)");
    /// assert_eq!(part[(0usize, 0usize, 0usize)], 4);
    /// assert_eq!(part[(0usize, 1usize, 1usize)], 4 + 16 + 2 * 32);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn partition_s<E: Engine, L>(&self, src: Tensor<E, L>) -> Tensor<E, PartS<L, Atom, Tv, TilerMn>>
    where
        L: PartitionS<Atom, Tv, TilerMn>,
    {
        let (engine, offset, layout) = src.into_parts();
        let (o, val) = layout.part_s(self.tid);
        part(engine, offset.wrapping_add(o), val)
    }

    /// The thread's values of a destination tile (CuTe's `partition_D`):
    /// `(CPY, CPY_M, CPY_N)`. Panics as [`partition_s`](Self::partition_s).
    ///
    /// Either side may be a view of an identity tensor (each value's
    /// coordinate, to predicate the copy at a ragged edge):
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// let c = copy.get_slice(1).partition_d(make_identity_tensor(shape!(32, 4)));
    /// assert_eq!(c.layout().to_string(), "((_4,_1),_2,_2):((_1@0,_0),_16@0,_2@1)");
    /// assert_eq!(c.at((0usize, 1usize, 1usize)), (20, 2));
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn partition_d<E: Engine, L>(&self, dst: Tensor<E, L>) -> Tensor<E, PartD<L, Atom, Tv, TilerMn>>
    where
        L: PartitionD<Atom, Tv, TilerMn>,
    {
        let (engine, offset, layout) = dst.into_parts();
        let (o, val) = layout.part_d(self.tid);
        part(engine, offset.wrapping_add(o), val)
    }
}

#[inline(always)]
#[track_caller]
fn part<E: Engine, L: Fits>(engine: E, offset: usize, layout: L) -> Tensor<E, L> {
    if let Err(e) = layout.fits("partition of a tiled copy", offset, engine.len()) {
        crate::tensor::storage_panic(e)
    }
    Tensor::from_parts_checked(engine, offset, layout)
}

// ------------------------------------------------------------------ retile

/// CuTe's `make_layout(shape)` of a static shape: compact column-major,
/// stride 0 on extents of 1.
type ColMajor<T> = Layout<T, <T as CuteCompactCol<U1>>::Stride>;
/// CuTe's `frg_layout_mn`: `(m, n) →` the block of `NT·V` thread-value
/// indices the tiled copy's `(thread, value)` at `(m, n)` falls in.
type FrgMn<Tv, T, NV> = <<<Tv as RightInverse>::Output as Compose<ColMajor<T>>>::Output as Upcast<NV>>::Output;
/// CuTe's `frg_layout_v`: `(atom_vals, rest_vals) → (v, m, n)`.
type FrgV<Tv, T, NV, V, W> =
    Zd<<ColMajor<V> as LogicalProduct<<FrgMn<Tv, T, NV> as RightInverse>::Output>>::Output, ColMajor<W>>;
/// The tile of a fragment CuTe's retile divides by: `(V, size(m), size(n))`
/// of `frg_layout_mn`.
type FrgTile<Tv, T, NV, V> = (V, <M0<FrgMn<Tv, T, NV>> as SizeOf>::Size, <M1<FrgMn<Tv, T, NV>> as SizeOf>::Size);

/// A fragment of layout `Self`, `(V, M, N)`, that a tiled copy of `Atom`
/// with thread-value layout `Tv` over tiles `TilerMn` can re-index into
/// its own value order, `(CPY, CPY_M, CPY_N)`: what
/// [`ThrCopy::retile_d`] and [`ThrCopy::retile_s`] need, under one name.
///
/// This is CuTe's `TiledCopy::retile`. The fragment's first `V` values are
/// taken to be a thread's first `V` values of `Tv` (as a fragment made by
/// `partition_fragment_a|b|c` of the MMA whose layout
/// [`make_tiled_copy_a`]'s copy was made from, or by `partition_d` of the
/// same copy):
///
/// ```text
/// frg_layout_mn = upcast<NT·V>(right_inverse(Tv) ∘ make_layout(TilerMn))   (m,n) → block
/// frg_layout_v  = zipped_divide(V:1 ⊗ right_inverse(frg_layout_mn), NumVal:1)
/// fragment      = zipped_divide(fragment, (V, size(m), size(n)))   ((V,M,N),(1,RestM,RestN))
/// retiled       = (mode 0 ∘ frg_layout_v, RestM, RestN)
/// ```
///
/// Post-conditions (tested): the result is CuTe's (`retile_D` of the same
/// layouts, printed by CuTe C++ in `tests/golden/cute_retile.txt`); its
/// first mode groups the atom's `NumVal` values first. When the fragment's
/// values split into the copy's (a fragment of the MMA whose layout the
/// copy was made from, or of the copy itself), it has the fragment's size
/// and reaches exactly the fragment's offsets, re-indexed; otherwise CuTe's
/// divides stretch it (a `(2,1,1)` fragment of an 8-value copy becomes 8
/// values with stride-0 padding), and the view is still checked against
/// its storage when it is made.
///
/// Fragments are `(V, M, N)`: rank 3.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy_a, make_tiled_mma, CopyCall, CopyVec, FmaLanes, PartitionS, Retile, ThrCopy};
/// use cute_static::typenum::{U4, U8};
/// // Loads a thread's fragment, of any layout the copy can retile, from a tile of A.
/// fn load<A: CopyCall<Elem = f32>, Tv, T, LS: PartitionS<A, Tv, T>, LF: Retile<A, Tv, T>>(
///     thr: ThrCopy<A, Tv, T>, src: Tensor<&[f32], LS>, frg: Tensor<&mut [f32], LF>,
/// ) {
///     thr.tiled_copy().copy(&thr.partition_s(src), &mut thr.retile_d(frg));
/// }
/// let mma = make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)));
/// let copy = make_tiled_copy_a(CopyVec::<f32, U4>::new(), &mma);         // 4 values a call, the MMA reads 8
/// let a: Vec<f32> = (0..64).map(|i| i as f32).collect();                  // A (16,4)
/// let mut frg = mma.get_slice(0).partition_fragment_a(&layout!((16,4):(1,16)));   // (8,2,4)
/// load(copy.get_slice(0), make_tensor(&a[..], layout!((16,4):(1,16))), frg.view_mut());
/// assert_eq!(frg[(3usize, 1usize, 2usize)], a[8 + 3 + 16 * 2]);           // A(8·1 + 3, 2)
/// ```
pub trait Retile<Atom, Tv, TilerMn>: Copy {
    /// The retiled layout, `((NumVal, rest values), CPY_M, CPY_N)`.
    type Retiled: Fits + AtomOperand + IndexOf;
    /// The retiled layout of `self`.
    #[doc(hidden)]
    fn retile(self) -> Self::Retiled;
}
/// The fragment's values `V`: the size of its first mode.
type V0<L> = <<L as Split3>::M0 as SizeOf>::Size;
/// `NT·V`: the tiled copy's threads times the fragment's values.
type NtV<L, Tv> = Prod<<M0<Tv> as SizeOf>::Size, V0<L>>;
/// CuTe's `frg_layout_mn` and `frg_layout_v` of a fragment `L`.
type FrgMnOf<L, Tv, T> = FrgMn<Tv, T, NtV<L, Tv>>;
type FrgVOf<L, Tv, T, W> = FrgV<Tv, T, NtV<L, Tv>, V0<L>, W>;
type TileOf<L, Tv, T> = FrgTile<Tv, T, NtV<L, Tv>, V0<L>>;
type DividedOf<L, Tv, T> = Zd<L, TileOf<L, Tv, T>>;
/// `(mode 0 ∘ frg_layout_v, RestM, RestN)` before concatenation.
type RetiledV<L, Tv, T, W> = <M0<DividedOf<L, Tv, T>> as Compose<FrgVOf<L, Tv, T, W>>>::Output;
type RestM<L, Tv, T> = <M1<DividedOf<L, Tv, T>> as Split3>::M1;
type RestN<L, Tv, T> = <M1<DividedOf<L, Tv, T>> as Split3>::M2;
type RetiledParts<L, Tv, T, W> = (RetiledV<L, Tv, T, W>, RestM<L, Tv, T>, RestN<L, Tv, T>);

impl<L, Atom: CopyAtom, Tv, TilerMn> Retile<Atom, Tv, TilerMn> for L
where
    L: Split3 + ZippedDivide<TileOf<L, Tv, TilerMn>>,
    L::M0: SizeOf,
    Tv: RightInverse + Split2,
    M0<Tv>: SizeOf,
    <M0<Tv> as SizeOf>::Size: Mul<V0<L>>,
    <Tv as RightInverse>::Output: Compose<ColMajor<TilerMn>>,
    TilerMn: CuteCompactCol<U1>,
    <<Tv as RightInverse>::Output as Compose<ColMajor<TilerMn>>>::Output: Upcast<NtV<L, Tv>>,
    FrgMnOf<L, Tv, TilerMn>: Split2 + RightInverse,
    M0<FrgMnOf<L, Tv, TilerMn>>: SizeOf,
    M1<FrgMnOf<L, Tv, TilerMn>>: SizeOf,
    V0<L>: CuteCompactCol<U1>,
    Atom::NumVal: CuteCompactCol<U1>,
    ColMajor<V0<L>>: LogicalProduct<<FrgMnOf<L, Tv, TilerMn> as RightInverse>::Output>,
    <ColMajor<V0<L>> as LogicalProduct<<FrgMnOf<L, Tv, TilerMn> as RightInverse>::Output>>::Output:
        ZippedDivide<ColMajor<Atom::NumVal>>,
    FrgVOf<L, Tv, TilerMn, Atom::NumVal>: Default,
    TileOf<L, Tv, TilerMn>: Default,
    DividedOf<L, Tv, TilerMn>: DivideValue<ZippedArr, L, TileOf<L, Tv, TilerMn>> + Split2,
    M0<DividedOf<L, Tv, TilerMn>>: Compose<FrgVOf<L, Tv, TilerMn, Atom::NumVal>>,
    RetiledV<L, Tv, TilerMn, Atom::NumVal>:
        ComposeValue<M0<DividedOf<L, Tv, TilerMn>>, FrgVOf<L, Tv, TilerMn, Atom::NumVal>>,
    M1<DividedOf<L, Tv, TilerMn>>: Split3,
    RetiledParts<L, Tv, TilerMn, Atom::NumVal>: ConcatLayouts,
    <RetiledParts<L, Tv, TilerMn, Atom::NumVal> as ConcatLayouts>::Output: Fits + AtomOperand + IndexOf,
{
    type Retiled = <RetiledParts<L, Tv, TilerMn, Atom::NumVal> as ConcatLayouts>::Output;

    #[inline(always)]
    #[track_caller]
    fn retile(self) -> Self::Retiled {
        let (tile, rest) = crate::zipped_divide(self, TileOf::<L, Tv, TilerMn>::default()).split2();
        // CuTe's `v_tensor(_, (0, _, _))`: the rest's first mode has size 1,
        // so its coordinate 0 adds nothing to the offset.
        let (_, rm, rn) = rest.split3();
        let v = crate::composition(tile, FrgVOf::<L, Tv, TilerMn, Atom::NumVal>::default());
        crate::concat((v, rm, rn))
    }
}

/// The layout of a fragment of layout `L` retiled by a tiled copy: what
/// [`ThrCopy::retile_d`] and [`ThrCopy::retile_s`] return a tensor of.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_copy_c, make_tiled_mma, CopyVec, FmaLanes, Retiled, TiledMma, TiledOperands};
/// use cute_static::typenum::{U4, U8};
/// type Mma = TiledMma<FmaLanes<f32, U8>, Layout![(1,1,1):(0,0,0)]>;
/// type Acc = Layout![(8,2,4):(1,8,16)];                  // the accumulators of a (16,4) tile of C
/// type Store = Retiled<Acc, CopyVec<f32, U4>, <Mma as TiledOperands>::LayoutCTv, <Mma as TiledOperands>::TileC>;
/// let mma: Mma = make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)));
/// let acc = mma.get_slice(0).partition_fragment_c(&layout!((16,4):(1,16)));
/// let store = make_tiled_copy_c(CopyVec::<f32, U4>::new(), &mma);
/// let src: Tensor<&[f32], Store> = store.get_slice(0).retile_s(acc.view());
/// // The 8 accumulators of one MMA are two stores of 4.
/// assert_eq!(src.layout().to_string(), "((_4,_2),_2,_4):((_1,_4),_8,_16)");
/// ```
pub type Retiled<L, Atom, Tv, TilerMn> = <L as Retile<Atom, Tv, TilerMn>>::Retiled;

impl<Atom: CopyAtom, Tv, TilerMn> ThrCopy<Atom, Tv, TilerMn> {
    /// CuTe's `retile_D`: a fragment `(V, M, N)` of this thread's
    /// destination values, held in another order (an MMA's
    /// `partition_fragment_a`, say), seen in the copy's order
    /// `(CPY, CPY_M, CPY_N)` so that [`TiledCopy::copy`] can fill it. The
    /// same storage and origin; see [`Retile`] for the construction.
    ///
    /// # Panics
    ///
    /// When a run-time divide condition fails (never for static layouts).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy_a, make_tiled_mma, SM75_U32x4_LDSM_N, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// let ldsm = make_tiled_copy_a(SM75_U32x4_LDSM_N, &mma);
    /// // Thread 0's A fragment of a (64,32) tile: 8 values an MMA, 2x2 MMAs.
    /// let frg = [0u16; 32];
    /// let dst = ldsm.get_slice(0).retile_d(make_tensor(&frg[..], layout!(((2,2,2),2,2):((1,2,4),8,16))));
    /// // The 8 values of one MMA are one ldmatrix.x4 (8 values a thread): as CuTe's retile_D.
    /// assert_eq!(dst.layout().to_string(), "((_8,_1),_2,_2):((_1,_0),_8,_16)");
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn retile_d<E: Engine, L>(&self, frg: Tensor<E, L>) -> Tensor<E, Retiled<L, Atom, Tv, TilerMn>>
    where
        L: Retile<Atom, Tv, TilerMn>,
    {
        let (engine, offset, layout) = frg.into_parts();
        part(engine, offset, layout.retile())
    }

    /// CuTe's `retile_S`: as [`retile_d`](Self::retile_d), for a fragment
    /// the copy reads from (CuTe's retile is the same for both sides).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy_c, make_tiled_mma, CopyVec, FmaLanes};
    /// use cute_static::typenum::U8;
    /// let mma = make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)));
    /// let store = make_tiled_copy_c(CopyVec::<f32, U8>::new(), &mma);
    /// // The thread's accumulators of a (16,4) tile of C (partition_fragment_c's layout).
    /// let acc: Vec<f32> = (0..64).map(|i| i as f32).collect();
    /// let thr = store.get_slice(0);
    /// let src = thr.retile_s(make_tensor(&acc[..], layout!((8,2,4):(1,8,16))));
    /// assert_eq!(src.layout().to_string(), "((_8,_1),_2,_4):((_1,_0),_8,_16)");
    /// let mut out = vec![0f32; 64];
    /// store.copy(&src, &mut thr.partition_d(make_tensor(&mut out[..], layout!((16,4):(1,16)))));
    /// assert_eq!(out, acc);                                   // accumulator (m, n) lands at m + 16n
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn retile_s<E: Engine, L>(&self, frg: Tensor<E, L>) -> Tensor<E, Retiled<L, Atom, Tv, TilerMn>>
    where
        L: Retile<Atom, Tv, TilerMn>,
    {
        let (engine, offset, layout) = frg.into_parts();
        part(engine, offset, layout.retile())
    }
}

impl<Atom: CopyCall, Tv, TilerMn> TiledCopy<Atom, Tv, TilerMn> {
    /// `copy(tiled_copy, src, dst)`: CuTe's copy through the atom, on one
    /// thread's parts `(CPY, CPY_M, CPY_N)` from
    /// [`partition_s`](ThrCopy::partition_s) and
    /// [`partition_d`](ThrCopy::partition_d) (or any tensors of that
    /// shape). Each call moves one group of `NumVal` values; a group must
    /// be contiguous in the destination (and in the source, unless the atom
    /// broadcasts), checked once per call.
    ///
    /// # Panics
    ///
    /// When the shapes differ or a group is not contiguous.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_copy, CopyVec};
    /// use cute_static::typenum::U4;
    /// let copy = make_tiled_copy(CopyVec::<u32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    /// let src: Vec<u32> = (0..16 * 2).collect();
    /// let mut dst = vec![0u32; 16 * 2];
    /// for t in 0..8 {
    ///     let thr = copy.get_slice(t);
    ///     let s = thr.partition_s(make_tensor(&src[..], layout!((16,2):(1,16))));
    ///     let mut d = thr.partition_d(make_tensor(&mut dst[..], layout!((16,2):(1,16))));
    ///     copy.copy(&s, &mut d);
    /// }
    /// assert_eq!(dst, src);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn copy<ES, LS, ED, LD>(&self, src: &Tensor<ES, LS>, dst: &mut Tensor<ED, LD>)
    where
        ES: DataEngine<Elem = Atom::Elem>,
        ED: DataEngineMut<Elem = Atom::Elem>,
        LS: AtomOperand + IndexOf,
        LD: AtomOperand + IndexOf,
    {
        let (ps, os, ls) = src.raw_parts();
        let (pd, od, ld) = dst.raw_parts_mut();
        let (sv, sm, sn) = ls.dims();
        let (dv, dm, dn) = ld.dims();
        let w = Atom::NumVal::USIZE;
        let sw = Atom::SrcVals::default();
        let src_len = sw.index_of(w.saturating_sub(1)) + 1;
        if (sv, sm, sn) != (dv, dm, dn) || w == 0 || sv % w != 0 {
            copy_shape_panic([sv, sm, sn], [dv, dm, dn], w)
        }
        // Each group: destination values at consecutive offsets, source
        // values where the atom's own layout puts them. Static layouts fold
        // this check away.
        let groups_ok = (0..sv / w).all(|g| {
            let (s0, d0) = (ls.index_of(g * w), ld.index_of(g * w));
            (0..w)
                .all(|i| ld.index_of(g * w + i) == d0 + i && ls.index_of(g * w + i) == s0.wrapping_add(sw.index_of(i)))
        });
        if !groups_ok {
            copy_contiguous_panic()
        }
        // A group's offsets are computed once (with run-time extents they
        // take divisions) and added to each tile's. Up to 16 groups, the
        // groups of one tile are copied together (the order of the tile's
        // memory); more, group by group.
        let groups = sv / w;
        let call = |so: usize, dof: usize, m: usize, n: usize| {
            // SAFETY: the group's offsets are `so + SrcVals(i)` and `dof + i`
            // (checked above) for i < w, offsets of the tensors' layouts,
            // which the tensors' invariant puts in their storage; `dst` is
            // borrowed mutably, so its values alias nothing else; the
            // slices live for one call.
            let (s, d) = unsafe {
                (
                    core::slice::from_raw_parts(ps.add(os.wrapping_add(so).wrapping_add(ls.at(m, n))), src_len),
                    core::slice::from_raw_parts_mut(pd.add(od.wrapping_add(dof).wrapping_add(ld.at(m, n))), w),
                )
            };
            self.atom.call(s, d);
        };
        const TOGETHER: usize = 16;
        if groups <= TOGETHER {
            let mut offs = [(0usize, 0usize); TOGETHER];
            for (g, o) in offs.iter_mut().enumerate().take(groups) {
                *o = (ls.index_of(g * w), ld.index_of(g * w));
            }
            for n in 0..sn {
                for m in 0..sm {
                    for &(so, dof) in &offs[..groups] {
                        call(so, dof, m, n);
                    }
                }
            }
        } else {
            for g in 0..groups {
                let (so, dof) = (ls.index_of(g * w), ld.index_of(g * w));
                for n in 0..sn {
                    for m in 0..sm {
                        call(so, dof, m, n);
                    }
                }
            }
        }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn copy_shape_panic(s: [usize; 3], d: [usize; 3], w: usize) -> ! {
    panic!(
        "tiled copy: source (CPY,M,N) = {s:?} and destination {d:?} differ, or CPY is not a multiple of the atom's {w} values"
    )
}

#[cold]
#[inline(never)]
#[track_caller]
fn copy_contiguous_panic() -> ! {
    panic!(
        "tiled copy: a group of the atom's values is not contiguous in the destination (or not where the atom reads it in the source)"
    )
}
