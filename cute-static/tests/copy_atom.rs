//! Copy atoms and tiled copies: CuTe's own print of the GPU atoms, the
//! partitions of a tiled copy against CuTe's `get_layoutS_TV` (computed as
//! CuTe does by cute-dynamic), every element of a tile copied once, and a
//! broadcast atom.

use cute_static::prelude::*;
use cute_static::typenum::{U1, U4, U8};
use cute_static::{CopyBroadcast, CopyVec, make_tiled_copy};

const GOLDEN: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden/cute_atoms.txt"));

fn golden_block(title: &str) -> String {
    let start = GOLDEN.find(&format!("== {title}\n")).unwrap_or_else(|| panic!("no golden block {title}"));
    let body = GOLDEN[start..].split_once('\n').unwrap().1;
    body.split("\n== ").next().unwrap().trim_end().to_string() + "\n"
}

#[test]
fn gpu_copy_atoms_print_as_cute_prints_them() {
    use cute_static::{SM75_U32x4_LDSM_N, SM80_CP_ASYNC_CACHEALWAYS, copy_atom_text};
    assert_eq!(copy_atom_text::<SM75_U32x4_LDSM_N>(16), golden_block("Copy_Atom<SM75_U32x4_LDSM_N, half_t>"));
    assert_eq!(
        copy_atom_text::<SM80_CP_ASYNC_CACHEALWAYS>(16),
        golden_block("Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>")
    );
    // CuTe's UniversalCopy<uint128_t> of half_t: 8 values a call.
    assert_eq!(copy_atom_text::<CopyVec<u16, U8>>(16), golden_block("Copy_Atom<UniversalCopy<uint128_t>, half_t>"));
}

#[test]
fn tiled_copy_layouts_and_partitions_are_cutes() {
    // CuTe: make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{},
    // Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{}).
    let copy = make_tiled_copy(CopyVec::<f32, U4>::new(), layout!((32,8):(1,32)), layout!((4,1):(1,0)));
    let g = golden_block(
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})",
    );
    assert!(g.contains(&format!("TiledLayout_TV: {}\n", copy.layout_tv())), "{g}");
    assert!(g.contains(&format!("Tiler_MN:       {}\n", copy.tiler_mn().to_string_cute())), "{g}");
    // Thread t's values of the (128,8) tile, in its part's order, are
    // CuTe's get_layoutS_TV(t, v).
    let atom = cute_dynamic::CopyAtom::universal(128, 32).unwrap();
    let dynamic =
        cute_dynamic::make_tiled_copy(&atom, &"(32,8):(1,32)".parse().unwrap(), &"(4,1):(1,0)".parse().unwrap())
            .unwrap();
    let cute: cute_dynamic::Layout =
        g.lines().find_map(|l| l.strip_prefix("get_layoutS_TV: ")).unwrap().parse().unwrap();
    assert_eq!(dynamic.layout_s_tv(), &cute);
    let idx: Vec<i64> = (0..128 * 8).collect();
    let mut seen = vec![0; 128 * 8];
    for t in 0..copy.size() {
        let part = copy.get_slice(t).partition_s(make_tensor(&idx[..], layout!((128,8):(1,128))));
        assert_eq!(part.size(), 4);
        for x in 0..part.size() {
            assert_eq!(part[x], dynamic.layout_s_tv().eval(t as i64 + 256 * x as i64).unwrap(), "thread {t} value {x}");
            seen[part[x] as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&s| s == 1), "every element of the tile once");
}

#[test]
fn a_tiled_copy_of_a_larger_tile_copies_every_element_once() {
    // A (64,16) tile of a column-major matrix with a padded leading
    // dimension, copied by 32x8 threads of 4 rows each, into a compact one.
    let ld = 70usize;
    let src: Vec<f32> = (0..ld * 16).map(|i| if i % ld < 64 { i as f32 } else { f32::NAN }).collect();
    let mut dst = vec![-1f32; 64 * 16];
    let copy = make_tiled_copy(CopyVec::<f32, U4>::new(), layout!((16,8):(1,16)), layout!((4,1):(1,0)));
    for t in 0..copy.size() {
        let thr = copy.get_slice(t);
        let s = thr.partition_s(make_tensor(&src[..], layout!((64,16):(1,{ld}))));
        let mut d = thr.partition_d(make_tensor(&mut dst[..], layout!((64,16):(1,64))));
        copy.copy(&s, &mut d);
    }
    for j in 0..16 {
        for i in 0..64 {
            assert_eq!(dst[i + 64 * j], (i + ld * j) as f32, "({i},{j})");
        }
    }
}

#[test]
fn a_broadcast_atom_reads_one_value_for_its_group() {
    // Each thread's group of 4 destinations takes the first source value of
    // the group: the source side's partition has stride 0 inside a group.
    let copy = make_tiled_copy(CopyBroadcast::<f32, U4>::new(), layout!((2,1):(1,0)), layout!((4,1):(1,0)));
    let src: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let mut dst = vec![0f32; 8];
    for t in 0..2 {
        let thr = copy.get_slice(t);
        let s = thr.partition_s(make_tensor(&src[..], layout!((8,1):(1,8))));
        let mut d = thr.partition_d(make_tensor(&mut dst[..], layout!((8,1):(1,8))));
        copy.copy(&s, &mut d);
    }
    assert_eq!(dst, [0.0, 0.0, 0.0, 0.0, 4.0, 4.0, 4.0, 4.0]);
    let _ = U1::default();
}

#[test]
#[should_panic(expected = "not contiguous")]
fn a_vector_copy_into_a_strided_destination_is_refused() {
    let copy = make_tiled_copy(CopyVec::<f32, U4>::new(), layout!((1,1):(0,0)), layout!((4,1):(1,0)));
    let src = [0f32; 4];
    let mut dst = [0f32; 8];
    let thr = copy.get_slice(0);
    let s = thr.partition_s(make_tensor(&src[..], layout!((4,1):(1,4))));
    let mut d = thr.partition_d(make_tensor(&mut dst[..], layout!((4,1):(2,8))));
    copy.copy(&s, &mut d);
}

#[test]
fn a_tiled_copy_of_a_warp_atom_partitions_as_cute() {
    // CuTe: make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{},
    // Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{}): a warp loads a
    // (32,8) tile of half_t from shared memory; a lane's source values are
    // not a row of the tile (the tile is in the destination's coordinates).
    let copy = make_tiled_copy(cute_static::SM75_U32x4_LDSM_N, layout!((32,1):(1,0)), layout!((1,8):(0,1)));
    let g = golden_block(
        "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{})",
    );
    assert!(g.contains(&format!("TiledLayout_TV: {}\n", copy.layout_tv())), "{g}");
    let tv = |name: &str| -> cute_dynamic::Layout {
        g.lines().find_map(|l| l.strip_prefix(&format!("get_layout{name}_TV: "))).unwrap().parse().unwrap()
    };
    let (s_tv, d_tv) = (tv("S"), tv("D"));
    let idx: Vec<i64> = (0..32 * 8).collect();
    for t in 0..copy.size() {
        let thr = copy.get_slice(t);
        let s = thr.partition_s(make_tensor(&idx[..], layout!((32,8):(1,32))));
        let d = thr.partition_d(make_tensor(&idx[..], layout!((32,8):(1,32))));
        assert_eq!((s.size(), d.size()), (8, 8));
        for x in 0..8 {
            assert_eq!(s[x], s_tv.eval(t as i64 + 32 * x as i64).unwrap(), "S: lane {t} value {x}");
            assert_eq!(d[x], d_tv.eval(t as i64 + 32 * x as i64).unwrap(), "D: lane {t} value {x}");
        }
    }
}

#[test]
fn a_tiled_copy_of_an_mmas_a_is_cutes() {
    use cute_static::{SM75_U32x4_LDSM_N, SM80_16x8x16_F32F16F16F32_TN, make_tiled_copy_a, make_tiled_mma};
    let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    let copy = make_tiled_copy_a(SM75_U32x4_LDSM_N, &mma);
    let g = golden_block(
        "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))",
    );
    assert!(g.contains(&format!("  Tiler_MN:       {}\n", copy.tiler_mn().to_string_cute())), "{g}");
    assert!(g.contains(&format!("  TiledLayout_TV: {}\n", copy.layout_tv())), "{g}");
    let tv = |name: &str| -> cute_dynamic::Layout {
        g.lines().find_map(|l| l.strip_prefix(&format!("get_layout{name}_TV: "))).unwrap().parse().unwrap()
    };
    let (s_tv, d_tv) = (tv("S"), tv("D"));
    let idx: Vec<i64> = (0..32 * 16).collect();
    let threads = copy.size();
    assert_eq!(threads, 128);
    for t in 0..threads {
        let thr = copy.get_slice(t);
        let s = thr.partition_s(make_tensor(&idx[..], layout!((32,16):(1,32))));
        let d = thr.partition_d(make_tensor(&idx[..], layout!((32,16):(1,32))));
        assert_eq!((s.size(), d.size()), (8, 8));
        for x in 0..8 {
            let at = (t + threads * x) as i64;
            assert_eq!(s[x], s_tv.eval(at).unwrap(), "S: thread {t} value {x}");
            assert_eq!(d[x], d_tv.eval(at).unwrap(), "D: thread {t} value {x}");
        }
    }
}

/// CuTe's pattern: a thread's A fragment (`partition_fragment_a` of the
/// MMA), filled through a copy of the MMA's A (`make_tiled_copy_a`) by
/// `copy(partition_s(tile), retile_d(fragment))`, holds what the MMA's
/// `partition_a` of the tile holds, value for value; retiling keeps the
/// fragment's offsets.
#[test]
fn a_fragment_filled_through_retile_d_holds_the_mmas_partition() {
    use cute_static::{FmaLanes, UniversalCopy, UniversalFma, make_tiled_copy_a, make_tiled_copy_b, make_tiled_mma};
    let tile_a: Vec<f32> = (0..16 * 4).map(|i| i as f32).collect();
    // One thread, 8 lanes along M: A fragments (8, 2, 4) of a (16,4) tile.
    let mma = make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)));
    let copy = make_tiled_copy_a(CopyVec::<f32, U8>::new(), &mma);
    let thr = mma.get_slice(0);
    let mut frg = thr.partition_fragment_a(&layout!((16,4):(1,16)));
    {
        let mut view = copy.get_slice(0).retile_d(frg.view_mut());
        assert_eq!(view.layout().to_string(), "((_8,_1),_2,_4):((_1,_0),_8,_16)");
        let src = copy.get_slice(0).partition_s(make_tensor(&tile_a[..], layout!((16,4):(1,16))));
        copy.copy(&src, &mut view);
    }
    let want = thr.partition_a(make_tensor(&tile_a[..], layout!((16,4):(1,16))));
    assert_eq!(frg.size(), want.size());
    for i in 0..want.size() {
        assert_eq!(frg[i], want[i], "value {i}");
    }
    // 32 threads of one FMA each over (4,8) atoms: every thread's B
    // fragment of a (16,2) tile of B, through a copy of B.
    let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,8,1):(1,4,0)));
    let copy = make_tiled_copy_b(UniversalCopy::<f32>::new(), &mma);
    let tile_b: Vec<f32> = (0..16 * 2).map(|i| 100.0 + i as f32).collect();
    for t in 0..mma.size() {
        let thr = mma.get_slice(t);
        let mut frg = thr.partition_fragment_b(&layout!((16,2):(1,16)));
        let offsets = |l: &dyn Fn(usize) -> usize, n: usize| {
            let mut o: Vec<usize> = (0..n).map(l).collect();
            o.sort();
            o
        };
        let before = frg.layout();
        let mut view = copy.get_slice(t).retile_d(frg.view_mut());
        let after = view.layout();
        assert_eq!(after.size(), before.size());
        assert_eq!(offsets(&|i| after.index(i), after.size()), offsets(&|i| before.index(i), before.size()));
        let src = copy.get_slice(t).partition_s(make_tensor(&tile_b[..], layout!((16,2):(1,16))));
        copy.copy(&src, &mut view);
        let want = thr.partition_b(make_tensor(&tile_b[..], layout!((16,2):(1,16))));
        for i in 0..want.size() {
            assert_eq!(frg[i], want[i], "thread {t} value {i}");
        }
    }
}

const RETILE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden/cute_retile.txt"));

/// The block of `cute_retile.txt` under `== title`.
fn retile_block(title: &str) -> &'static str {
    let start = RETILE.find(&format!("== {title}\n")).unwrap_or_else(|| panic!("no golden block {title}"));
    let body = RETILE[start..].split_once('\n').unwrap().1;
    body.split("\n== ").next().unwrap()
}

/// CuTe's retile of `input` in a block.
fn retiled_in(block: &str, input: &str) -> String {
    block
        .lines()
        .find_map(|l| {
            let l = l.strip_prefix("retile_D: ").or_else(|| l.strip_prefix("retile_S: "))?;
            l.strip_prefix(input)?.strip_prefix(" -> ").map(str::to_string)
        })
        .unwrap_or_else(|| panic!("no golden retile of {input}"))
}

/// Each fragment retiled by `$copy` (thread 0's `retile_d`) is what CuTe
/// C++ 4.2 prints in the golden block `$title`, which also has the copy's
/// tile and thread-value layout.
macro_rules! retiles_as_cute {
    ($copy:expr, $title:expr, [$($frg:expr),+ $(,)?]) => {{
        let copy = $copy;
        let block = retile_block($title);
        assert!(block.contains(&format!("Tiler_MN: {}\n", copy.tiler_mn().to_string_cute())), "{}", $title);
        assert!(block.contains(&format!("TiledLayout_TV: {}\n", copy.layout_tv())), "{}", $title);
        let data = [0u8; 1024];
        $({
            let frg = $frg;
            let input = frg.to_string();
            let got = copy.get_slice(0).retile_d(make_tensor(&data[..], frg)).layout().to_string();
            assert_eq!(got, retiled_in(block, &input), "{}: retile of {input}", $title);
        })+
    }};
}

/// CuTe's `TiledCopy::retile` (`retile_D`, `retile_S`) of fragments, for
/// tiled copies from thread and value layouts and from tiled MMAs
/// (`tests/golden/cute_retile.txt`, printed by CuTe itself); CuTe's rank-4
/// fragment and its negative stride are left out (this crate's retile takes
/// `(V, M, N)` fragments and static strides are unsigned).
#[test]
fn retile_of_fragments_is_cutes() {
    use cute_static::typenum::U2;
    use cute_static::{
        SM75_U32x4_LDSM_N, SM80_16x8x16_F32F16F16F32_TN, make_tiled_copy_a, make_tiled_copy_b, make_tiled_copy_c,
        make_tiled_mma, make_tiled_mma_permuted,
    };
    retiles_as_cute!(
        make_tiled_copy(CopyVec::<u16, U8>::new(), layout!((16,8):(8,1)), layout!((1,8):(0,1))),
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})",
        [
            layout!((8,1,1):(1,0,0)),
            layout!((8,2,2):(1,8,16)),
            layout!((8,4,1):(1,8,0)),
            layout!((8,1,3):(1,0,8)),
            layout!(((8,1),4,2):((1,0),8,32)),
            layout!((4,2,2):(1,4,8)),
            layout!((2,1,1):(1,0,0)),
            layout!((16,1,2):(1,0,16)),
            layout!((8,2,2):(1,16,32)),
            layout!((8,2,2):(1,16,8)),
            layout!(((2,4),2,2):((4,1),8,16)),
            layout!((8,2,2):(2,1,16)),
            layout!((8,2,2):(1,0,8)),
        ]
    );
    // With run-time leaves the retile is CuTe's function, but cute-static's
    // run-time algebra pads its modes in other places than CuTe does, so
    // the text differs: compare the functions.
    let copy = make_tiled_copy(CopyVec::<u16, U8>::new(), layout!((16,8):(8,1)), layout!((1,8):(0,1)));
    let block = retile_block(
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})",
    );
    let data = [0u8; 1024];
    for (frg, input) in [
        (layout!((8,{2},{3}):(1,8,{16})).to_dynamic(), "(_8,2,3):(_1,_8,16)"),
        (layout!((8,{2},{3}):(1,{24},{8})).to_dynamic(), "(_8,2,3):(_1,24,8)"),
    ] {
        let want: cute_dynamic::Layout = retiled_in(block, input).replace('_', "").parse().unwrap();
        let frg = cute_static::Layout::<
            (U8, cute_static::Dyn, cute_static::Dyn),
            (U1, cute_static::Dyn, cute_static::Dyn),
        >::try_from(&frg)
        .unwrap();
        let got = copy.get_slice(0).retile_d(make_tensor(&data[..], frg)).layout().to_dynamic();
        assert_eq!(got.size(), want.size(), "{input}");
        for i in 0..want.size() {
            assert_eq!(got.eval(i).unwrap(), want.eval(i).unwrap(), "{input} at {i}");
        }
    }
    let mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    let permuted = make_tiled_mma_permuted(
        SM80_16x8x16_F32F16F16F32_TN,
        layout!((2,2,1):(1,2,0)),
        (layout!(32:1), layout!(32:1), layout!(16:1)),
    );
    retiles_as_cute!(
        make_tiled_copy_a(SM75_U32x4_LDSM_N, &mma),
        "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))",
        [
            layout!(((2,2,2),1,1):((1,2,4),0,0)),
            layout!(((2,2,2),2,2):((1,2,4),8,16)),
            layout!(((2,2,2),4,4):((1,2,4),32,8)),
        ]
    );
    retiles_as_cute!(
        make_tiled_copy_a(SM75_U32x4_LDSM_N, &permuted),
        "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{}))",
        [layout!(((2,2,2),2,2):((1,2,4),8,16)), layout!(((2,2,2),4,4):((1,2,4),32,8))]
    );
    retiles_as_cute!(
        make_tiled_copy_b(SM75_U32x4_LDSM_N, &permuted),
        "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{}))",
        [layout!(((2,2),2,1):((1,2),4,0)), layout!(((2,2),4,2):((1,2),4,16)), layout!(((2,2),8,4):((1,2),16,4)),]
    );
    retiles_as_cute!(
        make_tiled_copy_b(CopyVec::<u16, U2>::new(), &mma),
        "make_tiled_copy_B(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))",
        [layout!(((2,2),1,1):((1,2),0,0)), layout!(((2,2),4,2):((1,2),4,16))]
    );
    retiles_as_cute!(
        make_tiled_copy_a(CopyVec::<u16, U2>::new(), &mma),
        "make_tiled_copy_A(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))",
        [layout!(((2,2,2),2,2):((1,2,4),8,16))]
    );
    retiles_as_cute!(
        make_tiled_copy_c(CopyVec::<f32, U1>::new(), &mma),
        "make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, float>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))",
        [layout!(((2,2),1,1):((1,2),0,0)), layout!(((2,2),2,4):((1,2),4,8))]
    );
    retiles_as_cute!(
        make_tiled_copy_c(CopyVec::<f32, U2>::new(), &mma),
        "make_tiled_copy_C(Copy_Atom<UniversalCopy<uint64_t>, float>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))",
        [layout!(((2,2),2,4):((1,2),4,8))]
    );
    retiles_as_cute!(
        make_tiled_copy(CopyVec::<f32, U1>::new(), layout!((32,8):(1,32)), layout!((4,1):(1,0))),
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})",
        [
            layout!((4,1,1):(1,0,0)),
            layout!((4,2,3):(1,4,8)),
            layout!((2,2,3):(1,2,4)),
            layout!((1,4,2):(0,1,4)),
            layout!((8,1,1):(1,0,0)),
            layout!((4,2,3):(3,1,2)),
            layout!((4,2,3):(6,0,2)),
        ]
    );
    retiles_as_cute!(
        make_tiled_copy(CopyVec::<f32, U4>::new(), layout!((32,8):(1,32)), layout!((4,1):(1,0))),
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})",
        [layout!((4,1,1):(1,0,0)), layout!((4,2,3):(1,4,8)), layout!((8,1,2):(1,0,8))]
    );
    retiles_as_cute!(
        make_tiled_copy(CopyVec::<u16, U4>::new(), layout!((8,4):(4,1)), layout!((2,4):(1,2))),
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_8,_4>,Stride<_4,_1>>{}, Layout<Shape<_2,_4>>{})",
        [
            layout!((8,1,1):(1,0,0)),
            layout!((8,2,2):(1,8,16)),
            layout!((4,2,2):(1,4,8)),
            layout!((2,2,2):(1,2,4)),
            layout!(((4,2),2,2):((2,1),8,16)),
        ]
    );
}
