"""Property: any legal round sums to zero in whole mon, and every player's lines sum to their net.

Random deals for 2 to 6 seated players, both presets, 10 or 12 mon per kan,
carry or stack multipliers, random drop-out calls, Mizuten, dekiyaku decisions
and hatto (RULES.md "Every round must sum to zero").
"""

from collections import Counter

from hh_cases import check_books, rules
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from referee.cards import BY_ID, CARD_IDS
from referee.hachihachi import settle_round
from referee.hachihachi.dekiyaku import find_dekiyaku
from referee.hachihachi.json_io import ROUND_KEYS


def _deal_round(data):
    preset = data.draw(st.sampled_from(["hachihachi", "hachihachi-fudawiki"]))
    mpk = data.draw(st.sampled_from([10, 12]))
    mode = data.draw(st.sampled_from(["carry", "stack"]))
    r = rules(preset, mon_per_kan=mpk, field_multiplier=mode)
    n = data.draw(st.integers(2, 6))
    players = [f"P{i}" for i in range(n)]
    deck = data.draw(st.permutations(CARD_IDS))
    hands = {p: deck[i * 7 : (i + 1) * 7] for i, p in enumerate(players)}
    field = deck[7 * n : 7 * n + 6]
    assume(max(Counter(BY_ID[c].month for c in field).values()) < 4)
    dealer = data.draw(st.sampled_from(players))
    mizuten = data.draw(st.booleans())
    start = players.index(dealer)
    seating = players[start:] + players[:start]
    active, dropped = [], {}
    if n > 3:
        order = 0
        for i, p in enumerate(seating):
            left = n - i
            if len(active) == 3:
                dropped[p] = {"forced": True, "hand": hands[p]}
            elif len(active) + left <= 2 or (p == dealer and mizuten) or data.draw(st.booleans()):
                active.append(p)
            else:
                order += 1
                dropped[p] = {"order": order, "hand": hands[p] if data.draw(st.booleans()) else []}
    else:
        active = seating
    # Two active players leave 14 cards never drawn (referee.hachihachi.deal): the last of the deck
    # outside their hands and the field.  Three play every card.
    dealt = {c for p in active for c in hands[p]} | set(field)
    never = set([c for c in reversed(deck) if c not in dealt][:14]) if len(active) == 2 else set()
    played = [c for c in CARD_IDS if c not in never]
    owners = data.draw(st.lists(st.sampled_from(active), min_size=len(played), max_size=len(played)))
    piles = {p: [c for c, o in zip(played, owners, strict=True) if o == p] for p in active}
    claims = [(p, h.dekiyaku.id) for p in active for h in find_dekiyaku(r, piles[p])]
    calls, hatto = None, []
    if claims:
        claims = data.draw(st.permutations(claims))
        calls = []
        for p, y in claims:
            decision = data.draw(st.sampled_from(["stop", "continue"]))
            calls.append({"player": p, "yaku": y, "decision": decision})
            if decision == "stop":
                break
        if calls[-1]["decision"] == "stop":
            others = [p for p in active if p != calls[-1]["player"]]
            hatto = data.draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
    carry = data.draw(st.lists(st.sampled_from([2, 4]), max_size=2)) if mode == "carry" else []
    kwargs = {
        "players": players,
        "dealer": dealer,
        "hands": {p: hands[p] for p in active},
        "dropped": dropped,
        "mizuten": mizuten,
        "piles": piles,
        "carry": carry,
        "dekiyaku": calls,
        "hatto": hatto,
    }
    if data.draw(st.booleans()):
        kwargs["field"] = field
    else:
        kwargs["multiplier"] = data.draw(st.sampled_from([1, 2, 4]))
    return r, kwargs


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_every_round_sums_to_zero(data):
    r, kwargs = _deal_round(data)
    result = settle_round(r, **kwargs)
    check_books(result)
    event(f"{result.outcome}, {len(result.active)} active, {len(result.players)} seated")
    assert set(result.net) == set(kwargs["players"])
    assert result.winner in result.active
    assert all(p.frm in result.net and p.to in result.net for p in result.payments)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 50)
    | st.sampled_from(["A", "B", "D", "Z", "akatan", "stop", "pine-crane", "continue", ""]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["A", "B", "C", "D", "order", "forced", "hand", "player", "yaku", "decision"]
            ),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(ROUND_KEYS),
    JSON_VALUES,
)
def test_any_bad_value_is_a_referee_error(key, value):
    # Any value in any key gives a RefereeError or a balanced result, never a crash.
    # Found this way once: "players": [[]] raised TypeError (unhashable list).
    import json
    from importlib import resources

    from referee.errors import RefereeError
    from referee.hachihachi import settle_round_json

    data = json.loads(
        resources.files("referee").joinpath("examples/hachihachi-round.json").read_text("utf-8")
    )
    data[key] = value
    error = None
    try:
        out = settle_round_json(data)
    except RefereeError as e:
        error = e
    if error is None:
        assert sum(out["net"].values()) == 0
    else:
        assert error.code
        assert str(error)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(
        [
            "players",
            "dealer",
            "rounds",
            "options",
            "ruleset",
            "round.dealer",
            "round.carry",
            "round.piles",
            "round.players",
            "round.dekiyaku",
        ]
    ),
    JSON_VALUES,
)
def test_any_bad_game_value_is_a_referee_error(key, value):
    import json
    from importlib import resources

    from referee.errors import RefereeError
    from referee.hachihachi import play_game_json

    data = json.loads(
        resources.files("referee").joinpath("examples/hachihachi-game.json").read_text("utf-8")
    )
    if key.startswith("round."):
        data["rounds"][1][key.removeprefix("round.")] = value
    else:
        data[key] = value
    error = None
    try:
        out = play_game_json(data)
    except RefereeError as e:
        error = e
    if error is None:
        # The antes sit in the jackpot until the last round is played.
        held = 0 if out["complete"] else out["jackpot"]
        assert sum(s["mon"] for s in out["standings"]) == -held
    else:
        assert error.code
