"""A game's options (docs/record-format.md): `parse_settings` reads them from a record, applying
the defaults of docs/rules.md, into `Settings`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scoring.rules.errors import RecordError
from scoring.rules.readers import an_object, one_of, refuse_unknown_keys, shown, true_or_false, whole_number
from scoring.rules.scale import SCALES
from scoring.rules.tables import (
    BID_STEPS,
    CHECK_SEATS,
    DECKS,
    MAX_BID,
    MAX_DEALS,
    MAX_MELD_POINTS,
    MAX_NAME_LENGTH,
    MAX_TARGET,
    SEAT_COUNTS,
    TRICK_POINTS,
    TRICKS_PER_HAND,
    VARIANTS,
    chips_in_play,
    default_min_bid,
    default_target,
    played_variant,
    seats_for,
    side_of,
    sides_for,
)

_GAME_KEYS = frozenset(
    {"seats", "variant", "deck", "target", "min_bid", "first_dealer", "players", "options", "hands"}
)
_OPTION_KEYS = frozenset({"meld_needs_trick", "deals", "bid_steps", "meld_counts_from", "spread", "scale"})


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
    #: The double deck's bid ladder (docs/rules.md, "Bid steps"): "standard" (the rule book's) or
    #: "tens_above_100" (house rule: above 100 only multiples of 10).
    bid_steps: str = "standard"
    #: "On the board" (docs/rules.md, "Meld counts from N (house rule)"): a side's meld counts only
    #: when it is at least N and the side took at least N trick points in the hand. None: always.
    meld_counts_from: int | None = None
    #: The game also ends after a hand in which a side leads every other side by at least this
    #: many points (docs/rules.md, "A winning spread (house rule)"). None: no such end.
    spread: int | None = None
    #: Points shown and typed ×scale (docs/rules.md, "Points ×10 (house rule)"): display and entry
    #: only, the engine works at 1 whatever it is (scoring.rules.scale converts).
    scale: int = 1

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
            "chips_in_play": chips_in_play(self.variant, self.deck),
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

    @property
    def ends_early(self) -> bool:
        """True when a rule besides the target may end the game (a fixed number of deals, a spread)."""
        return self.deals is not None or self.spread is not None

    def dealer(self, number: int) -> str:
        """The seat that deals hand `number` (1-based): clockwise from the first dealer."""
        letters = self.seat_letters
        return letters[(letters.index(self.first_dealer) + number - 1) % self.seats]

    def side_of(self, seat: str) -> str:
        return self.side_by_seat[seat]


def parse_settings(data: object) -> Settings:
    """Read a record's options (everything but `hands`), applying the defaults of docs/rules.md."""
    record = an_object(data, "record", None)
    refuse_unknown_keys(record, _GAME_KEYS, None, "")
    seats = record.get("seats")
    seats = 4 if seats is None else seats
    # 4.0 == 4 in Python, but a JSON 4.0 is not a seat count the table wrote.
    if type(seats) is not int or seats not in SEAT_COUNTS:
        raise RecordError.of("bad_seats", field="seats", value=shown(seats))
    # Only a missing key or null means the default (docs/record-format.md); false, 0 or "" are wrong values.
    variant = record.get("variant")
    requested = one_of("standard" if variant is None else variant, "variant", None, VARIANTS)
    if requested == "check" and seats != CHECK_SEATS:
        raise RecordError.of("check_needs_four", field="variant", seats=seats)
    deck = record.get("deck")
    deck = one_of("single" if deck is None else deck, "deck", None, DECKS)
    variant = played_variant(requested, deck)
    target = record.get("target")
    target = default_target(deck, variant) if target is None else target
    target = whole_number(target, "target", None, low=1, high=MAX_TARGET)
    min_bid = record.get("min_bid")
    min_bid = default_min_bid(deck) if min_bid is None else min_bid
    min_bid = whole_number(min_bid, "min_bid", None, low=1, high=MAX_BID)
    letters = seats_for(seats)
    first = record.get("first_dealer")
    first = one_of("N" if first is None else first, "first_dealer", None, letters)
    options = record.get("options")
    meld_needs_trick = False
    deals: int | None = None
    bid_steps = "standard"
    meld_counts_from: int | None = None
    spread: int | None = None
    scale = 1
    if options is not None:
        options = an_object(options, "options", None)
        refuse_unknown_keys(options, _OPTION_KEYS, None, "options")
        if "meld_needs_trick" in options:
            meld_needs_trick = true_or_false(options["meld_needs_trick"], "options.meld_needs_trick", None)
        if options.get("deals") is not None:
            deals = whole_number(options["deals"], "options.deals", None, low=1, high=MAX_DEALS)
        if options.get("bid_steps") is not None:
            bid_steps = one_of(options["bid_steps"], "options.bid_steps", None, BID_STEPS)
            if bid_steps != "standard" and deck != "double":
                name = "options.bid_steps"
                raise RecordError.of("bid_steps_single_deck", field=name, name=name, value=bid_steps)
        if options.get("meld_counts_from") is not None:
            meld_counts_from = whole_number(
                options["meld_counts_from"], "options.meld_counts_from", None, low=1, high=MAX_MELD_POINTS
            )
        if options.get("spread") is not None:
            spread = whole_number(options["spread"], "options.spread", None, low=1, high=MAX_TARGET)
        if options.get("scale") is not None:
            scale = whole_number(options["scale"], "options.scale", None, low=1, high=max(SCALES))
            if scale not in SCALES:
                choices = ", ".join(str(value) for value in SCALES)
                name = "options.scale"
                raise RecordError.of("not_one_of", field=name, name=name, choices=choices, value=str(scale))
    players: dict[str, str] = {}
    raw_players = record.get("players")
    if raw_players is not None:
        for seat, name in an_object(raw_players, "players", None).items():
            one_of(seat, "players", None, letters)
            if not isinstance(name, str):
                raise RecordError.of(
                    "player_name_not_text", field=f"players.{seat}", seat=seat, value=shown(name)
                )
            if len(name) > MAX_NAME_LENGTH:
                raise RecordError.of(
                    "player_name_too_long", field=f"players.{seat}", seat=seat, max=MAX_NAME_LENGTH
                )
            players[seat] = name
    return Settings(
        seats,
        variant,
        requested,
        deck,
        target,
        min_bid,
        first,
        meld_needs_trick,
        players,
        deals,
        bid_steps=bid_steps,
        meld_counts_from=meld_counts_from,
        spread=spread,
        scale=scale,
    )
