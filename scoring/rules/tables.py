"""The numbers of docs/rules.md: tables, defaults, meld items and chip schedules.

Everything here is data or a tiny pure function over it, so the engine, the forms and the
help page all read the same figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Final

from scoring.rules.errors import sentence
from scoring.rules.scale import SCALES, shown, typed_rounded

SEAT_ORDER: Final = "NESW"
SUITS: Final = ("spades", "hearts", "diamonds", "clubs")
VARIANTS: Final = ("standard", "check")
DECKS: Final = ("single", "double")

#: Trick points of one played hand (docs/rules.md, "Trick points"): counters plus the last trick.
TRICK_POINTS: Final = {"single": 25, "double": 50}
#: Tricks in one hand by deck and seat count (docs/rules.md, "Tricks per hand").
TRICKS_PER_HAND: Final = {
    "single": {4: 12, 3: 15, 2: 24},
    "double": {4: 20, 3: 25, 2: 40},
}
#: Copies of each card in the deck (docs/rules.md, "What the deck can hold").
COPIES: Final = {"single": 2, "double": 4}

#: Sanity ceilings, so a mistyped or hostile number gets a message instead of a silly game.
MAX_BID: Final = 9999
MAX_TARGET: Final = 1_000_000
MAX_MELD_POINTS: Final = 9999
MAX_NAME_LENGTH: Final = 100
#: The longest game of a fixed number of deals (docs/rules.md, "A fixed number of deals").
MAX_DEALS: Final = 1000

#: Seat counts a table may have, and the one Check Pinochle needs (docs/rules.md, "Tables and options").
SEAT_COUNTS: Final = (2, 3, 4)
CHECK_SEATS: Final = 4

SLAM_CHIPS: Final = 5
ROUNDHOUSE_CHIPS: Final = 5
GAME_CHIPS_BASE: Final = 10


def seats_for(count: int) -> str:
    """Seat letters clockwise: 2 seats "NE", 3 seats "NES", 4 seats "NESW"."""
    return SEAT_ORDER[:count]


def sides_for(count: int) -> tuple[str, ...]:
    """Partnerships NS and EW at a 4-seat table; every seat its own side otherwise."""
    if count == 4:
        return ("NS", "EW")
    return tuple(seats_for(count))


def side_of(seat: str, count: int) -> str:
    if count == 4:
        return "NS" if seat in "NS" else "EW"
    return seat


def played_variant(variant: str, deck: str) -> str:
    """The variant a table plays: Check Pinochle with a double deck is an ordinary double-deck game
    (docs/rules.md, "Check Pinochle with a double deck")."""
    return "standard" if deck == "double" else variant


def chips_in_play(variant: str, deck: str) -> bool:
    """Chips are in play in Check Pinochle with a single deck only."""
    return played_variant(variant, deck) == "check"


def seat_counts_for(variant: str) -> tuple[int, ...]:
    """The table sizes a variant is played at, largest first.

    >>> seat_counts_for("check"), seat_counts_for("standard")
    ((4,), (4, 3, 2))
    """
    return (CHECK_SEATS,) if variant == "check" else tuple(sorted(SEAT_COUNTS, reverse=True))


def default_target(deck: str, variant: str) -> int:
    """150 single deck, 500 double deck, 100 for Check Pinochle (docs/rules.md, "Tables and options")."""
    if deck == "double":
        return 500
    return 100 if variant == "check" else 150


def default_min_bid(deck: str) -> int:
    return 50 if deck == "double" else 20


#: Double deck: bids go up by ones to min_bid + DOUBLE_DECK_BY_ONES, then in multiples of this.
DOUBLE_DECK_BY_ONES: Final = 10
DOUBLE_DECK_BID_MULTIPLE: Final = 5

#: The double deck's bid ladders (docs/rules.md, "Bid steps"): the rule book's, or the house rule
#: "tens above 100" (as the rule book's up to 100, above it only multiples of 10).
BID_STEPS: Final = ("standard", "tens_above_100")
TENS_ABOVE: Final = 100
TENS_MULTIPLE: Final = 10
TENS: Final = "tens_above_100"


def bid_ladder(min_bid: int, deck: str) -> tuple[int, int | None, int]:
    """The legal bids as data for the phone's stepper: (minimum, by ones up to, then multiples of).

    >>> bid_ladder(20, "single"), bid_ladder(50, "double")
    ((20, None, 1), (50, 60, 5))
    """
    if deck == "double":
        return min_bid, min_bid + DOUBLE_DECK_BY_ONES, DOUBLE_DECK_BID_MULTIPLE
    return min_bid, None, 1


def bid_rungs(deck: str, steps: str = "standard") -> list[tuple[int, int]]:
    """The further rungs of a house-rule ladder: (above this bid, only multiples of this), on top
    of `bid_ladder`. Empty for the rule book's ladder or a single deck.

    >>> bid_rungs("double", "tens_above_100"), bid_rungs("double"), bid_rungs("single", "tens_above_100")
    ([(100, 10)], [], [])
    """
    if deck == "double" and steps == "tens_above_100":
        return [(TENS_ABOVE, TENS_MULTIPLE)]
    return []


def bid_step_problem(
    bid: int, min_bid: int, deck: str, steps: str = "standard"
) -> tuple[str, dict[str, int]] | None:
    """Why a bid is off its ladder, as the engine's error code and its values, or None when legal.

    Single deck: any integer from the minimum. Double deck: by ones up to min_bid + 10, then
    multiples of 5 (with the default minimum: 50, 51, ... 60, 65, 70, ...); with the house rule
    "tens above 100" only multiples of 10 above 100 (... 95, 100, 110, 120, ...). The minimum bid
    itself is always a legal bid.

    >>> bid_step_problem(105, 50, "double", "tens_above_100")
    ('bid_off_tens', {'bid': 105, 'top': 100, 'multiple': 10})
    >>> bid_step_problem(105, 50, "double") is None  # the rule book's ladder
    True
    """
    if bid < min_bid:
        return "bid_below_minimum", {"bid": bid, "min_bid": min_bid}
    if bid == min_bid:
        return None
    for above, multiple in bid_rungs(deck, steps):
        if bid > above:
            if bid % multiple:
                return "bid_off_tens", {"bid": bid, "top": above, "multiple": multiple}
            return None  # a multiple of 10 is a multiple of 5 too
    _, by_ones_to, multiple = bid_ladder(min_bid, deck)
    if by_ones_to is not None and bid > by_ones_to and bid % multiple:
        return "bid_off_step", {"bid": bid, "top": by_ones_to}
    return None


def bid_step_error(bid: int, min_bid: int, deck: str, steps: str = "standard") -> str | None:
    """Why a bid is off its step (the engine's sentence), or None when it is a legal bid
    (`bid_step_problem`)."""
    problem = bid_step_problem(bid, min_bid, deck, steps)
    return None if problem is None else sentence(*problem)


def next_bid(bid: int, min_bid: int, deck: str, steps: str = "standard") -> int:
    """The next legal bid above `bid` (the stepper's "+")."""
    candidate = max(bid + 1, min_bid)
    while bid_step_problem(candidate, min_bid, deck, steps):
        candidate += 1
    return candidate


def previous_bid(bid: int, min_bid: int, deck: str, steps: str = "standard") -> int:
    """The legal bid below `bid`, never below the minimum (the stepper's "−")."""
    candidate = bid - 1
    while candidate > min_bid and bid_step_problem(candidate, min_bid, deck, steps):
        candidate -= 1
    return max(candidate, min_bid)


def step_bid(bid: int | None, min_bid: int, deck: str, *, up: bool, steps: str = "standard") -> int:
    """The bid stepper's "+" (`up`) or "−": the next legal bid from `bid` (a bid below the minimum,
    or none, steps to the minimum), never above MAX_BID.

    >>> step_bid(60, 50, "double", up=True), step_bid(65, 50, "double", up=False)
    (65, 60)
    >>> step_bid(None, 20, "single", up=True)
    20
    >>> step_bid(100, 50, "double", up=True, steps="tens_above_100")
    110
    """
    bid = min(bid or 0, MAX_BID)
    if bid < min_bid:
        return min_bid
    if up:
        return min(next_bid(bid, min_bid, deck, steps), MAX_BID)
    return previous_bid(bid, min_bid, deck, steps)


def step_typed_bid(
    figure: int | None, min_bid: int, deck: str, *, up: bool, steps: str = "standard", scale: int = 1
) -> int:
    """The bid stepper on the figure typed in the bid field at the game's `scale`: the next legal
    bid (`step_bid`) from the stored bid at or below the figure (`up`) or at or above it ("−"), as
    the table types it. A figure off the scale steps to the legal bid beside it, not past it.

    >>> [step_typed_bid(figure, 20, "single", up=True, scale=10) for figure in (250, 255, None)]
    [260, 260, 200]
    >>> [step_typed_bid(figure, 20, "single", up=False, scale=10) for figure in (260, 255, 251)]
    [250, 250, 250]
    """
    bid = None if figure is None else typed_rounded(figure, scale, down=up)
    return shown(step_bid(bid, min_bid, deck, up=up, steps=steps), scale)


def contract_chips(bid: int) -> int:
    """Chips for a contract (docs/rules.md, "Contract chips"): 2 up to 24, 4 for 25-29, then 3 more per 5.

    >>> [contract_chips(b) for b in (20, 24, 25, 29, 30, 35, 40)]
    [2, 2, 4, 4, 7, 10, 13]
    """
    if bid <= 24:
        return 2
    return 4 + 3 * ((bid - 25) // 5)


def trick_points_needed(bid: int, meld: int, counts_from: int | None = None) -> int:
    """What the bidders must take in trick points to make `bid` with `meld` (docs/rules.md,
    "Scoring a hand"): the bid less their meld, never below nothing.

    >>> trick_points_needed(27, 21), trick_points_needed(20, 30)
    (6, 0)

    With "meld counts from N" (`counts_from`) the meld counts only from N trick points on, and a
    meld below N not at all: bid 55, meld 40, N 20 needs 20 (not 15); meld 15 needs all 55.

    >>> trick_points_needed(55, 40, 20), trick_points_needed(55, 15, 20), trick_points_needed(70, 30, 20)
    (20, 55, 40)
    """
    if counts_from is None:
        return max(bid - meld, 0)
    if meld < counts_from:
        return max(bid, 0)
    return min(max(bid - meld, counts_from), max(bid, 0))


def game_chips(lead: int) -> int:
    """Chips for winning on points (docs/rules.md, "Game chips"): 10 + one per started ten of lead.

    >>> [game_chips(x) for x in (-5, 0, 1, 10, 11, 36)]
    [10, 10, 11, 11, 12, 14]
    """
    if lead <= 0:
        return GAME_CHIPS_BASE
    return GAME_CHIPS_BASE + math.ceil(lead / 10)


# --- Meld items (docs/rules.md, "Meld table") ----------------------------------------------

#: Families whose levels a seat lists at most once ("run" and "double_run" never together).
LEVELLED_FAMILIES: Final = ("run", "pinochle", "aces", "kings", "queens", "jacks")
#: Items a seat may repeat.
REPEATABLE: Final = ("trump_marriage", "marriage", "dix")
LEVEL_PREFIXES: Final = ("", "double_", "triple_", "quadruple_")


def most_per_seat(name: str, deck: str) -> int:
    """How many of an item one seat can show with the deck's cards: a trump marriage and the dix
    once per copy of their cards, a marriage in another suit three times that (three suits), any
    other item once (its higher levels are items of their own).

    >>> [most_per_seat(name, "single") for name in ("trump_marriage", "marriage", "dix", "run")]
    [2, 6, 2, 1]
    >>> most_per_seat("marriage", "double"), most_per_seat("dix", "double")
    (12, 4)
    """
    if name == "marriage":
        return 3 * COPIES[deck]
    return COPIES[deck] if name in REPEATABLE else 1


@dataclass(frozen=True, slots=True)
class MeldItem:
    """One row of the meld table.

    `family` and `level` say what the item is made of: `double_kings` is family "kings",
    level 2 (two kings of each suit). Repeatable items have level 1.
    """

    name: str
    family: str
    level: int
    single: int | None  # points in a single deck; None when the item cannot exist there
    double: int | None  # points in a double deck
    chips: int  # Check Pinochle chips (single deck only)

    def points(self, deck: str) -> int | None:
        return self.single if deck == "single" else self.double


def _levelled(family: str, base: int, double: int, chips1: int, chips2: int) -> list[MeldItem]:
    """An around family: the single level, the double, and (double deck only) 1.5x and 2x the double."""
    return [
        MeldItem(family, family, 1, base, base, chips1),
        MeldItem(f"double_{family}", family, 2, double, double, chips2),
        MeldItem(f"triple_{family}", family, 3, None, double * 3 // 2, 0),
        MeldItem(f"quadruple_{family}", family, 4, None, double * 2, 0),
    ]


_ITEMS: list[MeldItem] = [
    MeldItem("run", "run", 1, 15, 15, 2),
    MeldItem("double_run", "run", 2, 150, 150, 4),
    MeldItem("triple_run", "run", 3, None, 225, 0),
    MeldItem("quadruple_run", "run", 4, None, 300, 0),
    MeldItem("trump_marriage", "trump_marriage", 1, 4, 4, 0),
    MeldItem("marriage", "marriage", 1, 2, 2, 0),
    MeldItem("dix", "dix", 1, 1, None, 0),
    MeldItem("pinochle", "pinochle", 1, 4, 4, 0),
    MeldItem("double_pinochle", "pinochle", 2, 30, 30, 1),
    MeldItem("triple_pinochle", "pinochle", 3, None, 60, 0),
    MeldItem("quadruple_pinochle", "pinochle", 4, None, 90, 0),
    *_levelled("aces", 10, 100, 2, 4),
    *_levelled("kings", 8, 80, 1, 2),
    *_levelled("queens", 6, 60, 1, 2),
    *_levelled("jacks", 4, 40, 1, 2),
]

MELD_ITEMS: Final[dict[str, MeldItem]] = {item.name: item for item in _ITEMS}


def meld_items_for(deck: str) -> list[MeldItem]:
    """The items a seat can show with this deck, in table order."""
    return [item for item in _ITEMS if item.points(deck) is not None]


# --- The numbers the phone works with (one json_script on the page) ------------------------

#: The families whose "around" melds, shown together, add the roundhouse's chips.
ROUNDHOUSE_FAMILIES: Final = ("kings", "queens")


def setup_numbers() -> dict[str, object]:
    """What the setup page's script needs: the default target by deck and then variant and the
    default minimum bid by deck (the script looks them up, it decides nothing), the deck and
    variant a form without a choice means, and the seats Check Pinochle needs; `scaled` holds the
    same defaults as typed at each scale (points ×10, a house rule).

    >>> setup_numbers()["targets"]
    {'single': {'standard': 150, 'check': 100}, 'double': {'standard': 500, 'check': 500}}
    >>> setup_numbers()["scaled"]["10"]["min_bids"]
    {'single': 200, 'double': 500}
    """
    targets = {deck: {variant: default_target(deck, variant) for variant in VARIANTS} for deck in DECKS}
    min_bids = {deck: default_min_bid(deck) for deck in DECKS}
    return {
        "targets": targets,
        "min_bids": min_bids,
        "scaled": {
            str(scale): {
                "targets": {
                    deck: {variant: shown(points, scale) for variant, points in by_variant.items()}
                    for deck, by_variant in targets.items()
                },
                "min_bids": {deck: shown(points, scale) for deck, points in min_bids.items()},
            }
            for scale in SCALES
        },
        "first": {"deck": DECKS[0], "variant": VARIANTS[0]},
        "check_seats": CHECK_SEATS,
        "seat_counts": list(SEAT_COUNTS),
    }


def legal_bids(min_bid: int, deck: str, steps: str = "standard") -> list[list[int]]:
    """Every legal bid from the minimum to MAX_BID, the chain of `next_bid`, written as runs
    [first, step, last] (first, first + step, ... last) so the phone's JSON stays small: the
    stepper walks these runs and decides nothing itself.

    >>> legal_bids(20, "single")
    [[20, 1, 9999]]
    >>> legal_bids(50, "double", TENS)
    [[50, 1, 60], [60, 5, 100], [100, 10, 9990]]
    """
    return [list(run) for run in _bid_runs(min_bid, deck, steps)]


@cache
def _bid_runs(min_bid: int, deck: str, steps: str) -> tuple[tuple[int, int, int], ...]:
    """`legal_bids`, worked out once per ladder (a few thousand `next_bid` steps): every hand
    form's script needs them, and a ladder has three inputs."""
    runs: list[list[int]] = []
    bid = min_bid
    while True:
        following = next_bid(bid, min_bid, deck, steps)
        if following > MAX_BID:
            break
        step = following - bid
        if runs and runs[-1][1] == step and runs[-1][2] == bid:
            runs[-1][2] = following
        else:
            runs.append([bid, step, following])
        bid = following
    return tuple((first, step, last) for first, step, last in runs or [[min_bid, 1, min_bid]])


def meld_bonuses(*, chips_in_play: bool) -> list[dict[str, object]]:
    """The chips a seat earns for showing several families together, as data for the phone's
    running sum (the roundhouse: kings and queens around). The engine's own sum is
    `melds.meld_sum`; a browser test holds the phone's to it.

    >>> meld_bonuses(chips_in_play=True)
    [{'families': ['kings', 'queens'], 'chips': 5}]
    >>> meld_bonuses(chips_in_play=False)
    []
    """
    if not chips_in_play:
        return []
    return [{"families": list(ROUNDHOUSE_FAMILIES), "chips": ROUNDHOUSE_CHIPS}]


def hand_numbers(
    *, deck: str, min_bid: int, seats: int, chips_in_play: bool, bid_steps: str = "standard", scale: int = 1
) -> dict[str, object]:
    """What the phone's hand form adds up and steps by, straight from the tables above: the legal
    bids (`legal_bids`), the trick points to share (one side typed, the rest to the other; all of
    them on a slam), the meld items' points and chips and the bonuses for families shown together.

    >>> numbers = hand_numbers(deck="double", min_bid=50, seats=4, chips_in_play=False)
    >>> numbers["bids"], numbers["trick_points"]
    ([[50, 1, 60], [60, 5, 9995]], 50)

    A house-rule ladder changes the legal bids:

    >>> tens = hand_numbers(deck="double", min_bid=50, seats=2, chips_in_play=False, bid_steps=TENS)
    >>> tens["bids"][-1]
    [100, 10, 9990]

    At scale 10 (points ×10, a house rule) every point figure is as the table types it:

    >>> ten = hand_numbers(deck="single", min_bid=20, seats=4, chips_in_play=False, scale=10)
    >>> ten["bids"][0], ten["trick_points"], ten["melds"]["run"]["points"]
    ([200, 10, 99990], 250, 150)
    """
    return {
        "bids": [[shown(value, scale) for value in run] for run in legal_bids(min_bid, deck, bid_steps)],
        "trick_points": shown(TRICK_POINTS[deck], scale),
        "tricks_per_hand": TRICKS_PER_HAND[deck][seats],
        "seats": seats,
        "melds": {
            item.name: {
                "points": _shown_points(item.points(deck), scale),
                "chips": item.chips if chips_in_play else 0,
                "family": item.family,
            }
            for item in meld_items_for(deck)
        },
        "bonuses": meld_bonuses(chips_in_play=chips_in_play),
    }


def _shown_points(points: int | None, scale: int) -> int | None:
    return None if points is None else shown(points, scale)


def bid_help(min_bid: int, deck: str, steps: str = "standard", *, scale: int = 1) -> dict[str, object]:
    """The ladder the bid field's help sentence names: the minimum, by ones up to, then multiples
    of, and a house rule's further rungs (as typed at the game's `scale`).

    >>> bid_help(50, "double", TENS)
    {'min': 50, 'by_ones_to': 60, 'multiple': 5, 'rungs': [{'above': 100, 'multiple': 10}]}
    """
    minimum, by_ones_to, multiple = bid_ladder(min_bid, deck)
    rungs = [
        {"above": shown(above, scale), "multiple": shown(step, scale)}
        for above, step in bid_rungs(deck, steps)
    ]
    return {
        "min": shown(minimum, scale),
        "by_ones_to": None if by_ones_to is None else shown(by_ones_to, scale),
        "multiple": shown(multiple, scale),
        "rungs": rungs,
    }
