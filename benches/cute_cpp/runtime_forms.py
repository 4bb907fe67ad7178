#!/usr/bin/env python3
"""CuTe's padded forms of the algebra on run-time leaves, from CuTe itself.

CuTe C++ computes with `int` leaves as with static ones but cannot coalesce
or drop what it does not know at compile time, so its results keep padding
modes (`(128,24,5):(1,128,3072) o 64:2` is `(64,1,1):(2,128,3072)`).
cute-static follows those forms for layouts whose leaves are all run-time.
This script generates such cases (seeded: the same cases every run),
evaluates them with CuTe C++ 4.2 (headers from run.sh), and writes

  tests/golden/cute_runtime_forms.txt   op | A | B | CuTe's text
                                        (A all run-time; B run-time for
                                        composition, for the divides a
                                        run-time tile in every other round
                                        of the operations, a static one in
                                        the others)
  tests/tests/runtime_forms.rs          the test: cute-static on each case

    python3 benches/cute_cpp/runtime_forms.py [--n 120] [--seed 7]

The test compares texts where CuTe's answer is the operation's function and
otherwise checks ours against cute-dynamic (CuTe assumes divisibility it
cannot check on run-time values, and is then wrong; see the test).
"""
import argparse
import os
import random
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "target", "cute_cpp")
OPS = ["composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]


def text(t):
    return str(t) if isinstance(t, int) else "(" + ",".join(text(x) for x in t) + ")"


def rust(t):
    """A run-time tree in `layout!` syntax: every leaf `{n}`."""
    return "{%d}" % t if isinstance(t, int) else "(" + ",".join(rust(x) for x in t) + ")"


def cpp(t, static=False):
    if isinstance(t, int):
        return ("Int<%d>{}" if static else "int(%d)") % t
    return "make_shape(" + ",".join(cpp(x, static) for x in t) + ")"


def rust_static(t):
    return str(t) if isinstance(t, int) else "(" + ",".join(rust_static(x) for x in t) + ")"


def compact(shape, start=1):
    """Column-major strides of a flat or nested shape."""
    if isinstance(shape, int):
        return start, start * shape
    out = []
    for s in shape:
        d, start = compact(s, start)
        out.append(d)
    return tuple(out), start


def gen_a(r):
    kind = r.choice(["flat2", "flat3", "nested", "matrix", "strided"])
    pick = lambda: r.choice([1, 2, 3, 4, 6, 8, 16, 24, 32, 128])
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=120)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    r = random.Random(args.seed)
    cases = []
    while len(cases) < args.n:
        op = OPS[len(cases) % len(OPS)]
        a = gen_a(r)
        b = gen_b(r, size(a[0]))
        if op != "composition" and not isinstance(b[0], int):
            b = (b[0][0], b[1][0])  # a 1-D tile for the divides
        # Every other round of the five operations divides by a run-time
        # tile (chosen by position, so the random cases stay the same).
        rt = op == "composition" or (len(cases) // len(OPS)) % 2 == 1
        cases.append((op, a, b, rt))
    subprocess.run(["bash", os.path.join(HERE, "run.sh")], env=dict(os.environ, HEADERS_ONLY="1"), check=True,
                   stdout=subprocess.DEVNULL)
    src = ["#include <cute/tensor.hpp>", "#include <cstdio>", "using namespace cute;", "int main() {"]
    for i, (op, (sa, da), (sb, db), rt) in enumerate(cases):
        st = not rt
        src.append('  { auto a = make_layout(%s, %s); auto b = make_layout(%s, %s);'
                   % (cpp(sa), cpp(da), cpp(sb, st), cpp(db, st)))
        src.append('    print(%s(a, b)); printf("\\n"); }' % op)
    src.append("}")
    cfile = os.path.join(WORK, "runtime_forms.cpp")
    with open(cfile, "w") as f:
        f.write("\n".join(src) + "\n")
    exe = os.path.join(WORK, "runtime_forms")
    subprocess.run(["g++", "-O0", "-std=c++17", "-D__device__=", "-I", os.path.join(WORK, "stub"),
                    "-I", os.path.join(WORK, "nvidia", "cuda_cccl", "include"),
                    "-I", os.path.join(WORK, "cutlass_library", "source", "include"), cfile, "-o", exe], check=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout.splitlines()
    assert len(out) == len(cases)
    golden = ["# CuTe C++ 4.2's results on layouts whose leaves are all run-time `int`s,",
              "# written by benches/cute_cpp/runtime_forms.py: op | A | B | CuTe's text."]
    test = ['//! CuTe\'s padded forms on run-time leaves: cute-static against CuTe C++',
            "//! (generated by `benches/cute_cpp/runtime_forms.py`; do not edit).",
            "",
            "use crate::common::runtime_forms::{Tally, check, text};",
            "use cute_static::prelude::*;",
            ""]
    calls = []
    for (op, (sa, da), (sb, db), rt), c in zip(cases, out):
        at, bt = text(sa) + ":" + text(da), text(sb) + ":" + text(db)
        golden.append(" | ".join([op, at, bt, c]))
        rb = rust if rt else rust_static
        call = "try_%s(layout!(%s:%s), layout!(%s:%s))" % (op, rust(sa), rust(da), rb(sb), rb(db))
        calls.append('    check(tally, "%s", "%s", "%s", text(%s));' % (op, at, bt, call))
    # Ten cases a function: one function of all of them needs more stack
    # than a test thread has, unoptimised.
    parts = [calls[i:i + 10] for i in range(0, len(calls), 10)]
    for k, part in enumerate(parts):
        test += ["#[inline(never)]", "fn part_%d(tally: &mut Tally) {" % k] + part + ["}", ""]
    test += ["#[test]",
             "fn all_run_time_results_print_as_cute_prints_them() {",
             "    let mut tally = Tally::default();"]
    test += ["    part_%d(&mut tally);" % k for k in range(len(parts))]
    test += ["    tally.report();", "}", ""]
    with open(os.path.join(ROOT, "tests", "golden", "cute_runtime_forms.txt"), "w") as f:
        f.write("\n".join(golden) + "\n")
    with open(os.path.join(ROOT, "tests", "tests", "runtime_forms.rs"), "w") as f:
        f.write("\n".join(test))
    print("wrote %d cases" % len(cases))


if __name__ == "__main__":
    main()
