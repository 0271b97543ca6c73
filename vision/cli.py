"""The ``hanafuda-referee detect IMAGE... [--json] [--annotate OUT.jpg]`` command.

Importing this module needs only the standard library, so the main CLI can build its parser
without the vision extra installed.  The main CLI (``referee/cli.py``) builds the sub-parser
with :func:`add_detect_arguments`
and calls :func:`run_detect`; any ``ValueError`` (all of :mod:`vision.errors`) is printed
there as one line on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

from referee.paths import cannot_write, names_a_folder, same_file, write_whole
from vision.detection import BACKENDS, CERTAIN_AT, SUGGEST_FLOOR, percent_sure
from vision.errors import ImageError, ModelError


def add_detect_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``detect`` options to ``parser``."""
    parser.add_argument(
        "images", nargs="+", metavar="IMAGE", help="photos (JPEG, PNG, HEIC with pillow-heif, ...)"
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per image: {image, detections, hidden}"
    )
    parser.add_argument(
        "--annotate",
        metavar="OUT.jpg",
        default=None,  # kept as typed: a trailing slash says a folder was meant
        help="write the photo with a labelled box per card (with several "
        "images, the image's index is added to the name)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="onnxruntime",
        help="inference runtime (default: onnxruntime; openvino needs pip install openvino)",
    )
    parser.add_argument(
        "--uncertain-below",
        type=float,
        default=CERTAIN_AT,
        metavar="P",
        help=f"flag detections under this calibrated confidence as uncertain (default {CERTAIN_AT})",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help=f"also list (and draw) the guesses under {SUGGEST_FLOOR}, which the photo flow hides",
    )


#: The image format PIL writes for each --annotate suffix.
_FORMATS = {".jpg": "JPEG", ".jpeg": "JPEG", ".png": "PNG", ".webp": "WEBP"}


def _annotate_path(base: Path, index: int, total: int) -> Path:
    if total == 1:
        return base
    return base.with_name(f"{base.stem}-{index + 1}{base.suffix or '.jpg'}")


def _check_annotate(arg: str, images: list[str]) -> None:
    """Refuse an ``--annotate`` path ``arg`` before any work: not an image file name (a
    folder, ``out.jpg/``, included), or a file (one per image, :func:`_annotate_path`) that is
    one of the input ``images`` (it would be overwritten) or cannot be written.  Raises
    ImageError."""
    base = Path(arg)
    if names_a_folder(arg) or base.suffix.lower() not in (".jpg", ".jpeg", ".png", ".webp"):
        raise ImageError(f"--annotate {base}: expected an image file name ending in .jpg, .png or .webp")
    total = len(images)
    for i in range(total):
        out = _annotate_path(base, i, total)
        photo = next((p for p in images if same_file(out, Path(p))), None)
        why = f"it is the input photo {photo}, which would be overwritten" if photo else cannot_write(out)
        if why:
            name = "" if out == base else f" ({out} for image {i + 1})"
            raise ImageError(f"--annotate {base}: cannot write the annotated image{name}: {why}")


def run_detect(args: argparse.Namespace) -> int:
    """Detect cards in each of ``args.images`` and print them.

    Without ``--json`` prints one line per card (``id  confidence  box``), with ``?`` for
    uncertain ones and "(too covered to read)" for cards the detector sees but cannot read.
    Like the photo flow, it lists (prints, writes as JSON, draws) only the detections players
    are shown (``Detection.shown``: at or above ``SUGGEST_FLOOR``, or too covered) and says
    how many guesses it hid; ``--all`` lists every detection.
    An unusable image, or an annotated image that cannot be written (a full disk), gets one line
    on stderr and the others are still read and drawn; returns 0, or 2 when any image or
    drawing failed.  Raises :class:`vision.errors.ImageError`
    for a bad ``--annotate`` path (not an image file name, or any of its per-image files
    an input photo or unwritable: checked before any model is loaded or image read) and
    :class:`vision.errors.ModelError` when the model cannot be loaded.
    """
    if not 0.0 <= args.uncertain_below <= 1.0:
        raise ValueError(f"--uncertain-below: expected 0 to 1, got {args.uncertain_below}")
    if args.annotate:
        _check_annotate(args.annotate, list(args.images))
    try:  # numpy, Pillow, OpenCV and onnxruntime are base dependencies; a broken install lacks them
        from vision.detector import Detector
    except ImportError as e:
        package = {"cv2": "opencv-python-headless", "PIL": "Pillow"}.get(e.name or "", e.name)
        raise ModelError(
            f"detect needs {package}, which the install lacks: pip install hanafuda-referee "
            "(onnxruntime, numpy, Pillow and opencv-python-headless are part of it)"
        ) from None
    det = Detector(args.backend, uncertain_below=args.uncertain_below)
    failed = 0
    for i, path in enumerate(args.images):
        try:
            found = det.detect(path)
        except ImageError as e:
            print(f"hanafuda-referee: error: {e}", file=sys.stderr)
            failed += 1
            continue
        dets = found if args.all else [d for d in found if d.shown]
        hidden = len(found) - len(dets)
        if args.json:
            print(json.dumps({"image": str(path), "detections": [d.to_dict() for d in dets], "hidden": hidden}))
        else:
            print(f"{path}: {len(dets)} card{'s' if len(dets) != 1 else ''}")
            for d in dets:
                box = ", ".join(f"{v:.0f}" for v in d.box)
                flag = " (too covered to read)" if d.covered else " ?" if d.uncertain else ""
                print(f"  {d.card:26} {percent_sure(d.confidence) / 100:5.2f}  [{box}]{flag}")
            if hidden:
                guesses = f"{hidden} guess{'es' if hidden != 1 else ''}"
                print(f"  ({guesses} under {SUGGEST_FLOOR} not shown; --all lists them)")
        if args.annotate:
            from vision.annotate import annotate

            out = _annotate_path(Path(args.annotate), i, len(args.images))
            try:  # whole or not at all: a full disk leaves no partial image and an old file as it was
                buf = io.BytesIO()
                annotate(path, dets).save(buf, format=_FORMATS[out.suffix.lower()], quality=90)
                write_whole(out, buf.getvalue())
            except (OSError, ImageError) as e:  # this image's drawing only: the others are still drawn
                why = (e.strerror or e) if isinstance(e, OSError) else e
                print(f"hanafuda-referee: error: --annotate {out}: cannot write the annotated image of {path}: {why}",
                      file=sys.stderr)
                failed += 1
    sys.stdout.flush()
    return 2 if failed else 0
