"""Every decode is bounded before it starts (issue 10, items 3 and 5).

Crafted files claim huge sizes in a few hundred bytes.  Each is refused from its header,
with its real size and the real limit in the words, before any pixel is decoded: the tests
give the decoder truncated data, so they need no memory to fail where a decode would start.
"""

import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import vision.imageio as vio
from vision.errors import ImageError
from vision.imageio import MAX_DECODE_BYTES, MAX_PIXELS, decode_cost, load_image, probe

ROOT = Path(__file__).resolve().parents[2]


def png_header(width: int, height: int, bit_depth: int = 8, colour: int = 2) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` (colour type 0 grey, 2 RGB, 3
    palette, 4 grey+alpha, 6 RGBA) followed by a few bytes of pixel data."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour, 0, 0, 0)
    plte = chunk(b"PLTE", b"\x00\x00\x00\xff\xff\xff") if colour == 3 else b""
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + plte
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


def progressive_jpeg_header(width: int, height: int) -> bytes:
    """A small progressive JPEG whose frame header (SOF2) is patched to ``width`` x ``height``."""
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (10, 200, 30)).save(buf, "JPEG", progressive=True)
    data = bytearray(buf.getvalue())
    i = data.find(b"\xff\xc2")
    data[i + 5 : i + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def gif_header(width: int, height: int) -> bytes:
    """A small GIF whose screen and first image descriptor are patched to ``width`` x ``height``."""
    buf = io.BytesIO()
    Image.new("P", (64, 48)).save(buf, "GIF")
    data = bytearray(buf.getvalue())
    data[6:10] = struct.pack("<HH", width, height)
    i = data.find(b"\x2c", 13)
    data[i + 5 : i + 9] = struct.pack("<HH", width, height)
    return bytes(data)


# the crafted uploads, and one of each kind whose decode would cost too much
REFUSED = {
    "16-bit greyscale PNG 10950x10950 (the issue's 233 KB file)": (
        png_header(10950, 10950, 16, 0), r"about 270 MiB of memory \(10950x10950 pixels, 16-bit greyscale PNG\); "
        r"the limit is 256 MiB"),
    "RGBA PNG 9000x9000 (8 bytes a pixel while it is shrunk)": (
        png_header(9000, 9000, 8, 6), r"about \d+ MiB of memory \(9000x9000 pixels, RGBA PNG\); the limit is 256 MiB"),
    "RGB PNG 9000x8000": (
        png_header(9000, 8000, 8, 2), r"\(9000x8000 pixels, RGB PNG\); the limit is 256 MiB"),
    "progressive JPEG 10000x10000 (coefficient buffer)": (
        progressive_jpeg_header(10000, 10000), r"\(10000x10000 pixels, progressive RGB JPEG\); the limit is 256 MiB"),
    "palette GIF 12000x9000": (
        gif_header(12000, 9000), r"\(12000x9000 pixels, palette GIF\); the limit is 256 MiB"),
    "196 MP PNG: the real size and the real limit": (
        png_header(14000, 14000), r"14000x14000 pixels, 196 megapixels; the limit is 120 megapixels"),
    "121 MP PNG, just over": (
        png_header(11000, 11000, 8, 0), r"11000x11000 pixels, 121 megapixels; the limit is 120 megapixels"),
    "900 MP PNG (over Pillow's own bomb limit)": (
        png_header(30000, 30000), r"30000x30000 pixels, 900 megapixels; the limit is 120 megapixels"),
}


@pytest.mark.parametrize(("data", "words"), REFUSED.values(), ids=REFUSED.keys())
def test_crafted_images_are_refused_from_the_header_with_real_figures(data, words):
    with pytest.raises(ImageError, match=words):
        load_image(data)
    with pytest.raises(ImageError, match=words):
        probe(io.BytesIO(data))


def test_megapixel_words_never_round_to_the_limit():
    assert vio.megapixels(120_400_000) == "120.4"
    assert vio.megapixels(196_000_000) == "196"
    assert "120.1 megapixels; the limit is 120 megapixels" in vio.too_large("x", 12010, 10000)


ACCEPTED = {
    "12 MP JPEG": (Image.new("RGB", (4032, 3024)), "JPEG", {}),
    "8-bit greyscale PNG 10950x10950 (the issue's 117 KB file)": (None, "PNG", {}),
    "16-bit greyscale PNG 6000x6000": (Image.new("I;16", (6000, 6000)), "PNG", {}),
    "RGBA PNG 4000x3000": (Image.new("RGBA", (4000, 3000)), "PNG", {}),
}


@pytest.mark.parametrize(("im", "fmt", "kw"), ACCEPTED.values(), ids=ACCEPTED.keys())
def test_ordinary_and_big_images_are_within_the_decode_limit(im, fmt, kw):
    data = png_header(10950, 10950, 8, 0) if im is None else _encode(im, fmt, **kw)
    head = probe(data)
    assert head.cost <= MAX_DECODE_BYTES
    assert head.nbytes == len(data)
    assert head.size[0] * head.size[1] <= MAX_PIXELS


def _encode(im: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


def test_probe_leaves_a_file_at_its_start_and_refuses_empty_files():
    f = io.BytesIO(_encode(Image.new("RGB", (40, 30)), "PNG"))
    f.seek(7)
    assert probe(f).size == (40, 30)
    assert f.tell() == 0
    with pytest.raises(ImageError, match="empty file"):
        probe(io.BytesIO(b""))


def test_formats_outside_the_photo_list_are_refused_in_words():
    data = _encode(Image.new("RGB", (8, 8)), "PPM")
    with pytest.raises(ImageError, match=r"not a photo this app can open \(it reads JPEG, PNG, HEIC, AVIF"):
        load_image(data)


def test_sixteen_bit_and_alpha_are_shrunk_before_conversion(monkeypatch):
    """The conversion to 8-bit RGB only ever sees the working-size image."""
    seen = []
    real = vio._pil_rgb8
    monkeypatch.setattr(vio, "_pil_rgb8", lambda im: seen.append(im.size) or real(im))
    for im in (Image.new("I;16", (3000, 2000), 40000), Image.new("RGBA", (3000, 2000), (255, 0, 0, 0))):
        loaded = load_image(_encode(im, "PNG"), max_side=1280)
        assert loaded.size == (3000, 2000)
    assert seen == [(1280, 853), (1280, 853)]
    assert loaded.array[0, 0].tolist() == [255, 255, 255]  # transparent: white


# ---- measured: a decode stays within the cost it reserved ---------------------------------

PROBE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from vision.imageio import load_image, probe
def hwm():
    return next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmHWM:")) * 1024
data = open(sys.argv[2], "rb").read()
cost = probe(data).cost
before = hwm()
load_image(data)
print(json.dumps({"cost": cost, "grew": hwm() - before}))
"""


def _photo(w: int, h: int) -> Image.Image:
    rng = np.random.default_rng(0)
    return Image.fromarray(rng.integers(0, 255, (h // 16 + 1, w // 16 + 1, 3), dtype=np.uint8)).resize((w, h))


MEASURED = {
    "16-bit greyscale PNG 6000x6000": lambda: _encode(Image.new("I;16", (6000, 6000), 30000), "PNG"),
    "RGBA PNG 4000x3000": lambda: _encode(_photo(4000, 3000).convert("RGBA"), "PNG", compress_level=1),
    "progressive JPEG 6000x4000": lambda: _encode(_photo(6000, 4000), "JPEG", progressive=True),
    "WebP 4000x3000": lambda: _encode(_photo(4000, 3000), "WEBP"),
    "palette GIF 6000x4000": lambda: _encode(Image.new("P", (6000, 4000)), "GIF"),
}


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc for peak RSS")
@pytest.mark.parametrize("make", MEASURED.values(), ids=MEASURED.keys())
def test_decode_memory_stays_within_its_reserved_cost(make, tmp_path):
    path = tmp_path / "photo"
    path.write_bytes(make())
    r = subprocess.run([sys.executable, "-c", PROBE, str(ROOT), str(path)], capture_output=True, text=True,
                       check=True, timeout=300)
    m = json.loads(r.stdout)
    assert 0 < m["grew"] <= m["cost"], m


def test_decode_cost_counts_progressive_coefficients():
    base = Image.open(io.BytesIO(_encode(Image.new("RGB", (4000, 3000)), "JPEG")))
    prog = Image.open(io.BytesIO(_encode(Image.new("RGB", (4000, 3000)), "JPEG", progressive=True)))
    # 4:2:0: 2 bytes a coefficient, 64 a block; luma 500x375 blocks, two chroma planes 250x188
    assert decode_cost(prog, 1280) - decode_cost(base, 1280) == 2 * 64 * (500 * 375 + 2 * 250 * 188)
