"""Two-stage card detector: a one-class oriented-box localiser, then a crop classifier.

Runtime backends (``backend=``):

- ``"onnxruntime"`` (default): both ONNX models with ONNX Runtime; no torch.  Fastest on
  the shared 2-core benchmark machine once its busy-waiting threads were turned off.
- ``"openvino"``: the same ONNX files compiled by OpenVINO (``pip install openvino``).
- ``"ultralytics"``: the localiser's ``.pt`` through ultralytics/torch and the classifier's
  ``.pt`` through torch; for comparison only (needs the ``train`` extra).

Weights are looked up in ``$HANAFUDA_VISION_MODELS`` if set (and then only there: every
file, the optional verifier and calibration included, comes from that one folder), else
``vision/models/`` (the ONNX files shipped with the package), else the repository's
``models/`` (``.pt`` files).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from referee.cards import CARD_IDS
from vision.calibration import context_features
from vision.detection import BACKENDS, CERTAIN_AT, Detection
from vision.errors import ModelError
from vision.geometry import CROP_SIZE, crop_obbs
from vision.imageio import load_image
from vision.masker import MASKER_INPUT, MASKER_OUTPUT, Masker
from vision.postprocess import (
    WHOLE_READS,
    assign_cards,
    decode_obb,
    drop_fragments,
    drop_same_card,
    letterbox,
    merge_passes,
    reads_whole,
    softmax,
    to_detections,
)
from vision.printcheck import PrintCheck
from vision.tiling import cut_by_window, tile_windows, window_to_photo
from vision.visibility import READABLE_FROM, mask_crops, stacking, visible_masks

PACKAGE_MODELS = Path(__file__).resolve().parent / "models"
#: A whole-card box at least this share inside a box this many times its area is dropped as a
#: fragment of that card's picture (:func:`vision.postprocess.drop_fragments`; chosen on the
#: calib split, docs/VISION.md "Run 8").
FRAGMENT = (0.9, 1.5, 0.67)
REPO_MODELS = Path(__file__).resolve().parent.parent / "models"


def _cannot_read(path: Path, e: OSError) -> ModelError:
    """The ModelError for an OSError met finding or reading the model file ``path``: its path
    and the reason in words (``Permission denied``), with the variable when it is set."""
    env = os.environ.get("HANAFUDA_VISION_MODELS")
    inside = env and Path(env) in (Path(path), *Path(path).parents)
    where = f"HANAFUDA_VISION_MODELS={env}: " if inside else ""
    return ModelError(f"{where}cannot read {e.filename or path}: {e.strerror or e}")


def _not_checkpoint(path: Path, role: str, e: Exception) -> ModelError:
    """The ModelError for a ``.pt`` file torch or ultralytics could not load as the ``role`` model:
    its path and the first cause in one line (ultralytics' own message repeats the path at length)."""
    root: BaseException = e
    while root.__cause__ is not None:
        root = root.__cause__
    said = str(root).splitlines()[0] if str(root) else ""
    why = type(root).__name__ + (f": {said}" if said and str(path) not in said else "")
    return ModelError(f"{path}: not a {role} checkpoint the ultralytics backend can load ({why})")


def _is_file(path: Path) -> bool:
    """``path.is_file()``, with an OSError (a folder the user may not enter: Python 3.11 raises
    PermissionError) as a ModelError naming the path."""
    try:
        return path.is_file()
    except OSError as e:
        raise _cannot_read(path, e) from None


def _check_readable(path: Path) -> None:
    """Raise ModelError naming ``path`` and the reason when the file cannot be opened."""
    try:
        with Path(path).open("rb"):
            pass
    except OSError as e:
        raise _cannot_read(path, e) from None


def _model_path(name: str) -> Path | None:
    """:func:`find_model`, with None for a file that is absent (a folder named by the
    variable that is not there is still an error); ModelError for one that cannot be read."""
    env = os.environ.get("HANAFUDA_VISION_MODELS")
    if env:
        d = Path(env)
        try:
            is_dir = d.is_dir()
        except OSError as e:
            raise _cannot_read(d, e) from None
        if not is_dir:
            raise ModelError(f"HANAFUDA_VISION_MODELS={env}: expected a folder of model files, there is none")
        return d / name if _is_file(d / name) else None
    return next((d / name for d in (PACKAGE_MODELS, REPO_MODELS) if _is_file(d / name)), None)


def find_model(name: str) -> Path:
    """Path of a model file by name (e.g. ``localiser.onnx``).

    With ``$HANAFUDA_VISION_MODELS`` set, every model file comes from that folder and
    nowhere else, so two trainings' files are never mixed; else from ``vision/models/``,
    then the repository's ``models/``.  Raises ModelError naming the file and the folders
    looked in (and the variable when it is set), or naming the path and the reason when a
    folder or file cannot be read (permission denied)."""
    path = _model_path(name)
    if path is not None:
        return path
    env = os.environ.get("HANAFUDA_VISION_MODELS")
    if env:
        raise ModelError(
            f"model file {name!r} not found in HANAFUDA_VISION_MODELS={env} (with the variable "
            "set, every model file comes from that folder)"
        )
    raise ModelError(f"model file {name!r} not found in {PACKAGE_MODELS}, {REPO_MODELS}")


#: What a localiser's boxes hold, read from ``localiser.json`` beside its weights:
#: ``"visible"`` (each card's visible region; the default when there is no such file) or
#: ``"whole"`` (each card's whole face; docs/VISION.md, "Whole cards").
BOX_KINDS = ("visible", "whole")


def localiser_meta(localiser: Path) -> dict:
    """The localiser's ``{"boxes": kind, "iou": NMS threshold}`` from the JSON file named
    like its weights (``localiser.json`` beside ``localiser.onnx`` or ``.pt``); without one,
    ``{"boxes": "visible", "iou": 0.5}``.  Raises ModelError for a malformed or unreadable file."""
    import json

    meta = {"boxes": "visible", "iou": 0.5}
    path = Path(localiser).with_suffix(".json")
    if not _is_file(path):
        return meta
    _check_readable(path)
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
        meta.update(boxes=str(d.get("boxes", "visible")), iou=float(d.get("iou", 0.5)))
    except (OSError, ValueError, TypeError, AttributeError) as e:
        raise ModelError(f"{path}: not a localiser description ({e})") from None
    if meta["boxes"] not in BOX_KINDS or not 0 < meta["iou"] <= 1:
        raise ModelError(f"{path}: boxes must be one of {BOX_KINDS} and iou in (0, 1], got {meta}")
    return meta


def _load_shipped(path, name: str, load):
    """``load(path)`` of a model's JSON file; None/True: the file ``name`` from the model
    folder (:func:`find_model`; with ``$HANAFUDA_VISION_MODELS`` set only from that folder)
    when there is one, else None; False: None.  A ValueError from ``load``, or a folder or
    file that cannot be read, becomes a ModelError."""
    if path is False:
        return None
    if path is None or path is True:
        path = _model_path(name)
        if path is None:
            return None  # an optional file: the folder's models run without it
        _check_readable(path)
    try:
        return load(path)
    except ValueError as e:
        raise ModelError(str(e)) from None


def load_verifier(path):
    """The box verifier (:class:`vision.verify.Verifier`) of ``path`` (a JSON file, or a
    Verifier itself); None/True: the shipped ``verifier.json`` when there is one; False: none.
    Raises ModelError for a bad file."""
    from vision.verify import Verifier

    return path if isinstance(path, Verifier) else _load_shipped(path, "verifier.json", Verifier.load)


def _optional_onnx(path, name: str, threads: int | None):
    """An optional ONNX model: ``(path, loaded)`` of ``path`` (a file), or of the shipped ``name``
    for None/True; ``(None, None)`` for False or when nothing ships by that name.  Raises
    ModelError for a file it cannot read or load."""
    if path is False:
        return None, None
    if path is None or path is True:
        path = _model_path(name)
        if path is None:
            return None, None
    _check_readable(Path(path))
    return Path(path), _OrtModel(Path(path), threads)


def load_masker(path, threads: int | None = None):
    """The masker (:class:`vision.masker.Masker`) of ``path`` (an ONNX file, or a Masker
    itself); None/True: the shipped ``masker.onnx`` when there is one; False: none.  Raises
    ModelError for a file it cannot load."""
    if isinstance(path, Masker):
        return path
    path, model = _optional_onnx(path, "masker.onnx", threads)
    if model is None:
        return None  # optional: the stacking order's masks alone
    want_in, want_out = (None, 4, MASKER_INPUT[1], MASKER_INPUT[0]), (None, 1, MASKER_OUTPUT[1], MASKER_OUTPUT[0])
    if len(model.inputs) != 1 or not _fits(model.inputs[0][1], want_in) or not _fits(model.output, want_out):
        raise ModelError(
            f"{path}: expected a masker (one input [B, 4, {MASKER_INPUT[1]}, {MASKER_INPUT[0]}], output "
            f"[B, 1, {MASKER_OUTPUT[1]}, {MASKER_OUTPUT[0]}]), found input {model.inputs}, output {model.output}"
        )
    return Masker(Path(path), model)


def load_printcheck(path, threads: int | None = None):
    """The print check (:class:`vision.printcheck.PrintCheck`) of ``path`` (an ONNX file, or a
    PrintCheck itself); None/True: the shipped ``printcheck.onnx`` when there is one; False:
    none.  Raises ModelError for a file it cannot load or of another input or output shape
    (one input ``[B, 3, 112, 72]``, output ``[B, 1]``)."""
    if isinstance(path, PrintCheck):
        return path
    path, model = _optional_onnx(path, "printcheck.onnx", threads)
    if model is None:
        return None  # optional: a calibration without its weight runs none
    want_in, want_out = (None, 3, CROP_SIZE[1], CROP_SIZE[0]), (None, 1)
    if len(model.inputs) != 1 or not _fits(model.inputs[0][1], want_in) or not _fits(model.output, want_out):
        raise ModelError(
            f"{path}: expected a print check (one input [B, 3, {CROP_SIZE[1]}, {CROP_SIZE[0]}], output [B, 1]), "
            f"found input {model.inputs}, output {model.output}"
        )
    return PrintCheck(Path(path), model)


def _load_calibration(path: Path | bool | None):
    from vision.calibration import Calibration

    return _load_shipped(path, "calibration.json", Calibration.load)


#: What each model must look like, as :class:`Detector` calls it: its one input and its first
#: output, per dimension a size, a tuple of allowed sizes, or None (any size); the localiser's
#: input is square (``S``: its side).  Written out for the error message.
_SHAPES = {
    "localiser": ((1, 3, None, None), (1, 6, None), "one input images [1, 3, S, S], output [1, 6, N]"),
    "classifier": (
        (None, 3, CROP_SIZE[1], CROP_SIZE[0]),
        (None, (len(CARD_IDS), len(CARD_IDS) + 1)),
        f"one input crops [B, 3, {CROP_SIZE[1]}, {CROP_SIZE[0]}], output logits "
        f"[B, {len(CARD_IDS)} or {len(CARD_IDS) + 1}]",
    ),
}


def _fits(shape: list, want: tuple) -> bool:
    """Whether ``shape`` (ints, with names or None for dynamic dimensions) can be ``want``;
    an empty shape is one the file does not state (ONNX Runtime gives ``[]``) and fits."""
    if not shape:
        return True
    if len(shape) != len(want):
        return False
    return all(
        w is None or not isinstance(d, int) or d in (w if isinstance(w, tuple) else (w,))
        for d, w in zip(shape, want, strict=True)
    )


def _role_fits(role: str, inputs: list, output: list) -> bool:
    want_in, want_out, _ = _SHAPES[role]
    if len(inputs) != 1 or not _fits(inputs[0][1], want_in) or not _fits(output, want_out):
        return False
    if role == "localiser" and len(inputs[0][1]) == 4:
        h, w = inputs[0][1][2:]
        return not (isinstance(h, int) and isinstance(w, int) and h != w)
    return True


def _check_io(path: Path, role: str, inputs: list[tuple[str, list]], output: list) -> None:
    """Raise ModelError naming ``path`` when the ``role`` model (``"localiser"`` or
    ``"classifier"``) has other inputs (``[(name, shape)]``) or first output shape than the
    detector feeds and reads (:data:`_SHAPES`); the wrong file would fail on the first photo."""
    if _role_fits(role, inputs, output):
        return

    def dims(shape: list) -> str:
        return "[" + ", ".join(str(d) for d in shape) + "]" if shape else "[?]"

    found = ", ".join(f"{name} {dims(shape)}" for name, shape in inputs)
    other = next(r for r in _SHAPES if r != role)
    hint = f" (it looks like the {other}: were the files swapped?)" if _role_fits(other, inputs, output) else ""
    raise ModelError(
        f"{path}: expected a {role} ({_SHAPES[role][2]}), found input {found}, output {dims(output)}{hint}"
    )


def _ov_shape(ps) -> list:
    """An OpenVINO partial shape as a list (None for a dynamic dimension; [] for a dynamic rank)."""
    if ps.rank.is_dynamic:
        return []
    return [d.get_length() if d.is_static else None for d in ps]


class _OrtModel:
    def __init__(self, path: Path, threads: int | None):
        try:
            import onnxruntime as ort
        except ImportError:
            raise ModelError("onnxruntime is not installed: pip install 'hanafuda-referee[vision]'") from None
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads or (os.cpu_count() or 1)
        so.inter_op_num_threads = 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # no busy-waiting threads: on a shared 2-core machine spinning doubled the latency
        if os.environ.get("HANAFUDA_ORT_SPIN", "0") != "1":
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self.sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own exception types
            raise ModelError(f"{path}: cannot load ONNX model ({e})") from None
        self.input = self.sess.get_inputs()[0]
        self.inputs = [(i.name, list(i.shape)) for i in self.sess.get_inputs()]
        self.output = list(self.sess.get_outputs()[0].shape)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.sess.run(None, {self.input.name: x})[0]


class _OvModel:
    def __init__(self, path: Path, threads: int | None):
        try:
            import openvino as ov
        except ImportError:
            raise ModelError("openvino is not installed: pip install openvino") from None
        core = ov.Core()
        cfg = {"INFERENCE_NUM_THREADS": threads} if threads else {}
        self.model = core.compile_model(str(path), "CPU", cfg)
        self.out = self.model.output(0)
        self.inputs = [(i.get_any_name(), _ov_shape(i.get_partial_shape())) for i in self.model.inputs]
        self.output = _ov_shape(self.out.get_partial_shape())

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.model(x)[self.out]


class Detector:
    """Find and name hanafuda cards in a photo.

    ``imgsz``: localiser input side in pixels (read from the ONNX model when possible);
    ``conf``: minimum localiser score for a card candidate (0-1; default the verifier's, else
    0.35); ``iou``: rotated NMS threshold (default: the verifier's, else the localiser's,
    :func:`localiser_meta`: 0.5 for the shipped whole-card localiser too, chosen on the calib
    split, docs/VISION.md); ``verifier``: a box verifier (``Path`` of a JSON file or a
    :class:`vision.verify.Verifier`; default None: the shipped ``verifier.json`` when there is
    one; ``False``: none) that keeps the candidates lying on one card and gives each its
    probability in place of the localiser score (its whole-crop readings are reused by the
    classifier; it was fitted on candidates at its own ``conf`` and ``iou`` without ``tta``,
    so other settings give it candidates it was not fitted on); ``same_card_iou``: when given, of two
    boxes overlapping at least this much (IoU, 0-1) whose whole crops read as one card, the
    lower-scored is dropped (:func:`vision.postprocess.drop_same_card`; costs a classifier pass
    over the whole crops; None: off, the default); ``uncertain_below``:
    detections with a lower final confidence are flagged
    ``uncertain``; ``max_side``: the photo's long side is reduced to this many pixels before
    cropping cards; ``tta``: also classify each crop turned by 180 degrees and average;
    ``pre_blur``: Gaussian blur radius (pixels of the 512 localiser input) applied before
    the localiser.  The localiser was trained on coarse procedural textures; fine wood
    grain or weave at phone resolution made it miss cards, and a 1.5 px blur recovers them
    (docs/BENCHMARKS.md).  The ``ultralytics`` backend does not blur.  ``calibration``: a
    JSON file of :class:`vision.calibration.Calibration` (default: ``calibration.json`` of
    the shipped models when there is one; ``False``: none).  ``zoom_out``: above 1, a
    close-up gets a second localiser pass on the photo shrunk by this factor (see
    :meth:`localise`).  Without one the confidence is
    the raw product of the box score (the verifier's probability, else the localiser score)
    and the class probability; a calibration fitted for the other kind of box score is refused.
    ``masker``: the masker (:mod:`vision.masker`; ``Path`` of an ONNX file or a
    :class:`vision.masker.Masker`; default None: the shipped ``masker.onnx`` when there is one;
    ``False``: none): a learnt visible mask for each box another box overlaps, in place of the
    stacking order's; ``masker_masks``: False keeps the stacking order's masks for the
    classifier's masked view and takes from the masker only each box's visible share (which
    decides "too covered to read" and feeds the calibration).
    ``printcheck``: the print check (:mod:`vision.printcheck`; ``Path`` of an ONNX file or a
    :class:`vision.printcheck.PrintCheck`; default None: the shipped ``printcheck.onnx`` when
    there is one; ``False``: none), run on every kept box and weighed by a calibration fitted
    with it (``Calibration.f``); a calibration that weighs it refuses a detector without one.
    ``tiles``: above 1, the localiser also looks at ``tiles`` x ``tiles`` overlapping
    windows of the photo (neighbours sharing ``tile_overlap`` of a window's side), each
    enlarged to its input (:mod:`vision.tiling`; off by default, measured in
    docs/VISION.md).  The shipped calibration was fitted on single-pass scores.
    With a whole-card localiser, each box's visible part is worked out from the stacking
    order (:mod:`vision.visibility`), the classifier sees the crop with the hidden part
    greyed out, and an uncertain card showing under ``readable_from`` of its face (default
    :data:`READABLE_FROM`) is reported ``covered``, unless its whole crop reads as the card
    it was given at ``whole_reads`` or more (:func:`vision.postprocess.reads_whole`; above
    1: never).
    Raises ModelError for missing or unreadable files, a localiser or classifier whose input or
    output shape is not the one the detector feeds and reads (:data:`_SHAPES`), an unreadable
    calibration or verifier, a calibration fitted with (without) the verifier on a detector
    without (with) one (naming the missing file when both come from ``$HANAFUDA_VISION_MODELS``),
    a calibration that weighs the print check on a detector without one, a calibration fitted with
    (without) the masker's visible shares on a detector without (with) one, or an unknown backend;
    ValueError for ``tiles`` under 1 or ``tile_overlap`` outside [0, 1).
    """

    #: The masker (:func:`load_masker`), or None: the stacking order's masks alone.
    masker = None
    #: The print check (:func:`load_printcheck`), or None: no box is checked.
    printcheck = None

    def __init__(
        self,
        backend: str = "onnxruntime",
        *,
        localiser: Path | None = None,
        classifier: Path | None = None,
        conf: float | None = None,
        iou: float | None = None,
        uncertain_below: float = CERTAIN_AT,
        max_side: int = 1280,
        tta: bool = False,
        threads: int | None = None,
        imgsz: int = 512,
        pre_blur: float = 1.5,
        calibration: Path | bool | None = None,
        zoom_out: float = 1.0,
        tiles: int = 1,
        tile_overlap: float = 1 / 3,
        readable_from: float = READABLE_FROM,
        whole_reads: float = WHOLE_READS,
        same_card_iou: float | None = None,
        verifier=None,
        masker=None,
        masker_masks: bool = True,
        printcheck=None,
    ):
        if backend not in BACKENDS:
            raise ModelError(f"backend: expected one of {BACKENDS}, got {backend!r}")
        tile_windows(1, 1, tiles, tile_overlap)  # ValueError for a bad tiling
        self.backend = backend
        self.verifier = load_verifier(verifier)
        if conf is None:
            conf = self.verifier.conf if self.verifier else 0.35
        if iou is None and self.verifier:
            iou = self.verifier.iou
        self.conf, self.uncertain_below = conf, uncertain_below
        self.max_side, self.tta, self.imgsz = max_side, tta, imgsz
        self.pre_blur, self.zoom_out = pre_blur, zoom_out
        self.tiles, self.tile_overlap = tiles, tile_overlap
        self.readable_from, self.whole_reads = readable_from, whole_reads
        self.same_card_iou = same_card_iou
        self.masker = load_masker(masker, threads)
        self.masker_masks = masker_masks
        self.calibration = _load_calibration(calibration)
        self.printcheck = load_printcheck(printcheck, threads)
        if self.calibration is not None and self.calibration.f and self.printcheck is None:
            raise ModelError(
                "the calibration weighs the print check (printcheck.onnx), and this detector has none: "
                "add printcheck.onnx to the models folder, or give a calibration fitted without it"
            )
        if self.calibration is not None and self.calibration.masker != (self.masker is not None):
            fitted = "the masker's" if self.calibration.masker else "the stacking order's"
            raise ModelError(
                f"the calibration was fitted on {fitted} visible shares, and this detector has "
                f"{'a masker' if self.masker is not None else 'no masker (masker.onnx)'}: give the models "
                "folder the masker it was fitted with, or a calibration fitted for this detector "
                "(scripts/calibrate_detector.py)"
            )
        if self.calibration is not None and self.calibration.verifier != (self.verifier is not None):
            fitted = "with" if self.calibration.verifier else "without"
            env = os.environ.get("HANAFUDA_VISION_MODELS")
            if env and verifier in (None, True) and calibration in (None, True):  # both from the folder
                has = "has no verifier.json: add it" if self.calibration.verifier else "has verifier.json: remove it"
                raise ModelError(
                    f"HANAFUDA_VISION_MODELS={env}: calibration.json was fitted {fitted} the box "
                    f"verifier, but the folder {has}, or remove calibration.json"
                )
            raise ModelError(
                f"the calibration was fitted {fitted} the box verifier, and this detector has "
                f"{'one' if self.verifier is not None else 'none'}: give a calibration fitted for it "
                "(scripts/calibrate_detector.py), or none (calibration=False; in the scripts "
                "--calibration FILE or false)"
            )
        if backend == "ultralytics":
            self._init_torch(localiser, classifier)
            self._set_meta(Path(localiser or find_model("localiser.pt")), iou)
            return
        loc = Path(localiser) if localiser else find_model("localiser.onnx")
        self._set_meta(loc, iou)
        cls = Path(classifier) if classifier else find_model("classifier.onnx")
        for p in (loc, cls):
            if not _is_file(Path(p)):
                raise ModelError(f"model file not found: {p}")
            _check_readable(p)
        make = _OrtModel if backend == "onnxruntime" else _OvModel
        self._loc, self._cls = make(loc, threads), make(cls, threads)
        _check_io(loc, "localiser", self._loc.inputs, self._loc.output)
        _check_io(cls, "classifier", self._cls.inputs, self._cls.output)
        side = self._loc.inputs[0][1][-1] if self._loc.inputs[0][1] else None
        if isinstance(side, int):  # a fixed input side: the one the localiser was exported at
            self.imgsz = side

    def _set_meta(self, loc: Path, iou: float | None) -> None:
        meta = localiser_meta(loc)
        self.boxes = meta["boxes"]
        self.iou = float(iou) if iou is not None else meta["iou"]

    def _init_torch(self, localiser, classifier) -> None:
        """Load the ultralytics localiser and the torch classifier (``.pt`` checkpoints).  Raises
        ModelError without torch or ultralytics, and naming the file for one that is missing, cannot
        be read or is not that model (as the ONNX backends do)."""
        try:
            import torch
            from ultralytics import YOLO
        except ImportError:
            raise ModelError("the ultralytics backend needs the train extra (torch, ultralytics)") from None
        from vision.train.classifier import load_classifier  # the runtime's one arrow into training

        loc = Path(localiser) if localiser else find_model("localiser.pt")
        cls = Path(classifier) if classifier else find_model("classifier.pt")
        for p in (loc, cls):  # before ultralytics, which looks for a missing file on GitHub
            if not _is_file(p):
                raise ModelError(f"model file not found: {p}")
            _check_readable(p)
        try:
            self._yolo = YOLO(str(loc), task="obb")
        except Exception as e:  # torch and ultralytics raise their own exception types
            raise _not_checkpoint(loc, "localiser", e) from None
        try:
            net = load_classifier(torch.load(cls, map_location="cpu", weights_only=False))
        except Exception as e:  # pickle, torch and a state without the classifier's keys
            raise _not_checkpoint(cls, "classifier", e) from None
        net.eval()
        self._net, self._torch = net, torch

    # ------------------------------------------------------------------ stages

    def localise(self, im: Image.Image | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Card regions in ``im`` (PIL RGB or ``(H, W, 3)`` uint8 array): ``(obbs (K, 5),
        scores (K,))`` in pixels of ``im``.

        When the first pass suggests a close-up (see :meth:`_needs_zoom_out`), the photo is
        looked at a second time shrunk to ``1 / zoom_out`` inside the localiser input,
        where a card that fills the frame has the size the localiser was trained on, and
        the two passes' boxes are merged.  With ``tiles`` above 1 the windows' boxes are
        merged into the first pass's before that (see :meth:`_localise_tiles`).
        """
        if self.backend == "ultralytics":  # ultralytics reads arrays as BGR: give it PIL
            return self._whole_only(*self._predict(Image.fromarray(im) if isinstance(im, np.ndarray) else im))
        a = np.asarray(im.convert("RGB")) if isinstance(im, Image.Image) else im
        obbs, scores = self._localise_once(a, 1.0)
        if self.tiles > 1:
            obbs, scores = self._localise_tiles(a, obbs, scores)
        if self.zoom_out > 1 and self._needs_zoom_out(a, obbs):
            o2, s2 = self._localise_once(a, self.zoom_out)
            obbs, scores = merge_passes(obbs, scores, o2, s2, self.iou)
        return self._whole_only(obbs, scores)

    def _whole_only(self, obbs: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A whole-card localiser's boxes less the fragments inside a card
        (:func:`vision.postprocess.drop_fragments`): a box in a card's picture would be read
        as a card under it, too covered to read, on a photo of cards spread apart."""
        return drop_fragments(obbs, scores, *FRAGMENT) if self.boxes == "whole" else (obbs, scores)

    def _localise_once(self, a: np.ndarray, zoom: float) -> tuple[np.ndarray, np.ndarray]:
        h, w = a.shape[:2]
        ox = oy = 0
        if zoom > 1:  # the photo in the middle of a grey canvas zoom times its size
            bw, bh = round(w * zoom), round(h * zoom)
            ox, oy = (bw - w) // 2, (bh - h) // 2
            a = cv2.copyMakeBorder(a, oy, bh - h - oy, ox, bw - w - ox, cv2.BORDER_CONSTANT, value=(114, 114, 114))
        im = a
        x, r, (px, py) = letterbox(im, self.imgsz, self.pre_blur)
        obbs, scores = decode_obb(self._loc(x), self.conf, self.iou)
        obbs[:, 0] = (obbs[:, 0] - px) / r - ox
        obbs[:, 1] = (obbs[:, 1] - py) / r - oy
        obbs[:, 2:4] /= r
        return obbs, scores

    def _localise_tiles(self, a: np.ndarray, obbs: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Add the boxes found in each tile window to the whole-photo pass ``(obbs,
        scores)`` (photo pixels): boxes within 3 localiser pixels of a window edge inside
        the photo are cut by the window and dropped; the rest are merged by
        :func:`merge_passes` (fragments inside a larger box dropped, then rotated NMS)."""
        h, w = a.shape[:2]
        found_o, found_s = [], []
        for win in tile_windows(w, h, self.tiles, self.tile_overlap):
            x0, y0, x1, y1 = win
            o, s = self._localise_once(np.ascontiguousarray(a[y0:y1, x0:x1]), 1.0)
            o = window_to_photo(o, win)
            r = self.imgsz / max(x1 - x0, y1 - y0)  # localiser pixels per photo pixel
            keep = ~cut_by_window(o, win, (w, h), margin=3 / r)
            found_o.append(o[keep])
            found_s.append(s[keep])
        return merge_passes(obbs, scores, np.concatenate(found_o), np.concatenate(found_s), self.iou)

    def _needs_zoom_out(self, a: np.ndarray, obbs: np.ndarray) -> bool:
        """A close-up: at most three boxes, or a box longer than 45% of the short side."""
        if len(obbs) <= 3:
            return True
        return bool(obbs[:, 2:4].max() > 0.45 * min(a.shape[:2]))

    def _predict(self, source) -> tuple[np.ndarray, np.ndarray]:
        """ultralytics/torch localiser on a PIL image or a file path (its own decode)."""
        r = self._yolo.predict(source, imgsz=self.imgsz, conf=self.conf, iou=self.iou, verbose=False, device="cpu")[0]
        if r.obb is None or len(r.obb) == 0:
            return np.zeros((0, 5)), np.zeros(0)
        return r.obb.xywhr.numpy().astype(np.float64), r.obb.conf.numpy().astype(np.float64)

    def visibility(self, im: Image.Image | np.ndarray, obbs: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        """Visible masks ``(K, 112, 72)`` of the boxes ``(K, 5)`` in their upright crops and
        the visible share ``(K,)`` of each (0-1): from the stacking order for a whole-card
        localiser (:mod:`vision.visibility`), then, with a masker, the masker's masks
        (:mod:`vision.masker`) for every box that overlaps another, and their shares (with
        ``masker_masks`` False the masks stay the stacking order's and only the shares are the
        masker's); ``(None, ones)`` for a visible-region localiser."""
        if self.boxes != "whole" or len(obbs) == 0:
            return None, np.ones(len(obbs))
        a = np.asarray(im.convert("RGB")) if isinstance(im, Image.Image) else im
        above = stacking(a, obbs)
        masks, share = visible_masks(obbs, above, CROP_SIZE)
        near = above.any(0) | above.any(1)  # in an ordered pair: another box overlaps it
        if self.masker is not None and near.any():
            learnt = self.masker(crop_obbs(a, np.asarray(obbs)[near], CROP_SIZE), masks[near])
            share = np.array(share, np.float64)
            share[near] = learnt.reshape(len(learnt), -1).mean(1)
            if self.masker_masks:
                masks[near] = learnt
        return masks, share

    def classify(self, im: Image.Image | np.ndarray, obbs: np.ndarray, masks: np.ndarray | None = None) -> np.ndarray:
        """Class probabilities ``(K, 48)`` for the oriented boxes ``(K, 5)`` of ``im`` (PIL
        RGB or ``(H, W, 3)`` uint8 array).  ``masks``: optional bool ``(K, 112, 72)``
        visible masks (:meth:`visibility`): each crop is then classified twice, with its
        hidden pixels greyed out and whole, and the two averaged (a wrong stacking order
        greys out the wrong part; averaging read held-out rows, fans and heaps better than
        either view alone, docs/VISION.md).  A box nothing covers (its mask all True) has the
        two views equal and is classified once.

        With a classifier that has a 49th "not a card" class, each row sums to 1 minus
        that class's probability.
        """
        return self.classify_views(im, obbs, masks)[1]

    def classify_views(
        self,
        im: Image.Image | np.ndarray,
        obbs: np.ndarray,
        masks: np.ndarray | None = None,
        whole: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`classify`, also giving the whole crops' own probabilities: ``(whole (K, 48),
        averaged (K, 48))``; without masks the two are equal.  ``whole``: the whole crops'
        probabilities ``(K, 48)`` when already known (the verifier read them): only the
        masked crops are then classified (not with ``tta``, which reads every view again)."""
        if len(obbs) == 0:
            return np.zeros((0, 48)), np.zeros((0, 48))
        a = np.asarray(im.convert("RGB")) if isinstance(im, Image.Image) else im
        k = len(obbs)
        # a card nothing covers has a masked view equal to its whole one: classified once
        covered = np.zeros(k, bool) if masks is None else ~np.asarray(masks, bool).reshape(k, -1).all(1)
        if whole is not None and not self.tta:
            whole = np.asarray(whole, np.float64)
            avg = whole.copy()
            if covered.any():
                crops = crop_obbs(a, np.asarray(obbs)[covered], CROP_SIZE)
                avg[covered] = (whole[covered] + self._probs(mask_crops(crops, masks[covered]))) / 2
            return whole, avg
        crops = crop_obbs(a, obbs, CROP_SIZE)
        views = [crops]
        if covered.any():  # the masked crop and the whole one, averaged (docs/VISION.md)
            views.append(mask_crops(crops[covered], masks[covered]))
        if self.tta:
            views += [v[:, ::-1, ::-1] for v in views]
        p = self._probs(np.concatenate(views))
        return _whole_views(p, covered, self.tta), _average_views(p, covered, self.tta)

    def _probs(self, crops: np.ndarray) -> np.ndarray:
        """The 48 card probabilities ``(N, 48)`` of upright crops ``(N, 112, 72, 3)`` uint8;
        a 49th "not a card" output's probability is left out, so rows sum to 1 minus it."""
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
        x /= 255.0
        if self.backend == "ultralytics":
            with self._torch.no_grad():
                logits = self._net(self._torch.from_numpy(x)).numpy()
        else:
            logits = self._cls(x)
        return softmax(np.asarray(logits, dtype=np.float64))[:, : len(CARD_IDS)]

    def detect(self, image) -> list[Detection]:
        """Detect cards in ``image`` (path, bytes, PIL image, ``(H, W[, C])`` array, or a
        :class:`vision.imageio.Loaded` already decoded).

        Returns detections sorted by confidence, boxes in pixels of the EXIF-oriented
        original.  Raises :class:`vision.errors.ImageError` for unusable input.
        """
        return self.trace(image).detections

    def keep_boxes(
        self, a: np.ndarray, obbs: np.ndarray, scores: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The localiser's candidates ``(obbs (K, 5), scores (K,))`` in pixels of the working
        image ``a`` ``(H, W, 3)`` less those the box verifier and the same-card rule drop:
        ``(obbs (M, 5), scores (M,), whole (M, 48) or None)``.  With a verifier the scores are
        its probabilities (0-1) that each box lies on one card, and ``whole`` the whole crops'
        card probabilities it read (reused by :meth:`classify_views`); without either step the
        input comes back with ``None``."""
        known = None  # the whole crops' probabilities, once read
        if self.verifier is not None and len(obbs):
            known = self.classify_views(a, obbs)[0]
            keep, scores = self.verifier.select(obbs, scores, known)
            obbs, known = obbs[keep], known[keep]
        if self.same_card_iou is not None and len(obbs) > 1:
            if known is None:
                known = self.classify_views(a, obbs)[0]
            keep = drop_same_card(obbs, scores, known, self.same_card_iou)
            obbs, scores, known = obbs[keep], scores[keep], known[keep]
        return obbs, scores, known

    def trace(self, image) -> Trace:
        """:meth:`detect`, keeping every stage's output (see :class:`Trace`)."""
        loaded = load_image(image, self.max_side)
        if self.backend == "ultralytics" and isinstance(image, (str, Path)):
            # the plain ultralytics path: YOLO.predict decodes the file itself (full size)
            obbs, scores = self._whole_only(*self._predict(str(image)))
            obbs[:, :4] /= loaded.scale
        else:
            obbs, scores = self.localise(loaded.array)
        obbs, scores, known = self.keep_boxes(loaded.array, obbs, scores)
        masks, visible = self.visibility(loaded.array, obbs)
        whole, probs = self.classify_views(loaded.array, obbs, masks, known)
        context = context_features(obbs)
        printcheck = self.printcheck(loaded.array, obbs) if self.printcheck is not None else None
        used = printcheck if self.calibration is not None and self.calibration.f else None
        assigned = assign_cards(probs, scores, self.calibration, visible, context, used)
        obbs_px = obbs.copy()
        obbs_px[:, :4] *= loaded.scale
        readable = self.readable_from if self.boxes == "whole" else 0.0
        named = reads_whole(assigned, whole, self.whole_reads) if readable else None
        dets = to_detections(obbs_px, assigned, loaded.size, self.uncertain_below, visible, readable, named)
        return Trace(obbs_px, scores, probs, assigned, dets, visible, context, printcheck)


def _turns(p: np.ndarray, covered: np.ndarray, tta: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """The class probabilities ``p`` laid out as :meth:`Detector.classify_views` batches
    them (the whole crops ``(K)``, then the masked crops of the ``covered`` boxes, then with
    ``tta`` the same again turned 180 degrees), as ``(whole (K, C), masked (M, C))`` per turn."""
    k, m = len(covered), int(covered.sum())
    per_turn = np.split(p, [k, k + m, 2 * k + m])[: 4 if tta else 2]
    return list(zip(per_turn[0::2], per_turn[1::2], strict=True))


def _average_views(p: np.ndarray, covered: np.ndarray, tta: bool) -> np.ndarray:
    """Mean over each box's views of the class probabilities ``p`` (laid out as
    :func:`_turns` reads them).  A box without a masked view counts its whole view twice,
    exactly as if its (identical) masked crop had been classified.  Returns ``(K, C)``."""
    turns = _turns(p, covered, tta)
    out = np.zeros((len(covered), p.shape[1]))
    for whole, masked in turns:
        both = whole.copy()
        both[covered] = masked
        out += whole + both
    return out / (2 * len(turns))


def _whole_views(p: np.ndarray, covered: np.ndarray, tta: bool) -> np.ndarray:
    """Mean of each box's whole-crop views alone (both turns with ``tta``): ``(K, C)``."""
    return np.mean([whole for whole, _ in _turns(p, covered, tta)], axis=0)


@dataclass(frozen=True)
class Trace:
    """Everything one :meth:`Detector.trace` call saw, for evaluation and calibration.

    ``obbs`` ``(K, 5)``: localiser boxes in pixels of the oriented original; ``scores``
    ``(K,)``: box scores (the box verifier's probabilities, else the localiser's scores);
    ``probs`` ``(K, 48)``: class probabilities (summing to
    1 - the "not a card" probability when the classifier has that class); ``assigned``:
    per box ``(class index or -1, confidence)`` after the pile rules; ``detections``: what
    :meth:`Detector.detect` returns; ``visible`` ``(K,)``: each box's visible share (0-1);
    ``context`` ``(K, 3)``: each box's photo-context features (:func:`vision.calibration.context_features`);
    ``printcheck`` ``(K,)``: each box's print check logit (:mod:`vision.printcheck`), None without one.
    """

    obbs: np.ndarray
    scores: np.ndarray
    probs: np.ndarray
    assigned: list[tuple[int, float]]
    detections: list[Detection]
    visible: np.ndarray | None = None
    context: np.ndarray | None = None
    printcheck: np.ndarray | None = None


_DEFAULT: dict[str, Detector] = {}


def detect(image, backend: str = "onnxruntime") -> list[Detection]:
    """Detect cards with the shipped models (a cached :class:`Detector` per backend)."""
    if backend not in _DEFAULT:
        _DEFAULT[backend] = Detector(backend)
    return _DEFAULT[backend].detect(image)
