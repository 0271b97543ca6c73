"""The int8 localiser (vision.train.quantize) on the shipped weights: a tiny sample, then a
file the runtime reads, with integer kernels inside and the same output layout.
Needs ``onnx`` (the train extra); skipped without it."""

import numpy as np
import pytest
from PIL import Image, ImageDraw

onnx = pytest.importorskip("onnx", reason="onnx is in the train extra only")

from vision.detector import Detector, find_model, localiser_meta  # noqa: E402
from vision.train.quantize import letterboxed, quantize_localiser  # noqa: E402


def scene(path, seed):
    rng = np.random.default_rng(seed)
    im = Image.new("RGB", (640, 480), tuple(int(v) for v in rng.integers(60, 200, 3)))
    d = ImageDraw.Draw(im)
    for _ in range(4):
        x, y = rng.integers(20, 500), rng.integers(20, 300)
        fill = tuple(int(v) for v in rng.integers(0, 256, 3))
        d.rectangle((x, y, x + 70, y + 115), fill=fill, outline=(20, 20, 20), width=3)
    im.save(path, quality=90)
    return path


def test_int8_localiser_runs_with_integer_kernels_and_keeps_its_description(tmp_path):
    src = find_model("localiser.onnx")
    images = [scene(tmp_path / f"s{i}.jpg", i) for i in range(2)]
    dst = quantize_localiser(src, tmp_path / "q" / "localiser.onnx", images)
    ops = {n.op_type for n in onnx.load(str(dst)).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    assert localiser_meta(dst) == localiser_meta(src)  # box kind and NMS threshold travel with it
    assert not (tmp_path / "q" / "localiser.pre.onnx").exists()

    x = next(letterboxed([images[0]]))
    assert x.shape == (1, 3, 512, 512)
    assert x.dtype == np.float32
    fp32, int8 = Detector(localiser=src, threads=1), Detector(localiser=dst, threads=1)
    assert int8._loc(x).shape == fp32._loc(x).shape
    int8.detect(images[1])  # the runtime reads it end to end


def test_no_sample_images_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="no sample images"):
        quantize_localiser(find_model("localiser.onnx"), tmp_path / "q.onnx", [])
