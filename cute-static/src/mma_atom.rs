//! CuTe's MMA atoms and tiled MMAs (`atom/mma_atom.hpp`): what one
//! multiply-accumulate instruction computes, which thread holds which
//! value, and the partitions of tensors that follow from it.
//!
//! An [`MmaAtom`] is CuTe's `MMA_Traits`: a shape `(M,N,K)`, a thread
//! layout `ThrID`, and three thread-value layouts `(thr,val) → index`
//! into the column-major `(M,K)`, `(N,K)` and `(M,N)` tiles of A, B and C.
//! All of it is in the atom's type, so partitions and fragments are static.
//! An atom that runs on this CPU also implements [`MmaCall`] (see
//! `mma_cpu.rs`); the GPU atoms are data (`mma_gpu.rs`).
//!
//! [`make_tiled_mma`] repeats an atom over a layout of atoms in `(M,N,K)`
//! (CuTe's `make_tiled_mma(atom, atom_layout)`); [`TiledMma::get_slice`]
//! gives a thread's [`ThrMma`], whose `partition_a|b|c` split a tensor into
//! the thread's values as CuTe's `thrfrg_A|B|C` do:
//!
//! ```text
//! C tile (M',N')  --zipped_divide by (M,N)-->        ((M,N), (RestM,RestN))
//!                 --mode 0 ∘ LayoutC_TV-->          ((ThrV,FrgV), (RestM,RestN))
//!                 --rest zipped_divide by (TM,TN)--> ((ThrV,(TM,TN)), (FrgV,RestM',RestN'))
//! ```
//!
//! and a thread `(v, m, n, k)` of the atom layout keeps the second mode at
//! the offset of its coordinate in the first: `(FrgV, RestM', RestN')`,
//! CuTe's `(MMA, MMA_M, MMA_N)`.

use crate::complement::Complement;
use crate::composition::{Compose, ComposeValue};
use crate::detail::{CosizeOf, SizeOf};
use crate::detail::{Ints, LayoutKind};
use crate::divide::LogicalDivide;
use crate::divide::{DivideValue, ZippedArr, ZippedDivide};
use crate::int_tuple::IntTuple;
use crate::int_tuple::StaticIntTuple;
use crate::inverse::StaticRightInverse as RightInverse;
use crate::layout::{ConcatLayouts, Congruent, Layout, StaticLayout};
use crate::partition::traits::Fits;
use crate::product::TiledProduct;
use crate::slice::Underscore;
use crate::tensor::{
    CuteCompactCol, DataEngine, DataEngineMut, Engine, Fragment, FragmentOrder, FragmentStride, HasLayout, Tensor,
};
use core::fmt;
use core::ops::Mul;
use generic_array::ArrayLength;
use typenum::{Prod, U0, U1, Unsigned};

/// CuTe's `MMA_Traits` of an instruction: the tile it computes and which
/// thread holds which value of A, B and C.
///
/// Post-conditions of every atom in this crate (tested): `LayoutATv` is a
/// map from `(thr, val)` (shape `(size(ThrId), values)`) onto the indices
/// `m + M·k` of the `(M,K)` tile that reaches every index, as are
/// `LayoutBTv` onto `n + N·k` and `LayoutCTv` onto `m + M·n`; the C map is
/// a bijection (each accumulator belongs to one thread's value).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{MmaAtom, UniversalFma};
/// type A = UniversalFma<f32>;
/// assert_eq!(<A as MmaAtom>::LayoutCTv::default().to_string(), "(_1,_1):(_0,_0)");
/// assert_eq!(A::shape_mnk(), (1, 1, 1));
/// ```
pub trait MmaAtom: Copy {
    /// CuTe's name of the atom (`SM80_16x8x16_F32F16F16F32_TN`, ...).
    const NAME: &'static str;
    /// Rows of the C tile.
    type M: Unsigned + Default + Copy + 'static;
    /// Columns of the C tile.
    type N: Unsigned + Default + Copy + 'static;
    /// The depth of the product.
    type K: Unsigned + Default + Copy + 'static;
    /// Which hardware threads take part: `thr → thread index`.
    type ThrId: StaticLayout + IndexOf;
    /// `(thr, val) → m + M·k` of the A tile.
    type LayoutATv: StaticLayout;
    /// `(thr, val) → n + N·k` of the B tile.
    type LayoutBTv: StaticLayout;
    /// `(thr, val) → m + M·n` of the C tile.
    type LayoutCTv: StaticLayout;

    /// `(M, N, K)` as integers.
    ///
    /// ```
    /// use cute_static::{FmaLanes, MmaAtom, SM80_16x8x16_F32F16F16F32_TN};
    /// use cute_static::typenum::U8;
    /// assert_eq!(SM80_16x8x16_F32F16F16F32_TN::shape_mnk(), (16, 8, 16));
    /// assert_eq!(FmaLanes::<f32, U8>::shape_mnk(), (8, 1, 1));    // a column of 8 rows of C
    /// ```
    #[inline(always)]
    fn shape_mnk() -> (usize, usize, usize) {
        (Self::M::USIZE, Self::N::USIZE, Self::K::USIZE)
    }
}

/// CuTe's `print(MMA_Atom<...>{})` of an atom: its thread layout, shape and
/// thread-value layouts, byte for byte as CuTe prints them.
///
/// ```
/// use cute_static::{mma_atom_text, UniversalFma};
/// assert_eq!(
///     mma_atom_text::<UniversalFma<f32>>(),
///     "MMA_Atom\n  ThrID:      _1:_0\n  Shape_MNK:  (_1,_1,_1)\n  LayoutA_TV: (_1,_1):(_0,_0)\n  \
///      LayoutB_TV: (_1,_1):(_0,_0)\n  LayoutC_TV: (_1,_1):(_0,_0)\n"
/// );
/// ```
#[cfg(feature = "std")]
pub fn mma_atom_text<Atom: MmaAtom>() -> String {
    let (m, n, k) = Atom::shape_mnk();
    format!(
        "MMA_Atom\n  ThrID:      {}\n  Shape_MNK:  (_{m},_{n},_{k})\n  LayoutA_TV: {}\n  LayoutB_TV: {}\n  LayoutC_TV: {}\n",
        Atom::ThrId::default(),
        Atom::LayoutATv::default(),
        Atom::LayoutBTv::default(),
        Atom::LayoutCTv::default()
    )
}

/// An MMA atom that runs on this CPU: one thread computes its values of
/// `C += A·B`.
///
/// `call` takes the thread's values in the order of the value modes of the
/// atom's thread-value layouts: `a` has `size(LayoutATv) / size(ThrId)`
/// values, `b` and `c` likewise.
///
/// ```
/// use cute_static::{FmaLanes, MmaCall, UniversalFma};
/// use cute_static::typenum::U4;
/// // One step of K of any one-thread f32 atom, from zero accumulators: its (M,N) values of A·B.
/// fn step<Atom: MmaCall<A = f32, B = f32, C = f32>>(atom: Atom, a: &[f32], b: &[f32]) -> Vec<f32> {
///     let (m, n, _) = Atom::shape_mnk();
///     let mut c = vec![0.0; m * n];
///     atom.call(&mut c, a, b);
///     c
/// }
/// assert_eq!(step(UniversalFma::<f32>::new(), &[2.0], &[3.0]), [6.0]);
/// assert_eq!(step(FmaLanes::<f32, U4>::new(), &[1.0, 2.0, 3.0, 4.0], &[10.0]), [10.0, 20.0, 30.0, 40.0]);
/// ```
pub trait MmaCall: MmaAtom {
    /// The element type of A.
    type A: Copy;
    /// The element type of B.
    type B: Copy;
    /// The element type of C (the accumulators).
    type C: Copy;
    /// `c += a·b` for one thread's values.
    ///
    /// # Panics
    ///
    /// When a slice is shorter than the atom's value count.
    ///
    /// ```
    /// use cute_static::{FmaLanes, MmaCall};
    /// use cute_static::typenum::U2;
    /// // Two rows of A, one value of B, two rows of C.
    /// let mut c = [1.0f32, 1.0];
    /// FmaLanes::<f32, U2>::new().call(&mut c, &[2.0, 3.0], &[10.0]);
    /// assert_eq!(c, [21.0, 31.0]);
    /// ```
    fn call(&self, c: &mut [Self::C], a: &[Self::A], b: &[Self::B]);
    /// Runs `k` where the atom's instructions can be inlined: in a function
    /// compiled for the CPU features the atom needs (an AVX2 atom's kernel
    /// is compiled with AVX2 and FMA). Write the loop nest that calls the
    /// atom in `k`; the portable atoms just run it.
    ///
    /// The loop nest must be inlined into that function for the atom's
    /// instructions to inline into it: implement [`AtomKernel`] on a struct
    /// with an `#[inline(always)]` `run` that calls `#[inline(always)]`
    /// code. A closure also works (`AtomKernel` is implemented for them),
    /// but the compiler may keep a large closure out of line, and the atom
    /// is then a call per instruction.
    ///
    /// ```
    /// use cute_static::{FmaLanes, MmaCall};
    /// use cute_static::typenum::U4;
    /// let atom = FmaLanes::<f32, U4>::new();
    /// let (a, mut c) = ([1.0f32, 2.0, 3.0, 4.0], [0.0f32; 4]);
    /// // Two steps of K; dispatch returns what the closure returns.
    /// let sum = atom.dispatch(|| {
    ///     for b in [1.0, 2.0] {
    ///         atom.call(&mut c, &a, &[b]);
    ///     }
    ///     c.iter().sum::<f32>()
    /// });
    /// assert_eq!((sum, c), (30.0, [3.0, 6.0, 9.0, 12.0]));
    /// ```
    #[inline(always)]
    fn dispatch<K: AtomKernel>(&self, k: K) -> K::Output {
        k.run()
    }
}

/// A computation run by [`MmaCall::dispatch`]: the loop nest of a kernel,
/// to be compiled for the atom's CPU features.
///
/// ```
/// use cute_static::{AtomKernel, MmaCall, UniversalFma};
/// struct Dot<'a>(&'a [f32], &'a [f32]);
/// impl AtomKernel for Dot<'_> {
///     type Output = f32;
///     #[inline(always)]
///     fn run(self) -> f32 {
///         let (mut c, atom) = ([0f32], UniversalFma::<f32>::new());
///         for (a, b) in self.0.iter().zip(self.1) {
///             atom.call(&mut c, &[*a], &[*b]);
///         }
///         c[0]
///     }
/// }
/// assert_eq!(UniversalFma::<f32>::new().dispatch(Dot(&[1.0, 2.0], &[3.0, 4.0])), 11.0);
/// ```
pub trait AtomKernel {
    /// What the kernel returns.
    type Output;
    /// Runs the kernel; make it `#[inline(always)]`.
    ///
    /// ```
    /// use cute_static::AtomKernel;
    /// // A closure is a kernel. Called directly, it runs without the atom's
    /// // features; MmaCall::dispatch calls it inside a function that has them.
    /// assert_eq!((|| 6 * 7).run(), 42);
    /// ```
    fn run(self) -> Self::Output;
}
impl<R, F: FnOnce() -> R> AtomKernel for F {
    type Output = R;
    #[inline(always)]
    fn run(self) -> R {
        self()
    }
}

/// The layout of atoms of a [`TiledMma`]: `(TM, TN, TK)` atoms in M, N and
/// K, a static layout from the atom's coordinate to its index among the
/// atoms (CuTe's `AtomLayoutMNK`). Implemented for static rank-3 layouts.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, AtomLayout, UniversalFma};
/// use cute_static::typenum::Unsigned;
/// // The atoms along M, N and K, from the layout's type.
/// fn atoms<AL: AtomLayout>(_: AL) -> (usize, usize, usize) {
///     (AL::Tm::USIZE, AL::Tn::USIZE, AL::Tk::USIZE)
/// }
/// let al = layout!((2,4,1):(4,1,0));                      // atom (m, n, 0) is number 4m + n
/// assert_eq!(atoms(al), (2, 4, 1));
/// assert_eq!(make_tiled_mma(UniversalFma::<f32>::new(), al).get_slice(6).coord(), (0, 1, 2, 0));
/// ```
pub trait AtomLayout: StaticLayout + IndexOf {
    /// Atoms along M.
    type Tm: Unsigned + Default + Copy + 'static;
    /// Atoms along N.
    type Tn: Unsigned + Default + Copy + 'static;
    /// Atoms along K.
    type Tk: Unsigned + Default + Copy + 'static;
}
impl<TM, TN, TK, D0, D1, D2> AtomLayout for Layout<(TM, TN, TK), (D0, D1, D2)>
where
    Layout<(TM, TN, TK), (D0, D1, D2)>: StaticLayout + IndexOf,
    TM: Unsigned + Default + Copy + 'static,
    TN: Unsigned + Default + Copy + 'static,
    TK: Unsigned + Default + Copy + 'static,
{
    type Tm = TM;
    type Tn = TN;
    type Tk = TK;
}

/// CuTe's `TiledMMA`: an atom repeated over an [`AtomLayout`]. Made by
/// [`make_tiled_mma`].
///
/// Post-conditions: `size()` is `size(ThrId)·TM·TN·TK` threads; the tile it
/// computes in one step is `tile_size_mnk() = (M·TM, N·TN, K·TK)`; for any
/// C tile, the parts `get_slice(t).partition_c(tile)` over all threads `t`
/// with `k = 0` reach every element of the tile exactly once (tested).
///
/// A CPU GEMM in CuTe's way: each thread partitions A, B and C and runs
/// [`gemm`](Self::gemm) on its parts, here with its accumulators in a
/// register fragment written back at the end.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, UniversalFma};
/// // 2x2 threads of a one-value FMA: a (2,2,1) tile a step, repeated over C (4,4) and K = 3.
/// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((2,2,1):(1,2,0)));
/// assert_eq!((mma.size(), mma.tile_size_mnk()), (4, (2, 2, 1)));
/// let a: Vec<f32> = (0..12).map(|i| i as f32).collect();           // A (M,K) = (4,3)
/// let b: Vec<f32> = (0..12).map(|i| (i % 5) as f32).collect();     // B (N,K) = (4,3)
/// let mut c = vec![0f32; 16];
/// for t in 0..mma.size() {
///     let thr = mma.get_slice(t);
///     let ta = thr.partition_a(make_tensor(&a[..], layout!((4,3):(1,4))));     // (1,2,3)
///     let tb = thr.partition_b(make_tensor(&b[..], layout!((4,3):(1,4))));     // (1,2,3)
///     let mut acc = thr.partition_fragment_c(&layout!((4,4):(1,4)));           // (1,2,2)
///     mma.gemm(&ta, &tb, &mut acc);
///     copy(&acc, &mut thr.partition_c(make_tensor(&mut c[..], layout!((4,4):(1,4)))));
/// }
/// let naive = |m: usize, n: usize| (0..3).map(|k| a[m + 4 * k] * b[n + 4 * k]).sum::<f32>();
/// assert!((0..16).all(|i| c[i] == naive(i % 4, i / 4)));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TiledMma<Atom, AL, P = NoPermutation> {
    atom: Atom,
    atom_layout: AL,
    permutation: P,
}

/// No permutation of a tiled MMA's tile: CuTe's default `Tile<_,_,_>`,
/// what [`make_tiled_mma`] gives; the same as the permutation `(__, __, __)`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, make_tiled_mma_permuted, NoPermutation, TiledMma, UniversalFma};
/// let atoms = layout!((2,2,1):(1,2,0));
/// let plain: TiledMma<_, _, NoPermutation> = make_tiled_mma(UniversalFma::<f32>::new(), atoms);
/// let blank = make_tiled_mma_permuted(UniversalFma::<f32>::new(), atoms, (__, __, __));
/// assert_eq!(plain.tile_size_mnk(), blank.tile_size_mnk());
/// assert_eq!(plain.layout_c_tv().to_string(), blank.layout_c_tv().to_string());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoPermutation;

/// The permutation of a [`TiledMma`]'s tile (CuTe's `PermutationMNK`):
/// per mode M, N, K either `__` (none) or a static layout by which the
/// mode of each tile is first divided (CuTe's `logical_divide(tile,
/// make_tile(PermM, PermN))`), which both reorders the tile and sets its
/// extent. Implemented for [`NoPermutation`] and for triples of `__` and
/// static layouts.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, make_tiled_mma_permuted, NoPermutation, PermMode, Permutation, UniversalFma};
/// // The tile a permutation gives atoms that cover (m, n, k).
/// fn tile<P: Permutation>(_: P, (m, n, k): (usize, usize, usize)) -> (usize, usize, usize) {
///     (P::M::extent(m), P::N::extent(n), P::K::extent(k))
/// }
/// assert_eq!(tile(NoPermutation, (16, 16, 4)), (16, 16, 4));
/// assert_eq!(tile((layout!(32:1), layout!(32:1), __), (16, 16, 4)), (32, 32, 4));
/// // Two atoms along M read positions 0, 2 and 1, 3 of M: (2,2):(2,1) makes those rows 0, 1 and 2, 3.
/// let c = [0.0f32, 1.0, 2.0, 3.0];                        // a (4,1) C, C(m) = m
/// let (al, tile_c) = (layout!((2,1,1):(1,0,0)), make_tensor(&c[..], layout!((4,1):(1,4))));
/// let plain = make_tiled_mma(UniversalFma::<f32>::new(), al).get_slice(0).partition_c(tile_c);
/// let paired = make_tiled_mma_permuted(UniversalFma::<f32>::new(), al, (layout!((2,2):(2,1)), __, __));
/// let paired = paired.get_slice(0).partition_c(tile_c);
/// assert_eq!((plain[(0usize, 1usize, 0usize)], paired[(0usize, 1usize, 0usize)]), (2.0, 1.0));
/// ```
pub trait Permutation: Copy {
    /// Mode M's permutation.
    type M: PermMode;
    /// Mode N's permutation.
    type N: PermMode;
    /// Mode K's permutation.
    type K: PermMode;
}
impl Permutation for NoPermutation {
    type M = Underscore;
    type N = Underscore;
    type K = Underscore;
}
impl<PM: PermMode, PN: PermMode, PK: PermMode> Permutation for (PM, PN, PK) {
    type M = PM;
    type N = PN;
    type K = PK;
}

/// One mode of a [`Permutation`]: `__` or a static layout.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma_permuted, PermMode, UniversalFma};
/// // The M extent of a tiled MMA of two atoms along M, for a permutation of mode M.
/// fn tile_m<PM: PermMode>(pm: PM) -> usize {
///     make_tiled_mma_permuted(UniversalFma::<f32>::new(), layout!((2,1,1):(1,0,0)), (pm, __, __)).tile_size_mnk().0
/// }
/// assert_eq!(tile_m(__), 2);                              // the atoms' extent
/// assert_eq!(tile_m(layout!((2,2):(2,1))), 4);            // the layout's size: each atom takes two rows
/// ```
pub trait PermMode: Copy + Default {
    /// The mode's extent of the tiled MMA's tile, given the extent the
    /// atoms cover.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::PermMode;
    /// assert_eq!(<Underscore as PermMode>::extent(16), 16);      // `__`: the atoms' extent
    /// assert_eq!(<Layout![32:1] as PermMode>::extent(16), 32);   // a layout: its size
    /// ```
    fn extent(atoms: usize) -> usize;
}
impl PermMode for Underscore {
    #[inline(always)]
    fn extent(atoms: usize) -> usize {
        atoms
    }
}
impl<S, D> PermMode for Layout<S, D>
where
    Layout<S, D>: StaticLayout,
{
    #[inline(always)]
    fn extent(_: usize) -> usize {
        <Layout<S, D> as StaticLayout>::SIZE
    }
}

/// A rank-2 tile divided by the permutation of its two modes (`__`: the
/// mode as it is).
#[doc(hidden)]
pub trait Permute2<PP, PQ>: Copy {
    /// The permuted tile.
    type Output: Copy;
    /// `(logical_divide(mode 0, PP), logical_divide(mode 1, PQ))`.
    fn permute2(self) -> Self::Output;
}
/// One mode divided by a permutation mode.
#[doc(hidden)]
pub trait PermuteBy<P>: Copy {
    /// The divided mode.
    type Output: Copy;
    /// `logical_divide(self, P)`, or `self` for `__`.
    fn permute_by(self) -> Self::Output;
}
impl<L: Copy> PermuteBy<Underscore> for L {
    type Output = L;
    #[inline(always)]
    fn permute_by(self) -> L {
        self
    }
}
impl<L, S, D> PermuteBy<Layout<S, D>> for L
where
    L: Copy + crate::divide::LogicalDivide<Layout<S, D>>,
    Layout<S, D>: Default,
    <L as crate::divide::LogicalDivide<Layout<S, D>>>::Output:
        DivideValue<crate::divide::LogicalArr, L, Layout<S, D>> + Copy,
{
    type Output = <L as crate::divide::LogicalDivide<Layout<S, D>>>::Output;
    #[inline(always)]
    #[track_caller]
    fn permute_by(self) -> Self::Output {
        crate::logical_divide(self, Layout::<S, D>::default())
    }
}
impl<L, PP, PQ> Permute2<PP, PQ> for L
where
    L: Split2,
    M0<L>: PermuteBy<PP>,
    M1<L>: PermuteBy<PQ>,
    (<M0<L> as PermuteBy<PP>>::Output, <M1<L> as PermuteBy<PQ>>::Output): ConcatLayouts,
    <(<M0<L> as PermuteBy<PP>>::Output, <M1<L> as PermuteBy<PQ>>::Output) as ConcatLayouts>::Output: Copy,
{
    type Output = <(<M0<L> as PermuteBy<PP>>::Output, <M1<L> as PermuteBy<PQ>>::Output) as ConcatLayouts>::Output;
    #[inline(always)]
    #[track_caller]
    fn permute2(self) -> Self::Output {
        let (p, q) = self.split2();
        crate::concat((p.permute_by(), q.permute_by()))
    }
}

/// `make_tiled_mma(atom, atom_layout)`: the atom repeated over a static
/// `(TM,TN,TK)` layout of atoms, CuTe's `make_tiled_mma` without a
/// permutation.
///
/// # Panics
///
/// When the atom layout is not a bijection onto `0..TM·TN·TK` (a thread
/// index must name one atom).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, UniversalFma};
/// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,8,1):(1,4,0)));
/// assert_eq!(mma.size(), 32);
/// assert_eq!(mma.tile_size_mnk(), (4, 8, 1));
/// ```
#[inline]
#[track_caller]
pub fn make_tiled_mma<Atom: MmaAtom, AL: AtomLayout>(atom: Atom, atom_layout: AL) -> TiledMma<Atom, AL> {
    let n = AL::Tm::USIZE * AL::Tn::USIZE * AL::Tk::USIZE;
    let mut seen = [false; 1024];
    let ok = n <= seen.len()
        && (0..n).all(|i| {
            let idx = atom_layout.index_of(i);
            idx < n && !core::mem::replace(&mut seen[idx], true)
        });
    if !ok {
        bad_atom_layout(n)
    }
    TiledMma { atom, atom_layout, permutation: NoPermutation }
}

/// `make_tiled_mma(atom, atom_layout, permutation_mnk)`: CuTe's
/// `make_tiled_mma` with a permutation of the tile (see [`Permutation`]):
/// `(PermM, PermN, PermK)`, each `__` or a static layout. The tile of one
/// step is then `size(PermM)` by `size(PermN)` by `size(PermK)` (the atoms'
/// extent where `__`).
///
/// # Panics
///
/// As [`make_tiled_mma`].
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma_permuted, SM70_8x8x4_F32F16F16F32_NT};
/// // CuTe's docs: SM70 quad pairs 2x2, the tile permuted to 32x32x4.
/// let mma = make_tiled_mma_permuted(
///     SM70_8x8x4_F32F16F16F32_NT,
///     layout!((2,2,1):(2,1,0)),
///     (layout!(32:1), layout!(32:1), __),
/// );
/// assert_eq!(mma.tile_size_mnk(), (32, 32, 4));
/// ```
#[inline]
#[track_caller]
pub fn make_tiled_mma_permuted<Atom: MmaAtom, AL: AtomLayout, P: Permutation>(
    atom: Atom,
    atom_layout: AL,
    permutation: P,
) -> TiledMma<Atom, AL, P> {
    let t = make_tiled_mma(atom, atom_layout);
    TiledMma { atom: t.atom, atom_layout: t.atom_layout, permutation }
}

#[cold]
#[inline(never)]
#[track_caller]
fn bad_atom_layout(n: usize) -> ! {
    panic!("make_tiled_mma: the atom layout must map its {n} atoms one to one onto 0..{n}")
}

/// A layout evaluated at an integral coordinate, `layout(i)` as `usize`:
/// every [`Layout`]. The bound of [`TiledCopy::copy`](crate::TiledCopy::copy)'s
/// operands (with [`AtomOperand`]).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::IndexOf;
/// fn operand<L: IndexOf>(_: L) {}
/// operand(layout!((4, 2):(2, 1)));
/// ```
pub trait IndexOf {
    /// `layout(i)`.
    #[doc(hidden)]
    fn index_of(&self, i: usize) -> usize;
}
impl<S: Congruent<D>, D: IntTuple> IndexOf for Layout<S, D>
where
    usize: crate::coord::Coord<S, D>,
{
    #[inline(always)]
    fn index_of(&self, i: usize) -> usize {
        // The wrapping sum: a negative offset wraps, and the storage check
        // of the part that uses it fails.
        crate::coord::Coord::<S, D>::offset_acc(i, &self.shape(), &self.stride(), 0)
    }
}

impl<Atom: MmaAtom, AL: AtomLayout, P: Permutation> TiledMma<Atom, AL, P> {
    /// The number of threads: `size(ThrId)·TM·TN·TK`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// assert_eq!(mma.size(), 128);                                // 2x2 atoms of a 32-thread warp
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        <Atom::ThrId as StaticLayout>::SIZE * AL::Tm::USIZE * AL::Tn::USIZE * AL::Tk::USIZE
    }

    /// The `(M, N, K)` tile the threads compute together in one step:
    /// `(M·TM, N·TN, K·TK)`, or the sizes of the permutation's layouts
    /// where it has them.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// assert_eq!(mma.tile_size_mnk(), (32, 16, 16));              // (16·2, 8·2, 16·1)
    /// ```
    #[inline(always)]
    pub fn tile_size_mnk(&self) -> (usize, usize, usize) {
        let (m, n, k) = Atom::shape_mnk();
        (P::M::extent(m * AL::Tm::USIZE), P::N::extent(n * AL::Tn::USIZE), P::K::extent(k * AL::Tk::USIZE))
    }

    /// The atom.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, MmaCall, UniversalFma};
    /// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,8,1):(1,4,0)));
    /// let mut c = [1.0f32];
    /// mma.atom().call(&mut c, &[2.0], &[3.0]);                   // one thread's one instruction
    /// assert_eq!(c, [7.0]);
    /// ```
    #[inline(always)]
    pub fn atom(&self) -> Atom {
        self.atom
    }

    /// The layout of atoms: `(TM, TN, TK)` coordinate → the atom's index.
    /// For an atom whose threads are `0..V` (`ThrId` the identity), atom
    /// `i` is threads `V·i..V·(i+1)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// assert_eq!(mma.atom_layout().to_string(), "(_2,_2,_1):(_1,_2,_0)");
    /// assert_eq!(mma.atom_layout().index((1usize, 1usize, 0usize)), 3);   // threads 96..128
    /// ```
    #[inline(always)]
    pub fn atom_layout(&self) -> AL {
        self.atom_layout
    }

    /// The permutation of the tile: [`NoPermutation`] from
    /// [`make_tiled_mma`], the one given to [`make_tiled_mma_permuted`].
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, make_tiled_mma_permuted, NoPermutation, UniversalFma};
    /// let atoms = layout!((2,2,1):(1,2,0));
    /// let mma = make_tiled_mma(UniversalFma::<f32>::new(), atoms);
    /// assert_eq!(mma.permutation(), NoPermutation);
    /// let permuted = make_tiled_mma_permuted(UniversalFma::<f32>::new(), atoms, (layout!(4:1), __, __));
    /// assert_eq!(permuted.permutation().0.to_string(), "_4:_1");
    /// ```
    #[inline(always)]
    pub fn permutation(&self) -> P {
        self.permutation
    }

    /// Thread `tid`'s view of the tiled MMA (CuTe's `get_slice`): its
    /// coordinate `(v, m, n, k)` among the atom threads and atoms. `tid` is
    /// a thread index (a lane), as in CuTe: an atom whose threads are not
    /// `0..V` (SM70's quad pairs) works on the lanes its `ThrId` names.
    ///
    /// # Panics
    ///
    /// When `tid` is not a thread of the tiled MMA (see
    /// [`is_thread`](Self::is_thread)).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, UniversalFma};
    /// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((2,3,1):(3,1,0)));
    /// assert_eq!(mma.get_slice(4).coord(), (0, 1, 1, 0));       // layout((1,1,0)) = 3 + 1
    /// ```
    #[inline]
    #[track_caller]
    pub fn get_slice(&self, tid: usize) -> ThrMma<Atom, AL, P> {
        let Some((v, atom)) = self.thread_of(tid) else { slice_panic(tid, self.size()) };
        let (tm, tn) = (AL::Tm::USIZE, AL::Tn::USIZE);
        let n = tm * tn * AL::Tk::USIZE;
        // The atom whose index in the atom layout is `atom` (a bijection,
        // checked by `make_tiled_mma`).
        let pos = (0..n).find(|&i| self.atom_layout.index_of(i) == atom).unwrap_or(0);
        ThrMma { tiled: *self, v, m: pos % tm, n: pos / tm % tn, k: pos / (tm * tn) }
    }

    /// Whether `tid` is a thread index of the tiled MMA: one of
    /// `0..size()` for atoms whose threads are `0..V`, one of the lanes
    /// the atoms' `ThrId` name otherwise (a lone SM70 quad pair works on
    /// lanes 0–3 and 16–19).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, SM70_8x8x4_F32F16F16F32_NT};
    /// let mma = make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT, layout!((1,1,1):(0,0,0)));
    /// assert!(mma.is_thread(17) && !mma.is_thread(4));
    /// ```
    #[inline]
    pub fn is_thread(&self, tid: usize) -> bool {
        self.thread_of(tid).is_some()
    }

    /// `(v, a)` with `thr_layout_vmnk(v, a) = tid`, where thread `v` of
    /// the atom's `ThrId` working on the atom of index `a` is `ThrId(v) +
    /// complement(ThrId, size(ThrId)·cosize(atoms))(a)` (CuTe's
    /// `tiled_product(ThrID, atom_layout)`). An identity `ThrId` (`V:1`,
    /// every CPU atom and most GPU ones) gives `(tid % V, tid / V)`.
    #[inline(always)]
    fn thread_of(&self, tid: usize) -> Option<(usize, usize)> {
        let v_count = <Atom::ThrId as StaticLayout>::SIZE;
        let thr = Atom::ThrId::default();
        if (0..v_count).all(|v| thr.index_of(v) == v) {
            return (tid < self.size()).then(|| (tid % v_count, tid / v_count));
        }
        thread_of_general(&thr, v_count, AL::COSIZE, tid)
    }
}

#[cfg(feature = "std")]
#[cold]
fn thread_of_general<T: IndexOf>(thr: &T, v_count: usize, atoms_cosize: usize, tid: usize) -> Option<(usize, usize)> {
    // A cold path: only atoms whose threads are not 0..V (SM70's quad
    // pairs). The complement of ThrId in `V·cosize(atoms)` has increasing
    // values (its strides are sorted and its modes disjoint), and with
    // ThrId it covers `0..V·cosize` once: so its next value is always the
    // smallest offset that ThrId shifted by the values before does not
    // reach.
    let offsets: Vec<i64> = (0..v_count).map(|v| thr.index_of(v) as i64).collect();
    let cotarget = (v_count * atoms_cosize) as i64;
    let taken: std::collections::BTreeSet<i64> = offsets.iter().copied().collect();
    let mut comp = vec![0i64];
    let mut base: std::collections::BTreeSet<i64> = taken.clone();
    while (comp.len() as i64) * (offsets.len() as i64) < cotarget {
        let next = (0..cotarget).find(|o| !base.contains(o)).unwrap_or(cotarget);
        comp.push(next);
        base.extend(taken.iter().map(|t| t + next));
    }
    for (a, c) in comp.iter().enumerate() {
        for (v, o) in offsets.iter().enumerate() {
            if o + c == tid as i64 {
                return Some((v, a));
            }
        }
    }
    None
}

#[cfg(not(feature = "std"))]
#[cold]
#[track_caller]
fn thread_of_general<T: IndexOf>(_: &T, _: usize, _: usize, _: usize) -> Option<(usize, usize)> {
    panic!("get_slice: an atom whose threads are not 0..V needs the `std` feature")
}

#[cold]
#[inline(never)]
#[track_caller]
fn slice_panic(tid: usize, size: usize) -> ! {
    panic!("get_slice: {tid} is not a thread index of this tiled MMA of {size} threads")
}

// ---------------------------------------------- the tiled thread-value layouts

/// CuTe's `make_layout(shape)` of a static shape: compact column-major,
/// stride 0 on extents of 1.
type ColMajor<T> = Layout<T, <T as CuteCompactCol<U1>>::Stride>;

/// CuTe's `permutation_mnk<I>()`: a mode's permutation layout, or for `__`
/// the mode's extent `E:1` (the atoms' extent along it).
#[doc(hidden)]
pub trait PermLayout<E> {
    /// The layout the tile's mode is divided by.
    type Layout: StaticLayout;
}
impl<E> PermLayout<E> for Underscore
where
    Layout<E, U1>: StaticLayout,
{
    type Layout = Layout<E, U1>;
}
impl<E, S, D> PermLayout<E> for Layout<S, D>
where
    Layout<S, D>: StaticLayout,
{
    type Layout = Layout<S, D>;
}

/// A mode composed with a tile's mode: `self` for `__`, `self ∘ X` for a
/// layout `X` (CuTe's `compose(make_tile(..., X, ...), _)` on one mode).
#[doc(hidden)]
pub trait ComposeMode<X> {
    /// The composed mode.
    type Output;
}
impl<L> ComposeMode<Underscore> for L {
    type Output = L;
}
impl<L: Compose<Layout<S, D>>, S, D> ComposeMode<Layout<S, D>> for L {
    type Output = <L as Compose<Layout<S, D>>>::Output;
}

type Perm<P, E> = <P as PermLayout<E>>::Layout;
type Sz<L> = <L as SizeOf>::Size;
type Cc<T> = <T as ConcatLayouts>::Output;
/// The permuted tile: `logical_divide(make_layout((I, J)), (PermI, PermJ))`.
type Permuted<PI, PJ> = <ColMajor<(Sz<PI>, Sz<PJ>)> as LogicalDivide<(PI, PJ)>>::Output;
/// `((AtomI,AtomJ),(RestI,RestJ))`.
type AtomDivided<PI, PJ, AI, AJ> = Zd<Permuted<PI, PJ>, (AI, AJ)>;
/// `(ThrV, FrgV)`: the atom's mode read through its thread-value layout.
type AtomTvOf<PI, PJ, AI, AJ, Tv> = <M0<AtomDivided<PI, PJ, AI, AJ>> as Compose<Tv>>::Output;
/// `((ThrI,RestI),(ThrJ,RestJ))`: the rest divided among the atoms.
type RestDivided<PI, PJ, AI, AJ, TI, TJ> = <M1<AtomDivided<PI, PJ, AI, AJ>> as LogicalDivide<(TI, TJ)>>::Output;
type ThrI<R> = M0<M0<R>>;
type ThrJ<R> = M0<M1<R>>;
/// `(ThrV, (ThrI ∘ WI, ThrJ ∘ WJ))`: the thread mode, widened where the
/// operand is shared along the third dimension.
type ThrModeOf<PI, PJ, AI, AJ, Tv, TI, TJ, WI, WJ> = Cc<(
    M0<AtomTvOf<PI, PJ, AI, AJ, Tv>>,
    Cc<(
        <ThrI<RestDivided<PI, PJ, AI, AJ, TI, TJ>> as ComposeMode<WI>>::Output,
        <ThrJ<RestDivided<PI, PJ, AI, AJ, TI, TJ>> as ComposeMode<WJ>>::Output,
    )>,
)>;
/// `(FrgV, (RestI, RestJ))`: the value mode.
type ValModeOf<PI, PJ, AI, AJ, Tv, TI, TJ> = Cc<(
    M1<AtomTvOf<PI, PJ, AI, AJ, Tv>>,
    Cc<(M1<M0<RestDivided<PI, PJ, AI, AJ, TI, TJ>>>, M1<M1<RestDivided<PI, PJ, AI, AJ, TI, TJ>>>)>,
)>;

/// CuTe's `thr_layout_vmnk`: `tiled_product(ThrID, AtomLayoutMNK)`,
/// `(v, m, n, k) →` the thread index of thread `v` of the atom at `(m, n,
/// k)` in the atom layout.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{SM70_8x8x4_F32F16F16F32_NT, ThrLayoutVmnk};
/// // SM70's quad pairs: lanes 0-3 and 16-19 are one atom; the next along M starts at lane 8.
/// let vmnk: ThrLayoutVmnk<SM70_8x8x4_F32F16F16F32_NT, Layout![(2,2,1):(2,1,0)]> = Default::default();
/// assert_eq!(vmnk.to_string(), "((_4,_2),_2,_2,_1):((_1,_16),_8,_4,_0)");
/// assert_eq!(vmnk.index(((1usize, 1usize), 1usize, 0usize, 0usize)), 1 + 16 + 8); // v = (1,1) of atom (1,0,0)
/// ```
pub type ThrLayoutVmnk<Atom, AL> = <<Atom as MmaAtom>::ThrId as TiledProduct<AL>>::Output;
/// CuTe's `thridx_2_thrid`: thread index → the position of its coordinate
/// in `(ThrV, ThrM, ThrN, ThrK)`.
type ThrIdx<Vmnk> = <Layout<(Sz<Vmnk>, U1), (U1, U0)> as Compose<
    <Cc<(Vmnk, <Vmnk as Complement<<Vmnk as CosizeOf>::Cosize>>::Output)> as RightInverse>::Output,
>>::Output;

/// The thread-value layout of one operand of a tiled MMA, `(thread index,
/// value) →` the index in the operand's column-major `(I, J)` tile (CuTe's
/// `get_layoutA|B|C_TV`), computed as CuTe computes it: the tile permuted
/// by `(PI, PJ)`, divided by the atom's `(AI, AJ)`, the atom's mode read
/// through its `Tv`, the rest divided among the `(TI, TJ)` atoms, the
/// thread mode widened by `(WI, WJ)` (a stride-0 mode along the dimension
/// the operand is shared in) and indexed by thread through `Vmnk`;
/// `Args` is `(PI, PJ, AI, AJ, Tv, TI, TJ, WI, WJ)`.
#[doc(hidden)]
pub trait OperandTv<Args> {
    /// `(thread, value) → i + I·j`.
    type Tv: StaticLayout;
}
impl<Vmnk, PI, PJ, AI, AJ, Tv, TI, TJ, WI, WJ> OperandTv<(PI, PJ, AI, AJ, Tv, TI, TJ, WI, WJ)> for Vmnk
where
    PI: SizeOf,
    PJ: SizeOf,
    (Sz<PI>, Sz<PJ>): CuteCompactCol<U1>,
    ColMajor<(Sz<PI>, Sz<PJ>)>: LogicalDivide<(PI, PJ)>,
    Permuted<PI, PJ>: ZippedDivide<(AI, AJ)>,
    AtomDivided<PI, PJ, AI, AJ>: Split2,
    M0<AtomDivided<PI, PJ, AI, AJ>>: Compose<Tv>,
    AtomTvOf<PI, PJ, AI, AJ, Tv>: Split2,
    M1<AtomDivided<PI, PJ, AI, AJ>>: LogicalDivide<(TI, TJ)>,
    RestDivided<PI, PJ, AI, AJ, TI, TJ>: Split2,
    M0<RestDivided<PI, PJ, AI, AJ, TI, TJ>>: Split2,
    M1<RestDivided<PI, PJ, AI, AJ, TI, TJ>>: Split2,
    ThrI<RestDivided<PI, PJ, AI, AJ, TI, TJ>>: ComposeMode<WI>,
    ThrJ<RestDivided<PI, PJ, AI, AJ, TI, TJ>>: ComposeMode<WJ>,
    (
        <ThrI<RestDivided<PI, PJ, AI, AJ, TI, TJ>> as ComposeMode<WI>>::Output,
        <ThrJ<RestDivided<PI, PJ, AI, AJ, TI, TJ>> as ComposeMode<WJ>>::Output,
    ): ConcatLayouts,
    (
        M0<AtomTvOf<PI, PJ, AI, AJ, Tv>>,
        Cc<(
            <ThrI<RestDivided<PI, PJ, AI, AJ, TI, TJ>> as ComposeMode<WI>>::Output,
            <ThrJ<RestDivided<PI, PJ, AI, AJ, TI, TJ>> as ComposeMode<WJ>>::Output,
        )>,
    ): ConcatLayouts,
    (M1<M0<RestDivided<PI, PJ, AI, AJ, TI, TJ>>>, M1<M1<RestDivided<PI, PJ, AI, AJ, TI, TJ>>>): ConcatLayouts,
    (
        M1<AtomTvOf<PI, PJ, AI, AJ, Tv>>,
        Cc<(M1<M0<RestDivided<PI, PJ, AI, AJ, TI, TJ>>>, M1<M1<RestDivided<PI, PJ, AI, AJ, TI, TJ>>>)>,
    ): ConcatLayouts,
    Vmnk: SizeOf + CosizeOf + Complement<<Vmnk as CosizeOf>::Cosize>,
    (Vmnk, <Vmnk as Complement<<Vmnk as CosizeOf>::Cosize>>::Output): ConcatLayouts,
    Cc<(Vmnk, <Vmnk as Complement<<Vmnk as CosizeOf>::Cosize>>::Output)>: RightInverse,
    Layout<(Sz<Vmnk>, U1), (U1, U0)>:
        Compose<<Cc<(Vmnk, <Vmnk as Complement<<Vmnk as CosizeOf>::Cosize>>::Output)> as RightInverse>::Output>,
    ThrModeOf<PI, PJ, AI, AJ, Tv, TI, TJ, WI, WJ>: Compose<ThrIdx<Vmnk>>,
    (
        <ThrModeOf<PI, PJ, AI, AJ, Tv, TI, TJ, WI, WJ> as Compose<ThrIdx<Vmnk>>>::Output,
        ValModeOf<PI, PJ, AI, AJ, Tv, TI, TJ>,
    ): ConcatLayouts,
    Cc<(
        <ThrModeOf<PI, PJ, AI, AJ, Tv, TI, TJ, WI, WJ> as Compose<ThrIdx<Vmnk>>>::Output,
        ValModeOf<PI, PJ, AI, AJ, Tv, TI, TJ>,
    )>: StaticLayout,
{
    type Tv = Cc<(
        <ThrModeOf<PI, PJ, AI, AJ, Tv, TI, TJ, WI, WJ> as Compose<ThrIdx<Vmnk>>>::Output,
        ValModeOf<PI, PJ, AI, AJ, Tv, TI, TJ>,
    )>;
}

type PermM<Atom, AL, P> = Perm<<P as Permutation>::M, Prod<<Atom as MmaAtom>::M, <AL as AtomLayout>::Tm>>;
type PermN<Atom, AL, P> = Perm<<P as Permutation>::N, Prod<<Atom as MmaAtom>::N, <AL as AtomLayout>::Tn>>;
type PermK<Atom, AL, P> = Perm<<P as Permutation>::K, Prod<<Atom as MmaAtom>::K, <AL as AtomLayout>::Tk>>;
/// A's thread mode widened along N: `(TM, TN):(1, 0)`.
type WidenA<AL> = Layout<(<AL as AtomLayout>::Tm, <AL as AtomLayout>::Tn), (U1, U0)>;
/// B's thread mode widened along M: `(TM, TN):(0, 1)`.
type WidenB<AL> = Layout<(<AL as AtomLayout>::Tm, <AL as AtomLayout>::Tn), (U0, U1)>;

/// The arguments of [`OperandTv`] for A, B and C: which tile modes, the
/// atom's extents and TV layout, the atoms along them, the widening.
type ArgsA<Atom, AL, P> = (
    PermM<Atom, AL, P>,
    PermK<Atom, AL, P>,
    <Atom as MmaAtom>::M,
    <Atom as MmaAtom>::K,
    <Atom as MmaAtom>::LayoutATv,
    <AL as AtomLayout>::Tm,
    <AL as AtomLayout>::Tk,
    WidenA<AL>,
    Underscore,
);
type ArgsB<Atom, AL, P> = (
    PermN<Atom, AL, P>,
    PermK<Atom, AL, P>,
    <Atom as MmaAtom>::N,
    <Atom as MmaAtom>::K,
    <Atom as MmaAtom>::LayoutBTv,
    <AL as AtomLayout>::Tn,
    <AL as AtomLayout>::Tk,
    WidenB<AL>,
    Underscore,
);
type ArgsC<Atom, AL, P> = (
    PermM<Atom, AL, P>,
    PermN<Atom, AL, P>,
    <Atom as MmaAtom>::M,
    <Atom as MmaAtom>::N,
    <Atom as MmaAtom>::LayoutCTv,
    <AL as AtomLayout>::Tm,
    <AL as AtomLayout>::Tn,
    Underscore,
    Underscore,
);

/// The thread-value layouts and tiles of a tiled MMA's operands (CuTe's
/// `get_layoutA|B|C_TV` and `tile_size_mnk`), as types: what
/// [`make_tiled_copy_a`](crate::make_tiled_copy_a) and
/// [`TiledMma::layout_a_tv`] need, under one name.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, SM80_16x8x16_F32F16F16F32_TN, TiledOperands};
/// // How many threads hold each element of A, B and C, from the tiled MMA's type.
/// fn holders<M: TiledOperands>(_: &M) -> (usize, usize, usize) {
///     let per = |tv: usize, tile: usize| tv / tile;
///     (
///         per(<M::LayoutATv as StaticLayout>::SIZE, M::TileA::default().size()),
///         per(<M::LayoutBTv as StaticLayout>::SIZE, M::TileB::default().size()),
///         per(<M::LayoutCTv as StaticLayout>::SIZE, M::TileC::default().size()),
///     )
/// }
/// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
/// assert_eq!(holders(&mma), (2, 2, 1));                   // A is shared by the atoms along N, B along M
/// ```
pub trait TiledOperands {
    /// `(thread, value) → m + M·k` in the `(M, K)` tile of A.
    type LayoutATv: StaticLayout;
    /// `(thread, value) → n + N·k` in the `(N, K)` tile of B.
    type LayoutBTv: StaticLayout;
    /// `(thread, value) → m + M·n` in the `(M, N)` tile of C.
    type LayoutCTv: StaticLayout;
    /// The `(M, K)` tile as a static shape.
    type TileA: Default + Copy + StaticIntTuple;
    /// The `(N, K)` tile.
    type TileB: Default + Copy + StaticIntTuple;
    /// The `(M, N)` tile.
    type TileC: Default + Copy + StaticIntTuple;
}
impl<Atom: MmaAtom, AL: AtomLayout, P: Permutation> TiledOperands for TiledMma<Atom, AL, P>
where
    Atom::ThrId: TiledProduct<AL>,
    Atom::M: Mul<AL::Tm>,
    Atom::N: Mul<AL::Tn>,
    Atom::K: Mul<AL::Tk>,
    P::M: PermLayout<Prod<Atom::M, AL::Tm>>,
    P::N: PermLayout<Prod<Atom::N, AL::Tn>>,
    P::K: PermLayout<Prod<Atom::K, AL::Tk>>,
    PermM<Atom, AL, P>: SizeOf,
    PermN<Atom, AL, P>: SizeOf,
    PermK<Atom, AL, P>: SizeOf,
    (Sz<PermM<Atom, AL, P>>, Sz<PermK<Atom, AL, P>>): Default + Copy + StaticIntTuple,
    (Sz<PermN<Atom, AL, P>>, Sz<PermK<Atom, AL, P>>): Default + Copy + StaticIntTuple,
    (Sz<PermM<Atom, AL, P>>, Sz<PermN<Atom, AL, P>>): Default + Copy + StaticIntTuple,
    ThrLayoutVmnk<Atom, AL>:
        OperandTv<ArgsA<Atom, AL, P>> + OperandTv<ArgsB<Atom, AL, P>> + OperandTv<ArgsC<Atom, AL, P>>,
{
    type LayoutATv = <ThrLayoutVmnk<Atom, AL> as OperandTv<ArgsA<Atom, AL, P>>>::Tv;
    type LayoutBTv = <ThrLayoutVmnk<Atom, AL> as OperandTv<ArgsB<Atom, AL, P>>>::Tv;
    type LayoutCTv = <ThrLayoutVmnk<Atom, AL> as OperandTv<ArgsC<Atom, AL, P>>>::Tv;
    type TileA = (Sz<PermM<Atom, AL, P>>, Sz<PermK<Atom, AL, P>>);
    type TileB = (Sz<PermN<Atom, AL, P>>, Sz<PermK<Atom, AL, P>>);
    type TileC = (Sz<PermM<Atom, AL, P>>, Sz<PermN<Atom, AL, P>>);
}

impl<Atom: MmaAtom, AL: AtomLayout, P: Permutation> TiledMma<Atom, AL, P>
where
    Self: TiledOperands,
{
    /// CuTe's `get_layoutA_TV()`: `(thread, value) → m + M·k`, which
    /// element of the `(M, K)` tile of A each thread's value is, computed
    /// as CuTe computes it (the A part of `thrfrg_A` of the tile, the
    /// threads along N added with stride 0, thread indices through
    /// `right_inverse(thr_layout_vmnk)`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// assert_eq!(
    ///     mma.layout_a_tv().to_string(),
    ///     "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))"
    /// );
    /// ```
    #[inline(always)]
    pub fn layout_a_tv(&self) -> <Self as TiledOperands>::LayoutATv {
        Default::default()
    }
    /// CuTe's `get_layoutB_TV()`: `(thread, value) → n + N·k` in the
    /// `(N, K)` tile of B (the threads along M added with stride 0).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// // A (16,16) tile of B; the second atom along N holds rows 8..16.
    /// assert_eq!(
    ///     mma.layout_b_tv().to_string(),
    ///     "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_32,_1,_0,_8),((_16,_128),(_0,_0)))"
    /// );
    /// ```
    #[inline(always)]
    pub fn layout_b_tv(&self) -> <Self as TiledOperands>::LayoutBTv {
        Default::default()
    }
    /// CuTe's `get_layoutC_TV()`: `(thread, value) → m + M·n` in the
    /// `(M, N)` tile of C.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// // A (32,16) tile of C, each accumulator one thread's value.
    /// assert_eq!(
    ///     mma.layout_c_tv().to_string(),
    ///     "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))"
    /// );
    /// ```
    #[inline(always)]
    pub fn layout_c_tv(&self) -> <Self as TiledOperands>::LayoutCTv {
        Default::default()
    }
}

impl<Atom: MmaAtom, AL: AtomLayout, P: Permutation> fmt::Display for TiledMma<Atom, AL, P> {
    /// CuTe's `print(tiled_mma)` header: the atom and the atom layout.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "TiledMMA")?;
        writeln!(f, "  ThrLayoutVMNK: {} x {}", Atom::ThrId::default(), self.atom_layout)?;
        let (m, n, k) = self.tile_size_mnk();
        writeln!(f, "  TileSizeMNK:   ({m},{n},{k})")?;
        write!(f, "  Atom:          {}", Atom::NAME)
    }
}

/// One thread's view of a [`TiledMma`] (CuTe's `ThrMMA`), made by
/// [`TiledMma::get_slice`]: partitions of A, B and C tiles into this
/// thread's values, and fragments shaped like them.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, UniversalFma};
/// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((2,2,1):(1,2,0)));
/// let thr = mma.get_slice(3);
/// assert_eq!(thr.coord(), (0, 1, 1, 0));                  // the one thread of atom (1,1,0)
/// // Its accumulators of a (4,4) C: position (1,1) of each 2x2 tile.
/// let c = thr.partition_c(make_identity_tensor(shape!(4, 4)));
/// assert_eq!(c.layout().shape().to_string_cute(), "(_1,_2,_2)");
/// assert_eq!([c.at((0usize, 1usize, 0usize)), c.at((0usize, 0usize, 1usize))], [(3, 1), (1, 3)]);
/// // Its values of a (4,3) A: rows 1 and 3, every column (shared with thread 1, atom (1,0,0)).
/// let a: Vec<f32> = (0..12).map(|i| i as f32).collect();
/// let ta = thr.partition_a(make_tensor(&a[..], layout!((4,3):(1,4))));
/// assert_eq!(ta.layout().to_string(), "(_1,_2,_3):(_0,_2,_4)");
/// assert_eq!(ta[(0usize, 1usize, 2usize)], a[3 + 4 * 2]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ThrMma<Atom, AL, P = NoPermutation> {
    tiled: TiledMma<Atom, AL, P>,
    v: usize,
    m: usize,
    n: usize,
    k: usize,
}

/// The partition of a tile of shape `(P,Q)` by an atom of tile `(AP,AQ)`
/// and thread-value layout `Tv`, repeated over `(TP,TQ)` atoms: the
/// threads' mode and the values' mode of CuTe's `thrfrg_A|B|C`.
#[doc(hidden)]
pub trait AtomPartition<AP, AQ, Tv, TP, TQ>: Copy {
    /// `(FrgV, RestP, RestQ)`: one thread's values.
    type Val: Copy;
    /// `(offset of thread (v, p, q), its values)`: the thread's coordinate
    /// in `((ThrV,(TP,TQ)), (FrgV,(RestP,RestQ)))`, CuTe's `thrfrg`.
    fn thread_part(self, v: usize, p: usize, q: usize) -> (usize, Self::Val);
}

type Zd<L, T> = <L as ZippedDivide<T>>::Output;
type M0<L> = <L as Split2>::M0;
type M1<L> = <L as Split2>::M1;
type Tvd<L, AP, AQ, Tv> = <M0<Zd<L, (AP, AQ)>> as Compose<Tv>>::Output;
type Thr<L, AP, AQ, TP, TQ> = Zd<M1<Zd<L, (AP, AQ)>>, (TP, TQ)>;

// The modes of a rank-2 and a rank-3 layout, as layouts.
macro_rules! split_modes {
    ($(#[$doc:meta])* $Trait:ident, $f:ident: $($M:ident $S:ident $D:ident $i:tt),+) => {
        $(#[$doc])*
        pub trait $Trait: Copy {
            $(
                /// A mode.
                type $M: Copy;
            )+
            /// The modes in order.
            #[doc(hidden)]
            fn $f(self) -> ($(Self::$M,)+);
        }
        impl<$($S: Congruent<$D>, $D: IntTuple,)+> $Trait for Layout<($($S,)+), ($($D,)+)>
        where
            ($($S,)+): Congruent<($($D,)+)>,
        {
            $(type $M = Layout<$S, $D>;)+
            #[inline(always)]
            fn $f(self) -> ($(Self::$M,)+) {
                let (s, d) = (self.shape(), self.stride());
                ($(Layout::from_checked(s.$i, d.$i),)+)
            }
        }
    };
}
split_modes!(
    /// A layout of two top-level modes, `M0` and `M1` each a layout: a
    /// thread-value layout `(thr, val)`, the bound of a tiled copy's
    /// [`size`](crate::TiledCopy::size) and
    /// [`get_slice`](crate::TiledCopy::get_slice).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Split2;
    /// fn threads<L: Split2>() -> usize where L::M0: StaticLayout { <L::M0 as StaticLayout>::SIZE }
    /// assert_eq!(threads::<Layout![(32, 4):(4, 1)]>(), 32);
    /// ```
    Split2, split2: M0 S0 D0 0, M1 S1 D1 1
);
split_modes!(
    /// A layout of three top-level modes, `M0`, `M1` and `M2` each a
    /// layout (an MMA's `(thr, (m, n), k)` arrangement).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::Split3;
    /// fn last<L: Split3>() -> usize where L::M2: StaticLayout { <L::M2 as StaticLayout>::SIZE }
    /// assert_eq!(last::<Layout![(2, 3, 4):(1, 2, 6)]>(), 4);
    /// ```
    Split3, split3: M0 S0 D0 0, M1 S1 D1 1, M2 S2 D2 2
);

impl<L, AP, AQ, Tv, TP, TQ> AtomPartition<AP, AQ, Tv, TP, TQ> for L
where
    L: Copy + ZippedDivide<(AP, AQ)>,
    AP: Default,
    AQ: Default,
    TP: Default + Unsigned,
    TQ: Default + Unsigned,
    Tv: Default,
    Zd<L, (AP, AQ)>: DivideValue<ZippedArr, L, (AP, AQ)> + Split2,
    M0<Zd<L, (AP, AQ)>>: Compose<Tv>,
    Tvd<L, AP, AQ, Tv>: ComposeValue<M0<Zd<L, (AP, AQ)>>, Tv> + Split2,
    M1<Zd<L, (AP, AQ)>>: ZippedDivide<(TP, TQ)>,
    Thr<L, AP, AQ, TP, TQ>: DivideValue<ZippedArr, M1<Zd<L, (AP, AQ)>>, (TP, TQ)> + Split2,
    M1<Thr<L, AP, AQ, TP, TQ>>: Split2,
    M0<Tvd<L, AP, AQ, Tv>>: IndexOf,
    M0<Thr<L, AP, AQ, TP, TQ>>: IndexOf,
    (M1<Tvd<L, AP, AQ, Tv>>, M0<M1<Thr<L, AP, AQ, TP, TQ>>>, M1<M1<Thr<L, AP, AQ, TP, TQ>>>): ConcatLayouts,
    <(M1<Tvd<L, AP, AQ, Tv>>, M0<M1<Thr<L, AP, AQ, TP, TQ>>>, M1<M1<Thr<L, AP, AQ, TP, TQ>>>) as ConcatLayouts>::Output:
        Copy,
{
    type Val =
        <(M1<Tvd<L, AP, AQ, Tv>>, M0<M1<Thr<L, AP, AQ, TP, TQ>>>, M1<M1<Thr<L, AP, AQ, TP, TQ>>>) as ConcatLayouts>::Output;

    #[inline(always)]
    #[track_caller]
    fn thread_part(self, v: usize, p: usize, q: usize) -> (usize, Self::Val) {
        let (atoms, rest) = crate::zipped_divide(self, (AP::default(), AQ::default())).split2();
        let (thr_v, frg_v) = crate::composition(atoms, Tv::default()).split2();
        let (thr_pq, rest_pq) = crate::zipped_divide(rest, (TP::default(), TQ::default())).split2();
        let offset = thr_v.index_of(v).wrapping_add(thr_pq.index_of(p + TP::USIZE * q));
        let (rp, rq) = rest_pq.split2();
        (offset, crate::concat((frg_v, rp, rq)))
    }
}

/// [`AtomPartition`] of the tile divided by the permutation `(PP, PQ)`,
/// for a layout of the kind `K` ([`LayoutKind`]): an integer layout here,
/// a [`CoordLayout`](crate::CoordLayout) component by component in
/// `coord_layout.rs`.
#[doc(hidden)]
pub trait PermutedPartition<K, PP, PQ, AP, AQ, Tv, TP, TQ>: Copy {
    /// `(FrgV, RestP, RestQ)`: one thread's values.
    type Val: Copy;
    /// `(offset of thread (v, p, q), its values)`.
    fn permuted_part(self, v: usize, p: usize, q: usize) -> (usize, Self::Val);
}
impl<L, PP, PQ, AP, AQ, Tv, TP, TQ> PermutedPartition<Ints, PP, PQ, AP, AQ, Tv, TP, TQ> for L
where
    L: Permute2<PP, PQ>,
    <L as Permute2<PP, PQ>>::Output: AtomPartition<AP, AQ, Tv, TP, TQ>,
{
    type Val = <<L as Permute2<PP, PQ>>::Output as AtomPartition<AP, AQ, Tv, TP, TQ>>::Val;
    #[inline(always)]
    #[track_caller]
    fn permuted_part(self, v: usize, p: usize, q: usize) -> (usize, Self::Val) {
        self.permute2().thread_part(v, p, q)
    }
}

/// The partition of a tile of layout `Self` into the values of one thread
/// of a tiled MMA of `Atom` over `AL` (permuted by `P`) for operand A:
/// CuTe's `(MMA, MMA_M, MMA_K)`. The public name of the bound a kernel
/// generic over its layouts writes (`L: PartitionA<Atom, AL>`).
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, PartitionA, TiledMma, UniversalFma};
/// type Fma = UniversalFma<f32>;
/// type Atoms = Layout![(2,1,1):(1,0,0)];
/// // Thread t's rows of C += A·1 for a (4,3) A, whatever A's layout: C(m) = Σ_k A(m,k).
/// fn row_sums<L: PartitionA<Fma, Atoms>>(mma: TiledMma<Fma, Atoms>, t: usize, a: Tensor<&[f32], L>, c: &mut [f32]) {
///     let (thr, ones) = (mma.get_slice(t), [1.0f32; 3]);
///     let tb = thr.partition_b(make_tensor(&ones[..], layout!((1,3):(0,1))));
///     mma.gemm(&thr.partition_a(a), &tb, &mut thr.partition_c(make_tensor(c, layout!((4,1):(1,4)))));
/// }
/// let mma = make_tiled_mma(UniversalFma::<f32>::new(), Atoms::default());
/// let a: Vec<f32> = (0..12).map(|i| i as f32).collect();
/// let (mut col, mut row) = ([0f32; 4], [0f32; 4]);
/// for t in 0..2 {
///     row_sums(mma, t, make_tensor(&a[..], layout!((4,3):(1,4))), &mut col);     // A(m,k) = m + 4k
///     row_sums(mma, t, make_tensor(&a[..], layout!((4,3):(3,1))), &mut row);     // A(m,k) = 3m + k
/// }
/// assert_eq!((col, row), ([12.0, 15.0, 18.0, 21.0], [3.0, 12.0, 21.0, 30.0]));
/// ```
pub trait PartitionA<Atom, AL, P = NoPermutation>: Copy {
    /// The layout of a thread's part.
    type Part: Fits + AtomOperand;
    /// `(offset of thread (v, m, k), its part)`.
    #[doc(hidden)]
    fn part_a(self, v: usize, m: usize, k: usize) -> (usize, Self::Part);
}
/// As [`PartitionA`], for operand B: `(MMA, MMA_N, MMA_K)`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, PartitionB, TiledMma, UniversalFma};
/// type Fma = UniversalFma<f32>;
/// type Atoms = Layout![(1,2,1):(0,1,0)];
/// // Thread t's values of y(n) = Σ_k x(k)·B(n,k), x = (1, 2), for a (4,2) B of any layout.
/// fn x_bt<L: PartitionB<Fma, Atoms>>(mma: TiledMma<Fma, Atoms>, t: usize, b: Tensor<&[f32], L>, y: &mut [f32]) {
///     let (thr, x) = (mma.get_slice(t), [1.0f32, 2.0]);
///     let ta = thr.partition_a(make_tensor(&x[..], layout!((1,2):(0,1))));
///     mma.gemm(&ta, &thr.partition_b(b), &mut thr.partition_c(make_tensor(y, layout!((1,4):(0,1)))));
/// }
/// let mma = make_tiled_mma(UniversalFma::<f32>::new(), Atoms::default());
/// let b = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
/// let (mut n_major, mut k_major) = ([0f32; 4], [0f32; 4]);
/// for t in 0..2 {
///     x_bt(mma, t, make_tensor(&b[..], layout!((4,2):(1,4))), &mut n_major);   // B(n,k) = b[n + 4k]
///     x_bt(mma, t, make_tensor(&b[..], layout!((4,2):(2,1))), &mut k_major);   // B(n,k) = b[2n + k]
/// }
/// assert_eq!((n_major, k_major), ([11.0, 14.0, 17.0, 20.0], [5.0, 11.0, 17.0, 23.0]));
/// ```
pub trait PartitionB<Atom, AL, P = NoPermutation>: Copy {
    /// The layout of a thread's part.
    type Part: Fits + AtomOperand;
    /// `(offset of thread (v, n, k), its part)`.
    #[doc(hidden)]
    fn part_b(self, v: usize, n: usize, k: usize) -> (usize, Self::Part);
}
/// As [`PartitionA`], for the accumulators C: `(MMA, MMA_M, MMA_N)`.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, PartitionC, TiledMma, UniversalFma};
/// type Fma = UniversalFma<f32>;
/// type Atoms = Layout![(2,2,1):(1,2,0)];
/// // Thread t's element of the outer product C = a·bᵀ, into a (2,2) C of any layout.
/// fn outer<L: PartitionC<Fma, Atoms>>(mma: TiledMma<Fma, Atoms>, t: usize, c: Tensor<&mut [f32], L>) {
///     let (thr, a, b) = (mma.get_slice(t), [1.0f32, 2.0], [3.0f32, 4.0]);
///     let ta = thr.partition_a(make_tensor(&a[..], layout!((2,1):(1,0))));
///     let tb = thr.partition_b(make_tensor(&b[..], layout!((2,1):(1,0))));
///     mma.gemm(&ta, &tb, &mut thr.partition_c(c));
/// }
/// let mma = make_tiled_mma(UniversalFma::<f32>::new(), Atoms::default());
/// let (mut col_major, mut row_major) = ([0f32; 4], [0f32; 4]);
/// for t in 0..4 {
///     outer(mma, t, make_tensor(&mut col_major[..], layout!((2,2):(1,2))));
///     outer(mma, t, make_tensor(&mut row_major[..], layout!((2,2):(2,1))));
/// }
/// assert_eq!((col_major, row_major), ([3.0, 6.0, 4.0, 8.0], [3.0, 4.0, 6.0, 8.0]));
/// ```
pub trait PartitionC<Atom, AL, P = NoPermutation>: Copy {
    /// The layout of a thread's part.
    type Part: Fits + AtomOperand;
    /// `(offset of thread (v, m, n), its part)`.
    #[doc(hidden)]
    fn part_c(self, v: usize, m: usize, n: usize) -> (usize, Self::Part);
}
impl<L, Atom: MmaAtom, AL: AtomLayout, P: Permutation> PartitionA<Atom, AL, P> for L
where
    L: LayoutKind
        + PermutedPartition<
            L::Kind,
            P::M,
            P::K,
            Atom::M,
            Atom::K,
            Atom::LayoutATv,
            AL::Tm,
            AL::Tk,
            Val: Fits + AtomOperand,
        >,
{
    type Part = <L as PermutedPartition<L::Kind, P::M, P::K, Atom::M, Atom::K, Atom::LayoutATv, AL::Tm, AL::Tk>>::Val;
    #[inline(always)]
    #[track_caller]
    fn part_a(self, v: usize, p: usize, q: usize) -> (usize, Self::Part) {
        self.permuted_part(v, p, q)
    }
}
impl<L, Atom: MmaAtom, AL: AtomLayout, P: Permutation> PartitionB<Atom, AL, P> for L
where
    L: LayoutKind
        + PermutedPartition<
            L::Kind,
            P::N,
            P::K,
            Atom::N,
            Atom::K,
            Atom::LayoutBTv,
            AL::Tn,
            AL::Tk,
            Val: Fits + AtomOperand,
        >,
{
    type Part = <L as PermutedPartition<L::Kind, P::N, P::K, Atom::N, Atom::K, Atom::LayoutBTv, AL::Tn, AL::Tk>>::Val;
    #[inline(always)]
    #[track_caller]
    fn part_b(self, v: usize, p: usize, q: usize) -> (usize, Self::Part) {
        self.permuted_part(v, p, q)
    }
}
impl<L, Atom: MmaAtom, AL: AtomLayout, P: Permutation> PartitionC<Atom, AL, P> for L
where
    L: LayoutKind
        + PermutedPartition<
            L::Kind,
            P::M,
            P::N,
            Atom::M,
            Atom::N,
            Atom::LayoutCTv,
            AL::Tm,
            AL::Tn,
            Val: Fits + AtomOperand,
        >,
{
    type Part = <L as PermutedPartition<L::Kind, P::M, P::N, Atom::M, Atom::N, Atom::LayoutCTv, AL::Tm, AL::Tn>>::Val;
    #[inline(always)]
    #[track_caller]
    fn part_c(self, v: usize, p: usize, q: usize) -> (usize, Self::Part) {
        self.permuted_part(v, p, q)
    }
}

/// The layout of thread parts of operand A of a tile of layout `L`: what
/// [`ThrMma::partition_a`] returns a tensor of, to name in a struct or a
/// signature.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, PartA, UniversalFma};
/// type Atoms = Layout![(2,2,1):(1,2,0)];
/// // A thread's part of a column-major (4,3) A, kept in a struct.
/// struct Operand<'a> {
///     a: Tensor<&'a [f32], PartA<Layout![(4,3):(1,4)], UniversalFma<f32>, Atoms>>,
/// }
/// let mma = make_tiled_mma(UniversalFma::<f32>::new(), Atoms::default());
/// let data: Vec<f32> = (0..12).map(|i| i as f32).collect();
/// let op = Operand { a: mma.get_slice(1).partition_a(make_tensor(&data[..], layout!((4,3):(1,4)))) };
/// assert_eq!((op.a.offset(), op.a.layout().to_string()), (1, "(_1,_2,_3):(_0,_2,_4)".to_string())); // rows 1, 3
/// ```
pub type PartA<L, Atom, AL, P = NoPermutation> = <L as PartitionA<Atom, AL, P>>::Part;
/// The layout of thread parts of operand B of a tile of layout `L`: what
/// [`ThrMma::partition_b`] returns a tensor of.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, PartB, UniversalFma};
/// type Atoms = Layout![(2,2,1):(1,2,0)];
/// // Thread t's part of a K-major (4,3) B (N,K), named in a signature.
/// fn b_part(b: &[f32], t: usize) -> Tensor<&[f32], PartB<Layout![(4,3):(3,1)], UniversalFma<f32>, Atoms>> {
///     let mma = make_tiled_mma(UniversalFma::<f32>::new(), Atoms::default());
///     mma.get_slice(t).partition_b(make_tensor(b, layout!((4,3):(3,1))))
/// }
/// let b: Vec<f32> = (0..12).map(|i| i as f32).collect();
/// let part = b_part(&b, 2);                               // atom (0,1,0): rows 1 and 3 of B
/// assert_eq!(part.layout().to_string(), "(_1,_2,_3):(_0,_6,_1)");
/// assert_eq!(part[(0usize, 1usize, 2usize)], b[3 * 3 + 2]);   // B(3, 2)
/// ```
pub type PartB<L, Atom, AL, P = NoPermutation> = <L as PartitionB<Atom, AL, P>>::Part;
/// The layout of thread parts of the accumulators C of a tile of layout
/// `L`: what [`ThrMma::partition_c`] returns a tensor of, and the shape of
/// [`ThrMma::partition_fragment_c`]'s fragment.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{make_tiled_mma, PartC, UniversalFma};
/// type Atoms = Layout![(2,2,1):(1,2,0)];
/// // A thread's accumulators of a (4,4) tile of C, kept in a struct between steps of K.
/// struct Acc {
///     c: Fragment<f32, PartC<Layout![(4,4):(1,4)], UniversalFma<f32>, Atoms>>,
/// }
/// let mma = make_tiled_mma(UniversalFma::<f32>::new(), Atoms::default());
/// let acc = Acc { c: mma.get_slice(0).partition_fragment_c(&layout!((4,4):(1,4))) };
/// assert_eq!(acc.c.layout().shape().to_string_cute(), "(_1,_2,_2)");   // one value, 2x2 atoms' tiles
/// assert_eq!(acc.c.engine().len(), 4);
/// ```
pub type PartC<L, Atom, AL, P = NoPermutation> = <L as PartitionC<Atom, AL, P>>::Part;

impl<Atom: MmaAtom, AL: AtomLayout, P: Permutation> ThrMma<Atom, AL, P> {
    /// The thread's coordinate `(v, m, n, k)`: its index in the atom's
    /// `ThrId` and its atom's coordinate in the atom layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, SM80_16x8x16_F32F16F16F32_TN};
    /// let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    /// assert_eq!(mma.get_slice(100).coord(), (4, 1, 1, 0));       // 100 = 4 + 32·3, atom 3 = (1,1,0)
    /// ```
    #[inline(always)]
    pub fn coord(&self) -> (usize, usize, usize, usize) {
        (self.v, self.m, self.n, self.k)
    }

    /// The tiled MMA this thread is a slice of.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, UniversalFma};
    /// let thr = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,8,1):(1,4,0))).get_slice(9);
    /// assert_eq!(thr.tiled_mma().size(), 32);
    /// assert_eq!(thr.tiled_mma().tile_size_mnk(), (4, 8, 1));
    /// ```
    #[inline(always)]
    pub fn tiled_mma(&self) -> TiledMma<Atom, AL, P> {
        self.tiled
    }

    /// The thread's values of an A tile `(M', K')` (CuTe's
    /// `partition_A`): `(MMA, MMA_M, MMA_K)`, the atom's values of A, then
    /// the atoms this thread computes along M and K.
    ///
    /// # Panics
    ///
    /// When a run-time divide condition fails, or the part reaches past the
    /// tensor's storage.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, UniversalFma};
    /// let a: Vec<f32> = (0..32).map(|i| i as f32).collect();
    /// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,2,1):(1,4,0)));
    /// let part = mma.get_slice(5).partition_a(make_tensor(&a[..], layout!((8,4):(1,8))));
    /// // Thread 5 is atom (1,1,0): rows 1 and 5 of A, every column.
    /// assert_eq!(part.layout().to_string(), "(_1,_2,_4):(_0,_4,_8)");
    /// assert_eq!(part[(0usize, 1usize, 2usize)], 21.0);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn partition_a<E: Engine, L>(&self, a: Tensor<E, L>) -> Tensor<E, PartA<L, Atom, AL, P>>
    where
        L: PartitionA<Atom, AL, P>,
    {
        let (engine, offset, layout) = a.into_parts();
        let (o, part) = layout.part_a(self.v, self.m, self.k);
        place(engine, offset.wrapping_add(o), part)
    }

    /// The thread's values of a B tile `(N', K')` (CuTe's `partition_B`):
    /// `(MMA, MMA_N, MMA_K)`. Panics as [`partition_a`](Self::partition_a).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, UniversalFma};
    /// let b: Vec<f32> = (0..16).map(|i| i as f32).collect();
    /// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,2,1):(1,4,0)));
    /// let part = mma.get_slice(5).partition_b(make_tensor(&b[..], layout!((4,4):(1,4))));
    /// // Thread 5 is atom (1,1,0): rows 1 and 3 of B (N,K), every column.
    /// assert_eq!(part.layout().to_string(), "(_1,_2,_4):(_0,_2,_4)");
    /// assert_eq!(part[(0usize, 1usize, 2usize)], 11.0);          // B(3, 2)
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn partition_b<E: Engine, L>(&self, b: Tensor<E, L>) -> Tensor<E, PartB<L, Atom, AL, P>>
    where
        L: PartitionB<Atom, AL, P>,
    {
        let (engine, offset, layout) = b.into_parts();
        let (o, part) = layout.part_b(self.v, self.n, self.k);
        place(engine, offset.wrapping_add(o), part)
    }

    /// The thread's accumulators of a C tile `(M', N')` (CuTe's
    /// `partition_C`): `(MMA, MMA_M, MMA_N)`. Panics as
    /// [`partition_a`](Self::partition_a).
    ///
    /// The tile may be a view of an identity tensor, as in CuTe's
    /// predicated epilogue (`thr_mma.partition_C(make_identity_tensor(...))`):
    /// the part prints as CuTe's and gives each accumulator's coordinate.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, UniversalFma};
    /// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,2,1):(1,4,0)));
    /// let coords = mma.get_slice(5).partition_c(make_identity_tensor(shape!(16, 6)));
    /// assert_eq!(coords.layout().to_string(), "(_1,_4,_3):(_0,_4@0,_2@1)");
    /// assert_eq!(coords.at((0usize, 1usize, 2usize)), (5, 5));   // row 5, column 5
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn partition_c<E: Engine, L>(&self, c: Tensor<E, L>) -> Tensor<E, PartC<L, Atom, AL, P>>
    where
        L: PartitionC<Atom, AL, P>,
    {
        let (engine, offset, layout) = c.into_parts();
        let (o, part) = layout.part_c(self.v, self.m, self.n);
        place(engine, offset.wrapping_add(o), part)
    }

    /// A register fragment for the thread's values of an A tile (CuTe's
    /// `partition_fragment_A`): shaped like [`partition_a`](Self::partition_a)
    /// of `tile` (a tensor or a layout), compact, of the atom's element type
    /// for A, every element `Default::default()`; its length is in the type.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, FmaLanes};
    /// use cute_static::typenum::U8;
    /// let mma = make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)));
    /// let f = mma.get_slice(0).partition_fragment_a(&layout!((16,4):(1,16)));
    /// assert_eq!(f.layout().to_string(), "(_8,_2,_4):(_1,_8,_16)");
    /// assert_eq!(f.engine().len(), 64);
    /// ```
    ///
    /// The tile's layout must be static: with a run-time leaf the
    /// partition's extents are run-time too (cute-static's run-time
    /// algebra does not yet keep CuTe's static extents there), and a
    /// fragment needs them in its type. Partition a static layout of the
    /// same shape instead (as the epilogue of
    /// `cute-static/examples/gemm_tiled.rs` does).
    #[inline(always)]
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn partition_fragment_a<T: HasLayout>(
        &self,
        tile: &T,
    ) -> <PartA<Layout<T::Shape, T::Stride>, Atom, AL, P> as FragmentOf>::Fragment<Atom::A>
    where
        Atom: MmaCall<A: Default>,
        Layout<T::Shape, T::Stride>: PartitionA<Atom, AL, P>,
        PartA<Layout<T::Shape, T::Stride>, Atom, AL, P>: FragmentOf,
    {
        let (_, p) = tile.layout_of().part_a(self.v, self.m, self.k);
        p.fragment::<Atom::A>()
    }

    /// As [`partition_fragment_a`](Self::partition_fragment_a), for a B
    /// tile (CuTe's `partition_fragment_B`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, FmaLanes};
    /// use cute_static::typenum::U8;
    /// let mma = make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)));
    /// // A (4,2) tile of B: one value of B per column of C and step of K.
    /// let f = mma.get_slice(0).partition_fragment_b(&layout!((4,2):(1,4)));
    /// assert_eq!(f.layout().shape().to_string_cute(), "(_1,_4,_2)");
    /// assert_eq!(f.engine().len(), 8);
    /// ```
    #[inline(always)]
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn partition_fragment_b<T: HasLayout>(
        &self,
        tile: &T,
    ) -> <PartB<Layout<T::Shape, T::Stride>, Atom, AL, P> as FragmentOf>::Fragment<Atom::B>
    where
        Atom: MmaCall<B: Default>,
        Layout<T::Shape, T::Stride>: PartitionB<Atom, AL, P>,
        PartB<Layout<T::Shape, T::Stride>, Atom, AL, P>: FragmentOf,
    {
        let (_, p) = tile.layout_of().part_b(self.v, self.n, self.k);
        p.fragment::<Atom::B>()
    }

    /// As [`partition_fragment_a`](Self::partition_fragment_a), for the
    /// accumulators of a C tile (CuTe's `partition_fragment_C`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, FmaLanes};
    /// use cute_static::typenum::U8;
    /// let mma = make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)));
    /// // A (16,4) tile of C: two 8-lane accumulators per column, starting at zero.
    /// let f = mma.get_slice(0).partition_fragment_c(&layout!((16,4):(1,16)));
    /// assert_eq!(f.layout().to_string(), "(_8,_2,_4):(_1,_8,_16)");
    /// assert!(f.engine().len() == 64 && (0..64usize).all(|i| f[i] == 0.0));
    /// ```
    #[inline(always)]
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn partition_fragment_c<T: HasLayout>(
        &self,
        tile: &T,
    ) -> <PartC<Layout<T::Shape, T::Stride>, Atom, AL, P> as FragmentOf>::Fragment<Atom::C>
    where
        Atom: MmaCall<C: Default>,
        Layout<T::Shape, T::Stride>: PartitionC<Atom, AL, P>,
        PartC<Layout<T::Shape, T::Stride>, Atom, AL, P>: FragmentOf,
    {
        let (_, p) = tile.layout_of().part_c(self.v, self.m, self.n);
        p.fragment::<Atom::C>()
    }
}

/// A thread's part as a tensor: the part's offsets must lie in the storage.
#[inline(always)]
#[track_caller]
fn place<E: Engine, L: Fits>(engine: E, offset: usize, layout: L) -> Tensor<E, L> {
    if let Err(e) = layout.fits("partition of a tiled MMA", offset, engine.len()) {
        crate::tensor::storage_panic(e)
    }
    Tensor::from_parts_checked(engine, offset, layout)
}

/// `tiled_mma.gemm(&a, &b, &mut c)`: CuTe's `gemm(tiled_mma, a, b, c)`,
/// `C += A·B` on one thread's fragments by the atom.
///
/// Operands as CuTe's dispatch takes them: `A (V,M,K)`, `B (V,N,K)`,
/// `C (V,M,N)` (the partitions of [`ThrMma`]), or `A (V,M)`, `B (V,N)`,
/// `C (V,M,N)` for one step of K. The value mode of each operand must be
/// contiguous (`V:1`, as the partitions of column-major tiles and every
/// fragment are); this is checked once per call.
impl<Atom: MmaCall, AL: AtomLayout, P: Permutation> TiledMma<Atom, AL, P> {
    /// `c += a·b` through the atom (see the impl's docs).
    ///
    /// # Panics
    ///
    /// When the extents of the shared modes differ, or a value mode is not
    /// contiguous.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::{make_tiled_mma, UniversalFma};
    /// let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((1,1,1):(0,0,0)));
    /// let (a, b) = ([1.0f32, 2.0, 3.0, 4.0], [1.0f32, 0.0, 0.0, 1.0]);   // A (2,2), B (N,K) identity
    /// let thr = mma.get_slice(0);
    /// let ta = thr.partition_a(make_tensor(&a[..], layout!((2,2):(1,2))));
    /// let tb = thr.partition_b(make_tensor(&b[..], layout!((2,2):(1,2))));
    /// let mut c = make_fragment_like::<f32, _>(thr.partition_c(make_tensor(&[0f32; 4][..], layout!((2,2):(1,2)))));
    /// mma.gemm(&ta, &tb, &mut c);
    /// assert_eq!(c.engine()[..], a[..]);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn gemm<EA, LA, EB, LB, EC, LC>(&self, a: &Tensor<EA, LA>, b: &Tensor<EB, LB>, c: &mut Tensor<EC, LC>)
    where
        EA: DataEngine<Elem = Atom::A>,
        EB: DataEngine<Elem = Atom::B>,
        EC: DataEngineMut<Elem = Atom::C>,
        LA: AtomOperand,
        LB: AtomOperand,
        LC: AtomOperand,
    {
        let (pa, oa, la) = a.raw_parts();
        let (pb, ob, lb) = b.raw_parts();
        let (pc, oc, lc) = c.raw_parts_mut();
        let (av, m, k) = la.dims();
        let (bv, n, bk) = lb.dims();
        let (cv, cm, cn) = lc.dims();
        let threads = <Atom::ThrId as StaticLayout>::SIZE;
        let (wa, wb, wc) = (
            <Atom::LayoutATv as StaticLayout>::SIZE / threads,
            <Atom::LayoutBTv as StaticLayout>::SIZE / threads,
            <Atom::LayoutCTv as StaticLayout>::SIZE / threads,
        );
        if cm != m || cn != n || bk != k || (av, bv, cv) != (wa, wb, wc) {
            gemm_shape_panic([av, m, k], [bv, n, bk], [cv, cm, cn], [wa, wb, wc])
        }
        if !(la.values_contiguous() && lb.values_contiguous() && lc.values_contiguous()) {
            gemm_contiguous_panic()
        }
        // Column by column of C: a column's atoms share B's values (for a
        // SIMD atom, one broadcast), and A's values of one step are the
        // same for every column, so at most the A values of a step, one
        // column's B values and the accumulators are live at once.
        for kk in 0..k {
            for ni in 0..n {
                for mi in 0..m {
                    // SAFETY: each operand's value mode is contiguous
                    // (checked above), so the `w` values from the offset
                    // of `(0, mi, kk)` are the offsets of `(v, mi, kk)`,
                    // which the tensor's invariant puts inside its storage;
                    // `c` is borrowed mutably, so its values alias nothing
                    // else, and the three slices live for one call.
                    let (sa, sb, sc) = unsafe {
                        (
                            core::slice::from_raw_parts(pa.add(oa.wrapping_add(la.at(mi, kk))), wa),
                            core::slice::from_raw_parts(pb.add(ob.wrapping_add(lb.at(ni, kk))), wb),
                            core::slice::from_raw_parts_mut(pc.add(oc.wrapping_add(lc.at(mi, ni))), wc),
                        )
                    };
                    self.atom.call(sc, sa, sb);
                }
            }
        }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn gemm_shape_panic(a: [usize; 3], b: [usize; 3], c: [usize; 3], w: [usize; 3]) -> ! {
    panic!(
        "tiled MMA gemm: operands A (V,M,K) = {a:?}, B (V,N,K) = {b:?}, C (V,M,N) = {c:?} do not match \
         (the atom's value counts are {w:?})"
    )
}

#[cold]
#[inline(never)]
#[track_caller]
fn gemm_contiguous_panic() -> ! {
    panic!("tiled MMA gemm: an operand's value mode is not contiguous (V:1); partition column-major tiles or fragments")
}

/// The layout of an operand of [`TiledMma::gemm`] and
/// [`TiledCopy::copy`](crate::TiledCopy::copy), as a partition of a tiled
/// MMA or copy makes it: `(V, P)` (one step of K, or C's `(V, M)` with one
/// column) or `(V, P, Q)`, `V` the values of one atom call. Every layout of
/// rank 2 or 3 is one.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::AtomOperand;
/// fn operand<L: AtomOperand>(_: L) {}
/// operand(layout!((4, 2):(1, 4)));
/// operand(layout!((4, 2, {3usize}):(1, 4, 8)));
/// ```
pub trait AtomOperand: Copy {
    /// `(V, P, Q)`, with `Q = 1` for rank 2.
    #[doc(hidden)]
    fn dims(&self) -> (usize, usize, usize);
    /// The offset of `(0, p, q)`.
    #[doc(hidden)]
    fn at(&self, p: usize, q: usize) -> usize;
    /// Whether `(v, 0, 0) ↦ v` for every `v` below `V`.
    #[doc(hidden)]
    fn values_contiguous(&self) -> bool;
}
impl<S0, S1, D0, D1> AtomOperand for Layout<(S0, S1), (D0, D1)>
where
    S0: Congruent<D0>,
    S1: Congruent<D1>,
    D0: IntTuple,
    D1: IntTuple,
{
    #[inline(always)]
    fn dims(&self) -> (usize, usize, usize) {
        (self.shape().0.size(), self.shape().1.size(), 1)
    }
    #[inline(always)]
    fn at(&self, p: usize, _q: usize) -> usize {
        crate::coord::Coord::<S1, D1>::offset_acc(p, &self.shape().1, &self.stride().1, 0)
    }
    #[inline(always)]
    fn values_contiguous(&self) -> bool {
        contiguous(&self.shape().0, &self.stride().0)
    }
}
impl<S0, S1, S2, D0, D1, D2> AtomOperand for Layout<(S0, S1, S2), (D0, D1, D2)>
where
    S0: Congruent<D0>,
    S1: Congruent<D1>,
    S2: Congruent<D2>,
    D0: IntTuple,
    D1: IntTuple,
    D2: IntTuple,
{
    #[inline(always)]
    fn dims(&self) -> (usize, usize, usize) {
        (self.shape().0.size(), self.shape().1.size(), self.shape().2.size())
    }
    #[inline(always)]
    fn at(&self, p: usize, q: usize) -> usize {
        let (s, d) = (self.shape(), self.stride());
        crate::coord::Coord::<S1, D1>::offset_acc(p, &s.1, &d.1, 0)
            .wrapping_add(crate::coord::Coord::<S2, D2>::offset_acc(q, &s.2, &d.2, 0))
    }
    #[inline(always)]
    fn values_contiguous(&self) -> bool {
        contiguous(&self.shape().0, &self.stride().0)
    }
}

// With a static mode the loop folds to a constant.
#[inline(always)]
fn contiguous<S: Congruent<D>, D: IntTuple>(s: &S, d: &D) -> bool {
    (0..s.size()).all(|v| crate::coord::Coord::<S, D>::offset_acc(v, s, d, 0) == v)
}

/// Anything with a layout of static shape (a layout, a tensor, a thread
/// part), of which a fragment can be made: what
/// [`make_fragment_like`](crate::make_fragment_like) needs, under one name.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::FragmentOf;
/// // Two fragments (a double buffer) shaped like anything with a static layout.
/// fn stages<L: FragmentOf>(x: &L) -> [L::Fragment<f32>; 2] {
///     [x.fragment(), x.fragment()]
/// }
/// let data = [1.0f32; 16];
/// let [f0, f1] = stages(&make_tensor(&data[..], layout!((4,(2,2)):(4,(1,2)))));
/// assert_eq!(f0.layout().to_string(), "(_4,(_2,_2)):(_1,(_4,_8))");       // compact, column-major
/// assert!(f0.engine().len() == 16 && (0..16usize).all(|i| f1[i] == 0.0));
/// ```
pub trait FragmentOf: HasLayout {
    /// [`Fragment<T, Self>`](crate::Fragment).
    type Fragment<T: Default>;
    /// `make_fragment_like::<T, _>(self)`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_static::FragmentOf;
    /// let f = layout!((2,3):(3,1)).fragment::<f32>();
    /// assert_eq!(f.layout().to_string(), "(_2,_3):(_1,_2)");     // compact, column-major
    /// assert!(f.engine().len() == 6 && (0..6usize).all(|i| f[i] == 0.0));
    /// ```
    fn fragment<T: Default>(&self) -> Self::Fragment<T>;
}
impl<L> FragmentOf for L
where
    L: HasLayout,
    L::Shape: StaticIntTuple + FragmentOrder<L::Stride> + Congruent<FragmentStride<L>>,
    FragmentStride<L>: StaticIntTuple,
    <L::Shape as FragmentOrder<L::Stride>>::Len: ArrayLength,
{
    type Fragment<T: Default> = Fragment<T, L>;
    #[inline(always)]
    fn fragment<T: Default>(&self) -> Fragment<T, L> {
        let _ = self;
        crate::make_fragment_like::<T, _>(self.layout_of())
    }
}
