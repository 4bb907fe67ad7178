//! A fast single-precision GEMM written with CuTe's atom layer: `C += A·B`
//! for column-major `A (M,K)`, `B (K,N)`, `C (M,N)` with run-time sizes and
//! leading dimensions, on the caller's buffers.
//!
//! The loop nest is the BLIS one (the structure of `matrixmultiply` and of
//! every fast CPU GEMM): blocks of `KC` columns of A and rows of B are
//! packed into panels whose layouts are static (`MR` rows of A, `NR`
//! columns of B, one `k` after another), and each `MR×NR` micro-tile of C
//! is accumulated in registers over a pair of panels. What the atom layer
//! gives:
//!
//! * the micro-kernel is a [`TiledMma`](cute_static::TiledMma) of a SIMD FMA atom, chosen at run
//!   time (`FmaF32x8` where the CPU has AVX2 and FMA, the portable
//!   `FmaLanes<f32, U8>` elsewhere, with the same tiles); `partition_a|b`
//!   of the packed panels and `partition_fragment_c` of the `16×6` tile
//!   give the operands `(8,2,K)`, `(1,6,K)` and the accumulators `(8,2,6)`,
//!   and `mma.gemm` steps through K;
//! * the epilogue is CuTe's: `partition_c` of the identity tensor of the
//!   tile gives each accumulator's coordinate, so edge tiles store only the
//!   elements inside C (`elem_less` against the tile's extent);
//! * packing goes through tiled copies: a whole panel of A moves 8 rows at
//!   a time (`CopyVec<f32, U8>`), B's one value at a time
//!   (`UniversalCopy<f32>`, a gather); the last rows or columns of a
//!   ragged edge are copied by coordinates with zeros after;
//! * column blocks of C are spread over OS threads, each with its own
//!   panels.
//!
//! `cargo run --release -p cute-static --example gemm_tiled` multiplies
//! 1000×777×333 and checks every element against a naive loop.

use cute_static::prelude::*;
use cute_static::typenum::{U1, U8};
use cute_static::{
    AtomKernel, CopyVec, FmaLanes, MmaAtom, MmaCall, TiledCopyOf, TiledMma, UniversalCopy, make_tiled_copy,
    make_tiled_mma,
};

/// Rows of a micro-tile: two 8-wide vectors.
pub const MR: usize = 16;
/// Columns of a micro-tile: 12 accumulators + 2 columns of A + 1
/// broadcast = 15 of the 16 vector registers of x86-64.
pub const NR: usize = 6;
/// Depth of a packed block: an A panel (16 KiB) and a B panel (6 KiB) fit
/// the L1 together.
pub const KC: usize = 256;
/// Rows of A per packed block (144 KiB, in the L2).
pub const MC: usize = 144;
/// Columns of B per packed block (3 MiB, in the L3).
pub const NC: usize = 3072;
const _: () = assert!(MC.is_multiple_of(MR) && NC.is_multiple_of(NR));

/// A packed panel of A: `(MR, KC)`, the `MR` values of one `k` adjacent.
type PanelA = Layout![(16,256):(1,16)];
/// A packed panel of B: `(NR, KC)`, the `NR` values of one `k` adjacent.
type PanelB = Layout![(6,256):(1,6)];
/// The micro-tile of C.
type MicroTile = Layout![(16,6):(1,16)];
/// The atoms this kernel runs on: one thread holding 8 lanes of `f32`
/// (`FmaF32x8`, `FmaLanes<f32, U8>`). Their layouts fix the partitions,
/// so the kernel is generic over the instructions, not the tiles.
pub trait Lanes8:
    MmaCall<A = f32, B = f32, C = f32>
    + MmaAtom<
        M = U8,
        N = U1,
        K = U1,
        ThrId = Layout![1:0],
        LayoutATv = Layout![(1,8):(0,1)],
        LayoutBTv = Layout![(1,1):(0,0)],
        LayoutCTv = Layout![(1,8):(0,1)],
    >
{
}
impl<T> Lanes8 for T where
    T: MmaCall<A = f32, B = f32, C = f32>
        + MmaAtom<
            M = U8,
            N = U1,
            K = U1,
            ThrId = Layout![1:0],
            LayoutATv = Layout![(1,8):(0,1)],
            LayoutBTv = Layout![(1,1):(0,0)],
            LayoutCTv = Layout![(1,8):(0,1)],
        >
{
}

/// One atom per tiled MMA: the micro-tile is the atom repeated in M and N
/// (the rest modes of the partitions), one thread.
type OneAtom = Layout![(1,1,1):(0,0,0)];

/// `C += A·B` with `A` `m×k` (leading dimension `lda`), `B` `k×n`
/// (`ldb`), `C` `m×n` (`ldc`), all column-major, on `threads` OS threads.
///
/// # Panics
///
/// When a slice is too short for its matrix, a leading dimension is below
/// its column height, or `threads` is 0.
#[allow(clippy::too_many_arguments)]
pub fn sgemm(
    m: usize,
    n: usize,
    k: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    c: &mut [f32],
    ldc: usize,
    threads: usize,
) {
    assert!(threads > 0, "at least one thread");
    let Some(p) = Problem::new(m, n, k, a, lda, b, ldb, c.len(), ldc) else {
        return;
    };
    #[cfg(target_arch = "x86_64")]
    if let Some(atom) = cute_static::FmaF32x8::new() {
        return p.run(make_tiled_mma(atom, OneAtom::default()), n, c, threads);
    }
    p.run(make_tiled_mma(FmaLanes::<f32, U8>::new(), OneAtom::default()), n, c, threads)
}

/// The portable path of [`sgemm`] on any CPU (its tests run it beside the
/// SIMD one).
#[allow(clippy::too_many_arguments)]
pub fn sgemm_portable(
    m: usize,
    n: usize,
    k: usize,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    c: &mut [f32],
    ldc: usize,
) {
    let Some(p) = Problem::new(m, n, k, a, lda, b, ldb, c.len(), ldc) else {
        return;
    };
    p.run(make_tiled_mma(FmaLanes::<f32, U8>::new(), OneAtom::default()), n, c, 1)
}

/// One thread's share of C as the kernel [`MmaCall::dispatch`] compiles
/// for the atom's CPU features (a struct with an `#[inline(always)]` run,
/// so that the whole loop nest is inlined there, as a closure may not be).
struct Columns<'a, 'c, Atom> {
    p: Problem<'a>,
    mma: TiledMma<Atom, OneAtom>,
    j0: usize,
    n: usize,
    c: &'c mut [f32],
}

impl<Atom: Lanes8> AtomKernel for Columns<'_, '_, Atom> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        self.p.columns(self.mma, self.j0, self.n, self.c)
    }
}

/// The operands shared by every thread (C is split between them).
#[derive(Clone, Copy)]
struct Problem<'a> {
    m: usize,
    k: usize,
    a: &'a [f32],
    lda: usize,
    b: &'a [f32],
    ldb: usize,
    ldc: usize,
}

impl<'a> Problem<'a> {
    /// The operands, after checking that the buffers hold the matrices;
    /// `None` when C is empty (nothing to do).
    #[allow(clippy::too_many_arguments)]
    fn new(
        m: usize,
        n: usize,
        k: usize,
        a: &'a [f32],
        lda: usize,
        b: &'a [f32],
        ldb: usize,
        c_len: usize,
        ldc: usize,
    ) -> Option<Self> {
        if m == 0 || n == 0 {
            return None;
        }
        assert!(lda >= m && ldb >= k && ldc >= m, "leading dimensions below the column heights");
        assert!(k == 0 || a.len() >= lda * (k - 1) + m, "A too short");
        assert!(k == 0 || b.len() >= ldb * (n - 1) + k, "B too short");
        assert!(c_len >= ldc * (n - 1) + m, "C too short");
        Some(Problem { m, k, a, lda, b, ldb, ldc })
    }

    /// Splits the columns of C into `threads` runs of whole micro-tiles
    /// and multiplies each on its own thread.
    fn run<Atom>(self, mma: TiledMma<Atom, OneAtom>, n: usize, c: &mut [f32], threads: usize)
    where
        Atom: Lanes8 + Send + Sync,
    {
        let per = n.div_ceil(threads).next_multiple_of(NR);
        if threads == 1 || per >= n {
            return mma.atom().dispatch(Columns { p: self, mma, j0: 0, n, c });
        }
        std::thread::scope(|s| {
            let mut rest = c;
            let mut j0 = 0;
            while j0 < n {
                let cols = per.min(n - j0);
                // Column-major: columns j0.. start at j0·ldc; the last run
                // keeps the tail of the slice.
                let (mine, tail) = if j0 + cols < n { rest.split_at_mut(cols * self.ldc) } else { (rest, &mut [][..]) };
                rest = tail;
                s.spawn(move || mma.atom().dispatch(Columns { p: self, mma, j0, n: cols, c: mine }));
                j0 += cols;
            }
        });
    }

    /// `C[:, j0..j0+n] += A·B[:, j0..j0+n]`, with `c` starting at column
    /// `j0` of C.
    #[inline(always)]
    fn columns<Atom>(self, mma: TiledMma<Atom, OneAtom>, j0: usize, n: usize, c: &mut [f32])
    where
        Atom: Lanes8,
    {
        let (m, k) = (self.m, self.k);
        // The layout of a micro-tile of C, made (and checked) once.
        let ldc = self.ldc;
        let ctile: CTile = layout!((16,6):(1,{ldc}));
        // Panels no larger than the problem needs.
        let mut apack = vec![0f32; MC.min(m.next_multiple_of(MR)) * KC];
        let mut bpack = vec![0f32; NC.min(n.next_multiple_of(NR)) * KC];
        for jc in (0..n).step_by(NC) {
            let nc = NC.min(n - jc);
            for pc in (0..k).step_by(KC) {
                let kc = KC.min(k - pc);
                self.pack_b(&mut bpack, pc, kc, j0 + jc, nc);
                for ic in (0..m).step_by(MC) {
                    let mc = MC.min(m - ic);
                    self.pack_a(&mut apack, ic, mc, pc, kc);
                    for jr in (0..nc).step_by(NR) {
                        let bp = &bpack[jr * KC..(jr + NR) * KC];
                        for ir in (0..mc).step_by(MR) {
                            let ap = &apack[ir * KC..(ir + MR) * KC];
                            let acc = micro_tile(&mma, kc, ap, bp);
                            let (rows, cols) = (MR.min(mc - ir), NR.min(nc - jr));
                            let c0 = (jc + jr) * self.ldc + ic + ir;
                            epilogue(&mma, &acc, &mut c[c0..], ctile, rows, cols);
                        }
                    }
                }
            }
        }
    }

    /// Packs `A[ic..ic+mc, pc..pc+kc]` into panels of `MR` rows, zeros
    /// below the last row.
    #[inline(always)]
    fn pack_a(&self, dst: &mut [f32], ic: usize, mc: usize, pc: usize, kc: usize) {
        for (s, panel) in dst.chunks_exact_mut(MR * KC).take(mc.div_ceil(MR)).enumerate() {
            let rows = MR.min(mc - s * MR);
            let lda = self.lda;
            let a = &self.a[pc * lda + ic + s * MR..];
            if rows == MR {
                // A whole panel: through the tiled copy, 8 rows a move.
                let thr = pack_copy_a().get_slice(0);
                let src = thr.partition_s(make_tensor(a, layout!((16,{kc}):(1,{lda}))));
                let mut dst = thr.partition_d(make_tensor(&mut panel[..], layout!((16,{kc}):(1,16))));
                pack_copy_a().copy(&src, &mut dst);
            } else {
                // The last rows of A: the rows that exist, zeros below.
                let src = make_tensor(a, layout!(({rows},{kc}):(1,{lda})));
                let mut to = make_tensor(&mut panel[..], PanelA::default());
                fill(&mut to, 0.0);
                for p in 0..kc {
                    for i in 0..rows {
                        to[(i, p)] = src[(i, p)];
                    }
                }
            }
        }
    }

    /// Packs `B[pc..pc+kc, j0..j0+nc]` into panels of `NR` columns, zeros
    /// right of the last column.
    #[inline(always)]
    fn pack_b(&self, dst: &mut [f32], pc: usize, kc: usize, j0: usize, nc: usize) {
        for (s, panel) in dst.chunks_exact_mut(NR * KC).take(nc.div_ceil(NR)).enumerate() {
            let cols = NR.min(nc - s * NR);
            let ldb = self.ldb;
            // B's column j is the panel's row j: the panel is B transposed.
            let b = &self.b[(j0 + s * NR) * ldb + pc..];
            if cols == NR {
                // A whole panel: through the tiled copy, one value a move
                // (a column of the panel gathers a row of B).
                let thr = pack_copy_b().get_slice(0);
                let src = thr.partition_s(make_tensor(b, layout!((6,{kc}):({ldb},1))));
                let mut dst = thr.partition_d(make_tensor(&mut panel[..], layout!((6,{kc}):(1,6))));
                pack_copy_b().copy(&src, &mut dst);
            } else {
                // The last columns of B: those that exist, zeros after.
                let src = make_tensor(b, layout!(({cols},{kc}):({ldb},1)));
                let mut to = make_tensor(&mut panel[..], PanelB::default());
                fill(&mut to, 0.0);
                for j in 0..cols {
                    for p in 0..kc {
                        to[(j, p)] = src[(j, p)];
                    }
                }
            }
        }
    }
}

/// One thread (`(1,1)`), 16 rows of one column: the tiled copy of A's panels.
type PackA = TiledCopyOf<CopyVec<f32, U8>, OneThread, Layout![(16,1):(1,0)]>;
/// One thread, 6 rows of one column: the tiled copy of B's panels.
type PackB = TiledCopyOf<UniversalCopy<f32>, OneThread, Layout![(6,1):(1,0)]>;
/// A thread layout of one thread.
type OneThread = Layout![(1,1):(0,0)];

/// The tiled copy that packs A: one thread moves a column of 16 rows of A
/// as two groups of 8 contiguous values (`CopyVec<f32, U8>`, 32-byte moves).
#[inline(always)]
fn pack_copy_a() -> PackA {
    make_tiled_copy(CopyVec::<f32, U8>::new(), layout!((1,1):(0,0)), layout!((16,1):(1,0)))
}

/// The tiled copy that packs B: one thread moves a row of 6 values of B
/// (they lie `ldb` apart in B, side by side in the panel) one by one.
#[inline(always)]
fn pack_copy_b() -> PackB {
    make_tiled_copy(UniversalCopy::<f32>::new(), layout!((1,1):(0,0)), layout!((6,1):(1,0)))
}

/// The accumulators of one micro-tile: `Σ_p A(:,p)·B(:,p)ᵀ` over the
/// first `kc` steps of a pair of panels, through the tiled MMA.
#[inline(always)]
fn micro_tile<Atom>(mma: &TiledMma<Atom, OneAtom>, kc: usize, ap: &[f32], bp: &[f32]) -> Accumulators
where
    Atom: Lanes8,
{
    let thr = mma.get_slice(0);
    let ta = thr.partition_a(make_tensor(ap, PanelA::default())); // (8,2,KC)
    let tb = thr.partition_b(make_tensor(bp, PanelB::default())); // (1,6,KC)
    let mut acc = thr.partition_fragment_c(&MicroTile::default()); // (8,2,6)
    // Through a view: its offset is a value of this loop, not a field of
    // the fragment that the stores to the accumulators could change, so
    // the compiler keeps the accumulators in registers.
    let mut c = acc.view_mut();
    // Four steps a trip: the loop's own counting is then a small share of
    // the instructions.
    let kc4 = kc / 4 * 4;
    for p in (0..kc4).step_by(4) {
        for u in 0..4 {
            mma.gemm(&ta.slice((__, __, p + u)), &tb.slice((__, __, p + u)), &mut c);
        }
    }
    for p in kc4..kc {
        mma.gemm(&ta.slice((__, __, p)), &tb.slice((__, __, p)), &mut c);
    }
    acc
}

/// A micro-tile of C in the caller's matrix: static extents, run-time
/// leading dimension.
type CTile = Layout![(16,6):(1,Dyn)];

/// The register tile of one thread: `(8,2,6)`, column-major.
type Accumulators = Fragment<f32, Layout![(8,2,6):(1,8,16)]>;

/// `C_tile += acc` for the `rows×cols` corner of the micro-tile inside C
/// (CuTe's predicated epilogue: each accumulator's coordinate from the
/// partition of the tile's identity tensor).
#[inline(always)]
fn epilogue<Atom: Lanes8>(
    mma: &TiledMma<Atom, OneAtom>,
    acc: &Accumulators,
    c: &mut [f32],
    tile: CTile,
    rows: usize,
    cols: usize,
) {
    let ldc = tile.stride().1.value();
    let coords = mma.get_slice(0).partition_c(make_identity_tensor(shape!(16, 6)));
    let extent = (rows, cols);
    if extent == (MR, NR) {
        // An interior tile: every accumulator lands inside C. An atom's 8
        // values are 8 consecutive rows of one column (its C layout is
        // `(1,8):(0,1)`, `Lanes8` says so), so each is added as one vector.
        for n in 0..NR {
            for m in 0..MR / 8 {
                let at = tile.index(coords.at((0, m, n))) as usize;
                let mut dst = make_tensor(&mut c[at..], layout!(8:1));
                axpby(1.0, &acc.view().slice((__, m, n)), 1.0, &mut dst);
            }
        }
    } else {
        // An edge tile: the part inside C, a view that never leaves it.
        // The loop indexes by a run-time `x`; reading a copy keeps the
        // accumulators themselves at fixed places, which lets the compiler
        // hold them in registers through the K loop.
        let mut out = make_tensor_like(acc);
        copy(acc, &mut out);
        let mut tile = make_tensor(c, layout!(({rows},{cols}):(1,{ldc})));
        for x in 0..out.size() {
            let (i, j) = coords.at(x);
            if elem_less((i, j), extent) {
                tile[(i, j)] += out[x];
            }
        }
    }
}

fn main() {
    let (m, n, k) = (1000, 777, 333);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7 + 3) % 11) as f32 - 5.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| ((i * 5 + 1) % 7) as f32 - 3.0).collect();
    let mut c = vec![0f32; m * n];
    sgemm(m, n, k, &a, m, &b, k, &mut c, m, 2);
    for j in 0..n {
        for i in 0..m {
            let want: f32 = (0..k).map(|p| a[i + m * p] * b[p + k * j]).sum();
            assert_eq!(c[i + m * j], want, "C({i},{j})");
        }
    }
    println!("C = A·B for {m}x{n}x{k} on 2 threads: every element equals the naive sum");
}
