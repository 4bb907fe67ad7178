//! Shared-memory bank conflicts: the claim of the CuTe dialect's descriptor
//! grammar that eight rows under its swizzle<3,4,3> (`BitFieldXor<3,4,3>`)
//! fall in distinct banks, CuTe's Sw<3,4,3> removing the
//! 8-way conflict of a 128-byte-row column read, and the wavefront count
//! against a simulation of the banks.

use cute_dynamic::{
    BitFieldXor, ComposedLayout, IntTuple, Layout, Swizzle, bank_conflicts, bank_conflicts_composed, bank_wavefronts,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

fn layout(s: &str) -> Layout {
    s.parse().unwrap()
}

#[test]
fn seed_eight_rows_under_swizzle_343_fall_in_distinct_banks() {
    // That grammar's example: eight consecutive 8-byte rows 0x00..0x38, as
    // byte offsets read by 8 threads, through its formula (`BitFieldXor`).
    let rows = layout("8:8");
    let sw = ComposedLayout::compose(BitFieldXor::new(3, 4, 3).unwrap(), &rows);
    let banks: Vec<i64> = (0..8).map(|t| sw.eval(t).unwrap() % 128 / 4).collect();
    assert_eq!(banks, [0, 6, 12, 10, 24, 30, 20, 18]);
    assert_eq!(banks.iter().collect::<BTreeSet<_>>().len(), 8, "distinct banks");
    let r = bank_conflicts_composed(&sw, 1).unwrap();
    assert_eq!(r.groups.len(), 1);
    assert_eq!((r.groups[0].total(), r.groups[0].ideal_total()), (1, 1));
}

#[test]
fn cute_sw343_spreads_eight_128_byte_rows_over_the_banks() {
    // Eight threads read 16 bytes at the start of eight 128-byte rows.
    // Without a swizzle all of them are in banks 0..3: 8 wavefronts where
    // 128 bytes could be read in one.
    let rows = layout("8:8"); // 16-byte elements, 8 per row
    let r = bank_conflicts(&rows, 16).unwrap();
    assert_eq!((r.groups[0].total(), r.groups[0].ideal_total()), (8, 1));
    // With Sw<3,4,3> on byte offsets, row r's first chunk moves to chunk r
    // (banks 4r..4r+3): one byte per row, one wavefront.
    let bytes = layout("8:128");
    assert_eq!(bank_conflicts(&bytes, 1).unwrap().groups[0].total(), 8);
    let sw = ComposedLayout::compose(Swizzle::smem_128b(), &bytes);
    let r = bank_conflicts_composed(&sw, 1).unwrap();
    assert_eq!((r.groups[0].total(), r.groups[0].ideal_total()), (1, 1));
    // The same with 16-byte chunks: Sw<3,0,3> on chunk offsets.
    let sw = ComposedLayout::compose(Swizzle::new(3, 0, 3).unwrap(), &rows);
    let r = bank_conflicts_composed(&sw, 16).unwrap();
    assert_eq!((r.groups[0].total(), r.groups[0].ideal_total()), (1, 1));
}

#[test]
fn warp_reads_of_a_float_matrix() {
    // A column of a 32x32 row-major float matrix: 32-way conflict.
    let r = bank_conflicts(&layout("32:32"), 4).unwrap();
    assert_eq!((r.groups[0].total(), r.groups[0].ideal_total()), (32, 1));
    // Padding the rows to 33 floats removes it.
    assert_eq!(bank_conflicts(&layout("32:33"), 4).unwrap().groups[0].total(), 1);
    // Broadcast: every thread reads the same word.
    assert_eq!(bank_conflicts(&layout("32:0"), 4).unwrap().groups[0].total(), 1);
    // A (thread, value) layout: 64 threads, 2 values each, interleaved:
    // each request reads every other word of 64, two per even bank.
    let r = bank_conflicts(&layout("(64,2):(2,1)"), 4).unwrap();
    assert_eq!((r.threads, r.values, r.groups.len()), (64, 2, 2));
    for g in &r.groups {
        assert_eq!((g.wavefronts.clone(), g.ideal.clone()), (vec![2, 2], vec![1, 1]));
    }
    assert_eq!(
        r.to_string(),
        concat!(
            "64 threads x 2 values, 4-byte elements, 32 banks x 4 bytes\n",
            "threads 0-31: 4 wavefronts (ideal 2)\n",
            "threads 32-63: 4 wavefronts (ideal 2)\n",
        )
    );
    assert!(bank_conflicts(&layout("32:1"), 0).is_err());
    assert!(bank_conflicts(&layout("32:1"), cute_dynamic::MAX_ELEM_BYTES + 1).is_err());
}

/// The banks simulated: each wavefront serves, in every bank, the lowest
/// word still wanted there (and every thread that wants that word).
fn simulated_wavefronts(offsets: &[i64], elem_bytes: i64) -> i64 {
    let mut wanted: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
    for &o in offsets {
        let (a, b) = (o * elem_bytes, o * elem_bytes + elem_bytes - 1);
        for w in a.div_euclid(4)..=b.div_euclid(4) {
            wanted.entry(w.rem_euclid(32)).or_default().insert(w);
        }
    }
    let mut n = 0;
    while wanted.values().any(|s| !s.is_empty()) {
        for s in wanted.values_mut() {
            if let Some(&w) = s.iter().next() {
                s.remove(&w);
            }
        }
        n += 1;
    }
    n
}

fn small_layout() -> impl Strategy<Value = Layout> {
    (proptest::collection::vec((1i64..=8, -9i64..=40), 1..=3)).prop_map(|modes| {
        Layout::new(IntTuple::flat(modes.iter().map(|m| m.0)), IntTuple::flat(modes.iter().map(|m| m.1))).unwrap()
    })
}

proptest! {
    #[test]
    fn wavefronts_match_the_simulated_banks(l in small_layout(), eb in prop_oneof![Just(1i64), Just(2), Just(4), Just(8), Just(16)]) {
        let r = bank_conflicts(&l, eb).unwrap();
        let (threads, values) = if l.rank() == 2 {
            (l.get(0).unwrap().size(), l.get(1).unwrap().size())
        } else {
            (l.size(), 1)
        };
        prop_assert_eq!(r.groups.len() as i64, (threads + 31) / 32);
        for g in &r.groups {
            for v in 0..values {
                let offs: Vec<i64> = (g.first_thread..g.first_thread + g.threads)
                    .map(|t| l.eval(t + v * threads).unwrap())
                    .collect();
                let words: BTreeSet<i64> = offs
                    .iter()
                    .flat_map(|&o| (o * eb).div_euclid(4)..=(o * eb + eb - 1).div_euclid(4))
                    .collect();
                let w = g.wavefronts[v as usize];
                prop_assert_eq!(w, simulated_wavefronts(&offs, eb));
                prop_assert_eq!(g.ideal[v as usize], (words.len() as i64 + 31) / 32);
                prop_assert!(g.ideal[v as usize] <= w && w <= words.len() as i64);
            }
        }
        // The generic entry point agrees.
        let again = bank_wavefronts(threads, values, eb, |t, v| l.eval(t + v * threads)).unwrap();
        prop_assert_eq!(again, r);
    }
}
