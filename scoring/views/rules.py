"""The "Rules" help page: docs/rules.md in the players' words, every number read from the engine's tables."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.views.decorators.http import require_GET

from scoring.labels import MELD_LABELS
from scoring.rules import check_record, tables
from scoring.rules import worked_example as worked_example_file

#: When the rule book behind this page last changed (shown in the reader's date format).
RULES_DATE = datetime.date(2026, 11, 29)


@dataclass(frozen=True)
class MeldRow:
    label: Promise
    single: int | None
    double: int | None
    chips: int | None  # None where Check Pinochle cannot have the item (double deck only)


@dataclass(frozen=True)
class ChipBand:
    low: int | None  # None for the first band ("up to …"), whatever the table's minimum bid
    high: int
    made: int
    set: int


def meld_rows() -> list[MeldRow]:
    """One row per meld item, in the table order of the engine, for both decks."""
    return [
        MeldRow(
            label=MELD_LABELS[item.name],
            single=item.single,
            double=item.double,
            chips=item.chips if item.single is not None else None,
        )
        for item in tables.MELD_ITEMS.values()
    ]


def contract_bands(last_bid: int = 49) -> list[ChipBand]:
    """Bids grouped by the contract chips they pay, from the single-deck minimum to `last_bid`.

    >>> [(b.low, b.high, b.made, b.set) for b in contract_bands(34)]
    [(None, 24, 2, 4), (25, 29, 4, 8), (30, 34, 7, 14)]
    """
    bands: list[ChipBand] = []
    for bid in range(tables.default_min_bid("single"), last_bid + 1):
        chips = tables.contract_chips(bid)
        if bands and bands[-1].made == chips:
            bands[-1] = ChipBand(bands[-1].low, bid, chips, 2 * chips)
        else:
            bands.append(ChipBand(bid if bands else None, bid, chips, 2 * chips))
    return bands


def game_chip_rows() -> list[tuple[int, int, int]]:
    """(lowest lead, highest lead, game chips) for the first few leads; the first row is "no lead"."""
    rows = [(0, 0, tables.game_chips(0))]
    for tens in range(3):
        low, high = 10 * tens + 1, 10 * (tens + 1)
        rows.append((low, high, tables.game_chips(high)))
    return rows


def worked_example() -> dict[str, Any]:
    """Hand 1 of the worked example (docs/examples/record-example.json) as the engine scores it,
    per side, for the page's table. The page describes its melds in words."""
    record = worked_example_file.record()
    record["hands"] = record["hands"][:1]
    hand = check_record(record).hands[0]
    bid = record["hands"][0]["bid"]

    def row(values: dict[str, int] | Any) -> list[int]:
        return [values["NS"], values["EW"]]

    return {
        "bid": bid,
        "result": hand.result,
        "meld": row(hand.meld),
        "tricks": row(hand.tricks),
        "bidders_total": hand.meld["NS"] + hand.tricks["NS"],
        "points": row(hand.points),
        "meld_chips": row({side: won["meld"] for side, won in hand.chips_won.items()}),
        "contract_chips": row({side: won["contract"] for side, won in hand.chips_won.items()}),
        "chips": row(hand.chips),
    }


def _points(name: str, deck: str) -> int:
    """The points of a meld item that exists in `deck` ("single" or "double")."""
    points: int | None = getattr(tables.MELD_ITEMS[name], deck)
    if points is None:
        raise ValueError(f"{name} cannot be melded with a {deck} deck")
    return points


def rules_context() -> dict[str, Any]:
    items = tables.MELD_ITEMS
    single_counters = tables.COPIES["single"] * 4 * 3  # aces, tens and kings of four suits
    double_counters = tables.COPIES["double"] * 4 * 3
    roundhouse_points = (
        _points("kings", "single")
        + _points("queens", "single")
        + 3 * _points("marriage", "single")
        + _points("trump_marriage", "single")
    )
    double_min = tables.default_min_bid("double")
    bands = contract_bands()
    return {
        "rules_date": RULES_DATE,
        "defaults": [
            ("single", tables.default_target("single", "standard"), tables.default_min_bid("single")),
            ("double", tables.default_target("double", "standard"), tables.default_min_bid("double")),
            ("check", tables.default_target("single", "check"), tables.default_min_bid("single")),
        ],
        "max_bid": tables.MAX_BID,
        "max_target": tables.MAX_TARGET,
        "double_min_bid": double_min,
        "double_ones_limit": double_min + tables.DOUBLE_DECK_BY_ONES,
        "double_bid_example": _bid_run(double_min + tables.DOUBLE_DECK_BY_ONES - 2, double_min, "double", 5),
        "meld_rows": meld_rows(),
        "around_factors": (
            _points("triple_aces", "double") / _points("double_aces", "double"),
            _points("quadruple_aces", "double") / _points("double_aces", "double"),
        ),
        "kings_points": items["kings"].single,
        "queens_points": items["queens"].single,
        "marriage_points": items["marriage"].single,
        "trump_marriage_points": items["trump_marriage"].single,
        "roundhouse_points": roundhouse_points,
        "roundhouse_chips": tables.ROUNDHOUSE_CHIPS,
        "plain_roundhouse_chips": tables.ROUNDHOUSE_CHIPS + items["kings"].chips + items["queens"].chips,
        "trick_points": tables.TRICK_POINTS,
        "last_trick_single": tables.TRICK_POINTS["single"] - single_counters,
        "last_trick_double": tables.TRICK_POINTS["double"] - double_counters,
        "tricks_per_hand": [
            (seats, tables.TRICKS_PER_HAND["single"][seats], tables.TRICKS_PER_HAND["double"][seats])
            for seats in tables.seat_counts_for("standard")
        ],
        "check_tricks": tables.TRICKS_PER_HAND["single"][tables.CHECK_SEATS],
        "contract_bands": bands,
        "contract_step": bands[-1].made - bands[-2].made,
        "band_width": bands[-1].high - bands[-1].low + 1 if bands[-1].low is not None else 5,
        "slam_chips": tables.SLAM_CHIPS,
        "game_chips_base": tables.GAME_CHIPS_BASE,
        "game_chip_rows": game_chip_rows(),
        "example": worked_example(),
    }


def _bid_run(start: int, min_bid: int, deck: str, count: int) -> list[int]:
    bids = [start]
    while len(bids) < count:
        bids.append(tables.next_bid(bids[-1], min_bid, deck))
    return bids


@require_GET
def rules_help(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/rules.html", rules_context())
