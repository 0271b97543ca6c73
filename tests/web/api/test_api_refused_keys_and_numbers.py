"""The API's what-if (``POST /rescore``) and rules fix (``PUT /rules``) say a mistyped dotted key and a number past
the bound any rule may hold (``forms.limits.MAX_OPTION_NUMBER``) with every other refused option, in one 422
``bad-ruleset`` whose ``problems`` lists each (as ``test_api_every_refused_option.py`` does for the rest)."""

from __future__ import annotations

import pytest
from web_helpers import ask_rules, assert_every_refusal_said, rounds

SOURCE = "preset roppyakken (with options)"
TARGET = f"{SOURCE}: field 'options.target' is -5; expected an integer of at least 1"
FUK = f"{SOURCE}: field 'options.fuk' is {{\"threshold\": 40}}; expected no such field (known: players, target, "
BOUND = "expected a number between -1000000 and 1000000"


ROUTES = pytest.mark.parametrize("route", ["rescore", "rules"], ids=["POST rescore", "PUT rules"])


# Bug (new user): {"fuk.threshold": 40, "target": -5} answered 422 naming only 'options.fuk' is {"threshold": 40},
# with no problems, target never said; {"fuke.threshold": 2000000, "target": -5} a bad-request naming only the
# number's bound (the request schema refused it before the rules were read).
@ROUTES
@pytest.mark.parametrize(
    ("options", "problems"),
    [
        ({"fuk.threshold": 40, "target": -5}, [("fuk.threshold", FUK), ("target", TARGET)]),
        ({"fuke.threshold": 2000000, "target": -5},
         [("fuke.threshold", f"{SOURCE}: field 'options.fuke.threshold' is 2000000; {BOUND}"), ("target", TARGET)]),
        ({"yaku.oozan.points": 10**30, "fuk.threshold": 40, "target": -5},
         [("yaku.oozan.points", f"{SOURCE}: field 'yaku.oozan.points' is {10**30}; {BOUND}"), ("fuk.threshold", FUK),
          ("target", TARGET)]),
        ({"fuke.excluded_months": [1, -(10**7)], "yaku.oozen.points": 5},
         [("fuke.excluded_months", f"{SOURCE}: field 'options.fuke.excluded_months[1]' is -10000000; {BOUND}"),
          ("yaku.oozen.points", f"{SOURCE}: table 'yaku.oozen' lacks required field(s) en, ja, cards")]),
    ],
    ids=["mistyped-key", "number-past-the-bound", "all-three", "in-a-list-and-a-mistyped-yaku"],
)
def test_a_mistyped_key_and_a_number_past_the_bound_are_said_with_the_rest(client, keeper, h, route, options,
                                                                          problems):
    client.post(f"/api/v1/sessions/{keeper}/rounds", json={"piles": h.piles(0)})
    r = ask_rules(client, route, keeper, {"options": options})
    assert r.status_code == 422
    body = r.get_json()
    assert_every_refusal_said(body, problems, SOURCE)
    assert client.get(f"/api/v1/sessions/{keeper}").get_json()["options"] == {}  # nothing applied
    assert len(rounds(client, keeper)) == 1


@ROUTES
def test_a_number_past_the_bound_alone_is_one_refused_option(client, keeper, route):
    said = f"{SOURCE}: field 'options.target' is 1e+300; {BOUND}"
    r = ask_rules(client, route, keeper, {"options": {"target": 1e300}})
    assert r.status_code == 422
    assert r.get_json() == {"error": "bad-ruleset", "message": said, "problems": [{"option": "target",
                                                                                   "message": said}]}
