"""Two-stage card detector: a one-class oriented-box localiser, then a crop classifier.

Runtime backends (``backend=``):

- ``"onnxruntime"`` (default): both ONNX models with ONNX Runtime; no torch.  Fastest on
  the shared 2-core benchmark machine once its busy-waiting threads were turned off.
- ``"openvino"``: the same ONNX files compiled by OpenVINO (``pip install openvino``).
- ``"ultralytics"``: the localiser's ``.pt`` through ultralytics/torch and the classifier's
  ``.pt`` through torch; for comparison only (needs the ``train`` extra).

Weights are looked up in ``$HANAFUDA_VISION_MODELS`` if set, else ``vision/models/`` (the
ONNX files shipped with the package), else the repository's ``models/`` (``.pt`` files).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from PIL import Image

from vision import BACKENDS
from vision.detection import Detection
from vision.errors import ModelError
from vision.geometry import CROP_SIZE, crop_obbs
from vision.imageio import load_image
from vision.postprocess import assign_cards, decode_obb, letterbox, softmax, to_detections

PACKAGE_MODELS = Path(__file__).resolve().parent / "models"
REPO_MODELS = Path(__file__).resolve().parent.parent / "models"


def find_model(name: str) -> Path:
    """Path of a model file by name (e.g. ``localiser.onnx``); raises ModelError if absent."""
    dirs = (
        [Path(os.environ["HANAFUDA_VISION_MODELS"])]
        if os.environ.get("HANAFUDA_VISION_MODELS")
        else []
    )
    dirs += [PACKAGE_MODELS, REPO_MODELS]
    for d in dirs:
        if (d / name).is_file():
            return d / name
    raise ModelError(f"model file {name!r} not found in {', '.join(map(str, dirs))}")


class _OrtModel:
    def __init__(self, path: Path, threads: int | None):
        try:
            import onnxruntime as ort
        except ImportError:
            raise ModelError(
                "onnxruntime is not installed: pip install 'hanafuda-referee[vision]'"
            ) from None
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

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.model(x)[self.out]


class Detector:
    """Find and name hanafuda cards in a photo.

    ``imgsz``: localiser input side in pixels (read from the ONNX model when possible);
    ``conf``: minimum localiser score for a card candidate (0-1); ``iou``: rotated NMS
    threshold; ``uncertain_below``: detections with a lower final confidence are flagged
    ``uncertain``; ``max_side``: the photo's long side is reduced to this many pixels before
    cropping cards; ``tta``: also classify each crop turned by 180 degrees and average;
    ``pre_blur``: Gaussian blur radius (pixels of the 512 localiser input) applied before
    the localiser.  The localiser was trained on coarse procedural textures; fine wood
    grain or weave at phone resolution made it miss cards, and a 1.5 px blur recovers them
    (docs/BENCHMARKS.md).  The ``ultralytics`` backend does not blur.
    Raises ModelError for missing files or an unknown backend.
    """

    def __init__(
        self,
        backend: str = "onnxruntime",
        *,
        localiser: Path | None = None,
        classifier: Path | None = None,
        conf: float = 0.35,
        iou: float = 0.5,
        uncertain_below: float = 0.5,
        max_side: int = 1280,
        tta: bool = False,
        threads: int | None = None,
        imgsz: int = 512,
        pre_blur: float = 1.5,
    ):
        if backend not in BACKENDS:
            raise ModelError(f"backend: expected one of {BACKENDS}, got {backend!r}")
        self.backend = backend
        self.conf, self.iou, self.uncertain_below = conf, iou, uncertain_below
        self.max_side, self.tta, self.imgsz = max_side, tta, imgsz
        self.pre_blur = pre_blur
        if backend == "ultralytics":
            self._init_torch(localiser, classifier)
            return
        loc = Path(localiser) if localiser else find_model("localiser.onnx")
        cls = Path(classifier) if classifier else find_model("classifier.onnx")
        for p in (loc, cls):
            if not Path(p).is_file():
                raise ModelError(f"model file not found: {p}")
        make = _OrtModel if backend == "onnxruntime" else _OvModel
        self._loc, self._cls = make(loc, threads), make(cls, threads)
        if backend == "onnxruntime":
            shape = self._loc.input.shape
            if isinstance(shape[-1], int):
                self.imgsz = int(shape[-1])

    def _init_torch(self, localiser, classifier) -> None:
        try:
            import torch
            from ultralytics import YOLO
        except ImportError:
            raise ModelError(
                "the ultralytics backend needs the train extra (torch, ultralytics)"
            ) from None
        from vision.training import build_classifier

        self._yolo = YOLO(str(localiser or find_model("localiser.pt")), task="obb")
        net = build_classifier()
        state = torch.load(
            classifier or find_model("classifier.pt"), map_location="cpu", weights_only=False
        )
        net.load_state_dict(state["model"])
        net.eval()
        self._net, self._torch = net, torch

    # ------------------------------------------------------------------ stages

    def localise(self, im: Image.Image | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Card regions in ``im`` (PIL RGB or ``(H, W, 3)`` uint8 array): ``(obbs (K, 5),
        scores (K,))`` in pixels of ``im``."""
        if self.backend == "ultralytics":  # ultralytics reads arrays as BGR: give it PIL
            return self._predict(Image.fromarray(im) if isinstance(im, np.ndarray) else im)
        x, r, (px, py) = letterbox(im, self.imgsz, self.pre_blur)
        obbs, scores = decode_obb(self._loc(x), self.conf, self.iou)
        obbs[:, 0] = (obbs[:, 0] - px) / r
        obbs[:, 1] = (obbs[:, 1] - py) / r
        obbs[:, 2:4] /= r
        return obbs, scores

    def _predict(self, source) -> tuple[np.ndarray, np.ndarray]:
        """ultralytics/torch localiser on a PIL image or a file path (its own decode)."""
        r = self._yolo.predict(
            source, imgsz=self.imgsz, conf=self.conf, iou=self.iou, verbose=False, device="cpu"
        )[0]
        if r.obb is None or len(r.obb) == 0:
            return np.zeros((0, 5)), np.zeros(0)
        return r.obb.xywhr.numpy().astype(np.float64), r.obb.conf.numpy().astype(np.float64)

    def classify(self, im: Image.Image | np.ndarray, obbs: np.ndarray) -> np.ndarray:
        """Class probabilities ``(K, 48)`` for the oriented boxes ``(K, 5)`` of ``im`` (PIL
        RGB or ``(H, W, 3)`` uint8 array)."""
        if len(obbs) == 0:
            return np.zeros((0, 48))
        a = np.asarray(im.convert("RGB")) if isinstance(im, Image.Image) else im
        crops = crop_obbs(a, obbs, CROP_SIZE)
        if self.tta:
            crops = np.concatenate([crops, crops[:, ::-1, ::-1]])
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
        x /= 255.0
        if self.backend == "ultralytics":
            with self._torch.no_grad():
                logits = self._net(self._torch.from_numpy(x)).numpy()
        else:
            logits = self._cls(x)
        p = softmax(np.asarray(logits, dtype=np.float64))
        if self.tta:
            k = len(obbs)
            p = (p[:k] + p[k:]) / 2
        return p

    def detect(self, image) -> list[Detection]:
        """Detect cards in ``image`` (path, bytes, PIL image, ``(H, W[, C])`` array, or a
        :class:`vision.imageio.Loaded` already decoded).

        Returns detections sorted by confidence, boxes in pixels of the EXIF-oriented
        original.  Raises :class:`vision.errors.ImageError` for unusable input.
        """
        loaded = load_image(image, self.max_side)
        if self.backend == "ultralytics" and isinstance(image, (str, Path)):
            # the plain ultralytics path: YOLO.predict decodes the file itself (full size)
            obbs, scores = self._predict(str(image))
            obbs[:, :4] /= loaded.scale
        else:
            obbs, scores = self.localise(loaded.array)
        probs = self.classify(loaded.array, obbs)
        assigned = assign_cards(probs, scores)
        obbs_px = obbs.copy()
        obbs_px[:, :4] *= loaded.scale
        return to_detections(obbs_px, assigned, loaded.size, self.uncertain_below)


_DEFAULT: dict[str, Detector] = {}


def detect(image, backend: str = "onnxruntime") -> list[Detection]:
    """Detect cards with the shipped models (a cached :class:`Detector` per backend)."""
    if backend not in _DEFAULT:
        _DEFAULT[backend] = Detector(backend)
    return _DEFAULT[backend].detect(image)
