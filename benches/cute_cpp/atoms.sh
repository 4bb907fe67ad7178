#!/usr/bin/env bash
# Writes the golden text of CuTe's atom layer from CuTe itself: builds
# atoms.cpp against CuTe's headers (downloaded by run.sh, HEADERS_ONLY=1) and
# writes what CuTe's `print` and `print_latex` say into tests/golden/:
#
#   cute_atoms.txt        MMA and copy atoms, tiled MMAs and tiled copies
#   cute_latex_mma.tex    print_latex of the (2,2,1) tiled SM80_16x8x16 MMA
#   cute_latex_copy.tex   print_latex of the 32-thread LDSM tiled copy
#
#   bash benches/cute_cpp/atoms.sh
#
# Needs g++ (and, the first time, pip and network access for the headers).
# The atom headers are GPU code: `__device__` is defined away, and the CUDA
# driver types they name come from run.sh's stubs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
HEADERS_ONLY=1 bash "$here/run.sh"
work="$root/target/cute_cpp"
g++ -O0 -std=c++17 -D__device__= -I "$work/stub" -I "$work/nvidia/cuda_cccl/include" \
  -I "$work/cutlass_library/source/include" "$here/atoms.cpp" -o "$work/atoms"
golden="$root/tests/golden"
mkdir -p "$golden"
"$work/atoms" >"$golden/cute_atoms.txt"
"$work/atoms" latex-mma >"$golden/cute_latex_mma.tex"
"$work/atoms" latex-copy >"$golden/cute_latex_copy.tex"
echo "wrote $golden/cute_atoms.txt, cute_latex_mma.tex, cute_latex_copy.tex"
