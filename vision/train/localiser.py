"""The localiser: ultralytics YOLO11n-OBB training and ONNX export (needs the ``train``
extra: torch, ultralytics), with the thread setting and per-epoch logging it trains under
and the machine description written into the training log.

The one-class localiser finds every card's visible region (or whole face) as an oriented
box; its data is :func:`vision.train.datasets.gen_detection_dataset`.  Everything heavy is
imported inside the functions.  May import the runtime package; never :mod:`vision.synth`,
nor ``referee``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path


def set_threads(n: int = 2) -> None:
    """Run torch and ultralytics on ``n`` threads.  ultralytics picks ``cpu_count - 1`` (one
    on this 2-core machine) and resets torch to it when training starts; training at 2
    threads was 1.5-2x faster (issue 17)."""
    import torch
    import ultralytics.utils as uu
    import ultralytics.utils.torch_utils as ut

    torch.set_num_threads(n)
    uu.NUM_THREADS = ut.NUM_THREADS = n


def _log_load(path: Path):
    """An ultralytics ``on_fit_epoch_end`` callback appending each epoch's metrics, wall
    time and the machine's load average to ``path`` (JSON lines)."""
    t0 = time.time()

    def cb(trainer) -> None:
        row = {
            "epoch": int(trainer.epoch) + 1,
            "epochs": int(trainer.epochs),
            "wall_s": round(time.time() - t0, 1),
            "loadavg": [round(v, 2) for v in os.getloadavg()],
            # the optimizer really used and its learning rate: ultralytics' "auto" once
            # replaced the lr0 asked for without saying so in any result file
            "optimizer": type(trainer.optimizer).__name__,
            "lr0": round(float(trainer.optimizer.param_groups[0].get("initial_lr", 0.0)), 8),
            "lr": round(float(trainer.optimizer.param_groups[0]["lr"]), 8),
            **{k: round(float(v), 4) for k, v in (trainer.metrics or {}).items()},
        }
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")

    return cb


def train_localiser(
    data_yaml: Path,
    out_dir: Path,
    imgsz: int = 512,
    epochs: int = 30,
    batch: int = 32,
    device: str = "cpu",
    workers: int = 2,
    time_h: float | None = None,
    resume: bool = True,
    init: Path | None = None,
    name: str = "localiser",
    freeze: int | None = None,
    warmup_epochs: float = 3.0,
    close_mosaic: int | None = None,
    threads: int = 2,
    lr0: float = 0.002,
    optimizer: str = "AdamW",
) -> Path:
    """Train the one-class YOLO11n-OBB localiser from scratch, or from ``init`` weights.

    ``init``: an ultralytics checkpoint whose weights start the run (passed to ultralytics
    as ``pretrained``: with ``pretrained=False`` ultralytics 8.4 rebuilds the model from its
    architecture and drops the loaded weights, so an ``init`` used to train from scratch);
    ``freeze``: the first this many layers stay as loaded (10: the backbone);
    ``warmup_epochs``: ultralytics' learning-rate warm-up; ``close_mosaic``: the last this
    many epochs train without mosaic (default: a fifth of ``epochs``; with ``time_h`` the
    epoch count is ultralytics' estimate from the budget, so give it in epochs);
    ``optimizer`` and ``lr0``: the optimizer and its initial learning rate, both passed on
    (ultralytics' default ``"auto"`` ignores ``lr0`` and picks AdamW at 0.002 for runs this
    short: every run before run 7 trained so, whatever ``--lr0`` said);
    ``threads``: torch threads on CPU (:func:`set_threads`); ``time_h``: wall-clock budget in
    hours.  Checkpoints every epoch to ``out_dir/name/weights/last.pt`` and logs each
    epoch's metrics and load average to ``out_dir/name/epochs.jsonl``; resumes an
    interrupted run from ``last.pt`` when ``resume``.  Returns the path of ``best.pt``.
    Raises FileNotFoundError when ``init`` does not exist.
    """
    from ultralytics import YOLO

    if device == "cpu":
        set_threads(threads)
    run = Path(out_dir) / name
    run.mkdir(parents=True, exist_ok=True)
    last = run / "weights" / "last.pt"
    if resume and last.exists():
        model = YOLO(str(last))
        model.add_callback("on_fit_epoch_end", _log_load(run / "epochs.jsonl"))
        model.train(resume=True)
        return run / "weights" / "best.pt"
    if init and not Path(init).is_file():
        raise FileNotFoundError(f"--loc-init: no such file: {init}")
    model = YOLO(str(init)) if init else YOLO("yolo11n-obb.yaml")
    model.add_callback("on_fit_epoch_end", _log_load(run / "epochs.jsonl"))
    kw = {"time": time_h} if time_h else {}
    if freeze:
        kw["freeze"] = freeze
    model.train(
        data=str(data_yaml),
        imgsz=imgsz,
        epochs=epochs,
        batch=batch,
        device=device,
        workers=workers,
        project=str(Path(out_dir).resolve()),
        name=name,
        exist_ok=True,
        single_cls=True,
        plots=False,
        amp=False,
        pretrained=str(init) if init else False,
        close_mosaic=close_mosaic if close_mosaic is not None else max(1, epochs // 5),
        warmup_epochs=warmup_epochs,
        lr0=lr0,
        optimizer=optimizer,
        degrees=180.0,
        flipud=0.5,
        fliplr=0.5,
        mosaic=0.5,
        scale=0.5,
        translate=0.1,
        hsv_h=0.02,
        hsv_s=0.5,
        hsv_v=0.4,
        cos_lr=True,
        patience=100,
        val=True,
        verbose=False,
        **kw,
    )
    return run / "weights" / "best.pt"


def export_localiser_onnx(pt: Path, imgsz: int = 512) -> Path:
    """Export ultralytics weights to ONNX (static 1x3xSxS input, no NMS inside), beside ``pt``.

    ultralytics uses torch's legacy TorchScript exporter, which warns as it traces (deprecation in
    torch 2.9+, tracer warnings); warnings are silenced for the export alone: a test run turns
    them into errors, which the tracer cannot raise from inside torch."""
    import warnings

    from ultralytics import YOLO

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Path(YOLO(str(pt)).export(format="onnx", imgsz=imgsz, simplify=False, dynamic=False, opset=17))


def hardware() -> str:
    """A one-line description of the machine (CPU count, GPU name if any)."""
    try:
        import torch

        gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    except ImportError:
        gpu = "torch absent"
    return f"{os.cpu_count()} CPU cores, {gpu}"
