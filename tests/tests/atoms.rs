//! The atom layer: MMA atoms and tiled MMAs, copy atoms and tiled copies,
//! against CuTe's own text (`tests/golden/cute_atoms.txt`, printed by CuTe
//! itself; compared once CuTe's static `_` marker is taken off), and their
//! post-conditions by brute force.

use cute_dynamic::{
    CopyAtom, IntTuple, Layout, LayoutError, MmaAtom, TiledCopy, TiledMma, Tiler, gmma_layout_atom, make_tiled_copy,
    make_tiled_copy_a, make_tiled_copy_b, make_tiled_copy_c, make_tiled_mma,
};
use cute_tests::golden_text::{section, unmark, value};

fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("parsing {s:?}: {e}"))
}

const GPU_MMA: [(&str, &str); 4] = [
    ("SM70_8x8x4_F32F16F16F32_NT", "MMA_Atom<SM70_8x8x4_F32F16F16F32_NT>"),
    ("SM80_16x8x8_F32F16F16F32_TN", "MMA_Atom<SM80_16x8x8_F32F16F16F32_TN>"),
    ("SM80_16x8x16_F32F16F16F32_TN", "MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>"),
    ("SM90_64x8x16_F32F16F16_SS", "MMA_Atom<SM90_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>>"),
];

/// `print(MMA_Atom<...>{})` line for line: CuTe's header line is
/// `MMA_Atom`, ours adds the name; the five layout lines are CuTe's.
#[test]
fn mma_atoms_print_as_cute() {
    let mut atoms: Vec<(MmaAtom, &str)> = GPU_MMA.iter().map(|(n, s)| (MmaAtom::gpu(n).unwrap(), *s)).collect();
    atoms.push((MmaAtom::universal_fma(), "MMA_Atom<UniversalFMA<float,float,float,float>>"));
    for (atom, name) in atoms {
        let golden: Vec<String> = section(name).iter().map(|l| unmark(l)).collect();
        let ours = atom.to_string();
        let ours: Vec<&str> = ours.lines().collect();
        assert_eq!(golden[0], "MMA_Atom");
        assert_eq!(ours[0], format!("MMA_Atom {}", atom.name()));
        assert_eq!(ours[1..], golden[1..], "{name}");
    }
}

/// The tile of an operand as `rows × cols`, column-major, and how many
/// `(thread, value)` pairs reach each element.
fn reach(tv: &Layout, rows: i64, cols: i64) -> Vec<i64> {
    let mut count = vec![0i64; (rows * cols) as usize];
    for i in 0..tv.size() {
        let k = tv.eval(i).unwrap();
        assert!((0..rows * cols).contains(&k), "{tv} maps {i} to {k}, outside {rows}x{cols}");
        count[k as usize] += 1;
    }
    count
}

/// Each GPU atom's C layout is a bijection from (thread, value) onto the
/// M×N tile; A and B reach every element of their tiles the same number of
/// times: once (a bijection) for SM70 and SM80, 128 times for GMMA, whose
/// threads all see the whole shared-memory tile (stride 0 across threads).
#[test]
fn mma_atom_layouts_cover_their_tiles() {
    for (name, _) in GPU_MMA {
        let atom = MmaAtom::gpu(name).unwrap();
        let (m, n, k) = atom.shape_mnk();
        let t = atom.threads();
        assert!(reach(atom.layout_c_tv(), m, n).iter().all(|&c| c == 1), "{name}: C is a bijection");
        let sharing = if name.starts_with("SM90") { t } else { 1 };
        for (what, tv, rows, cols) in [("A", atom.layout_a_tv(), m, k), ("B", atom.layout_b_tv(), n, k)] {
            assert_eq!(tv.get(0).unwrap().size(), t, "{name} {what}: one thread mode of ThrID's size");
            let r = reach(tv, rows, cols);
            assert!(r.iter().all(|&c| c == sharing), "{name} {what}: each element reached {sharing} times: {r:?}");
        }
    }
    // The CPU atoms: one thread; SimdFMA's lanes down the column of C.
    let simd = MmaAtom::simd_fma(8).unwrap();
    assert_eq!(reach(simd.layout_c_tv(), 8, 1), vec![1; 8]);
    assert_eq!(reach(simd.layout_a_tv(), 8, 1), vec![1; 8]);
    assert_eq!(reach(simd.layout_b_tv(), 1, 1), vec![1]);
    let fma = MmaAtom::universal_fma();
    assert_eq!(reach(fma.layout_c_tv(), 1, 1), vec![1]);
}

/// CuTe's compact column-major layout of a static shape (`Layout<Shape<...>>`):
/// stride 0 for a mode of extent 1.
fn cute_compact(shape: &str) -> Layout {
    let l = Layout::column_major(&shape.parse::<IntTuple>().unwrap()).unwrap();
    let strides = l.shape().leaves().zip(l.stride().leaves()).map(|(s, d)| if s == 1 { 0 } else { d });
    Layout::new(l.shape().flatten(), IntTuple::flat(strides)).unwrap()
}

/// A tiled MMA against its golden section: `print(tiled_mma)`, the three
/// TV layouts, the tile, the thread layout and the threads' coordinates.
#[track_caller]
fn assert_tiled_mma(mma: &TiledMma, name: &str) {
    let golden = section(name);
    let head: Vec<String> = golden.iter().take(9).map(|l| unmark(l)).collect();
    let ours = mma.to_string();
    let ours: Vec<&str> = ours.lines().collect();
    assert_eq!(ours.len(), 9);
    assert_eq!(ours[..3], head[..3], "{name}: TiledMMA lines");
    assert_eq!(ours[4..], head[4..], "{name}: the atom's lines");
    assert_eq!(mma.layout_a_tv().to_string(), unmark(&value(&golden, "get_layoutA_TV")), "{name}");
    assert_eq!(mma.layout_b_tv().to_string(), unmark(&value(&golden, "get_layoutB_TV")), "{name}");
    assert_eq!(mma.layout_c_tv().to_string(), unmark(&value(&golden, "get_layoutC_TV")), "{name}");
    let (m, n, k) = mma.tile_size_mnk();
    assert_eq!(format!("({m},{n},{k})"), unmark(&value(&golden, "tile_size_mnk")), "{name}");
    assert_eq!(mma.thr_layout_vmnk().to_string(), unmark(&value(&golden, "thr_layout_vmnk")));
    for line in golden.iter().filter(|l| l.starts_with("get_slice(")) {
        let tid: i64 = line["get_slice(".len()..line.find(')').unwrap()].parse().unwrap();
        let want = unmark(line.split(": ").nth(1).unwrap());
        let [v, m, n, k] = mma.thr_vmnk(tid).unwrap();
        assert_eq!(format!("({v},{m},{n},{k})"), want, "{name}: thread {tid}");
    }
}

#[test]
fn tiled_mma_2x2x1_of_sm80_16x8x16_is_cutes() {
    let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    let mma = make_tiled_mma(&atom, &cute_compact("(2,2,1)"), None).unwrap();
    assert_eq!(mma.layout_c_tv().to_string(), "((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))");
    assert_eq!(mma.tile_size_mnk(), (32, 16, 16));
    assert_tiled_mma(&mma, "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})");
}

/// The tiled MMAs of CuTe's docs (0t_mma_atom.md, the GEMM tutorial) and a
/// few more, each against CuTe's text.
#[test]
fn tiled_mmas_of_cutes_docs_are_cutes() {
    let sm70 = MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT").unwrap();
    let nmajor = lay("(2,2):(2,1)");
    let cases: Vec<(TiledMma, &str)> = vec![
        (
            make_tiled_mma(&sm70, &nmajor, None).unwrap(),
            "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{})",
        ),
        (
            make_tiled_mma(&sm70, &nmajor, Some(&"<32,32,4>".parse().unwrap())).unwrap(),
            "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{}, Tile<_32,_32,_4>{})",
        ),
        (
            make_tiled_mma(&sm70, &nmajor, Some(&"<(4,4,2):(1,8,4),32,4>".parse().unwrap())).unwrap(),
            "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{}, \
             Tile<Layout<Shape<_4,_4,_2>,Stride<_1,_8,_4>>,_32,_4>{})",
        ),
        (make_tiled_mma(&sm70, &lay("1:0"), None).unwrap(), "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{})"),
        (
            make_tiled_mma(&MmaAtom::universal_fma(), &cute_compact("(16,16,1)"), None).unwrap(),
            "make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>>{})",
        ),
        (
            make_tiled_mma(&MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN").unwrap(), &cute_compact("(1,1,2)"), None)
                .unwrap(),
            "make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_1,_1,_2>>{})",
        ),
        (
            make_tiled_mma(&MmaAtom::gpu("SM90_64x8x16_F32F16F16_SS").unwrap(), &cute_compact("(2,1,1)"), None)
                .unwrap(),
            "make_tiled_mma(SM90_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{})",
        ),
    ];
    for (mma, name) in &cases {
        assert_tiled_mma(mma, name);
    }
}

/// The docs' permutation `(4,4,2):(1,8,4)` of M "brings the access of all
/// threads to be contiguous in m-coordinates in the A-matrix": T0's eight
/// values of A are rows 0..8 of column 0 (unpermuted: 0-3 and 16-19).
#[test]
fn docs_permutation_makes_thread_0s_rows_contiguous() {
    let sm70 = MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT").unwrap();
    let rows_of_t0 = |perm: &str| -> Vec<i64> {
        let mma = make_tiled_mma(&sm70, &lay("(2,2):(2,1)"), Some(&perm.parse().unwrap())).unwrap();
        let a = mma.layout_a_tv();
        let (m, _, _) = mma.tile_size_mnk();
        let v = a.get(1).unwrap().size();
        (0..v).map(|j| a.eval_coord(&IntTuple::flat([0, j])).unwrap()).map(|x| x % m).collect()
    };
    assert_eq!(rows_of_t0("<32,32,4>"), [0, 1, 2, 3, 16, 17, 18, 19]);
    assert_eq!(rows_of_t0("<(4,4,2):(1,8,4),32,4>"), [0, 1, 2, 3, 4, 5, 6, 7]);
}

/// Every element of a tiled MMA's C tile is owned by exactly one (thread,
/// value) of the working threads (by `ThrK` of them when atoms are laid
/// along K: those threads split the K reduction), and A and B are reached
/// evenly; the thread coordinates name the threads. The working threads are
/// the offsets of `thr_layout_vmnk`; CuTe's layouts also index the idle
/// lanes between them (a lone SM70 quadpair is lanes 0-3 and 16-19), which
/// alias working ones.
#[test]
fn tiled_mma_c_is_owned_once() {
    let atoms: Vec<MmaAtom> = GPU_MMA
        .iter()
        .map(|(n, _)| MmaAtom::gpu(n).unwrap())
        .chain([MmaAtom::universal_fma(), MmaAtom::simd_fma(4).unwrap()])
        .collect();
    let layouts = ["(1,1,1)", "(2,1,1)", "(1,2,1)", "(2,2,1)", "(4,2,1)", "(1,1,2)", "(2,1,2)"];
    for atom in &atoms {
        for shape in layouts {
            for atom_layout in [cute_compact(shape), Layout::column_major(&shape.parse().unwrap()).unwrap()] {
                let mma = make_tiled_mma(atom, &atom_layout, None).unwrap();
                let what = format!("{} over {atom_layout}", atom.name());
                let (m, n, k) = mma.tile_size_mnk();
                let vmnk = mma.thr_layout_vmnk();
                let thr_k = vmnk.get(3).unwrap().size();
                let lanes = mma.thread_indices();
                let working: Vec<i64> = (0..vmnk.size()).map(|i| vmnk.eval(i).unwrap()).collect();
                assert_eq!(working.len() as i64, mma.threads());
                let mut owners = vec![0; (m * n) as usize];
                let values = mma.layout_c_tv().get(1).unwrap().size();
                for &t in &working {
                    for v in 0..values {
                        owners[mma.layout_c_tv().eval(t + lanes * v).unwrap() as usize] += 1;
                    }
                }
                assert!(owners.iter().all(|&x| x == thr_k), "{what}: C owners {owners:?}");
                // Every (lane, value) lands in the tile, idle lanes included.
                reach(mma.layout_c_tv(), m, n);
                let a = reach(mma.layout_a_tv(), m, k);
                let b = reach(mma.layout_b_tv(), n, k);
                assert!(a.iter().all(|&x| x == a[0]) && b.iter().all(|&x| x == b[0]), "{what}");
                for tid in 0..lanes {
                    match mma.thr_vmnk(tid) {
                        Ok([v, mm, nn, kk]) => {
                            assert!(working.contains(&tid), "{what}: lane {tid}");
                            let back = vmnk.eval_coord(&IntTuple::flat([v, mm, nn, kk])).unwrap();
                            assert_eq!(back, tid);
                        }
                        Err(_) => assert!(!working.contains(&tid), "{what}: thread {tid} has a coordinate"),
                    }
                }
            }
        }
    }
    // A permuted tile: still one owner per element.
    let sm80 = MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN").unwrap();
    for perm in ["<(8,4):(4,1), 16>", "<64, (8,2):(2,1)>", "<32, 16, 16>"] {
        let mma = make_tiled_mma(&sm80, &cute_compact("(2,2,1)"), Some(&perm.parse().unwrap())).unwrap();
        let (m, n, _) = mma.tile_size_mnk();
        assert!(reach(mma.layout_c_tv(), m, n).iter().all(|&x| x == 1), "{perm}");
    }
}

/// CuTe's C layout for three SM70 quadpairs along M leaves half of the
/// tile out (CuTe's own count, in the golden file); make_tiled_mma refuses
/// it, naming the same layout.
#[test]
fn tiled_mma_that_cute_gets_wrong_is_refused() {
    let golden = section("make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_3,_1,_1>>{})");
    assert_eq!(value(&golden, "C elements no (thread, value) reaches"), "96 of 192");
    let sm70 = MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT").unwrap();
    let e = make_tiled_mma(&sm70, &cute_compact("(3,1,1)"), None).unwrap_err();
    assert!(matches!(e, LayoutError::NoLayout { .. }), "{e}");
    let cute_c = unmark(&value(&golden, "get_layoutC_TV"));
    assert!(e.to_string().contains(&cute_c), "{e} names CuTe's {cute_c}");
}

#[test]
fn tiled_mma_refusals() {
    let sm80 = MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN").unwrap();
    let e = MmaAtom::gpu("SM80_16x8x32").unwrap_err();
    assert!(e.to_string().contains("SM80_16x8x16_F32F16F16F32_TN"), "lists the known atoms: {e}");
    assert!(MmaAtom::named("SimdFMA<0>").is_err());
    let e = make_tiled_mma(&sm80, &lay("(2,2,1,2):(1,2,4,4)"), None).unwrap_err();
    assert!(matches!(e, LayoutError::RankMismatch { .. }), "{e}");
    // A permutation that is not a bijection, or not a multiple of the atoms.
    let e = make_tiled_mma(&sm80, &lay("1:0"), Some(&"<16:2>".parse::<Tiler>().unwrap())).unwrap_err();
    assert!(matches!(e, LayoutError::NoLayout { .. }), "{e}");
    let e = make_tiled_mma(&sm80, &lay("1:0"), Some(&"<24>".parse::<Tiler>().unwrap())).unwrap_err();
    assert!(matches!(e, LayoutError::NotAMultiple { .. }), "{e}");
    let e = make_tiled_mma(&sm80, &lay("1:0"), Some(&"<16,8,8,1>".parse::<Tiler>().unwrap())).unwrap_err();
    assert!(matches!(e, LayoutError::RankMismatch { .. }), "{e}");
    // An atom of custom layouts that misses an element of C.
    let e = MmaAtom::new("bad", (2, 2, 1), lay("2:1"), lay("(2,1):(1,0)"), lay("(2,2):(0,1)"), lay("(2,2):(1,1)"))
        .unwrap_err();
    assert!(e.to_string().contains("no (thread, value) reaches"), "{e}");
    let e = sm80.clone();
    assert!(make_tiled_mma(&e, &lay("(2,2,1):(1,2,0)"), None).unwrap().thr_vmnk(-1).is_err());
}

// --- Copy atoms and tiled copies ---------------------------------------------------

/// `print(Copy_Atom<..., half_t>{})` line for line (our header adds the
/// name).
#[test]
fn copy_atoms_print_as_cute() {
    for (atom, name) in [
        (CopyAtom::gpu("SM75_U32x4_LDSM_N", 16).unwrap(), "Copy_Atom<SM75_U32x4_LDSM_N, half_t>"),
        (
            CopyAtom::gpu("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16).unwrap(),
            "Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>",
        ),
        (CopyAtom::universal(128, 16).unwrap(), "Copy_Atom<UniversalCopy<uint128_t>, half_t>"),
    ] {
        let golden: Vec<String> = section(name).iter().map(|l| unmark(l)).collect();
        let ours = atom.to_string();
        let ours: Vec<&str> = ours.lines().collect();
        assert_eq!((golden[0].as_str(), ours[0]), ("Copy_Atom", format!("Copy_Atom {}", atom.name()).as_str()));
        assert_eq!(ours[1..], golden[1..], "{name}");
    }
}

/// A tiled copy against its golden section: `print(tiled_copy)`, the source
/// and destination TV layouts and the tile.
#[track_caller]
fn assert_tiled_copy(copy: &TiledCopy, name: &str) {
    let golden = section(name);
    let ours = copy.to_string();
    let ours: Vec<&str> = ours.lines().collect();
    let head: Vec<String> = golden.iter().take(ours.len()).map(|l| unmark(l)).collect();
    assert_eq!(ours[..3], head[..3], "{name}: TiledCopy lines");
    assert_eq!(ours[4..], head[4..], "{name}: the atom's lines");
    assert_eq!(copy.layout_s_tv().to_string(), unmark(&value(&golden, "get_layoutS_TV")), "{name}");
    assert_eq!(copy.layout_d_tv().to_string(), unmark(&value(&golden, "get_layoutD_TV")), "{name}");
    assert_eq!(copy.tiler_mn().to_string(), unmark(&value(&golden, "Tiler_MN")), "{name}");
}

#[test]
fn tiled_copies_are_cutes() {
    let sm80 = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    let mma = make_tiled_mma(&sm80, &lay("(2,2,1):(1,2,0)"), None).unwrap();
    let ldsm = CopyAtom::gpu("SM75_U32x4_LDSM_N", 16).unwrap();
    let cases = [
        (
            make_tiled_copy(&CopyAtom::universal(128, 16).unwrap(), &lay("(16,8):(8,1)"), &lay("(1,8):(0,1)")).unwrap(),
            "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, \
             Layout<Shape<_1,_8>>{})",
        ),
        (
            make_tiled_copy(&CopyAtom::universal(128, 32).unwrap(), &lay("(32,8):(1,32)"), &lay("(4,1):(1,0)"))
                .unwrap(),
            "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})",
        ),
        (
            make_tiled_copy(&ldsm, &lay("(32,1):(1,0)"), &lay("(1,8):(0,1)")).unwrap(),
            "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{})",
        ),
        (
            make_tiled_copy_a(&ldsm, &mma).unwrap(),
            "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, \
             Layout<Shape<_2,_2,_1>>{}))",
        ),
    ];
    for (copy, name) in &cases {
        assert_tiled_copy(copy, name);
    }
}

/// (thread, value) → element: every element of the tile is reached; with
/// `once`, by exactly one (thread, value).
#[track_caller]
fn assert_covers(tv: &Layout, cells: i64, once: bool) {
    let mut count = vec![0; cells as usize];
    for i in 0..tv.size() {
        let k = tv.eval(i).unwrap();
        assert!((0..cells).contains(&k), "{tv}: {i} -> {k}");
        count[k as usize] += 1;
    }
    assert!(count.iter().all(|&c| c >= 1 && (!once || c == 1)), "{tv}: {count:?}");
}

/// The source and destination of a tiled copy made from thread and value
/// layouts each cover the tile once: what one thread reads is read by no
/// other. For ldmatrix they differ.
#[test]
fn tiled_copy_partitions_cover_the_tile_once() {
    let ldsm = CopyAtom::gpu("SM75_U32x4_LDSM_N", 16).unwrap();
    let copy = make_tiled_copy(&ldsm, &lay("(32,1):(1,0)"), &lay("(1,8):(0,1)")).unwrap();
    assert_ne!(copy.layout_s_tv(), copy.layout_d_tv());
    assert_covers(copy.layout_s_tv(), 256, true);
    assert_covers(copy.layout_d_tv(), 256, true);
    // The reference is ldmatrix's destination: D is the tiled layout itself
    // (as a function); S is what each lane reads, a 4x2 block of the tile.
    let same = |a: &Layout, b: &Layout| (0..a.size()).all(|i| a.eval(i).unwrap() == b.eval(i).unwrap());
    assert!(same(copy.layout_d_tv(), copy.layout_tv()));
    let lane0: Vec<i64> = (0..8).map(|v| copy.layout_s_tv().eval(32 * v).unwrap()).collect();
    assert_eq!(lane0, [0, 32, 1, 33, 2, 34, 3, 35]);
    for (thr, val, bits, vbits) in
        [("(4,8):(8,1)", "(1,4):(0,1)", 64, 16), ("(8,4):(1,8)", "(2,2):(1,2)", 32, 16), ("16:1", "4:1", 128, 32)]
    {
        let atom = CopyAtom::universal(bits, vbits).unwrap();
        let copy = make_tiled_copy(&atom, &lay(thr), &lay(val)).unwrap();
        let cells = copy.tiler_mn().size().unwrap();
        assert_covers(copy.layout_s_tv(), cells, true);
        assert_covers(copy.layout_d_tv(), cells, true);
        assert_eq!(copy.threads(), lay(thr).size());
        // A one-thread atom moves values as they are: S and D are the tiled layout.
        assert!(same(copy.layout_s_tv(), copy.layout_tv()) && same(copy.layout_d_tv(), copy.layout_tv()));
    }
    // From a tiled MMA's operands: B and C, each element reached.
    let mma =
        make_tiled_mma(&MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN").unwrap(), &lay("(2,2,1):(1,2,0)"), None).unwrap();
    let b = make_tiled_copy_b(&CopyAtom::universal(32, 16).unwrap(), &mma).unwrap();
    assert_covers(b.layout_s_tv(), 16 * 8, false);
    let c = make_tiled_copy_c(&CopyAtom::universal(64, 32).unwrap(), &mma).unwrap();
    assert_covers(c.layout_d_tv(), 32 * 16, false);
}

#[test]
fn copy_refusals() {
    let ldsm = CopyAtom::gpu("SM75_U32x4_LDSM_N", 16).unwrap();
    // 16 threads for a 32-thread atom; 4 values for an 8-value atom.
    let e = make_tiled_copy(&ldsm, &lay("16:1"), &lay("(1,8):(0,1)")).unwrap_err();
    assert!(matches!(e, LayoutError::NotAMultiple { .. }), "{e}");
    let e = make_tiled_copy(&CopyAtom::universal(128, 16).unwrap(), &lay("8:1"), &lay("4:1")).unwrap_err();
    assert!(matches!(e, LayoutError::NotAMultiple { .. }), "{e}");
    // ldmatrix moves 32-bit words: 64-bit values do not split them.
    assert!(CopyAtom::gpu("SM75_U32x4_LDSM_N", 64).is_err());
    assert!(CopyAtom::universal(128, 0).is_err());
    let e = CopyAtom::named("SM90_TMA_LOAD", 16).unwrap_err();
    assert!(e.to_string().contains("SM75_U32x4_LDSM_N"), "{e}");
    assert!(TiledCopy::new(&ldsm, lay("(32,8,1):(1,32,0)"), IntTuple::flat([32, 8])).is_err());
}

/// GMMA's shared-memory layout atoms, position-independent (the swizzle on
/// element offsets), as CuTe prints them; CuTe drops the identity swizzle of
/// the interleaved atoms.
#[test]
fn gmma_layout_atoms_are_cutes() {
    let golden = section("GMMA shared-memory layout atoms, position-independent");
    assert_eq!(golden.len(), 12);
    for line in golden {
        let (name, want) = line.split_once(": ").unwrap();
        let atom = name.strip_prefix("GMMA::").unwrap();
        let (atom, ty) = atom.split_once('<').unwrap();
        let bits = match ty {
            "half_t>" => 16,
            "float>" => 32,
            "uint8_t>" => 8,
            "double>" => 64,
            t => panic!("{t}"),
        };
        let ours = gmma_layout_atom(atom, bits).unwrap();
        let want = unmark(want);
        if atom.contains("INTER") {
            assert_eq!(ours.inner().to_string(), want, "{name}");
            assert_eq!(ours.to_string(), format!("Sw<0,{},3> o 0 o {want}", (128 / bits).trailing_zeros()));
        } else {
            assert_eq!(ours.to_string(), want, "{name}");
        }
    }
    assert!(gmma_layout_atom("Layout_K_SW256_Atom", 16).is_err());
    assert!(gmma_layout_atom("Layout_K_SW128_Atom", 12).is_err());
}

use proptest::prelude::*;

fn layout_of(modes: &[(i64, i64)]) -> Layout {
    Layout::new(IntTuple::flat(modes.iter().map(|m| m.0)), IntTuple::flat(modes.iter().map(|m| m.1))).unwrap()
}

proptest! {
    /// Any thread and value layouts: a tiled copy whose source and
    /// destination cover its tile once each, or an error; never a wrong one.
    #[test]
    fn tiled_copy_is_right_or_an_error(
        ts in prop::collection::vec((1i64..5, 0i64..9), 1..3),
        vs in prop::collection::vec((1i64..4, 0i64..9), 1..3),
        bits in prop::sample::select(vec![16i64, 32, 64]),
    ) {
        let (thr, val) = (layout_of(&ts), layout_of(&vs));
        let atom = CopyAtom::universal(bits, 16).unwrap();
        if let Ok(copy) = make_tiled_copy(&atom, &thr, &val) {
            let cells = copy.tiler_mn().size().unwrap();
            prop_assert_eq!(cells, thr.size() * val.size());
            assert_covers(copy.layout_s_tv(), cells, true);
            assert_covers(copy.layout_d_tv(), cells, true);
        }
    }

    /// Any atom layout of up to three modes over any atom: a tiled MMA whose
    /// C has one owner per element among the working threads (`ThrK` with
    /// atoms along K), or an error.
    #[test]
    fn tiled_mma_is_right_or_an_error(
        modes in prop::collection::vec((1i64..4, 0i64..12), 1..4),
        which in 0usize..6,
    ) {
        let atom = match which {
            0..=3 => MmaAtom::gpu(GPU_MMA[which].0).unwrap(),
            4 => MmaAtom::universal_fma(),
            _ => MmaAtom::simd_fma(2).unwrap(),
        };
        if let Ok(mma) = make_tiled_mma(&atom, &layout_of(&modes), None) {
            let (m, n, _) = mma.tile_size_mnk();
            let vmnk = mma.thr_layout_vmnk();
            let thr_k = vmnk.get(3).unwrap().size();
            let lanes = mma.thread_indices();
            let values = mma.layout_c_tv().get(1).unwrap().size();
            let mut owners = vec![0; (m * n) as usize];
            for i in 0..vmnk.size() {
                let t = vmnk.eval(i).unwrap();
                for v in 0..values {
                    owners[mma.layout_c_tv().eval(t + lanes * v).unwrap() as usize] += 1;
                }
            }
            prop_assert!(owners.iter().all(|&o| o == thr_k), "{}", mma);
        }
    }
}
