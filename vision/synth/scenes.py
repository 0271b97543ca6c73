"""Synthetic table photos of hanafuda piles, with oriented visible-region labels.

One scene = one photo: a procedural background, things that are not cards (card boxes,
hanafuda card backs, playing cards, coins, phones, hands, hair ties; :mod:`vision.synth.props`),
printed cards of one art style laid out the way players lay out a captured pile, a phone
tilt (perspective), and the camera (:mod:`vision.synth.camera`).  Everything is drawn from
``numpy.random.default_rng(seed)``, so a seed gives the same scene every time.

Layouts (:data:`vision.synth.layouts.LAYOUTS`, where they are described) and table
surfaces (:mod:`vision.synth.backgrounds`) live beside this module, which assembles them.

Every card is printed (border, colour shifts; :func:`vision.synth.render.style_face`) and has a
physical edge (its thickness shows as a dark rim on one side) and, now and then, a glossy
glare.  Any layout can run off the photo's edge.

Each label is the *visible region* of a card as a quadrilateral (4 corners, pixels of the
output image, card-aligned), so overlapping fans do not produce near-identical boxes that
NMS would merge.  Cards less than ``min_visible`` (default 15%) visible are dropped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from referee.cards import CARD_IDS
from vision.geometry import obb_corners
from vision.synth.backgrounds import TRAIN_BACKGROUNDS, background
from vision.synth.camera import photometric
from vision.synth.layouts import CARD_COUNTS, LAYOUTS, NO_CARDS, layout_draw, layout_positions
from vision.synth.props import SKIN, hand, random_prop
from vision.synth.render import CARD_ASPECT, style_face

ASPECTS: tuple[tuple[int, int], ...] = ((4, 3), (3, 4), (16, 9), (9, 16), (1, 1))


@dataclass
class Scene:
    """A rendered photo and its labels.

    ``image``: RGB, ``(H, W)``; ``cards``: card ids; ``quads``: float array ``(N, 4, 2)``
    pixel corners (card top-left, top-right, bottom-right, bottom-left of the visible part);
    ``visible``: visible fraction of each card (0-1); ``layout`` and ``style`` names;
    ``distractors``: quads ``(M, 4, 2)`` around the props that show in the photo (card
    backs, playing cards, boxes, coins, phones, hands, rings), with their kinds in
    ``extra["distractor_kinds"]``.  ``whole``: float ``(N, 4, 2)``, each card's whole face
    (same corner order as ``quads``) cut to the photo's frame: what a whole-card localiser
    is trained to find.
    """

    image: Image.Image
    cards: list[str]
    quads: np.ndarray
    visible: list[float]
    layout: str
    style: str
    extra: dict = field(default_factory=dict)
    distractors: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2)))
    whole: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2)))


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

#: Idmap values from this one up mark props (cards are 1..N; 0 is background).
_PROP_ID0 = 128
#: How often each kind of thing on the table is drawn (:data:`vision.synth.props.PROPS`);
#: the order and weights fix the draws, so every seed's scene stays as it was.
TABLE_PROPS: dict[str, float] = {
    "card-back": 0.2,
    "playing-card": 0.2,
    "card-box": 0.15,
    "coin": 0.12,
    "phone": 0.1,
    "ring": 0.13,
    "hand": 0.1,
}
#: The same with app screenshots and patterned cloths, which the issue's distractor photos
#: held (issue 17, item 6): for "not a card" training crops and the ``distract`` split.
DISTRACTOR_PROPS: dict[str, float] = {
    **TABLE_PROPS,
    "card-box": 0.2,
    "ring": 0.15,
    "screenshot": 0.25,
    "cloth": 0.2,
}


def _glare(face: Image.Image, rng: np.random.Generator) -> Image.Image:
    """A glossy face catching a lamp: a soft bright band across the card."""
    w, h = face.size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = rng.uniform(0, math.pi)
    v = xx * math.cos(t) + yy * math.sin(t)
    v0 = rng.uniform(float(v.min()), float(v.max()))
    g = np.exp(-(((v - v0) / (rng.uniform(0.05, 0.25) * h)) ** 2)) * rng.uniform(0.25, 0.75)
    a = np.asarray(face, np.float32)
    a[..., :3] += (255 - a[..., :3]) * g[..., None]
    return Image.fromarray(a.astype(np.uint8), "RGBA")


def _paste(canvas, idmap, sprite, cx, cy, angle, id_value):
    """Paste ``sprite`` centred at ``(cx, cy)`` turned by ``angle`` degrees; mark its opaque
    pixels with ``id_value`` in ``idmap``.  Returns its corners (4, 2) in canvas pixels."""
    rot = sprite.rotate(-angle, expand=True, resample=Image.Resampling.BILINEAR)
    px, py = round(cx - rot.size[0] / 2), round(cy - rot.size[1] / 2)
    canvas.paste(rot, (px, py), rot)
    m = rot.getchannel("A").point(lambda v: 255 if v > 127 else 0)
    idmap.paste(Image.new("L", rot.size, id_value), (px, py), m)
    return _card_corners(cx, cy, angle, sprite.size[0], sprite.size[1])


def _finger(canvas, idmap, corner, centre, ch, rng):
    """A fingertip over a card corner, coming from outside the card."""
    d = corner - centre
    d = d / max(np.linalg.norm(d), 1e-6)
    d = d + rng.normal(0, 0.3, 2)
    d = d / max(np.linalg.norm(d), 1e-6)
    tip = corner - d * ch * rng.uniform(0.02, 0.12)
    base = tip + d * ch * rng.uniform(0.5, 0.9)
    wd = max(2, round(ch * rng.uniform(0.22, 0.32)))
    tone = tuple(int(np.clip(c + rng.normal(0, 8), 0, 255)) for c in SKIN[int(rng.integers(len(SKIN)))])
    for im, fill in ((canvas, tone), (idmap, 0)):
        dr = ImageDraw.Draw(im)
        dr.line((*tip, *base), fill=fill, width=wd)
        dr.ellipse((tip[0] - wd / 2, tip[1] - wd / 2, tip[0] + wd / 2, tip[1] + wd / 2), fill=fill)


def _visible_quads(ida, ids_corners, hm, inv, w_, h_, min_visible):
    """Visible region of each item as a quad aligned with the item, from the warped idmap.

    ``ids_corners``: ``[(id, corners (4, 2) in canvas pixels)]``.  Returns, for each item
    shown at least ``min_visible``, ``(index, quad (4, 2) in output pixels, fraction,
    whole quad (4, 2) in output pixels)``: the visible region's and the whole item's quads,
    both aligned with the item and cut to the output frame.
    """
    counts = np.bincount(ida.ravel(), minlength=256)
    ys, xs = np.nonzero(ida)
    owner = ida[ys, xs]
    pts_out = np.stack([xs, ys], 1).astype(float) + 0.5
    out = []
    for k, (idv, cc) in enumerate(ids_corners):
        full_area = abs(_poly_area(apply_h(inv, cc)))
        if counts[idv] == 0 or full_area < 1:
            continue
        frac = counts[idv] / full_area
        if frac < min_visible:
            continue
        p = apply_h(hm, pts_out[owner == idv])  # back into the flat canvas
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
        out.append((k, q, float(min(1.0, frac)), _in_frame(cc, hm, inv, w_, h_, u_axis, v_axis)))
    return out


def _in_frame(cc, hm, inv, w_, h_, u_axis, v_axis) -> np.ndarray:
    """The part of an item's whole face (corners ``cc`` in canvas pixels) inside the output
    frame, as a quad aligned with the item, in output pixels."""
    poly = apply_h(inv, cc).astype(np.float32)
    frame = np.array([[0, 0], [w_, 0], [w_, h_], [0, h_]], np.float32)
    if poly[:, 0].min() >= 0 and poly[:, 1].min() >= 0 and poly[:, 0].max() <= w_ and poly[:, 1].max() <= h_:
        return poly.astype(float)
    if _poly_area(poly) < 0:
        poly = poly[::-1].copy()
    area, inter = cv2.intersectConvexConvex(poly, frame)
    if inter is None or area <= 0:
        return poly.astype(float)
    p = apply_h(hm, inter.reshape(-1, 2).astype(float)) - cc[0]
    u, v = p @ u_axis, p @ v_axis
    q = np.array(
        [
            cc[0] + u.min() * u_axis + v.min() * v_axis,
            cc[0] + u.max() * u_axis + v.min() * v_axis,
            cc[0] + u.max() * u_axis + v.max() * v_axis,
            cc[0] + u.min() * u_axis + v.max() * v_axis,
        ]
    )
    q = apply_h(inv, q)
    q[:, 0] = np.clip(q[:, 0], 0, w_)
    q[:, 1] = np.clip(q[:, 1], 0, h_)
    return q


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
    exclude: dict[str, tuple[str, ...]] | None = None,
    keep_idmap: bool = False,
    layout_weights: tuple[float, ...] | None = None,
    prop_weights: dict[str, float] | None = None,
) -> Scene:
    """Render one scene.

    ``art`` is ``{style: {card_id: RGBA}}`` (see :func:`vision.synth.render.load_art`);
    ``layout``: one of :data:`LAYOUTS` or :data:`NO_CARDS` (default: drawn by
    ``layout_weights``); ``n_cards``: default by layout (:data:`CARD_COUNTS`);
    ``size``: long side of the output in pixels; ``card_px``: optional range of card heights
    as fractions of the short side; ``texture_scale``: draw the background this many times
    larger and shrink it, so its grain comes out that many times finer; ``exclude``: card
    ids never drawn for a style (``{style: ids}``); ``layout_weights``: the draw's weights,
    one per layout of :data:`LAYOUTS` and then :data:`NO_CARDS` (default
    :data:`LAYOUT_WEIGHTS`; scaled to sum to 1); ``prop_weights``: how often each kind of
    :data:`vision.synth.props.PROPS` is drawn for the things on the table (default
    :data:`TABLE_PROPS`; :data:`DISTRACTOR_PROPS` adds app screenshots and patterned cloths).
    Raises ValueError for an unknown layout or background, or weights of the wrong length or
    with a negative or no positive weight.
    """
    rng = np.random.default_rng(seed)
    if layout is None:
        layout = str(rng.choice((*LAYOUTS, NO_CARDS), p=layout_draw(layout_weights)))
    if layout not in (*LAYOUTS, NO_CARDS):
        raise ValueError(f"unknown layout {layout!r}; expected one of {(*LAYOUTS, NO_CARDS)}")
    style = str(rng.choice(styles or tuple(art)))
    ax, ay = ASPECTS[int(rng.integers(len(ASPECTS)))]
    w_ = size if ax >= ay else round(size * ax / ay)
    h_ = size if ay >= ax else round(size * ay / ax)
    short = min(w_, h_)
    # compose on a flat canvas 25% larger, then tilt (perspective) and crop back
    cw_, ch_ = round(w_ * 1.25), round(h_ * 1.25)
    tex = texture_scale or 1.0
    bg = background(str(rng.choice(backgrounds)), round(cw_ * tex), round(ch_ * tex), rng)
    canvas = Image.fromarray((bg * 255).astype(np.uint8))
    if tex != 1.0:
        canvas = canvas.resize((cw_, ch_), Image.Resampling.BOX)
    idmap = Image.new("L", (cw_, ch_), 0)
    pool = [art[style][c] for c in CARD_IDS]

    if layout == NO_CARDS:
        n, ids, poses, holds = 0, [], [], []
        ch = short * rng.uniform(0.15, 0.45)
        off = np.array([cw_ / 2, ch_ / 2])
    else:
        lo_n, hi_n = CARD_COUNTS[layout]
        n = int(n_cards or rng.integers(lo_n, hi_n + 1))
        banned = set((exclude or {}).get(style, ()))
        allowed = [c for c in CARD_IDS if c not in banned]
        ids = [allowed[i] for i in rng.permutation(len(allowed))[:n]]
        n = len(ids)
        n_backs = int(rng.integers(1, 4)) if layout == "heap" and rng.random() < 0.3 else 0
        lay = layout_positions(layout, n + n_backs, rng)
        poses, holds = lay.poses, lay.holds
        allc = np.concatenate([_card_corners(x, y, a, CARD_ASPECT, 1.0) for x, y, a in poses])
        span = allc.max(0) - allc.min(0)
        if layout == "closeup":
            ch = short * rng.uniform(0.55, 1.5)
        else:
            fit = min(w_ / max(span[0], 1e-6), h_ / max(span[1], 1e-6)) * rng.uniform(0.6, 0.95)
            ch = float(np.clip(fit, short * 0.06, short * 0.5))
        if card_px:
            ch = float(np.clip(ch, short * card_px[0], short * card_px[1]))
        ch = max(ch, 12.0)
        centre = (allc.max(0) + allc.min(0)) / 2 * ch
        off = np.array([cw_ / 2, ch_ / 2]) - centre + rng.normal(0, 0.05, 2) * [w_, h_]
        if layout == "closeup":
            off += rng.normal(0, 0.12, 2) * [w_, h_]
        elif rng.random() < 0.2:  # the pile runs off the photo's edge
            axis = int(rng.integers(2))
            off[axis] += rng.choice([-1, 1]) * rng.uniform(0.15, 0.35) * (w_, h_)[axis]
        # which poses are face-down cards (heaps only)
        backs = set(rng.choice(len(poses), n_backs, replace=False).tolist()) if n_backs else set()
        ids_iter = iter(ids)
        ids = [None if k in backs else next(ids_iter) for k in range(len(poses))]

    # props on the table, under the cards
    prop_items: list[tuple[int, np.ndarray, str]] = []  # (idmap value, corners, kind)

    def add_prop(kind, x, y, angle, on_top=False):
        if len(prop_items) >= 255 - _PROP_ID0:
            return
        sprite = random_prop(rng, kind, ch, pool[int(rng.integers(len(pool)))], pool)
        idv = _PROP_ID0 + len(prop_items)
        prop_items.append((idv, _paste(canvas, idmap, sprite, x, y, angle, idv), kind))

    n_props = int(rng.integers(3, 10)) if layout == NO_CARDS else int(rng.integers(0, 4))
    table_kinds, table_p = tuple(TABLE_PROPS), list(TABLE_PROPS.values())
    if prop_weights is not None:
        table_kinds, table_p = tuple(prop_weights), list(prop_weights.values())
        table_p = [v / sum(table_p) for v in table_p]  # (the default's sum is 1: its draws stay as they were)
    for _ in range(n_props):
        kind = str(rng.choice(table_kinds, p=table_p))
        add_prop(kind, rng.uniform(0, cw_), rng.uniform(0, ch_), rng.uniform(0, 360))

    # shadows of the cards, then each card: its edge (thickness), its face
    shadow = Image.new("L", (cw_, ch_), 0)
    sd = ImageDraw.Draw(shadow)
    sh_off = rng.normal(0, 0.03, 2) * ch
    placed = []
    for x, y, a in poses:
        cx, cy = x * ch + off[0], y * ch + off[1]
        cc = _card_corners(cx, cy, a, round(ch * CARD_ASPECT), round(ch))
        sd.polygon([tuple(p + sh_off) for p in cc], fill=int(rng.uniform(60, 160)))
        placed.append((cx, cy, a))
    if placed:
        shadow = shadow.filter(ImageFilter.GaussianBlur(max(1.0, ch * 0.03)))
        canvas = Image.composite(Image.new("RGB", canvas.size, (0, 0, 0)), canvas, shadow)
    edge_dir = rng.uniform(0, 2 * math.pi)
    edge = np.array([math.cos(edge_dir), math.sin(edge_dir)]) * ch * rng.uniform(0.006, 0.02)
    edge_col = tuple(int(v) for v in rng.integers(15, 70, 3))
    cd, di = ImageDraw.Draw(canvas), ImageDraw.Draw(idmap)
    card_items: list[tuple[int, np.ndarray]] = []
    card_ids: list[str] = []
    glossy = rng.random() < 0.35
    for cid, (cx, cy, a) in zip(ids, placed, strict=True):
        if cid is None:  # a face-down card in the heap
            add_prop("card-back", cx, cy, a)
            continue
        face = style_face(art[style][cid], rng, round(ch))
        if glossy and rng.random() < 0.5:
            face = _glare(face, rng)
        cc = _card_corners(cx, cy, a, face.size[0], face.size[1])
        for s in (0.5, 1.0):
            rim = [tuple(p + edge * s) for p in cc]
            cd.polygon(rim, fill=edge_col)
            di.polygon(rim, fill=0)
        idv = len(card_items) + 1
        card_items.append((idv, _paste(canvas, idmap, face, cx, cy, a, idv)))
        card_ids.append(cid)

    # hands holding fans, fingers over corners, things lying on top
    for hx, hy, ha in holds:
        # the holding hand: palm and thumb in front of the pivot, its fingers behind the cards
        sprite = hand(rng, ch * rng.uniform(0.6, 0.85), fingers=0)
        back = np.array([-math.sin(math.radians(ha)), math.cos(math.radians(ha))]) * sprite.size[1] * 0.18
        hx_, hy_ = hx * ch + off[0] - back[0], hy * ch + off[1] - back[1]
        idv = _PROP_ID0 + len(prop_items)
        prop_items.append((idv, _paste(canvas, idmap, sprite, hx_, hy_, ha, idv), "hand"))
    if card_items and layout in ("fan", "heap", "rows", "closeup") and rng.random() < 0.4:
        for _ in range(int(rng.integers(1, 3))):
            _, cc = card_items[int(rng.integers(len(card_items)))]
            _finger(canvas, idmap, cc[int(rng.integers(4))], cc.mean(0), ch, rng)
    if card_items and rng.random() < 0.15:
        _, cc = card_items[int(rng.integers(len(card_items)))]
        c = cc.mean(0) + rng.normal(0, 0.5, 2) * ch
        add_prop(str(rng.choice(["hand", "coin", "phone"], p=[0.5, 0.35, 0.15])), c[0], c[1], rng.uniform(0, 360))

    # phone tilt: map the output window to a random quadrilateral of the canvas
    tilt = rng.uniform(0, 50) if rng.random() < 0.8 else 0.0
    kt = math.sin(math.radians(tilt)) * 0.35
    win = np.array([[0, 0], [w_, 0], [w_, h_], [0, h_]], float)
    src = win + np.array([(cw_ - w_) / 2, (ch_ - h_) / 2])
    side = int(rng.integers(4))  # the far edge of the table
    far = src.copy()
    # far edge is wider in the canvas (more table fits at the top of a tilted photo)
    for j in (side, (side + 1) % 4):
        far[j] = src[j] + (src[j] - src[(j + 2) % 4]) * kt * 0.5
    far += rng.normal(0, 0.02, (4, 2)) * [w_, h_]
    hm = homography(win, far)  # output -> canvas
    inv = np.linalg.inv(hm)
    coeffs = tuple((hm / hm[2, 2]).flatten()[:8])
    img = canvas.transform((w_, h_), Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BILINEAR)
    ida = np.asarray(idmap.transform((w_, h_), Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.NEAREST))

    cards, quads, vis, label_ids, whole = [], [], [], [], []
    for k, q, frac, wq in _visible_quads(ida, card_items, hm, inv, w_, h_, min_visible):
        cards.append(card_ids[k])
        quads.append(q)
        whole.append(wq)
        vis.append(frac)
        label_ids.append(card_items[k][0])
    props = _visible_quads(ida, [(i, c) for i, c, _ in prop_items], hm, inv, w_, h_, 0.2)
    img = photometric(img, rng, jpeg=jpeg)
    extra = {
        "tilt": tilt,
        "card_px": ch,
        "distractor_kinds": [prop_items[k][2] for k, _, _, _ in props],
        "label_ids": label_ids,
    }
    if keep_idmap:
        extra["idmap"] = ida.copy()
    return Scene(
        img,
        cards,
        np.array(quads, float).reshape(-1, 4, 2),
        vis,
        layout,
        style,
        extra,
        np.array([q for _, q, _, _ in props], float).reshape(-1, 4, 2),
        np.array(whole, float).reshape(-1, 4, 2),
    )


def _poly_area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


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
