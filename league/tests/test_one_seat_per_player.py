"""One player takes at most one seat of a game, however the seat gets its player.

Two seats of one game linked to one player would count that player twice in the standings (one
game became a win and a loss). The web filing form, `link_seat`, the CSV and JSON imports,
`restore`, merging players and the database itself all refuse it.
"""

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from clubs import services as club_services
from clubs.models import Player
from league import standings
from league.csv_io.problems import ImportRefused
from league.imports.worker import import_bytes
from scoring import filing
from scoring.models import Game, GameSeat
from tests.league_data import small_season

from .backup_files import back_up, fresh_database, restore_refused, rows, the_row, write

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(people):
    """alice, a club organiser: she organises CLUB, and each test makes her the organiser of the
    club it makes."""
    return people.client("alice")


def _seated(game: Game) -> dict[str, int | None]:
    return dict(game.seat_rows.values_list("seat", "player_id"))


def test_one_player_cannot_take_two_seats():
    data = small_season()
    game, asa = data["games"][0], data["people"]["Åsa"]
    before = _seated(game)
    with pytest.raises(ValidationError, match=r"Åsa already sits in seat N of game"):
        filing.link_seat(seat=game.seat_rows.get(seat="S"), player=asa)
    assert _seated(game) == before


def test_the_database_refuses_one_player_in_two_seats():
    data = small_season()
    game, asa = data["games"][0], data["people"]["Åsa"]
    with pytest.raises(IntegrityError), transaction.atomic():
        GameSeat.objects.filter(game=game, seat="S").update(player=asa)
    # Unlinked seats (no player) are as many as the game has.
    GameSeat.objects.filter(game=game).update(player=None)
    assert GameSeat.objects.filter(game=game, player__isnull=True).count() == 4


def test_the_filing_form_refuses_one_player_in_two_seats_and_writes_nothing(client, people):
    data = small_season(people["alice"])
    game, people = data["games"][0], data["people"]
    before = _seated(game)
    seats = {"N": "Åsa", "E": "Örjan", "S": "Åsa", "W": "Řehoř"}
    response = client.post(
        f"/g/{game.code}/details/",
        {
            "club": data["club"].pk,
            "season": data["season"].pk,
            "played_on": "2026-03-02",
            "place": "Bord 1",
            **{f"seat_{seat}": people[name].pk for seat, name in seats.items()},
        },
    )
    assert response.status_code == 400
    assert "Åsa already takes seat N; one player sits in one seat." in response.content.decode()
    assert _seated(game) == before


def test_two_players_can_swap_seats_through_the_filing_form(client, people):
    data = small_season(people["alice"])
    game, people = data["games"][0], data["people"]
    seats = {"N": "Čeněk", "E": "Örjan", "S": "Åsa", "W": "Řehoř"}  # Åsa and Čeněk change places
    response = client.post(
        f"/g/{game.code}/details/",
        {
            "club": data["club"].pk,
            "season": data["season"].pk,
            "played_on": "2026-03-02",
            "place": "Bord 1",
            **{f"seat_{seat}": people[name].pk for seat, name in seats.items()},
        },
    )
    assert response.status_code == 302
    assert _seated(game) == {seat: people[name].pk for seat, name in seats.items()}


def test_a_csv_import_naming_one_player_in_two_seats_of_a_club_game_is_refused(client, people):
    small_season(people["alice"])
    raw = b"".join(client.get("/league/export/hands.csv").streaming_content).decode("utf-8-sig")
    Game.objects.all().delete()
    lines = raw.splitlines()
    header = lines[0].split(",")
    cells = lines[1].split(",")
    cells[header.index("player_S")] = cells[header.index("player_N")]  # Åsa in N and in S
    lines[1] = ",".join(cells)
    with pytest.raises(ImportRefused) as refused:
        import_bytes("\n".join(lines).encode(), name="hands.csv")
    assert [str(p) for p in refused.value.problems] == [
        "line 2: players: Åsa is named in seats N and S; in a club game one player sits in one seat"
    ]
    assert not Game.objects.exists()


def test_a_json_import_into_a_club_naming_one_player_twice_is_refused():
    data = small_season()
    record = {
        "seats": 4,
        "variant": "check",
        "players": {"N": "Anna", "E": "Bo", "S": "anna", "W": "Cid"},
        "hands": [{"passed": True}],
    }
    games = Game.objects.count()
    with pytest.raises(ImportRefused) as refused:
        import_bytes(json.dumps(record).encode(), name="r.json", club=data["club"].name)
    assert [str(p) for p in refused.value.problems] == [
        "players: anna is named in seats N and S; in a club game one player sits in one seat"
    ]
    assert Game.objects.count() == games
    # Outside a club the names are only typed names: the same record is taken.
    import_bytes(json.dumps(record).encode(), name="r.json")
    assert Game.objects.count() == games + 1


def test_restore_refuses_a_backup_that_seats_one_player_twice(tmp_path):
    small_season()
    data = rows(back_up(tmp_path))
    game = the_row(data, "scoring.game")["pk"]
    seats = {
        row["fields"]["seat"]: row
        for row in data
        if row["model"] == "scoring.gameseat" and row["fields"]["game"] == game
    }
    seats["S"]["fields"]["player"] = seats["N"]["fields"]["player"]
    fresh_database()
    assert "nothing restored" in restore_refused(write(tmp_path, data))
    assert not Game.objects.exists()


def test_merging_two_players_who_sat_in_one_game_is_refused_naming_the_game(client, people):
    data = small_season(people["alice"])
    asa, orjan = data["people"]["Åsa"], data["people"]["Örjan"]
    with pytest.raises(ValidationError, match="played in the same game"):
        club_services.merge_players(keep=asa, duplicate=orjan)
    response = client.post(f"/league/players/{asa.pk}/merge", {"duplicate": orjan.pk}, follow=True)
    page = response.content.decode()
    assert "played in the same game" in page
    assert any(game.code in page for game in data["games"])
    assert Player.objects.filter(pk=orjan.pk).exists()
    lines = {line.name: line for line in standings.season_standings(data["season"])["players"]}
    assert lines["Åsa"].games == 3 and lines["Örjan"].games == 3
