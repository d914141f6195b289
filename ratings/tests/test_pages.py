"""Ratings on the league pages: leaderboards, the player page's insight, a constant query count."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.league_data import G2, H1, play, small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def reader(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "x-very-secret-9"))
    return client


def test_the_player_page_shows_the_rating_chart_form_rival_and_nemesis(reader):
    data = small_season()
    a, o, c, r = (data["people"][n] for n in ("Åsa", "Örjan", "Čeněk", "Řehoř"))
    for day in (20, 21, 22):  # Örjan and Řehoř lose three more times to Åsa and Čeněk
        play(
            variant="standard",
            seating={"N": a, "E": o, "S": c, "W": r},
            hands=[H1],
            season=data["season"],
            day=day,
        )
    page = reader.get(reverse("league:player", args=[o.pk])).content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page and "Rating history of Örjan" in page
    assert "(prov.)" in page  # 6 games: still provisional
    assert "Form (last 10 games)" in page
    nemesis = page.split("Nemesis")[1].split("</dd>")[0]
    assert "Åsa" in nemesis or "Čeněk" in nemesis
    assert "Chips won per night (Check Pinochle)" in page


def test_the_player_page_runs_the_same_number_of_queries_however_many_games(
    reader, django_assert_max_num_queries
):
    data = small_season()
    a, o, c, r = (data["people"][n] for n in ("Åsa", "Örjan", "Čeněk", "Řehoř"))
    url = reverse("league:player", args=[a.pk])
    with CaptureQueriesContext(connection) as few:
        reader.get(url)
    for day in range(17, 29):
        play(
            variant="standard",
            seating={"N": a, "E": c, "S": o, "W": r},
            hands=G2,
            season=data["season"],
            day=day,
        )
    with django_assert_max_num_queries(len(few)):
        page = reader.get(url).content.decode()
    assert "all-time, from 15 rated games" in page and "(prov.)" not in page.split("rating-number")[1][:200]


def test_the_club_season_and_league_pages_list_the_ratings_best_first(reader):
    data = small_season()
    for url in (
        reverse("league:club", args=[data["club"].pk]),
        reverse("league:season", args=[data["season"].pk]),
        reverse("league:index"),
    ):
        page = reader.get(url).content.decode()
        board = page.split('class="league-table rating-board"')[1].split("</table>")[0]
        names = [name for name in ("Åsa", "Örjan", "Čeněk", "Řehoř") if name in board]
        assert len(names) == 4, url
        assert board.index("Čeněk") < board.index("Örjan"), (
            url
        )  # two wins and a loss beats a win and two losses


def test_the_player_page_speaks_swedish_and_czech(reader):
    data = small_season()
    url = reverse("league:player", args=[data["people"]["Åsa"].pk])
    assert "Huvudrival" in reader.get(url, HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert "Hlavní soupeř" in reader.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode()


def test_the_rules_page_explains_the_ratings_in_every_language(client):
    assert "1000 + 20 × (μ − 3σ)" in client.get(reverse("scoring:rules_help")).content.decode()
    assert (
        "Så fungerar rankingtalen"
        in client.get(reverse("scoring:rules_help"), HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    )
    assert (
        "Jak funguje hodnocení"
        in client.get(reverse("scoring:rules_help"), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    )
