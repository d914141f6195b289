"""League pages under club roles: reads for the club's roles, roles and publishing for organisers,
imports and filing for scorers, the published results page for anyone with its link."""

import datetime
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubs.models import Club, ClubRole, Season
from scoring.models import Game
from tests.access_helpers import (
    CLUB,
    OTHER_CLUB,
    client_with_token,
    make_game,
    signed_in,
)

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "record-example.json"


@pytest.fixture
def season(people):
    return Season.objects.create(
        club_id=CLUB, name="Spring", starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 6, 30)
    )


def test_it_shows_a_clubs_records_to_its_roles_only(season, people):
    for reader in ("alice", "bob", "charlie"):
        assert signed_in(reader).get(f"/league/clubs/{CLUB}/").status_code == 200
        assert signed_in(reader).get(f"/league/seasons/{season.pk}/").status_code == 200
    assert people.client("dave").get(f"/league/clubs/{CLUB}/").status_code == 403
    assert Client().get(f"/league/seasons/{season.pk}/")["Location"].startswith("/accounts/login/")
    assert "Club 7" not in people.client("dave").get("/league/").content.decode()


def test_an_organiser_changes_roles_on_the_roles_page(people):
    alice = people.client("alice")
    page = alice.get(f"/league/clubs/{CLUB}/roles/").content.decode()
    assert "charlie" in page and "Member" in page
    response = alice.post(f"/league/clubs/{CLUB}/roles/", {"username": "charlie", "role": "scorer"})
    assert response.status_code == 302
    assert ClubRole.objects.get(user=people["charlie"], club_id=CLUB).role == "scorer"
    alice.post(f"/league/clubs/{CLUB}/roles/", {"username": "dave", "role": ""})  # not in the club: no-op
    alice.post(f"/league/clubs/{CLUB}/roles/", {"username": "charlie", "role": ""})
    assert not ClubRole.objects.filter(user=people["charlie"], club_id=CLUB).exists()


def test_the_last_organiser_cannot_step_down(people):
    alice = people.client("alice")
    response = alice.post(f"/league/clubs/{CLUB}/roles/", {"username": "alice", "role": "member"})
    assert response.status_code == 400
    assert "A club needs at least one organiser." in response.content.decode()
    assert ClubRole.objects.get(user=people["alice"], club_id=CLUB).role == "organiser"


def test_an_organiser_publishes_a_season_and_anyone_with_the_link_reads_it(season, people):
    alice = people.client("alice")
    alice.post(f"/league/seasons/{season.pk}/publish", {"publish": "on"})
    season.refresh_from_db()
    assert season.publish_code and len(season.publish_code) >= 20
    page = alice.get(f"/league/seasons/{season.pk}/").content.decode()
    assert f"/league/results/{season.publish_code}/" in page
    public = Client().get(f"/league/results/{season.publish_code}/")
    assert public.status_code == 200
    assert "Spring" in public.content.decode() and "Publish" not in public.content.decode()
    old = season.publish_code
    alice.post(f"/league/seasons/{season.pk}/publish", {"publish": "off"})
    assert Client().get(f"/league/results/{old}/").status_code == 404


def test_a_scorer_imports_into_their_club_but_not_into_another(people):
    Club.objects.filter(pk=OTHER_CLUB).update(name="Other")
    record = json.loads(EXAMPLE.read_text())

    def upload(club_id):
        data = SimpleUploadedFile("game.json", json.dumps(record).encode(), content_type="application/json")
        return people.client("bob").post("/league/import/", {"file": data, "club": str(club_id)})

    assert upload(OTHER_CLUB).status_code == 403
    assert "you are not a scorer or organiser of Other" in upload(OTHER_CLUB).content.decode()
    assert not Game.objects.exists()
    assert upload(CLUB).status_code == 302
    assert Game.objects.get().club_id == CLUB
    # A member opens the page (a file naming a new club would make it) but imports nothing here.
    assert people.client("charlie").get("/league/import/").status_code == 200
    data = SimpleUploadedFile("game.json", json.dumps(record).encode(), content_type="application/json")
    refused = people.client("charlie").post("/league/import/", {"file": data, "club": str(CLUB)})
    assert refused.status_code == 403 and Game.objects.count() == 1


def test_the_scoring_phone_cannot_file_its_quick_game_in_a_club_it_has_no_role_in(people):
    game = make_game(hands=1)
    phone = client_with_token(game)
    assert phone.get(f"/g/{game.code}/details/").status_code == 200
    response = phone.post(f"/g/{game.code}/details/", {"club": str(CLUB), "place": "Table 1"})
    # The club is not among its choices: refused next to the field, nothing saved.
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    game.refresh_from_db()
    assert game.club_id is None and game.place == ""
    # A scorer of the club who runs the game files it.
    game.created_by = people["bob"]
    game.save(update_fields=["created_by"])
    response = people.client("bob").post(f"/g/{game.code}/details/", {"club": str(CLUB), "place": "Table 1"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.club_id == CLUB


def test_creating_a_club_in_the_admin_makes_its_creator_the_organiser(admin_client, admin_user):
    response = admin_client.post(
        "/admin/clubs/club/add/",
        {
            "name": "Nová",
            "seasons-TOTAL_FORMS": "0",
            "seasons-INITIAL_FORMS": "0",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    club = Club.objects.get(name="Nová")
    assert ClubRole.objects.get(club=club).user == admin_user


def test_a_season_alone_does_not_file_a_game_in_a_club_without_a_role_there(people):
    from clubs.models import Season

    season = Season.objects.create(club_id=CLUB, name="Spring", starts_on="2026-01-01", ends_on="2026-12-31")
    game = make_game(hands=1)
    phone = client_with_token(game)
    response = phone.post(f"/g/{game.code}/details/", {"club": "", "season": str(season.pk)})
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.club_id is None and game.season_id is None


def test_a_seat_links_only_to_a_player_on_the_roster_of_the_games_club(people):
    from clubs.models import Membership, Player

    stranger = Player.objects.create(name="Outsider")  # on no roster of this club
    member = Player.objects.create(name="Member")
    Membership.objects.create(club_id=CLUB, player=member)
    game = make_game(hands=1)
    game.created_by = people["bob"]  # bob scores for the club
    game.save(update_fields=["created_by"])
    bob = people.client("bob")
    page = bob.get(f"/g/{game.code}/details/").content.decode()
    assert "Member" in page and "Outsider" not in page  # players of other clubs are not listed
    response = bob.post(f"/g/{game.code}/details/", {"club": str(CLUB), "seat_N": str(stranger.pk)})
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.club_id is None
    assert not game.seat_rows.filter(player__isnull=False).exists()
    response = bob.post(f"/g/{game.code}/details/", {"club": str(CLUB), "seat_N": str(member.pk)})
    assert response.status_code == 302
    assert game.seat_rows.get(seat="N").player == member
