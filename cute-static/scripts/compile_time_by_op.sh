#!/usr/bin/env bash
# Compile-time cost of each operation of the static algebra, now against a
# baseline commit: the agreement file of BASE (tests/tests/static_agreement.rs
# as it was there), cut into one file per operation (its "/// N cases of"
# block with the file's header), each built alone against BASE's crates and
# against the working tree's, as a debug test build (opt-level 0),
# non-incrementally; the best of 3 builds. Prints per operation the cases,
# the milliseconds per case (the build less that of the header alone) on
# each side, and the change.
#
#   bash cute-static/scripts/compile_time_by_op.sh            # BASE = before run-time leaves
#   bash cute-static/scripts/compile_time_by_op.sh <commit>
#
# Needs two checkouts' debug builds (their own target dirs under the temp
# dir): about 10 minutes on 2 cores. Run nothing else meanwhile.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
base="${1:-d5900ed^}"
tmp=$(mktemp -d)
cleanup() {
    git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
    git -C "$root" worktree remove --force "$tmp/head" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
git -C "$root" worktree add -q --detach "$tmp/base" "$base"
git -C "$root" worktree add -q --detach "$tmp/head" HEAD
# The working tree's crates, uncommitted changes included.
(cd "$root" && git diff HEAD) | (cd "$tmp/head" && git apply --allow-empty)
git -C "$root" show "$base:tests/tests/static_agreement.rs" > "$tmp/agreement.rs"
python3 - "$tmp" <<'PY'
import re, sys
d = sys.argv[1]
s = open(d + "/agreement.rs").read()
head = s[:s.index("/// ")]
names = ["none"]
open(d + "/op_none.rs", "w").write(head + "\n#[test]\nfn none() {\n    let _ = check;\n}\n")
for block in re.split(r"\n(?=/// \d+ cases)", s[s.index("/// "):]):
    name = re.search(r"fn agree_(\w+)", block).group(1)
    names.append(name)
    open(f"{d}/op_{name}.rs", "w").write(head + "\n" + block)
open(d + "/names", "w").write(" ".join(names))
PY
export CARGO_INCREMENTAL=0 CARGO_PROFILE_TEST_OPT_LEVEL=0
best_of_3() { # checkout, operation -> seconds
    local f="$1/tests/tests/static_agreement.rs" best=999 s e
    cp "$tmp/op_$2.rs" "$f"
    (cd "$1" && CARGO_TARGET_DIR="$1/target" cargo test -q -p cute-tests --test static_agreement --no-run >/dev/null 2>&1)
    for _ in 1 2 3; do
        sleep 1
        touch "$f"
        s=$(date +%s.%N)
        (cd "$1" && CARGO_TARGET_DIR="$1/target" cargo test -q -p cute-tests --test static_agreement --no-run >/dev/null 2>&1)
        e=$(date +%s.%N)
        best=$(echo "$e - $s" | bc | awk -v b="$best" '{ print ($1 < b) ? $1 : b }')
    done
    echo "$best"
}
echo "| operation | cases | $base (ms/case) | now (ms/case) | change |"
echo "|---|---|---|---|---|"
b0=$(best_of_3 "$tmp/base" none)
h0=$(best_of_3 "$tmp/head" none)
for op in $(cat "$tmp/names"); do
    [ "$op" = none ] && continue
    n=$(grep -c 'case!(' "$tmp/op_$op.rs")
    b=$(best_of_3 "$tmp/base" "$op")
    h=$(best_of_3 "$tmp/head" "$op")
    awk -v op="$op" -v n="$n" -v b="$b" -v b0="$b0" -v h="$h" -v h0="$h0" 'BEGIN {
        x = (b - b0) * 1000 / n; y = (h - h0) * 1000 / n
        printf "| %s | %d | %.1f | %.1f | %+.0f%% |\n", op, n, x, y, (y / x - 1) * 100 }'
done
echo "(header alone: $b0 s at $base, $h0 s now)"
