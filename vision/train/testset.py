"""Held-out scene sets on disk: written once, read by every evaluation and the calibration.

A set is a folder with ``images/<n>.jpg``, ``labels/<n>.json`` (written as each photo is
made, so an interrupted run resumes) and ``labels.json`` (a list of photos: file,
layout, style, card ids, visible-region quads in pixels, visible fractions, distractor
kinds, and each card's whole-face quad).  It is made from seeds never used for training and
only from the backgrounds never used in training
(:data:`vision.synth.backgrounds.TEST_BACKGROUNDS`), in every layout (including distractor-only
photos) and every art style, the same number of photos per cell.

Two held-out sets are used (docs/VISION.md): ``test`` (seed 9) for every reported figure,
and ``calib`` (seed 8) for fitting the confidence calibration and choosing the thresholds.
A third, ``verify`` (seed 11), is drawn the same way but on the training backgrounds: it
trains the box verifier (:mod:`vision.verify`), so neither held-out set is seen by it.

Part of :mod:`vision.train`: draws its photos with :mod:`vision.synth`; never torch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from PIL import Image

from vision.synth.backgrounds import TEST_BACKGROUNDS, TRAIN_BACKGROUNDS
from vision.synth.layouts import LAYOUTS, NO_CARDS
from vision.synth.render import MERGED_IDS, load_art, rendered_styles
from vision.synth.scenes import DISTRACTOR_PROPS, make_scene

#: The print check's training tables (:mod:`vision.train.printcheck`): card boxes printed with
#: card art drawn far more often than on the held-out sets; ``BOX_PROPS`` for photos of props alone.
PRINT_PROPS: dict[str, float] = {**DISTRACTOR_PROPS, "card-box": 0.9, "screenshot": 0.3}
BOX_PROPS: dict[str, float] = {**DISTRACTOR_PROPS, "card-box": 3.0, "screenshot": 0.5}
#: The sets the print check is trained on (all on the training backgrounds; never calib or test).
PRINTCHECK_SPLITS: tuple[str, ...] = ("printcheck", "printcheck2", "printcheck3", "printcheck4", "printcheck5")

#: Seeds of the held-out sets (training uses others, each with its own offsets), and of the
#: ``verify`` set, which trains the box verifier (:mod:`vision.verify`) on the training
#: backgrounds so that calib and test stay unseen by it.
#: ``calib2`` is a second set drawn as calib is, for choosing between models whose calib
#: figures differ by a few cards; ``distract`` holds distractor-only photos alone, with app
#: screenshots and patterned cloths among the props (issue 17, item 6).
#: ``printcheck`` to ``printcheck5`` train the print check (:data:`PRINTCHECK_SPLITS`).
SPLIT_SEEDS: dict[str, int] = {
    "test": 9, "calib": 8, "verify": 11, "calib2": 61, "distract": 62,
    "printcheck": 63, "printcheck2": 64, "printcheck3": 65, "printcheck4": 66, "printcheck5": 67,
}
#: Photos per (layout, style) cell of each set, as documented (docs/VISION.md).
PER_CELL: dict[str, int] = {
    "test": 4, "calib": 6, "verify": 18, "calib2": 6, "distract": 8,
    "printcheck": 10, "printcheck2": 16, "printcheck3": 60, "printcheck4": 60, "printcheck5": 16,
}
#: The layouts each set draws (default: every layout and distractor-only photos).
SPLIT_LAYOUTS: dict[str, tuple[str, ...]] = {
    "distract": (NO_CARDS,), "printcheck3": (NO_CARDS,), "printcheck4": (NO_CARDS,),
}
#: The props each set's tables carry (default: :data:`vision.synth.scenes.TABLE_PROPS`).
SPLIT_PROPS: dict[str, dict[str, float]] = {
    "distract": DISTRACTOR_PROPS,
    "printcheck": PRINT_PROPS, "printcheck2": PRINT_PROPS, "printcheck5": PRINT_PROPS,
    "printcheck3": BOX_PROPS, "printcheck4": BOX_PROPS,
}
#: The table surfaces each set is drawn on: the held-out sets only on those never used in
#: training; the ``verify`` set on the training ones.
SPLIT_BACKGROUNDS: dict[str, tuple[str, ...]] = {
    "test": TEST_BACKGROUNDS,
    "calib": TEST_BACKGROUNDS,
    "verify": TRAIN_BACKGROUNDS,
    "calib2": TEST_BACKGROUNDS,
    "distract": TEST_BACKGROUNDS,
    **dict.fromkeys(PRINTCHECK_SPLITS, TRAIN_BACKGROUNDS),
}

_ART: dict | None = None


@dataclass(frozen=True)
class Photo:
    """One held-out photo: the image path and its ground truth (``quads``: visible regions,
    ``whole``: whole faces cut to the frame; both ``(N, 4, 2)`` px)."""

    path: Path
    layout: str
    style: str
    cards: tuple[str, ...]
    quads: np.ndarray
    visible: tuple[float, ...]
    whole: np.ndarray | None = None

    def gt_quads(self, boxes: str) -> np.ndarray:
        """The ground-truth quads a localiser of ``boxes`` (``"visible"`` or ``"whole"``)
        is meant to find (a set written before whole quads were kept: its visible ones)."""
        return self.whole if boxes == "whole" and self.whole is not None else self.quads

    def image(self) -> Image.Image:
        """The photo as an RGB image."""
        with Image.open(self.path) as im:
            return im.convert("RGB")


def _init(png_dir: str, styles: tuple[str, ...]) -> None:
    global _ART
    _ART = load_art(Path(png_dir), styles)


def _job(args):
    seed, out, layout, style, size, quality, texture_scale, backgrounds, props = args
    done = Path(out) / "labels" / f"{seed}.json"
    if done.exists():  # resumable: a photo already written is kept
        return json.loads(done.read_text(encoding="utf-8"))
    s = make_scene(
        seed,
        _ART,
        size=size,
        layout=layout,
        styles=(style,),
        backgrounds=backgrounds,
        exclude={k: v[:1] for k, v in MERGED_IDS.items()},
        texture_scale=texture_scale,
        prop_weights=props,
    )
    name = f"{seed}.jpg"
    s.image.save(Path(out) / "images" / name, quality=quality)
    entry = {
        "file": f"images/{name}",
        "seed": seed,
        "layout": s.layout,
        "style": s.style,
        "cards": s.cards,
        "quads": np.round(s.quads, 2).tolist(),
        "visible": [round(v, 4) for v in s.visible],
        "whole": np.round(s.whole, 2).tolist(),
        "distractors": s.extra["distractor_kinds"],
    }
    done.write_text(json.dumps(entry), encoding="utf-8")
    return entry


def write_testset(
    out_dir: Path,
    png_dir: Path,
    split: str = "test",
    per_cell: int | None = None,
    size: int = 1280,
    styles: tuple[str, ...] | None = None,
    workers: int = 2,
    quality: int = 92,
    texture_scale: float | None = None,
) -> Path:
    """Render a held-out set to ``out_dir`` (see the module docstring); return its labels path.

    ``per_cell`` photos for each (layout, style) pair, and ``per_cell`` distractor-only
    photos per style (default: the split's :data:`PER_CELL`), made by ``workers`` processes
    (1: in this process).  ``split``: a key
    of :data:`SPLIT_SEEDS`.  Photo seeds are
    ``split_seed * 1_000_000 + layout_index * 10_000 + style_index * 100 + i``.
    A style's timomt-like merged ids (:data:`vision.synth.render.MERGED_IDS`) are not drawn as
    their first id (the nominal yellow Paulownia chaff).
    ``texture_scale``: draw the backgrounds' grain that many times finer
    (:func:`vision.synth.scenes.make_scene`): photos of the same seeds (other cards and poses:
    the larger texture takes other draws) on a table closer to a phone photo of real wood or
    cloth, whose grain is finer next to a card than the generator's (docs/VISION.md, "Known
    limits").
    Raises ValueError for an unknown split.
    """
    if split not in SPLIT_SEEDS:
        raise ValueError(f"split: expected one of {tuple(SPLIT_SEEDS)}, got {split!r}")
    per_cell = per_cell or PER_CELL[split]
    styles = styles or rendered_styles(png_dir)
    out = Path(out_dir)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    base = SPLIT_SEEDS[split] * 1_000_000
    backgrounds, props = SPLIT_BACKGROUNDS[split], SPLIT_PROPS.get(split)
    layouts = SPLIT_LAYOUTS.get(split, (*LAYOUTS, NO_CARDS))
    jobs = [
        (base + li * 10_000 + si * 100 + i, str(out), layout, style, size, quality, texture_scale, backgrounds, props)
        for li, layout in enumerate((*LAYOUTS, NO_CARDS))
        if layout in layouts
        for si, style in enumerate(styles)
        for i in range(per_cell)
    ]
    if workers <= 1:  # in this process (tests: no fork of a process that may hold threads)
        _init(str(png_dir), styles)
        photos = [_job(j) for j in jobs]
    else:
        with Pool(workers, initializer=_init, initargs=(str(png_dir), styles)) as pool:
            photos = pool.map(_job, jobs, chunksize=1)
    meta = {"split": split, "size": size, "per_cell": per_cell, "styles": list(styles), "photos": photos}
    if texture_scale:
        meta["texture_scale"] = texture_scale
    path = out / "labels.json"
    path.write_text(json.dumps(meta), encoding="utf-8")
    return path


def read_testset(folder: Path) -> list[Photo]:
    """The photos of a set written by :func:`write_testset` (of an unfinished one: the
    photos written so far, from ``labels/*.json``).

    Raises FileNotFoundError when the folder holds neither.
    """
    folder = Path(folder)
    if (folder / "labels.json").exists():
        photos = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["photos"]
    else:
        parts = sorted((folder / "labels").glob("*.json"), key=lambda q: int(q.stem))
        if not parts:
            raise FileNotFoundError(f"{folder}: no labels.json and no labels/*.json")
        photos = [json.loads(q.read_text(encoding="utf-8")) for q in parts]
    return [
        Photo(
            folder / p["file"],
            p["layout"],
            p["style"],
            tuple(p["cards"]),
            np.array(p["quads"], float).reshape(-1, 4, 2),
            tuple(p["visible"]),
            np.array(p["whole"], float).reshape(-1, 4, 2) if "whole" in p else None,
        )
        for p in photos
    ]
