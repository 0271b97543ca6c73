"""The art loader: every set with a MAPPING.tsv, SVG or raster, small scans enlarged smoothly."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from referee.cards import CARD_IDS
from vision.synth.render import (
    DEFAULT_ART_DIR,
    MERGED_IDS,
    discover_styles,
    load_art,
    load_face_art,
    load_raster,
    read_mapping,
    render_art,
    rendered_styles,
)


def test_default_art_is_the_shared_folder_beside_the_checkout():
    # the scripts' --art default; it pointed inside the checkout after render.py moved into
    # vision/synth/, so a fresh machine's evaluation and training found no art
    checkout = Path(__file__).resolve().parents[3]
    assert (checkout / "pyproject.toml").is_file()
    assert checkout.parent / "shared" / "cards" / "art" == DEFAULT_ART_DIR


def _write_set(folder, suffix, size=(64, 102)):
    """A toy art set: 48 solid-colour images and a MAPPING.tsv, like shared/cards/art/*."""
    folder.mkdir(parents=True)
    lines = ["file\tid\tmonth\ttype\tname\tnotes"]
    for i, cid in enumerate(CARD_IDS):
        name = f"{i:02d}{suffix}"
        im = Image.new("RGB", size, (i * 5, 255 - i * 5, 128))
        im.save(folder / name)
        lines.append(f"{name}\t{cid}\t1\tchaff\t{cid}\t")
    (folder / "MAPPING.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_discover_styles_takes_every_folder_with_a_mapping(tmp_path):
    _write_set(tmp_path / "zeta-new-deck", ".gif")
    _write_set(tmp_path / "mantia", ".png")
    (tmp_path / "no-mapping").mkdir()
    # known sets first (STYLES order), sets added later after them by name
    assert discover_styles(tmp_path) == ("mantia", "zeta-new-deck")
    assert discover_styles(tmp_path / "absent") == ()


@pytest.mark.parametrize("suffix", [".gif", ".png", ".jpg"], ids=["GIF (PySol)", "PNG (timomt)", "JPEG"])
def test_render_art_reads_raster_sets(tmp_path, suffix):
    _write_set(tmp_path / "art" / "deck", suffix)
    assert render_art(tmp_path / "art", tmp_path / "png", height=256) == 48
    assert rendered_styles(tmp_path / "png") == ("deck",)
    art = load_art(tmp_path / "png")
    assert set(art) == {"deck"}
    assert set(art["deck"]) == set(CARD_IDS)
    im = art["deck"]["pine-crane"]
    assert im.mode == "RGBA"
    assert im.height == 256
    assert im.width == round(64 * 256 / 102)
    # a finished style is not rendered again
    assert render_art(tmp_path / "art", tmp_path / "png", skip_done=True) == 0


def test_small_scan_is_enlarged_without_a_pixel_grid(tmp_path):
    # a 64 px checkerboard of 1-px cells: nearest-neighbour enlargement keeps hard 4-px steps;
    # the loader's bicubic + blur leaves no full-contrast step between neighbouring pixels
    a = (np.indices((102, 64)).sum(0) % 2 * 255).astype(np.uint8)
    Image.fromarray(a).convert("RGB").save(tmp_path / "c.gif")
    out = np.asarray(load_raster(tmp_path / "c.gif", 408).convert("L"), float)
    assert out.shape == (408, 256)
    assert np.abs(np.diff(out, axis=1)).max() < 128


def test_large_raster_is_reduced(tmp_path):
    Image.new("RGB", (720, 1214), (10, 20, 30)).save(tmp_path / "big.png")
    im = load_raster(tmp_path / "big.png", 256)
    assert im.size == (152, 256)
    assert im.getpixel((70, 120)) == (10, 20, 30, 255)


def test_loader_refuses_unknown_and_broken_files(tmp_path):
    (tmp_path / "a.txt").write_text("x")
    with pytest.raises(ValueError, match="expected an SVG or one of"):
        load_face_art(tmp_path / "a.txt", 100)
    (tmp_path / "b.gif").write_bytes(b"GIF89a broken")
    with pytest.raises(ValueError, match="not a readable image"):
        load_raster(tmp_path / "b.gif", 100)


def test_mapping_must_cover_the_48_ids(tmp_path):
    _write_set(tmp_path / "deck", ".png")
    m = tmp_path / "deck" / "MAPPING.tsv"
    m.write_text("\n".join(m.read_text().splitlines()[:-1]) + "\n")
    with pytest.raises(ValueError, match="missing"):
        read_mapping(tmp_path / "deck")


def test_merged_ids_are_card_ids():
    # timomt has no yellow-band paulownia chaff (shared/cards/art/timomt/SOURCE.md)
    assert set(MERGED_IDS["timomt"]) == {"paulownia-chaff-yellow", "paulownia-chaff-1", "paulownia-chaff-2"}
    assert all(c in CARD_IDS for ids in MERGED_IDS.values() for c in ids)
