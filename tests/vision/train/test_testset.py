"""Held-out sets on disk (vision.train.testset) from a toy art set: one photo per (layout, style)."""

import json

import pytest

from vision.synth.layouts import LAYOUTS, NO_CARDS
from vision.train.testset import read_testset, write_testset


@pytest.mark.parametrize("texture_scale", [None, 3.0])
def test_a_set_holds_one_photo_per_layout_and_says_how_it_was_made(tmp_path, toy_art, texture_scale):
    path = write_testset(tmp_path / "set", toy_art, "test", 1, size=160, workers=1, texture_scale=texture_scale)
    photos = read_testset(tmp_path / "set")
    assert [p.layout for p in photos] == [*LAYOUTS, NO_CARDS]
    assert all(p.path.is_file() and p.style == "toy" for p in photos)
    meta = json.loads(path.read_text(encoding="utf-8"))
    assert meta.get("texture_scale") == texture_scale


def test_an_unknown_split_is_refused(tmp_path, toy_art):
    with pytest.raises(ValueError, match="split"):
        write_testset(tmp_path / "x", toy_art, "train")


def test_the_verifier_set_shares_no_background_or_seed_with_the_held_out_sets():
    from vision.synth.backgrounds import TEST_BACKGROUNDS, TRAIN_BACKGROUNDS
    from vision.train.testset import SPLIT_BACKGROUNDS, SPLIT_SEEDS

    assert SPLIT_BACKGROUNDS["test"] == SPLIT_BACKGROUNDS["calib"] == TEST_BACKGROUNDS
    assert SPLIT_BACKGROUNDS["verify"] == TRAIN_BACKGROUNDS
    assert not set(TEST_BACKGROUNDS) & set(TRAIN_BACKGROUNDS)
    assert len(set(SPLIT_SEEDS.values())) == len(SPLIT_SEEDS)


def test_the_distractor_split_holds_only_photos_without_cards_with_screenshots_and_cloths(tmp_path, toy_art):
    write_testset(tmp_path / "d", toy_art, "distract", 6, size=200, workers=1)
    photos = read_testset(tmp_path / "d")
    assert len(photos) == 6
    assert {p.layout for p in photos} == {NO_CARDS}
    assert not any(p.cards for p in photos)
    kinds = {k for e in json.loads((tmp_path / "d" / "labels.json").read_text())["photos"] for k in e["distractors"]}
    assert {"screenshot", "cloth"} <= kinds
