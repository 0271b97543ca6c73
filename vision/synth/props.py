"""Things on a real table that are not card faces, drawn as RGBA sprites for synthetic scenes.

Each function returns an RGBA :class:`PIL.Image.Image` (transparent around the object) drawn
from ``rng`` alone, so a seed gives the same sprite.  Sizes are in pixels.  They are the
distractors the issue measured the old detector on (the card box lid, a hair tie, a dried
wreath) and the ones a captured pile sits among: hanafuda card backs, other playing cards,
coins, phones and hands; app screenshots showing small card pictures and patterned cloths (issue
17, item 6).  A card box can be printed with card art, which must not be named.

Part of :mod:`vision.synth`: numpy and Pillow only.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

#: Western playing cards are 63 x 88 mm.
PLAYING_CARD_ASPECT = 63 / 88
#: Skin tones (RGB) for hands, light to dark.
SKIN = ((241, 194, 167), (224, 172, 138), (198, 134, 99), (160, 102, 68), (112, 70, 45))


def _col(rng, lo=0, hi=256) -> tuple[int, int, int]:
    return tuple(int(v) for v in rng.integers(lo, hi, 3))


def _jitter(col, rng, s=14) -> tuple[int, int, int]:
    return tuple(int(np.clip(c + rng.normal(0, s), 0, 255)) for c in col)


def _rounded(w: int, h: int, r: int, fill) -> Image.Image:
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(im).rounded_rectangle((0, 0, w - 1, h - 1), radius=max(1, r), fill=fill)
    return im


def card_back(rng: np.random.Generator, height: int, aspect: float = 0.61) -> Image.Image:
    """The back of a hanafuda card: a plain dark colour (black, red, brown, navy), sometimes an
    emblem or a thin frame."""
    h = max(8, int(height))
    w = max(5, round(h * aspect))
    base = [(25, 22, 20), (150, 28, 24), (92, 48, 30), (28, 34, 70), (20, 60, 35)]
    col = _jitter(base[int(rng.integers(len(base)))], rng, 10)
    im = _rounded(w, h, round(w * rng.uniform(0.03, 0.08)), (*col, 255))
    d = ImageDraw.Draw(im)
    if rng.random() < 0.5:  # an emblem in the middle
        r = w * rng.uniform(0.12, 0.3)
        c2 = _jitter(tuple(min(255, v + 60) for v in col), rng, 20)
        d.ellipse((w / 2 - r, h / 2 - r, w / 2 + r, h / 2 + r), outline=(*c2, 255), width=max(1, w // 30))
    if rng.random() < 0.4:  # a thin inner frame
        m = round(w * 0.08)
        c2 = _jitter(tuple(min(255, v + 40) for v in col), rng, 20)
        d.rectangle((m, m, w - 1 - m, h - 1 - m), outline=(*c2, 255), width=1)
    return im


def _pip(d: ImageDraw.ImageDraw, suit: int, x: float, y: float, s: float, col) -> None:
    if suit == 0:  # heart
        d.ellipse((x - s, y - s * 0.8, x, y), fill=col)
        d.ellipse((x, y - s * 0.8, x + s, y), fill=col)
        d.polygon([(x - s, y - s * 0.35), (x + s, y - s * 0.35), (x, y + s)], fill=col)
    elif suit == 1:  # diamond
        d.polygon([(x, y - s), (x + s * 0.7, y), (x, y + s), (x - s * 0.7, y)], fill=col)
    elif suit == 2:  # club
        for dx, dy in ((0, -0.45), (-0.45, 0.1), (0.45, 0.1)):
            d.ellipse((x + (dx - 0.42) * s, y + (dy - 0.42) * s, x + (dx + 0.42) * s, y + (dy + 0.42) * s), fill=col)
        d.polygon([(x, y), (x - s * 0.3, y + s), (x + s * 0.3, y + s)], fill=col)
    else:  # spade
        d.polygon([(x, y - s), (x + s, y + s * 0.2), (x - s, y + s * 0.2)], fill=col)
        d.ellipse((x - s, y - s * 0.2, x, y + s * 0.6), fill=col)
        d.ellipse((x, y - s * 0.2, x + s, y + s * 0.6), fill=col)
        d.polygon([(x, y + s * 0.2), (x - s * 0.35, y + s), (x + s * 0.35, y + s)], fill=col)


def playing_card(rng: np.random.Generator, height: int) -> Image.Image:
    """A western playing card: white, rounded, corner indices and pips, or a coloured court
    picture (face up), or a patterned back."""
    h = max(10, int(height))
    w = max(6, round(h * PLAYING_CARD_ASPECT))
    paper = _jitter((246, 244, 238), rng, 6)
    im = _rounded(w, h, round(w * 0.07), (*paper, 255))
    d = ImageDraw.Draw(im)
    if rng.random() < 0.25:  # back: a fine lattice in red or blue
        col = (170, 30, 35) if rng.random() < 0.5 else (30, 50, 150)
        m = round(w * 0.06)
        d.rectangle((m, m, w - 1 - m, h - 1 - m), fill=col)
        step = max(3, w // 12)
        for k in range(-h, w + h, step):
            d.line((m + k, m, m + k + h, m + h), fill=paper, width=1)
        return im
    suit = int(rng.integers(4))
    col = (200, 20, 30) if suit < 2 else (15, 15, 15)
    s = w * 0.07
    for cx, cy in ((w * 0.12, h * 0.2), (w * 0.88, h * 0.8)):
        d.rectangle((cx - s * 0.6, cy - s * 2.6, cx + s * 0.6, cy - s * 1.2), fill=col)  # index glyph
        _pip(d, suit, cx, cy, s, col)
    if rng.random() < 0.3:  # a court card: a coloured picture in a frame
        fx0, fy0, fx1, fy1 = w * 0.2, h * 0.14, w * 0.8, h * 0.86
        d.rectangle((fx0, fy0, fx1, fy1), outline=col, width=max(1, w // 40))
        for _ in range(int(rng.integers(6, 14))):
            x, y = rng.uniform(fx0, fx1), rng.uniform(fy0, fy1)
            r = rng.uniform(0.04, 0.15) * w
            d.ellipse((x - r, y - r, x + r, y + r * rng.uniform(1, 2.5)), fill=_col(rng))
    else:
        n = int(rng.integers(1, 11))
        cols = 1 if n < 4 else 2
        rows = math.ceil(n / cols)
        for k in range(n):
            cx = w * (0.5 if cols == 1 else (0.33 if k % cols == 0 else 0.67))
            cy = h * (0.22 + 0.56 * ((k // cols) + 0.5) / rows)
            _pip(d, suit, cx, cy, w * 0.09, col)
    return im


def card_box(rng: np.random.Generator, size: float, art: Image.Image | None = None) -> Image.Image:
    """A card box or its lid: a coloured rectangle, optionally printed with card art (smaller
    than a card, not a card face), and printed bands of text."""
    bw = max(8, int(size * rng.uniform(1.0, 1.8)))
    bh = max(8, int(size * rng.uniform(1.3, 2.2)))
    col = _col(rng)
    box = Image.new("RGBA", (bw, bh), (*col, 255))
    if art is not None:
        aw = int(bw * rng.uniform(0.4, 0.9))
        ah = int(aw / 0.61)
        if aw > 4 and 4 < ah < bh:
            a = art.resize((aw, ah))
            box.paste(a, (int((bw - aw) / 2), int(rng.uniform(0, bh - ah))), a)
    bd = ImageDraw.Draw(box)
    for _ in range(int(rng.integers(0, 4))):
        ty = rng.uniform(0, bh)
        bd.rectangle((bw * 0.1, ty, bw * rng.uniform(0.3, 0.9), ty + bh * 0.04), fill=_col(rng))
    if rng.random() < 0.5:  # the lid's rim
        bd.rectangle((0, 0, bw - 1, bh - 1), outline=_jitter(col, rng, 40), width=max(1, bw // 25))
    return box


def coin(rng: np.random.Generator, diameter: float) -> Image.Image:
    """A coin: metallic radial shading, a rim and an embossed ring."""
    d_ = max(6, int(diameter))
    metal = [(196, 160, 80), (180, 180, 185), (160, 100, 60)][int(rng.integers(3))]
    yy, xx = np.mgrid[0:d_, 0:d_].astype(np.float32)
    r = d_ / 2
    dist = np.hypot(xx - r, yy - r) / r
    ang = rng.uniform(0, 2 * math.pi)
    light = 0.75 + 0.35 * ((xx - r) * math.cos(ang) + (yy - r) * math.sin(ang)) / r
    shade = light * (1 - 0.25 * ((dist > 0.85) & (dist < 0.95))) * (1 - 0.15 * ((dist > 0.55) & (dist < 0.6)))
    rgb = np.clip(np.array(metal, np.float32) * shade[..., None], 0, 255).astype(np.uint8)
    alpha = ((dist <= 1.0) * 255).astype(np.uint8)
    return Image.fromarray(np.dstack([rgb, alpha]), "RGBA")


def phone(rng: np.random.Generator, height: float) -> Image.Image:
    """A phone lying on the table: dark rounded body, a screen that is dark or shows tiles."""
    h = max(12, int(height))
    w = max(6, round(h * rng.uniform(0.45, 0.5)))
    body = _jitter((30, 30, 34), rng, 10)
    im = _rounded(w, h, round(w * 0.15), (*body, 255))
    d = ImageDraw.Draw(im)
    m = max(1, round(w * 0.05))
    if rng.random() < 0.4:
        d.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=round(w * 0.1), fill=(8, 8, 12))
    else:
        top, bot = _col(rng, 40, 230), _col(rng, 20, 200)
        for y in range(m, h - m):
            t = (y - m) / max(1, h - 2 * m)
            d.line((m, y, w - 1 - m, y), fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bot, strict=True)))
        s = (w - 2 * m) / 4
        for k in range(int(rng.integers(4, 17))):
            r_, c_ = divmod(k, 4)
            x0, y0 = m + c_ * s + s * 0.15, m + h * 0.1 + r_ * s
            d.rounded_rectangle((x0, y0, x0 + s * 0.7, y0 + s * 0.7), radius=max(1, round(s * 0.2)), fill=_col(rng))
    return im


def hand(rng: np.random.Generator, size: float, fingers: int | None = None) -> Image.Image:
    """A hand seen from above: a palm and 1-5 fingers in one skin tone, fingers pointing up.

    ``size`` is the palm width in pixels; the sprite is about ``2.2 * size`` tall.
    """
    s = max(8.0, float(size))
    tone = _jitter(SKIN[int(rng.integers(len(SKIN)))], rng, 8)
    w, h = round(s * 2.4), round(s * 2.6)
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    cx, cy = w / 2, h * 0.68
    palm = (cx - s * 0.5, cy - s * 0.55, cx + s * 0.5, cy + s * 0.6)
    d.rounded_rectangle(palm, radius=round(s * 0.3), fill=(*tone, 255))
    n = int(fingers if fingers is not None else rng.integers(1, 6))
    fw = s * rng.uniform(0.24, 0.3)
    for k in range(n):
        a = math.radians(-28 + 56 * (k + 0.5) / max(n, 1) + rng.normal(0, 4))
        ln = s * rng.uniform(0.8, 1.15) * (0.8 if k in (0, n - 1) and n > 2 else 1.0)
        x0, y0 = cx + math.sin(a) * s * 0.35, cy - math.cos(a) * s * 0.35
        x1, y1 = x0 + math.sin(a) * ln, y0 - math.cos(a) * ln
        d.line((x0, y0, x1, y1), fill=(*tone, 255), width=max(2, round(fw)))
        d.ellipse((x1 - fw / 2, y1 - fw / 2, x1 + fw / 2, y1 + fw / 2), fill=(*tone, 255))
        nail = _jitter(tuple(min(255, v + 25) for v in tone), rng, 5)
        d.ellipse((x1 - fw * 0.3, y1 - fw * 0.35, x1 + fw * 0.3, y1 + fw * 0.15), fill=(*nail, 255))
    if rng.random() < 0.7:  # the thumb, off to one side
        side = 1 if rng.random() < 0.5 else -1
        x0, y0 = cx + side * s * 0.45, cy + s * 0.1
        x1, y1 = x0 + side * s * 0.6, y0 - s * 0.55
        d.line((x0, y0, x1, y1), fill=(*tone, 255), width=max(2, round(fw * 1.15)))
        d.ellipse((x1 - fw * 0.6, y1 - fw * 0.6, x1 + fw * 0.6, y1 + fw * 0.6), fill=(*tone, 255))
    if rng.random() < 0.5:  # the wrist or sleeve running off the bottom
        sleeve = _jitter(tone, rng, 4) if rng.random() < 0.5 else _col(rng)
        d.rectangle((cx - s * 0.42, cy + s * 0.3, cx + s * 0.42, h), fill=(*sleeve, 255))
    # soft shading: darker towards the edges
    a = im.getchannel("A")
    inner = a.filter(ImageFilter.GaussianBlur(max(1.0, s * 0.08)))
    rgb = np.asarray(im.convert("RGB"), np.float32) * (0.8 + 0.2 * np.asarray(inner, np.float32)[..., None] / 255)
    return Image.merge("RGBA", (*Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8)).split(), a))


def ring(rng: np.random.Generator, diameter: float) -> Image.Image:
    """A hair tie (a thick elastic loop) or a dried wreath (brown twigs around a circle)."""
    d_ = max(8, int(diameter))
    im = Image.new("RGBA", (d_, d_), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    if rng.random() < 0.5:
        col = _col(rng)
        wd = max(2, round(d_ * rng.uniform(0.06, 0.14)))
        e = rng.uniform(0.6, 1.0)
        pad = wd
        d.ellipse((pad, pad + (1 - e) * d_ / 2, d_ - pad, d_ - pad - (1 - e) * d_ / 2), outline=(*col, 255), width=wd)
        return im
    r0 = d_ * 0.35
    for _ in range(int(rng.integers(90, 160))):
        a = rng.uniform(0, 2 * math.pi)
        rr = r0 + rng.normal(0, d_ * 0.05)
        x, y = d_ / 2 + rr * math.cos(a), d_ / 2 + rr * math.sin(a)
        t = a + math.pi / 2 + rng.normal(0, 0.4)
        ln = d_ * rng.uniform(0.05, 0.15)
        col = _jitter((120, 80, 45), rng, 25)
        d.line((x, y, x + ln * math.cos(t), y + ln * math.sin(t)), fill=(*col, 255), width=max(2, d_ // 40))
        if rng.random() < 0.15:
            b = _col(rng, 120, 256)
            q = d_ * 0.02
            d.ellipse((x - q, y - q, x + q, y + q), fill=(*b, 255))
    return im


def screenshot(rng: np.random.Generator, height: float, arts: list[Image.Image] | None = None) -> Image.Image:
    """A phone or a printout showing a screen of a hanafuda app: a light or dark page with a
    title bar, lines of text, buttons and a grid of small card pictures (``arts``).  The
    pictures are far smaller than a card on the table and sit in a page, not on it: a photo
    of this screen has no card to name."""
    h = max(16, int(height))
    w = max(8, round(h * rng.uniform(0.46, 0.75)))
    dark = rng.random() < 0.3
    page = _jitter((28, 28, 32) if dark else (246, 244, 238), rng, 6)
    ink = (225, 225, 225) if dark else (40, 40, 46)
    rim = _jitter((20, 20, 24), rng, 8)
    im = _rounded(w, h, round(w * 0.1), (*rim, 255))
    m = max(1, round(w * 0.04))
    d = ImageDraw.Draw(im)
    d.rectangle((m, m, w - 1 - m, h - 1 - m), fill=(*page, 255))
    accent = _col(rng, 30, 220)
    d.rectangle((m, m, w - 1 - m, m + h * 0.07), fill=(*accent, 255))
    y = m + h * 0.1
    for _ in range(int(rng.integers(1, 4))):  # lines of text
        d.rectangle((m * 3, y, m * 3 + (w - 6 * m) * rng.uniform(0.3, 0.95), y + h * 0.012), fill=(*ink, 255))
        y += h * 0.03
    cols = int(rng.integers(5, 9))
    tw = (w - 2 * m) / cols * 0.86
    th = tw / 0.61
    rows = max(1, int((h * 0.62) // (th * 1.12)))
    rows = int(rng.integers(1, rows + 1))
    for r_ in range(rows):
        for c_ in range(cols):
            x0 = m + (c_ + 0.07) * (w - 2 * m) / cols
            y0 = y + r_ * th * 1.12
            if y0 + th > h - m - h * 0.1 or tw < 3:
                break
            if arts and rng.random() < 0.85:
                a = arts[int(rng.integers(len(arts)))].resize((max(1, round(tw)), max(1, round(th))))
                im.paste(a, (round(x0), round(y0)), a)
            else:
                d.rectangle((x0, y0, x0 + tw, y0 + th), outline=(*ink, 255), width=1)
    for _ in range(int(rng.integers(1, 3))):  # buttons at the bottom
        by = h - m - h * rng.uniform(0.04, 0.09)
        bx = m * 2 + (w - 4 * m) * rng.uniform(0, 0.5)
        d.rounded_rectangle(
            (bx, by - h * 0.035, bx + (w - 4 * m) * 0.45, by),
            radius=max(1, round(h * 0.01)),
            fill=(*_col(rng, 30, 220), 255),
        )
    return im


def patterned_cloth(rng: np.random.Generator, size: float) -> Image.Image:
    """A patterned cloth (a tenugui or a napkin) lying on the table: checks, stripes, dots,
    waves (seigaiha) or scattered flowers in two or three colours, with a hem."""
    w = max(12, int(size * rng.uniform(1.5, 3.0)))
    h = max(12, int(size * rng.uniform(1.2, 2.5)))
    base, fg, fg2 = _col(rng), _col(rng), _col(rng)
    im = Image.new("RGBA", (w, h), (*base, 255))
    d = ImageDraw.Draw(im)
    s = max(3.0, size * rng.uniform(0.06, 0.25))
    kind = int(rng.integers(5))
    if kind == 0:  # checks
        for i in range(int(w / s) + 1):
            for j in range(int(h / s) + 1):
                if (i + j) % 2:
                    d.rectangle((i * s, j * s, (i + 1) * s, (j + 1) * s), fill=(*fg, 255))
    elif kind == 1:  # stripes
        for i in range(int(w / s) + 1):
            d.rectangle((i * s, 0, i * s + s * 0.45, h), fill=(*(fg if i % 2 else fg2), 255))
    elif kind == 2:  # dots
        for j in range(int(h / s) + 1):
            for i in range(int(w / s) + 1):
                x, y = (i + 0.5 * (j % 2)) * s, j * s
                d.ellipse((x - s * 0.2, y - s * 0.2, x + s * 0.2, y + s * 0.2), fill=(*fg, 255))
    elif kind == 3:  # waves: rows of concentric arcs
        for j in range(int(h / (s * 0.5)) + 2):
            for i in range(int(w / s) + 2):
                x, y = (i + 0.5 * (j % 2)) * s, j * s * 0.5
                for k, col in enumerate((fg, base, fg2, base)):
                    r = s * 0.5 * (1 - k * 0.22)
                    d.pieslice((x - r, y - r, x + r, y + r), 180, 360, fill=(*col, 255))
    else:  # scattered flowers
        for _ in range(int(w * h / (s * s) * 0.3)):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            col = fg if rng.random() < 0.5 else fg2
            for a in range(5):
                t = a * 2 * math.pi / 5
                px, py = x + math.cos(t) * s * 0.25, y + math.sin(t) * s * 0.25
                d.ellipse((px - s * 0.18, py - s * 0.18, px + s * 0.18, py + s * 0.18), fill=(*col, 255))
            d.ellipse((x - s * 0.1, y - s * 0.1, x + s * 0.1, y + s * 0.1), fill=(*base, 255))
    hem = max(1, round(min(w, h) * 0.02))
    d.rectangle((0, 0, w - 1, h - 1), outline=(*_jitter(fg, rng, 20), 255), width=hem)
    return im.filter(ImageFilter.GaussianBlur(0.6))


#: Sprite kinds for :func:`random_prop`.
PROPS: tuple[str, ...] = (
    "card-back",
    "playing-card",
    "card-box",
    "coin",
    "phone",
    "hand",
    "ring",
    "screenshot",
    "cloth",
)


def random_prop(
    rng: np.random.Generator,
    kind: str,
    card_h: float,
    art: Image.Image | None = None,
    arts: list[Image.Image] | None = None,
) -> Image.Image:
    """One distractor sprite of ``kind`` (see :data:`PROPS`), scaled to a card ``card_h`` px tall.
    ``art``: the card picture a card box may be printed with; ``arts``: the pictures an app
    screenshot shows.

    Raises ValueError for an unknown kind.
    """
    if kind == "card-back":
        return card_back(rng, card_h * rng.uniform(0.95, 1.05))
    if kind == "playing-card":
        return playing_card(rng, card_h * rng.uniform(1.1, 1.6))
    if kind == "card-box":
        return card_box(rng, card_h * rng.uniform(0.5, 1.0), art)
    if kind == "coin":
        return coin(rng, card_h * rng.uniform(0.3, 0.5))
    if kind == "phone":
        return phone(rng, card_h * rng.uniform(2.0, 2.8))
    if kind == "hand":
        return hand(rng, card_h * rng.uniform(0.9, 1.3))
    if kind == "ring":
        return ring(rng, card_h * rng.uniform(0.6, 1.4))
    if kind == "screenshot":
        return screenshot(rng, card_h * rng.uniform(1.5, 2.6), arts)
    if kind == "cloth":
        return patterned_cloth(rng, card_h * rng.uniform(1.0, 2.0))
    raise ValueError(f"unknown prop kind {kind!r}; expected one of {PROPS}")
