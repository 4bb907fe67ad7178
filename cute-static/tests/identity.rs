//! Identity tensors with CuTe's basis strides: the printed layouts of
//! identity tensors and of their tiles and partitions against CuTe's own
//! print, every coordinate by brute force (tiles over a ragged edge
//! included), large extents at rank 3, zero-sized static layouts, and
//! agreement with cute-dynamic's identity tensors.
//!
//! The golden text comes from CuTe C++ (CUTLASS 4.2 headers fetched by
//! `benches/cute_cpp/run.sh`), e.g.
//! `print(local_tile(make_identity_tensor(make_shape(1000,333)), make_shape(_128{},_8{}), make_coord(2,_)).layout())`.

use cute_static::prelude::*;

/// `(CuTe's print, ours)` for the cases run through CuTe C++.
#[test]
fn layouts_print_as_cute() {
    let id = make_identity_tensor(make_shape((1000usize, 333usize)));
    assert_eq!(id.layout().to_string(), "(1000,333):(_1@0,_1@1)");
    let t = local_tile(id, shape!(128, 8), (2usize, __));
    assert_eq!(t.layout().to_string(), "(_128,_8,42):(_1@0,_1@1,_8@1)");
    let tt = local_tile(id, shape!(128, 8), (7usize, 41usize));
    assert_eq!(tt.layout().to_string(), "(_128,_8):(_1@0,_1@1)");
    let p = local_partition(tt, layout!((16, 4):(1, 16)), 5);
    assert_eq!(p.layout().to_string(), "(_8,_2):(_16@0,_4@1)");
    assert_eq!(p.at((1usize, 1usize)), (917, 332));
    let s = make_identity_tensor(shape!(4, 8));
    assert_eq!(s.layout().to_string(), "(_4,_8):(_1@0,_1@1)");
    let lp = local_partition(s, layout!((2, 2):(1, 2)), 3);
    assert_eq!(lp.layout().to_string(), "(_2,_4):(_2@0,_2@1)");
    let s3 = make_identity_tensor(shape!(4, 3, 2));
    assert_eq!(s3.layout().to_string(), "(_4,_3,_2):(_1@0,_1@1,_1@2)");
    let t3 = local_tile(s3, shape!(2, 3, 1), (1usize, 0usize, 1usize));
    // A tiler's static extent 1 is CuTe's `_1:_0`: the tile's size-1 mode
    // has the stride 0 (`_0`), where the identity layout's own size-1 mode
    // keeps its basis (`_1@1` below).
    assert_eq!(t3.layout().to_string(), "(_2,_3,_1):(_1@0,_1@1,_0)");
    assert_eq!(t3.at((1usize, 2usize, 0usize)), (3, 2, 1));
    let dt3 = local_tile(
        make_identity_tensor(make_shape((4usize, 3usize, 2usize))),
        shape!(2, 3, 1),
        (1usize, 0usize, 1usize),
    );
    // With run-time extents the tiler's 1 stays `1:1` (cute-static's
    // run-time divides take tiles of non-zero stride): the basis of the
    // mode stays, the same coordinates.
    assert_eq!(dt3.layout().to_string(), "(_2,_3,_1):(_1@0,_1@1,_1@2)");
    assert_eq!(dt3.at((1usize, 2usize, 0usize)), (3, 2, 1));
    assert_eq!(make_identity_tensor(shape!(4, 1, 2)).layout().to_string(), "(_4,_1,_2):(_1@0,_1@1,_1@2)");
    assert_eq!(
        make_identity_tensor(make_shape((4usize, 1usize, 2usize))).layout().to_string(),
        "(4,1,2):(_1@0,_1@1,_1@2)"
    );
    let d3 = make_identity_tensor(make_shape((100usize, 7usize, 5usize)));
    let t = local_tile(d3, shape!(32, 4, 2), (3usize, 1usize, 2usize));
    assert_eq!(t.layout().to_string(), "(_32,_4,_2):(_1@0,_1@1,_1@2)");
    assert_eq!(local_tile(id, shape!(128, 8), (2usize, 3usize)).at((5usize, 6usize)), (261, 30));
}

/// Every coordinate of small identity tensors, and of every tile (edge
/// tiles over the ragged edge included) and thread part, by brute force.
#[test]
fn at_is_the_coordinate_everywhere() {
    let (m, n) = (10usize, 7usize);
    let id = make_identity_tensor(make_shape((m, n)));
    for j in 0..n {
        for i in 0..m {
            assert_eq!(id.at((i, j)), (i, j));
            assert_eq!(id.at(i + m * j), (i, j));
        }
    }
    for bj in 0..2usize {
        for bi in 0..3usize {
            let t = local_tile(id, shape!(4, 4), (bi, bj));
            for j in 0..4usize {
                for i in 0..4usize {
                    assert_eq!(t.at((i, j)), (4 * bi + i, 4 * bj + j));
                }
            }
            for thr in 0..4usize {
                let p = local_partition(t, layout!((2, 2):(1, 2)), thr);
                for j in 0..2usize {
                    for i in 0..2usize {
                        assert_eq!(p.at((i, j)), (4 * bi + thr % 2 + 2 * i, 4 * bj + thr / 2 + 2 * j));
                    }
                }
            }
        }
    }
    let s = make_identity_tensor(shape!(3, 2, 4));
    for x in 0..24usize {
        assert_eq!(s.at(x), (x % 3, x / 3 % 2, x / 6));
    }
    let one = make_identity_tensor(make_shape(9usize));
    assert_eq!(one.layout().to_string(), "9:_1@0");
    assert!((0..9usize).all(|x| one.at(x) == x));
    let col = id.slice((__, 3usize));
    assert_eq!(col.layout().to_string(), "(10):(_1@0)");
    assert!((0..m).all(|i| col.at(i) == (i, 3)));
}

/// Extents far past the old bit-packed encoding (2^19 at rank 3).
#[test]
fn extents_up_to_i64_at_rank_3() {
    let big = 1usize << 41;
    let id = make_identity_tensor(make_shape((big + 3, 5usize, 7usize)));
    assert_eq!(id.layout().to_string(), "(2199023255555,5,7):(_1@0,_1@1,_1@2)");
    assert_eq!(id.at((big + 2, 4usize, 6usize)), (big + 2, 4, 6));
    let t = local_tile(id, shape!(256, 4, 4), ((big >> 8) - 1, 1usize, 1usize));
    assert_eq!(t.at((255usize, 3usize, 3usize)), (big - 1, 7, 7));
    assert!(!elem_less(t.at((255usize, 3usize, 3usize)), (big + 3, 5, 7)));
    let huge = make_identity_tensor(make_shape((i64::MAX as usize, 1usize)));
    assert_eq!(huge.at((i64::MAX as usize - 1, 0usize)), (i64::MAX as usize - 1, 0));
}

/// Any rank up to 12 (std's tuples), and zero-sized static layouts.
#[test]
fn ranks_and_sizes() {
    let id = make_identity_tensor(shape!(2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2));
    assert_eq!(id.size(), 4096);
    assert_eq!(id.at(4095usize), (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1));
    assert!(id.layout().to_string().ends_with(",_1@10,_1@11)"));
    assert_eq!(core::mem::size_of_val(&id.layout()), 0);
    assert_eq!(core::mem::size_of_val(&id), core::mem::size_of::<usize>()); // the engine is zero-sized too
    let d = make_identity_tensor(make_shape((5usize, 6usize)));
    assert_eq!(core::mem::size_of_val(&d.layout()), 4 * 8); // two components of two run-time extents
}

/// The same coordinates as cute-dynamic's identity tensors.
#[test]
fn agrees_with_cute_dynamic() {
    let dshape: cute_dynamic::IntTuple = "(6,5,3)".parse().unwrap();
    let did = cute_dynamic::make_identity_tensor(&dshape).unwrap();
    let ids = make_identity_tensor(make_shape((6usize, 5usize, 3usize)));
    for x in 0..90usize {
        let (a, b, c) = ids.at(x);
        assert_eq!(did.get(x as i64).unwrap().to_string(), format!("({a},{b},{c})"));
    }
    // cute-dynamic's basis layouts print the same strides (run-time leaves plain).
    let dl = cute_dynamic::make_identity_layout(&"(1000,500)".parse().unwrap()).unwrap();
    let t: cute_dynamic::Tiler = "<128,64>".parse().unwrap();
    assert_eq!(dl.zipped_divide(&t).unwrap().to_string(), "((128,64),(8,8)):((1@0,1@1),(128@0,64@1))");
    let s = make_identity_tensor(make_shape((1000usize, 500usize)));
    assert_eq!(
        local_tile(s, shape!(128, 64), (__, __)).layout().to_string(),
        "(_128,_64,8,8):(_1@0,_1@1,_128@0,_64@1)"
    );
}

/// Tiled MMA and tiled copy partitions of identity tensors, as CuTe's
/// epilogues make them (`thr_mma.partition_C(make_identity_tensor(shape))`):
/// CuTe's print and coordinates (CuTe C++, the same atoms and threads).
#[test]
fn atom_partitions_print_as_cute() {
    use cute_static::typenum::U4;
    use cute_static::{CopyVec, SM80_16x8x8_F32F16F16F32_TN, UniversalFma, make_tiled_copy, make_tiled_mma};
    let mma = make_tiled_mma(UniversalFma::<f32>::new(), layout!((4,2,1):(1,4,0)));
    let thr = mma.get_slice(5);
    let c = thr.partition_c(make_identity_tensor(shape!(16, 6)));
    assert_eq!(c.layout().to_string(), "(_1,_4,_3):(_0,_4@0,_2@1)");
    assert_eq!(c.at((0usize, 1usize, 2usize)), (5, 5));
    let a = thr.partition_a(make_identity_tensor(shape!(16, 5)));
    assert_eq!(a.layout().to_string(), "(_1,_4,_5):(_0,_4@0,_1@1)");
    let b = thr.partition_b(make_identity_tensor(shape!(6, 5)));
    assert_eq!(b.layout().to_string(), "(_1,_3,_5):(_0,_2@0,_1@1)");
    // A tile of a run-time identity tensor: the part's origin is the tile's.
    let tile = local_tile(make_identity_tensor(make_shape((100usize, 60usize))), shape!(16, 6), (2usize, 3usize));
    let c = thr.partition_c(tile);
    assert_eq!(c.layout().to_string(), "(_1,_4,_3):(_0,_4@0,_2@1)");
    assert_eq!(c.at((0usize, 1usize, 2usize)), (37, 23));

    let m80 = make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    let thr = m80.get_slice(37);
    let c = thr.partition_c(make_identity_tensor(shape!(64, 32)));
    assert_eq!(c.layout().to_string(), "((_2,_2),_2,_2):((_1@1,_8@0),_32@0,_16@1)");
    assert_eq!(c.at((1usize, 1usize, 1usize)), (49, 19));
    let a = thr.partition_a(make_identity_tensor(shape!(64, 16)));
    assert_eq!(a.layout().to_string(), "((_2,_2),_2,_2):((_1@1,_8@0),_32@0,_8@1)");
    let b = thr.partition_b(make_identity_tensor(shape!(32, 16)));
    assert_eq!(b.layout().to_string(), "(_2,_2,_2):(_1@1,_16@0,_8@1)");

    // CuTe: make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_4,_2>>{}, Layout<Shape<_4,_1>>{}).
    let copy = make_tiled_copy(CopyVec::<f32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    let s = copy.get_slice(1).partition_s(make_identity_tensor(shape!(32, 4)));
    let d = copy.get_slice(1).partition_d(make_identity_tensor(shape!(32, 4)));
    assert_eq!(s.layout().to_string(), "((_4,_1),_2,_2):((_1@0,_0),_16@0,_2@1)");
    assert_eq!(d.layout().to_string(), s.layout().to_string());
    assert_eq!(s.at((0usize, 1usize, 1usize)), (20, 2));
}

/// Every coordinate of every thread's MMA and copy partition of an
/// identity tile equals the element the same partition of a data tile
/// (holding each element's column-major index) holds.
#[test]
fn atom_partitions_agree_with_data_partitions() {
    use cute_static::typenum::U4;
    use cute_static::{CopyVec, SM80_16x8x8_F32F16F16F32_TN, make_tiled_copy, make_tiled_mma};
    let idx: Vec<usize> = (0..64 * 32).collect();
    let m80 = make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN, layout!((2,2,1):(1,2,0)));
    for t in 0..m80.size() {
        let thr = m80.get_slice(t);
        let c = thr.partition_c(make_identity_tensor(shape!(64, 32)));
        let dc = thr.partition_c(make_tensor(&idx[..], layout!((64,32):(1,64))));
        for x in 0..dc.size() {
            let (i, j) = c.at(x);
            assert_eq!(i + 64 * j, dc[x], "thread {t}, value {x}");
        }
        let a = thr.partition_a(make_identity_tensor(shape!(64, 16)));
        let da = thr.partition_a(make_tensor(&idx[..], layout!((64,16):(1,64))));
        for x in 0..da.size() {
            let (i, j) = a.at(x);
            assert_eq!(i + 64 * j, da[x]);
        }
    }
    let copy = make_tiled_copy(CopyVec::<f32, U4>::new(), layout!((4,2):(1,4)), layout!((4,1):(1,0)));
    for t in 0..copy.size() {
        let s = copy.get_slice(t).partition_s(make_identity_tensor(shape!(32, 4)));
        let ds = copy.get_slice(t).partition_s(make_tensor(&idx[..], layout!((32,4):(1,32))));
        for x in 0..ds.size() {
            let (i, j) = s.at(x);
            assert_eq!(i + 32 * j, ds[x]);
        }
    }
}

/// A predicated view whose parent is taller than 2^33 rows (over three
/// elements: its rows have stride 0): its identity side is CuTe's basis
/// layout, so the edge tile's coordinates and predicates are exact.
#[test]
fn predicated_views_past_2_pow_31() {
    let big = (1usize << 33) + 5;
    let data = [10i32, 20, 30];
    let a = make_tensor(&data[..], layout!(({big},{3usize}):(0,1)));
    let p = a.predicated();
    assert_eq!(p.identity_layout().to_string(), "(8589934597,3):(_1@0,_1@1)");
    // Rows 2^33..2^33+8, columns 2..4: rows past big - 1 and column 3 are outside.
    let edge = p.local_tile(shape!(8, 2), (big / 8, 1usize));
    assert_eq!(edge.identity_layout().to_string(), "(_8,_2):(_1@0,_1@1)");
    assert_eq!(edge.coord((4usize, 0usize)), (big - 1, 2));
    assert_eq!(edge.get((4usize, 0usize)), Some(&30));
    assert_eq!(edge.get((5usize, 0usize)), None);
    assert_eq!(edge.get((0usize, 1usize)), None);
    let mut f = make_fragment_like::<i32, _>(&edge);
    edge.copy_to(&mut f, -1);
    assert_eq!((0..16usize).filter(|&x| f[x] == 30).count(), 5);
    assert_eq!((0..16usize).filter(|&x| f[x] == -1).count(), 11);
    assert!(edge.inside().is_err());
    // An interior tile of the same parent is an ordinary tensor.
    let t = p.local_tile(shape!(8, 2), (big / 8 - 1, 0usize)).inside().unwrap();
    assert_eq!((t[(7usize, 0usize)], t[(7usize, 1usize)]), (10, 20));
    // Thread parts of the edge tile, at rank 3 too.
    let part = edge.local_partition(layout!((4, 1):(1, 0)), 1);
    assert_eq!(part.identity_layout().to_string(), "(_2,_2):(_4@0,_1@1)");
    assert_eq!(part.coord((1usize, 0usize)), (big, 2));
    assert!(part.is_inside((0usize, 0usize)) && !part.is_inside((1usize, 0usize)));
    let d3 = [1u8; 4];
    let a3 = make_tensor(&d3[..], layout!(({big},{2usize},{2usize}):(0,1,2))).predicated();
    let e3 = a3.local_tile(shape!(16, 2, 2), (big / 16, 0usize, 0usize));
    assert_eq!(e3.coord((4usize, 1usize, 1usize)), (big - 1, 1, 1));
    assert!(e3.is_inside((4usize, 1usize, 1usize)) && !e3.is_inside((5usize, 0usize, 0usize)));
}

/// Composition and the divides of identity tensors (CuTe C++'s print).
#[test]
fn divides_print_as_cute() {
    let id = make_identity_tensor(shape!(4, 3));
    let c = id.compose(layout!((2,6):(1,2)));
    assert_eq!(c.layout().to_string(), "(_2,(_2,_3)):(_1@0,(_2@0,_1@1))");
    assert_eq!(c.at((1usize, 4usize)), (1, 2));
    assert_eq!(id.compose(layout!((3,4):(4,1))).layout().to_string(), "(_3,_4):(_1@1,_1@0)");
    assert_eq!(id.compose(shape!(2, 3)).layout().to_string(), "(_2,_3):(_1@0,_1@1)");
    assert_eq!(id.logical_divide(layout!(2:2)).layout().to_string(), "(_2,(_2,_3)):(_2@0,(_1@0,_1@1))");
    let id86 = make_identity_tensor(shape!(8, 6));
    assert_eq!(id86.zipped_divide(shape!(2, 3)).layout().to_string(), "((_2,_3),(_4,_2)):((_1@0,_1@1),(_2@0,_3@1))");
    assert_eq!(id86.tiled_divide(shape!(2, 3)).layout().to_string(), "((_2,_3),_4,_2):((_1@0,_1@1),_2@0,_3@1)");
    assert_eq!(id86.flat_divide(shape!(2, 3)).layout().to_string(), "(_2,_3,_4,_2):(_1@0,_1@1,_2@0,_3@1)");
    let d = make_identity_tensor(make_shape((96usize, 64usize)));
    let z = d.zipped_divide(shape!(16, 8));
    assert_eq!(z.layout().to_string(), "((_16,_8),(6,8)):((_1@0,_1@1),(_16@0,_8@1))");
    assert_eq!(z.at((5usize, (1usize, 2usize))), (21, 16));
    // Every coordinate of a divide of a tile of a run-time identity tensor.
    let t = local_tile(d, shape!(16, 8), (2usize, 3usize)).zipped_divide(shape!(4, 2));
    for x in 0..128usize {
        let (i, j) = t.at(x);
        let (v, r) = (x % 8, x / 8);
        assert_eq!((i, j), (32 + v % 4 + 4 * (r % 4), 24 + v / 4 + 2 * (r / 4)));
    }
    // Size-1 modes as CuTe gives them: `_0` from a tiler's extent 1 and
    // from a complement of size 1, the basis where a layout's own stride
    // lands in a size-1 mode.
    assert_eq!(id.logical_divide(shape!(2, 3)).layout().to_string(), "((_2,_2),(_3,_1)):((_1@0,_2@0),(_1@1,_0))");
    assert_eq!(id.zipped_divide(shape!(2, 1)).layout().to_string(), "((_2,_1),(_2,_3)):((_1@0,_0),(_2@0,_1@1))");
    assert_eq!(id.logical_divide(shape!(2, 1)).layout().to_string(), "((_2,_2),(_1,_3)):((_1@0,_2@0),(_0,_1@1))");
    assert_eq!(id.logical_divide(shape!(4, 3)).layout().to_string(), "((_4,_1),(_3,_1)):((_1@0,_0),(_1@1,_0))");
    assert_eq!(id.compose(layout!((2,1):(1,4))).layout().to_string(), "(_2,_1):(_1@0,_1@1)");
    assert_eq!(local_partition(id, layout!((4,1):(1,0)), 1).layout().to_string(), "(_1,_3):(_0,_1@1)");
    // Left: a thread's part of size 1 in every mode. CuTe prints
    // `(_1,_1):(_0,_0)` (its rest modes come from a complement, which
    // coalesces a size-1 mode to `_1:_0`); cute-static's local_partition
    // gives the rest mode the stride `tile extent × stride` (the same
    // coordinates: the modes have size 1).
    let lp = local_partition(id, layout!((4,3):(1,4)), 1);
    assert_eq!(lp.layout().to_string(), "(_1,_1):(_4@0,_3@1)");
    assert_eq!(lp.at((0usize, 0usize)), (1, 0));
}
