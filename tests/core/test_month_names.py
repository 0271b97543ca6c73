"""Months are named to players by their plants (issue 12, item 2): ``Pine (松, month 1)``, never a bare
"month 1", in errors, warnings, explanations and the web app (``referee.cards.month_label``)."""

import re
from pathlib import Path

import pytest
from helpers import rules

from referee.errors import RefereeError
from referee.hachihachi import settle_round
from referee.roppyakken.round import make_round
from referee.ruleset import load_ruleset

ROOT = Path(__file__).parents[2]
PINES = ["pine-crane", "pine-poetry-ribbon", "pine-chaff-1", "pine-chaff-2"]
OTHERS = ["plum-chaff-1", "cherry-chaff-1", "wisteria-chaff-1", "iris-chaff-1"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: make_round(rules(), ["A", "B", "C"], {}, field=[*PINES, *OTHERS[:2]]),
         "misdeal: the field holds all four cards of Pine (松, month 1)"),
        (lambda: make_round(rules(), ["A", "B", "C"], {}, hands={"A": [*PINES, *OTHERS[:3]]}),
         "misdeal: hand A holds all four cards of Pine (松, month 1)"),
        (lambda: settle_round(load_ruleset("hachihachi"), players=["A", "B", "C"], field=[*PINES, *OTHERS[:2]]),
         "misdeal: the field holds all four cards of Pine (松, month 1)"),
    ],
    ids=["roppyakken field", "roppyakken hand", "hachihachi field"],
)
def test_misdeals_name_the_month_by_its_plant(call, message):
    with pytest.raises(RefereeError, match=re.escape(message)):
        call()


def test_the_capture_bonus_names_the_month():
    hand = ["wisteria-cuckoo", "wisteria-ribbon", "wisteria-chaff-1", "pine-crane", "cherry-curtain",
            "pampas-moon", "maple-deer"]  # tatesanbon in wisteria
    pile = ["wisteria-cuckoo", "wisteria-ribbon", "wisteria-chaff-1", "wisteria-chaff-2"]
    r = settle_round(load_ruleset("hachihachi"), players=["A", "B", "C"], multiplier=1, hands={"A": hand},
                     piles={"A": [*pile, "pine-poetry-ribbon", "plum-poetry-ribbon", "cherry-poetry-ribbon"],
                            "B": [], "C": []})
    labels = [line.en for line in r.lines if line.player == "A"]
    assert "Teyaku Standing Triplet (Weak Three) 3 kan, Wisteria (藤, month 4)" in labels
    assert "Teyaku bonus for Standing Triplet (Weak Three): captured all four cards of Wisteria (藤, month 4)" in labels


BARE_MONTH = re.compile(r"month \{\{?\s*\w+")  # f"... month {m}" or "month {{ m }}" in a template


@pytest.mark.parametrize("pattern", ["referee/**/*.py", "templates/**/*.html", "templates/static/*.js"])
def test_no_message_names_a_bare_month_number(pattern):
    # The whole kind: any string that formats "month <number>" outside month_label itself.
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in ROOT.glob(pattern)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BARE_MONTH.search(line) and not (path.name == "cards.py" and "{english} ({kanji}, month {month})" in line)
    ]
    assert offenders == []



@pytest.mark.parametrize(
    ("preset", "key", "shown"),
    [
        ("roppyakken-ja", "fuke.excluded_months", "Willow (柳, month 11), Paulownia (桐, month 12)"),
        ("hachihachi", "standing_months", "Wisteria (藤, month 4), Iris (菖蒲, month 5), Bush clover (萩, month 7)"),
        ("hachihachi", "standing_chaff_months", "Paulownia (桐, month 12)"),
        ("roppyakken", "fuke.excluded_months", "none"),
    ],
    ids=["roppyakken-ja fuke months", "hachihachi standing months", "hachihachi chaff months", "no month"],
)
def test_month_option_values_name_the_plants(preset, key, shown):
    # Help's option list and "rulesets NAME" showed "11, 12" (found by the rules QA of issue 12).
    from referee.wording import option_entries

    entries = {e.key: e for e in option_entries(load_ruleset(preset).options)}
    assert entries[key].value == shown
    assert not re.search(r"\d", re.sub(r"\([^()]*, month \d+\)", "", entries[key].doc)), entries[key].doc


@pytest.mark.parametrize(
    ("preset", "options"),
    [("hachihachi", {"standing_months": [13]}), ("hachihachi", {"standing_chaff_months": [0]}),
     ("roppyakken", {"fuke.excluded_months": [13]})],
    ids=["standing 13", "chaff 0", "fuke 13"],
)
def test_a_month_option_outside_1_to_12_is_refused(preset, options):
    with pytest.raises(RefereeError, match=r"months 1-12"):
        load_ruleset(preset, options)
