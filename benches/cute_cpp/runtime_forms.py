#!/usr/bin/env python3
"""CuTe's padded forms of the algebra on run-time leaves, from CuTe itself.

CuTe C++ computes with `int` leaves as with static ones but cannot coalesce
or drop what it does not know at compile time, so its results keep padding
modes (`(128,24,5):(1,128,3072) o 64:2` is `(64,1,1):(2,128,3072)`), and a
leaf of its result is static exactly where CuTe's arithmetic met only
static values. cute-static follows those forms. This script generates such
cases (seeded: the same cases every run) for composition, the four divides,
the six products, complement, coalesce, filter and the two inverses, with `A` and `B` all run-time, or one of them static,
or each leaf static or run-time at random; evaluates them with CuTe C++ 4.2
(headers from run.sh), and writes

  tests/golden/cute_runtime_forms.txt   op | A | B | CuTe's text
                                        (A and B as CuTe prints them: a
                                        static leaf `_n`, a run-time one `n`)
  tests/tests/runtime_forms.rs          the test: cute-static on each case

    python3 benches/cute_cpp/runtime_forms.py [--n 242] [--seed 7] [--all-rt 60] [--tilers 16] [--multi 12] [--transposed 6] [--complement 24] [--unary 16] [--inverse 32]

Beside those, `--all-rt` more cases of each of composition and
logical_divide, and a sixth of that of each product, with every leaf of `A`
and `B` run-time (a product's `A` of rank 1: CuTe's complement takes a
run-time stride in rank 1 only), from their own seeded stream, so the
mixed cases above stay the same.

Beside those, `--tilers` cases of each divide by a tuple tiler (a
one-mode tile per mode of a rank-2 `A`, as a kernel tiles a matrix), from
a third seeded stream.

Beside those, `--multi` cases of each divide by a tile of two modes (a
static stride, as CuTe's complement needs), from a fourth seeded stream,
and `--transposed` cases of each by an all-static tile `(s0,s1):(s1,1)`
whose two modes CuTe's filter keeps apart, from a fifth.

Beside those, `--complement` cases of complement by a run-time cotarget,
of a layout with a run-time leaf, from a sixth seeded stream, and `--unary`
cases each of coalesce and filter (one argument: `-` for B), from a
seventh, and `--inverse` cases each of right_inverse and left_inverse
(likewise), from an eighth.

A case CuTe does not compile (a product of a run-time-strided `A` of rank
above 1: its complement needs static strides; a left_inverse of a
run-time stride) is left out. The test
compares texts where CuTe's answer is the operation's function and
otherwise checks ours against cute-dynamic (CuTe assumes divisibility it
cannot check on run-time values, and is then wrong; see the test).
"""
import argparse
import os
import random
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "target", "cute_cpp")
DIVIDES = ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]
PRODUCTS = ["logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product"]
OPS = ["composition"] + DIVIDES + PRODUCTS
# Which leaves are run-time, in turn for each operation: all of both, one
# argument static (all-static `B` is the common tiler), or each leaf at
# random (the mixed layouts of a program: a run-time extent, static strides).
KINDS = [("rt", "rt"), ("rt", "st"), ("mix", "st"), ("mix", "mix"), ("st", "rt"), ("rt", "mix")]


class Leaf:
    """A leaf: its value and whether it is static."""

    def __init__(self, v, st):
        self.v, self.st = v, st


def leaves(t, how, r):
    """The integer tree `t` with leaves all run-time (`rt`), all static
    (`st`) or each static with probability 1/2 (`mix`)."""
    if isinstance(t, int):
        return Leaf(t, how == "st" or (how == "mix" and r.random() < 0.5))
    return tuple(leaves(x, how, r) for x in t)


def text(t):
    """CuTe's print: a static leaf `_n`."""
    if isinstance(t, Leaf):
        return ("_%d" if t.st else "%d") % t.v
    return "(" + ",".join(text(x) for x in t) + ")"


def rust(t):
    """`layout!` syntax: a run-time leaf `{n}`."""
    if isinstance(t, Leaf):
        return ("%d" if t.st else "{%d}") % t.v
    return "(" + ",".join(rust(x) for x in t) + ")"


def cpp(t):
    if isinstance(t, Leaf):
        return ("Int<%d>{}" if t.st else "int(%d)") % t.v
    return "make_shape(" + ",".join(cpp(x) for x in t) + ")"


def compact(shape, start=1):
    """Column-major strides of a flat or nested shape."""
    if isinstance(shape, int):
        return start, start * shape
    out = []
    for s in shape:
        d, start = compact(s, start)
        out.append(d)
    return tuple(out), start


def gen_a(r, small=False):
    kinds = ["one", "flat2", "flat3", "nested", "strided"] if small else \
        ["flat2", "flat3", "nested", "matrix", "strided"]
    kind = r.choice(kinds)
    pick = (lambda: r.choice([1, 2, 3, 4, 8])) if small else (lambda: r.choice([1, 2, 3, 4, 6, 8, 16, 24, 32, 128]))
    if kind == "one":
        return pick(), r.choice([1, 2, 3])
    if kind == "flat2":
        shape = (pick(), pick())
    elif kind == "flat3":
        shape = (pick(), pick(), pick())
    elif kind == "nested":
        shape = ((pick(), pick()), pick())
    elif kind == "matrix":
        shape = (r.choice([64, 100, 128, 256, 1000]), r.choice([8, 32, 64, 333]))
    else:
        shape = (pick(), pick())
        stride = (r.choice([1, 2]), shape[0] * r.choice([1, 2, 4]))
        return shape, stride
    stride, _ = compact(shape)
    if r.random() < 0.3 and isinstance(shape[0], int):
        # a row-major A
        stride = tuple(reversed(compact(tuple(reversed(shape)))[0]))
    return shape, stride


def size(t):
    if isinstance(t, int):
        return t
    n = 1
    for x in t:
        n *= size(x)
    return n


def gen_b(r, a_size):
    divs = [d for d in range(1, a_size + 1) if a_size % d == 0]
    if r.random() < 0.6:
        s = r.choice(divs)
        d = r.choice([x for x in divs if s * x <= a_size] or [1])
        return s, d
    s0 = r.choice(divs)
    rest = a_size // s0
    s1 = r.choice([x for x in range(1, rest + 1) if rest % x == 0])
    return (s0, s1), (1, s0) if r.random() < 0.7 else (s1, 1)


def gen_grid(r):
    """A product's `B`: a small grid, column- or row-major, or strided."""
    pick = lambda: r.choice([1, 2, 3, 4])
    if r.random() < 0.4:
        return pick(), r.choice([1, 1, 2])
    shape = (pick(), pick())
    if r.random() < 0.5:
        return shape, compact(shape)[0]
    return shape, (shape[1], 1)


def gen_case(r, op, k):
    ka, kb = KINDS[k % len(KINDS)]
    if op in PRODUCTS:
        a, b = gen_a(r, small=True), gen_grid(r)
    else:
        a = gen_a(r)
        b = gen_b(r, size(a[0]))
        if op != "composition" and not isinstance(b[0], int):
            b = (b[0][0], b[1][0])  # a 1-D tile for the divides
    # CuTe's complement (in every product) takes run-time strides only in
    # rank 1: a product's `A` of higher rank has static strides.
    kd = "st" if op in PRODUCTS and not isinstance(a[0], int) else ka
    return (op, (leaves(a[0], ka, r), leaves(a[1], kd, r)), (leaves(b[0], kb, r), leaves(b[1], kb, r)))


def all_run_time_cases(r, n):
    """`n` cases each of composition and logical_divide and `n // 6` of
    each product, every leaf run-time."""
    cases = []
    for op in ["composition", "logical_divide"]:
        for _ in range(n):
            a = gen_a(r)
            b = gen_b(r, size(a[0]))
            if op != "composition" and not isinstance(b[0], int):
                b = (b[0][0], b[1][0])
            cases.append((op, (leaves(a[0], "rt", r), leaves(a[1], "rt", r)),
                          (leaves(b[0], "rt", r), leaves(b[1], "rt", r))))
    for op in PRODUCTS:
        for _ in range(n // 6):
            a, b = (r.choice([1, 2, 3, 4, 8]), r.choice([1, 2, 3])), gen_grid(r)
            cases.append((op, (leaves(a[0], "rt", r), leaves(a[1], "rt", r)),
                          (leaves(b[0], "rt", r), leaves(b[1], "rt", r))))
    return cases


def tiler_cases(r, n):
    """`n` cases of each divide by a tuple tiler `<B0, B1>` on a rank-2 `A`
    (a tile of one mode per mode, each with at most the mode's size), the
    leaves' kinds in turn as for the other cases."""
    cases = []
    for op in DIVIDES:
        k = 0
        while k < n:
            ka, kb = KINDS[k % len(KINDS)]
            a = gen_a(r)
            while isinstance(a[0], int) or len(a[0]) != 2:
                a = gen_a(r)
            tiles = []
            for mode in a[0]:
                b = gen_b(r, size(mode))
                if not isinstance(b[0], int):
                    b = (b[0][0], b[1][0])
                tiles.append((leaves(b[0], kb, r), leaves(b[1], kb, r)))
            sa, da = leaves(a[0], ka, r), leaves(a[1], ka, r)
            if all_static(sa) and all_static(da) and all(all_static(t) for tile in tiles for t in tile):
                continue
            cases.append((op, (sa, da), Tiler(tiles)))
            k += 1
    return cases


def multi_mode_tile_cases(r, n, transposed=False):
    """`n` cases of each divide by a tile of two modes (`(s0,s1):(1,s0)`
    or `(s0,s1):(s1,1)`), the leaves' kinds in turn as for the other cases;
    the tile's strides static (CuTe's complement takes run-time strides
    only in rank 1). `transposed`: all-static tiles `(s0,s1):(s1,1)` of two
    modes that CuTe's filter keeps apart, on an `A` with a run-time leaf."""
    cases = []
    for op in DIVIDES:
        k = 0
        while k < n:
            ka, kb = KINDS[k % len(KINDS)]
            a = gen_a(r)
            b = gen_b(r, size(a[0]))
            if isinstance(b[0], int):
                continue
            if transposed:
                if b[1] != (b[0][1], 1) or 1 in b[0]:
                    continue
                ka = "mix" if ka == "st" else ka
                kb = "st"
            sa, da = leaves(a[0], ka, r), leaves(a[1], ka, r)
            sb, db = leaves(b[0], kb, r), leaves(b[1], "st", r)
            if all_static(sa) and all_static(da) and all_static(sb):
                continue
            cases.append((op, (sa, da), (sb, db)))
            k += 1
    return cases


def complement_cases(r, n):
    """`n` cases of complement by a run-time cotarget `M`: a flat `A` of
    rank 1 to 3 whose sizes are static or run-time at random, its strides
    static (CuTe's complement takes a run-time stride only in rank 1,
    where a stride is run-time at random too), compact, strided or
    transposed; `M` a multiple of `A`'s extent or not."""
    cases = []
    while len(cases) < n:
        rank = r.choice([1, 2, 2, 3])
        shape = tuple(r.choice([1, 2, 3, 4, 8]) for _ in range(rank))
        how = r.choice(["compact", "strided", "reversed"])
        if how == "compact":
            stride = compact(shape)[0]
        elif how == "reversed":
            stride = tuple(reversed(compact(tuple(reversed(shape)))[0]))
        else:
            stride = tuple(r.choice([1, 2, 3, 4, 6, 8, 12, 16, 24]) for _ in range(rank))
        extent = 1 + sum((s - 1) * d for s, d in zip(shape, stride))
        m = extent * r.choice([1, 2, 3, 4, 8]) + r.choice([0, 0, 0, 1, 5])
        sa = leaves(shape, "mix", r)
        da = leaves(stride, "mix" if rank == 1 else "st", r)
        if rank == 1:
            sa, da = sa[0], da[0]
        if all_static(sa) and all_static(da):
            continue
        cases.append(("complement", (sa, da), Cotarget(m)))
    return cases


def one_layout_cases(r, n, ops, small, zeros, strides):
    """`n` cases of each operation of `ops` on one layout with a run-time
    leaf: the shapes of the other cases (small ones where `small()`),
    some strides 0 with probability `zeros`, each size static or run-time
    at random, the strides as `strides()` says (`st`, `mix`)."""
    cases = []
    for op in ops:
        k = 0
        while k < n:
            shape, stride = gen_a(r, small=small())
            if r.random() < zeros:
                stride = zero_some(stride, r)
            sa, da = leaves(shape, "mix", r), leaves(stride, strides(), r)
            if all_static(sa) and all_static(da):
                continue
            cases.append((op, (sa, da), Unary()))
            k += 1
    return cases


def unary_cases(r, n):
    """`n` cases each of coalesce and filter of a layout with a run-time
    leaf (each leaf static or run-time at random, some strides 0 and some
    sizes 1)."""
    return one_layout_cases(r, n, ["coalesce", "filter"], lambda: r.random() < 0.5, 0.3,
                            lambda: r.choice(["mix", "st"]))


def inverse_cases(r, n):
    """`n` cases each of right_inverse and left_inverse of a layout with a
    run-time leaf (small shapes, some strides 0; the strides static, or
    for a quarter of the cases each static or run-time at random: CuTe's
    left_inverse needs static strides and does not compile the others)."""
    return one_layout_cases(r, n, ["right_inverse", "left_inverse"], lambda: True, 0.2,
                            lambda: "mix" if r.random() < 0.25 else "st")


def zero_some(t, r):
    """`t` with some leaves 0 (broadcast modes)."""
    if isinstance(t, int):
        return 0 if r.random() < 0.3 else t
    return tuple(zero_some(x, r) for x in t)


class Unary:
    """No second argument (coalesce, filter)."""


class Cotarget:
    """A run-time cotarget of `complement`."""

    def __init__(self, m):
        self.m = m


def b_text(b):
    if isinstance(b, Unary):
        return "-"
    if isinstance(b, Cotarget):
        return "%d" % b.m
    if isinstance(b, Tiler):
        return "<" + ", ".join(text(s) + ":" + text(d) for s, d in b.tiles) + ">"
    return text(b[0]) + ":" + text(b[1])


def b_rust(b):
    if isinstance(b, Cotarget):
        return "Dyn::new(%d)" % b.m
    if isinstance(b, Tiler):
        return "tile!(" + ", ".join(rust(s) + ":" + rust(d) for s, d in b.tiles) + ")"
    return "layout!(%s:%s)" % (rust(b[0]), rust(b[1]))


def b_cpp(b):
    if isinstance(b, Unary):
        return "0"
    if isinstance(b, Cotarget):
        return "int(%d)" % b.m
    if isinstance(b, Tiler):
        return "make_tile(" + ", ".join("make_layout(%s, %s)" % (cpp(s), cpp(d)) for s, d in b.tiles) + ")"
    return "make_layout(%s, %s)" % (cpp(b[0]), cpp(b[1]))


class Tiler:
    """A tuple tiler: one `(shape, stride)` tile per mode."""

    def __init__(self, tiles):
        self.tiles = tiles


def all_static(t):
    return t.st if isinstance(t, Leaf) else all(all_static(x) for x in t)


def run_cute(cases):
    """CuTe's text of each case, `None` where CuTe does not compile it."""
    subprocess.run(["bash", os.path.join(HERE, "run.sh")], env=dict(os.environ, HEADERS_ONLY="1"), check=True,
                   stdout=subprocess.DEVNULL)
    live = list(range(len(cases)))
    cfile = os.path.join(WORK, "runtime_forms.cpp")
    exe = os.path.join(WORK, "runtime_forms")
    # `exe k` runs the cases from the k-th on, each line `i text`: a case
    # that traps (a run-time division by zero) is left out and the rest run.
    head = ["#include <cute/tensor.hpp>", "#include <cstdio>", "#include <cstdlib>", "using namespace cute;",
            "int main(int argc, char** argv) {", "  int from = std::atoi(argv[1]);"]
    while True:
        src = list(head)
        line_of = {}
        for i in live:
            op, (sa, da), b = cases[i]
            line_of[len(src) + 1] = i
            args = "a" if isinstance(b, Unary) else "a, b"
            src.append('  if (%d >= from) { auto a = make_layout(%s, %s); auto b = %s; '
                       'printf("%d "); print(%s(%s)); printf("\\n"); fflush(stdout); }'
                       % (i, cpp(sa), cpp(da), b_cpp(b), i, op, args))
        src.append("}")
        with open(cfile, "w") as f:
            f.write("\n".join(src) + "\n")
        # NDEBUG: a case whose run-time assert fails is CuTe wrong, not an abort.
        p = subprocess.run(["g++", "-O0", "-std=c++17", "-DNDEBUG", "-D__device__=", "-I", os.path.join(WORK, "stub"),
                            "-I", os.path.join(WORK, "nvidia", "cuda_cccl", "include"),
                            "-I", os.path.join(WORK, "cutlass_library", "source", "include"), cfile, "-o", exe],
                           capture_output=True, text=True)
        if p.returncode == 0:
            break
        bad = {line_of[int(n)] for n in re.findall(r"runtime_forms\.cpp:(\d+):", p.stderr) if int(n) in line_of}
        if not bad:
            raise SystemExit(p.stderr[-4000:])
        live = [i for i in live if i not in bad]
    res = [None] * len(cases)
    k = 0
    while k < len(cases):
        p = subprocess.run([exe, str(k)], capture_output=True, text=True)
        done = [l.split(" ", 1) for l in p.stdout.splitlines()]
        for i, o in done:
            res[int(i)] = o
        if p.returncode == 0:
            break
        # The case after the last printed one trapped.
        last = int(done[-1][0]) if done else k - 1
        k = min([i for i in live if i > last] or [len(cases)]) + 1
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=242)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--all-rt", type=int, default=60)
    ap.add_argument("--tilers", type=int, default=16)
    ap.add_argument("--multi", type=int, default=12)
    ap.add_argument("--transposed", type=int, default=6)
    ap.add_argument("--complement", type=int, default=24)
    ap.add_argument("--unary", type=int, default=16)
    ap.add_argument("--inverse", type=int, default=32)
    args = ap.parse_args()
    r = random.Random(args.seed)
    cases = []
    while len(cases) < args.n:
        op = OPS[len(cases) % len(OPS)]
        c = gen_case(r, op, len(cases) // len(OPS))
        if not (all_static(c[1]) and all_static(c[2])):
            cases.append(c)
    cases += all_run_time_cases(random.Random(args.seed + 1), args.all_rt)
    cases += tiler_cases(random.Random(args.seed + 2), args.tilers)
    cases += multi_mode_tile_cases(random.Random(args.seed + 3), args.multi)
    cases += multi_mode_tile_cases(random.Random(args.seed + 4), args.transposed, transposed=True)
    cases += complement_cases(random.Random(args.seed + 5), args.complement)
    cases += unary_cases(random.Random(args.seed + 6), args.unary)
    cases += inverse_cases(random.Random(args.seed + 7), args.inverse)
    cute = run_cute(cases)
    golden = ["# CuTe C++ 4.2's results on layouts with run-time `int` leaves, written",
              "# by benches/cute_cpp/runtime_forms.py: op | A | B | CuTe's text (static leaves `_n`)."]
    test = ['//! CuTe\'s padded forms on run-time leaves: cute-static against CuTe C++',
            "//! (generated by `benches/cute_cpp/runtime_forms.py`; do not edit).",
            "",
            "use crate::common::runtime_forms::{Tally, check, text};",
            "use cute_static::prelude::*;",
            ""]
    calls = []
    seen = set()
    for (op, (sa, da), b), c in zip(cases, cute):
        at, bt = text(sa) + ":" + text(da), b_text(b)
        if c is None or (op, at, bt) in seen:
            continue
        seen.add((op, at, bt))
        golden.append(" | ".join([op, at, bt, c]))
        if op == "left_inverse":
            call = "try_left_inverse(layout!(%s:%s))" % (rust(sa), rust(da))
        elif isinstance(b, Unary):
            # Infallible: no `try_` form needed.
            call = "Ok(%s(layout!(%s:%s)))" % (op, rust(sa), rust(da))
        else:
            call = "try_%s(layout!(%s:%s), %s)" % (op, rust(sa), rust(da), b_rust(b))
        calls.append('    check(tally, "%s", "%s", "%s", text(%s));' % (op, at, bt, call))
    # Ten cases a function: one function of all of them needs more stack
    # than a test thread has, unoptimised.
    parts = [calls[i:i + 10] for i in range(0, len(calls), 10)]
    for k, part in enumerate(parts):
        test += ["#[inline(never)]", "fn part_%d(tally: &mut Tally) {" % k] + part + ["}", ""]
    test += ["#[test]",
             "fn run_time_results_print_as_cute_prints_them() {",
             "    let mut tally = Tally::default();"]
    test += ["    part_%d(&mut tally);" % k for k in range(len(parts))]
    test += ["    tally.report();", "}", ""]
    with open(os.path.join(ROOT, "tests", "golden", "cute_runtime_forms.txt"), "w") as f:
        f.write("\n".join(golden) + "\n")
    with open(os.path.join(ROOT, "tests", "tests", "runtime_forms.rs"), "w") as f:
        f.write("\n".join(test))
    print("wrote %d cases (%d CuTe does not compile or traps)" % (len(calls), cute.count(None)))


if __name__ == "__main__":
    main()
