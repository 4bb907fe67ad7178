//! Swizzle application: cute-static's zero-sized `Sw<3,4,3>`, the same XOR
//! written by hand, cute-dynamic's `Swizzle::apply` and the bit-field XOR
//! `BitFieldXor` of the CuTe dialect's descriptor grammar (forward and
//! inverse), each over 1024 offsets passed through `black_box`.
//!
//! Run: `cargo bench -p cute-benches --bench swizzle`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn swizzle_apply(c: &mut Criterion) {
    let mut g = c.benchmark_group("swizzle Sw<3,4,3> x1024");
    let s = cute_static::Swizzle::<3, 4, 3>::new();
    g.bench_function("static", |b| {
        b.iter(|| (0..1024usize).fold(0usize, |acc, o| acc.wrapping_add(s.apply(black_box(o)))))
    });
    g.bench_function("hand", |b| {
        b.iter(|| {
            (0..1024usize).fold(0usize, |acc, o| {
                let o = black_box(o);
                acc.wrapping_add(o ^ ((o & 0x380) >> 3))
            })
        })
    });
    let d = cute_dynamic::Swizzle::new(3, 4, 3).unwrap();
    g.bench_function("dynamic", |b| {
        b.iter(|| (0..1024i64).fold(0i64, |acc, o| acc.wrapping_add(d.apply(black_box(o)))))
    });
    let f = cute_dynamic::BitFieldXor::new(3, 4, 3).unwrap();
    g.bench_function("bit_field_xor", |b| {
        b.iter(|| (0..1024i64).fold(0i64, |acc, o| acc.wrapping_add(f.apply(black_box(o)))))
    });
    g.bench_function("bit_field_xor inverse", |b| {
        b.iter(|| (0..1024i64).fold(0i64, |acc, o| acc.wrapping_add(f.inverse_apply(black_box(o)))))
    });
    g.finish();
}

criterion_group!(benches, swizzle_apply);
criterion_main!(benches);
