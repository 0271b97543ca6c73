"""``hanafuda-referee``: the command-line app layer over the rules core.

Subcommands: ``score`` (one round), ``game`` (a whole game), ``rescore``
(a saved game under other rules: what if), ``rulesets`` (presets and their
options), ``serve`` (the web app) and ``detect`` (card recognition; needs the
``vision`` extra).  User errors print one line on
stderr and exit with status 2 (README "Command line").
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee import api
from referee.errors import RefereeError
from referee.rescore import game_of, merged_options, rescore
from referee.ruleset import parse_value
from referee.textout import game_text, rescore_text, round_text


def _read_json(path: str) -> dict:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise RefereeError("bad-round", f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RefereeError("bad-round", f"{path} is not UTF-8 text") from None
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as e:
        raise RefereeError("bad-round", f"{path} is not valid JSON: {e}") from None
    except RecursionError:
        raise RefereeError("bad-round", f"{path}: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise RefereeError("bad-round", f"{path}: expected a JSON object, got {type(data).__name__}")
    ruleset = data.get("ruleset")
    if path != "-" and isinstance(ruleset, str) and ruleset.endswith(".toml") and not Path(ruleset).is_absolute():
        beside = Path(path).parent / ruleset
        if beside.is_file() and not Path(ruleset).is_file():
            data["ruleset"] = str(beside)  # a ruleset path in a file is relative to that file
    return data


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise RefereeError("bad-ruleset", f"--option {pair!r}: expected KEY=VALUE, e.g. fuke.threshold=40")
        out[key.strip()] = value.strip()
    return out


def _with_options(data: dict, pairs: Sequence[str]) -> dict:
    extra = _options(pairs)
    if extra:
        given = data.get("options") or {}
        if not isinstance(given, dict):
            raise RefereeError("bad-round", f"\"options\" must be an object, got {given!r}")
        data = {**data, "options": {**given, **extra}}
    return data


def _print(obj: dict) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))


def cmd_score(args: argparse.Namespace) -> int:
    """Score one round file."""
    out = api.score_json(_with_options(_read_json(args.file), args.option))
    print(round_text(out)) if args.format == "text" else _print(out)
    return 0


def cmd_game(args: argparse.Namespace) -> int:
    """Play a whole game file."""
    out = api.game_json(_with_options(_read_json(args.file), args.option))
    print(game_text(out)) if args.format == "text" else _print(out)
    return 0


def cmd_rescore(args: argparse.Namespace) -> int:
    """Re-score a session export (or a game file) under another ruleset or other options."""
    game = game_of(_read_json(args.file))
    overrides = {k: parse_value(v) for k, v in _options(args.option).items()}
    ruleset, options = merged_options(game, args.ruleset, overrides)
    out = rescore(game, ruleset, options)
    print(rescore_text(out)) if args.format == "text" else _print(out)
    return 0


def cmd_rulesets(args: argparse.Namespace) -> int:
    """List presets, or one preset's options."""
    if args.name:
        _print(api.ruleset_json(args.name))
    else:
        for name in api.preset_names():
            print(f"{name:16} {api.ruleset_json(name)['title']}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web app (the ``web`` module; imported only here)."""
    from referee.web import create_app

    app = create_app()
    app.run(host=args.host, port=args.port, debug=False, threaded=True)
    return 0


def cmd_detect(args: argparse.Namespace) -> int:
    """Detect cards in photos (needs the vision extra)."""
    from vision.cli import run_detect

    return run_detect(args)


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line on stderr with status 2, like every other user error."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``hanafuda-referee``."""
    parser = _Parser(prog="hanafuda-referee", description="Scoring referee for hanafuda games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, fn, helptext in (("score", cmd_score, "score one round from a JSON file"),
                               ("game", cmd_game, "play a game of rounds from a JSON file")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input")
        p.add_argument("--format", choices=("json", "text"), default="json")
        p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="override a ruleset option, e.g. fuke.threshold=40 (repeatable)")
        p.set_defaults(func=fn)
    p = sub.add_parser("rescore", help="what if: re-score a session export under other rules, round by round")
    p.add_argument("file", nargs="?", default="-", help="a session export (Export JSON) or a game JSON file, or -")
    p.add_argument("--ruleset", help="another preset or ruleset file (default: the game's own)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="change a ruleset option, e.g. fuke.threshold=40 (repeatable); on top of the game's "
                   "options, or of the new preset's defaults with --ruleset")
    p.add_argument("--format", choices=("json", "text"), default="json")
    p.set_defaults(func=cmd_rescore)
    p = sub.add_parser("rulesets", help="list presets, or show one preset's options")
    p.add_argument("name", nargs="?")
    p.set_defaults(func=cmd_rulesets)
    p = sub.add_parser("serve", help="run the web app")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("detect", help="name the cards in photos (vision extra)")
    try:
        from vision.cli import add_detect_arguments
    except ImportError:
        p.add_argument("images", nargs="*")
    else:
        add_detect_arguments(p)
    p.set_defaults(func=cmd_detect)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (0, or 2 for a user error)."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ImportError as e:
        print(f"hanafuda-referee: error: {args.command} needs an optional dependency: {e}", file=sys.stderr)
        return 2
    except ValueError as e:  # RefereeError and other user-input problems
        print(f"hanafuda-referee: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
