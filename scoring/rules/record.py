"""Reading a game record's hands (docs/record-format.md) into checked, typed values.

`parse_hand` reads one hand against the game's settings (`scoring.rules.settings`) and checks
everything that can be checked from the hand alone (bid, trump, melds, tricks). Game-level rules
(running totals, the end of the game) are the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from scoring.rules.deck import TRUMP_KIND, check_melds, fits_at_a_glance
from scoring.rules.errors import RecordError
from scoring.rules.melds import MeldProblem, SeatMeld, read_seat_meld, seat_meld
from scoring.rules.readers import an_object, one_of, refuse_unknown_keys, shown, true_or_false, whole_number
from scoring.rules.settings import Settings
from scoring.rules.tables import (
    COPIES,
    MAX_BID,
    MAX_MELD_POINTS,
    SUITS,
    bid_step_problem,
)

HandKind = Literal["played", "conceded", "passed", "nobid"]

_HAND_KEYS = frozenset(
    {"bidder", "bid", "trump", "melds", "meld_points", "tricks", "tricks_won", "passed", "conceded"}
)


# Not frozen: a frozen dataclass's __init__ costs ten times as much, and the engine makes one
# Hand per hand scored. Treat instances as read-only all the same.
@dataclass(slots=True)
class Hand:
    """One hand as the table reported it, checked against the settings.

    `meld` is each side's shown meld points and `meld_chips` the chips those melds win (zero
    unless chips are in play); `tricks` is empty for passed and conceded hands.
    """

    number: int
    kind: HandKind
    bidder: str | None
    bid: int | None
    trump: str | None
    meld: Mapping[str, int]
    meld_chips: Mapping[str, int]
    tricks: Mapping[str, int]
    tricks_won: Mapping[str, int] | None


def parse_hand(data: object, number: int, settings: Settings) -> Hand:
    """Read and check hand `number` against the settings; raises RecordError naming the field."""
    raw = data if type(data) is dict else an_object(data, "hand", number)
    if not raw.keys() <= _HAND_KEYS:
        refuse_unknown_keys(raw, _HAND_KEYS, number, "")
    sides = settings.sides

    passed = raw.get("passed", False)
    if passed is not False and true_or_false(passed, "passed", number):
        if not settings.chips_in_play:
            raise RecordError.of("pass_not_allowed", field="passed", hand=number)
        for key in raw:
            if key != "passed":
                raise RecordError.of("passed_has_field", field=key, hand=number, key=key)
        zero = dict.fromkeys(sides, 0)
        return Hand(number, "passed", None, None, None, zero, zero, zero, None)

    conceded = raw.get("conceded", False)
    conceded = conceded is not False and true_or_false(conceded, "conceded", number)

    bidder, bid = raw.get("bidder"), raw.get("bid")
    kind: HandKind
    if bidder is None and bid is None:
        if settings.seats != 2:
            raise RecordError.of("bidder_required", field="bidder", hand=number)
        if conceded:
            raise RecordError.of("nobid_conceded", field="conceded", hand=number)
        kind = "nobid"
    else:
        if bidder is None:
            raise RecordError.of("bid_without_bidder", field="bidder", hand=number)
        if bid is None:
            raise RecordError.of("bid_missing", field="bid", hand=number)
        if type(bidder) is not str or bidder not in settings.side_by_seat:
            bidder = one_of(bidder, "bidder", number, settings.seat_letters)
        if type(bid) is not int or not 0 <= bid <= MAX_BID:
            bid = whole_number(bid, "bid", number, low=0, high=MAX_BID)
        min_bid = settings.min_bid
        # Only a bid below the minimum or a double-deck bid can be off its step.
        if bid < min_bid or settings.deck == "double":
            problem = bid_step_problem(bid, min_bid, settings.deck, settings.bid_steps)
            if problem is not None:
                kind_of_step = problem[0]
                code = (
                    "bid_below_minimum"
                    if kind_of_step == "bid_below_minimum"
                    else "bid_off_tens"
                    if kind_of_step == "bid_off_tens"
                    else "bid_off_step"
                )
                raise RecordError.of(code, field="bid", hand=number, params=problem[1])
        kind = "conceded" if conceded else "played"

    trump = raw.get("trump")
    if trump is not None:
        if type(trump) is not str or trump not in SUITS:
            trump = one_of(trump, "trump", number, SUITS)
    elif settings.chips_in_play:
        raise RecordError.of("trump_required", field="trump", hand=number)

    meld, meld_chips = _read_meld(raw, number, settings, bidder, trump)

    tricks: Mapping[str, int]
    tricks_won = None
    if kind == "conceded":
        for key in ("tricks", "tricks_won"):
            if key in raw:
                raise RecordError.of("conceded_has_field", field=key, hand=number, key=key)
        tricks = dict.fromkeys(sides, 0)
    else:
        if "tricks" not in raw:
            raise RecordError.of("tricks_missing", field="tricks", hand=number)
        tricks = _per_side(raw["tricks"], "tricks", number, sides, high=settings.trick_points)
        total = sum(tricks.values())
        if total != settings.trick_points:
            raise RecordError.of(
                "tricks_total", field="tricks", hand=number, total=total, expected=settings.trick_points
            )
        if raw.get("tricks_won") is not None:
            tricks_won = _read_tricks_won(raw["tricks_won"], number, settings, tricks)
    return Hand(number, kind, bidder, bid, trump, meld, meld_chips, tricks, tricks_won)


def _per_side(value: object, name: str, number: int, sides: tuple[str, ...], *, high: int) -> dict[str, int]:
    if type(value) is dict and len(value) == len(sides):
        # The common case in one pass: exactly the sides, each a count in range.
        out = {}
        for side in sides:
            count = value.get(side)
            if type(count) is not int or not 0 <= count <= high:
                break
            out[side] = count
        else:
            return out
    data = an_object(value, name, number)
    for key in data:
        if key not in sides:
            raise RecordError.of(
                "not_a_side", field=name, hand=number, name=name, key=shown(key), sides=", ".join(sides)
            )
    out = {}
    for side in sides:
        if side not in data:
            raise RecordError.of("side_missing", field=name, hand=number, name=name, side=side)
        out[side] = whole_number(data[side], f"{name}.{side}", number, low=0, high=high)
    return out


def _read_tricks_won(
    value: object, number: int, settings: Settings, tricks: Mapping[str, int]
) -> dict[str, int]:
    per_hand = settings.tricks_per_hand
    won = _per_side(value, "tricks_won", number, settings.sides, high=per_hand)
    total = sum(won.values())
    if total != per_hand:
        raise RecordError.of(
            "tricks_won_total", field="tricks_won", hand=number, total=total, expected=per_hand
        )
    if settings.seats != 3:  # at 3 seats the widow's discards count for the bidder whatever was won
        for side, count in won.items():
            if count == per_hand and tricks[side] != settings.trick_points:
                raise RecordError.of(
                    "slam_points", field="tricks", hand=number, side=side, points=settings.trick_points
                )
            if count == 0 and tricks[side] != 0:
                raise RecordError.of(
                    "no_trick_points", field="tricks", hand=number, side=side, points=tricks[side]
                )
    return won


def _read_meld(
    raw: Mapping[str, Any], number: int, settings: Settings, bidder: str | None, trump: str | None
) -> tuple[dict[str, int], dict[str, int]]:
    sides = settings.sides
    meld = dict.fromkeys(sides, 0)
    chips = dict.fromkeys(sides, 0)
    if "melds" in raw and "meld_points" in raw:
        raise RecordError.of("meld_both", field="meld_points", hand=number)
    if raw.get("meld_points") is not None:
        if settings.chips_in_play:
            raise RecordError.of("meld_points_in_check", field="meld_points", hand=number)
        data = an_object(raw["meld_points"], "meld_points", number)
        for key in data:
            if key not in sides:
                raise RecordError.of(
                    "not_a_side",
                    field="meld_points",
                    hand=number,
                    name="meld_points",
                    key=shown(key),
                    sides=", ".join(sides),
                )
            meld[key] = whole_number(data[key], f"meld_points.{key}", number, low=0, high=MAX_MELD_POINTS)
        return meld, chips

    raw_melds = raw.get("melds")
    bidders_meld: SeatMeld | None = None
    if raw_melds is not None:
        side_by_seat, deck, chips_in_play = settings.side_by_seat, settings.deck, settings.chips_in_play
        if type(raw_melds) is not dict:
            an_object(raw_melds, "melds", number)
        profiles: list[SeatMeld] = []
        # With trump named, the seats' demands are added up here and most deals fit at a glance.
        kind = -1 if trump is None else TRUMP_KIND[trump]
        demand = 0
        for seat, items in raw_melds.items():
            side = side_by_seat.get(seat)  # a dict lookup: "NE" is a substring of "NESW", not a seat
            if side is None:
                raise RecordError.of(
                    "not_a_seat",
                    field="melds",
                    hand=number,
                    seat=shown(seat),
                    seats=", ".join(settings.seat_letters),
                )
            if type(items) is list and len(items) <= 16:
                try:
                    profile = seat_meld(tuple(items), deck)
                except (MeldProblem, TypeError):
                    profile = read_seat_meld(items, f"melds.{seat}", number, deck)
            else:
                profile = read_seat_meld(items, f"melds.{seat}", number, deck)
            profiles.append(profile)
            if seat == bidder:
                bidders_meld = profile
            meld[side] += profile.points
            if chips_in_play:
                chips[side] += profile.chips
            if kind >= 0:
                demand += profile.demand[kind]
        if kind < 0 or not fits_at_a_glance(demand, COPIES[deck]):
            check_melds(profiles, trump, deck, number)
    held = bidders_meld is not None and bidders_meld.trump_marriage_held
    if bidder is not None and settings.needs_trump_marriage and not held:
        code = "trump_marriage_check" if settings.chips_in_play else "trump_marriage_double"
        raise RecordError.of(code, field=f"melds.{bidder}", hand=number, seat=bidder)
    return meld, chips
