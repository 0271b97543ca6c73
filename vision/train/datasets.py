"""Training data from synthetic scenes: the localiser's YOLO-OBB dataset and the
classifier's crops (labelled with :mod:`vision.train.labels`).

Scenes come from :mod:`vision.synth` (drawn in worker processes, one art set loaded per
worker); crops are cut as the detector cuts them (:mod:`vision.geometry`,
:mod:`vision.visibility`).  May import the runtime package, :mod:`vision.synth` and
``referee.cards``; never torch (the data is numpy), nor ``referee``'s scoring or web code.
"""

from __future__ import annotations

import json
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from vision.geometry import CROP_SIZE, crop_obb, crop_obbs
from vision.synth.backgrounds import TRAIN_BACKGROUNDS
from vision.synth.layouts import NO_CARDS, layout_draw
from vision.synth.render import load_art, rendered_styles
from vision.synth.scenes import DISTRACTOR_PROPS, make_scene, obb_line, quad_to_obb, write_labels
from vision.train.labels import REJECT, card_label

_ART: dict | None = None


def _init_worker(png_dir: str, styles: tuple[str, ...]) -> None:
    global _ART
    _ART = load_art(Path(png_dir), styles or rendered_styles(png_dir))


# --------------------------------------------------------------------------- localiser data


def _det_job(args):
    seed, out, split, size, backgrounds, tex, boxes, per_card, weights = args
    k = None
    if tex:  # a separate stream, so scenes without it stay as they were
        k = float(np.random.default_rng((seed, 77)).uniform(*tex))
    scene = make_scene(
        seed, _ART, size=size, backgrounds=backgrounds, texture_scale=k, keep_idmap=per_card > 0, layout_weights=weights
    )
    name = f"{seed:08d}"
    scene.image.save(Path(out) / "images" / split / f"{name}.jpg", quality=92)
    w, h = scene.image.size
    quads = scene.whole if boxes == "whole" else scene.quads
    write_labels(Path(out) / "labels" / split / f"{name}.txt", [obb_line(0, q, w, h) for q in quads])
    crops = _masked_crops(scene, per_card, np.random.default_rng(seed + 11)) if per_card and split == "train" else None
    return scene.layout, len(scene.cards), crops


def _masked_crops(scene, per_card: int, rng, estimated: bool = False):
    """Classifier crops of a scene's whole-card boxes (jittered like a localiser's), each
    masked to the card's true visible pixels (:func:`vision.visibility.mask_crops`; one
    in eight left unmasked, as when the stacking order is unknown), or with ``estimated``
    to the mask the detector works out from the jittered boxes and the photo
    (:func:`vision.visibility.stacking`), plus "not a card" crops of props and bare table.
    Returns ``(x uint8 (N, 112, 72, 3), y (N,), visible (N,), layout names (N,), style
    names (N,))``."""
    from vision.visibility import crop_mask, mask_crops, stacking, visible_masks

    idmap = scene.extra["idmap"]
    img = np.asarray(scene.image)
    xs, ys, vs = [], [], []
    for _ in range(per_card):
        obbs = np.array([_jittered(quad_to_obb(q), rng, 0.025) for q in scene.whole]).reshape(-1, 5)
        guess = visible_masks(obbs, stacking(img, obbs))[0] if estimated else None
        crops = crop_obbs(img, obbs, CROP_SIZE)
        for k, (cid, frac, idv) in enumerate(zip(scene.cards, scene.visible, scene.extra["label_ids"], strict=True)):
            flip = bool(rng.random() < 0.5)
            m = guess[k] if estimated else crop_mask(idmap == idv, obbs[k], CROP_SIZE)
            crop = mask_crops(crops[k][None], m[None])[0] if estimated or rng.random() >= 0.125 else crops[k]
            xs.append(np.ascontiguousarray(crop[::-1, ::-1]) if flip else crop)
            ys.append(card_label(scene.style, cid))
            vs.append(frac)
    for q in scene.distractors:
        obb = _jittered(quad_to_obb(q), rng, 0.08)
        if _on_cards(idmap, obb) < 0.15:
            xs.append(crop_obb(img, obb, CROP_SIZE, flip=bool(rng.random() < 0.5)))
            ys.append(REJECT)
            vs.append(1.0)
    hh, ww = idmap.shape
    side = rng.uniform(0.08, 0.4) * min(hh, ww)
    obb = (rng.uniform(0, ww), rng.uniform(0, hh), side * 0.61, side, rng.uniform(0, np.pi))
    if _on_cards(idmap, obb) < 0.15:
        xs.append(crop_obb(img, obb, CROP_SIZE))
        ys.append(REJECT)
        vs.append(1.0)
    x = np.stack(xs) if xs else np.zeros((0, CROP_SIZE[1], CROP_SIZE[0], 3), np.uint8)
    n = len(ys)
    names = np.array([scene.layout] * n), np.array([scene.style] * n)
    return x, np.array(ys, np.int64), np.array(vs, np.float32), *names


def gen_detection_dataset(
    out_dir: Path,
    png_dir: Path,
    n_train: int,
    n_val: int,
    seed: int,
    size: int = 640,
    workers: int = 2,
    styles: tuple[str, ...] | None = None,
    backgrounds: tuple[str, ...] = TRAIN_BACKGROUNDS,
    texture_scale: tuple[float, float] | None = None,
    boxes: str = "visible",
    crops_per_card: int = 0,
    layout_weights: tuple[float, ...] | None = None,
) -> Path:
    """Write a one-class YOLO-OBB dataset; return the path of its ``data.yaml``.

    Scene ``i`` of the train split uses seed ``seed * 1_000_000 + i``; val scenes follow.
    ``texture_scale``: optional range; each scene's background texture is drawn that many
    times finer (uniform in the range).  Recommended for the next run: ``(1, 4)``.
    ``boxes``: ``"visible"`` labels each card's visible region, ``"whole"`` its whole face
    cut to the frame (:attr:`vision.synth.scenes.Scene.whole`).  ``crops_per_card``: above 0,
    also cut that many masked whole-card classifier crops per card from the same train
    scenes into ``crops.npz`` beside ``data.yaml`` (``x``, ``y``, ``visible``, ``layout``,
    ``s`` the style; see :func:`_masked_crops`).  ``layout_weights``: how often each layout
    is drawn (:func:`vision.synth.layouts.layout_draw`; default the generator's own).
    Raises ValueError for another ``boxes`` or bad ``layout_weights``.
    """
    if boxes not in ("visible", "whole"):
        raise ValueError(f"boxes: expected 'visible' or 'whole', got {boxes!r}")
    weights = None if layout_weights is None else tuple(layout_draw(layout_weights))  # ValueError before any work
    out = Path(out_dir)
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    base = seed * 1_000_000
    tex = texture_scale
    extra = (boxes, crops_per_card, weights)
    jobs = [(base + i, str(out), "train", size, backgrounds, tex, *extra) for i in range(n_train)]
    jobs += [(base + n_train + i, str(out), "val", size, backgrounds, tex, *extra) for i in range(n_val)]
    with Pool(workers, initializer=_init_worker, initargs=(str(png_dir), styles)) as pool:
        stats = pool.map(_det_job, jobs, chunksize=8)
    parts = [st[2] for st in stats if st[2] is not None]
    if parts:
        np.savez(
            out / "crops.npz",
            **{k: np.concatenate([p_[i] for p_ in parts]) for i, k in enumerate(("x", "y", "visible", "layout", "s"))},
        )
    yaml = out / "data.yaml"
    yaml.write_text(
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: card\n",
        encoding="utf-8",
    )
    (out / "meta.json").write_text(
        json.dumps(
            {
                "seed": seed,
                "n_train": n_train,
                "n_val": n_val,
                "size": size,
                "styles": styles,
                "backgrounds": backgrounds,
                "boxes": boxes,
                "crops_per_card": crops_per_card,
                "cards": int(sum(s[1] for s in stats)),
            }
        ),
        encoding="utf-8",
    )
    return yaml


# --------------------------------------------------------------------------- classifier data


def _jittered(obb, rng, scale=0.04):
    """An oriented box moved and grown like an imperfect localiser's."""
    cx, cy, w, h, t = obb
    j = rng.normal(0, scale, 4)
    return (cx + j[0] * w, cy + j[1] * h, w * (1 + abs(j[2])), h * (1 + abs(j[3])), t + rng.normal(0, 0.04))


def _on_cards(idmap: np.ndarray, obb) -> float:
    """Share of a 9 x 9 grid of points in ``obb`` that falls on a card (idmap 1..127)."""
    cx, cy, w, h, t = obb
    u, v = np.meshgrid(np.linspace(-0.45, 0.45, 9), np.linspace(-0.45, 0.45, 9))
    c, s = np.cos(t), np.sin(t)
    x = cx + u * w * c - v * h * s
    y = cy + u * w * s + v * h * c
    hh, ww = idmap.shape
    inside = (x >= 0) & (x < ww) & (y >= 0) & (y < hh)
    vals = idmap[np.clip(y, 0, hh - 1).astype(int), np.clip(x, 0, ww - 1).astype(int)]
    return float(((vals > 0) & (vals < 128) & inside).mean())


def _crop_job(args):
    seed, size, per_card, backgrounds, reject = args
    rng = np.random.default_rng(seed + 7)
    scene = make_scene(seed, _ART, size=size, backgrounds=backgrounds, keep_idmap=reject)
    xs, ys = [], []

    def cut(obb, label):
        crop = crop_obb(scene.image, obb, CROP_SIZE, flip=bool(rng.random() < 0.5))
        xs.append(np.asarray(crop, np.uint8))
        ys.append(label)

    for cid, q in zip(scene.cards, scene.quads, strict=True):
        label = card_label(scene.style, cid)
        for _ in range(per_card):
            cut(_jittered(quad_to_obb(q), rng), label)
    if reject:  # "not a card": the props that show, and a patch of bare table
        idmap = scene.extra["idmap"]
        for q in scene.distractors:
            obb = _jittered(quad_to_obb(q), rng, 0.08)
            if _on_cards(idmap, obb) < 0.15:
                cut(obb, REJECT)
        hh, ww = idmap.shape
        side = rng.uniform(0.08, 0.4) * min(hh, ww)
        obb = (rng.uniform(0, ww), rng.uniform(0, hh), side * 0.61, side, rng.uniform(0, np.pi))
        if _on_cards(idmap, obb) < 0.15:
            cut(obb, REJECT)
    return xs, ys, [scene.style] * len(ys)


def gen_crops(
    png_dir: Path,
    n_scenes: int,
    seed: int,
    workers: int = 2,
    size: int = 640,
    per_card: int = 2,
    styles: tuple[str, ...] | None = None,
    backgrounds: tuple[str, ...] = TRAIN_BACKGROUNDS,
    reject: bool = True,
    first: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Classifier crops cut from synthetic scenes (every layout) at their jittered label
    boxes: whole cards, strips of overlapped cards, cut-off corners.  With ``reject``, also
    crops of the props and of bare table, labelled :data:`REJECT` ("not a card").

    Returns ``x``: uint8 ``(N, 112, 72, 3)``, ``y``: int64 ``(N,)`` class indices (0-47,
    :data:`~vision.train.labels.REJECT`, or a :data:`~vision.train.labels.MERGED_CODE` code)
    and ``s``: str ``(N,)`` art-style names.
    ``styles``: default every style rendered in ``png_dir``; ``first``: index of the first
    scene (scene ``i`` uses seed ``seed * 1_000_000 + 500_000 + i``), to make a big set in
    chunks.
    """
    base = seed * 1_000_000 + 500_000
    jobs = [(base + i, size, per_card, backgrounds, reject) for i in range(first, first + n_scenes)]
    with Pool(workers, initializer=_init_worker, initargs=(str(png_dir), styles)) as pool:
        parts = pool.map(_crop_job, jobs, chunksize=8)
    xs = [x for p in parts for x in p[0]]
    ys = np.array([y for p in parts for y in p[1]], np.int64)
    ss = np.array([s for p in parts for s in p[2]])
    return np.stack(xs), ys, ss


def _whole_crop_job(args):
    seed, size, per_card, backgrounds, estimated = args
    scene = make_scene(seed, _ART, size=size, backgrounds=backgrounds, keep_idmap=True)
    return _masked_crops(scene, per_card, np.random.default_rng(seed + 13), estimated)


def gen_whole_crops(
    png_dir: Path,
    n_scenes: int,
    seed: int,
    workers: int = 2,
    size: int = 640,
    per_card: int = 1,
    styles: tuple[str, ...] | None = None,
    backgrounds: tuple[str, ...] = TRAIN_BACKGROUNDS,
    estimated: bool = True,
) -> dict[str, np.ndarray]:
    """Masked whole-card classifier crops from ``n_scenes`` new scenes (scene ``i`` uses
    seed ``seed * 1_000_000 + 700_000 + i``), masked as the detector masks them
    (``estimated``) or by the true visible pixels; see :func:`_masked_crops`.

    Returns ``{"x", "y", "visible", "layout", "s"}`` arrays, as ``crops.npz`` holds them.
    """
    base = seed * 1_000_000 + 700_000
    jobs = [(base + i, size, per_card, backgrounds, estimated) for i in range(n_scenes)]
    with Pool(workers, initializer=_init_worker, initargs=(str(png_dir), styles)) as pool:
        parts = pool.map(_whole_crop_job, jobs, chunksize=8)
    return {k: np.concatenate([p[i] for p in parts]) for i, k in enumerate(("x", "y", "visible", "layout", "s"))}


# --------------------------------------------------------------------------- detector crops

_DETECTOR = None

#: A localiser box takes its best-overlapping card's label at this polygon IoU with the
#: card's whole quad or more, and "not a card" below :data:`REJECT_BELOW` (boxes in between
#: span parts of several cards and are left out: neither label is right for them).
LABEL_FROM, REJECT_BELOW = 0.5, 0.25


def _init_detector_worker(png_dir: str, styles: tuple[str, ...], models: str | None) -> None:
    global _DETECTOR
    from vision.detector import Detector

    _init_worker(png_dir, styles)
    m = Path(models) if models else None
    _DETECTOR = Detector(
        localiser=m / "localiser.onnx" if m else None,
        classifier=m / "classifier.onnx" if m else None,
        threads=1,
        calibration=False,
    )


def box_labels(
    boxes: np.ndarray, cards: np.ndarray, labels: list[int], visible: list[float], min_visible: float
) -> list[tuple[int, float]]:
    """Training labels for localiser ``boxes`` ``(K, 5)`` given the scene's whole cards
    ``cards`` ``(N, 5)`` (same pixels), their ``labels`` and true ``visible`` shares.

    Per box ``(label, visible share)``: the label of the card it overlaps most at polygon
    IoU :data:`LABEL_FROM` or more (-1 when that card shows under ``min_visible``: nothing
    to name); :data:`REJECT` with share 1.0 when it overlaps every card below
    :data:`REJECT_BELOW`; else -1 (a box across parts of several cards)."""
    from vision.geometry import obb_iou

    if not len(boxes):
        return []
    if not len(cards):
        return [(REJECT, 1.0)] * len(boxes)
    iou = obb_iou(np.asarray(boxes, float), np.asarray(cards, float))
    out = []
    for row in iou:
        j = int(row.argmax())
        if row[j] >= LABEL_FROM:
            out.append((labels[j], float(visible[j])) if visible[j] >= min_visible else (-1, 0.0))
        elif row[j] < REJECT_BELOW:
            out.append((REJECT, 1.0))
        else:
            out.append((-1, 0.0))
    return out


def _detector_crop_job(args):
    seed, size, backgrounds, min_visible, layout, props = args
    from vision.imageio import load_image
    from vision.visibility import mask_crops

    det = _DETECTOR
    scene = make_scene(
        seed, _ART, size=size, backgrounds=backgrounds, keep_idmap=True, layout=layout, prop_weights=props
    )
    loaded = load_image(scene.image, det.max_side)
    a = loaded.array
    obbs, scores = det.localise(a)
    obbs = det.keep_boxes(a, obbs, scores)[0]  # the boxes the box verifier keeps, as detect does
    masks, _ = det.visibility(a, obbs)  # (None, ...) for no box: the loop below keeps nothing
    crops = crop_obbs(a, obbs, CROP_SIZE)
    px = obbs.copy()
    px[:, :4] *= loaded.scale  # scene pixels, as the labels are
    gt = np.array([quad_to_obb(q) for q in scene.whole]).reshape(-1, 5)
    labels = [card_label(scene.style, c) for c in scene.cards]
    xs, ys, vs, views = [], [], [], []
    for k, (label, frac) in enumerate(box_labels(px, gt, labels, scene.visible, min_visible)):
        if label < 0:
            continue
        xs.append(crops[k])
        ys.append(label)
        vs.append(frac)
        views.append(0)
        # the masked view the detector also reads, unless the mask hides nearly all of it
        if masks is not None and not masks[k].all() and masks[k].mean() >= min_visible:
            xs.append(mask_crops(crops[k][None], masks[k][None])[0])
            ys.append(label)
            vs.append(frac)
            views.append(1)
    n = len(ys)
    return (
        np.array(xs, np.uint8).reshape(n, CROP_SIZE[1], CROP_SIZE[0], 3),
        np.array(ys, np.int64),
        np.array(vs, np.float32),
        np.array(views, np.int8),
        np.array([scene.layout] * n, str),
        np.array([scene.style] * n, str),
    )


def gen_detector_crops(
    png_dir: Path,
    n_scenes: int,
    seed: int,
    workers: int = 2,
    size: int = 1280,
    styles: tuple[str, ...] | None = None,
    backgrounds: tuple[str, ...] = TRAIN_BACKGROUNDS,
    models: Path | None = None,
    min_visible: float = 0.15,
    first: int = 0,
    distractors: bool = False,
) -> dict[str, np.ndarray]:
    """Classifier crops cut by the detector itself: its localiser's boxes on ``n_scenes``
    new scenes (scene ``i`` uses seed ``seed * 1_000_000 + 800_000 + i``, from ``first``),
    each cut, and masked by its stacking order, exactly as :class:`vision.detector.Detector`
    cuts and masks it, so the classifier learns the boxes it will really be given (shifted,
    cut short, or on no card at all) rather than jittered label boxes.

    A box takes the label (:func:`vision.train.labels.card_label`) of the card whose whole
    quad it overlaps most, at polygon IoU :data:`LABEL_FROM` or more, when that card shows
    at least ``min_visible`` of its face; a box overlapping every card below
    :data:`REJECT_BELOW` is "not a card" (:data:`REJECT`); the rest are left out.  Each kept
    box gives its whole crop and, when the stacking order covers part of it, its masked crop
    (unless the mask leaves under ``min_visible`` of the crop: a grey crop names nothing).
    ``models``: a folder with ``localiser.onnx`` and ``classifier.onnx`` (default: the
    shipped ones).  ``size``: the scenes' long side in pixels (the held-out photos' 1280).
    ``distractors``: distractor-only scenes with app screenshots and patterned cloths among
    the props (:data:`vision.synth.scenes.DISTRACTOR_PROPS`; seeds ``... + 960_000 + i``),
    so that every box is "not a card": the hard negatives the detector really cuts.

    Returns ``{"x": uint8 (N, 112, 72, 3), "y": int64 (N,), "visible": float32 (N,) the
    card's true visible share (1 for "not a card"), "view": int8 (N,) 0 whole / 1 masked,
    "layout": str (N,), "s": str (N,) the art style}``.
    """
    base = seed * 1_000_000 + (960_000 if distractors else 800_000)
    layout, props = (NO_CARDS, DISTRACTOR_PROPS) if distractors else (None, None)
    jobs = [(base + i, size, backgrounds, min_visible, layout, props) for i in range(first, first + n_scenes)]
    init = (str(png_dir), styles, str(models) if models else None)
    with Pool(workers, initializer=_init_detector_worker, initargs=init) as pool:
        parts = pool.map(_detector_crop_job, jobs, chunksize=4)
    keys = ("x", "y", "visible", "view", "layout", "s")
    return {k: np.concatenate([p[i] for p in parts]) for i, k in enumerate(keys)}


def write_detector_crops(
    path: Path,
    png_dir: Path,
    n_scenes: int,
    seed: int,
    workers: int = 2,
    styles: tuple[str, ...] | None = None,
    models: Path | None = None,
    chunk: int = 250,
    distractors: bool = False,
) -> dict:
    """:func:`gen_detector_crops` for ``n_scenes`` scenes into the ``.npz`` at ``path``,
    ``chunk`` scenes at a time: each chunk is kept beside it (``<path stem>/part_*.npz``), so
    a stopped run, started again, resumes after its last whole chunk.  A ``path`` already
    written is kept.  ``distractors``: see :func:`gen_detector_crops`.
    Returns ``{"crops", "not_a_card", "masked", "seconds"}``."""
    import time

    path = Path(path)
    t0 = time.time()
    if not path.exists():
        parts_dir = path.with_suffix("")
        parts_dir.mkdir(parents=True, exist_ok=True)
        files = []
        for first in range(0, n_scenes, chunk):
            f = parts_dir / f"part_{first:06d}.npz"
            if not f.exists():
                d = gen_detector_crops(
                    png_dir,
                    min(chunk, n_scenes - first),
                    seed,
                    workers,
                    styles=styles,
                    models=models,
                    first=first,
                    distractors=distractors,
                )
                np.savez(f.with_suffix(".tmp.npz"), **d)
                f.with_suffix(".tmp.npz").rename(f)
                print(
                    f"detector crops: scenes {first}-{min(first + chunk, n_scenes) - 1}, {time.time() - t0:.0f}s",
                    flush=True,
                )
            files.append(f)
        np.savez(path.with_suffix(".tmp.npz"), **load_crops(files))
        path.with_suffix(".tmp.npz").rename(path)
    with np.load(path) as d:
        y, view = d["y"], d["view"]
        return {
            "crops": len(y),
            "not_a_card": int((y == REJECT).sum()),
            "masked": int(view.sum()),
            "seconds": round(time.time() - t0, 1),
        }


def load_crops(paths) -> dict[str, np.ndarray]:
    """Crops files (``.npz`` with at least ``x``, ``y``, ``s``) read and joined in order:
    ``{key: array}`` for the keys every file has."""
    data = [dict(np.load(p)) for p in paths]
    keys = [k for k in data[0] if all(k in d for d in data)]
    return {k: np.concatenate([d[k] for d in data]) for k in keys}


# --------------------------------------------------------------------------- masker data


def _mask_job(args):
    seed, size, backgrounds, min_share = args
    from vision.visibility import crop_mask, stacking, visible_masks

    scene = make_scene(seed, _ART, size=size, backgrounds=backgrounds, keep_idmap=True)
    rng = np.random.default_rng(seed + 17)
    idmap, img = scene.extra["idmap"], np.asarray(scene.image)
    obbs = np.array([_jittered(quad_to_obb(q), rng, 0.025) for q in scene.whole]).reshape(-1, 5)
    if not len(obbs):
        return None
    guess = visible_masks(obbs, stacking(img, obbs))[0]
    crops = crop_obbs(img, obbs, CROP_SIZE)
    xs, gs, ts, ys, vs = [], [], [], [], []
    for k, (cid, frac, idv) in enumerate(zip(scene.cards, scene.visible, scene.extra["label_ids"], strict=True)):
        if frac < min_share:
            continue
        true = crop_mask(idmap == idv, obbs[k], CROP_SIZE)
        flip = bool(rng.random() < 0.5)
        turn = (lambda a: np.ascontiguousarray(a[::-1, ::-1])) if flip else (lambda a: a)
        xs.append(turn(crops[k]))
        gs.append(turn(guess[k]))
        ts.append(turn(true))
        ys.append(card_label(scene.style, cid))
        vs.append(frac)
    n = len(ys)
    if not n:
        return None
    return (
        np.stack(xs),
        np.stack(gs),
        np.stack(ts),
        np.array(ys, np.int64),
        np.array(vs, np.float32),
        np.array([scene.layout] * n),
        np.array([scene.style] * n),
    )


def gen_mask_crops(
    png_dir: Path,
    n_scenes: int,
    seed: int,
    workers: int = 2,
    size: int = 640,
    styles: tuple[str, ...] | None = None,
    backgrounds: tuple[str, ...] = TRAIN_BACKGROUNDS,
    min_share: float = 0.05,
) -> dict[str, np.ndarray]:
    """Whole-card crops with two visible masks each, for the masker (:mod:`vision.train.masker`):
    the mask the detector works out from the stacking order (:func:`vision.visibility.stacking`
    on the scene's jittered whole-card boxes) and the card's true visible pixels (the
    generator's per-pixel card map).  Scene ``i`` uses seed ``seed * 1_000_000 + 900_000 + i``;
    cards showing under ``min_share`` of their face are left out; half the crops are turned by
    180 degrees, their masks with them.

    Returns ``{"x": uint8 (N, 112, 72, 3), "guess": bool (N, 112, 72), "true": bool (N, 112,
    72), "y": int64 (N,) labels, "visible": float32 (N,) the true visible share, "layout": str
    (N,), "s": str (N,) the art style}``.
    """
    base = seed * 1_000_000 + 900_000
    jobs = [(base + i, size, backgrounds, min_share) for i in range(n_scenes)]
    with Pool(workers, initializer=_init_worker, initargs=(str(png_dir), styles)) as pool:
        parts = [p for p in pool.map(_mask_job, jobs, chunksize=8) if p is not None]
    keys = ("x", "guess", "true", "y", "visible", "layout", "s")
    return {k: np.concatenate([p[i] for p in parts]) for i, k in enumerate(keys)}
