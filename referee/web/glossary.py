"""The glossary of the Help page: hanafuda words in players' words, one anchor per term.

``TERMS`` is the page's content (``/help#<id>``); ``kind_cards`` lists the cards of a
kind from the card table, so the glossary never names a card by hand.
``line_anchor`` says where an explanation line's ``code`` is explained: a term here
(``("glossary", id)``) or a section or yaku of the ruleset's own page
(``("rules", anchor)``).  Must not import Flask or the store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.cards import BY_ID, CARDS, Card

_COUNT_WORDS = ("none", "one", "two", "three", "four")


def _chaff_text() -> str:
    """The kasu entry, its counts read from the card table: how many chaff most months have, and the
    months that differ ("willow has one (the lightning card), and paulownia three")."""
    per_month: dict[int, list[str]] = {}
    for c in CARDS:
        per_month.setdefault(c.month, [])
        if c.kind == "chaff":
            per_month[c.month].append(c.id)
    counts = [len(ids) for ids in per_month.values()]
    usual = max(sorted(set(counts)), key=counts.count)
    odd = []
    for month, ids in per_month.items():
        if len(ids) != usual:
            plant = next(c.plant for c in CARDS if c.month == month).replace("-", " ")
            only = f" (the {_bare_name(BY_ID[ids[0]])} card)" if len(ids) == 1 else ""
            odd.append(f"{plant}{' has' if not odd else ''} {_COUNT_WORDS[len(ids)]}{only}")
    differ = "; " + (", and ".join(odd) if len(odd) < 3 else ", ".join(odd[:-1]) + ", and " + odd[-1]) if odd else ""
    return (f"The plain cards with only the month's plant. Most months have {_COUNT_WORDS[usual]}{differ}. In "
            "Go-Stop they are pi (피), and some count as two (쌍피): each game's rules page says which.")


def _bare_name(card: Card) -> str:
    """A card's English name without its plant or its note: ``Willow lightning (gate)`` -> ``lightning``."""
    name = re.sub(r"\s*\([^)]*\)", "", card.name)
    plant = card.plant.replace("-", " ")
    return name[len(plant):].strip() if name.lower().startswith(plant) else name


@dataclass(frozen=True)
class Term:
    """One glossary entry: ``id`` (its anchor), the word romanised, in its script (kanji, or hangul
    with ``lang`` ``ko``) and in English, and what it means."""

    id: str
    word: str
    kanji: str
    english: str
    text: str
    kind: str = ""
    lang: str = "ja"


TERMS: tuple[Term, ...] = (
    Term("hikari", "hikari", "光", "brights",
         "The five cards with the big pictures: the most valuable cards.", "bright"),
    Term("tane", "tane", "種", "animals",
         "The cards showing an animal, or a thing such as the sake cup or the bridge.", "animal"),
    Term("tanzaku", "tanzaku", "短", "ribbons",
         "The cards with a paper ribbon: red ones with writing (poetry ribbons), blue ones, and plain red ones.",
         "ribbon"),
    Term("kasu", "kasu", "カス", "chaff", _chaff_text(), "chaff"),
    Term("month", "tsuki", "月", "month",
         "The deck has twelve months of four cards, each month a plant: pine, plum, cherry, wisteria, iris, peony, "
         "bush clover, pampas, chrysanthemum, maple, willow and paulownia. You capture a card with one of its "
         "month."),
    Term("card-points", "fuda no ten", "札の点", "card points",
         "What the cards in your pile are worth before any yaku. Each game has its own values: the rules page "
         "of each game lists them."),
    Term("pile", "tori-fuda", "取り札", "pile (captured cards)",
         "The cards a player captured during the round. The referee scores each player's pile."),
    Term("yaku", "yaku", "役", "scoring set",
         "A set of cards that scores extra when one player holds all of it (or enough of it): for example the "
         "three poetry ribbons. Each game's rules page lists its yaku, their cards and their values."),
    Term("teyaku", "teyaku", "手役", "lucky hand (hand yaku)",
         "A yaku in the cards you were dealt, before any play: three of a month, all chaff, and so on. Enter the "
         "dealt hands for the referee to find them."),
    Term("dekiyaku", "dekiyaku", "出来役", "captured yaku (Hachi-hachi)",
         "In Hachi-hachi, a yaku made from captured cards during play, such as the poetry ribbons (akatan). "
         "Whoever makes one chooses to stop or continue."),
    Term("oya", "oya", "親", "dealer",
         "The dealer, who plays first. The scoreboard marks the oya of the next round."),
    Term("seon", "seon", "선", "dealer (Go-Stop)",
         "Go-Stop's word for the dealer, who plays first. The scoreboard marks the seon of the next round: the "
         "last round's winner, or the same seon after a nagari.", lang="ko"),
    Term("field", "ba", "場", "field",
         "The cards dealt face up in the middle. In Hachi-hachi, the brights on the field set the round's "
         "multiplier."),
    Term("fuke", "fuke", "吹き消し", "void round",
         "In Roppyakken, when a player's count (usually card points plus yaku) is at or below the threshold (30 "
         "unless your house rules say otherwise) after a round, the round is blown out: nobody scores it and the "
         "same oya deals again."),
    Term("void", "", "", "void round",
         "A round that scores nothing because of fuke. It is marked “fuke · void” on the scoreboard."),
    Term("instant-win", "", "", "instant win",
         "A yaku that wins the whole game at once when a round ends, such as four brights (shiko) in Roppyakken."),
    Term("misdeal", "", "", "misdeal",
         "A deal that has to be done again, such as all four cards of one month on the field. Nothing is scored."),
    Term("settlement", "seisan", "精算", "settlement",
         "How a round's score turns into what it adds to the totals: as it is, only the difference between the "
         "top two (Yukbaek), or rounded up to a hundred (Sambong)."),
    Term("target", "", "", "target",
         "The total that ends the game, such as 600 in Roppyakken."),
    Term("kan", "kan", "貫", "kan (money)",
         "Hachi-hachi's big unit of money. 1 kan is 12 mon (or 10 by house rule). Amounts show as “2 kan 6 mon”."),
    Term("mon", "mon", "文", "mon (money)",
         "Hachi-hachi's small unit of money. An amount carries its sign in front: paying 17 mon shows as "
         "“\u22121 kan 5 mon”, receiving 30 as “+2 kan 6 mon”."),
    Term("jeom", "jeom / jeomdang", "점 / 점당", "points and the stake (Go-Stop)",
         "Go-Stop scores in points (점); each point is paid at the table's stake (점당, 100 unless your house "
         "rules say otherwise). Amounts show as money with their points: “2,400 (24점)”.", lang="ko"),
    Term("nagari", "nagari", "나가리", "void round (Go-Stop)",
         "In Go-Stop, a round nobody stopped: nobody pays (ppeok payments stand), the same seon deals again, and "
         "the next round pays double (doubling again after each nagari in a row).", lang="ko"),
    Term("multiplier", "", "", "field multiplier",
         "In Hachi-hachi, a bright on the field doubles (×2) or quadruples (×4) every payment of the round."),
    Term("ante", "", "", "ante and jackpot",
         "In Hachi-hachi, each player puts in an ante at the start (5 kan for 12 rounds, 3 kan for 6), so "
         "totals start below zero. The antes make the jackpot, which the best total takes at the end."),
    Term("stop-continue", "shoubu / sage", "勝負 / 下げ", "stop or continue",
         "After making a dekiyaku, a player stops (the round ends and they are paid) or continues for more, at a "
         "risk."),
    Term("hatto", "hatto", "はっと", "hatto (one card short)",
         "A player one card short of a dekiyaku when another player stops. The other loser pays alone."),
    Term("mizuten", "mizuten", "不見転", "Mizuten (blind play)",
         "The dealer commits to play before looking at the hand: a bet on collecting 89 card points or more."),
    Term("koi-koi", "koi-koi / shōbu", "こいこい / 勝負", "play on or stop (Koi-Koi)",
         "In Koi-Koi, a player who makes a yaku either stops (shōbu) and scores, or calls koi-koi and plays on for "
         "more. Only the player who stops scores, doubled if the other player had called koi-koi."),
    Term("drop-out", "", "", "dropping out",
         "With 4 to 6 at the table, only 3 play a round; the others drop out, paying a fee, or are forced out."),
    Term("entered-totals", "", "", "entered totals",
         "A round the table scored on paper: only each player's total was entered, with the number pad, not the "
         "cards. The explanation shows one “Entered total” line per player; yaku, fuke and instant wins are "
         "not checked (tick “Fuke” for a round your table found void). In Hachi-hachi the amounts must add "
         "up to zero."),
)
TERM_IDS = frozenset(t.id for t in TERMS)

#: Explanation line codes explained by a glossary term.
_GLOSSARY_CODES = {
    "cards:hikari": "hikari",
    "cards:tane": "tane",
    "cards:tanzaku": "tanzaku",
    "cards:kasu": "kasu",
    "entered-total": "entered-totals",
}
#: Explanation line codes explained by a section of the ruleset's page (``referee.describe``).
_RULES_CODES = {
    "overview": "overview",
    "fuke": "fuke",
    "settlement": "settlement",
    "chaff-upgrade": "yaku",
    "teyaku": "teyaku",
    "teyaku-bonus": "teyaku",
    "teyaku-refund": "special",
    "dekiyaku": "dekiyaku",
    "cards": "card-points",
    "dropout-hand": "drop-outs",
    "forced-out": "drop-outs",
    "dropout-fee": "drop-outs",
    "mizuten": "mizuten",
    "seven-plus": "multipliers",
    "opponent-koikoi": "multipliers",
    "own-koikoi": "multipliers",
    "oyaken": "hands-ran-out",
    "not-scored": "stopping",
}


def line_anchor(code: str) -> tuple[str, str]:
    """Where an explanation line's ``code`` is explained: ``("glossary", term id)`` or
    ``("rules", anchor)``; a yaku, teyaku or dekiyaku id is ``("rules", "y-<id>")``."""
    if code in _GLOSSARY_CODES:
        return "glossary", _GLOSSARY_CODES[code]
    if code in _RULES_CODES:
        return "rules", _RULES_CODES[code]
    if code.startswith("special:"):
        return "rules", "special"
    return "rules", f"y-{code}"


def kind_cards(kind: str) -> list[str]:
    """The English names of the cards of a kind (``bright``...), from the card table."""
    return [c.name for c in CARDS if c.kind == kind]
