"""Log-log line charts as hand-written SVG (no plotting library needed).

plot(path, panels, footer) writes a grid of panels; each panel is a dict with
title, ylabel and series: [(name, colour, dashed, [(x, y), ...])]. x is a
message size in bytes (powers of two), y any positive value.
"""

import math
from xml.sax.saxutils import escape

PANEL_W, PANEL_H = 520, 360
MARGIN_L, MARGIN_R, MARGIN_T, MARGIN_B = 70, 20, 36, 48
COLS = 2


def _size_label(b):
    for unit, shift in (("M", 20), ("K", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return "%d%s" % (b >> shift, unit)
    return "%d" % b


def _value_label(v):
    if v >= 1e6:
        return "%gM" % (v / 1e6)
    if v >= 1e3:
        return "%gk" % (v / 1e3)
    return "%g" % v


def _panel(ox, oy, panel):
    points = [p for s in panel["series"] for p in s[3] if p[0] > 0 and p[1] > 0]
    out = ['<g transform="translate(%d,%d)">' % (ox, oy)]
    out.append('<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>'
               % (MARGIN_L, escape(panel["title"])))
    if not points:
        out.append('<text x="%d" y="%d" font-size="13">no data</text>' % (MARGIN_L + 20, PANEL_H // 2))
        out.append("</g>")
        return out
    x0 = math.floor(math.log2(min(p[0] for p in points)))
    x1 = math.ceil(math.log2(max(p[0] for p in points)))
    y0 = math.floor(math.log10(min(p[1] for p in points)))
    y1 = math.ceil(math.log10(max(p[1] for p in points)))
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)
    w = PANEL_W - MARGIN_L - MARGIN_R
    h = PANEL_H - MARGIN_T - MARGIN_B

    def sx(x):
        return MARGIN_L + (math.log2(x) - x0) / (x1 - x0) * w

    def sy(y):
        return MARGIN_T + h - (math.log10(y) - y0) / (y1 - y0) * h

    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="white" stroke="#444"/>'
               % (MARGIN_L, MARGIN_T, w, h))
    step = 2 if x1 - x0 <= 12 else 4
    for e in range(x0, x1 + 1):
        if e % step:
            continue
        x = sx(2 ** e)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (x, MARGIN_T, x, MARGIN_T + h))
        out.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%s</text>'
                   % (x, MARGIN_T + h + 15, _size_label(2 ** e)))
    for e in range(y0, y1 + 1):
        y = sy(10 ** e)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (MARGIN_L, y, MARGIN_L + w, y))
        out.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end">%s</text>'
                   % (MARGIN_L - 5, y + 4, _value_label(10 ** e)))
    out.append('<text x="%d" y="%d" font-size="12" text-anchor="middle">message size (bytes)</text>'
               % (MARGIN_L + w // 2, PANEL_H - 8))
    out.append('<text x="0" y="0" font-size="12" text-anchor="middle" transform="translate(16,%d) rotate(-90)">'
               '%s</text>' % (MARGIN_T + h // 2, escape(panel["ylabel"])))
    for i, (name, colour, dashed, pts) in enumerate(panel["series"]):
        pts = sorted(p for p in pts if p[0] > 0 and p[1] > 0)
        if not pts:
            continue
        path = " ".join("%.1f,%.1f" % (sx(x), sy(y)) for x, y in pts)
        dash = ' stroke-dasharray="6,4"' if dashed else ""
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>' % (path, colour, dash))
        for x, y in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>' % (sx(x), sy(y), colour))
        ly = MARGIN_T + 16 + 16 * i
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                   % (MARGIN_L + 10, ly - 4, MARGIN_L + 34, ly - 4, colour, dash))
        out.append('<text x="%d" y="%d" font-size="12">%s</text>' % (MARGIN_L + 40, ly, escape(name)))
    out.append("</g>")
    return out


def plot(path, panels, footer=""):
    rows = (len(panels) + COLS - 1) // COLS
    width, height = COLS * PANEL_W, rows * PANEL_H + (30 if footer else 0)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif">' % (width, height, width, height),
           '<rect width="100%" height="100%" fill="#fafafa"/>']
    for i, panel in enumerate(panels):
        out += _panel((i % COLS) * PANEL_W, (i // COLS) * PANEL_H, panel)
    if footer:
        out.append('<text x="%d" y="%d" font-size="12">%s</text>' % (MARGIN_L, height - 10, escape(footer)))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
