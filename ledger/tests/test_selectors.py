"""What the ledger reads from a night's games agrees with the night's standings, in a few queries."""

from decimal import Decimal

import pytest

from ledger import balances, selectors
from nights.standings import night_standings
from tests.ledger_helpers import CHECK_HANDS, EW_MAKES, NS_MAKES, make_night, roster, standard_hand

pytestmark = pytest.mark.django_db


def test_a_round_of_fixed_hands_counts_the_chips_at_the_end_of_its_game_like_the_standings(club, season):
    players = roster(club, *"ABCDEFGH")
    night = make_night(
        club=club,
        season=season,
        tables=[(players[:4], CHECK_HANDS), (players[4:], [EW_MAKES, NS_MAKES, NS_MAKES])],
        hands_per_round=2,
    )
    ledger = selectors.night_ledger(night)
    standings = {line.player_id: line.chips for line in night_standings(night).lines}
    assert {row.player: row.chips for row in ledger.rows} == standings
    assert {row.player: row.amount for row in ledger.rows} == {p: Decimal(c) for p, c in standings.items()}
    assert ledger.total_chips == 0 and any(standings.values())


def test_a_standard_night_at_tables_of_four_three_and_two_pays_the_stake_per_game_won(club, season):
    players = roster(club, *"ABCDEFGHI")
    three = {
        "bidder": "N",
        "bid": 20,
        "meld_points": {"N": 5, "E": 5, "S": 5},
        "tricks": {"N": 15, "E": 10, "S": 0},
    }
    two = {"bidder": "E", "bid": 20, "meld_points": {"N": 5, "E": 5}, "tricks": {"N": 10, "E": 15}}
    night = make_night(
        club=club,
        season=season,
        variant="standard",
        tables=[(players[:4], [standard_hand("N", True)]), (players[4:7], [three]), (players[7:], [two])],
        stake_per_win=Decimal("1.00"),
        hands_per_round=1,  # one hand decides each table
    )
    ledger = selectors.night_ledger(night)
    money = {row.name: row.amount for row in ledger.rows}
    # 4 seats: N-S win, each collects 1 and each of E-W pays 1; 3 seats: N collects 2; 2 seats: E collects 1.
    assert money == {
        "A": Decimal("1.00"), "C": Decimal("1.00"), "B": Decimal("-1.00"), "D": Decimal("-1.00"),
        "E": Decimal("2.00"), "F": Decimal("-1.00"), "G": Decimal("-1.00"),
        "H": Decimal("-1.00"), "I": Decimal("1.00"),
    }  # fmt: skip
    assert ledger.total_amount == 0
    assert [(s.payer_name, s.payee_name, s.amount) for s in ledger.suggestions] == [
        ("B", "A", Decimal("1.00")),
        ("D", "C", Decimal("1.00")),
        ("F", "E", Decimal("1.00")),
        ("G", "E", Decimal("1.00")),
        ("H", "I", Decimal("1.00")),
    ]


def test_the_season_ledger_takes_a_fixed_number_of_queries(club, season, django_assert_max_num_queries):
    import datetime

    players = roster(club, *"ABCDEFGH")
    for day in range(1, 7):
        make_night(
            club=club,
            season=season,
            played_on=datetime.date(2026, 10, day),
            tables=[(players[:4], [NS_MAKES]), (players[4:], [EW_MAKES])],
            stake_per_chip=Decimal("0.10"),
        )
    with django_assert_max_num_queries(8):
        ledger = balances.season_ledger(season)
    assert len(ledger.nights) == 6 and ledger.totals == {"money": Decimal(0)}
