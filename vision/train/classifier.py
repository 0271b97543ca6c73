"""The crop classifier: model, checkpoint loading, training loops and ONNX export (needs
the ``train`` extra: torch).

A *classifier* names the card on an upright crop (:data:`vision.geometry.CROP_SIZE`):
48 cards in ``CARDS.tsv`` order, then "not a card" (:data:`vision.train.labels.REJECT`).
:func:`build_classifier` makes the network and :func:`load_classifier` rebuilds one from a
checkpoint (the runtime's ``ultralytics`` backend loads ``classifier.pt`` through it);
:func:`train_classifier` trains every layer, :func:`train_classifier_top` only the last
block and the head; :func:`export_classifier_onnx` writes the model the runtime runs.

Everything heavy is imported inside the functions.  May import the runtime package and
:mod:`vision.train.labels` (the label codes); never the datasets or the scenes, nor ``referee``.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np

from vision.geometry import CROP_SIZE
from vision.train.fitting import augment, set_loss, split_indices, target_mask
from vision.train.labels import REJECT

# --------------------------------------------------------------------------- loss


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
    "not a card" row (fine-tuning an old classifier into the new head).  A checkpoint whose
    ``state["arch"]`` names the EfficientNet-Lite0 classifier loads through
    :func:`vision.train.effnet.load_effnet` (raises ValueError for another ``n_classes``).
    """
    import torch

    from vision.train import effnet

    if state.get("arch") == effnet.ARCH:
        model = effnet.load_effnet(state)
        have = model.net._fc.out_features
        if n_classes and n_classes != have:
            raise ValueError(f"n_classes: the {effnet.ARCH} checkpoint has {have}, got {n_classes}")
        return model
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
    vi, ti = split_indices(n, holdout, val_frac, seed)
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
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=epochs * steps_per_epoch, pct_start=0.15)
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
            xb = augment(xb, gen)
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
        log(f"{tag} epoch {ep + 1}/{epochs} loss {tot / max(cnt, 1):.4f} val_acc {acc:.4f} {time.time() - t0:.0f}s")
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
    vi, ti = split_indices(n, holdout, val_frac, seed)
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

    from vision.train.onnx_export import export_crops_model

    model = load_classifier(torch.load(ckpt, map_location="cpu", weights_only=False))
    return export_crops_model(model, onnx_path, (3, CROP_SIZE[1], CROP_SIZE[0]))
