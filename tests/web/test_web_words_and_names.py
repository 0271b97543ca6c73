"""Words and names as players read them on a phone (issue 18, the smaller items).

Each test names what it once showed: "has 1 cards", "pile 明子 and Ben has 5 cards", "(option
exhausted = nobody)", a help text ending in "(first_to_target)", "3 to 6 players" beside a form
seating 2, "House rules (21 options)" beside What-if's 23, a duplicate-name error naming only the
new entry, and a name limit that cut 👨‍👩‍👧‍👦 in half.
"""

from __future__ import annotations

import html
import re

import pytest

from referee import api
from referee.cards import CARDS
from referee.web.forms.limits import MAX_NAME
from referee.web.forms.options import option_fields, seat_range
from referee.web.words import merge_warnings

FAMILY = "👨‍👩‍👧‍👦"


def words(r) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", r.get_data(as_text=True))).split())


def _deal(counts: dict[str, int]) -> dict[str, list[str]]:
    ids = iter(c.id for c in CARDS)
    return {p: [next(ids) for _ in range(n)] for p, n in counts.items()}


def test_odd_piles_of_two_players_merge_into_words_that_read_right():
    players = ["明子", "Ben", "Chiyo"]
    piles = _deal({"明子": 5, "Ben": 5, "Chiyo": 1})
    out = api.score_json({"ruleset": "roppyakken", "players": players, "piles": piles})
    said = merge_warnings(out["warnings"], players)
    assert "odd pile for 明子 and Ben (5 cards): captured piles are even (pairs or fours)" in said
    assert "odd pile for Chiyo (1 card): captured piles are even (pairs or fours)" in said
    assert not [w for w in said if "1 cards" in w or " has " in w]


def test_a_koikoi_round_where_the_hands_ran_out_says_why_in_players_words():
    out = api.score_json({"ruleset": "koikoi", "players": ["Aki", "Ben"], "piles": {"Aki": [], "Ben": []},
                          "stopped_by": None})
    (ran_out,) = [w for w in out["warnings"] if w.startswith("the hands ran out")]
    assert "option" not in ran_out
    assert "=" not in ran_out


@pytest.mark.parametrize("preset", api.preset_names())
def test_no_option_help_names_a_json_key(preset):
    _, specs = option_fields(preset)
    keys = [s["key"] for s in specs if re.search(r"\((?:option )?[a-z]+(?:_[a-z]+)+\)\.?$", s["doc"] or "")]
    assert keys == []  # once: first_to_target_wins's help ended "(first_to_target)"


#: What players read of a note the core cites its rule source in (the API and the CLI keep the source).
SOURCE_NOTES = [
    ({"A": 150, "B": 120, "C": 0}, {}, None,
     "A and B reached 100: A wins with the highest total, 150"),
    ({"A": 150, "B": 150, "C": 0}, {}, None,
     "A and B are level at 150, over 100: the game goes on with another round"),
    ({"A": 150, "B": 120, "C": 0}, {"first_to_target_wins": True}, "B",
     "A and B reached 100: B wins, the first to get there (house rule: first to target wins)"),
]


# Bug (phone walk): a win note cited "(RULES.md, Instant wins and the end of the game)" to players.
@pytest.mark.parametrize(("totals", "options", "first", "said"), SOURCE_NOTES,
                         ids=["highest total", "level: the game goes on", "first to the target"])
def test_a_game_note_says_why_in_players_words_without_its_rule_source(totals, options, first, said):
    rnd = {"totals": totals, **({"first_to_target": first} if first else {})}
    out = api.game_json({"ruleset": "roppyakken", "options": {"target": 100, **options}, "players": ["A", "B", "C"],
                         "rounds": [rnd]})
    notes = out["rounds"][0]["warnings"]
    assert any("RULES.md" in n or "seed 002" in n for n in notes)  # the API keeps the source
    assert said in merge_warnings(notes, ["A", "B", "C"])


def test_the_scoreboard_shows_a_win_note_without_its_rule_source(client, h):
    from web_helpers import session, totals

    token = session(client, "roppyakken", ["Aki", "Ben", "Chiyo"], target="100")
    form = totals(h, "n1", 150, 120, 0) | {"round_number": "1"}
    assert client.post(f"/s/{token}/round/new", data=form).status_code == 303
    said = words(client.get(f"/s/{token}"))
    assert "Aki and Ben reached 100: Aki wins with the highest total, 150" in said
    assert not re.search(r"RULES\.md|seed \d|docs/", said)


@pytest.mark.parametrize("preset", api.preset_names())
def test_no_option_help_cites_a_rule_source(preset):
    _, specs = option_fields(preset)
    assert [s["key"] for s in specs if re.search(r"RULES\.md|\bseed \d|docs/", s["doc"] or "")] == []


@pytest.mark.parametrize("preset", [p for p in api.preset_names() if "player" in api.ruleset_json(p)["description"]])
def test_a_presets_description_seats_the_players_its_form_seats(preset):
    from referee import families

    info, specs = option_fields(preset)
    low, high = seat_range(specs, families.get(info["game"]).seats)
    text = re.sub(r"^Two[ -]player", "2 to 2 player", info["description"])
    text = re.sub(r"^Three[ -]player", "3 to 3 player", text)
    counts = re.search(r"(\d) (?:to|or) (\d) player", text)
    assert counts is not None
    assert (int(counts.group(1)), int(counts.group(2))) == (low, high)


def test_new_session_and_what_if_count_the_same_house_rules(client, keeper):
    new = re.search(r"House rules \((\d+) options\)", words(client.get("/new")))
    what_if = re.search(r"House rules \((\d+) options\)", words(client.get(f"/s/{keeper}/what-if")))
    assert new.group(1) == what_if.group(1)


def _form(players, name="t") -> dict:
    form = {"name": name, "ruleset": "roppyakken", "dealer": "0"}
    form.update({f"player-{i}": p for i, p in enumerate(players)})
    return form


def test_a_duplicate_name_error_names_the_player_it_repeats(client):
    r = client.post("/new", data=_form(["Aki", "Ben", "ＡＫＩ"]))
    assert r.status_code == 422
    assert "'ＡＫＩ' is the same player as 'Aki'" in words(r)


def test_a_name_of_ten_family_emoji_is_ten_characters_kept_whole(client):
    name = FAMILY * 10  # 70 code points, 110 UTF-16 units: once cut to a broken 👨👩 by maxlength="40"
    r = client.post("/new", data=_form([name, "Ben", "Chiyo"]))
    assert r.status_code == 303, words(r)[:300]
    token = r.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"/api/v1/sessions/{token}").get_json()["players"][0] == name
    page = client.get("/new").get_data(as_text=True)
    # The box never cuts such a name: app.js lifts its maxlength (MAX_NAME, in UTF-16 units) to data-max-units and
    # counts characters itself (test_home_name_box_limit_browser.py).
    limits = {int(n) for n in re.findall(r'name="player-\d+"[^>]*data-max-units="(\d+)"', page)}
    assert min(limits) >= len(name.encode("utf-16-le")) // 2
    api_made = client.post("/api/v1/sessions", json={"name": "t", "players": [name, "Ben", "Chiyo"]})
    assert api_made.status_code == 201, api_made.get_json()


def test_a_name_over_the_limit_is_refused_naming_its_length_in_characters_cut_whole(client):
    name = FAMILY * (MAX_NAME + 1)
    r = client.post("/new", data=_form([name, "Ben", "Chiyo"]))
    assert r.status_code == 422
    assert f"has {MAX_NAME + 1} characters; keep player names to {MAX_NAME}" in words(r)
    shown = re.search(r"“([^…]*)…” has", words(r)).group(1)
    assert shown == FAMILY * 20  # cut on whole emoji
    api_refused = client.post("/api/v1/sessions", json={"name": "t", "players": [name, "Ben", "Chiyo"]})
    assert api_refused.status_code == 422
    assert f"has {MAX_NAME + 1} characters; at most {MAX_NAME} characters" in api_refused.get_json()["message"]


def test_two_players_on_equal_totals_draw_two_lines_side_by_side(client, keeper):
    for k in range(2):
        r = client.post(f"/api/v1/sessions/{keeper}/rounds",
                        json={"totals": {"Aki": 100, "Ben": 100, "Chiyo": 20}, "form_token": f"eq-{k}"})
        assert r.status_code == 201, r.get_json()
    page = client.get(f"/s/{keeper}").get_data(as_text=True)
    lines = [[tuple(map(float, pt.split(","))) for pt in m.split()]
             for m in re.findall(r'<polyline points="([^"]+)"', page)]
    aki, ben, chiyo = lines
    assert aki != ben  # once drawn one over the other: Ben's line hid Aki's
    assert all(abs(a[1] - b[1]) <= 6 for a, b in zip(aki, ben, strict=True))  # yet both at their true total
    assert [a[0] for a in aki] == [b[0] for b in ben]
    assert chiyo[-1][1] > aki[-1][1]  # below: fewer points


def test_each_player_has_one_colour_on_every_screen(client, keeper, h):
    assert client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0), nonce="c")).status_code == 303
    board = client.get(f"/s/{keeper}").get_data(as_text=True)
    shown = re.findall(r'<li><span class="swatch" style="background: (#\w+)"></span>([^<]+)</li>', board)
    legend = {p: c for c, p in shown}
    assert set(legend) == set(h.players)
    assert len(set(legend.values())) == 3

    def marked(page: str, cls: str) -> dict[str, str]:
        found = re.findall(rf'<span class="{cls}"><span class="swatch" style="background: (#\w+)" aria-hidden="true">'
                           r"</span>([^<]+)", page)
        return {p.strip(): c for c, p in found}

    entry = client.get(f"/s/{keeper}/round/new").get_data(as_text=True)
    assert marked(board, "pname") == legend  # the standings
    assert marked(entry, "tname") == legend  # the round's tabs
    assert marked(entry, "who") == legend  # the live bar
