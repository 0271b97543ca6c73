"""Plain-text tables of round and game results, for ``--format text``.

Reads the public JSON shapes only, so it works for every family.  Columns are sized in terminal
columns (``display_width``), so names such as 日本 or 김민호, two columns a character, stay under
their headings.  Part of the CLI layer: only ``referee/cli.py`` imports it, and the rules core must
not (``tests/test_layers.py``).  It imports only the rules core (``referee.cards``,
``referee.family``) and does no I/O.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import fields

from referee.cards import month_label
from referee.family import Family

#: Family words used here, with their defaults where no family is given.
_WORDS = {f.name: f.default for f in fields(Family) if f.name in ("void_text", "instant_text", "words")}


def display_width(text: str) -> int:
    """How many terminal columns ``text`` takes: two for an East Asian wide or fullwidth character
    (日本, 김민호, ｶ is one), none for a combining mark or a zero-width format character, one for any
    other (Unicode's East Asian Width, UAX #11, as terminals apply it)."""
    return sum(0 if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
               else 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def table(rows: Sequence[Sequence[str]], align: str, minimum: Sequence[int] = ()) -> list[str]:
    """Rows of cells as lines: each column as wide as its widest cell in terminal columns
    (``display_width``), or ``minimum[i]`` if wider, cells one space apart, without trailing spaces.
    ``align``: one ``"<"`` (left) or ``">"`` (right) per column.  Raises ``ValueError`` when a row
    has another number of cells than ``align`` names."""
    for row in rows:
        if len(row) != len(align):
            raise ValueError(f"a table row has {len(row)} cells; expected {len(align)}: {row!r}")
    widths = [max([display_width(row[i]) for row in rows] + [minimum[i] if i < len(minimum) else 0])
              for i in range(len(align))]

    def padded(cell: str, i: int) -> str:
        space = " " * (widths[i] - display_width(cell))
        return space + cell if align[i] == ">" else cell + space

    return [" ".join(padded(cell, i) for i, cell in enumerate(row)).rstrip() for row in rows]


def _line(line: dict) -> str:
    cards = ", ".join(line.get("cards", []))
    label = f"{line['en']} ({line['ja']})" if line.get("ja") else line["en"]
    return f"    {line['points']:>+6}  {label}" + (f"  [{cards}]" if cards else "")


def round_text(out: dict, family: Family | None = None) -> str:
    """A readable table of a round result object (README "Round result"), in ``family``'s words
    (``Family.void_text``, ``instant_text``, and ``words.dealer``: the dealer's name; None: the
    defaults).  The round is read alone: its ``next_dealer`` is said as who deals if another round is
    played, never as the game's next dealer."""
    words = {k: getattr(family, k) for k in _WORDS} if family is not None else _WORDS
    rows = [f"Month: {month_label(out['month'])}"] if out.get("month") else []
    for name, p in out["players"].items():
        score = p["net_text"] if "net_text" in p else p.get("round_score")
        rows.append(f"{name}: {score}")
        rows += [_line(x) for x in out.get("explanation", []) if x["player"] == name]
    if out.get("entered_totals") or out.get("outcome") == "entered-totals":
        rows.append("Entered totals: the table scored this round on paper; no cards were given.")
    if out.get("void"):
        rows.append(words["void_text"])
    if out.get("instant_win"):
        rows.append(words["instant_text"].format_map({**out, "winner": out.get("winner") or out["instant_win"]}))
    if "stopped_by" in out and out.get("winner") is None:
        rows.append("Nobody scores this round (a draw).")
    if out.get("next_dealer"):
        # A round scored alone does not know its game (this round may end it): the rules say only who
        # deals if another round is played.
        w = words["words"]
        rows.append(f"If another round is played, {out['next_dealer']} deals it ({w.dealer_native} {w.dealer}).")
    rows += [f"warning: {w}" for w in out.get("warnings", [])]
    return "\n".join(rows)


def game_text(out: dict) -> str:
    """A readable table of a game result object (README "Game result").

    Totals print as the family writes them when its rounds carry ``totals_text``
    (Hachi-hachi: kan and mon), else as numbers.
    """
    players = out["players"]
    texts = [r.get("totals_text") or {} for r in out["rounds"]]
    width = max(16 if any(texts) else 8, *(display_width(p) for p in players))
    cells = [["round", "dealer", *players]]
    marks = [""]
    for r, text in zip(out["rounds"], texts, strict=True):
        mark = " void" if r.get("void") else ""
        if r.get("game_winner"):
            mark += f" -> {r['game_winner']} wins game {r.get('game', 1)}"
        if r.get("month"):
            mark += f"  {month_label(r['month'])}"
        cells.append([str(r["round"]), r["dealer"], *(str(text.get(p, r["totals"][p])) for p in players)])
        marks.append(mark)
    lines = table(cells, "><" + ">" * len(players), [5, *[width] * (len(players) + 1)])
    rows = [line + mark for line, mark in zip(lines, marks, strict=True)]
    rows += [f"{s['rank']}. {s['player']}: {s['text']}" for s in out.get("standings", [])]
    rows.append(f"winner: {out['winner'] or ('none: a draw' if out.get('draw') else 'none yet')}")
    return "\n".join(rows)


def _side(side: dict, players: list[str]) -> list[str]:
    if side["scores"] is None:
        return ["-"] * len(players)
    mark = " (void)" if side.get("void") else ""
    return [f"{side['scores'].get(p, 0)}{mark}" for p in players]


def rescore_text(out: dict) -> str:
    """A readable table of a what-if object (``referee.rescore``): each round's scores before -> after,
    changed rounds marked ``*``, then the totals and winners side by side."""
    before, after = out["before"], out["after"]
    players = list(before["totals"])
    unit = out["unit"]

    def rules(side: dict) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in side["options"].items())
        return side["ruleset"] + (f" ({opts})" if opts else "")

    cells = [["round", "", *players]]
    notes: list[list[str]] = [[]]
    for r in out["rounds"]:
        sides = zip(_side(r["before"], players), _side(r["after"], players), strict=True)
        cells.append([str(r["round"]), "*" if r["changed"] else "", *(f"{b} -> {a}" for b, a in sides)])
        notes.append([f"{'':>8}{side}: {r[side]['note']}" for side in ("before", "after") if r[side].get("note")])
    cells.append(["total", "", *(f"{before['totals'][p]} -> {after['totals'].get(p, 0)}" for p in players)])
    notes.append([])
    lines = table(cells, "><" + ">" * len(players), [5, 1, *[14] * len(players)])
    lines[0] += f"   ({unit}, before -> after)"
    rows = [f"before: {rules(before)}", f"after:  {rules(after)}"]
    for line, below in zip(lines, notes, strict=True):
        rows += [line, *below]
    rows.append(f"winner: {before['winner'] or 'none yet'} -> {after['winner'] or 'none yet'}")
    changed = [str(r["round"]) for r in out["rounds"] if r["changed"]]
    rows.append(f"rounds changed: {', '.join(changed) or 'none'}")
    return "\n".join(rows)
