//! Tensors of cute-dynamic: construction and bounds, access, slicing as
//! CuTe slices, tiling and partitioning with CuTe's semantics, predication
//! with identity tensors at ragged edges, disjoint mutable thread parts, the
//! reference algorithms, and a tiled, predicated, multi-threaded GEMM
//! written with them and checked against the naive product; recasting.

use cute_dynamic::Step::{Drop, Keep};
use cute_dynamic::{
    IntTuple, Layout, LayoutError, SliceCoord, Tensor, Tiler, axpby, clear, copy, copy_if, downcast, elem_less, fill,
    gemm, inner_partition, local_partition, local_partition_projected, local_tile, local_tile_projected,
    make_fragment_like, make_identity_tensor, make_tensor, make_tensor_at, make_tensor_like, outer_partition, upcast,
    zipped_divide,
};
use proptest::prelude::*;
use std::collections::HashMap;

fn lay(s: &str) -> Layout {
    s.parse().unwrap()
}

fn tup(s: &str) -> IntTuple {
    s.parse().unwrap()
}

fn sc(s: &str) -> SliceCoord {
    s.parse().unwrap()
}

/// Deterministic test data: element `i` of a storage is `f(i)`.
fn data(n: usize) -> Vec<i64> {
    (0..n as i64).map(|i| i * 7 % 1009).collect()
}

// ---------------------------------------------------------------------------
// construction, bounds and access

#[test]
fn make_tensor_checks_the_whole_layout_once() {
    let d = data(32);
    assert!(make_tensor(&d[..], lay("(4,8):(1,4)")).is_ok());
    // cosize 39 > 32
    let e = make_tensor(&d[..], lay("(4,8):(1,5)")).unwrap_err();
    assert!(matches!(e, LayoutError::OutOfStorage { lo: 0, hi: 38, len: 32, .. }), "{e:?}");
    assert!(e.to_string().contains("38") && e.to_string().contains("32"), "{e}");
    // A negative stride reaches below the origin unless the origin moves.
    assert!(matches!(make_tensor(&d[..], lay("4:-1")), Err(LayoutError::OutOfStorage { lo: -3, .. })));
    let t = make_tensor_at(&d[..], 3, lay("4:-1")).unwrap();
    assert_eq!((0..4).map(|i| t[i]).collect::<Vec<_>>(), [d[3], d[2], d[1], d[0]]);
    assert!(make_tensor_at(&d[..], 29, lay("4:1")).is_err());
    assert!(make_tensor_at(&d[..], 28, lay("4:1")).is_ok());
}

#[test]
fn access_at_integral_rank_n_and_natural_coordinates() {
    let d = data(64);
    let l = lay("((2,2),(4,2)):((1,8),(2,16))");
    let t = make_tensor(&d[..], l.clone()).unwrap();
    for i in 0..l.size() {
        let want = d[l.eval(i).unwrap() as usize];
        assert_eq!(t[i], want);
        assert_eq!(*t.get(cute_dynamic::idx2crd(i, l.shape()).unwrap()).unwrap(), want);
    }
    assert_eq!(t[(2, 5)], d[26]);
    assert_eq!(t[&tup("((0,1),(1,1))")], d[26]);
    assert!(matches!(t.get(32), Err(LayoutError::OutOfBounds { .. })));
    assert!(matches!(t.get((4, 0)), Err(LayoutError::OutOfBounds { .. })));
    assert!(matches!(t.get((1, 1, 1)), Err(LayoutError::RankMismatch { .. })));
}

#[test]
fn writes_go_through_the_layout() {
    let mut d = vec![0i64; 12];
    let mut t = make_tensor(&mut d[..], lay("(3,4):(4,1)")).unwrap();
    for i in 0..3 {
        for j in 0..4 {
            t[(i, j)] = 10 * i + j;
        }
    }
    assert_eq!(d, [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]);
}

#[test]
fn owned_tensors_are_compact_column_major() {
    let t = make_tensor_like::<i32>(&lay("(4,(2,3)):(3,(1,12))")).unwrap();
    assert_eq!(t.layout().to_string(), "(4,(2,3)):(1,(4,8))");
    assert_eq!(t.engine().len(), 24);
    let f = make_fragment_like::<bool>(&lay("((2,2),3):((0,1),9)")).unwrap();
    assert_eq!(f.layout().to_string(), "((2,2),3):((1,2),4)");
    assert!((0..12).all(|i| !f[i]));
}

// ---------------------------------------------------------------------------
// slicing as CuTe slices

#[test]
fn slicing_follows_cute() {
    // The example: A(2,_) of ((_3,2),(2,_5,_2)):((4,1),(_2,13,100)).
    let d = data(400);
    let t = make_tensor(&d[..], lay("((3,2),(2,5,2)):((4,1),(2,13,100))")).unwrap();
    let row = t.clone().slice(&sc("(2,_)")).unwrap();
    assert_eq!(row.layout().to_string(), "((2,5,2)):((2,13,100))");
    assert_eq!(row.offset(), 8);
    for j in 0..20 {
        assert_eq!(row[j], t[(2, j)]);
    }
    // Free modes at several depths are gathered flat, in order.
    let s = t.clone().slice(&sc("((_,1),(_,_,1))")).unwrap();
    assert_eq!(s.layout().to_string(), "(3,2,5):(4,2,13)");
    assert_eq!(s.offset(), 101);
    assert_eq!(s[(2, 1, 4)], t[&tup("((2,1),(1,4,1))")]);
    // A bare `_` keeps the tensor as it is.
    assert_eq!(t.clone().slice(&sc("_")).unwrap(), t);
}

// ---------------------------------------------------------------------------
// tiling and partitioning

#[test]
fn cute_docs_tensor_slicing_examples() {
    // CuTe's 03_tensor.md: A = ((_3,2),(2,_5,_2)):((4,1),(_2,13,100)).
    let d = data(400);
    let a = make_tensor(&d[..], lay("((3,2),(2,5,2)):((4,1),(2,13,100))")).unwrap();
    for (coord, sub) in [
        ("(2,_)", "((2,5,2)):((2,13,100))"),      // B
        ("(_,5)", "((3,2)):((4,1))"),             // C
        ("((_,_),5)", "(3,2):(4,1)"),             // D: the same elements as C, rank 2
        ("((_,1),(0,_,1))", "(3,5):(4,13)"),      // E
        ("((2,_),(_,3,_))", "(2,2,2):(1,2,100)"), // F
    ] {
        let t = a.clone().slice(&sc(coord)).unwrap();
        assert_eq!(t.layout().to_string(), sub, "A{coord}");
        // The rank of the result is the number of underscores.
        assert_eq!(t.rank(), coord.matches('_').count(), "A{coord}");
    }
}

#[test]
fn cute_docs_inner_outer_and_tv_partitioning() {
    // Tensor A (8,24) column-major, tiler (_4,_8): zipped ((_4,_8),(2,3)).
    let d = data(8 * 24);
    let a = make_tensor(&d[..], lay("(8,24):(1,8)")).unwrap();
    let tiled = a.clone().zipped_divide(&tup("(4,8)")).unwrap();
    assert_eq!(tiled.layout().shape().to_string(), "((4,8),(2,3))");
    // cta_a = tiled_a((_,_), (bx,by)): (_4,_8); thr_a = tiled_a(tid, (_,_)): (2,3).
    let cta = tiled.clone().slice(&sc("((_,_),(1,2))")).unwrap();
    assert_eq!(cta.layout().shape().to_string(), "(4,8)");
    assert_eq!(cta, local_tile(a.clone(), &tup("(4,8)"), &sc("(1,2)")).unwrap());
    let thr = tiled.slice(&sc("(13,(_,_))")).unwrap();
    assert_eq!(thr.layout().shape().to_string(), "(2,3)");
    assert_eq!(thr, outer_partition(a, &tup("(4,8)"), &sc("13")).unwrap());
    // TV partitioning: (T8,V4) -> (M4,N8) composed with a row-major 4×8 tensor.
    let tv_layout = lay("((2,4),(2,2)):((8,1),(4,16))");
    let rm = lay("(4,8):(8,1)");
    let d = data(32);
    let a = make_tensor(&d[..], rm.clone()).unwrap();
    let tv = a.compose(&tv_layout).unwrap();
    assert_eq!(tv.layout().shape().to_string(), "((2,4),(2,2))");
    for t in 0..8 {
        let v = tv.clone().slice(&sc(&format!("({t},_)"))).unwrap();
        assert_eq!(v.size(), 4);
        for k in 0..4 {
            let mn = tv_layout.eval_coord(&IntTuple::flat([t, k])).unwrap();
            assert_eq!(v[k], d[rm.eval(mn).unwrap() as usize], "thread {t}, value {k}");
        }
    }
}

#[test]
fn local_tile_of_a_ragged_matrix() {
    // (1000,500) column-major, tiled 128×64: 8×8 tiles, the last ones ragged.
    let (m, n) = (1000i64, 500i64);
    let d = data((m * n) as usize);
    let mt = make_tensor(&d[..], lay("(1000,500):(1,1000)")).unwrap();
    let id = make_identity_tensor(&tup("(1000,500)")).unwrap();
    let tiled = zipped_divide(mt.layout(), &tup("(128,64)")).unwrap();
    assert_eq!(tiled.to_string(), "((128,64),(8,8)):((1,1000),(128,64000))");
    for (bx, by) in [(0, 0), (2, 3), (7, 0), (0, 7), (7, 7)] {
        let coord = sc(&format!("({bx},{by})"));
        let blk = local_tile(mt.clone(), &tup("(128,64)"), &coord).unwrap();
        let cblk = local_tile(id.clone(), &tup("(128,64)"), &coord).unwrap();
        assert_eq!(blk.layout().to_string(), "(128,64):(1,1000)");
        assert_eq!(cblk.layout().shape(), blk.layout().shape(), "tiled exactly like the data");
        for i in (0..128).step_by(9) {
            for j in (0..64).step_by(5) {
                let (r, c) = (128 * bx + i, 64 * by + j);
                // The identity tensor gives the matrix coordinate, past the edge too.
                assert_eq!(cblk.get((i, j)).unwrap(), IntTuple::flat([r, c]));
                let inside = elem_less(&cblk.get((i, j)).unwrap(), &tup("(1000,500)"));
                assert_eq!(inside, r < m && c < n);
                if inside {
                    assert_eq!(blk[(i, j)], d[(r + c * m) as usize]);
                }
            }
        }
    }
    // Past the last column the block reaches past the storage: an error, not memory.
    let blk = local_tile(mt, &tup("(128,64)"), &sc("(7,7)")).unwrap();
    assert!(matches!(blk.get((127, 63)), Err(LayoutError::OutOfStorage { .. })));
}

#[test]
fn inner_and_outer_partition_slice_the_two_modes_of_zipped_divide() {
    let d = data(16 * 24);
    let t = make_tensor(&d[..], lay("(16,24):(24,1)")).unwrap();
    let tiler = tup("(4,6)");
    let z = t.clone().zipped_divide(&tiler).unwrap();
    for (a, b) in [(0, 0), (1, 2), (3, 3)] {
        let inner = inner_partition(t.clone(), &tiler, &sc(&format!("({a},{b})"))).unwrap();
        let outer = outer_partition(t.clone(), &tiler, &sc(&format!("({a},{b})"))).unwrap();
        assert_eq!(inner.size(), 24);
        assert_eq!(outer.size(), 16);
        for i in 0..4 {
            for j in 0..6 {
                assert_eq!(inner[(i, j)], z[&tup(&format!("(({i},{j}),({a},{b}))"))]);
            }
        }
        for i in 0..4 {
            for j in 0..4 {
                assert_eq!(outer[(i, j)], z[&tup(&format!("(({a},{b}),({i},{j}))"))]);
            }
        }
    }
    // An integer indexes the whole mode; a short tuple is padded with `_`.
    let flat = inner_partition(t.clone(), &tiler, &sc("5")).unwrap();
    let tup_ = inner_partition(t.clone(), &tiler, &sc("(1,1)")).unwrap();
    assert_eq!(flat, tup_);
    let t3 = make_tensor(&d[..], lay("(16,6,4):(1,16,96)")).unwrap();
    let blk = inner_partition(t3, &tup("(4,3)"), &sc("(1,1)")).unwrap();
    assert_eq!(blk.layout().to_string(), "(4,3,4):(1,16,96)", "the third mode stays free");
    assert!(matches!(inner_partition(t, &tiler, &sc("(1,1,1)")), Err(LayoutError::RankMismatch { .. })));
}

#[test]
fn local_tile_with_projections_serves_a_b_and_c() {
    let (a, b, c) = (data(64 * 12), data(48 * 12), vec![0i64; 64 * 48]);
    let ma = make_tensor(&a[..], lay("(64,12):(1,64)")).unwrap(); // (M,K)
    let mb = make_tensor(&b[..], lay("(48,12):(12,1)")).unwrap(); // (N,K)
    let mc = make_tensor(&c[..], lay("(64,48):(1,64)")).unwrap(); // (M,N)
    let tiler = Tiler::from_shape(&tup("(32,16,4)")).unwrap();
    let coord = sc("(1,2,_)");
    let ga = local_tile_projected(ma.clone(), &tiler, &coord, &[Keep, Drop, Keep]).unwrap();
    let gb = local_tile_projected(mb.clone(), &tiler, &coord, &[Drop, Keep, Keep]).unwrap();
    let gc = local_tile_projected(mc, &tiler, &coord, &[Keep, Keep, Drop]).unwrap();
    assert_eq!(ga.layout().shape().to_string(), "(32,4,3)"); // (BLK_M,BLK_K,k)
    assert_eq!(gb.layout().shape().to_string(), "(16,4,3)"); // (BLK_N,BLK_K,k)
    assert_eq!(gc.layout().shape().to_string(), "(32,16)"); //  (BLK_M,BLK_N)
    assert_eq!(ga[(5, 3, 2)], ma[(32 + 5, 2 * 4 + 3)]);
    assert_eq!(gb[(5, 3, 2)], mb[(32 + 5, 2 * 4 + 3)]);
    assert_eq!(gc.offset(), 32 + 32 * 64);
    assert!(matches!(local_tile_projected(ma, &tiler, &coord, &[Keep, Drop]), Err(LayoutError::RankMismatch { .. })));
}

#[test]
fn local_partition_gives_each_thread_its_share() {
    // 32 threads in a row-major (2,16) arrangement over a (16,64) tile.
    let d: Vec<i64> = (0..16 * 64).collect();
    let t = make_tensor(&d[..], lay("(16,64):(1,16)")).unwrap();
    let thr = lay("(2,16):(16,1)");
    let mut owner: HashMap<i64, i64> = HashMap::new();
    for tid in 0..32 {
        let p = local_partition(t.clone(), &thr, tid).unwrap();
        assert_eq!(p.layout().shape().to_string(), "(8,4)");
        let (tr, tc) = (tid / 16, tid % 16);
        for i in 0..8 {
            for j in 0..4 {
                let v = p[(i, j)];
                // Thread (tr,tc) owns rows tr, tr+2, ... and columns tc, tc+16, ...
                assert_eq!((v % 16, v / 16), (tr + 2 * i, tc + 16 * j));
                assert!(owner.insert(v, tid).is_none(), "element {v} given twice");
            }
        }
    }
    assert_eq!(owner.len(), 16 * 64);
    assert!(matches!(local_partition(t.clone(), &thr, 32), Err(LayoutError::OutOfBounds { .. })));
    // Projected: A (M,K) is split by the M mode of the threads only.
    let pa = local_partition_projected(t, &lay("(2,16,1):(16,1,0)"), 17, &[Keep, Drop, Keep]).unwrap();
    assert_eq!(pa.layout().to_string(), "(8,64):(2,16)");
    assert_eq!(pa[(0, 0)], 1);
}

#[test]
fn identity_tensors_map_coordinates_to_themselves() {
    for s in ["8", "(4,8)", "(2,(3,4))", "((2,2),(3,(2,2)))", "(1000,500)"] {
        let shape = tup(s);
        let id = make_identity_tensor(&shape).unwrap();
        assert_eq!(id.shape(), &shape);
        for i in (0..id.size()).step_by(if id.size() > 1000 { 997 } else { 1 }) {
            let want = cute_tests::natural(i, &shape);
            assert_eq!(id.get(i).unwrap(), want, "{s} at {i}");
            assert_eq!(id.get(&want).unwrap(), want);
        }
    }
    assert!(make_identity_tensor(&tup("(4,0)")).is_err());
    // 4 leaves leave 15 bits each: extents up to 2^14 - 1.
    assert!(make_identity_tensor(&tup("(16383,2,2,2)")).is_ok());
    assert!(matches!(make_identity_tensor(&tup("(16384,2,2,2)")), Err(LayoutError::Overflow { .. })));
}

#[test]
fn elem_less_is_cutes() {
    let s = tup("(4,(2,3))");
    assert!(elem_less(&tup("(3,(1,2))"), &s));
    assert!(!elem_less(&tup("(4,(1,2))"), &s));
    assert!(!elem_less(&tup("(3,(1,3))"), &s));
    assert!(elem_less(&tup("(1,2)"), &tup("(2,3,4)")), "a shorter tuple compares its shared elements");
    assert!(!elem_less(&tup("(1,2,3)"), &tup("(2,3)")), "a longer tuple is not less");
    assert!(!elem_less(&tup("((1,1),2)"), &tup("(3,3)")), "structures differ");
}

// ---------------------------------------------------------------------------
// disjoint mutable thread parts

#[test]
fn partition_mut_hands_out_disjoint_parts_that_threads_fill() {
    let mut d = vec![-1i64; 32 * 24];
    let t = make_tensor(&mut d[..], lay("(32,24):(1,32)")).unwrap();
    let thr = lay("(8,4):(4,1)"); // 32 threads, row-major
    let parts = t.partition_mut(&thr).unwrap();
    assert_eq!(parts.len(), 32);
    std::thread::scope(|s| {
        for (tid, mut p) in parts.into_iter().enumerate() {
            s.spawn(move || {
                for i in 0..p.size() {
                    p[i] = tid as i64;
                }
            });
        }
    });
    // Each element holds the thread that local_partition assigns it.
    let view = make_tensor(&d[..], lay("(32,24):(1,32)")).unwrap();
    for tid in 0..32 {
        let p = local_partition(view.clone(), &thr, tid).unwrap();
        for i in 0..p.size() {
            assert_eq!(p[i], tid);
        }
    }
    assert!(d.iter().all(|&v| v >= 0), "every element written");
}

/// A GEMM's C tile partitioned as a CuTe DSL tiled MMA does: 256 threads
/// as 16×16 over a 128×128 row-major tile of C, with the permutation `(16,4):(4,1)` per
/// dimension (extended by its rest `2:64` to cover 128). Thread `(tm,tn)`
/// owns rows `tm·4 + {0,1,2,3} + {0,64}` × the same columns: 64 elements.
#[test]
fn gemm_walkthrough_partition_of_c() {
    let mut c = vec![-1i64; 128 * 128];
    let gc = make_tensor(&mut c[..], lay("(128,128):(128,1)")).unwrap();
    let perm: Tiler = "<(16,4,2):(4,1,64), (16,4,2):(4,1,64)>".parse().unwrap();
    let permuted = gc.compose(&perm).unwrap();
    assert_eq!(permuted.layout().to_string(), "((16,4,2),(16,4,2)):((512,128,8192),(4,1,64))");
    let thr = lay("(16,16):(16,1)"); // thread tid = 16·tm + tn
    let parts = permuted.partition_mut(&thr).unwrap();
    for (tid, p) in parts.iter().enumerate() {
        let (tm, tn) = (tid as i64 / 16, tid as i64 % 16);
        assert_eq!(p.layout().to_string(), "((4,2),(4,2)):((128,8192),(1,64))");
        // "Thread 0: rows {0,1,2,3,64,65,66,67} × the same columns".
        let mut cells: Vec<(i64, i64)> = Vec::new();
        for i in 0..p.size() {
            let off = p.offset() + p.layout().eval(i).unwrap();
            cells.push((off / 128, off % 128));
        }
        cells.sort_unstable();
        let mut want: Vec<(i64, i64)> = Vec::new();
        for r in [0, 1, 2, 3, 64, 65, 66, 67] {
            for cc in [0, 1, 2, 3, 64, 65, 66, 67] {
                want.push((tm * 4 + r, tn * 4 + cc));
            }
        }
        want.sort_unstable();
        assert_eq!(cells, want, "thread {tid}");
    }
    std::thread::scope(|s| {
        for (tid, mut p) in parts.into_iter().enumerate() {
            s.spawn(move || {
                for i in 0..p.size() {
                    p[i] = tid as i64;
                }
            });
        }
    });
    // Together the threads cover the tile once, each cell by its formula's owner.
    for r in 0..128 {
        for cc in 0..128 {
            assert_eq!(c[(r * 128 + cc) as usize], (r % 64 / 4) * 16 + cc % 64 / 4, "C[{r}][{cc}]");
        }
    }
}

#[test]
fn partition_mut_refuses_overlapping_parts() {
    let mut d = [0u8; 64];
    // A thread layout that is not a bijection: threads 0 and 2 get the same coordinate.
    let t = make_tensor(&mut d[..], lay("(8,8):(1,8)")).unwrap();
    let e = t.partition_mut(&lay("(2,2):(1,1)")).unwrap_err();
    assert!(matches!(e, LayoutError::Overlap { first: 0, second: 2, .. }), "{e:?}");
    assert!(e.to_string().contains("not disjoint"), "{e}");
    // A broadcast (stride-0) mode split across threads.
    let t = make_tensor(&mut d[..], lay("(8,8):(1,0)")).unwrap();
    assert!(matches!(t.partition_mut(&lay("(4,2):(1,4)")), Err(LayoutError::Overlap { .. })));
    // The same broadcast mode kept inside each thread is fine.
    let t = make_tensor(&mut d[..], lay("(8,8):(1,0)")).unwrap();
    assert!(t.partition_mut(&lay("(8,1):(1,0)")).is_ok());
}

#[test]
fn thread_parts_slice_within_themselves() {
    let mut d = vec![0i64; 64];
    let t = make_tensor(&mut d[..], lay("(8,8):(1,8)")).unwrap();
    let mut parts = t.partition_mut(&lay("(2,2):(1,2)")).unwrap();
    let p3 = parts.pop().unwrap();
    assert_eq!(p3.layout().to_string(), "(4,4):(2,16)");
    let mut col = p3.slice(&sc("(_,2)")).unwrap();
    for i in 0..4 {
        col[i] = 1;
    }
    let ones: Vec<usize> = d.iter().enumerate().filter(|(_, v)| **v == 1).map(|(i, _)| i).collect();
    // thread 3 = (1,1): rows 1,3,5,7 of column 1 + 2·2 = 5
    assert_eq!(ones, [41, 43, 45, 47]);
}

#[test]
fn partition_mut_counts_the_ragged_extension_of_a_tile() {
    // A 32-row tile of a 7-row column-major matrix wraps into the next
    // columns: its rows past 7 alias elements other threads of the same tile
    // own, so the parts would not be disjoint.
    let mut d = vec![0i64; 7 * 5];
    let m = make_tensor(&mut d[..], lay("(7,5):(1,7)")).unwrap();
    let tile = local_tile(m, &tup("(32,16)"), &sc("(0,0)")).unwrap();
    assert!(matches!(tile.partition_mut(&lay("(8,4):(1,8)")), Err(LayoutError::Overlap { .. })));
}

// ---------------------------------------------------------------------------
// algorithms

#[test]
fn fill_clear_copy_axpby() {
    let mut a = vec![0i64; 12];
    let mut t = make_tensor(&mut a[..], lay("(3,4):(4,1)")).unwrap();
    fill(&mut t, 5).unwrap();
    assert!(a.iter().all(|&v| v == 5));
    let mut t = make_tensor(&mut a[..], lay("(3,2):(4,2)")).unwrap();
    clear(&mut t).unwrap();
    assert_eq!(a, [0, 5, 0, 5, 0, 5, 0, 5, 0, 5, 0, 5]);

    let src: Vec<i64> = (0..12).collect();
    let mut dst = [0i64; 12];
    let s = make_tensor(&src[..], lay("(3,4):(4,1)")).unwrap();
    let mut dt = make_tensor(&mut dst[..], lay("(3,4):(1,3)")).unwrap();
    copy(&s, &mut dt).unwrap();
    for i in 0..3 {
        for j in 0..4 {
            assert_eq!(dst[(i + 3 * j) as usize], src[(4 * i + j) as usize]);
        }
    }
    let mut short = [0i64; 4];
    let e = copy(&s, &mut make_tensor(&mut short[..], lay("4:1")).unwrap()).unwrap_err();
    assert!(matches!(e, LayoutError::SizeMismatch { expected: 12, found: 4, .. }), "{e:?}");

    let x: Vec<i64> = (1..=6).collect();
    let mut y = vec![10i64; 6];
    axpby(3, &make_tensor(&x[..], lay("6:1")).unwrap(), -1, &mut make_tensor(&mut y[..], lay("(2,3):(3,1)")).unwrap())
        .unwrap();
    // y(i) = 3·x(i) - 10 with y's layout (2,3):(3,1): y[0]=x(0), y[3]=x(1), y[1]=x(2), ...
    assert_eq!(y, [3 - 10, 9 - 10, 15 - 10, 6 - 10, 12 - 10, 18 - 10]);
}

#[test]
fn copy_if_touches_only_the_predicated_elements() {
    let src: Vec<i64> = (100..108).collect();
    let mut dst = vec![0i64; 8];
    let pred: Vec<bool> = (0..8).map(|i| i % 3 == 0).collect();
    let l = lay("(2,4):(1,2)");
    copy_if(
        &make_tensor(&pred[..], l.clone()).unwrap(),
        &make_tensor(&src[..], l.clone()).unwrap(),
        &mut make_tensor(&mut dst[..], l).unwrap(),
    )
    .unwrap();
    assert_eq!(dst, [100, 0, 0, 103, 0, 0, 106, 0]);
}

/// Fills a tensor of the given layout with `seed`-dependent values.
fn filled(l: &str, seed: i64) -> (Vec<i64>, Layout) {
    let l = lay(l);
    let n = l.cosize() as usize;
    ((0..n as i64).map(|i| (i * 31 + seed * 17) % 23 - 11).collect(), l)
}

/// Runs `gemm` on tensors of the three layouts and checks every element of
/// C against `C0 + Σ_k A·B`, with each operand's coordinate written out by
/// hand from the extents `(v, m, n, k)` (`-1` marks a mode the operand lacks).
fn check_gemm(layouts: [&str; 3], modes: [[usize; 3]; 3], ext: [i64; 4]) {
    let (a, la) = filled(layouts[0], 1);
    let (b, lb) = filled(layouts[1], 2);
    let (mut c, lc) = filled(layouts[2], 3);
    let c0 = c.clone();
    let ta = make_tensor(&a[..], la.clone()).unwrap();
    let tb = make_tensor(&b[..], lb.clone()).unwrap();
    gemm(&ta, &tb, &mut make_tensor(&mut c[..], lc.clone()).unwrap()).unwrap();
    // `modes[o]` lists the extents (0=V, 1=M, 2=N, 3=K) of operand o's modes; 9 ends the list.
    let coord = |o: usize, x: [i64; 4]| {
        let c: Vec<i64> = modes[o].iter().take_while(|&&e| e != 9).map(|&e| x[e]).collect();
        if c.len() == 1 { IntTuple::int(c[0]) } else { IntTuple::flat(c) }
    };
    let off = |l: &Layout, c: &IntTuple| {
        (if let Some(i) = c.as_int() { l.eval(i) } else { l.eval_coord(c) }).unwrap() as usize
    };
    for v in 0..ext[0] {
        for m in 0..ext[1] {
            for n in 0..ext[2] {
                let sum: i64 = (0..ext[3])
                    .map(|k| a[off(&la, &coord(0, [v, m, n, k]))] * b[off(&lb, &coord(1, [v, m, n, k]))])
                    .sum();
                let o = off(&lc, &coord(2, [v, m, n, 0]));
                assert_eq!(c[o], c0[o] + sum, "{layouts:?} at v={v} m={m} n={n}");
            }
        }
    }
}

#[test]
fn gemm_dispatches_on_ranks_as_cute() {
    // (V) x (V) => (V), B with a hierarchical mode
    check_gemm(["6:2", "((2,3)):((3,1))", "6:1"], [[0, 9, 9], [0, 9, 9], [0, 9, 9]], [6, 1, 1, 1]);
    // (M) x (N) => (M,N)
    check_gemm(["4:1", "3:2", "(4,3):(3,1)"], [[1, 9, 9], [2, 9, 9], [1, 2, 9]], [1, 4, 3, 1]);
    // (M,K) x (N,K) => (M,N), with a hierarchical M mode
    check_gemm(
        ["((2,3),5):((1,2),6)", "(4,5):(5,1)", "((2,3),4):((4,8),1)"],
        [[1, 3, 9], [2, 3, 9], [1, 2, 9]],
        [1, 6, 4, 5],
    );
    // (V,M) x (V,N) => (V,M,N)
    check_gemm(["(2,3):(3,1)", "(2,4):(1,2)", "(2,3,4):(1,2,6)"], [[0, 1, 9], [0, 2, 9], [0, 1, 2]], [2, 3, 4, 1]);
    // (V,M,K) x (V,N,K) => (V,M,N)
    check_gemm(
        ["(2,3,5):(15,5,1)", "(2,4,5):(1,2,8)", "(2,3,4):(12,4,1)"],
        [[0, 1, 3], [0, 2, 3], [0, 1, 2]],
        [2, 3, 4, 5],
    );
}

#[test]
fn gemm_refuses_disagreeing_operands() {
    // Disagreeing extents and unsupported ranks are errors.
    let (a, la) = filled("(4,5):(1,4)", 1);
    let (b, lb) = filled("(3,6):(1,3)", 2);
    let (mut c, lc) = filled("(4,3):(1,4)", 3);
    let e = gemm(
        &make_tensor(&a[..], la.clone()).unwrap(),
        &make_tensor(&b[..], lb).unwrap(),
        &mut make_tensor(&mut c[..], lc).unwrap(),
    )
    .unwrap_err();
    assert!(matches!(e, LayoutError::SizeMismatch { expected: 5, found: 6, .. }), "{e:?}");
    let (mut c3, lc3) = filled("(2,2,2,2):(1,2,4,8)", 3);
    let e = gemm(
        &make_tensor(&a[..], la.clone()).unwrap(),
        &make_tensor(&a[..], la).unwrap(),
        &mut make_tensor(&mut c3[..], lc3).unwrap(),
    )
    .unwrap_err();
    assert!(matches!(e, LayoutError::RankMismatch { .. }), "{e:?}");
}

// ---------------------------------------------------------------------------
// a GEMM written with all of it

/// `C += A·Bᵀ` for `A (M,K)` column-major, `B (N,K)` row-major and `C (M,N)`
/// column-major, as a CuTe kernel is written: thread blocks take 32×16 tiles
/// of C and walk K in steps of 8 (`local_tile` with projections), 32 threads
/// split each tile (`partition_mut` for C, `local_partition` with
/// projections for A and B), copy into register fragments under a predicate
/// made from identity tensors (`copy_if`, `elem_less`), multiply there
/// (`gemm` on fragments), and write back under the predicate. Every extent
/// is ragged against its tile.
fn tiled_gemm(m: i64, n: i64, k: i64, a: &[i64], b: &[i64], c: &mut [i64]) {
    let ma = make_tensor(a, Layout::new(IntTuple::flat([m, k]), IntTuple::flat([1, m])).unwrap()).unwrap();
    let mb = make_tensor(b, Layout::new(IntTuple::flat([n, k]), IntTuple::flat([k, 1])).unwrap()).unwrap();
    let lc = Layout::new(IntTuple::flat([m, n]), IntTuple::flat([1, m])).unwrap();
    let (ca, cb, cc) = (
        make_identity_tensor(&IntTuple::flat([m, k])).unwrap(),
        make_identity_tensor(&IntTuple::flat([n, k])).unwrap(),
        make_identity_tensor(&IntTuple::flat([m, n])).unwrap(),
    );
    let tiler = Tiler::from_shape(&tup("(32,16,8)")).unwrap();
    let thr = lay("(8,4):(1,8)"); // 32 threads over a 32×16 tile of C
    let (pa, pb, pc) = ([Keep, Drop, Keep], [Drop, Keep, Keep], [Keep, Keep, Drop]);
    let blocks = |e: i64, t: i64| (e + t - 1) / t;
    let mut mc = make_tensor(&mut c[..], lc).unwrap();
    for bx in 0..blocks(m, 32) {
        for by in 0..blocks(n, 16) {
            let coord = sc(&format!("({bx},{by},_)"));
            let ga = local_tile_projected(ma.clone(), &tiler, &coord, &pa).unwrap(); // (32,8,kt)
            let gb = local_tile_projected(mb.clone(), &tiler, &coord, &pb).unwrap(); // (16,8,kt)
            let gc = local_tile_projected(mc.view_mut(), &tiler, &coord, &pc).unwrap(); // (32,16)
            let gca = local_tile_projected(ca.clone(), &tiler, &coord, &pa).unwrap();
            let gcb = local_tile_projected(cb.clone(), &tiler, &coord, &pb).unwrap();
            let gcc = local_tile_projected(cc.clone(), &tiler, &coord, &pc).unwrap();
            let parts = gc.partition_mut(&thr).unwrap();
            std::thread::scope(|s| {
                for (tid, mut tcgc) in parts.into_iter().enumerate() {
                    let (ga, gb, gca, gcb, gcc, thr) = (&ga, &gb, &gca, &gcb, &gcc, &thr);
                    s.spawn(move || {
                        let tid = tid as i64;
                        let taga = local_partition_projected(ga.clone(), thr, tid, &[Keep, Drop]).unwrap(); // (4,8,kt)
                        let tbgb = local_partition_projected(gb.clone(), thr, tid, &[Drop, Keep]).unwrap(); // (4,8,kt)
                        let taca = local_partition_projected(gca.clone(), thr, tid, &[Keep, Drop]).unwrap();
                        let tbcb = local_partition_projected(gcb.clone(), thr, tid, &[Drop, Keep]).unwrap();
                        let tccc = local_partition(gcc.clone(), thr, tid).unwrap(); // (4,4)
                        assert_eq!(tcgc.layout().shape().to_string(), "(4,4)");
                        let k_tiles = taga.layout().get(2).unwrap().size();
                        let mut rc = make_fragment_like::<i64>(tcgc.layout()).unwrap();
                        clear(&mut rc).unwrap();
                        for kt in 0..k_tiles {
                            let at = sc(&format!("(_,_,{kt})"));
                            let (ga_k, ca_k) = (taga.clone().slice(&at).unwrap(), taca.clone().slice(&at).unwrap());
                            let (gb_k, cb_k) = (tbgb.clone().slice(&at).unwrap(), tbcb.clone().slice(&at).unwrap());
                            let mut ra = make_fragment_like::<i64>(ga_k.layout()).unwrap();
                            let mut rb = make_fragment_like::<i64>(gb_k.layout()).unwrap();
                            let pred_a = predicate(&ca_k, &IntTuple::flat([m, k]));
                            let pred_b = predicate(&cb_k, &IntTuple::flat([n, k]));
                            copy_if(&pred_a, &ga_k, &mut ra).unwrap();
                            copy_if(&pred_b, &gb_k, &mut rb).unwrap();
                            gemm(&ra, &rb, &mut rc).unwrap();
                        }
                        let pred_c = predicate(&tccc, &IntTuple::flat([m, n]));
                        // C += A·B: add the accumulator to C where the predicate holds.
                        let mut cur = make_fragment_like::<i64>(tcgc.layout()).unwrap();
                        copy_if(&pred_c, &tcgc, &mut cur).unwrap();
                        axpby(1, &rc, 1, &mut cur).unwrap();
                        copy_if(&pred_c, &cur, &mut tcgc).unwrap();
                    });
                }
            });
        }
    }
}

/// The predicate tensor `elem_less(coord(i), shape)` of a coordinate tensor.
fn predicate(coords: &Tensor<cute_dynamic::Coords>, shape: &IntTuple) -> Tensor<Vec<bool>> {
    let mut p = make_fragment_like::<bool>(coords.layout()).unwrap();
    for i in 0..coords.size() {
        p[i] = elem_less(&coords.get(i).unwrap(), shape);
    }
    p
}

#[test]
fn a_tiled_predicated_threaded_gemm_equals_the_naive_product() {
    // Ragged in every extent; N and K also smaller than their tiles.
    for (m, n, k) in [(100, 70, 30), (32, 16, 8), (33, 17, 9), (40, 5, 3)] {
        let a: Vec<i64> = (0..m * k).map(|i| (i * 13 + 5) % 19 - 9).collect(); // (M,K) column-major
        let b: Vec<i64> = (0..n * k).map(|i| (i * 11 + 3) % 17 - 8).collect(); // (N,K) row-major
        let c0: Vec<i64> = (0..m * n).map(|i| i % 7).collect(); //               (M,N) column-major
        let mut c = c0.clone();
        tiled_gemm(m, n, k, &a, &b, &mut c);
        for i in 0..m {
            for j in 0..n {
                let want: i64 = c0[(i + j * m) as usize]
                    + (0..k).map(|kk| a[(i + kk * m) as usize] * b[(j * k + kk) as usize]).sum::<i64>();
                assert_eq!(c[(i + j * m) as usize], want, "C({i},{j}) for {m}x{n}x{k}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// recast

/// A flat layout for recasting by `n`: each leaf has stride 0, ±1 (extent a
/// multiple of `n`) or a multiple of `n`.
fn recastable(n: i64) -> impl Strategy<Value = Layout> {
    let leaf = (0u8..4, 1i64..=4, -3i64..=3).prop_map(move |(kind, s, k)| match kind {
        0 => (s, 0),
        1 => (s * n, if k < 0 { -1 } else { 1 }),
        _ => (s, if k == 0 { n } else { k * n }),
    });
    prop::collection::vec(leaf, 1..=3).prop_map(|ls| {
        Layout::new(IntTuple::flat(ls.iter().map(|l| l.0)), IntTuple::flat(ls.iter().map(|l| l.1))).unwrap()
    })
}

/// The flat coordinate of `i` in `l`'s leaves (column-major).
fn leaf_coord(l: &Layout, i: i64) -> Vec<i64> {
    let mut rest = i;
    l.shape()
        .leaves()
        .map(|s| {
            let c = rest % s;
            rest /= s;
            c
        })
        .collect()
}

fn eval_leaves(l: &Layout, c: &[i64]) -> i64 {
    c.iter().zip(l.stride().leaves()).map(|(c, d)| c * d).sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    /// `n·upcast(L)(c) == L(c↑)`: the coordinate of each stride-±1 leaf scaled by `n`.
    #[test]
    fn upcast_groups_contiguous_elements(n in 1i64..=4, l in (1i64..=4).prop_flat_map(recastable)) {
        let Ok(r) = upcast(&l, n) else {
            // Only a stride-±1 extent or a stride that does not divide by n is refused.
            prop_assert!(l.shape().leaves().zip(l.stride().leaves()).any(|(s, d)|
                (d.abs() == 1 && s % n != 0) || (d != 0 && d.abs() != 1 && d % n != 0)));
            return Ok(());
        };
        prop_assert_eq!(r.shape().leaf_count(), l.shape().leaf_count());
        for i in 0..r.size() {
            let c = leaf_coord(&r, i);
            let up: Vec<i64> = c.iter().zip(l.stride().leaves()).map(|(c, d)| if d.abs() == 1 { c * n } else { *c }).collect();
            prop_assert_eq!(n * eval_leaves(&r, &c), eval_leaves(&l, &up), "upcast({}, {}) = {} at {}", l, n, r, i);
        }
    }

    /// `downcast(L)`: along a stride-±1 leaf, coordinate `i` is part `i % n`
    /// of old element `i / n`; elsewhere `R(c) == n·L(c)`.
    #[test]
    fn downcast_splits_elements(n in 1i64..=4, l in recastable(1)) {
        let r = downcast(&l, n).unwrap();
        for i in 0..r.size() {
            let c = leaf_coord(&r, i);
            let (mut old, mut part) = (Vec::new(), 0);
            for (c, d) in c.iter().zip(l.stride().leaves()) {
                if d.abs() == 1 {
                    old.push(c / n);
                    part += d * (c % n);
                } else {
                    old.push(*c);
                }
            }
            prop_assert_eq!(eval_leaves(&r, &c), n * eval_leaves(&l, &old) + part, "downcast({}, {}) = {} at {}", l, n, r, i);
        }
    }
}

#[test]
fn recast_tensors_view_the_same_bytes() {
    let words: Vec<u32> = (0..24).map(|i| 0x0101_0101 * i).collect();
    let t = make_tensor(&words[..], lay("(4,6):(1,4)")).unwrap();
    let bytes = t.clone().recast::<u8>().unwrap();
    assert_eq!(bytes.layout().to_string(), "(16,6):(1,16)");
    for i in 0..4 {
        for j in 0..6 {
            for b in 0..4 {
                assert_eq!(bytes[(4 * i + b, j)], t[(i, j)].to_ne_bytes()[b as usize]);
            }
        }
    }
    let back = bytes.recast::<u32>().unwrap();
    assert_eq!(back, t);
    // A u64 view of a column of 6 u32 pairs; an origin inside a u64 is refused.
    let col = make_tensor(&words[..], lay("(2,12):(1,2)")).unwrap();
    let wide = col.clone().recast::<u64>().unwrap();
    assert_eq!(wide.layout().to_string(), "(1,12):(1,1)");
    let odd = col.slice(&sc("(1,_)")).unwrap();
    assert!(matches!(odd.recast::<u64>(), Err(LayoutError::Unsupported { .. })));
    // Writes through a recast mutable tensor land in the original.
    let mut w = [0u32; 4];
    let mut h = make_tensor(&mut w[..], lay("4:1")).unwrap().recast::<u16>().unwrap();
    h[7] = 0xabcd;
    let hi = if cfg!(target_endian = "little") { 0xabcd_0000 } else { 0x0000_abcd };
    assert_eq!(w, [0, 0, 0, hi]);
}

fn flat2(s0: i64, s1: i64, d0: i64, d1: i64) -> Layout {
    Layout::new(IntTuple::flat([s0, s1]), IntTuple::flat([d0, d1])).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    /// `partition_mut` hands out parts exactly when they are disjoint: on
    /// success no storage index is reached by two threads' parts (brute
    /// force over every coordinate, as `local_partition` gives them); on
    /// `Overlap` two threads do reach one index.
    #[test]
    fn partition_mut_parts_never_overlap(
        (s0, s1, d0, d1) in (1i64..=8, 1i64..=8, 0i64..=9, 0i64..=9),
        (p0, p1, e0, e1) in (1i64..=4, 1i64..=4, 0i64..=5, 0i64..=5),
    ) {
        let l = flat2(s0, s1, d0, d1);
        let thr = flat2(p0, p1, e0, e1);
        let len = l.cosize() as usize;
        let mut d = vec![0u8; len];
        let view_data = vec![0u8; len];
        let view = make_tensor(&view_data[..], l.clone()).unwrap();
        // The reach of every thread, computed independently of partition_mut.
        let mut reach: Vec<Option<i64>> = vec![None; len];
        let mut overlap = false;
        for tid in 0..thr.size() {
            let Ok(p) = local_partition(view.clone(), &thr, tid) else { return Ok(()) };
            for i in 0..p.size() {
                let idx = p.offset() + p.layout().eval(i).unwrap();
                if idx >= 0 && (idx as usize) < len {
                    match reach[idx as usize] {
                        Some(o) if o != tid => overlap = true,
                        _ => reach[idx as usize] = Some(tid),
                    }
                }
            }
        }
        let t = make_tensor(&mut d[..], l.clone()).unwrap();
        match t.partition_mut(&thr) {
            Ok(parts) => {
                prop_assert!(!overlap, "{} by {}: parts handed out although they overlap", l, thr);
                prop_assert_eq!(parts.len() as i64, thr.size());
            }
            Err(LayoutError::Overlap { .. }) => prop_assert!(overlap, "{} by {}: refused without an overlap", l, thr),
            Err(e) => prop_assert!(false, "{} by {}: {}", l, thr, e),
        }
    }
}

/// A tensor over a swizzled layout (CuTe's tensor over a `ComposedLayout`):
/// every element is the storage at the composed layout's offset; tiles and
/// thread parts (the algebra on the inner layout) name the same elements as
/// the whole tensor; it agrees with cute-static's element for element.
#[test]
fn swizzled_tensors_index_tile_and_partition_through_the_inner_layout() {
    use cute_dynamic::{ComposedLayout, Swizzle, local_partition, local_tile, make_tensor};
    let data: Vec<u32> = (0..512).collect();
    let inner: Layout = "(8,64):(64,1)".parse().unwrap();
    let sw = ComposedLayout::compose(Swizzle::new(3, 4, 3).unwrap(), &inner);
    let t = make_tensor(&data[..], sw.clone()).unwrap();
    let st = cute_static::make_tensor(
        &data[..],
        cute_static::Swizzle::<3, 4, 3>::new().compose(cute_static::prelude::layout!((8, 64):(64, 1))),
    );
    for i in 0..8i64 {
        for j in 0..64i64 {
            let want = sw.eval_coord(&format!("({i},{j})").parse().unwrap()).unwrap();
            assert_eq!(t[(i, j)] as i64, want);
            assert_eq!(st[(i as usize, j as usize)], t[(i, j)]);
        }
    }
    let tile =
        local_tile(t.clone(), &"(4,16)".parse::<cute_dynamic::IntTuple>().unwrap(), &"(1,2)".parse().unwrap()).unwrap();
    for i in 0..4i64 {
        for j in 0..16i64 {
            assert_eq!(tile[(i, j)], t[(4 + i, 32 + j)]);
        }
    }
    let thr: Layout = "(2,8):(8,1)".parse().unwrap();
    let mut seen = vec![0u32; 512];
    for tid in 0..16 {
        let p = local_partition(tile.clone(), &thr, tid).unwrap();
        for k in 0..p.size() {
            seen[p[k] as usize] += 1;
        }
    }
    assert_eq!(seen.iter().filter(|&&n| n == 1).count(), 64);
    assert!(seen.iter().all(|&n| n <= 1));
    // The storage must hold every swizzled offset; thread parts that would
    // lose the swizzle are refused.
    let small = [0u8; 32];
    let l = ComposedLayout::compose(Swizzle::new(2, 3, -3).unwrap(), &"(4,8):(8,1)".parse().unwrap());
    let e = make_tensor(&small[..], l.clone()).unwrap_err();
    assert!(e.to_string().contains("reaches storage indices 0..=223, outside a storage of 32 elements"), "{e}");
    let mut big = [0u8; 224];
    let t = make_tensor(&mut big[..], l).unwrap();
    assert!(t.partition_mut(&"(2,2):(1,2)".parse().unwrap()).is_err());
}
