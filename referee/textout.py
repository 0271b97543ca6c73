"""Plain-text tables of round and game results, for ``--format text``.

Reads the public JSON shapes only, so it works for every family.  Pure core.
"""

from __future__ import annotations


def _line(line: dict) -> str:
    cards = ", ".join(line.get("cards", []))
    label = f"{line['en']} ({line['ja']})" if line.get("ja") else line["en"]
    return f"    {line['points']:>+6}  {label}" + (f"  [{cards}]" if cards else "")


def round_text(out: dict) -> str:
    """A readable table of a round result object (README "Round result")."""
    rows = []
    for name, p in out["players"].items():
        score = p["net_text"] if "net_text" in p else p.get("round_score")
        rows.append(f"{name}: {score}")
        rows += [_line(x) for x in out.get("explanation", []) if x["player"] == name]
    if out.get("entered_totals") or out.get("outcome") == "entered-totals":
        rows.append("Entered totals: the table scored this round on paper; no cards were given.")
    if out.get("void"):
        rows.append("Round void (fuke): nobody scores; the same dealer deals again.")
    if out.get("instant_win"):
        rows.append(f"Instant win: {out['instant_win']} wins the game.")
    if out.get("next_dealer"):
        rows.append(f"Next dealer (oya): {out['next_dealer']}")
    rows += [f"warning: {w}" for w in out.get("warnings", [])]
    return "\n".join(rows)


def game_text(out: dict) -> str:
    """A readable table of a game result object (README "Game result").

    Totals print as the family writes them when its rounds carry ``totals_text``
    (Hachi-hachi: kan and mon), else as numbers.
    """
    players = out["players"]
    texts = [r.get("totals_text") or {} for r in out["rounds"]]
    money = any(texts)
    width = max(16 if money else 8, *(len(p) for p in players))
    head = f"{'round':>5} {'dealer':<{width}} " + " ".join(f"{p:>{width}}" for p in players)
    rows = [head]
    for r, text in zip(out["rounds"], texts, strict=True):
        marks = " void" if r.get("void") else ""
        if r.get("game_winner"):
            marks += f" -> {r['game_winner']} wins game {r.get('game', 1)}"
        rows.append(f"{r['round']:>5} {r['dealer']:<{width}} "
                    + " ".join(f"{text.get(p, r['totals'][p])!s:>{width}}" for p in players) + marks)
    rows += [f"{s['rank']}. {s['player']}: {s['text']}" for s in out.get("standings", [])]
    rows.append(f"winner: {out['winner'] or 'none yet'}")
    return "\n".join(rows)
