"""Loading photos safely: EXIF orientation, size limits, HEIC, 16-bit, RGBA, grayscale.

:func:`load_image` returns a :class:`Loaded` RGB image at a *working* resolution (JPEGs are
decoded at a reduced scale when that is enough, which is much faster for 12 MP photos) plus
the factor that maps working pixels back to pixels of the oriented original.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from vision.errors import ImageError

#: Largest accepted photo, in pixels (50 MP plus headroom).  Bigger is treated as a bomb.
MAX_PIXELS = 120_000_000  # a 108 MP phone photo is read; Pillow's own bomb limit is disabled below
_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"mif1", b"msf1", b"avif")


@dataclass(frozen=True)
class Loaded:
    """A decoded photo.

    ``image``: RGB PIL image (working resolution); ``scale``: original pixels per working
    pixel (>= 1); ``size``: ``(width, height)`` of the EXIF-oriented original in pixels.
    """

    image: Image.Image
    scale: float
    size: tuple[int, int]


def too_large(name: str, w: int | None = None, h: int | None = None) -> str:
    """The words for a photo over ``MAX_PIXELS`` (a decompression bomb, or a huge photo)."""
    size = f"{w}x{h}, {w * h / 1e6:.0f} megapixels" if w and h else f"over {2 * MAX_PIXELS / 1e6:.0f} megapixels"
    return (f"{name}: the photo is too large to read safely ({size}; the limit is "
            f"{MAX_PIXELS / 1e6:.0f}); take it at a lower resolution")


def _register_heif() -> bool:
    try:
        import pillow_heif
    except ImportError:
        return False
    pillow_heif.register_heif_opener()
    return True


def _looks_heif(head: bytes) -> bool:
    return len(head) >= 12 and head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS


def to_rgb8(im: Image.Image) -> Image.Image:
    """Any PIL mode -> 8-bit RGB.  16-bit and 32-bit grayscale are scaled down, not clipped;
    alpha is composited onto white."""
    if im.mode == "RGB":
        return im
    if im.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I", "F"):
        a = np.asarray(im, dtype=np.float64)
        hi = 65535.0 if im.mode.startswith("I;16") or a.max() > 255 else 255.0
        a = np.clip(a / hi * 255.0, 0, 255).astype(np.uint8)
        return Image.fromarray(a, "L").convert("RGB")
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        rgba = im.convert("RGBA")
        bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(bg, rgba).convert("RGB")
    return im.convert("RGB")


def from_array(a: np.ndarray) -> Image.Image:
    """``(H, W)``, ``(H, W, 3)`` or ``(H, W, 4)`` array (uint8, uint16 or float 0-1) -> RGB.

    Raises ValueError naming the expected and actual shape or dtype.
    """
    a = np.asarray(a)
    if a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] not in (1, 3, 4)):
        raise ValueError(
            f"image array: expected shape (H, W), (H, W, 3) or (H, W, 4), got {a.shape}"
        )
    if a.shape[0] < 1 or a.shape[1] < 1:
        raise ValueError(f"image array: expected H, W >= 1, got {a.shape}")
    if a.dtype == np.uint8:
        b = a
    elif a.dtype == np.uint16:
        b = (a.astype(np.float64) / 65535 * 255).astype(np.uint8)
    elif np.issubdtype(a.dtype, np.floating):
        b = (np.clip(a, 0, 1) * 255).astype(np.uint8)
    else:
        raise ValueError(f"image array: expected dtype uint8, uint16 or float, got {a.dtype}")
    if b.ndim == 3 and b.shape[2] == 1:
        b = b[..., 0]
    mode = {2: "L", 3: "RGB", 4: "RGBA"}[b.ndim if b.ndim == 2 else b.shape[2] + 0]
    return to_rgb8(Image.fromarray(b, mode))


def load_image(src, max_side: int = 1280) -> Loaded:
    """Open a photo from a path, bytes, a file object, a PIL image or a numpy array.

    Applies EXIF orientation, converts to 8-bit RGB, and reduces the long side to at most
    about ``max_side`` px (JPEGs via DCT scaling, which decodes 12 MP in a fraction of the
    time).  Raises :class:`vision.errors.ImageError` for a missing, empty, truncated or
    non-image file, for HEIC without pillow-heif, and for images over :data:`MAX_PIXELS`.
    """
    if isinstance(src, np.ndarray):
        im = from_array(src)
        return _shrink(im, im.size, max_side)
    if isinstance(src, Image.Image):
        im = to_rgb8(ImageOps.exif_transpose(src))
        return _shrink(im, im.size, max_side)
    name = str(src) if isinstance(src, (str, Path)) else "<image>"
    if isinstance(src, (str, Path)):
        try:
            data = Path(src).read_bytes()
        except FileNotFoundError:
            raise ImageError(f"{name}: no such file") from None
        except IsADirectoryError:
            raise ImageError(f"{name}: is a directory, expected an image file") from None
        except OSError as e:
            raise ImageError(f"{name}: cannot read ({e.strerror or e})") from None
    elif isinstance(src, (bytes, bytearray, memoryview)):
        data = bytes(src)
    else:
        data = src.read()
    if not data:
        raise ImageError(f"{name}: empty file, expected an image")
    if _looks_heif(data[:16]) and not _register_heif():
        raise ImageError(
            f"{name}: HEIC/HEIF photo and pillow-heif is not installed "
            "(pip install pillow-heif), or export it as JPEG"
        )
    with warnings.catch_warnings():
        # Our MAX_PIXELS check replaces Pillow's warning (89 MP); its hard error (179 MP) stays.
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            im = Image.open(io.BytesIO(data))
            w, h = im.size
            if w * h > MAX_PIXELS:
                raise ImageError(too_large(name, w, h))
            orient = im.getexif().get(0x0112, 1)
            # DCT-domain downscale for JPEG; orientation 5-8 swaps the axes
            if im.format == "JPEG" and max(w, h) > max_side:
                # DCT scaling by 1/2, 1/4 or 1/8 to no less than 3/4 of max_side: the
                # decode is then 2-3x faster and often needs no further resize
                r = 0.75 * max_side / max(w, h)
                im.draft("RGB", (max(1, int(w * r)), max(1, int(h * r))))
            im.load()
        except ImageError:
            raise
        except Image.DecompressionBombError:
            raise ImageError(too_large(name)) from None
        except UnidentifiedImageError:
            raise ImageError(
                f"{name}: not a photo this app can open (it reads JPEG, PNG, HEIC, WebP and most other image files)"
            ) from None
        except (OSError, SyntaxError, ValueError, EOFError):
            raise ImageError(f"{name}: the file is truncated or damaged; take or send the photo again") from None
    full = (w, h) if orient not in (5, 6, 7, 8) else (h, w)
    im = to_rgb8(ImageOps.exif_transpose(im))
    return _shrink(im, full, max_side)


def _shrink(im: Image.Image, full: tuple[int, int], max_side: int) -> Loaded:
    if max(im.size) > max_side:
        r = max_side / max(im.size)
        im = im.resize(
            (max(1, round(im.size[0] * r)), max(1, round(im.size[1] * r))),
            Image.Resampling.BILINEAR,
            reducing_gap=2.0,
        )
    return Loaded(im, full[0] / im.size[0], (int(full[0]), int(full[1])))
