"""Whether the deck can hold a deal's melds (docs/rules.md, "Meld").

A card may serve once in each class of meld: class A = runs, marriages, dix; class B = arounds;
class C = pinochles. So what a seat must physically hold of one card is the largest number any
single class needs of it, and the whole deal may not need more copies of a card than the deck has.

Example: in a single deck (two copies of each card) a seat showing `double_run` and
`trump_marriage` needs three trump kings in class A, which is one more than exists.

The counts are packed per card (`_CARDS`), with the three side suits' kings and queens counted
together; a deal whose counts fit and that shows marriages outside trump is then placed suit by
suit (`_marriages_placed`), so the check is exact (scoring/tests/test_rules_deck_oracle.py).
Above the cards each packed demand also carries what placing those marriages starts from (the
side suits' kings and queens the arounds and pinochles take, and the marriages): most deals are
then seen to fit from the one sum, and only the rest are searched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from scoring.rules.errors import RecordError
from scoring.rules.tables import COPIES, LEVELLED_FAMILIES

if TYPE_CHECKING:
    from scoring.rules.melds import SeatMeld


# What a deal needs of each card, per seat; the last two count the kings and queens of the three
# side suits together, because a marriage outside trump may sit in any of them.
_CARDS = (
    "trump ace",
    "trump ten",
    "trump king",
    "trump queen",
    "trump jack",
    "trump nine (dix)",
    "ace of a side suit",
    "jack of a side suit",
    "king of a side suit",
    "queen of a side suit",
    "queen of spades",
    "jack of diamonds",
    "king of the side suits",
    "queen of the side suits",
)
#: The cards in the plural, for the deck check's sentence ("the melds need 3 trump kings").
_CARDS_PLURAL = (
    "trump aces",
    "trump tens",
    "trump kings",
    "trump queens",
    "trump jacks",
    "trump nines (dix)",
    "aces of a side suit",
    "jacks of a side suit",
    "kings of a side suit",
    "queens of a side suit",
    "queens of spades",
    "jacks of diamonds",
    "kings of the side suits",
    "queens of the side suits",
)
_SIDE_SUITS_TOGETHER = 12
_TRUMP_KINDS = ("spades", "diamonds", "hearts")  # hearts stands for either suit without a pinochle card
_WIDTH = 8


def _needs(levels: dict[str, int], counts: dict[str, int], trump: str) -> tuple[int, ...]:
    r, a, k, q, j, pin = (levels[f] for f in ("run", "aces", "kings", "queens", "jacks", "pinochle"))
    t, m, d = counts["trump_marriage"], counts["marriage"], counts["dix"]
    spades, diamonds = trump == "spades", trump == "diamonds"
    return (
        max(r, a),
        r,
        max(r + t, k),
        max(r + t, q, pin if spades else 0),
        max(r, j, pin if diamonds else 0),
        d,
        a,
        j,
        k,
        q,
        0 if spades else max(q, pin),
        0 if diamonds else max(j, pin),
        max(3 * k, m),
        max(3 * q + (0 if spades else max(0, pin - q)), m),
    )


def _capacity(index: int, copies: int) -> int:
    return 3 * copies if index >= _SIDE_SUITS_TOGETHER else copies


def _pack(needs: tuple[int, ...], copies: int) -> int:
    # Clamped one above capacity so four seats' sum stays inside its 8-bit field.
    packed = 0
    for index, need in enumerate(needs):
        packed |= min(need, _capacity(index, copies) + 1) << (_WIDTH * index)
    return packed


def _masks(copies: int) -> tuple[int, int]:
    """(bias, high bits): a field of (sum + bias) has its top bit set exactly when sum > capacity."""
    bias = high = 0
    for index in range(len(_CARDS)):
        bias |= (127 - _capacity(index, copies)) << (_WIDTH * index)
        high |= 128 << (_WIDTH * index)
    return bias, high


_MASKS = {copies: _masks(copies) for copies in COPIES.values()}
#: Which of a SeatMeld's three demands a trump suit reads.
TRUMP_KIND: Final = {"spades": 0, "diamonds": 1, "hearts": 2, "clubs": 2}
_KINDS: dict[str | None, tuple[int, ...]] = {None: (0, 1, 2)} | {
    trump: (kind,) for trump, kind in TRUMP_KIND.items()
}

# Above the cards' fields, four wider ones (four seats' sums stay inside them): the side suits'
# kings and queens the arounds take, the queens of spades the queens around and pinochles take
# when spades is a side suit (else the queens again), and the marriages outside trump.
_PLACING_SHIFT = _WIDTH * len(_CARDS)
_PLACING_WIDTH = 10
_KINGS_SHIFT, _QUEENS_SHIFT, _SPADES_SHIFT, _MARRIAGES_SHIFT = (
    _PLACING_SHIFT + _PLACING_WIDTH * field for field in range(4)
)


def _pack_placing(placing: tuple[int, int, int, int], spades_side: bool) -> int:
    kings, queens, pinochle, marriages = placing
    spades = max(queens, pinochle) if spades_side else queens
    return (
        kings << _KINGS_SHIFT
        | queens << _QUEENS_SHIFT
        | spades << _SPADES_SHIFT
        | marriages << _MARRIAGES_SHIFT
    )


def seat_demand(
    levels: dict[str, int], counts: dict[str, int], placing: tuple[int, int, int, int], copies: int
) -> tuple[int, int, int]:
    """What one seat's melds need of each card, packed (`_pack`, `_pack_placing`), for trump in
    spades, in diamonds, and in another suit: a deal's needs then add up with one addition per seat.
    `levels` by levelled family, `counts` of the repeatable items, `placing` as `SeatMeld.placing`."""
    spades, diamonds, other = (
        _pack(_needs(levels, counts, trump), copies) | _pack_placing(placing, trump != "spades")
        for trump in _TRUMP_KINDS
    )
    return spades, diamonds, other


def check_deal(seats: Mapping[str, SeatMeld], trump: str | None, deck: str, hand: int) -> None:
    """Refuse melds that need more copies of a card than the deck holds.

    With trump unknown (a standard game may leave it out) the melds stand if any trump suit
    would let the deck hold them.
    """
    check_melds(tuple(seats.values()), trump, deck, hand)


def check_melds(profiles: Sequence[SeatMeld], trump: str | None, deck: str, hand: int) -> None:
    """`check_deal` for the seats' melds in a sequence (the record reader's way)."""
    copies = COPIES[deck]
    bias, high = _MASKS[copies]
    kinds = _KINDS[trump]
    placing: tuple[tuple[int, int, int, int], ...] | None = None
    for kind in kinds:
        total = 0
        for profile in profiles:
            total += profile.demand[kind]
        if (total + bias) & high:
            continue
        if fits_at_a_glance(total, copies):
            return
        if placing is None:
            placing = tuple(sorted(p.placing for p in profiles))
        if _marriages_placed(placing, kind != 0, copies):
            return
    # Over capacity: name the first card short, with the unclamped count.
    trump_kind = _TRUMP_KINDS[kinds[0]]
    needs = [_needs(_levels(p), _counts(p), trump_kind) for p in profiles]
    for index, card in enumerate(_CARDS):
        need, capacity = sum(seat[index] for seat in needs), _capacity(index, copies)
        if need > capacity:
            code = "deck_short_side_suits" if index >= _SIDE_SUITS_TOGETHER else "deck_short"
            raise RecordError.of(
                code,
                field="melds",
                hand=hand,
                need=need,
                card=card,
                cards=card if need == 1 else _CARDS_PLURAL[index],
                capacity=capacity,
            )
    raise RecordError.of("marriages_do_not_fit", field="melds", hand=hand)


def fits_at_a_glance(total: int, copies: int) -> bool:
    """Whether a deal surely fits the deck, from its seats' demands for one trump added up: the
    counts fit and the marriages outside trump fit even if each took a king and a queen of its
    own (`_ROOM`). False means "search" (`check_melds`), not "refused"."""
    bias, high = _MASKS[copies]
    if (total + bias) & high:
        return False
    placing = total >> _PLACING_SHIFT
    return placing >> _MARRIAGES_AT <= _ROOM[copies].get(placing & _AROUNDS_FIELDS, -1)


def _room(kings: int, queens: int, spades: int, copies: int) -> int:
    """How many marriages outside trump surely fit beside arounds and pinochles taking `kings`
    kings and `queens` queens of every side suit and `spades` queens of spades (the queens again
    when spades is trump).

    A seat's marriage may share its king and queen with the seat's arounds, so it needs at most one
    more of each in its suit; a side suit holds as many marriages as it has kings and queens left
    after the arounds (spades, a side suit unless trump, less the queens the pinochles take)."""
    kings_left = copies - kings
    return min(kings_left, copies - spades) + 2 * min(kings_left, copies - queens)


# Counts that fit leave at most `copies` of each; other counts are not in the table (search).
_MARRIAGES_AT = _MARRIAGES_SHIFT - _PLACING_SHIFT
_AROUNDS_FIELDS = (1 << _MARRIAGES_AT) - 1
_ROOM = {
    copies: {
        _pack_placing((kings, queens, spades, 0), True) >> _PLACING_SHIFT: _room(
            kings, queens, spades, copies
        )
        for kings in range(copies + 1)
        for queens in range(copies + 1)
        for spades in range(queens, copies + 1)
    }
    for copies in COPIES.values()
}


@lru_cache(maxsize=4096)
def _marriages_placed(placing: tuple[tuple[int, int, int, int], ...], spades_side: bool, copies: int) -> bool:
    """Whether every marriage outside trump can be put in a side suit so that no side suit needs
    more kings or queens than the deck has of it.

    `placing`: per seat, (kings level, queens level, pinochle level, marriages outside trump).
    Arounds need a king (queen) of every side suit; a pinochle needs the queen of spades, a side
    suit when `spades_side` (it is then the first of the three). A seat's marriage shares its king
    and queen with the seat's own arounds and pinochle (another class of meld), so n marriages
    in a suit need max(n, kings level) kings there from that seat, not n more."""
    kings = sum(seat[0] for seat in placing)
    queens = sum(seat[1] for seat in placing)
    spades = sum(max(seat[1], seat[2]) for seat in placing) if spades_side else queens
    if kings > copies or max(queens, spades) > copies:
        return False
    with_marriages = [seat for seat in placing if seat[3]]

    def place(index: int, used: tuple[tuple[int, int], ...]) -> bool:
        if index == len(with_marriages):
            return True
        k, q, pin, count = with_marriages[index]
        held_q = [max(q, pin) if suit == 0 and spades_side else q for suit in range(3)]
        for first in range(count + 1):
            for second in range(count - first + 1):
                after = []
                for suit, n in enumerate((first, second, count - first - second)):
                    suit_kings = used[suit][0] + max(k, n) - k
                    suit_queens = used[suit][1] + max(held_q[suit], n) - held_q[suit]
                    if suit_kings > copies or suit_queens > copies:
                        break
                    after.append((suit_kings, suit_queens))
                else:
                    if place(index + 1, tuple(after)):
                        return True
        return False

    return place(0, ((kings, spades), (kings, queens), (kings, queens)))


def _levels(p: SeatMeld) -> dict[str, int]:
    return {family: getattr(p, family) for family in LEVELLED_FAMILIES}


def _counts(p: SeatMeld) -> dict[str, int]:
    return {"trump_marriage": p.trump_marriage, "marriage": p.marriage, "dix": p.dix}
