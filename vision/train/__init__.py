"""Training and evaluation of the detector: the datasets cut from synthetic scenes, the
training loops and ONNX export, the evaluation and the held-out scene sets.

Not part of the runtime: the app, ``hanafuda-referee detect`` and :func:`vision.detect`
never import it (``tests/vision/test_runtime_imports.py``); the one way in is the
``ultralytics`` backend of :class:`vision.Detector`, a training-side backend that needs the
``train`` extra and loads ``classifier.pt`` through :func:`vision.train.classifier.load_classifier`.
It may import the runtime package, :mod:`vision.synth` and ``referee.cards``; never
``referee``'s scoring or web code.  Training needs the ``train`` extra (torch, ultralytics).
"""
