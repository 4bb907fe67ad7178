//! A register-blocked, packed single-precision GEMM (the BLIS loop nest),
//! the CPU kernel that the tensor GEMM benchmark compares with
//! `matrixmultiply::sgemm`.
//!
//! `C += A·B` for column-major `A (M,K)`, `B (K,N)`, `C (M,N)` with leading
//! dimensions. Blocks of `KC` columns of A and rows of B are packed into
//! panels whose layouts are static CuTe layouts (`MR` rows of A, `NR`
//! columns of B, one `k` after another), and an `MR×NR` micro-tile of C is
//! accumulated in registers (a static `(8,8):(1,8)` fragment) over a panel
//! pair, with fused multiply-adds where the CPU has them (checked at run
//! time). Ragged edges are packed with zeros and written back partially.

use cute_static::prelude::*;

/// Rows of A per packed sliver (one 8-wide `f32` vector).
pub const MR: usize = 8;
/// Columns of B per packed sliver.
pub const NR: usize = 8;
/// Depth of a packed block.
pub const KC: usize = 256;
/// Rows of A per packed block.
pub const MC: usize = 128;
/// Columns of B per packed block.
pub const NC: usize = 1024;

/// The micro-tile of C held in registers: `(MR,NR)`, column-major.
type MicroTile = Layout![(8,8):(1,8)];
/// A packed sliver: `(8, KC)` with the 8 values of one `k` adjacent.
type Sliver = Layout![(8,256):(1,8)];

/// `C += A·B`; `A` is `m×k` with leading dimension `lda`, `B` `k×n` with
/// `ldb`, `C` `m×n` with `ldc`, all column-major.
///
/// # Panics
/// When a slice is too short for its matrix, or a leading dimension is
/// below its column height.
#[allow(clippy::too_many_arguments)]
pub fn sgemm(m: usize, n: usize, k: usize, a: &[f32], lda: usize, b: &[f32], ldb: usize, c: &mut [f32], ldc: usize) {
    if m == 0 || n == 0 {
        return;
    }
    assert!(lda >= m && ldb >= k && ldc >= m, "leading dimensions below the column heights");
    assert!(k == 0 || a.len() >= lda * (k - 1) + m, "A too short");
    assert!(k == 0 || b.len() >= ldb * (n - 1) + k, "B too short");
    assert!(c.len() >= ldc * (n - 1) + m, "C too short");
    let mut apack = vec![0f32; MC.next_multiple_of(MR) * KC];
    let mut bpack = vec![0f32; NC.next_multiple_of(NR) * KC];
    let kernel = micro_kernel();
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
                    for ir in (0..mc).step_by(MR) {
                        let as_ = &apack[ir * KC..(ir + MR) * KC];
                        let mut acc = [0f32; MR * NR];
                        kernel(kc, as_, bs, &mut acc);
                        let (rows, cols) = (MR.min(mc - ir), NR.min(nc - jr));
                        let tile = MicroTile::default();
                        for j in 0..cols {
                            let col = &mut c[(jc + jr + j) * ldc + ic + ir..][..rows];
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

/// Packs `A[ic..ic+mc, pc..pc+kc]` into slivers of `MR` rows (zeros below
/// the last row): sliver `s` holds rows `s·MR..`, element `(i,p)` at
/// `Sliver::index((i, p))`.
fn pack_a(dst: &mut [f32], a: &[f32], lda: usize, ic: usize, mc: usize, pc: usize, kc: usize) {
    let sliver = Sliver::default();
    for (s, panel) in dst.chunks_exact_mut(MR * KC).take(mc.div_ceil(MR)).enumerate() {
        let rows = MR.min(mc - s * MR);
        for p in 0..kc {
            let col = &a[(pc + p) * lda + ic + s * MR..][..rows];
            for i in 0..MR {
                panel[sliver.index((i, p))] = if i < rows { col[i] } else { 0.0 };
            }
        }
    }
}

/// Packs `B[pc..pc+kc, jc..jc+nc]` into slivers of `NR` columns (zeros
/// right of the last column): element `(j,p)` of sliver `s` at
/// `Sliver::index((j, p))`.
fn pack_b(dst: &mut [f32], b: &[f32], ldb: usize, pc: usize, kc: usize, jc: usize, nc: usize) {
    let sliver = Sliver::default();
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

type Kernel = fn(usize, &[f32], &[f32], &mut [f32; MR * NR]);

/// The micro-kernel for this CPU: with FMA and AVX2 when it has them.
fn micro_kernel() -> Kernel {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        return |kc, a, b, acc| {
            // SAFETY: the CPU has AVX2 and FMA (detected above).
            unsafe { micro_avx2_fma(kc, a, b, acc) }
        };
    }
    micro_generic
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn micro_avx2_fma(kc: usize, a: &[f32], b: &[f32], acc: &mut [f32; MR * NR]) {
    micro_generic(kc, a, b, acc)
}

/// `acc(i,j) = Σ_p a(i,p)·b(j,p)` over `kc` packed steps, the tile held as
/// `NR` columns of `MR` values so that each column is one vector register.
#[inline(always)]
fn micro_generic(kc: usize, a: &[f32], b: &[f32], acc: &mut [f32; MR * NR]) {
    let mut c = [[0f32; MR]; NR];
    for (av, bv) in a.chunks_exact(MR).zip(b.chunks_exact(NR)).take(kc) {
        for (cj, &bj) in c.iter_mut().zip(bv) {
            for (cij, &ai) in cj.iter_mut().zip(av) {
                *cij = ai.mul_add(bj, *cij);
            }
        }
    }
    let tile = MicroTile::default();
    for (j, cj) in c.iter().enumerate() {
        for (i, &v) in cj.iter().enumerate() {
            acc[tile.index((i, j))] = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
        for j in 0..n {
            for i in 0..m {
                let s: f32 = (0..k).map(|p| a[p * m + i] * b[j * k + p]).sum();
                c[j * m + i] += s;
            }
        }
    }

    #[test]
    fn blocked_equals_naive_on_square_tall_ragged_and_tiny_sizes() {
        for (m, n, k) in
            [(1, 1, 1), (8, 8, 8), (64, 64, 64), (129, 70, 300), (1000, 3, 17), (5, 1030, 9), (130, 9, 257)]
        {
            // Small integers: every sum is exact in f32, so the orders agree.
            let a: Vec<f32> = (0..m * k).map(|i| ((i * 7 + 3) % 11) as f32 - 5.0).collect();
            let b: Vec<f32> = (0..k * n).map(|i| ((i * 5 + 1) % 7) as f32 - 3.0).collect();
            let c0: Vec<f32> = (0..m * n).map(|i| (i % 5) as f32).collect();
            let (mut c, mut want) = (c0.clone(), c0);
            sgemm(m, n, k, &a, m, &b, k, &mut c, m);
            naive(m, n, k, &a, &b, &mut want);
            assert_eq!(c, want, "{m}x{n}x{k}");
        }
    }
}
