"""The hand form's meld grid as the template draws them: per seat its items with their counts, its
running sums (added up by the engine) and the errors about its melds; turned around (one row
per item, one count per seat) by `meld_grid`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict

from django_stubs_ext import StrOrPromise

from scoring.labels import MELD_NAMES, seat_label
from scoring.rules.melds import meld_sum
from scoring.rules.settings import Settings
from scoring.rules.tables import MeldItem, most_per_seat


class MeldRow(TypedDict):
    """One meld item's picker in a seat of the hand form."""

    name: str
    item: str
    label: StrOrPromise
    value: Any  # the posted text or the initial count
    max: int
    points: int
    chips: int
    family: str
    rare: bool
    level: int


class MeldSeat(TypedDict):
    """One seat's melds in the hand form: its pickers, sums and errors."""

    seat: str
    label: str
    rows: list[MeldRow]
    rare_open: bool
    higher_open: bool
    errors: list[str]
    points: int
    chip_sum: int


def meld_seats(
    *,
    settings: Settings,
    players: Mapping[str, str],
    items: Sequence[MeldItem],
    value_of: Callable[[str, str], Any],
    group_errors: Mapping[str, list[str]],
) -> list[MeldSeat]:
    """Per seat: its label, its item counts and the errors about its melds. `items` are the
    deck's items (`meld_items_for`), `value_of(seat, item)` what the picker shows for a count."""
    chips = settings.chips_in_play
    deck = settings.deck
    seats: list[MeldSeat] = []
    for seat in settings.seat_letters:
        rows: list[MeldRow] = []
        for item in items:
            value = value_of(seat, item.name)
            points = item.points(deck)
            assert points is not None  # the deck's items only
            rows.append(
                {
                    "name": f"meld_{seat}_{item.name}",
                    "item": item.name,
                    "label": MELD_NAMES[item.name],
                    "value": "" if value is None else value,
                    "max": most_per_seat(item.name, deck),
                    "points": points,
                    "chips": item.chips if chips else 0,
                    "family": item.family,
                    "rare": item.level > 1,
                    "level": item.level,
                }
            )
        errors = group_errors.get(f"melds_{seat}", [])
        # What the seat's sum shows (the page's script keeps it up to date as items are tapped,
        # with the same sums; the preview is the authority).
        points_sum, chip_sum = meld_sum(
            {row["item"]: _count(row["value"]) for row in rows}, deck, chips_in_play=chips
        )
        seats.append(
            {
                "seat": seat,
                "label": seat_label(seat, players),
                "rows": rows,
                # The doubles and above are behind one tap, open when the seat has one counted.
                "rare_open": any(_count(row["value"]) for row in rows if row["rare"]),
                "higher_open": any(_count(row["value"]) for row in rows if row["level"] > 2),
                "errors": errors,
                "points": points_sum,
                "chip_sum": chip_sum,
            }
        )
    return seats


def _count(value: object) -> int:
    try:
        return int(str(value or 0))
    except ValueError:
        return 0


class MeldCell(TypedDict):
    """One seat's count of one item in the grid."""

    row: MeldRow
    seat: str
    seat_label: str


class MeldGridRow(TypedDict):
    """One meld item across the seats: its name, worth and one count per seat."""

    item: str
    label: StrOrPromise
    points: int
    chips: int
    cells: list[MeldCell]


class MeldGrid(TypedDict):
    """Every seat's meld counts at once: the common items, the doubles behind one tap and (double
    deck) the triples and quadruples behind one more, each a row with one count per seat."""

    seats: list[MeldSeat]
    common: list[MeldGridRow]
    rare: list[MeldGridRow]
    rare_open: bool
    higher: list[MeldGridRow]
    higher_open: bool
    errors: list[tuple[str, str]]


def meld_grid(seats: list[MeldSeat]) -> MeldGrid:
    """The seats' pickers turned around: one row per item, one count per seat."""

    def rows(level: Callable[[int], bool]) -> list[MeldGridRow]:
        first = seats[0]["rows"]
        return [
            {
                "item": row["item"],
                "label": row["label"],
                "points": row["points"],
                "chips": row["chips"],
                "cells": [
                    {"row": seat["rows"][index], "seat": seat["seat"], "seat_label": seat["label"]}
                    for seat in seats
                ],
            }
            for index, row in enumerate(first)
            if level(row["level"])
        ]

    return {
        "seats": seats,
        "common": rows(lambda level: level == 1),
        "rare": rows(lambda level: level == 2),
        "rare_open": any(seat["rare_open"] for seat in seats),
        "higher": rows(lambda level: level > 2),
        "higher_open": any(seat["higher_open"] for seat in seats),
        "errors": [(seat["label"], error) for seat in seats for error in seat["errors"]],
    }
