#!/usr/bin/env python3
"""Pixel probes for scripts/render_check.sh: reads a PNG (a small decoder on
zlib, no Pillow needed) and compares the colour at chosen points of a
picture with what cute's SVG says is there.

  png_probe.py SVG PNG LEFT TOP DY CELLS...

LEFT,TOP is where the SVG's top-left corner is in the PNG (0 0 for an SVG
rendered alone, the <svg> element's position for a page).

CELLS are 'm,n' or 'm,n=WANT', WANT the colour the cell must have, checked
against the SVG's fill as well: '#rrggbb'; 'dark' (every channel at most
85: a dimmed thread beside a highlighted one); or 't<k>', thread k's own hue
when there are more than 8 threads (HSL, lightness 0.72, saturation 0.75,
hue k times the golden ratio, computed here with colorsys). Each cell is probed at its centre
horizontally and DY pixels below its top edge (DY = -1: the centre), so that
a label in the middle of a cell does not hide its fill. Prints one line per
probe and exits 1 if any is wrong.
"""

import colorsys
import struct
import os
import sys
import xml.etree.ElementTree as ET
import zlib


def read_png(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError(f"{path}: only 8-bit RGB(A), non-interlaced PNGs are read")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append([tuple(line[x * bpp : x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def svg_cells(path):
    """{(m, n): (x, y, w, h, fill)} of the cells group of a cute SVG (the
    group named by CELLS_GROUP, e.g. cells-C of a tiled MMA's figure, else
    "cells")."""
    root = ET.parse(path).getroot()
    name = os.environ.get("CELLS_GROUP", "cells")
    group = next(e for e in root.iter() if e.get("id") == name)
    rects = list(group)
    w, h = int(rects[0].get("width")), int(rects[0].get("height"))
    x0 = min(int(r.get("x")) for r in rects)
    y0 = min(int(r.get("y")) for r in rects)
    cells = {}
    for r in rects:
        x, y = int(r.get("x")), int(r.get("y"))
        cells[((y - y0) // h, (x - x0) // w)] = (x, y, w, h, r.get("fill"))
    return cells


def rgb(hexcolour):
    return tuple(int(hexcolour[i : i + 2], 16) for i in (1, 3, 5))


def wanted(want, fill):
    """Whether the SVG's fill is the colour WANT describes."""
    if want == "dark":
        return max(rgb(fill)) <= 85
    if want.startswith("t"):
        hue = (int(want[1:]) * 0.618033988749895) % 1.0
        r, g, b = colorsys.hls_to_rgb(hue, 0.72, 0.75)
        expected = tuple(round(c * 255) for c in (r, g, b))
        return max(abs(a - e) for a, e in zip(rgb(fill), expected)) <= 1
    return rgb(want) == rgb(fill)


def main(argv):
    svg, png = argv[1:3]
    left, top, dy = (int(v) for v in argv[3:6])
    cells = svg_cells(svg)
    _, _, pixels = read_png(png)
    bad = 0
    for spec in argv[6:]:
        where, _, want = spec.partition("=")
        m, n = (int(v) for v in where.split(","))
        x, y, w, h, fill = cells[(m, n)]
        # PROBE_SCALE: how much larger the page draws the SVG (a small
        # picture is enlarged there).
        scale = float(os.environ.get("PROBE_SCALE", "1"))
        px = left + round((x + w / 2) * scale)
        py = top + round((y + (h / 2 if dy < 0 else dy)) * scale)
        got = pixels[py][px]
        expected = rgb(fill)
        ok = max(abs(g - e) for g, e in zip(got, expected)) <= 3
        if want and not wanted(want, fill):
            ok = False
        bad += not ok
        verdict = "ok " if ok else "BAD"
        print(f"{verdict} cell ({m},{n}) at pixel ({px},{py}): rendered {got}, SVG fill {fill}{' expected ' + want if want else ''}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
