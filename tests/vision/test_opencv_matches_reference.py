"""OpenCV agrees with the Pillow / NumPy code it replaced (tests/vision/vision_reference.py).

Issue 9, item 6: rotated NMS, upright crops, the letterbox resize and the reduced JPEG
decode moved to OpenCV; these tests pin that the outputs stay the same within a tolerance.
"""

import io
import math

import numpy as np
import pytest
from PIL import Image, ImageOps
from vision_reference import crop_quad_pil, decode_jpeg_pil, letterbox_pil, nms_probiou, probiou

from vision.geometry import CROP_SIZE, crop_obb, crop_obbs, nms_obb
from vision.imageio import load_image
from vision.postprocess import letterbox


def _fan(n: int, pivot=(300.0, 420.0), radius=180.0, step_deg=7.0, strip=18.0, length=110.0):
    """Visible strips of a fan held in a hand: each card shows a thin strip along its long
    edge, turned ``step_deg`` from the next around a common pivot (``w`` = the strip's
    thickness across the fan, ``h`` = its length along the card; neighbours overlap a
    little near the pivot)."""
    rows = []
    for k in range(n):
        t = math.radians(-90 + (k - n / 2) * step_deg)
        cx, cy = pivot[0] + radius * math.cos(t), pivot[1] + radius * math.sin(t)
        rows.append([cx, cy, strip, length, t + math.pi / 2])
    return np.array(rows)


NMS_CASES = {
    "near-duplicates and a loner": (
        np.array([[100, 100, 40, 60, 0.1], [101, 100, 40, 60, 0.1], [300, 300, 40, 60, 1.0]]),
        np.array([0.9, 0.8, 0.7]),
    ),
    "a row of strips, each 30 px below the last": (
        np.array([[100, 100 + 30 * k, 60, 30, 0.0] for k in range(5)]),
        np.linspace(0.9, 0.8, 5),
    ),
    "a fan of 12 thin strips": (_fan(12), np.linspace(0.95, 0.6, 12)),
    "a fan of 12 thin strips, each detected twice": (
        np.concatenate([_fan(12), _fan(12) + np.array([1.5, -1.0, 2.0, 3.0, 0.01])]),
        np.concatenate([np.linspace(0.95, 0.6, 12), np.linspace(0.9, 0.55, 12)]),
    ),
    "a stack: one box found five times, slightly shifted": (
        np.array([[200 + d, 150 - d, 90, 140, 0.5 + d / 100] for d in range(5)]),
        np.array([0.5, 0.9, 0.7, 0.8, 0.6]),
    ),
    "equal scores keep their order": (
        np.array([[50, 50, 20, 20, 0.0], [400, 50, 20, 20, 0.0], [50, 400, 20, 20, 0.0]]),
        np.array([0.5, 0.5, 0.5]),
    ),
    "no candidates": (np.zeros((0, 5)), np.zeros(0)),
}


@pytest.mark.parametrize(("obbs", "scores"), NMS_CASES.values(), ids=NMS_CASES.keys())
def test_opencv_nms_keeps_the_same_boxes_as_probiou_nms(obbs, scores):
    kept = nms_obb(obbs, scores, iou=0.5)
    assert kept.tolist() == nms_probiou(obbs, scores, iou=0.5).tolist()
    assert kept.dtype == np.int64


def test_fan_strips_all_survive_and_duplicates_go():
    fan = _fan(12)
    assert len(nms_obb(fan, np.linspace(0.95, 0.6, 12))) == 12
    obbs, scores = NMS_CASES["a fan of 12 thin strips, each detected twice"]
    assert sorted(nms_obb(obbs, scores).tolist()) == list(range(12))


def test_nms_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match=r"expected shape \(2,\), got \(3,\)"):
        nms_obb(np.zeros((2, 5)), np.zeros(3))
    with pytest.raises(ValueError, match=r"expected shape \(N, 5\)"):
        nms_obb(np.zeros((2, 4)), np.zeros(2))


def test_reference_probiou_identity_and_disjoint():
    a = np.array([[10, 10, 4, 8, 0.3]])
    b = np.array([[100, 100, 4, 8, 0.3]])
    assert probiou(a, a)[0, 0] == pytest.approx(1.0, abs=1e-3)
    assert probiou(a, b)[0, 0] == pytest.approx(0.0, abs=1e-3)


def _photo_like(w=640, h=480, seed=0) -> np.ndarray:
    """A smooth image with edges (gradients, blocks, mild noise): photo-like content."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    a = np.stack([x * 255 / w, y * 255 / h, (x + y) * 127 / (w + h) + 64], -1)
    for _ in range(12):
        x0, y0 = rng.integers(0, w - 60), rng.integers(0, h - 60)
        a[y0 : y0 + rng.integers(20, 120), x0 : x0 + rng.integers(20, 120)] = rng.integers(0, 256, 3)
    a += rng.normal(0, 4, a.shape)
    return np.clip(a, 0, 255).astype(np.uint8)


def _boxes_inside(n=24, seed=1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.stack(
        [rng.uniform(200, 440, n), rng.uniform(180, 300, n), rng.uniform(40, 120, n), rng.uniform(60, 160, n),
         rng.uniform(-math.pi, math.pi, n)], 1)


@pytest.mark.parametrize("flip", [False, True], ids=["upright", "turned 180"])
def test_opencv_crops_agree_with_pillow_quad_crops(flip):
    a = _photo_like()
    im = Image.fromarray(a)
    for obb in _boxes_inside():
        ours = crop_obb(a, obb, CROP_SIZE, flip=flip).astype(int)
        ref = np.asarray(crop_quad_pil(im, obb, CROP_SIZE, flip=flip)).astype(int)
        diff = np.abs(ours - ref)
        assert ours.shape == ref.shape == (CROP_SIZE[1], CROP_SIZE[0], 3)
        assert diff.mean() < 0.75, obb
        assert np.percentile(diff, 99) <= 3, obb


def test_crop_of_a_pil_image_is_a_pil_image_and_outside_is_black():
    im = Image.new("RGB", (100, 100), (0, 0, 255))
    crop = crop_obb(im, (50, 50, 60, 20, 0.0))
    assert isinstance(crop, Image.Image)
    assert crop.size == CROP_SIZE
    corner = crop_obb(np.asarray(im), (0, 0, 40, 40, 0.0))
    assert corner[5, 5].tolist() == [0, 0, 0]  # up-left of the image: outside
    assert corner[-5, -5].tolist() == [0, 0, 255]
    assert crop_obbs(np.asarray(im), np.zeros((0, 5))).shape == (0, CROP_SIZE[1], CROP_SIZE[0], 3)


@pytest.mark.parametrize("blur", [0.0, 1.5], ids=["sharp", "1.5 px blur (shipped)"])
@pytest.mark.parametrize("size", [(1008, 756), (756, 1008), (300, 200)], ids=["landscape", "portrait", "upscaled"])
def test_opencv_letterbox_agrees_with_pillow(size, blur):
    a = _photo_like(*size)
    x, r, pad = letterbox(a, 512, blur)
    xr, rr, padr = letterbox_pil(Image.fromarray(a), 512, blur)
    assert (r, pad) == (rr, padr)
    diff = np.abs(x - xr) * 255
    assert diff.mean() < 1.0
    assert np.percentile(diff, 99) <= 6


def _jpeg(a: np.ndarray, orientation: int = 1, **kw) -> bytes:
    exif = Image.Exif()
    if orientation != 1:
        exif[0x0112] = orientation
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, "JPEG", quality=90, exif=exif.tobytes(), **kw)
    return buf.getvalue()


@pytest.mark.parametrize("orientation", range(1, 9), ids=[f"EXIF orientation {o}" for o in range(1, 9)])
def test_opencv_reduced_jpeg_decode_agrees_with_pillow_draft(orientation):
    data = _jpeg(_photo_like(2400, 1600), orientation)
    ours = load_image(data, max_side=1280)
    ref = decode_jpeg_pil(data, 1280)
    assert ours.array.shape == ref.shape  # same DCT scale (1/2) and the same orientation
    assert np.abs(ours.array.astype(int) - ref.astype(int)).mean() < 1.0
    assert ours.size == (ref.shape[1] * 2, ref.shape[0] * 2)


@pytest.mark.parametrize(
    ("mode", "kw"),
    [("L", {}), ("RGB", {"progressive": True}), ("RGB", {"subsampling": 0}), ("CMYK", {})],
    ids=["greyscale", "progressive", "4:4:4", "CMYK (Pillow's decode)"],
)
def test_other_jpeg_kinds_agree_with_pillow(mode, kw):
    im = Image.fromarray(_photo_like(1800, 1200)).convert(mode)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=90, **kw)
    ours = load_image(buf.getvalue(), max_side=1280)
    ref = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(buf.getvalue()))).convert("RGB"))
    ref = np.asarray(Image.fromarray(ref).resize((ours.array.shape[1], ours.array.shape[0]), Image.Resampling.BOX))
    assert ours.size == (1800, 1200)
    assert np.abs(ours.array.astype(int) - ref.astype(int)).mean() < 2.0


@pytest.mark.parametrize(
    ("b", "expected"),
    [
        ([10, 10, 4, 8, 0.3], 1.0),
        ([100, 10, 4, 8, 0.3], 0.0),
        ([11, 10, 4, 8, 0.0], 24 / 40),  # axis-aligned: 3 x 8 overlap of two 4 x 8 boxes
        ([10, 10, 2, 8, 0.0], 0.5),  # half the box, inside it
    ],
    ids=["same box", "disjoint", "shifted by a quarter", "inside"],
)
def test_polygon_iou_used_for_matching(b, expected):
    from vision.geometry import obb_iou

    a = np.array([[10.0, 10, 4, 8, 0.3 if expected in (1.0, 0.0) else 0.0]])
    got = obb_iou(a, np.array([b], float))
    assert got.shape == (1, 1)
    assert got[0, 0] == pytest.approx(expected, abs=1e-4)
