#!/usr/bin/env bash
# The pairs of repeated code between cute-static's and cute-dynamic's
# sources (the run-time algebra is written once, in cute-dynamic's kernel
# layer: there should be none). Needs the workplace's `duplicates` tool.
#
#   bash scripts/cross_duplicates.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$root/cute-static/src" "$tmp/static"
cp -r "$root/cute-dynamic/src" "$tmp/dynamic"
out=$(duplicates --repo "$tmp" --most 200 --seconds 60)
echo "$out" | head -1
cross=$(echo "$out" | grep -E '(static/.*dynamic/|dynamic/.*static/)' || true)
if [ -n "$cross" ]; then
    echo "pairs across the crates:"
    echo "$cross"
    exit 1
fi
echo "no pair across the crates"
