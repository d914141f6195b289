"""A hands.csv exported here imports into an empty database as the same games and standings."""

import json

import pytest

from clubs.models import Club, Player, Season
from league import standings
from league.imports.worker import import_bytes
from scoring.models import Game, GameStat, Hand, HandStat
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(people):
    """alice, a club organiser: she organises CLUB, and each test makes her the organiser of the
    club it makes."""
    return people.client("alice")


FIGURES = (
    *("games", "wins", "losses", "draws", "points_for", "points_against", "chips"),
    *("bids", "made", "sets", "meld_sum", "meld_hands"),
)


def _snapshot():
    season = Season.objects.get(name="Vår 2026")
    tables = standings.season_standings(season)
    lines = {
        kind: sorted((line.name, *(getattr(line, f) for f in FIGURES)) for line in rows)
        for kind, rows in tables.items()
    }
    games = sorted(
        (
            (g.code, str(g.played_on), g.place, g.variant, g.target, g.winner, g.hand_count),
            (sorted(g.scores.items()), sorted(g.chip_totals.items())),
            [json.dumps(h.data, sort_keys=True) for h in g.hands.all()],
            sorted((s.seat, s.name, s.player.name if s.player else None) for s in g.seat_rows.all()),
        )
        for g in Game.objects.prefetch_related("hands", "seat_rows__player")
    )
    return lines, games


def _empty_the_database():
    Game.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    assert not Hand.objects.exists() and not HandStat.objects.exists() and not GameStat.objects.exists()


def test_it_reproduces_the_same_games_and_standings(client, people):
    small_season(people["alice"])
    before = _snapshot()
    exported = b"".join(client.get("/league/export/hands.csv").streaming_content)
    _empty_the_database()

    report = import_bytes(exported, name="hands.csv")

    assert (report.games, report.hands) == (3, 4)
    assert _snapshot() == before
    # And the re-export is byte for byte the same file, by the organiser of the club imported anew.
    people.organiser_of(Club.objects.get(name="Klubbén"))
    Game.objects.update(created_by=people["alice"])
    assert b"".join(client.get("/league/export/hands.csv").streaming_content) == exported


def test_it_round_trips_every_kind_of_hand(client, people):
    from scoring.services.games import create_game
    from scoring.services.hands import record_hand
    from scoring.services.results import game_record

    two = create_game(
        seats=2, variant="standard", deck="single", target=None, min_bid=None, first_dealer="E",
        meld_needs_trick=True, players={"N": "=cmd", "E": "Bo"},
    )  # fmt: skip
    record_hand(game=two, number=1, data={"meld_points": {"N": 10, "E": 0}, "tricks": {"N": 20, "E": 5}})
    record_hand(
        game=two, number=2, data={"bidder": "N", "bid": 20, "conceded": True, "meld_points": {"E": 3}}
    )
    check = create_game(
        seats=4, variant="check", deck="single", target=None, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={},
    )  # fmt: skip
    record_hand(game=check, number=1, data={"passed": True})
    record_hand(
        game=check,
        number=2,
        data={
            "bidder": "E", "bid": 31, "trump": "spades",
            "melds": {"E": ["trump_marriage", "kings", "queens", "marriage", "marriage", "marriage"]},
            "tricks": {"NS": 0, "EW": 25}, "tricks_won": {"NS": 0, "EW": 12},
        },
    )  # fmt: skip
    double = create_game(
        seats=3, variant="standard", deck="double", target=None, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "Čeněk"},
    )  # fmt: skip
    record_hand(
        game=double, number=1,
        data={"bidder": "S", "bid": 65, "trump": "clubs", "melds": {"S": ["run", "double_aces"]},
              "tricks": {"N": 10, "E": 10, "S": 30}},
    )  # fmt: skip
    Game.objects.update(created_by=people["alice"])  # started on the organiser's phone: theirs to export
    exported = b"".join(client.get("/league/export/hands.csv").streaming_content)
    records = {g.code: game_record(g) for g in Game.objects.all()}
    summaries = {g.code: (g.scores, g.chip_totals, g.winner, g.finished) for g in Game.objects.all()}
    _empty_the_database()
    import_bytes(exported, name="hands.csv")
    assert {g.code: game_record(g) for g in Game.objects.all()} == records
    assert {g.code: (g.scores, g.chip_totals, g.winner, g.finished) for g in Game.objects.all()} == summaries
    Game.objects.update(created_by=people["alice"])
    assert b"".join(client.get("/league/export/hands.csv").streaming_content) == exported
