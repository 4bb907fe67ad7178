//! CuTe's `sgemm_2`-style kernel on the CPU, written with cute-static:
//! `C = A·Bᵀ` for column-major `A (M,K)`, `B (N,K)`, `C (M,N)` with
//! run-time `M`, `N`, `K` and leading dimensions, on the caller's own
//! buffers (no padded copies).
//!
//! The structure is CuTe's tutorial kernel:
//!
//! * a CTA tiler `(128,128,8)`; block `(bx,by)` takes `gA =
//!   local_tile(mA, tiler, (bx,by,_), Step<_1,X,_1>)` (and the same for B
//!   and C). The matrices are [`Predicated`](cute_static::Predicated)
//!   views, so the tiles at the ragged edges may stick out of the data;
//!   interior tiles become ordinary tensors with one check per tile
//!   (`inside()`), edge tiles are read and written through predicated
//!   copies (zero-filled loads, stores of the elements that exist);
//! * shared tiles `sA`, `sB` `(128,8)`, filled cooperatively: in a write
//!   phase each of the 256 copy threads of a `32×8` thread layout copies
//!   its part, then `sync()` (CuTe's `__syncthreads()`), then in the read
//!   phase each of the 256 compute threads of a `16×16` layout multiplies
//!   its rows of `sA` by its columns of `sB` into its register fragment
//!   `rC` (sized by its layout), then `sync()` before the next copy;
//! * the epilogue stores each thread's `rC` into its part of the C tile.
//!
//! A [`Block`](cute_static::Block) here is one OS thread playing the 256
//! threads of a CUDA block (the shared tiles' `part_mut_at`), and blocks
//! are spread over `workers` OS threads, each taking whole column panels of
//! C. `cargo run --release -p cute-static --example sgemm` multiplies
//! 1000×777×333 and checks every element against a naive loop.

use cute_static::prelude::*;

/// The CTA tile `(BLK_M, BLK_N, BLK_K)`.
pub const BM: usize = 128;
/// See [`BM`].
pub const BN: usize = 128;
/// See [`BM`].
pub const BK: usize = 8;

/// The sizes of `C = A·Bᵀ` and the leading dimensions of the caller's
/// column-major buffers: `A` is `m×k`, `B` is `n×k`, `C` is `m×n`.
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    /// Rows of A and C.
    pub m: usize,
    /// Rows of B, columns of C.
    pub n: usize,
    /// Columns of A and B.
    pub k: usize,
    /// Leading dimension of A (at least `m`).
    pub lda: usize,
    /// Leading dimension of B (at least `n`).
    pub ldb: usize,
    /// Leading dimension of C (at least `m`).
    pub ldc: usize,
}

/// `C = A·Bᵀ` on `workers` OS threads, each running blocks over whole
/// column panels of C.
///
/// # Panics
///
/// When a buffer is too short for its matrix (`make_tensor`'s check), or
/// `k` is 0 (a layout's extents are positive).
pub fn sgemm(d: Dims, a: &[f32], b: &[f32], c: &mut [f32], workers: usize) {
    for_each_panel(d, c, workers, |by, panel| sgemm_panel(d, a, b, by, panel));
}

/// Runs `f(by, panel)` for every column panel of C (`BN` columns, a
/// disjoint `&mut` slice each, so the blocks of different panels may run
/// on different OS threads), the panels spread over `workers` OS threads
/// (on the calling thread for one worker).
pub fn for_each_panel(d: Dims, c: &mut [f32], workers: usize, f: impl Fn(usize, &mut [f32]) + Sync) {
    if d.m == 0 || d.n == 0 {
        return;
    }
    let panels: Vec<(usize, &mut [f32])> = c.chunks_mut(d.ldc * BN).enumerate().collect();
    let workers = workers.clamp(1, panels.len());
    if workers == 1 {
        for (by, panel) in panels {
            f(by, panel);
        }
        return;
    }
    let mut shares: Vec<Vec<(usize, &mut [f32])>> = (0..workers).map(|_| Vec::new()).collect();
    for (i, p) in panels.into_iter().enumerate() {
        shares[i % workers].push(p);
    }
    let f = &f;
    std::thread::scope(|s| {
        for share in shares {
            s.spawn(move || {
                for (by, panel) in share {
                    f(by, panel);
                }
            });
        }
    });
}

/// A compute thread's accumulators: a fragment shaped like its `(8,8)`
/// part of the C tile, its storage sized by the type.
type Acc = Fragment<f32, Layout![(8, 8):(1, 8)]>;

/// The copy threads' parts of one k-tile `$g` (a `(BLK,BLK_K)` predicated
/// view) into the shared tile `$s`: unchecked when the k-tile lies inside
/// the matrix (one check for the tile), zero-filled outside it otherwise.
macro_rules! copy_tile {
    ($g:expr, $s:expr, $thr:expr, $thread:expr) => {{
        let (g, q, me) = ($g, $s.parts_per_thread(), $thread.idx());
        match g.inside() {
            Ok(t) => {
                for (j, mut part) in $s.parts_mut($thread).enumerate() {
                    copy(&local_partition(t, $thr, me * q + j), &mut part);
                }
            }
            Err(p) => {
                for (j, mut part) in $s.parts_mut($thread).enumerate() {
                    p.local_partition($thr, me * q + j).copy_to(&mut part, 0.0);
                }
            }
        }
    }};
}

/// The blocks `(bx, by)` of one column panel of C (columns `by·BN ..`).
fn sgemm_panel(d: Dims, a: &[f32], b: &[f32], by: usize, panel: &mut [f32]) {
    let Dims { m, n, k, lda, ldb, ldc } = d;
    let one = Int::<1>::new();
    let ncols = (n - by * BN).min(BN);
    // The full operands, and this panel of C, as predicated views.
    let ma = make_tensor(a, make_layout((m, k), (one, lda))).predicated();
    let mb = make_tensor(b, make_layout((n, k), (one, ldb))).predicated();
    let mut mc = make_tensor(panel, make_layout((m, ncols), (one, ldc))).predicated();

    let cta_tiler = shape!(128, 128, 8); // (BLK_M, BLK_N, BLK_K)
    let (t_a, t_c) = (layout!((32, 8):(1, 32)), layout!((16, 16):(1, 16))); // copy and compute threads
    let s_layout = layout!((128, 8):(1, 128));
    let (mut smem_a, mut smem_b) = ([0f32; BM * BK], [0f32; BN * BK]);
    let mut block = Block::new(1);
    let s_a = block.shared_tile(&mut smem_a[..], s_layout, t_a).expect("the copy threads' parts are disjoint");
    let s_b = block.shared_tile(&mut smem_b[..], s_layout, t_a).expect("the copy threads' parts are disjoint");
    // The accumulators rC of the compute threads each OS thread plays.
    let q_c = t_c.size() / block.threads();
    let mut accs: Vec<std::sync::Mutex<Vec<Acc>>> = (0..block.threads())
        .map(|_| {
            std::sync::Mutex::new((0..q_c).map(|_| make_fragment_like::<f32, _>(layout!((8, 8):(1, 8)))).collect())
        })
        .collect();

    for bx in 0..m.div_ceil(BM) {
        let g_a = ma.local_tile_proj(cta_tiler, crd!(bx, by, _), (one, X, one)); // (BLK_M,BLK_K,k)
        let g_b = mb.local_tile_proj(cta_tiler, crd!(bx, by, _), (X, one, one)); // (BLK_N,BLK_K,k)
        block.run(|thread| {
            let me = thread.idx();
            let mut r_c = accs[me].lock().expect("one OS thread per accumulator list");
            for acc in r_c.iter_mut() {
                clear(acc);
            }
            for kt in 0..k.div_ceil(BK) {
                // Write phase: the copy threads' parts of sA and sB.
                copy_tile!(g_a.slice(crd!(_, _, kt)), s_a, t_a, thread);
                copy_tile!(g_b.slice(crd!(_, _, kt)), s_b, t_a, thread);
                thread.sync();
                // Read phase: rC += sA(rows of the thread, :) · sB(columns of the thread, :)ᵀ.
                let (sa, sb) = (s_a.read(thread), s_b.read(thread));
                for (j, acc) in r_c.iter_mut().enumerate() {
                    let tid = me * q_c + j;
                    let t_csa = local_partition_proj(sa, t_c, tid, (one, X)); // (8,BLK_K)
                    let t_csb = local_partition_proj(sb, t_c, tid, (X, one)); // (8,BLK_K)
                    gemm(&t_csa, &t_csb, &mut *acc);
                }
                thread.sync();
            }
        });
        // Epilogue: each compute thread's rC into its part of the C tile,
        // unchecked inside (M,N), only the elements that exist at the edge.
        let mut g_c = mc.view_mut().local_tile_proj(cta_tiler, crd!(bx, 0usize, _), (one, one, X)); // (BLK_M,BLK_N)
        for (w, list) in accs.iter_mut().enumerate() {
            let list = list.get_mut().expect("no accumulator list is poisoned");
            for (j, acc) in list.iter().enumerate() {
                match g_c.view_mut().local_partition(t_c, w * q_c + j).inside() {
                    Ok(mut t) => copy(acc, &mut t),
                    Err(mut p) => p.copy_from(acc),
                }
            }
        }
    }
}

fn main() {
    let (m, n, k) = (1000, 777, 333);
    let d = Dims { m, n, k, lda: m, ldb: n, ldc: m };
    let a: Vec<f32> = (0..m * k).map(|x| ((x * 7 + 3) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..n * k).map(|x| ((x * 5 + 1) % 17) as f32 - 8.0).collect();
    let mut c = vec![0f32; m * n];
    let workers = std::thread::available_parallelism().map_or(2, |p| p.get()).min(8);
    let t = std::time::Instant::now();
    sgemm(d, &a, &b, &mut c, workers);
    let dt = t.elapsed();
    // The naive loop (the sums are exact: small integers).
    let mut want = vec![0f32; m * n];
    for j in 0..n {
        for p in 0..k {
            let bjp = b[j + n * p];
            for i in 0..m {
                want[i + m * j] += a[i + m * p] * bjp;
            }
        }
    }
    let max_err = c.iter().zip(&want).map(|(x, y)| (x - y).abs()).fold(0f32, f32::max);
    println!("C = A·Bᵀ, M×N×K = {m}×{n}×{k}, tiles (128,128,8), on {workers} workers");
    println!("max |C - naive| = {max_err}");
    println!(
        "time: {:.1} ms ({:.2} GFLOP/s)",
        dt.as_secs_f64() * 1e3,
        2.0 * (m * n * k) as f64 / dt.as_secs_f64() / 1e9
    );
    assert_eq!(max_err, 0.0, "the kernel disagrees with the naive loop");
}
