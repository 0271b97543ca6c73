"""One game family is one thing in one place (issue 13, "First, make a game family one thing in one place").

- No module of the app names a family: only ``referee/families.py`` (the registry) and the
  family's own package do (an AST check over ``referee/``).
- A toy family (``tests/toy_family.py``) registered with one preset file shows up in the CLI
  ``rulesets`` listing and scores rounds and games through the CLI and the API without a line
  of other code (its web session: ``tests/web/test_web_families.py``).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from referee import api, families, ruleset
from referee.cli import main
from referee.errors import RefereeError
from referee.family import BOARDS, ENTRY_FORMS

ROOT = Path(__file__).resolve().parents[2]
REGISTRY_MODULE = ROOT / "referee" / "families.py"


def _strings_and_imports(path: Path) -> tuple[set[str], set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    strings, imports = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            strings.add(node.value)
        elif isinstance(node, ast.Import):
            imports |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imports.add(node.module)
            imports |= {f"{node.module}.{a.name}" for a in node.names}
    return strings, imports


def _outside_the_families():
    packages = {ROOT / "referee" / name for name in families.REGISTRY}
    for path in sorted((ROOT / "referee").rglob("*.py")):
        if path != REGISTRY_MODULE and not any(pkg in path.parents for pkg in packages):
            yield path


@pytest.mark.parametrize("path", list(_outside_the_families()), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_outside_the_registry_names_a_family(path):
    strings, imports = _strings_and_imports(path)
    named = {
        s for s in strings for name in families.REGISTRY if s == name or s.startswith(f"referee.{name}")
    }
    imported = {m for m in imports for name in families.REGISTRY if m == f"referee.{name}"
                or m.startswith(f"referee.{name}.")}
    assert not named, f"{path.name} names a family in a string: {named}; read referee.families instead"
    assert not imported, f"{path.name} imports a family package: {imported}; go through referee.families"


def test_every_family_names_an_entry_form_and_a_board_the_web_app_has():
    from referee.web.board import BOARDS as WEB_BOARDS
    from referee.web.forms.rounds import ENTRY_FORMS as WEB_FORMS

    assert set(WEB_FORMS) == set(ENTRY_FORMS)
    assert set(WEB_BOARDS) == set(BOARDS)
    for family in families.REGISTRY.values():
        assert family.entry_form in WEB_FORMS, family.name
        assert family.board in WEB_BOARDS, family.name


def test_an_unknown_family_is_a_clear_error():
    with pytest.raises(RefereeError, match=r"field 'game' is 'poker'; expected one of roppyakken, hachihachi"):
        families.get("poker")


def test_a_registered_family_is_in_the_cli_listing_and_scores(toy, tmp_path, capsys):
    assert main(["rulesets"]) == 0
    assert "Toy: a point a card" in capsys.readouterr().out
    assert main(["rulesets", "toy"]) == 0
    assert json.loads(capsys.readouterr().out)["options"][0]["key"] == "target"
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"ruleset": "toy", "players": ["A", "B"],
                                "piles": {"A": ["pine-crane", "pine-chaff-1"], "B": ["plum-chaff-1"]}}))
    assert main(["score", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["players"]["A"]["round_score"] == 2
    game = {"ruleset": "toy", "players": ["A", "B"], "rounds": [{"piles": {"A": ["pine-crane"]}}]}
    assert api.game_json(game)["totals"] == {"A": 1, "B": 0}




def test_the_board_replay_leaves_out_rejected_rounds_in_few_passes():
    """A rejected round is left out and the rounds after it still count; every round after a
    game-over is left out at once (referee.web.board.replay; docs/BENCHMARKS.md)."""
    from dataclasses import replace

    from referee.web.board import replay

    calls = []
    koikoi = families.get("koikoi")

    def counted(rules, data):
        calls.append(len(data["rounds"]))
        return koikoi.game_json(rules, data)

    family = replace(koikoi, game_json=counted)
    rules = ruleset.load_ruleset("koikoi", {"rounds": 2})
    win = {"piles": {"A": ["pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"]}, "stopped_by": "A"}
    stored = [win, {"piles": {}, "stopped_by": "B"}, win, win, win]
    out, rows = replay(family, rules, {"players": ["A", "B"]}, stored)
    assert [r.error for r in rows] == [
        None, "B stopped but holds no yaku; only a player with a yaku may stop", None,
        "the game is over (A won after 2 rounds); start a new game",
        "the game is over (A won after 2 rounds); start a new game"]
    assert out["totals"] == {"A": 10, "B": 0}
    assert calls == [5, 4, 2]  # three passes, not one per round
