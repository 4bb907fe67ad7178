//! CuTe's `sgemm_1` tutorial kernel on the CPU, written with cute-static
//! tensors: `C = A·Bᵀ` for column-major `A (M,K)`, `B (N,K)`, `C (M,N)`
//! with run-time `M`, `N`, `K`.
//!
//! The structure is the tutorial's: a CTA tiler `(128,128,8)`; for each
//! block `(bx,by)`, `gA = local_tile(mA, tiler, (bx,by,_), Step<_1,X,_1>)`
//! (and the same for B and C); shared-memory tiles `sA`, `sB`: arrays
//! viewed as `(128,8)` tensors (CuTe's `make_tensor` over shared memory);
//! a `32×8` thread layout partitioning the copies into them and a `16×16`
//! one partitioning C; per-thread register accumulators `rC` (one zeroed
//! heap buffer viewed as an `(8,8,256)` tensor, every thread's `(8,8)` part,
//! as the hand-written kernel keeps them).
//! Threads run on `std::thread::scope`: the block's C tile is split by
//! `partition_mut` into the 256 per-thread parts, which are sent to the
//! workers (each worker plays a share of the 256 CUDA threads, and fills its
//! own copy of the shared tiles, which stands in for `__syncthreads`).
//!
//! Ragged sizes: predicates from an identity tensor tiled exactly like the
//! data keep every read and write inside `(M,N,K)` (CuTe's predication). A
//! Rust tensor's view must lie inside its storage, so the storage holds the
//! whole tiled domain: leading dimensions rounded up to the 128-tile and K
//! to the 8-tile ([`Padded`]); the padding is never read (predicated) nor
//! written.
//!
//! `cargo run --release -p cute-static --example sgemm` multiplies
//! 1000×1000×1000 and checks every element against a naive triple loop.

use cute_static::prelude::*;

/// The CTA tile `(BLK_M, BLK_N, BLK_K)`.
pub const BM: usize = 128;
/// See [`BM`].
pub const BN: usize = 128;
/// See [`BM`].
pub const BK: usize = 8;

/// A column-major matrix in storage padded to whole tiles.
pub struct Padded {
    /// Rows, columns.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Leading dimension (rows rounded up to `row_tile`).
    pub ld: usize,
    /// The storage, `ld × round_up(cols, col_tile)` elements.
    pub data: Vec<f32>,
}

impl Padded {
    /// A `rows × cols` matrix from `f(i, j)`, padded to `row_tile × col_tile` tiles.
    pub fn new(rows: usize, cols: usize, row_tile: usize, col_tile: usize, f: impl Fn(usize, usize) -> f32) -> Padded {
        let ld = rows.div_ceil(row_tile) * row_tile;
        let cols_p = cols.div_ceil(col_tile) * col_tile;
        let mut data = vec![0.0; ld * cols_p];
        for j in 0..cols {
            for i in 0..rows {
                data[i + ld * j] = f(i, j);
            }
        }
        Padded { rows, cols, ld, data }
    }

    /// Element `(i, j)`.
    pub fn get(&self, i: usize, j: usize) -> f32 {
        self.data[i + self.ld * j]
    }
}

/// `C = A·Bᵀ` with tensors: `A` is `(M,K)`, `B` is `(N,K)`, `C` is `(M,N)`,
/// all column-major and padded ([`Padded`]), on `workers` threads.
pub fn sgemm_tensor(a: &Padded, b: &Padded, c: &mut Padded, workers: usize) {
    let (m, n, k) = (c.rows, c.cols, a.cols);
    assert!(a.rows == m && b.rows == n && b.cols == k, "operand shapes");
    // Full tensors of run-time shape and leading dimension.
    let m_a = make_tensor(&a.data[..], make_layout((m, k), (Int::<1>::new(), a.ld)));
    let m_b = make_tensor(&b.data[..], make_layout((n, k), (Int::<1>::new(), b.ld)));
    let mut m_c = make_tensor(&mut c.data[..], make_layout((m, n), (Int::<1>::new(), c.ld)));
    // Identity tensors: the coordinates of A, B and C, for predication.
    let c_a = make_identity_tensor(make_shape((m, k)));
    let c_b = make_identity_tensor(make_shape((n, k)));
    let c_c = make_identity_tensor(make_shape((m, n)));

    let cta_tiler = shape!(128, 128, 8); // (BLK_M, BLK_N, BLK_K)
    let (keep, x) = (Int::<1>::new(), X);
    for by in 0..n.div_ceil(BN) {
        for bx in 0..m.div_ceil(BM) {
            let blk = crd!(bx, by, _);
            // This block's tiles: (BLK_M,BLK_K,k), (BLK_N,BLK_K,k), (BLK_M,BLK_N).
            let g_a = local_tile_proj(m_a, cta_tiler, blk, (keep, x, keep));
            let g_b = local_tile_proj(m_b, cta_tiler, blk, (x, keep, keep));
            let c_ga = local_tile_proj(c_a, cta_tiler, blk, (keep, x, keep));
            let c_gb = local_tile_proj(c_b, cta_tiler, blk, (x, keep, keep));
            let g_c = local_tile_proj(m_c.view_mut(), cta_tiler, crd!(bx, by, _), (keep, keep, x));
            let c_gc = local_tile_proj(c_c, cta_tiler, crd!(bx, by, _), (keep, keep, x));
            // The 16×16 threads' parts of C: disjoint, so they may go to threads.
            let t_c = layout!((16, 16):(1, 16));
            let parts = g_c.partition_mut(t_c).expect("a bijective thread layout partitions C disjointly");
            let per_worker = parts.len().div_ceil(workers);
            let mut parts = parts.into_iter().enumerate();
            std::thread::scope(|s| {
                for _ in 0..workers {
                    let mine: Vec<_> = parts.by_ref().take(per_worker).collect();
                    s.spawn(move || {
                        // Shared memory (BLK_M,BLK_K) and (BLK_N,BLK_K), column-major:
                        // this worker's copy, viewed as sA and sB in each phase
                        // (writable while copying, shared while multiplying).
                        let s_layout = layout!((128, 8):(1, 128));
                        let (mut smem_a, mut smem_b) = ([0f32; 1024], [0f32; 1024]);
                        // The register accumulators rC of this worker's threads:
                        // one (8,8) tile per thread, the thread its last mode. On
                        // the heap and zeroed there, as the hand-written kernel's
                        // (on the stack beside sA and sB it measured ~5% slower, and
                        // a boxed fragment is built on the stack and then copied).
                        let mut rc_data = vec![0f32; 64 * 256];
                        let mut r_c = make_tensor(&mut rc_data[..], layout!((8, 8, 256):(1, 8, 64)));
                        let t_a = layout!((32, 8):(1, 32));
                        for kt in 0..k.div_ceil(BK) {
                            // Copy k-tile kt into sA and sB, zero outside (M,K) and (N,K):
                            // copy-thread tid's (4,1) parts of k-tile kt and of its
                            // coordinates (sgemm_1's tAgA, tAcA, tBgB, tBcB at kt).
                            let mut s_a = make_tensor(&mut smem_a[..], s_layout);
                            let mut s_b = make_tensor(&mut smem_b[..], s_layout);
                            let (g_ak, c_ak) = (g_a.slice(crd!(_, _, kt)), c_ga.slice(crd!(_, _, kt)));
                            let (g_bk, c_bk) = (g_b.slice(crd!(_, _, kt)), c_gb.slice(crd!(_, _, kt)));
                            for tid in 0..t_a.size() {
                                let (ag, ac) = (local_partition(g_ak, t_a, tid), local_partition(c_ak, t_a, tid));
                                let mut t_as = local_partition(s_a.view_mut(), t_a, tid);
                                for i in 0..t_as.size() {
                                    t_as[i] = if elem_less(ac.at(i), (m, k)) { ag[i] } else { 0.0 };
                                }
                                let (bg, bc) = (local_partition(g_bk, t_a, tid), local_partition(c_bk, t_a, tid));
                                let mut t_bs = local_partition(s_b.view_mut(), t_a, tid);
                                for i in 0..t_bs.size() {
                                    t_bs[i] = if elem_less(bc.at(i), (n, k)) { bg[i] } else { 0.0 };
                                }
                            }
                            // Each thread: rC += its rows of sA × its columns of sB
                            // (CuTe's Step<_1,X> and Step<X,_1> of the 16×16 threads).
                            let (s_a, s_b) = (make_tensor(&smem_a[..], s_layout), make_tensor(&smem_b[..], s_layout));
                            let mut rc = r_c.view_mut();
                            for (j, (tid, _)) in mine.iter().enumerate() {
                                let t_csa = local_partition_proj(s_a, t_c, *tid, (keep, X));
                                let t_csb = local_partition_proj(s_b, t_c, *tid, (X, keep));
                                gemm(&t_csa, &t_csb, &mut rc.view_mut().slice(crd!(_, _, j)));
                            }
                        }
                        // C = rC where the element is inside (M,N).
                        let rc = r_c.view();
                        for (j, (tid, mut part)) in mine.into_iter().enumerate() {
                            let (acc, t_cc) = (rc.slice(crd!(_, _, j)), local_partition(c_gc, t_c, tid));
                            for i in 0..part.size() {
                                if elem_less(t_cc.at(i), (m, n)) {
                                    part[i] = acc[i];
                                }
                            }
                        }
                    });
                }
            });
        }
    }
}

fn main() {
    let (m, n, k) = (1000, 1000, 1000);
    let a = Padded::new(m, k, BM, BK, |i, j| ((i * 7 + j * 3) % 13) as f32 - 6.0);
    let b = Padded::new(n, k, BN, BK, |i, j| ((i * 5 + j * 11) % 17) as f32 - 8.0);
    let mut c = Padded::new(m, n, BM, BN, |_, _| 0.0);
    let workers = std::thread::available_parallelism().map_or(2, |p| p.get()).min(8);
    let t = std::time::Instant::now();
    sgemm_tensor(&a, &b, &mut c, workers);
    let dt = t.elapsed();
    // The naive triple loop (column-major friendly order; the sums are
    // exact: small integers).
    let mut want = vec![0f32; m * n];
    for j in 0..n {
        for p in 0..k {
            let bjp = b.get(j, p);
            for i in 0..m {
                want[i + m * j] += a.get(i, p) * bjp;
            }
        }
    }
    let mut max_err = 0f32;
    for j in 0..n {
        for i in 0..m {
            max_err = max_err.max((c.get(i, j) - want[i + m * j]).abs());
        }
    }
    println!("C = A·Bᵀ, M = N = K = {m}, tiles (128,128,8), 16×16 threads on {workers} workers");
    println!("C(0,0) = {}, C(999,999) = {}", c.get(0, 0), c.get(999, 999));
    println!("max |C - naive| = {max_err}");
    println!(
        "time: {:.1} ms ({:.2} GFLOP/s)",
        dt.as_secs_f64() * 1e3,
        2.0 * (m * n * k) as f64 / dt.as_secs_f64() / 1e9
    );
    assert_eq!(max_err, 0.0, "the tensor kernel disagrees with the naive loop");
}
