//! The tensor-vs-hand ratio of `tensor_gemm.rs` with low noise: the two
//! GEMM kernels (one worker each, same data) run as adjacent pairs,
//! `RUNS` pairs at each size, the order alternating from pair to pair
//! (tensor first, then hand first) so that neither kernel always inherits
//! the other's cache state, and so that drifts of the shared machine
//! (other processes, frequency) reach both equally. Reports the minimum
//! and the median time of each with their ratios tensor / hand, and the
//! median of the per-pair ratios (each pair ran within a few milliseconds,
//! so a slow phase of the machine scales both of its times: the most robust
//! of the three).
//!
//! A control line times the hand kernel against itself the same way
//! (`hand/hand`): its distance from 1 is the measurement's own error at
//! that size on this machine at this moment, the resolution the
//! tensor/hand figures have.
//!
//! Run: `cargo bench -p cute-benches --bench tensor_gemm_ratio`
//! (`RUNS=n` in the environment changes the count, default 40).

use std::hint::black_box;
use std::time::Instant;

use cute_benches::sgemm_checked_problem;
use cute_benches::sgemm_example::{Dims, sgemm};
use cute_benches::sgemm_hand::sgemm_hand;

type Kernel = fn(Dims, &[f32], &[f32], &mut [f32], usize);
/// Times of the first kernel, of the second, and their per-pair ratios.
type Samples = (Vec<f64>, Vec<f64>, Vec<f64>);

fn min_median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[0], v[v.len() / 2])
}

/// `runs` adjacent pairs of `x` and `y`, the order alternating:
/// `(x times, y times, x/y per pair)`.
fn pairs(x: Kernel, y: Kernel, (d, a, b, out): (Dims, &[f32], &[f32], &mut [f32]), runs: usize) -> Samples {
    let time = |f: Kernel, out: &mut [f32]| {
        let t = Instant::now();
        f(d, black_box(a), black_box(b), out, 1);
        t.elapsed().as_secs_f64()
    };
    let (mut tx, mut ty, mut r) = (Vec::with_capacity(runs), Vec::with_capacity(runs), Vec::with_capacity(runs));
    for i in 0..runs {
        let (dx, dy) = if i % 2 == 0 {
            let dx = time(x, out);
            (dx, time(y, out))
        } else {
            let dy = time(y, out);
            (time(x, out), dy)
        };
        tx.push(dx);
        ty.push(dy);
        r.push(dx / dy);
    }
    (tx, ty, r)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not run
    // this harness's measurements (only checks that it builds and agrees).
    let measuring = std::env::args().any(|a| a == "--bench");
    let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(40);
    for (m, n, k) in [(512usize, 512usize, 512usize), (1000, 777, 333)] {
        // Checked there: the two kernels agree exactly on it.
        let (d, a, b, mut out) = sgemm_checked_problem(m, n, k);
        if !measuring {
            continue;
        }
        let gf = |t: f64| 2.0 * (m * n * k) as f64 / t / 1e9;
        let (tt, th, r) = pairs(sgemm, sgemm_hand, (d, &a, &b, &mut out), runs);
        let ((tmin, tmed), (hmin, hmed), (_, rmed)) = (min_median(tt), min_median(th), min_median(r));
        println!(
            "sgemm {m}x{n}x{k}, {runs} alternating pairs: tensor min {:.2} ms ({:.2} GFLOP/s) median {:.2} ms; \
             hand min {:.2} ms ({:.2} GFLOP/s) median {:.2} ms; tensor/hand: min {:.3}, median {:.3}, \
             median of pairs {rmed:.3}",
            tmin * 1e3,
            gf(tmin),
            tmed * 1e3,
            hmin * 1e3,
            gf(hmin),
            hmed * 1e3,
            tmin / hmin,
            tmed / hmed
        );
        let (t1, t2, r) = pairs(sgemm_hand, sgemm_hand, (d, &a, &b, &mut out), runs);
        let ((min1, med1), (min2, med2), (_, rmed)) = (min_median(t1), min_median(t2), min_median(r));
        println!(
            "  control {m}x{n}x{k}, hand/hand the same way: min {:.3}, median {:.3}, median of pairs {rmed:.3}",
            min1 / min2,
            med1 / med2
        );
    }
}
