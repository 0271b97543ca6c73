"""Synthetic table photos of hanafuda piles, with oriented visible-region labels.

One scene = one photo: a procedural background, distractors, 1-24 printed cards of one
art style laid out as a spread, rows, fans or a loose stack, a phone tilt (perspective),
lighting, blur, noise and JPEG.  Everything is drawn from ``numpy.random.default_rng(seed)``
so a seed gives the same scene every time.

Each label is the *visible region* of a card as a quadrilateral (4 corners, pixels of the
output image, card-aligned), so overlapping fans do not produce near-identical boxes that
NMS would merge.  Cards less than ``min_visible`` (default 15%) visible are dropped.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from referee.cards import CARD_IDS
from vision.geometry import obb_corners
from vision.render import CARD_ASPECT, style_face

LAYOUTS: tuple[str, ...] = ("spread", "rows", "fan", "stack")
TRAIN_BACKGROUNDS: tuple[str, ...] = ("plain", "wood", "felt", "cloth", "paper")
#: Background kinds never used in training, for the held-out test set.
TEST_BACKGROUNDS: tuple[str, ...] = ("marble", "tiles")
ASPECTS: tuple[tuple[int, int], ...] = ((4, 3), (3, 4), (16, 9), (9, 16), (1, 1))


@dataclass
class Scene:
    """A rendered photo and its labels.

    ``image``: RGB, ``(H, W)``; ``cards``: card ids; ``quads``: float array ``(N, 4, 2)``
    pixel corners (card top-left, top-right, bottom-right, bottom-left of the visible part);
    ``visible``: visible fraction of each card (0-1); ``layout`` and ``style`` names.
    """

    image: Image.Image
    cards: list[str]
    quads: np.ndarray
    visible: list[float]
    layout: str
    style: str
    extra: dict = field(default_factory=dict)


# --------------------------------------------------------------------------- backgrounds


def _smooth_noise(rng, w, h, cells, channels=1):
    small = rng.random((max(2, cells), max(2, cells), channels)).astype(np.float32)
    img = Image.fromarray((small * 255).astype(np.uint8).squeeze())
    return np.asarray(img.resize((w, h), Image.Resampling.BICUBIC), np.float32) / 255.0


def background(kind: str, w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """Procedural table surface, float32 ``(h, w, 3)`` in 0-1."""
    base = rng.uniform(0, 1, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "plain":
        col = base * rng.uniform(0.4, 1.0)
        img = np.ones((h, w, 3), np.float32) * col
        img += (_smooth_noise(rng, w, h, 4)[..., None] - 0.5) * 0.1
    elif kind == "wood":
        col = np.array([rng.uniform(0.35, 0.75), rng.uniform(0.2, 0.5), rng.uniform(0.08, 0.3)])
        ang = rng.uniform(0, math.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        warp = _smooth_noise(rng, w, h, 6) * rng.uniform(20, 80)
        freq = rng.uniform(0.02, 0.12)
        grain = 0.5 + 0.5 * np.sin((u + warp) * freq)
        grain = grain ** rng.uniform(1, 4)
        img = col * (0.75 + 0.35 * grain[..., None])
        img += (rng.random((h, w, 1)) - 0.5) * 0.04
    elif kind == "felt":
        col = base * rng.uniform(0.3, 0.8)
        img = col + (_smooth_noise(rng, w, h, w // 3, 1)[..., None] - 0.5) * 0.12
    elif kind == "cloth":
        col = base
        p = rng.uniform(3, 10)
        weave = (np.sin(xx * 2 * math.pi / p) * np.sin(yy * 2 * math.pi / p)) * 0.08
        img = col * (0.8 + weave[..., None])
        if rng.random() < 0.5:  # checks
            q = rng.uniform(20, 80)
            chk = ((xx // q + yy // q) % 2)[..., None]
            img = img * (0.75 + 0.25 * chk)
    elif kind == "paper":
        img = np.ones((h, w, 3), np.float32) * rng.uniform(0.82, 1.0) * rng.uniform(0.93, 1.0, 3)
        img += (rng.random((h, w, 1)) - 0.5) * 0.05
        if rng.random() < 0.3:  # ruled lines
            img[(yy.astype(int) % int(rng.integers(18, 40))) == 0] *= 0.8
    elif kind == "marble":
        col = rng.uniform(0.6, 0.95) * np.ones(3) * rng.uniform(0.9, 1.0, 3)
        n = _smooth_noise(rng, w, h, 8) * 12
        vein = np.abs(np.sin(xx * 0.01 + yy * 0.013 + n)) ** 0.2
        img = col * (0.75 + 0.25 * vein[..., None])
    elif kind == "tiles":
        q = rng.uniform(40, 120)
        grout = ((xx % q) < 3) | ((yy % q) < 3)
        img = np.ones((h, w, 3), np.float32) * base
        img[grout] = rng.uniform(0.2, 0.9)
        img += (_smooth_noise(rng, w, h, 5)[..., None] - 0.5) * 0.1
    else:
        raise ValueError(
            f"unknown background kind {kind!r}; expected one of "
            f"{TRAIN_BACKGROUNDS + TEST_BACKGROUNDS}"
        )
    return np.clip(img, 0, 1).astype(np.float32)


# --------------------------------------------------------------------------- layouts


def layout_positions(layout: str, n: int, rng: np.random.Generator) -> list[tuple]:
    """Card poses ``(cx, cy, angle_deg)`` in card-height units, bottom of the list on top."""
    cw = CARD_ASPECT
    poses: list[tuple[float, float, float]] = []
    if layout == "spread":
        side = math.sqrt(n) * rng.uniform(1.3, 1.9) + 0.5
        for _ in range(n):
            for _try in range(30):
                p = (rng.uniform(0, side), rng.uniform(0, side))
                if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > 0.8 for q in poses):
                    break
            poses.append((p[0], p[1], rng.uniform(0, 360)))
    elif layout == "rows":
        per_row = int(rng.integers(3, 9))
        gx, gy = cw * rng.uniform(1.03, 1.35), rng.uniform(1.05, 1.35)
        jit = rng.uniform(0, 6)
        for i in range(n):
            r, c = divmod(i, per_row)
            poses.append(
                (c * gx + rng.normal(0, 0.02), r * gy + rng.normal(0, 0.02), rng.normal(0, jit))
            )
        rot = rng.uniform(0, 360)
        poses = [_rot_pose(p, rot) for p in poses]
    elif layout == "fan":
        i = 0
        fan_no = 0
        while i < n:
            k = min(n - i, int(rng.integers(2, 11)))
            kind = rng.choice(["down", "side", "arc"])
            f = rng.uniform(0.25, 0.36)
            ox, oy = fan_no * rng.uniform(2.5, 3.5), rng.uniform(-0.3, 0.3)
            for j in range(k):
                if kind == "down":
                    poses.append((ox + rng.normal(0, 0.01), oy + j * f, rng.normal(0, 2)))
                elif kind == "side":
                    poses.append(
                        (ox + j * f * cw * 1.6, oy + rng.normal(0, 0.01), rng.normal(0, 2))
                    )
                else:  # arc around a pivot near the bottom
                    a = (j - k / 2) * rng.uniform(8, 14)
                    ar = math.radians(a)
                    poses.append((ox + 0.8 * math.sin(ar), oy - 0.8 * math.cos(ar) + 0.8, a))
            i += k
            fan_no += 1
        rot = rng.uniform(0, 360)
        poses = [_rot_pose(p, rot) for p in poses]
    elif layout == "stack":
        spread = rng.uniform(0.15, 0.5)
        for _ in range(n):
            poses.append((rng.normal(0, spread), rng.normal(0, spread), rng.uniform(0, 360)))
    else:
        raise ValueError(f"unknown layout {layout!r}; expected one of {LAYOUTS}")
    return poses


def _rot_pose(p, deg):
    a = math.radians(deg)
    x, y, ang = p
    return (x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a), ang + deg)


def _card_corners(cx, cy, ang, w, h):
    """Corners TL, TR, BR, BL of a w x h card centred at (cx, cy), rotated ang degrees."""
    return obb_corners(np.array([[cx, cy, w, h, math.radians(ang)]]))[0]


# --------------------------------------------------------------------------- geometry


def homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """3x3 matrix mapping 4 ``src`` points ``(4, 2)`` onto 4 ``dst`` points."""
    a, b = [], []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b += [u, v]
    hvec = np.linalg.solve(np.array(a, float), np.array(b, float))
    return np.append(hvec, 1.0).reshape(3, 3)


def apply_h(hm: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a homography to points ``(..., 2)``."""
    p = np.concatenate([pts, np.ones((*pts.shape[:-1], 1))], axis=-1) @ hm.T
    return p[..., :2] / p[..., 2:3]


# --------------------------------------------------------------------------- scene


def _distractors(canvas: Image.Image, rng, art_pool, n: int) -> None:
    d = ImageDraw.Draw(canvas)
    w, h = canvas.size
    for _ in range(n):
        col = tuple(int(v) for v in rng.integers(0, 256, 3))
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        s = rng.uniform(0.03, 0.25) * min(w, h)
        k = rng.integers(0, 4)
        if k == 0:
            d.ellipse((x, y, x + s, y + s * rng.uniform(0.5, 1.5)), fill=col)
        elif k == 1:
            d.rectangle((x, y, x + s, y + s * rng.uniform(0.2, 2)), fill=col)
        elif k == 2:
            d.line(
                (x, y, x + rng.normal(0, s * 2), y + rng.normal(0, s * 2)),
                fill=col,
                width=int(rng.integers(2, 12)),
            )
        else:  # a card box printed with card art
            art = art_pool[int(rng.integers(len(art_pool)))]
            bw, bh = int(s * rng.uniform(1.0, 1.8)), int(s * rng.uniform(1.3, 2.2))
            box = Image.new("RGB", (max(bw, 8), max(bh, 8)), col)
            aw = int(bw * rng.uniform(0.4, 0.9))
            ah = int(aw / CARD_ASPECT)
            if aw > 4 and 4 < ah < bh:
                a = art.resize((aw, ah))
                box.paste(a, (int((bw - aw) / 2), int(rng.uniform(0, bh - ah))), a)
            bd = ImageDraw.Draw(box)
            for _t in range(int(rng.integers(0, 4))):
                ty = rng.uniform(0, bh)
                bd.rectangle(
                    (bw * 0.1, ty, bw * rng.uniform(0.3, 0.9), ty + bh * 0.04),
                    fill=tuple(int(v) for v in rng.integers(0, 256, 3)),
                )
            box = box.rotate(rng.uniform(0, 360), expand=True, fillcolor=None)
            m = Image.new("L", box.size, 0)
            ImageDraw.Draw(m).rectangle((1, 1, box.size[0] - 2, box.size[1] - 2), fill=255)
            canvas.paste(box, (int(x), int(y)))


def make_scene(
    seed: int,
    art: dict,
    *,
    size: int = 640,
    layout: str | None = None,
    n_cards: int | None = None,
    styles: tuple[str, ...] | None = None,
    backgrounds: tuple[str, ...] = TRAIN_BACKGROUNDS,
    min_visible: float = 0.15,
    card_px: tuple[float, float] | None = None,
    jpeg: bool = True,
    texture_scale: float | None = None,
) -> Scene:
    """Render one scene.

    ``art`` is ``{style: {card_id: RGBA}}`` (see :func:`vision.render.load_art`);
    ``texture_scale``: draw the background this many times larger and shrink it, so its
    grain, weave and tiles come out that many times finer (default: drawn at output scale,
    as the shipped model was trained).
    ``size`` is the long side of the output in pixels; ``card_px`` optionally fixes the
    range of card heights as fractions of the short side.
    Raises ValueError for an unknown layout or background.
    """
    rng = np.random.default_rng(seed)
    layout = layout or str(rng.choice(LAYOUTS, p=[0.3, 0.25, 0.3, 0.15]))
    style = str(rng.choice(styles or tuple(art)))
    n = n_cards or int(min(24, max(1, rng.choice([rng.integers(1, 7), rng.integers(1, 25)]))))
    ax, ay = ASPECTS[int(rng.integers(len(ASPECTS)))]
    w_ = size if ax >= ay else round(size * ax / ay)
    h_ = size if ay >= ax else round(size * ay / ax)
    # compose on a flat canvas 25% larger, then tilt (perspective) and crop back
    cw_, ch_ = round(w_ * 1.25), round(h_ * 1.25)
    tex = texture_scale or 1.0
    bg = background(str(rng.choice(backgrounds)), round(cw_ * tex), round(ch_ * tex), rng)
    canvas = Image.fromarray((bg * 255).astype(np.uint8))
    if tex != 1.0:
        canvas = canvas.resize((cw_, ch_), Image.Resampling.BOX)
    pool = [art[style][c] for c in CARD_IDS]
    _distractors(canvas, rng, pool, int(rng.integers(0, 5)))

    ids = [CARD_IDS[i] for i in rng.permutation(48)[:n]]
    poses = layout_positions(layout, n, rng)
    allc = np.concatenate([_card_corners(x, y, a, CARD_ASPECT, 1.0) for x, y, a in poses])
    span = allc.max(0) - allc.min(0)
    lo, hi = card_px or (0.12, 0.5)
    fit = min(w_ / max(span[0], 1e-6), h_ / max(span[1], 1e-6)) * rng.uniform(0.6, 0.95)
    ch = float(np.clip(fit, min(w_, h_) * lo * 0.5, min(w_, h_) * hi))
    if card_px:
        ch = float(np.clip(ch, min(w_, h_) * lo, min(w_, h_) * hi))
    ch = max(ch, 12.0)
    centre = (allc.max(0) + allc.min(0)) / 2 * ch
    off = np.array([cw_ / 2, ch_ / 2]) - centre + rng.normal(0, 0.05, 2) * [w_, h_]

    idmap = Image.new("L", (cw_, ch_), 0)
    shadow = Image.new("L", (cw_, ch_), 0)
    sd = ImageDraw.Draw(shadow)
    sh_off = rng.normal(0, 0.03, 2) * ch
    corners = []
    faces = []
    for cid, (x, y, a) in zip(ids, poses, strict=True):
        face = style_face(art[style][cid], rng, round(ch))
        cx, cy = x * ch + off[0], y * ch + off[1]
        cc = _card_corners(cx, cy, a, face.size[0], face.size[1])
        corners.append(cc)
        faces.append((face, cx, cy, a))
        sd.polygon([tuple(p + sh_off) for p in cc], fill=int(rng.uniform(60, 160)))
    shadow = shadow.filter(ImageFilter.GaussianBlur(max(1.0, ch * 0.03)))
    canvas = Image.composite(Image.new("RGB", canvas.size, (0, 0, 0)), canvas, shadow)
    for i, (face, cx, cy, a) in enumerate(faces):
        rot = face.rotate(-a, expand=True, resample=Image.Resampling.BILINEAR)
        px, py = round(cx - rot.size[0] / 2), round(cy - rot.size[1] / 2)
        canvas.paste(rot, (px, py), rot)
        m = rot.getchannel("A").point(lambda v: 255 if v > 127 else 0)
        idmap.paste(Image.new("L", rot.size, i + 1), (px, py), m)

    # occluders on top (hands, coins, a phone): small, rare
    if rng.random() < 0.15:
        d = ImageDraw.Draw(canvas)
        di = ImageDraw.Draw(idmap)
        x, y = rng.uniform(0, cw_), rng.uniform(0, ch_)
        s = ch * rng.uniform(0.2, 0.6)
        col = tuple(int(v) for v in rng.integers(0, 256, 3))
        d.ellipse((x, y, x + s, y + s), fill=col)
        di.ellipse((x, y, x + s, y + s), fill=0)

    # phone tilt: map the output window to a random quadrilateral of the canvas
    tilt = rng.uniform(0, 50) if rng.random() < 0.8 else 0.0
    k = math.sin(math.radians(tilt)) * 0.35
    win = np.array([[0, 0], [w_, 0], [w_, h_], [0, h_]], float)
    src = win + np.array([(cw_ - w_) / 2, (ch_ - h_) / 2])
    side = int(rng.integers(4))  # the far edge of the table
    a_, b_ = side, (side + 1) % 4
    far = src.copy()
    # far edge is wider in the canvas (more table fits at the top of a tilted photo)
    for j in (a_, b_):
        other = (j + 2) % 4
        far[j] = src[j] + (src[j] - src[other]) * k * 0.5
    far += rng.normal(0, 0.02, (4, 2)) * [w_, h_]
    hm = homography(win, far)  # output -> canvas
    inv = np.linalg.inv(hm)
    coeffs = (hm / hm[2, 2]).flatten()[:8]
    img = canvas.transform(
        (w_, h_), Image.Transform.PERSPECTIVE, tuple(coeffs), Image.Resampling.BILINEAR
    )
    idw = idmap.transform(
        (w_, h_), Image.Transform.PERSPECTIVE, tuple(coeffs), Image.Resampling.NEAREST
    )
    ida = np.asarray(idw)

    # visible-region labels (in card frame, mapped to the output)
    cards, quads, vis = [], [], []
    counts = np.bincount(ida.ravel(), minlength=n + 1)
    ys, xs = np.nonzero(ida)
    owner = ida[ys, xs]
    pts_out = np.stack([xs, ys], 1).astype(float) + 0.5
    for i, cid in enumerate(ids):
        cc = corners[i]
        full_out = apply_h(inv, cc)
        full_area = abs(_poly_area(full_out))
        if counts[i + 1] == 0 or full_area < 1:
            continue
        frac = counts[i + 1] / full_area
        if frac < min_visible:
            continue
        p = apply_h(hm, pts_out[owner == i + 1])  # back into the flat canvas
        u_axis = (cc[1] - cc[0]) / np.linalg.norm(cc[1] - cc[0])
        v_axis = (cc[3] - cc[0]) / np.linalg.norm(cc[3] - cc[0])
        rel = p - cc[0]
        u, v = rel @ u_axis, rel @ v_axis
        u0, u1 = np.percentile(u, [0.5, 99.5])
        v0, v1 = np.percentile(v, [0.5, 99.5])
        q = np.array(
            [
                cc[0] + u0 * u_axis + v0 * v_axis,
                cc[0] + u1 * u_axis + v0 * v_axis,
                cc[0] + u1 * u_axis + v1 * v_axis,
                cc[0] + u0 * u_axis + v1 * v_axis,
            ]
        )
        q = apply_h(inv, q)
        q[:, 0] = np.clip(q[:, 0], 0, w_)
        q[:, 1] = np.clip(q[:, 1], 0, h_)
        if abs(_poly_area(q)) < 16:
            continue
        cards.append(cid)
        quads.append(q)
        vis.append(float(min(1.0, frac)))

    img = photometric(img, rng, jpeg=jpeg)
    return Scene(
        img,
        cards,
        np.array(quads, float).reshape(-1, 4, 2),
        vis,
        layout,
        style,
        {"tilt": tilt, "card_px": ch},
    )


def _poly_area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def photometric(img: Image.Image, rng: np.random.Generator, jpeg: bool = True) -> Image.Image:
    """Lighting gradient, glare, colour temperature, blur, sensor noise and JPEG (40-95)."""
    w, h = img.size
    a = np.asarray(img, np.float32) / 255.0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    g = (xx * math.cos(ang) + yy * math.sin(ang)) / max(w, h)
    a = a * (1 + rng.uniform(-0.35, 0.2) * (g - g.mean()) * 2)[..., None]
    a = a * rng.uniform(0.6, 1.25)
    a = a * np.array([1 + rng.normal(0, 0.08), 1.0, 1 + rng.normal(0, 0.08)])
    if rng.random() < 0.25:  # glare
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.3) * max(w, h)
        a += (np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * rng.uniform(0.2, 0.7))[
            ..., None
        ]
    a = np.clip(a, 0, 1)
    out = Image.fromarray((a * 255).astype(np.uint8))
    r = rng.random()
    if r < 0.25:
        out = out.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 2.0)))
    elif r < 0.35:  # motion blur
        k = int(rng.integers(3, 8))
        kern = np.zeros((k, k))
        kern[k // 2] = 1
        img_k = ImageFilter.Kernel((k, k), list(kern.flatten()), scale=k) if k in (3, 5) else None
        out = out.filter(img_k) if img_k else out.filter(ImageFilter.BoxBlur(1))
    if rng.random() < 0.6:
        a = np.asarray(out, np.float32) + rng.normal(0, rng.uniform(1, 8), (h, w, 1))
        out = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    if jpeg:
        buf = io.BytesIO()
        out.save(buf, "JPEG", quality=int(rng.integers(40, 96)))
        buf.seek(0)
        out = Image.open(buf).convert("RGB")
    return out


# --------------------------------------------------------------------------- labels


def quad_to_obb(q: np.ndarray) -> tuple[float, float, float, float, float]:
    """Card-aligned quad ``(4, 2)`` (TL, TR, BR, BL) -> ``(cx, cy, w, h, angle_rad)``.

    ``w`` is along TL->TR, ``h`` along TL->BL; pixels.
    """
    q = np.asarray(q, float)
    if q.shape != (4, 2):
        raise ValueError(f"quad: expected shape (4, 2), got {q.shape}")
    c = q.mean(0)
    top, bot = q[1] - q[0], q[2] - q[3]
    w = (np.linalg.norm(top) + np.linalg.norm(bot)) / 2
    h = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    d = top + bot
    return float(c[0]), float(c[1]), float(w), float(h), math.atan2(d[1], d[0])


def obb_line(cls: int, quad: np.ndarray, width: int, height: int) -> str:
    """One YOLO-OBB label line: ``cls x1 y1 ... x4 y4`` normalised to 0-1."""
    q = np.asarray(quad, float)
    if q.shape != (4, 2):
        raise ValueError(f"quad: expected shape (4, 2), got {q.shape}")
    q = q / np.array([width, height])
    q = np.clip(q, 0, 1)
    return f"{int(cls)} " + " ".join(f"{v:.6f}" for v in q.flatten())


def write_labels(path, lines: list[str]) -> None:
    """Write label lines to ``path`` (one per line; an empty file for no cards)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in lines))
