"""Organiser pages: a signed-in user creates a club and keeps its roster and seasons without the
admin; a member joins through an invite link."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from clubs.models import Club, ClubRole, Invite, Membership, Player, Season
from clubs.selectors import roster
from scoring.models import GameSeat
from tests.access_helpers import ROOT, make_game, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def founder() -> Client:
    """An account with no role anywhere yet (none of the personas): it founds the club of these tests."""
    return signed_in("founder")


@pytest.fixture
def club(founder) -> Club:
    founder.post("/clubs/new", {"name": "Klubbén"})
    return Club.objects.get(name="Klubbén")


def add(client: Client, club: Club, *names: str) -> list[Player]:
    for name in names:
        assert client.post(f"/clubs/{club.pk}/roster/add", {"name": name}).status_code == 302
    return [Player.objects.get(name=name, memberships__club=club) for name in names]


def test_it_makes_whoever_creates_a_club_its_organiser(founder):
    response = founder.post("/clubs/new", {"name": "Klubbén"})
    club = Club.objects.get(name="Klubbén")
    assert response["Location"] == f"/clubs/{club.pk}/roster/"
    assert ClubRole.objects.get(club=club).role == "organiser"
    page = founder.get("/clubs/").content.decode()
    assert "Klubbén" in page and "Organiser" in page and "Create a club" in page


def test_it_refuses_a_club_name_already_taken_naming_the_field(founder, club):
    response = founder.post("/clubs/new", {"name": " klubbén "})
    assert response.status_code == 400
    assert "There is already a club called klubbén." in response.content.decode()
    assert Club.objects.count() == 1


@pytest.mark.parametrize(
    "look_alike",
    [
        "Klubbe\u0301n",  # the same accent as a combining mark (NFD)
        "\u041alubbén",  # a Cyrillic К
        "Klubb\u00e9n\u200b",  # an invisible zero-width space
        "Ｋｌｕｂｂéｎ",  # full-width letters
    ],
)
def test_it_refuses_a_club_name_that_only_looks_like_an_existing_one(founder, club, look_alike):
    stranger = signed_in("stranger")
    response = stranger.post("/clubs/new", {"name": look_alike})
    assert response.status_code == 400
    assert "looks like Klubbén, a club already here; choose another name." in response.content.decode()
    assert list(Club.objects.values_list("name", flat=True)) == ["Klubbén"]
    assert not ClubRole.objects.filter(user__username="stranger").exists()


def test_it_refuses_a_club_name_with_other_spaces_than_an_existing_one(founder):
    founder.post("/clubs/new", {"name": "Club of Brno"})
    response = signed_in("stranger").post("/clubs/new", {"name": "Club\u00a0of  Brno"})
    assert response.status_code == 400
    assert "looks like Club of Brno" in response.content.decode()
    assert Club.objects.count() == 1


def test_it_sends_an_anonymous_visitor_to_log_in_before_creating_a_club():
    response = Client().get("/clubs/new")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_it_shows_the_clubs_entry_in_the_header_for_a_signed_in_user(founder):
    assert 'href="/clubs/"' in founder.get("/").content.decode()
    assert 'href="/clubs/"' not in Client().get("/").content.decode()


def test_it_adds_players_and_refuses_a_name_already_on_the_roster(founder, club):
    add(founder, club, "Anna", "Bo")
    response = founder.post(f"/clubs/{club.pk}/roster/add", {"name": "anna"})
    assert response.status_code == 400
    assert "Klubbén already has a player called anna." in response.content.decode()
    assert list(roster(club).values_list("name", flat=True)) == ["Anna", "Bo"]


def test_it_refuses_an_empty_name_naming_the_field(founder, club):
    response = founder.post(f"/clubs/{club.pk}/roster/add", {"name": "  "})
    assert response.status_code == 400
    assert "A player needs a name." in response.content.decode()
    assert not Player.objects.exists()


def test_it_renames_a_player_and_their_past_games_show_the_new_name(founder, club):
    (anna, _bo) = add(founder, club, "Anna", "Bo")
    game = make_game(hands=1, club_id=club.pk)
    GameSeat.objects.filter(game=game, seat="N").update(player=anna)
    response = founder.post(f"/clubs/{club.pk}/players/{anna.pk}/rename", {"name": "Anna L."})
    assert response.status_code == 302
    assert "Anna L." in founder.get(f"/league/players/{anna.pk}/").content.decode()
    refused = founder.post(f"/clubs/{club.pk}/players/{anna.pk}/rename", {"name": "BO"})
    assert refused.status_code == 400 and "already has a player called BO" in refused.content.decode()
    assert Player.objects.get(pk=anna.pk).name == "Anna L."


def test_a_retired_player_stays_in_past_games_but_is_not_offered_for_new_ones(founder, club, people):
    (anna, bo) = add(founder, club, "Anna", "Bo")
    game = make_game(hands=1, club_id=club.pk)
    GameSeat.objects.filter(game=game, seat="N").update(player=anna)
    assert founder.post(f"/clubs/{club.pk}/players/{anna.pk}/retire", {"retired": "yes"}).status_code == 302
    assert list(roster(club)) == [bo]
    page = founder.get(f"/clubs/{club.pk}/roster/").content.decode()
    assert page.index("<h2>Retired</h2>") < page.index(">Anna</a>")
    assert GameSeat.objects.get(game=game, seat="N").player == anna  # past games keep her
    new_game = make_game(hands=0, club_id=club.pk)
    offered = founder.get(f"/g/{new_game.code}/details/").content.decode()
    assert f'<option value="{bo.pk}">Bo' in offered and f'<option value="{anna.pk}">' not in offered
    details = founder.post(f"/g/{new_game.code}/details/", {"club": club.pk, "seat_N": anna.pk})
    assert details.status_code == 400 and not new_game.seat_rows.filter(player=anna).exists()
    site_admin = people.client(ROOT)
    details = site_admin.post(f"/g/{new_game.code}/details/", {"club": club.pk, "seat_N": anna.pk})
    assert "Anna has retired from Klubbén." in details.content.decode()
    founder.post(f"/clubs/{club.pk}/players/{anna.pk}/retire", {"retired": "no"})
    assert list(roster(club)) == [anna, bo]


def test_it_merges_a_player_entered_twice_with_the_existing_check(founder, club):
    (anna, twin, bo) = add(founder, club, "Anna", "Anna L.", "Bo")
    game = make_game(hands=1, club_id=club.pk)
    GameSeat.objects.filter(game=game, seat="N").update(player=twin)
    GameSeat.objects.filter(game=game, seat="E").update(player=bo)
    response = founder.post(f"/clubs/{club.pk}/players/{anna.pk}/merge", {"duplicate": twin.pk})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert GameSeat.objects.get(game=game, seat="N").player == anna
    refused = founder.post(f"/clubs/{club.pk}/players/{anna.pk}/merge", {"duplicate": bo.pk})
    assert refused.status_code == 400
    assert "Anna and Bo played in the same game" in refused.content.decode()
    assert Player.objects.filter(pk=bo.pk).exists()


def test_it_refuses_a_player_of_another_club_on_a_roster_page(founder, club):
    other = Club.objects.create(name="Elsewhere")
    stranger = Player.objects.create(name="Zed")
    Membership.objects.create(club=other, player=stranger)
    assert founder.get(f"/clubs/{club.pk}/players/{stranger.pk}/").status_code == 404


def test_an_invite_ties_the_account_to_the_player_and_works_once(founder, club):
    (anna,) = add(founder, club, "Anna")
    founder.post(f"/clubs/{club.pk}/players/{anna.pk}/invite")
    token = Invite.objects.get(player=anna).token
    assert f"/clubs/join/{token}/" in founder.get(f"/clubs/{club.pk}/players/{anna.pk}/").content.decode()
    anonymous = Client().get(f"/clubs/join/{token}/").content.decode()
    assert "Log in or sign up first" in anonymous
    bob = signed_in("anna-account")
    response = bob.post(f"/clubs/join/{token}/")
    assert response["Location"] == f"/league/players/{anna.pk}/"
    anna.refresh_from_db()
    assert anna.user is not None and anna.user.username == "anna-account"
    assert ClubRole.objects.get(club=club, user=anna.user).role == "member"
    assert "(you)" in bob.get(f"/league/players/{anna.pk}/").content.decode()
    assert "(you)" not in founder.get(f"/league/players/{anna.pk}/").content.decode()
    again = signed_in("someone-else")
    assert again.get(f"/clubs/join/{token}/").status_code == 404
    again.post(f"/clubs/join/{token}/")
    account = Player.objects.get(pk=anna.pk).user
    assert account is not None and account.username == "anna-account"
    assert not ClubRole.objects.filter(user__username="someone-else").exists()


def test_a_new_invite_link_kills_the_old_one(founder, club):
    (anna,) = add(founder, club, "Anna")
    founder.post(f"/clubs/{club.pk}/players/{anna.pk}/invite")
    old = Invite.objects.get(player=anna).token
    founder.post(f"/clubs/{club.pk}/players/{anna.pk}/invite")
    assert Client().get(f"/clubs/join/{old}/").status_code == 404


def test_it_creates_a_season_changes_its_dates_and_closes_it(founder, club):
    response = founder.post(
        f"/clubs/{club.pk}/seasons/", {"name": "Spring", "starts_on": "2026-01-01", "ends_on": "2026-06-30"}
    )
    assert response.status_code == 302
    season = Season.objects.get(club=club, name="Spring")
    founder.post(
        f"/clubs/{club.pk}/seasons/{season.pk}/",
        {"name": "Spring", "starts_on": "2026-02-01", "ends_on": "2026-05-31"},
    )
    season.refresh_from_db()
    assert (season.starts_on, season.ends_on) == (datetime.date(2026, 2, 1), datetime.date(2026, 5, 31))
    founder.post(f"/clubs/{club.pk}/seasons/{season.pk}/close", {"closed": "yes"})
    assert Season.objects.get(pk=season.pk).is_closed
    assert "closed" in founder.get(f"/clubs/{club.pk}/seasons/").content.decode()


def test_it_refuses_a_season_that_ends_before_it_starts_or_repeats_a_name(founder, club):
    Season.objects.create(club=club, name="Spring", starts_on="2026-01-01", ends_on="2026-06-30")
    response = founder.post(
        f"/clubs/{club.pk}/seasons/", {"name": "spring", "starts_on": "2026-07-01", "ends_on": "2026-06-30"}
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Klubbén already has a season called spring." in page
    assert "The season ends before it starts." in page
    assert Season.objects.count() == 1


def test_it_refuses_a_season_longer_than_five_years_naming_the_last_day_it_may_end(founder, club):
    response = founder.post(
        f"/clubs/{club.pk}/seasons/", {"name": "Forever", "starts_on": "2026-09-01", "ends_on": "9999-12-31"}
    )
    assert response.status_code == 400
    assert (
        "A season lasts at most 5 years: end it on 1 September 2031 or earlier." in response.content.decode()
    )
    assert not Season.objects.exists()
    founder.post(
        f"/clubs/{club.pk}/seasons/", {"name": "Five", "starts_on": "2026-09-01", "ends_on": "2031-09-01"}
    )
    assert Season.objects.get().ends_on == datetime.date(2031, 9, 1)


def test_it_names_each_missing_or_wrong_season_field(founder, club):
    response = founder.post(f"/clubs/{club.pk}/seasons/", {"name": "", "starts_on": "", "ends_on": "30/6"})
    page = response.content.decode()
    assert response.status_code == 400
    for message in (
        "A season needs a name.",
        "Give the day the season starts.",
        "The end is not a date like",
    ):
        assert message in page
    assert not Season.objects.exists()


def test_a_closed_season_accepts_no_new_games(founder, club):
    season = Season.objects.create(club=club, name="Spring", starts_on="2026-01-01", ends_on="2026-06-30")
    founder.post(f"/clubs/{club.pk}/seasons/{season.pk}/close", {"closed": "yes"})
    game = make_game(hands=1, club_id=club.pk)
    response = founder.post(f"/g/{game.code}/details/", {"club": club.pk, "season": season.pk})
    assert response.status_code == 400
    assert "Season Spring is closed: it accepts no new games." in response.content.decode()
    assert game.__class__.objects.get(pk=game.pk).season is None


def test_an_account_tied_to_one_player_cannot_take_a_second_and_the_link_stays_usable(founder, club):
    (anna, bo) = add(founder, club, "Anna", "Bo")
    for player in (anna, bo):
        founder.post(f"/clubs/{club.pk}/players/{player.pk}/invite")
    tokens = {i.player_id: i.token for i in Invite.objects.all()}
    member = signed_in("anna-account")
    member.post(f"/clubs/join/{tokens[anna.pk]}/")
    response = member.post(f"/clubs/join/{tokens[bo.pk]}/", follow=True)
    assert "Your account is already tied to a player." in response.content.decode()
    assert Player.objects.get(pk=bo.pk).user is None
    assert signed_in("bo-account").get(f"/clubs/join/{tokens[bo.pk]}/").status_code == 200


def test_seasons_starting_on_the_same_day_are_listed_newest_made_first_on_every_page(founder, club):
    # PostgreSQL and SQLite return rows of equal start in orders of their own: the id decides.
    for name in ("Monday league", "Thursday league"):
        Season.objects.create(
            club=club, name=name, starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31)
        )
    for page in (f"/clubs/{club.pk}/seasons/", f"/nights/clubs/{club.pk}/new"):
        body = founder.get(page).content.decode()
        assert body.index("Thursday league") < body.index("Monday league"), page


def test_a_games_details_offer_seasons_of_the_same_start_newest_made_first(founder, club):
    for name in ("Monday league", "Thursday league"):
        Season.objects.create(
            club=club, name=name, starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31)
        )
    game = make_game(club_id=club.pk)
    body = founder.get(f"/g/{game.code}/details/").content.decode()
    assert body.index("Thursday league") < body.index("Monday league")
