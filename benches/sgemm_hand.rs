//! The `sgemm_1` kernel of `cute-static/examples/sgemm.rs` with the index
//! arithmetic written by hand: the same blocks, k-tiles, copy threads
//! (32×8), compute threads (16×16), predicates and loop orders, with
//! raw-pointer accesses (as C code indexes, without `restrict`) where the
//! tensor kernel indexes. Timed against the tensor kernel by
//! `benches/tensor_gemm.rs`.

use crate::sgemm_example::{BK, BM, BN, Padded};

/// A pointer to C that the workers write disjoint elements through.
#[derive(Clone, Copy)]
struct SendPtr(*mut f32);
// SAFETY: each worker writes only the elements of its own threads' parts
// of C (disjoint by construction of the 16×16 thread layout), and the
// scope joins them before C is used again.
unsafe impl Send for SendPtr {}

/// `sgemm_tensor` with the index arithmetic by hand.
pub fn sgemm_hand(a: &Padded, b: &Padded, c: &mut Padded, workers: usize) {
    let (m, n, k) = (c.rows, c.cols, a.cols);
    let (lda, ldb, ldc) = (a.ld, b.ld, c.ld);
    let (pa, pb) = (a.data.as_ptr() as usize, b.data.as_ptr() as usize);
    let pc = SendPtr(c.data.as_mut_ptr());
    for by in 0..n.div_ceil(BN) {
        for bx in 0..m.div_ceil(BM) {
            let per_worker = 256usize.div_ceil(workers);
            std::thread::scope(|s| {
                for w in 0..workers {
                    let mine: Vec<usize> = (w * per_worker..((w + 1) * per_worker).min(256)).collect();
                    s.spawn(move || {
                        let (pa, pb) = (pa as *const f32, pb as *const f32);
                        let pc = pc;
                        let mut sa = [0f32; 1024];
                        let mut sb = [0f32; 1024];
                        let mut rc: Vec<[f32; 64]> = mine.iter().map(|_| [0f32; 64]).collect();
                        for kt in 0..k.div_ceil(BK) {
                            for tid in 0..256 {
                                let (tx, ty) = (tid % 32, tid / 32);
                                for i in 0..4 {
                                    let (r, col) = (tx + 32 * i, ty);
                                    let (gm, gk) = (bx * BM + r, kt * BK + col);
                                    // SAFETY: inside the padded storage (as the tensor kernel's views).
                                    sa[r + 128 * col] =
                                        if gm < m && gk < k { unsafe { *pa.add(gm + lda * gk) } } else { 0.0 };
                                }
                                for i in 0..4 {
                                    let (r, col) = (tx + 32 * i, ty);
                                    let (gn, gk) = (by * BN + r, kt * BK + col);
                                    // SAFETY: as above.
                                    sb[r + 128 * col] =
                                        if gn < n && gk < k { unsafe { *pb.add(gn + ldb * gk) } } else { 0.0 };
                                }
                            }
                            for (t, acc) in mine.iter().zip(rc.iter_mut()) {
                                let (tm, tn) = (t % 16, t / 16);
                                // Pointers, as C code would index (no `restrict`).
                                let (a, b, c) = (sa.as_ptr(), sb.as_ptr(), acc.as_mut_ptr());
                                for kk in 0..8 {
                                    for j in 0..8 {
                                        for i in 0..8 {
                                            // SAFETY: every index is below 1024 (sA, sB) or 64 (rC).
                                            unsafe {
                                                *c.add(i + 8 * j) +=
                                                    *a.add(tm + 16 * i + 128 * kk) * *b.add(tn + 16 * j + 128 * kk)
                                            };
                                        }
                                    }
                                }
                            }
                        }
                        for (t, acc) in mine.iter().zip(rc.iter()) {
                            let (tm, tn) = (t % 16, t / 16);
                            for (e, v) in acc.iter().enumerate() {
                                let (gm, gn) = (bx * BM + tm + 16 * (e % 8), by * BN + tn + 16 * (e / 8));
                                if gm < m && gn < n {
                                    // SAFETY: inside C, and only this thread's element.
                                    unsafe { *pc.0.add(gm + ldc * gn) = *v };
                                }
                            }
                        }
                    });
                }
            });
        }
    }
}
