"""Test notation: short helpers so tests read like the rule tables."""

from __future__ import annotations

import json

from referee.cli import main
from referee.roppyakken.round import make_round, score_round
from referee.ruleset import load_ruleset

SHIKO = ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"]
POETRY = ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]
BLUE = ["peony-blue-ribbon", "chrysanthemum-blue-ribbon", "maple-blue-ribbon"]
GRASS = ["wisteria-ribbon", "iris-ribbon", "bush-clover-ribbon"]
INOSHIKACHO = ["bush-clover-boar", "maple-deer", "peony-butterflies"]
TEPPO = ["cherry-curtain", "pampas-moon", "chrysanthemum-sake-cup"]
#: A pile that keeps a player safely above the fuke threshold without making yaku: 40 points.
SAFE = ["wisteria-cuckoo", "iris-bridge", "pampas-geese", "paulownia-chaff-yellow"]
#: Another safe 40-point pile, disjoint from SAFE.
LOW = ["maple-blue-ribbon", "iris-ribbon", "wisteria-ribbon", "peony-blue-ribbon"]


def rules(preset: str = "roppyakken", **options):
    """A preset with dotted options given as keyword args (``fuke__threshold=40``)."""
    return load_ruleset(preset, {k.replace("__", "."): v for k, v in options.items()})


def score(pile, preset: str = "roppyakken", hand=None, others=(SAFE,), **options):
    """Score ``pile`` for player A against other piles; returns the RoundResult."""
    r = rules(preset, **options)
    names = ["A", "B", "C"][: 1 + len(others)]
    piles = {"A": list(pile), **{n: list(p) for n, p in zip(names[1:], others, strict=True)}}
    hands = {"A": list(hand)} if hand else None
    return score_round(r, make_round(r, names, piles, hands))


def yaku_of(result, player: str = "A") -> dict[str, int]:
    """Yaku id -> points for one player."""
    return {y.code: y.points for y in result.player(player).yaku}


def cli_file(tmp_path, capsys, payload, *argv):
    """Run the CLI on ``payload`` (an object, as JSON, or text as it is) saved as a file: ``score FILE``,
    or ``argv`` then the file (``"game"``).  Returns (exit code, stdout, stderr)."""
    f = tmp_path / "in.json"
    f.write_text(payload if isinstance(payload, str) else json.dumps(payload), encoding="utf-8")
    code = main([*argv, str(f)] if argv else ["score", str(f)])
    out, err = capsys.readouterr()
    return code, out, err
