#!/usr/bin/env python3
"""Fails when a public item of cute-static, cute-dynamic or cute-macros has no example.

Every function, method, struct, enum, trait, type alias and macro a reader
can reach from a crate's root must show its use in a doctest (a fenced
code block in its doc comment), which `cargo test --doc` runs. The items
are found as `public_signatures.py` finds them, from rustdoc's JSON output
(stable rustdoc with `RUSTC_BOOTSTRAP=1`, in `target/doc-json`).

Not read: methods of trait impls (their page is the trait's, whose
declarations are read), constants and associated constants and types (a
value or a name, said by their one line of docs), fields, variants and
modules.

Usage: scripts/public_examples.py [--json FILE]   (exit 1 and the list when an item has none)
"""

import json
import re
import sys

from public_signatures import reachable, run

CRATES = ["cute-static", "cute-dynamic", "cute-macros"]

# The kinds of item that need an example.
KINDS = {"function", "struct", "enum", "union", "trait", "type_alias", "macro", "proc_macro"}

# The attributes of a fenced block that rustdoc runs (or compiles) as Rust.
RUST_ATTRS = {"rust", "no_run", "should_panic", "compile_fail"}
# The error code a `compile_fail` block expects (`compile_fail,E0277`).
ERROR_CODE = re.compile(r"E\d{4}")


def has_example(docs):
    """A fenced code block that `cargo test --doc` runs: ```` ``` ```` or one
    whose attributes are Rust's (`rust`, `no_run`, `should_panic`,
    `compile_fail` with its error code, `edition…`), not `text` or
    `ignore`."""
    inside = False
    for line in docs.splitlines():
        fence = line.strip()
        if not fence.startswith("```"):
            continue
        if inside:
            inside = False
            continue
        inside = True
        attrs = [a.strip() for a in fence.strip("`").split(",") if a.strip()]
        if all(a in RUST_ATTRS or a.startswith("edition") or ERROR_CODE.fullmatch(a) for a in attrs):
            return True
    return False


def check(path, crate):
    doc = json.loads(path.read_text())
    index = doc["index"]
    visible = reachable(index, doc["root"])
    in_trait_impl = set()
    for i in visible:
        kind, inner = next(iter(index[i]["inner"].items()))
        if kind == "impl" and inner.get("trait") is not None:
            in_trait_impl.update(map(str, inner["items"]))

    missing = []
    counted = 0
    for i in visible - in_trait_impl:
        item = index[i]
        kind = next(iter(item["inner"]))
        if item["crate_id"] != 0 or kind not in KINDS:
            continue
        counted += 1
        if not has_example(item.get("docs") or ""):
            span = item.get("span") or {}
            where = f"{span.get('filename', '?')}:{(span.get('begin') or ['?'])[0]}"
            missing.append(f"{kind} {item.get('name')} ({where})")

    if not missing:
        print(f"every public item of {crate} has an example ({counted} items)")
        return 0
    print(f"{len(missing)} of {counted} public items of {crate} have no example:")
    for m in sorted(missing, key=lambda s: s.split("(")[-1]):
        print(f"  {m}")
    return 1


if __name__ == "__main__":
    sys.exit(run(check, CRATES))
