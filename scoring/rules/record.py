"""Reading a game record (docs/record-format.md) into checked, typed values.

`parse_settings` reads the game's options; `parse_hand` reads one hand against them and checks
everything that can be checked from the hand alone (bid, trump, melds, tricks). Game-level rules
(running totals, the end of the game) are the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from scoring.rules.errors import RecordError
from scoring.rules.melds import MeldProblem, SeatMeld, check_deal, read_seat_meld, seat_meld
from scoring.rules.tables import (
    CHECK_SEATS,
    DECKS,
    DOUBLE_DECK_BY_ONES,
    MAX_BID,
    MAX_DEALS,
    MAX_MELD_POINTS,
    MAX_NAME_LENGTH,
    MAX_TARGET,
    SEAT_COUNTS,
    SUITS,
    TRICK_POINTS,
    TRICKS_PER_HAND,
    VARIANTS,
    bid_step_error,
    default_min_bid,
    default_target,
    seats_for,
    side_of,
    sides_for,
)

HandKind = Literal["played", "conceded", "passed", "nobid"]

_GAME_KEYS = frozenset(
    {"seats", "variant", "deck", "target", "min_bid", "first_dealer", "players", "options", "hands"}
)
_OPTION_KEYS = frozenset({"meld_needs_trick", "deals"})
_HAND_KEYS = frozenset(
    {"bidder", "bid", "trump", "melds", "meld_points", "tricks", "tricks_won", "passed", "conceded"}
)


@dataclass(frozen=True, slots=True)
class Settings:
    """A game's options after defaults and the Check-Pinochle-with-double-deck fall-back."""

    seats: int
    variant: str  # the variant actually played
    requested_variant: str
    deck: str
    target: int
    min_bid: int
    first_dealer: str = "N"
    meld_needs_trick: bool = False
    players: Mapping[str, str] = field(default_factory=dict)
    #: A game of a fixed number of deals: it ends after hand `deals` (passed-out hands count) unless
    #: the target ended it sooner. None: the game is played to the target only.
    deals: int | None = None

    # Derived once here rather than on every use: the engine reads them for every hand.
    chips_in_play: bool = field(init=False)
    #: The bidder must hold a marriage in trump in Check Pinochle and with a double deck.
    needs_trump_marriage: bool = field(init=False)
    seat_letters: str = field(init=False)
    sides: tuple[str, ...] = field(init=False)
    trick_points: int = field(init=False)
    tricks_per_hand: int = field(init=False)
    side_by_seat: Mapping[str, str] = field(init=False)

    def __post_init__(self) -> None:
        letters = seats_for(self.seats)
        derived = {
            "chips_in_play": self.variant == "check",
            "needs_trump_marriage": self.variant == "check" or self.deck == "double",
            "seat_letters": letters,
            "sides": sides_for(self.seats),
            "trick_points": TRICK_POINTS[self.deck],
            "tricks_per_hand": TRICKS_PER_HAND[self.deck][self.seats],
            "side_by_seat": {seat: side_of(seat, self.seats) for seat in letters},
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    @property
    def fell_back(self) -> bool:
        """True when Check Pinochle was asked for with a double deck and is played without chips."""
        return self.requested_variant != self.variant

    def dealer(self, number: int) -> str:
        """The seat that deals hand `number` (1-based): clockwise from the first dealer."""
        letters = self.seat_letters
        return letters[(letters.index(self.first_dealer) + number - 1) % self.seats]

    def side_of(self, seat: str) -> str:
        return self.side_by_seat[seat]


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


# --- small typed readers -------------------------------------------------------------------


def _int(value: object, name: str, hand: int | None, *, low: int, high: int) -> int:
    # bool is an int in Python; a JSON true is not a number a table meant.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError.of("not_whole_number", field=name, hand=hand, name=name, value=_show(value))
    if value < low:
        code = "negative" if low == 0 else "too_low"
        raise RecordError.of(code, field=name, hand=hand, name=name, low=low, value=value)
    if value > high:
        raise RecordError.of("too_high", field=name, hand=hand, name=name, high=high, value=value)
    return value


def _choice(value: object, name: str, hand: int | None, choices: tuple[str, ...] | str) -> str:
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        listed = ", ".join(options)
        raise RecordError.of(
            "not_one_of", field=name, hand=hand, name=name, choices=listed, value=_show(value)
        )
    return value


def _mapping(value: object, name: str, hand: int | None) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RecordError.of("not_object", field=name, hand=hand, name=name, value=_show(value))
    return value


def _bool(value: object, name: str, hand: int | None) -> bool:
    if not isinstance(value, bool):
        raise RecordError.of("not_boolean", field=name, hand=hand, name=name, value=_show(value))
    return value


def _show(value: object) -> str:
    """A short JSON-like rendering of a bad value for an error message."""
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = str(value).lower()
    elif isinstance(value, dict):
        text = "an object"
    elif isinstance(value, list):
        text = "a list"
    else:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _unknown_keys(data: Mapping[str, Any], allowed: frozenset[str], hand: int | None, where: str) -> None:
    for key in data:
        if key not in allowed:
            name = f"{where}.{key}" if where else str(key)
            # The message is one line on standard error: show odd keys (empty, newlines, very long) quoted.
            shown = key if key and key.isprintable() and len(key) <= 40 else _show(key)
            shown = f"{where}.{shown}" if where else shown
            raise RecordError.of("unknown_field", field=name, hand=hand, name=shown)


# --- settings ------------------------------------------------------------------------------


def parse_settings(data: object) -> Settings:
    """Read a record's options (everything but `hands`), applying the defaults of docs/rules.md."""
    record = _mapping(data, "record", None)
    _unknown_keys(record, _GAME_KEYS, None, "")
    seats = record.get("seats")
    seats = 4 if seats is None else seats
    # 4.0 == 4 in Python, but a JSON 4.0 is not a seat count the table wrote.
    if type(seats) is not int or seats not in SEAT_COUNTS:
        raise RecordError.of("bad_seats", field="seats", value=_show(seats))
    # Only a missing key or null means the default (docs/record-format.md); false, 0 or "" are wrong values.
    variant = record.get("variant")
    requested = _choice("standard" if variant is None else variant, "variant", None, VARIANTS)
    if requested == "check" and seats != CHECK_SEATS:
        raise RecordError.of("check_needs_four", field="variant", seats=seats)
    deck = record.get("deck")
    deck = _choice("single" if deck is None else deck, "deck", None, DECKS)
    variant = "standard" if deck == "double" else requested
    target = record.get("target")
    target = default_target(deck, variant) if target is None else target
    target = _int(target, "target", None, low=1, high=MAX_TARGET)
    min_bid = record.get("min_bid")
    min_bid = default_min_bid(deck) if min_bid is None else min_bid
    min_bid = _int(min_bid, "min_bid", None, low=1, high=MAX_BID)
    letters = seats_for(seats)
    first = record.get("first_dealer")
    first = _choice("N" if first is None else first, "first_dealer", None, letters)
    options = record.get("options")
    meld_needs_trick = False
    deals: int | None = None
    if options is not None:
        options = _mapping(options, "options", None)
        _unknown_keys(options, _OPTION_KEYS, None, "options")
        if "meld_needs_trick" in options:
            meld_needs_trick = _bool(options["meld_needs_trick"], "options.meld_needs_trick", None)
        if options.get("deals") is not None:
            deals = _int(options["deals"], "options.deals", None, low=1, high=MAX_DEALS)
    players: dict[str, str] = {}
    raw_players = record.get("players")
    if raw_players is not None:
        for seat, name in _mapping(raw_players, "players", None).items():
            _choice(seat, "players", None, letters)
            if not isinstance(name, str):
                raise RecordError.of(
                    "player_name_not_text", field=f"players.{seat}", seat=seat, value=_show(name)
                )
            if len(name) > MAX_NAME_LENGTH:
                raise RecordError.of(
                    "player_name_too_long", field=f"players.{seat}", seat=seat, max=MAX_NAME_LENGTH
                )
            players[seat] = name
    return Settings(seats, variant, requested, deck, target, min_bid, first, meld_needs_trick, players, deals)


# --- hands ---------------------------------------------------------------------------------


def parse_hand(data: object, number: int, settings: Settings) -> Hand:
    """Read and check hand `number` against the settings; raises RecordError naming the field."""
    raw = data if type(data) is dict else _mapping(data, "hand", number)
    if not raw.keys() <= _HAND_KEYS:
        _unknown_keys(raw, _HAND_KEYS, number, "")
    sides = settings.sides

    passed = raw.get("passed", False)
    if passed is not False and _bool(passed, "passed", number):
        if not settings.chips_in_play:
            raise RecordError.of("pass_not_allowed", field="passed", hand=number)
        for key in raw:
            if key != "passed":
                raise RecordError.of("passed_has_field", field=key, hand=number, key=key)
        zero = dict.fromkeys(sides, 0)
        return Hand(number, "passed", None, None, None, zero, zero, zero, None)

    conceded = raw.get("conceded", False)
    conceded = conceded is not False and _bool(conceded, "conceded", number)

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
            bidder = _choice(bidder, "bidder", number, settings.seat_letters)
        if type(bid) is not int or not 0 <= bid <= MAX_BID:
            bid = _int(bid, "bid", number, low=0, high=MAX_BID)
        min_bid = settings.min_bid
        # Only a bid below the minimum or a double-deck bid can be off its step.
        if (bid < min_bid or settings.deck == "double") and bid_step_error(bid, min_bid, settings.deck):
            code = "bid_below_minimum" if bid < min_bid else "bid_off_step"
            raise RecordError.of(
                code, field="bid", hand=number, bid=bid, min_bid=min_bid, top=min_bid + DOUBLE_DECK_BY_ONES
            )
        kind = "conceded" if conceded else "played"

    trump = raw.get("trump")
    if trump is not None:
        if type(trump) is not str or trump not in SUITS:
            trump = _choice(trump, "trump", number, SUITS)
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
    data = _mapping(value, name, number)
    for key in data:
        if key not in sides:
            raise RecordError.of(
                "not_a_side", field=name, hand=number, name=name, key=_show(key), sides=", ".join(sides)
            )
    out = {}
    for side in sides:
        if side not in data:
            raise RecordError.of("side_missing", field=name, hand=number, name=name, side=side)
        out[side] = _int(data[side], f"{name}.{side}", number, low=0, high=high)
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
        data = _mapping(raw["meld_points"], "meld_points", number)
        for key in data:
            if key not in sides:
                raise RecordError.of(
                    "not_a_side",
                    field="meld_points",
                    hand=number,
                    name="meld_points",
                    key=_show(key),
                    sides=", ".join(sides),
                )
            meld[key] = _int(data[key], f"meld_points.{key}", number, low=0, high=MAX_MELD_POINTS)
        return meld, chips

    raw_melds = raw.get("melds")
    profiles: dict[str, SeatMeld] = {}
    if raw_melds is not None:
        side_by_seat, deck = settings.side_by_seat, settings.deck
        if type(raw_melds) is not dict:
            _mapping(raw_melds, "melds", number)
        for seat, items in raw_melds.items():
            side = side_by_seat.get(seat)  # a dict lookup: "NE" is a substring of "NESW", not a seat
            if side is None:
                raise RecordError.of(
                    "not_a_seat",
                    field="melds",
                    hand=number,
                    seat=_show(seat),
                    seats=", ".join(settings.seat_letters),
                )
            if type(items) is list and len(items) <= 16:
                try:
                    profile = seat_meld(tuple(items), deck)
                except (MeldProblem, TypeError):
                    profile = read_seat_meld(items, f"melds.{seat}", number, deck)
            else:
                profile = read_seat_meld(items, f"melds.{seat}", number, deck)
            profiles[seat] = profile
            meld[side] += profile.points
            chips[side] += profile.chips
        if not settings.chips_in_play:
            chips = dict.fromkeys(sides, 0)
        check_deal(profiles, trump, deck, number)
    if bidder is not None and settings.needs_trump_marriage:
        held = profiles.get(bidder)
        if held is None or not held.trump_marriage_held:
            code = "trump_marriage_check" if settings.chips_in_play else "trump_marriage_double"
            raise RecordError.of(code, field=f"melds.{bidder}", hand=number, seat=bidder)
    return meld, chips
