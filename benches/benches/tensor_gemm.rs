//! CuTe's `sgemm_1` kernel on the CPU written with cute-static tensors
//! (`cute-static/examples/sgemm.rs`, compiled in here) against the
//! identical loop nest with the index arithmetic written by hand: the same
//! blocks, k-tiles, copy threads (32×8), compute threads (16×16),
//! predicates and loop orders, with raw-pointer accesses (as C code indexes, without
//! `restrict`) where the tensor kernel indexes. One worker thread, so that the figure is the
//! abstraction's cost and not the machine's scheduling. Criterion's
//! throughput is in FLOP (`2·M·N·K` per call).
//!
//! Run: `cargo bench -p cute-benches --bench tensor_gemm`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

#[allow(dead_code)]
#[path = "../../cute-static/examples/sgemm.rs"]
mod sgemm;

use sgemm::{BK, BM, BN, Padded, sgemm_tensor};

/// A pointer to C that the workers write disjoint elements through.
#[derive(Clone, Copy)]
struct SendPtr(*mut f32);
// SAFETY: each worker writes only the elements of its own threads' parts
// of C (disjoint by construction of the 16×16 thread layout), and the
// scope joins them before C is used again.
unsafe impl Send for SendPtr {}

/// `sgemm_tensor` with the index arithmetic by hand.
fn sgemm_hand(a: &Padded, b: &Padded, c: &mut Padded, workers: usize) {
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

fn problem(s: usize) -> (Padded, Padded, Padded) {
    let a = Padded::new(s, s, BM, BK, |i, j| ((i * 7 + j * 3) % 13) as f32 - 6.0);
    let b = Padded::new(s, s, BN, BK, |i, j| ((i * 5 + j * 11) % 17) as f32 - 8.0);
    let c = Padded::new(s, s, BM, BN, |_, _| 0.0);
    (a, b, c)
}

fn tensor_gemm(c: &mut Criterion) {
    let mut g = c.benchmark_group("sgemm_1");
    g.sample_size(10);
    for s in [256usize, 512] {
        let (a, b, mut out) = problem(s);
        // The two kernels agree exactly (small integers).
        let mut check = problem(s).2;
        sgemm_tensor(&a, &b, &mut out, 1);
        sgemm_hand(&a, &b, &mut check, 1);
        assert_eq!(out.data, check.data, "tensor and hand-written kernels disagree at {s}");
        g.throughput(Throughput::Elements(2 * (s * s * s) as u64));
        g.bench_with_input(BenchmarkId::new("tensor", s), &s, |bench, _| {
            bench.iter(|| sgemm_tensor(black_box(&a), black_box(&b), &mut out, 1))
        });
        g.bench_with_input(BenchmarkId::new("hand", s), &s, |bench, _| {
            bench.iter(|| sgemm_hand(black_box(&a), black_box(&b), &mut out, 1))
        });
    }
    g.finish();
}

criterion_group!(benches, tensor_gemm);
criterion_main!(benches);
