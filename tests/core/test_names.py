"""Player names compare after NFKC, casefold and trim (issue 11 "Input hygiene")."""

from __future__ import annotations

import pytest

from referee.names import clean_name, name_key, same_name


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Aki", "aki "),
        ("Aki", "  AKI"),
        ("Aki", "ＡＫＩ"),  # full-width letters (NFKC)
        ("Straße", "STRASSE"),  # casefold, not lower
        ("Ben  Ito", "ben ito"),  # whitespace runs
        ("ｱｷ", "アキ"),  # half-width katakana (NFKC)
        ("Aki\u3000", "Aki"),  # ideographic space
        # Casefolding "Ϊ́" (Ι + U+0344) leaves ι + ̈ + ́, which is not NFKC: only the second NFKC
        # makes it "ΐ" (U+0390).  A bug planted by dropping that step once passed every test.
        ("\u0390", "\u0399\u0344"),
    ],
    ids=[
        "trailing-space",
        "upper",
        "full-width",
        "sharp-s",
        "inner-spaces",
        "half-width-kana",
        "ideographic-space",
        "greek-iota-dialytika-tonos",
    ],
)
def test_names_that_are_one_player(a, b):
    assert same_name(a, b)
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [("Aki", "Akira"), ("Aki", "A ki"), ("千代", "千世"), ("Jose", "José")],
    ids=["prefix", "split", "other-kanji", "accent"],
)
def test_names_that_are_two_players(a, b):
    assert not same_name(a, b)


def test_clean_name_trims_but_keeps_what_was_typed():
    assert clean_name("  ＡＫＩ   Ito ") == "ＡＫＩ Ito"


def test_a_name_must_be_text():
    with pytest.raises(TypeError, match="must be a string"):
        name_key(None)  # type: ignore[arg-type]
