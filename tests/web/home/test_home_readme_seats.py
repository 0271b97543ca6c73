"""The README's list of how many players each game seats agrees with the new-session form."""

from __future__ import annotations

import re
from pathlib import Path

from referee import api, families
from referee.web.forms.options import option_fields, seat_range

README = Path(__file__).resolve().parents[3] / "README.md"


def _seats(preset: str) -> tuple[int, int]:
    info, specs = option_fields(preset)
    return seat_range(specs, families.get(info["game"]).seats)


def _claims() -> dict[str, tuple[int, int]]:
    """README "New session": ``(Roppyakken ... 2 or 3; ...; Hachi-hachi 2 to 6; names are compared ...``."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    listed = re.search(r"\*\*New session\*\*:[^(]*\((.*?); names are compared", text).group(1)
    out = {}
    for part in listed.split("; "):
        m = re.fullmatch(r"(.+?) (\d+)(?: (or|to) (\d+))?", part)
        assert m, part
        low, high = int(m.group(2)), int(m.group(4) or m.group(2))
        for name in re.split(r", | and ", m.group(1)):
            out[name.lower().replace("-", "")] = (low, high)
    return out


# Bug: the README said Roppyakken seats 3 and Hachi-hachi 6, where the presets seat 2 or 3 and 2 to 6.
def test_the_readme_names_the_seats_of_every_game_as_the_form_offers_them():
    claims = _claims()
    games = [p for p in api.preset_names() if "-" not in p]  # each game's own preset, not a house variant
    assert sorted(claims) == sorted(games)
    for preset in games:
        assert claims[preset] == _seats(preset), preset
