#!/usr/bin/env bash
# Writes the golden text of CuTe's TiledCopy::retile (retile_S, retile_D)
# from CuTe itself: builds retile.cpp against CuTe's headers (downloaded by
# run.sh, HEADERS_ONLY=1) and writes what CuTe's `print` says into
# tests/golden/cute_retile.txt (its format is described at its top).
#
#   bash benches/cute_cpp/retile.sh
#
# Needs g++ (and, the first time, pip and network access for the headers).
# As atoms.sh: `__device__` is defined away, the CUDA types come from
# run.sh's stubs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
HEADERS_ONLY=1 bash "$here/run.sh"
work="$root/target/cute_cpp"
g++ -O0 -std=c++17 -D__device__= -I "$work/stub" -I "$work/nvidia/cuda_cccl/include" \
  -I "$work/cutlass_library/source/include" "$here/retile.cpp" -o "$work/retile"
golden="$root/tests/golden"
mkdir -p "$golden"
"$work/retile" >"$golden/cute_retile.txt"
echo "wrote $golden/cute_retile.txt"
