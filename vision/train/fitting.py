"""What every crop classifier's training shares (issue 19: one piece, below both models):
the loss over labels that may allow several classes, the batch augmentation and the
train/validation split.

Training-only (torch, imported inside the functions).  Imported by
:mod:`vision.train.classifier` and :mod:`vision.train.effnet`; imports neither.
"""

from __future__ import annotations

import numpy as np

from vision.train.labels import MERGED_CODE, MERGED_GROUPS, REJECT


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


# --------------------------------------------------------------------------- model and training


def split_indices(n: int, holdout: np.ndarray | None, val_frac: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Validation and training indices of ``n`` samples, each in a seeded random order:
    the ``holdout`` mask's samples (leave-one-style-out), or else the first ``val_frac``
    share of the permutation (at least one)."""
    perm = np.random.default_rng(seed).permutation(n)
    if holdout is not None:
        return perm[holdout[perm]], perm[~holdout[perm]]
    nval = max(1, int(n * val_frac))
    return perm[:nval], perm[nval:]


def augment(x, gen):
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
