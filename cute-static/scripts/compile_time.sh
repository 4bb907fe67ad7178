#!/usr/bin/env bash
# Compile-time cost of the static algebra, measured on the agreement test.
# Builds tests/tests/static_agreement.rs (all cases), a variant holding only
# its composition cases, and a baseline without cases, non-incrementally,
# with `cargo build` (debug: the test profile at opt-level 0), `cargo check`
# and `cargo build --release`; prints the wall time of the cute-tests
# compilation of that file for each, in wall seconds and in CPU seconds
# (user + system). The file is restored on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
f=tests/tests/static_agreement.rs
tmp=$(mktemp -d)
cp "$f" "$tmp/full.rs"
trap 'cp "$tmp/full.rs" "$f"' EXIT
python3 - "$tmp" <<'PY'
import re, sys
d = sys.argv[1]
s = open(d + "/full.rs").read()
head = s[:s.index("/// ")]
blocks = re.split(r"\n(?=/// \d+ cases)", s[s.index("/// "):])
comp = "\n".join(b for b in blocks if "fn agree_composition" in b)
open(d + "/comp.rs", "w").write(head + "\n" + comp)
open(d + "/base.rs", "w").write(head + "\n#[test]\nfn none() {\n    let _ = check;\n}\n")
PY
export CARGO_INCREMENTAL=0
run() { # variant, cargo args...
    cp "$tmp/$1.rs" "$f"
    shift
    cargo "$@" -q -p cute-tests --test static_agreement >/dev/null 2>&1 || true
    touch "$f"
    # Wall time, and CPU time (user + system) of cargo and rustc, which is
    # steadier on a shared machine but counts rustc's parallel codegen.
    local TIMEFORMAT='%3R %3U %3S' t
    t=$( { time cargo "$@" -q -p cute-tests --test static_agreement >/dev/null 2>&1; } 2>&1 )
    echo "$t" | awk -v w="$WHICH" '{ if (w == "wall") printf "%.3f", $1; else printf "%.3f", $2 + $3 }'
}
for mode in "debug:test --no-run" "check:check" "release:test --release --no-run"; do
    name=${mode%%:*}
    args=${mode#*:}
    if [ "$name" = debug ]; then export CARGO_PROFILE_TEST_OPT_LEVEL=0; else unset CARGO_PROFILE_TEST_OPT_LEVEL; fi
    nc=$(grep -c 'case!(' "$tmp/comp.rs"); na=$(grep -c 'case!(' "$tmp/full.rs")
    for WHICH in wall cpu; do
        b=$(run base $args); c=$(run comp $args); a=$(run full $args)
        echo "$name ($WHICH s): baseline ${b}s; $nc compositions ${c}s ($(echo "scale=2; ($c - $b) * 1000 / $nc" | bc) ms each); all $na cases ${a}s ($(echo "scale=2; ($a - $b) * 1000 / $na" | bc) ms each)"
    done
done
