"""An 8-bit localiser: static quantisation of the localiser's ONNX graph.

ONNX Runtime's own quantiser (:func:`onnxruntime.quantization.quantize_static`) rewrites the
graph in QDQ form: weights as signed 8-bit integers, one scale per output channel; activations
as unsigned 8-bit integers, their ranges read off calibration photos.  On a CPU with 8-bit dot
products (AVX-512 VNNI here) the convolutions then run in integers (docs/BENCHMARKS.md).

What stays in 32-bit floats: the detect head's decoding after its last convolutions
(:func:`decoding_nodes`: the distribution-to-distance softmax, the angle's sigmoid and the
rotation of each box into pixels).  In 8 bits one tensor would hold box centres of 0-512
pixels and scores of 0-1 on one scale, about 2 pixels a step; kept in floats, the boxes and
scores come out of the same arithmetic as the float model's, from integer-computed features.

Calibration photos: generated scenes on the training backgrounds (:func:`calibration_scenes`),
letterboxed exactly as :class:`vision.detector.Detector` letterboxes a photo (size, padding,
pre-blur), so neither held-out split is seen.

Part of :mod:`vision.train` (needs the ``train`` extra's ``onnx``); the runtime runs the result
with onnxruntime alone.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from vision.postprocess import letterbox

#: The ultralytics detect head's node-name prefix in an exported YOLO graph, and the
#: prefixes of its three convolution branches inside it (box distribution, class score, angle).
HEAD_PREFIX = "/model.23/"
HEAD_BRANCHES = ("cv2.", "cv3.", "cv4.")
#: Seed offset of the calibration scenes: apart from the training seeds (1-7 and their
#: offsets) and the held-out splits' (:data:`vision.train.testset.SPLIT_SEEDS`).
CALIBRATION_SEED = 41_000_000


def decoding_nodes(model, head_prefix: str = HEAD_PREFIX, branches: tuple[str, ...] = HEAD_BRANCHES) -> list[str]:
    """Names of the head's decoding nodes of ``model`` (an ``onnx.ModelProto``): every node under
    ``head_prefix`` that is not in one of the convolution ``branches``.

    Raises ValueError when the graph has no node under ``head_prefix`` (not an ultralytics
    export, or another head index): quantising the decoding would cost the boxes their
    precision (module docstring), so it is refused rather than done silently.
    """
    head = [n.name for n in model.graph.node if n.name.startswith(head_prefix)]
    if not head:
        raise ValueError(
            f"no node named {head_prefix}*: not an ultralytics detect head, cannot keep its decoding in floats"
        )
    return [name for name in head if not name[len(head_prefix) :].startswith(branches)]


class LetterboxReader:
    """Calibration inputs for :func:`quantize_localiser`: each image letterboxed to
    ``(1, 3, imgsz, imgsz)`` float32 in 0-1 with a Gaussian ``blur`` (pixels of the input), as
    the detector feeds its localiser; ``images``: PIL RGB images or ``(H, W, 3)`` uint8 arrays.
    Implements onnxruntime's ``CalibrationDataReader`` protocol (``get_next``, ``rewind``)."""

    def __init__(self, images: Iterable, input_name: str, imgsz: int, blur: float):
        self.images, self.input_name, self.imgsz, self.blur = list(images), input_name, imgsz, blur
        self._it: Iterator | None = None

    def get_next(self) -> dict[str, np.ndarray] | None:
        if self._it is None:
            self._it = iter(self.images)
        im = next(self._it, None)
        if im is None:
            return None
        return {self.input_name: letterbox(im, self.imgsz, self.blur)[0]}

    def rewind(self) -> None:
        self._it = None


def quantize_localiser(
    src: Path,
    dst: Path,
    images: Iterable,
    *,
    blur: float = 1.5,
    method: str = "minmax",
) -> Path:
    """Write ``dst``: the localiser ONNX ``src`` quantised to 8 bits (module docstring).

    ``images``: calibration photos (see :class:`LetterboxReader`; a few dozen of every layout
    are enough for ranges); ``blur``: the detector's ``pre_blur`` (pixels); ``method``:
    ``"minmax"`` (each activation's whole observed range) or ``"percentile"`` (its 99.999th
    percentile: finer steps, clipped outliers).  The input size is read from ``src``.
    Returns ``dst``.  Raises ValueError for an unknown method, an input without a fixed
    square size, or a graph without an ultralytics detect head (:func:`decoding_nodes`).
    """
    import onnx
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    methods = {"minmax": CalibrationMethod.MinMax, "percentile": CalibrationMethod.Percentile}
    if method not in methods:
        raise ValueError(f"method: expected one of {tuple(methods)}, got {method!r}")
    model = onnx.load(str(src))
    inp = model.graph.input[0]
    dims = [d.dim_value for d in inp.type.tensor_type.shape.dim]
    if len(dims) != 4 or not dims[2] or dims[2] != dims[3]:
        raise ValueError(f"{src}: expected a fixed square input (1, 3, S, S), got {dims}")
    keep_float = decoding_nodes(model)
    reader = LetterboxReader(images, inp.name, dims[2], blur)
    dst = Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"  # shapes inferred and graph folded, as the quantiser asks
        quant_pre_process(str(src), str(pre))
        quantize_static(
            str(pre),
            str(dst),
            reader,
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            weight_type=QuantType.QInt8,
            activation_type=QuantType.QUInt8,
            calibrate_method=methods[method],
            nodes_to_exclude=keep_float,
        )
    return dst


def calibration_scenes(art: dict, n: int, *, size: int = 1280, seed: int = CALIBRATION_SEED):
    """``n`` generated photos (PIL RGB, long side ``size`` px) for :func:`quantize_localiser`:
    every layout and distractor-only photos in turn, the styles of ``art``
    (:func:`vision.synth.render.load_art`) drawn at random, on the training backgrounds."""
    from vision.synth.layouts import LAYOUTS, NO_CARDS
    from vision.synth.scenes import make_scene

    kinds = (*LAYOUTS, NO_CARDS)
    return [make_scene(seed + i, art, size=size, layout=kinds[i % len(kinds)]).image for i in range(n)]
