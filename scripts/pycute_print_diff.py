#!/usr/bin/env python3
"""Compares the printed forms of the `cute` CLI (cute-dynamic) with pycute's.

pycute (`pip install --no-deps nvidia-cutlass`, `import pycute`) is CuTe's
Python model; it is an oracle with known wrong answers, and it does not
follow CuTe C++ on every degenerate stride (its composition coalesces `A`
with `coalesce`, not CuTe's `coalesce_x`, so `logical_divide(1:1, 1:1)` is
`(1,1):(0,0)` there and `(_1,_1):(_1,_0)` in CuTe C++).

Draws random small layouts (fixed seed), evaluates each operation in both,
and counts, among the cases both accept and where both results are the same
function on the result's domain (so any difference is the print only), how
many print the same text. Prints the counts per operation and in all.

Usage (from the workspace root, after `cargo build -p cute-cli`):
    python3 scripts/pycute_print_diff.py [CLI] [N_PER_OP]
"""

import random
import re
import subprocess
import sys
import types

import pycute as pc

CLI = sys.argv[1] if len(sys.argv) > 1 else "target/debug/cute"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 400
rng = random.Random(20261123)


def rand_shape():
    rank = rng.choice([1, 1, 2, 2, 3])
    return [rng.choice([1, 1, 2, 2, 3, 4]) if rng.random() < 0.8 else [rng.choice([1, 2, 3]), rng.choice([1, 2, 4])]
            for _ in range(rank)]


def leaves(t):
    return [x for s in t for x in (leaves(s) if isinstance(s, list) else [s])]


def rebuild(t, it):
    return [rebuild(s, it) if isinstance(s, list) else next(it) for s in t]


def rand_layout():
    shape = rand_shape()
    ls = leaves(shape)
    kind = rng.random()
    if kind < 0.5:  # compact, permuted
        order = list(range(len(ls)))
        rng.shuffle(order)
        strides, acc = [0] * len(ls), 1
        for k in order:
            strides[k] = acc
            acc *= ls[k]
    else:
        strides = [rng.choice([0, 1, 2, 3, 4, 6, 8]) for _ in ls]
    return shape, rebuild(shape, iter(strides))


def text(t):
    if isinstance(t, list):
        return "(" + ",".join(text(x) for x in t) + ")"
    return str(t)


def lay_text(l):
    s, d = l
    if len(s) == 1 and not isinstance(s[0], list) and rng.random() < 0.5:
        return f"{s[0]}:{d[0]}"
    return f"{text(s)}:{text(d)}"


def to_py(t):
    return tuple(to_py(x) for x in t) if isinstance(t, list) else t


def py_layout(l):
    s, d = l
    if len(s) == 1 and not isinstance(s[0], list):
        return pc.Layout(s[0], d[0])
    return pc.Layout(to_py(s), to_py(d))


def norm(s):
    return s.replace(" ", "").replace(",)", ")")


def unwrap1(s):
    """The text with every rank-1 tuple `(x)` unwrapped to `x` (pycute
    unwraps them where CuTe C++ keeps them)."""
    while True:
        t = re.sub(r"\((-?\d+)\)", r"\1", s)
        if t == s:
            return s
        s = t


def parse_tuple(s, i):
    if s[i] == "(":
        i += 1
        out = []
        while True:
            v, i = parse_tuple(s, i)
            out.append(v)
            if s[i] == ")":
                return tuple(out), i + 1
            i += 1
    j = i
    while j < len(s) and (s[j].isdigit() or s[j] == "-"):
        j += 1
    return int(s[i:j]), j


def parse_layout(s):
    sh, i = parse_tuple(s, 0)
    st, _ = parse_tuple(s, i + 1)
    return pc.Layout(sh, st)


def same_function(a, b):
    n = pc.size(a)
    return n == pc.size(b) and all(a(i) == b(i) for i in range(n))


def coalesce_x(layout):
    """CuTe C++'s `detail::coalesce_x`: `coalesce` with a last mode of size 1
    kept (as size 2), so its stride survives: the unbounded mode of the
    extended domain. CuTe C++'s `composition` prepares `A` with it; pycute's
    with `coalesce`."""
    shape, stride = pc.flatten(layout.shape), pc.flatten(layout.stride)
    if not isinstance(shape, tuple):
        shape, stride = (shape,), (stride,)
    if shape[-1] == 1:
        shape = shape[:-1] + (2,)
    return pc.coalesce(pc.Layout(shape, stride))


# pycute's composition and the operations built on it, with CuTe C++'s
# coalesce_x in place of coalesce (a closer model of CuTe C++).
CXX = dict(pc.layout.__dict__, coalesce=coalesce_x)
for name in ("composition", "logical_divide", "zipped_divide", "logical_product"):
    f = getattr(pc.layout, name)
    CXX[name] = types.FunctionType(f.__code__, CXX, name, f.__defaults__)

OPS_CXX = {
    "composition": lambda a, b: CXX["composition"](a, b),
    "logical_divide": lambda a, b: CXX["logical_divide"](a, b),
    "zipped_divide": lambda a, b: CXX["zipped_divide"](a, b),
    "logical_product": lambda a, b: CXX["logical_product"](a, b),
    "complement": lambda a, m: pc.complement(a, m),
    "coalesce": lambda a, _: pc.coalesce(a),
}

OPS = {
    "composition": lambda a, b: pc.composition(a, b),
    "logical_divide": lambda a, b: pc.logical_divide(a, b),
    "zipped_divide": lambda a, b: pc.zipped_divide(a, b),
    "logical_product": lambda a, b: pc.logical_product(a, b),
    "complement": lambda a, m: pc.complement(a, m),
    "coalesce": lambda a, _: pc.coalesce(a),
}

cases = []
for op in OPS:
    for _ in range(N):
        a = rand_layout()
        if op == "complement":
            m = rng.randint(1, 24)
            cases.append((op, f"complement({lay_text(a)}, {m})", py_layout(a), m))
        elif op == "coalesce":
            cases.append((op, f"coalesce({lay_text(a)})", py_layout(a), None))
        else:
            b = rand_layout()
            cases.append((op, f"{op}({lay_text(a)}, {lay_text(b)})", py_layout(a), py_layout(b)))

out = subprocess.run([CLI, "--batch"], input="\n".join(c[1] for c in cases) + "\n", capture_output=True, text=True)
lines = out.stdout.splitlines()
assert len(lines) == len(cases), (len(lines), len(cases))

tally = {op: [0, 0, 0] for op in OPS}
cxx = {op: [0, 0] for op in OPS}
cxx_diffs = []
diffs = []
for (op, expr, a, b), ours in zip(cases, lines):
    if ours.startswith("error"):
        continue
    try:
        theirs = OPS[op](a, b)
    except Exception:
        continue
    try:
        mine = parse_layout(ours)
        if not same_function(mine, theirs):
            continue
    except Exception:
        continue
    try:
        modelled = OPS_CXX[op](a, b)
        if same_function(mine, modelled):
            cxx[op][0] += 1
            if unwrap1(norm(str(modelled))) == unwrap1(ours):
                cxx[op][1] += 1
            else:
                cxx_diffs.append(f"{expr}: ours {ours}, pycute with coalesce_x {norm(str(modelled))}")
    except Exception:
        pass
    tally[op][0] += 1
    if norm(str(theirs)) == ours:
        tally[op][1] += 1
    if unwrap1(norm(str(theirs))) == unwrap1(ours):
        tally[op][2] += 1
    else:
        diffs.append(f"{expr}: ours {ours}, pycute {norm(str(theirs))}")

total = [sum(t[k] for t in tally.values()) for k in range(3)]
print("operation        both accept, same function | same text | same text but rank-1 parentheses")
for op, (n, same, same1) in tally.items():
    print(f"{op:16} {n:4} | {same:4} | {same1:4}")
pct = [100 * total[k] / max(total[0], 1) for k in range(3)]
print(f"{'all':16} {total[0]:4} | {total[1]:4} ({pct[1]:.1f}%) | {total[2]:4} ({pct[2]:.1f}%)")
print("pycute with CuTe C++'s coalesce_x in composition (same text but rank-1 parentheses):")
for op, (n, same) in cxx.items():
    print(f"{op:16} {same:4} of {n:4}")
print(f"{'all':16} {sum(t[1] for t in cxx.values()):4} of {sum(t[0] for t in cxx.values()):4}")
for d in cxx_diffs:
    print("  " + d)
print("differences from pycute beyond rank-1 parentheses:")
for d in diffs:
    print("  " + d)
