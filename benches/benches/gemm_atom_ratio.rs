//! The atom-layer GEMM (`cute-static/examples/gemm_tiled.rs`) against the
//! same algorithm written by hand with intrinsics and index arithmetic
//! (`cute_benches::blocked_gemm`) and against `matrixmultiply::sgemm`,
//! with low noise: the kernels run as adjacent pairs (one thread each,
//! same data), `RUNS` pairs per size, the order alternating from pair to
//! pair, as `tensor_gemm_ratio.rs` does. Reports each kernel's best
//! GFLOP/s and the median of the per-pair ratios (each pair ran within a
//! few milliseconds, so a slow phase of the shared machine scales both of
//! its times); a control line pairs the hand kernel with itself.
//!
//! Run: `cargo bench -p cute-benches --bench gemm_atom_ratio`
//! (`RUNS=n` in the environment changes the count, default 30).

use std::hint::black_box;
use std::time::Instant;

use cute_benches::{blocked_gemm, gemm_tiled};

type Kernel = fn(usize, &[f32], &[f32], &mut [f32]);

fn atom(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    gemm_tiled::sgemm(n, n, n, a, n, b, n, c, n, 1)
}
fn hand(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    blocked_gemm::sgemm(n, n, n, a, n, b, n, c, n)
}
fn reference(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    // SAFETY: the buffers hold n×n column-major matrices (row stride 1,
    // column stride n) and do not overlap.
    unsafe {
        matrixmultiply::sgemm(
            n,
            n,
            n,
            1.0,
            a.as_ptr(),
            1,
            n as isize,
            b.as_ptr(),
            1,
            n as isize,
            1.0,
            c.as_mut_ptr(),
            1,
            n as isize,
        )
    }
}

/// `(best time of x, best time of y, median of x/y over the pairs)`.
fn pairs(x: Kernel, y: Kernel, n: usize, a: &[f32], b: &[f32], out: &mut [f32], runs: usize) -> (f64, f64, f64) {
    let mut time = |f: Kernel| {
        let t = Instant::now();
        f(n, black_box(a), black_box(b), out);
        t.elapsed().as_secs_f64()
    };
    let (mut bx, mut by, mut r) = (f64::MAX, f64::MAX, Vec::with_capacity(runs));
    for i in 0..runs {
        let (dx, dy) = if i % 2 == 0 {
            let dx = time(x);
            (dx, time(y))
        } else {
            let dy = time(y);
            (time(x), dy)
        };
        bx = bx.min(dx);
        by = by.min(dy);
        r.push(dx / dy);
    }
    r.sort_by(f64::total_cmp);
    (bx, by, r[r.len() / 2])
}

fn main() {
    let measuring = std::env::args().any(|a| a == "--bench");
    let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(30);
    for n in [256usize, 512, 1024] {
        // Small integers: every sum is exact, so the three agree exactly.
        let a: Vec<f32> = (0..n * n).map(|i| ((i * 7 + 3) % 11) as f32 - 5.0).collect();
        let b: Vec<f32> = (0..n * n).map(|i| ((i * 5 + 1) % 7) as f32 - 3.0).collect();
        let mut check = [vec![0f32; n * n], vec![0f32; n * n], vec![0f32; n * n]];
        for (f, c) in [atom as Kernel, hand, reference].into_iter().zip(&mut check) {
            f(n, &a, &b, c);
        }
        assert!(check[0] == check[1] && check[1] == check[2], "the kernels disagree at {n}");
        if !measuring {
            continue;
        }
        let mut out = vec![0f32; n * n];
        let gf = |t: f64| 2.0 * (n * n * n) as f64 / t / 1e9;
        let (ta, th, r) = pairs(atom, hand, n, &a, &b, &mut out, runs);
        println!(
            "{n}^3: atom layer {:.1} GFLOP/s, hand-written {:.1} GFLOP/s; atom/hand time, median of {runs} pairs: {r:.3}",
            gf(ta),
            gf(th)
        );
        let (ta, tm, r) = pairs(atom, reference, n, &a, &b, &mut out, runs);
        println!(
            "{n}^3: atom layer {:.1} GFLOP/s, matrixmultiply {:.1} GFLOP/s; speed-up over matrixmultiply, median of pairs: {:.3}",
            gf(ta),
            gf(tm),
            1.0 / r
        );
        let (_, _, r) = pairs(hand, hand, n, &a, &b, &mut out, runs);
        println!("{n}^3: control hand/hand, median of pairs: {r:.3}");
    }
}
