"""The admin's forms, posted with ids that are not ids or forged form counts, show their errors or
change nothing: never a 500 or a worker timeout (found by bench/fuzz as a staff organiser)."""

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from clubs.models import Club, ClubRole, Membership, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    """A staff organiser of club "Home", whose roster holds Anna; his client."""
    home = Club.objects.create(name="Home")
    player = Player.objects.create(name="Anna")
    Membership.objects.create(club=home, player=player)
    user = User.objects.create_user("sam", "sam@example.org", "a quiet club night 2026", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=["clubs", "scoring"]))
    ClubRole.objects.create(user=user, club_id=home.pk, role=ClubRole.Role.ORGANISER)
    client = Client()
    client.force_login(user)
    return client, player


@pytest.mark.parametrize("club", ["0000-00-00", "x", "9" * 40, "-1"])
def test_it_shows_the_roster_form_again_when_a_club_id_is_malformed(staff, club):
    client, player = staff
    response = client.post(
        f"/admin/clubs/player/{player.pk}/change/",
        {
            "name": "Anna",
            "memberships-TOTAL_FORMS": "2",
            "memberships-INITIAL_FORMS": "0",
            "memberships-0-club": club,
        },
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert Membership.objects.count() == 1


@pytest.mark.parametrize("selected", ["spades", "9" * 40, ""])
def test_an_action_on_ids_that_are_not_ids_changes_nothing_and_says_so(staff, selected):
    client, player = staff
    response = client.post(
        "/admin/clubs/player/",
        {"action": "delete_selected", "_selected_action": selected, "index": "0"},
        follow=True,
    )
    assert response.status_code == 200
    assert Player.objects.filter(pk=player.pk).exists()


def test_a_forged_form_count_draws_no_more_than_the_cap(staff):
    client, player = staff
    response = client.post(
        f"/admin/clubs/player/{player.pk}/change/",
        {"name": "", "memberships-TOTAL_FORMS": "9" * 40, "memberships-INITIAL_FORMS": "0"},
    )
    assert response.status_code == 200
    assert response.content.decode().count('name="memberships-') < 10 * 310
    assert Membership.objects.count() == 1
