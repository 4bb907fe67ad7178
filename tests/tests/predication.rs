//! Views that overhang a ragged matrix (`Tensor::predicated`): every
//! checked access names exactly the parent's element at the tile's
//! coordinate, or nothing outside the matrix; `inside` gives the unchecked
//! tensor exactly for the tiles inside; the thread parts of a tile cover
//! its elements once; the predicated algorithms touch only elements that
//! exist.

use cute_static::prelude::*;
use proptest::prelude::*;

/// The parent's element at `(r, c)` of an `m×n` column-major matrix with
/// leading dimension `ld`, when it exists.
fn at(data: &[i64], ld: usize, m: usize, n: usize, r: usize, c: usize) -> Option<i64> {
    (r < m && c < n).then(|| data[r + c * ld])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn tiles_name_the_parents_elements(m in 1usize..40, n in 1usize..20, pad in 0usize..4) {
        let ld = m + pad;
        // Storage for exactly the matrix: no padding after the last column.
        let data: Vec<i64> = (0..(ld * (n - 1) + m) as i64).collect();
        let a = make_tensor(&data[..], layout!(({m},{n}):(1,{ld})));
        let p = a.predicated();
        let (tm, tn) = (m.div_ceil(8), n.div_ceil(4));
        for bx in 0..tm {
            for by in 0..tn {
                let t = p.local_tile(shape!(8, 4), (bx, by));
                let full = (bx + 1) * 8 <= m && (by + 1) * 4 <= n;
                for i in 0..8usize {
                    for j in 0..4usize {
                        let want = at(&data, ld, m, n, bx * 8 + i, by * 4 + j);
                        prop_assert_eq!(t.get((i, j)).copied(), want);
                        prop_assert_eq!(t.is_inside((i, j)), want.is_some());
                        prop_assert_eq!(t.coord((i, j)), (bx * 8 + i, by * 4 + j));
                    }
                }
                match t.inside() {
                    Ok(u) => {
                        prop_assert!(full, "tile ({}, {}) of {}x{} is not inside", bx, by, m, n);
                        for i in 0..8usize {
                            for j in 0..4usize {
                                prop_assert_eq!(Some(u[(i, j)]), at(&data, ld, m, n, bx * 8 + i, by * 4 + j));
                            }
                        }
                    }
                    Err(_) => prop_assert!(!full, "tile ({}, {}) of {}x{} is inside", bx, by, m, n),
                }
            }
        }
    }

    #[test]
    fn thread_parts_of_an_edge_tile_cover_it_once(m in 1usize..24, n in 1usize..24) {
        let data: Vec<i64> = (0..(m * n) as i64).collect();
        let a = make_tensor(&data[..], layout!(({m},{n}):(1,{m})));
        let t = a.predicated().local_tile(shape!(8, 8), (m.div_ceil(8) - 1, n.div_ceil(8) - 1));
        let mut seen = vec![0u32; m * n];
        for tid in 0..8 {
            let part = t.local_partition(layout!((4,2):(1,4)), tid);
            for i in 0..part.size() {
                if let Some(&v) = part.get(i) {
                    seen[v as usize] += 1;
                }
                let (r, c) = part.coord(i);
                prop_assert_eq!(part.get(i).copied(), (r < m && c < n).then(|| (r + c * m) as i64));
            }
        }
        // Every element of the edge tile, and nothing else, once.
        let (r0, c0) = (8 * (m.div_ceil(8) - 1), 8 * (n.div_ceil(8) - 1));
        for r in 0..m {
            for c in 0..n {
                prop_assert_eq!(seen[r + c * m], u32::from(r >= r0 && c >= c0));
            }
        }
    }

    #[test]
    fn predicated_algorithms_touch_only_elements_that_exist(m in 1usize..20, n in 1usize..20) {
        let src: Vec<i64> = (0..(m * n) as i64).collect();
        let mut dst = vec![-1i64; m * n];
        let a = make_tensor(&src[..], layout!(({m},{n}):(1,{m})));
        let (bx, by) = (m.div_ceil(4) - 1, n.div_ceil(4) - 1);
        // Load the edge tile into a fragment, zero-filled.
        let mut f = make_fragment_like::<i64, _>(layout!((4,4):(1,4)));
        a.predicated().local_tile(shape!(4, 4), (bx, by)).copy_to(&mut f, 0);
        for i in 0..4usize {
            for j in 0..4usize {
                let (r, c) = (4 * bx + i, 4 * by + j);
                prop_assert_eq!(f[(i, j)], if r < m && c < n { (r + c * m) as i64 } else { 0 });
            }
        }
        // Store it back into another matrix: only the elements that exist.
        let mut d = make_tensor(&mut dst[..], layout!(({m},{n}):(1,{m}))).predicated().local_tile(shape!(4, 4), (bx, by));
        d.copy_from(&f);
        let written = dst.iter().filter(|&&v| v != -1).count();
        prop_assert_eq!(written, (m - 4 * bx) * (n - 4 * by));
        for (k, &v) in dst.iter().enumerate() {
            prop_assert!(v == -1 || v == k as i64);
        }
        // Fill: again only the elements that exist.
        let mut ones = vec![0u8; m * n];
        make_tensor(&mut ones[..], layout!(({m},{n}):(1,{m}))).predicated().local_tile(shape!(4, 4), (bx, by)).fill(1);
        prop_assert_eq!(ones.iter().map(|&b| b as usize).sum::<usize>(), written);
    }
}

#[test]
fn k_tiles_of_a_projected_tile_overhang_only_at_the_end() {
    // The sgemm pattern: gA = local_tile(mA, (BLK_M,BLK_N,BLK_K), (bx,by,_), Step<_1,X,_1>).
    let (m, k) = (1000usize, 333usize);
    let a: Vec<f32> = (0..m * k).map(|i| i as f32).collect();
    let ma = make_tensor(&a[..], layout!(({m},{k}):(1,{m})));
    let ga = ma.predicated().local_tile_proj(
        shape!(128, 128, 8),
        crd!(7usize, 0usize, _),
        (Int::<1>::new(), X, Int::<1>::new()),
    );
    assert_eq!(ga.layout().to_string(), "(_128,_8,42):(_1,1000,8000)");
    // Every k-tile overhangs in rows (896..1024 against 1000); none is inside.
    assert!(ga.slice(crd!(_, _, 0usize)).inside().is_err());
    let interior = ma.predicated().local_tile_proj(
        shape!(128, 128, 8),
        crd!(0usize, 0usize, _),
        (Int::<1>::new(), X, Int::<1>::new()),
    );
    assert!((0..41usize).all(|kt| interior.slice(crd!(_, _, kt)).inside().is_ok()));
    assert!(interior.slice(crd!(_, _, 41usize)).inside().is_err()); // columns 328..336 of 333
    // The plain form refuses the same tiles with the storage it would reach.
    assert!(try_local_tile(ma, shape!(128, 8), (0usize, 41usize)).is_err());
    assert!(try_local_tile(ma, shape!(128, 8), (0usize, 40usize)).is_ok());
}
