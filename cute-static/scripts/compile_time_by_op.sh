#!/usr/bin/env bash
# Compile-time cost of each operation of the static algebra, now against a
# baseline commit: the agreement file of BASE (tests/tests/static_agreement.rs
# as it was there), cut into one file per operation (its "/// N cases of"
# block with the file's header), each built alone (as the only module of the
# cross-crate test binary) against BASE's crates and
# against the working tree's, as a debug test build (opt-level 0),
# non-incrementally; the best of 3 builds. Prints per operation the cases,
# the milliseconds per case (the build less that of the header alone) on
# each side, and the change.
#
#   bash cute-static/scripts/compile_time_by_op.sh            # BASE = before run-time leaves
#   bash cute-static/scripts/compile_time_by_op.sh <commit>
#   MEASURE=instructions bash cute-static/scripts/compile_time_by_op.sh
#   OPS="composition filter" bash cute-static/scripts/compile_time_by_op.sh  # some operations only
#
# MEASURE=instructions counts instead the instructions rustc executes to
# compile each file (callgrind; rustc alone, without the linker): the same
# to 0.1 % from run to run, where wall-clock figures of small files move by
# up to 30 %. Millions of instructions per case, then.
#
# Needs two checkouts' debug builds (their own target dirs under the temp
# dir): about 10 minutes on 2 cores (about 30 with MEASURE=instructions,
# which needs valgrind). Run nothing else meanwhile when timing.
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
first = re.search(r"\n/// \d+ cases", s).start() + 1
head = s[:first]
names = ["none"]
open(d + "/op_none.rs", "w").write(head + "\n#[test]\nfn none() {\n    let _ = check;\n}\n")
# The case blocks only: the file may end with a module of expressions the
# algebra rejects (assert_not_impl_any), which is not an operation's cost,
# and whose verdicts changed where the algebra grew (a stride-0 mode).
cases = s[first:]
cut = re.search(r"\n(//[^\n]*\n)*mod rejected", cases)
if cut:
    cases = cases[:cut.start()] + "\n"
for block in re.split(r"\n(?=/// \d+ cases)", cases):
    name = re.search(r"fn agree_(\w+)", block).group(1)
    names.append(name)
    open(f"{d}/op_{name}.rs", "w").write(head + "\n" + block)
open(d + "/names", "w").write(" ".join(names))
PY
export CARGO_INCREMENTAL=0 CARGO_PROFILE_TEST_OPT_LEVEL=0
# The cross-crate tests are one binary (`cross_crate`, tests/tests/main.rs):
# in both checkouts it is cut down to the agreement module alone.
for c in "$tmp/base" "$tmp/head"; do
    echo "mod static_agreement;" > "$c/tests/tests/main.rs"
done
no_compile() { # checkout, operation: a file that does not compile has no cost to report
    echo "the $2 part of the agreement file does not compile in $1" >&2
    exit 1
}
build() { # checkout, operation
    (cd "$1" && CARGO_TARGET_DIR="$1/target" cargo test -q -p cute-tests --test cross_crate --no-run >/dev/null 2>&1) \
        || no_compile "$1" "$2"
}
best_of_3() { # checkout, operation -> seconds
    local f="$1/tests/tests/static_agreement.rs" best=999 s e
    cp "$tmp/op_$2.rs" "$f"
    build "$1" "$2"
    for _ in 1 2 3; do
        sleep 1
        touch "$f"
        s=$(date +%s.%N)
        (cd "$1" && CARGO_TARGET_DIR="$1/target" cargo test -q -p cute-tests --test cross_crate --no-run >/dev/null 2>&1)
        e=$(date +%s.%N)
        best=$(echo "$e - $s" | bc | awk -v b="$best" '{ print ($1 < b) ? $1 : b }')
    done
    echo "$best"
}
instructions() { # checkout, operation -> thousands of instructions of rustc
    local f="$1/tests/tests/static_agreement.rs" log cmd
    cp "$tmp/op_$2.rs" "$f"
    touch "$f"
    # The test file's rustc command as cargo runs it (one build, which also
    # says whether the part compiles), without JSON output.
    log=$(cd "$1" && CARGO_TARGET_DIR="$1/target" cargo test -v -p cute-tests --test cross_crate --no-run 2>&1) \
        || no_compile "$1" "$2"
    cmd=$(printf '%s\n' "$log" | sed -n 's/^ *Running `\(.*--crate-name cross_crate .*\)`$/\1/p' | tail -1 \
        | sed 's/--error-format=json --json=[^ ]*//')
    (cd "$1" && eval "valgrind --tool=callgrind --callgrind-out-file=/dev/null $cmd" 2>&1) \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | awk '{ printf "%d", $1 / 1000 }'
}
# Per case: seconds x 1000 = ms, thousands of instructions / 1000 = millions.
if [ "${MEASURE:-time}" = instructions ]; then
    measure=instructions unit="M instructions/case" scale=0.001
else
    measure=best_of_3 unit="ms/case" scale=1000
fi
echo "| operation | cases | $base ($unit) | now ($unit) | change |"
echo "|---|---|---|---|---|"
b0=$($measure "$tmp/base" none)
h0=$($measure "$tmp/head" none)
for op in ${OPS:-$(cat "$tmp/names")}; do
    [ "$op" = none ] && continue
    n=$(grep -c 'case!(' "$tmp/op_$op.rs")
    b=$($measure "$tmp/base" "$op")
    h=$($measure "$tmp/head" "$op")
    awk -v op="$op" -v n="$n" -v b="$b" -v b0="$b0" -v h="$h" -v h0="$h0" -v k="$scale" 'BEGIN {
        x = (b - b0) * k / n; y = (h - h0) * k / n
        printf "| %s | %d | %.2f | %.2f | %+.1f%% |\n", op, n, x, y, (y / x - 1) * 100 }'
done
echo "(header alone: $b0 at $base, $h0 now; $measure)"
