//! Property tests for the operations of issue 3 (cute-dynamic: inverses,
//! divide and product families, vectorization, admissibility): the
//! post-conditions of the paper (3.4, 3.5) and the CuTe docs, checked by brute
//! force on random layouts (rank ≤ 3, depth ≤ 2, small shapes) with the
//! layouts' own evaluation.
//!
//! Tilers are mostly built from divisors of the layout's extents (pieces of
//! its mixed radix), so that the divides succeed and must succeed; a share of
//! the cases use arbitrary tilers, and then an error must be one of the
//! documented variants.

use cute_dynamic::{
    IntTuple, Layout, LayoutError, Tiler, blocked_product, complement, composition, eval, filter, flat_divide,
    flat_product, is_admissible, left_inverse, logical_divide, logical_product, make_layout, max_common_layout,
    max_common_vector, raked_product, right_inverse, tiled_divide, tiled_product, zipped_divide, zipped_product,
};
use cute_tests::{check, compatible};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::collections::HashSet;

fn config() -> Config {
    // Failures are reported with their case; nothing is written next to the sources.
    Config { failure_persistence: None, ..Config::with_cases(1000) }
}

// ---------------------------------------------------------------------------
// random layouts

/// A shape tree: a leaf, or a tuple of 1..=3 modes each a leaf or a tuple of
/// 1..=3 leaves (rank ≤ 3, depth ≤ 2, at most 9 leaves).
#[derive(Clone, Debug)]
enum Shape {
    Leaf(i64),
    Node(Vec<Shape>),
}

impl Shape {
    fn leaves(&self, out: &mut Vec<i64>) {
        match self {
            Shape::Leaf(s) => out.push(*s),
            Shape::Node(ts) => ts.iter().for_each(|t| t.leaves(out)),
        }
    }

    /// The same tree with the leaves replaced, in order, by `next()`.
    fn with(&self, next: &mut impl FnMut() -> i64) -> IntTuple {
        match self {
            Shape::Leaf(_) => IntTuple::int(next()),
            Shape::Node(ts) => IntTuple::tuple(ts.iter().map(|t| t.with(next)).collect::<Vec<_>>()),
        }
    }

    /// Leaves that would take the size past `cap` become 1.
    fn capped(&self, cap: i64, size: &mut i64) -> Shape {
        match self {
            Shape::Leaf(s) if *size * s <= cap => {
                *size *= s;
                Shape::Leaf(*s)
            }
            Shape::Leaf(_) => Shape::Leaf(1),
            Shape::Node(ts) => Shape::Node(ts.iter().map(|t| t.capped(cap, size)).collect()),
        }
    }
}

fn shape_tree(leaf: impl Strategy<Value = i64> + Clone, cap: i64) -> impl Strategy<Value = Shape> {
    let l = leaf.prop_map(Shape::Leaf);
    let mode = prop_oneof![3 => l.clone(), 2 => prop::collection::vec(l.clone(), 1..=3).prop_map(Shape::Node)];
    prop_oneof![1 => l, 5 => prop::collection::vec(mode, 1..=3).prop_map(Shape::Node)]
        .prop_map(move |t| t.capped(cap, &mut 1))
}

/// How the strides of a generated layout are chosen.
#[derive(Clone, Debug)]
enum Strides {
    /// Any small strides, rarely negative.
    Random(Vec<i64>),
    /// An ordered, injective layout: the leaves in a random order, each
    /// stride the extent of the previous ones times a gap (1, 2 or 3).
    Ordered(Vec<u32>, Vec<i64>),
}

fn strides() -> impl Strategy<Value = Strides> {
    let random = prop::collection::vec(prop_oneof![12 => 0i64..=12, 1 => -3i64..=-1], 9).prop_map(Strides::Random);
    let ordered =
        (prop::collection::vec(any::<u32>(), 9), prop::collection::vec(prop_oneof![3 => Just(1i64), 1 => 2i64..=3], 9))
            .prop_map(|(k, g)| Strides::Ordered(k, g));
    prop_oneof![random, ordered]
}

fn ordered_strides() -> impl Strategy<Value = Strides> {
    (prop::collection::vec(any::<u32>(), 9), prop::collection::vec(prop_oneof![3 => Just(1i64), 1 => 2i64..=3], 9))
        .prop_map(|(k, g)| Strides::Ordered(k, g))
}

fn build(shape: &Shape, strides: &Strides) -> Layout {
    let mut sh = Vec::new();
    shape.leaves(&mut sh);
    let d: Vec<i64> = match strides {
        Strides::Random(v) => v[..sh.len()].to_vec(),
        Strides::Ordered(keys, gaps) => {
            let mut order: Vec<usize> = (0..sh.len()).collect();
            order.sort_by_key(|&i| keys[i]);
            let mut d = vec![0; sh.len()];
            let mut cur = 1;
            for (n, &i) in order.iter().enumerate() {
                d[i] = cur * gaps[n];
                cur = d[i] * sh[i];
            }
            d
        }
    };
    let mut it = sh.iter().copied();
    let s = shape.with(&mut || it.next().unwrap());
    let mut it = d.into_iter();
    let d = shape.with(&mut || it.next().unwrap());
    Layout::new(s, d).expect("generated layouts are valid")
}

fn leaf_shapes() -> impl Strategy<Value = i64> + Clone {
    prop::sample::select(vec![1i64, 2, 2, 3, 4, 4, 6])
}

/// A layout with any small strides or an ordered one, size ≤ `cap`.
fn any_layout(cap: i64) -> impl Strategy<Value = Layout> {
    (shape_tree(leaf_shapes(), cap), strides()).prop_map(|(t, s)| build(&t, &s))
}

/// An ordered (injective, complementable) layout of size ≤ `cap`.
fn ordered_layout(cap: i64) -> impl Strategy<Value = Layout> {
    (shape_tree(leaf_shapes(), cap), ordered_strides()).prop_map(|(t, s)| build(&t, &s))
}

/// A small deterministic generator for the choices that depend on a layout.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick(&mut self, v: &[i64]) -> i64 {
        v[self.below(v.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

fn divisors(n: i64) -> Vec<i64> {
    (1..=n).filter(|d| n % d == 0).collect()
}

/// A 1-D tiler aligned with the mixed radix of `m`'s leaves: 1..=3 pieces,
/// each `t : P_j·u` with `u·t` dividing the leaf `S_j` (`P_j` the product of
/// the leaves before it), possibly running on into the next leaf. Such a tiler
/// divides `m` exactly: every divide by it succeeds and `(B, B*)` is a
/// bijection onto `0..size(m)`.
fn aligned_tiler(m: &Layout, rng: &mut Rng) -> Layout {
    let sh: Vec<i64> = m.shape().leaves().collect();
    let n = sh.len();
    let prefix: Vec<i64> = (0..n).map(|j| sh[..j].iter().product()).collect();
    let mut used = vec![false; n];
    let mut modes = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let j = rng.below(n);
        if used[j] {
            continue;
        }
        used[j] = true;
        let u = rng.pick(&divisors(sh[j]));
        let mut t = rng.pick(&divisors(sh[j] / u));
        if t == sh[j] / u && j + 1 < n && !used[j + 1] && rng.chance(50) {
            t *= rng.pick(&divisors(sh[j + 1]));
            used[j + 1] = true;
        }
        if t > 1 {
            modes.push((t, prefix[j] * u));
        }
    }
    match modes.len() {
        0 => Layout::scalar(1, 0).unwrap(),
        1 => Layout::scalar(modes[0].0, modes[0].1).unwrap(),
        _ => Layout::new(IntTuple::flat(modes.iter().map(|m| m.0)), IntTuple::flat(modes.iter().map(|m| m.1))).unwrap(),
    }
}

/// An arbitrary small layout (shapes 1..=4, strides -1..=6, up to 3 leaves).
fn wild_layout(rng: &mut Rng) -> Layout {
    let n = 1 + rng.below(3);
    let s: Vec<i64> = (0..n).map(|_| 1 + rng.below(4) as i64).collect();
    let d: Vec<i64> = (0..n).map(|_| rng.below(8) as i64 - 1).collect();
    if n == 1 {
        Layout::scalar(s[0], d[0]).unwrap()
    } else {
        Layout::new(IntTuple::flat(s), IntTuple::flat(d)).unwrap()
    }
}

/// A by-mode tiler for `a`: one tile per mode for the first `m` modes, a
/// nested tuple for some tuple modes. `leaf` makes each 1-D tile.
fn tuple_tiler(a: &Layout, rng: &mut Rng, leaf: &mut dyn FnMut(&Layout, &mut Rng) -> Layout) -> Tiler {
    let m = 1 + rng.below(a.rank());
    Tiler::Tuple(
        (0..m)
            .map(|k| {
                let ak = if a.shape().is_int() { a.clone() } else { a.get(k).unwrap() };
                if !ak.shape().is_int() && rng.chance(30) {
                    let p = 1 + rng.below(ak.rank());
                    Tiler::Tuple((0..p).map(|i| Tiler::Layout(leaf(&ak.get(i).unwrap(), rng))).collect())
                } else {
                    Tiler::Layout(leaf(&ak, rng))
                }
            })
            .collect(),
    )
}

fn offsets(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|i| l.eval(i).unwrap()).collect()
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort_unstable();
    v
}

fn image(l: &Layout) -> HashSet<i64> {
    offsets(l).into_iter().collect()
}

fn injective(l: &Layout) -> bool {
    image(l).len() as i64 == l.size()
}

fn mode(l: &Layout, k: usize) -> Layout {
    l.get(k).unwrap_or_else(|| panic!("{l} has no mode {k}"))
}

/// Mode `k` as the by-mode operations read it (a scalar layout is its own mode 0).
fn by_mode(a: &Layout, k: usize) -> Layout {
    if a.shape().is_int() { a.clone() } else { mode(a, k) }
}

fn int(i: i64) -> IntTuple {
    IntTuple::int(i)
}

fn tuple(v: Vec<IntTuple>) -> IntTuple {
    IntTuple::tuple(v)
}

/// Errors a divide or a product may document: those of complement and
/// composition, and `RankMismatch` for a tiler longer than the layout.
fn documented_divide_product_error(e: &LayoutError) -> bool {
    matches!(
        e,
        LayoutError::StrideDivisibility { .. }
            | LayoutError::ShapeDivisibility { .. }
            | LayoutError::NotDistributive { .. }
            | LayoutError::NotInjective { .. }
            | LayoutError::NotComplementable { .. }
            | LayoutError::Unsupported { .. }
            | LayoutError::Overflow { .. }
            | LayoutError::RankMismatch { .. }
    )
}

/// Errors of left_inverse (and so of is_admissible).
fn documented_left_inverse_error(e: &LayoutError) -> bool {
    matches!(
        e,
        LayoutError::NotInjective { .. }
            | LayoutError::NoLayout { .. }
            | LayoutError::Unsupported { .. }
            | LayoutError::Overflow { .. }
    )
}

// ---------------------------------------------------------------------------
// the regrouping of the divide and product variants

/// The coordinate slots of a by-mode result: a pair `(X, Y)` for a layout
/// tile, or a tuple of slots plus the sizes of the modes the tiler does not
/// reach.
enum Slots {
    Pair(i64, i64),
    Tup(Vec<Slots>, Vec<i64>),
}

fn slots(logical: &Layout, t: &Tiler) -> Slots {
    match t {
        Tiler::Layout(_) => Slots::Pair(mode(logical, 0).size(), mode(logical, 1).size()),
        Tiler::Tuple(ts) => Slots::Tup(
            ts.iter().enumerate().map(|(k, tk)| slots(&mode(logical, k), tk)).collect(),
            (ts.len()..logical.rank()).map(|k| mode(logical, k).size()).collect(),
        ),
    }
}

fn radices(s: &Slots, out: &mut Vec<i64>) {
    match s {
        Slots::Pair(x, y) => out.extend([*x, *y]),
        Slots::Tup(ch, us) => {
            ch.iter().for_each(|c| radices(c, out));
            out.extend(us);
        }
    }
}

/// The coordinate of the logical result, of the first part (`X`: the tiles,
/// or `A` for a product) and of the second part (`Y` plus the untouched modes,
/// as CuTe's `zip2_by` groups them), reading digits in `radices` order.
fn coords(s: &Slots, digits: &mut impl Iterator<Item = i64>) -> (IntTuple, IntTuple, IntTuple) {
    match s {
        Slots::Pair(..) => {
            let (x, y) = (digits.next().unwrap(), digits.next().unwrap());
            (tuple(vec![int(x), int(y)]), int(x), int(y))
        }
        Slots::Tup(ch, us) => {
            let (mut l, mut x, mut y) = (Vec::new(), Vec::new(), Vec::new());
            for c in ch {
                let (cl, cx, cy) = coords(c, digits);
                l.push(cl);
                x.push(cx);
                y.push(cy);
            }
            for _ in us {
                let u = digits.next().unwrap();
                l.push(int(u));
                y.push(int(u));
            }
            (tuple(l), tuple(x), tuple(y))
        }
    }
}

/// The top-level parts of a coordinate `c` of `part`, as a splice sees them:
/// a part of rank 1 is spliced whole (CuTe's `repeat<1>(_)` is `_`), so its
/// coordinate is `c` itself; otherwise the children of a tuple coordinate,
/// or an integral coordinate split over the top-level modes of `part`.
fn splice(c: &IntTuple, part: &Layout) -> Vec<IntTuple> {
    if part.rank() == 1 {
        return vec![c.clone()];
    }
    if !c.is_int() {
        return c.modes().collect();
    }
    let mut rest = c.as_int().unwrap();
    part.modes_iter()
        .map(|m| {
            let d = rest % m.size();
            rest /= m.size();
            int(d)
        })
        .collect()
}

/// The docs' table, with CuTe's splicing: `zipped ((X..), (Y.., L..))`,
/// `tiled ((X..), Y.., L..)` (the modes of zipped's second part spliced in),
/// `flat (X.., Y.., L..)` (the modes of both parts spliced in) are the logical
/// result `((X,Y).., L..)` regrouped: every coordinate evaluates to the same
/// offset through each grouping. For a layout tiler the logical result is
/// `(X, Y)` itself, and tiled / flat splice the top-level modes of `Y` / of
/// `X` and `Y`.
fn check_regrouping(
    t: &Tiler,
    logical: &Layout,
    zipped: &Layout,
    tiled: &Layout,
    flat: &Layout,
) -> Result<(), TestCaseError> {
    if let Tiler::Layout(_) = t {
        prop_assert_eq!(zipped, logical);
    }
    let s = slots(logical, t);
    let mut rad = Vec::new();
    radices(&s, &mut rad);
    let total: i64 = rad.iter().product();
    prop_assert_eq!(total, logical.size());
    for sizes in [zipped.size(), tiled.size(), flat.size()] {
        prop_assert_eq!(sizes, total, "sizes of the variants of {}", logical);
    }
    let (zx, zy) = (mode(zipped, 0), mode(zipped, 1));
    // Every index of a divide of up to 2^16 elements; past that (a tiler
    // far from aligned can make the divide of a 256-element layout millions
    // of elements long) 2^16 indices spread evenly over the whole range,
    // and the last one: walking such a case index by index took minutes
    // in the unoptimised test build.
    const WALK: i64 = 1 << 16;
    let step = if total <= WALK { 1 } else { total / WALK } as usize;
    for i in (0..total).step_by(step).chain(std::iter::once(total - 1)) {
        let mut rest = i;
        let digits: Vec<i64> = rad
            .iter()
            .map(|r| {
                let d = rest % r;
                rest /= r;
                d
            })
            .collect();
        let (lc, xc, yc) = coords(&s, &mut digits.into_iter());
        let want = logical.eval_coord(&lc).unwrap();
        let (xs, ys) = (splice(&xc, &zx), splice(&yc, &zy));
        let zc = tuple(vec![xc.clone(), yc.clone()]);
        let tc = tuple(std::iter::once(xc.clone()).chain(ys.iter().cloned()).collect());
        let fc = tuple(xs.into_iter().chain(ys).collect());
        prop_assert_eq!(
            zipped.eval_coord(&zc).unwrap(),
            want,
            "zipped {} at {} vs logical {} at {}",
            zipped,
            zc,
            logical,
            lc
        );
        prop_assert_eq!(
            tiled.eval_coord(&tc).unwrap(),
            want,
            "tiled {} at {} vs logical {} at {}",
            tiled,
            tc,
            logical,
            lc
        );
        prop_assert_eq!(
            flat.eval_coord(&fc).unwrap(),
            want,
            "flat {} at {} vs logical {} at {}",
            flat,
            fc,
            logical,
            lc
        );
    }
    Ok(())
}

/// The shape whose tiler `t` is, or is up to the strides of its size-1
/// tiles (`None` if a tile is not `n:1` nor `1:d`). A shape's integer `n` is
/// CuTe's `make_layout(n)` of a static `n`: `n:1`, and `1:0` for `n = 1`
/// (its compact stride). `exact` is cleared where a tile is `1:d` with
/// `d != 0`: the same function as the shape's `1:0`, not the same text.
fn as_shape(t: &Tiler, exact: &mut bool) -> Option<IntTuple> {
    match t {
        Tiler::Layout(l) => match (l.shape().as_int(), l.stride().as_int()) {
            (Some(1), Some(d)) => {
                *exact &= d == 0;
                Some(IntTuple::int(1))
            }
            (Some(n), Some(1)) => Some(IntTuple::int(n)),
            _ => None,
        },
        Tiler::Tuple(ts) => ts.iter().map(|t| as_shape(t, exact)).collect::<Option<Vec<_>>>().map(IntTuple::tuple),
    }
}

/// A divide or product by name, for the evaluator's agreement test.
type Op = fn(&Layout, &Tiler) -> Result<Layout, LayoutError>;

const BY_MODE_OPS: [(&str, Op); 8] = [
    ("logical_divide", |a, t| logical_divide(a, t)),
    ("zipped_divide", |a, t| zipped_divide(a, t)),
    ("tiled_divide", |a, t| tiled_divide(a, t)),
    ("flat_divide", |a, t| flat_divide(a, t)),
    ("logical_product", |a, t| logical_product(a, t)),
    ("zipped_product", |a, t| zipped_product(a, t)),
    ("tiled_product", |a, t| tiled_product(a, t)),
    ("flat_product", |a, t| flat_product(a, t)),
];

/// The number of offsets from the least to the greatest offset of `b`.
fn span(b: &Layout) -> i64 {
    let o = offsets(b);
    o.iter().max().unwrap() - o.iter().min().unwrap() + 1
}

/// `complement(a, M)` for an `M` large enough that every non-negative offset
/// of `b` is a coordinate of it (negative ones are still read on the extended
/// domain). Only the last mode of a complement depends on `M`, so this
/// is the complement of the definition (`M = size(a) * cosize(b)`) with its
/// last mode extended; evaluating the small complement past its size instead
/// is wrong when that mode has size 1 and disappears in coalescing
/// (`complement(((1),(2,2)):((0),(10,3)), 16)` is `3:1`, whose extension
/// puts the replica at 3, on top of A; the extended `(3,2):(1,20)` puts it at
/// 20).
fn complement_covering(a: &Layout, b: &Layout) -> Layout {
    let need = offsets(b).into_iter().max().unwrap() + 1;
    let mut m = a.size() * span(b);
    loop {
        let star = complement(a, m).unwrap();
        if star.size() >= need {
            return star;
        }
        m = m.checked_mul(2).expect("complement size overflow in the checker");
    }
}

/// The logical-product post-conditions, by brute force (see
/// `logical_product_post_conditions`).
fn check_product(a: &Layout, b: &Layout, r: &Layout) -> Result<(), TestCaseError> {
    prop_assert_eq!(r.rank(), 2);
    prop_assert_eq!(&mode(r, 0), a);
    let grid = mode(r, 1);
    prop_assert!(compatible(b.shape(), grid.shape()), "mode 1 of {} is not compatible with {}", r, b);
    let star = complement_covering(a, b);
    for j in 0..b.size() {
        let shift = star.eval_extended(b.eval(j).unwrap()).unwrap();
        prop_assert_eq!(grid.eval(j).unwrap(), shift, "replica {} of {} x {} = {}", j, a, b, r);
        for i in 0..a.size() {
            let c = tuple(vec![int(i), int(j)]);
            prop_assert_eq!(r.eval_coord(&c).unwrap(), a.eval(i).unwrap() + shift, "R({}) of {} x {}", c, a, b);
        }
    }
    let img = image(a);
    let mut seen = HashSet::new();
    for s in image(&grid) {
        for o in &img {
            prop_assert!(seen.insert(o + s), "replicas of {} in {} overlap at {}", a, r, o + s);
            if s != 0 {
                prop_assert!(!img.contains(&(o + s)), "a replica of {} in {} meets A at {}", a, r, o + s);
            }
        }
    }
    if injective(a) && injective(b) {
        prop_assert!(injective(r), "{} x {} = {} is not injective", a, b, r);
    }
    Ok(())
}

/// `R(i) == A((B, B*)(i))` for every `i`, `A` read on its extended domain.
fn check_divide_values(a: &Layout, b: &Layout, r: &Layout) -> Result<(), TestCaseError> {
    let star = make_layout(&[b.clone(), complement(b, a.size()).unwrap()]).unwrap();
    for i in 0..r.size() {
        let want = a.eval_extended(star.eval(i).unwrap()).unwrap();
        prop_assert_eq!(r.eval(i).unwrap(), want, "R({}) for {} / {} = {}", i, a, b, r);
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// cases

/// A layout (any strides, size ≤ 256) and a 1-D tiler: aligned (85%, flagged
/// `true`) or arbitrary.
fn divide_1d_case() -> impl Strategy<Value = (Layout, Layout, bool)> {
    (any_layout(256), any::<u64>()).prop_map(|(a, seed)| {
        let mut rng = Rng(seed);
        if rng.chance(85) { (a.clone(), aligned_tiler(&a, &mut rng), true) } else { (a, wild_layout(&mut rng), false) }
    })
}

/// A layout and a tiler: a 1-D tiler or a by-mode one (possibly nested),
/// aligned (flagged `true`) or not; rarely a tiler longer than the layout.
fn divide_case() -> impl Strategy<Value = (Layout, Tiler, bool)> {
    (any_layout(256), any::<u64>()).prop_map(|(a, seed)| {
        let mut rng = Rng(seed);
        let aligned = rng.chance(85);
        let mut leaf =
            |m: &Layout, rng: &mut Rng| -> Layout { if aligned { aligned_tiler(m, rng) } else { wild_layout(rng) } };
        let t = match rng.below(10) {
            0..=2 => Tiler::Layout(leaf(&a, &mut rng)),
            3 => {
                // one tile too many
                let ts: Vec<Tiler> = (0..=a.rank()).map(|_| Tiler::Layout(wild_layout(&mut rng))).collect();
                return (a, Tiler::Tuple(ts), false);
            }
            _ => tuple_tiler(&a, &mut rng, &mut leaf),
        };
        (a, t, aligned)
    })
}

/// A (mostly ordered) tile `A` of size ≤ 48 and a grid `B` of size ≤ 16.
fn product_case() -> impl Strategy<Value = (Layout, Layout)> {
    (prop_oneof![4 => ordered_layout(48), 1 => any_layout(48)], prop_oneof![ordered_layout(16), any_layout(16)])
}

/// A tile and a by-mode tiler of small grids.
fn product_tiler_case() -> impl Strategy<Value = (Layout, Tiler)> {
    (prop_oneof![4 => ordered_layout(48), 1 => any_layout(48)], any::<u64>()).prop_map(|(a, seed)| {
        let mut rng = Rng(seed);
        let mut leaf = |_: &Layout, rng: &mut Rng| {
            let n = 1 + rng.below(4) as i64;
            match rng.below(3) {
                0 => Layout::scalar(n, 1).unwrap(),
                1 => Layout::new(IntTuple::flat([n, 2]), IntTuple::flat([2, 1])).unwrap(),
                _ => wild_layout(rng),
            }
        };
        let t = tuple_tiler(&a, &mut rng, &mut leaf);
        (a, t)
    })
}

/// Two layouts with the same shape (so the same size): any strides for `A`,
/// ordered or any for `B`.
fn same_size_pair() -> impl Strategy<Value = (Layout, Layout)> {
    let independent = (shape_tree(leaf_shapes(), 256), strides(), prop_oneof![2 => ordered_strides(), 1 => strides()])
        .prop_map(|(t, sa, sb)| (build(&t, &sa), build(&t, &sb)));
    // Two ordered layouts that agree on their `cut` smallest strides and
    // differ past them: the common vector is usually longer than 1.
    let sharing = (shape_tree(leaf_shapes(), 256), ordered_strides(), ordered_strides(), 0usize..9).prop_map(
        |(t, sa, sb, cut)| {
            let (Strides::Ordered(ka, ga), Strides::Ordered(kb, gb)) = (&sa, &sb) else { unreachable!() };
            let mut rank: Vec<usize> = (0..ka.len()).collect();
            rank.sort_by_key(|&i| ka[i]);
            let mut keys = kb.clone();
            let mut gaps = gb.clone();
            for (n, &i) in rank.iter().enumerate().take(cut) {
                keys[i] = n as u32;
                gaps[n] = ga[n];
            }
            for &i in rank.iter().skip(cut) {
                keys[i] = cut as u32 + kb[i] % 1000;
            }
            (build(&t, &sa), build(&t, &Strides::Ordered(keys, gaps)))
        },
    );
    prop_oneof![independent, sharing]
}

// ---------------------------------------------------------------------------
// properties

proptest! {
    #![proptest_config(config())]

    /// Paper 3.4.1: `L(L‡(k)) == k` for all `k < size(L‡)`, `L‡` injective,
    /// `size(L‡) <= size(L)`; maximality: for an injective `L` with
    /// non-negative strides the offset `size(L‡)` is not in the image of `L`.
    #[test]
    fn right_inverse_post_conditions(l in any_layout(256)) {
        let r = right_inverse(&l);
        prop_assert!(r.size() <= l.size());
        prop_assert!(injective(&r), "right_inverse({}) = {} is not injective", l, r);
        for k in 0..r.size() {
            let c = r.eval(k).unwrap();
            prop_assert!(0 <= c && c < l.size(), "R({}) = {} outside {}", k, c, l);
            prop_assert_eq!(l.eval(c).unwrap(), k, "L(R({})) for {} and R = {}", k, l, r);
        }
        if injective(&l) && l.stride().leaves().all(|d| d >= 0) {
            prop_assert!(!image(&l).contains(&r.size()), "right_inverse({}) = {} is not maximal", l, r);
        }
    }

    /// Paper 3.4.3: `L(L†(L(k))) == L(k)` for all `k`, every offset of `L` in
    /// `L†`'s domain, and `L†(L(k)) == k` for injective `L`. Ordered layouts
    /// always have one; `NotInjective` only for layouts whose non-zero-stride
    /// part really is not injective.
    #[test]
    fn left_inverse_post_conditions(l in any_layout(256), ordered in ordered_layout(256)) {
        for (l, must) in [(l, false), (ordered, true)] {
            match left_inverse(&l) {
                // Eq. 26 by brute force (offsets below 0, of negative
                // strides, read on L†'s extended domain).
                Ok(r) => check::left_inverse(&l, &r).map_err(TestCaseError::fail)?,
                Err(e) => {
                    prop_assert!(!must, "left_inverse({}) of an ordered layout: {}", l, e);
                    prop_assert!(documented_left_inverse_error(&e), "left_inverse({}): undocumented {:?}", l, e);
                    if let LayoutError::NotInjective { .. } = e {
                        prop_assert!(!injective(&filter(&l)), "left_inverse({}): NotInjective for an injective layout", l);
                    }
                }
            }
        }
    }

    /// The docs: `layout<0>(zipped_divide(A, B)) == composition(A, B)`, the
    /// same printed layout and the same values; an aligned tiler always
    /// divides.
    #[test]
    fn zipped_divide_mode0_is_composition((a, t, aligned) in divide_case()) {
        match zipped_divide(&a, &t) {
            Ok(z) => {
                prop_assert_eq!(z.rank(), 2, "zipped_divide({}, {}) = {}", a, t, z);
                let c = composition(&a, &t);
                prop_assert!(c.is_ok(), "zipped_divide({}, {}) = {} but composition fails: {:?}", a, t, z, c);
                let (z0, c) = (mode(&z, 0), c.unwrap());
                prop_assert_eq!(z0.to_string(), c.to_string());
                prop_assert_eq!(offsets(&z0), offsets(&c));
            }
            Err(e) => {
                prop_assert!(!aligned, "zipped_divide({}, {}) with an aligned tiler: {}", a, t, e);
                prop_assert!(documented_divide_product_error(&e), "zipped_divide({}, {}): undocumented {:?}", a, t, e);
            }
        }
    }

    /// Paper 3.5.2: `logical_divide(A, B)(i) == A((B, B*)(i))` with
    /// `B* = complement(B, size(A))`, for every `i` and every tiler (never a
    /// wrong layout); the offsets are a permutation of `A`'s whenever
    /// `(B, B*)` is a bijection onto
    /// `0..size(A)` (the paper's requirement that `B⋆` be surjective onto
    /// `Z_|A|`; aligned tilers always complete to one, and then `size(B)`
    /// divides `size(A)`). Mode 0 is `A ∘ B` for every tiler. (`size(B)`
    /// dividing `size(A)` alone is not enough for a permutation:
    /// `logical_divide(8:1, (2,2):(1,3))` is `((2,2),2):((1,3),6)`, whose
    /// offsets reach 10, and no layout could do better.)
    #[test]
    fn logical_divide_post_conditions((a, b, aligned) in divide_1d_case()) {
        match logical_divide(&a, &b) {
            Ok(r) => {
                let star = make_layout(&[b.clone(), complement(&b, a.size()).unwrap()]).unwrap();
                prop_assert_eq!(r.size(), star.size());
                prop_assert_eq!(mode(&r, 0), composition(&a, &b).unwrap());
                let bijection = sorted(offsets(&star)) == (0..a.size()).collect::<Vec<_>>();
                prop_assert!(!aligned || bijection, "aligned tiler {} does not complete to a bijection of {}", b, a);
                check_divide_values(&a, &b, &r)?;
                if bijection {
                    prop_assert_eq!(a.size() % b.size(), 0);
                    prop_assert_eq!(sorted(offsets(&r)), sorted(offsets(&a)), "{} / {} = {}: not a permutation", a, b, r);
                }
            }
            Err(e) => {
                prop_assert!(!aligned, "logical_divide({}, {}) with an aligned tiler: {}", a, b, e);
                prop_assert!(documented_divide_product_error(&e), "logical_divide({}, {}): undocumented {:?}", a, b, e);
            }
        }
    }

    /// By mode (paper 3.5.2 "Related Divides"): mode `k` of the divide by
    /// `<B0, B1, ...>` is the divide of mode `k` by `Bk`, the modes past the
    /// tiler stay as they are; and the zipped, tiled and flat divides are the
    /// logical divide with the modes regrouped as the docs' table says.
    #[test]
    fn divide_variants((a, t, aligned) in divide_case()) {
        let ld = logical_divide(&a, &t);
        let all = [zipped_divide(&a, &t), tiled_divide(&a, &t), flat_divide(&a, &t)];
        match ld {
            Ok(ld) => {
                if let Tiler::Tuple(ts) = &t {
                    for (k, tk) in ts.iter().enumerate() {
                        prop_assert_eq!(mode(&ld, k), logical_divide(&by_mode(&a, k), tk).unwrap());
                    }
                    for k in ts.len()..a.rank() {
                        prop_assert_eq!(mode(&ld, k), mode(&a, k));
                    }
                    prop_assert_eq!(ld.rank(), a.rank().max(ts.len()));
                }
                let [z, ti, f] = all;
                prop_assert!(z.is_ok() && ti.is_ok() && f.is_ok(), "a variant of {} / {} fails", a, t);
                let (z, ti, f) = (z.unwrap(), ti.unwrap(), f.unwrap());
                check_regrouping(&t, &ld, &z, &ti, &f)?;
                // A shape is the tiler of its integers' layouts, `n:1` and
                // `1:0` (CuTe's compact strides of static integers): the same
                // result, and the same function where a tile is `1:d`.
                let mut exact = true;
                if let Some(shape) = as_shape(&t, &mut exact) {
                    let by_shape = [
                        logical_divide(&a, &shape).unwrap(),
                        zipped_divide(&a, &shape).unwrap(),
                        tiled_divide(&a, &shape).unwrap(),
                        flat_divide(&a, &shape).unwrap(),
                    ];
                    for (s, r) in by_shape.iter().zip([&ld, &z, &ti, &f]) {
                        if exact {
                            prop_assert_eq!(s, r, "{} / {} by its shape {}", a, t, shape);
                        } else {
                            prop_assert_eq!(s.shape(), r.shape(), "{} / {} by its shape {}", a, t, shape);
                            prop_assert_eq!(offsets(s), offsets(r), "{} / {} by its shape {}", a, t, shape);
                        }
                    }
                }
            }
            Err(e) => {
                prop_assert!(!aligned, "logical_divide({}, {}) with an aligned tiler: {}", a, t, e);
                prop_assert!(documented_divide_product_error(&e), "logical_divide({}, {}): undocumented {:?}", a, t, e);
                for v in all {
                    prop_assert!(v.is_err(), "a variant succeeds where logical_divide({}, {}) fails", a, t);
                }
            }
        }
    }

    /// Paper 3.5.1 and CuTe's unit test: `layout<0>(A ⊗ B) == A`, mode 1
    /// compatible with `B`, `R(i, j) == A(i) + A*(B(j))` with
    /// `A* = complement(A, size(A)·span(B))` with its last mode extended
    /// over `B`'s image (`complement_covering`), replicas
    /// with different shifts disjoint (so images off replica 0 are disjoint
    /// from `A`'s), and the product injective when `A` and `B` are.
    #[test]
    fn logical_product_post_conditions((a, b) in product_case()) {
        match logical_product(&a, &b) {
            Ok(r) => check_product(&a, &b, &r)?,
            Err(e) => {
                prop_assert!(documented_divide_product_error(&e), "logical_product({}, {}): undocumented {:?}", a, b, e);
            }
        }
    }

    /// By-mode products: mode `k` is the product of mode `k` by its tile, and
    /// the zipped, tiled and flat products are the logical product regrouped
    /// as the docs' table says.
    #[test]
    fn product_variants((a, t) in product_tiler_case()) {
        let lp = logical_product(&a, &t);
        let all = [zipped_product(&a, &t), tiled_product(&a, &t), flat_product(&a, &t)];
        match lp {
            Ok(lp) => {
                if let Tiler::Tuple(ts) = &t {
                    for (k, tk) in ts.iter().enumerate() {
                        prop_assert_eq!(mode(&lp, k), logical_product(&by_mode(&a, k), tk).unwrap());
                    }
                    for k in ts.len()..a.rank() {
                        prop_assert_eq!(mode(&lp, k), mode(&a, k));
                    }
                }
                let [z, ti, f] = all;
                prop_assert!(z.is_ok() && ti.is_ok() && f.is_ok(), "a variant of {} x {} fails", a, t);
                check_regrouping(&t, &lp, &z.unwrap(), &ti.unwrap(), &f.unwrap())?;
            }
            Err(e) => {
                prop_assert!(documented_divide_product_error(&e), "logical_product({}, {}): undocumented {:?}", a, t, e);
                for v in all {
                    prop_assert!(v.is_err(), "a variant succeeds where logical_product({}, {}) fails", a, t);
                }
            }
        }
    }

    /// blocked_product and raked_product: rank `max(rank A, rank B)`, mode
    /// sizes `size(A_k)·size(B_k)`, the same offsets as `logical_product(A, B)`,
    /// and the same function with like modes reassociated: blocked mode `k`
    /// at `a + size(A_k)·b`, raked mode `k` at `b + size(G_k)·a`, is
    /// `A_k(a) + G_k(b)` with `G = A* ∘ B` the grid of the logical product.
    #[test]
    fn blocked_and_raked_products((a, b) in product_case()) {
        let lp = logical_product(&a, &b);
        for raked in [false, true] {
            let r = if raked { raked_product(&a, &b) } else { blocked_product(&a, &b) };
            let (r, lp) = match (r, &lp) {
                (Ok(r), Ok(lp)) => (r, lp),
                (Err(e), Err(_)) => {
                    prop_assert!(documented_divide_product_error(&e), "undocumented {:?}", e);
                    continue;
                }
                (r, lp) => {
                    return Err(TestCaseError::fail(format!(
                        "{a} and {b}: the rank product gives {r:?}, the logical product {lp:?}"
                    )));
                }
            };
            let n = a.rank().max(b.rank());
            prop_assert_eq!(r.rank(), n, "{} of {} and {} = {}", if raked { "raked" } else { "blocked" }, a, b, r);
            let size_of = |l: &Layout, k: usize| if k < l.rank() { by_mode(l, k).size() } else { 1 };
            let grid = mode(lp, 1);
            for k in 0..n {
                prop_assert_eq!(by_mode(&r, k).size(), size_of(&a, k) * size_of(&b, k), "mode {} of {}", k, r);
            }
            prop_assert_eq!(sorted(offsets(&r)), sorted(offsets(lp)));
            // Every top-level coordinate of R, through the reassociation.
            let rs: Vec<i64> = (0..n).map(|k| by_mode(&r, k).size()).collect();
            for i in 0..r.size() {
                let mut rest = i;
                let c: Vec<i64> = rs.iter().map(|s| { let d = rest % s; rest /= s; d }).collect();
                let (mut ac, mut bc) = (Vec::new(), Vec::new());
                for (k, &ck) in c.iter().enumerate() {
                    let (sa, sg) = (size_of(&a, k), size_of(&b, k));
                    let (x, y) = if raked { (ck / sg, ck % sg) } else { (ck % sa, ck / sa) };
                    if k < a.rank() { ac.push(int(x)); }
                    if k < b.rank() { bc.push(int(y)); }
                }
                let ac = if a.shape().is_int() { ac[0].clone() } else { tuple(ac) };
                let bc = if b.shape().is_int() { bc[0].clone() } else { tuple(bc) };
                let want = a.eval_coord(&ac).unwrap() + grid.eval_coord(&bc).unwrap();
                let rc = if r.shape().is_int() { int(c[0]) } else { tuple(c.iter().map(|&v| int(v)).collect()) };
                prop_assert_eq!(r.eval_coord(&rc).unwrap(), want, "{} at {}", r, rc);
            }
            // Each mode is the pair of like modes, as CuTe 4.x zips them (not
            // coalesced): `(A'_k, G'_k)` blocked, `(G'_k, A'_k)` raked, with
            // A' and B' padded to rank n by 1:0 and G' the grid of their
            // logical product.
            let one = Layout::scalar(1, 0).unwrap();
            let pad = |l: &Layout| make_layout(&(0..n).map(|k| if k < l.rank() { by_mode(l, k) } else { one.clone() }).collect::<Vec<_>>()).unwrap();
            let (pa, pb) = (pad(&a), pad(&b));
            let pgrid = mode(&logical_product(&pa, &pb).unwrap(), 1);
            for k in 0..n {
                let (x, y) = (by_mode(&pa, k), by_mode(&pgrid, k));
                let want = make_layout(&if raked { [y, x] } else { [x, y] }).unwrap();
                prop_assert_eq!(by_mode(&r, k), want, "mode {} of {}", k, r);
            }
        }
    }

    /// Paper 3.4.2: `K = max_common_vector(A, B)` has `A(B‡(k)) == k` for
    /// `k < K`, and is maximal; `max_common_layout` has size `K` and maps
    /// `0..K` to coordinates where both `A` and `B` give `k`.
    #[test]
    fn max_common_post_conditions((a, b) in same_size_pair()) {
        let k = max_common_vector(&a, &b);
        let inv = right_inverse(&b);
        prop_assert!(1 <= k && k <= inv.size(), "K = {} for {} and {} (B‡ = {})", k, a, b, inv);
        for i in 0..k {
            prop_assert_eq!(a.eval(inv.eval(i).unwrap()).unwrap(), i, "A(B‡({})) for {}, {}", i, a, b);
        }
        prop_assert!(k == inv.size() || a.eval(inv.eval(k).unwrap()).unwrap() != k, "K = {} is not maximal for {}, {}", k, a, b);
        match max_common_layout(&a, &b) {
            Ok(c) => {
                prop_assert_eq!(c.size(), k);
                for i in 0..k {
                    let x = c.eval(i).unwrap();
                    prop_assert_eq!((a.eval(x).unwrap(), b.eval(x).unwrap()), (i, i), "coordinate {} of {}", x, c);
                }
            }
            Err(e) => prop_assert!(false, "max_common_layout({}, {}) with K = {}: {:?}", a, b, k, e),
        }
    }

    /// Paper 3.4.4: `is_admissible(A, T)` holds exactly when every offset of
    /// `T` is an offset of `A` at distinct coordinates — i.e. `T` is injective
    /// and its image is inside `A`'s (brute-force set membership).
    #[test]
    fn is_admissible_is_set_membership(a in any_layout(128), seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let t = match rng.below(4) {
            0 | 1 => {
                let b = aligned_tiler(&a, &mut rng);
                composition(&a, &b).unwrap_or(b)
            }
            2 => wild_layout(&mut rng),
            _ => make_layout(&[composition(&a, &aligned_tiler(&a, &mut rng)).unwrap(), wild_layout(&mut rng)]).unwrap(),
        };
        let img = image(&a);
        let brute = injective(&t) && offsets(&t).iter().all(|o| img.contains(o));
        match is_admissible(&a, &t) {
            Ok(v) => prop_assert_eq!(v, brute, "is_admissible({}, {})", a, t),
            Err(e) => {
                prop_assert!(documented_left_inverse_error(&e), "is_admissible({}, {}): undocumented {:?}", a, t, e);
                prop_assert!(left_inverse(&a).is_err());
            }
        }
    }
}

/// Regression: a nested tiler that leaves sub-modes alone kept them out of
/// the zipped / tiled / flat results (`zipped_divide(((4,6),8):((1,4),24),
/// <<2:1>,4:1>)` lost the 6); they go with the rest part, as CuTe's `zip2_by`.
#[test]
fn nested_tiler_keeps_untouched_sub_modes() {
    let a: Layout = "((4,6),8):((1,4),24)".parse().unwrap();
    let t: Tiler = "<<2:1>,4:1>".parse().unwrap();
    let ld = logical_divide(&a, &t).unwrap();
    let (z, ti, f) = (zipped_divide(&a, &t).unwrap(), tiled_divide(&a, &t).unwrap(), flat_divide(&a, &t).unwrap());
    for v in [&z, &ti, &f] {
        assert_eq!(v.size(), a.size(), "{v}");
        assert_eq!(sorted(offsets(v)), sorted(offsets(&a)), "{v}");
    }
    check_regrouping(&t, &ld, &z, &ti, &f).unwrap();
    let lp = logical_product(&a, &t).unwrap();
    let (z, ti, f) = (zipped_product(&a, &t).unwrap(), tiled_product(&a, &t).unwrap(), flat_product(&a, &t).unwrap());
    check_regrouping(&t, &lp, &z, &ti, &f).unwrap();
}

proptest! {
    #![proptest_config(config())]

    /// The evaluator knows every name of issue 3 and gives the library's
    /// value, or the library's error, for printed random arguments.
    #[test]
    fn evaluator_agrees_with_the_library((a, t, _) in divide_case(), (pa, pt) in product_tiler_case()) {
        for (name, f) in BY_MODE_OPS {
            let (x, y) = if name.ends_with("divide") { (&a, &t) } else { (&pa, &pt) };
            let text = format!("{name}({x}, {y})");
            match (f(x, y), eval(&text)) {
                (Ok(l), Ok(v)) => prop_assert_eq!(v.to_string(), l.to_string(), "{}", text),
                (Err(e), Err(v)) => prop_assert_eq!(v.error, e, "{}", text),
                (l, v) => prop_assert!(false, "{}: library {:?}, evaluator {:?}", text, l, v),
            }
        }
        let text = format!("right_inverse({a})");
        prop_assert_eq!(eval(&text).unwrap().to_string(), right_inverse(&a).to_string(), "{}", text);
        let text = format!("left_inverse({a})");
        match (left_inverse(&a), eval(&text)) {
            (Ok(l), Ok(v)) => prop_assert_eq!(v.to_string(), l.to_string(), "{}", text),
            (Err(e), Err(v)) => prop_assert_eq!(v.error, e, "{}", text),
            (l, v) => prop_assert!(false, "{}: library {:?}, evaluator {:?}", text, l, v),
        }
        let text = format!("max_common_vector({a}, {a})");
        prop_assert_eq!(eval(&text).unwrap().to_string(), max_common_vector(&a, &a).to_string(), "{}", text);
        let text = format!("blocked_product({pa}, {pa})");
        match (blocked_product(&pa, &pa), eval(&text)) {
            (Ok(l), Ok(v)) => prop_assert_eq!(v.to_string(), l.to_string(), "{}", text),
            (Err(e), Err(v)) => prop_assert_eq!(v.error, e, "{}", text),
            (l, v) => prop_assert!(false, "{}: library {:?}, evaluator {:?}", text, l, v),
        }
        let text = format!("is_admissible({a}, {pa})");
        match (is_admissible(&a, &pa), eval(&text)) {
            (Ok(l), Ok(v)) => prop_assert_eq!(v.to_string(), l.to_string(), "{}", text),
            (Err(e), Err(v)) => prop_assert_eq!(v.error, e, "{}", text),
            (l, v) => prop_assert!(false, "{}: library {:?}, evaluator {:?}", text, l, v),
        }
    }
}

/// Regressions, formerly wrong layouts, now errors or right: the divide
/// `logical_divide((3,6,1):(1,3,3), 4:3)` composed `A` with `(B, B*) =
/// (4,(3,2)):(3,(1,12))` mode by mode, giving `(4,(3,2)):(3,(1,12))` although
/// `(B, B*)(14) = 18` and `A(18) = 3` (the trailing `1:3` is A's unbounded
/// mode); `logical_product(2:5, (2,2):(4,1))` gave `(2,(2,2)):(5,(4,1))`
/// with overlapping replicas (composition distributing unsoundly); and
/// `logical_product((2,2):(3,10), 4:1)` gave `((2,2),4):((3,10),1)`, whose
/// replica 1 meets A at 3 (the complement `3:1` is read past its size).
#[test]
fn formerly_wrong_divides_and_products() {
    let l = |s: &str| -> Layout { s.parse().unwrap() };
    let (a, b) = (l("(3,6,1):(1,3,3)"), l("4:3"));
    match logical_divide(&a, &b) {
        Ok(r) => check_divide_values(&a, &b, &r).unwrap(),
        Err(e) => assert!(documented_divide_product_error(&e), "{e:?}"),
    }
    for (a, b) in [("2:5", "(2,2):(4,1)"), ("(4,2):(2,12)", "3:1"), ("(2,2):(3,10)", "4:1"), ("1:1", "2:-2")] {
        let (a, b) = (l(a), l(b));
        match logical_product(&a, &b) {
            Ok(r) => check_product(&a, &b, &r).unwrap(),
            Err(e) => assert!(documented_divide_product_error(&e), "{e:?}"),
        }
    }
}

/// Found by the property above: the replica of `B(1) = 3` lies past the
/// coalesced complement `3:1`; the product's shift is 20 (disjoint from A's
/// image {0, 3, 10, 13}), not 3.
#[test]
fn logical_product_shift_past_a_size_one_complement_mode() {
    let a: Layout = "((1),(2,2)):((0),(10,3))".parse().unwrap();
    let b: Layout = "2:3".parse().unwrap();
    let r = logical_product(&a, &Tiler::Layout(b.clone())).unwrap();
    assert_eq!(r.to_string(), "(((1),(2,2)),2):(((0),(10,3)),20)");
    check_product(&a, &b, &r).unwrap();
}
