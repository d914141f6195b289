"""The admin club organisers use: clubs, seasons, players with their roster, search, merging."""

import pytest
from django.contrib.auth.models import User

from clubs.models import Club, Player, Season
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    user = User.objects.create_superuser("admin", "admin@example.com", "secret-pass-123")
    client.force_login(user)
    return client


def test_it_lists_and_searches_players_with_their_clubs(organiser):
    small_season()
    page = organiser.get("/admin/clubs/player/?q=Čen").content.decode()
    assert "Čeněk" in page and "Klubbén" in page
    assert "Örjan" not in page


@pytest.mark.parametrize(
    "url", ["/admin/clubs/club/", "/admin/clubs/season/", "/admin/clubs/club/{club}/change/"]
)
def test_it_shows_clubs_and_seasons(organiser, url):
    club = small_season()["club"]
    # The club's own id: PostgreSQL does not restart its id sequences between tests.
    assert organiser.get(url.format(club=club.pk)).status_code == 200


def test_it_merges_two_selected_players(organiser):
    data = small_season()
    twin = Player.objects.create(name="Asa")
    response = organiser.post(
        "/admin/clubs/player/",
        {"action": "merge_selected", "_selected_action": [data["people"]["Åsa"].pk, twin.pk]},
    )
    assert response.status_code == 302
    assert not Player.objects.filter(pk=twin.pk).exists()


def test_it_refuses_to_merge_people_from_the_same_table(organiser):
    data = small_season()
    organiser.post(
        "/admin/clubs/player/",
        {
            "action": "merge_selected",
            "_selected_action": [data["people"]["Åsa"].pk, data["people"]["Örjan"].pk],
        },
    )
    assert Player.objects.count() == 4


@pytest.fixture
def staff_organiser(client):
    """A staff account with every model permission that organises only the small season's club."""
    from django.contrib.auth.models import Permission

    from clubs.models import ClubRole

    data = small_season()
    other = Club.objects.create(name="Andra klubben")
    Season.objects.create(club=other, name="Other season", starts_on="2025-01-01", ends_on="2025-12-31")
    user = User.objects.create_user("olof", "olof@example.com", "secret-pass-123", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=["clubs", "scoring"]))
    ClubRole.objects.create(user=user, club=data["club"], role=ClubRole.Role.ORGANISER)
    client.force_login(user)
    return client, data["club"], other


def test_a_staff_organiser_sees_and_changes_only_the_clubs_they_organise(staff_organiser):
    client, mine, other = staff_organiser
    clubs = client.get("/admin/clubs/club/").content.decode()
    assert mine.name in clubs and other.name not in clubs
    assert client.get(f"/admin/clubs/club/{mine.pk}/change/").status_code == 200
    assert client.get(f"/admin/clubs/club/{other.pk}/change/").status_code == 302  # "doesn't exist"
    seasons = client.get("/admin/clubs/season/").content.decode()
    assert "Other season" not in seasons
    # A new season can only be put in a club they organise.
    form = client.get("/admin/clubs/season/add/").content.decode()
    assert mine.name in form and other.name not in form


def test_hands_cannot_be_changed_in_the_admin(organiser):
    from scoring.models import Hand

    small_season()
    hand = Hand.objects.first()
    assert hand is not None
    page = organiser.get(f"/admin/scoring/hand/{hand.pk}/change/").content.decode()
    assert 'name="data"' not in page  # read-only: corrections go through the game page
    assert organiser.post(f"/admin/scoring/hand/{hand.pk}/change/", {"data": "{}"}).status_code == 403
