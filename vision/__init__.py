"""Hanafuda card detection: photo in, :class:`Detection` list out.

Two stages: a one-class oriented-box localiser (YOLO11n-OBB, exported to ONNX) finds each
card's visible region; a small CNN names the card on an upright crop.  Runtime needs only
Pillow, numpy, OpenCV (``opencv-python-headless``) and onnxruntime, all in the base install.

This package's own modules (``vision/*.py`` and the ONNX files in ``vision/models/``) are the
runtime: what the app, ``hanafuda-referee detect`` and :func:`detect` run.  They may import
each other and ``referee.cards``; never ``referee``'s scoring or web code, and neither of the
two subpackages beside them: :mod:`vision.synth` (synthetic scenes) and :mod:`vision.train`
(datasets, training, evaluation), which may import the runtime.  The one exception is the
``ultralytics`` backend, which needs the ``train`` extra and loads its classifier through
:func:`vision.train.classifier.load_classifier` when asked for
(``tests/test_layers.py``, ``tests/vision/test_runtime_imports.py``).

>>> from vision import detect
>>> for d in detect("table.jpg"):           # doctest: +SKIP
...     print(d.card, d.confidence, d.box, d.uncertain)
"""

from vision.detection import BACKENDS, CERTAIN_AT, SUGGEST_FLOOR, Detection
from vision.errors import ImageError, ModelError, VisionError

__all__ = [
    "BACKENDS",
    "CERTAIN_AT",
    "SUGGEST_FLOOR",
    "Detection",
    "Detector",
    "ImageError",
    "ModelError",
    "VisionError",
    "detect",
    "load_image",
]


def __getattr__(name):  # lazy: keep ``import vision`` free of onnxruntime
    if name in ("Detector", "detect"):
        from vision import detector

        return getattr(detector, name)
    if name == "load_image":
        from vision.imageio import load_image

        return load_image
    raise AttributeError(f"module 'vision' has no attribute {name!r}")
