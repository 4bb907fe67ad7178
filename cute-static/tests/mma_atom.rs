//! MMA atoms and tiled MMAs: the partitions of A, B and C against the
//! atom's layouts (every element of a tile owned once), CuTe's worked
//! partition shapes, and `TiledMma::gemm` against a naive product on every
//! atom this CPU has.

use cute_static::prelude::*;
use cute_static::typenum::U8;
use cute_static::{FmaLanes, MmaAtom, MmaCall, UniversalFma, make_tiled_mma};

/// Every element of `0..count` appears exactly once in `seen`.
fn once_each(seen: &[usize], count: usize) -> Result<(), String> {
    let mut hits = vec![0; count];
    for &s in seen {
        hits[s] += 1;
    }
    match hits.iter().position(|&h| h != 1) {
        None => Ok(()),
        Some(i) => Err(format!("element {i} owned {} times", hits[i])),
    }
}

#[test]
fn a_tiled_fma_owns_each_accumulator_of_a_tile_once() {
    // 32 threads as (4,8) atoms of one element, over a (16,32) C tile:
    // each thread holds (1, 4, 4) values.
    let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,8,1):(1,4,0)));
    let idx: Vec<usize> = (0..16 * 32).collect();
    let mut seen = vec![];
    for t in 0..mma.size() {
        let part = mma.get_slice(t).partition_c(make_tensor(&idx[..], layout!((16,32):(1,16))));
        assert_eq!(part.layout().shape().to_string_cute(), "(_1,_4,_4)");
        for i in 0..part.size() {
            seen.push(part[i]);
        }
    }
    once_each(&seen, 16 * 32).unwrap();
}

#[test]
fn a_row_major_atom_layout_numbers_threads_by_the_layout() {
    // Thread t is the atom at the coordinate the atom layout maps to t.
    let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((2,4,1):(4,1,0)));
    for t in 0..8 {
        let (v, m, n, k) = mma.get_slice(t).coord();
        assert_eq!((v, k), (0, 0));
        assert_eq!(m * 4 + n, t, "thread {t}");
    }
    // Thread 1 is atom (0,1): C rows 0, 2, ..; columns 1, 5, ...
    let idx: Vec<usize> = (0..8 * 8).collect();
    let part = mma.get_slice(1).partition_c(make_tensor(&idx[..], layout!((8,8):(1,8))));
    assert_eq!(part[(0usize, 0usize, 0usize)], 8);
    assert_eq!(part[(0usize, 1usize, 1usize)], 2 + 5 * 8);
}

#[test]
fn simd_atom_partitions_are_the_micro_kernel_tiles() {
    // An 8-lane atom over a 16x6 micro-tile: two vectors a column.
    let mma = make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)));
    let thr = mma.get_slice(0);
    let c = [0f32; 96];
    let pc = thr.partition_c(make_tensor(&c[..], layout!((16,6):(1,16))));
    assert_eq!(pc.layout().to_string(), "(_8,_2,_6):(_1,_8,_16)");
    let a = [0f32; 16 * 4];
    let pa = thr.partition_a(make_tensor(&a[..], layout!((16,4):(1,16))));
    assert_eq!(pa.layout().to_string(), "(_8,_2,_4):(_1,_8,_16)");
    let b = [0f32; 6 * 4];
    let pb = thr.partition_b(make_tensor(&b[..], layout!((6,4):(1,6))));
    assert_eq!(pb.layout().to_string(), "(_1,_6,_4):(_0,_1,_6)");
    let f = thr.partition_fragment_c(&make_tensor(&c[..], layout!((16,6):(1,16))));
    assert_eq!(f.layout().to_string(), "(_8,_2,_6):(_1,_8,_16)");
}

#[test]
fn a_partition_with_run_time_strides_reaches_the_same_elements() {
    let ld = 20usize;
    let mma = make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)));
    let data: Vec<usize> = (0..ld * 6).collect();
    let pc = mma.get_slice(0).partition_c(make_tensor(&data[..], layout!((16,6):(1,{ld}))));
    // Value v of atom (m, n) is row v + 8m of column n.
    for (v, m, n) in (0..8).flat_map(|v| (0..2).flat_map(move |m| (0..6).map(move |n| (v, m, n)))) {
        assert_eq!(pc[(v, m, n)], v + 8 * m + ld * n);
    }
}

/// `C += A·B` with `A (M,K)`, `B (N,K)`, `C (M,N)` column-major.
fn naive(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    for j in 0..n {
        for i in 0..m {
            for p in 0..k {
                c[i + m * j] += a[i + m * p] * b[j + n * p];
            }
        }
    }
}

fn operands(m: usize, n: usize, k: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let a = (0..m * k).map(|i| ((i * 7 + 3) % 11) as f32 - 5.0).collect();
    let b = (0..n * k).map(|i| ((i * 5 + 1) % 7) as f32 - 3.0).collect();
    let c = (0..m * n).map(|i| (i % 5) as f32).collect();
    (a, b, c)
}

/// The product through a tiled MMA of `atom` on a (16,6) tile with K = 5,
/// every thread of the tiled MMA in turn.
fn tiled_gemm_16x6<Atom: MmaCall<A = f32, B = f32, C = f32>, AL: cute_static::AtomLayout>(
    mma: cute_static::TiledMma<Atom, AL>,
) -> Vec<f32>
where
    Layout![(16,5):(1,16)]: cute_static::PartitionA<Atom, AL>,
    Layout![(6,5):(1,6)]: cute_static::PartitionB<Atom, AL>,
    Layout![(16,6):(1,16)]: cute_static::PartitionC<Atom, AL>,
{
    let (a, b, mut c) = operands(16, 6, 5);
    for t in 0..mma.size() {
        let thr = mma.get_slice(t);
        let ta = thr.partition_a(make_tensor(&a[..], layout!((16,5):(1,16))));
        let tb = thr.partition_b(make_tensor(&b[..], layout!((6,5):(1,6))));
        let mut tc = thr.partition_c(make_tensor(&mut c[..], layout!((16,6):(1,16))));
        mma.atom().dispatch(|| mma.gemm(&ta, &tb, &mut tc));
    }
    c
}

#[test]
fn tiled_gemm_equals_the_naive_product_on_every_atom_here() {
    let (a, b, c0) = operands(16, 6, 5);
    let mut want = c0.clone();
    naive(16, 6, 5, &a, &b, &mut want);
    assert_eq!(tiled_gemm_16x6(make_tiled_mma(UniversalFma::<f32>::new(), layout!((1,1,1):(0,0,0)))), want);
    assert_eq!(tiled_gemm_16x6(make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,2,1):(1,4,0)))), want);
    assert_eq!(tiled_gemm_16x6(make_tiled_mma(UniversalFma::<f32>::new(), layout!((2,3,1):(3,1,0)))), want);
    assert_eq!(tiled_gemm_16x6(make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((1,1,1):(0,0,0)))), want);
    assert_eq!(tiled_gemm_16x6(make_tiled_mma(FmaLanes::<f32, U8>::new(), layout!((2,1,1):(1,0,0)))), want);
    #[cfg(target_arch = "x86_64")]
    if let Some(atom) = cute_static::FmaF32x8::new() {
        assert_eq!(tiled_gemm_16x6(make_tiled_mma(atom, layout!((1,1,1):(0,0,0)))), want);
        assert_eq!(tiled_gemm_16x6(make_tiled_mma(atom, layout!((2,3,1):(1,2,0)))), want);
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(atom) = cute_static::FmaF32x16::new() {
        assert_eq!(tiled_gemm_16x6(make_tiled_mma(atom, layout!((1,1,1):(0,0,0)))), want);
    }
}

#[test]
fn atom_layouts_reach_every_index_of_their_tiles() {
    fn check<Atom: MmaAtom>() {
        let (m, n, k) = Atom::shape_mnk();
        let reach = |l: cute_dynamic::Layout, count: usize| {
            let mut seen = vec![false; count];
            for i in 0..l.size() as usize {
                seen[l.eval(i as i64).unwrap() as usize] = true;
            }
            assert!(seen.iter().all(|&s| s), "{} does not reach all of 0..{count}", l);
        };
        reach(Atom::LayoutATv::default().to_string().parse().unwrap(), m * k);
        reach(Atom::LayoutBTv::default().to_string().parse().unwrap(), n * k);
        let c: cute_dynamic::Layout = Atom::LayoutCTv::default().to_string().parse().unwrap();
        assert_eq!(c.size() as usize, m * n, "C is a bijection");
        reach(c, m * n);
    }
    check::<UniversalFma<f32>>();
    check::<FmaLanes<f32, U8>>();
}

#[test]
#[should_panic(expected = "one to one")]
fn an_atom_layout_with_two_atoms_on_one_index_is_refused() {
    let _ = make_tiled_mma(UniversalFma::<f32>::new(), layout!((2,2,1):(1,1,0)));
}

/// CuTe's own print of each GPU atom (`benches/cute_cpp/atoms.sh`).
const GOLDEN: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden/cute_atoms.txt"));

/// The block of the golden file under `== title`.
fn golden_block(title: &str) -> String {
    let start = GOLDEN.find(&format!("== {title}\n")).unwrap_or_else(|| panic!("no golden block {title}"));
    let body = &GOLDEN[start..].split_once('\n').unwrap().1;
    body.split("\n== ").next().unwrap().trim_end().to_string() + "\n"
}

#[test]
fn gpu_atoms_print_as_cute_prints_them() {
    use cute_static::mma_atom_text as text;
    use cute_static::{
        SM70_8x8x4_F32F16F16F32_NT, SM80_16x8x8_F32F16F16F32_TN, SM80_16x8x16_F32F16F16F32_TN,
        SM90_64x8x16_F32F16F16_SS,
    };
    for (name, got) in [
        ("SM70_8x8x4_F32F16F16F32_NT", text::<SM70_8x8x4_F32F16F16F32_NT>()),
        ("SM80_16x8x8_F32F16F16F32_TN", text::<SM80_16x8x8_F32F16F16F32_TN>()),
        ("SM80_16x8x16_F32F16F16F32_TN", text::<SM80_16x8x16_F32F16F16F32_TN>()),
        ("SM90_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>", text::<SM90_64x8x16_F32F16F16_SS>()),
        ("UniversalFMA<float,float,float,float>", text::<UniversalFma<f32>>()),
    ] {
        assert_eq!(got, golden_block(&format!("MMA_Atom<{name}>")), "{name}");
    }
}

#[test]
fn gpu_atom_layouts_reach_every_index_of_their_tiles() {
    fn check<Atom: MmaAtom>() {
        let (m, n, k) = Atom::shape_mnk();
        for (l, count) in [
            (Atom::LayoutATv::default().to_string(), m * k),
            (Atom::LayoutBTv::default().to_string(), n * k),
            (Atom::LayoutCTv::default().to_string(), m * n),
        ] {
            let l: cute_dynamic::Layout = l.parse().unwrap();
            let mut seen = vec![false; count];
            for i in 0..l.size() {
                seen[l.eval(i).unwrap() as usize] = true;
            }
            assert!(seen.iter().all(|&s| s), "{} {l} does not reach all of 0..{count}", Atom::NAME);
        }
        let c: cute_dynamic::Layout = Atom::LayoutCTv::default().to_string().parse().unwrap();
        assert_eq!(c.size() as usize, m * n, "{}: C is a bijection", Atom::NAME);
    }
    check::<cute_static::SM70_8x8x4_F32F16F16F32_NT>();
    check::<cute_static::SM80_16x8x8_F32F16F16F32_TN>();
    check::<cute_static::SM80_16x8x16_F32F16F16F32_TN>();
    check::<cute_static::SM90_64x8x16_F32F16F16_SS>();
}

#[test]
fn get_slice_gives_cutes_thread_coordinates() {
    // CuTe: get_slice(t).thr_vmnk for the tiled MMAs in the golden file.
    let sm80 = make_tiled_mma(cute_static::SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    for (t, want) in [(0, (0, 0, 0, 0)), (1, (1, 0, 0, 0)), (31, (31, 0, 0, 0)), (32, (0, 1, 0, 0)), (64, (0, 0, 1, 0))]
    {
        assert_eq!(sm80.get_slice(t).coord(), want, "SM80 thread {t}");
    }
    // SM70's threads are quad pairs: (4,2):(1,16) of the warp.
    let sm70 = make_tiled_mma(cute_static::SM70_8x8x4_F32F16F16F32_NT, layout!((2,2,1):(2,1,0)));
    assert_eq!(sm70.size(), 32);
    assert_eq!(sm70.get_slice(31).coord(), (7, 1, 1, 0));
    assert_eq!(sm70.get_slice(1).coord(), (1, 0, 0, 0));
    let g = golden_block("make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{})");
    assert!(g.contains("get_slice(31).thr_vmnk: (7,1,1,_0)"));
}

#[test]
fn static_partitions_agree_with_cutes_tiled_tv_layouts() {
    // Thread t's C values of the (32,16) tile, in the order of its part,
    // are CuTe's get_layoutC_TV(t, v) (cute-dynamic computes it as CuTe).
    let mma = make_tiled_mma(cute_static::SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    let atom = cute_dynamic::MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    let tiled = cute_dynamic::make_tiled_mma(&atom, &"(2,2,1):(1,2,0)".parse().unwrap(), None).unwrap();
    let tv = tiled.layout_c_tv();
    let threads = mma.size() as i64;
    let idx: Vec<i64> = (0..32 * 16).collect();
    for t in 0..mma.size() {
        let part = mma.get_slice(t).partition_c(make_tensor(&idx[..], layout!((32,16):(1,32))));
        for x in 0..part.size() {
            assert_eq!(part[x], tv.eval(t as i64 + threads * x as i64).unwrap(), "thread {t} value {x}");
        }
    }
    // And A's (32,16) and B's (16,16) tiles, against get_layoutA_TV and
    // get_layoutB_TV (a thread's A values do not depend on its N
    // coordinate, nor B's on M: stride 0 in CuTe's thread mode).
    let (tv_a, tv_b) = (tiled.layout_a_tv(), tiled.layout_b_tv());
    for t in 0..mma.size() {
        let thr = mma.get_slice(t);
        let pa = thr.partition_a(make_tensor(&idx[..], layout!((32,16):(1,32))));
        for x in 0..pa.size() {
            assert_eq!(pa[x], tv_a.eval(t as i64 + threads * x as i64).unwrap(), "A: thread {t} value {x}");
        }
        let pb = thr.partition_b(make_tensor(&idx[..], layout!((16,16):(1,16))));
        for x in 0..pb.size() {
            assert_eq!(pb[x], tv_b.eval(t as i64 + threads * x as i64).unwrap(), "B: thread {t} value {x}");
        }
    }
}

#[test]
fn permuted_partitions_agree_with_cutes_tiled_tv_layouts() {
    // CuTe's docs: SM70 quad pairs (2,2):(2,1), the tile permuted to
    // Tile<_32,_32,_4>; thread t's C values in the order of its part are
    // CuTe's get_layoutC_TV(t, v), and the tile is CuTe's.
    let mma = cute_static::make_tiled_mma_permuted(
        cute_static::SM70_8x8x4_F32F16F16F32_NT,
        layout!((2,2,1):(2,1,0)),
        (layout!(32:1), layout!(32:1), layout!(4:1)),
    );
    assert_eq!(mma.tile_size_mnk(), (32, 32, 4));
    let g = golden_block(
        "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{}, Tile<_32,_32,_4>{})",
    );
    assert!(g.contains("tile_size_mnk: (_32,_32,_4)"), "{g}");
    let cute: cute_dynamic::Layout =
        g.lines().find_map(|l| l.strip_prefix("get_layoutC_TV: ")).unwrap().parse().unwrap();
    let threads = mma.size();
    let idx: Vec<i64> = (0..32 * 32).collect();
    let mut seen = vec![0; 32 * 32];
    for t in 0..threads {
        let part = mma.get_slice(t).partition_c(make_tensor(&idx[..], layout!((32,32):(1,32))));
        for x in 0..part.size() {
            assert_eq!(part[x], cute.eval((t + threads * x) as i64).unwrap(), "thread {t} value {x}");
            seen[part[x] as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&s| s == 1), "each C element owned once");
    // Without a permutation the partition is the unpermuted one.
    let plain = make_tiled_mma(cute_static::SM70_8x8x4_F32F16F16F32_NT, layout!((2,2,1):(2,1,0)));
    assert_eq!(plain.tile_size_mnk(), (16, 16, 4));
}

/// CuTe's text of `get_layout{name}_TV` in a golden block.
fn golden_tv(g: &str, name: &str) -> String {
    g.lines().find_map(|l| l.strip_prefix(&format!("get_layout{name}_TV: "))).unwrap().to_string()
}

/// Thread `t`'s values of the A, B and C tiles of `$mma`, in its parts'
/// order, against CuTe's `get_layoutA|B|C_TV` in the golden block `$title`.
macro_rules! agrees_with_cute {
    ($mma:expr, $title:expr, ($m:literal, $n:literal, $k:literal)) => {{
        let mma = $mma;
        let g = golden_block($title);
        let tv = |name: &str| -> cute_dynamic::Layout {
            g.lines()
                .find_map(|l| l.strip_prefix(&format!("get_layout{name}_TV: ")))
                .unwrap_or_else(|| panic!("{name} in {}", $title))
                .parse()
                .unwrap()
        };
        let (ta, tb, tc) = (tv("A"), tv("B"), tv("C"));
        // The tiled TV layouts themselves, as CuTe prints them.
        assert_eq!(mma.layout_a_tv().to_string(), golden_tv(&g, "A"), "{}", $title);
        assert_eq!(mma.layout_b_tv().to_string(), golden_tv(&g, "B"), "{}", $title);
        assert_eq!(mma.layout_c_tv().to_string(), golden_tv(&g, "C"), "{}", $title);
        assert!(g.contains(&format!("tile_size_mnk: (_{},_{},_{})", $m, $n, $k)), "{g}");
        assert_eq!(mma.tile_size_mnk(), ($m, $n, $k));
        let idx: Vec<i64> = (0..($m * $n).max($m * $k).max($n * $k)).collect();
        // Thread indices: the TV layouts' thread mode (lanes that no atom
        // works on, such as a lone SM70 quad pair's 4..16, are skipped).
        let threads = tc.get(0).unwrap().size();
        for t in (0..threads as usize).filter(|&t| mma.is_thread(t)) {
            let thr = mma.get_slice(t);
            let check = |what: &str, got: i64, want: &cute_dynamic::Layout, x: usize| {
                assert_eq!(got, want.eval(t as i64 + threads * x as i64).unwrap(), "{}: {what} thread {t} value {x}", $title)
            };
            let pa = thr.partition_a(make_tensor(&idx[..], layout!(($m, $k):(1, $m))));
            (0..pa.size()).for_each(|x| check("A", pa[x], &ta, x));
            let pb = thr.partition_b(make_tensor(&idx[..], layout!(($n, $k):(1, $n))));
            (0..pb.size()).for_each(|x| check("B", pb[x], &tb, x));
            let pc = thr.partition_c(make_tensor(&idx[..], layout!(($m, $n):(1, $m))));
            (0..pc.size()).for_each(|x| check("C", pc[x], &tc, x));
        }
    }};
}

#[test]
fn tiled_mmas_of_cutes_docs_partition_as_cute() {
    agrees_with_cute!(
        make_tiled_mma(UniversalFma::<f32>::new(), layout!((16,16,1):(1,16,0))),
        "make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>>{})",
        (16, 16, 1)
    );
    agrees_with_cute!(
        make_tiled_mma(cute_static::SM80_16x8x8_F32F16F16F32_TN, layout!((1,1,2):(0,0,1))),
        "make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_1,_1,_2>>{})",
        (16, 8, 16)
    );
    agrees_with_cute!(
        make_tiled_mma(cute_static::SM90_64x8x16_F32F16F16_SS, layout!((2,1,1):(1,0,0))),
        "make_tiled_mma(SM90_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{})",
        (128, 8, 16)
    );
    agrees_with_cute!(
        make_tiled_mma(cute_static::SM80_16x8x16_F32F16F16F32_TN, layout!((2,2,1):(1,2,0))),
        "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})",
        (32, 16, 16)
    );
    agrees_with_cute!(
        make_tiled_mma(cute_static::SM70_8x8x4_F32F16F16F32_NT, layout!((1,1,1):(0,0,0))),
        "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{})",
        (8, 8, 4)
    );
    agrees_with_cute!(
        make_tiled_mma(cute_static::SM70_8x8x4_F32F16F16F32_NT, layout!((2,2,1):(2,1,0))),
        "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{})",
        (16, 16, 4)
    );
    agrees_with_cute!(
        cute_static::make_tiled_mma_permuted(
            cute_static::SM70_8x8x4_F32F16F16F32_NT,
            layout!((2,2,1):(2,1,0)),
            (layout!(32:1), layout!(32:1), layout!(4:1)),
        ),
        "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{}, Tile<_32,_32,_4>{})",
        (32, 32, 4)
    );
    // A permutation that reorders M: CuTe's docs' Tile<Layout<(4,4,2):(1,8,4)>,_32,_4>.
    agrees_with_cute!(
        cute_static::make_tiled_mma_permuted(
            cute_static::SM70_8x8x4_F32F16F16F32_NT,
            layout!((2,2,1):(2,1,0)),
            (layout!((4,4,2):(1,8,4)), layout!(32:1), layout!(4:1)),
        ),
        "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{}, Tile<Layout<Shape<_4,_4,_2>,Stride<_1,_8,_4>>,_32,_4>{})",
        (32, 32, 4)
    );
}
