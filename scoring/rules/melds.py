"""Meld lists: their points and chips, and whether they go together (docs/rules.md, "Meld").

`meld_sum` is the one place meld items become points and chips; `seat_meld` checks one seat's
list and reduces it to what the rules need, with what the seat needs of each card (`deck.py` adds
those up over a deal to see whether the deck can hold them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scoring.rules.deck import seat_demand
from scoring.rules.errors import RecordError, sentence
from scoring.rules.tables import COPIES, LEVELLED_FAMILIES, MELD_ITEMS, ROUNDHOUSE_CHIPS, ROUNDHOUSE_FAMILIES

_MAX_ITEMS = 64  # more than any real seat can show; keeps hostile input cheap


@dataclass(frozen=True, slots=True)
class SeatMeld:
    """What one seat showed, reduced to what the rules need.

    The levels say how many of each kind the seat shows: `kings` 2 means double kings around.
    `demand` holds, for trump in spades, in diamonds, and in another suit, how many copies of
    each card the seat must hold (see `deck._CARDS`), packed into one integer so a deal's needs add
    up with one addition per seat.
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
    demand: tuple[int, int, int] = (0, 0, 0)
    #: (kings level, queens level, pinochle level, marriages outside trump): what placing the
    #: marriages in the side suits depends on (check_deal).
    placing: tuple[int, int, int, int] = (0, 0, 0, 0)
    # Derived once: the bidder's check reads it for every hand.
    trump_marriage_held: bool = False

    @property
    def roundhouse(self) -> bool:
        """Kings and queens around mean a marriage in every suit."""
        return self.kings > 0 and self.queens > 0


def read_seat_meld(value: object, name: str, hand: int, deck: str) -> SeatMeld:
    """Check one seat's list of meld items and total its points and chips."""
    if type(value) is not list:
        raise RecordError.of("meld_not_list", field=name, hand=hand, name=name)
    if len(value) > _MAX_ITEMS:
        raise RecordError.of("too_many_melds", field=name, hand=hand, name=name, count=len(value))
    try:
        return seat_meld(tuple(value), deck)
    except (MeldProblem, TypeError) as problem:
        for item in value:
            if not isinstance(item, str) or item not in MELD_ITEMS:
                raise RecordError.of(
                    "not_meld_item", field=name, hand=hand, name=name, item=_shown(item)
                ) from None
        # Every item is a meld item, so it was the rules, not a stray list or object, that refused.
        assert isinstance(problem, MeldProblem)
        raise RecordError.of(problem.code, field=name, hand=hand, **problem.params, name=name) from None


def _shown(value: object) -> str:
    """A bad meld item as the player typed it, in JSON's words ("null", not "NoneType")."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    return repr(value)[:40]


class MeldProblem(Exception):
    """A seat's meld list the rules refuse; `code` and `params` as in RecordError.

    The seat's field is not known here: `read_seat_meld` turns the problem into a RecordError.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(sentence(code, params))
        self.code = code
        self.params = params


def meld_sum(counts: Mapping[str, int], deck: str, *, chips_in_play: bool) -> tuple[int, int]:
    """The points and chips of meld items, `counts` by item name: each item's points and chips
    times its count, and the roundhouse's chips when kings and queens around are both shown and
    chips are in play. A roundhouse has no points of its own (docs/rules.md, "Roundhouse").

    The one place a seat's meld items become points: the engine (`seat_meld`, once it has checked
    the items), the hand form's running sum, the statistics, the export and the rules page all
    add up here. Items not shown (count 0 or less) and items the deck cannot hold add nothing;
    whether the items go together is `seat_meld`'s to say.

    >>> roundhouse = {"kings": 1, "queens": 1, "marriage": 3, "trump_marriage": 1}
    >>> meld_sum(roundhouse, "single", chips_in_play=True)
    (24, 7)
    >>> meld_sum({"kings": 1, "queens": 1, "dix": 2}, "single", chips_in_play=False)
    (16, 0)
    """
    points = chips = 0
    families: set[str] = set()
    for name, count in counts.items():
        item = MELD_ITEMS[name]
        value = item.points(deck)
        if count <= 0 or value is None:
            continue
        points += count * value
        chips += count * item.chips if chips_in_play else 0
        families.add(item.family)
    if chips_in_play and set(ROUNDHOUSE_FAMILIES) <= families:
        chips += ROUNDHOUSE_CHIPS
    return points, chips


@lru_cache(maxsize=4096)
def seat_meld(items: tuple[str, ...], deck: str) -> SeatMeld:
    levels = dict.fromkeys(LEVELLED_FAMILIES, 0)
    counts = {"trump_marriage": 0, "marriage": 0, "dix": 0}
    shown: dict[str, int] = {}
    for name in items:
        item = MELD_ITEMS.get(name)
        if item is None:
            raise MeldProblem("not_meld_item", item=repr(name)[:40])
        if item.points(deck) is None:
            raise MeldProblem(
                "meld_not_in_single_deck" if deck == "single" else "meld_not_in_double_deck", item=name
            )
        shown[name] = shown.get(name, 0) + 1
        if item.family in counts:
            counts[item.family] += 1
        elif levels[item.family]:
            raise MeldProblem("meld_level_twice", item=name, family=item.family)
        else:
            levels[item.family] = item.level
    roundhouse = levels["kings"] > 0 and levels["queens"] > 0
    if roundhouse and (counts["marriage"] < 3 or counts["trump_marriage"] + levels["run"] == 0):
        raise MeldProblem("roundhouse_incomplete")
    # Chips are counted with a single deck only (Check Pinochle's deck; the record reader adds them
    # when the game plays for chips).
    points, chips = meld_sum(shown, deck, chips_in_play=deck == "single")
    placing = (levels["kings"], levels["queens"], levels["pinochle"], counts["marriage"])
    demand = seat_demand(levels, counts, placing, COPIES[deck])
    held = counts["trump_marriage"] > 0 or levels["run"] > 0 or roundhouse
    return SeatMeld(
        items,
        points,
        chips,
        **levels,
        **counts,
        demand=demand,
        placing=placing,
        trump_marriage_held=held,
    )
