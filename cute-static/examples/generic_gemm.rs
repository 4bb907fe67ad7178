//! A kernel generic over its layouts, written with public bounds only:
//! `C += A·Bᵀ` on one `(32,32,8·k)` block, with `A (32,8,k)`, `B (32,8,k)`
//! and `C (32,32)` tensors of *any* layouts (column-major, row-major,
//! static or with run-time strides), and the block's thread and
//! shared-memory layouts as parameters. Like CuTe's `gemm_device` templated
//! on its layouts, the kernel names what it needs of each layout:
//!
//! * [`ThreadLayout`]: a thread layout (`Thr` of `local_partition`);
//! * [`PartitionBy<Thr>`](PartitionBy): a layout that thread layout
//!   partitions, and [`Part<L, Thr>`](Part) the layout of a thread's part;
//! * [`SliceBy<C>`](SliceBy): a layout the slice coordinate `C` slices
//!   (the k-tiles);
//! * [`ReadTensor`] / [`WriteTensor`]: what the parts are read and written
//!   through, and [`Mma<A, B>`](Mma) what `gemm` multiplies.
//!
//! `cargo run -p cute-static --example generic_gemm` runs it on column-
//! and row-major operands and checks C against a naive loop. The ui-tests
//! compile and run this file as it is (`ui-tests/tests/ui.rs`), so its
//! bounds stay public.

use cute_static::prelude::*;

/// The block's static tile sizes.
const BM: usize = 32;
const BN: usize = 32;
const BK: usize = 8;

/// One copy thread's part of a `(BM,BK)` k-tile into shared memory, for
/// any source layout the copy thread layout partitions.
fn copy_part<'a, 'b, LS, LD, Thr>(src: Tensor<&'a [f32], LS>, dst: Tensor<&'b mut [f32], LD>, thr: Thr, tid: usize)
where
    Thr: ThreadLayout,
    LS: PartitionBy<Thr>,
    LD: PartitionBy<Thr>,
    Tensor<&'a [f32], Part<LS, Thr>>: ReadTensor<Elem = f32>,
    Tensor<&'b mut [f32], Part<LD, Thr>>: WriteTensor<Elem = f32>,
{
    copy(&local_partition(src, thr, tid), &mut local_partition(dst, thr, tid));
}

/// The thread layouts and the shared-memory layout of a block: CuTe's
/// `gemm_device` takes them as template arguments, as this takes them as
/// type parameters.
#[derive(Clone, Copy)]
struct Config<TA, TC, TR, SL> {
    /// Copy threads (`32` of them: `(8,4)`, 8 elements each).
    t_copy: TA,
    /// Compute threads (`(4,4)`, an `(8,8)` of C each).
    t_c: TC,
    /// A compute thread's rows of sA or sB (`(4,1)`).
    t_rows: TR,
    /// The `(BM,BK)` shared tiles.
    s_layout: SL,
}

/// `C += A·Bᵀ` for one k-tile of a block (`A`, `B` of `(BM,BK)`, `C` of
/// `(BM,BN)`), generic over the layouts of A, B and C and over the block's
/// thread and shared-memory layouts.
fn gemm_ktile<LA, LB, LC, TA, TC, TR, SL>(
    a: Tensor<&[f32], LA>,
    b: Tensor<&[f32], LB>,
    c: &mut Tensor<&mut [f32], LC>,
    cfg: Config<TA, TC, TR, SL>,
) where
    TA: ThreadLayout,
    TC: ThreadLayout,
    TR: ThreadLayout,
    // A, B, the shared tiles and C, partitioned by the thread layouts; the
    // parts read, written and multiplied as tensors.
    LA: PartitionBy<TA>,
    LB: PartitionBy<TA>,
    SL: PartitionBy<TA> + PartitionBy<TR> + TensorLayout,
    LC: PartitionBy<TC>,
    for<'a> Tensor<&'a [f32], Part<LA, TA>>: ReadTensor<Elem = f32>,
    for<'a> Tensor<&'a [f32], Part<LB, TA>>: ReadTensor<Elem = f32>,
    for<'a> Tensor<&'a mut [f32], Part<SL, TA>>: WriteTensor<Elem = f32>,
    for<'a, 'b> Tensor<&'a mut [f32], Part<LC, TC>>:
        Mma<Tensor<&'b [f32], Part<SL, TR>>, Tensor<&'b [f32], Part<SL, TR>>>,
{
    let Config { t_copy, t_c, t_rows, s_layout } = cfg;
    let (mut sa, mut sb) = ([0f32; BM * BK], [0f32; BN * BK]);
    for tid in 0..t_copy.threads() {
        copy_part(a, make_tensor(&mut sa[..], s_layout), t_copy, tid);
        copy_part(b, make_tensor(&mut sb[..], s_layout), t_copy, tid);
    }
    let (sa, sb) = (make_tensor(&sa[..], s_layout), make_tensor(&sb[..], s_layout));
    for tid in 0..t_c.threads() {
        // Compute thread (tm, tn): rows tm of sA, rows tn of sB, its (8,8) of C.
        let (tm, tn) = (tid % t_rows.threads(), tid / t_rows.threads());
        let mut part = local_partition(c.view_mut(), t_c, tid);
        gemm(&local_partition(sa, t_rows, tm), &local_partition(sb, t_rows, tn), &mut part);
    }
}

/// The k-tile `kt` of a `(BLK,BK,k)` tensor's layout.
type KTile<L> = <L as SliceBy<(Underscore, Underscore, usize)>>::Output;

/// `C += A·Bᵀ` for a block: every k-tile of the `(BM,BK,k)` tensors A
/// and B, generic over their layouts as [`gemm_ktile`] is.
fn gemm_block<LA, LB, LC, TA, TC, TR, SL>(
    a: Tensor<&[f32], LA>,
    b: Tensor<&[f32], LB>,
    mut c: Tensor<&mut [f32], LC>,
    cfg: Config<TA, TC, TR, SL>,
    k_tiles: usize,
) where
    LA: SliceBy<(Underscore, Underscore, usize)>,
    LB: SliceBy<(Underscore, Underscore, usize)>,
    TA: ThreadLayout,
    TC: ThreadLayout,
    TR: ThreadLayout,
    KTile<LA>: PartitionBy<TA>,
    KTile<LB>: PartitionBy<TA>,
    SL: PartitionBy<TA> + PartitionBy<TR> + TensorLayout,
    LC: PartitionBy<TC>,
    for<'a> Tensor<&'a [f32], Part<KTile<LA>, TA>>: ReadTensor<Elem = f32>,
    for<'a> Tensor<&'a [f32], Part<KTile<LB>, TA>>: ReadTensor<Elem = f32>,
    for<'a> Tensor<&'a mut [f32], Part<SL, TA>>: WriteTensor<Elem = f32>,
    for<'a, 'b> Tensor<&'a mut [f32], Part<LC, TC>>:
        Mma<Tensor<&'b [f32], Part<SL, TR>>, Tensor<&'b [f32], Part<SL, TR>>>,
{
    for kt in 0..k_tiles {
        gemm_ktile(a.slice((__, __, kt)), b.slice((__, __, kt)), &mut c, cfg);
    }
}

fn main() {
    let k = 24;
    let a_data: Vec<f32> = (0..BM * k).map(|x| ((x * 7 + 3) % 13) as f32 - 6.0).collect();
    let b_data: Vec<f32> = (0..BN * k).map(|x| ((x * 5 + 1) % 17) as f32 - 8.0).collect();
    // (BM,BK,k): column-major A and B, k-tiles along the last mode.
    let a_col = make_tensor(&a_data[..], layout!((32, 8, {k / 8}):(1, 32, 256)));
    let b_col = make_tensor(&b_data[..], layout!((32, 8, {k / 8}):(1, 32, 256)));
    // The same matrices read row-major: A(i,p) at p + k·i.
    let a_row = make_tensor(&a_data[..], layout!((32, 8, {k / 8}):({k}, 1, 8)));
    let mut c1 = [0f32; BM * BN];
    let mut c2 = [0f32; BM * BN];
    let cfg = Config {
        t_copy: layout!((8, 4):(1, 8)),
        t_c: layout!((4, 4):(1, 4)),
        t_rows: layout!((4, 1):(1, 0)),
        s_layout: layout!((32, 8):(1, 32)),
    };
    // The same generic kernel for each combination of layouts.
    gemm_block(a_col, b_col, make_tensor(&mut c1[..], layout!((32, 32):(1, 32))), cfg, k / BK);
    gemm_block(a_row, b_col, make_tensor(&mut c2[..], layout!((32, 32):(32, 1))), cfg, k / BK);
    for i in 0..BM {
        for j in 0..BN {
            let want1: f32 = (0..k).map(|p| a_data[i + BM * p] * b_data[j + BN * p]).sum();
            let want2: f32 = (0..k).map(|p| a_data[p + k * i] * b_data[j + BN * p]).sum();
            assert_eq!(c1[i + BM * j], want1, "column-major C({i},{j})");
            assert_eq!(c2[j + BN * i], want2, "row-major C({i},{j})");
        }
    }
    println!(
        "C = A·Bᵀ on one 32×32×{k} block, generic over the layouts: column- and row-major agree with the naive loop"
    );
}
