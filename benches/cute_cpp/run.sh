#!/usr/bin/env bash
# Times CuTe C++ (g++ -O3, run-time integers where CuTe allows them) and
# cute-dynamic (criterion) on the same operations, side by side:
# composition, complement, logical_divide, zipped_divide and
# blocked_product; then cute-dynamic's parse+print of
# ((2,2),(4,2)):((1,8),(2,16)) (CuTe C++ has no text syntax to time beside
# it); then cute-static on mixed static and
# run-time leaves (all-run-time composition, and a run-time (M,N) divided by
# a static tiler), beside the same expressions in CuTe C++.
#
#   bash benches/cute_cpp/run.sh            # both sides
#   CPP_ONLY=1 bash benches/cute_cpp/run.sh # CuTe C++ only
#   CARGO=/work/bin/lcargo bash benches/cute_cpp/run.sh  # cargo through a wrapper
#
# Instructions per call (deterministic, unlike timings on a shared machine):
# bash benches/cute_cpp/callgrind.sh
#
# Needs g++, pip and network access. Downloads the CuTe headers (from the
# nvidia-cutlass wheel) and CCCL's headers (nvidia-cuda-cccl-cu12) into
# target/cute_cpp, and stubs the few CUDA toolkit headers that CuTe includes
# but a host-only build of layouts does not use.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/target/cute_cpp"
mkdir -p "$work/wheels" "$work/stub"
cd "$work"
if [ ! -d cutlass_library ]; then
  pip download --no-deps -q -d wheels nvidia-cutlass
  python3 -m zipfile -e wheels/nvidia_cutlass-*.whl .
fi
if [ ! -d nvidia/cuda_cccl ]; then
  pip download --no-deps -q -d wheels nvidia-cuda-cccl-cu12
  python3 -m zipfile -e wheels/nvidia_cuda_cccl_cu12-*.whl .
fi

for h in cuda.h cuda_runtime.h cuda_runtime_api.h; do : > "stub/$h"; done
python3 - <<'PY'
types = {'char': 'char', 'uchar': 'unsigned char', 'short': 'short', 'ushort': 'unsigned short',
         'int': 'int', 'uint': 'unsigned int', 'long': 'long', 'ulong': 'unsigned long',
         'longlong': 'long long', 'ulonglong': 'unsigned long long', 'float': 'float', 'double': 'double'}
lines = ['#pragma once']
for name, t in types.items():
    for k in (1, 2, 3, 4):
        lines.append(f"struct {name}{k} {{ {t} {', '.join('xyzw'[:k])}; }};")
lines.append('struct dim3 { unsigned x = 1, y = 1, z = 1; };')
open('stub/vector_types.h', 'w').write('\n'.join(lines) + '\n')
PY
cat > stub/cuComplex.h <<'H'
#pragma once
#include "vector_types.h"
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
inline cuFloatComplex make_cuFloatComplex(float r, float i) { return {r, i}; }
inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { return {r, i}; }
inline float cuCrealf(cuFloatComplex c) { return c.x; }
inline float cuCimagf(cuFloatComplex c) { return c.y; }
inline double cuCreal(cuDoubleComplex c) { return c.x; }
inline double cuCimag(cuDoubleComplex c) { return c.y; }
H
cat > stub/cuda_fp16.h <<'H'
#pragma once
struct __half_raw { unsigned short x; };
struct __half {
  unsigned short x;
  __half() = default;
  __half(float) : x(0) {}
  __half(__half_raw r) : x(r.x) {}
  operator float() const { return 0.f; }
  operator __half_raw() const { return __half_raw{x}; }
};
struct __half2 { __half x, y; };
typedef __half half;
typedef __half2 half2;
inline float __half2float(__half) { return 0.f; }
inline __half __float2half_rn(float) { return __half(); }
inline __half __float2half(float) { return __half(); }
H
cat > stub/cuda_bf16.h <<'H'
#pragma once
struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat16 {
  unsigned short x;
  __nv_bfloat16() = default;
  __nv_bfloat16(__nv_bfloat16_raw r) : x(r.x) {}
  operator __nv_bfloat16_raw() const { return {x}; }
};
struct __nv_bfloat162 { __nv_bfloat16 x, y; };
H
# The atom headers (atoms.cpp) reach CUTLASS's CUDA driver adapter, which
# names these types in declarations only.
cat > stub/driver_types.h <<'H'
#pragma once
typedef struct CUstream_st* cudaStream_t;
typedef int cudaError_t;
H
# HEADERS_ONLY=1: the headers and stubs only (benches/cute_cpp/atoms.sh).
if [ -n "${HEADERS_ONLY:-}" ]; then exit 0; fi

g++ -O3 -std=c++17 -I stub -I nvidia/cuda_cccl/include -I cutlass_library/source/include \
  "$here/ops.cpp" -o ops
echo "== CuTe C++ (best of 3 rounds)"
./ops "$@"
if [ -z "${CPP_ONLY:-}" ]; then
  echo "== cute-dynamic (criterion, median; the result kept in place, as CuTe's side keeps it;"
  echo "   'moved': criterion's own iter, the result moved into black_box)"
  cd "$root"
  "${CARGO:-cargo}" bench -q -p cute-benches --bench dynamic_ops -- --warm-up-time 1 --measurement-time 3 \
    '^(dynamic|moved)/(composition\(\(10|complement\(|logical_divide|zipped_divide|blocked_product|parse\+print)' 2>/dev/null |
    awk '/^(dynamic|moved)\// { name = $0; tag = ($0 ~ /^moved\//) ? " (moved)" : ""; sub(/^[a-z]+\//, "", name); sub(/ +time:.*/, "", name) }
         /time:/ { t = $0; sub(/.*\[/, "", t); split(t, f, " "); print name; print "  cute-dynamic" tag ": " f[3] " " f[4] }'
  echo "== cute-static, mixed static and run-time leaves, run-time checks included (criterion, median)"
  "${CARGO:-cargo}" bench -q -p cute-benches --bench static_mixed_ops -- --warm-up-time 1 --measurement-time 3 2>/dev/null |
    awk '/^static mixed\// { name = $0; sub(/^static mixed\//, "", name); sub(/ +time:.*/, "", name) }
         /time:/ { t = $0; sub(/.*\[/, "", t); split(t, f, " "); print name; print "  cute-static: " f[3] " " f[4] }'
fi
