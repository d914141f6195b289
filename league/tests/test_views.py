"""League pages: standings, player page, merging, linking seats."""

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Membership, Player
from clubs.services import merge_players
from league import standings
from scoring import filing
from scoring.models import GameSeat
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(people):
    """alice, a club organiser: the league pages are the club's records (docs/security.md); each
    test makes her the organiser of the club it makes."""
    return people.client("alice")


def test_it_shows_the_standings_with_the_ranking_rule(client, people):
    data = small_season(people["alice"])
    page = client.get(f"/league/seasons/{data['season'].pk}/").content.decode()
    assert "Ranking: most wins, then most net chips, then best point difference." in page
    assert page.index("Čeněk") < page.index("Řehoř")
    assert "Åsa &amp; Čeněk" in page or ("Åsa" in page and "Partnerships" in page)


def test_it_sorts_with_plain_links(client, people):
    data = small_season(people["alice"])
    page = client.get(f"/league/seasons/{data['season'].pk}/?sort=losses&dir=desc").content.decode()
    table = page[page.index('id="players"') : page.index('id="pairs-title"')]
    assert table.index("Örjan") < table.index("Čeněk")
    assert 'aria-sort="descending"' in table
    assert "?sort=losses&amp;dir=asc" in table


def test_it_shows_a_player_page_with_bands_and_partners(client, people):
    data = small_season(people["alice"])
    page = client.get(f"/league/players/{data['people']['Čeněk'].pk}/").content.decode()
    for text in ("Make rate by bid", "×2.5", "50–60", "Best partners", "Recent games", "clubs"):
        assert text in page


def test_it_merges_a_player_entered_twice_and_the_statistics_follow(client, people):
    data = small_season(people["alice"])
    club = data["club"]
    twin = Player.objects.create(name="Asa")
    Membership.objects.create(club=club, player=twin)
    asa = data["people"]["Åsa"]
    # Åsa's seats in G2 and G3 were entered as "Asa".
    GameSeat.objects.filter(player=asa, game__in=data["games"][1:]).update(player=twin)
    before = {line.name: line.games for line in standings.season_standings(data["season"])["players"]}
    assert (before["Åsa"], before["Asa"]) == (1, 2)

    response = client.post(f"/league/players/{asa.pk}/merge", {"duplicate": twin.pk})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=twin.pk).exists()
    after = {line.name: line for line in standings.season_standings(data["season"])["players"]}
    assert after["Åsa"].games == 3
    assert after["Åsa"].meld_sum == 26
    assert "Asa" not in after
    assert Membership.objects.filter(club=club, player=asa).count() == 1


def test_it_refuses_to_merge_two_people_who_sat_at_the_same_table():
    data = small_season()
    with pytest.raises(ValidationError):
        merge_players(keep=data["people"]["Åsa"], duplicate=data["people"]["Örjan"])


def test_it_refuses_a_merge_by_get(client, people):
    data = small_season(people["alice"])
    assert client.get(f"/league/players/{data['people']['Åsa'].pk}/merge").status_code == 405


def test_it_links_a_free_text_seat_to_a_player_later():
    data = small_season()
    seat = GameSeat.objects.filter(game=data["games"][0], seat="W").get()
    filing.link_seat(seat=seat, player=None)
    lines = {line.name: line for line in standings.season_standings(data["season"])["players"]}
    assert lines["Řehoř"].games == 2
    filing.link_seat(seat=seat, player=data["people"]["Řehoř"])
    lines = {line.name: line for line in standings.season_standings(data["season"])["players"]}
    assert lines["Řehoř"].games == 3


def test_it_lists_clubs_and_rosters(client, people):
    data = small_season(people["alice"])
    assert "Klubbén" in client.get("/league/").content.decode()
    page = client.get(f"/league/clubs/{data['club'].pk}/").content.decode()
    assert "Vår 2026" in page and "Řehoř" in page


def _holding(people, role, club):
    """The persona who holds `role` in the club: alice organises, bob scores, charlie is a member."""
    grant = {"organiser": people.organiser_of, "scorer": people.scorer_of, "member": people.member_of}[role]
    return grant(club)


@pytest.mark.parametrize("role", ["organiser", "scorer", "member"])
def test_every_club_role_reads_the_standings_and_the_player_pages(role, people):
    data = small_season()
    client = _holding(people, role, data["club"])
    assert "Čeněk" in client.get(f"/league/seasons/{data['season'].pk}/").content.decode()
    assert "Best partners" in client.get(f"/league/players/{data['people']['Čeněk'].pk}/").content.decode()


@pytest.mark.parametrize("role", ["scorer", "member"])
def test_only_an_organiser_merges_players(role, people):
    data = small_season()
    client = _holding(people, role, data["club"])
    twin = Player.objects.create(name="Asa")
    Membership.objects.create(club=data["club"], player=twin)
    response = client.post(f"/league/players/{data['people']['Åsa'].pk}/merge", {"duplicate": twin.pk})
    assert response.status_code == 403
    assert Player.objects.filter(pk=twin.pk).exists()
