#!/usr/bin/env bash
# Instructions per call of cute-dynamic's benchmarked operations, by
# callgrind: (Ir of 2001 calls - Ir of 1 call) / 2000, so start-up and
# parsing of the inputs cancel out. Deterministic, unlike the timings of
# run.sh on a shared machine.
#
#   bash benches/cute_cpp/callgrind.sh                 # every operation
#   bash benches/cute_cpp/callgrind.sh complement parse
#   bash benches/cute_cpp/callgrind.sh parse-scalar      # a parse's fixed cost ("4:1")
#   CARGO=/work/bin/lcargo bash benches/cute_cpp/callgrind.sh
#
# Needs valgrind.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
CARGO_TARGET_DIR="$root/target" "${CARGO:-cargo}" build -q --release --manifest-path "$here/callgrind/Cargo.toml"
bin="$root/target/release/cute-callgrind"
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
for op in ${@:-composition complement logical_divide zipped_divide blocked_product parse print parse+print}; do
  a=$(ir "$op" 1)
  b=$(ir "$op" 2001)
  echo "$op $(((b - a) / 2000))"
done
