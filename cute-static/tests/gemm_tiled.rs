//! The atom-layer GEMM of `examples/gemm_tiled.rs` against a naive loop on
//! the caller's buffers: square, tall, wide, ragged and 1×1 sizes, sizes
//! across the packed blocks (`MC`, `KC`, `NC`), leading dimensions larger
//! than the rows (padding that holds NaN in A and B and a sentinel in C),
//! several threads, on every atom this CPU has (the SIMD one `sgemm`
//! picks, and the portable one always).

#[allow(dead_code)]
#[path = "../examples/gemm_tiled.rs"]
mod gemm_tiled_example;

use gemm_tiled_example::{sgemm, sgemm_portable};

/// `C += A·B` by the naive loop on dense column-major matrices.
fn naive(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    for j in 0..n {
        for i in 0..m {
            let s: f32 = (0..k).map(|p| a[i + m * p] * b[p + k * j]).sum();
            c[i + m * j] += s;
        }
    }
}

/// Runs `which` (0: `sgemm` on `threads`, 1: the portable path) with
/// padded leading dimensions and compares with the naive product, the
/// padding of C untouched.
fn check(m: usize, n: usize, k: usize, pad: usize, threads: usize, portable: bool) {
    let (lda, ldb, ldc) = (m + pad, k + pad, m + pad);
    let val = |i: usize, ld: usize, h: usize, v: f32| if i % ld < h { v } else { f32::NAN };
    let a: Vec<f32> = (0..lda * k).map(|i| val(i, lda, m, ((i * 7 + 3) % 11) as f32 - 5.0)).collect();
    let b: Vec<f32> = (0..ldb * n).map(|i| val(i, ldb, k, ((i * 5 + 1) % 7) as f32 - 3.0)).collect();
    let mut c: Vec<f32> = (0..ldc * n).map(|i| if i % ldc < m { (i % 5) as f32 } else { -7.5 }).collect();
    let dense = |x: &[f32], ld: usize, h: usize, w: usize| -> Vec<f32> {
        (0..w).flat_map(|j| x[j * ld..j * ld + h].to_vec()).collect()
    };
    let mut want = dense(&c, ldc, m, n);
    naive(m, n, k, &dense(&a, lda, m, k), &dense(&b, ldb, k, n), &mut want);
    if portable {
        sgemm_portable(m, n, k, &a, lda, &b, ldb, &mut c, ldc);
    } else {
        sgemm(m, n, k, &a, lda, &b, ldb, &mut c, ldc, threads);
    }
    // Small integers: every sum is exact, so any order of the sums agrees.
    assert_eq!(dense(&c, ldc, m, n), want, "{m}x{n}x{k} pad {pad} threads {threads} portable {portable}");
    assert!(c.iter().enumerate().all(|(i, v)| i % ldc < m || *v == -7.5), "{m}x{n}x{k}: padding of C written");
}

const SIZES: [(usize, usize, usize); 12] = [
    (1, 1, 1),
    (16, 6, 1),
    (15, 5, 3),
    (17, 7, 5),
    (64, 64, 64),
    (129, 3, 9),
    (145, 13, 257),
    (1000, 3, 17),
    (5, 100, 9),
    (300, 20, 520),
    (3, 3073, 2),
    (128, 128, 128),
];

#[test]
fn atom_gemm_equals_the_naive_product() {
    for (m, n, k) in SIZES {
        check(m, n, k, 0, 1, false);
    }
}

#[test]
fn portable_atom_gemm_equals_the_naive_product() {
    for (m, n, k) in SIZES {
        check(m, n, k, 0, 1, true);
    }
}

#[test]
fn atom_gemm_reads_and_writes_only_inside_the_leading_dimensions() {
    for (m, n, k) in [(1, 1, 1), (17, 7, 5), (150, 20, 260)] {
        check(m, n, k, 3, 1, false);
        check(m, n, k, 5, 1, true);
    }
}

#[test]
fn atom_gemm_on_several_threads_equals_the_naive_product() {
    for (m, n, k) in [(1, 1, 1), (40, 50, 30), (33, 13, 7), (100, 7, 300)] {
        for threads in [2, 3, 8] {
            check(m, n, k, 1, threads, false);
        }
    }
}

#[test]
fn empty_sizes_leave_c_alone() {
    let mut c = vec![1f32; 4];
    sgemm(0, 2, 3, &[], 1, &[0.0; 6], 3, &mut c, 1, 1);
    sgemm(2, 2, 0, &[], 2, &[], 1, &mut c, 2, 1);
    assert_eq!(c, [1.0; 4]);
}
