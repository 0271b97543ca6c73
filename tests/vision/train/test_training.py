"""Training helpers on toy data (needs the train extra: torch; skipped without it)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is in the train extra only")

from referee.cards import CARD_IDS  # noqa: E402
from vision.train.classifier import (  # noqa: E402
    build_classifier,
    export_classifier_onnx,
    load_classifier,
    set_loss,
    target_mask,
    train_classifier_top,
)
from vision.train.labels import MERGED_CODE, MERGED_GROUPS, REJECT  # noqa: E402


def test_reject_is_the_49th_class():
    assert REJECT == len(CARD_IDS) == 48
    assert build_classifier()(torch.zeros(2, 3, 112, 72)).shape == (2, 49)


def test_merged_label_allows_each_of_its_cards():
    # timomt: the three Paulownia chaff are one label (shared/cards/art/timomt/SOURCE.md)
    y = torch.tensor([3, REJECT, MERGED_CODE])
    m = target_mask(y)
    assert m[0].nonzero().flatten().tolist() == [3]
    assert m[1].nonzero().flatten().tolist() == [REJECT]
    assert sorted(m[2].nonzero().flatten().tolist()) == sorted(MERGED_GROUPS[0])
    assert {CARD_IDS[i] for i in MERGED_GROUPS[0]} == {
        "paulownia-chaff-yellow",
        "paulownia-chaff-1",
        "paulownia-chaff-2",
    }
    # a logit split over the merged set costs as little as one certain class
    split = torch.full((1, 49), -20.0)
    split[0, list(MERGED_GROUPS[0])] = 10.0
    one = torch.full((1, 49), -20.0)
    one[0, MERGED_GROUPS[0][0]] = 10.0
    y1 = torch.tensor([MERGED_CODE])
    assert set_loss(split, y1, 0.0) < 1e-3
    assert set_loss(one, y1, 0.0) < 1e-3
    assert set_loss(split, torch.tensor([MERGED_GROUPS[0][0]]), 0.0) > 1.0


def test_old_48_class_checkpoint_grows_a_reject_row():
    old = build_classifier(48)
    m = load_classifier({"model": old.state_dict()}, 49)
    x = torch.rand(3, 3, 112, 72)
    old.eval()
    m.eval()
    with torch.no_grad():
        np.testing.assert_allclose(m(x)[:, :48].numpy(), old(x).numpy(), atol=1e-5)


@pytest.mark.slow
def test_top_fine_tune_learns_and_exports(tmp_path):
    # two visually distinct "cards" and a reject class: the head learns them from features
    rng = np.random.default_rng(0)
    x = np.zeros((96, 112, 72, 3), np.uint8)
    y = np.array([0, 1, REJECT] * 32)
    for i, c in enumerate(y):
        x[i] = [(255, 0, 0), (0, 0, 255), (0, 255, 0)][[0, 1, REJECT].index(c)]
    x = np.clip(x + rng.integers(0, 30, x.shape), 0, 255).astype(np.uint8)
    init = tmp_path / "init.pt"
    torch.save({"model": build_classifier(48).state_dict()}, init)
    r = train_classifier_top(x, y, tmp_path, init, epochs=20, batch=16, val_frac=0.25, lr=1e-2, log=lambda *a: None)
    assert r["val_acc"] >= 0.9
    onnx = export_classifier_onnx(tmp_path / "classifier.pt", tmp_path / "c.onnx")
    import onnxruntime as ort

    out = ort.InferenceSession(str(onnx)).run(None, {"crops": np.zeros((2, 3, 112, 72), np.float32)})[0]
    assert out.shape == (2, 49)


@pytest.mark.slow
def test_effnet_starts_from_imagenet_learns_and_exports(tmp_path):
    pytest.importorskip("efficientnet_lite_pytorch", reason="EfficientNet-Lite0 is in the train extra only")
    from vision.train import effnet

    imagenet = torch.load(effnet.pretrained_weights(), map_location="cpu", weights_only=True)
    model = effnet.build_effnet()
    assert torch.equal(model.net._conv_stem.weight, imagenet["_conv_stem.weight"])
    assert model(torch.zeros(2, 3, 112, 72)).shape == (2, 49)
    # three visually distinct crops: the unfrozen top learns them above the ImageNet stem
    rng = np.random.default_rng(0)
    y = np.array([0, 1, REJECT] * 32)
    x = np.zeros((96, 112, 72, 3), np.uint8)
    for i, c in enumerate(y):
        x[i] = [(255, 0, 0), (0, 0, 255), (0, 255, 0)][[0, 1, REJECT].index(c)]
    x = np.clip(x + rng.integers(0, 30, x.shape), 0, 255).astype(np.uint8)
    r = effnet.train_effnet_top(x, y, tmp_path, epochs=6, batch=16, views=2, val_frac=0.25, log=lambda *a: None)
    assert r["val_acc"] >= 0.9
    state = torch.load(tmp_path / "classifier.pt", weights_only=False)
    assert state["arch"] == effnet.ARCH
    # the stem stayed as ImageNet trained it
    assert torch.equal(state["model"]["net._conv_stem.weight"], imagenet["_conv_stem.weight"])
    assert type(load_classifier(state)).__name__ == "EffNetClassifier"
    onnx = export_classifier_onnx(tmp_path / "classifier.pt", tmp_path / "c.onnx")
    import onnxruntime as ort

    out = ort.InferenceSession(str(onnx)).run(None, {"crops": x[:2].transpose(0, 3, 1, 2).astype(np.float32) / 255})[0]
    assert out.shape == (2, 49)
    assert (out.argmax(1) == y[:2]).all()


@pytest.fixture(scope="module")
def tiny_whole_dataset(tmp_path_factory):
    """Four whole-card scenes (and their masked crops) from tiny synthetic art."""
    from PIL import Image

    from vision.train.datasets import gen_detection_dataset

    d = tmp_path_factory.mktemp("whole")
    png = d / "art" / "toy"
    png.mkdir(parents=True)
    rng = np.random.default_rng(0)
    for cid in CARD_IDS:
        Image.new("RGBA", (61, 100), (*(int(v) for v in rng.integers(0, 256, 3)), 255)).save(png / f"{cid}.png")
    (png / ".done").touch()
    return gen_detection_dataset(
        d / "det", d / "art", 4, 2, seed=5, size=160, workers=1, boxes="whole", crops_per_card=1
    )


def test_whole_dataset_writes_whole_labels_and_masked_crops(tiny_whole_dataset):
    det = tiny_whole_dataset.parent
    labels = sorted((det / "labels" / "train").glob("*.txt"))
    assert len(labels) == 4
    assert sum(len(p.read_text().splitlines()) for p in labels) > 0
    crops = np.load(det / "crops.npz")
    assert crops["x"].shape[1:] == (112, 72, 3)
    assert len(crops["x"]) == len(crops["y"]) == len(crops["visible"]) == len(crops["s"])
    assert set(crops["s"]) == {"toy"}


@pytest.mark.slow
def test_localiser_starts_from_init_weights(tiny_whole_dataset, tmp_path):
    # ultralytics 8.4 dropped the loaded weights when told pretrained=False, so --loc-init
    # trained from scratch (issue 17); with the backbone frozen, its weights must stay the init's
    from pathlib import Path

    from vision.train.localiser import train_localiser

    init = Path(__file__).resolve().parents[3] / "models" / "localiser.pt"
    best = train_localiser(
        tiny_whole_dataset, tmp_path, imgsz=96, epochs=1, batch=2, workers=0, init=init, freeze=10, warmup_epochs=0,
        lr0=3e-4,
    )

    def first_conv(p):
        m = torch.load(p, map_location="cpu", weights_only=False)
        return (m.get("ema") or m["model"]).float().state_dict()["model.0.conv.weight"]

    torch.testing.assert_close(first_conv(best), first_conv(init))
    import json

    epochs = [json.loads(line) for line in (tmp_path / "localiser" / "epochs.jsonl").read_text().splitlines()]
    assert "loadavg" in epochs[0]
    # ultralytics' optimizer "auto" replaced lr0 by AdamW at 0.002 unannounced (issue 17, run 7):
    # the lr asked for is the one used
    assert epochs[0]["optimizer"] == "AdamW"
    assert epochs[0]["lr0"] == pytest.approx(3e-4)


def test_effnet_features_join_caches_of_consecutive_crops(tmp_path):
    # run 8 trained on two crop sets: the old one's cached stem features are reused and only
    # the new crops' are computed
    pytest.importorskip("efficientnet_lite_pytorch", reason="EfficientNet-Lite0 is in the train extra only")
    from vision.train import effnet
    from vision.train.fitting import augment

    model = effnet.build_effnet()
    x = np.random.default_rng(1).integers(0, 256, (6, 112, 72, 3), dtype=np.uint8)
    whole = effnet._cached_features(model, x, 2, 0, [tmp_path / "all.pt"], lambda *a: None, augment)
    first = effnet._cached_features(model, x[:4], 2, 0, [tmp_path / "a.pt"], lambda *a: None, augment)
    both = effnet._cached_features(model, x, 2, 0, [tmp_path / "a.pt", tmp_path / "b.pt"], lambda *a: None, augment)
    assert (tmp_path / "b.pt").exists()
    assert [len(v) for v in both] == [6, 6]
    torch.testing.assert_close(both[0], whole[0])  # the plain view is the same however it was cached
    torch.testing.assert_close(both[1][:4], first[1])
    with pytest.raises(FileNotFoundError, match="only the last"):
        effnet._cached_features(model, x, 2, 0, [tmp_path / "gone.pt", tmp_path / "b.pt"], lambda *a: None, augment)
