"""Synthetic table photos for training and evaluation: card art rendering
(:mod:`~vision.synth.render`), scene layouts and assembly (:mod:`~vision.synth.scenes`),
the things on a table that are not cards (:mod:`~vision.synth.props`) and the phone
camera (:mod:`~vision.synth.camera`).

Not part of the runtime: the app, ``hanafuda-referee detect`` and :func:`vision.detect`
never import it (``tests/vision/test_runtime_imports.py``).  It may import the runtime
package's pure helpers (:mod:`vision.geometry`) and ``referee.cards``; never
:mod:`vision.train`, nor ``referee``'s scoring or web code.  Rendering SVG art needs the
``vision`` extra (cairosvg).
"""
