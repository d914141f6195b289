"""`manage.py backup` then `manage.py restore` into an empty database gives the club back:
every game, every standing and every chip total; a bad file or a full database is refused."""

import gzip
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from clubs.models import ClubRole, Membership, Player, Season
from scoring import filing
from scoring.models import Game, GameStat, HandStat
from scoring.services.hands import record_hand
from scoring.services.results import game_record
from tests.helpers import quick_hand, standard_game, text
from tests.league_data import small_season

from .backup_files import back_up, fresh_database, restore, restore_refused, the_row, write

pytestmark = pytest.mark.django_db


def club_night() -> dict[str, Any]:
    season = small_season()
    club = season["club"]
    # A club game with a typed name nobody linked, and a second "Åsa" (two people, one name).
    other = Player.objects.create(name="Åsa")
    Membership.objects.create(club=club, player=other)
    game = standard_game(seats=3)
    filing.set_game_details(game=game, club=club, season=None, played_on=None, place="Bar", note="x")
    filing.link_seat(seat=game.seat_rows.get(seat="N"), player=other)
    for number in (1, 2):
        record_hand(
            game=game,
            number=number,
            data={
                "bidder": "N",
                "bid": 20,
                "meld_points": {"N": 10, "E": 0, "S": 0},
                "tricks": {"N": 25, "E": 0, "S": 0},
            },
        )
    casual = standard_game()
    record_hand(game=casual, number=1, data=quick_hand())
    organiser = User.objects.create_user("olga", "olga@example.org", "a quiet club night 2026")
    ClubRole.objects.create(user=organiser, club_id=club.pk, role=ClubRole.Role.ORGANISER)
    return season


def wipe() -> None:
    fresh_database()


def everything(client) -> dict[str, object]:
    """What a club would check: each game (record, league details, totals, chips), the standings
    pages as people read them, the player pages, rosters and roles."""
    games = {}
    for game in Game.objects.select_related("club", "season").prefetch_related("seat_rows__player"):
        games[game.code] = {
            "record": game_record(game),
            "summary": (game.hand_count, game.finished, game.winner, game.scores, game.chip_totals),
            "league": (
                game.club.name if game.club else None,
                game.season.name if game.season else None,
                game.played_on,
                game.place,
                game.note,
            ),
            "seats": sorted(
                (row.seat, row.player.name if row.player else None) for row in game.seat_rows.all()
            ),
            "share_code": game.share_code,
            "page": text(client.get(f"/g/{game.code}/")),
        }
    return {
        "games": games,
        "standings": {s.name: text(client.get(f"/league/seasons/{s.pk}/")) for s in Season.objects.all()},
        "players": sorted(
            (p.name, text(client.get(f"/league/players/{p.pk}/")).split("Merge")[0])
            for p in Player.objects.all()
        ),
        "rosters": sorted(Membership.objects.values_list("club__name", "player__name")),
        "roles": sorted(ClubRole.objects.values_list("user__username", "role")),
        "stats": (HandStat.objects.count(), GameStat.objects.count()),
    }


def test_backup_then_restore_into_an_empty_database_gives_everything_back(client, tmp_path):
    club_night()
    before = everything(client)
    path = back_up(tmp_path)
    wipe()
    assert not Game.objects.exists()

    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    assert out.getvalue().startswith("Installed ")
    assert everything(client) == before
    assert User.objects.get(username="olga").check_password("a quiet club night 2026")


def test_a_players_account_retirement_and_a_closed_season_survive_backup_and_restore(tmp_path):
    season = club_night()["season"]
    olga = User.objects.get(username="olga")
    Player.objects.filter(name="Čeněk").update(user=olga)
    Membership.objects.filter(player__name="Örjan").update(retired_on="2026-05-01")
    Season.objects.filter(pk=season.pk).update(closed_at="2026-07-01T12:00:00Z")
    path = back_up(tmp_path)
    wipe()
    call_command("restore", str(path), stdout=io.StringIO())
    cenek_user = Player.objects.get(name="Čeněk").user
    assert cenek_user is not None and cenek_user.username == "olga"
    assert str(Membership.objects.get(player__name="Örjan").retired_on) == "2026-05-01"
    assert Season.objects.get(name=season.name).is_closed
    assert Membership.objects.exclude(player__name="Örjan").filter(retired_on__isnull=False).count() == 0


def test_backup_to_standard_output_is_the_same_json_and_restores_from_standard_input(tmp_path, monkeypatch):
    club_night()
    out = io.StringIO()
    call_command("backup", "-", stdout=out)
    data = json.loads(out.getvalue())
    assert data == json.loads(back_up(tmp_path).read_text())
    assert {row["fields"]["variant"] for row in data if row["model"] == "scoring.game"} == {
        "standard",
        "check",
    }
    role = the_row(data, "clubs.clubrole")["fields"]
    assert role["user"] == ["olga"] and role["role"] == "organiser"  # an account by its name
    wipe()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(out.getvalue().encode())))
    assert restore("-").startswith("Installed ") and Game.objects.count() == 5  # type: ignore[arg-type]


def test_a_gzip_compressed_backup_restores(tmp_path):
    club_night()
    path = tmp_path / "backup.json.gz"
    call_command("backup", str(path), stderr=io.StringIO())
    assert gzip.decompress(path.read_bytes()).startswith(b"[")
    games = Game.objects.count()
    wipe()
    restore(path)
    assert Game.objects.count() == games


def test_it_refuses_a_database_that_holds_data(tmp_path):
    club_night()
    path = back_up(tmp_path)
    games = Game.objects.count()
    with pytest.raises(CommandError, match="the database is not empty") as refused:
        restore(path)
    assert refused.value.returncode == 2 and Game.objects.count() == games


def test_it_refuses_a_truncated_file_naming_the_line_and_writes_nothing(tmp_path):
    club_night()
    text = back_up(tmp_path).read_text()
    wipe()
    message = restore_refused(write(tmp_path, text[:-200]))
    assert "(line 1)" in message and "nothing restored" in message
