"""Cards the detector sees but cannot read (issue 17): counted and named in players' words,
never put in a pile, never asked about (referee.web.photo_review)."""

from dataclasses import dataclass, field

from referee.web.photo_review import active, box_views, records, review
from vision.detection import Detection


@dataclass
class Photo:
    id: str
    slot: str
    detections: list = field(default_factory=list)


def _dets():
    return [
        Detection("pine-crane", 0.99, (0, 0, 10, 10)),
        Detection("plum-chaff-1", 0.05, (20, 0, 30, 10), uncertain=True, covered=True, visible=0.1),
        Detection("iris-chaff-1", 0.4, (40, 0, 50, 10), uncertain=True, covered=True, visible=0.2),
    ]


def test_a_covered_card_is_kept_even_under_the_floor_and_puts_nothing_in_the_pile():
    recs = records(_dets())
    assert [r["card"] for r in recs] == ["pine-crane", "plum-chaff-1", "iris-chaff-1"]
    assert [active(r) for r in recs] == ["pine-crane", None, None]
    assert all("ask" not in r for r in recs[1:])  # no Yes / No question for a card no one can read


def test_the_review_counts_covered_cards_and_says_what_to_do():
    r = review("0", [Photo("p1", "0", records(_dets()))], in_slot=["pine-crane"])
    assert r.covered == 2
    assert r.guide == "covered"
    assert r.tapped == 1
    assert not r.suggestions
    boxes = box_views(Photo("p1", "0", records(_dets())), {})
    assert [b.state for b in boxes] == ["in", "covered", "covered"]
    assert boxes[1].label == "2 too covered"
    assert boxes[1].title == "2: a card too covered to read"


def test_the_guide_says_how_many_are_too_covered():
    from flask import Flask, render_template_string

    app = Flask(__name__)
    from referee.web import asset_dir

    app.jinja_loader = __import__("jinja2").FileSystemLoader(str(asset_dir("templates")))
    r = review("0", [Photo("p1", "0", records(_dets()))], in_slot=["pine-crane"])
    with app.test_request_context():
        guide = '{% include "entry/partials/photo_guide.html" %}'
        html = render_template_string(guide, review=r, slot="0", guide_seen=True)
    assert "2 cards are too covered to read: slide them out a little and snap again." in html
