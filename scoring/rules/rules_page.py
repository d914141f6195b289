"""The numbers the rules page (/rules/) states, each worked out from the rule tables
(`tables.py`): the defaults, the double deck's bid steps, the meld table by deck, the roundhouse,
the last trick, the tricks per hand and the chip schedules. Plain Python, like the rest of the
engine; pinochle_site's rules view passes them to templates/rules.html.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from scoring.rules.engine import score_record
from scoring.rules.melds import meld_sum
from scoring.rules.scale import shown
from scoring.rules.tables import (
    CHECK_SEATS,
    COPIES,
    DECKS,
    DOUBLE_DECK_BY_ONES,
    GAME_CHIPS_BASE,
    MAX_BID,
    MAX_TARGET,
    MELD_ITEMS,
    ROUNDHOUSE_CHIPS,
    SLAM_CHIPS,
    TENS,
    TENS_ABOVE,
    TENS_MULTIPLE,
    TRICK_POINTS,
    TRICKS_PER_HAND,
    contract_chips,
    default_min_bid,
    default_target,
    game_chips,
    next_bid,
    seat_counts_for,
)
from scoring.rules.worked_example import hand_table


@dataclass(frozen=True, slots=True)
class MeldTableRow:
    """One row of the rules page's meld table: an item's points by deck and its chips."""

    name: str
    single: int | None
    double: int | None
    chips: int | None  # None where Check Pinochle cannot have the item (double deck only)


@dataclass(frozen=True, slots=True)
class ChipBand:
    """Bids that pay the same contract chips: `made` to bidders who make it, `set` to the defenders."""

    low: int | None  # None for the first band ("up to …"), whatever the table's minimum bid
    high: int
    made: int
    set: int


class RulesNumbers(TypedDict):
    """Every number the rules page states, read from the rule tables."""

    defaults: list[tuple[str, int, int]]
    max_bid: int
    max_target: int
    double_min_bid: int
    double_ones_limit: int
    double_bid_example: list[int]
    meld_rows: list[MeldTableRow]
    around_factors: tuple[float, float]
    kings_points: int
    queens_points: int
    marriage_points: int
    trump_marriage_points: int
    roundhouse_points: int
    roundhouse_chips: int
    plain_roundhouse_chips: int
    trick_points: dict[str, int]
    last_trick_single: int
    last_trick_double: int
    tricks_per_hand: list[tuple[int, int, int]]
    check_tricks: int
    contract_bands: list[ChipBand]
    contract_step: int
    band_width: int
    slam_chips: int
    game_chips_base: int
    game_chip_rows: list[tuple[int, int, int]]


def meld_table_rows() -> list[MeldTableRow]:
    """One row per meld item, in table order, for both decks.

    >>> meld_table_rows()[2]
    MeldTableRow(name='triple_run', single=None, double=225, chips=None)
    """
    return [
        MeldTableRow(
            name=item.name,
            single=item.single,
            double=item.double,
            chips=item.chips if item.single is not None else None,
        )
        for item in MELD_ITEMS.values()
    ]


def contract_bands(last_bid: int = 49) -> list[ChipBand]:
    """Bids grouped by the contract chips they pay, from the single-deck minimum to `last_bid`.

    >>> [(b.low, b.high, b.made, b.set) for b in contract_bands(34)]
    [(None, 24, 2, 4), (25, 29, 4, 8), (30, 34, 7, 14)]
    """
    bands: list[ChipBand] = []
    for bid in range(default_min_bid("single"), last_bid + 1):
        chips = contract_chips(bid)
        if bands and bands[-1].made == chips:
            bands[-1] = ChipBand(bands[-1].low, bid, chips, 2 * chips)
        else:
            bands.append(ChipBand(bid if bands else None, bid, chips, 2 * chips))
    return bands


def game_chip_rows(rows: int = 3) -> list[tuple[int, int, int]]:
    """(lowest lead, highest lead, game chips) for the first `rows` tens of lead, after the
    "no lead" row (0, 0, …).

    >>> game_chip_rows(2)
    [(0, 0, 10), (1, 10, 11), (11, 20, 12)]
    """
    table = [(0, 0, game_chips(0))]
    for tens in range(rows):
        low, high = 10 * tens + 1, 10 * (tens + 1)
        table.append((low, high, game_chips(high)))
    return table


def bid_run(start: int, min_bid: int, deck: str, count: int, *, steps: str = "standard") -> list[int]:
    """`count` legal bids from `start` upwards, as the stepper's "+" goes.

    >>> bid_run(58, 50, "double", 5)
    [58, 59, 60, 65, 70]
    """
    bids = [start]
    while len(bids) < count:
        bids.append(next_bid(bids[-1], min_bid, deck, steps))
    return bids


def _points(name: str, deck: str) -> int:
    """The points of a meld item that exists in `deck`."""
    points = MELD_ITEMS[name].points(deck)
    if points is None:
        raise ValueError(f"{name} cannot be melded with a {deck} deck")
    return points


def rules_numbers() -> RulesNumbers:
    """Every number the rules page states, each worked out from the rule tables: the defaults,
    the double deck's bid steps, the meld table, the roundhouse, the last trick, the tricks per
    hand and the chip schedules.

    >>> numbers = rules_numbers()
    >>> numbers["roundhouse_points"], numbers["plain_roundhouse_chips"], numbers["last_trick_single"]
    (24, 7, 1)
    >>> numbers["double_bid_example"], numbers["contract_step"], numbers["band_width"]
    ([58, 59, 60, 65, 70], 3, 5)
    """
    # The plainest roundhouse: kings and queens around, the three marriages outside trump and the
    # trump marriage they make (docs/rules.md, "Roundhouse"), added up as a seat's meld is.
    roundhouse = {"kings": 1, "queens": 1, "marriage": 3, "trump_marriage": 1}
    roundhouse_points, roundhouse_chips = meld_sum(roundhouse, "single", chips_in_play=True)
    # The counters are the aces, tens and kings of four suits; the last trick brings the rest.
    counters = {deck: COPIES[deck] * 4 * 3 for deck in DECKS}
    double_min = default_min_bid("double")
    bands = contract_bands()
    last = bands[-1]
    return {
        "defaults": [
            ("single", default_target("single", "standard"), default_min_bid("single")),
            ("double", default_target("double", "standard"), default_min_bid("double")),
            ("check", default_target("single", "check"), default_min_bid("single")),
        ],
        "max_bid": MAX_BID,
        "max_target": MAX_TARGET,
        "double_min_bid": double_min,
        "double_ones_limit": double_min + DOUBLE_DECK_BY_ONES,
        "double_bid_example": bid_run(double_min + DOUBLE_DECK_BY_ONES - 2, double_min, "double", 5),
        "meld_rows": meld_table_rows(),
        "around_factors": (
            _points("triple_aces", "double") / _points("double_aces", "double"),
            _points("quadruple_aces", "double") / _points("double_aces", "double"),
        ),
        "kings_points": _points("kings", "single"),
        "queens_points": _points("queens", "single"),
        "marriage_points": _points("marriage", "single"),
        "trump_marriage_points": _points("trump_marriage", "single"),
        "roundhouse_points": roundhouse_points,
        "roundhouse_chips": ROUNDHOUSE_CHIPS,
        "plain_roundhouse_chips": roundhouse_chips,
        "trick_points": dict(TRICK_POINTS),
        "last_trick_single": TRICK_POINTS["single"] - counters["single"],
        "last_trick_double": TRICK_POINTS["double"] - counters["double"],
        "tricks_per_hand": [
            (seats, TRICKS_PER_HAND["single"][seats], TRICKS_PER_HAND["double"][seats])
            for seats in seat_counts_for("standard")
        ],
        "check_tricks": TRICKS_PER_HAND["single"][CHECK_SEATS],
        "contract_bands": bands,
        "contract_step": last.made - bands[-2].made,
        "band_width": last.high - last.low + 1 if last.low is not None else 5,
        "slam_chips": SLAM_CHIPS,
        "game_chips_base": GAME_CHIPS_BASE,
        "game_chip_rows": game_chip_rows(),
    }


def _played(bid: int, meld: tuple[int, int], tricks: tuple[int, int]) -> dict[str, object]:
    """A 4-seat hand of N's bid with plain meld points, for the house rules' examples."""
    return {
        "bidder": "N",
        "bid": bid,
        "meld_points": {"NS": meld[0], "EW": meld[1]},
        "tricks": {"NS": tricks[0], "EW": tricks[1]},
    }


def house_rule_examples() -> dict[str, dict[str, object]]:
    """The rules page's worked example of each house rule (docs/rules.md), scored by the engine.

    >>> examples = house_rule_examples()
    >>> examples["tens"]["bids"], examples["board"]["ns_points"], examples["spread"]["lead"]
    ([95, 100, 110, 120, 130], -55, 50)
    >>> examples["scale"]["bid"], examples["scale"]["ns_points"], examples["scale"]["ns_to_go"]
    (270, 360, 1140)
    """
    board_hand = _played(55, (40, 10), (18, 32))
    board = score_record({"deck": "double", "options": {"meld_counts_from": 20}, "hands": [board_hand]})
    plain = score_record({"deck": "double", "hands": [board_hand]})
    spread_hands = [_played(20, (30, 0), (20, 5)), _played(20, (10, 10), (15, 10))]
    spread = score_record({"options": {"spread": 50}, "hands": spread_hands})
    deals_hands = [_played(20, (30, 0), (20, 5)), _played(25, (10, 20), (10, 15))]
    deals = score_record({"options": {"deals": 2}, "hands": deals_hands})
    example = hand_table()
    target = default_target("single", "standard")
    return {
        "tens": {
            "above": TENS_ABOVE,
            "multiple": TENS_MULTIPLE,
            "bids": bid_run(95, default_min_bid("double"), "double", 5, steps=TENS),
            "standard_bids": bid_run(95, default_min_bid("double"), "double", 5),
        },
        "board": {
            "number": 20,
            "bid": 55,
            "ns_meld": 40,
            "ns_took": 18,
            "ns_points": board["hands"][0]["points"]["NS"],
            "ew_meld": 10,
            "ew_took": 32,
            "ew_points": board["hands"][0]["points"]["EW"],
            "plain_ns": plain["hands"][0]["points"]["NS"],
            "plain_ew": plain["hands"][0]["points"]["EW"],
        },
        "deals": {
            "deals": 2,
            "first": deals["hands"][0]["totals"],
            "scores": deals["result"]["scores"],
        },
        "spread": {
            "spread": 50,
            "first": spread["hands"][0]["totals"],
            "scores": spread["result"]["scores"],
            "lead": spread["result"]["scores"]["NS"] - spread["result"]["scores"]["EW"],
            "hand": len(spread["hands"]),
        },
        "scale": {
            "bid": shown(example["bid"], 10),
            "tricks": shown(example["tricks"][0], 10),
            "meld": shown(example["meld"][0], 10),
            "ns_points": shown(example["points"][0], 10),
            "ew_points": shown(example["points"][1], 10),
            "stored_bid": example["bid"],
            "stored_ns": example["points"][0],
            "ns_to_go": shown(target - example["points"][0], 10),
            "target": shown(target, 10),
            "min_bid": shown(default_min_bid("single"), 10),
            "trick_points": shown(TRICK_POINTS["single"], 10),
        },
    }
