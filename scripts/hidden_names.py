#!/usr/bin/env python3
"""Fails when a test, example, benchmark or doc example names a hidden item of cute-static.

cute-static's type-level machinery is `#[doc(hidden)]`: users write macros
and call functions, and every bound they may need to write has a public,
documented name (`Compose`, `TensorLayout`, `RecastTarget`, ...). The
tests, examples and benchmarks are written as users write, so none of
them names a hidden item by path (`cute_static::Name`, or `Name` in a
`use cute_static::{...}` list); nor do the examples in the docs of
cute-static itself (its `///` and `//!` lines).

A hidden item is a `pub` trait, struct, enum, type or fn of `cute-static/src`
whose declaration is preceded by `#[doc(hidden)]` (its doc comment and
other attributes may stand between). A name that is also declared public
and documented elsewhere in the crate (two items of one name in two
modules) is left out: the path alone does not say which one is meant.
Error snapshots (`.stderr`) are not read: rustc names hidden traits there.

Usage: scripts/hidden_names.py   (exit 1 and the offending lines when one is named)
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USERS = ["tests", "ui-tests", "benches", "examples", "cute-static/examples", "cute-cli"]
ITEM = re.compile(r"^\s*pub (?:trait|struct|enum|type|fn|const) ([A-Za-z_][A-Za-z0-9_]*)")


def declared_names():
    """(hidden, public): the names declared `pub` with and without `#[doc(hidden)]`."""
    hidden, public = set(), set()
    for path in (ROOT / "cute-static/src").rglob("*.rs"):
        pending, in_attr = False, False
        for line in path.read_text().splitlines():
            s = line.strip()
            if s.startswith("#[doc(hidden)]"):
                pending = True
                continue
            # The lines of an attribute over several lines (an
            # `on_unimplemented` between `#[doc(hidden)]` and the item).
            if in_attr or (s.startswith("#[") and not s.endswith("]")):
                in_attr = not s.endswith(")]")
                continue
            m = ITEM.match(line)
            if m:
                (hidden if pending else public).add(m.group(1))
                pending = False
            elif not (s.startswith("#[") or s.startswith("///") or s.startswith("//") or s == ""):
                pending = False
    return hidden - public


def main():
    hidden = declared_names()
    path_use = re.compile(r"cute_static::(?:[a-z_]+::)*([A-Za-z_][A-Za-z0-9_]*)")
    list_use = re.compile(r"use cute_static::(?:[a-z_]+::)*\{([^}]*)\}", re.S)
    found = []

    def scan(path, text, line_of):
        names = {(m.group(1), m.start()) for m in path_use.finditer(text)}
        for m in list_use.finditer(text):
            for n in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", m.group(1)):
                names.add((n, m.start()))
        for name, at in sorted(names):
            if name in hidden:
                found.append(f"{path.relative_to(ROOT)}:{line_of(at)}: names the hidden `{name}`")

    for d in USERS:
        base = ROOT / d
        if not base.is_dir():
            continue
        for path in base.rglob("*.rs"):
            if "target" in path.parts:
                continue
            text = path.read_text()
            scan(path, text, lambda at, text=text: text.count("\n", 0, at) + 1)
    # The docs' examples: each doc line alone (a `use` list in a doctest
    # stays on one line).
    for path in (ROOT / "cute-static/src").rglob("*.rs"):
        for k, line in enumerate(path.read_text().splitlines(), 1):
            s = line.strip()
            if s.startswith("///") or s.startswith("//!"):
                scan(path, s[3:], lambda at, k=k: k)
    if found:
        print("\n".join(found))
        print(f"{len(found)} use(s) of hidden items: give the bound a public, documented name", file=sys.stderr)
        return 1
    print(f"no test, example, benchmark or doc example names one of cute-static's {len(hidden)} hidden items")
    return 0


if __name__ == "__main__":
    sys.exit(main())
