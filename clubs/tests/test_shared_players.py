"""A player on two clubs' rosters (after a merge by someone organising both) is changed — renamed,
invited to (an account tied to them), merged, edited in the admin — only by someone who organises
every club the player is on; the organiser of one of them is told why (docs/security.md)."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from clubs import services
from clubs.models import Club, ClubRole, Invite, Membership, Player
from tests.access_helpers import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared() -> dict[str, object]:
    """Anna on the rosters of Norr (run by olga and by both-clubs pia) and Söder (run by sven and pia)."""
    norr, soder = Club.objects.create(name="Norr"), Club.objects.create(name="Söder")
    people = {name: User.objects.create_user(name) for name in ("olga", "sven", "pia")}
    for user, club in (
        (people["olga"], norr),
        (people["sven"], soder),
        (people["pia"], norr),
        (people["pia"], soder),
    ):
        ClubRole.objects.create(user=user, club=club, role=ClubRole.Role.ORGANISER)
    anna = Player.objects.create(name="Anna")
    for club in (norr, soder):
        Membership.objects.create(club=club, player=anna)
    only_norr = Player.objects.create(name="Bo")
    Membership.objects.create(club=norr, player=only_norr)
    return {"norr": norr, "soder": soder, "anna": anna, "bo": only_norr, **people}


def test_the_organiser_of_one_club_cannot_rename_a_player_on_another_clubs_roster_too(shared):
    norr, anna = shared["norr"], shared["anna"]
    response = signed_in("olga").post(f"/clubs/{norr.pk}/players/{anna.pk}/rename", {"name": "Mallory"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "Anna is also on the roster of Söder. Only someone who organises every club Anna is on" in page
    assert Player.objects.get(pk=anna.pk).name == "Anna"


def test_the_organiser_of_one_club_cannot_make_an_invite_to_a_player_on_another_clubs_roster_too(shared):
    soder, anna = shared["soder"], shared["anna"]
    response = signed_in("sven").post(f"/clubs/{soder.pk}/players/{anna.pk}/invite")
    assert response.status_code == 403
    assert "Anna is also on the roster of Norr." in response.content.decode()
    assert not Invite.objects.exists()


def test_the_organiser_of_one_club_cannot_merge_into_a_player_on_another_clubs_roster_too(shared):
    norr, anna, bo = shared["norr"], shared["anna"], shared["bo"]
    response = signed_in("olga").post(f"/clubs/{norr.pk}/players/{anna.pk}/merge", {"duplicate": bo.pk})
    assert response.status_code == 403
    assert "Anna is also on the roster of Söder." in response.content.decode()
    assert Player.objects.filter(pk=bo.pk).exists()


def test_the_player_page_says_why_a_shared_player_cannot_be_changed_and_offers_no_form(shared):
    norr, anna = shared["norr"], shared["anna"]
    page = signed_in("olga").get(f"/clubs/{norr.pk}/players/{anna.pk}/").content.decode()
    assert "Anna is also on the roster of Söder." in page
    assert "/rename" not in page and "/invite" not in page and "/merge" not in page
    assert "/retire" in page  # retiring is this club's roster only


def test_the_refusal_is_said_in_the_users_language(shared):
    norr, anna = shared["norr"], shared["anna"]
    for language, words in (
        ("sv", "finns också på spelarlistan hos Söder"),
        ("cs", "je také na soupisce klubu Söder"),
    ):
        client = signed_in("olga")
        client.cookies["django_language"] = language
        page = client.post(f"/clubs/{norr.pk}/players/{anna.pk}/rename", {"name": "X"}).content.decode()
        assert words in page, language


def test_an_organiser_of_every_club_of_the_player_renames_and_invites(shared):
    norr, anna = shared["norr"], shared["anna"]
    pia = signed_in("pia")
    assert pia.post(f"/clubs/{norr.pk}/players/{anna.pk}/rename", {"name": "Anna K."}).status_code == 302
    assert Player.objects.get(pk=anna.pk).name == "Anna K."
    assert pia.post(f"/clubs/{norr.pk}/players/{anna.pk}/invite").status_code == 302
    assert Invite.objects.filter(player=anna).exists()


def test_a_player_on_one_roster_is_still_changed_by_its_organiser(shared):
    norr, bo = shared["norr"], shared["bo"]
    olga = signed_in("olga")
    assert olga.post(f"/clubs/{norr.pk}/players/{bo.pk}/rename", {"name": "Bo B."}).status_code == 302
    assert olga.post(f"/clubs/{norr.pk}/players/{bo.pk}/invite").status_code == 302


def test_an_invite_made_before_the_player_joined_another_roster_no_longer_ties_an_account(shared):
    norr, soder, bo = shared["norr"], shared["soder"], shared["bo"]
    invite = services.create_invite(club=norr, player=bo, by=shared["olga"])
    Membership.objects.create(club=soder, player=bo)  # merged onto Söder's roster meanwhile
    with translation.override("en"):
        response = signed_in("mallory").post(f"/clubs/join/{invite.token}/", follow=True)
    page = html.unescape(response.content.decode())
    assert "This invite link no longer works: Bo is now on another club's roster too." in page
    assert Player.objects.get(pk=bo.pk).user is None


def test_the_league_merge_refuses_the_organiser_of_one_of_the_clubs(shared):
    anna, bo = shared["anna"], shared["bo"]
    response = signed_in("olga").post(f"/league/players/{anna.pk}/merge", {"duplicate": bo.pk})
    assert response.status_code == 403
    assert Player.objects.filter(pk=bo.pk).exists()
