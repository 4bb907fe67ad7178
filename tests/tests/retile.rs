//! CuTe's `TiledCopy::retile` (`retile_S`, `retile_D`): every case of
//! `tests/golden/cute_retile.txt` (printed by CuTe itself) line for line,
//! and the post-conditions of `TiledCopy::retile` by brute force.

use cute_dynamic::{
    CopyAtom, IntTuple, Layout, LayoutError, MmaAtom, TiledCopy, Tiler, make_tensor, make_tensor_at, make_tiled_copy,
    make_tiled_copy_a, make_tiled_copy_b, make_tiled_copy_c, make_tiled_mma, upcast, upcast_ceil,
};
use cute_tests::golden_text::{CUTE_RETILE, unmark};

/// One block of the golden file: a tiled copy and its retiled fragments.
struct Block {
    name: String,
    copy: TiledCopy,
    /// `(retile_S or retile_D, input, CuTe's output)`, unmarked.
    cases: Vec<(String, Layout, String)>,
}

fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("parsing {s:?}: {e}"))
}

/// The golden file's blocks, each tiled copy made from its atom, TV layout
/// and tile (`TiledCopy::new`, CuTe's `make_tiled_copy_impl`).
fn blocks() -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut head: Option<(String, Option<CopyAtom>, Option<IntTuple>)> = None;
    for line in CUTE_RETILE.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        if let Some(name) = line.strip_prefix("== ") {
            head = Some((name.to_string(), None, None));
            continue;
        }
        let (key, value) = line.split_once(": ").unwrap_or_else(|| panic!("no key in {line:?}"));
        let h = head.as_mut().expect("a line before the first block");
        match key {
            "atom" => {
                let (op, bits) = value.rsplit_once(' ').unwrap();
                h.1 = Some(CopyAtom::named(op, bits.parse().unwrap()).unwrap());
            }
            "Tiler_MN" => h.2 = Some(unmark(value).parse().unwrap()),
            "TiledLayout_TV" => {
                let atom = h.1.as_ref().expect("atom: before TiledLayout_TV:");
                let tiler = h.2.clone().expect("Tiler_MN: before TiledLayout_TV:");
                let copy = TiledCopy::new(atom, lay(&unmark(value)), tiler).unwrap();
                out.push(Block { name: h.0.clone(), copy, cases: Vec::new() });
            }
            "AtomNumVal" => {
                let b = out.last().unwrap();
                assert_eq!(b.copy.atom().layout_ref_tv().get(1).unwrap().size().to_string(), unmark(value));
            }
            "retile_S" | "retile_D" => {
                let (input, output) = value.split_once(" -> ").unwrap();
                out.last_mut().unwrap().cases.push((key.to_string(), lay(&unmark(input)), unmark(output)));
            }
            _ => panic!("unknown line {line:?}"),
        }
    }
    out
}

/// Every golden line: CuTe's `retile_S|D` layout, as CuTe prints it once
/// its static marker is off.
#[test]
fn retile_is_cutes() {
    let blocks = blocks();
    assert_eq!(blocks.len(), 11);
    let mut n = 0;
    for b in &blocks {
        for (which, input, want) in &b.cases {
            let got = b.copy.retile(input).unwrap_or_else(|e| panic!("{}: {which} of {input}: {e}", b.name));
            assert_eq!(got.to_string(), *want, "{}: {which} of {input}", b.name);
            n += 1;
        }
    }
    assert_eq!(n, 46);
}

/// The golden blocks' tiled copies are the ones this crate's constructors
/// make from the same arguments (so the golden cases test those too).
#[test]
fn golden_copies_are_the_constructors() {
    let sm80 = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    let mma = make_tiled_mma(&sm80, &lay("(2,2,1):(1,2,0)"), None).unwrap();
    let mma32 = make_tiled_mma(&sm80, &lay("(2,2,1):(1,2,0)"), Some(&"<32,32,16>".parse::<Tiler>().unwrap())).unwrap();
    let u = |bits, vbits| CopyAtom::universal(bits, vbits).unwrap();
    let ldsm = CopyAtom::gpu("SM75_U32x4_LDSM_N", 16).unwrap();
    let ours = [
        make_tiled_copy(&u(128, 16), &lay("(16,8):(8,1)"), &lay("(1,8):(0,1)")).unwrap(),
        make_tiled_copy_a(&ldsm, &mma).unwrap(),
        make_tiled_copy_a(&ldsm, &mma32).unwrap(),
        make_tiled_copy_b(&ldsm, &mma32).unwrap(),
        make_tiled_copy_b(&u(32, 16), &mma).unwrap(),
        make_tiled_copy_a(&u(32, 16), &mma).unwrap(),
        make_tiled_copy_c(&u(32, 32), &mma).unwrap(),
        make_tiled_copy_c(&u(64, 32), &mma).unwrap(),
        make_tiled_copy(&u(32, 32), &lay("(32,8):(1,32)"), &lay("(4,1):(1,0)")).unwrap(),
        make_tiled_copy(&u(128, 32), &lay("(32,8):(1,32)"), &lay("(4,1):(1,0)")).unwrap(),
        make_tiled_copy(&u(64, 16), &lay("(8,4):(4,1)"), &lay("(2,4):(1,2)")).unwrap(),
    ];
    let golden = blocks();
    assert_eq!(golden.len(), ours.len());
    // The B copy of the unpermuted MMA through ldmatrix is refused, as CuTe
    // refuses it ("TiledCopy uses too few vals for selected CopyAtom").
    assert!(matches!(make_tiled_copy_b(&ldsm, &mma), Err(LayoutError::NotAMultiple { .. })));
    for (b, copy) in golden.iter().zip(ours) {
        assert_eq!(b.copy, copy, "{}", b.name);
    }
}

/// The fragments the properties are checked on: the golden ones and every
/// `(V, M, N)` of small sizes, compact, with gaps and a broadcast, and
/// row-major.
fn fragments(b: &Block) -> Vec<Layout> {
    let mut out: Vec<Layout> = b.cases.iter().map(|c| c.1.clone()).collect();
    for v in [1, 2, 3, 4, 8, 16] {
        for m in 1..=4 {
            for n in 1..=3 {
                out.push(Layout::column_major(&IntTuple::flat([v, m, n])).unwrap());
                out.push(lay(&format!("({v},{m},{n}):(1,{},0)", 2 * v)));
                out.push(lay(&format!("({v},{m},{n}):({},1,{})", m, v * m)));
                out.push(lay(&format!("({v},{m},{n},2):(1,{v},{},-{})", v * m, v * m * n)));
            }
        }
    }
    out
}

fn offsets(l: &Layout) -> Vec<i64> {
    let mut o: Vec<i64> = (0..l.size()).map(|i| l.eval(i).unwrap()).collect();
    o.sort_unstable();
    o
}

/// `TiledCopy::retile`'s documented post-conditions, by brute force, for
/// every golden tiled copy and many fragments.
#[test]
fn retile_post_conditions() {
    let (mut same_size, mut other, mut refused) = (0, 0, 0);
    for b in blocks() {
        let per_thread = b.copy.layout_tv().get(1).unwrap().size();
        for l in fragments(&b) {
            let v = l.get(0).unwrap().size();
            let r = match b.copy.retile(&l) {
                Ok(r) => r,
                // V = 3 against copies of powers of two: threads·3 and a
                // stride of the inverted TV layout divide neither way, or 3
                // values do not compose with the copy's groups (CuTe's static
                // assertions in upcast and composition).
                Err(
                    LayoutError::NotDivisible { .. }
                    | LayoutError::ShapeDivisibility { .. }
                    | LayoutError::NotDistributive { .. },
                ) if v == 3 => {
                    refused += 1;
                    continue;
                }
                Err(e) => panic!("{}: {l}: {e}", b.name),
            };
            assert_eq!(r.rank(), l.rank(), "{}: {l} -> {r}", b.name);
            if v % per_thread == 0 || per_thread % v == 0 {
                assert_eq!(r.get(0).unwrap().size(), v.max(per_thread), "{}: {l} -> {r}", b.name);
            }
            if r.size() != l.size() {
                other += 1;
                continue;
            }
            same_size += 1;
            // A re-indexing: R = L ∘ Φ, Φ a permutation of L's indices that
            // depends on L's shape alone.
            let phi = b.copy.retile(&Layout::column_major(l.shape()).unwrap()).unwrap();
            let mut image: Vec<i64> = (0..phi.size()).map(|i| phi.eval(i).unwrap()).collect();
            image.sort_unstable();
            assert_eq!(image, (0..l.size()).collect::<Vec<_>>(), "{}: {l}: Φ = {phi}", b.name);
            for i in 0..r.size() {
                assert_eq!(r.eval(i).unwrap(), l.eval(phi.eval(i).unwrap()).unwrap(), "{}: {l} -> {r} at {i}", b.name);
            }
            assert_eq!(offsets(&r), offsets(&l), "{}: {l} -> {r}", b.name);
        }
    }
    // Both kinds occur: CuTe's own cases include fragments that do not split
    // into the copy's values (`(2,1,1)` against 8 values a thread).
    assert!(same_size > 1000 && other > 100 && refused > 10, "{same_size} {other} {refused}");
}

/// The tensor forms keep the engine, the origin and the data: element `i`
/// of the result is element `Φ(i)` of the fragment.
#[test]
fn retile_s_and_d_reindex_the_same_data() {
    let mma =
        make_tiled_mma(&MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN").unwrap(), &lay("(2,2,1):(1,2,0)"), None).unwrap();
    let ldsm = make_tiled_copy_a(&CopyAtom::gpu("SM75_U32x4_LDSM_N", 16).unwrap(), &mma).unwrap();
    let frag = lay("((2,2,2),4,4):((1,2,4),32,8)");
    let data: Vec<i64> = (0..200).collect();
    let t = make_tensor_at(&data[..], 5, frag.clone()).unwrap();
    let d = ldsm.retile_d(t.clone()).unwrap();
    assert_eq!((d.offset(), d.layout()), (5, &ldsm.retile(&frag).unwrap()));
    let phi = ldsm.retile(&Layout::column_major(frag.shape()).unwrap()).unwrap();
    for i in 0..d.size() {
        assert_eq!(d[i], t[phi.eval(i).unwrap()]);
    }
    let c = make_tiled_copy_c(&CopyAtom::universal(32, 32).unwrap(), &mma).unwrap();
    let mut acc = make_tensor(vec![0.0f32; 32], lay("((2,2),2,4):((1,2),4,8)")).unwrap();
    acc[(3, 1, 2)] = 7.0;
    let s = c.retile_s(acc).unwrap();
    assert_eq!(s.layout().to_string(), "((1,4),2,4):((0,1),4,8)");
    assert_eq!(s[(0, 1, 2)], 0.0);
    assert_eq!(s[(3, 1, 2)], 7.0);
}

#[test]
fn retile_refusals() {
    let copy =
        make_tiled_copy(&CopyAtom::universal(128, 16).unwrap(), &lay("(16,8):(8,1)"), &lay("(1,8):(0,1)")).unwrap();
    // A fragment needs its values and a mode for each of the tile's (CuTe:
    // "Too many modes in tiler").
    for l in ["8:1", "(8,4):(1,8)"] {
        let e = copy.retile(&lay(l)).unwrap_err();
        assert!(matches!(e, LayoutError::RankMismatch { expected: 3, .. }), "{l}: {e}");
    }
    // 128 threads times V overflows.
    let e = copy.retile(&lay("(4611686018427387904,1,1):(1,0,0)")).unwrap_err();
    assert!(matches!(e, LayoutError::Overflow { .. }), "{e}");
    // V = 3: three values do not compose with the copy's eight.
    let e = copy.retile(&lay("(3,1,1):(1,0,0)")).unwrap_err();
    assert!(matches!(e, LayoutError::ShapeDivisibility { .. }), "{e}");
    // Against ldmatrix into the (2,2,1) MMA's A: 128·3 and the inverted TV
    // layout's stride 256 divide neither way.
    let mma =
        make_tiled_mma(&MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN").unwrap(), &lay("(2,2,1):(1,2,0)"), None).unwrap();
    let ldsm = make_tiled_copy_a(&CopyAtom::gpu("SM75_U32x4_LDSM_N", 16).unwrap(), &mma).unwrap();
    let e = ldsm.retile(&lay("(3,1,1):(1,3,3)")).unwrap_err();
    assert!(matches!(e, LayoutError::NotDivisible { a: 256, b: 384, .. }), "{e}");
    let data = [0u8; 8];
    assert!(copy.retile_d(make_tensor(&data[..], lay("(8,1):(1,0)")).unwrap()).is_err());
}

/// `upcast_ceil`'s post-conditions by brute force: `n·R(c) == L(c↑)` and
/// agreement with the strict `upcast` where that succeeds.
#[test]
fn upcast_ceil_post_conditions() {
    let layouts = [
        "((4,8),(2,4)):((2,128),(1,32))",
        "(3,5):(1,0)",
        "(8,(2,3)):(-1,(16,64))",
        "((2,4),8):((4,-2),16)",
        "(5,3,7):(4,1,8)",
        "((8,16),8):((128,1),16)",
    ];
    let mut checked = 0;
    for text in layouts {
        let l = lay(text);
        for n in [1, 2, 4, 8, 16, 32] {
            let r = match upcast_ceil(&l, n) {
                Ok(r) => r,
                Err(e) => {
                    assert!(matches!(e, LayoutError::NotDivisible { .. }), "{l} by {n}: {e}");
                    assert!(l.stride().leaves().any(|d| d != 0 && d.abs() % n != 0 && n % d.abs() != 0));
                    continue;
                }
            };
            assert_eq!(r.shape().leaf_count(), l.shape().leaf_count());
            if let Ok(strict) = upcast(&l, n) {
                assert_eq!(strict, r, "{l} by {n}");
            }
            let (ls, ld): (Vec<i64>, Vec<i64>) = (l.shape().leaves().collect(), l.stride().leaves().collect());
            let rs: Vec<i64> = r.shape().leaves().collect();
            for i in 0..r.size() {
                // c, leaf by leaf (column-major), and c↑.
                let (mut rest, mut up) = (i, 0i64);
                let mut scale = 1i64;
                for k in 0..rs.len() {
                    let ck = rest % rs[k];
                    rest /= rs[k];
                    let d = ld[k];
                    let ck_up = if d != 0 && d.abs() < n { ck * (n / d.abs()) } else { ck };
                    assert!(ck_up < ls[k], "{l} by {n}: leaf {k}");
                    up += ck_up * scale;
                    scale *= ls[k];
                }
                assert_eq!(n * r.eval(i).unwrap(), l.eval(up).unwrap(), "{l} by {n} at {i}");
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked}");
    assert!(matches!(upcast_ceil(&lay("8:3"), 2), Err(LayoutError::NotDivisible { .. })));
    assert!(matches!(upcast_ceil(&lay("8:1"), 0), Err(LayoutError::Unsupported { .. })));
}
