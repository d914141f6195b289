"""Before and after of a corrected hand, as rows a phone can show side by side.

A hand is a RECORD.md hand object; nested objects (melds by seat, tricks by side) become one row
per seat or side, e.g. {"tricks": {"NS": 15}} -> ("Trick points NS", "15").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy

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


def _text(value: Any) -> str:
    if value is None:
        return "—"
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    if isinstance(value, list):
        return ", ".join(str(item).replace("_", " ") for item in value) or "—"
    return str(value)


def _flatten(hand: Mapping[str, Any] | None) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in (hand or {}).items():
        if isinstance(value, Mapping):
            for sub, inner in value.items():
                flat[f"{key}\t{sub}"] = inner
        else:
            flat[key] = value
    return flat


def _top_order(key: str) -> int:
    top = key.split("\t", 1)[0]
    return _ORDER.index(top) if top in _ORDER else len(_ORDER)


def _label(key: str) -> str:
    top, _tab, sub = key.partition("\t")
    name = str(_LABELS.get(top, top.replace("_", " ")))
    return f"{name} {sub}" if sub else name


def change_rows(old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> list[ChangeRow]:
    """Every field of either hand, in record order, with its value before and after."""
    before, after = _flatten(old), _flatten(new)
    # Record order for the fields; seats and sides in the order the table entered them.
    keys = sorted(dict.fromkeys([*before, *after]), key=_top_order)
    return [ChangeRow(_label(key), _text(before.get(key)), _text(after.get(key))) for key in keys]
