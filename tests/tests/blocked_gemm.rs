//! The blocked single-precision GEMM that the GEMM benchmarks measure the
//! library's kernels against (`benches/blocked_gemm.rs`): equal to the
//! naive triple loop, with either micro-kernel, on square, tall, ragged
//! and tiny sizes, and inside the matrices' leading dimensions.

// The file itself, not the `cute-benches` library: a dependency on it
// would hold this binary's build until the library is built.
#[allow(dead_code)]
#[path = "../../benches/blocked_gemm.rs"]
mod gemm;

use gemm::{sgemm, sgemm_portable};

fn naive(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    for j in 0..n {
        for i in 0..m {
            let s: f32 = (0..k).map(|p| a[p * m + i] * b[j * k + p]).sum();
            c[j * m + i] += s;
        }
    }
}

/// A GEMM's signature: `C += A·B` with leading dimensions.
type Gemm = fn(usize, usize, usize, &[f32], usize, &[f32], usize, &mut [f32], usize);

/// `gemm` on tight `m×k` and `k×n` matrices adds to C what the naive loop
/// adds.
#[track_caller]
fn equals_naive(gemm: Gemm, m: usize, n: usize, k: usize) {
    // Small integers: every sum is exact in f32, so the orders agree.
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7 + 3) % 11) as f32 - 5.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| ((i * 5 + 1) % 7) as f32 - 3.0).collect();
    let c0: Vec<f32> = (0..m * n).map(|i| (i % 5) as f32).collect();
    let (mut c, mut want) = (c0.clone(), c0);
    gemm(m, n, k, &a, m, &b, k, &mut c, m);
    naive(m, n, k, &a, &b, &mut want);
    assert_eq!(c, want, "{m}x{n}x{k}");
}

#[test]
fn blocked_equals_naive_on_square_tall_ragged_and_tiny_sizes() {
    for (m, n, k) in [
        (1, 1, 1),
        (8, 8, 8),
        (16, 6, 1),
        (15, 5, 3),
        (17, 7, 5),
        (64, 64, 64),
        (129, 70, 300),
        (145, 13, 513),
        (1000, 3, 17),
        (5, 1030, 9),
        (3, 3073, 2),
        (130, 9, 257),
    ] {
        equals_naive(sgemm, m, n, k);
    }
}

#[test]
fn portable_micro_kernel_equals_naive_on_ragged_sizes() {
    // `sgemm` picks the AVX2 kernel on most test machines: run the
    // fallback through the same loop nest so that it is tested too.
    for (m, n, k) in [(1, 1, 1), (16, 6, 3), (17, 7, 5), (145, 13, 300)] {
        equals_naive(sgemm_portable, m, n, k);
    }
}

#[test]
fn blocked_reads_and_writes_only_the_matrices_inside_their_leading_dimensions() {
    // Padding rows (leading dimension above the height) hold NaN in A
    // and B, which would poison any sum that read them, and a sentinel
    // in C that must survive: whole tiles are added into C in place.
    for (m, n, k) in [(1, 1, 1), (16, 6, 4), (33, 13, 7), (150, 20, 260)] {
        let (lda, ldb, ldc) = (m + 3, k + 2, m + 5);
        let pad = |i: usize, ld: usize, h: usize, v: f32| if i % ld < h { v } else { f32::NAN };
        let a: Vec<f32> = (0..lda * k).map(|i| pad(i, lda, m, ((i * 7 + 3) % 11) as f32 - 5.0)).collect();
        let b: Vec<f32> = (0..ldb * n).map(|i| pad(i, ldb, k, ((i * 5 + 1) % 7) as f32 - 3.0)).collect();
        let mut c: Vec<f32> = (0..ldc * n).map(|i| if i % ldc < m { (i % 5) as f32 } else { -7.5 }).collect();
        let dense = |x: &[f32], ld: usize, h: usize, w: usize| -> Vec<f32> {
            (0..w).flat_map(|j| x[j * ld..j * ld + h].to_vec()).collect()
        };
        let mut want = dense(&c, ldc, m, n);
        naive(m, n, k, &dense(&a, lda, m, k), &dense(&b, ldb, k, n), &mut want);
        sgemm(m, n, k, &a, lda, &b, ldb, &mut c, ldc);
        assert_eq!(dense(&c, ldc, m, n), want, "{m}x{n}x{k}");
        assert!(c.iter().enumerate().all(|(i, v)| i % ldc < m || *v == -7.5), "{m}x{n}x{k}: padding of C written");
    }
}
