"""The masker's network, training loop and ONNX export (needs the ``train`` extra: torch).

The masker (:mod:`vision.masker`) says per pixel of a whole-card crop whether the card's own
face shows there, from the crop and the stacking-order mask
(:func:`vision.masker.masker_input`).  It is trained on :func:`vision.train.datasets.gen_mask_crops`'
crops against the generator's true visible pixels.

A small U-Net: three stride-2 stages (16, 32, 64 channels) from the 56 x 36 input, two
up-sampling stages back to 28 x 18 with skips, and a 1 x 1 head; its logit is added to a
learnt multiple of the stacking-order mask (so it starts from that mask and learns where it is
wrong).  About 12 M multiply-adds a crop.

Everything heavy is imported inside the functions.  May import the runtime package; never
the datasets or the scenes.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

import numpy as np

from vision.masker import MASKER_INPUT, MASKER_OUTPUT, masker_input


def build_masker(width: int = 16):
    """The masker network: input float ``(B, 4, 56, 36)`` (RGB 0-1 and the stacking-order
    mask), output logits ``(B, 1, 28, 18)``."""
    import torch
    from torch import nn

    def conv(cin, cout, stride=1, dil=1):
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, dil, dilation=dil, bias=False), nn.BatchNorm2d(cout), nn.SiLU()
        )

    w = width

    class Masker(nn.Module):
        def __init__(self):
            super().__init__()
            self.d1 = nn.Sequential(conv(4, w, 2), conv(w, w))  # 28 x 18
            self.d2 = nn.Sequential(conv(w, 2 * w, 2), conv(2 * w, 2 * w))  # 14 x 9
            self.d3 = nn.Sequential(conv(2 * w, 4 * w, 2), conv(4 * w, 4 * w, dil=2))  # 7 x 5
            self.u2 = conv(6 * w, 2 * w)
            self.u1 = conv(3 * w, w)
            self.head = nn.Conv2d(w, 1, 1)
            self.prior = nn.Parameter(torch.tensor(2.0))
            self.mean = nn.Parameter(torch.tensor([0.5, 0.5, 0.5, 0.5]).view(1, 4, 1, 1), requires_grad=False)

        def forward(self, x):
            f1 = self.d1((x - self.mean) * 2)
            f2 = self.d2(f1)
            f3 = self.d3(f2)
            up = nn.functional.interpolate(f3, size=f2.shape[2:], mode="bilinear", align_corners=False)
            g2 = self.u2(torch.cat([up, f2], 1))
            up = nn.functional.interpolate(g2, size=f1.shape[2:], mode="bilinear", align_corners=False)
            g1 = self.u1(torch.cat([up, f1], 1))
            guess = nn.functional.avg_pool2d(x[:, 3:4], 2)  # the stacking-order mask at 28 x 18
            return self.head(g1) + self.prior * (2 * guess - 1)

    return Masker()


def _targets(true: np.ndarray) -> np.ndarray:
    """The true masks ``(N, 112, 72)`` bool as the share of each 4 x 4 cell that shows:
    float32 ``(N, 1, 28, 18)``."""
    n = len(true)
    h, w = MASKER_OUTPUT[1], MASKER_OUTPUT[0]
    return true.reshape(n, h, 4, w, 4).mean((2, 4), dtype=np.float32)[:, None]


def train_masker(
    data: dict[str, np.ndarray],
    out_dir: Path,
    epochs: int = 8,
    batch: int = 128,
    lr: float = 3e-3,
    val_frac: float = 0.05,
    seed: int = 0,
    time_limit_s: float | None = None,
    log=print,
) -> dict:
    """Train the masker on ``data`` (:func:`vision.train.datasets.gen_mask_crops`' arrays:
    ``x``, ``guess``, ``true``); AdamW, one-cycle schedule, soft binary cross-entropy on the
    share of each output cell that shows.  Checkpoint ``out_dir/masker_last.pt`` after each
    epoch (a rerun resumes); stops after the epoch that passes ``time_limit_s`` seconds.
    Writes ``out_dir/masker.pt`` and returns ``{"epochs", "val_loss", "val_iou" (mask IoU at
    full crop size, the masker's), "val_iou_guess" (the stacking-order masks'), "seconds", "n"}``.
    """
    import torch

    from vision.masker import masks_from_logits

    t0 = time.time()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(seed)
    x = torch.from_numpy(masker_input(data["x"], data["guess"]))
    t = torch.from_numpy(_targets(np.asarray(data["true"], bool)))
    n = len(x)
    perm = np.random.default_rng(seed).permutation(n)
    nval = max(1, int(n * val_frac))
    vi, ti = perm[:nval], perm[nval:]
    model = build_masker()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = math.ceil(len(ti) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(1, epochs * steps), pct_start=0.15)
    start = 0
    ck = out / "masker_last.pt"
    if ck.exists():
        st = torch.load(ck, weights_only=False)
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        sched.load_state_dict(st["sched"])
        start = st["epoch"] + 1
        log(f"masker: resumed at epoch {start + 1}")
    bce = torch.nn.BCEWithLogitsLoss()
    gen = torch.Generator().manual_seed(seed)

    def jitter(xb):  # colour and brightness, per crop (the mask channel untouched)
        b = len(xb)
        gain = 1 + 0.25 * (torch.rand(b, 3, 1, 1, generator=gen) - 0.5)
        shift = 0.1 * (torch.rand(b, 1, 1, 1, generator=gen) - 0.5)
        rgb = (xb[:, :3] * gain + shift).clamp(0, 1)
        return torch.cat([rgb, xb[:, 3:]], 1)

    def validate():
        model.eval()
        loss, logits = 0.0, []
        with torch.no_grad():
            for k in range(0, nval, 512):
                ii = torch.from_numpy(vi[k : k + 512])
                z = model(x[ii])
                loss += float(bce(z, t[ii])) * len(ii)
                logits.append(z.numpy())
        pred = masks_from_logits(np.concatenate(logits))
        true, guess = np.asarray(data["true"], bool)[vi], np.asarray(data["guess"], bool)[vi]
        return loss / nval, mask_iou(pred, true), mask_iou(guess, true)

    ep, vl, viou, giou = start - 1, float("nan"), float("nan"), float("nan")
    for ep in range(start, epochs):
        model.train()
        order = torch.from_numpy(np.random.default_rng(seed + ep).permutation(ti))
        tot = 0.0
        for k in range(0, len(order), batch):
            ii = order[k : k + batch]
            loss = bce(model(jitter(x[ii])), t[ii])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(ii)
        vl, viou, giou = validate()
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": ep}, ck)
        log(
            f"masker epoch {ep + 1}/{epochs} loss {tot / len(ti):.4f} val_loss {vl:.4f} val_iou {viou:.4f} "
            f"(stacking order {giou:.4f}) {time.time() - t0:.0f}s load {' '.join(f'{v:.2f}' for v in os.getloadavg())}"
        )
        if time_limit_s and time.time() - t0 > time_limit_s:
            log("masker: time limit reached")
            break
    model.eval()
    torch.save({"model": model.state_dict(), "arch": "masker-unet16", "epoch": ep}, out / "masker.pt")
    secs = time.time() - t0
    return {"epochs": ep + 1, "val_loss": vl, "val_iou": viou, "val_iou_guess": giou, "seconds": secs, "n": n}


def mask_iou(pred: np.ndarray, true: np.ndarray) -> float:
    """Mean over crops of the IoU of bool masks ``pred`` and ``true`` ``(N, h, w)`` (a crop
    whose two masks are both empty counts 1)."""
    pred, true = np.asarray(pred, bool), np.asarray(true, bool)
    inter = (pred & true).reshape(len(pred), -1).sum(1)
    union = (pred | true).reshape(len(pred), -1).sum(1)
    return float(np.where(union > 0, inter / np.maximum(union, 1), 1.0).mean())


def load_masker(ckpt: Path):
    """The masker network loaded from a ``masker.pt`` checkpoint, in eval mode."""
    import torch

    model = build_masker()
    model.load_state_dict(torch.load(ckpt, map_location="cpu", weights_only=False)["model"])
    model.eval()
    return model


def export_masker_onnx(ckpt: Path, onnx_path: Path) -> Path:
    """Export a masker checkpoint to ONNX: input ``crops`` float ``(B, 4, 56, 36)``, output
    ``logits`` ``(B, 1, 28, 18)``."""
    from vision.train.onnx_export import export_crops_model

    return export_crops_model(load_masker(ckpt), onnx_path, (4, MASKER_INPUT[1], MASKER_INPUT[0]))


def add_masker_options(parser) -> None:
    """Add ``--masker FILE|false`` and ``--masker-share-only`` to a script's argparse ``parser``."""
    parser.add_argument("--masker", default=None, help="masker ONNX file (false: none; default: shipped, if any)")
    parser.add_argument(
        "--masker-share-only",
        action="store_true",
        help="take only the visible shares from the masker; the classifier keeps the stacking order's masks",
    )


def masker_option(args) -> dict:
    """``Detector`` keywords from the options of :func:`add_masker_options`: ``masker`` (a Path, or
    False for ``false``) when ``--masker`` was given, and ``masker_masks`` False with
    ``--masker-share-only``; ``{}`` when neither was."""
    kw: dict = {}
    if args.masker:
        kw["masker"] = False if args.masker.lower() == "false" else Path(args.masker)
    if args.masker_share_only:
        kw["masker_masks"] = False
    return kw
