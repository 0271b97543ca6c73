"""Loading photos: orientation, modes, sizes and bad input (tiny synthetic images)."""

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

import vision.imageio as vio
from vision.errors import ImageError
from vision.imageio import from_array, load_image


def jpeg_bytes(im: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "JPEG", **kw)
    return buf.getvalue()


def test_exif_orientation_is_applied():
    im = Image.new("RGB", (40, 20), (200, 0, 0))
    im.paste((0, 0, 200), (0, 0, 10, 20))  # blue stripe on the left
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to display
    loaded = load_image(jpeg_bytes(im, exif=exif.tobytes(), quality=95))
    assert loaded.image.size == (20, 40)
    assert loaded.size == (20, 40)
    top = np.asarray(loaded.image)[2, 10]
    assert top[2] > 150 > top[0]  # the left stripe is now at the top


def test_big_jpeg_is_decoded_smaller_and_scale_maps_back():
    im = Image.new("RGB", (2400, 1800), (10, 120, 30))
    loaded = load_image(jpeg_bytes(im), max_side=1000)
    assert max(loaded.image.size) <= 1000
    assert loaded.size == (2400, 1800)
    assert loaded.scale == pytest.approx(2400 / loaded.image.size[0])


def test_sixteen_bit_grayscale_is_scaled_not_clipped(tmp_path):
    a = np.full((8, 8), 32768, dtype=np.uint16)
    p = tmp_path / "g16.png"
    Image.fromarray(a).save(p)
    loaded = load_image(p)
    assert loaded.image.mode == "RGB"
    assert np.asarray(loaded.image)[0, 0].tolist() == [127, 127, 127]


def test_rgba_is_composited_on_white(tmp_path):
    p = tmp_path / "a.png"
    Image.new("RGBA", (4, 4), (255, 0, 0, 0)).save(p)
    assert np.asarray(load_image(p).image)[0, 0].tolist() == [255, 255, 255]


def test_grayscale_and_palette(tmp_path):
    Image.new("L", (5, 3), 77).save(tmp_path / "l.png")
    Image.new("P", (5, 3), 3).save(tmp_path / "p.gif")
    for name in ("l.png", "p.gif"):
        loaded = load_image(tmp_path / name)
        assert loaded.image.mode == "RGB"
        assert loaded.size == (5, 3)


@pytest.mark.parametrize(
    ("array", "expected"),
    [
        (np.zeros((4, 5), np.uint8), (5, 4)),
        (np.zeros((4, 5, 3), np.uint8), (5, 4)),
        (np.zeros((4, 5, 4), np.uint8), (5, 4)),
        (np.zeros((4, 5, 3), np.uint16), (5, 4)),
        (np.zeros((4, 5, 3), np.float32), (5, 4)),
    ],
)
def test_arrays(array, expected):
    assert load_image(array).image.size == expected


@pytest.mark.parametrize(
    ("array", "message"),
    [
        (np.zeros((4, 5, 2), np.uint8), r"expected shape .* got \(4, 5, 2\)"),
        (np.zeros((4,), np.uint8), r"got \(4,\)"),
        (np.zeros((4, 5, 3), np.int64), "expected dtype uint8, uint16 or float, got int64"),
    ],
)
def test_bad_arrays_name_expected_and_actual(array, message):
    with pytest.raises(ValueError, match=message):
        from_array(array)


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    (tmp_path / "empty.jpg").write_bytes(b"")
    with pytest.raises(ImageError, match="empty file"):
        load_image(tmp_path / "empty.jpg")
    with pytest.raises(ImageError, match="is a directory"):
        load_image(tmp_path)


def test_not_an_image(tmp_path):
    p = tmp_path / "notes.jpg"
    p.write_text("these are not pixels\n")
    with pytest.raises(ImageError, match="not a photo this app can open"):
        load_image(p)


def test_truncated_jpeg(tmp_path):
    data = jpeg_bytes(Image.effect_noise((200, 200), 50).convert("RGB"))
    p = tmp_path / "cut.jpg"
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImageError, match="truncated or damaged; take or send the photo again"):
        load_image(p)


def _png_header_only(width: int, height: int) -> bytes:
    def chunk(kind, body):
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 16))
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("side", [11000, 30000])  # 121 MP (our limit), 900 MP (Pillow's)
def test_decompression_bomb_is_refused_before_decoding(side):
    with pytest.raises(ImageError, match=r"too large to read safely .*the limit is 120"):
        load_image(_png_header_only(side, side))


def test_heic_without_decoder_gives_clear_message(monkeypatch):
    monkeypatch.setattr(vio, "_register_heif", lambda: False)
    fake = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64
    with pytest.raises(ImageError, match="pillow-heif"):
        load_image(fake)


def test_heic_roundtrip_with_pillow_heif():
    pillow_heif = pytest.importorskip("pillow_heif", reason="pillow-heif not installed")
    im = Image.new("RGB", (64, 48), (0, 128, 255))
    try:
        heif = pillow_heif.from_pillow(im)
        buf = io.BytesIO()
        heif.save(buf, quality=90)
    except (RuntimeError, ValueError, OSError) as e:  # no HEVC encoder in this build
        pytest.skip(f"pillow-heif cannot encode HEIC here: {e}")
    loaded = load_image(buf.getvalue())
    assert loaded.size == (64, 48)
    r, _, b = np.asarray(loaded.image)[24, 32].tolist()
    assert b > 200
    assert r < 50
