"""The admin (site superusers): clubs, seasons, players with their roster, search, merging."""

import pytest

from clubs.models import Player
from tests.access_helpers import ROOT
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(people):
    return people.client(ROOT)


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


def test_hands_cannot_be_changed_in_the_admin(organiser):
    from scoring.models import Hand

    small_season()
    hand = Hand.objects.first()
    assert hand is not None
    page = organiser.get(f"/admin/scoring/hand/{hand.pk}/change/").content.decode()
    assert 'name="data"' not in page  # read-only: corrections go through the game page
    assert organiser.post(f"/admin/scoring/hand/{hand.pk}/change/", {"data": "{}"}).status_code == 403
