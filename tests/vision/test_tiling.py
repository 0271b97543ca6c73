"""Test-time tiling of the localiser (vision/tiling.py, Detector(tiles=...)): the windows, and
boxes mapped from a window back to photo pixels (docs/VISION.md, "Detector levers compared")."""

import itertools

import numpy as np
import pytest
from test_detect_pipeline import fake_detector

from vision.detector import Detector
from vision.errors import ModelError
from vision.tiling import cut_by_window, tile_windows, window_to_photo


@pytest.mark.parametrize(
    ("width", "height", "n", "overlap"),
    [(1280, 960, 2, 1 / 3), (960, 1280, 3, 0.25), (1000, 1000, 2, 0.0), (7, 5, 3, 0.5)],
    ids=["2x2 landscape", "3x3 portrait", "2x2 no overlap", "tiny photo"],
)
def test_windows_cover_the_photo_and_neighbours_share_the_overlap(width, height, n, overlap):
    wins = tile_windows(width, height, n, overlap)
    assert len(wins) == n * n
    xs = sorted({(x0, x1) for x0, _, x1, _ in wins})
    ys = sorted({(y0, y1) for _, y0, _, y1 in wins})
    for spans, side in ((xs, width), (ys, height)):
        assert spans[0][0] == 0
        assert spans[-1][1] == side
        win = side / (n - (n - 1) * overlap)
        for (_, a1), (b0, _) in itertools.pairwise(spans):
            assert b0 <= a1  # no gap
            if side > 100:
                assert a1 - b0 == pytest.approx(overlap * win, abs=1.5)


def test_one_window_is_the_whole_photo():
    assert tile_windows(640, 480, 1) == [(0, 0, 640, 480)]


@pytest.mark.parametrize(
    ("n", "overlap", "size", "match"),
    [
        (0, 0.3, (10, 10), "window"),
        (2, 1.0, (10, 10), "overlap"),
        (2, -0.1, (10, 10), "overlap"),
        (2, 0.3, (0, 10), "photo size"),
    ],
    ids=["no windows", "overlap 1", "negative overlap", "empty photo"],
)
def test_bad_tiling_is_refused(n, overlap, size, match):
    with pytest.raises(ValueError, match=match):
        tile_windows(*size, n, overlap)


def test_bad_tiling_is_refused_by_the_detector():
    with pytest.raises(ValueError, match="overlap"):
        Detector(tiles=2, tile_overlap=1.5)
    with pytest.raises(ModelError):  # the backend is checked first, as before
        Detector("nope", tiles=0)


def test_window_boxes_move_by_the_window_corner_only():
    obbs = np.array([[10.0, 20, 30, 40, 0.3], [0, 0, 5, 5, -1.0]])
    out = window_to_photo(obbs, (100, 200, 400, 500))
    assert out[:, :2] == pytest.approx(np.array([[110.0, 220], [100, 200]]))
    assert out[:, 2:] == pytest.approx(obbs[:, 2:])
    assert obbs[0, 0] == 10.0  # the input is not changed


@pytest.mark.parametrize(
    ("box", "cut"),
    [
        ((300, 250, 40, 80, 0.0), False),  # well inside the window
        ((395, 250, 20, 80, 0.0), True),  # reaches the window's right edge, inside the photo
        ((250, 495, 40, 20, 0.0), True),  # reaches the bottom edge, inside the photo
        ((250, 102, 40, 20, 0.0), True),  # reaches the top edge, inside the photo
        ((5, 250, 20, 80, 0.0), False),  # the window's left edge is the photo's border
        ((380, 250, 10, 40, np.pi / 4), True),  # a turned box: its corner crosses the edge
        ((380, 250, 10, 10, 0.0), False),  # 10 px from the edge, margin 4
    ],
    ids=["inside", "cut right", "cut bottom", "cut top", "photo border", "turned corner", "near, not cut"],
)
def test_boxes_cut_by_an_inner_window_edge_are_found(box, cut):
    # window x 0-400, y 100-500 of a 1000 x 1000 photo: its top, right and bottom edges lie
    # inside the photo, its left edge is the photo's border; margin 4 px
    win, size = (0, 100, 400, 500), (1000, 1000)
    got = cut_by_window(np.array([box], float), win, size, margin=4)
    assert got.tolist() == [cut]


def test_no_boxes_no_cuts():
    assert cut_by_window(np.zeros((0, 5)), (0, 0, 10, 10), (20, 20), 1).shape == (0,)


def test_tiled_localiser_maps_window_boxes_to_photo_pixels():
    # the stand-in localiser returns one box at model (256, 256), 40 x 80, in every pass;
    # 1024 x 1024 photo, 2 x 2 windows with overlap 1/3: spans (0, 614) and (410, 1024),
    # each window 614 px letterboxed to 512 without padding (r = 512 / 614)
    det = fake_detector((256, 256, 40, 80, 0.0))
    det.tiles = 2
    obbs, scores = det.localise(np.zeros((1024, 1024, 3), np.uint8))
    r = 512 / 614
    want = [(512, 512, 80, 160)]  # the whole-photo pass, r = 0.5
    want += [(x0 + 256 / r, y0 + 256 / r, 40 / r, 80 / r) for y0 in (0, 410) for x0 in (0, 410)]
    got = np.array(sorted(map(tuple, obbs[:, :4])))
    assert got == pytest.approx(np.array(sorted(want)), abs=0.6)
    assert scores == pytest.approx([0.9] * 5)


def test_tiled_localiser_drops_boxes_cut_by_a_window_edge():
    # model box at (500, 256), 20 x 80: in a left-column window it spans photo x 587.6-611.6,
    # within 3 model px (3.6 photo px) of the window's right edge at 614, inside the photo:
    # cut, dropped; in a right-column window that edge is the photo's border: kept
    det = fake_detector((500, 256, 20, 80, 0.0))
    det.tiles = 2
    obbs, _ = det.localise(np.zeros((1024, 1024, 3), np.uint8))
    r = 512 / 614
    want = [(1000, 512)] + [(410 + 500 / r, y0 + 256 / r) for y0 in (0, 410)]
    got = np.array(sorted(map(tuple, obbs[:, :2])))
    assert got == pytest.approx(np.array(sorted(want)), abs=0.6)


def test_tiling_is_off_by_default():
    det = fake_detector((256, 256, 40, 80, 0.0))
    obbs, _ = det.localise(np.zeros((1024, 1024, 3), np.uint8))
    assert obbs[:, :4] == pytest.approx(np.array([[512, 512, 80, 160]]), abs=0.6)
    assert Detector.__init__.__kwdefaults__["tiles"] == 1
