"""Draw the web app's home-screen icons: ``templates/static/icon.svg`` and the PNGs the manifest names.

The design is ours (a blank card with a red sun over a pine hill, not card art) and
is described once, in ``SHAPES`` on a 512-unit square, then written as SVG and
rasterised with Pillow (drawn at 4x and scaled down).  Run after changing it:

    python scripts/make_icons.py [--out templates/static]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw

BACKGROUND = "#8c1c13"
#: (kind, fill, geometry) on a 512 x 512 canvas; kinds: rect (x0, y0, x1, y1, radius), circle (cx, cy, r), polygon.
SHAPES = (
    ("rect", "#faf7f2", (146, 76, 366, 436, 22)),
    ("rect", "#e8dfd2", (158, 88, 354, 424, 14)),
    ("rect", "#faf7f2", (164, 94, 348, 418, 12)),
    ("circle", "#c62828", (272, 188, 60)),
    ("polygon", "#2e7d32", ((164, 418), (164, 352), (232, 286), (282, 330), (348, 270), (348, 418))),
    ("polygon", "#1b5e20", ((164, 418), (164, 384), (210, 350), (262, 388), (318, 346), (348, 368), (348, 418))),
    ("rect", "#d9a400", (182, 116, 198, 236, 4)),
)
#: Output file -> (pixels, scale of the design: 1 fills the square; maskable icons keep a safe margin).
OUTPUTS = {
    "icon-192.png": (192, 1.0),
    "icon-512.png": (512, 1.0),
    "icon-180.png": (180, 1.0),
    "icon-maskable-512.png": (512, 0.8),
}


def _scaled(points, scale: float):
    return [256 + (v - 256) * scale for v in points]


def svg() -> str:
    """The icon as an SVG document (512 x 512 viewBox)."""
    parts = [f'<rect width="512" height="512" fill="{BACKGROUND}"/>']
    for kind, fill, g in SHAPES:
        if kind == "rect":
            x0, y0, x1, y1, r = g
            parts.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="{r}" fill="{fill}"/>')
        elif kind == "circle":
            parts.append(f'<circle cx="{g[0]}" cy="{g[1]}" r="{g[2]}" fill="{fill}"/>')
        else:
            pts = " ".join(f"{x},{y}" for x, y in g)
            parts.append(f'<polygon points="{pts}" fill="{fill}"/>')
    body = "\n  ".join(parts)
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">\n  {body}\n</svg>\n'


def png(size: int, scale: float) -> Image.Image:
    """The icon as a ``size`` x ``size`` RGB image; ``scale`` < 1 shrinks the design inside its background."""
    big = 4 * size
    k = big / 512
    img = Image.new("RGB", (big, big), BACKGROUND)
    draw = ImageDraw.Draw(img)
    for kind, fill, g in SHAPES:
        if kind == "rect":
            x0, y0, x1, y1 = (v * k for v in _scaled(g[:4], scale))
            draw.rounded_rectangle((x0, y0, x1, y1), radius=g[4] * k * scale, fill=fill)
        elif kind == "circle":
            cx, cy = (v * k for v in _scaled(g[:2], scale))
            r = g[2] * k * scale
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        else:
            draw.polygon([tuple(v * k for v in _scaled(p, scale)) for p in g], fill=fill)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "templates" / "static")
    args = parser.parse_args(argv)
    (args.out / "icon.svg").write_text(svg(), encoding="utf-8")
    for name, (size, scale) in OUTPUTS.items():
        png(size, scale).save(args.out / name, optimize=True)
    print(f"wrote icon.svg and {', '.join(OUTPUTS)} to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
