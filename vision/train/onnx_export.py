"""Writing a trained crop model as the ONNX file the runtime loads: one input ``crops``, one
output ``logits``, both with a dynamic batch dimension (opset 17).

Part of :mod:`vision.train`: torch only (the runtime reads the file with ONNX Runtime).
"""

from __future__ import annotations

import warnings
from pathlib import Path


def export_crops_model(model, onnx_path: Path, input_shape: tuple[int, int, int]) -> Path:
    """Export the torch ``model`` (put in eval mode here) to ``onnx_path`` for float input
    ``(B, *input_shape)`` (channels, height, width in pixels); returns the path."""
    import torch

    model.eval()
    dummy = torch.zeros(1, *input_shape)
    with warnings.catch_warnings():
        # the TorchScript exporter on purpose: the torch.export one needs onnxscript
        warnings.simplefilter("ignore", DeprecationWarning)
        # EfficientNet's static "same" padding slices; harmless, the graph stays unfolded there
        warnings.filterwarnings("ignore", "Constant folding", UserWarning)
        torch.onnx.export(
            model,
            (dummy,),
            str(onnx_path),
            input_names=["crops"],
            output_names=["logits"],
            dynamic_axes={"crops": {0: "batch"}, "logits": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    return Path(onnx_path)
