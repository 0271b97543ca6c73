"""``hanafuda-referee``: the command-line app layer over the rules core.

Subcommands: ``score`` (one round), ``game`` (a whole game), ``rescore``
(a saved game under other rules: what if), ``rulesets`` (presets and their
options), ``serve`` (the web app on waitress), ``backup``, ``restore``,
``export`` and ``import`` (its data), and ``detect`` (card recognition; needs
the ``vision`` extra).  User errors print one line on
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
from referee.paths import cannot_write, names_a_folder, same_file, write_whole
from referee.rescore import game_of, merged_options, rescore
from referee.ruleset import parse_value
from referee.textout import game_text, rescore_text, round_text, table


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
            raise RefereeError("bad-round", f"\"options\" must be an object, {given(given)}")
        data = {**data, "options": {**given, **extra}}
    return data


def _print(obj: dict) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))


def cmd_score(args: argparse.Namespace) -> int:
    """Score one round file: the round result (README "Round result"), JSON by default.  Its
    ``next_dealer`` is who deals if another round is played (the text's "If another round is played,
    Ben deals it (親 oya)."): a lone round does not know whether its game goes on."""
    data = _with_options(_read_json(args.file), args.option)
    out = api.score_json(data)
    print(round_text(out, api.family_of(data))) if args.format == "text" else _print(out)
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
        print("\n".join(table([[name, api.ruleset_json(name)["title"]] for name in api.preset_names()], "<<")))
    return 0


def _web_app(args: argparse.Namespace):
    """The web app (imported only by the web subcommands), on ``--data`` when given."""
    import os

    from referee.web import create_app

    if not getattr(args, "data", None):
        return create_app()
    key, before = "HANAFUDA_REFEREE_DATA", os.environ.get("HANAFUDA_REFEREE_DATA")
    os.environ[key] = str(Path(args.data).resolve())
    try:
        return create_app()
    finally:
        if before is None:
            del os.environ[key]
        else:
            os.environ[key] = before


def _addresses(host: str, port: int) -> list[str]:
    """The URLs people can open: this computer's, and the LAN address when listening on all."""
    import socket

    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{host}:{port}"]
    urls = [f"http://127.0.0.1:{port}"]
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # a documentation address: no packet is sent for UDP connect
            urls.append(f"http://{s.getsockname()[0]}:{port}")
    except OSError:
        pass
    return urls


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web app on waitress (a production WSGI server), or Flask's reloader with ``--dev``."""
    from referee.backup import AutoBackups

    app = _web_app(args)
    app.config["DB_KEEP_CONNECTIONS"] = True  # one connection per server thread, reused
    urls = _addresses(args.host, args.port)
    backups = Path(app.config["DATA_DIR"]) / "backups"
    print(f"hanafuda-referee: serving on {' and '.join(urls)}", flush=True)
    print(f"  data folder: {app.config['DATA_DIR']} (automatic backups in {backups})", flush=True)
    print(f"  host key: {app.config['HOST_KEY']}", flush=True)
    print(f"    to list every session on this server, open {urls[-1]}/host and enter the key", flush=True)
    print("  stop with Ctrl+C", flush=True)
    if args.dev:
        app.run(host=args.host, port=args.port, debug=True, use_reloader=True)
        return 0
    import waitress

    auto = AutoBackups(app.config["DATABASE"], backups, keep=int(app.config.get("BACKUP_KEEP", 7)),
                       log=lambda m: print(f"  {m}", flush=True)).start()
    # Warm the card detector so the first photo (and /healthz) does not wait for the models.
    runner = app.extensions.get("photo_runner")
    if runner is not None:
        import threading

        threading.Thread(target=runner.ready, args=(120.0,), name="load-models", daemon=True).start()
    try:
        waitress.serve(
            app,
            host=args.host,
            port=args.port,
            threads=args.threads,
            ident="hanafuda-referee",
            connection_limit=max(100, 8 * args.threads),
            channel_timeout=60,
        )
    finally:
        auto.stop()
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """Back up the database with SQLite's online backup (safe while the app serves)."""
    from referee.backup import backup, stamp

    app = _web_app(args)
    out = Path(args.out) if args.out else Path(app.config["DATA_DIR"]) / "backups" / f"manual-{stamp()}.sqlite3"
    if args.out and (names_a_folder(args.out) or out.is_dir()):  # a folder, made when new
        out = out / f"hanafuda-referee-{stamp()}.sqlite3"
    print(backup(app.config["DATABASE"], out))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Replace the database with a backup (the current one is kept in the backups folder first)."""
    from referee.backup import check_backup, restore

    app = _web_app(args)
    counts = check_backup(args.file)
    kept = restore(app.config["DATABASE"], args.file, Path(app.config["DATA_DIR"]) / "backups")
    print(f"restored {counts['sessions']} sessions and {counts['rounds']} rounds from {args.file}")
    print(f"the database as it was before is kept in {kept}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Export every session (``--all``), or one (by its viewer or scorekeeper token), as importable JSON."""
    from referee.web import get_db
    from referee.web.service import archive

    if bool(args.all) == bool(args.token):
        raise RefereeError("bad-round", "give either --all or one session's token")
    to_file = bool(args.output) and args.output != "-"
    if to_file and (why := cannot_write(Path(args.output))):
        raise RefereeError("bad-round", f"-o {args.output}: cannot write the export: {why}")
    app = _web_app(args)
    if to_file:
        db = Path(app.config["DATABASE"])
        kept = [db, *(db.with_name(db.name + end) for end in ("-wal", "-shm", "-journal"))]
        if any(same_file(Path(args.output), f) for f in kept):
            raise RefereeError("bad-round", f"-o {args.output}: that is the database itself; choose another file name")
    with app.app_context():
        if args.all:
            data = archive.export_all(get_db())
        else:
            sess, _ = store_find(args.token)
            data = archive.export_data(get_db(), sess)
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if to_file:
        try:  # whole or not at all: a full disk leaves an earlier export as it was
            write_whole(Path(args.output), (text + "\n").encode("utf-8"))
        except OSError as e:  # checked above; still possible (a full disk)
            raise RefereeError("bad-round", f"-o {args.output}: cannot write the export: {e.strerror or e}") from None
        n = len(data["sessions"]) if args.all else 1
        print(f"exported {n} session{'' if n == 1 else 's'} to {args.output}", file=sys.stderr)
    else:
        print(text)
    return 0


def store_find(token: str):
    """The session a token opens (in an app context).  Raises ``RefereeError``."""
    from referee import store
    from referee.web import get_db

    try:
        return store.find_session(get_db(), token)
    except store.DeletedSessionError as e:
        raise RefereeError("bad-round", f"the session {e.session.name!r} ({token!r}) is deleted; bring it back "
                           "first (Undo on its scorekeeper link, or Deleted sessions on the home page)") from None
    except store.NotFoundError:
        raise RefereeError("bad-round", f"no session has the token {token!r}") from None


def cmd_import(args: argparse.Namespace) -> int:
    """Create sessions from a session export or an ``export --all`` archive: every session it
    can; exit status 2 when one was refused (named on stderr), the others imported."""
    from referee.web import get_db
    from referee.web.service import archive

    app = _web_app(args)
    data = _read_json(args.file)
    with app.app_context():
        batch = archive.sessions_to_create(data)
        made = archive.create_all(get_db(), batch.sessions)
        for sess in made:
            print(f"imported {sess.name!r}: scorekeeper link /s/{sess.edit_token}, viewer link /s/{sess.view_token}")
    for note in batch.not_counted:
        print(f"kept as not counted, as the scoreboard showed it: {note}", file=sys.stderr)
    for why in batch.refused:
        print(f"not imported: {why}", file=sys.stderr)
    return 2 if batch.refused else 0


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
    formats = {
        "score": 'json (default): the round result (README "Round result"), with "dealer" (this round\'s oya) '
                 'and "next_dealer" (who deals if another round is played); text: the same in words',
        "game": 'json (default): the game result (README "Game input and result"), with "next_dealer" (who '
                'deals the next round, should one be played) and "winner" (null while the game goes on); text: '
                'the same in words',
    }
    for name, fn, helptext in (("score", cmd_score, "score one round from a JSON file"),
                               ("game", cmd_game, "play a game of rounds from a JSON file")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("file", nargs="?", default="-", help="JSON file, or - for standard input")
        p.add_argument("--format", choices=("json", "text"), default="json", help=formats[name])
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
    data = {"metavar": "DIR", "help": "the data folder (default: $HANAFUDA_REFEREE_DATA, else the instance folder)"}
    p = sub.add_parser("serve", help="run the web app (waitress)")
    p.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to let phones on the same network in")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--threads", type=int, default=16,
                   help="requests served at once (default 16: a six-player table snapping photos, and its viewers)")
    p.add_argument("--dev", action="store_true", help="Flask's development server with its reloader, not waitress")
    p.add_argument("--data", **data)
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("backup", help="back up the database (SQLite online backup, safe while serving)")
    p.add_argument("out", nargs="?", help="file or folder (default: DATA_DIR/backups/manual-<time>.sqlite3)")
    p.add_argument("--data", **data)
    p.set_defaults(func=cmd_backup)
    p = sub.add_parser("restore", help="replace the database with a backup (the current one is kept first)")
    p.add_argument("file")
    p.add_argument("--data", **data)
    p.set_defaults(func=cmd_restore)
    p = sub.add_parser("export", help="export sessions as importable JSON")
    p.add_argument("token", nargs="?", help="one session's viewer or scorekeeper token")
    p.add_argument("--all", action="store_true", help="every session, as one archive")
    p.add_argument("-o", "--output", help="file to write (default: standard output)")
    p.add_argument("--data", **data)
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("import", help="create sessions from an export or an export --all archive")
    p.add_argument("file", help="JSON file, or - for standard input")
    p.add_argument("--data", **data)
    p.set_defaults(func=cmd_import)
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
