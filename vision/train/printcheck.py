"""Training the print check (:mod:`vision.printcheck`): is a kept box a card, or a card's
picture printed on a box?

The data are the boxes the shipped detector keeps on the :data:`vision.train.testset.PRINTCHECK_SPLITS`
sets (training backgrounds; tables crowded with card boxes printed with card art), with its
box verifier's keep threshold lowered to :data:`KEEP_AT` so that more boxes off the cards are
seen.  A box is on a card when its centre lies on a card's whole face (:func:`box_table`); its
context crop (:func:`vision.printcheck.context_crops`) is the input.  The network is
EfficientNet-Lite0 from ImageNet: its stem stays frozen (as the classifier's does,
:mod:`vision.train.effnet`) and is run once per crop in :data:`VIEWS` views (plain, colour-
augmented, turned 180 degrees and augmented), and the blocks above it are fine-tuned to one
logit, "on a card", with the two classes weighed equally (:func:`train_printcheck`).

Part of :mod:`vision.train`: torch and the ``train`` extra.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import CROP_SIZE
from vision.printcheck import context_crops

#: The box verifier's keep threshold while the training boxes are collected (shipped: 0.5):
#: lower, so that boxes on props the verifier would drop are seen too.
KEEP_AT = 0.05
#: Stem feature views per crop: plain, augmented, turned 180 degrees and augmented.
VIEWS = 3


def box_table(det, photos) -> dict[str, np.ndarray]:
    """Every box ``det`` (a :class:`vision.detector.Detector`) keeps on ``photos``
    (:class:`vision.train.testset.Photo`): ``crops`` ``(N, 112, 72, 3)`` uint8 context crops,
    ``on_card`` bool ``(N,)`` (the box's centre lies on a card's whole face), ``layout``,
    ``style`` and ``photo`` (index)."""
    crops, rows = [], {"on_card": [], "layout": [], "style": [], "photo": []}
    for k, ph in enumerate(photos):
        a = np.asarray(ph.image().convert("RGB"))
        tr = det.trace(a)
        if not len(tr.obbs):
            continue
        quads = [q.astype(np.float32) for q in ph.gt_quads("whole")]
        for cx, cy in tr.obbs[:, :2]:
            rows["on_card"].append(any(cv2.pointPolygonTest(q, (float(cx), float(cy)), False) >= 0 for q in quads))
        rows["layout"] += [ph.layout] * len(tr.obbs)
        rows["style"] += [ph.style] * len(tr.obbs)
        rows["photo"] += [k] * len(tr.obbs)
        crops.append(context_crops(a, tr.obbs))
    out = {k: np.array(v) for k, v in rows.items()}
    out["on_card"] = out["on_card"].astype(bool)
    out["crops"] = np.concatenate(crops) if crops else np.zeros((0, CROP_SIZE[1], CROP_SIZE[0], 3), np.uint8)
    return out


def _stem_views(model, x: np.ndarray, seed: int):
    import torch

    from vision.train.fitting import augment

    gen = torch.Generator().manual_seed(seed)
    out = []
    model.eval()
    with torch.no_grad():
        for v in range(VIEWS):
            parts = []
            for k in range(0, len(x), 256):
                xb = torch.from_numpy(x[k : k + 256]).permute(0, 3, 1, 2).float() / 255.0
                if v == 2:
                    xb = xb.flip(2, 3)
                if v:
                    xb = augment(xb, gen)
                parts.append(model.stem(xb).half())
            out.append(torch.cat(parts))
    return out


def train_printcheck(
    x: np.ndarray, on_card: np.ndarray, out: Path, epochs: int = 4, lr: float = 1e-3, seed: int = 0, log=print
) -> dict:
    """Fine-tune the print check on context crops ``x`` ``(N, 112, 72, 3)`` uint8 labelled
    ``on_card`` ``(N,)`` bool; write the checkpoint ``out`` (``{"model", "arch", "cut", "epoch"}``,
    after every epoch) and return a summary (epochs, seconds, counts, last loss).  AdamW with a
    one-cycle schedule, batch 128, each step drawing one of the :data:`VIEWS` per crop.
    Raises ValueError when ``on_card`` is all one value."""
    import torch

    from vision.train.effnet import ARCH, build_effnet

    y = np.asarray(on_card, bool)
    if len(y) != len(x) or y.all() or not y.any():
        raise ValueError(
            f"train_printcheck: need {len(x)} labels of both kinds, got {int(y.sum())} of {len(y)} on a card"
        )
    torch.manual_seed(seed)
    t0 = time.time()
    model = build_effnet(1, pretrained=True)
    feats = _stem_views(model, x, seed)
    log(f"printcheck: stem features of {len(x)} crops x {VIEWS} views, {time.time() - t0:.0f} s")
    frozen = ("net._conv_stem", "net._bn0", *(f"net._blocks.{i}." for i in range(model.cut)))
    params = [p for n, p in model.named_parameters() if not n.startswith(frozen)]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=1e-2)
    n, batch = len(y), 128
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * -(-n // batch), pct_start=0.15)
    yt = torch.from_numpy(y.astype(np.float32))
    pos_weight = torch.tensor([(~y).sum() / y.sum()], dtype=torch.float32)  # the classes weigh alike
    gen = torch.Generator().manual_seed(seed)
    loss_avg = float("nan")
    for ep in range(epochs):
        model.train()
        perm = torch.randperm(n, generator=gen)
        total = 0.0
        for k in range(0, n, batch):
            idx = perm[k : k + batch]
            view = torch.randint(0, VIEWS, (len(idx),), generator=gen)
            f = torch.stack([feats[int(v)][int(i)] for v, i in zip(view, idx, strict=True)]).float()
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                model.top(f).squeeze(1), yt[idx], pos_weight=pos_weight
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        loss_avg = total / n
        log(f"printcheck: epoch {ep + 1}/{epochs}, loss {loss_avg:.4f}, {time.time() - t0:.0f} s")
        torch.save({"model": model.state_dict(), "arch": ARCH, "cut": model.cut, "epoch": ep + 1}, out)
    return {"epochs": epochs, "seconds": time.time() - t0, "n": n, "on_card": int(y.sum()), "loss": loss_avg}


def export_printcheck_onnx(ckpt: Path, onnx_path: Path) -> Path:
    """Export a :func:`train_printcheck` checkpoint to ONNX: input ``crops`` float
    ``(B, 3, 112, 72)`` 0-1, output ``logits`` ``(B, 1)``."""
    import torch

    from vision.train.effnet import load_effnet
    from vision.train.onnx_export import export_crops_model

    model = load_effnet(torch.load(ckpt, map_location="cpu", weights_only=False))
    return export_crops_model(model, onnx_path, (3, CROP_SIZE[1], CROP_SIZE[0]))
