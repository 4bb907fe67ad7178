//! Time of the mode-by-mode operations of cute-dynamic on a layout of
//! 10^5 modes: each is linear in the number of modes (the modes are walked
//! once, never looked up from the start), so each takes well under half a
//! second. So do the operations that check their answer point by point
//! (the left inverse's search, the inverses and compositions of swizzled
//! layouts, a composition answered mode by mode) on a layout of 10^5 modes and 2^16 points: they evaluate the
//! coalesced layout, not every mode at every point. Run with
//! `cargo bench -p cute-benches --bench rank_scaling`.

use criterion::{Criterion, criterion_group, criterion_main};
use cute_dynamic::{
    ComposedLayout, IntTuple, Layout, Swizzle, Tiler, blocked_product, coalesce_by, composition,
    composition_with_swizzle, flat_divide, flat_product, left_inverse, logical_divide, logical_product, make_layout_tv,
    raked_product, tiled_divide, tiled_product, zipped_divide, zipped_product,
};
use std::hint::black_box;
use std::time::Duration;

/// The number of modes.
const MODES: usize = 100_000;

fn ones(n: usize) -> String {
    vec!["1"; n].join(",")
}

/// A layout of `MODES` modes of which 16 have size 2 (so 2^16 points), the
/// `k`-th of those with stride `stride(k)`, the others `1:1`.
fn sixteen_twos(stride: impl Fn(usize) -> i64) -> Layout {
    let every = MODES / 16;
    let (mut shape, mut strides) = (Vec::new(), Vec::new());
    for i in 0..MODES {
        let two = i % every == 0;
        shape.push(if two { "2".to_string() } else { "1".to_string() });
        strides.push(if two { stride(i / every).to_string() } else { "1".to_string() });
    }
    format!("({}):({})", shape.join(","), strides.join(",")).parse().expect("a layout of 10^5 modes")
}

fn rank_scaling(c: &mut Criterion) {
    let l: Layout = format!("({}):({})", ones(MODES), ones(MODES)).parse().expect("a layout of 10^5 modes");
    let s: IntTuple = format!("({})", ones(MODES)).parse().expect("a shape of 10^5 modes");
    let t = Tiler::from_shape(&s).expect("a tiler of 10^5 modes");
    let two: Layout = "2:1".parse().expect("2:1");
    let mut g = c.benchmark_group("rank_1e5");
    g.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    g.bench_function("blocked_product(L, 2:1)", |b| b.iter(|| blocked_product(black_box(&l), &two)));
    g.bench_function("raked_product(L, 2:1)", |b| b.iter(|| raked_product(black_box(&l), &two)));
    g.bench_function("coalesce(L, S)", |b| b.iter(|| coalesce_by(black_box(&l), &s)));
    g.bench_function("composition(L, S)", |b| b.iter(|| composition(black_box(&l), &t)));
    g.bench_function("logical_divide(L, S)", |b| b.iter(|| logical_divide(black_box(&l), &t)));
    g.bench_function("zipped_divide(L, S)", |b| b.iter(|| zipped_divide(black_box(&l), &t)));
    g.bench_function("tiled_divide(L, S)", |b| b.iter(|| tiled_divide(black_box(&l), &t)));
    g.bench_function("flat_divide(L, S)", |b| b.iter(|| flat_divide(black_box(&l), &t)));
    g.bench_function("logical_product(L, S)", |b| b.iter(|| logical_product(black_box(&l), &t)));
    g.bench_function("zipped_product(L, S)", |b| b.iter(|| zipped_product(black_box(&l), &t)));
    g.bench_function("tiled_product(L, S)", |b| b.iter(|| tiled_product(black_box(&l), &t)));
    g.bench_function("flat_product(L, S)", |b| b.iter(|| flat_product(black_box(&l), &t)));
    g.bench_function("make_layout_tv(L, L)", |b| b.iter(|| make_layout_tv(black_box(&l), &l)));

    // Checked point by point, 2^16 points: strides that do not nest (the
    // left inverse searches), and the compact ones under a swizzle.
    let loose = sixteen_twos(|k| 500 * k as i64 + 1);
    g.bench_function("left_inverse(L16), searched", |b| b.iter(|| left_inverse(black_box(&loose))));
    let compact = sixteen_twos(|k| 1 << k);
    let sw = Swizzle::new(2, 0, 3).expect("Sw<2,0,3>");
    let swizzled = ComposedLayout::compose(sw, &compact);
    g.bench_function("left_inverse(Sw o L16)", |b| b.iter(|| black_box(&swizzled).left_inverse()));
    g.bench_function("right_inverse(Sw o L16)", |b| b.iter(|| black_box(&swizzled).right_inverse()));
    g.bench_function("composition(L16, Sw)", |b| b.iter(|| composition_with_swizzle(black_box(&compact), sw)));
    // Not distributive as a whole, exact mode by mode (a stride-0 mode of
    // `A` absorbs the carry): the modes composed one by one, 2^16 points
    // checked.
    let sevens = vec!["7"; MODES].join(",");
    let a: Layout = format!("(3,(3),{},1):(0,(4),{sevens},8)", ones(MODES)).parse().expect("A of 10^5 modes");
    let b: Layout = format!("(2,{},2,16384):(4,{sevens},5,0)", ones(MODES)).parse().expect("B of 10^5 modes");
    g.bench_function("composition(A, B) mode by mode", |bench| bench.iter(|| composition(black_box(&a), &b)));
    g.finish();
}

criterion_group!(benches, rank_scaling);
criterion_main!(benches);
