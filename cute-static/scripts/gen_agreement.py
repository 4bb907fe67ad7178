#!/usr/bin/env python3
"""Generates tests/tests/static_agreement.rs: static/dynamic agreement cases.

Draws random layouts and tilers (fixed seed), builds an expression for every
operation of the static algebra, and keeps the admissible ones: those that the
`cute` CLI (cute-dynamic) evaluates without error (`cute --batch`). Each kept
case becomes a Rust assertion that the static result's `to_dynamic()` equals
cute-dynamic's result for the same expression and that the two `Display`
texts agree once the static markers `_` are removed.

It also keeps up to REJECT_PER_OP expressions per operation that cute-dynamic
rejects for a condition of the algebra (divisibility, distributivity, rank,
injectivity, no layout): each becomes a `static_assertions::assert_not_impl_any!`
stating that the static operation has no implementation either, so the two
crates accept and reject the same cases.

Usage (from the workspace root, after `cargo build -p cute-cli`):
    python3 cute-static/scripts/gen_agreement.py [N_PER_OP] > tests/tests/static_agreement.rs
    rustfmt --edition 2024 tests/tests/static_agreement.rs
(the committed file: N_PER_OP = 40; the counts are printed on stderr)
"""

import random
import subprocess
import sys

SEED = 20261122
PER_OP = int(sys.argv[1]) if len(sys.argv) > 1 else 40
CLI = "target/debug/cute"
REJECT_PER_OP = 8

# Static spelling of the argument types, for the rejected cases.
TRAIT = {
    "composition": "Compose", "complement": "Complement", "coalesce_by": "CoalesceBy",
    "logical_divide": "LogicalDivide", "zipped_divide": "ZippedDivide", "tiled_divide": "TiledDivide",
    "flat_divide": "FlatDivide", "logical_product": "LogicalProduct", "zipped_product": "ZippedProduct",
    "tiled_product": "TiledProduct", "flat_product": "FlatProduct", "blocked_product": "BlockedProduct",
    "raked_product": "RakedProduct", "left_inverse": "LeftInverse", "right_inverse": "RightInverse",
}


def type_of(st):
    """`op(layout!(A), X)` -> (`Layout![A]`, `Trait<X type>`), from the static expression text."""
    op = st[: st.index("(")]
    inner = st[len(op) + 1 : -1]
    assert inner.startswith("layout!(")
    depth, k = 0, len("layout!")
    for k in range(len("layout!"), len(inner)):
        depth += inner[k] == "("
        depth -= inner[k] == ")"
        if depth == 0:
            break
    a = "Layout![" + inner[len("layout!(") : k] + "]"
    rest = inner[k + 1 :].lstrip(", ")
    trait = TRAIT[op]
    if not rest:
        return a, trait
    for mac, ty in (("layout!(", "Layout!["), ("tile!(", "Tile!["), ("shape!(", "Shape![")):
        if rest.startswith(mac):
            return a, f"{trait}<{ty}{rest[len(mac):-1]}]>"
    raise ValueError(st)


def rejected_by_algebra(msg):
    m = msg.lower()
    return not ("overflow" in m or "unsupported" in m)

rng = random.Random(SEED)

MIXED_PRELUDE = """/// How a result with run-time leaves is compared with cute-dynamic's.
#[derive(Clone, Copy)]
enum Same {
    /// The same function of the 1-D index and, where the two structures
    /// have the same modes, coalesced modes that agree (two levels down):
    /// CuTe's padded form of cute-dynamic's answer.
    Function,
    /// cute-dynamic's `filter` of the result is its answer.
    Filter,
}

/// `got` and `want` agree mode by mode, `depth` levels down, or coalesce
/// to the same layout.
fn same_modes(got: &cute_dynamic::Layout, want: &cute_dynamic::Layout, depth: u32) -> bool {
    let coalesced = cute_dynamic::coalesce(got) == cute_dynamic::coalesce(want);
    if depth == 0 || got.shape().as_int().is_some() || want.shape().as_int().is_some() || got.rank() != want.rank() {
        return coalesced;
    }
    got.modes_iter().zip(want.modes_iter()).all(|(g, w)| same_modes(&g, &w, depth - 1)) || coalesced
}

fn check_mixed(expr: &str, how: Same, got: cute_dynamic::Layout) {
    let dy = cute_dynamic::eval(expr).unwrap_or_else(|e| panic!("{expr}: {e}")).to_string();
    let want: cute_dynamic::Layout = dy.parse().unwrap_or_else(|e| panic!("{expr}: {dy}: {e}"));
    match how {
        Same::Filter => assert_eq!(cute_dynamic::filter(&got), want, "{expr}: filter of {got}"),
        Same::Function => {
            assert_eq!(got.size(), want.size(), "{expr}: size of {got}");
            for i in 0..got.size() {
                assert_eq!(got.eval(i).ok(), want.eval(i).ok(), "{expr}: {got} at {i}");
            }
            assert!(same_modes(&got, &want, 2), "{expr}: {got} is not a padded form of {want}");
        }
    }
}

macro_rules! mixed {
    ($expr:expr, $how:expr, $stat:expr) => {{
        let r = $stat;
        check_mixed($expr, $how, r.to_dynamic());
    }};
}

macro_rules! rejects {
    ($expr:expr, $stat:expr) => {{
        let want = cute_dynamic::eval($expr).map(|v| v.to_string());
        match ($stat, want) {
            (Err(e), Err(d)) => assert_eq!(e, d.error, "{}", $expr),
            (got, want) => panic!("{}: {:?} but cute-dynamic {want:?}", $expr, got.map(|r| r.to_string())),
        }
    }};
}
"""


def parse_layout(text):
    """`S:D` (CuTe text) -> (shape, stride) as nested lists / ints."""
    import json

    depth = 0
    for k, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if c == ":" and depth == 0:
            conv = lambda t: json.loads(t.replace("(", "[").replace(")", "]"))
            return conv(text[:k]), conv(text[k + 1 :])
    raise ValueError(text)


def nested_left_inverse(text):
    """Whether cute-dynamic's left_inverse of `left_inverse(L)` takes the
    paper's nested form (coalesced non-zero modes sorted by stride, each
    stride a multiple of the previous one and past its extent), the only one
    cute-static implements; other answers come from cute-dynamic's search."""
    s, d = parse_layout(text[len("left_inverse(") : -1])
    modes, prefix = [], 1
    for sh, st in zip(leaves(s), leaves(d)):
        if sh == 1:
            continue
        if modes and modes[-1][0] * modes[-1][1] == st:
            modes[-1][0] *= sh
        else:
            modes.append([sh, st])
    ranked = []
    for sh, st in modes:
        if st != 0:
            ranked.append((st, prefix, sh))
        prefix *= sh
    ranked.sort()
    for (d0, _, s0), (d1, _, _) in zip(ranked, ranked[1:]):
        if d1 < s0 * d0 or d1 % d0 != 0:
            return False
    return True


def tup(vals):
    """CuTe text of a tree given as int or list."""
    if isinstance(vals, int):
        return str(vals)
    return "(" + ",".join(tup(v) for v in vals) + ")"


def rand_shape_tree(max_rank=3, depth=2, lo=1, hi=8):
    rank = rng.randint(1, max_rank)
    if rank == 1 and rng.random() < 0.5:
        return rng.randint(max(lo, 2), hi)
    out = []
    for _ in range(rank):
        if depth > 1 and rng.random() < 0.25:
            out.append(rand_shape_tree(2, depth - 1, lo, 4))
        else:
            out.append(rng.randint(lo, hi))
    return out


def leaves(t):
    if isinstance(t, int):
        return [t]
    return [x for c in t for x in leaves(c)]


def rebuild(t, it):
    if isinstance(t, int):
        return next(it)
    return [rebuild(c, it) for c in t]


def compact_strides(shape, permute=True):
    """Column-major strides of the leaves, in a random leaf order."""
    ls = leaves(shape)
    order = list(range(len(ls)))
    if permute:
        rng.shuffle(order)
    strides = [0] * len(ls)
    acc = 1
    for k in order:
        strides[k] = acc
        acc *= ls[k]
    return rebuild(shape, iter(strides))


def rand_layout(max_rank=3, depth=2, hi=8, kind=None):
    shape = rand_shape_tree(max_rank, depth, 1, hi)
    kind = kind or rng.choice(["compact", "compact", "padded", "random", "broadcast"])
    if kind == "compact":
        stride = compact_strides(shape)
    elif kind == "padded":
        ls = leaves(shape)
        acc, strides = rng.choice([1, 2]), []
        for s in ls:
            strides.append(acc)
            acc = acc * s + rng.choice([0, 0, 1, 2])
        stride = rebuild(shape, iter(strides))
    elif kind == "broadcast":
        st = leaves(compact_strides(shape))
        k = rng.randrange(len(st))
        st[k] = 0
        stride = rebuild(shape, iter(st))
    else:
        stride = rebuild(shape, iter(rng.randint(0, 40) for _ in leaves(shape)))
    return shape, stride


def lay(l):
    return tup(l[0]) + ":" + tup(l[1])


def size(l):
    p = 1
    for s in leaves(l[0]):
        p *= s
    return p


def modes(l):
    s, d = l
    if isinstance(s, int):
        return [(s, d)]
    return list(zip(s, d))


def divisor_layout(n):
    """A small layout whose size divides n, strides likely admissible."""
    divs = [d for d in range(2, n + 1) if n % d == 0] or [1]
    s = rng.choice(divs)
    if rng.random() < 0.4 and s >= 4:
        a = rng.choice([d for d in range(2, s + 1) if s % d == 0])
        shape = [a, s // a] if s // a > 1 else a
        if isinstance(shape, list):
            d0 = rng.choice([1, 2])
            return (shape, [d0, d0 * a * rng.choice([1, 1, 2])])
        return (shape, rng.choice([1, 2]))
    return (s, rng.choice([1, 1, 2, 3, 4]))


def rand_tiler(a, shapes_only=False):
    """A tiler with at most rank(a) tiles, each fit for its mode."""
    ms = modes(a)
    n = rng.randint(1, len(ms))
    tiles = []
    for k in range(n):
        m = ms[k]
        sz = size(m)
        if shapes_only or rng.random() < 0.4:
            divs = [d for d in range(1, sz + 1) if sz % d == 0]
            tiles.append(str(rng.choice(divs)))
        else:
            tiles.append(lay(divisor_layout(sz)))
    return tiles


def nested_tiler(a):
    """A tiler whose tiles for tuple modes are sometimes nested tilers."""
    s, d = a
    if isinstance(s, int):
        return [lay(divisor_layout(s))]
    n = rng.randint(1, len(s))
    tiles = []
    for k in range(n):
        m = (s[k], d[k])
        if isinstance(s[k], list) and rng.random() < 0.7:
            sub = rand_tiler(m)
            tiles.append("<" + ",".join(sub) + ">")
        elif rng.random() < 0.5:
            tiles.append(lay(divisor_layout(size(m))))
        else:
            sz = size(m)
            tiles.append(str(rng.choice([x for x in range(1, sz + 1) if sz % x == 0])))
    return tiles


def static_tile_args(tiles):
    return "tile!(" + ", ".join(tiles) + ")"


def cases_for(op):
    a = rand_layout()
    if op == "coalesce":
        return f"coalesce({lay(a)})", f"coalesce(layout!({lay(a)}))"
    if op == "filter":
        return f"filter({lay(a)})", f"filter(layout!({lay(a)}))"
    if op == "coalesce_by":
        prof = []
        ms = modes(a)
        for k in range(rng.randint(1, len(ms))):
            prof.append("1")
        prof_t = "(" + ",".join(prof) + ")"
        return f"coalesce({lay(a)}, {prof_t})", f"coalesce_by(layout!({lay(a)}), shape!({prof_t}))"
    if op in ("right_inverse", "left_inverse"):
        a = rand_layout(kind=rng.choice(["compact", "compact", "padded", "broadcast", "random"]))
        return f"{op}({lay(a)})", f"{op}(layout!({lay(a)}))"
    if op in ("blocked_product", "raked_product"):
        a = rand_layout(2, 2, 5, kind=rng.choice(["compact", "padded"]))
        b = rand_layout(2, 1, 4, kind=rng.choice(["compact", "compact", "padded"]))
        return f"{op}({lay(a)}, {lay(b)})", f"{op}(layout!({lay(a)}), layout!({lay(b)}))"
    if op == "complement":
        a = rand_layout(kind=rng.choice(["compact", "padded", "broadcast"]))
        m = size(a) * rng.choice([1, 2, 3, 4]) + rng.choice([0, 0, 1, 5])
        return f"complement({lay(a)}, {m})", f"complement(layout!({lay(a)}), shape!({m}))"
    if op == "stress":
        # Likely inadmissible: random strides on both sides, random
        # complements, tilers with more modes than the layout.
        k = rng.random()
        if k < 0.45:
            a = rand_layout(3, 1, 6, kind=rng.choice(["compact", "broadcast", "random"]))
            b = (rng.choice([[2, 2], [2, 3], [4, 2], [3, 4]]), [rng.randint(0, 3), rng.randint(1, 6)])
            return f"composition({lay(a)}, {lay(b)})", f"composition(layout!({lay(a)}), layout!({lay(b)}))"
        if k < 0.75:
            a = rand_layout(3, 1, 5, kind="random")
            m = rng.randint(1, 200)
            return f"complement({lay(a)}, {m})", f"complement(layout!({lay(a)}), shape!({m}))"
        a = rand_layout(2, 1, 6, kind="compact")
        n = len(modes(a)) + rng.choice([0, 1])
        t = [str(rng.choice([1, 2])) for _ in range(n)]
        f = rng.choice(["composition", "logical_divide", "zipped_divide", "logical_product"])
        return f"{f}({lay(a)}, <{','.join(t)}>)", f"{f}(layout!({lay(a)}), {static_tile_args(t)})"
    if op == "nested_tiler":
        a = (None, None)
        while not isinstance(a[0], list) or not any(isinstance(x, list) for x in a[0]):
            a = rand_layout(3, 2, 6, kind=rng.choice(["compact", "compact", "padded"]))
        t = nested_tiler(a)
        f = rng.choice(["composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
                        "logical_product", "zipped_product", "tiled_product", "flat_product"])
        return f"{f}({lay(a)}, <{','.join(t)}>)", f"{f}(layout!({lay(a)}), {static_tile_args(t)})"
    if op == "composition_rank4":
        a = rand_layout(4, 2, 6, kind=rng.choice(["compact", "padded", "random"]))
        if rng.random() < 0.5:
            b = rand_layout(4, 2, 4, kind=rng.choice(["compact", "padded", "broadcast"]))
        else:
            b = divisor_layout(size(a))
        return f"composition({lay(a)}, {lay(b)})", f"composition(layout!({lay(a)}), layout!({lay(b)}))"
    if op == "composition":
        a = rand_layout(kind=rng.choice(["compact", "padded", "random"]))
        form = rng.choice(["layout", "layout", "tiler", "shape"])
        if form == "layout":
            b = divisor_layout(size(a)) if rng.random() < 0.6 else rand_layout(2, 2, 6)
            return f"composition({lay(a)}, {lay(b)})", f"composition(layout!({lay(a)}), layout!({lay(b)}))"
        if form == "tiler":
            t = rand_tiler(a)
            return f"composition({lay(a)}, <{','.join(t)}>)", f"composition(layout!({lay(a)}), {static_tile_args(t)})"
        t = rand_tiler(a, shapes_only=True)
        dyn_t = t[0] if len(t) == 1 and rng.random() < 0.5 else "(" + ",".join(t) + ")"
        st = f"shape!({t[0]})" if not dyn_t.startswith("(") else f"shape!(({','.join(t)}))"
        return f"composition({lay(a)}, {dyn_t})", f"composition(layout!({lay(a)}), {st})"
    # divides and products
    kind, fam = op.split("_")
    a = rand_layout(kind=rng.choice(["compact", "compact", "padded"]))
    if fam == "divide":
        if rng.random() < 0.5:
            b = divisor_layout(size(a))
            return f"{op}({lay(a)}, {lay(b)})", f"{op}(layout!({lay(a)}), layout!({lay(b)}))"
        t = rand_tiler(a)
        return f"{op}({lay(a)}, <{','.join(t)}>)", f"{op}(layout!({lay(a)}), {static_tile_args(t)})"
    a = rand_layout(2, 2, 5, kind=rng.choice(["compact", "padded"]))
    if rng.random() < 0.5:
        b = rand_layout(2, 1, 4, kind=rng.choice(["compact", "compact", "padded"]))
        return f"{op}({lay(a)}, {lay(b)})", f"{op}(layout!({lay(a)}), layout!({lay(b)}))"
    ms = modes(a)
    n = rng.randint(1, len(ms))
    t = [lay(rand_layout(1, 1, 4, kind="compact")) if rng.random() < 0.6 else str(rng.randint(1, 4)) for _ in range(n)]
    return f"{op}({lay(a)}, <{','.join(t)}>)", f"{op}(layout!({lay(a)}), {static_tile_args(t)})"


OPS = [
    "coalesce", "filter", "complement", "composition",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product",
    "coalesce_by", "right_inverse", "left_inverse", "blocked_product", "raked_product",
    "composition_rank4", "nested_tiler", "stress",
]

WEIGHT = {"composition": 3}


def main():
    kept = []
    rejected = []
    # Answered by cute-dynamic but not implemented by cute-static (see
    # `nested_left_inverse`).
    dynamic_only = []
    for op in OPS:
        want = PER_OP * WEIGHT.get(op, 1)
        got, tries, seen = [], 0, set()
        bad = []
        while len(got) < want and tries < want * 40:
            tries += 1
            batch = [cases_for(op) for _ in range(want * 2)]
            batch = [c for c in batch if c[0] not in seen]
            inp = "\n".join(c[0] for c in batch) + "\n"
            out = subprocess.run([CLI, "--batch"], input=inp, capture_output=True, text=True, check=False).stdout
            for (dyn, st), res in zip(batch, out.splitlines()):
                if dyn in seen:
                    continue
                if res.startswith("error"):
                    cap = REJECT_PER_OP * (5 if op == "stress" else 1)
                    if len(bad) < cap and rejected_by_algebra(res) and op in TRAIT or (
                        len(bad) < cap and rejected_by_algebra(res) and st.split("(")[0] in TRAIT
                    ):
                        seen.add(dyn)
                        bad.append((op, dyn, st, res))
                    continue
                if op == "left_inverse" and not nested_left_inverse(dyn):
                    if len(dynamic_only) < REJECT_PER_OP:
                        seen.add(dyn)
                        dynamic_only.append((op, dyn, st, res))
                    continue
                # Results wider than the static list conversions (8 modes) are skipped.
                if res.count(",") > 40:
                    continue
                seen.add(dyn)
                got.append((op, dyn, st, res))
                if len(got) >= want:
                    break
        kept.extend(got)
        rejected.extend(bad)
    print("//! Generated by `cute-static/scripts/gen_agreement.py` (seed %d): do not edit." % SEED)
    print("//!")
    print("//! Each case computes an operation of the static algebra in trait")
    print("//! resolution and checks it against cute-dynamic on the same expression:")
    print("//! `to_dynamic()` equals the dynamic result, and the two texts are the same")
    print("//! once the static markers `_` are removed.")
    print()
    print("use cute_static::prelude::*;")
    print()
    print("fn check(expr: &str, stat: &dyn std::fmt::Display, stat_dyn: cute_dynamic::Layout) {")
    print("    let dy = cute_dynamic::eval(expr).unwrap_or_else(|e| panic!(\"{expr}: {e}\")).to_string();")
    print("    let dl: cute_dynamic::Layout = dy.parse().unwrap_or_else(|e| panic!(\"{expr}: {dy}: {e}\"));")
    print("    assert_eq!(stat_dyn, dl, \"{expr}: to_dynamic\");")
    print("    assert_eq!(stat.to_string().replace('_', \"\"), dy, \"{expr}: display\");")
    print("}")
    print()
    print(MIXED_PRELUDE)
    print("macro_rules! case {")
    print("    ($expr:expr, $stat:expr) => {{")
    print("        let r = $stat;")
    print("        check($expr, &r, r.to_dynamic());")
    print("    }};")
    print("}")
    by_op = {}
    for op, dyn, st, res in kept:
        by_op.setdefault(op, []).append((dyn, st, res))
    for op in OPS:
        cs = by_op.get(op, [])
        print()
        if op == "composition_rank4":
            print(f"/// {len(cs)} cases of `composition` of layouts of rank up to 4.")
        elif op == "stress":
            print(f"/// {len(cs)} admissible cases of random compositions, complements and tilers.")
        elif op == "nested_tiler":
            print(f"/// {len(cs)} cases of by-mode operations with nested tilers.")
        else:
            print(f"/// {len(cs)} cases of `{op}`.")
        print("#[test]")
        print(f"fn agree_{op}() {{")
        for dyn, st, res in cs:
            print(f"    case!({dyn!r}, {st}); // {res}".replace("case!('", 'case!("').replace("', ", '", '))
        print("}")
    print_mixed(kept, rejected)
    print()
    not_implemented(
        "rejected",
        ["Expressions cute-dynamic rejects for a condition of the algebra: the",
         "static operation has no implementation either."],
        [(st, f"{dyn}: {res[:160]}") for op, dyn, st, res in rejected],
    )
    print()
    not_implemented(
        "dynamic_only",
        ["Left inverses cute-dynamic finds by its search (layouts whose strides do",
         "not nest, or that are not injective): cute-static implements the paper's",
         "nested form only, and has no implementation for these."],
        [(st, f"{dyn} = {res}") for op, dyn, st, res in dynamic_only],
    )
    print(f"// {len(kept)} cases in all, {len(rejected)} rejected ones, {len(dynamic_only)} dynamic only.", file=sys.stderr)



# ------------------------------------------------ run-time leaf variants

import re

# The operations cute-static computes with a run-time leaf, and how their
# result is compared with cute-dynamic's: "function" (the same function of
# the 1-D index, the same coalesced modes where the structures meet: CuTe's
# padded form of cute-dynamic's answer), "Filter" (cute-dynamic's filter of
# the result is its answer).
MIXED = {"coalesce": "Function", "filter": "Filter", "coalesce_by": "Function", "composition": "Function",
         "logical_divide": "Function", "zipped_divide": "Function", "logical_product": "Function",
         "zipped_product": "Function", "tiled_product": "Function", "flat_product": "Function",
         "complement": "Function", "right_inverse": "Function", "left_inverse": "Function",
         "blocked_product": "Function", "raked_product": "Function"}
TRY = {"composition": "try_composition", "logical_divide": "try_logical_divide", "zipped_divide": "try_zipped_divide",
       "logical_product": "try_logical_product", "complement": "try_complement",
       "right_inverse": "try_right_inverse", "left_inverse": "try_left_inverse",
       "blocked_product": "try_blocked_product", "raked_product": "try_raked_product"}
# The most flat modes of a layout with run-time leaves whose result is the
# padded form of N (right_inverse) or N + 1 (the others) run-time leaves
# (at most 8 modes).
PADDED_MAX = {"right_inverse": 8, "left_inverse": 7, "complement": 7}


def flat_modes_marked(text):
    """The flat modes of `S:D` (static text with `{N i64}` run-time leaves)
    as ((shape, static), (stride, static)) pairs."""
    body = text[len("layout!(") : -1] if text.startswith("layout!(") else text
    leaves = re.findall(r"\{(-?\d+)i64\}|(-?\d+)", body.replace(" ", ""))
    vals = [(int(a), False) if a else (int(b), True) for a, b in leaves]
    n = len(vals) // 2
    return list(zip(vals[:n], vals[n:]))


def static_overlap(text):
    """Whether two static modes of the layout `text` overlap (cute-static's
    compile-time condition of complement and left_inverse with run-time
    leaves: static `s1:d1`, `s2:d2`, s > 1, d > 0, d1 <= d2 < s1*d1)."""
    ms = [(s, d) for (s, ss), (d, ds) in flat_modes_marked(text) if ss and ds and s > 1 and d > 0]
    return any(d1 <= d2 < s1 * d1 for i, (s1, d1) in enumerate(ms) for j, (_, d2) in enumerate(ms) if i != j)


def variant_ok(op, args):
    """A run-time leaf variant cute-static takes (not a compile error)."""
    a = args[0]
    if op in ("complement", "left_inverse") and static_overlap(a):
        return False
    dynamic_a = "i64}" in a
    # blocked/raked pad A with 1:0 modes up to B's rank first: room kept.
    limit = PADDED_MAX.get(op, 7 if op in PRODUCTS else 5 if op in ("blocked_product", "raked_product") else None)
    return limit is None or not dynamic_a or len(flat_modes_marked(a)) <= limit
PRODUCTS = ("logical_product", "zipped_product", "tiled_product", "flat_product")


def macro_args(st):
    """The top-level arguments of `op(arg, arg)` (static text)."""
    inner = st[st.index("(") + 1 : -1]
    out, depth, start = [], 0, 0
    for k, c in enumerate(inner):
        depth += c in "(<"
        depth -= c in ")>"
        if c == "," and depth == 0:
            out.append(inner[start:k].strip())
            start = k + 1
    out.append(inner[start:].strip())
    return out


def static_tile1(t):
    """A tile of the mixed divide: `n` or `n:d` with d >= 1."""
    if re.fullmatch(r"\d+", t):
        return True
    m = re.fullmatch(r"(\d+):(\d+)", t)
    return bool(m) and int(m.group(2)) >= 1


# (tiles, rank of the layout) of the tuple tilers the mixed divide takes.
TUPLE_TILES = {(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3), (4, 4)}


def mixed_op(st):
    """The operation of the static expression `st` when cute-static computes
    it with run-time leaves in its layout argument(s), else None; and which
    arguments may take run-time leaves."""
    op = st[: st.index("(")]
    if op not in MIXED:
        return None, []
    args = macro_args(st)
    if not args[0].startswith("layout!("):
        return None, []
    if op == "composition":
        return (op, [0, 1]) if args[1].startswith("layout!(") else (None, [])
    if op in PRODUCTS or op in ("blocked_product", "raked_product"):
        # A tile by a grid, either with a run-time leaf.
        return (op, [0, 1]) if args[1].startswith("layout!(") else (None, [])
    if op in ("logical_divide", "zipped_divide"):
        a = parse_layout(args[0][len("layout!(") : -1])
        if args[1].startswith("layout!("):
            return (op, [0]) if static_tile1(args[1][len("layout!(") : -1]) else (None, [])
        if args[1].startswith("tile!("):
            tiles = macro_args("t(" + args[1][len("tile!(") : -1] + ")")
            rank = len(a[0]) if isinstance(a[0], list) else 0
            ok = all(static_tile1(t) for t in tiles) and (len(tiles), rank) in TUPLE_TILES
            return (op, [0]) if ok else (None, [])
        return None, []
    return op, [0]


def leaf_variants(st, which):
    """The arguments of `st`, once for each leaf of its layout arguments
    `which`, that leaf made run-time (`7` becomes `{7i64}`)."""
    args = macro_args(st)
    op = st[: st.index("(")]
    out = []
    for k in which:
        text = args[k]
        for m in re.finditer(r"\d+", text):
            v = text[: m.start()] + "{" + m.group(0) + "i64}" + text[m.end() :]
            new = args[:k] + [v] + args[k + 1 :]
            out.append(new)
    return op, out


def print_mixed(kept, rejected):
    """One test per operation: every case with one leaf run-time, the k-th
    case's leaf k (modulo its number of leaves), so that the leaf positions
    are taken in turn across the cases (all leaves of every case would cost
    minutes of build); and the rejected cases the same way, whose `try_`
    form returns cute-dynamic's error."""
    by_op = {}
    for op, dyn, st, res in kept:
        mop, n = mixed_op(st)
        if mop:
            by_op.setdefault(mop, []).append((dyn, st, n))
    total = 0
    for op in MIXED:
        cs = by_op.get(op, [])
        print()
        print(f"/// The cases of `{op}` above, each with one leaf of its layout argument(s) run-time,")
        print("/// the leaf positions taken in turn across the cases.")
        print("#[test]")
        print(f"fn agree_{op}_run_time_leaf() {{")
        for k, (dyn, st, n) in enumerate(cs):
            _, vs = leaf_variants(st, n)
            vs = [v for v in vs[k % len(vs) :] + vs[: k % len(vs)] if variant_ok(op, v)]
            if not vs:
                continue
            args = vs[0]
            total += 1
            print(f'    mixed!("{dyn}", Same::{MIXED[op]}, {op}({", ".join(args)}));')
        print("}")
    rows = []
    for k, (op, dyn, st, res) in enumerate(rejected):
        mop, n = mixed_op(st)
        if mop in TRY:
            _, vs = leaf_variants(st, n)
            vs = [v for v in vs[k % len(vs) :] + vs[: k % len(vs)] if variant_ok(mop, v)]
            if not vs:
                continue
            args = vs[0]
            rows.append((dyn, f'{TRY[mop]}({", ".join(args)})'))
    print()
    print("/// The rejected cases below, each with one leaf of its layout argument(s) run-time")
    print("/// (taken in turn): the `try_` form returns cute-dynamic's error.")
    print("#[test]")
    print("fn rejected_with_a_run_time_leaf() {")
    for dyn, call in rows:
        print(f'    rejects!("{dyn}", {call});')
    print("}")
    print(f"// {total} run-time leaf variants, {len(rows)} rejected ones.", file=sys.stderr)


def not_implemented(name, comment, rows):
    """Prints `mod name`: for each (static expression, note) row, the note and
    an `assert_not_impl_any!` saying the static operation does not exist."""
    for line in comment:
        print(f"// {line}")
    print(f"mod {name} {{")
    print("    use cute_static::prelude::*;")
    print("    use static_assertions::assert_not_impl_any;")
    for st, note in rows:
        a, t = type_of(st)
        print(f"    // {note}")
        print(f"    assert_not_impl_any!({a}: {t});")
    print("}")

if __name__ == "__main__":
    main()
