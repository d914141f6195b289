"""Before and after of a corrected hand, as rows a phone can show side by side.

A hand is a hand object (docs/record-format.md); nested objects (melds by seat, tricks by side) become
one row per seat or side, e.g. {"tricks": {"NS": 15}} -> ("Trick points N–S", "15"). Seats, sides, suits and
meld items read in the page's language ("Body ze zdvihů S–J", "Srdce"), as on the game page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from scoring.labels import BID_STEP_NAMES, MELD_NAMES, SEAT_NAMES, SUIT_NAMES, side_short
from scoring.rules.scale import shown
from scoring.rules.tables import SEAT_ORDER

_LABELS = {
    "bidder": gettext_lazy("Bidder"),
    "bid": gettext_lazy("Bid"),
    "trump": gettext_lazy("Trump"),
    "melds": gettext_lazy("Melds"),
    "meld_points": gettext_lazy("Meld points"),
    "tricks": gettext_lazy("Trick points"),
    "tricks_won": gettext_lazy("Tricks won"),
    "passed": gettext_lazy("All passed"),
    "conceded": gettext_lazy("Conceded"),
    # A game taken out of its club (HandChange.Action.FILING).
    "club": gettext_lazy("Club"),
    "season": gettext_lazy("Season"),
    # A change of the game's settings (HandChange.Action.SETTINGS, scoring/game_settings.py).
    "players": gettext_lazy("Name"),
    "first_dealer": gettext_lazy("First dealer"),
    "target": gettext_lazy("Play to"),
    "min_bid": gettext_lazy("Minimum bid"),
    "meld_needs_trick": gettext_lazy("House rule: meld needs a trick"),
    "deals": gettext_lazy("Deals in the game"),
    "bid_steps": gettext_lazy("Bid steps"),
    "meld_counts_from": gettext_lazy("Meld counts from"),
    "spread": gettext_lazy("Winning spread"),
    "scale": gettext_lazy("Points shown"),
}
_ORDER = list(_LABELS)


@dataclass(frozen=True)
class ChangeRow:
    field: str
    before: str
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after


def _word(value: Any, names: Mapping[str, Any]) -> str:
    """The value's name in the page's language, without the card reminder in brackets ("Run", not
    "Run (A 10 K Q J of trump)"): the before-and-after columns stay narrow on a phone."""
    if isinstance(value, str) and value in names:
        return re.sub(r" \(.*\)$", "", str(names[value]))
    return str(value).replace("_", " ")


def _text(value: Any, key: str = "") -> str:
    top = key.split("\t", 1)[0]
    if value is None:
        return "—"
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    if isinstance(value, list):
        return ", ".join(_word(item, MELD_NAMES) for item in value) or "—"
    if top == "players" and value == "":
        return "—"
    if top in ("bidder", "first_dealer"):
        return _word(value, SEAT_NAMES)
    if top == "trump":
        return _word(value, SUIT_NAMES)
    if top == "bid_steps":
        return _word(value, BID_STEP_NAMES)
    if top == "scale":
        return f"×{value}"
    return str(value)


def _place(sub: str) -> str:
    """A seat in words ("North"), a side by its letters ("N–S"), in the page's language."""
    return str(SEAT_NAMES[sub]) if sub in SEAT_NAMES else side_short(sub)


def _flatten(hand: Mapping[str, Any] | None) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in (hand or {}).items():
        if isinstance(value, Mapping):
            for sub, inner in value.items():
                flat[f"{key}\t{sub}"] = inner
        else:
            flat[key] = value
    return flat


#: Seats clockwise, then the partnerships N–S before E–W: the order of the game page's columns.
_PLACES = [*SEAT_ORDER, "NS", "EW"]


def _order(key: str) -> tuple[int, str, int, str]:
    """Record order for the fields, seats and sides in table order within a field: never the order
    of the stored JSON's keys (PostgreSQL's jsonb keeps its own, and a phone may send any)."""
    top, _tab, sub = key.partition("\t")
    place = _PLACES.index(sub) if sub in _PLACES else len(_PLACES)
    return (_ORDER.index(top) if top in _ORDER else len(_ORDER), top, place, sub)


def _label(key: str) -> str:
    top, _tab, sub = key.partition("\t")
    name = str(_LABELS.get(top, top.replace("_", " ")))
    return f"{name} {_place(sub)}" if sub else name


#: The fields of a hand or of the settings that are point figures (drawn at the game's scale).
_POINTS = frozenset({"bid", "meld_points", "tricks", "target", "min_bid", "meld_counts_from", "spread"})


def _at_scale(flat: dict[str, Any], scale: int) -> dict[str, Any]:
    """The point figures of a flattened hand or settings as the game shows them (scoring.rules.scale)."""
    if scale == 1:
        return flat
    return {
        key: shown(value, scale)
        if key.split("\t", 1)[0] in _POINTS and isinstance(value, int) and not isinstance(value, bool)
        else value
        for key, value in flat.items()
    }


def change_rows(
    old: Mapping[str, Any] | None, new: Mapping[str, Any] | None, scale: int = 1
) -> list[ChangeRow]:
    """Every field of either hand, in record order (seats and sides in table order), before and
    after; point figures at the game's `scale`."""
    before, after = _at_scale(_flatten(old), scale), _at_scale(_flatten(new), scale)
    keys = sorted(dict.fromkeys([*before, *after]), key=_order)
    return [ChangeRow(_label(key), _text(before.get(key), key), _text(after.get(key), key)) for key in keys]
