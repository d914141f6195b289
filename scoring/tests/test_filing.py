"""Filing a casual game in a club and season, and linking its free-text seats to players."""

import pytest

from league import standings
from scoring.models import Game, GameSeat
from scoring.services.games import create_game
from scoring.services.hands import record_hand
from tests.league_data import H1, small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(people):
    """alice, a club organiser: she organises CLUB, and each test makes her the organiser of the
    club it makes."""
    return people.client("alice")


def _casual_game(owner=None):
    game = create_game(
        seats=4, variant="standard", deck="single", target=30, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "asa", "E": "Örjan", "S": "Cenek", "W": "Řehoř"},
    )  # fmt: skip
    record_hand(game=game, number=1, data=H1)
    Game.objects.filter(pk=game.pk).update(created_by=owner)
    return game


def test_it_lists_casual_games_to_file(client, people):
    game = _casual_game(people["alice"])
    page = client.get("/league/").content.decode()
    assert f"/g/{game.code}/details/" in page


def test_it_files_a_casual_game_and_its_figures_follow_the_linked_players(client, people):
    data = small_season(people["alice"])
    game = _casual_game(people["alice"])
    people = data["people"]
    response = client.post(
        f"/g/{game.code}/details/",
        {
            "club": data["club"].pk,
            "season": data["season"].pk,
            "played_on": "2026-04-01",
            "place": "Bord 2",
            "note": "",
            **{
                f"seat_{seat}": people[name].pk
                for seat, name in zip("NESW", ("Åsa", "Örjan", "Čeněk", "Řehoř"), strict=True)
            },
        },
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.season, str(game.played_on), game.place) == (data["season"], "2026-04-01", "Bord 2")
    assert GameSeat.objects.get(game=game, seat="N").name == "asa"  # what the table typed stays
    lines = {line.name: line for line in standings.season_standings(data["season"])["players"]}
    assert (lines["Åsa"].games, lines["Åsa"].wins) == (4, 3)
    assert lines["Örjan"].losses == 4


def test_it_refuses_a_date_outside_the_season_and_writes_nothing(client, people):
    data = small_season(people["alice"])
    game = _casual_game(people["alice"])
    response = client.post(
        f"/g/{game.code}/details/",
        {"club": data["club"].pk, "season": data["season"].pk, "played_on": "2027-01-01",
         "seat_N": data["people"]["Åsa"].pk},
    )  # fmt: skip
    assert response.status_code == 400
    assert "The date 2027-01-01 is outside season " in response.content.decode()
    game.refresh_from_db()
    assert game.season is None
    assert GameSeat.objects.get(game=game, seat="N").player is None


def test_it_shows_the_game_form_with_the_typed_names(client, people):
    game = _casual_game(people["alice"])
    page = client.get(f"/g/{game.code}/details/").content.decode()
    assert "Seat N (typed: asa)" in page
    assert client.get("/g/nope/details/").status_code == 404


def test_the_seat_choices_name_only_the_clubs_the_user_files_in_never_another_club_of_a_shared_player():
    import datetime

    from django.contrib.auth.models import User
    from django.test import Client

    from clubs.models import Club, ClubRole, Membership, Player, Season

    norr, soder = Club.objects.create(name="Norr"), Club.objects.create(name="Söder")
    anna = Player.objects.create(name="Anna")
    for club in (norr, soder):
        Membership.objects.create(club=club, player=anna)
    spring = Season.objects.create(
        club=soder, name="Vår", starts_on=datetime.date(2026, 3, 1), ends_on=datetime.date(2026, 5, 31)
    )
    scorer = User.objects.create_user("sara")
    ClubRole.objects.create(user=scorer, club=soder, role=ClubRole.Role.SCORER)
    game = create_game(
        seats=4, variant="standard", deck="single", target=1000, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "Anna", "E": "Bo", "S": "Cia", "W": "Dan"},
    )  # fmt: skip
    Game.objects.filter(pk=game.pk).update(club=soder, season=spring, created_by=scorer)
    client = Client()
    client.force_login(scorer)
    response = client.get(f"/g/{game.code}/details/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Anna (Söder)" in page
    assert "Norr" not in page  # Anna's other club is not this scorer's to know
