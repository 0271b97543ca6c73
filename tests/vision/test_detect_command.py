"""The detect command's functions, with a stand-in detector (no model needed)."""

import argparse
import json
import subprocess
import sys

import pytest
from PIL import Image

import vision.cli as cli
from vision.detection import Detection
from vision.errors import ImageError
from vision.imageio import load_image


class FakeDetector:
    def __init__(self, backend="onnxruntime", uncertain_below=0.5):
        self.uncertain_below = uncertain_below

    def detect(self, path):
        load_image(path)  # the real input checks
        return [
            Detection("paulownia-chaff-yellow", 0.91, (1, 2, 30, 40), False),
            Detection("willow-lightning", 0.3, (5, 5, 20, 20), True),
        ]


@pytest.fixture
def parser(monkeypatch):
    monkeypatch.setattr("vision.detector.Detector", FakeDetector)
    p = argparse.ArgumentParser()
    cli.add_detect_arguments(p)
    return p


@pytest.fixture
def photo(tmp_path):
    p = tmp_path / "table.jpg"
    Image.new("RGB", (64, 48), (90, 60, 30)).save(p)
    return p


def test_json_output(parser, photo, capsys):
    assert cli.run_detect(parser.parse_args([str(photo), "--json"])) == 0
    rec = json.loads(capsys.readouterr().out.strip())
    assert rec["image"] == str(photo)
    assert rec["detections"][0] == {
        "card": "paulownia-chaff-yellow",
        "confidence": 0.91,
        "box": [1.0, 2.0, 30.0, 40.0],
        "uncertain": False,
        "covered": False,
        "visible": 1.0,
    }
    assert rec["detections"][1]["uncertain"] is True


def test_text_output_marks_uncertain(parser, photo, capsys):
    cli.run_detect(parser.parse_args([str(photo)]))
    out = capsys.readouterr().out
    assert "2 cards" in out
    assert "willow-lightning" in out
    assert out.rstrip().endswith("?")


def test_annotate_writes_one_file_per_image(parser, photo, tmp_path):
    out = tmp_path / "ann.jpg"
    cli.run_detect(parser.parse_args([str(photo), str(photo), "--annotate", str(out)]))
    for name in ("ann-1.jpg", "ann-2.jpg"):
        with Image.open(tmp_path / name) as im:
            assert im.size == (64, 48)


def test_a_bad_image_is_one_stderr_line_and_the_others_are_still_read(parser, tmp_path, photo, capsys):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"")
    code = cli.run_detect(parser.parse_args([str(bad), str(photo), "--json"]))
    out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1
    assert "empty file" in err
    assert json.loads(out)["image"] == str(photo)


@pytest.mark.parametrize("name", ["ann16", "."], ids=["no extension", "a folder"])
def test_annotate_path_must_be_an_image_file_name(parser, photo, tmp_path, name):
    with pytest.raises(ImageError, match=r"--annotate .*expected an image file name ending in \.jpg"):
        cli.run_detect(parser.parse_args([str(photo), "--annotate", str(tmp_path / name)]))


def test_bad_threshold(parser, photo):
    with pytest.raises(ValueError, match="expected 0 to 1"):
        cli.run_detect(parser.parse_args([str(photo), "--uncertain-below", "2"]))


def test_cli_module_needs_only_the_standard_library(tmp_path):
    code = (
        "import sys\n"
        "for m in ('numpy', 'PIL', 'onnxruntime', 'cv2'):\n"
        "    sys.modules[m] = None\n"
        "import argparse\n"
        "import vision.cli as cli\n"
        "p = argparse.ArgumentParser()\n"
        "cli.add_detect_arguments(p)\n"
        "try:\n"
        "    cli.run_detect(p.parse_args(['x.jpg']))\n"
        "except ValueError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "which the install lacks" in out
    assert "pip install hanafuda-referee" in out


def test_a_missing_opencv_is_named_by_its_package():
    code = (
        "import sys\n"
        "sys.modules['cv2'] = None\n"
        "import argparse\n"
        "import vision.cli as cli\n"
        "p = argparse.ArgumentParser()\n"
        "cli.add_detect_arguments(p)\n"
        "try:\n"
        "    cli.run_detect(p.parse_args(['x.jpg']))\n"
        "except ValueError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "detect needs opencv-python-headless, which the install lacks" in out
