//! The GEMM of `examples/sgemm.rs` (predicated tiles, a cooperative block,
//! fragments) against a naive loop, on the caller's buffers: ragged sizes,
//! a single element, sizes below one tile, whole tiles, leading dimensions
//! larger than the rows, and several workers.

#[allow(dead_code)]
#[path = "../examples/sgemm.rs"]
mod sgemm_example;

use sgemm_example::{Dims, sgemm};

/// `C = A·Bᵀ` by the naive loop, into the elements of C only (the padding
/// rows of a larger leading dimension stay as they are).
fn naive(d: Dims, a: &[f32], b: &[f32], c: &mut [f32]) {
    for j in 0..d.n {
        for i in 0..d.m {
            let mut s = 0f32;
            for p in 0..d.k {
                s += a[i + d.lda * p] * b[j + d.ldb * p];
            }
            c[i + d.ldc * j] = s;
        }
    }
}

/// Runs both on small-integer data (exact sums) and compares every element
/// of the C buffer, padding included (the kernel must not write it).
fn check(m: usize, n: usize, k: usize, pad: usize, workers: usize) {
    let d = Dims { m, n, k, lda: m + pad, ldb: n + pad, ldc: m + pad };
    // Buffers exactly as long as the matrices (no slack after the last column).
    let a: Vec<f32> = (0..d.lda * (k - 1) + m).map(|x| ((x * 7 + 3) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..d.ldb * (k - 1) + n).map(|x| ((x * 5 + 1) % 17) as f32 - 8.0).collect();
    let len = d.ldc * (n - 1) + m;
    let (mut got, mut want) = (vec![-7.5f32; len], vec![-7.5f32; len]);
    sgemm(d, &a, &b, &mut got, workers);
    naive(d, &a, &b, &mut want);
    let bad = got.iter().zip(&want).position(|(x, y)| x != y);
    assert!(bad.is_none(), "{m}x{n}x{k} (pad {pad}, {workers} workers): first difference at {bad:?}");
}

#[test]
fn ragged_1000x777x333() {
    check(1000, 777, 333, 0, 2);
}

#[test]
fn one_element() {
    check(1, 1, 1, 0, 1);
}

#[test]
fn below_one_tile_129x3x9() {
    check(129, 3, 9, 0, 1);
    check(129, 3, 9, 5, 3);
}

#[test]
fn whole_tiles_512_cubed() {
    check(512, 512, 512, 0, 2);
}
