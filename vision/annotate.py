"""Draw detections on a photo."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from vision.detection import Detection, percent_sure
from vision.imageio import load_image


def annotate(image, detections: list[Detection], max_side: int = 2048) -> Image.Image:
    """Return an RGB copy of ``image`` (at most ``max_side`` px long) with a box and a
    ``card-id 0.93`` label per detection; uncertain ones in orange with a ``?``.

    Detection boxes are in pixels of the oriented original and are scaled to the copy.
    """
    loaded = load_image(image, max_side)
    im = loaded.image.copy()
    d = ImageDraw.Draw(im)
    s = 1.0 / loaded.scale
    width = max(2, round(max(im.size) / 400))
    font = ImageFont.load_default(size=max(12, round(max(im.size) / 60)))
    for det in detections:
        x1, y1, x2, y2 = (v * s for v in det.box)
        col = (255, 150, 0) if det.uncertain else (0, 220, 60)
        d.rectangle((x1, y1, x2, y2), outline=col, width=width)
        label = f"{det.card} {percent_sure(det.confidence) / 100:.2f}{' ?' if det.uncertain else ''}"
        tb = d.textbbox((x1, y1), label, font=font)
        ty = max(0, y1 - (tb[3] - tb[1]) - 4)
        d.rectangle((x1, ty, x1 + tb[2] - tb[0] + 4, ty + tb[3] - tb[1] + 4), fill=col)
        d.text((x1 + 2, ty), label, fill=(0, 0, 0), font=font)
    return im
