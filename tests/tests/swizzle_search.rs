//! The swizzle search (`suggest_swizzle`): the golden case of 8 rows of 128
//! bytes written row by row and read down the columns, in floats and in
//! bytes; CuTe's atoms on elements; the vector widths against CuTe's rule;
//! and, on random tiles and patterns, every reported figure recounted by
//! brute force over the swizzled offsets (the composed layout's own
//! evaluation, the banks simulated), the conflict-free set and the ranking
//! recomputed over the whole search space.
//!
//! The golden case is in floats: the tile `(8,32):(32,1)` (row-major, offsets
//! in 4-byte elements) is 8 rows of 128 bytes, and a float per thread makes
//! one request of a 32-thread write phase exactly one 128-byte row, which is
//! the pattern the question is about; the byte version of the same tile is
//! checked too, where CuTe's atom appears in its own units, `Sw<3,4,3>`.

use cute_dynamic::{
    ComposedLayout, Layout, SmemAtom, Swizzle, SwizzleCandidate, SwizzleSearch, bank_conflicts,
    bank_conflicts_composed, composition, max_common_vector, suggest_swizzle, swizzle_search_space,
};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

fn lay(s: &str) -> Layout {
    s.parse().expect("layout")
}

fn sw(b: i64, m: i64, s: i64) -> Swizzle {
    Swizzle::new(b, m, s).expect("swizzle")
}

/// Threads and values of an access pattern, as the bank model reads it.
fn threads_values(tv: &Layout) -> (i64, i64) {
    if tv.rank() == 2 { (tv.get(0).unwrap().size(), tv.get(1).unwrap().size()) } else { (tv.size(), 1) }
}

/// Thread `t`'s value `v` through the swizzled tile: the composed layout's
/// own evaluation at the coordinate index the pattern names.
fn offset(c: &ComposedLayout, tv: &Layout, threads: i64, t: i64, v: i64) -> i64 {
    c.eval(tv.eval(t + v * threads).unwrap()).unwrap()
}

/// The banks simulated for one request: each wavefront serves, in every
/// bank, the lowest word still wanted there. Returns the wavefronts and the
/// distinct words.
fn simulate(offsets: &[i64], elem_bytes: i64) -> (i64, i64) {
    let mut wanted: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
    for &o in offsets {
        let (a, b) = (o * elem_bytes, o * elem_bytes + elem_bytes - 1);
        for w in a.div_euclid(4)..=b.div_euclid(4) {
            wanted.entry(w.rem_euclid(32)).or_default().insert(w);
        }
    }
    let words = wanted.values().map(|s| s.len() as i64).sum();
    let mut n = 0;
    while wanted.values().any(|s| !s.is_empty()) {
        for s in wanted.values_mut() {
            let first = s.iter().next().copied();
            if let Some(w) = first {
                s.remove(&w);
            }
        }
        n += 1;
    }
    (n, words)
}

/// A phase's figures by brute force: (wavefronts, ideal, vector).
fn brute_phase(c: &ComposedLayout, tv: &Layout, elem_bytes: i64) -> (i64, i64, i64) {
    let (threads, values) = threads_values(tv);
    let (mut wavefronts, mut ideal) = (0, 0);
    for first in (0..threads).step_by(32) {
        for v in 0..values {
            let offs: Vec<i64> = (first..threads.min(first + 32)).map(|t| offset(c, tv, threads, t, v)).collect();
            let (w, words) = simulate(&offs, elem_bytes);
            wavefronts += w;
            ideal += (words + 31) / 32;
        }
    }
    // The widest vector: the largest power of two K dividing the values
    // such that every chunk of K values of every thread is K consecutive
    // offsets from a multiple of K.
    let mut vector = 1;
    let mut k = 2;
    while values % k == 0 {
        let fits = (0..threads).all(|t| {
            (0..values / k).all(|j| {
                let start = offset(c, tv, threads, t, j * k);
                start.rem_euclid(k) == 0 && (0..k).all(|i| offset(c, tv, threads, t, j * k + i) == start + i)
            })
        });
        if fits {
            vector = k;
        }
        k *= 2;
    }
    (wavefronts, ideal, vector)
}

/// Checks a reported candidate against the brute-force recount.
#[track_caller]
fn assert_recounted(r: &SwizzleSearch, c: &SwizzleCandidate, write: &Layout, read: &Layout) {
    let composed = r.layout(c);
    assert_eq!(composed, ComposedLayout::compose(c.swizzle, &r.tile));
    let (w, wi, wv) = brute_phase(&composed, write, r.elem_bytes);
    let (rd, ri, rv) = brute_phase(&composed, read, r.elem_bytes);
    let figures = |p: cute_dynamic::PhaseFigures| (p.wavefronts, p.ideal, p.vector);
    assert_eq!(figures(c.write), (w, wi, wv), "write phase of {}", c.swizzle);
    assert_eq!(figures(c.read), (rd, ri, rv), "read phase of {}", c.swizzle);
    let extent = (0..r.tile.size()).map(|i| composed.eval(i).unwrap()).max().unwrap() + 1;
    assert_eq!(c.extent, extent, "extent of {}", c.swizzle);
    assert_eq!(c.is_conflict_free(), w == wi && rd == ri);
}

/// The searched space, enumerated here from its statement: `Sw<0,0,0>`,
/// every `Sw<B,M,S>` with `B >= 1`, `|S| >= B`, `M + |S| + B <= n`, and
/// CuTe's atoms on the elements.
fn stated_space(n: i64, elem_bytes: i64) -> BTreeSet<(u32, u32, i32)> {
    let mut space = BTreeSet::from([(0, 0, 0)]);
    for b in 1..=n {
        for s in b..=n {
            for m in 0..=n - b - s {
                space.insert((b as u32, m as u32, s as i32));
                space.insert((b as u32, m as u32, -s as i32));
            }
        }
    }
    if [1, 2, 4, 8, 16].contains(&elem_bytes) {
        let e = elem_bytes.trailing_zeros();
        for b in 1..=3 {
            space.insert((b, 4 - e, 3));
        }
    }
    space
}

fn key(s: &Swizzle) -> (u32, u32, i32) {
    (s.bits(), s.base(), s.shift())
}

/// The ranking, restated: fewest wavefronts, widest vectors (narrower, then
/// wider), smallest extent, smallest B, M, |S|, positive S first.
fn rank(c: &SwizzleCandidate) -> (i64, Reverse<i64>, Reverse<i64>, i64, u32, u32, u32, bool) {
    let (lo, hi) = (c.write.vector.min(c.read.vector), c.write.vector.max(c.read.vector));
    let s = &c.swizzle;
    (
        c.total_wavefronts(),
        Reverse(lo),
        Reverse(hi),
        c.extent,
        s.bits(),
        s.base(),
        s.shift().unsigned_abs(),
        s.shift() < 0,
    )
}

#[test]
fn golden_rows_of_128_bytes_written_by_rows_read_by_columns() {
    // 8 rows of 32 floats: 8 rows of 128 bytes.
    let tile = lay("(8,32):(32,1)");
    // Write: request v stores row v, thread t its column t (consecutive
    // 4-byte words of one row).
    let write = lay("(32,8):(8,1)");
    // Read: request v walks down columns 4v..4v+3, threads 8j..8j+7 down
    // column 4v+j.
    let read = lay("(32,8):(1,32)");
    assert_eq!(offset(&ComposedLayout::compose(Swizzle::smem_none(), &tile), &read, 32, 9, 2), 32 + 9);

    // Today, unswizzled (the figures `cute --banks` prints): the column read
    // takes 8 wavefronts per request where 1 would do, 64 over the phase.
    let column = bank_conflicts(&lay("8:32"), 4).unwrap(); // `cute --banks 8:32`
    assert_eq!((column.groups[0].total(), column.groups[0].ideal_total()), (8, 1));
    let reads = bank_conflicts(&composition(&tile, &read).unwrap(), 4).unwrap();
    assert_eq!(reads.groups[0].wavefronts, [8; 8]);
    assert_eq!((reads.groups[0].total(), reads.groups[0].ideal_total()), (64, 8));
    let writes = bank_conflicts(&composition(&tile, &write).unwrap(), 4).unwrap();
    assert_eq!((writes.groups[0].total(), writes.groups[0].ideal_total()), (8, 8));

    let r = suggest_swizzle(&tile, 4, &write, &read).unwrap();
    assert_eq!((r.bits, r.searched, r.write_shape, r.read_shape), (8, 101, (32, 8), (32, 8)));
    let u = r.unswizzled;
    assert_eq!(u.swizzle, Swizzle::smem_none());
    assert_eq!((u.write.wavefronts, u.write.ideal, u.read.wavefronts, u.read.ideal), (8, 8, 64, 8));

    // After: exactly one swizzle serves both, CuTe's 128-byte atom.
    let found: Vec<Swizzle> = r.conflict_free.iter().map(|c| c.swizzle).collect();
    assert_eq!(found, [sw(3, 2, 3)]);
    let best = r.best;
    assert_eq!(best, r.conflict_free[0]);
    assert_eq!(best.atom, Some(SmemAtom::Sw128));
    assert_eq!((best.write.wavefronts, best.write.ideal, best.write.vector), (8, 8, 1));
    assert_eq!((best.read.wavefronts, best.read.ideal, best.read.vector), (8, 8, 1));
    assert_eq!(best.extent, 256);
    // Per request, after: 1 wavefront each.
    let swizzled = ComposedLayout::compose(best.swizzle, &composition(&tile, &read).unwrap());
    assert_eq!(bank_conflicts_composed(&swizzled, 4).unwrap().groups[0].wavefronts, [1; 8]);
    // Sw<3,2,3> on floats is Sw<3,4,3> on their bytes.
    assert_eq!(SmemAtom::Sw128.in_elements(4), Some(sw(3, 2, 3)));
    for o in 0..256 {
        assert_eq!(Swizzle::smem_128b().apply(4 * o), 4 * sw(3, 2, 3).apply(o));
    }

    // Every reported figure, recounted; and over the whole stated space by
    // brute force, Sw<3,2,3> is the only conflict-free swizzle.
    for c in r.conflict_free.iter().chain([&r.best, &r.unswizzled]).chain(&r.atoms) {
        assert_recounted(&r, c, &write, &read);
    }
    let space = stated_space(8, 4);
    assert_eq!(space.len(), 101);
    let free: Vec<(u32, u32, i32)> = space
        .iter()
        .filter(|&&(b, m, s)| {
            let c = ComposedLayout::compose(sw(b.into(), m.into(), s.into()), &tile);
            let (w, wi, _) = brute_phase(&c, &write, 4);
            let (rd, ri, _) = brute_phase(&c, &read, 4);
            w == wi && rd == ri
        })
        .copied()
        .collect();
    assert_eq!(free, [(3, 2, 3)]);

    // The atoms: the narrower ones halve the conflicts, one bit each.
    let atoms: Vec<(Option<SmemAtom>, Swizzle, i64)> =
        r.atoms.iter().map(|c| (c.atom, c.swizzle, c.read.wavefronts)).collect();
    assert_eq!(
        atoms,
        [
            (Some(SmemAtom::Inter), Swizzle::smem_none(), 64),
            (Some(SmemAtom::Sw32), sw(1, 2, 3), 32),
            (Some(SmemAtom::Sw64), sw(2, 2, 3), 16),
            (Some(SmemAtom::Sw128), sw(3, 2, 3), 8),
        ]
    );
}

#[test]
fn golden_in_bytes_finds_cute_sw343_itself() {
    // The same 1024 bytes as 8 rows of 128 one-byte elements; each thread
    // stores a 4-byte word of a row (byte b of the word is value b), and
    // reads a word column at a time.
    let tile = lay("(8,128):(128,1)");
    let write = lay("(32,(4,8)):(32,(8,1))");
    let read = lay("((8,4),(4,8)):((1,32),(8,128))");
    let r = suggest_swizzle(&tile, 1, &write, &read).unwrap();
    assert_eq!((r.unswizzled.read.wavefronts, r.unswizzled.read.ideal), (256, 32));
    let found: Vec<Swizzle> = r.conflict_free.iter().map(|c| c.swizzle).collect();
    assert_eq!(found, [Swizzle::smem_128b()]);
    assert_eq!(r.best.atom, Some(SmemAtom::Sw128));
    assert_eq!((r.best.write.vector, r.best.read.vector), (4, 4)); // 16-byte chunks keep the words whole
    assert_eq!((r.best.write.wavefronts, r.best.read.wavefronts), (32, 32));
    for c in r.conflict_free.iter().chain(&r.atoms) {
        assert_recounted(&r, c, &write, &read);
    }
}

#[test]
fn vector_widths_follow_cute_rule_on_aligned_rows() {
    // Each thread reads 8 consecutive floats of a row: thread (r, j) reads
    // row r, columns 8j..8j+7.
    let tile = lay("(8,32):(32,1)");
    let read = lay("((8,4),8):((1,64),8)");
    let r = suggest_swizzle(&tile, 4, &lay("(32,8):(8,1)"), &read).unwrap();
    // CuTe's rule for a swizzled layout: min(max_common_vector(L ∘ V, the
    // compact fragment), 2^M); here every thread starts aligned, so the
    // exact width agrees with it.
    let v = read.get(1).unwrap();
    let mcv = max_common_vector(&composition(&tile, &v).unwrap(), &lay("8:1"));
    assert_eq!(mcv, 8);
    let all: Vec<&SwizzleCandidate> = r.conflict_free.iter().chain([&r.best, &r.unswizzled]).chain(&r.atoms).collect();
    for c in all {
        let cap = if c.swizzle.bits() == 0 { mcv } else { mcv.min(1 << c.swizzle.base()) };
        assert_eq!(c.read.vector, cap, "{}", c.swizzle);
    }
    assert_eq!(r.unswizzled.read.vector, 8);
}

#[test]
fn refusals_name_the_limit() {
    let tv = lay("2:1");
    let e = suggest_swizzle(&lay("2:33554432"), 4, &tv, &tv).unwrap_err();
    assert!(e.to_string().contains("above the limit of 24"), "{e}");
    let e = suggest_swizzle(&lay("(1024,1025):(1,1024)"), 4, &tv, &tv).unwrap_err();
    assert!(e.to_string().contains("above the limit of 1048576"), "{e}");
    let e = suggest_swizzle(&lay("8:1"), 4, &lay("(32,2):(1,8)"), &tv).unwrap_err();
    assert!(e.to_string().contains("write pattern"), "{e}");
    assert!(suggest_swizzle(&lay("8:1"), 1025, &tv, &tv).is_err());
    assert!(swizzle_search_space(25).is_err());
}

fn config() -> Config {
    Config { failure_persistence: None, ..Config::with_cases(64) }
}

/// A tile `(R, C)` (row-major, column-major, both padded, or any strides)
/// and two patterns whose coordinate indices lie in it.
fn case() -> impl Strategy<Value = (Layout, Layout, Layout, i64)> {
    // ((t1,t2),v):((d1,d1·t1+d2),dv): up to 80 threads (groups of 32 and a
    // remainder), or threads alone (rank 1).
    let pattern = (1i64..=40, 1i64..=2, 1i64..=4, 0i64..=3, 0i64..=3, 0i64..=24, any::<bool>());
    (
        pattern.clone(),
        pattern,
        1i64..=8,
        0u8..3,
        0i64..=3,
        (0i64..=12, 0i64..=12),
        prop_oneof![Just(1i64), Just(2), Just(4), Just(8), Just(16), Just(3)],
    )
        .prop_map(|(w, r, rows, kind, pad, free, eb)| {
            let tv = |(t1, t2, v, d1, d2, dv, rank2): (i64, i64, i64, i64, i64, i64, bool)| -> Layout {
                if rank2 {
                    lay(&format!("(({t1},{t2}),{v}):(({d1},{}),{dv})", d1 * t1 + d2))
                } else {
                    lay(&format!("(({t1},{t2})):(({d1},{d2}))"))
                }
            };
            let (write, read) = (tv(w), tv(r));
            let needed = write.cosize().max(read.cosize());
            let cols = (needed + rows - 1) / rows;
            let tile = match kind {
                0 => lay(&format!("({rows},{cols}):({},1)", cols + pad)),
                1 => lay(&format!("({rows},{cols}):(1,{})", rows + pad)),
                _ => lay(&format!("({rows},{cols}):({},{})", free.0, free.1)),
            };
            (tile, write, read, eb)
        })
}

proptest! {
    #![proptest_config(config())]

    /// Every reported candidate's figures are the brute-force recount; the
    /// conflict-free list is exactly the conflict-free part of the stated
    /// search space, in the ranking's order; the best is the first of all.
    #[test]
    fn reported_figures_are_the_recount((tile, write, read, eb) in case()) {
        let r = suggest_swizzle(&tile, eb, &write, &read).unwrap();
        let n = 64 - (tile.cosize() - 1).leading_zeros() as i64;
        prop_assert_eq!(i64::from(r.bits), n);
        let space = stated_space(n, eb);
        prop_assert_eq!(r.searched, space.len());
        for c in r.conflict_free.iter().chain([&r.best, &r.unswizzled]).chain(&r.atoms) {
            assert_recounted(&r, c, &write, &read);
            prop_assert!(space.contains(&key(&c.swizzle)));
        }
        prop_assert_eq!(r.atoms.len(), if [1, 2, 4, 8, 16].contains(&eb) { 4 } else { 0 });
        // All candidates, measured independently of the report.
        let mut all: Vec<SwizzleCandidate> = space
            .iter()
            .map(|&(b, m, s)| {
                let swz = sw(b.into(), m.into(), s.into());
                let c = ComposedLayout::compose(swz, &tile);
                let (w, wi, wv) = brute_phase(&c, &write, eb);
                let (rd, ri, rv) = brute_phase(&c, &read, eb);
                let extent = (0..tile.size()).map(|i| c.eval(i).unwrap()).max().unwrap() + 1;
                let atom = SmemAtom::ALL.into_iter().find(|a| a.in_elements(eb) == Some(swz));
                SwizzleCandidate {
                    swizzle: swz,
                    atom,
                    write: cute_dynamic::PhaseFigures { wavefronts: w, ideal: wi, vector: wv },
                    read: cute_dynamic::PhaseFigures { wavefronts: rd, ideal: ri, vector: rv },
                    extent,
                }
            })
            .collect();
        all.sort_by_key(rank);
        prop_assert_eq!(r.best, all[0]);
        let free: Vec<SwizzleCandidate> = all.into_iter().filter(SwizzleCandidate::is_conflict_free).collect();
        prop_assert_eq!(&r.conflict_free, &free);
    }
}
