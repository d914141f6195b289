"""The player page shows a viewer only the records they may read: a player on two clubs' rosters
shows a member of one club that club's games, seasons, partners, opponents and totals, nothing of
the other club's (docs/security.md)."""

from __future__ import annotations

import datetime
import html
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs.models import Club, ClubRole, Membership, Player, Season
from tests.league_data import H1, play

pytestmark = pytest.mark.django_db


def _club(name: str, season: str, *players: str) -> tuple[Season, list[Player]]:
    club = Club.objects.create(name=name)
    spring = Season.objects.create(
        club=club, name=season, starts_on=datetime.date(2026, 3, 1), ends_on=datetime.date(2026, 5, 31)
    )
    people = [Player.objects.get_or_create(name=name)[0] for name in players]
    for person in people:
        Membership.objects.create(club=club, player=person)
    return spring, people


@pytest.fixture
def anna() -> dict[str, object]:
    """Anna plays three games with Nils in Norr and one with Sara in Söder."""
    norr, (anna, nils, ebba, erik) = _club("Norr", "Norrvåren", "Anna", "Nils", "Ebba", "Erik")
    soder, (_anna, sara, olle, oskar) = _club("Söder", "Södervåren", "Anna", "Sara", "Olle", "Oskar")
    norr_games = [
        play(
            variant="standard",
            seating={"N": anna, "S": nils, "E": ebba, "W": erik},
            hands=[H1],
            season=norr,
            day=d,
        )
        for d in (2, 9, 16)
    ]
    soder_game = play(
        variant="standard",
        seating={"N": anna, "S": sara, "E": olle, "W": oskar},
        hands=[H1],
        season=soder,
        day=23,
    )
    member = User.objects.create_user("sven")
    ClubRole.objects.create(user=member, club=soder.club, role=ClubRole.Role.MEMBER)
    return {"player": anna, "norr_games": norr_games, "soder_game": soder_game, "member": member}


def _page(user: User, player: Player) -> tuple[Any, str]:
    client = Client()
    client.force_login(user)
    response = client.get(f"/league/players/{player.pk}/")
    assert response.status_code == 200
    return response.context, html.unescape(response.content.decode())


def test_a_member_of_one_club_sees_none_of_the_other_clubs_records_on_a_shared_players_page(anna):
    _context, page = _page(anna["member"], anna["player"])
    for game in anna["norr_games"]:
        assert game.code not in page
    for hidden in ("Norr", "Norrvåren", "Nils", "Ebba", "Erik"):
        assert hidden not in page, hidden
    assert anna["soder_game"].code in page
    assert "Södervåren" in page and "Sara" in page


def test_the_totals_partners_and_rating_insight_count_only_the_games_the_viewer_may_read(anna):
    context, page = _page(anna["member"], anna["player"])
    figures, ratings = context["f"], context["r"]
    assert figures.career.games == 1 and figures.career.wins == 1
    assert [line.name for line in figures.partners] == ["Sara"]
    assert [season.name for season, _line in figures.seasons] == ["Södervåren"]
    assert len(figures.recent) == 1
    assert ratings.partial and ratings.form == ["W"] and ratings.chart == ""
    assert {named.player.name for named in ratings.partners} <= {"Sara"}
    assert [name for name, _row in ratings.club_ratings] == ["Söder"]
    assert "all-time, from" not in page


def test_a_viewer_of_every_club_of_the_player_sees_all_their_records(anna, people):
    root = people.superuser()
    context, page = _page(root, anna["player"])
    assert context["f"].career.games == 4
    assert not context["r"].partial and "all-time, from 4 rated games" in page
    assert all(game.code in page for game in anna["norr_games"])


def test_the_all_time_leaderboard_leaves_out_a_player_whose_rating_counts_games_the_viewer_may_not_read(
    anna,
):
    client = Client()
    client.force_login(anna["member"])
    board = client.get("/league/").context["board"]
    names = [row.player.name for row in board]
    # Anna's all-time rating (and its game count, 4) counts three games of Norr, which this member
    # of Söder may not read; her page leaves it out, and so does the leaderboard.
    assert "Anna" not in names
    assert "Sara" in names


def test_the_all_time_leaderboard_shows_every_rated_player_to_a_viewer_of_every_club(anna, people):
    root = people.superuser()
    client = Client()
    client.force_login(root)
    names = [row.player.name for row in client.get("/league/").context["board"]]
    assert {"Anna", "Sara", "Nils"} <= set(names)
