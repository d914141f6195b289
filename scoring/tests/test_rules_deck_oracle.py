"""The deck-capacity check against a brute-force oracle written from the rule book
(docs/rules.md, "What the deck can hold").

The engine decides whether the deck can hold a deal's melds with packed per-card counts and the
side suits' kings and queens counted together, then, when a seat shows marriages outside trump,
a search over the suits they can sit in (`scoring/rules/deck.py`). The oracle here knows
nothing of that: it lays out real cards. Each seat's melds are split into the three classes of
§3 (A: runs, marriages, dix; B: arounds; C: pinochles); a card may serve once in each class, so a
seat holds of every card the most any one class needs of it. Every marriage outside trump is
tried in every side suit and, when trump is not named, every suit is tried as trump. The deal
fits when some choice needs no card more often than the deck has it (2 copies in a single deck,
4 in a double deck).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.rules.deck import check_deal
from scoring.rules.errors import RecordError
from scoring.rules.melds import seat_meld

SUITS = ("spades", "hearts", "diamonds", "clubs")
COPIES = {"single": 2, "double": 4}
LEVEL_PREFIXES = {"double_": 2, "triple_": 3, "quadruple_": 4}
AROUND_RANKS = {"aces": "A", "kings": "K", "queens": "Q", "jacks": "J"}
RUN_RANKS = ("A", "10", "K", "Q", "J")

Card = tuple[str, str]  # (rank, suit)


def family_and_level(item: str) -> tuple[str, int]:
    for prefix, level in LEVEL_PREFIXES.items():
        if item.startswith(prefix):
            return item.removeprefix(prefix), level
    return item, 1


def seat_holding(items: Sequence[str], trump: str, marriage_suits: Sequence[str]) -> Counter[Card]:
    """The cards one seat must hold to show `items`, its marriages in `marriage_suits`."""
    a: Counter[Card] = Counter()  # runs, marriages, dix
    b: Counter[Card] = Counter()  # arounds
    c: Counter[Card] = Counter()  # pinochles
    suits = iter(marriage_suits)
    for item in items:
        family, level = family_and_level(item)
        if family == "run":
            for rank in RUN_RANKS:
                a[rank, trump] += level
        elif family == "trump_marriage":  # a K-Q of trump besides those in the runs
            a["K", trump] += 1
            a["Q", trump] += 1
        elif family == "marriage":
            suit = next(suits)
            a["K", suit] += 1
            a["Q", suit] += 1
        elif family == "dix":
            a["9", trump] += 1
        elif family in AROUND_RANKS:
            for suit in SUITS:
                b[AROUND_RANKS[family], suit] += level
        elif family == "pinochle":
            c["Q", "spades"] += level
            c["J", "diamonds"] += level
        else:
            raise AssertionError(f"not a meld item: {item}")
    return Counter({card: max(a[card], b[card], c[card]) for card in a.keys() | b.keys() | c.keys()})


def deck_holds(seats: Mapping[str, Sequence[str]], trump: str | None, deck: str) -> bool:
    """Whether some trump suit (the named one if any) and some placing of the marriages fit the deck."""
    copies = COPIES[deck]
    for trump_suit in SUITS if trump is None else (trump,):
        side_suits = [suit for suit in SUITS if suit != trump_suit]
        # Every way each seat can hold its melds: one per spread of its marriages over the side suits.
        choices = [
            [
                seat_holding(items, trump_suit, spread)
                for spread in itertools.combinations_with_replacement(side_suits, items.count("marriage"))
            ]
            for items in seats.values()
        ]
        if _some_choice_fits(choices, Counter(), copies):
            return True
    return False


def _some_choice_fits(choices: list[list[Counter[Card]]], taken: Counter[Card], copies: int) -> bool:
    if not choices:
        return True
    for holding in choices[0]:
        total = taken + holding
        if all(count <= copies for count in total.values()) and _some_choice_fits(choices[1:], total, copies):
            return True
    return False


def engine_holds(seats: Mapping[str, Sequence[str]], trump: str | None, deck: str) -> bool:
    profiles = {seat: seat_meld(tuple(items), deck) for seat, items in seats.items()}
    try:
        check_deal(profiles, trump, deck, 1)
    except RecordError as error:
        assert error.code in ("deck_short", "deck_short_side_suits", "marriages_do_not_fit")
        return False
    return True


@st.composite
def seat_items(draw: st.DrawFn, deck: str) -> list[str]:
    """One seat's meld list as the rules allow it to be written (levels once, a roundhouse complete)."""
    top = 2 if deck == "single" else 4
    # Mostly nothing or a low level, so that deals near the deck's capacity come up often.
    level = st.sampled_from([0, 0, 0, 0, 0, 1, 1, *range(2, top + 1)])
    levels = {family: draw(level) for family in ("run", "pinochle", "aces", "kings", "queens", "jacks")}
    trump_marriages = draw(st.integers(0, 2))
    marriages = draw(st.integers(0, 4))
    dix = draw(st.integers(0, 2)) if deck == "single" else 0
    if levels["kings"] and levels["queens"]:  # a roundhouse lists its marriages (docs/rules.md, "Roundhouse")
        marriages = max(marriages, 3)
        if not levels["run"]:
            trump_marriages = max(trump_marriages, 1)
    items = ["trump_marriage"] * trump_marriages + ["marriage"] * marriages + ["dix"] * dix
    for family, n in levels.items():
        if n:
            items.append(family if n == 1 else f"{['', 'double', 'triple', 'quadruple'][n - 1]}_{family}")
    return draw(st.permutations(items))


@st.composite
def deals(draw: st.DrawFn, deck: str) -> tuple[dict[str, list[str]], str | None]:
    seats = draw(st.sampled_from(["N", "NE", "NES", "NESW"]))
    melds = {seat: draw(seat_items(deck)) for seat in seats}
    trump = draw(st.sampled_from([None, *SUITS]))
    return melds, trump


ORACLE_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("deck", ["single", "double"])
@ORACLE_SETTINGS
@given(data=st.data())
def test_the_engine_refuses_a_deal_exactly_when_no_layout_of_real_cards_holds_it(deck, data):
    melds, trump = data.draw(deals(deck))
    assert engine_holds(melds, trump, deck) == deck_holds(melds, trump, deck), (melds, trump)


# The oracle itself, on the rule book's own examples and a few worked by hand.
@pytest.mark.parametrize(
    ("deck", "melds", "trump", "holds"),
    [
        ("single", {"N": ["double_run", "trump_marriage"]}, "hearts", False),  # both trump kings in runs
        ("single", {"N": ["double_run"], "E": ["kings"]}, "hearts", False),  # a third trump king
        ("single", {"N": ["double_run", "kings"]}, "hearts", True),  # one seat's kings serve both classes
        ("single", {"N": ["double_pinochle"], "S": ["double_pinochle"]}, None, False),
        ("single", {"N": ["aces"], "E": ["aces"], "S": ["aces"]}, "spades", False),
        ("single", {"N": ["dix", "dix"], "E": ["dix"]}, "clubs", False),
        ("single", {"N": ["dix"], "E": ["dix"]}, "clubs", True),
        (
            "single",
            {"N": ["kings", "queens", "marriage", "marriage", "marriage", "trump_marriage"]},
            None,
            True,
        ),
        ("single", {"N": ["double_pinochle", "queens"]}, "hearts", True),  # each class on its own
        ("single", {"N": ["marriage"] * 6, "E": ["marriage"]}, "hearts", False),  # six side-suit kings
        ("double", {"N": ["quadruple_aces"], "E": ["run"]}, "hearts", False),  # all four trump aces taken
        ("double", {"N": ["double_run", "double_pinochle"], "E": ["double_pinochle"]}, "spades", True),
    ],
)
def test_the_oracle_follows_the_rule_book(deck, melds, trump, holds):
    assert deck_holds(melds, trump, deck) is holds
    assert engine_holds(melds, trump, deck) is holds
