//! A register-blocked, packed single-precision GEMM (the BLIS loop nest),
//! the CPU kernel that the tensor GEMM benchmark compares with
//! `matrixmultiply::sgemm`.
//!
//! `C += A·B` for column-major `A (M,K)`, `B (K,N)`, `C (M,N)` with leading
//! dimensions. Blocks of `KC` columns of A and rows of B are packed into
//! panels whose layouts are static CuTe layouts (`MR` rows of A, `NR`
//! columns of B, one `k` after another), and an `MR×NR` micro-tile of C is
//! accumulated in registers (a static `(16,6):(1,16)` fragment) over a
//! panel pair. Where the CPU has AVX2 and FMA (checked at run time) the
//! micro-kernel is written with their intrinsics; elsewhere a portable loop
//! computes the same sums. Ragged edges are packed with zeros and written
//! back partially.
//!
//! Why 16×6: x86-64 has 16 vector registers. A 16×6 tile of `f32` is 12
//! 8-wide accumulators, plus two for the column of A and one for the
//! broadcast element of B: 15 registers, and each `k` step issues 12 FMAs
//! for 2 loads and 6 broadcasts, a better ratio than 8×8 (8 FMAs per load
//! and 8 broadcasts). Columns of C are `MR` contiguous values, so the tile
//! is added to C with whole-vector loads and stores.

use cute_static::prelude::*;

/// Rows of A per packed sliver (two 8-wide `f32` vectors).
pub const MR: usize = 16;
/// Columns of B per packed sliver.
pub const NR: usize = 6;
/// Depth of a packed block: an A sliver (`MR·KC·4` = 16 KiB) and a B
/// sliver (6 KiB) fit the 32 KiB L1 together.
pub const KC: usize = 256;
/// Rows of A per packed block: `MC·KC·4` = 144 KiB stays in the L2
/// (512 KiB per core on the EPYC this was tuned on) while every B sliver
/// of the block streams past it.
pub const MC: usize = 144;
/// Columns of B per packed block: `KC·NC·4` = 3 MiB, resident in the L3.
pub const NC: usize = 3072;
// Whole slivers per block: the packed buffers are sized from this.
const _: () = assert!(MC.is_multiple_of(MR) && NC.is_multiple_of(NR));

/// The micro-tile of C held in registers: `(MR,NR)`, column-major.
type MicroTile = Layout![(16,6):(1,16)];
/// A packed sliver of A: `(MR, KC)` with the `MR` values of one `k` adjacent.
type SliverA = Layout![(16,256):(1,16)];
/// A packed sliver of B: `(NR, KC)` with the `NR` values of one `k` adjacent.
type SliverB = Layout![(6,256):(1,6)];

/// `C += A·B`; `A` is `m×k` with leading dimension `lda`, `B` `k×n` with
/// `ldb`, `C` `m×n` with `ldc`, all column-major.
///
/// # Panics
/// When a slice is too short for its matrix, or a leading dimension is
/// below its column height.
#[allow(clippy::too_many_arguments)]
pub fn sgemm(m: usize, n: usize, k: usize, a: &[f32], lda: usize, b: &[f32], ldb: usize, c: &mut [f32], ldc: usize) {
    if !has_work(m, n, k, a.len(), lda, b.len(), ldb, c.len(), ldc) {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA (detected above).
        unsafe { blocked_avx2_fma(m, n, k, a, lda, b, ldb, c, ldc) };
        return;
    }
    blocked(micro_generic, m, n, k, a, lda, b, ldb, c, ldc);
}

/// Whether `C += A·B` has anything to do (`m` and `n` not 0), after
/// checking the slices' lengths and the leading dimensions.
#[allow(clippy::too_many_arguments)]
fn has_work(m: usize, n: usize, k: usize, a: usize, lda: usize, b: usize, ldb: usize, c: usize, ldc: usize) -> bool {
    if m == 0 || n == 0 {
        return false;
    }
    assert!(lda >= m && ldb >= k && ldc >= m, "leading dimensions below the column heights");
    assert!(k == 0 || a >= lda * (k - 1) + m, "A too short");
    assert!(k == 0 || b >= ldb * (n - 1) + k, "B too short");
    assert!(c >= ldc * (n - 1) + m, "C too short");
    true
}

/// [`sgemm`] with the portable micro-kernel, the one it takes on a CPU
/// without AVX2 and FMA (so that the tests run it on any machine).
///
/// # Panics
/// As [`sgemm`].
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
    if !has_work(m, n, k, a.len(), lda, b.len(), ldb, c.len(), ldc) {
        return;
    }
    blocked(micro_generic, m, n, k, a, lda, b, ldb, c, ldc);
}

/// The loop nest compiled for AVX2 and FMA, so that the micro-kernel
/// inlines into it (as the atom GEMM's `dispatch` does for its loop nest:
/// the comparison is of the same code, written two ways).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[allow(clippy::too_many_arguments)]
fn blocked_avx2_fma(
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
    // The closure has this function's target features: a safe call.
    blocked(|kc, a, b, out| micro_avx2_fma(kc, a, b, out), m, n, k, a, lda, b, ldb, c, ldc);
}

/// The loop nest of [`sgemm`] (arguments checked there) around `kernel`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn blocked<K: Fn(usize, &[f32], &[f32], Out<'_>)>(
    kernel: K,
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
    // Panels no larger than the matrices need: a small product does not
    // pay for zeroing (and faulting in) a 3 MiB block it never uses.
    let mut apack = vec![0f32; MC.min(m.next_multiple_of(MR)) * KC];
    let mut bpack = vec![0f32; NC.min(n.next_multiple_of(NR)) * KC];
    let tile = MicroTile::default();
    for jc in (0..n).step_by(NC) {
        let nc = NC.min(n - jc);
        for pc in (0..k).step_by(KC) {
            let kc = KC.min(k - pc);
            pack_b(&mut bpack, b, ldb, pc, kc, jc, nc);
            for ic in (0..m).step_by(MC) {
                let mc = MC.min(m - ic);
                pack_a(&mut apack, a, lda, ic, mc, pc, kc);
                for jr in (0..nc).step_by(NR) {
                    let bs = &bpack[jr * KC..(jr + NR) * KC];
                    let cols = NR.min(nc - jr);
                    for ir in (0..mc).step_by(MR) {
                        let as_ = &apack[ir * KC..(ir + MR) * KC];
                        let rows = MR.min(mc - ir);
                        let c0 = (jc + jr) * ldc + ic + ir;
                        if rows == MR && cols == NR {
                            // A whole tile: the kernel adds into C itself.
                            kernel(kc, as_, bs, Out::C { c: &mut c[c0..], ldc });
                        } else {
                            let mut acc = [0f32; MR * NR];
                            kernel(kc, as_, bs, Out::Tile(&mut acc));
                            for j in 0..cols {
                                let col = &mut c[c0 + j * ldc..][..rows];
                                for (i, cij) in col.iter_mut().enumerate() {
                                    *cij += acc[tile.index((i, j))];
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Packs `A[ic..ic+mc, pc..pc+kc]` into slivers of `MR` rows (zeros below
/// the last row): sliver `s` holds rows `s·MR..`, element `(i,p)` at
/// `SliverA::index((i, p))`.
fn pack_a(dst: &mut [f32], a: &[f32], lda: usize, ic: usize, mc: usize, pc: usize, kc: usize) {
    let sliver = SliverA::default();
    for (s, panel) in dst.chunks_exact_mut(MR * KC).take(mc.div_ceil(MR)).enumerate() {
        let rows = MR.min(mc - s * MR);
        for p in 0..kc {
            let col = &a[(pc + p) * lda + ic + s * MR..][..rows];
            // The `MR` values of one `k` are contiguous in the sliver, so a
            // column of A is one copy (the layout says where it starts).
            let out = &mut panel[sliver.index((0, p))..][..MR];
            out[..rows].copy_from_slice(col);
            out[rows..].fill(0.0);
        }
    }
}

/// Packs `B[pc..pc+kc, jc..jc+nc]` into slivers of `NR` columns (zeros
/// right of the last column): element `(j,p)` of sliver `s` at
/// `SliverB::index((j, p))`.
fn pack_b(dst: &mut [f32], b: &[f32], ldb: usize, pc: usize, kc: usize, jc: usize, nc: usize) {
    let sliver = SliverB::default();
    for (s, panel) in dst.chunks_exact_mut(NR * KC).take(nc.div_ceil(NR)).enumerate() {
        let cols = NR.min(nc - s * NR);
        for j in 0..NR {
            if j < cols {
                let col = &b[(jc + s * NR + j) * ldb + pc..][..kc];
                for (p, v) in col.iter().enumerate() {
                    panel[sliver.index((j, p))] = *v;
                }
            } else {
                for p in 0..kc {
                    panel[sliver.index((j, p))] = 0.0;
                }
            }
        }
    }
}

/// Where a micro-kernel puts its `MR×NR` sums.
enum Out<'c> {
    /// Added into C: column `j` of the tile at `c[j·ldc..][..MR]`.
    C { c: &'c mut [f32], ldc: usize },
    /// Stored (not added) into a tile laid out as `MicroTile`.
    Tile(&'c mut [f32; MR * NR]),
}

/// The 16×6 tile as 12 `__m256` accumulators: `acc[j][h]` holds rows
/// `8h..8h+8` of column `j` (the `MicroTile` order, two vectors a column).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
fn micro_avx2_fma(kc: usize, a: &[f32], b: &[f32], out: Out<'_>) {
    use std::arch::x86_64::*;
    let mut acc = [[_mm256_setzero_ps(); 2]; NR];
    // One `k` step: a column of A (two vectors) times each broadcast
    // element of the row of B, into the 12 accumulators.
    macro_rules! step {
        ($av:expr, $bv:expr) => {{
            let (av, bv): (&[f32], &[f32]) = ($av, $bv);
            // SAFETY: `av` holds MR = 16 values, two unaligned 8-wide loads.
            let (a0, a1) = unsafe { (_mm256_loadu_ps(av[..MR].as_ptr()), _mm256_loadu_ps(av[8..MR].as_ptr())) };
            for (cj, bj) in acc.iter_mut().zip(&bv[..NR]) {
                let bj = _mm256_set1_ps(*bj);
                cj[0] = _mm256_fmadd_ps(a0, bj, cj[0]);
                cj[1] = _mm256_fmadd_ps(a1, bj, cj[1]);
            }
        }};
    }
    // Four steps a trip: the loop's own counting is then a small share of
    // the instructions (the FMA ports are the limit, not the front end).
    let kc4 = kc / 4 * 4;
    for (av, bv) in a[..kc4 * MR].chunks_exact(4 * MR).zip(b[..kc4 * NR].chunks_exact(4 * NR)) {
        for u in 0..4 {
            step!(&av[u * MR..], &bv[u * NR..]);
        }
    }
    for (av, bv) in a[kc4 * MR..].chunks_exact(MR).zip(b[kc4 * NR..].chunks_exact(NR)).take(kc - kc4) {
        step!(av, bv);
    }
    match out {
        Out::C { c, ldc } => {
            for (j, cj) in acc.iter().enumerate() {
                let col = &mut c[j * ldc..][..MR];
                // SAFETY: `col` holds MR = 16 values, two 8-wide halves.
                unsafe {
                    let p = col.as_mut_ptr();
                    _mm256_storeu_ps(p, _mm256_add_ps(_mm256_loadu_ps(p), cj[0]));
                    _mm256_storeu_ps(p.add(8), _mm256_add_ps(_mm256_loadu_ps(p.add(8)), cj[1]));
                }
            }
        }
        Out::Tile(t) => {
            let tile = MicroTile::default();
            for (j, cj) in acc.iter().enumerate() {
                let col = &mut t[tile.index((0, j))..][..MR];
                // SAFETY: `col` holds MR = 16 values, two 8-wide halves.
                unsafe {
                    _mm256_storeu_ps(col.as_mut_ptr(), cj[0]);
                    _mm256_storeu_ps(col[8..].as_mut_ptr(), cj[1]);
                }
            }
        }
    }
}

/// `acc(i,j) = Σ_p a(i,p)·b(j,p)` over `kc` packed steps (the same sums in
/// the same order as the AVX2 kernel), then added into C or stored.
fn micro_generic(kc: usize, a: &[f32], b: &[f32], out: Out<'_>) {
    let mut acc = [[0f32; MR]; NR];
    for (av, bv) in a.chunks_exact(MR).zip(b.chunks_exact(NR)).take(kc) {
        for (cj, &bj) in acc.iter_mut().zip(bv) {
            for (cij, &ai) in cj.iter_mut().zip(av) {
                *cij = ai.mul_add(bj, *cij);
            }
        }
    }
    let tile = MicroTile::default();
    match out {
        Out::C { c, ldc } => {
            for (j, cj) in acc.iter().enumerate() {
                for (cij, v) in c[j * ldc..][..MR].iter_mut().zip(cj) {
                    *cij += v;
                }
            }
        }
        Out::Tile(t) => {
            for (j, cj) in acc.iter().enumerate() {
                for (i, &v) in cj.iter().enumerate() {
                    t[tile.index((i, j))] = v;
                }
            }
        }
    }
}
