"""Standings and player figures against the hand-computed season of tests/league_data.py."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league import standings
from scoring.models import GameStat, HandStat
from scoring.services.games import create_game
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from scoring.services.results import score
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


def _by_name(lines):
    return {line.name: line for line in lines}


def test_it_ranks_players_by_wins_then_chips_then_point_difference():
    data = small_season()
    players = standings.season_standings(data["season"])["players"]
    assert [(line.rank, line.name) for line in players] == [
        (1, "Čeněk"),
        (2, "Åsa"),
        (3, "Řehoř"),
        (4, "Örjan"),
    ]


@pytest.mark.parametrize(
    ("name", "figures"),
    [
        # games, wins, losses, draws, points for, against, chips, bids, made, sets, meld sum, meld hands
        ("Åsa", (3, 2, 1, 0, 91, 36, -16, 1, 1, 0, 26, 4)),
        ("Örjan", (3, 0, 3, 0, 20, 107, -16, 1, 0, 1, 18, 4)),
        ("Čeněk", (3, 3, 0, 0, 107, 20, 16, 2, 2, 0, 25, 4)),
        ("Řehoř", (3, 1, 2, 0, 36, 91, 16, 0, 0, 0, 6, 4)),
    ],
)
def test_it_counts_each_players_figures_by_hand(name, figures):
    data = small_season()
    line = _by_name(standings.season_standings(data["season"])["players"])[name]
    got = (
        *(line.games, line.wins, line.losses, line.draws, line.points_for, line.points_against, line.chips),
        *(line.bids, line.made, line.sets, line.meld_sum, line.meld_hands),
    )
    assert got == figures


def test_it_shows_rates_and_averages():
    data = small_season()
    lines = _by_name(standings.season_standings(data["season"])["players"])
    assert lines["Åsa"].win_pct == pytest.approx(200 / 3)
    assert lines["Örjan"].make_rate == 0
    assert lines["Örjan"].set_rate == 100
    assert lines["Řehoř"].make_rate is None
    assert lines["Čeněk"].avg_meld == 6.25
    assert lines["Åsa"].point_diff == 55


@pytest.mark.parametrize(
    ("pair", "figures"),
    [
        # games, wins, losses, points for, against, chips, side bids, made, sets, side meld, hands
        ("Åsa & Čeněk", (2, 2, 0, 71, 0, 0, 2, 2, 0, 24, 3)),
        ("Örjan & Řehoř", (2, 0, 2, 0, 71, 0, 1, 0, 1, 20, 3)),
        ("Åsa & Örjan", (1, 0, 1, 20, 36, -16, 0, 0, 0, 10, 1)),
        ("Čeněk & Řehoř", (1, 1, 0, 36, 20, 16, 1, 1, 0, 21, 1)),
    ],
)
def test_it_counts_partnerships_once_per_game(pair, figures):
    data = small_season()
    line = _by_name(standings.season_standings(data["season"])["partnerships"])[pair]
    got = (
        *(line.games, line.wins, line.losses, line.points_for, line.points_against, line.chips),
        *(line.bids, line.made, line.sets, line.meld_sum, line.meld_hands),
    )
    assert got == figures


def test_it_sorts_by_a_column_on_request():
    data = small_season()
    players = standings.season_standings(data["season"], "avg_meld", True)["players"]
    assert [line.name for line in players] == ["Åsa", "Čeněk", "Örjan", "Řehoř"]
    players = standings.season_standings(data["season"], "name", False)["players"]
    assert [line.name for line in players] == ["Åsa", "Čeněk", "Örjan", "Řehoř"]


def test_it_rewrites_the_statistics_when_a_hand_is_edited_or_deleted():
    data = small_season()
    g2 = data["games"][1]
    # E now makes the 25: EW 10 + 15 = 25; NS 1 + 10 = 11, and hand 2 no longer ends the game.
    edit_hand(game=g2, number=1, data={**g2.hands.get(number=1).data, "tricks": {"NS": 10, "EW": 15}})
    orjan = _by_name(standings.season_standings(data["season"])["players"])["Örjan"]
    assert (orjan.bids, orjan.made, orjan.sets) == (1, 1, 0)
    delete_last_hand(game=g2)
    assert HandStat.objects.filter(game=g2).count() == 4
    assert GameStat.objects.get(game=g2, seat="N").outcome == ""
    # G2 is unfinished now, so only G1 and G3 count.
    asa = _by_name(standings.season_standings(data["season"])["players"])["Åsa"]
    assert (asa.games, asa.wins) == (2, 1)


def test_it_ignores_games_in_progress():
    data = small_season()
    game = create_game(
        seats=4, variant="standard", deck="single", target=None, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "Åsa"},
    )  # fmt: skip
    game.season = data["season"]
    game.save()
    assert _by_name(standings.season_standings(data["season"])["players"])["Åsa"].games == 3


def test_it_reads_standings_in_a_fixed_number_of_queries():
    data = small_season()
    with CaptureQueriesContext(connection) as few:
        standings.season_standings(data["season"])
    small_season_more = data["games"][0]
    for _ in range(3):
        create_game(
            seats=4, variant="standard", deck="single", target=30, min_bid=None, first_dealer="N",
            meld_needs_trick=False, players={},
        )  # fmt: skip
    assert small_season_more
    with CaptureQueriesContext(connection) as more:
        standings.season_standings(data["season"])
    assert len(few) == len(more) == 2


def test_it_gives_the_player_page_figures():
    data = small_season()
    figures = standings.player_figures(data["people"]["Čeněk"])
    assert figures.career.games == 3
    single = figures.bands["single"]
    assert [(band.label, band.bids, band.made) for band in single] == [
        ("20–24", 1, 1),
        ("25–29", 1, 1),
        ("30–34", 0, 0),
        ("35+", 0, 0),
    ]
    assert figures.favourite_trump == "clubs"  # clubs and diamonds once each: alphabetical
    assert [(p.name, p.games, p.wins) for p in figures.partners] == [("Åsa", 2, 2), ("Řehoř", 1, 1)]
    assert [season.name if season else None for season, _line in figures.seasons] == ["Vår 2026"]
    assert len(figures.recent) == 3


def test_it_places_double_deck_bids_in_scaled_bands():
    from scoring.stats import bid_band

    assert [bid_band(b, "double") for b in (50, 60, 65, 70, 75, 85, 90, 150)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [bid_band(b, "single") for b in (20, 24, 25, 29, 30, 34, 35)] == [0, 0, 1, 1, 2, 2, 3]


def test_it_rebuilds_the_statistics_with_a_command():
    from django.core.management import call_command

    data = small_season()
    before = [
        (line.name, line.games, line.meld_sum)
        for line in standings.season_standings(data["season"])["players"]
    ]
    HandStat.objects.all().delete()
    GameStat.objects.all().delete()
    assert standings.season_standings(data["season"])["players"] == []
    call_command("refresh_stats")
    after = [
        (line.name, line.games, line.meld_sum)
        for line in standings.season_standings(data["season"])["players"]
    ]
    assert after == before


def test_it_counts_a_draw_as_half_a_win():
    import dataclasses

    from scoring import stats

    data = small_season()
    g3 = data["games"][2]
    stats.refresh_game(g3, dataclasses.replace(score(g3), winner="draw"))
    lines = _by_name(standings.season_standings(data["season"])["players"])
    assert (lines["Čeněk"].wins, lines["Čeněk"].draws) == (2, 1)
    assert lines["Čeněk"].win_pct == pytest.approx(100 * 2.5 / 3)


def test_it_takes_the_best_opponent_as_points_against_at_three_seats():
    game = create_game(
        seats=3, variant="standard", deck="single", target=30, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "Nils", "E": "Eva", "S": "Sven"},
    )  # fmt: skip
    # N 14 meld + 12 tricks = 26 made; E 8; S 5.
    record_hand(
        game=game, number=1,
        data={"bidder": "N", "bid": 20, "trump": "spades", "melds": {"N": ["trump_marriage", "aces"]},
              "tricks": {"N": 12, "E": 8, "S": 5}},
    )  # fmt: skip
    # E 15 + 15 = 30 made → 38; N 31; S 10. Both N and E reach 30; the bidder E wins.
    record_hand(
        game=game, number=2,
        data={"bidder": "E", "bid": 21, "trump": "hearts", "melds": {"E": ["run"]},
              "tricks": {"N": 5, "E": 15, "S": 5}},
    )  # fmt: skip
    got = {s.seat: (s.outcome, s.points_for, s.points_against, s.bids, s.bids_made, s.meld_sum) for s in
           GameStat.objects.filter(game=game)}  # fmt: skip
    assert got == {
        "N": ("loss", 31, 38, 1, 1, 14),
        "E": ("win", 38, 31, 1, 1, 15),
        "S": ("loss", 10, 38, 0, 0, 0),
    }


def test_it_gives_tied_lines_the_same_rank_and_skips_the_next():
    def line(name, wins, chips, points_for):
        return standings.Line(key=(hash(name),), names=(name,), wins=wins, chips=chips, points_for=points_for)

    ranked = standings.rank(
        [
            line("Ada", 3, 5, 100),
            line("Bo", 2, 1, 90),
            line("Cy", 2, 1, 90),
            line("Di", 2, 1, 90),
            line("Ed", 1, 0, 0),
        ]
    )
    assert [(item.rank, item.names[0]) for item in ranked] == [
        (1, "Ada"),
        (2, "Bo"),
        (2, "Cy"),
        (2, "Di"),
        (5, "Ed"),
    ]


def test_it_rounds_an_average_meld_half_up_as_the_player_page_does():
    line = standings.Line(key=(1,), names=("Åsa",), meld_sum=29, meld_hands=4)  # 7.25
    assert standings.cell("avg_meld", line) == "7.3"
