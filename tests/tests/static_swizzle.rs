//! cute-static's `Swizzle<B,M,S>` and composed layouts agree with
//! cute-dynamic's, and print as CuTe.

use cute_static::prelude::*;
use cute_static::{Swizzle, Swizzle32B, Swizzle64B, Swizzle128B, SwizzleNone, make_composed_layout, typenum};

/// Every offset below `2^bits` swizzles as cute-dynamic's twin does.
fn agrees<const B: u32, const M: u32, const S: i32>(bits: u32) {
    let s = Swizzle::<B, M, S>::new();
    let d = cute_dynamic::Swizzle::new(B.into(), M.into(), S.into()).unwrap();
    assert_eq!(s.to_dynamic(), d);
    assert_eq!(s.to_string(), d.to_string());
    assert_eq!(Swizzle::<B, M, S>::YYY_MASK as i64, d.yyy_mask());
    assert_eq!(Swizzle::<B, M, S>::ZZZ_MASK as i64, d.zzz_mask());
    for o in 0..1usize << bits {
        assert_eq!(s.apply(o) as i64, d.apply(o as i64), "{s} at {o}");
    }
}

#[test]
fn static_swizzles_agree_with_dynamic() {
    agrees::<3, 4, 3>(12);
    agrees::<2, 0, 3>(8);
    agrees::<2, 0, -3>(8);
    agrees::<1, 2, -5>(10);
    agrees::<0, 0, 0>(4);
    agrees::<3, 3, 3>(11);
    agrees::<4, 1, 6>(12);
}

#[test]
fn static_swizzle_golden() {
    let sw = Swizzle128B::new();
    assert_eq!(core::mem::size_of_val(&sw), 0);
    assert_eq!((sw.apply(0x80), sw.apply(0x100), sw.apply(0x3F0)), (0x90, 0x120, 0x380));
    let got: Vec<usize> = (0..32).map(|o| Swizzle::<2, 0, 3>::new().apply(o)).collect();
    assert_eq!(
        got,
        [
            0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 11, 10, 13, 12, 15, 14, 18, 19, 16, 17, 22, 23, 20, 21, 27, 26, 25, 24, 31,
            30, 29, 28
        ]
    );
    assert_eq!(SwizzleNone::new().to_dynamic(), cute_dynamic::Swizzle::smem_none());
    assert_eq!(Swizzle32B::new().to_dynamic(), cute_dynamic::Swizzle::smem_32b());
    assert_eq!(Swizzle64B::new().to_dynamic(), cute_dynamic::Swizzle::smem_64b());
    assert_eq!(Swizzle128B::new().to_dynamic(), cute_dynamic::Swizzle::smem_128b());
}

#[test]
fn static_composed_layout_prints_as_cute_and_agrees() {
    let c = Swizzle128B::new().compose(layout!((8,64):(64,1)));
    assert_eq!(core::mem::size_of_val(&c), 0);
    assert_eq!(c.to_string(), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
    let d = c.to_dynamic();
    assert_eq!(d.to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
    assert_eq!((c.size(), c.cosize()), (512, 512));
    for m in 0..8usize {
        for n in 0..64usize {
            let coord: cute_dynamic::IntTuple = format!("({m},{n})").parse().unwrap();
            assert_eq!(c.index((m, n)) as i64, d.eval_coord(&coord).unwrap());
        }
    }
    for i in 0..512usize {
        assert_eq!(c.index(i) as i64, d.eval(i as i64).unwrap());
    }
    // Divide and product act on the inner layout, as in cute-dynamic.
    let t = tile!(2, 8);
    let sd = c.logical_divide(t);
    let dd = d.logical_divide(&"<2,8>".parse::<cute_dynamic::Tiler>().unwrap()).unwrap();
    assert_eq!(sd.to_dynamic(), dd);
    let bp = c.blocked_product(layout!((2,2):(1,2)));
    assert_eq!(bp.to_dynamic(), d.blocked_product(&"(2,2):(1,2)".parse().unwrap()).unwrap());
    // A non-zero static offset.
    let o = make_composed_layout(Swizzle::<2, 0, 2>::new(), typenum::U64::default(), layout!(16:1));
    assert_eq!(o.to_string(), "Sw<2,0,2> o _64 o _16:_1");
    for i in 0..16usize {
        assert_eq!(o.index(i) as i64, o.to_dynamic().eval(i as i64).unwrap());
    }
}

/// `$static` (a cute-static composed-layout expression) prints as CuTe
/// prints the static answer, equals cute-dynamic's answer for `$dynamic`,
/// and evaluates as it at every point of its domain.
macro_rules! composed_agrees {
    ($static:expr, $dynamic:expr, $cute:expr) => {{
        let s = $static;
        let d = match cute_dynamic::eval($dynamic).unwrap() {
            cute_dynamic::Value::Composed(c) => c,
            other => panic!("{other}"),
        };
        assert_eq!(s.to_string(), $cute);
        assert_eq!(s.to_dynamic(), d, "{}", $dynamic);
        for i in 0..s.size() {
            assert_eq!(s.index(i) as i64, d.eval(i as i64).unwrap(), "{} at {i}", $dynamic);
        }
    }};
}

/// The composed-layout algebra of CuTe's unit tests (composition with a
/// composed layout on the right and on both sides, the inverses of composed
/// layouts), all-static, against cute-dynamic and CuTe's printed text.
#[test]
fn static_composed_algebra_agrees_with_dynamic() {
    let l88 = layout!((8,8):(8,1));
    composed_agrees!(
        composition(l88, Swizzle::<2, 0, -3>::new().compose(l88)),
        "composition((8,8):(8,1), composition(Sw<2,0,-3>, (8,8):(8,1)))",
        "Sw<2,0,3> o _0 o (_8,_8):(_1,_8)"
    );
    composed_agrees!(
        Swizzle::<2, 0, 3>::new().compose(l88).composition(Swizzle::<2, 0, -3>::new().compose(l88)),
        "composition(composition(Sw<2,0,3>, (8,8):(8,1)), composition(Sw<2,0,-3>, (8,8):(8,1)))",
        "Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)"
    );
    composed_agrees!(
        Swizzle::<1, 0, 2>::new().compose(layout!((4,4):(1,4))).left_inverse(),
        "left_inverse(composition(Sw<1,0,2>, (4,4):(1,4)))",
        "Sw<1,0,2> o _0 o _16:_1"
    );
    composed_agrees!(
        Swizzle::<1, 0, 2>::new().compose(layout!((4,4):(4,1))).left_inverse(),
        "left_inverse(composition(Sw<1,0,2>, (4,4):(4,1)))",
        "Sw<1,0,-2> o _0 o (_4,_4):(_4,_1)"
    );
    composed_agrees!(
        Swizzle::<1, 0, 1>::new().compose(layout!((4,4):(8,1))).left_inverse(),
        "left_inverse(composition(Sw<1,0,1>, (4,4):(8,1)))",
        "Sw<1,2,1> o _0 o (_8,_4):(_4,_1)"
    );
    composed_agrees!(
        Swizzle::<1, 0, 1>::new().compose(layout!((4,4):(8,1))).right_inverse(),
        "right_inverse(composition(Sw<1,0,1>, (4,4):(8,1)))",
        "Sw<1,2,1> o _0 o _4:_4"
    );
    composed_agrees!(
        Swizzle::<1, 0, 2>::new().compose(layout!((4,4):(4,1))).right_inverse(),
        "right_inverse(composition(Sw<1,0,2>, (4,4):(4,1)))",
        "Sw<1,0,-2> o _0 o (_4,_4):(_4,_1)"
    );
    // A 128-byte shared-memory tile read column-major: 512 points checked at compile time.
    composed_agrees!(
        Swizzle::<3, 4, 3>::new().compose(layout!((8,64):(1,8))).left_inverse(),
        "left_inverse(composition(Sw<3,4,3>, (8,64):(1,8)))",
        "Sw<3,4,3> o _0 o _512:_1"
    );
    // The largest domain checked at compile time, 2^16 points.
    let big = Swizzle::<3, 0, 3>::new().compose(layout!((256,256):(1,256)));
    composed_agrees!(
        composition(layout!((256,256):(256,1)), big),
        "composition((256,256):(256,1), composition(Sw<3,0,3>, (256,256):(1,256)))",
        "Sw<3,8,3> o _0 o (_256,_256):(_256,_1)"
    );
}

/// A tensor over `Sw ∘ L` (CuTe's tensor over a `ComposedLayout`): every
/// element is the storage at the composed layout's offset, and tiles and
/// thread parts of it (the algebra on `L`, the swizzle on the offsets) name
/// the same elements as the whole tensor at the matching coordinates.
#[test]
fn swizzled_tensors_index_tile_and_partition_through_the_inner_layout() {
    let data: Vec<u32> = (0..512).collect();
    let sw = Swizzle::<3, 4, 3>::new().compose(layout!((8, 64):(64, 1)));
    let t = make_tensor(&data[..], sw);
    for i in 0..8usize {
        for j in 0..64usize {
            assert_eq!(t[(i, j)] as usize, sw.index((i, j)));
        }
    }
    // A (4,16) tile at (1,2): element (i,j) is the whole tensor's (4+i, 32+j).
    let tile = local_tile(t, shape!(4, 16), (1usize, 2usize));
    for i in 0..4usize {
        for j in 0..16usize {
            assert_eq!(tile[(i, j)], t[(4 + i, 32 + j)]);
        }
    }
    // Thread parts of the tile by a (2,8) thread layout cover it once.
    let mut seen = vec![0u32; 512];
    for tid in 0..16 {
        let p = local_partition(tile, layout!((2, 8):(8, 1)), tid);
        for k in 0..p.size() {
            seen[p[k] as usize] += 1;
        }
    }
    let want: usize = 64;
    assert_eq!(seen.iter().filter(|&&n| n == 1).count(), want);
    assert!(seen.iter().all(|&n| n <= 1));
    // Slices keep the swizzle.
    let row = t.slice(crd!(5usize, _));
    assert!((0..64usize).all(|j| row[j] == t[(5usize, j)]));
}

#[test]
fn copies_into_and_out_of_a_swizzled_tensor() {
    let src: Vec<i32> = (0..64).collect();
    let mut smem = [0i32; 64];
    let a = make_tensor(&src[..], layout!((8, 8):(1, 8)));
    let mut s = make_tensor(&mut smem[..], Swizzle::<3, 0, 3>::new().compose(layout!((8, 8):(8, 1))));
    copy(&a, &mut s);
    // Element (i,j) of the swizzled tile is A(i,j), stored at Sw(8i + j).
    for i in 0..8 {
        for j in 0..8 {
            assert_eq!(smem[(8 * i + j) ^ i], (i + 8 * j) as i32);
        }
    }
    let s = make_tensor(&smem[..], Swizzle::<3, 0, 3>::new().compose(layout!((8, 8):(8, 1))));
    let mut back = [0i32; 64];
    copy(&s, &mut make_tensor(&mut back[..], layout!((8, 8):(1, 8))));
    assert_eq!(back.to_vec(), src);
}

#[test]
fn a_swizzled_layout_must_fit_its_storage_after_the_swizzle() {
    // Sw<2,3,-3> over (4,8):(8,1): offsets 0..=31, whose bits 3..5 are
    // XORed into bits 6..8: offset 31 goes to 31 ^ (24 << 3) = 223.
    let small = [0u8; 32];
    let l = Swizzle::<2, 3, -3>::new().compose(layout!((4, 8):(8, 1)));
    let e = try_make_tensor(&small[..], l).unwrap_err();
    assert_eq!(e.to_string(), "the tensor's layout reaches storage indices 0..=223, outside a storage of 32 elements");
    let big = [0u8; 224];
    let t = make_tensor(&big[..], l);
    assert_eq!((0..32usize).map(|i| l.index(i)).max(), Some(223));
    assert_eq!(t.size(), 32);
    // A swizzle whose read bits lie above every offset changes nothing:
    // Sw<3,4,3> reads bits 7..9 of offsets below 64.
    let data = [0u8; 64];
    assert!(try_make_tensor(&data[..], Swizzle::<3, 4, 3>::new().compose(layout!((8, 8):(8, 1)))).is_ok());
}
