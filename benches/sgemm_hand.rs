//! The kernel of `cute-static/examples/sgemm.rs` with the index arithmetic
//! written by hand: the same column panels, blocks, k-tiles, copy threads
//! (32×8, four elements each), compute threads (16×16, an 8×8 accumulator
//! each), the same one check per tile (unchecked copies inside the
//! matrix), the same per-element predicates at the edges and the same loop
//! orders, on the same caller buffers; accesses by raw pointer (as C code
//! indexes, without `restrict`) where the tensor kernel indexes. A block of
//! one thread needs no barrier, so this has none. Timed against the tensor
//! kernel by `benches/tensor_gemm.rs` and `tensor_gemm_ratio.rs`.

use crate::sgemm_example::{BK, BM, BN, Dims, for_each_panel};

/// `sgemm` with the index arithmetic by hand.
pub fn sgemm_hand(d: Dims, a: &[f32], b: &[f32], c: &mut [f32], workers: usize) {
    if d.m == 0 || d.n == 0 {
        return;
    }
    // The operands must hold their matrices (the tensor kernel's check).
    assert!(a.len() >= d.m + d.lda * (d.k.max(1) - 1) && b.len() >= d.n + d.ldb * (d.k.max(1) - 1));
    assert!(c.len() >= d.m + d.ldc * (d.n - 1));
    for_each_panel(d, c, workers, |by, panel| panel_hand(d, a, b, by, panel));
}

/// One operand's k-tile into a shared tile: 256 copy threads (32×8), four
/// rows each; `rows` is M (or N), `p` the operand, `ld` its leading
/// dimension.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn copy_hand(s: &mut [f32; BM * BK], p: *const f32, ld: usize, rows: usize, k: usize, b0: usize, kt: usize) {
    let inside = (b0 + 1) * BM <= rows && (kt + 1) * BK <= k;
    for tid in 0..256 {
        let (tx, ty) = (tid % 32, tid / 32);
        for i in 0..4 {
            let (r, col) = (tx + 32 * i, ty);
            let (g, gk) = (b0 * BM + r, kt * BK + col);
            s[r + 128 * col] = if inside || (g < rows && gk < k) {
                // SAFETY: (g, gk) is inside the matrix, which the operand holds.
                unsafe { *p.add(g + ld * gk) }
            } else {
                0.0
            };
        }
    }
}

fn panel_hand(d: Dims, a: &[f32], b: &[f32], by: usize, panel: &mut [f32]) {
    let Dims { m, n, k, lda, ldb, ldc } = d;
    let ncols = (n - by * BN).min(BN);
    let (pa, pb, pc) = (a.as_ptr(), b.as_ptr(), panel.as_mut_ptr());
    let (mut sa, mut sb) = ([0f32; BM * BK], [0f32; BN * BK]);
    let mut accs: Vec<[f32; 64]> = vec![[0f32; 64]; 256];
    for bx in 0..m.div_ceil(BM) {
        for acc in accs.iter_mut() {
            *acc = [0.0; 64];
        }
        for kt in 0..k.div_ceil(BK) {
            copy_hand(&mut sa, pa, lda, m, k, bx, kt);
            copy_hand(&mut sb, pb, ldb, n, k, by, kt);
            for (t, acc) in accs.iter_mut().enumerate() {
                let (tm, tn) = (t % 16, t / 16);
                let (a, b, c) = (sa.as_ptr(), sb.as_ptr(), acc.as_mut_ptr());
                for kk in 0..8 {
                    for j in 0..8 {
                        for i in 0..8 {
                            // SAFETY: every index is below 1024 (sA, sB) or 64 (rC).
                            unsafe {
                                *c.add(i + 8 * j) += *a.add(tm + 16 * i + 128 * kk) * *b.add(tn + 16 * j + 128 * kk)
                            };
                        }
                    }
                }
            }
        }
        let inside = (bx + 1) * BM <= m && ncols == BN;
        for (t, acc) in accs.iter().enumerate() {
            let (tm, tn) = (t % 16, t / 16);
            for (e, v) in acc.iter().enumerate() {
                let (gm, gn) = (bx * BM + tm + 16 * (e % 8), tn + 16 * (e / 8));
                if inside || (gm < m && gn < ncols) {
                    // SAFETY: inside this panel of C.
                    unsafe { *pc.add(gm + ldc * gn) = *v };
                }
            }
        }
    }
}
