"""The night's results as its players see them: each player's own points and place on the
standings, the prizes the organiser ticked on (ties shared), the groups, the results page at its
permanent link and each player's card; in English, Swedish and Czech, without JavaScript, to
exactly those the standings page shows itself to.

The night worked by hand: eight players, round 1 of two tables played to 100, North–South bidding
20 every hand. Table 1: North–South meld 10, 10 and 30 and take every trick (25): 35 + 35 + 55 =
125 to 0. Table 2: North–South meld 30, 10 and 10 and take 25, 20 and 25 trick points, so
East–West take 5 in the second hand: 55 + 30 + 35 = 120 to 5. Places: Table 1's winners share 1st
(+125), Table 2's share 3rd (+115; no one is 2nd), Table 2's losers 5th (5 points), Table 1's
losers 7th. High game: Table 1's North–South, 125. High meld: 30, shared by both North–South sides.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Membership, Player, Season
from nights.models import Night, NightPlayer, NightTable
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.helpers import quick_hand, text

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ida", "Jon", "Kim", "Lea"]
ALL_PRIZES = ["first", "second", "third", "high_game", "high_meld", "table_winners", "groups"]


@pytest.fixture
def club(people) -> Club:
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    return club


@pytest.fixture
def season(club) -> Season:
    return Season.objects.create(
        club=club, name="Spring", starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 6, 30),
        publish_code="spring-results",
    )  # fmt: skip


def open_night(alice: Client, players: int = 8, *, season: Season | None = None, **extra) -> Night:
    data = {"played_on": "2026-03-05", "variant": "standard", "deck": "single", "rounds": "2",
            "round_ends": "game", "target": "100", "season": season.pk if season else "",
            **extra}  # fmt: skip
    response = alice.post(f"/nights/clubs/{CLUB}/new", data)
    assert response.status_code == 302, text(response)
    night = Night.objects.latest("pk")
    for name in NAMES[:players]:
        player = Player.objects.get(name=name)
        assert alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"}).status_code == 302
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302
    return night


def seated(table: NightTable) -> dict[str, str]:
    return {seat.seat: seat.player.name for seat in table.seats.select_related("player")}


def worked_night(alice: Client, **kwargs) -> tuple[Night, dict[str, str], dict[str, str]]:
    """The night of the module's docstring, its round 1 played; the seats of its two tables."""
    night = open_night(alice, prizes=ALL_PRIZES, **kwargs)
    one, two = NightTable.objects.filter(night=night, round_no=1).order_by("table_no")
    assert one.game is not None and two.game is not None
    for number, meld in enumerate((10, 10, 30), 1):
        record_hand(game=one.game, number=number, data=quick_hand(ns_meld=meld, ns_tricks=25))
    for number, (meld, tricks) in enumerate(((30, 25), (10, 20), (10, 25)), 1):
        record_hand(game=two.game, number=number, data=quick_hand(ns_meld=meld, ns_tricks=tricks))
    return night, seated(one), seated(two)


def pair(seats: dict[str, str], a: str, b: str) -> str:
    return f"{seats[a]} & {seats[b]}"


def test_the_standings_show_each_players_own_points_their_place_and_the_prizes(club, alice):
    night, one, two = worked_night(alice)
    page = text(alice.get(f"/nights/{night.pk}/standings/"))
    assert "Player Games Wins Points Points ±" in page
    first = sorted([one["N"], one["S"]])
    third = sorted([two["N"], two["S"]])
    assert f"1. {first[0]} 1 1 125 +125 1. {first[1]} 1 1 125 +125" in page
    assert f"3. {third[0]} 1 1 120 +115 3. {third[1]} 1 1 120 +115" in page
    assert f"5. {min(two['E'], two['W'])} 1 0 5 -115" in page
    assert f"1st place {first[0]}; {first[1]} shared" in page
    assert "2nd place No one: players level before it share a higher place." in page
    assert f"3rd place {third[0]}; {third[1]} shared" in page
    assert f"High game 125 points {pair(one, 'N', 'S')} (Round 1 · Table 1)" in page
    assert (
        f"High meld 30 points {pair(one, 'N', 'S')} (Round 1 · Table 1) ; "
        f"{pair(two, 'N', 'S')} (Round 1 · Table 2) shared" in page
    )
    assert f"Round 1 · Table 1 {pair(one, 'N', 'S')} Round 1 · Table 2 {pair(two, 'N', 'S')}" in page
    assert "Prizes so far" in page and "The prizes follow the standings until the night is finished." in page
    alice.post(f"/nights/{night.pk}/finish", {"finished": "yes", "confirm": "yes"})
    page = text(alice.get(f"/nights/{night.pk}/standings/"))
    assert "Prizes 1st place" in page and "so far" not in page


def test_prizes_not_ticked_on_are_not_shown_and_the_organiser_ticks_them_later(club, alice):
    night = open_night(alice)
    assert "1st place" not in text(alice.get(f"/nights/{night.pk}/standings/"))
    response = alice.post(f"/nights/{night.pk}/prizes", {"prizes": ["first", "high_game"]})
    assert response.status_code == 302 and response["Location"].endswith("#prizes")
    night.refresh_from_db()
    assert night.prizes == ["first", "high_game"]
    page = text(alice.get(f"/nights/{night.pk}/standings/"))
    assert "1st place" in page and "High game No points scored yet." in page and "High meld" not in page
    assert alice.post(f"/nights/{night.pk}/prizes", {"prizes": ["a car"]}).status_code == 400
    night.refresh_from_db()
    assert night.prizes == ["first", "high_game"]


def test_groups_are_set_on_the_night_page_and_ranked_on_their_own(club, alice):
    night, one, two = worked_night(alice)
    ids = {name: Player.objects.get(name=name).pk for name in NAMES[:8]}
    women = {one["N"], two["E"]}
    data = {f"group-{pk}": ("Women" if name in women else "") for name, pk in ids.items()}
    response = alice.post(f"/nights/{night.pk}/groups", data)
    assert response.status_code == 302
    page = text(alice.get(f"/nights/{night.pk}/standings/"))
    assert (
        f"Standings of each group Women Player Games Wins Points Points ± 1. {one['N']} 1 1 125 +125" in page
    )
    assert f"2. {two['E']} 1 0 5 -115" in page
    assert f"Winner of the group Women {one['N']}" in page
    card = text(alice.get(f"/nights/{night.pk}/players/{ids[one['N']]}/"))
    assert "Group Women" in card and "Winner of the group Women" in card


def test_a_group_name_too_long_is_refused_next_to_the_player_and_nothing_is_saved(club, alice):
    night = open_night(alice)
    anna, bo = (Player.objects.get(name=name).pk for name in ("Anna", "Bo"))
    response = alice.post(f"/nights/{night.pk}/groups", {f"group-{anna}": "Men", f"group-{bo}": "x" * 21})
    assert response.status_code == 400
    page = text(response)
    assert "Bo (optional) A group&#x27;s name has at most 20 characters. Cleo" in page
    assert not NightPlayer.objects.exclude(group="").exists()


def test_the_results_page_has_the_standings_the_prizes_and_a_card_for_everyone(club, alice):
    night, one, _two = worked_night(alice)
    alice.post(f"/nights/{night.pk}/finish", {"finished": "yes", "confirm": "yes"})
    response = alice.get(f"/nights/{night.pk}/results/")
    page = text(response)
    assert "Results of the night" in page and "Final standings" in page
    assert "Players level on every figure share a place; the next place is then skipped." in page
    assert f"High game 125 points {pair(one, 'N', 'S')}" in page
    html = response.content.decode()
    for name in NAMES[:8]:
        assert f'href="/nights/{night.pk}/players/{Player.objects.get(name=name).pk}/"' in html


def test_a_players_card_shows_their_table_partner_opponents_score_and_prizes(club, alice):
    night, one, _two = worked_night(alice)
    north = Player.objects.get(name=one["N"])
    page = text(alice.get(f"/nights/{night.pk}/players/{north.pk}/"))
    assert f"{one['N']} Player's card" in page
    assert "Place 1 of 8 players" in page and "Points 125" in page and "Points ± +125" in page
    assert (
        f"Round 1 · Table 1 · North Partner: {one['S']} Opponents: {one['E']}, {one['W']} 125 : 0 won" in page
    )
    assert "Prizes won 1st place shared High game 125 points (Round 1 · Table 1)" in page
    assert "High meld 30 points (Round 1 · Table 1) shared" in page
    east = Player.objects.get(name=one["E"])
    page = text(alice.get(f"/nights/{night.pk}/players/{east.pk}/"))
    assert "125 : 0 lost" not in page and "0 : 125 lost" in page and "No prize." in page


def test_a_player_not_at_the_night_has_no_card(club, alice):
    night = open_night(alice)
    stranger = Player.objects.get(name="Lea")
    assert alice.get(f"/nights/{night.pk}/players/{stranger.pk}/").status_code == 404


PAGES = ["standings/", "results/", "players/{player}/"]


@pytest.mark.parametrize("page", PAGES)
def test_club_pages_follow_the_standings_rule(club, people, alice, page):
    """Every role of the club reads them; an account of another club gets 403, a visitor the login."""
    night, _one, _two = worked_night(alice)
    url = f"/nights/{night.pk}/" + page.format(player=Player.objects.get(name="Anna").pk)
    assert people.client("charlie").get(url).status_code == 200
    assert people.client("bob").get(url).status_code == 200
    assert people.client("dave").get(url).status_code == 403
    response = Client().get(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("page", ["", "final/", "players/{player}/"])
def test_published_pages_need_the_seasons_publish_code(club, season, alice, page):
    night, _one, _two = worked_night(alice, season=season)
    anna = Player.objects.get(name="Anna").pk
    tail = f"{night.pk}/" + page.format(player=anna)
    assert Client().get(f"/nights/results/spring-results/{tail}").status_code == 200
    assert Client().get(f"/nights/results/wrong-code/{tail}").status_code == 404
    other = Season.objects.create(
        club=club, name="Autumn", starts_on=datetime.date(2026, 7, 1), ends_on=datetime.date(2026, 12, 31),
        publish_code="autumn-results",
    )  # fmt: skip
    assert Client().get(f"/nights/results/{other.publish_code}/{tail}").status_code == 404


def test_the_published_pages_link_to_the_published_cards(club, season, alice):
    night, _one, _two = worked_night(alice, season=season)
    anna = Player.objects.get(name="Anna").pk
    card = f"/nights/results/spring-results/{night.pk}/players/{anna}/"
    published = f"/nights/results/spring-results/{night.pk}/"
    for url in (published, f"{published}live", f"{published}final/"):  # the page, what it polls
        html = Client().get(url).content.decode()
        assert f'href="{card}"' in html and f"/nights/{night.pk}/players/" not in html
    assert "Results of the night" in text(Client().get(card))


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Results and prizes", "Results of the night", "Player's card", "Prizes won"]),
        ("sv", ["Resultat och priser", "Kvällens resultat", "Spelarens kort", "Vunna priser"]),
        ("cs", ["Výsledky a ceny", "Výsledky večera", "Karta hráče", "Získané ceny"]),
    ],
)
def test_the_pages_read_in_every_language_without_javascript(club, season, alice, lang, words):
    """Each page is whole as the server sends it (the text read with every script removed)."""
    night, _one, _two = worked_night(alice, season=season)
    anna = Player.objects.get(name="Anna").pk
    standings, results, card = (
        text(Client().get(url, headers={"Accept-Language": lang}))
        for url in (
            f"/nights/results/spring-results/{night.pk}/",
            f"/nights/results/spring-results/{night.pk}/final/",
            f"/nights/results/spring-results/{night.pk}/players/{anna}/",
        )
    )
    assert words[0] in standings and words[1] in results and words[2] in card and words[3] in card
    club_card = alice.get(f"/nights/{night.pk}/players/{anna}/", headers={"Accept-Language": lang})
    assert f'<html lang="{lang}">' in club_card.content.decode() and words[2] in text(club_card)


@pytest.mark.parametrize(("lang", "place"), [("en", "Place 1 of 8 players"), ("sv", "Plats 1 av 8 spelare"),
                                             ("cs", "Místo 1. z 8 hráčů")])  # fmt: skip
def test_the_card_counts_the_players_in_each_language(club, alice, lang, place):
    night, one, _two = worked_night(alice)
    north = Player.objects.get(name=one["N"]).pk
    page = text(alice.get(f"/nights/{night.pk}/players/{north}/", headers={"Accept-Language": lang}))
    assert place in page


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


@pytest.mark.parametrize(("page", "queries"), [("results/", 10), ("players/{player}/", 11)])
def test_the_results_and_a_card_cost_the_same_queries_whatever_the_size_of_the_night(
    club, alice, page, queries
):
    """Session and roles, the night, its standings (4), its players and groups (1), the best melds
    when high meld is a prize (1), a card's byes (1)."""
    anna = Player.objects.get(name="Anna").pk
    small, large = open_night(alice, 4, prizes=ALL_PRIZES), open_night(alice, 12, prizes=ALL_PRIZES)
    counts = [_queries(alice, f"/nights/{night.pk}/" + page.format(player=anna)) for night in (small, large)]
    assert counts == [queries, queries]


def test_the_published_results_cost_the_same_queries_whatever_the_size_of_the_night(club, season, alice):
    small = open_night(alice, 4, season=season, prizes=ALL_PRIZES)
    large = open_night(alice, 12, season=season, prizes=ALL_PRIZES)
    counts = [
        _queries(Client(), f"/nights/results/spring-results/{night.pk}/final/") for night in (small, large)
    ]
    assert counts[0] == counts[1] == 7


def test_the_card_of_a_player_sitting_out_says_so_and_a_check_night_shows_chips(club, alice):
    night = open_night(alice, 5, variant="check")
    out = night.byes.get(round_no=1).player
    page = text(alice.get(f"/nights/{night.pk}/players/{out.pk}/"))
    assert "Rounds Round 1 · sat out" in page and "Chips 0" in page
    seated = NightTable.objects.get(night=night, round_no=1).seats.first()
    assert seated is not None
    page = text(alice.get(f"/nights/{night.pk}/players/{seated.player_id}/"))
    assert "0 : 0 (chips 0) in play" in page
