"""What the clubs' admin tests share: two clubs, each with its own organiser."""

import datetime

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from clubs.models import Club, ClubRole, Membership, Player, Season
from tests.access_helpers import PASSWORD
from tests.league_data import small_season


@pytest.fixture
def two_clubs():
    """Club B (the small season's club) organised by staff user bea; club A with its own season,
    player, game and organiser."""
    b = small_season()
    club_a = Club.objects.create(name="Club Alfa")
    season_a = Season.objects.create(
        club=club_a,
        name="Alfa season",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    player_a = Player.objects.create(name="Zdeněk Alfa")
    Membership.objects.create(club=club_a, player=player_a)
    arne = User.objects.create_user("arne_alfa", "arne@example.org", PASSWORD)
    ClubRole.objects.create(user=arne, club=club_a, role=ClubRole.Role.ORGANISER)
    bea = User.objects.create_user("bea", "bea@example.org", PASSWORD, is_staff=True)
    bea.user_permissions.set(Permission.objects.filter(content_type__app_label__in=["clubs", "scoring"]))
    ClubRole.objects.create(user=bea, club=b["club"], role=ClubRole.Role.ORGANISER)
    client = Client()
    client.force_login(bea)
    return {**b, "client": client, "bea": bea, "club_a": club_a, "season_a": season_a, "player_a": player_a,
            "arne": arne}  # fmt: skip
