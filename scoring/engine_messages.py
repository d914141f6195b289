"""The engine's RecordError in the player's language.

The engine (`scoring/rules/`) is plain Python and speaks English: its `message` is what the
`score_game` command prints. Each RecordError also carries a stable `code` and the `params` its
sentence needs; this module maps the code to a translated sentence and fills in the values,
naming seats, sides, suits, meld items and cards in the player's words (`scoring.labels`).

English pages keep the engine's own sentence (`humanize`), so what an English player reads is
exactly what the command line says. A code without a sentence here falls back to that English
sentence; `tests/test_engine_messages.py` fails when the engine raises a code missing here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from scoring.labels import MELD_NAMES, SEAT_NAMES, side_short
from scoring.rules import RecordError
from scoring.rules.tables import MELD_ITEMS

MESSAGES: Mapping[str, Promise] = {
    "invalid": _("This entry is not right."),
    # --- values of the wrong kind (mostly from imported files) ---
    "not_whole_number": _("%(name)s must be a whole number, not %(value)s."),
    "negative": _("%(name)s must not be negative (got %(value)s)."),
    "too_low": _("%(name)s must be at least %(low)s (got %(value)s)."),
    "too_high": _("%(name)s must be at most %(high)s (got %(value)s)."),
    "not_one_of": _("%(name)s must be one of %(choices)s, not %(value)s."),
    "not_object": _("%(name)s must be an object, not %(value)s."),
    "not_boolean": _("%(name)s must be true or false, not %(value)s."),
    "unknown_field": _("%(name)s is not a field of a game record."),
    # --- the game's settings ---
    "bad_seats": _("A game has 2, 3 or 4 players, not %(value)s."),
    "check_needs_four": _("Check Pinochle is played by four players only, not %(seats)s."),
    "player_name_not_text": _("The name at %(seat)s must be text, not %(value)s."),
    "player_name_too_long": _("The name at %(seat)s is longer than %(max)s characters."),
    "hands_not_list": _("The hands must be a list of hands."),
    "game_over": _("The game ended after hand %(hand)s; no hand may be recorded after the end."),
    # --- bidding ---
    "pass_not_allowed": _("Only in Check Pinochle may all four pass; in this game someone must bid."),
    "passed_has_field": _("A hand where everybody passed has no %(key)s."),
    "bidder_required": _("Every hand has a bidder in this game."),
    "nobid_conceded": _("A hand with no bid cannot be conceded."),
    "bid_without_bidder": _("A bid needs a bidder."),
    "bid_missing": _("The bidder's bid is missing."),
    "bid_below_minimum": _("Bid %(bid)s is below the minimum bid of %(min_bid)s."),
    "bid_off_step": _("Bid %(bid)s is off its step: above %(top)s a double-deck bid is a multiple of 5."),
    "trump_required": _("The bidder must name trump in Check Pinochle."),
    "conceded_has_field": _("A conceded hand is not played, so it has no %(key)s."),
    # --- tricks ---
    "tricks_missing": _("The trick points of each side are missing."),
    "tricks_total": _("The trick points add up to %(total)s; they must add up to %(expected)s."),
    "tricks_won_total": _("The tricks won add up to %(total)s; a hand has %(expected)s tricks."),
    "slam_points": _("%(side)s won every trick, so they took all %(points)s trick points."),
    "no_trick_points": _("%(side)s won no trick, so they cannot have %(points)s trick points."),
    "not_a_side": _("%(name)s: %(key)s is not a side of this table (%(sides)s)."),
    "side_missing": _("%(name)s: the points of %(side)s are missing."),
    # --- melds ---
    "meld_both": _("Give either the melds or plain meld points for a hand, not both."),
    "meld_points_in_check": _(
        "Plain meld points are refused in Check Pinochle, where the chips depend on which melds "
        "were shown; pick the melds."
    ),
    "not_a_seat": _("%(seat)s is not a seat of this table (%(seats)s)."),
    "trump_marriage_check": _(
        "In Check Pinochle the bidder must hold a marriage in trump "
        "(a trump marriage, a run or a roundhouse)."
    ),
    "trump_marriage_double": _(
        "In the double-deck game the bidder must hold a marriage in trump "
        "(a trump marriage, a run or a roundhouse)."
    ),
    "meld_not_list": _("%(name)s must be a list of melds."),
    "too_many_melds": _("%(name)s lists %(count)s melds, more than a hand can hold."),
    "not_meld_item": _("%(name)s: %(item)s is not a meld."),
    "meld_not_in_single_deck": _("%(item)s is not a meld in a single deck (it has no nines)."),
    "meld_not_in_double_deck": _("%(item)s is not a meld in a double deck (only a single deck holds it)."),
    "meld_level_twice": _(
        "%(item)s and another meld of the same kind are listed together; count the kind once "
        "(two runs are a double run)."
    ),
    "roundhouse_incomplete": _(
        "Kings and queens around make a roundhouse, a marriage in every suit: count three marriages "
        "and a trump marriage (or a run) with them."
    ),
    "deck_short": _("The melds need %(need)s of the %(card)s, but the deck has only %(capacity)s."),
    "deck_short_side_suits": _(
        "The marriages and arounds need %(need)s %(card)s, but the deck has only %(capacity)s."
    ),
}

#: The engine's field names (the first part of `RecordError.field`) as a player calls them.
FIELD_NAMES: Mapping[str, Promise] = {
    "record": _("The game record"),
    "hand": _("The hand"),
    "hands": _("The hands"),
    "seats": _("Players"),
    "variant": _("Game"),
    "deck": _("Deck"),
    "target": _("Play to"),
    "min_bid": _("Minimum bid"),
    "first_dealer": _("First dealer"),
    "players": _("Players"),
    "options": _("House rules"),
    "bidder": _("Bidder"),
    "bid": _("Bid"),
    "trump": _("Trump"),
    "melds": _("Melds"),
    "meld_points": _("Meld points"),
    "tricks": _("Trick points"),
    "tricks_won": _("Tricks won"),
    "passed": _("All passed"),
    "conceded": _("Conceded"),
}

#: The cards the deck check names (the `card` param of "deck_short" codes).
CARD_NAMES: Mapping[str, Promise] = {
    "trump ace": _("trump aces"),
    "trump ten": _("trump tens"),
    "trump king": _("trump kings"),
    "trump queen": _("trump queens"),
    "trump jack": _("trump jacks"),
    "trump nine (dix)": _("trump nines (dix)"),
    "ace of a side suit": _("aces of a side suit"),
    "jack of a side suit": _("jacks of a side suit"),
    "king of a side suit": _("kings of a side suit"),
    "queen of a side suit": _("queens of a side suit"),
    "queen of spades": _("queens of spades"),
    "jack of diamonds": _("jacks of diamonds"),
    "kings of the side suits": _("kings of the side suits"),
    "queens of the side suits": _("queens of the side suits"),
}

_ITEM_WORDS = re.compile(r"\b(" + "|".join(sorted(MELD_ITEMS, key=len, reverse=True)) + r")\b")
_PLACE = re.compile(r"^(seat|side)s?$")


def humanize(error: RecordError) -> str:
    """The engine's English message as a player reads it: no field prefix, meld items in words."""
    message = error.message
    prefix = error.field + ":"
    if message.startswith(prefix):
        message = message[len(prefix) :].strip()
    message = _ITEM_WORDS.sub(lambda match: match.group(1).replace("_", " "), message)
    return message[:1].upper() + message[1:]


def _place(value: object) -> str:
    """A seat letter as its name ("Sever"), a side as "N–S"; anything else as it came."""
    text = str(value)
    if text in SEAT_NAMES:
        return str(SEAT_NAMES[text])
    if len(text) == 2 and all(letter in SEAT_NAMES for letter in text):
        return side_short(text)
    return text


def _field(value: object) -> str:
    """A dotted field path ("tricks.NS", "melds.E") in words: "Trick points N–S"."""
    head, _dot, rest = str(value).partition(".")
    if head not in FIELD_NAMES:
        return str(value)
    word = str(FIELD_NAMES[head])
    return f"{word} {_place(rest)}" if rest else word


def _item(value: object) -> str:
    text = str(value).strip("'")
    return str(MELD_NAMES[text]) if text in MELD_NAMES else str(value)


def translated_params(params: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key == "name":
            out[key] = _field(value)
        elif key in ("seat", "side"):
            out[key] = _place(value)
        elif key == "seats":
            out[key] = ", ".join(_place(s.strip()) for s in str(value).split(","))
        elif key == "key":
            out[key] = str(FIELD_NAMES[value]).lower() if value in FIELD_NAMES else _place(value)
        elif key == "item":
            out[key] = _item(value)
        elif key == "card":
            out[key] = str(CARD_NAMES.get(value, value))
        else:
            out[key] = value
    return out


def engine_message(error: RecordError) -> str:
    """The error as one sentence in the active language, without the hand number."""
    template = MESSAGES.get(error.code)
    language = get_language() or "en"
    if template is None or language.startswith("en"):
        return humanize(error)
    try:
        return str(template) % translated_params(error.params)
    except (KeyError, TypeError, ValueError):
        return humanize(error)


def engine_line(error: RecordError) -> str:
    """Like `str(error)` ("hand 3: …") in the active language, for import reports."""
    language = get_language() or "en"
    if language.startswith("en"):
        return str(error)
    message = engine_message(error)
    if error.hand is None:
        return message
    return gettext("Hand %(hand)s: %(message)s") % {"hand": error.hand, "message": message}
