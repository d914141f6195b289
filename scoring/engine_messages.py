"""The engine's RecordError in the player's language.

The engine (`scoring/rules/`) is plain Python and speaks English: its `message` is what the
`score_game` command prints. Each RecordError also carries a stable `code` and the `params` its
sentence needs; this module translates the code's sentence (the engine's own table,
`scoring/rules/errors.py`) and fills in the values, naming seats, sides, suits, meld items and
cards in the player's words (`scoring.labels`).

English pages keep the engine's own sentence (`humanize`), so what an English player reads is
exactly what the command line says. An error built without a code from the table falls back to
that English sentence; `tests/test_engine_messages.py` fails when a code in the table has no
translation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.labels import MELD_NAMES, SEAT_NAMES, side_short
from scoring.rules.errors import MESSAGES as ENGINE_MESSAGES
from scoring.rules.errors import Plural, RecordError
from scoring.rules.tables import MELD_ITEMS

#: The engine's sentences whose noun follows a count (a `Plural` in `scoring.rules.errors`): the
#: same English as there, as plural entries of the catalogues; the third argument names the value
#: that counts. `scoring/tests/test_engine_messages.py` holds the English of the two tables alike.
PLURAL_MESSAGES: Mapping[str, Promise] = {
    "player_name_too_long": ngettext_lazy(
        "players.%(seat)s is longer than %(max)s character",
        "players.%(seat)s is longer than %(max)s characters",
        "max",
    ),
    "tricks_won_total": ngettext_lazy(
        "tricks_won add up to %(total)s, expected the %(expected)s trick of a hand",
        "tricks_won add up to %(total)s, expected the %(expected)s tricks of a hand",
        "expected",
    ),
    "slam_points": ngettext_lazy(
        "side %(side)s won every trick, so it took all %(points)s point",
        "side %(side)s won every trick, so it took all %(points)s points",
        "points",
    ),
    "no_trick_points": ngettext_lazy(
        "side %(side)s won no trick, so it cannot have %(points)s trick point",
        "side %(side)s won no trick, so it cannot have %(points)s trick points",
        "points",
    ),
    "too_many_melds": ngettext_lazy(
        "%(name)s lists %(count)s meld, more than a hand can hold",
        "%(name)s lists %(count)s melds, more than a hand can hold",
        "count",
    ),
}

#: code -> the engine's sentence in the active language. The English sentences of
#: `scoring.rules.errors.MESSAGES` are the msgids (marked there for `makemessages`), so they are
#: written once; the translations live in locale/*/LC_MESSAGES/django.po.
MESSAGES: Mapping[str, Promise] = {
    code: PLURAL_MESSAGES[code] if isinstance(sentence, Plural) else _(sentence)
    for code, sentence in ENGINE_MESSAGES.items()
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

#: The cards the deck check names (the `card` param of "deck_short" codes), in the number and
#: case its sentence needs after the count `need` ("the melds need 3 trump kings"; Czech
#: "potřebují 3 trumfové krále", "5 trumfových králů").
CARD_NAMES: Mapping[str, Promise] = {
    "trump ace": ngettext_lazy("trump ace", "trump aces", "need"),
    "trump ten": ngettext_lazy("trump ten", "trump tens", "need"),
    "trump king": ngettext_lazy("trump king", "trump kings", "need"),
    "trump queen": ngettext_lazy("trump queen", "trump queens", "need"),
    "trump jack": ngettext_lazy("trump jack", "trump jacks", "need"),
    "trump nine (dix)": ngettext_lazy("trump nine (dix)", "trump nines (dix)", "need"),
    "ace of a side suit": ngettext_lazy("ace of a side suit", "aces of a side suit", "need"),
    "jack of a side suit": ngettext_lazy("jack of a side suit", "jacks of a side suit", "need"),
    "king of a side suit": ngettext_lazy("king of a side suit", "kings of a side suit", "need"),
    "queen of a side suit": ngettext_lazy("queen of a side suit", "queens of a side suit", "need"),
    "queen of spades": ngettext_lazy("queen of spades", "queens of spades", "need"),
    "jack of diamonds": ngettext_lazy("jack of diamonds", "jacks of diamonds", "need"),
    "king of the side suits": ngettext_lazy("king of the side suits", "kings of the side suits", "need"),
    "queen of the side suits": ngettext_lazy("queen of the side suits", "queens of the side suits", "need"),
}

_ITEM_WORDS = re.compile(r"\b(" + "|".join(sorted(MELD_ITEMS, key=len, reverse=True)) + r")\b")


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
        elif key in ("item", "family"):
            out[key] = _item(value)
        elif key == "cards" and params.get("card") in CARD_NAMES:
            out[key] = str(CARD_NAMES[params["card"]] % {"need": params["need"]})
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
        return str(template % translated_params(error.params))
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
