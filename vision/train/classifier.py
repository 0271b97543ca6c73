"""Training data and training loops (needs the ``train`` extra: torch, ultralytics).

Two stages, trained separately:

1. a one-class *localiser*: ultralytics YOLO11n-OBB, finds every card's visible region as an
   oriented box;
2. a *classifier*: a small plain-torch CNN that names the card on an upright crop
   (:data:`vision.geometry.CROP_SIZE`), with the 48 classes in ``CARDS.tsv`` order.

Everything heavy is imported inside the functions.
"""

from __future__ import annotations

import json
import math
import os
import time
import warnings
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from referee.cards import CARD_IDS
from vision.geometry import CROP_SIZE, crop_obb, crop_obbs
from vision.synth.render import MERGED_IDS, load_art, rendered_styles
from vision.synth.scenes import TRAIN_BACKGROUNDS, make_scene, obb_line, quad_to_obb, write_labels

_ART: dict | None = None


def _init_worker(png_dir: str, styles: tuple[str, ...]) -> None:
    global _ART
    _ART = load_art(Path(png_dir), styles or rendered_styles(png_dir))


# --------------------------------------------------------------------------- localiser data


def _det_job(args):
    seed, out, split, size, backgrounds, tex, boxes, per_card = args
    k = None
    if tex:  # a separate stream, so scenes without it stay as they were
        k = float(np.random.default_rng((seed, 77)).uniform(*tex))
    scene = make_scene(seed, _ART, size=size, backgrounds=backgrounds, texture_scale=k, keep_idmap=per_card > 0)
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
            ys.append(_MERGED_OF.get((scene.style, cid), CARD_IDS.index(cid)))
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
) -> Path:
    """Write a one-class YOLO-OBB dataset; return the path of its ``data.yaml``.

    Scene ``i`` of the train split uses seed ``seed * 1_000_000 + i``; val scenes follow.
    ``texture_scale``: optional range; each scene's background texture is drawn that many
    times finer (uniform in the range).  Recommended for the next run: ``(1, 4)``.
    ``boxes``: ``"visible"`` labels each card's visible region, ``"whole"`` its whole face
    cut to the frame (:attr:`vision.synth.scenes.Scene.whole`).  ``crops_per_card``: above 0,
    also cut that many masked whole-card classifier crops per card from the same train
    scenes into ``crops.npz`` beside ``data.yaml`` (``x``, ``y``, ``visible``, ``layout``,
    ``s`` the style; see :func:`_masked_crops`).  Raises ValueError for another ``boxes``.
    """
    if boxes not in ("visible", "whole"):
        raise ValueError(f"boxes: expected 'visible' or 'whole', got {boxes!r}")
    out = Path(out_dir)
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    base = seed * 1_000_000
    tex = texture_scale
    extra = (boxes, crops_per_card)
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


#: Class index of "not a card" (the 49th classifier output).
REJECT = len(CARD_IDS)
#: Label codes from this one up stand for a set of classes (:data:`MERGED_GROUPS`).
MERGED_CODE = 100
#: Sets of classes one label may stand for: a style's ids that cannot be told apart
#: (:data:`vision.synth.render.MERGED_IDS`).  Training counts any of them as right.
MERGED_GROUPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(CARD_IDS.index(c) for c in ids) for ids in MERGED_IDS.values()
)
_MERGED_OF = {(st, c): MERGED_CODE + k for k, (st, ids) in enumerate(MERGED_IDS.items()) for c in ids}


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
        label = _MERGED_OF.get((scene.style, cid), CARD_IDS.index(cid))
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
    :data:`REJECT`, or a :data:`MERGED_CODE` code) and ``s``: str ``(N,)`` art-style names.
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


def target_mask(y, n_classes: int = REJECT + 1):
    """Boolean ``(B, n_classes)`` torch mask of the classes each label allows (one class, or
    a :data:`MERGED_GROUPS` set for codes from :data:`MERGED_CODE`)."""
    import torch

    m = torch.zeros(len(y), n_classes, dtype=torch.bool, device=y.device)
    plain = y < MERGED_CODE
    m[plain.nonzero(as_tuple=True)[0], y[plain]] = True
    for k, group in enumerate(MERGED_GROUPS):
        rows = (y == MERGED_CODE + k).nonzero(as_tuple=True)[0]
        for c in group:
            m[rows, c] = True
    return m


def set_loss(logits, y, smoothing: float = 0.05):
    """Cross-entropy where a label may allow several classes (-log of their summed
    probability), with label smoothing ``smoothing``."""
    import torch

    logp = torch.log_softmax(logits.float(), 1)
    m = target_mask(y, logits.shape[1])
    nll = -torch.logsumexp(logp.masked_fill(~m, float("-inf")), 1)
    return ((1 - smoothing) * nll - smoothing * logp.mean(1)).mean()


# --------------------------------------------------------------------------- classifier model


def build_classifier(n_classes: int = REJECT + 1, width: int = 32):
    """A small ResNet-like CNN (about 1.2 M parameters at width 32).

    Input: float ``(B, 3, 112, 72)`` RGB in 0-1; output: logits ``(B, n_classes)``: the 48
    cards in ``CARDS.tsv`` order, then "not a card" (:data:`REJECT`).  The first shipped
    classifier had 48 outputs and no reject class (:func:`load_classifier` reads both).
    """
    import torch
    from torch import nn

    def block(cin, cout, stride):
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.SiLU(),
            nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.SiLU(),
        )

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            w = width
            self.body = nn.Sequential(
                nn.Conv2d(3, w, 3, 2, 1, bias=False),
                nn.BatchNorm2d(w),
                nn.SiLU(),
                block(w, w, 1),
                block(w, 2 * w, 2),
                block(2 * w, 4 * w, 2),
                block(4 * w, 8 * w, 2),
                nn.AdaptiveAvgPool2d(1),
                nn.Flatten(),
                nn.Dropout(0.2),
                nn.Linear(8 * w, n_classes),
            )
            self.register_buffer("mean", torch.tensor([0.5, 0.5, 0.5]).view(1, 3, 1, 1))

        def forward(self, x):
            return self.body((x - self.mean) * 2.0)

    return Net()


def load_classifier(state: dict, n_classes: int | None = None):
    """A classifier built and loaded from a checkpoint's ``state["model"]``.

    ``n_classes``: build with this many outputs; a 48-output checkpoint then gets a fresh
    "not a card" row (fine-tuning an old classifier into the new head).
    """
    import torch

    sd = state["model"]
    have = sd["body.10.weight"].shape[0]
    model = build_classifier(n_classes or have)
    if n_classes and n_classes != have:
        new = model.state_dict()
        for k, v in sd.items():
            if k.startswith("body.10."):
                new[k][:have] = v
            else:
                new[k] = v
        with torch.no_grad():
            new["body.10.bias"][have:] = -2.0  # start the new class unlikely
        sd = new
    model.load_state_dict(sd)
    return model


def _augment(x, gen):
    """GPU/CPU batch augmentation on float ``(B, 3, H, W)`` in 0-1."""
    import torch

    b = x.shape[0]
    dev = x.device

    def r(*shape):
        return torch.rand(*shape, generator=gen, device=dev)

    # colour: gain per channel, saturation, brightness, contrast, gray, ink-ish
    gray = x.mean(1, keepdim=True)
    sat = 0.4 + 1.0 * r(b, 1, 1, 1)
    x = gray + (x - gray) * sat
    x = x * (0.8 + 0.4 * r(b, 3, 1, 1))
    x = (x - 0.5) * (0.7 + 0.6 * r(b, 1, 1, 1)) + 0.5 + (r(b, 1, 1, 1) - 0.5) * 0.3
    g = r(b, 1, 1, 1) < 0.1
    x = torch.where(g, x.mean(1, keepdim=True).expand_as(x), x)
    # random erasing: occluders and cut-off parts
    for _ in range(2):
        m = r(b) < 0.3
        h, w = x.shape[2], x.shape[3]
        eh = (r(b) * 0.5 * h).long() + 1
        ew = (r(b) * 0.8 * w).long() + 1
        y0 = (r(b) * (h - eh)).long()
        x0 = (r(b) * (w - ew)).long()
        yy = torch.arange(h, device=dev).view(1, h, 1)
        xx = torch.arange(w, device=dev).view(1, 1, w)
        box = (
            (yy >= y0.view(b, 1, 1))
            & (yy < (y0 + eh).view(b, 1, 1))
            & (xx >= x0.view(b, 1, 1))
            & (xx < (x0 + ew).view(b, 1, 1))
            & m.view(b, 1, 1)
        )
        fill = r(b, 3, 1, 1)
        x = torch.where(box.unsqueeze(1), fill.expand_as(x), x)
    x = x + torch.randn(x.shape, generator=gen, device=dev) * 0.03 * r(b, 1, 1, 1)
    return x.clamp(0, 1)


def train_classifier(
    x: np.ndarray,
    y: np.ndarray,
    out_dir: Path,
    epochs: int = 20,
    batch: int = 256,
    device: str = "cpu",
    time_limit_s: float | None = None,
    resume: bool = True,
    val_frac: float = 0.05,
    seed: int = 0,
    log=print,
    holdout: np.ndarray | None = None,
    tag: str = "classifier",
    init: Path | None = None,
) -> dict:
    """Train the crop classifier; checkpoint every epoch to ``out_dir/classifier_last.pt``.

    ``x``: uint8 ``(N, 112, 72, 3)``; ``y``: ``(N,)`` class indices.  Resumes from the
    checkpoint when ``resume`` and it exists.  Stops early at ``time_limit_s`` seconds.
    ``init``: optional checkpoint whose weights start a new run (fine-tuning).
    ``holdout``: optional boolean mask ``(N,)`` of samples kept out of training and used as
    the validation set instead (leave-one-style-out).  ``tag`` names the checkpoint files.
    Returns a summary dict (epochs run, val accuracy, seconds).
    """
    import torch

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(seed)
    n = len(y)
    perm = np.random.default_rng(seed).permutation(n)
    if holdout is not None:
        vi, ti = perm[holdout[perm]], perm[~holdout[perm]]
    else:
        nval = max(1, int(n * val_frac))
        vi, ti = perm[:nval], perm[nval:]
    dev = torch.device(device)
    xt = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()  # uint8 (N, 3, H, W)
    yt = torch.from_numpy(y)
    if dev.type == "cuda":
        xt, yt = xt.to(dev), yt.to(dev)
    if init:
        model = load_classifier(torch.load(init, map_location="cpu", weights_only=False), REJECT + 1).to(dev)
        log(f"{tag}: starting from {init}")
    else:
        model = build_classifier().to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    steps_per_epoch = math.ceil(len(ti) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=3e-3, total_steps=epochs * steps_per_epoch, pct_start=0.15
    )
    start_epoch = 0
    ck = out / f"{tag}_last.pt"
    if resume and ck.exists():
        state = torch.load(ck, map_location=dev, weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        start_epoch = state["epoch"] + 1
        log(f"resumed classifier from {ck} at epoch {start_epoch}")
    gen = torch.Generator(device=dev)
    gen.manual_seed(seed + start_epoch)
    t0 = time.time()
    acc = float("nan")
    ep = start_epoch - 1
    for ep in range(start_epoch, epochs):
        model.train()
        order = torch.from_numpy(np.random.default_rng(seed + ep).permutation(ti))
        tot, cnt = 0.0, 0
        for k in range(steps_per_epoch):
            idx = order[k * batch : (k + 1) * batch].to(xt.device)
            xb = xt[idx].to(dev, non_blocking=True).float() / 255.0
            yb = yt[idx].to(dev)
            xb = _augment(xb, gen)
            with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=dev.type == "cuda"):
                loss = set_loss(model(xb), yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(idx)
            cnt += len(idx)
        acc = evaluate_classifier(model, xt, yt, vi, dev)
        torch.save(
            {
                "model": model.state_dict(),
                "opt": opt.state_dict(),
                "sched": sched.state_dict(),
                "epoch": ep,
            },
            ck,
        )
        log(
            f"{tag} epoch {ep + 1}/{epochs} loss {tot / max(cnt, 1):.4f} "
            f"val_acc {acc:.4f} {time.time() - t0:.0f}s"
        )
        if time_limit_s and time.time() - t0 > time_limit_s:
            log("classifier: time limit reached")
            break
    torch.save({"model": model.state_dict(), "epoch": ep}, out / f"{tag}.pt")
    return {"epochs": ep + 1, "val_acc": acc, "seconds": time.time() - t0, "n": n}


#: Layers of ``build_classifier().body`` before the last block: conv, BN, SiLU, blocks 1-3.
FROZEN_LAYERS = 6


def train_classifier_top(
    x: np.ndarray,
    y: np.ndarray,
    out_dir: Path,
    init: Path,
    epochs: int = 4,
    batch: int = 256,
    holdout: np.ndarray | None = None,
    val_frac: float = 0.05,
    seed: int = 0,
    lr: float = 2e-3,
    tag: str = "classifier",
    log=print,
    device: str = "cpu",
    feature_cache: Path | None = None,
) -> dict:
    """Fine-tune only the last block and the head of a classifier (CPU-sized training).

    The first :data:`FROZEN_LAYERS` layers of ``init`` stay as they are; their output for
    every crop is computed once (float16) and the last block plus a 49-way head (48 cards
    and "not a card") are trained on it for ``epochs`` with :func:`set_loss`.  About a
    quarter of a full training step per crop and epoch, which makes the new data usable on
    a 2-core machine.  ``holdout``: samples kept out (validation: leave-one-style-out).
    ``feature_cache``: a file for the frozen layers' output, written on the first call and
    read by the next ones on the same crops (the leave-one-style-out runs).
    Raises ValueError when a cache does not match the crops.
    Writes ``out_dir/<tag>.pt`` (a full checkpoint, as :func:`train_classifier`) and returns
    a summary (epochs, validation accuracy, seconds, counts).
    """
    import torch

    t0 = time.time()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(seed)
    dev = torch.device(device)
    model = load_classifier(torch.load(init, map_location="cpu", weights_only=False), REJECT + 1).to(dev)
    head = model.body[:FROZEN_LAYERS].eval()
    cache = Path(feature_cache) if feature_cache else None
    if cache and cache.exists():
        f = torch.load(cache, map_location=dev)
        log(f"{tag}: features of {len(f)} crops read from {cache}")
    else:
        feats = []
        with torch.no_grad():
            for k in range(0, len(x), 512):
                xb = torch.from_numpy(x[k : k + 512]).to(dev).permute(0, 3, 1, 2).float() / 255.0
                feats.append(head((xb - model.mean) * 2.0).half())
        f = torch.cat(feats)
        if cache:
            torch.save(f, cache)
        log(f"{tag}: features of {len(f)} crops in {time.time() - t0:.0f}s")
    if len(f) != len(y):
        raise ValueError(f"feature cache holds {len(f)} crops, the data {len(y)}")
    yt = torch.from_numpy(y).to(dev)
    n = len(y)
    perm = np.random.default_rng(seed).permutation(n)
    if holdout is not None:
        vi, ti = perm[holdout[perm]], perm[~holdout[perm]]
    else:
        nval = max(1, int(n * val_frac))
        vi, ti = perm[:nval], perm[nval:]
    top = model.body[FROZEN_LAYERS:]
    for prm in head.parameters():
        prm.requires_grad_(False)
    opt = torch.optim.AdamW(top.parameters(), lr=lr, weight_decay=5e-4)
    steps = epochs * math.ceil(len(ti) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1), pct_start=0.1)

    def accuracy(idx) -> float:
        top.eval()
        right = 0
        with torch.no_grad():
            for k in range(0, len(idx), 1024):
                ii = torch.from_numpy(np.asarray(idx[k : k + 1024])).to(dev)
                pred = top(f[ii].float()).argmax(1)
                right += int(target_mask(yt[ii])[torch.arange(len(ii), device=dev), pred].sum())
        return right / max(1, len(idx))

    acc = float("nan")
    for ep in range(epochs):
        top.train()
        order = torch.from_numpy(np.random.default_rng(seed + ep).permutation(ti)).to(dev)
        tot = 0.0
        for k in range(0, len(order), batch):
            ii = order[k : k + batch]
            fb = f[ii].float()
            fb = fb * (torch.rand_like(fb[:, :1]) > 0.1)  # drop whole positions, like occlusion
            loss = set_loss(top(fb), yt[ii])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(ii)
        acc = accuracy(vi)
        log(f"{tag} epoch {ep + 1}/{epochs} loss {tot / max(len(ti), 1):.4f} val_acc {acc:.4f} {time.time() - t0:.0f}s")
    model.eval()
    torch.save({"model": model.state_dict(), "epoch": epochs - 1}, out / f"{tag}.pt")
    return {"epochs": epochs, "val_acc": acc, "seconds": time.time() - t0, "n": n, "n_val": len(vi)}


def evaluate_classifier(model, xt, yt, idx, dev) -> float:
    """Top-1 accuracy of ``model`` on ``xt[idx]`` (uint8 NCHW) against ``yt[idx]`` (a
    merged label counts any of its classes)."""
    import torch

    model.eval()
    correct = 0
    with torch.no_grad():
        for k in range(0, len(idx), 1024):
            ii = torch.from_numpy(np.asarray(idx[k : k + 1024])).to(xt.device)
            xb = xt[ii].to(dev).float() / 255.0
            pred = model(xb).argmax(1)
            correct += int(target_mask(yt[ii].to(dev))[torch.arange(len(pred), device=dev), pred].sum())
    return correct / max(1, len(idx))


def export_classifier_onnx(ckpt: Path, onnx_path: Path) -> Path:
    """Export a classifier checkpoint to ONNX: input ``crops`` float (B, 3, 112, 72) 0-1,
    output ``logits`` (B, 49): 48 cards, then "not a card" (48 for an old checkpoint)."""
    import torch

    model = load_classifier(torch.load(ckpt, map_location="cpu", weights_only=False))
    model.eval()
    dummy = torch.zeros(1, 3, CROP_SIZE[1], CROP_SIZE[0])
    with warnings.catch_warnings():
        # the TorchScript exporter on purpose: the torch.export one needs onnxscript
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            model,
            (dummy,),
            str(onnx_path),
            input_names=["crops"],
            output_names=["logits"],
            dynamic_axes={"crops": {0: "batch"}, "logits": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    return Path(onnx_path)


# --------------------------------------------------------------------------- localiser


def set_threads(n: int = 2) -> None:
    """Run torch and ultralytics on ``n`` threads.  ultralytics picks ``cpu_count - 1`` (one
    on this 2-core machine) and resets torch to it when training starts; training at 2
    threads was 1.5-2x faster (issue 17)."""
    import torch
    import ultralytics.utils as uu
    import ultralytics.utils.torch_utils as ut

    torch.set_num_threads(n)
    uu.NUM_THREADS = ut.NUM_THREADS = n


def _log_load(path: Path):
    """An ultralytics ``on_fit_epoch_end`` callback appending each epoch's metrics, wall
    time and the machine's load average to ``path`` (JSON lines)."""
    t0 = time.time()

    def cb(trainer) -> None:
        row = {
            "epoch": int(trainer.epoch) + 1,
            "epochs": int(trainer.epochs),
            "wall_s": round(time.time() - t0, 1),
            "loadavg": [round(v, 2) for v in os.getloadavg()],
            **{k: round(float(v), 4) for k, v in (trainer.metrics or {}).items()},
        }
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")

    return cb


def train_localiser(
    data_yaml: Path,
    out_dir: Path,
    imgsz: int = 512,
    epochs: int = 30,
    batch: int = 32,
    device: str = "cpu",
    workers: int = 2,
    time_h: float | None = None,
    resume: bool = True,
    init: Path | None = None,
    name: str = "localiser",
    freeze: int | None = None,
    warmup_epochs: float = 3.0,
    close_mosaic: int | None = None,
    threads: int = 2,
    lr0: float = 0.01,
) -> Path:
    """Train the one-class YOLO11n-OBB localiser from scratch, or from ``init`` weights.

    ``init``: an ultralytics checkpoint whose weights start the run (passed to ultralytics
    as ``pretrained``: with ``pretrained=False`` ultralytics 8.4 rebuilds the model from its
    architecture and drops the loaded weights, so an ``init`` used to train from scratch);
    ``freeze``: the first this many layers stay as loaded (10: the backbone);
    ``warmup_epochs``: ultralytics' learning-rate warm-up; ``close_mosaic``: the last this
    many epochs train without mosaic (default: a fifth of ``epochs``; with ``time_h`` the
    epoch count is ultralytics' estimate from the budget, so give it in epochs);
    ``threads``: torch threads on CPU (:func:`set_threads`); ``time_h``: wall-clock budget in
    hours.  Checkpoints every epoch to ``out_dir/name/weights/last.pt`` and logs each
    epoch's metrics and load average to ``out_dir/name/epochs.jsonl``; resumes an
    interrupted run from ``last.pt`` when ``resume``.  Returns the path of ``best.pt``.
    Raises FileNotFoundError when ``init`` does not exist.
    """
    from ultralytics import YOLO

    if device == "cpu":
        set_threads(threads)
    run = Path(out_dir) / name
    run.mkdir(parents=True, exist_ok=True)
    last = run / "weights" / "last.pt"
    if resume and last.exists():
        model = YOLO(str(last))
        model.add_callback("on_fit_epoch_end", _log_load(run / "epochs.jsonl"))
        model.train(resume=True)
        return run / "weights" / "best.pt"
    if init and not Path(init).is_file():
        raise FileNotFoundError(f"--loc-init: no such file: {init}")
    model = YOLO(str(init)) if init else YOLO("yolo11n-obb.yaml")
    model.add_callback("on_fit_epoch_end", _log_load(run / "epochs.jsonl"))
    kw = {"time": time_h} if time_h else {}
    if freeze:
        kw["freeze"] = freeze
    model.train(
        data=str(data_yaml),
        imgsz=imgsz,
        epochs=epochs,
        batch=batch,
        device=device,
        workers=workers,
        project=str(Path(out_dir).resolve()),
        name=name,
        exist_ok=True,
        single_cls=True,
        plots=False,
        amp=False,
        pretrained=str(init) if init else False,
        close_mosaic=close_mosaic if close_mosaic is not None else max(1, epochs // 5),
        warmup_epochs=warmup_epochs,
        lr0=lr0,
        degrees=180.0,
        flipud=0.5,
        fliplr=0.5,
        mosaic=0.5,
        scale=0.5,
        translate=0.1,
        hsv_h=0.02,
        hsv_s=0.5,
        hsv_v=0.4,
        cos_lr=True,
        patience=100,
        val=True,
        verbose=False,
        **kw,
    )
    return run / "weights" / "best.pt"


def export_localiser_onnx(pt: Path, imgsz: int = 512) -> Path:
    """Export ultralytics weights to ONNX (static 1x3xSxS input, no NMS inside)."""
    from ultralytics import YOLO

    return Path(
        YOLO(str(pt)).export(format="onnx", imgsz=imgsz, simplify=False, dynamic=False, opset=17)
    )


def hardware() -> str:
    """A one-line description of the machine (CPU count, GPU name if any)."""
    try:
        import torch

        gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    except ImportError:
        gpu = "torch absent"
    return f"{os.cpu_count()} CPU cores, {gpu}"
