"""Integer (int8) localiser: static post-training quantisation of its ONNX file.

The localiser is most of the detector's time per photo (docs/BENCHMARKS.md).  ONNX Runtime's
static quantisation (``onnxruntime.quantization``: QDQ format, weights int8 per output
channel, activations uint8 with ranges from min/max over sample inputs) makes it run on
integer kernels.  The sample inputs are training scenes letterboxed exactly as the detector
letterboxes a photo (:func:`vision.postprocess.letterbox`), never held-out photos.  Whether
the result reads piles as well is measured, not assumed: ``scripts/eval_detector.py
--compare`` on the test split (docs/VISION.md).

The crop classifier is not quantised: the same recipe cost it 5 points of crop accuracy
(docs/VISION.md, "Run 7").

Needs ``onnx`` (the ``train`` extra) for the model's shape pre-processing; the result runs
on the base install's onnxruntime.  May import the runtime package; never :mod:`vision.synth`
nor ``referee``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from vision.imageio import load_image
from vision.postprocess import letterbox


def letterboxed(
    images: Iterable[Path], imgsz: int = 512, pre_blur: float = 1.5, max_side: int = 1280
) -> Iterator[np.ndarray]:
    """Each image file as the localiser's input: float32 ``(1, 3, imgsz, imgsz)``, 0-1,
    through the detector's own decode and letterbox.  Raises ImageError for a bad file."""
    for path in images:
        x, _, _ = letterbox(load_image(path, max_side).array, imgsz, pre_blur)
        yield x


def quantize_localiser(src: Path, dst: Path, images: list[Path], imgsz: int = 512) -> Path:
    """Write the int8 (QDQ) version of the localiser ONNX file ``src`` to ``dst``, with
    activation ranges measured on ``images`` (training scenes; a few dozen suffice), and
    copy its description (``localiser.json``: box kind and NMS threshold) beside it.

    Raises ValueError when ``images`` is empty; onnxruntime's own errors for a bad model.
    """
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not images:
        raise ValueError("quantize_localiser: no sample images")
    src, dst = Path(src), Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    import onnxruntime as ort

    name = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"]).get_inputs()[0].name

    class _Samples(CalibrationDataReader):
        def __init__(self):
            self._it = letterboxed(images, imgsz)

        def get_next(self):
            x = next(self._it, None)
            return None if x is None else {name: x}

    pre = dst.with_suffix(".pre.onnx")
    quant_pre_process(str(src), str(pre))
    try:
        quantize_static(
            str(pre), str(dst), _Samples(),
            quant_format=QuantFormat.QDQ, per_channel=True,
            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
        )
    finally:
        pre.unlink(missing_ok=True)
    meta = src.with_suffix(".json")
    if meta.is_file():
        shutil.copyfile(meta, dst.with_suffix(".json"))
    return dst
