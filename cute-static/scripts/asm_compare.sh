#!/usr/bin/env bash
# Compares the machine code of static layout indexing with hand-written
# arithmetic. examples/index_asm.rs defines the same `idx_*` symbols twice:
# with `Layout::index` (default) and by hand (`--cfg asm_hand`). This script
# builds both in release with `--emit asm`, cuts out each function's body
# (instructions only: labels, directives and comments dropped) and diffs
# them (layouts, swizzles and a swizzled layout), with the functions' numbers
# taken out of their branch labels (`.LBB7_3` and `.LBB19_3` are both
# `.LBB_3`). Prints "identical" per function, or the diff (exit 1).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
cargo rustc -q -p cute-static --example index_asm --release -- --emit asm="$out/static.s" -C debuginfo=0
cargo rustc -q -p cute-static --example index_asm --release -- --emit asm="$out/hand.s" -C debuginfo=0 --cfg asm_hand
body() { # asm file, symbol -> instructions only
    awk -v fn="$2" '$0 == fn ":" { on = 1; next } on && /\.cfi_endproc|^\.Lfunc_end/ { exit } on' "$1" \
        | grep -vE '^\s*(\.|#|$)|^\.?L[A-Za-z0-9_]*:' \
        | sed -E 's/\.LBB[0-9]+_/.LBB_/g' || true
}
status=0
for f in idx_mixed idx_colmajor idx_rowmajor idx_nested idx_odd idx_swizzle idx_swizzle_neg idx_swizzled idx_dyn_cols idx_dyn_nested; do
    body "$out/static.s" "$f" > "$out/s_$f"
    body "$out/hand.s" "$f" > "$out/h_$f"
    if [ ! -s "$out/s_$f" ] || [ ! -s "$out/h_$f" ]; then echo "$f: not found"; status=1; continue; fi
    if diff -u "$out/h_$f" "$out/s_$f" > "$out/d_$f"; then
        echo "$f: identical ($(wc -l < "$out/s_$f") instructions)"
        sed 's/^/    /' "$out/s_$f"
    else
        echo "$f: DIFFERENT (--- hand, +++ static)"; cat "$out/d_$f"; status=1
    fi
done
exit $status
