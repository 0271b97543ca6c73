"""Loading photos safely: size and memory limits, EXIF orientation, HEIC, 16-bit, alpha.

:func:`load_image` returns a :class:`Loaded` RGB array at a *working* resolution plus the
factor that maps working pixels back to pixels of the oriented original.

Every decode is bounded before it starts.  The header alone gives the size, format and
pixel mode; :func:`decode_cost` turns them into the memory the decode will take, and a
photo over :data:`MAX_PIXELS` or :data:`MAX_DECODE_BYTES` is refused with its real size and
the real limit, before a pixel is decoded.  What is decoded stays small:

- JPEG: OpenCV decodes it with DCT scaling (``cv2.IMREAD_REDUCED_*``, 1/2, 1/4 or 1/8)
  straight to about the working size, so a 12 MP photo never exists at full size.
  Progressive JPEGs still hold one 16-bit coefficient per pixel and channel while decoding,
  which :func:`decode_cost` counts.
- WebP without alpha: OpenCV (a third of the memory Pillow's decoder takes, and faster).
- Other formats (Pillow; pillow-heif for HEIC): decoded in their own pixel mode, shrunk
  in that mode (area average), and only then converted, so a 16-bit or alpha image costs
  its own pixels plus a small working copy, never a float copy at full size.  (OpenCV's
  PNG and GIF decoders took more memory than Pillow's: docs/BENCHMARKS.md.)

EXIF orientation is read by Pillow for every format, and applied to the working array.
"""

from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from vision.errors import ImageError

#: Largest accepted photo, in pixels: a 108 MP phone photo is read; more is treated as a bomb.
MAX_PIXELS = 120_000_000
#: Most memory one decode may take, in bytes (see :func:`decode_cost`).  With one decode at a
#: time (the web app's cap) the server stays under 600 MiB (docs/BENCHMARKS.md).
MAX_DECODE_BYTES = 256 * 1024 * 1024
#: The formats read, in the order tried (Pillow names; HEIF is registered by pillow-heif).
FORMATS: tuple[str, ...] = ("JPEG", "PNG", "HEIF", "AVIF", "WEBP", "GIF", "BMP", "TIFF")
#: The formats in words, for messages.
READS = "JPEG, PNG, HEIC, AVIF, WebP, GIF, BMP and TIFF"
_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"mif1", b"msf1", b"avif")
_MIB = 1024 * 1024
# Bytes per pixel of a decoded Pillow image by mode ("RGB" is stored in 4 bytes).
_MODE_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16B": 2, "I;16L": 2, "I;16N": 2}
# Extra bytes per pixel before the image is small: alpha is premultiplied into a copy for
# shrinking, palette and odd modes are converted at full size, and some decoders hold their
# own buffer (libheif: its planes; Pillow's WebP: an RGBA canvas and a copy; libtiff: an
# RGBA raster).  Measured per kind in docs/BENCHMARKS.md (decode memory).
_MODE_EXTRA = {"RGBA": 4, "LA": 4, "PA": 8, "La": 0, "RGBa": 0, "P": 4.5, "1": 4.5, "CMYK": 4,
               "YCbCr": 4, "LAB": 4, "HSV": 4}
_FORMAT_EXTRA = {"HEIF": 3, "AVIF": 3, "WEBP": 12, "TIFF": 4}
_OPENCV_WEBP_BYTES = 6  # per pixel: libwebp's output and OpenCV's RGB copy
_DECODER_FIXED = 16 * _MIB  # decoder state, row buffers, the evidence JPEG


@dataclass(frozen=True)
class Loaded:
    """A decoded photo.

    ``array``: ``(H, W, 3)`` uint8 RGB at the working resolution; ``scale``: original pixels
    per working pixel (>= 1); ``size``: ``(width, height)`` of the EXIF-oriented original in
    pixels.  ``image`` is the same pixels as a PIL image (made on first use).
    """

    array: np.ndarray
    scale: float
    size: tuple[int, int]

    @cached_property
    def image(self) -> Image.Image:
        return Image.fromarray(self.array, "RGB")


def megapixels(pixels: float) -> str:
    """``196000000`` -> ``'196'``, ``120400000`` -> ``'120.4'`` (megapixels, for messages)."""
    mp = pixels / 1e6
    return f"{mp:.0f}" if abs(mp - round(mp)) < 0.05 else f"{mp:.1f}"


def too_large(name: str, w: int, h: int) -> str:
    """The words for a photo over :data:`MAX_PIXELS` (a decompression bomb, or a huge photo)."""
    return (f"{name}: the photo is too large to read safely ({w}x{h} pixels, {megapixels(w * h)} "
            f"megapixels; the limit is {megapixels(MAX_PIXELS)} megapixels); take it at a lower resolution")


def too_costly(name: str, w: int, h: int, kind: str, cost: int) -> str:
    """The words for a photo whose decode would take over :data:`MAX_DECODE_BYTES`."""
    return (f"{name}: decoding this photo would take about {math.ceil(cost / _MIB)} MiB of memory "
            f"({w}x{h} pixels, {kind}); the limit is {MAX_DECODE_BYTES // _MIB} MiB; "
            "send it as a JPEG or at a lower resolution")


def _register_heif() -> bool:
    try:
        import pillow_heif
    except ImportError:
        return False
    pillow_heif.register_heif_opener()
    return True


def _looks_heif(head: bytes) -> bool:
    return len(head) >= 12 and head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS


def jpeg_reduction(w: int, h: int, max_side: int) -> int:
    """The DCT scale denominator (1, 2, 4 or 8) for a ``w`` x ``h`` JPEG: the largest that
    keeps the long side at least 3/4 of ``max_side`` (then little or no resize is left)."""
    for f in (8, 4, 2):
        if max(w, h) / f >= 0.75 * max_side:
            return f
    return 1


def _jpeg_coefficients(im: Image.Image) -> int:
    """Bytes of the whole-image DCT coefficient buffer libjpeg keeps for a progressive JPEG
    (2 bytes per coefficient, per component at its sampled size); 0 for a baseline JPEG."""
    if not (im.info.get("progressive") or im.info.get("progression")):
        return 0
    w, h = im.size
    layers = getattr(im, "layer", None) or [("", 1, 1, 0)] * len(im.getbands())
    hmax = max(hs for _, hs, _, _ in layers)
    vmax = max(vs for _, _, vs, _ in layers)
    total = 0
    for _, hs, vs, _ in layers:
        bw = math.ceil(math.ceil(w * hs / hmax) / 8)
        bh = math.ceil(math.ceil(h * vs / vmax) / 8)
        total += bw * bh * 64 * 2
    return total


def _uses_opencv(im: Image.Image) -> bool:
    """JPEG (not CMYK) and WebP without alpha go to OpenCV; the rest to Pillow."""
    return (im.format in ("JPEG", "MPO") and im.mode in ("RGB", "L")) or (im.format == "WEBP" and im.mode == "RGB")


def decode_cost(im: Image.Image, max_side: int) -> int:
    """Bytes of memory decoding the opened (not loaded) ``im`` will take, at most.

    JPEG via OpenCV: the DCT-scaled RGB output, plus the coefficient buffer of a
    progressive JPEG.  Other formats: the full image in Pillow's storage for its mode
    (``RGB`` takes 4 bytes a pixel), plus the copies that mode and format make before the
    image is small (``_MODE_EXTRA``, ``_FORMAT_EXTRA``), plus the working image.
    """
    w, h = im.size
    work = 4 * min(w * h, 4 * max_side * max_side) + _DECODER_FIXED
    if im.format == "WEBP" and _uses_opencv(im):
        return _OPENCV_WEBP_BYTES * w * h + work
    if im.format in ("JPEG", "MPO"):  # OpenCV, or Pillow's own DCT scaling for CMYK
        f = jpeg_reduction(w, h, max_side)
        per_px = 3 if _uses_opencv(im) else 8
        return per_px * math.ceil(w / f) * math.ceil(h / f) + _jpeg_coefficients(im) + work
    per_px = _MODE_BYTES.get(im.mode, 4) + _MODE_EXTRA.get(im.mode, 0) + _FORMAT_EXTRA.get(im.format, 0)
    return math.ceil(per_px * w * h) + work


def _describe(im: Image.Image) -> str:
    bits = {"I;16": "16-bit ", "I;16B": "16-bit ", "I;16L": "16-bit ", "I": "32-bit ", "F": "32-bit float "}
    kind = {"L": "greyscale", "I;16": "greyscale", "I;16B": "greyscale", "I;16L": "greyscale", "I": "greyscale",
            "F": "greyscale", "P": "palette", "LA": "greyscale + alpha", "RGBA": "RGBA", "PA": "palette + alpha"}
    prog = "progressive " if im.format == "JPEG" and _jpeg_coefficients(im) else ""
    return f"{prog}{bits.get(im.mode, '')}{kind.get(im.mode, im.mode)} {im.format}"


def _array_rgb8(a: np.ndarray) -> np.ndarray:
    """``(H, W)``, ``(H, W, 1|3|4)`` uint8 / uint16 / float (0-1) -> ``(H, W, 3)`` uint8 RGB.

    16-bit values are scaled (``v // 257``), not clipped; alpha is composited onto white.
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
        b = (a // 257).astype(np.uint8)
    elif np.issubdtype(a.dtype, np.floating):
        b = (np.clip(a, 0, 1) * 255).astype(np.uint8)
    else:
        raise ValueError(f"image array: expected dtype uint8, uint16 or float, got {a.dtype}")
    if b.ndim == 3 and b.shape[2] == 1:
        b = b[..., 0]
    if b.ndim == 2:
        return cv2.cvtColor(b, cv2.COLOR_GRAY2RGB)
    if b.shape[2] == 4:
        alpha = b[..., 3:4].astype(np.uint16)
        rgb = (b[..., :3].astype(np.uint16) * alpha + 255 * (255 - alpha) + 127) // 255
        return rgb.astype(np.uint8)
    return np.ascontiguousarray(b)


def to_rgb8(im: Image.Image) -> Image.Image:
    """Any PIL mode -> 8-bit RGB.  16-bit and 32-bit grayscale are scaled down, not clipped;
    alpha is composited onto white.  Costs a copy of the image in the 8-bit mode (shrink a
    big image first: :func:`load_image` does)."""
    return Image.fromarray(_pil_rgb8(im), "RGB")


def _pil_rgb8(im: Image.Image) -> np.ndarray:
    if im.mode == "RGB":
        return np.asarray(im)
    if im.mode in ("I;16", "I;16B", "I;16L", "I;16N"):
        return _array_rgb8(np.asarray(im).astype(np.uint16, copy=False))
    if im.mode in ("I", "F"):
        a = np.asarray(im)
        hi = 255.0 if a.size == 0 or a.max() <= 255 else 65535.0
        return _array_rgb8(np.clip(a / hi * 255.0, 0, 255).astype(np.uint8))
    if im.mode in ("RGBA", "LA", "PA", "La", "RGBa") or (im.mode == "P" and "transparency" in im.info):
        return _array_rgb8(np.asarray(im.convert("RGBA")))
    return np.asarray(im.convert("RGB"))


def from_array(a: np.ndarray) -> Image.Image:
    """``(H, W)``, ``(H, W, 3)`` or ``(H, W, 4)`` array (uint8, uint16 or float 0-1) -> RGB.

    Raises ValueError naming the expected and actual shape or dtype.
    """
    return Image.fromarray(_array_rgb8(a), "RGB")


def _orient(a: np.ndarray, orientation: int) -> np.ndarray:
    """Apply an EXIF orientation (1-8) to an ``(H, W, C)`` array, as ``ImageOps.exif_transpose``."""
    ops = {
        2: lambda x: x[:, ::-1],
        3: lambda x: x[::-1, ::-1],
        4: lambda x: x[::-1],
        5: lambda x: x.transpose(1, 0, 2),
        6: lambda x: np.rot90(x, -1),
        7: lambda x: np.rot90(x, -1)[::-1],
        8: lambda x: np.rot90(x, 1),
    }
    op = ops.get(orientation)
    return np.ascontiguousarray(op(a)) if op else a


def _open_header(data, name: str) -> Image.Image:
    """Identify ``data`` (bytes or a seekable binary file) as one of :data:`FORMATS` and
    read its header (no pixels).

    Pillow's own decompression-bomb check is skipped here (it reports no size); the caller
    checks :data:`MAX_PIXELS` and :func:`decode_cost` with the real figures.
    """
    Image.preinit()
    if isinstance(data, (bytes, bytearray, memoryview)):
        prefix, fp = bytes(data[:16]), None
    else:
        fp = data
        prefix = fp.read(16)
    for fmt in FORMATS:
        if fmt not in Image.OPEN:
            Image.init()
        if fmt not in Image.OPEN:
            continue
        factory, accept = Image.OPEN[fmt]
        ok = accept(prefix) if accept else True
        if not ok or isinstance(ok, str):
            continue
        try:
            if fp is None:
                return factory(io.BytesIO(data), "")
            fp.seek(0)
            return factory(fp, "")
        except (SyntaxError, IndexError, TypeError, ValueError, EOFError, OSError, KeyError):
            raise ImageError(f"{name}: the file is truncated or damaged; take or send the photo again") from None
    raise ImageError(f"{name}: not a photo this app can open (it reads {READS})")


def _read(src) -> tuple[bytes, str]:
    name = str(src) if isinstance(src, (str, Path)) else "<image>"
    if isinstance(src, (str, Path)):
        try:
            return Path(src).read_bytes(), name
        except FileNotFoundError:
            raise ImageError(f"{name}: no such file") from None
        except IsADirectoryError:
            raise ImageError(f"{name}: is a directory, expected an image file") from None
        except OSError as e:
            raise ImageError(f"{name}: cannot read ({e.strerror or e})") from None
    if isinstance(src, (bytes, bytearray, memoryview)):
        return bytes(src), name
    return src.read(), name


@dataclass(frozen=True)
class Probe:
    """What a photo's header says, read without decoding a pixel.

    ``format`` (Pillow's name), ``mode`` (Pillow's pixel mode), ``size`` ``(width, height)``
    as stored, in pixels; ``cost``: bytes of memory its decode takes at most
    (:func:`decode_cost`), within :data:`MAX_DECODE_BYTES`; ``nbytes``: the file's size.
    """

    format: str
    mode: str
    size: tuple[int, int]
    cost: int
    nbytes: int


def _check_heif(head: bytes, name: str) -> None:
    """Register pillow-heif for a HEIC/HEIF file, or refuse it in words when it is missing."""
    if _looks_heif(bytes(head[:16])) and not _register_heif():
        raise ImageError(
            f"{name}: HEIC/HEIF photo and pillow-heif is not installed "
            "(pip install pillow-heif), or export it as JPEG"
        )


def check_header(im: Image.Image, name: str, max_side: int) -> int:
    """Refuse (``ImageError``) an opened photo over :data:`MAX_PIXELS` or whose decode would
    take more than :data:`MAX_DECODE_BYTES`; both messages give the real figures.  Returns
    the decode cost in bytes."""
    w, h = im.size
    if w * h > MAX_PIXELS:
        raise ImageError(too_large(name, w, h))
    cost = decode_cost(im, max_side)
    if cost > MAX_DECODE_BYTES:
        raise ImageError(too_costly(name, w, h, _describe(im), cost))
    return cost


def probe(src, max_side: int = 1280, name: str = "<image>") -> Probe:
    """Read a photo's header from bytes or a seekable binary file (left at its start) and
    check its limits.  Raises :class:`vision.errors.ImageError` like :func:`load_image`."""
    if isinstance(src, (bytes, bytearray, memoryview)):
        data, nbytes = bytes(src[:16]), len(src)
        fp = io.BytesIO(src)
    else:
        fp = src
        fp.seek(0, io.SEEK_END)
        nbytes = fp.tell()
        fp.seek(0)
        data = fp.read(16)
        fp.seek(0)
    if nbytes == 0:
        raise ImageError(f"{name}: empty file, expected an image")
    try:
        _check_heif(data, name)
        im = _open_header(fp, name)
        cost = check_header(im, name, max_side)
        return Probe(im.format or "", im.mode, im.size, cost, nbytes)
    finally:
        if not isinstance(src, (bytes, bytearray, memoryview)):
            fp.seek(0)


def load_image(src, max_side: int = 1280) -> Loaded:
    """Open a photo from a path, bytes, a file object, a PIL image or a numpy array.

    Applies EXIF orientation, converts to 8-bit RGB, and reduces the long side to at most
    about ``max_side`` px (JPEGs via DCT scaling, which decodes 12 MP in a fraction of the
    time).  A :class:`Loaded` is returned as it is (shrunk if its long side is over
    ``max_side``).  Raises :class:`vision.errors.ImageError` for a missing, empty, truncated
    or non-image file, for HEIC without pillow-heif, for images over :data:`MAX_PIXELS`, and
    for images whose decode would take over :data:`MAX_DECODE_BYTES`.
    """
    if isinstance(src, Loaded):
        if max(src.array.shape[:2]) <= max_side:
            return src
        return _shrink(src.array, src.size, max_side)
    if isinstance(src, np.ndarray):
        a = _array_rgb8(src)
        return _shrink(a, (a.shape[1], a.shape[0]), max_side)
    if isinstance(src, Image.Image):
        a = _pil_rgb8(ImageOps.exif_transpose(src))
        return _shrink(a, (a.shape[1], a.shape[0]), max_side)
    data, name = _read(src)
    if not data:
        raise ImageError(f"{name}: empty file, expected an image")
    _check_heif(data, name)
    im = _open_header(data, name)
    check_header(im, name, max_side)
    w, h = im.size
    try:
        orient = int(im.getexif().get(0x0112, 1) or 1)
    except (SyntaxError, ValueError, TypeError, OSError, KeyError, IndexError, EOFError):
        orient = 1  # a broken EXIF block: show the photo as stored
    full = (w, h) if orient not in (5, 6, 7, 8) else (h, w)
    try:
        if not _uses_opencv(im):
            a = _decode_pillow(im, max_side)
        elif im.format == "WEBP":
            a = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR_RGB | cv2.IMREAD_IGNORE_ORIENTATION)
        else:
            a = _decode_jpeg(data, w, h, max_side)
    except ImageError:
        raise
    except UnidentifiedImageError:
        raise ImageError(f"{name}: not a photo this app can open (it reads {READS})") from None
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError, cv2.error):
        raise ImageError(f"{name}: the file is truncated or damaged; take or send the photo again") from None
    if a is None:
        raise ImageError(f"{name}: the file is truncated or damaged; take or send the photo again")
    return _shrink(_orient(a, orient), full, max_side)


def _decode_jpeg(data: bytes, w: int, h: int, max_side: int) -> np.ndarray | None:
    """OpenCV's JPEG decode, DCT-scaled by :func:`jpeg_reduction`; None if damaged."""
    f = jpeg_reduction(w, h, max_side)
    reduced = {1: 0, 2: cv2.IMREAD_REDUCED_GRAYSCALE_2, 4: cv2.IMREAD_REDUCED_GRAYSCALE_4,
               8: cv2.IMREAD_REDUCED_GRAYSCALE_8}[f]
    flags = reduced | cv2.IMREAD_COLOR_RGB | cv2.IMREAD_IGNORE_ORIENTATION
    return cv2.imdecode(np.frombuffer(data, np.uint8), flags)


def _decode_pillow(im: Image.Image, max_side: int) -> np.ndarray:
    """Pillow's decode in the file's own mode, shrunk in that mode, then made 8-bit RGB."""
    w, h = im.size
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        if im.format in ("JPEG", "MPO") and max(w, h) > max_side:  # CMYK JPEG: Pillow's DCT scaling
            f = jpeg_reduction(w, h, max_side)
            im.draft(im.mode, (math.ceil(w / f), math.ceil(h / f)))
        im.load()
    if im.mode not in ("L", "RGB", "RGBA", "LA", "I", "F", "I;16", "I;16B", "I;16L", "I;16N"):
        im = im.convert("RGBA" if im.mode in ("PA",) or "transparency" in im.info else "RGB")
    if max(im.size) > max_side:
        r = max_side / max(im.size)
        im = im.resize((max(1, round(im.size[0] * r)), max(1, round(im.size[1] * r))), Image.Resampling.BOX)
    return _pil_rgb8(im)


def _shrink(a: np.ndarray, full: tuple[int, int], max_side: int) -> Loaded:
    h, w = a.shape[:2]
    if max(w, h) > max_side:
        r = max_side / max(w, h)
        a = cv2.resize(a, (max(1, round(w * r)), max(1, round(h * r))), interpolation=cv2.INTER_AREA)
    return Loaded(a, full[0] / a.shape[1], (int(full[0]), int(full[1])))
