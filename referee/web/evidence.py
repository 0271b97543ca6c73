"""Pile photos: decode and downscale an upload, keep it as evidence, and run the detector.

Evidence files are JPEGs of about ``PHOTO_SIDE`` px (1600) on the long side, written
without any EXIF (so no location) under ``DATA_DIR/photos/``.  Detection runs on a small
bounded worker pool, never on the request thread, and waits at most ``PHOTO_TIMEOUT``
seconds, so a slow or stuck detector cannot stall the app.  Must not import the views.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from vision.detection import Detection
from vision.errors import ImageError, ModelError
from vision.imageio import load_image

#: ``image -> list[Detection]`` where image is a PIL image or raw bytes.
DetectFn = Callable[[Any], list[Detection]]


class DetectionBusyError(Exception):
    """Too many detections are queued; ``message`` says so in words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DetectionTimeoutError(DetectionBusyError):
    """The detector did not answer within the time limit."""


@dataclass(frozen=True)
class Prepared:
    """An upload, decoded: ``image`` (RGB, EXIF-oriented, long side <= the evidence size),
    ``jpeg`` (that image re-encoded without metadata), ``size`` of ``image`` in pixels."""

    image: Image.Image
    jpeg: bytes
    size: tuple[int, int]


def prepare(raw: bytes, side: int = 1600, quality: int = 85) -> Prepared:
    """Decode an uploaded photo and make its evidence JPEG.  Raises ``ImageError``."""
    loaded = load_image(raw, max_side=side)
    buf = io.BytesIO()
    loaded.image.save(buf, "JPEG", quality=quality, optimize=False)  # no exif= : metadata dropped
    return Prepared(loaded.image, buf.getvalue(), loaded.image.size)


def save_evidence(data_dir: str | Path, session_id: int, photo_id: str, jpeg: bytes) -> str:
    """Write an evidence JPEG; returns its path relative to ``data_dir``."""
    rel = Path("photos") / str(session_id) / f"{photo_id}.jpg"
    path = Path(data_dir) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(jpeg)
    return rel.as_posix()


def delete_files(data_dir: str | Path, files: list[str]) -> None:
    """Remove evidence files (relative to ``data_dir``); missing ones are ignored."""
    base = Path(data_dir).resolve()
    for rel in files:
        path = (base / rel).resolve()
        if base in path.parents:
            path.unlink(missing_ok=True)


class DetectionRunner:
    """Runs ``make_detector()``'s detector on ``workers`` background threads.

    ``make_detector``: builds an object with ``.detect(image)`` or a plain callable; it is
    called once, lazily, on a worker (loading models there).  ``timeout``: seconds a
    request waits.  ``queue``: most detections waiting or running at once (12: every
    player of a six-player table snapping twice); more are refused at once with
    :class:`DetectionBusyError`.
    """

    def __init__(self, make_detector: Callable[[], Any], *, timeout: float = 10.0, workers: int = 1, queue: int = 12):
        self._make = make_detector
        self._detector: Any = None
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="detect")
        self._slots = threading.BoundedSemaphore(queue)
        self.timeout = timeout

    def _detect_fn(self) -> DetectFn:
        with self._lock:
            if self._detector is None:
                self._detector = self._make()
        d = self._detector
        return d.detect if hasattr(d, "detect") else d

    def _run(self, image: Any) -> list[Detection]:
        try:
            return list(self._detect_fn()(image))
        finally:
            self._slots.release()

    def detect(self, image: Any) -> list[Detection]:
        """Detections for ``image``.  Raises ``ImageError``, ``ModelError``,
        ``DetectionBusyError``, ``DetectionTimeoutError``, or what the detector raised."""
        if not self._slots.acquire(blocking=False):
            raise DetectionBusyError("The detector is busy with other photos; try again in a moment.")
        try:
            future = self._pool.submit(self._run, image)
        except RuntimeError:
            self._slots.release()
            raise
        try:
            return future.result(timeout=self.timeout)
        except FutureTimeout:
            raise DetectionTimeoutError(
                f"Detection took longer than {self.timeout:g} s and was abandoned. "
                "Tap the cards in by hand, or try a smaller or sharper photo."
            ) from None

    def ready(self, timeout: float) -> tuple[bool, str]:
        """Load the detector once (on a worker, as a detection would) and say whether it is
        ready: ``(True, "loaded")``, or ``(False, why)`` (a missing model file, still loading
        after ``timeout`` seconds)."""
        if self._detector is not None:
            return True, "loaded"
        try:
            self._pool.submit(self._detect_fn).result(timeout=timeout)
        except FutureTimeout:
            return False, f"still loading after {timeout:g} s"
        except Exception as e:  # ModelError, a broken model file...
            return False, str(e) or type(e).__name__
        return True, "loaded"


def default_detector() -> Any:
    """The shipped ONNX models (raises ``ModelError`` when a model file is missing)."""
    from vision.detector import Detector

    return Detector()


def describe_error(e: BaseException) -> tuple[int, str]:
    """(HTTP status, words) for a failed photo."""
    if isinstance(e, ImageError):
        return 422, f"That photo could not be read: {str(e).removeprefix('<image>: ')}."
    if isinstance(e, ModelError):
        return 503, f"Card recognition is not available on this server ({e}). Tap the cards in by hand."
    if isinstance(e, DetectionTimeoutError):
        return 504, e.message
    if isinstance(e, DetectionBusyError):
        return 503, e.message
    return 500, f"Card recognition failed ({type(e).__name__}: {e}). Tap the cards in by hand."
