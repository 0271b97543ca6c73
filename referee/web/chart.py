"""The scoreboard's chart: each player's total after every round, drawn on the server as inline SVG.

``totals_chart(board)`` returns the ``<svg>`` markup (no script, no external file, so it works
without JavaScript and under a strict Content-Security-Policy), or an empty string before the
first counted round.  Points boards draw the target as a dashed line where reaching it wins (the board's
``goal_target``: not in a game of fixed rounds won by the total); money boards (Hachi-hachi) label the axis
in kan.  Must not import the store.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

from referee.web.board import Board

#: Line colours, each at least 3:1 against white, and dash patterns so lines differ without colour.
COLOURS = ("#8c1c13", "#1565c0", "#2e7d32", "#6a1b9a", "#8a6a00", "#00695c")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
WIDTH, HEIGHT = 340, 170
RIGHT, TOP, BOTTOM = 10, 10, 24


def series(board: Board) -> dict[str, list[int]]:
    """Player -> totals from the start (0, or the opening totals) through each counted round."""
    counted = [v for v in board.rounds if v.totals]
    out: dict[str, list[int]] = {}
    for p in board.players:
        start = counted[0].totals.get(p, 0) - counted[0].scores.get(p, 0) if counted else 0
        out[p] = [start, *(v.totals.get(p, 0) for v in counted)]
    return out


def _ticks(lo: int, hi: int, unit: int = 1) -> list[int]:
    """Round axis values between ``lo`` and ``hi``: 2 to 5 multiples of ``unit`` x 1, 2, 5, 10..."""
    span = max(1, hi - lo)
    scale = 1
    while True:  # 1, 2, 5, 10, 20, 50... times unit: any span (a huge house-rule target too) gets a few ticks
        step = next((unit * nice * scale for nice in (1, 2, 5) if span <= 5 * unit * nice * scale), 0)
        if step:
            break
        scale *= 10
    first = -(-lo // step) * step
    return list(range(first, hi + 1, step))


def totals_chart(board: Board, label: Callable[[int], str] | None = None, unit: int = 1) -> Markup:
    """An SVG line chart of ``series(board)``; ``label`` writes an axis value (default: the number),
    ``unit`` is what axis steps are multiples of (12 mon: whole kan)."""
    data = series(board)
    rounds = len(next(iter(data.values()), [])) - 1
    if rounds < 1:
        return Markup("")
    label = label or str
    values = [t for line in data.values() for t in line]
    target = board.goal_target
    if target:
        values.append(target)
    lo, hi = min(0, *values), max(0, *values)
    if hi == lo:
        hi = lo + 1
    ticks = _ticks(lo, hi, unit)
    left = 8 + 7 * max((len(label(t)) for t in ticks), default=1)  # room for the widest axis value (12 px text)
    plot_w, plot_h = WIDTH - left - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return left + plot_w * i / max(1, rounds)

    def y(v: int) -> float:
        return TOP + plot_h * (hi - v) / (hi - lo)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title" '
        f'xmlns="http://www.w3.org/2000/svg"><title id="chart-title">Totals after each round</title>'
    ]
    for t in ticks:
        parts.append(
            f'<line x1="{left}" x2="{WIDTH - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#e6e0d9"/>'
            f'<text x="{left - 4}" y="{y(t) + 4:.1f}" text-anchor="end">{escape(label(t))}</text>'
        )
    if target:
        parts.append(
            f'<line class="target" x1="{left}" x2="{WIDTH - RIGHT}" y1="{y(target):.1f}" y2="{y(target):.1f}" '
            f'stroke="#5f5853" stroke-dasharray="4 4"/>'
        )
    step = max(1, rounds // 8)
    for i in range(0, rounds + 1, step):
        parts.append(f'<text x="{x(i):.1f}" y="{HEIGHT - 6}" text-anchor="middle">{i}</text>')
    shift = _dodge(data)
    for k, (player, line) in enumerate(data.items()):
        colour, dash = COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]
        points = " ".join(f"{x(i):.1f},{y(v) + shift[player][i]:.1f}" for i, v in enumerate(line))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"{dash_attr} '
            f'stroke-linejoin="round"/>'
        )
        parts.append(
            f'<circle cx="{x(rounds):.1f}" cy="{y(line[-1]) + shift[player][-1]:.1f}" r="3.5" fill="{colour}"/>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


#: Pixels between two lines at the same total, so that neither hides the other.
DODGE = 3.0


def _dodge(data: dict[str, list[int]]) -> dict[str, list[float]]:
    """Player -> a vertical shift in pixels per point: players level at a point are drawn
    ``DODGE`` apart around the true value (two players on equal totals drew one line)."""
    shift = {p: [0.0] * len(line) for p, line in data.items()}
    for i in range(len(next(iter(data.values()), []))):
        level: dict[int, list[str]] = {}
        for p, line in data.items():
            level.setdefault(line[i], []).append(p)
        for players in level.values():
            for rank, p in enumerate(players):
                shift[p][i] = (rank - (len(players) - 1) / 2) * DODGE
    return shift


def legend(players: Sequence[str]) -> list[tuple[str, str]]:
    """(player, colour) pairs in the chart's order, for the legend under it."""
    return [(p, COLOURS[k % len(COLOURS)]) for k, p in enumerate(players)]


def player_colours(players: Sequence[str]) -> dict[str, str]:
    """Player -> their chart colour: the one colour a player has on every screen (the scoreboard,
    the round's tabs and live bar, the chart and its legend)."""
    return dict(legend(players))
