#!/usr/bin/env python3
"""Fails when a public signature of cute-static or cute-dynamic names a hidden item.

A user who writes generic code around a function of ours copies its
bounds and its result type: every trait, type and marker they name must
have a documented page of its own. This script reads each crate's API as
rustdoc sees it (rustdoc's JSON output), finds the items a reader can
reach from the crate root, and lists every reachable function and method
(with the bounds of its inherent impl), struct and associated type whose
generics, bounds, arguments or result name an item of the same crate that is not reachable
(one marked `#[doc(hidden)]`, or re-exported under `#[doc(hidden)]`).

Not read, as users do not copy them: internal methods of a public trait
(marked `#[doc(hidden)]` themselves); a public trait's supertraits and a
public alias's definition (`Idx2Crd: ShapeCoords` and `NaturalCoord<S>`
are the public names of a hidden bound and its output); the bounds of
trait impls (a user bounds by the trait).

rustdoc's JSON output is unstable; the script runs the stable toolchain's
rustdoc with `RUSTC_BOOTSTRAP=1` into its own target directory
(`target/doc-json`), so it needs no nightly toolchain and leaves the
workspace's build alone.

cute-dynamic has no type-level machinery; it is read too, so that its
macro-support items (`#[doc(hidden)]`) stay out of its signatures.

Usage: scripts/public_signatures.py [--json FILE]   (exit 1 and the list when one is named)
"""

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


CRATES = ["cute-static", "cute-dynamic"]


def build_json(package):
    target = ROOT / "target" / "doc-json"
    env = dict(os.environ, RUSTC_BOOTSTRAP="1", CARGO_TARGET_DIR=str(target))
    cargo = os.environ.get("CARGO", "cargo")
    cmd = [cargo, "rustdoc", "-q", "-p", package, "--", "-Z", "unstable-options", "--output-format", "json"]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)
    return target / "doc" / (package.replace("-", "_") + ".json")


def reachable(index, root):
    """The ids a reader reaches from the crate root: public modules, and
    re-exports not marked hidden (rustdoc drops those), with the items of
    reached traits and impls of reached types."""
    seen = set()
    stack = [str(root)]
    while stack:
        i = stack.pop()
        if i in seen or i not in index:
            continue
        seen.add(i)
        kind, inner = next(iter(index[i]["inner"].items()))
        if kind == "module":
            # A private module reached through a `use` of a function of the
            # same name (`pub use crate::coalesce` in the prelude names both
            # the function and the private `mod coalesce`): rustdoc gives it
            # no page.
            if i != str(root) and index[i].get("visibility") != "public":
                continue
            stack += map(str, inner["items"])
        elif kind == "use" and inner.get("id") is not None:
            stack.append(str(inner["id"]))
        elif kind in ("trait", "impl"):
            stack += map(str, inner["items"])
        elif kind in ("struct", "enum", "union"):
            stack += map(str, inner.get("impls", []))
    return seen


def named_ids(node, out):
    """The ids of the paths and traits `node` (a piece of a signature) names."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("resolved_path", "trait") and isinstance(value, dict) and "id" in value:
                out.append((value["id"], value.get("path", "")))
            named_ids(value, out)
    elif isinstance(node, list):
        for value in node:
            named_ids(value, out)


def run(check, crates):
    """`check(json_path, crate)` of the JSON given by `--json FILE`, or of
    each of `crates`' JSON, built; 1 when any check fails."""
    args = sys.argv[1:]
    if args[:1] == ["--json"]:
        return check(Path(args[1]), Path(args[1]).stem)
    failed = 0
    for package in crates:
        failed |= check(build_json(package), package)
    return failed


def main():
    return run(check, CRATES)


def check(path, crate):
    doc = json.loads(path.read_text())
    index = doc["index"]
    visible = reachable(index, doc["root"])
    names = {}
    for i, p in doc["paths"].items():
        names[i] = "::".join(p["path"])

    # Methods of trait impls have the trait's signature: the trait's page
    # is what a user reads.
    in_trait_impl = set()
    for i in visible:
        kind, inner = next(iter(index[i]["inner"].items()))
        if kind == "impl" and inner.get("trait") is not None:
            in_trait_impl.update(map(str, inner["items"]))

    found = defaultdict(set)
    for i in visible - in_trait_impl:
        item = index[i]
        if item["crate_id"] != 0:
            continue
        kind, inner = next(iter(item["inner"].items()))
        if kind == "impl":
            # A trait impl's bounds are how it is implemented: a user
            # bounds by the trait. An inherent impl's bounds are the
            # methods' bounds.
            if inner.get("trait") is not None:
                continue
            sig = {k: inner[k] for k in ("generics", "for")}
        elif kind == "function":
            sig = inner
        elif kind in ("struct", "enum"):
            sig = {"generics": inner["generics"]}
        elif kind == "assoc_type":
            # `type Output: Bound` of a public trait: on the trait's page.
            sig = {k: inner[k] for k in ("generics", "bounds") if k in inner}
        else:
            continue
        refs = []
        named_ids(sig, refs)
        for ref, text in refs:
            r = str(ref)
            # rustdoc drops hidden items from both tables; other crates'
            # items are in `paths`.
            if r in index:
                local = index[r]["crate_id"] == 0
            else:
                local = r not in doc["paths"] or doc["paths"][r]["crate_id"] == 0
            if not local or r in visible:
                continue
            span = item.get("span") or {}
            where = f"{span.get('filename', '?')}:{(span.get('begin') or ['?'])[0]}"
            name = text.split("::")[-1] or names.get(r, f"#{r}").split("::")[-1]
            if r in index and index[r].get("name"):
                name = index[r]["name"]
            found[name].add(f"{item.get('name') or kind} ({where})")

    if not found:
        print(f"no public signature of {crate} names a hidden item ({len(visible)} reachable items)")
        return 0
    total = sum(len(v) for v in found.values())
    print(f"{total} public signatures of {crate} name a hidden item:")
    for name, users in sorted(found.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"  {name}: {len(users)}")
        for u in sorted(users):
            print(f"    {u}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
