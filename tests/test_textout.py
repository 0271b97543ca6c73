"""The CLI's text tables (``referee/textout.py``, ``--format text``) line up as a terminal shows them:
each column as wide as its widest cell, counted in terminal columns, so long names, names in
characters a terminal draws two columns wide (日本, 김민호) and long cells ("-300 (void) -> -300
(void)") keep every column under its heading."""

import re
from pathlib import Path

import pytest

from referee.cli import main
from referee.textout import display_width

EXAMPLES = Path(__file__).parent.parent / "referee" / "examples"
#: Each drawn two columns wide in a terminal (East Asian Wide).
WIDE = set("日本김민호")
NAMES = {
    "ascii": {"Jiwoo": "Ji", "Minho": "Minho-Alexander-Kim", "Seoyeon": "Seo"},
    "wide": {"Jiwoo": "日本", "Minho": "김민호", "Seoyeon": "Seoyeon-Alexandra"},
}


def shown(line: str) -> str:
    """The line as a terminal lays it out: a wide character takes two columns ("xx")."""
    return "".join("xx" if c in WIDE else c for c in line)


def heads(line: str) -> dict[str, tuple[int, int]]:
    """Each heading of a table's header line -> its (first, past-the-end) terminal column."""
    return {m.group(): (m.start(), m.end()) for m in re.finditer(r"\S+", shown(line))}


def ends_at(line: str, column: int) -> bool:
    """Whether a cell of the line ends at the terminal column ``column`` (a right-aligned column)."""
    row = shown(line)
    return row[column - 1] != " " and (column == len(row) or row[column] == " ")


def renamed(tmp_path: Path, names: dict[str, str]) -> Path:
    """The Go-Stop example game with its players renamed."""
    text = (EXAMPLES / "gostop-game.json").read_text(encoding="utf-8")
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    return path


def run(argv, capsys) -> list[str]:
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("names", NAMES.values(), ids=NAMES.keys())
def test_a_game_table_keeps_each_column_under_its_heading(tmp_path, capsys, names):
    # Bug: columns were sized with len(), so 日本 or 김민호 (two terminal columns a character) pushed
    # every cell after them out of line.
    lines = run(["game", str(renamed(tmp_path, names)), "--format", "text"], capsys)
    header, rows = lines[0], [line for line in lines[1:] if re.match(r"\s+\d", line)]
    at = heads(header)
    assert len(rows) == 3
    for row in rows:
        assert ends_at(row, at["round"][1]), row
        for player in names.values():
            assert ends_at(row, at[shown(player)][1]), (player, row)
        dealer = next(p for p in names.values() if shown(row)[at["dealer"][0]:].startswith(shown(p)))
        assert shown(row)[at["dealer"][0] - 1] == " ", dealer  # left-aligned under "dealer"


@pytest.mark.parametrize("names", NAMES.values(), ids=NAMES.keys())
def test_a_what_if_table_keeps_each_column_under_its_heading(tmp_path, capsys, names):
    # Bug: cells were padded to 14 characters at least, so a void round's "-300 (void) -> -300 (void)"
    # pushed the columns after it out of line.
    lines = run(["rescore", str(renamed(tmp_path, names)), "--format", "text"], capsys)
    header = next(line for line in lines if line.startswith("round"))
    rows = [line for line in lines if re.match(r"\s+\d|total", line)]
    at = heads(header)
    assert len(rows) == 4
    assert "(void)" in rows[0]
    for row in rows:
        assert ends_at(row, at["round"][1]), row
        for player in names.values():
            assert ends_at(row, at[shown(player)][1]), (player, row)


def test_the_rulesets_list_starts_every_title_in_one_column(capsys):
    # Bug: names were padded to 16 characters, so "hachihachi-fudawiki" pushed its title out of line.
    lines = run(["rulesets"], capsys)
    titles = {line.split(" ", 1)[0]: len(line) - len(line.split(" ", 1)[1].lstrip()) for line in lines}
    assert max(map(len, titles)) > 16
    assert len(set(titles.values())) == 1, titles
    assert min(titles.values()) > max(map(len, titles))  # a space after the longest name


@pytest.mark.parametrize(("text", "columns"), [("Aki", 3), ("日本", 4), ("김민호", 6), ("e\u0301", 1), ("", 0)],
                         ids=["ascii", "kanji", "hangul", "combining accent", "empty"])
def test_display_width_counts_terminal_columns(text, columns):
    assert display_width(text) == columns
