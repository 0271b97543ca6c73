"""What if… and a rule changed afterwards name the game as the new-session form does."""

from __future__ import annotations


# Bug (phone QA): a rule change named the preset's file, not the game.
def test_rule_changes_name_the_game_as_the_new_session_form_does(client, h, keeper):
    """Found on a phone: What if… said "scored with roppyakken", and after Apply the flash and the
    Undo button said "change rules to sanbyakuken": the preset's file name, not the game players
    picked from the list ("Sanbyakuken (三百間)")."""
    client.post(f"/s/{keeper}/round/new", data=h.round_form(h.piles(0)))
    page = client.get(f"/s/{keeper}/what-if").get_data(as_text=True)
    assert "scored with <strong>Roppyakken (六百間)</strong>" in page
    r = client.post(f"/s/{keeper}/what-if", data={"ruleset": "sanbyakuken", "extra": "fuke.threshold=40"})
    assert r.status_code == 303
    board = client.get(f"/s/{keeper}").get_data(as_text=True)
    assert "Rules changed to Sanbyakuken (三百間) with fuke.threshold=40" in board  # the flash
    assert "Undo change rules to Sanbyakuken (三百間) with fuke.threshold=40" in board  # the button
