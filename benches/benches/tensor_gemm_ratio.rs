//! The tensor-vs-hand ratio of `tensor_gemm.rs` with low noise: the two
//! `sgemm_1` kernels (one worker each, same data) run alternately, tensor
//! then hand, `RUNS` times at each size, so that drifts of the shared
//! machine (other processes, frequency) reach both equally. Reports the
//! minimum (the usual low-noise estimator: noise only adds time) and the
//! median of each, and their ratios tensor / hand.
//!
//! Run: `cargo bench -p cute-benches --bench tensor_gemm_ratio`
//! (`RUNS=n` in the environment changes the count, default 30).

use std::hint::black_box;
use std::time::Instant;

use cute_benches::sgemm_1_problem;
use cute_benches::sgemm_example::sgemm_tensor;
use cute_benches::sgemm_hand::sgemm_hand;

fn min_median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[0], v[v.len() / 2])
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not run
    // this harness's measurements (only checks that it builds and agrees).
    let measuring = std::env::args().any(|a| a == "--bench");
    let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(30);
    for s in [256usize, 512] {
        // Checked there: the two kernels agree exactly on it.
        let (a, b, mut out) = sgemm_1_problem(s);
        if !measuring {
            continue;
        }
        let (mut tt, mut th) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
        for _ in 0..runs {
            let t = Instant::now();
            sgemm_tensor(black_box(&a), black_box(&b), &mut out, 1);
            tt.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            sgemm_hand(black_box(&a), black_box(&b), &mut out, 1);
            th.push(t.elapsed().as_secs_f64());
        }
        let ((tmin, tmed), (hmin, hmed)) = (min_median(tt), min_median(th));
        let gf = |t: f64| 2.0 * (s * s * s) as f64 / t / 1e9;
        println!(
            "sgemm_1 {s}³, {runs} alternating runs: tensor min {:.2} ms ({:.2} GFLOP/s) median {:.2} ms; \
             hand min {:.2} ms ({:.2} GFLOP/s) median {:.2} ms; tensor/hand: min {:.3}, median {:.3}",
            tmin * 1e3,
            gf(tmin),
            tmed * 1e3,
            hmin * 1e3,
            gf(hmin),
            hmed * 1e3,
            tmin / hmin,
            tmed / hmed
        );
    }
}
