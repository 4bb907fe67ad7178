#!/usr/bin/env bash
# Writes tests/golden/cute_left_inverse.txt from CuTe itself: builds
# left_inverse.cpp against CuTe's headers (downloaded by run.sh,
# HEADERS_ONLY=1), checks that each layout it marks as refused really fails
# to compile with CuTe's "Left inverse divisibility condition", and adds to
# each line the answer of pycute, CuTe's Python model (shipped in the same
# nvidia-cutlass wheel), whose `left_inverse` is the earlier construction
# `right_inverse(make_layout(L, complement(L)))`.
#
#   bash benches/cute_cpp/left_inverse.sh
#   CUTE_CPP=/path/to/target/cute_cpp bash benches/cute_cpp/left_inverse.sh
#
# Each line of the golden file: CuTe's print of L, CuTe C++'s left_inverse
# of L (`-`: refused at compile time), pycute's (`-`: it raises), separated
# by tabs; pycute's text has its blanks taken out.
#
# Needs g++ and python3 (and, the first time, pip and network access for the
# headers).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="${CUTE_CPP:-$root/target/cute_cpp}"
if [ -z "${CUTE_CPP:-}" ]; then HEADERS_ONLY=1 bash "$here/run.sh"; fi
flags=(-O0 -std=c++17 -I "$work/stub" -I "$work/nvidia/cuda_cccl/include" -I "$work/cutlass_library/source/include")
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
g++ "${flags[@]}" "$here/left_inverse.cpp" -o "$tmp/left_inverse"
"$tmp/left_inverse" >"$tmp/cute.txt"

# Every `-` is CuTe's refusal: the same program, calling left_inverse on it,
# must not compile.
refused=$(grep -c $'\t-$' "$tmp/cute.txt" || true)
for ((i = 0; i < refused; i++)); do
  if g++ "${flags[@]}" -DREFUSED="$i" -fsyntax-only "$here/left_inverse.cpp" 2>"$tmp/err.txt"; then
    echo "refused case $i compiles: CuTe has an answer for it" >&2
    exit 1
  fi
  grep -q "Left inverse divisibility condition" "$tmp/err.txt" || {
    echo "refused case $i fails to compile for another reason:" >&2
    head -20 "$tmp/err.txt" >&2
    exit 1
  }
done

golden="$root/tests/golden/cute_left_inverse.txt"
PYTHONPATH="$work" python3 - "$tmp/cute.txt" >"$golden" <<'PY'
import sys
from pycute import Layout, left_inverse

def tree(text):
    """'(4,(2,3))' -> (4, (2, 3)); '4' -> 4."""
    return eval(text.replace(")", ",)"))

def layout(text):
    text = text.replace("_", "")
    depth = 0
    for k, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if c == ":" and depth == 0:
            return Layout(tree(text[:k]), tree(text[k + 1:]))
    raise ValueError(text)

print("# CuTe's left_inverse: L, CuTe C++ 4.2 (- = refused), pycute (- = raises)."
      " Written by benches/cute_cpp/left_inverse.sh: do not edit.")
for line in open(sys.argv[1]):
    l, cute = line.rstrip("\n").split("\t")
    try:
        py = str(left_inverse(layout(l))).replace(" ", "")
    except (AssertionError, ZeroDivisionError):
        py = "-"
    print(f"{l}\t{cute}\t{py}")
PY
echo "wrote $golden ($(grep -vc '^#' "$golden") layouts, $refused refused by CuTe C++)"
