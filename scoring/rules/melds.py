"""Meld lists: their points and chips, and whether the deck can hold them (RULES.md §3).

A card may serve once in each class of meld: class A = runs, marriages, dix; class B = arounds;
class C = pinochles. So what a seat must physically hold of one card is the largest number any
single class needs of it, and the whole deal may not need more copies of a card than the deck has.

Example: in a single deck (two copies of each card) a seat showing `double_run` and
`trump_marriage` needs three trump kings in class A, which is one more than exists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from scoring.rules.errors import RecordError
from scoring.rules.tables import COPIES, LEVELLED_FAMILIES, MELD_ITEMS, ROUNDHOUSE_CHIPS

_MAX_ITEMS = 64  # more than any real seat can show; keeps hostile input cheap


@dataclass(frozen=True, slots=True)
class SeatMeld:
    """What one seat showed, reduced to what the rules need.

    The levels say how many of each kind the seat shows: `kings` 2 means double kings around.
    """

    items: tuple[str, ...]
    points: int
    chips: int
    run: int = 0
    pinochle: int = 0
    aces: int = 0
    kings: int = 0
    queens: int = 0
    jacks: int = 0
    trump_marriage: int = 0
    marriage: int = 0
    dix: int = 0

    @property
    def roundhouse(self) -> bool:
        """Kings and queens around mean a marriage in every suit."""
        return self.kings > 0 and self.queens > 0

    @property
    def has_trump_marriage(self) -> bool:
        return self.trump_marriage > 0 or self.run > 0 or self.roundhouse


def read_seat_meld(value: object, name: str, hand: int, deck: str) -> SeatMeld:
    """Check one seat's list of meld items and total its points and chips."""
    if not isinstance(value, list):
        raise RecordError(f"{name} must be a list of meld items", field=name, hand=hand)
    if len(value) > _MAX_ITEMS:
        raise RecordError(
            f"{name} lists {len(value)} melds, more than a hand can hold", field=name, hand=hand
        )
    for item in value:
        if not isinstance(item, str) or item not in MELD_ITEMS:
            shown = _shown(item)
            raise RecordError(f"{name}: {shown[:40]} is not a meld item", field=name, hand=hand)
    try:
        return _seat_meld(tuple(value), deck)
    except _MeldProblem as problem:
        raise RecordError(f"{name}: {problem}", field=name, hand=hand) from None


def _shown(value: object) -> str:
    """A bad meld item as the player typed it, in JSON's words ("null", not "NoneType")."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    return repr(value)[:40]


class _MeldProblem(Exception):
    pass


@lru_cache(maxsize=4096)
def _seat_meld(items: tuple[str, ...], deck: str) -> SeatMeld:
    levels = dict.fromkeys(LEVELLED_FAMILIES, 0)
    counts = {"trump_marriage": 0, "marriage": 0, "dix": 0}
    points = chips = 0
    for name in items:
        item = MELD_ITEMS[name]
        value = item.points(deck)
        if value is None:
            reason = "(no nines)" if name == "dix" else "(only a double deck holds it)"
            raise _MeldProblem(f"{name} is not a meld in a {deck} deck {reason}")
        points += value
        chips += item.chips
        if item.family in counts:
            counts[item.family] += 1
        elif levels[item.family]:
            raise _MeldProblem(
                f"{name} and another {item.family} meld are listed together; list the {item.family} "
                "level once (two runs are a double_run)"
            )
        else:
            levels[item.family] = item.level
    roundhouse = levels["kings"] > 0 and levels["queens"] > 0
    if roundhouse:
        if counts["marriage"] < 3 or counts["trump_marriage"] + levels["run"] == 0:
            raise _MeldProblem(
                "kings and queens around make a roundhouse, a marriage in every suit: list three "
                "marriages and a trump_marriage (or a run) with them"
            )
        if deck == "single":
            chips += ROUNDHOUSE_CHIPS
    return SeatMeld(items, points, chips, **levels, **counts)


def check_deal(seats: Mapping[str, SeatMeld], trump: str | None, deck: str, hand: int) -> None:
    """Refuse melds that need more copies of a card than the deck holds.

    With trump unknown (a standard game may leave it out) the melds stand if any trump suit
    would let the deck hold them.
    """
    if not seats:
        return
    copies = COPIES[deck]
    profiles = tuple(seats[seat] for seat in sorted(seats))
    if trump is None:
        problems = [_deal_problem(profiles, suit, copies) for suit in ("spades", "diamonds", "hearts")]
        problem = None if None in problems else problems[0]
    else:
        problem = _deal_problem(profiles, trump, copies)
    if problem:
        raise RecordError(f"melds: {problem}", field="melds", hand=hand)


@lru_cache(maxsize=4096)
def _deal_problem(profiles: tuple[SeatMeld, ...], trump: str, copies: int) -> str | None:
    # Physical copies needed of each card across the deal: per seat the largest need of any class.
    spades_trump, diamonds_trump = trump == "spades", trump == "diamonds"
    need = {
        "trump ace": sum(max(p.run, p.aces) for p in profiles),
        "trump ten": sum(p.run for p in profiles),
        "trump king": sum(max(p.run + p.trump_marriage, p.kings) for p in profiles),
        "trump queen": sum(
            max(p.run + p.trump_marriage, p.queens, p.pinochle if spades_trump else 0) for p in profiles
        ),
        "trump jack": sum(max(p.run, p.jacks, p.pinochle if diamonds_trump else 0) for p in profiles),
        "trump nine (dix)": sum(p.dix for p in profiles),
        "ace of a side suit": sum(p.aces for p in profiles),
        "jack of a side suit": sum(p.jacks for p in profiles),
        "king of a side suit": sum(p.kings for p in profiles),
        "queen of a side suit": sum(p.queens for p in profiles),
    }
    if not spades_trump:
        need["queen of spades"] = sum(max(p.queens, p.pinochle) for p in profiles)
    if not diamonds_trump:
        need["jack of diamonds"] = sum(max(p.jacks, p.pinochle) for p in profiles)
    for card, count in need.items():
        if count > copies:
            return f"the melds need {count} of the {card}, but the deck has only {copies}"
    # Marriages in the three side suits may sit in any of them: count their kings and queens
    # over the three suits together, sharing cards with the arounds (and the pinochle's Q♠).
    side_kings = sum(max(3 * p.kings, p.marriage) for p in profiles)
    side_queens = sum(
        max(3 * p.queens + (max(0, p.pinochle - p.queens) if not spades_trump else 0), p.marriage)
        for p in profiles
    )
    for what, count in (("kings", side_kings), ("queens", side_queens)):
        if count > 3 * copies:
            return (
                f"the marriages and arounds need {count} {what} of the side suits, "
                f"but the deck has only {3 * copies}"
            )
    for p in profiles:
        if p.marriage > 3 * copies:
            return f"{p.marriage} marriages outside trump are more than a {copies}-copy deck holds"
    return None
