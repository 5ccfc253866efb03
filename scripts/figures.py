#!/usr/bin/env python3
"""Draw the moving-phase results as SVG heat maps (Python 3 standard library only).

    python3 scripts/figures.py                       # all four games, from data/
    python3 scripts/figures.py --game morris --stats FILE --out DIR

For each game it reads the `tigadi stats --json` rows of its moving phase
(default data/GAME-moving-stats.jsonl) and writes two files into the output
directory (default docs/figures):

- GAME-wdl.svg: one cell per subspace (rows: the gotis of the player to move,
  columns: the opponent's), coloured by the win share of the player to move,
  with the win, draw and loss shares as text and as a bar;
- GAME-dtc.svg: the same grid with the longest win in each subspace (DTC: turns
  to the next capture under optimal play) as colour and number, and the longest
  loss beneath it.

Shares are over symmetry classes, as `tigadi stats` counts them. Subspaces
missing from the input (a run limited by --max-pieces) are drawn grey. The
output depends only on the input rows, so re-running it on unchanged data
writes identical files.
"""

import argparse
import json
import os
import sys
from html import escape

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ("tigadi", "navakankari", "morris", "morabaraba")
TITLES = {
    "tigadi": "Tigadi",
    "navakankari": "Traditional Navakankari",
    "morris": "Nine men's morris",
    "morabaraba": "Morabaraba",
}
# Gotis a side: 9 in the first three games, 12 in Morabaraba.
PIECES = {"morabaraba": 12}

# Layout (pixels); the grid's size follows the game ([`set_game`]).
CELL_W, CELL_H = 104, 76
LEFT, TOP = 120, 112


def set_game(game):
    """Sizes the grid for `game`: one row and column per count of gotis a side in
    the moving phase, 3 to the gotis a side."""
    global GOTIS, SUBSPACES, GRID_W, GRID_H, LEGEND_X, WIDTH, HEIGHT
    GOTIS = range(3, PIECES.get(game, 9) + 1)
    # The moving phase's subspaces: fewer than 24 gotis on the board.
    SUBSPACES = sum(1 for m in GOTIS for o in GOTIS if m + o < 24)
    GRID_W, GRID_H = CELL_W * len(GOTIS), CELL_H * len(GOTIS)
    LEGEND_X = LEFT + GRID_W + 40
    WIDTH, HEIGHT = LEGEND_X + 190, TOP + GRID_H + 70


set_game("tigadi")
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

WIN, DRAW, LOSS = "#1a9850", "#9e9e9e", "#d73027"  # the W/D/L bar's colours
# Colour scales: (position 0..1, (r, g, b)) stops, interpolated linearly.
GREENS = [(0.0, (247, 252, 245)), (0.5, (116, 196, 118)), (1.0, (0, 68, 27))]
MAGMA = [(0.0, (252, 253, 191)), (0.33, (252, 137, 97)), (0.67, (183, 55, 121)),
         (1.0, (40, 17, 86))]


def colour(scale, x):
    """The colour at x (0..1) of a scale, as #rrggbb."""
    x = min(1.0, max(0.0, x))
    for (x0, c0), (x1, c1) in zip(scale, scale[1:]):
        if x <= x1:
            t = (x - x0) / (x1 - x0)
            return "#%02x%02x%02x" % tuple(round(a + (b - a) * t) for a, b in zip(c0, c1))
    return "#%02x%02x%02x" % scale[-1][1]


def ink(scale, x):
    """Black or white text, whichever reads better on colour(scale, x)."""
    r, g, b = (int(colour(scale, x)[i:i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def percent(part, whole):
    """A share as text: one decimal, never rounding a non-zero share to 0 or 100."""
    if whole == 0:
        return "-"
    p = 100.0 * part / whole
    if 0 < p < 0.05:
        return "<0.1%"
    if 99.95 <= p < 100:
        return ">99.9%"
    return f"{p:.1f}%"


def text(x, y, s, size=12, anchor="middle", fill="#000", weight="normal", extra=""):
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}" font-weight="{weight}"{extra}>{escape(str(s))}</text>')


def load_moving_rows(path):
    """{(mover, opponent): row} of the moving-phase rows of a stats file."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                if "mover" in row and "opponent" in row:
                    rows[(row["mover"], row["opponent"])] = row
    if not rows:
        raise ValueError(f"{path}: no moving-phase rows")
    return rows


def shown_path(path):
    """The path as the figure names it: relative to the repository when inside it."""
    full = os.path.abspath(path)
    return os.path.relpath(full, REPO) if full.startswith(REPO + os.sep) else path


def frame(title, subtitle, body, legend, footer):
    """The whole SVG: titles, axes, the grid cells in body, the legend, a footer."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>',
        text(20, 30, title, 19, "start", weight="bold"),
        text(20, 52, subtitle, 13, "start", "#333"),
        text(LEFT + GRID_W / 2, TOP - 34, "gotis of the opponent", 13, weight="bold"),
    ]
    for i, n in enumerate(GOTIS):
        out.append(text(LEFT + CELL_W * (i + 0.5), TOP - 10, n, 14, weight="bold"))
        out.append(text(LEFT - 12, TOP + CELL_H * (i + 0.5) + 5, n, 14, "end", weight="bold"))
    cy = TOP + GRID_H / 2
    out.append(text(LEFT - 44, cy, "gotis of the player to move", 13, weight="bold",
                    extra=f' transform="rotate(-90 {LEFT - 44} {cy})"'))
    out += body
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{GRID_W}" height="{GRID_H}" '
               f'fill="none" stroke="#444" stroke-width="1"/>')
    out += legend
    for i, line in enumerate(footer):
        out.append(text(20, TOP + GRID_H + 28 + 18 * i, line, 12, "start", "#333"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def cell_origin(mover, opponent):
    return LEFT + CELL_W * (opponent - 3), TOP + CELL_H * (mover - 3)


def missing_cell(x, y, m, o):
    # A board with every point taken has no moving phase (docs/RULES.md §8).
    label = "full board" if m + o >= 24 else "not solved"
    return [f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="#e0e0e0" '
            f'stroke="#fff"/>',
            text(x + 6, y + 14, f"{m}v{o}", 10, "start", "#666"),
            text(x + CELL_W / 2, y + CELL_H / 2 + 4, label, 11, fill="#666")]


def gradient_legend(scale, gid, label, ticks):
    """A vertical colour bar, top = 1, with (position, label) ticks."""
    x, y, h = LEGEND_X, TOP + 24, 240
    stops = "".join(f'<stop offset="{100 * (1 - p):g}%" stop-color="{colour(scale, p)}"/>'
                    for p, _ in reversed(scale))
    out = [f'<defs><linearGradient id="{gid}" x1="0" y1="0" x2="0" y2="1">{stops}'
           f'</linearGradient></defs>',
           text(x, y - 10, label, 12, "start", weight="bold"),
           f'<rect x="{x}" y="{y}" width="22" height="{h}" fill="url(#{gid})" stroke="#444"/>']
    for p, s in ticks:
        ty = y + h * (1 - p)
        out.append(f'<line x1="{x + 22}" y1="{ty:g}" x2="{x + 28}" y2="{ty:g}" stroke="#444"/>')
        out.append(text(x + 32, ty + 4, s, 11, "start"))
    return out


def wdl_svg(game, rows, source):
    body, total = [], {"classes": 0, "win": 0, "draw": 0, "loss": 0}
    for m in GOTIS:
        for o in GOTIS:
            x, y = cell_origin(m, o)
            row = rows.get((m, o))
            if row is None:
                body += missing_cell(x, y, m, o)
                continue
            for k in total:
                total[k] += row[k]
            n, w, d, l = row["classes"], row["win"], row["draw"], row["loss"]
            share = w / n if n else 0.0
            fg = ink(GREENS, share)
            body.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" '
                        f'fill="{colour(GREENS, share)}" stroke="#fff"/>')
            body.append(text(x + 6, y + 14, f"{m}v{o}", 10, "start", fg))
            body.append(text(x + CELL_W / 2, y + 30, f"W {percent(w, n)}", 13, fill=fg,
                             weight="bold"))
            body.append(text(x + CELL_W / 2, y + 45, f"D {percent(d, n)}", 11, fill=fg))
            body.append(text(x + CELL_W / 2, y + 58, f"L {percent(l, n)}", 11, fill=fg))
            # The W/D/L bar: widths proportional to the shares.
            bx, bw = x + 8, CELL_W - 16
            for part, c in ((w, WIN), (d, DRAW), (l, LOSS)):
                width = bw * part / n if n else 0
                if width > 0:
                    body.append(f'<rect x="{bx:.2f}" y="{y + 64}" width="{width:.2f}" '
                                f'height="6" fill="{c}"/>')
                bx += width
            body.append(f'<rect x="{x + 8}" y="{y + 64}" width="{bw}" height="6" '
                        f'fill="none" stroke="#fff" stroke-width="0.8"/>')
    legend = gradient_legend(GREENS, "wins", "win share",
                             [(p / 4, f"{25 * p}%") for p in range(5)])
    ly = TOP + 24 + 240 + 40
    legend.append(text(LEGEND_X, ly, "bar in each cell:", 12, "start", weight="bold"))
    for i, (name, c) in enumerate((("win", WIN), ("draw", DRAW), ("loss", LOSS))):
        legend.append(f'<rect x="{LEGEND_X}" y="{ly + 12 + 20 * i}" width="22" height="12" '
                      f'fill="{c}"/>')
        legend.append(text(LEGEND_X + 30, ly + 22 + 20 * i, name, 11, "start"))
    legend.append(text(LEGEND_X, ly + 90, "shares for the player", 11, "start"))
    legend.append(text(LEGEND_X, ly + 104, "to move, over symmetry", 11, "start"))
    legend.append(text(LEGEND_X, ly + 118, "classes", 11, "start"))
    n = total["classes"]
    title = f"{TITLES[game]}, moving phase: win / draw / loss for the player to move"
    subtitle = (f"rules {rows_rules(rows)}; {len(rows)} of {SUBSPACES} subspaces, {n:,} symmetry classes; "
                f"in all W {percent(total['win'], n)}, D {percent(total['draw'], n)}, "
                f"L {percent(total['loss'], n)}")
    footer = [f"Source: {source} (tigadi stats --json). Cell colour: win share; text: win, "
              f"draw and loss shares.",
              "Row MvO: M gotis for the player to move, O for the opponent; "
              "the values ignore the 100-turn rule."]
    return frame(title, subtitle, body, legend, footer)


def dtc_svg(game, rows, source):
    longest = max(r["max_dtc_win"] for r in rows.values()) or 1
    body = []
    for m in GOTIS:
        for o in GOTIS:
            x, y = cell_origin(m, o)
            row = rows.get((m, o))
            if row is None:
                body += missing_cell(x, y, m, o)
                continue
            dtc = row["max_dtc_win"]
            share = dtc / longest
            fg = ink(MAGMA, share)
            body.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" '
                        f'fill="{colour(MAGMA, share)}" stroke="#fff"/>')
            body.append(text(x + 6, y + 14, f"{m}v{o}", 10, "start", fg))
            if row["win"]:
                body.append(text(x + CELL_W / 2, y + 44, dtc, 22, fill=fg, weight="bold"))
            else:
                body.append(text(x + CELL_W / 2, y + 42, "no win", 13, fill=fg))
            loss = f"loss {row['max_dtc_loss']}" if row["loss"] else "no loss"
            body.append(text(x + CELL_W / 2, y + 64, loss, 11, fill=fg))
    ticks = sorted({0, longest // 4, longest // 2, 3 * longest // 4, longest})
    legend = gradient_legend(MAGMA, "dtc", "longest win (turns)",
                             [(t / longest, str(t)) for t in ticks])
    ly = TOP + 24 + 240 + 40
    for i, line in enumerate(["big number: longest", "win of the player to",
                              "move (max DTC over the", "subspace's positions);",
                              "small: longest loss"]):
        legend.append(text(LEGEND_X, ly + 14 * i, line, 11, "start"))
    worst = max(rows.values(), key=lambda r: (r["max_dtc_win"], -r["mover"], -r["opponent"]))
    title = f"{TITLES[game]}, moving phase: the longest DTC per subspace"
    worst_loss = max(rows.values(),
                     key=lambda r: (r["max_dtc_loss"], -r["mover"], -r["opponent"]))
    subtitle = (f"rules {rows_rules(rows)}; {len(rows)} of {SUBSPACES} subspaces; longest win "
                f"{worst['max_dtc_win']} turns ({worst['mover']}v{worst['opponent']}), longest "
                f"loss {worst_loss['max_dtc_loss']} turns "
                f"({worst_loss['mover']}v{worst_loss['opponent']})")
    footer = [f"Source: {source} (tigadi stats --json: max_dtc_win, max_dtc_loss). DTC: turns "
              f"to the next capture, the winner",
              "capturing as soon as it can, the loser as late as it can (a capture counts "
              "as 1); the 100-turn rule is ignored."]
    return frame(title, subtitle, body, legend, footer)


def rows_rules(rows):
    return ", ".join(sorted({str(r.get("rules")) for r in rows.values()}))


def draw(game, stats, out):
    set_game(game)
    rows = load_moving_rows(stats)
    source = shown_path(stats)
    os.makedirs(out, exist_ok=True)
    for kind, svg in (("wdl", wdl_svg(game, rows, source)), ("dtc", dtc_svg(game, rows, source))):
        path = os.path.join(out, f"{game}-{kind}.svg")
        with open(path, "w", encoding="utf-8") as f:
            f.write(svg)
        print(f"wrote {shown_path(path)} ({len(rows)} subspaces from {source})")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=GAMES, action="append",
                   help="draw this game only (repeatable; default: all four)")
    p.add_argument("--stats", help="stats file to read (default data/GAME-moving-stats.jsonl; "
                                   "needs exactly one --game)")
    p.add_argument("--out", default=os.path.join(REPO, "docs", "figures"),
                   help="output directory (default docs/figures)")
    a = p.parse_args()
    games = a.game or list(GAMES)
    if a.stats and len(games) != 1:
        p.error("--stats needs exactly one --game")
    try:
        for g in games:
            draw(g, a.stats or os.path.join(REPO, "data", f"{g}-moving-stats.jsonl"), a.out)
    except (OSError, ValueError, KeyError) as e:
        print(f"figures.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
