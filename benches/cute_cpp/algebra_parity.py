#!/usr/bin/env python3
"""Differential test of the products and divides against CuTe C++ itself.

Generates random small cases (layouts of rank 1-3, some modes nested, shapes
1-8, strides 0-16; all-static `Int<N>` leaves or all-run-time `int` leaves),
evaluates each with CuTe C++ (one compiled program per batch; the cases CuTe
refuses at compile time, a `static_assert`, are found from g++'s diagnostics
and taken out, then the batch is compiled again) and with `cute --batch`, and
compares the texts (CuTe's static marker `_` taken off).

    python3 benches/cute_cpp/algebra_parity.py gen   OUT_DIR [--seed S] [--n N]
    python3 benches/cute_cpp/algebra_parity.py cute  OUT_DIR [--batch 300]
    python3 benches/cute_cpp/algebra_parity.py ours  OUT_DIR --cute PATH/TO/cute
    python3 benches/cute_cpp/algebra_parity.py report OUT_DIR

`gen` writes OUT_DIR/cases.tsv (id, kind, op, A, B), `cute` writes
OUT_DIR/cute.tsv (id, CuTe's text or `REFUSED`), `ours` OUT_DIR/ours.tsv,
`report` compares them and judges each difference by brute force (the
operation's defining function, see `judge`).

Needs g++ and CuTe's headers in target/cute_cpp (bash benches/cute_cpp/run.sh
with HEADERS_ONLY=1 downloads them).
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.environ.get("CUTE_CPP", os.path.join(ROOT, "target", "cute_cpp"))

PRODUCTS_T = ["logical_product", "zipped_product", "tiled_product", "flat_product"]
PRODUCTS_L = ["blocked_product", "raked_product"]
DIVIDES = ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]


# ---------------------------------------------------------------- layouts

def text(t):
    if isinstance(t, int):
        return str(t)
    return "(" + ",".join(text(x) for x in t) + ")"


def ltext(shape, stride):
    return text(shape) + ":" + text(stride)


def leaves(t):
    if isinstance(t, int):
        return [t]
    return [x for s in t for x in leaves(s)]


def rebuild(t, it):
    if isinstance(t, int):
        return next(it)
    return tuple(rebuild(s, it) for s in t)


def rand_shape(rng, rank, maxs, nest):
    modes = []
    for _ in range(rank):
        if rng.random() < nest:
            modes.append((rng.randint(1, maxs), rng.randint(1, maxs)))
        else:
            modes.append(rng.randint(1, maxs))
    return modes[0] if rank == 1 and isinstance(modes[0], int) and rng.random() < 0.8 else tuple(modes)


def rand_strides(rng, shape):
    """Random strides for `shape`: fully random, compact in a random order
    (injective), or that with gaps and an occasional 0."""
    ls = leaves(shape)
    kind = rng.random()
    if kind < 0.3:
        st = [rng.randint(0, 16) for _ in ls]
    else:
        order = list(range(len(ls)))
        if kind < 0.85:
            rng.shuffle(order)
        st = [0] * len(ls)
        acc = rng.choice([1, 1, 1, 2, 3])
        for i in order:
            st[i] = acc
            acc *= ls[i]
            if rng.random() < 0.25:
                acc *= rng.randint(2, 3)
        if rng.random() < 0.15:
            st[rng.randrange(len(st))] = 0
        if any(s > 16 for s in st) and rng.random() < 0.7:
            return rand_strides(rng, shape)
    return rebuild(shape, iter(st))


def rand_layout(rng, rank, maxs, nest):
    s = rand_shape(rng, rank, maxs, nest)
    return (s, rand_strides(rng, s))


def rand_tiler(rng, a, shapes):
    """A tiler for the layout `a`: one tile per leading mode, a nested mode
    of `a` sometimes tiled by a nested tiler (or a nested shape)."""
    sh = a[0] if isinstance(a[0], tuple) else (a[0],)
    k = rng.randint(1, len(sh))
    if shapes:
        def one(m):
            if isinstance(m, tuple) and rng.random() < 0.5:
                return "(" + ",".join(str(rng.randint(1, 4)) for _ in m) + ")"
            return str(rng.randint(1, 4))
        return "(" + ",".join(one(m) for m in sh[:k]) + ")"
    def one(m):
        if isinstance(m, tuple) and rng.random() < 0.5:
            return "<" + ",".join(ltext(*rand_layout(rng, 1, 4, 0)) for _ in m) + ">"
        return ltext(*rand_layout(rng, 1 if rng.random() < 0.8 else 2, 4, 0.1))
    return "<" + ",".join(one(m) for m in sh[:k]) + ">"


def size(t):
    n = 1
    for x in leaves(t):
        n *= x
    return n


def gen(args):
    rng = random.Random(args.seed)
    cases = []
    seen = set()

    def add(kind, op, a, b):
        key = (kind, op, a, b)
        if key not in seen:
            seen.add(key)
            cases.append(key)

    for i in range(args.n):
        kind = "static" if i % 4 != 3 else "dynamic"
        # Products: a tile A and a small grid B.
        a = rand_layout(rng, rng.randint(1, 3), 6, 0.25)
        at = ltext(*a)
        rb = rng.randint(1, 3)
        b = rand_layout(rng, rb, 4, 0.2)
        bt = ltext(*b)
        for op in PRODUCTS_T + PRODUCTS_L:
            add(kind, op, at, bt)
        ra = 1 if isinstance(a[0], int) else len(a[0])
        k = rng.randint(1, ra)
        u = rng.random()
        if u < 0.15 and not args.no_shapes:
            tt = str(rng.randint(1, 4))
        elif u < 0.4 and not args.no_shapes:
            tt = "(" + ",".join(str(rng.randint(1, 4)) for _ in range(k)) + ")"
            if k == 1:
                tt = tt[1:-1]
        else:
            tiles = [ltext(*rand_layout(rng, 1 if rng.random() < 0.8 else 2, 4, 0.1)) for _ in range(k)]
            tt = "<" + ",".join(tiles) + ">"
        for op in PRODUCTS_T:
            add(kind, op, at, tt)
        if args.nested:
            a = rand_layout(rng, rng.randint(1, 3), 5, 0.6)
            at = ltext(*a)
            for shapes in (False, True):
                tt = rand_tiler(rng, a, shapes)
                for op in PRODUCTS_T + DIVIDES:
                    add(kind, op, at, tt)
        if args.products:
            continue
        # Divides: a layout A and a tile B.
        a = rand_layout(rng, rng.randint(1, 3), 8, 0.25)
        at = ltext(*a)
        b = rand_layout(rng, rng.randint(1, 2), 4, 0.15)
        for op in DIVIDES:
            add(kind, op, at, ltext(*b))
        ra = 1 if isinstance(a[0], int) else len(a[0])
        k = rng.randint(1, ra)
        if rng.random() < 0.2 and not args.no_shapes:
            tt = "(" + ",".join(str(rng.randint(1, 4)) for _ in range(k)) + ")"
            if k == 1:
                tt = tt[1:-1]
        else:
            tiles = [ltext(*rand_layout(rng, 1 if rng.random() < 0.8 else 2, 4, 0.1)) for _ in range(k)]
            tt = "<" + ",".join(tiles) + ">"
        for op in DIVIDES:
            add(kind, op, at, tt)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "cases.tsv"), "w") as f:
        for n, (kind, op, a, b) in enumerate(cases):
            f.write(f"{n}\t{kind}\t{op}\t{a}\t{b}\n")
    print(f"{len(cases)} cases")


# ---------------------------------------------------------------- parsing

def parse_tuple(s, i=0):
    if s[i] == "(":
        i += 1
        out = []
        while True:
            v, i = parse_tuple(s, i)
            out.append(v)
            if s[i] == ",":
                i += 1
                continue
            assert s[i] == ")", (s, i)
            return tuple(out), i + 1
    j = i
    while j < len(s) and (s[j].isdigit() or s[j] == "-"):
        j += 1
    return int(s[i:j]), j


def parse_layout(s):
    s = s.replace("_", "").replace(" ", "")
    sh, i = parse_tuple(s, 0)
    assert s[i] == ":", s
    st, j = parse_tuple(s, i + 1)
    assert j == len(s), s
    return sh, st


def split_top(s):
    """'<a,b>' or '(a,b)' -> ['a', 'b'] at depth 1."""
    inner = s[1:-1]
    parts, depth, cur = [], 0, ""
    for c in inner:
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


# ---------------------------------------------------------------- C++

def cpp_tuple(t, kind, mk):
    if isinstance(t, int):
        return f"Int<{t}>{{}}" if kind == "static" else f"int({t})"
    return f"{mk}(" + ", ".join(cpp_tuple(x, kind, mk) for x in t) + ")"


def cpp_layout(s, kind):
    sh, st = parse_layout(s)
    return f"make_layout({cpp_tuple(sh, kind, 'make_shape')}, {cpp_tuple(st, kind, 'make_stride')})"


def cpp_b(s, kind):
    if s.startswith("<"):
        return "make_tile(" + ", ".join(cpp_layout(p, kind) for p in split_top(s)) + ")"
    if ":" in s:
        return cpp_layout(s, kind)
    sh, _ = parse_tuple(s, 0)
    return cpp_tuple(sh, kind, "make_shape")


def emit(path, cases, refused):
    lines = ["#include <cute/layout.hpp>", "#include <cstdio>", "#include <cstdlib>", "using namespace cute;"]
    where = {}
    for n, kind, op, a, b in cases:
        if n in refused:
            body = f'std::printf("{n}\\tREFUSED\\n");'
        else:
            body = (f"auto a = {cpp_layout(a, kind)}; auto b = {cpp_b(b, kind)}; "
                    f'std::printf("{n}\\t"); print({op}(a, b)); std::printf("\\n");')
        lines.append(f"static void f{n}() {{ {body} }}")
        where[len(lines)] = n
    lines.append("static void (*const cases[])() = {")
    for n, *_ in cases:
        lines.append(f"  f{n},")
    lines.append("};")
    lines.append("int main(int argc, char** argv) {")
    lines.append("  int start = argc > 1 ? std::atoi(argv[1]) : 0;")
    lines.append("  for (int k = start; k < int(sizeof(cases) / sizeof(cases[0])); ++k) {")
    lines.append('    std::printf("%d\\t", k); std::fflush(stdout); cases[k](); std::fflush(stdout);')
    lines.append("  }")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return where


def cute(args):
    cases = read_cases(args.out)
    flags = ["-O0", "-std=c++17", "-w", "-I", f"{WORK}/stub", "-I", f"{WORK}/nvidia/cuda_cccl/include",
             "-I", f"{WORK}/cutlass_library/source/include"]
    out_path = os.path.join(args.out, "cute.tsv")
    done = set()
    if os.path.exists(out_path):
        done = {int(l.split("\t")[0]) for l in open(out_path)}
    todo = [c for c in cases if c[0] not in done]
    reasons_path = os.path.join(args.out, "refused.tsv")
    # What CuTe refuses in logical_X(A, B) it refuses in zipped_X, tiled_X
    # and flat_X (built on it), and blocked_product and raked_product call
    # the same logical_product: once g++ has reported an instantiation's
    # error it does not report it again for the next case that needs it, so
    # these are inferred rather than found one round at a time.
    group = {}
    for n, kind, op, a, b in todo:
        group.setdefault((kind, a, b, op.split("_")[1]), []).append((n, op))

    def inferred(n, kind, op, a, b, msg):
        out = {}
        for m, op2 in group[(kind, a, b, op.split("_")[1])]:
            if op.startswith("logical") and not op2.startswith(("blocked", "raked", "logical")):
                out[m] = "(as " + op + ") " + msg
            if op in PRODUCTS_L and op2 in PRODUCTS_L:
                out[m] = "(as " + op + ") " + msg
        return out

    by_id = {c[0]: c for c in todo}
    refused = {}
    for k in range(0, len(todo), args.batch):
        batch = todo[k:k + args.batch]
        cpp = os.path.join(args.out, "batch.cpp")
        exe = os.path.join(args.out, "batch")
        # Find the refused cases with -fsyntax-only (every static_assert is
        # reported, each after the chain of instantiations that ends at the
        # case's line), then build once.
        while True:
            where = emit(cpp, batch, refused)
            t = time.time()
            r = subprocess.run(["g++", *flags, "-fsyntax-only", "-ftemplate-backtrace-limit=0", cpp],
                               capture_output=True, text=True)
            dt = time.time() - t
            if r.returncode == 0:
                break
            bad = {}
            last = None
            for line in r.stderr.splitlines():
                for m in re.findall(r"batch\.cpp:(\d+):", line):
                    if int(m) in where:
                        last = where[int(m)]
                if "error:" in line and last is not None and last not in refused:
                    msg = line.split("error:", 1)[1].strip()
                    bad.setdefault(last, msg)
            if not bad:
                sys.stderr.write(r.stderr[-4000:])
                raise SystemExit("compile failed without a case line")
            for n, msg in bad.items():
                for m, msg2 in inferred(*by_id[n], msg).items():
                    refused.setdefault(m, msg2)
            refused.update(bad)
            print(f"  batch {k}: {len(bad)} refused ({dt:.0f}s)", flush=True)
        r = subprocess.run(["g++", *flags, cpp, "-o", exe], capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr[-4000:])
            raise SystemExit("build failed")
        # Each line is `k TAB n TAB result`; a case that crashes (CuTe's
        # run-time asserts) ends the run: it is recorded and the run resumes
        # after it.
        got = {}
        start = 0
        while start < len(batch):
            run = subprocess.run([exe, str(start)], capture_output=True, text=True)
            last = start - 1
            for line in run.stdout.split("\n")[:-1]:
                f = line.split("\t")
                if len(f) == 3:
                    got[int(f[1])] = f[2]
                    last = int(f[0])
            if run.returncode == 0:
                break
            crashed = last + 1
            msg = (run.stderr.strip().splitlines() or ["signal"])[-1]
            got[batch[crashed][0]] = "CRASHED " + msg
            start = crashed + 1
        with open(out_path, "a") as f:
            for n, *_ in batch:
                f.write(f"{n}\t{got.get(n, 'CRASHED')}\n")
        with open(reasons_path, "a") as f:
            for n, msg in sorted(refused.items()):
                if n not in {c[0] for c in batch}:
                    continue
                f.write(f"{n}\t{msg}\n")
        print(f"batch {k}..{k + len(batch)}: {sum(c[0] in refused for c in batch)} refused", flush=True)


def read_cases(out):
    cases = []
    for line in open(os.path.join(out, "cases.tsv")):
        n, kind, op, a, b = line.rstrip("\n").split("\t")
        cases.append((int(n), kind, op, a, b))
    return cases


def ours(args):
    cases = read_cases(args.out)
    inp = "".join(f"{op}({a}, {b})\n" for _, _, op, a, b in cases)
    r = subprocess.run([args.cute, "--batch"], input=inp, capture_output=True, text=True)
    outs = r.stdout.splitlines()
    assert len(outs) == len(cases), (len(outs), len(cases))
    with open(os.path.join(args.out, "ours.tsv"), "w") as f:
        for (n, *_), v in zip(cases, outs):
            f.write(f"{n}\t{v}\n")


# ---------------------------------------------------------------- judge

def idx2crd(i, shape):
    """Colexicographic coordinate of `i` in `shape` (last mode unbounded)."""
    if isinstance(shape, int):
        return i
    out = []
    for k, s in enumerate(shape):
        n = size(s)
        if k == len(shape) - 1:
            out.append(idx2crd(i, s))
        else:
            out.append(idx2crd(i % n, s))
            i //= n
    return tuple(out)


def crd2off(c, shape, stride):
    if isinstance(shape, int):
        return c * stride
    return sum(crd2off(x, s, d) for x, s, d in zip(c, shape, stride))


def evaluate(lay, i):
    sh, st = lay
    return crd2off(idx2crd(i, sh), sh, st)


def func(lay):
    return [evaluate(lay, i) for i in range(size(lay[0]))]


def profile(t):
    """The tree of `t` with each leaf (or sub-tree) reduced to its size."""
    if isinstance(t, int):
        return t
    return tuple(profile(x) for x in t)


def complement(lay, m):
    """The paper's complement of an injective layout with non-negative
    strides (3.5): the modes sorted by stride, each hole filled, the last
    mode up to `m`; None when the sorted modes do not nest."""
    modes = sorted((d, s) for s, d in zip(leaves(lay[0]), leaves(lay[1])) if s != 1 and d != 0)
    shape, stride, cur = [], [], 1
    for d, s in modes:
        if d % cur:
            return None
        shape.append(d // cur)
        stride.append(cur)
        cur = s * d
    shape.append(max(1, -(-m // cur)))
    stride.append(cur)
    return tuple(shape), tuple(stride)


def cosize(lay):
    return 1 + sum((s - 1) * d for s, d in zip(leaves(lay[0]), leaves(lay[1])))


def modes_of(lay):
    sh, st = lay
    if isinstance(sh, int):
        return [lay]
    return list(zip(sh, st))


def tiles(b):
    """The tiler `b` as a list of layouts (a shape's integers as n:1)."""
    if b.startswith("<"):
        return [parse_layout(p) if ":" in p else (int(p), 1) for p in split_top(b)]
    if ":" in b:
        return None
    sh, _ = parse_tuple(b, 0)
    if isinstance(sh, int):
        return None
    return [(n, 1) for n in sh]


def whole(b):
    """`b` as one layout: a layout, or an integer n as n:1."""
    return parse_layout(b) if ":" in b else (int(b), 1)


def pad(lay, r):
    ms = modes_of(lay)
    ms = ms + [(1, 0)] * (r - len(ms))
    return tuple(m[0] for m in ms), tuple(m[1] for m in ms)


def expected(op, a, b):
    """The reference: a list of parts in the result's colexicographic order
    (each `(size, f)`, f of the part's index), summed; None where the
    operation has no result by its definition (no complement)."""
    A = parse_layout(a)
    T = tiles(b)
    kind = op.split("_")[0]
    if op.endswith("product"):
        if op in PRODUCTS_L:
            B = parse_layout(b)
            r = max(len(modes_of(A)), len(modes_of(B)))
            A, B = pad(A, r), pad(B, r)
            star = complement(A, size(A[0]) * cosize(B))
            if star is None:
                return None
            am, bm = modes_of(A), modes_of(B)
            # One complement: the grid coordinates of all modes, read
            # together, then the tile's; in the result's order.
            parts = []
            for k in range(r):
                ta = ("a", k, size(am[k][0]))
                tb = ("b", k, size(bm[k][0]))
                parts += [ta, tb] if op == "blocked_product" else [tb, ta]
            def f(idx):
                ca = [0] * r
                cb = [0] * r
                for (w, k, _), x in zip(parts, idx):
                    (ca if w == "a" else cb)[k] = x
                va = sum(evaluate(am[k], ca[k]) for k in range(r))
                vb = sum(evaluate(bm[k], cb[k]) for k in range(r))
                return va + evaluate(star, vb)
            return [p[2] for p in parts], f
        pairs = [(A, whole(b))] if T is None else list(zip(modes_of(A), T))
        rest = [] if T is None else modes_of(A)[len(T):]
        groups = []
        for x, y in pairs:
            star = complement(x, size(x[0]) * cosize(y))
            if star is None:
                return None
            groups.append((size(x[0]), (lambda x: lambda i: evaluate(x, i))(x),
                           size(y[0]), (lambda y, st: lambda j: evaluate(st, evaluate(y, j)))(y, star)))
    else:
        pairs = [(A, whole(b))] if T is None else list(zip(modes_of(A), T))
        rest = [] if T is None else modes_of(A)[len(T):]
        groups = []
        for x, y in pairs:
            star = complement(y, size(x[0]))
            if star is None:
                return None
            groups.append((size(y[0]), (lambda x, y: lambda i: ("t", x, y, i))(x, y),
                           size(star[0]), (lambda x, st: lambda j: ("r", x, st, j))(x, star)))
    # Order: logical mode by mode, (t, r) pairs then the rest; zipped,
    # tiled, flat: the t parts, then the r parts, then the rest.
    sizes, fs = [], []
    if kind == "logical" or T is None:
        for g in groups:
            sizes += [g[0], g[2]]
            fs += [g[1], g[3]]
    else:
        sizes = [g[0] for g in groups] + [g[2] for g in groups]
        fs = [g[1] for g in groups] + [g[3] for g in groups]
    for m in rest:
        sizes.append(size(m[0]))
        fs.append((lambda m: lambda i: evaluate(m, i))(m))
    def f(idx):
        total = 0
        pend = {}
        for fn, x in zip(fs, idx):
            v = fn(x)
            if isinstance(v, tuple):
                tag, lay, other, i = v
                key = id(lay)
                pend.setdefault(key, [lay, 0])
                pend[key][1] += evaluate(other, i)
            else:
                total += v
        for lay, off in pend.values():
            total += evaluate(lay, off)
        return total
    return sizes, f


def matches(op, a, b, result):
    """Whether `result` (a layout's text) is the reference function of
    op(a, b) over the same domain; None where the reference is undefined."""
    ref = expected(op, a, b)
    if ref is None:
        return None
    sizes, f = ref
    lay = parse_layout(result)
    if size(lay[0]) != size(sizes):
        return False
    vals = func(lay)
    for i, v in enumerate(vals):
        idx, k = [], i
        for n in sizes:
            idx.append(k % n)
            k //= n
        if f(idx) != v:
            return False
    return True


def report(args):
    cases = {c[0]: c for c in read_cases(args.out)}
    cute_r = dict(l.rstrip("\n").split("\t") for l in open(os.path.join(args.out, "cute.tsv")))
    ours_r = dict(l.rstrip("\n").split("\t") for l in open(os.path.join(args.out, "ours.tsv")))
    from collections import Counter, defaultdict
    stats = defaultdict(Counter)
    diffs = []
    for n, (_, kind, op, a, b) in sorted(cases.items()):
        c = cute_r.get(str(n))
        o = ours_r.get(str(n))
        if c is None or o is None:
            continue
        key = (kind, op, "tiler" if b.startswith("<") or not ":" in b else "layout")
        stats[key]["compared"] += 1
        ok = not o.startswith("error")
        if c == "REFUSED":
            stats[key]["cute refused, ours answers" if ok else "cute refused, ours errors"] += 1
            continue
        if c.startswith("CRASHED"):
            stats[key]["cute crashed"] += 1
            continue
        cs = c.replace("_", "")
        if cs == o:
            stats[key]["equal"] += 1
            if args.check_equal:
                try:
                    m = matches(op, a, b, o)
                except Exception as e:
                    m = "judge failed: " + repr(e)
                stats[key][f"equal, right: {m}"] += 1
            continue
        if not ok:
            try:
                mc = matches(op, a, b, cs)
            except Exception as e:
                mc = "judge failed: " + repr(e)
            stats[key][f"ours errors, cute answers (CuTe right: {mc})"] += 1
            diffs.append((n, kind, op, a, b, o, c, f"ours-error; CuTe right: {mc}"))
            continue
        try:
            same_fn = func(parse_layout(cs)) == func(parse_layout(o))
        except Exception:
            same_fn = None
        tag = "same function" if same_fn else "different function"
        try:
            mo = matches(op, a, b, o) if ok else None
            mc = matches(op, a, b, cs)
        except Exception as e:
            mo = mc = "judge failed: " + repr(e)
        tag += f"; ours right: {mo}; CuTe right: {mc}"
        stats[key]["different, " + tag] += 1
        diffs.append((n, kind, op, a, b, o, c, tag))
    for key in sorted(stats):
        print(key, dict(stats[key]))
    with open(os.path.join(args.out, "diffs.tsv"), "w") as f:
        for d in diffs:
            f.write("\t".join(map(str, d)) + "\n")
    print(f"{len(diffs)} differences in {os.path.join(args.out, 'diffs.tsv')}")


def golden(args):
    """The golden file of the static cases: `expr TAB CuTe's text`, marked
    by what the judge says of CuTe's answer: `=` right (or both agree where
    the paper's complement is not defined), `!` wrong (ours must not print
    it), `-` refused at compile time (TAB ours: an answer or `error`), `~`
    right but ours another text of the same function (TAB ours: a
    difference to remove, which golden_algebra reports as a failure)."""
    rows = {}
    for d in args.dirs:
        cases = read_cases(d)
        cute_r = dict(l.rstrip("\n").split("\t") for l in open(os.path.join(d, "cute.tsv")))
        ours_r = dict(l.rstrip("\n").split("\t") for l in open(os.path.join(d, "ours.tsv")))
        for n, kind, op, a, b in cases:
            c = cute_r.get(str(n))
            if kind != "static" or c is None or c.startswith("CRASHED"):
                continue
            expr = f"{op}({a}, {b})"
            o = ours_r[str(n)]
            if c == "REFUSED":
                rows[expr] = ("-", "error" if o.startswith("error") else o)
                continue
            cs = c.replace("_", "")
            m = matches(op, a, b, cs)
            if m is None and cs != o:
                continue
            if m is not False and cs != o:
                # CuTe right and ours another text of the same function:
                # kept as ours, to be read beside CuTe's.
                rows[expr] = ("~", cs + "\t" + o)
                continue
            rows[expr] = ("=" if m is not False else "!", cs)
    with open(args.golden, "w") as f:
        f.write("# CuTe C++ 4.2 on random static products and divides: mark TAB expression TAB text.\n"
                "# '=' CuTe's text (right), '!' CuTe's text that is not the operation's function,\n"
                "# '-' refused by CuTe at compile time (then the text is ours, or 'error'),\n"
                "# '~' CuTe's text (right) TAB ours, another text of the same function (a failure of golden_algebra).\n"
                "# Written by benches/cute_cpp/algebra_parity.py golden: do not edit.\n")
        for expr, (mark, t) in sorted(rows.items()):
            f.write(f"{mark}\t{expr}\t{t}\n")
    from collections import Counter
    print(Counter(m for m, _ in rows.values()))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("cmd", choices=["gen", "cute", "ours", "report", "golden"])
    p.add_argument("out", help="the cases' directory (golden: the golden file to write)")
    p.add_argument("dirs", nargs="*", help="golden: the cases' directories")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--n", type=int, default=400)
    p.add_argument("--batch", type=int, default=300)
    p.add_argument("--cute", default="cute")
    p.add_argument("--no-shapes", action="store_true", help="gen: no integer or shape tilers")
    p.add_argument("--products", action="store_true", help="gen: products only")
    p.add_argument("--nested", action="store_true", help="gen: also nested tilers of nested layouts")
    p.add_argument("--check-equal", action="store_true", help="judge the equal results too")
    args = p.parse_args()
    if args.cmd == "golden":
        args.golden = args.out
    {"gen": gen, "cute": cute, "ours": ours, "report": report, "golden": golden}[args.cmd](args)


if __name__ == "__main__":
    main()
