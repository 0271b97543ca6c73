"""Card art: read the art folders' MAPPING.tsv, render SVG and raster art to PNG, style faces.

The art lives outside the project (``../shared/cards/art`` by default) and is never
committed; renders go to an ignored folder such as ``data/art_png``.

Layout of a rendered folder: ``<out>/<style>/<card-id>.png`` (RGBA, ``height`` pixels tall).

Part of :mod:`vision.synth`: imports numpy, Pillow, ``referee.cards`` and (to render SVG, lazily)
cairosvg; never the runtime's detector, :mod:`vision.train` or ``referee``'s scoring or web code.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from referee.cards import CARD_IDS

#: The nine art sets in ``shared/cards/art``, in a fixed order (held-out photo seeds follow
#: it: new sets go at the end).  Any other folder
#: under the art directory with a ``MAPPING.tsv`` is picked up too (:func:`discover_styles`).
STYLES: tuple[str, ...] = (
    "mantia",
    "hwatu",
    "sheldonschen",
    "pysol-200-years",
    "pysol-kintengu",
    "timomt",
    "pysol-hanafuda",
    "pysol-hwato",
    "pysol-visions",
)
#: Card ids a style cannot tell apart, so the classifier is not taught to (sets of ids that
#: training treats as one label and evaluation as one identity).  timomt has no yellow-band
#: Paulownia chaff: its ``paulownia-chaff-yellow`` file is mapped by position only
#: (shared/cards/art/timomt/SOURCE.md, MAPPING.tsv).
MERGED_IDS: dict[str, tuple[str, ...]] = {
    "timomt": ("paulownia-chaff-yellow", "paulownia-chaff-1", "paulownia-chaff-2"),
}
#: Physical hanafuda cards are about 32 x 53 mm.
CARD_ASPECT = 0.61
#: ``../shared/cards/art`` beside the checkout (this file is ``<checkout>/vision/synth/render.py``).
DEFAULT_ART_DIR = Path(__file__).resolve().parents[3] / "shared" / "cards" / "art"
#: File types the art loader reads: vector (cairosvg) and raster (Pillow).
RASTER_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".webp")


def discover_styles(art_dir: Path = DEFAULT_ART_DIR) -> tuple[str, ...]:
    """Names of the art sets under ``art_dir``: every sub-folder holding a ``MAPPING.tsv``.

    Known sets come first in :data:`STYLES` order, any others after them by name.
    Returns an empty tuple when ``art_dir`` does not exist.
    """
    d = Path(art_dir)
    if not d.is_dir():
        return ()
    found = {p.parent.name for p in d.glob("*/MAPPING.tsv")}
    return tuple(s for s in STYLES if s in found) + tuple(sorted(found - set(STYLES)))


def read_mapping(style_dir: Path) -> dict[str, str]:
    """Return ``{card_id: file name}`` from ``style_dir/MAPPING.tsv``.

    Raises ValueError if the mapping does not cover exactly the 48 card ids.
    """
    with open(Path(style_dir) / "MAPPING.tsv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    mapping = {r["id"]: r["file"] for r in rows}
    if set(mapping) != set(CARD_IDS):
        missing = sorted(set(CARD_IDS) - set(mapping))
        raise ValueError(f"{style_dir}/MAPPING.tsv: expected the 48 card ids, missing {missing}")
    return mapping


def render_svg(path: Path, height: int) -> Image.Image:
    """Render one SVG to an RGBA image ``height`` pixels tall (width keeps the aspect)."""
    import io

    import cairosvg  # heavy-ish, only needed when rendering

    png = cairosvg.svg2png(url=str(path), output_height=int(height))
    return Image.open(io.BytesIO(png)).convert("RGBA")


def load_raster(path: Path, height: int) -> Image.Image:
    """Read a GIF/PNG/JPEG card image and scale it to ``height`` pixels tall (RGBA).

    Small scans (the PySol GIFs are 64 x 102 px) are enlarged with bicubic resampling, then
    softened by a Gaussian blur of 0.2 source pixels and given a light unsharp mask, so the
    palette steps of the GIF do not print as a pixel grid on a large card (the blur radius
    and the unsharp strength were chosen by eye on a contact sheet of the 64 px sets).
    Large images are reduced with LANCZOS.  Raises ValueError for an unreadable file.
    """
    try:
        with Image.open(path) as src:
            im = src.convert("RGBA")
    except (OSError, SyntaxError) as e:
        raise ValueError(f"{path}: not a readable image ({e})") from None
    scale = height / im.height
    w = max(1, round(im.width * scale))
    if scale <= 1:
        return im.resize((w, int(height)), Image.Resampling.LANCZOS)
    out = im.resize((w, int(height)), Image.Resampling.BICUBIC)
    if scale >= 1.5:
        out = out.filter(ImageFilter.GaussianBlur(0.2 * scale))
        out = out.filter(ImageFilter.UnsharpMask(radius=0.5 * scale, percent=50, threshold=2))
    return out


def load_face_art(path: Path, height: int) -> Image.Image:
    """One card's art, ``height`` px tall, RGBA: SVG through cairosvg, rasters through Pillow.

    Raises ValueError for a file type the loader does not read.
    """
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        return render_svg(path, height)
    if suffix in RASTER_SUFFIXES:
        return load_raster(path, height)
    raise ValueError(f"{path}: expected an SVG or one of {RASTER_SUFFIXES}")


def render_art(
    art_dir: Path,
    out_dir: Path,
    height: int = 256,
    styles: tuple[str, ...] | None = None,
    *,
    skip_done: bool = False,
) -> int:
    """Render every style's 48 card images to ``out_dir/<style>/<id>.png``; return the count.

    ``styles``: default every set under ``art_dir`` (:func:`discover_styles`).  A finished
    style gets a ``.done`` marker; with ``skip_done`` such styles are not rendered again.
    """
    n = 0
    for style in styles or discover_styles(art_dir):
        dest = Path(out_dir) / style
        if skip_done and (dest / ".done").exists():
            continue
        mapping = read_mapping(Path(art_dir) / style)
        dest.mkdir(parents=True, exist_ok=True)
        for cid, fname in mapping.items():
            load_face_art(Path(art_dir) / style / fname, height).save(dest / f"{cid}.png")
            n += 1
        (dest / ".done").write_text(f"{height}\n", encoding="utf-8")
    return n


def rendered_styles(png_dir: Path) -> tuple[str, ...]:
    """Styles fully rendered under ``png_dir`` (a ``.done`` marker), known ones first."""
    d = Path(png_dir)
    found = {p.parent.name for p in d.glob("*/.done")} if d.is_dir() else set()
    return tuple(s for s in STYLES if s in found) + tuple(sorted(found - set(STYLES)))


def load_art(
    png_dir: Path, styles: tuple[str, ...] | None = None
) -> dict[str, dict[str, Image.Image]]:
    """Load ``{style: {card_id: RGBA image}}`` from a folder made by :func:`render_art`.

    ``styles``: default every style rendered there (:func:`rendered_styles`).
    """
    art: dict[str, dict[str, Image.Image]] = {}
    for style in styles or rendered_styles(png_dir):
        d = Path(png_dir) / style
        art[style] = {cid: Image.open(d / f"{cid}.png").convert("RGBA") for cid in CARD_IDS}
    return art


# --------------------------------------------------------------------------- face styling


def _ink(arr: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Push greens and dark tones toward black ink, as on Nintendo-style decks (HxWx3 float)."""
    r, g, b = arr[..., 0], arr[..., 1], arr[..., 2]
    lum = 0.3 * r + 0.59 * g + 0.11 * b
    greenish = (g > r + 0.04) & (g > b - 0.05)
    dark = lum < rng.uniform(0.25, 0.45)
    k = rng.uniform(0.05, 0.45)
    sel = (greenish | dark)[..., None]
    return np.where(sel, arr * k, arr)


def style_face(art: Image.Image, rng: np.random.Generator, height: int) -> Image.Image:
    """Make a printed-card look from one art image: colour shift, ink palette, border, corners.

    ``art`` is RGBA; the result is RGBA, ``height`` px tall, ``round(height * 0.61)`` wide,
    transparent outside the rounded corners.
    """
    h = int(height)
    w = max(4, round(h * CARD_ASPECT))
    border_kind = rng.choice(["black", "red", "thin"], p=[0.6, 0.2, 0.2])
    bw = max(1, round(w * (rng.uniform(0.03, 0.07) if border_kind != "thin" else 0.015)))
    paper = tuple(int(v) for v in rng.uniform(215, 252, 3))
    border_col = {"black": (20, 18, 16), "red": (170, 30, 25), "thin": paper}[str(border_kind)]
    border_col = tuple(int(np.clip(c + rng.normal(0, 12), 0, 255)) for c in border_col)
    face = Image.new("RGB", (w, h), border_col)
    inner = (w - 2 * bw, h - 2 * bw)
    a = art.resize(inner, Image.Resampling.BILINEAR)
    bg = Image.new("RGB", inner, paper)
    bg.paste(a, (0, 0), a)
    arr = np.asarray(bg, dtype=np.float32) / 255.0
    if rng.random() < 0.45:
        arr = _ink(arr, rng)
    # print colour shifts: per-channel gain, saturation, gamma
    gain = rng.uniform(0.85, 1.15, 3)
    gray = arr.mean(axis=2, keepdims=True)
    sat = rng.uniform(0.5, 1.3)
    arr = np.clip((gray + (arr - gray) * sat) * gain, 0, 1) ** rng.uniform(0.8, 1.25)
    face.paste(Image.fromarray((arr * 255).astype(np.uint8)), (bw, bw))
    mask = Image.new("L", (w, h), 0)
    rad = max(1, round(w * rng.uniform(0.03, 0.09)))
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=rad, fill=255)
    out = face.convert("RGBA")
    out.putalpha(mask)
    if rng.random() < 0.3:  # slight bend: a small random perspective of the face
        j = w * 0.03
        quad = [rng.uniform(-j, j) for _ in range(8)]
        data = (
            quad[0],
            quad[1],
            quad[2],
            h + quad[3],
            w + quad[4],
            h + quad[5],
            w + quad[6],
            quad[7],
        )
        out = out.transform((w, h), Image.Transform.QUAD, data, Image.Resampling.BILINEAR)
    if rng.random() < 0.2:
        out = out.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.0)))
    return out
