//! One operation of cute-dynamic run N times, for callgrind: `callgrind.sh`
//! takes the difference of N = 2001 and N = 1 runs, divided by 2000, as the
//! instructions per call. Inputs as in benches/benches/dynamic_ops.rs, and
//! for the `static_` operations (cute-static with run-time leaves) as in
//! benches/benches/static_mixed_ops.rs.

use cute_dynamic::*;
use std::fmt::Write;
use std::hint::black_box;

/// Keeps a result as `benches/benches/dynamic_ops.rs` (and CuTe's side)
/// keep it: made in place, passed to `black_box` by reference.
#[inline(always)]
fn keep<R>(r: R) {
    black_box(&r);
}
/// Reads an argument from memory on every call, as CuTe C++'s side reads
/// its `volatile` inputs (a layout of cute-static is `Copy`).
#[inline(always)]
fn read<T: Copy>(x: &T) -> T {
    // SAFETY: `x` is a valid, aligned reference to an initialised `T`.
    unsafe { std::ptr::read_volatile(x) }
}
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let op = args[1].as_str();
    let n: usize = args[2].parse().unwrap();
    let a1: Layout = "(10,2):(16,4)".parse().unwrap();
    let b1: Layout = "(5,4):(1,5)".parse().unwrap();
    let c1: Layout = "(2,4):(1,6)".parse().unwrap();
    let d1: Layout = "(9,(4,8)):(59,(13,1))".parse().unwrap();
    let t: Tiler = "<3:3, (2,4):(1,8)>".parse().unwrap();
    let p1: Layout = "(3,4):(4,1)".parse().unwrap();
    let p2: Layout = "(2,5):(1,2)".parse().unwrap();
    const TEXT: &str = "((2,2),(4,2)):((1,8),(2,16))";
    let l: Layout = TEXT.parse().unwrap();
    let mut buf = String::with_capacity(64);
    let (sa, sb) = (
        cute_static::prelude::layout!(({10i64},{2i64}):({16i64},{4i64})),
        cute_static::prelude::layout!(({5i64},{4i64}):({1i64},{5i64})),
    );
    let (m, n_) = (black_box(1000i64), black_box(777i64));
    let sl = cute_static::prelude::layout!(({m},{n_}):(1,{m}));
    // The operation is chosen once, outside its loop: a string match in
    // the loop would be counted with every call.
    match op {
        "composition" => {
            for _ in 0..n {
                keep(composition(black_box(&a1), black_box(&b1)));
            }
        }
        "complement" => {
            for _ in 0..n {
                keep(complement(black_box(&c1), black_box(24)));
            }
        }
        "logical_divide" => {
            for _ in 0..n {
                keep(logical_divide(black_box(&d1), black_box(&t)));
            }
        }
        "zipped_divide" => {
            for _ in 0..n {
                keep(zipped_divide(black_box(&d1), black_box(&t)));
            }
        }
        "blocked_product" => {
            for _ in 0..n {
                keep(blocked_product(black_box(&p1), black_box(&p2)));
            }
        }
        "parse" => {
            for _ in 0..n {
                keep(black_box(TEXT).parse::<Layout>());
            }
        }
        "print" => {
            for _ in 0..n {
                buf.clear();
                write!(buf, "{}", black_box(&l)).unwrap();
                black_box(buf.len());
            }
        }
        "parse+print" => {
            for _ in 0..n {
                let l: Layout = black_box(TEXT).parse().unwrap();
                buf.clear();
                write!(buf, "{l}").unwrap();
                black_box(buf.len());
            }
        }
        "parse-scalar" => {
            for _ in 0..n {
                // The fixed cost of a parse: the smallest layout's text.
                keep(black_box("4:1").parse::<Layout>());
            }
        }
        "coalesce" => {
            for _ in 0..n {
                keep(coalesce(black_box(&c1)));
            }
        }
        "static_composition" => {
            for _ in 0..n {
                keep(cute_static::composition(read(&sa), read(&sb)));
            }
        }
        "static_logical_divide" => {
            for _ in 0..n {
                keep(cute_static::logical_divide(read(&sl), cute_static::prelude::tile!(128:1, 64:1)));
            }
        }
        _ => panic!("op"),
    }
}
