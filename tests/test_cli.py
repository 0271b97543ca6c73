"""The CLI contract (issue 2, section 6): JSON out, text out, errors as one line with status 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import SAFE, cli_file

from referee.cli import main

EXAMPLE = Path(__file__).parent.parent / "referee" / "examples" / "roppyakken-round.json"


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_score_example_json(capsys):
    code, out, _ = run(["score", str(EXAMPLE)], capsys)
    assert code == 0
    data = json.loads(out)
    assert set(data["players"]) == {"Aki", "Ben", "Chiyo"}
    for name, p in data["players"].items():
        lines = [x["points"] for x in data["explanation"] if x["player"] == name]
        assert sum(lines) == p["round_score"]
    assert data["void"] is False
    assert data["instant_win"] is None


def test_score_text(capsys):
    code, out, _ = run(["score", str(EXAMPLE), "--format", "text"], capsys)
    assert code == 0
    assert "Gun (鉄砲)" in out


# Bug: `score --format text` printed "Next dealer (親 oya): Chiyo" for a round scored alone, though a lone
# round does not know its game (it may be the round that ends it).  What follows from the round by the
# rules (RULES.md: the round's highest scorer deals next; KOIKOI-RULES.md, GOSTOP-RULES.md, RULES.md
# "Hachi-hachi": the round's winner) is said as what it is: who deals if another round is played.
@pytest.mark.parametrize(
    ("example", "deals"),
    [
        ("roppyakken-round.json", "If another round is played, Ben deals it (親 oya)."),
        ("koikoi-round.json",     "If another round is played, Aki deals it (親 oya)."),
        ("gostop-round.json",     "If another round is played, Jiwoo deals it (선 seon)."),
        ("hachihachi-round.json", "If another round is played, A deals it (親 oya)."),
    ],
    ids=["roppyakken", "koikoi", "gostop", "hachihachi"],
)
def test_a_lone_round_names_no_next_dealer_of_a_game_it_does_not_know(capsys, example, deals):
    code, out, _ = run(["score", str(EXAMPLE.parent / example), "--format", "text"], capsys)
    assert code == 0
    assert "Next dealer" not in out
    assert deals in out


# Asked (CLI review): the JSON of `score` should name who deals next, as the text does; it does, as
# "next_dealer", and now the help says so.
@pytest.mark.parametrize("example", ["roppyakken-round.json", "koikoi-round.json", "gostop-round.json",
                                     "hachihachi-round.json"], ids=["roppyakken", "koikoi", "gostop", "hachihachi"])
def test_a_lone_rounds_json_names_who_deals_next_as_its_text_does(capsys, example):
    _, out, _ = run(["score", str(EXAMPLE.parent / example)], capsys)
    _, text, _ = run(["score", str(EXAMPLE.parent / example), "--format", "text"], capsys)
    deals = json.loads(out)["next_dealer"]
    assert f"If another round is played, {deals} deals it (" in text


def test_the_score_help_documents_next_dealer(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert '"next_dealer" (who deals if another round is played)' in said


def test_option_flag_overrides(capsys):
    code, out, _ = run(["score", str(EXAMPLE), "--option", "teppo_replaces_viewing=false"], capsys)
    assert code == 0
    aki = json.loads(out)["players"]["Aki"]
    assert {y["id"] for y in aki["yaku"]} >= {"teppo", "hanami", "tsukimi"}


def test_stdin(capsys, monkeypatch):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(
        {"ruleset": "yukbaek", "players": ["A", "B", "C"],
         "piles": {"A": ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"]}})))
    code, out, _ = run(["score", "-"], capsys)
    assert code == 0
    assert json.loads(out)["players"]["A"]["round_score"] == 350


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ('{"players": ["A", "B"], "piles": {"A": ["pine-crain"]}}', "unknown card 'pine-crain'"),
        ('{"players": ["A", "B"], "piles": {"A": ["maple-deer"], "B": ["maple-deer"]}}', "in both pile A and pile B"),
        ('{"players": ["A", "B", "C", "D"], "piles": {}}', "for 2 or 3 players"),
        ('{"players": ["A", "B"], "pile": {}}', "unknown key(s) in the round: pile"),
        ('{"players": "A"}', "\"players\" must be a list"),
        ("[1, 2]", "expected a JSON object"),
        ("{not json", "not valid JSON"),
        ('{"ruleset": "bogus", "players": ["A", "B"]}', "unknown ruleset 'bogus'"),
    ],
    ids=["unknown card", "duplicate", "player count", "unknown key", "bad players", "not an object", "bad JSON",
         "bad ruleset"],
)
def test_errors_are_one_line_with_status_2(tmp_path, capsys, payload, message):
    f = tmp_path / "round.json"
    f.write_text(payload, encoding="utf-8")
    code, out, err = run(["score", str(f)], capsys)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_missing_file(capsys):
    code, _, err = run(["score", "/nonexistent/round.json"], capsys)
    assert code == 2
    assert "cannot read" in err


def test_bad_option_syntax(capsys):
    code, _, err = run(["score", str(EXAMPLE), "--option", "fuke.threshold"], capsys)
    assert code == 2
    assert "expected KEY=VALUE" in err


def test_an_option_of_5000_digits_is_an_error_not_a_traceback(capsys):
    # TOML reading such a number raised ValueError (Python's 4300-digit limit), not a decode error
    code, _, err = run(["score", str(EXAMPLE), "--option", "target=" + "9" * 5000], capsys)
    assert code == 2
    assert "options.target" in err
    assert "expected an integer" in err


def test_game_command(tmp_path, capsys):
    f = tmp_path / "game.json"
    f.write_text(json.dumps({"ruleset": "roppyakken", "players": ["A", "B"], "dealer": "B", "rounds": [
        {"piles": {"A": ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"],
                   "B": ["maple-deer", "iris-ribbon", "iris-bridge", "wisteria-ribbon"]}}]}), encoding="utf-8")
    code, out, _ = run(["game", str(f)], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["winner"] == "A"
    assert data["rounds"][0]["dealer"] == "B"
    code, out, _ = run(["game", str(f), "--format", "text"], capsys)
    assert "winner: A" in out


def test_rulesets_command(capsys):
    code, out, _ = run(["rulesets"], capsys)
    assert code == 0
    assert "yukbaek" in out
    code, out, _ = run(["rulesets", "sambong"], capsys)
    assert json.loads(out)["name"] == "sambong"


def test_console_script_runs_as_a_module():
    proc = subprocess.run([sys.executable, "-m", "referee.cli", "score", str(EXAMPLE), "--format", "text"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Aki:" in proc.stdout


def test_serve_runs_waitress_with_its_threads_and_kept_connections(tmp_path, monkeypatch, capsys):
    # Dropping DB_KEEP_CONNECTIONS or waitress's threads= once passed every test: the browser
    # test of serve checks only the header, the host key and the backups.
    import waitress

    from referee import cli

    served = {}
    build = cli._web_app

    def web_app(args):
        app = build(args)
        runner = app.extensions.get("photo_runner")
        if runner is not None:  # no model loading in a unit test
            monkeypatch.setattr(runner, "ready", lambda timeout: (True, ""))
        return app

    def serve(app, **kwargs):
        served.update(kwargs, keep=app.config.get("DB_KEEP_CONNECTIONS"))

    monkeypatch.setattr(cli, "_web_app", web_app)
    monkeypatch.setattr(waitress, "serve", serve)
    assert main(["serve", "--data", str(tmp_path), "--port", "8123", "--threads", "3"]) == 0
    assert served["keep"] is True
    assert (served["threads"], served["port"], served["connection_limit"]) == (3, 8123, 100)
    assert served["ident"] == "hanafuda-referee"
    assert "host key:" in capsys.readouterr().out


# Bug (a newcomer's break-test): game rounds of the wrong shape crashed or were played as empty.
@pytest.mark.parametrize(
    "rounds",
    [[{"piles": 5}], [{"piles": {"A": 5}}], [{"piles": {}, "hands": 5}], [{}], [{"piles": {}, "dealer": "Q"}]],
    ids=["piles not an object", "pile not a list", "hands not an object", "no piles", "unknown key"],
)
def test_game_round_with_wrong_types_is_one_line(tmp_path, capsys, rounds):
    code, _, err = cli_file(tmp_path, capsys, {"players": ["A", "B"], "rounds": rounds}, "game")
    assert code == 2
    assert err.startswith("hanafuda-referee: error: round 1")
    assert err.count("\n") == 1


# Bug (a newcomer's break-test): deeply nested JSON was a RecursionError traceback.
def test_deeply_nested_json(tmp_path, capsys):
    code, _, err = cli_file(tmp_path, capsys, "[" * 100000 + "]" * 100000)
    assert code == 2
    assert "nested too deeply" in err


# Bug (a newcomer's break-test): a file saved with a UTF-8 BOM was refused as not valid JSON.
def test_utf8_bom_is_accepted(tmp_path, capsys):
    code, out, _ = cli_file(tmp_path, capsys, "\ufeff" + json.dumps({"players": ["A", "B"], "piles": {"A": SAFE}}))
    assert code == 0
    assert json.loads(out)["players"]["A"]["card_points"] == 40


# Bug (a newcomer's break-test): a usage error printed argparse's usage block on several lines.
def test_usage_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        main(["score", "--format", "xml", str(EXAMPLE)])
    assert e.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


# Bug (a newcomer's break-test): a ruleset path in a round file was read from the working directory.
def test_ruleset_path_is_relative_to_the_round_file(tmp_path, capsys, monkeypatch):
    (tmp_path / "house.toml").write_text('extends = "roppyakken"\n[yaku.oozan]\npoints = 100\n', encoding="utf-8")
    monkeypatch.chdir("/")
    code, out, _ = cli_file(tmp_path, capsys, {"ruleset": "house.toml", "players": ["A", "B"],
                                               "piles": {"A": ["pine-crane", "plum-bush-warbler", "cherry-curtain"]}})
    assert code == 0
    assert json.loads(out)["players"]["A"]["yaku"][0]["points"] == 100
