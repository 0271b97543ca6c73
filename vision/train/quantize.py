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

import shutil
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


def output_convs(model, decoding: list[str]) -> list[str]:
    """Names of the convolutions of ``model`` whose outputs the ``decoding`` nodes read
    (:func:`decoding_nodes`): the head's last layer, one per branch and scale."""
    dec = set(decoding)
    reads = {i for n in model.graph.node if n.name in dec for i in n.input}
    return [n.name for n in model.graph.node if n.op_type == "Conv" and n.name not in dec and set(n.output) & reads]


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
    float_outputs: bool = False,
) -> Path:
    """Write ``dst``: the localiser ONNX ``src`` quantised to 8 bits (module docstring).

    ``images``: calibration photos (see :class:`LetterboxReader`; a few dozen of every layout
    are enough for ranges); ``blur``: the detector's ``pre_blur`` (pixels); ``method``:
    ``"minmax"`` (each activation's whole observed range) or ``"percentile"`` (its 99.999th
    percentile: finer steps, clipped outliers); ``float_outputs``: also keep in floats the
    head's last convolutions, those whose outputs the decoding reads (:func:`output_convs`).
    The input size is read from ``src``.
    The localiser's description (``localiser.json`` beside ``src``: what its boxes hold, its
    NMS threshold; :func:`vision.detector.localiser_meta`) is copied beside ``dst``: without
    it a whole-card localiser would be run as a visible-region one.
    Returns ``dst``.  Raises ValueError for an unknown method, an input without a fixed
    square size, a graph without an ultralytics detect head (:func:`decoding_nodes`) or one
    already quantised (the shipped ``localiser.onnx`` is: start from :func:`float_localiser`).
    """
    import onnx

    _method(method)
    model = onnx.load(str(src))
    inp = model.graph.input[0]
    dims = [d.dim_value for d in inp.type.tensor_type.shape.dim]
    if len(dims) != 4 or not dims[2] or dims[2] != dims[3]:
        raise ValueError(f"{src}: expected a fixed square input (1, 3, S, S), got {dims}")
    reader = LetterboxReader(images, inp.name, dims[2], blur)
    keep = decoding_nodes(model)
    if float_outputs:
        keep += output_convs(model, keep)
    _quantize(src, dst, reader, method, keep_float=keep)
    meta = Path(src).with_suffix(".json")
    if meta.is_file():
        shutil.copyfile(meta, Path(dst).with_suffix(".json"))
    return Path(dst)


class CropReader:
    """Calibration inputs for :func:`quantize_classifier`: upright card crops ``(N, H, W, 3)``
    uint8 (:func:`vision.geometry.crop_obbs`) in batches of ``batch``, as the detector feeds
    its classifier (``(B, 3, H, W)`` float32 in 0-1).  ``CalibrationDataReader`` protocol."""

    def __init__(self, crops: np.ndarray, input_name: str, batch: int = 32):
        self.crops, self.input_name, self.batch = np.asarray(crops, np.uint8), input_name, batch
        self._at = 0

    def get_next(self) -> dict[str, np.ndarray] | None:
        if self._at >= len(self.crops):
            return None
        part = self.crops[self._at : self._at + self.batch]
        self._at += self.batch
        return {self.input_name: np.ascontiguousarray(part.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0}

    def rewind(self) -> None:
        self._at = 0


def quantize_classifier(src: Path, dst: Path, crops: np.ndarray, *, method: str = "minmax") -> Path:
    """Write ``dst``: the classifier ONNX ``src`` quantised to 8 bits, every node; ``crops``:
    calibration crops ``(N, H, W, 3)`` uint8 (:class:`CropReader`; those the detector cuts,
    masked ones among them); ``method`` as for :func:`quantize_localiser`.  Returns ``dst``.
    Raises ValueError for an unknown method, no crops or a model already quantised."""
    import onnx

    _method(method)
    if len(crops) == 0:
        raise ValueError("crops: at least one calibration crop is needed")
    name = onnx.load(str(src)).graph.input[0].name
    return _quantize(src, dst, CropReader(crops, name), method, keep_float=[])


_METHODS = ("minmax", "percentile")


def _method(method: str) -> None:
    if method not in _METHODS:
        raise ValueError(f"method: expected one of {_METHODS}, got {method!r}")


def is_quantised(model) -> bool:
    """Whether ``model`` (an ``onnx.ModelProto``) already holds 8-bit nodes (QDQ pairs or
    integer operators)."""
    return any(n.op_type in _QUANT_OPS for n in model.graph.node)


_QUANT_OPS = {"QuantizeLinear", "DequantizeLinear", "QLinearConv", "ConvInteger", "MatMulInteger", "QLinearMatMul"}


def float_localiser(pt: Path, out_dir: Path) -> Path:
    """The float ONNX localiser of the ultralytics weights ``pt`` (``models/localiser.pt``: the
    shipped ``localiser.onnx`` is the 8-bit one), exported into ``out_dir`` with the
    ``localiser.json`` that lies beside ``pt`` (or beside the shipped ONNX file).  Needs
    ultralytics (the ``train`` extra).  Returns the ONNX path."""
    from vision.detector import PACKAGE_MODELS
    from vision.train.localiser import export_localiser_onnx

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    copy = out / "localiser.pt"
    shutil.copyfile(pt, copy)
    onnx_path = export_localiser_onnx(copy)
    for meta in (Path(pt).with_suffix(".json"), PACKAGE_MODELS / "localiser.json"):
        if meta.is_file():
            shutil.copyfile(meta, onnx_path.with_suffix(".json"))
            break
    return onnx_path


def _quantize(src: Path, dst: Path, reader, method: str, keep_float: list[str]) -> Path:
    """ONNX Runtime's static QDQ quantisation of ``src`` into ``dst`` (module docstring), the
    nodes named in ``keep_float`` left in floats.  Raises ValueError when ``src`` is already
    quantised (:func:`is_quantised`; ONNX Runtime's quantiser does not finish on such a graph)."""
    import onnx

    if is_quantised(onnx.load(str(src))):
        raise ValueError(f"{src}: already quantised to 8 bits; give the float model")
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    methods = {"minmax": CalibrationMethod.MinMax, "percentile": CalibrationMethod.Percentile}
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


def detector_crops(detector, images: Iterable) -> np.ndarray:
    """Every crop ``(N, H, W, 3)`` uint8 that ``detector`` (a :class:`vision.detector.Detector`
    on ONNX Runtime) gives its classifier while it reads ``images`` (anything
    :meth:`~vision.detector.Detector.detect` takes): whole crops of the verifier's candidates
    and the masked views, as :func:`quantize_classifier` should be calibrated on."""
    seen: list[np.ndarray] = []
    inner = detector._cls

    def record(x: np.ndarray) -> np.ndarray:
        seen.append(np.clip(np.rint(x.transpose(0, 2, 3, 1) * 255), 0, 255).astype(np.uint8))
        return inner(x)

    detector._cls = record
    try:
        for im in images:
            detector.detect(im)
    finally:
        detector._cls = inner
    return np.concatenate(seen) if seen else np.zeros((0, 0, 0, 3), np.uint8)
