"""Only the invite link ties an account to a player for an organiser: in the admin the player's
account is read-only for a staff organiser (a forged post changes nothing); site staff may set it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs.models import ClubRole, Player
from clubs.tests.test_admin_scope import form_data
from tests.access_helpers import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(two_clubs):
    """An account with a member role in the staff organiser's club and no player yet."""
    mia = User.objects.create_user("mia", "mia@example.org", PASSWORD)
    ClubRole.objects.create(user=mia, club=two_clubs["club"], role=ClubRole.Role.MEMBER)
    return mia


def _change_data(client: Client, url: str, player: Player) -> dict[str, str]:
    """The player's change form as drawn, without the empty extra roster row (the roster row's
    club is an autocomplete select, which `form_data` reads by its data attribute's name)."""
    data = form_data(client.get(url).content.decode(), "player_form")
    data["memberships-TOTAL_FORMS"] = data["memberships-INITIAL_FORMS"] = "1"
    data["memberships-0-club"] = str(player.memberships.get().club_id)
    return data


def _roster_player(two_clubs) -> Player:
    player = Player.objects.filter(memberships__club=two_clubs["club"], user=None).order_by("pk").first()
    assert player is not None
    return player


def test_a_staff_organiser_cannot_tie_an_account_to_a_player_in_the_change_form(two_clubs, member):
    client, player = two_clubs["client"], _roster_player(two_clubs)
    url = f"/admin/clubs/player/{player.pk}/change/"
    assert 'name="user"' not in client.get(url).content.decode()  # shown as text, not a choice
    data = _change_data(client, url, player)
    data["user"] = str(member.pk)
    response = client.post(url, data)
    assert response.status_code == 302  # the rest of the form is saved as usual
    player.refresh_from_db()
    assert player.user is None
    assert not Player.objects.filter(user=member).exists()


def test_a_staff_organiser_cannot_add_a_player_tied_to_an_account(two_clubs, member):
    client = two_clubs["client"]
    data = form_data(client.get("/admin/clubs/player/add/").content.decode(), "player_form")
    data.update({"name": "Mia Forged", "user": str(member.pk), "memberships-TOTAL_FORMS": "1"})
    data["memberships-0-club"] = str(two_clubs["club"].pk)
    assert client.post("/admin/clubs/player/add/", data).status_code == 302
    assert Player.objects.get(name="Mia Forged").user is None


def test_site_staff_may_still_tie_an_account_in_the_admin(two_clubs, member):
    root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    client.force_login(root)
    player = _roster_player(two_clubs)
    url = f"/admin/clubs/player/{player.pk}/change/"
    assert 'name="user"' in client.get(url).content.decode()
    data = _change_data(client, url, player)
    data["user"] = str(member.pk)
    assert client.post(url, data).status_code == 302
    player.refresh_from_db()
    assert player.user == member
