"""Detector.detect end to end with stand-in models: letterbox, scaling and EXIF mapping."""

import io

import numpy as np
import pytest
from PIL import Image

from referee.cards import CARD_IDS
from vision.detector import Detector


def fake_detector(box_in_model_px, card="paulownia-chaff-yellow", score=0.9, prob=0.95):
    """A Detector whose localiser always returns one oriented box (model-input pixels) and
    whose classifier always says ``card``."""
    det = Detector.__new__(Detector)
    det.backend, det.conf, det.iou, det.uncertain_below = "onnxruntime", 0.35, 0.5, 0.5
    det.max_side, det.tta, det.imgsz, det.pre_blur = 1280, False, 512, 1.5
    det.calibration = None  # raw confidence: localiser score x class probability
    det.zoom_out = 1.0
    det.tiles, det.tile_overlap = 1, 1 / 3
    det.boxes, det.readable_from, det.whole_reads = "visible", 0.3, 0.5
    det.same_card_iou, det.verifier = None, None
    cx, cy, w, h, a = box_in_model_px

    def loc(x):
        assert x.shape == (1, 3, 512, 512)
        out = np.zeros((1, 6, 3), np.float32)
        out[0, :, 0] = [cx, cy, w, h, score, a]
        out[0, 4, 1:] = 0.01  # below threshold
        return out

    def cls(x):
        assert x.shape[1:] == (3, 112, 72)
        logits = np.full((x.shape[0], 48), np.log((1 - prob) / 47), np.float32)
        logits[:, CARD_IDS.index(card)] = np.log(prob)
        return logits

    det._loc, det._cls = loc, cls
    return det


def jpeg(im, **kw):
    buf = io.BytesIO()
    im.save(buf, "JPEG", **kw)
    return buf.getvalue()


def test_box_maps_back_through_letterbox_and_decode_scale():
    # 2560x1280 photo -> decoded at 1/2 (1280x640) -> letterbox 512: r = 0.4, pad y = 128
    photo = jpeg(Image.new("RGB", (2560, 1280), (40, 90, 20)))
    det = fake_detector((256, 256, 40, 80, 0.0))
    (d,) = det.detect(photo)
    # model (256, 256) -> working (640, 320) -> original (1280, 640); w, h scaled by 5
    assert d.box == pytest.approx((1180, 440, 1380, 840), abs=3)
    assert d.card == "paulownia-chaff-yellow"
    assert d.confidence == pytest.approx(0.9 * 0.95, abs=1e-3)
    assert not d.uncertain


def test_box_is_in_pixels_of_the_exif_oriented_photo():
    exif = Image.Exif()
    exif[0x0112] = 6  # stored landscape, shown portrait
    photo = jpeg(Image.new("RGB", (800, 400), (90, 90, 90)), exif=exif.tobytes())
    det = fake_detector((256, 100, 20, 40, 0.0))
    (d,) = det.detect(photo)
    # oriented photo is 400x800: letterbox r = 0.64, pad x = 128
    assert d.box[2] <= 400
    assert d.box[3] <= 800
    assert d.box == pytest.approx(
        ((256 - 128 - 10) / 0.64, 80 / 0.64, (256 - 128 + 10) / 0.64, 120 / 0.64), abs=2
    )


@pytest.mark.parametrize(("same_card_iou", "found"), [(None, 2), (0.5, 1)])
def test_a_second_box_on_one_card_is_dropped_when_both_read_as_it(same_card_iou, found):
    # two boxes NMS at 0.9 keeps (IoU 0.83), both read as the one card the classifier sees;
    # without the rule the pile rules give the second box another card
    det = fake_detector((0, 0, 1, 1, 0.0))
    det.iou, det.same_card_iou = 0.9, same_card_iou

    def loc(x):
        out = np.zeros((1, 6, 2), np.float32)
        out[0, :, 0] = [256, 256, 61, 100, 0.9, 0.0]
        out[0, :, 1] = [260, 259, 61, 100, 0.8, 0.02]
        return out

    det._loc = loc
    dets = det.detect(np.full((512, 512, 3), 128, np.uint8))
    assert len(dets) == found
    assert dets[0].card == "paulownia-chaff-yellow"


def test_weak_card_is_flagged_uncertain():
    det = fake_detector((256, 256, 40, 80, 0.0), score=0.4, prob=0.6)
    (d,) = det.detect(np.zeros((100, 100, 3), np.uint8))
    assert d.uncertain
    assert d.confidence == pytest.approx(0.24, abs=1e-3)


def test_zoom_out_pass_maps_boxes_back_and_replaces_a_fragment():
    # close-up: the localiser sees the same spot of its input in both passes; in the
    # zoomed-out pass (photo shrunk to half inside a grey canvas) that spot is twice as big
    # in photo pixels, so the first pass's box is the fragment and is dropped
    photo = jpeg(Image.new("RGB", (1024, 512), (40, 90, 20)))
    det = fake_detector((256, 256, 40, 80, 0.0))
    det.zoom_out = 2.0
    (d,) = det.detect(photo)
    # pass 1: r = 0.5, pad y = 128 -> centre (512, 256), 80 x 160 photo px
    # pass 2: canvas 2048 x 1024, r = 0.25, pad y = 128 -> centre (1024 - 512, 512 - 256),
    #         160 x 320 photo px
    assert d.box == pytest.approx((432, 96, 592, 416), abs=3)
    det.zoom_out = 1.0
    (d,) = det.detect(photo)
    assert d.box == pytest.approx((472, 176, 552, 336), abs=3)


def test_localiser_description_defaults_to_visible_regions(tmp_path):
    from vision.detector import localiser_meta

    assert localiser_meta(tmp_path / "localiser.onnx") == {"boxes": "visible", "iou": 0.5}
    (tmp_path / "localiser.json").write_text('{"boxes": "whole", "iou": 0.7}')
    assert localiser_meta(tmp_path / "localiser.onnx") == {"boxes": "whole", "iou": 0.7}


@pytest.mark.parametrize("text", ["{", '{"boxes": "corners"}', '{"boxes": "whole", "iou": 2}', "[1]"])
def test_a_malformed_localiser_description_is_a_model_error(tmp_path, text):
    from vision.detector import localiser_meta
    from vision.errors import ModelError

    (tmp_path / "localiser.json").write_text(text)
    with pytest.raises(ModelError, match=r"localiser\.json"):
        localiser_meta(tmp_path / "localiser.onnx")


def heap_of_two(whole_top: int, whole_p: float = 0.6):
    """Two whole-card boxes, the second lying over three quarters of the first (a heap),
    classified 0.5 / 0.5 as cards 0 and 1 over both views; the first box's whole crop alone
    names card ``whole_top`` at ``whole_p``.  Returns the trace."""
    import cv2

    from vision.geometry import obb_corners

    img = np.full((640, 640, 3), 200, np.uint8)
    det = fake_detector((0, 0, 1, 1, 0.0), prob=0.5)
    det.boxes = "whole"
    obbs = np.array([(300.0, 300.0, 122.0, 200.0, 0.0), (300.0, 350.0, 122.0, 200.0, 0.0)])
    for o, colour in zip(obbs, ((200, 40, 40), (40, 60, 200)), strict=True):
        c = obb_corners(o[None])[0].astype(np.int32)
        cv2.fillPoly(img, [c], (10, 10, 10))
        inner = obb_corners(np.array([[o[0], o[1], o[2] * 0.9, o[3] * 0.93, 0.0]]))[0].astype(np.int32)
        cv2.fillPoly(img, [inner], colour)
    det.localise = lambda a: (obbs.copy(), np.array([0.9, 0.9]))
    probs = np.full((2, 48), 0.5 / 47)
    probs[0, 0], probs[1, 1] = 0.5, 0.5
    whole = probs.copy()
    whole[0] = (1 - whole_p) / 47
    whole[0, whole_top] = whole_p
    det.classify_views = lambda a, o, masks=None, _known=None: (whole, probs)
    return det.trace(img)


def test_a_whole_card_covered_mostly_by_another_is_reported_covered():
    # the lower card is seen, too covered to read, and never certain: its whole crop shows
    # mostly the card on top and names that one
    tr = heap_of_two(whole_top=1)
    assert tr.visible[0] == pytest.approx(0.25, abs=0.04)
    assert tr.visible[1] == 1.0
    by_card = {d.card: d for d in tr.detections}
    assert by_card[CARD_IDS[0]].covered
    assert by_card[CARD_IDS[0]].uncertain
    assert not by_card[CARD_IDS[1]].covered


@pytest.mark.parametrize(
    ("whole_top", "whole_p", "covered"),
    [
        (0, 0.6, False),  # the whole crop names the box's own card: the stacking order was wrong
        (0, 0.4, True),  # ... but too weakly (under WHOLE_READS)
        (1, 0.6, True),  # the whole crop names the card on top: truly under it
    ],
)
def test_a_covered_box_whose_whole_crop_reads_as_its_own_card_keeps_its_name(whole_top, whole_p, covered):
    tr = heap_of_two(whole_top, whole_p)
    lower = {d.card: d for d in tr.detections}[CARD_IDS[0]]
    assert lower.covered is covered
    assert lower.uncertain  # named or not, never certain at this confidence
    assert lower.visible == pytest.approx(0.25, abs=0.04)  # the stacking order's share is kept


@pytest.mark.parametrize("tta", [False, True])
def test_masked_and_whole_views_average_and_uncovered_cards_are_classified_once(tta):
    # the masked view of a card nothing covers equals its whole view: it is sent to the
    # classifier once, and its probabilities are those of the two-view mean all the same
    rng = np.random.default_rng(5)
    image = rng.integers(0, 256, (400, 600, 3), np.uint8)
    obbs = np.array([[150, 200, 100, 160, 0.2], [300, 200, 100, 160, -0.3], [450, 200, 100, 160, 0.0]])
    masks = np.ones((3, 112, 72), bool)
    masks[1, :40] = False  # only the middle card is covered
    det = fake_detector((0, 0, 1, 1, 0))
    det.tta = tta
    sent = []
    w = rng.normal(size=(3 * 112 * 72, 48)).astype(np.float32) / 300

    def cls(x):  # logits that depend on every pixel, so views differ
        sent.append(len(x))
        return x.reshape(len(x), -1) @ w

    det._cls = cls
    probs = det.classify(image, obbs, masks)
    whole, averaged = det.classify_views(image, obbs, masks)
    np.testing.assert_array_equal(averaged, probs)

    from vision.geometry import CROP_SIZE, crop_obbs
    from vision.postprocess import softmax
    from vision.visibility import mask_crops

    crops = crop_obbs(image, obbs, CROP_SIZE)
    views = [mask_crops(crops, masks), crops]
    if tta:
        views += [v[:, ::-1, ::-1] for v in views]

    def p(v):
        return softmax(cls(np.ascontiguousarray(v.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0).astype(np.float64))

    expected = np.mean([p(v) for v in views], 0)
    np.testing.assert_allclose(probs, expected, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(whole, np.mean([p(v) for v in views[1::2]], 0), rtol=1e-6, atol=1e-9)
    assert sent[0] == (3 + 1) * (2 if tta else 1)  # 3 whole crops and 1 masked one (each turned)


def test_views_given_the_whole_crops_probabilities_classify_only_the_masked_crops():
    # the verifier already read the whole crops: the same averages come back, and only the
    # covered card's masked crop is sent to the classifier
    rng = np.random.default_rng(6)
    image = rng.integers(0, 256, (400, 600, 3), np.uint8)
    obbs = np.array([[150, 200, 100, 160, 0.2], [300, 200, 100, 160, -0.3], [450, 200, 100, 160, 0.0]])
    masks = np.ones((3, 112, 72), bool)
    masks[1, :40] = False
    det = fake_detector((0, 0, 1, 1, 0))
    w = rng.normal(size=(3 * 112 * 72, 48)).astype(np.float32) / 300
    sent = []

    def cls(x):
        sent.append(len(x))
        return x.reshape(len(x), -1) @ w

    det._cls = cls
    whole, averaged = det.classify_views(image, obbs, masks)
    sent.clear()
    whole2, averaged2 = det.classify_views(image, obbs, masks, whole)
    np.testing.assert_allclose(averaged2, averaged, rtol=1e-6, atol=1e-9)
    np.testing.assert_array_equal(whole2, whole)
    assert sent == [1]


def test_a_verifier_keeps_its_boxes_and_its_probability_replaces_the_localiser_score():
    from vision.verify import FEATURES, Verifier

    # the third box is twice the photo's card size: a verifier that doubts odd-sized boxes drops it
    det = fake_detector((0, 0, 1, 1, 0.0))
    det.iou = 0.9
    w = tuple(-30.0 if f == "size_off" else 0.0 for f in FEATURES)
    det.verifier = Verifier(w, 2.0, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES), keep_at=0.5)

    def loc(x):
        out = np.zeros((1, 6, 3), np.float32)
        out[0, :, 0] = [100, 256, 61, 100, 0.9, 0.0]
        out[0, :, 1] = [200, 256, 61, 100, 0.8, 0.0]
        out[0, :, 2] = [380, 256, 122, 100, 0.95, 0.0]
        return out

    det._loc = loc
    tr = det.trace(np.full((512, 512, 3), 128, np.uint8))
    assert sorted(tr.obbs[:, 0].round()) == [100, 200]
    assert tr.scores == pytest.approx([1 / (1 + np.exp(-2.0))] * 2, abs=1e-3)
