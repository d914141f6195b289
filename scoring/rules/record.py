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
    DECKS,
    MAX_BID,
    MAX_MELD_POINTS,
    MAX_NAME_LENGTH,
    MAX_TARGET,
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
_OPTION_KEYS = frozenset({"meld_needs_trick"})
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

    # Derived once here rather than on every use: the engine reads them for every hand.
    chips_in_play: bool = field(init=False)
    seat_letters: str = field(init=False)
    sides: tuple[str, ...] = field(init=False)
    trick_points: int = field(init=False)
    tricks_per_hand: int = field(init=False)
    side_by_seat: Mapping[str, str] = field(init=False)

    def __post_init__(self) -> None:
        letters = seats_for(self.seats)
        derived = {
            "chips_in_play": self.variant == "check",
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

    @property
    def needs_trump_marriage(self) -> bool:
        """The bidder must hold a marriage in trump in Check Pinochle and with a double deck."""
        return self.chips_in_play or self.deck == "double"

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
    seat_melds: Mapping[str, SeatMeld] | None = None  # what each seat showed, when melds were listed


# --- small typed readers -------------------------------------------------------------------


def _int(value: object, name: str, hand: int | None, *, low: int, high: int) -> int:
    # bool is an int in Python; a JSON true is not a number a table meant.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(
            f"{name} must be a whole number, not {_show(value)}",
            field=name,
            hand=hand,
            code="not_whole_number",
            params={"name": name, "value": _show(value)},
        )
    if value < low:
        what = "negative" if low == 0 else f"below {low}"
        raise RecordError(
            f"{name} must not be {what}, got {value}",
            field=name,
            hand=hand,
            code="negative" if low == 0 else "too_low",
            params={"name": name, "low": low, "value": value},
        )
    if value > high:
        raise RecordError(
            f"{name} must be at most {high}, got {value}",
            field=name,
            hand=hand,
            code="too_high",
            params={"name": name, "high": high, "value": value},
        )
    return value


def _choice(value: object, name: str, hand: int | None, choices: tuple[str, ...] | str) -> str:
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        listed = ", ".join(options)
        raise RecordError(
            f"{name} must be one of {listed}, not {_show(value)}",
            field=name,
            hand=hand,
            code="not_one_of",
            params={"name": name, "choices": listed, "value": _show(value)},
        )
    return value


def _mapping(value: object, name: str, hand: int | None) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(
            f"{name} must be an object, not {_show(value)}",
            field=name,
            hand=hand,
            code="not_object",
            params={"name": name, "value": _show(value)},
        )
    return value


def _bool(value: object, name: str, hand: int | None) -> bool:
    if not isinstance(value, bool):
        raise RecordError(
            f"{name} must be true or false, not {_show(value)}",
            field=name,
            hand=hand,
            code="not_boolean",
            params={"name": name, "value": _show(value)},
        )
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
            raise RecordError(
                f"{shown} is not a field of a game record",
                field=name,
                hand=hand,
                code="unknown_field",
                params={"name": shown},
            )


# --- settings ------------------------------------------------------------------------------


def parse_settings(data: object) -> Settings:
    """Read a record's options (everything but `hands`), applying the defaults of docs/rules.md."""
    record = _mapping(data, "record", None)
    _unknown_keys(record, _GAME_KEYS, None, "")
    seats = record.get("seats")
    seats = 4 if seats is None else seats
    # 4.0 == 4 in Python, but a JSON 4.0 is not a seat count the table wrote.
    if type(seats) is not int or seats not in (2, 3, 4):
        raise RecordError(
            f"seats must be 2, 3 or 4, not {_show(seats)}",
            field="seats",
            code="bad_seats",
            params={"value": _show(seats)},
        )
    # Only a missing key or null means the default (docs/record-format.md); false, 0 or "" are wrong values.
    variant = record.get("variant")
    requested = _choice("standard" if variant is None else variant, "variant", None, VARIANTS)
    if requested == "check" and seats != 4:
        raise RecordError(
            f"variant: Check Pinochle is played at 4 seats only, not {seats}",
            field="variant",
            code="check_needs_four",
            params={"seats": seats},
        )
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
    if options is not None:
        options = _mapping(options, "options", None)
        _unknown_keys(options, _OPTION_KEYS, None, "options")
        if "meld_needs_trick" in options:
            meld_needs_trick = _bool(options["meld_needs_trick"], "options.meld_needs_trick", None)
    players: dict[str, str] = {}
    raw_players = record.get("players")
    if raw_players is not None:
        for seat, name in _mapping(raw_players, "players", None).items():
            _choice(seat, "players", None, letters)
            if not isinstance(name, str):
                raise RecordError(
                    f"players.{seat} must be a name, not {_show(name)}",
                    field=f"players.{seat}",
                    code="player_name_not_text",
                    params={"seat": seat, "value": _show(name)},
                )
            if len(name) > MAX_NAME_LENGTH:
                raise RecordError(
                    f"players.{seat} is longer than {MAX_NAME_LENGTH} characters",
                    field=f"players.{seat}",
                    code="player_name_too_long",
                    params={"seat": seat, "max": MAX_NAME_LENGTH},
                )
            players[seat] = name
    return Settings(seats, variant, requested, deck, target, min_bid, first, meld_needs_trick, players)


# --- hands ---------------------------------------------------------------------------------


def parse_hand(data: object, number: int, settings: Settings) -> Hand:
    """Read and check hand `number` against the settings; raises RecordError naming the field."""
    raw = _mapping(data, "hand", number)
    if not raw.keys() <= _HAND_KEYS:
        _unknown_keys(raw, _HAND_KEYS, number, "")
    sides = settings.sides

    passed = raw.get("passed", False)
    if passed is not False and _bool(passed, "passed", number):
        if not settings.chips_in_play:
            raise RecordError(
                "passed: only in Check Pinochle may all four pass; in this game someone must bid",
                field="passed",
                hand=number,
                code="pass_not_allowed",
            )
        for key in raw:
            if key != "passed":
                raise RecordError(
                    f"{key}: a passed hand has no {key}",
                    field=key,
                    hand=number,
                    code="passed_has_field",
                    params={"key": key},
                )
        zero = dict.fromkeys(sides, 0)
        return Hand(number, "passed", None, None, None, zero, zero, zero, None)

    conceded = raw.get("conceded", False)
    conceded = conceded is not False and _bool(conceded, "conceded", number)

    bidder, bid = raw.get("bidder"), raw.get("bid")
    kind: HandKind
    if bidder is None and bid is None:
        if settings.seats != 2:
            raise RecordError(
                "bidder: every hand has a bidder in this game",
                field="bidder",
                hand=number,
                code="bidder_required",
            )
        if conceded:
            raise RecordError(
                "conceded: a hand with no bid cannot be conceded",
                field="conceded",
                hand=number,
                code="nobid_conceded",
            )
        kind = "nobid"
    else:
        if bidder is None:
            raise RecordError(
                "bidder: a bid needs a bidder", field="bidder", hand=number, code="bid_without_bidder"
            )
        if bid is None:
            raise RecordError(
                "bid: the bidder's bid is missing", field="bid", hand=number, code="bid_missing"
            )
        if type(bidder) is not str or bidder not in settings.side_by_seat:
            bidder = _choice(bidder, "bidder", number, settings.seat_letters)
        if type(bid) is not int or not 0 <= bid <= MAX_BID:
            bid = _int(bid, "bid", number, low=0, high=MAX_BID)
        if bid < settings.min_bid or settings.deck == "double":
            step = bid_step_error(bid, settings.min_bid, settings.deck)
            if step:
                raise RecordError(
                    step,
                    field="bid",
                    hand=number,
                    code="bid_below_minimum" if bid < settings.min_bid else "bid_off_step",
                    params={"bid": bid, "min_bid": settings.min_bid, "top": settings.min_bid + 10},
                )
        kind = "conceded" if conceded else "played"

    trump = raw.get("trump")
    if trump is not None:
        if type(trump) is not str or trump not in SUITS:
            trump = _choice(trump, "trump", number, SUITS)
    elif settings.chips_in_play:
        raise RecordError(
            "trump: the bidder must name trump in Check Pinochle",
            field="trump",
            hand=number,
            code="trump_required",
        )

    meld, meld_chips, seat_melds = _read_meld(raw, number, settings, bidder, trump)

    tricks: Mapping[str, int]
    tricks_won = None
    if kind == "conceded":
        for key in ("tricks", "tricks_won"):
            if key in raw:
                raise RecordError(
                    f"{key}: a conceded hand is not played, so it has no {key}",
                    field=key,
                    hand=number,
                    code="conceded_has_field",
                    params={"key": key},
                )
        tricks = dict.fromkeys(sides, 0)
    else:
        if "tricks" not in raw:
            raise RecordError(
                "tricks: the trick points of each side are missing",
                field="tricks",
                hand=number,
                code="tricks_missing",
            )
        tricks = _per_side(raw["tricks"], "tricks", number, sides, high=settings.trick_points)
        total = sum(tricks.values())
        if total != settings.trick_points:
            raise RecordError(
                f"tricks add up to {total}, expected {settings.trick_points}",
                field="tricks",
                hand=number,
                code="tricks_total",
                params={"total": total, "expected": settings.trick_points},
            )
        if raw.get("tricks_won") is not None:
            tricks_won = _read_tricks_won(raw["tricks_won"], number, settings, tricks)
    return Hand(number, kind, bidder, bid, trump, meld, meld_chips, tricks, tricks_won, seat_melds)


def _per_side(value: object, name: str, number: int, sides: tuple[str, ...], *, high: int) -> dict[str, int]:
    if type(value) is dict and len(value) == len(sides):
        try:
            out = {side: value[side] for side in sides}
        except KeyError:
            pass
        else:
            for count in out.values():
                if type(count) is not int or not 0 <= count <= high:
                    break
            else:
                return out
    data = _mapping(value, name, number)
    for key in data:
        if key not in sides:
            raise RecordError(
                f"{name}: {_show(key)} is not a side of this table ({', '.join(sides)})",
                field=name,
                hand=number,
                code="not_a_side",
                params={"name": name, "key": _show(key), "sides": ", ".join(sides)},
            )
    out = {}
    for side in sides:
        if side not in data:
            raise RecordError(
                f"{name}: side {side} is missing",
                field=name,
                hand=number,
                code="side_missing",
                params={"name": name, "side": side},
            )
        out[side] = _int(data[side], f"{name}.{side}", number, low=0, high=high)
    return out


def _read_tricks_won(
    value: object, number: int, settings: Settings, tricks: Mapping[str, int]
) -> dict[str, int]:
    per_hand = settings.tricks_per_hand
    won = _per_side(value, "tricks_won", number, settings.sides, high=per_hand)
    total = sum(won.values())
    if total != per_hand:
        raise RecordError(
            f"tricks_won add up to {total}, expected the {per_hand} tricks of a hand",
            field="tricks_won",
            hand=number,
            code="tricks_won_total",
            params={"total": total, "expected": per_hand},
        )
    if settings.seats != 3:  # at 3 seats the widow's discards count for the bidder whatever was won
        for side, count in won.items():
            if count == per_hand and tricks[side] != settings.trick_points:
                raise RecordError(
                    f"tricks: side {side} won every trick, so it took all {settings.trick_points} points",
                    field="tricks",
                    hand=number,
                    code="slam_points",
                    params={"side": side, "points": settings.trick_points},
                )
            if count == 0 and tricks[side] != 0:
                raise RecordError(
                    f"tricks: side {side} won no trick, so it cannot have {tricks[side]} trick points",
                    field="tricks",
                    hand=number,
                    code="no_trick_points",
                    params={"side": side, "points": tricks[side]},
                )
    return won


def _read_meld(
    raw: Mapping[str, Any], number: int, settings: Settings, bidder: str | None, trump: str | None
) -> tuple[dict[str, int], dict[str, int], dict[str, SeatMeld] | None]:
    sides = settings.sides
    meld = dict.fromkeys(sides, 0)
    chips = dict.fromkeys(sides, 0)
    if "melds" in raw and "meld_points" in raw:
        raise RecordError(
            "meld_points: give either melds or meld_points for a hand, not both",
            field="meld_points",
            hand=number,
            code="meld_both",
        )
    if raw.get("meld_points") is not None:
        if settings.chips_in_play:
            raise RecordError(
                "meld_points: plain meld points are refused in Check Pinochle, where chips depend on "
                "which melds were shown; list the meld items",
                field="meld_points",
                hand=number,
                code="meld_points_in_check",
            )
        data = _mapping(raw["meld_points"], "meld_points", number)
        for key in data:
            if key not in sides:
                raise RecordError(
                    f"meld_points: {_show(key)} is not a side of this table ({', '.join(sides)})",
                    field="meld_points",
                    hand=number,
                    code="not_a_side",
                    params={"name": "meld_points", "key": _show(key), "sides": ", ".join(sides)},
                )
            meld[key] = _int(data[key], f"meld_points.{key}", number, low=0, high=MAX_MELD_POINTS)
        return meld, chips, None

    raw_melds = raw.get("melds")
    profiles: dict[str, SeatMeld] = {}
    if raw_melds is not None:
        side_by_seat, deck = settings.side_by_seat, settings.deck
        for seat, items in _mapping(raw_melds, "melds", number).items():
            side = side_by_seat.get(seat)  # a dict lookup: "NE" is a substring of "NESW", not a seat
            if side is None:
                raise RecordError(
                    f"melds: {_show(seat)} is not a seat of this table ({', '.join(settings.seat_letters)})",
                    field="melds",
                    hand=number,
                    code="not_a_seat",
                    params={"seat": _show(seat), "seats": ", ".join(settings.seat_letters)},
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
            game = "Check Pinochle" if settings.chips_in_play else "the double-deck game"
            raise RecordError(
                f"melds.{bidder}: in {game} the bidder must hold a marriage in trump "
                "(trump_marriage, a run or a roundhouse)",
                field=f"melds.{bidder}",
                hand=number,
                code="trump_marriage_check" if settings.chips_in_play else "trump_marriage_double",
                params={"seat": bidder},
            )
    return meld, chips, profiles
