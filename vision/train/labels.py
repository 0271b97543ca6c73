"""The classifier's label codes: one class per card in ``CARDS.tsv`` order, "not a card"
(:data:`REJECT`), and codes for a set of classes one label may stand for (a style's cards
that cannot be told apart, :data:`MERGED_GROUPS`).

Shared by the crop datasets (:mod:`vision.train.datasets`) and the classifier's loss
(:mod:`vision.train.classifier`).  May import ``referee.cards`` and
:data:`vision.synth.render.MERGED_IDS`; nothing heavy (no torch, no OpenCV).
"""

from __future__ import annotations

from referee.cards import CARD_IDS
from vision.synth.render import MERGED_IDS

#: Class index of "not a card" (the 49th classifier output).
REJECT = len(CARD_IDS)
#: Label codes from this one up stand for a set of classes (:data:`MERGED_GROUPS`).
MERGED_CODE = 100
#: Sets of classes one label may stand for: a style's ids that cannot be told apart
#: (:data:`vision.synth.render.MERGED_IDS`).  Training counts any of them as right.
MERGED_GROUPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(CARD_IDS.index(c) for c in ids) for ids in MERGED_IDS.values()
)
_MERGED_OF = {(st, c): MERGED_CODE + k for k, (st, ids) in enumerate(MERGED_IDS.items()) for c in ids}


def card_label(style: str, card: str) -> int:
    """The label of ``card`` drawn in art style ``style``: its class index, or the
    :data:`MERGED_CODE` code of its set when the style merges it with others."""
    return _MERGED_OF.get((style, card), CARD_IDS.index(card))
