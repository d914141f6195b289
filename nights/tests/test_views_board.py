"""The board on the wall: a night's standings, the tables still playing and the next round's seats
in big type, for the club and from a published season's link, updating within one poll of a save."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from clubs.models import Club, Membership, Player, Season
from nights import arrivals, rounds, services
from nights.models import Night
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.helpers import quick_hand, text

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana"]
CROWD = [f"Player {number:02d}" for number in range(1, 41)]


@pytest.fixture
def club(people) -> Club:
    club = Club.objects.get(pk=CLUB)
    for name in NAMES + CROWD:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    return club


def night_of(club: Club, names: list[str], *, started: bool = True, season: Season | None = None) -> Night:
    """A night of three rounds for `names`, drawn, its first round started when `started`."""
    night = services.open_night(
        club=club, season=season, played_on=datetime.date(2026, 3, 5), variant="standard", deck="single",
        target=None, min_bid=None, meld_needs_trick=False, rounds=3, round_ends="game", hands_per_round=None,
        stake_per_chip=None, stake_per_win=None, created_by=None,
    )  # fmt: skip
    for player in Player.objects.filter(name__in=names):
        arrivals.set_checked_in(night=night, player=player, present=True)
    services.draw_plan(night=night)
    if started:
        rounds.start_round(night=night, round_no=1)
    return night


def board(client: Client, night: Night, lang: str = "en") -> str:
    response = client.get(f"/nights/{night.pk}/board/", headers={"Accept-Language": lang})
    assert response.status_code == 200
    return text(response)


def seated(night: Night, round_no: int, table_no: int) -> list[str]:
    table = night.tables.get(round_no=round_no, table_no=table_no)
    return [seat.player.name for seat in services.ordered_seats(table)]


def test_it_shows_the_standings_the_tables_playing_and_the_next_rounds_seats(club, alice):
    night = night_of(club, NAMES)
    first = night.tables.get(round_no=1, table_no=1).game
    assert first is not None
    record_hand(game=first, number=1, data=quick_hand(ns_tricks=20))
    page = board(alice, night)
    assert club.name in page and "5 March 2026" in page and "Round 1 of 3" in page
    assert "Standings" in page and "Games Wins Points ±" in page
    north, east, south, west = seated(night, 1, 1)
    assert f"1. {north} 0 0 +" in page  # the side ahead on points leads, no game over yet
    assert "Still playing" in page
    assert f"Table 1 1 hand N–S {north} & {south} 30 E–W {east} & {west} 5" in page
    assert "Table 2 0 hands" in page
    assert "Round 2: where to sit" in page
    n2, e2, s2, w2 = seated(night, 2, 1)
    assert f"Table 1 N {n2} E {e2} S {s2} W {w2}" in page


def test_before_the_first_round_it_shows_the_first_rounds_seats(club, alice):
    night = night_of(club, NAMES, started=False)
    page = board(alice, night)
    assert "No round has started yet." in page
    assert "Round 1: where to sit" in page and "Still playing" not in page


def test_the_leaders_stand_out_only_once_someone_is_behind(club, alice):
    night = night_of(club, NAMES)
    html = alice.get(f"/nights/{night.pk}/board/").content.decode()
    assert "board-leader" not in html  # everyone level: all first, nobody singled out
    game = night.tables.get(round_no=1, table_no=1).game
    assert game is not None
    record_hand(game=game, number=1, data=quick_hand(ns_tricks=20))
    html = alice.get(f"/nights/{night.pk}/board/").content.decode()
    assert html.count('class="board-leader"') == 2  # the two partners ahead


def test_a_finished_night_shows_its_final_standings_and_nothing_in_play(club, alice):
    night = night_of(club, NAMES)
    rounds.finish_night(night=night)
    page = board(alice, night)
    assert "The night is over" in page and "Final standings" in page
    assert "Still playing" not in page and "where to sit" not in page


def test_a_long_night_is_cut_into_pages_that_fit_one_screen(club, alice, django_assert_num_queries):
    night = night_of(club, CROWD)
    response = alice.get(f"/nights/{night.pk}/board/")
    html = response.content.decode()
    assert html.count('class="board-slide"') == 4 + 3 + 3  # 40 lines, 10 tables playing, 10 drawn
    page = text(response)
    assert "Standings 1/4" in page and "Standings 4/4" in page
    assert "Still playing 3/3" in page and "Round 2: where to sit 3/3" in page
    assert all(page.count(f"{name} ") >= 1 for name in CROWD)
    # Every screen: 10 lines of the standings or 4 tables at most.
    for slide in html.split('class="board-slide"')[1:]:
        assert slide.count("<tr") <= 11 and slide.count('class="board-card"') <= 4
    # The same queries for 8 players or 40: the session and the role (4), the night, the standings
    # (4), the plan (3), and the board's version (the standings' one, the plan's fingerprint of 2).
    with django_assert_num_queries(15):
        alice.get(f"/nights/{night.pk}/board/")
    small = night_of(club, NAMES)
    with django_assert_num_queries(15):
        alice.get(f"/nights/{small.pk}/board/")


def test_the_poll_answers_304_until_a_hand_is_saved_at_any_table(club, alice, django_assert_num_queries):
    night = night_of(club, NAMES)
    live = f"/nights/{night.pk}/board/live"
    first = alice.get(live)
    assert first.status_code == 200 and "Table 2 0 hands" in text(first)
    etag = first["ETag"]
    # The board page starts from the same ETag as its poll.
    html = alice.get(f"/nights/{night.pk}/board/").content.decode()
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in html
    # Unchanged: the session and the role (4), the night and the board's version (3).
    with django_assert_num_queries(8):
        assert alice.get(live, headers={"If-None-Match": etag}).status_code == 304
    second = night.tables.get(round_no=1, table_no=2).game
    assert second is not None
    record_hand(game=second, number=1, data=quick_hand())
    # Changed: the same, then the night and the board as the page reads them (8).
    with django_assert_num_queries(16):
        again = alice.get(live, headers={"If-None-Match": etag})
    assert again.status_code == 200
    assert "Table 2 1 hand" in text(again)
    assert again["ETag"] != etag
    assert alice.get(live, headers={"If-None-Match": again["ETag"]}).status_code == 304


def test_a_swap_in_the_next_rounds_plan_or_the_night_finished_changes_the_poll(club, alice):
    night = night_of(club, NAMES)
    live = f"/nights/{night.pk}/board/live"
    etag = alice.get(live)["ETag"]
    first, second = seated(night, 2, 1)[0], seated(night, 2, 2)[0]
    services.swap_players(
        night=night, round_no=2, first=Player.objects.get(name=first), second=Player.objects.get(name=second)
    )
    swapped = alice.get(live, headers={"If-None-Match": etag})
    assert swapped.status_code == 200
    assert f"Table 1 N {second}" in text(swapped)
    rounds.finish_night(night=night)
    finished = alice.get(live, headers={"If-None-Match": swapped["ETag"]})
    assert finished.status_code == 200 and "Final standings" in text(finished)


def test_club_members_see_the_board_and_strangers_do_not(club, alice, people):
    night = night_of(club, NAMES)
    for name in ("alice", "bob", "charlie"):
        client = people.client(name)
        assert client.get(f"/nights/{night.pk}/board/").status_code == 200
        assert client.get(f"/nights/{night.pk}/board/live").status_code == 200
    stranger = people.client("dave")  # organises another club
    assert stranger.get(f"/nights/{night.pk}/board/").status_code == 403
    assert stranger.get(f"/nights/{night.pk}/board/live").status_code == 403
    anonymous = Client().get(f"/nights/{night.pk}/board/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert Client().get(f"/nights/{night.pk}/board/live").status_code == 302


def test_a_published_seasons_link_shows_its_nights_board_to_anyone(club, alice, django_assert_num_queries):
    season = Season.objects.create(
        club=club, name="Spring", starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 6, 30)
    )
    night = night_of(club, NAMES, season=season)
    url = f"/nights/results/spring-results/{night.pk}/board/"
    assert Client().get(url).status_code == 404  # not published yet
    Season.objects.filter(pk=season.pk).update(publish_code="spring-results")
    # The season and the night, the board's version (3), the standings (4) and the plan (3).
    with django_assert_num_queries(12):
        response = Client().get(url)
    assert response.status_code == 200 and "Round 1 of 3" in text(response)
    assert 'data-live="/nights/results/spring-results/' in response.content.decode()
    live = Client().get(url + "live")
    assert live.status_code == 200
    with django_assert_num_queries(5):  # the season, the night and the board's version
        assert Client().get(url + "live", headers={"If-None-Match": live["ETag"]}).status_code == 304
    other = night_of(club, NAMES)  # a night of no season: not on the season's link
    assert Client().get(f"/nights/results/spring-results/{other.pk}/board/").status_code == 404
    standings = Client().get(f"/nights/results/spring-results/{night.pk}/")
    assert f'href="{url}"' in standings.content.decode()


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Round 1 of 3", "Standings", "Still playing", "Round 2: where to sit", "Wins"]),
        ("sv", ["Omgång 1 av 3", "Ställning", "Spelar fortfarande", "Omgång 2: var ni sitter", "Vinster"]),
        ("cs", ["Kolo 1 z 3", "Pořadí", "Ještě se hraje", "Kolo 2: kdo kde sedí", "Výhry"]),
    ],
)
def test_the_board_speaks_the_clubs_language(club, alice, lang, words):
    page = board(alice, night_of(club, NAMES), lang)
    for word in words:
        assert word in page


def test_without_javascript_every_page_is_stacked_and_reloads_itself(club, alice):
    night = night_of(club, NAMES)
    html = alice.get(f"/nights/{night.pk}/board/").content.decode()
    assert '<noscript><meta http-equiv="refresh" content="30"></noscript>' in html
    # Every page is in the HTML, none hidden by the server: the script hides all but one.
    assert html.count('class="board-slide"') == 3 and "board-current" not in html


def test_the_night_page_and_the_standings_link_to_the_board(club, alice):
    night = night_of(club, NAMES)
    for page in (f"/nights/{night.pk}/", f"/nights/{night.pk}/standings/"):
        assert f'href="/nights/{night.pk}/board/"' in alice.get(page).content.decode()
