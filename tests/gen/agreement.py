#!/usr/bin/env python3
"""Generates tests/tests/static_agreement.rs: random static layouts and
admissible tilers over every operation of the algebra, each case asserting
that cute-static's result equals cute-dynamic's for the same expression.

Usage (from the repository root, after `cargo build -p cute-cli`):
    python3 tests/gen/agreement.py [--cute target/debug/cute] [--seed 7]

The cute tool filters the random cases down to the admissible ones (a
static case that cute-dynamic rejects would not compile); the expected
values are NOT baked in: the generated test computes them with
cute-dynamic at run time.
"""
import argparse
import random
import subprocess
import sys

# Operation -> (number of cases, argument kinds).
PLAN = [
    ("composition", 110, ("layout", "layout")),
    ("composition", 30, ("layout", "tiler")),
    ("composition", 20, ("layout", "shape")),
    ("complement", 50, ("layout", "cotarget")),
    ("coalesce", 30, ("layout",)),
    ("coalesce_by", 15, ("layout", "profile")),
    ("filter", 20, ("layout",)),
    ("right_inverse", 30, ("layout",)),
    ("left_inverse", 30, ("layout",)),
    ("logical_divide", 25, ("layout", "layout")),
    ("logical_divide", 20, ("layout", "tiler")),
    ("zipped_divide", 15, ("layout", "tiler")),
    ("tiled_divide", 15, ("layout", "tiler")),
    ("flat_divide", 15, ("layout", "tiler")),
    ("logical_product", 20, ("layout", "layout")),
    ("logical_product", 10, ("layout", "tiler")),
    ("zipped_product", 10, ("layout", "tiler")),
    ("tiled_product", 10, ("layout", "tiler")),
    ("flat_product", 10, ("layout", "tiler")),
    ("blocked_product", 25, ("layout", "layout")),
    ("raked_product", 25, ("layout", "layout")),
]

SHAPES = [1, 2, 2, 2, 3, 4, 4, 6, 8]
STRIDES = [0, 1, 1, 1, 2, 2, 3, 4, 4, 6, 8, 12, 16, 24, 32]


def tree(rng, depth, max_rank):
    """A random shape tree: depth <= 2, rank <= max_rank, at most 6 leaves."""
    if depth >= 2 or rng.random() < (0.45 if depth else 0.3):
        return rng.choice(SHAPES)
    return tuple(tree(rng, depth + 1, 3) for _ in range(rng.randint(2 if depth == 0 else 1, max_rank)))


def strides(rng, shape, compact):
    if compact:
        # A permuted compact layout: every stride is a product of the other
        # extents, which makes divides and products admissible more often.
        leaves = flat(shape)
        order = list(range(len(leaves)))
        rng.shuffle(order)
        acc, by_leaf = 1, {}
        for k in order:
            by_leaf[k] = acc
            acc *= leaves[k]
        it = iter(range(len(leaves)))
        return rebuild(shape, lambda _: by_leaf[next(it)])
    return rebuild(shape, lambda _: rng.choice(STRIDES))


def rebuild(t, f):
    return tuple(rebuild(x, f) for x in t) if isinstance(t, tuple) else f(t)


def flat(t):
    return [y for x in t for y in flat(x)] if isinstance(t, tuple) else [t]


def text(t):
    return "(" + ",".join(text(x) for x in t) + ")" if isinstance(t, tuple) else str(t)


def layout(rng, max_rank=3):
    s = tree(rng, 0, max_rank)
    return f"{text(s)}:{text(strides(rng, s, rng.random() < 0.5))}"


def small_layout(rng):
    s = rng.choice([2, 3, 4, 6, 8, (2, 2), (2, 4), (4, 2), (2, 3)])
    return f"{text(s)}:{text(strides(rng, s, rng.random() < 0.6))}"


def argument(rng, kind):
    if kind == "layout":
        return layout(rng)
    if kind == "cotarget":
        return str(rng.choice([8, 12, 16, 24, 32, 48, 64, 96]))
    if kind == "profile":
        return rng.choice(["(1,1)", "(1,1,1)", "1"])
    if kind == "shape":
        return text(tuple(rng.choice([1, 2, 3, 4]) for _ in range(rng.randint(1, 2))))
    if kind == "tiler":
        return "<" + ", ".join(small_layout(rng) for _ in range(rng.randint(1, 2))) + ">"
    raise ValueError(kind)


def rust_arg(kind, arg):
    if kind == "layout":
        return f"layout!({arg})"
    if kind in ("cotarget", "profile", "shape"):
        return f"shape!({arg[1:-1] if arg.startswith('(') else arg})"
    if kind == "tiler":
        return f"tile!({arg[1:-1]})"
    raise ValueError(kind)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cute", default="target/debug/cute")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="tests/tests/static_agreement.rs")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    chosen = []
    for name, count, kinds in PLAN:
        got, tries = [], 0
        while len(got) < count and tries < 200:
            tries += 1
            batch = []
            for _ in range(64):
                a = [argument(rng, k) for k in kinds]
                # The evaluator spells by-mode coalesce `coalesce(L, profile)`.
                text_name = "coalesce" if name == "coalesce_by" else name
                batch.append((f"{text_name}({', '.join(a)})", a))
            out = subprocess.run(
                [args.cute, "--batch"], input="\n".join(e for e, _ in batch) + "\n",
                capture_output=True, text=True, check=False,
            ).stdout.splitlines()
            seen = {e for e, _, _ in got}
            for (expr, a), res in zip(batch, out):
                if not res.startswith("error") and expr not in seen and len(got) < count:
                    seen.add(expr)
                    got.append((expr, a, kinds))
        if len(got) < count:
            sys.exit(f"only {len(got)} admissible cases for {name} {kinds}")
        chosen += [(name, e, a, k) for e, a, k in got]
    lines = [
        "//! Generated by `tests/gen/agreement.py` (do not edit by hand): every case",
        "//! computes an operation on static layouts (the result type is found by the",
        "//! trait solver) and asserts that it equals cute-dynamic's result for the same",
        "//! expression, and that both print alike modulo the static underscores.",
        "",
        "use cute_static::prelude::*;",
        "use cute_static::*;",
        "",
        "#[track_caller]",
        "fn check(expr: &str, got: cute_dynamic::Layout, shown: String) {",
        "    let want = match cute_dynamic::eval(expr) {",
        "        Ok(cute_dynamic::Value::Layout(l)) => l,",
        "        other => panic!(\"{expr}: cute-dynamic gave {other:?}\"),",
        "    };",
        "    assert_eq!(got, want, \"{expr}: to_dynamic() of the static result\");",
        "    assert_eq!(shown.replace('_', \"\"), want.to_string(), \"{expr}: printed forms\");",
        "}",
        "",
        "macro_rules! agree {",
        "    ($expr:literal, $value:expr) => {{",
        "        let r = $value;",
        "        check($expr, r.to_dynamic(), r.to_string());",
        "    }};",
        "}",
        "",
    ]
    per_fn = 25
    for start in range(0, len(chosen), per_fn):
        lines.append("#[test]")
        lines.append(f"fn agreement_{start // per_fn:02}() {{")
        for name, expr, a, kinds in chosen[start:start + per_fn]:
            call = f"{name}({', '.join(rust_arg(k, x) for k, x in zip(kinds, a))})"
            lines.append(f"    agree!({expr!r}, {call});".replace("'", '"'))
        lines.append("}")
        lines.append("")
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"{len(chosen)} cases written to {args.out}")


if __name__ == "__main__":
    main()
