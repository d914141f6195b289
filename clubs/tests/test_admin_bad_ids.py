"""The admin's forms, posted with ids that are not ids, show their errors: never a 500 (bench/fuzz)."""

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from clubs.models import Club, ClubRole, Membership, Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("club", ["0000-00-00", "x", "9" * 40, "-1"])
def test_it_shows_the_roster_form_again_when_a_club_id_is_malformed(club):
    home = Club.objects.create(name="Home")
    player = Player.objects.create(name="Anna")
    Membership.objects.create(club=home, player=player)
    staff = User.objects.create_user("sam", "sam@example.org", "a quiet club night 2026", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="clubs"))
    ClubRole.objects.create(user=staff, club_id=home.pk, role=ClubRole.Role.ORGANISER)
    client = Client()
    client.force_login(staff)
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
