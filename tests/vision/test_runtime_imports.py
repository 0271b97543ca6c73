"""The runtime needs neither scene synthesis nor training (issue 19, item 1): with
``vision.synth`` and ``vision.train`` blocked, and torch, ultralytics and cairosvg with them,
every runtime module imports and :func:`vision.detect` runs on a small synthetic photo.

Run in a fresh interpreter, so that no other test has imported the blocked packages first.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = sorted(p.stem for p in (ROOT / "vision").glob("*.py") if p.stem != "__init__")
BLOCKED = ("vision.synth", "vision.train", "torch", "ultralytics", "cairosvg")

PROBE = """
import importlib, json, sys

BLOCKED = {blocked!r}


class Block:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in BLOCKED):
            raise ImportError(f"blocked for this test: {{name}}")
        return None


sys.meta_path.insert(0, Block())
import numpy as np

import vision
from vision.detector import find_model
from vision.errors import ModelError

for m in {modules!r}:
    importlib.import_module("vision." + m)
out = {{"imported": sorted(n for n in sys.modules if n.startswith("vision"))}}
try:
    find_model("localiser.onnx"), find_model("classifier.onnx")
except ModelError as e:
    out["no_model"] = str(e)
else:
    photo = np.full((240, 320, 3), (40, 110, 60), np.uint8)  # green felt
    photo[60:180, 130:205] = (235, 225, 200)  # a pale card-sized patch with a red rim
    photo[60:64, 130:205] = photo[176:180, 130:205] = (180, 30, 30)
    dets = vision.detect(photo)
    out["detections"] = [[d.card, d.confidence, list(d.box)] for d in dets]
    out["kinds"] = sorted({{type(d).__name__ for d in dets}})
out["loaded_blocked"] = sorted(n for n in sys.modules if any(n == b or n.startswith(b + ".") for b in BLOCKED))
print(json.dumps(out))
"""


def run_probe() -> dict:
    code = PROBE.format(blocked=BLOCKED, modules=RUNTIME)  # run from ROOT: this tree's vision comes first
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_runtime_runs_with_synth_and_train_blocked():
    out = run_probe()
    assert {f"vision.{m}" for m in RUNTIME} <= set(out["imported"])
    assert out["loaded_blocked"] == []
    if "no_model" in out:
        pytest.skip(f"the imports hold; detect needs the shipped ONNX models: {out['no_model']}")
    assert out["kinds"] in ([], ["Detection"])
    for _card, confidence, (x1, y1, x2, y2) in out["detections"]:
        assert 0 <= confidence <= 1
        assert 0 <= x1 <= x2 <= 320
        assert 0 <= y1 <= y2 <= 240


def test_the_probe_blocks_what_it_says():
    # a finder that blocked nothing would make the test above pass trivially
    code = PROBE.split("import numpy as np")[0].format(blocked=BLOCKED) + "import vision.synth.render\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "blocked for this test: vision.synth" in done.stderr
