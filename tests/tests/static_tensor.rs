//! Tensors of cute-static: construction and bounds (an error at
//! construction, never at access), access at integral, rank-N and natural
//! coordinates, slicing with `_` as CuTe slices, tiling and partitioning
//! with CuTe's semantics and static tile shapes, agreement with
//! cute-dynamic's tensors, predication with identity tensors, disjoint
//! mutable thread parts, the reference algorithms, and the `sgemm_1`
//! example kernel against the naive product.

use cute_static::prelude::*;
use proptest::prelude::*;

#[allow(dead_code)]
#[path = "../../cute-static/examples/sgemm.rs"]
pub(crate) mod sgemm;

fn dlay(s: &str) -> cute_dynamic::Layout {
    s.parse().unwrap()
}

/// Deterministic test data: element `i` is `i·7 mod 1009`.
fn data(n: usize) -> Vec<i64> {
    (0..n as i64).map(|i| i * 7 % 1009).collect()
}

// ---------------------------------------------------------------------------
// construction, bounds and access

#[test]
fn make_tensor_checks_the_whole_layout_once() {
    let d = data(32);
    assert!(try_make_tensor(&d[..], layout!((4,8):(1,4))).is_ok());
    let e = try_make_tensor(&d[..], layout!((4,8):(1,5))).unwrap_err();
    assert_eq!(
        e,
        cute_dynamic::LayoutError::OutOfStorage { what: "the tensor's layout".into(), lo: 0, hi: 38, len: 32 }
    );
    // The same verdict as cute-dynamic's make_tensor.
    assert!(cute_dynamic::make_tensor(&d[..], dlay("(4,8):(1,5)")).is_err());
    // Run-time extents and strides, negative ones too.
    let (m, s) = (8usize, -1i64);
    assert!(try_make_tensor(&d[..], layout!(({m},4):(1,{m}))).is_ok());
    assert!(try_make_tensor(&d[..], layout!(({m},5):(1,{m}))).is_err());
    assert!(try_make_tensor(&d[..], layout!(4:{s})).is_err()); // reaches -3
    let rev = try_make_tensor_at(&d[..], 3, layout!(4:{s})).unwrap();
    assert_eq!((0..4).map(|i| rev[i]).collect::<Vec<_>>(), [d[3], d[2], d[1], d[0]]);
}

#[test]
#[should_panic(expected = "outside a storage of 32 elements")]
fn make_tensor_panics_with_the_error_at_construction() {
    let d = data(32);
    let _ = make_tensor(&d[..], layout!((4,8):(1,5)));
}

#[test]
fn access_outside_the_shape_is_none_or_a_panic_never_memory() {
    let d = data(64);
    let t = make_tensor(&d[..], layout!((4,8):(1,4)));
    assert_eq!(t.get(32usize), None);
    assert_eq!(t.get((4usize, 0usize)), None);
    assert_eq!(t.get((3usize, 7usize)), Some(&d[31]));
    let r = std::panic::catch_unwind(|| t[(0usize, 8usize)]);
    assert!(r.is_err());
}

#[test]
fn access_agrees_with_the_layout_and_with_cute_dynamic() {
    let d = data(200);
    let l = layout!(((2,2),(4,2)):((1,8),(2,16)));
    let t = make_tensor(&d[..], l);
    let dt = cute_dynamic::make_tensor(&d[..], l.to_dynamic()).unwrap();
    for i in 0..32usize {
        assert_eq!(t[i], d[l.index(i)]);
        assert_eq!(t[i], dt[i as i64]);
        let (a, b) = (i % 4, i / 4);
        assert_eq!(t[(a, b)], t[i]);
        assert_eq!(t[((a % 2, a / 2), (b % 4, b / 4))], t[i]);
    }
}

#[test]
fn owned_tensors_and_fragments() {
    // make_fragment_like: mode 0 column-major, then the modes in the order
    // of the source's strides (here the same as column-major).
    let f = make_fragment_like::<f32, _>(layout!((4,(2,3)):(3,(1,12))));
    // Storage sized by the shape in the type: exactly 24 elements (in
    // whole cache lines: 96 bytes take two).
    assert_eq!(f.engine().len(), 24);
    assert_eq!(std::mem::size_of_val(f.engine()), 128);
    assert_eq!(std::mem::align_of_val(f.engine()), 64);
    assert_eq!(f.engine().as_ptr() as usize % 64, 0);
    assert_eq!(f.layout().to_string(), "(_4,(_2,_3)):(_1,(_4,_8))");
    // cute-dynamic's leaves are run-time, which CuTe lays out column-major.
    assert_eq!(
        f.layout().to_dynamic(),
        cute_dynamic::make_fragment_like::<f32>(&dlay("(4,(2,3)):(3,(1,12))")).unwrap().layout().clone()
    );
    // make_tensor_like: the source's order of strides, here row-major.
    let src = [7i32; 8];
    let mut t = make_tensor_like(&make_tensor(&src[..], layout!((2,4):(4,1))));
    for i in 0..8usize {
        t[i] = i as i32;
    }
    assert_eq!(t.engine()[..], [0, 2, 4, 6, 1, 3, 5, 7]);
    // The storage and the tensor's offset, in whole cache lines.
    assert_eq!(std::mem::size_of_val(&t), 128);
    assert_eq!(std::mem::align_of_val(&t), 64);
    let mut o = make_owned_tensor::<u8, _, _>(layout!((2,4):(4,1)));
    o[(1usize, 1usize)] = 9;
    assert_eq!(o.engine()[5], 9);
    // A fragment of a thread's part: the part's shape, compact.
    let mut data = [0u32; 64];
    let parts = make_tensor(&mut data[..], layout!((8,8):(1,8))).partition_mut(layout!((4,2):(1,4))).unwrap();
    let g = make_fragment_like::<u32, _>(&parts[3]);
    assert_eq!((g.layout().to_string(), g.engine().len()), ("(_2,_4):(_1,_2)".to_string(), 8));
}

/// The post-conditions of `make_fragment_like` (`frag`) and
/// `make_tensor_like` (`like`) of the all-static source `src`, by brute
/// force: the same shape; a bijection onto `0..size`, the storage; `like`'s
/// leaves of extent above 1 in the order of `src`'s strides (equal ones by
/// position), and so are `frag`'s in modes 1 and up, after mode 0's, which
/// are column-major.
fn check_like_layouts(
    src: &cute_dynamic::Layout,
    frag: (&cute_dynamic::Layout, usize),
    like: (&cute_dynamic::Layout, usize),
) {
    let shape: Vec<i64> = src.shape().leaves().collect();
    let stride: Vec<i64> = src.stride().leaves().collect();
    let mode0 = if src.rank() > 1 { src.shape().get(0).unwrap().leaf_count() } else { shape.len() };
    let size = src.size();
    for (l, len) in [frag, like] {
        assert_eq!(l.shape(), src.shape(), "{src} -> {l}");
        assert_eq!(len as i64, size, "{src} -> {l}");
        let mut reached = vec![false; len];
        for i in 0..size {
            let o = usize::try_from(l.eval(i).unwrap()).unwrap();
            assert!(!reached[o], "{src} -> {l}: offset {o} twice");
            reached[o] = true;
        }
    }
    // `before(a, b)`: leaf `a` of `src` is ordered before leaf `b`.
    let before = |a: usize, b: usize| stride[a] < stride[b] || (stride[a] == stride[b] && a < b);
    let live: Vec<usize> = (0..shape.len()).filter(|&k| shape[k] > 1).collect();
    for (l, first) in [(frag.0, mode0), (like.0, 0)] {
        let d: Vec<i64> = l.stride().leaves().collect();
        for (x, &a) in live.iter().enumerate() {
            for &b in &live[x + 1..] {
                // Mode 0's leaves come first (`a < b`), then the order of the strides.
                let expected = a < first || before(a, b);
                assert_eq!(d[a] < d[b], expected, "{src} -> {l}: leaves {a}, {b}");
            }
        }
    }
}

/// `make_fragment_like` and `make_tensor_like` of static layouts print as
/// CuTe C++ 4.2 prints them (`make_fragment_like(l)` and
/// `make_layout_like(l)`, run on CuTe's headers), shapes aside: CuTe's
/// fragment puts modes 1 and up of a rank-2 shape in a tuple of one mode
/// (`(_2,(_4))`), ours keeps the source's shape. Where CuTe's layout
/// shares elements between coordinates (equal strides, broadcasts kept
/// at stride 0), ours gives each its own (CuTe's answer in the comment).
/// Each meets the post-conditions.
#[test]
fn fragments_and_tensors_like_order_modes_as_cute() {
    macro_rules! case {
        ($l:tt, $frag:expr, $like:expr) => {{
            let l = layout!$l;
            let f = make_fragment_like::<u8, _>(l);
            let data = [0u8; 256];
            let t = make_tensor_like(&make_tensor(&data[..], l));
            assert_eq!((f.layout().to_string(), t.layout().to_string()), ($frag.to_string(), $like.to_string()), "{l}");
            check_like_layouts(&l.to_dynamic(), (&f.layout().to_dynamic(), f.engine().len()), (&t.layout().to_dynamic(), t.engine().len()));
        }};
    }
    case!(((8,2,6):(1,96,16)), "(_8,_2,_6):(_1,_48,_8)", "(_8,_2,_6):(_1,_48,_8)");
    case!(((2,4):(4,1)), "(_2,_4):(_1,_2)", "(_2,_4):(_4,_1)");
    case!(((4,(2,3)):(3,(1,12))), "(_4,(_2,_3)):(_1,(_4,_8))", "(_4,(_2,_3)):(_2,(_1,_8))");
    // CuTe: ((_2,_2),_3):((_0,_1),_2) twice.
    case!((((2,2),3):((0,1),9)), "((_2,_2),_3):((_1,_2),_4)", "((_2,_2),_3):((_1,_2),_4)");
    // CuTe: (_4,_2,_2):(_1,_4,_4) twice.
    case!(((4,2,2):(1,8,8)), "(_4,_2,_2):(_1,_4,_8)", "(_4,_2,_2):(_1,_4,_8)");
    // CuTe: (_4,_2,_2):(_1,_4,_4), then (_4,_2,_2):(_1,_0,_0).
    case!(((4,2,2):(1,0,0)), "(_4,_2,_2):(_1,_4,_8)", "(_4,_2,_2):(_4,_1,_2)");
    case!(((1,4):(0,1)), "(_1,_4):(_0,_1)", "(_1,_4):(_0,_1)");
    case!(((1,4):(1,1)), "(_1,_4):(_0,_1)", "(_1,_4):(_0,_1)");
    case!((8:2), "_8:_1", "_8:_1");
    case!(((4,1,3):(1,4,4)), "(_4,_1,_3):(_1,_0,_4)", "(_4,_1,_3):(_1,_0,_4)");
    case!((((2,2),(2,3)):((8,1),(4,16))), "((_2,_2),(_2,_3)):((_1,_2),(_4,_8))", "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
    // CuTe: ((_4,_2),_2,_3):((_1,_0),_12,_4) twice.
    case!((((4,2),2,3):((1,0),16,4)), "((_4,_2),_2,_3):((_1,_4),_24,_8)", "((_4,_2),_2,_3):((_2,_1),_24,_8)");
    // CuTe's tensor like: ((_2,_4),(_2,_2)):((_4,_1),(_0,_8)).
    case!((((2,4),(2,2)):((4,1),(0,8))), "((_2,_4),(_2,_2)):((_1,_2),(_8,_16))", "((_2,_4),(_2,_2)):((_8,_2),(_1,_16))");
    case!(((2,(3,4)):(12,(4,1))), "(_2,(_3,_4)):(_1,(_8,_2))", "(_2,(_3,_4)):(_12,(_4,_1))");
    case!(((4,3,2):(6,2,1)), "(_4,_3,_2):(_1,_8,_4)", "(_4,_3,_2):(_6,_2,_1)");
    case!(((2,(2,2),3):(1,(12,2),4)), "(_2,(_2,_2),_3):(_1,(_12,_2),_4)", "(_2,(_2,_2),_3):(_1,(_12,_2),_4)");
    // CuTe's tensor like: (_3,_2):(_1,_0).
    case!(((3,2):(2,0)), "(_3,_2):(_1,_3)", "(_3,_2):(_2,_1)");
    // A run-time stride counts as larger than every static one, left to
    // right: CuTe gives (_4,_2,_3):(_1,_12,_4) for (4,2,3):(1,m,8),
    // (_1,_4,_8) for (1,m,n) and, as a tensor like, (_6,_3,_1) for (m,2,1).
    let (m, n) = (5usize, 3usize);
    let f = make_fragment_like::<u8, _>(layout!((4,2,3):(1,{m},8)));
    assert_eq!(f.layout().to_string(), "(_4,_2,_3):(_1,_12,_4)");
    let f = make_fragment_like::<u8, _>(layout!((4,2,3):(1,{m},{n})));
    assert_eq!(f.layout().to_string(), "(_4,_2,_3):(_1,_4,_8)");
    let data = [0u8; 64];
    let t = make_tensor_like(&make_tensor(&data[..], layout!((4,2,3):({m},2,1))));
    assert_eq!(t.layout().to_string(), "(_4,_2,_3):(_6,_3,_1)");
    let f = make_fragment_like::<u8, _>(layout!((4,2,3):({m},2,1)));
    assert_eq!((f.layout().to_string(), f.engine().len()), ("(_4,_2,_3):(_1,_12,_4)".to_string(), 24));
    // Owned storage of exactly the cosize, also for a padded layout.
    let p = make_owned_tensor::<u8, _, _>(layout!((4,4):(1,5)));
    assert_eq!(p.engine().len(), 19);
}

// ---------------------------------------------------------------------------
// slicing

#[test]
fn slice_golden_a_2_underscore() {
    // CuTe's worked example: A(2,_) of ((_3,2),(2,_5,_2)):((4,1),(_2,13,100)).
    let (two, four, one, thirteen, hundred) = (2usize, 4usize, 1usize, 13usize, 100usize);
    let a = layout!(((3,{two}),({two},5,2)):(({four},{one}),(2,{thirteen},{hundred})));
    assert_eq!(a.to_string(), "((_3,2),(2,_5,_2)):((4,1),(_2,13,100))");
    let (sub, off) = slice_and_offset(&a, crd!(2usize, _));
    assert_eq!(sub.to_string(), "((2,_5,_2)):((_2,13,100))");
    assert_eq!(off, 8);
}

#[test]
fn slices_agree_with_cute_dynamic() {
    let l = layout!(((3,2),((2,3),2)):((4,1),((2,15),100)));
    let d = l.to_dynamic();
    let check = |text: &str, sub: cute_dynamic::Layout, off: usize| {
        let (dsub, doff) = cute_dynamic::slice_and_offset(&d, &text.parse().unwrap()).unwrap();
        assert_eq!((sub, off as i64), (dsub, doff), "{text}");
    };
    let (s, o) = slice_and_offset(&l, crd!(2usize, ((0usize, _), _)));
    check("(2,((0,_),_))", s.to_dynamic(), o);
    let (s, o) = slice_and_offset(&l, crd!(_, ((1usize, _), 1usize)));
    check("(_,((1,_),1))", s.to_dynamic(), o);
    let (s, o) = slice_and_offset(&l, crd!(4usize, _));
    check("(4,_)", s.to_dynamic(), o);
    let (s, o) = slice_and_offset(&l, crd!(_, 7usize));
    check("(_,7)", s.to_dynamic(), o);
}

#[test]
fn tensor_slice_is_the_tensor_at_the_filled_coordinate() {
    let d = data(400);
    let l = layout!(((3,2),((2,3),2)):((4,1),((2,15),100)));
    let t = make_tensor(&d[..], l);
    for c0 in 0..6usize {
        let s = t.slice(crd!(c0, ((1usize, _), _)));
        assert_eq!(s.layout().to_string(), "(_3,_2):(_15,_100)");
        for i in 0..3usize {
            for j in 0..2usize {
                assert_eq!(s[(i, j)], t[(c0, ((1usize, i), j))]);
            }
        }
    }
    // A fixed entry outside its mode is refused.
    assert!(std::panic::catch_unwind(|| t.slice(crd!(6usize, _))).is_err());
}

// ---------------------------------------------------------------------------
// tiling and partitioning

#[test]
fn local_tile_of_a_mixed_tensor_has_static_tile_shapes() {
    let (m, n) = (1024usize, 512usize);
    let d = vec![0f32; m * n];
    let a = make_tensor(&d[..], layout!(({m},{n}):(1,{m})));
    let blk = local_tile(a, shape!(128, 64), (2usize, 3usize));
    let _: &Layout![(128, 64):(1, Dyn)] = &blk.layout(); // static tile shape, run-time stride
    assert_eq!(blk.layout().to_string(), "(_128,_64):(_1,1024)");
    assert_eq!(blk.offset(), 256 + 192 * 1024);
    // cute-dynamic agrees.
    let dt = cute_dynamic::make_tensor(&d[..], dlay("(1024,512):(1,1024)")).unwrap();
    let dblk =
        cute_dynamic::local_tile(dt, &"(128,64)".parse::<cute_dynamic::IntTuple>().unwrap(), &"(2,3)".parse().unwrap())
            .unwrap();
    assert_eq!(blk.layout().to_dynamic(), *dblk.layout());
    assert_eq!(blk.offset() as i64, dblk.offset());
    // With `_`: every tile along mode 1.
    let col = local_tile(a, shape!(128, 64), crd!(2usize, _));
    assert_eq!(col.layout().to_string(), "(_128,_64,8):(_1,1024,65536)");
}

#[test]
fn local_tile_with_projection_as_the_sgemm_tutorial() {
    // sgemm_1: gA (BLK_M,BLK_K,k), gB (BLK_N,BLK_K,k), gC (BLK_M,BLK_N).
    let (m, n, k) = (256usize, 512usize, 64usize);
    let (a, b, c) = (vec![0f32; m * k], vec![0f32; n * k], vec![0f32; m * n]);
    let ma = make_tensor(&a[..], layout!(({m},{k}):(1,{m})));
    let mb = make_tensor(&b[..], layout!(({n},{k}):(1,{n})));
    let mc = make_tensor(&c[..], layout!(({m},{n}):(1,{m})));
    let tiler = shape!(128, 128, 8);
    let one = Int::<1>::new();
    let ga = local_tile_proj(ma, tiler, crd!(1usize, 2usize, _), (one, X, one));
    let gb = local_tile_proj(mb, tiler, crd!(1usize, 2usize, _), (X, one, one));
    let gc = local_tile_proj(mc, tiler, crd!(1usize, 2usize, _), (one, one, X));
    assert_eq!(ga.layout().to_string(), "(_128,_8,8):(_1,256,2048)");
    assert_eq!(gb.layout().to_string(), "(_128,_8,8):(_1,512,4096)");
    assert_eq!(gc.layout().to_string(), "(_128,_128):(_1,256)");
    assert_eq!((ga.offset(), gb.offset(), gc.offset()), (128, 256, 128 + 256 * 256));
}

#[test]
fn partitions_agree_with_cute_dynamic() {
    let d = data(16 * 64);
    let t = make_tensor(&d[..], layout!((16,64):(1,16)));
    let dt = || cute_dynamic::make_tensor(&d[..], dlay("(16,64):(1,16)")).unwrap();
    // local_partition for every thread of two thread layouts.
    for k in 0..32usize {
        let p = local_partition(t, layout!((2,16):(16,1)), k);
        let q = cute_dynamic::local_partition(dt(), &dlay("(2,16):(16,1)"), k as i64).unwrap();
        assert_eq!((p.layout().to_dynamic(), p.offset() as i64), (q.layout().clone(), q.offset()), "thread {k}");
        let p = local_partition(t, layout!((4,8):(1,4)), k);
        let q = cute_dynamic::local_partition(dt(), &dlay("(4,8):(1,4)"), k as i64).unwrap();
        assert_eq!((p.layout().to_dynamic(), p.offset() as i64), (q.layout().clone(), q.offset()), "thread {k}");
    }
    // inner and outer partitions.
    let tup: cute_dynamic::IntTuple = "(4,8)".parse().unwrap();
    for (i, j) in [(0usize, 0usize), (1, 3), (3, 7)] {
        let p = inner_partition(t, shape!(4, 8), (i, j));
        let q = cute_dynamic::inner_partition(dt(), &tup, &format!("({i},{j})").parse().unwrap()).unwrap();
        assert_eq!((p.layout().to_dynamic(), p.offset() as i64), (q.layout().clone(), q.offset()));
        let p = outer_partition(t, shape!(4, 8), (i, j));
        let q = cute_dynamic::outer_partition(dt(), &tup, &format!("({i},{j})").parse().unwrap()).unwrap();
        assert_eq!((p.layout().to_dynamic(), p.offset() as i64), (q.layout().clone(), q.offset()));
    }
}

#[test]
fn local_partition_of_the_sgemm_tutorial_shapes() {
    // sgemm_1: tA (32,8) over sA (128,8) gives (4,1); tC (16,16) over sC (128,128) gives (8,8).
    let sa = make_owned_tensor::<f32, _, _>(layout!((128, 8):(1, 128)));
    let ta = local_partition(sa.view(), layout!((32, 8):(1, 32)), 33);
    assert_eq!(ta.layout().to_string(), "(_4,_1):(_32,_1024)");
    assert_eq!(ta.offset(), 1 + 128);
    let tcsa = local_partition_proj(sa.view(), layout!((16, 16):(1, 16)), 17, (Int::<1>::new(), X));
    assert_eq!(tcsa.layout().to_string(), "(_8,_8):(_16,_128)");
    assert_eq!(tcsa.offset(), 1);
    let tcsb = local_partition_proj(sa.view(), layout!((16, 16):(1, 16)), 17, (X, Int::<1>::new()));
    assert_eq!(tcsb.offset(), 1);
}

/// The partition of a GEMM's C tile (a CuTe DSL tiled MMA): 256 threads
/// as 16×16 over a row-major 128×128 C tile, the permutation `(16,4):(4,1)`
/// per dimension (logical_divide by it): thread `(tm,tn)` owns the rows
/// `tm·4 + r + 64·q` (`r < 4`, `q < 2`) × the columns `tn·4 + r + 64·q`.
#[test]
fn gemm_partition_walkthrough_every_thread_and_coverage() {
    let d: Vec<u32> = (0..128 * 128).collect(); // the element is its row-major offset
    let c = make_tensor(&d[..], layout!((128, 128):(128, 1)));
    let perm = tile!((16, 4):(4, 1), (16, 4):(4, 1));
    let divided = c.logical_divide(perm);
    assert_eq!(divided.layout().to_string(), "(((_16,_4),_2),((_16,_4),_2)):(((_512,_128),_8192),((_4,_1),_64))");
    let mut seen = vec![0u32; 128 * 128];
    for tn in 0..16usize {
        for tm in 0..16usize {
            let mine = divided.slice(crd!(((tm, _), _), ((tn, _), _)));
            assert_eq!(mine.size(), 64);
            let mut rows = Vec::new();
            let mut cols = Vec::new();
            for q in 0..2usize {
                for r in 0..4usize {
                    rows.push(tm * 4 + r + 64 * q);
                    cols.push(tn * 4 + r + 64 * q);
                }
            }
            let want: std::collections::BTreeSet<u32> =
                rows.iter().flat_map(|&i| cols.iter().map(move |&j| (i * 128 + j) as u32)).collect();
            let got: std::collections::BTreeSet<u32> = (0..64usize).map(|i| mine[i]).collect();
            assert_eq!(got, want, "thread ({tm},{tn})");
            for v in got {
                seen[v as usize] += 1;
            }
        }
    }
    // Thread 0: rows and columns {0,1,2,3,64,65,66,67}.
    let t0 = divided.slice(crd!(((0usize, _), _), ((0usize, _), _)));
    let mut rows: Vec<u32> = (0..64usize).map(|i| t0[i] / 128).collect();
    rows.sort();
    rows.dedup();
    assert_eq!(rows, [0, 1, 2, 3, 64, 65, 66, 67]);
    assert!(seen.iter().all(|&n| n == 1), "the 256 threads cover the tile exactly once");
}

#[test]
#[should_panic(expected = "outside a storage")]
fn a_tile_past_the_storage_is_refused_where_it_is_made() {
    let (m, n) = (1000usize, 500usize);
    let d = vec![0f32; m * n];
    let a = make_tensor(&d[..], layout!(({m},{n}):(1,{m})));
    let _ = local_tile(a, shape!(128, 64), (7usize, 7usize));
}

// ---------------------------------------------------------------------------
// predication

#[test]
fn identity_tensor_tiled_like_the_data_predicates_the_ragged_edge() {
    let (m, n) = (100usize, 70usize);
    let (ld, cols) = (128usize, 128usize); // storage padded to whole tiles
    let d: Vec<i64> = (0..(ld * cols) as i64).collect();
    let a = make_tensor(&d[..], layout!(({m},{n}):(1,{ld})));
    let id = make_identity_tensor(make_shape((m, n)));
    let mut inside = 0;
    for by in 0..2usize {
        for bx in 0..4usize {
            let g = local_tile(a, shape!(32, 64), (bx, by));
            let c = local_tile(id, shape!(32, 64), (bx, by));
            for j in 0..64usize {
                for i in 0..32usize {
                    let (ci, cj) = c.at((i, j));
                    assert_eq!((ci, cj), (32 * bx + i, 64 * by + j));
                    if elem_less(c.at((i, j)), (m, n)) {
                        inside += 1;
                        assert_eq!(g[(i, j)] as usize, ci + ld * cj);
                    }
                }
            }
        }
    }
    assert_eq!(inside, m * n);
}

/// A rank-5 coordinate as cute-dynamic's tuple.
fn tup5(c: (usize, usize, usize, usize, usize)) -> cute_dynamic::IntTuple {
    format!("({},{},{},{},{})", c.0, c.1, c.2, c.3, c.4).parse().unwrap()
}

#[test]
fn rank_5_identity_tensor_and_elem_less_agree_with_cute_dynamic() {
    let n = 5usize;
    let dshape: cute_dynamic::IntTuple = "(3,5,2,4,3)".parse().unwrap();
    let did = cute_dynamic::make_identity_tensor(&dshape).unwrap();
    let ids = make_identity_tensor(make_shape((3usize, n, 2usize, 4usize, 3usize)));
    let idt = make_identity_tensor(shape!(3, 5, 2, 4, 3));
    // cute-dynamic's identity tensors encode coordinates in integer strides;
    // cute-static's layouts carry CuTe's basis strides: the shapes agree.
    assert_eq!(ids.shape().to_dynamic(), did.layout().shape().clone());
    assert_eq!(idt.layout().to_string(), "(_3,_5,_2,_4,_3):(_1@0,_1@1,_1@2,_1@3,_1@4)");
    // A smaller bound, so that elem_less is false for some coordinates.
    let bound = (2usize, 4usize, 2usize, 3usize, 2usize);
    let mut inside = 0;
    for i in 0..3 * 5 * 2 * 4 * 3usize {
        let (cs, ct) = (ids.at(i), idt.at(i));
        let dc = did.get(i as i64).unwrap();
        assert_eq!((tup5(cs), tup5(ct)), (dc.clone(), dc.clone()), "index {i}");
        let less = elem_less(cs, bound);
        assert_eq!(less, cute_dynamic::elem_less(&dc, &tup5(bound)), "index {i}");
        inside += usize::from(less);
    }
    assert_eq!(inside, 2 * 4 * 2 * 3 * 2);
}

#[test]
fn rank_5_local_partition_agrees_with_cute_dynamic() {
    let d = data(4 * 2 * 6 * 2 * 4);
    let t = make_tensor(&d[..], layout!((4,2,6,2,4):(1,4,8,48,96)));
    let dt = || cute_dynamic::make_tensor(&d[..], dlay("(4,2,6,2,4):(1,4,8,48,96)")).unwrap();
    let thr = "(2,1,3,1,2):(1,2,2,6,6)";
    for k in 0..12usize {
        let p = local_partition(t, layout!((2,1,3,1,2):(1,2,2,6,6)), k);
        let q = cute_dynamic::local_partition(dt(), &dlay(thr), k as i64).unwrap();
        assert_eq!((p.layout().to_dynamic(), p.offset() as i64), (q.layout().clone(), q.offset()), "thread {k}");
        assert_eq!(p[(1usize, 0usize, 1usize, 1usize, 1usize)], *q.get(tup5((1, 0, 1, 1, 1))).unwrap());
    }
}

/// A tiler of rank 2 over a layout of rank 6 (the flat path, modes 2..6
/// untouched): every block agrees with cute-dynamic, layout and offset,
/// and the tile's elements are the tensor's.
#[test]
fn local_tile_of_a_rank_6_layout_by_a_rank_2_tiler_agrees_with_cute_dynamic() {
    let d = data(4 * 6 * 3 * 2 * 2 * 2);
    let t = make_tensor(&d[..], layout!((4,6,3,2,2,2):(1,4,24,72,144,288)));
    let dt = || cute_dynamic::make_tensor(&d[..], dlay("(4,6,3,2,2,2):(1,4,24,72,144,288)")).unwrap();
    let tiler = "(2,3)".parse::<cute_dynamic::IntTuple>().unwrap();
    for (bx, by) in [(0usize, 0usize), (1, 0), (0, 1), (1, 1)] {
        let p = local_tile(t, shape!(2, 3), crd!(bx, by, _, _, _, _));
        let c = format!("({bx},{by},_,_,_,_)").parse().unwrap();
        let q = cute_dynamic::local_tile(dt(), &tiler, &c).unwrap();
        assert_eq!((p.layout().to_dynamic(), p.offset() as i64), (q.layout().clone(), q.offset()), "block ({bx},{by})");
        let i = (1usize, 2usize, 0usize, 1usize, 1usize, 0usize);
        assert_eq!(p[(i.0, i.1, i.2, i.3, i.4, i.5)], t[(bx * 2 + i.0, by * 3 + i.1, i.2, i.3, i.4, i.5)]);
    }
}

// ---------------------------------------------------------------------------
// partition_mut

#[test]
fn partition_mut_refuses_a_non_injective_thread_layout() {
    let mut d = vec![0i32; 64];
    let t = make_tensor(&mut d[..], layout!((8,8):(1,8)));
    // (4,2):(1,2) is not a bijection: threads 0 and 4 get the same coordinate.
    let e = t.partition_mut(layout!((4,2):(1,2))).unwrap_err();
    assert_eq!((e.first, e.second), (0, 4));
    let err: cute_dynamic::LayoutError = e.into();
    assert!(err.to_string().contains("thread"), "{err}");
    // A broadcast (stride-0) tensor makes every thread reach the same elements.
    let t = make_tensor(&mut d[..], layout!((8,8):(1,0)));
    assert!(t.partition_mut(layout!((4,2):(1,4))).is_err());
}

#[test]
fn partition_mut_parts_run_on_threads() {
    let mut d = vec![0usize; 16 * 16];
    let t = make_tensor(&mut d[..], layout!((16,16):(1,16)));
    let parts = t.partition_mut(layout!((4,4):(4,1))).unwrap();
    std::thread::scope(|s| {
        for (k, mut p) in parts.into_iter().enumerate() {
            s.spawn(move || {
                for i in 0..p.size() {
                    p[i] = k + 1;
                }
            });
        }
    });
    let thr = layout!((4,4):(4,1));
    for j in 0..16usize {
        for i in 0..16usize {
            // Thread k owns the element whose coordinate mod (4,4) is its coordinate in thr.
            assert_eq!(d[i + 16 * j], thr.index((i % 4, j % 4)) + 1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The parts of partition_mut never overlap (each element is written by
    /// one part only), and for a bijective thread layout they cover the
    /// tiled domain, on mixed tensors of random extents: tilers that divide
    /// the shape (the algebraic proof) and ragged ones (the element check;
    /// the storage holds the tiled domain).
    #[test]
    fn partition_mut_parts_never_overlap(m in 1usize..40, n in 1usize..40, row_major in any::<bool>(), pad in 0usize..3, ragged in any::<bool>()) {
        let (mt, nt) = (m.div_ceil(4) * 4, n.div_ceil(8) * 8);
        let (ms, ns) = if ragged { (m, n) } else { (mt, nt) };
        let ld = mt + pad;
        let mut d = vec![0u32; ld * nt];
        let counts = {
            let t = make_tensor(&mut d[..], layout!(({ms},{ns}):(1,{ld})));
            let parts = if row_major {
                t.partition_mut(layout!((4,8):(8,1))).unwrap()
            } else {
                t.partition_mut(layout!((4,8):(1,4))).unwrap()
            };
            prop_assert_eq!(parts.len(), 32);
            for mut p in parts {
                for i in 0..p.size() {
                    p[i] += 1;
                }
            }
            d
        };
        for j in 0..nt {
            for i in 0..ld {
                prop_assert_eq!(counts[i + ld * j], u32::from(i < mt), "element ({}, {})", i, j);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A part of an exact divide (every tile extent divides its mode) is
    /// made without a storage check, as a slice is: it must still lie in the
    /// storage. Over storage that is exactly the layout's reach, with
    /// run-time strides of either sign (and zero), every thread's part and
    /// every tile reads exactly the storage index the layout gives, inside
    /// the storage.
    #[test]
    fn exact_partitions_stay_inside_the_storage(mt in 1usize..5, nt in 1usize..4, s0 in -3i64..4, s1 in -40i64..41) {
        let (m, n) = (4 * mt, 8 * nt);
        let span = |e: usize, s: i64| (e as i64 - 1) * s;
        let lo = span(m, s0).min(0) + span(n, s1).min(0);
        let hi = span(m, s0).max(0) + span(n, s1).max(0);
        let len = (hi - lo + 1) as usize;
        let d: Vec<i64> = (0..len as i64).collect(); // the element is its storage index
        let t = try_make_tensor_at(&d[..], (-lo) as usize, layout!(({m},{n}):({s0},{s1}))).unwrap();
        let at = |off: usize, rel: i64| (off as i64).wrapping_add(rel);
        for k in 0..32usize {
            let p = local_partition(t, layout!((4,8):(1,4)), k);
            for i in 0..p.size() {
                let idx = at(p.offset(), p.layout().index(i) as i64);
                prop_assert!((0..len as i64).contains(&idx), "thread {} element {}: index {}", k, i, idx);
                prop_assert_eq!(p[i], idx);
            }
        }
        for by in 0..nt {
            for bx in 0..mt {
                let g = local_tile(t, shape!(4, 8), (bx, by));
                for i in 0..g.size() {
                    let idx = at(g.offset(), g.layout().index(i) as i64);
                    prop_assert!((0..len as i64).contains(&idx), "tile ({}, {}) element {}: index {}", bx, by, i, idx);
                    prop_assert_eq!(g[i], idx);
                }
            }
        }
    }
}

#[test]
fn partition_mut_of_an_injective_layout_the_sorted_strides_do_not_show() {
    // (2,3):(3,2) reaches 0,3,2,5,4,7: injective, though 3 < 2·3.
    let mut d = vec![0u8; 8];
    let t = make_tensor(&mut d[..], layout!((2,3):(3,2)));
    let parts = t.partition_mut(layout!((2,1):(1,2))).unwrap();
    for (k, mut p) in parts.into_iter().enumerate() {
        for i in 0..p.size() {
            p[i] += k as u8 + 1;
        }
    }
    assert_eq!(d, [1, 0, 1, 2, 1, 2, 0, 2]);
}

// ---------------------------------------------------------------------------
// algorithms

#[test]
fn copy_fill_clear_axpby_copy_if() {
    let src: Vec<i64> = (0..6).collect();
    let mut dst = [0i64; 6];
    copy(&make_tensor(&src[..], layout!((2,3):(3,1))), &mut make_tensor(&mut dst[..], layout!((2,3):(1,2))));
    assert_eq!(dst, [0, 3, 1, 4, 2, 5]);
    let mut f = [1i64; 8];
    fill(&mut make_tensor(&mut f[..], layout!((2,2):(1,4))), 7);
    assert_eq!(f, [7, 7, 1, 1, 7, 7, 1, 1]);
    clear(&mut make_tensor(&mut f[..], layout!(4:2)));
    assert_eq!(f, [0, 7, 0, 1, 0, 7, 0, 1]);
    let x = [1.0, 2.0, 3.0];
    let mut y = [10.0, 20.0, 30.0];
    axpby(2.0, &make_tensor(&x[..], layout!(3:1)), 0.5, &mut make_tensor(&mut y[..], layout!(3:1)));
    assert_eq!(y, [7.0, 14.0, 21.0]);
    let p = [true, false, true, false];
    let mut z = [0i64; 4];
    let l = layout!(4:1);
    copy_if(&make_tensor(&p[..], l), &make_tensor(&src[..4], l), &mut make_tensor(&mut z[..], l));
    assert_eq!(z, [0, 0, 2, 0]);
}

fn naive(m: usize, n: usize, k: usize, a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for j in 0..n {
        for i in 0..m {
            c[i + m * j] = (0..k).map(|p| a[i + m * p] * b[j + n * p]).sum();
        }
    }
    c
}

fn random(len: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 33) % 19) as f64 - 9.0
        })
        .collect()
}

#[test]
fn gemm_rank_two_against_the_naive_loop() {
    // Square, tall, ragged and 1×1, column-major (M,K), (N,K), (M,N).
    for (m, n, k) in [(8usize, 8usize, 8usize), (64, 3, 5), (7, 13, 5), (1, 1, 1)] {
        let (a, b) = (random(m * k, 1), random(n * k, 2));
        let mut c = vec![0.0; m * n];
        gemm(
            &make_tensor(&a[..], layout!(({m},{k}):(1,{m}))),
            &make_tensor(&b[..], layout!(({n},{k}):(1,{n}))),
            &mut make_tensor(&mut c[..], layout!(({m},{n}):(1,{m}))),
        );
        assert_eq!(c, naive(m, n, k, &a, &b), "{m}x{n}x{k}");
    }
}

#[test]
fn gemm_rank_one_and_batched() {
    // (M) x (N) -> (M,N): the outer product.
    let (a, b) = ([1.0, 2.0, 3.0], [10.0, 20.0]);
    let mut c = [0.0; 6];
    gemm(
        &make_tensor(&a[..], layout!(3:1)),
        &make_tensor(&b[..], layout!(2:1)),
        &mut make_tensor(&mut c[..], layout!((3,2):(1,3))),
    );
    assert_eq!(c, [10.0, 20.0, 30.0, 20.0, 40.0, 60.0]);
    // (V,M,K) x (V,N,K) -> (V,M,N): V independent products.
    let (v, m, n, k) = (2usize, 3usize, 4usize, 5usize);
    let (a, b) = (random(v * m * k, 3), random(v * n * k, 4));
    let mut c = vec![0.0; v * m * n];
    gemm(
        &make_tensor(&a[..], layout!((2,3,5):(1,2,6))),
        &make_tensor(&b[..], layout!((2,4,5):(1,2,8))),
        &mut make_tensor(&mut c[..], layout!((2,3,4):(1,2,6))),
    );
    for x in 0..v {
        for i in 0..m {
            for j in 0..n {
                let want: f64 = (0..k).map(|p| a[x + 2 * i + 6 * p] * b[x + 2 * j + 8 * p]).sum();
                assert_eq!(c[x + 2 * i + 6 * j], want);
            }
        }
    }
}

#[test]
fn sgemm_example_kernel_against_the_naive_loop() {
    use sgemm::{Dims, sgemm};
    // Square, tall, ragged (not multiples of the tiles) and 1×1; 1, 2 and
    // 3 workers; tight and padded leading dimensions.
    for (m, n, k, workers, pad) in
        [(128usize, 128usize, 16usize, 2usize, 0usize), (300, 20, 9, 3, 3), (130, 129, 17, 1, 1), (1, 1, 1, 2, 0)]
    {
        let d = Dims { m, n, k, lda: m + pad, ldb: n + pad, ldc: m + pad };
        let a: Vec<f32> = (0..d.lda * k).map(|x| ((x * 7 + 3) % 13) as f32 - 6.0).collect();
        let b: Vec<f32> = (0..d.ldb * k).map(|x| ((x * 5 + 1) % 17) as f32 - 8.0).collect();
        let mut c = vec![0.5f32; d.ldc * n];
        sgemm(d, &a, &b, &mut c, workers);
        for j in 0..n {
            for i in 0..m {
                let want: f32 = (0..k).map(|p| a[i + d.lda * p] * b[j + d.ldb * p]).sum();
                assert_eq!(c[i + d.ldc * j], want, "({i},{j}) of {m}x{n}x{k}");
            }
            // The padding rows of C are never written.
            assert!((m..d.ldc).all(|i| c[i + d.ldc * j] == 0.5));
        }
    }
}

/// The slicing examples of CuTe's `03_tensor.md`, on
/// `A = ((_3,2),(2,_5,_2)):((4,1),(_2,13,100))`.
#[test]
fn slicing_examples_of_cute_tensor_doc() {
    let (two, four, one, thirteen, hundred) = (2usize, 4usize, 1usize, 13usize, 100usize);
    let d = data(400);
    let a = make_tensor(&d[..], layout!(((3,{two}),({two},5,2)):(({four},{one}),(2,{thirteen},{hundred}))));
    let b = a.slice(crd!(2usize, _));
    assert_eq!((b.layout().to_string(), b.offset()), ("((2,_5,_2)):((_2,13,100))".into(), 8));
    // CuTe's document prints `((_3,_2)):((4,1))`; the 2 is a run-time extent.
    let c = a.slice(crd!(_, 5usize));
    assert_eq!((c.layout().to_string(), c.offset()), ("((_3,2)):((4,1))".into(), 2 + 2 * 13)); // 5 is (1,2,0) in (2,_5,_2)
    let dd = a.slice(crd!((_, _), 5usize));
    assert_eq!((dd.layout().to_string(), dd.offset()), ("(_3,2):(4,1)".into(), 2 + 2 * 13));
    let e = a.slice(crd!((_, 1usize), (0usize, _, 1usize)));
    assert_eq!((e.layout().to_string(), e.offset()), ("(_3,_5):(4,13)".into(), 1 + 100));
    let f = a.slice(crd!((2usize, _), (_, 3usize, _)));
    assert_eq!((f.layout().to_string(), f.offset()), ("(2,2,_2):(1,_2,100)".into(), 2 * 4 + 3 * 13));
    // Each view is the tensor at the filled coordinate.
    for i in 0..3usize {
        for j in 0..5usize {
            assert_eq!(e[(i, j)], a[((i, 1usize), (0usize, j, 1usize))]);
        }
    }
}

/// The partitioning example of CuTe's `03_tensor.md`: `(8,24)` by
/// `(_4,_8)`; the inner partition (a tile) and the outer one (a thread's
/// element of every tile).
#[test]
fn tiling_example_of_cute_tensor_doc() {
    let (m, n) = (8usize, 24usize);
    let d = data(m * n);
    let a = make_tensor(&d[..], layout!(({m},{n}):(1,{m})));
    assert_eq!(a.zipped_divide(shape!(4, 8)).layout().to_string(), "((_4,_8),(2,3)):((_1,8),(_4,64))");
    let cta = inner_partition(a, shape!(4, 8), (1usize, 2usize)); // (_4,_8)
    assert_eq!(cta.layout().to_string(), "(_4,_8):(_1,8)");
    assert_eq!(cta[(0usize, 0usize)], d[4 + 16 * 8]);
    let thr = outer_partition(a, shape!(4, 8), 9usize); // (2,3): element 9 of each tile
    assert_eq!(thr.layout().to_string(), "(2,3):(_4,64)"); // run-time counts of tiles, as CuTe
    assert_eq!(thr[(1usize, 2usize)], d[(1 + 4) + 8 * (2 + 16)]);
}

// ---------------------------------------------------------------------------
// recast

/// `t.recast::<U, L2>()` against cute-dynamic's recast of the same view:
/// the same layout (text), origin and every element; the same verdict.
fn recast_agrees<T, U, S, D, S2, D2>(t: Tensor<&[T], Layout<S, D>>) -> Option<Tensor<&[U], Layout<S2, D2>>>
where
    T: cute_dynamic::Pod,
    U: cute_dynamic::Pod + PartialEq + std::fmt::Debug,
    S: Congruent<D>,
    D: IntTuple,
    S2: Congruent<D2> + cute_static::OffsetRange<D2>,
    D2: IntTuple,
{
    let dt = cute_dynamic::make_tensor_at(*t.engine(), t.offset() as i64, t.layout().to_dynamic()).unwrap();
    let want = dt.recast::<U>();
    let got = t.recast::<U, Layout<S2, D2>>();
    match (got, want) {
        (Ok(g), Ok(w)) => {
            assert_eq!(g.layout().to_dynamic(), *w.layout());
            assert_eq!(g.offset() as i64, w.offset());
            for i in 0..g.size() {
                assert_eq!(g[i], w[i as i64], "element {i}");
            }
            Some(g)
        }
        (Err(g), Err(w)) => {
            assert_eq!(g, w);
            None
        }
        (g, w) => panic!(
            "static {:?} and dynamic {:?} disagree",
            g.map(|g| g.layout().to_dynamic()),
            w.map(|w| w.layout().clone())
        ),
    }
}

#[test]
#[allow(clippy::type_complexity)] // the `Layout!` types of the results
fn recast_of_static_tensors_agrees_with_cute_dynamic() {
    let words: Vec<u32> = (0..64).map(|i| 0x0101_0101u32.wrapping_mul(i) ^ 0x8040_2010).collect();
    // Down: u32 as bytes and halves (CuTe's `recast<uint8_t>`), static result.
    let t = make_tensor(&words[..], layout!((4,6):(1,4)));
    let b: Tensor<&[u8], Layout![(16,6):(1,16)]> = recast_agrees(t).unwrap();
    assert_eq!(b.layout().to_string(), "(_16,_6):(_1,_16)");
    for (i, j, k) in (0..4).flat_map(|i| (0..6).flat_map(move |j| (0..4).map(move |k| (i, j, k)))) {
        assert_eq!(b[(4 * i + k, j)], t[(i, j)].to_ne_bytes()[k]);
    }
    let h: Tensor<&[u16], Layout![(8,6):(1,8)]> = recast_agrees(t).unwrap();
    // ... and back up: the original tensor.
    let back: Tensor<&[u32], Layout![(4,6):(1,4)]> = recast_agrees(h).unwrap();
    assert_eq!(back, t);
    // Up: pairs of u32 as u64 (the contiguous mode splits; the other
    // stride is counted in u64), and a stride that is not contiguous.
    let p = make_tensor(&words[..], layout!((2,(2,3)):(1,(16,4))));
    let w: Tensor<&[u64], Layout![(1,(2,3)):(1,(8,2))]> = recast_agrees(p).unwrap();
    for (i, j) in (0..2).flat_map(|i| (0..3).map(move |j| (i, j))) {
        let mut want = [0u8; 8];
        want[..4].copy_from_slice(&p[(0usize, (i, j))].to_ne_bytes());
        want[4..].copy_from_slice(&p[(1usize, (i, j))].to_ne_bytes());
        assert_eq!(w[(0usize, (i, j))].to_ne_bytes(), want);
    }
    // A view with an origin: column 3 of a 4×16 tensor, as bytes.
    let col = make_tensor(&words[..], layout!((4,16):(1,4))).slice(crd!(_, 3usize));
    let cb: Tensor<&[u8], Layout![(16):(1)]> = recast_agrees(col).unwrap();
    assert_eq!(cb.offset(), 48);
    // Run-time leaves stay run-time: `(m,4):(1,m)` u32 as u16 is `(2m,4):(1,2m)`.
    let m = 6usize;
    let d = make_tensor(&words[..], layout!(({m},4):(1,{m})));
    let dh: Tensor<&[u16], Layout![(Dyn,4):(1,Dyn)]> = recast_agrees(d).unwrap();
    assert_eq!(dh.layout().to_string(), "(12,_4):(_1,12)");
}

#[test]
#[allow(clippy::type_complexity)] // the `Layout!` types of the results
fn recast_refusals_agree_with_cute_dynamic() {
    let bytes: Vec<u8> = (0..64).collect();
    // A contiguous mode of 6 bytes does not split into u32.
    let t = make_tensor(&bytes[..], layout!((6,2):(1,6)));
    let r: Option<Tensor<&[u32], Layout![(Dyn,2):(1,Dyn)]>> = recast_agrees(t);
    assert!(r.is_none());
    // A u64 view of pairs of u32 whose origin is inside a u64 (row 1).
    let words = [0u64; 8];
    let w = make_tensor(&words[..], layout!(8:1)).recast::<u32, Layout![16:1]>().unwrap();
    let odd = make_tensor(*w.engine(), layout!((2,8):(1,2))).slice(crd!(1usize, _));
    let r: Option<Tensor<&[u64], Layout![8:1]>> = recast_agrees(odd);
    assert!(r.is_none());
    // A layout type that is not the recast layout's is a type mismatch.
    let e = t.recast::<u16, Layout![(4,2):(1,6)]>().unwrap_err();
    assert!(matches!(e, cute_dynamic::LayoutError::TypeMismatch { .. }), "{e}");
}

#[test]
#[allow(clippy::type_complexity)] // the `Layout!` types of the results
fn writes_through_a_recast_mutable_tensor_land_in_the_original() {
    let mut w = [0u32; 4];
    let mut h: Tensor<&mut [u16], Layout![8:1]> = make_tensor(&mut w[..], layout!(4:1)).recast().unwrap();
    h[7usize] = 0xabcd;
    let hi = if cfg!(target_endian = "little") { 0xabcd_0000 } else { 0x0000_abcd };
    assert_eq!(w, [0, 0, 0, hi]);
}
