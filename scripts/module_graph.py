#!/usr/bin/env python3
"""Prints the module import graph of cute-dynamic and cute-static and its cycles.

A module is a file under `<crate>/src` (`detail/divide.rs` is `detail::divide`,
`composition/mixed.rs` is `composition::mixed`, `lib.rs` is left out: it only
declares and re-exports). An edge `a -> b` means a's source names `crate::b`
(in a `use` or a path), doc comments and comments excluded; a path through
a re-export (`crate::detail::RankProduct`, re-exported by `detail/mod.rs`)
counts as an edge to the re-exporting module. A cycle is a strongly
connected component of more than one module.

Usage: scripts/module_graph.py [--graph]   (exit 1 when a crate has a cycle, or a
lower layer (LAYERS) imports from above it)

docs/architecture.md describes the intended layers (modules import downwards
only); .ci/run runs this script, so a new cycle fails CI.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRATES = ["cute-dynamic", "cute-static"]
# Lower layers: (crate, prefix, the modules below it, enforced) — a module
# under the prefix may import only modules under it and those below it.
# cute-dynamic's `kernel` is the `core`-only layer both crates' run-time
# algebra calls; cute-static's `detail` is the type-level solver, which may
# build on the tuple and layout types only; cute-static's `run_time` is the
# run-time support (leaf values between layout types and flat buffers, the
# padded form), which may build on those and on `detail`, not on the
# concept files whose run-time paths use it.
LAYERS = [
    ("cute-dynamic", "kernel", [], True),
    ("cute-static", "detail", ["int_tuple", "layout", "arity"], True),
    ("cute-static", "run_time", ["int_tuple", "layout", "arity", "detail"], True),
]


def modules(src: Path) -> dict:
    mods = {}
    for f in sorted(src.rglob("*.rs")):
        rel = f.relative_to(src).with_suffix("")
        parts = list(rel.parts)
        if parts == ["lib"]:
            continue
        if parts[-1] == "mod":
            parts = parts[:-1]
        mods["::".join(parts)] = f
    return mods


def code_of(text: str) -> str:
    """The text without comments (line comments, doc comments, blocks)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def edges(mods: dict) -> dict:
    names = sorted(mods, key=len, reverse=True)
    graph = {m: set() for m in mods}
    for m, f in mods.items():
        code = code_of(f.read_text())
        # `crate::a::b::Item` and `use crate::{a::X, b}`: every path after `crate::`.
        paths = re.findall(r"crate::([a-z_][a-z0-9_]*(?:::[a-z_][a-z0-9_]*)*)", code)
        for group in re.findall(r"crate::\{([^}]*)\}", code):
            paths += [p.strip() for p in group.split(",")]
        for p in paths:
            target = next((n for n in names if p == n or p.startswith(n + "::")), None)
            if target and target != m and not m.startswith(target + "::"):
                graph[m].add(target)
    return graph


def cycles(graph: dict) -> list:
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main(argv) -> int:
    found = 0
    for crate in CRATES:
        graph = edges(modules(ROOT / crate / "src"))
        if "--graph" in argv:
            print(f"# {crate}")
            for m in sorted(graph):
                print(f"{m} -> {', '.join(sorted(graph[m])) or '(nothing)'}")
        cs = cycles(graph)
        found += len(cs)
        print(f"{crate}: {len(graph)} modules, {sum(len(e) for e in graph.values())} imports, {len(cs)} cycles")
        for c in cs:
            print("  cycle: " + " <-> ".join(c))
        for lc, prefix, below, enforced in LAYERS:
            if lc != crate:
                continue
            inside = lambda m: m == prefix or m.startswith(prefix + "::")
            for m in sorted(graph):
                up = sorted(
                    t
                    for t in graph[m]
                    if inside(m) and not inside(t) and not any(t == b or t.startswith(b + "::") for b in below)
                )
                if up:
                    found += enforced
                    kind = "layer" if enforced else "layer (reported, not enforced)"
                    print(f"  {kind}: {m} (under `{prefix}`) imports {', '.join(up)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
