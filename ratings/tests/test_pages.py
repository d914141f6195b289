"""Ratings on the league pages: leaderboards, the player page's insight, a constant query count."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.access_helpers import ROOT
from tests.league_data import G2, H1, play, small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def reader(people):
    return people.client(ROOT)


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
    assert "1000 + 20 × (μ − 3σ)" in client.get(reverse("rules_help")).content.decode()
    assert (
        "Så fungerar rankingtalen"
        in client.get(reverse("rules_help"), HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    )
    assert (
        "Jak funguje hodnocení"
        in client.get(reverse("rules_help"), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    )


def _season_of(names):
    import datetime

    from clubs.models import Club, Membership, Player, Season

    club = Club.objects.create(name="Klubbén")
    season = Season.objects.create(
        club=club, name="Höst", starts_on=datetime.date(2026, 3, 1), ends_on=datetime.date(2026, 5, 31)
    )
    people = {}
    for name in names:  # in this order, so the ids are in this order too
        people[name] = Player.objects.create(name=name)
        Membership.objects.create(club=club, player=people[name])
    return season, people


def test_equal_rivals_go_to_the_name_not_to_who_was_entered_first(reader):
    season, p = _season_of(["Bo", "Anna", "Cilla", "Dan", "Eva"])
    for day, partner in ((2, "Dan"), (3, "Dan"), (4, "Dan"), (5, "Eva")):
        seating = {"N": p["Cilla"], "E": p["Bo"], "S": p[partner], "W": p["Anna"]}
        play(variant="standard", seating=seating, hands=[H1], season=season, day=day)
    page = reader.get(reverse("league:player", args=[p["Cilla"].pk])).content.decode()
    rival = page.split("Rival</dt>")[1].split("</dd>")[0]
    assert "Anna" in rival and "Bo" not in rival
    assert "4–0–0 (won–lost–drawn) in 4 games" in rival
    partners = page.split("Most frequent partners")[1].split("</ul>")[0]
    assert partners.index("Dan") < partners.index("Eva")
    assert "3–0–0 (won–lost–drawn) in 3 games" in partners and "1–0–0 (won–lost–drawn) in 1 game<" in partners


@pytest.mark.parametrize(
    ("lang", "one", "three"),
    [
        (
            "sv",
            "1–0–0 (vunna–förlorade–oavgjorda) på 1 parti",
            "3–0–0 (vunna–förlorade–oavgjorda) på 3 partier",
        ),
        ("cs", "1–0–0 (výhry–prohry–remízy) v 1 hře", "3–0–0 (výhry–prohry–remízy) ve 3 hrách"),
    ],
)
def test_a_record_takes_the_languages_plural(reader, lang, one, three):
    season, p = _season_of(["Cilla", "Dan", "Eva", "Bo", "Anna"])
    for day, partner in ((2, "Dan"), (3, "Dan"), (4, "Dan"), (5, "Eva")):
        seating = {"N": p["Cilla"], "E": p["Bo"], "S": p[partner], "W": p["Anna"]}
        play(variant="standard", seating=seating, hands=[H1], season=season, day=day)
    url = reverse("league:player", args=[p["Cilla"].pk])
    page = reader.get(url, headers={"Accept-Language": lang}).content.decode()
    assert one + "<" in page and three in page


def test_czech_counts_five_games_in_its_third_form():
    from types import SimpleNamespace

    from django.template.loader import render_to_string
    from django.utils import translation

    from ratings.insight import Record

    named = SimpleNamespace(player=SimpleNamespace(pk=1, name="Anna"), record=Record(1, wins=3, losses=2))
    with translation.override("cs"):
        html = render_to_string("ratings/_record.html", {"n": named})
    assert "3–2–0 (výhry–prohry–remízy) v 5 hrách" in html
