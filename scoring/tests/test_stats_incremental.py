"""Saving a hand rewrites only that hand's derived rows; the result must equal a full rebuild."""

from typing import Any

import pytest

from scoring import stats
from scoring.models import GameStat, HandStat
from scoring.services.games import create_game
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from scoring.services.results import score

pytestmark = pytest.mark.django_db


def played(bidder: str, bid: int, ns: int, melds: dict[str, list[str]]) -> dict[str, Any]:
    return {
        "bidder": bidder,
        "bid": bid,
        "trump": "hearts",
        "melds": melds,
        "tricks": {"NS": ns, "EW": 25 - ns},
    }


def snapshot(game) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    hand_rows = list(
        HandStat.objects.filter(game=game)
        .order_by("number", "seat")
        .values_list("number", "seat", "result", "is_bidder", "bid", "seat_meld", "points", "chips", "total")
    )
    game_rows = list(
        GameStat.objects.filter(game=game)
        .order_by("seat")
        .values_list("seat", "outcome", "points_for", "points_against", "chips", "hands", "bids", "sets")
    )
    return hand_rows, game_rows


def test_it_keeps_the_derived_rows_equal_to_a_full_rebuild_through_saves_edits_and_deletes():
    game = create_game(
        seats=4,
        variant="check",
        deck="single",
        target=None,
        min_bid=None,
        first_dealer="N",
        meld_needs_trick=False,
        players={"N": "Anna", "E": "Bo", "S": "Cilla", "W": "Dag"},
    )
    record_hand(game=game, number=1, data=played("N", 27, 15, {"N": ["run", "marriage"], "E": ["aces"]}))
    record_hand(game=game, number=2, data={"passed": True})
    record_hand(game=game, number=3, data=played("E", 25, 20, {"E": ["trump_marriage", "pinochle"]}))
    record_hand(game=game, number=4, data=played("S", 21, 12, {"S": ["trump_marriage"]}))
    # A correction of hand 1 changes the running totals of every later hand.
    edit_hand(game=game, number=1, data=played("N", 30, 5, {"N": ["run", "marriage"], "E": ["aces"]}))
    delete_last_hand(game=game)
    incremental = snapshot(game)

    stats.refresh_game(game, score(game))
    rebuilt = snapshot(game)

    assert incremental == rebuilt
    assert [row[0] for row in incremental[0]] == [1] * 4 + [2] * 4 + [3] * 4
    # Hand 1 was corrected to a set of 30: N-S lost 30, and hand 3's running total follows it.
    rows = {(number, seat): row for number, seat, *row in incremental[0]}
    assert rows[1, "N"][4] == -30  # points
    assert rows[3, "N"][6] == -30 + 0 + 20  # running total: set, passed, then 20 trick points
