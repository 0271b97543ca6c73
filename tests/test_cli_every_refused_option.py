"""The command line names every house rule the rules refuse at once (``--option KEY=VALUE`` and a file's own
``options``), in one error line with status 2, as the forms and the API do: never one per run."""

import json
from pathlib import Path

import pytest

from referee.cli import main

EXAMPLES = Path(__file__).parent.parent / "referee" / "examples"


def _error(argv: list[str], capsys) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.count("\n") == 1, err  # one line, as every user error
    return err.removeprefix("hanafuda-referee: error: ").rstrip("\n")


# Bug (CLI review): with two refused options the command named the first only; the player fixed it, ran it
# again and only then learnt of the second.
@pytest.mark.parametrize(
    ("command", "example", "options", "said"),
    [
        ("score", "roppyakken-round.json", ["target=-5", "winner=zzz"],
         "preset roppyakken (with options): 2 options refused: "
         "target (field 'options.target' is -5; expected an integer of at least 1); "
         "winner (field 'options.winner' is 'zzz'; expected one of 'highest-total', 'most-times-over-target')"),
        ("game", "koikoi-game.json", ["rounds=0", "tie=x"],
         "preset koikoi (with options): 2 options refused: "
         "rounds (field 'options.rounds' is 0; expected an integer of at least 1); "
         "tie (field 'options.tie' is 'x'; expected one of 'draw', 'dealer', 'extra-round')"),
        ("rescore", "gostop-game.json", ["stop_points=0", 'ssangpi=["nope"]'],
         "preset gostop (with options): 2 options refused: "
         "stop_points (field 'options.stop_points' is 0; expected an integer of at least 1); "
         "ssangpi (field 'options.ssangpi[0]': “nope” is not a card id: ids are the plant, then the card, such as "
         "pine-crane (Help lists them all))"),
    ],
    ids=["score", "game", "rescore"],
)
def test_two_refused_options_are_named_in_one_error(capsys, command, example, options, said):
    argv = [command, str(EXAMPLES / example), *(a for o in options for a in ("--option", o))]
    assert _error(argv, capsys) == said


def test_a_files_own_refused_option_is_named_with_the_command_lines(tmp_path, capsys):
    data = json.loads((EXAMPLES / "roppyakken-round.json").read_text(encoding="utf-8"))
    round_file = tmp_path / "round.json"
    round_file.write_text(json.dumps({**data, "options": {"target": -5}}), encoding="utf-8")
    said = _error(["score", str(round_file), "--option", "winner=zzz"], capsys)
    assert said.startswith("preset roppyakken (with options): 2 options refused: target (field 'options.target' ")
    assert "; winner (field 'options.winner' is 'zzz'" in said


def test_one_refused_option_reads_as_before(capsys):
    said = _error(["score", str(EXAMPLES / "roppyakken-round.json"), "--option", "target=-5"], capsys)
    assert said == "preset roppyakken (with options): field 'options.target' is -5; expected an integer of at least 1"
