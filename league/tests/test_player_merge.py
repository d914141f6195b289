"""A player page's merge list offers an organiser only his own clubs' players."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs.models import Club, ClubRole, Membership, Player
from tests.access_helpers import PASSWORD
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


def test_the_merge_list_names_only_players_of_the_organisers_clubs(people):
    data = small_season()
    other = Club.objects.create(name="Club Alfa")
    stranger = Player.objects.create(name="Zdeněk Alfa")
    Membership.objects.create(club=other, player=stranger)
    both = Player.objects.create(name="Åsa B")
    Membership.objects.create(club=data["club"], player=both)
    Membership.objects.create(club=other, player=both)
    bea = User.objects.create_user("bea", "bea@example.org", PASSWORD)
    ClubRole.objects.create(user=bea, club=data["club"], role=ClubRole.Role.ORGANISER)
    client = Client()
    client.force_login(bea)
    asa = data["people"]["Åsa"]
    page = client.get(f"/league/players/{asa.pk}/").content.decode()
    assert "Örjan" in page and "Åsa B" in page
    assert "Zdeněk Alfa" not in page and "Club Alfa" not in page
    refused = client.post(f"/league/players/{asa.pk}/merge", {"duplicate": stranger.pk}, follow=True)
    assert "Choose the player who was entered twice." in refused.content.decode()
    assert client.post(f"/league/players/{asa.pk}/merge", {"duplicate": both.pk}).status_code == 403
    assert Player.objects.filter(pk__in=[stranger.pk, both.pk]).count() == 2
    client.force_login(people.superuser())
    assert "Zdeněk Alfa" in client.get(f"/league/players/{asa.pk}/").content.decode()
