"""The 8-bit localiser (vision.train.quantize): integer convolutions, float box decoding, and the
same boxes as the float localiser on a generated photo."""


import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="quantising needs the train extra's onnx")
pytest.importorskip("onnxruntime.quantization", reason="needs onnxruntime's quantiser")

from vision.detector import find_model  # noqa: E402
from vision.postprocess import decode_obb, letterbox  # noqa: E402
from vision.train.quantize import (  # noqa: E402
    HEAD_PREFIX,
    CropReader,
    LetterboxReader,
    calibration_scenes,
    decoding_nodes,
    detector_crops,
    float_localiser,
    is_quantised,
    quantize_classifier,
    quantize_localiser,
)


@pytest.fixture(scope="module")
def photos(mantia_art):
    """Two calibration photos and one other photo, of one art set's cards (tests/conftest.py)."""
    art = mantia_art
    return calibration_scenes(art, 2, size=640), calibration_scenes(art, 1, size=640, seed=7)[0]


@pytest.fixture(scope="module")
def float_loc(tmp_path_factory):
    """The float localiser, exported from models/localiser.pt (the shipped ONNX file is 8-bit)."""
    pytest.importorskip("ultralytics", reason="exporting the float localiser needs the train extra")
    return float_localiser(find_model("localiser.pt"), tmp_path_factory.mktemp("float"))


@pytest.fixture(scope="module")
def int8(tmp_path_factory, photos, float_loc):
    """The float localiser, quantised on the two calibration photos."""
    out = tmp_path_factory.mktemp("int8") / "localiser.onnx"
    return quantize_localiser(float_loc, out, photos[0])


def test_decoding_nodes_are_the_head_less_its_convolution_branches(float_loc):
    model = onnx.load(str(float_loc))
    keep = decoding_nodes(model)
    assert keep
    assert all(n.startswith(HEAD_PREFIX) for n in keep)
    assert not any(n.startswith(HEAD_PREFIX + b) for n in keep for b in ("cv2.", "cv3.", "cv4."))
    assert any("dfl" in n for n in keep)


def test_a_graph_without_a_detect_head_is_refused():
    model = onnx.load(str(find_model("classifier.onnx")))
    with pytest.raises(ValueError, match="detect head"):
        decoding_nodes(model)


def test_unknown_calibration_method_is_refused(tmp_path, photos):
    with pytest.raises(ValueError, match="method"):
        quantize_localiser(find_model("localiser.onnx"), tmp_path / "x.onnx", photos[0], method="entropy")


def test_the_shipped_localiser_is_8_bit_and_is_not_quantised_again(tmp_path, photos):
    # the quantiser does not finish on a QDQ graph (seen here): it is refused at once
    assert is_quantised(onnx.load(str(find_model("localiser.onnx"))))
    with pytest.raises(ValueError, match="already quantised"):
        quantize_localiser(find_model("localiser.onnx"), tmp_path / "x.onnx", photos[0])
    assert not (tmp_path / "x.onnx").exists()


def test_reader_feeds_letterboxed_photos_then_none_and_rewinds(photos):
    r = LetterboxReader(photos[0], "images", 512, 1.5)
    first = r.get_next()["images"]
    assert first.shape == (1, 3, 512, 512)
    assert first.dtype == np.float32
    assert r.get_next() is not None
    assert r.get_next() is None
    r.rewind()
    assert np.array_equal(r.get_next()["images"], first)


@pytest.mark.slow
def test_convolutions_are_8_bit_and_the_decoding_stays_float(int8, float_loc):
    model = onnx.load(str(int8))
    ops = [n.op_type for n in model.graph.node]
    assert ops.count("QuantizeLinear") > 50
    keep = set(decoding_nodes(onnx.load(str(float_loc))))
    decoding_out = {o for n in model.graph.node if n.name in keep for o in n.output}
    assert decoding_out
    quantised = {i for n in model.graph.node if n.op_type == "QuantizeLinear" for i in n.input}
    assert not decoding_out & quantised  # nothing the decoding computes is rounded to 8 bits
    made_by = {o: n.op_type for n in model.graph.node for o in n.output}
    assert made_by[model.graph.output[0].name] != "DequantizeLinear"


@pytest.mark.slow
def test_the_localisers_description_comes_along(int8):
    from vision.detector import localiser_meta

    assert localiser_meta(int8) == localiser_meta(find_model("localiser.onnx"))
    assert localiser_meta(int8)["boxes"] == "whole"
    assert int8.with_suffix(".json").is_file()


@pytest.mark.slow
def test_the_8_bit_localiser_finds_the_float_ones_boxes(int8, float_loc, photos):
    import onnxruntime as ort

    x = letterbox(photos[1], 512, 1.5)[0]
    run = {p: ort.InferenceSession(str(p)).run(None, {"images": x})[0] for p in (float_loc, int8)}
    (of, sf), (oq, sq) = (decode_obb(y, 0.35, 0.5) for y in run.values())
    assert len(of) > 0
    assert len(oq) == len(of)
    # each float box has an 8-bit box with its centre within 3 input pixels, its score within 0.1
    for o, s in zip(of, sf, strict=True):
        d = np.hypot(oq[:, 0] - o[0], oq[:, 1] - o[1])
        j = int(d.argmin())
        assert d[j] < 3
        assert abs(sq[j] - s) < 0.1


def test_no_calibration_crops_are_refused(tmp_path):
    with pytest.raises(ValueError, match="at least one"):
        quantize_classifier(find_model("classifier.onnx"), tmp_path / "c.onnx", np.zeros((0, 112, 72, 3), np.uint8))


def test_crop_reader_feeds_batches_as_the_detector_does():
    crops = np.random.default_rng(0).integers(0, 256, (5, 112, 72, 3), dtype=np.uint8)
    r = CropReader(crops, "crops", batch=2)
    got = []
    while (x := r.get_next()) is not None:
        got.append(x["crops"])
    assert [len(g) for g in got] == [2, 2, 1]
    assert got[0].shape == (2, 3, 112, 72)
    assert np.allclose(got[2][0], crops[4].transpose(2, 0, 1) / 255.0)
    r.rewind()
    assert np.array_equal(r.get_next()["crops"], got[0])


@pytest.mark.slow
def test_the_8_bit_classifier_reads_the_detectors_crops_as_the_float_one(tmp_path, photos):
    import onnxruntime as ort

    from vision.detector import Detector

    crops = detector_crops(Detector(threads=2), [*photos[0], photos[1]])
    assert len(crops) >= 3
    assert crops.shape[1:] == (112, 72, 3)
    q = quantize_classifier(find_model("classifier.onnx"), tmp_path / "c.onnx", crops)
    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0
    lf, lq = (ort.InferenceSession(str(p)).run(None, {"crops": x})[0] for p in (find_model("classifier.onnx"), q))
    pf = np.exp(lf - lf.max(1, keepdims=True))
    sure = (pf / pf.sum(1, keepdims=True)).max(1) >= 0.8  # crops the float classifier reads clearly
    assert sure.sum() >= 3
    assert (lf.argmax(1) == lq.argmax(1))[sure].mean() >= 0.95
