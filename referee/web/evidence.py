"""Pile photos: decode and downscale an upload, keep it as evidence, and run the detector.

Evidence files are JPEGs of about ``PHOTO_SIDE`` px (1600) on the long side, written
without any EXIF (so no location) under ``DATA_DIR/photos/``.

Decoding and detection of both photo routes (``POST /api/v1/detect`` and the round-photo
route) run through one :class:`DetectionRunner` and its one limit, :class:`PhotoGate`:
never on the request thread, at most ``workers`` at once, within a memory budget that each
photo reserves from its header (``vision.imageio.probe``) before a byte is decoded, the
cheapest photo first, and at most ``PHOTO_TIMEOUT`` seconds of waiting, so neither a slow
detector nor a pile of crafted uploads can stall the app or take its memory.  Must not
import the views.
"""

from __future__ import annotations

import ctypes
import heapq
import io
import itertools
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from vision.detection import Detection
from vision.errors import ImageError, ModelError
from vision.imageio import Loaded, load_image, probe

_MIB = 1024 * 1024
#: Memory all photo work in flight may reserve (bytes): one decode at the per-decode limit
#: (``vision.imageio.MAX_DECODE_BYTES``, 256 MiB) and ordinary photos beside it.  With the
#: app and its models (about 170 MiB; 23-24 MiB more since the print check) the server stays under
#: 600 MiB (docs/BENCHMARKS.md).
PHOTO_MEMORY = 320 * _MIB
#: What detecting an image already decoded (the working copies, the letterbox) reserves.
DETECT_COST = 32 * _MIB

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


def prepare(raw: bytes | Loaded, side: int = 1600, quality: int = 85) -> Prepared:
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


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # musl and others: their own allocator rules
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


_LIBC = _glibc()
_M_MMAP_THRESHOLD, _M_ARENA_MAX = -3, -8


def tune_allocator() -> bool:
    """Make glibc give photo buffers back to the system (Linux with glibc; elsewhere a no-op).

    By default glibc raises its mmap threshold to the size of the last big buffer freed (up
    to 32 MiB) and keeps a heap per busy thread, so decoded images freed on one worker stay
    in the process and the server's RSS only grows (measured: 805 MiB after six bursts
    of uploads, docs/BENCHMARKS.md).  Here: buffers of 1 MiB or more come from mmap and
    go back when freed, and at most two heaps.  Returns whether it applied."""
    if _LIBC is None:
        return False
    return bool(_LIBC.mallopt(_M_ARENA_MAX, 2)) and bool(_LIBC.mallopt(_M_MMAP_THRESHOLD, 1 << 20))


def _trim() -> None:
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


class _AbandonedError(Exception):
    """The request stopped waiting before its photo's turn came."""


class PhotoGate:
    """The one limit on photo work (decodes and detections, both routes).

    A job holds ``cost`` bytes of ``budget`` while it runs; at most ``workers`` run at once;
    the cheapest waiting job goes first, so an ordinary photo does not queue behind big ones.
    Big jobs (over a quarter of the budget) take at most ``workers - 1`` workers and, once
    one runs, three quarters of the budget together: a worker and a quarter of the memory
    stay for ordinary photos.  A job costing more than the whole budget runs alone.
    """

    def __init__(self, budget: int = PHOTO_MEMORY, workers: int = 3):
        self.budget, self.workers = int(budget), max(1, int(workers))
        self._cv = threading.Condition()
        self._waiting: list[tuple[int, int]] = []
        self._seq = itertools.count()
        self.running = self.heavy = self.in_use = self.heavy_bytes = 0

    def _heavy(self, cost: int) -> bool:
        return self.workers > 1 and cost > self.budget // 4

    def _fits(self, cost: int) -> bool:
        if self.running >= self.workers:
            return False
        if self.running == 0:
            return True
        if self.in_use + cost > self.budget:
            return False
        if self._heavy(cost):
            if self.heavy >= self.workers - 1:
                return False
            if self.heavy and self.heavy_bytes + cost > self.budget * 3 // 4:
                return False
        return True

    @contextmanager
    def hold(self, cost: int, abandoned: threading.Event | None = None) -> Iterator[None]:
        """Wait for this job's turn, then hold ``cost`` bytes until the block ends.

        Raises ``_AbandonedError`` if ``abandoned`` is set (see :meth:`abandon`) while waiting."""
        with self._cv:
            ticket = (int(cost), next(self._seq))
            heapq.heappush(self._waiting, ticket)
            try:
                while not (self._waiting[0] == ticket and self._fits(cost)):
                    if abandoned is not None and abandoned.is_set():
                        raise _AbandonedError
                    self._cv.wait()
            except BaseException:
                self._waiting.remove(ticket)
                heapq.heapify(self._waiting)
                self._cv.notify_all()
                raise
            heapq.heappop(self._waiting)
            heavy = self._heavy(cost)
            self.running += 1
            self.in_use += cost
            self.heavy += heavy
            self.heavy_bytes += cost if heavy else 0
            self._cv.notify_all()  # the next cheapest may fit beside this one
        try:
            yield
        finally:
            with self._cv:
                self.running -= 1
                self.in_use -= cost
                self.heavy -= heavy
                self.heavy_bytes -= cost if heavy else 0
                self._cv.notify_all()

    def abandon(self, abandoned: threading.Event) -> None:
        """Tell a waiting job that nobody waits for it any more."""
        with self._cv:
            abandoned.set()
            self._cv.notify_all()


def _is_upload(image: Any) -> bool:
    return isinstance(image, (bytes, bytearray, memoryview)) or hasattr(image, "read")


def _read_all(src: Any) -> bytes:
    if isinstance(src, (bytes, bytearray, memoryview)):
        return bytes(src)
    src.seek(0)
    return src.read()


def stream_size(stream: Any) -> int:
    """Bytes in a seekable upload stream (left at its start)."""
    stream.seek(0, io.SEEK_END)
    n = stream.tell()
    stream.seek(0)
    return n


class DetectionRunner:
    """Runs decodes and ``make_detector()``'s detector for both photo routes, under one
    :class:`PhotoGate`.

    ``make_detector``: builds an object with ``.detect(image)`` or a plain callable; it is
    called once, lazily, on a worker (loading models there).  ``timeout``: seconds a
    request waits, its turn included.  ``queue``: most photos waiting or running at once
    (16: every player of a six-player table snapping twice, and the API beside them); more
    are refused at once with :class:`DetectionBusyError`.  ``workers``, ``budget``: the
    gate's (bytes).  ``max_side``: the long side, in pixels, uploads are decoded to for
    :meth:`detect`.  The detector itself runs one photo at a time (its models' memory grows
    with each concurrent run).
    """

    def __init__(self, make_detector: Callable[[], Any], *, timeout: float = 10.0, workers: int = 3,
                 queue: int = 16, budget: int = PHOTO_MEMORY, max_side: int = 1280):
        self._make = make_detector
        self._detector: Any = None
        self._lock = threading.Lock()
        self._infer = threading.Lock()
        # one thread per queue slot: a job waits for its turn at the gate, not in the pool
        self._pool = ThreadPoolExecutor(max_workers=queue, thread_name_prefix="photo")
        self._slots = threading.BoundedSemaphore(queue)
        self.queue = queue
        self.gate = PhotoGate(budget, workers)
        self.timeout, self.max_side = timeout, max_side
        self.allocator_tuned = tune_allocator()

    def _detect_fn(self) -> DetectFn:
        with self._lock:
            if self._detector is None:
                self._detector = self._make()
        d = self._detector
        return d.detect if hasattr(d, "detect") else d

    def _detect(self, image: Any) -> list[Detection]:
        fn = self._detect_fn()
        with self._infer:
            return list(fn(image))

    def _decode_and_detect(self, src: Any) -> list[Detection]:
        loaded = load_image(_read_all(src), self.max_side)
        return self._detect(loaded)

    def run(self, cost: int, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on a worker once the gate gives this job its turn (``cost`` bytes).

        Raises :class:`DetectionBusyError` when ``queue`` jobs are already waiting or
        running, :class:`DetectionTimeoutError` after ``timeout`` seconds, or what ``fn``
        raised."""
        if not self._slots.acquire(blocking=False):
            raise DetectionBusyError(
                f"The detector is busy: {self.queue} photos are already waiting or being read, the most it "
                "takes at once; try again in a moment."
            )
        abandoned = threading.Event()

        def job() -> Any:
            try:
                with self.gate.hold(cost, abandoned):
                    return fn(*args)
            finally:
                self._slots.release()
                _trim()  # what the photo freed goes back to the system

        try:
            future = self._pool.submit(job)
        except RuntimeError:
            self._slots.release()
            raise
        try:
            return future.result(timeout=self.timeout)
        except FutureTimeout:
            self.gate.abandon(abandoned)
            raise DetectionTimeoutError(
                f"Detection took longer than {self.timeout:g} s and was abandoned. "
                "Tap the cards in by hand, or try a smaller or sharper photo."
            ) from None

    def detect(self, image: Any) -> list[Detection]:
        """Detections for ``image``: upload bytes or a binary file (decoded on a worker, its
        cost read from its header first), or a PIL image, array or ``Loaded``.  Raises
        ``ImageError`` (refused before decoding, or unreadable), ``ModelError``,
        ``DetectionBusyError``, ``DetectionTimeoutError``, or what the detector raised."""
        if _is_upload(image):
            head = probe(image, self.max_side)
            return self.run(head.cost + head.nbytes, self._decode_and_detect, image)
        return self.run(DETECT_COST, self._detect, image)

    def prepare(self, upload: Any, side: int = 1600) -> Prepared:
        """:func:`prepare` on a worker, under the gate: upload bytes or a binary file.
        Raises ``ImageError`` (before decoding when the header shows it over a limit) and
        the errors of :meth:`run`."""
        head = probe(upload, side)
        return self.run(head.cost + head.nbytes, lambda: prepare(_read_all(upload), side))

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
