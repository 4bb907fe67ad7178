//! Static layout indexing against the same loop written by hand.
//!
//! Each group indexes every element of one layout twice: through
//! `cute_static::Layout::index`, and with the arithmetic written by hand with
//! the constants inlined. Both loops pass each coordinate through
//! `black_box` (so the optimizer cannot fold the loop into a closed form or
//! vectorize one side only) and add up the offsets; the ratio of the two
//! times is the cost of the abstraction (expected 1.00). The hand-written
//! closures capture the layout too (`_same_capture`), so that both closures
//! have the same environment and call path: without it, LLVM still merges
//! the two loop bodies into one function (they are identical), yet the
//! timings differed by ~10% in group (a) from the call path alone.
//!
//! Group (d) does the same for a layout with run-time leaves.
//!
//! Run: `cargo bench -p cute-benches --bench static_index`

use criterion::{Criterion, criterion_group, criterion_main};
use cute_static::prelude::*;
use std::hint::black_box;

/// (a) `(8,8):(1,8)` by integral coordinate.
fn colmajor(c: &mut Criterion) {
    let mut g = c.benchmark_group("index (8,8):(1,8) integral");
    let l = layout!((8,8):(1,8));
    g.bench_function("static", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for i in 0..64usize {
                acc = acc.wrapping_add(l.index(black_box(i)));
            }
            acc
        })
    });
    g.bench_function("hand", |b| {
        b.iter(|| {
            let _same_capture = &l;
            let mut acc = 0usize;
            for i in 0..64usize {
                let i = black_box(i);
                acc = acc.wrapping_add((i % 8) + (i / 8) * 8);
            }
            acc
        })
    });
    g.finish();
}

/// (b) `((4,2),(2,8)):((1,16),(4,32))` by integral coordinate.
fn mixed(c: &mut Criterion) {
    let mut g = c.benchmark_group("index ((4,2),(2,8)):((1,16),(4,32)) integral");
    let l = layout!(((4,2),(2,8)):((1,16),(4,32)));
    g.bench_function("static", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for i in 0..128usize {
                acc = acc.wrapping_add(l.index(black_box(i)));
            }
            acc
        })
    });
    g.bench_function("hand", |b| {
        b.iter(|| {
            let _same_capture = &l;
            let mut acc = 0usize;
            for i in 0..128usize {
                let i = black_box(i);
                acc = acc.wrapping_add((i % 4) + (i / 4 % 2) * 16 + (i / 8 % 2) * 4 + (i / 16) * 32);
            }
            acc
        })
    });
    g.finish();
}

/// (c) `(4,8):(8,1)` by 2-D coordinate.
fn rowmajor_2d(c: &mut Criterion) {
    let mut g = c.benchmark_group("index (4,8):(8,1) 2-D");
    let l = layout!((4,8):(8,1));
    g.bench_function("static", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for n in 0..8usize {
                for m in 0..4usize {
                    acc = acc.wrapping_add(l.index((black_box(m), black_box(n))));
                }
            }
            acc
        })
    });
    g.bench_function("hand", |b| {
        b.iter(|| {
            let _same_capture = &l;
            let mut acc = 0usize;
            for n in 0..8usize {
                for m in 0..4usize {
                    let (m, n) = (black_box(m), black_box(n));
                    acc = acc.wrapping_add(m * 8 + n);
                }
            }
            acc
        })
    });
    g.finish();
}

/// (d) `(({m},4),2):((4,1),{s})` by integral coordinate: run-time leaves
/// (`m = 5`, `s = -24`, both passed through `black_box` so they are not
/// constants), read from the layout; the hand-written twin reads the same
/// two values from a tuple, and divides by `m` without a panic branch (0 for
/// a zero divisor) as the layout does (cute-static/examples/index_asm.rs).
fn run_time_leaves(c: &mut Criterion) {
    let mut g = c.benchmark_group("index (({m},4),2):((4,1),{s}) integral");
    let (m, s) = (black_box(5usize), black_box(-24i64));
    let l = layout!((({m},4),2):((4,1),{s}));
    let vals = (m as i64, s);
    g.bench_function("mixed", |b| {
        b.iter(|| {
            let l = black_box(&l);
            let mut acc = 0i64;
            for i in 0..40usize {
                acc = acc.wrapping_add(l.index(black_box(i)));
            }
            acc
        })
    });
    g.bench_function("hand", |b| {
        b.iter(|| {
            let (m, s) = *black_box(&vals);
            let m = m as usize;
            let div = |a: usize, b: usize| a.checked_div(b).unwrap_or(0);
            let rem = |a: usize, b: usize| a.checked_rem(b).unwrap_or(0);
            let mut acc = 0i64;
            for i in 0..40usize {
                let i = black_box(i);
                acc = acc.wrapping_add((rem(i, m) * 4 + rem(div(i, m), 4)) as i64 + div(i, m * 4) as i64 * s);
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, colmajor, mixed, rowmajor_2d, run_time_leaves);
criterion_main!(benches);
