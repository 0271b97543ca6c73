"""The evaluation script refuses a bad verifier or a mismatched calibration in one line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "eval_detector.py"


@pytest.fixture
def tiny_set(tmp_path):
    (tmp_path / "labels").mkdir()
    photo = {"file": "images/1.jpg", "layout": "spread", "style": "mantia", "cards": [], "quads": [], "visible": []}
    (tmp_path / "labels" / "1.json").write_text(json.dumps(photo))
    return tmp_path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--verifier", "/nonexistent/verifier.json"], "not a verifier file"),
        (["--verifier", "false"], "fitted with the box verifier, and this detector has none"),
    ],
    ids=["no such verifier file", "shipped calibration without the verifier"],
)
def test_a_bad_model_option_is_one_clear_line(tiny_set, args, message):
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--set", str(tiny_set), *args], capture_output=True, text=True, check=False
    )
    assert r.returncode != 0
    assert message in r.stderr
    assert "Traceback" not in r.stderr
