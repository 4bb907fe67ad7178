#!/usr/bin/env bash
# Renders cute's pictures in headless Chromium and checks them by their pixels:
# SVGs (the raked product of the paper's Figure 11, a thread-value layout with
# a highlighted thread, the walkthrough's 128x128 tile at pixel scale, the
# figures of a tiled MMA and a tiled copy) and an HTML page (the
# 16x16-thread, 4x4-value TV layout). Each chosen cell's
# rendered colour must be its SVG fill, and the colour the cell must have
# (grey by offset % 8; a thread's colour: CuTe's 8 for up to 8 threads,
# else its own hue; the highlight). The page's
# tooltip is checked by a synthetic mousemove at a cell's centre, dispatched
# on the element Chromium finds there (elementFromPoint), and the text the
# tooltip then shows.
#
# Needs: a built `cute` (cargo build -p cute-cli; or CUTE=path), Chromium
# (Debian: apt-get install chromium; or CHROMIUM=path), python3. Installs
# nothing. Usage: scripts/render_check.sh [OUTDIR]  (PNGs are kept there).
# Not run in CI; runs on one core.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cute=${CUTE:-$root/target/debug/cute}
chromium=${CHROMIUM:-chromium}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
probe="$root/scripts/png_probe.py"

missing=0
[ -x "$cute" ] || { echo "missing: $cute (build it: cargo build -p cute-cli, or set CUTE)"; missing=1; }
command -v "$chromium" >/dev/null || { echo "missing: chromium (Debian: apt-get install chromium, or set CHROMIUM)"; missing=1; }
command -v python3 >/dev/null || { echo "missing: python3"; missing=1; }
[ "$missing" = 0 ] || exit 2

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

# One headless Chromium, one process at a time.
chrome() {
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --hide-scrollbars --force-device-scale-factor=1 --user-data-dir="$profile" "$@" 2>/dev/null
}

# The width,height an SVG declares.
svg_size() {
    python3 -c 'import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print(r.get("width")+","+r.get("height"))' "$1"
}

failed=0
check_svg() { # NAME DY CELLS...   renders $out/NAME.svg alone and probes it
    local name=$1 dy=$2
    shift 2
    chrome --window-size="$(svg_size "$out/$name.svg")" --screenshot="$out/$name.png" "file://$out/$name.svg" >/dev/null
    echo "== $name.svg ($out/$name.png)"
    python3 "$probe" "$out/$name.svg" "$out/$name.png" 0 0 "$dy" "$@" || failed=1
}

# Labelled cells are probed 3 pixels below their top edge, clear of the label.
"$cute" --svg 'raked_product((3,4):(4,1), (2,5):(1,2))' >"$out/raked_product.svg"
check_svg raked_product 3 0,0=#ffffff 0,5=#999999 1,0=#e6e6e6 0,10=#cccccc 0,15=#666666 5,19=#4d4d4d

# A swizzled layout: cell (m,n) is 8m + (n XOR m), shaded by (n XOR m).
"$cute" --svg 'composition(Sw<3,0,3>, (8,8):(8,1))' >"$out/swizzle.svg"
check_svg swizzle 3 0,0=#ffffff 1,0=#999999 1,1=#ffffff 2,1=#666666 3,7=#e6e6e6 7,0=#4d4d4d

"$cute" --svg --tv '(2,3):(3,1)' '(2,2):(2,1)' --highlight-thread 4 >"$out/tv_highlight.svg"
check_svg tv_highlight 3 2,2=#2050e0 3,3=#2050e0 0,0=#3a3a55 0,2=#3a553a 3,5=#465546

cp "$root/tests/snapshots/walkthrough_128x128.svg" "$out/walkthrough.svg"
check_svg walkthrough -1 0,0=#2050e0 3,3=#2050e0 64,64=#2050e0 67,0=#2050e0 4,0=dark 0,4=dark 127,127=dark

# Figures of a tiled MMA (A, B and C panels; 128 threads, a hue each) and a
# tiled copy (S and D; 32 threads): each panel's cells probed in its group.
check_panel() { # NAME PANEL CELLS...
    local name=$1 panel=$2
    shift 2
    echo "-- panel $panel"
    CELLS_GROUP="cells-$panel" python3 "$probe" "$out/$name.svg" "$out/$name.png" 0 0 3 "$@" || failed=1
}
"$cute" --mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2,1)' --svg >"$out/tiled_mma.svg"
chrome --window-size="$(svg_size "$out/tiled_mma.svg")" --screenshot="$out/tiled_mma.png" "file://$out/tiled_mma.svg" >/dev/null
echo "== tiled_mma.svg ($out/tiled_mma.png)"
# C(0,8) is thread 64's (the atom to the right), A(16,0) thread 32's (the atom below).
check_panel tiled_mma C 0,0=t0 0,8=t64 31,15=t127 16,0=t32
check_panel tiled_mma A 0,0=t0 16,0=t32 31,15=t63
check_panel tiled_mma B 0,0=t0 15,15=t95
"$cute" --copy SM75_U32x4_LDSM_N --thr-layout '(32,1)' --val-layout '(1,8)' --svg >"$out/tiled_copy.svg"
chrome --window-size="$(svg_size "$out/tiled_copy.svg")" --screenshot="$out/tiled_copy.png" "file://$out/tiled_copy.svg" >/dev/null
echo "== tiled_copy.svg ($out/tiled_copy.png)"
check_panel tiled_copy S 0,0 0,2 4,0 31,7
check_panel tiled_copy D 0,0 1,0 16,0 31,7

# The page: a copy with a probe script learns where the SVG is and hovers
# cell (5,9); the page itself is screenshotted at the same window size.
"$cute" --html --tv '(16,16):(16,1)' '(4,4):(4,1)' >"$out/tv.html"
sed -n '/<svg/,/<\/svg>/p' "$out/tv.html" | sed '1s/<svg/<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/' >"$out/tv_page.svg"
python3 - "$out/tv.html" "$out/tv_probe.html" <<'EOF'
import sys
page = open(sys.argv[1]).read()
probe = """<script>
var s=document.querySelector('#picture svg'),r=s.getBoundingClientRect();
var x=r.left+(D.x0+9*D.cw+D.cw/2)*r.width/D.w, y=r.top+(D.y0+5*D.ch+D.ch/2)*r.height/D.h;
var target=document.elementFromPoint(x,y);
target.dispatchEvent(new MouseEvent('mousemove',{clientX:x,clientY:y,bubbles:true}));
document.body.setAttribute('data-svg-at',Math.round(r.left+scrollX)+' '+Math.round(r.top+scrollY));
document.body.setAttribute('data-hit',target.tagName);
document.body.setAttribute('data-svg-scale',(r.width/D.w).toFixed(4));
</script>
</body>"""
open(sys.argv[2], "w").write(page.replace("</body>", probe, 1))
EOF
dom=$(chrome --window-size=1000,1000 --dump-dom "file://$out/tv_probe.html")
at=$(sed -n 's/.*data-svg-at="\([0-9]* [0-9]*\)".*/\1/p' <<<"$dom" | head -1)
hit=$(sed -n 's/.*data-hit="\([a-z]*\)".*/\1/p' <<<"$dom" | head -1)
scale=$(sed -n 's/.*data-svg-scale="\([0-9.]*\)".*/\1/p' <<<"$dom" | head -1)
tip=$(sed -n 's/.*<div id="tip"[^>]*>\([^<]*\)<\/div>.*/\1/p' <<<"$dom" | head -1)
chrome --window-size=1000,1000 --screenshot="$out/tv_html.png" "file://$out/tv.html" >/dev/null
echo "== tv.html ($out/tv_html.png), SVG at $at, drawn at scale $scale"
# shellcheck disable=SC2086
PROBE_SCALE=$scale python3 "$probe" "$out/tv_page.svg" "$out/tv_html.png" $at -1 0,0=t0 0,4=t1 4,0=t16 0,12=t3 63,63=t255 5,9=t18 || failed=1
# Cell (5,9): thread (1,2) of the 16x16 row-major threads = 18; value
# (1,1) of the 4x4 row-major values = 5; offset 5 + 64*9 = 581.
want='(5,9)  offset 581  thread 18  value 5'
if [ "$tip" = "$want" ] && [ "$hit" = "rect" ]; then
    echo "ok  tooltip over cell (5,9) (element hit: $hit): $tip"
else
    echo "BAD tooltip over cell (5,9): element hit '$hit', shows '$tip', want '$want'"
    failed=1
fi

[ "$failed" = 0 ] && echo "all probes right" || echo "some probes wrong"
exit "$failed"
