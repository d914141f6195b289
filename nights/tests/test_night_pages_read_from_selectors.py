"""The night's pages only fetch and render: the plan of rounds, the check-in lists and a finished
table's result come from `nights.selectors`, and each page reads a fixed number of queries however
many players and rounds the night has."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Membership, Player
from nights import selectors, services
from nights.models import Night, NightTable
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.helpers import quick_hand, text

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ida", "Jon", "Kim", "Lea"]


@pytest.fixture
def club(people) -> Club:
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    return club


def _night(alice: Client, players: int, rounds: int = 3) -> Night:
    data = {"played_on": "2026-03-05", "variant": "standard", "deck": "single", "rounds": str(rounds),
            "round_ends": "game", "target": "100"}  # fmt: skip
    assert alice.post(f"/nights/clubs/{CLUB}/new", data).status_code == 302
    night = Night.objects.latest("pk")
    for name in NAMES[:players]:
        player = Player.objects.get(name=name)
        assert alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"}).status_code == 302
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302
    return night


def _queries(client: Client, url: str, **kwargs) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **kwargs)
    assert response.status_code in (200, 410), (url, response.status_code)
    return len(queries)


# The standings read the night's players with their group labels (1 query: each group's own
# standings and group prize), and the best meld of each side when high meld is a prize (1 more).
@pytest.mark.parametrize(
    ("page", "queries"),
    [("{night}/", 18), ("{night}/plan", 9), ("{night}/rounds/1/cards", 9), ("{night}/standings/", 11)],
)
def test_a_night_page_costs_the_same_queries_whatever_the_size_of_the_night(club, alice, page, queries):
    small, large = _night(alice, 4, rounds=2), _night(alice, 12, rounds=5)
    counts = [_queries(alice, "/nights/" + page.format(night=night.pk)) for night in (small, large)]
    assert counts == [queries, queries]


def test_the_rounds_of_the_plan_come_from_the_selector(club, alice):
    night = _night(alice, 5)
    plan = selectors.plan_rounds(night)
    assert [r["number"] for r in plan] == [1, 2, 3]
    assert plan[0]["started"] and not plan[1]["started"]
    seated = {seat.player.name for r in plan[:1] for t in r["tables"] for seat in t["seats"]}
    byes = {player.name for player in plan[0]["byes"]}
    assert seated | byes == set(NAMES[:5]) and not seated & byes


def test_a_finished_tables_link_shows_its_result_from_the_selector(club, alice):
    night = _night(alice, 4)
    table = NightTable.objects.get(night=night, round_no=1)
    game = table.game
    assert game is not None
    number = 1
    while not game.finished:
        record_hand(game=game, number=number, data=quick_hand(ns_tricks=25))
        game.refresh_from_db()
        number += 1
    result = selectors.table_result(game, services.ordered_seats(table))
    assert [side for side, _points in result.final_points] == ["N–S", "E–W"]
    phone = Client()
    # Two more than the result alone: where each player sits in the next round, and the next
    # round's table (is it waiting, or has it started).
    assert _queries(phone, f"/nights/t/{table.token}/") == 8
    page = text(phone.get(f"/nights/t/{table.token}/"))
    assert f"{result.winner_label} won" in page and "Final points: N–S 105 · E–W 0" in page


def test_checking_in_from_htmx_costs_no_more_queries(club, alice):
    night = _night(alice, 4)
    late = Player.objects.get(name="Eva")
    with CaptureQueriesContext(connection) as queries:
        response = alice.post(
            f"/nights/{night.pk}/check-in/{late.pk}", {"present": "yes"}, headers={"HX-Request": "true"}
        )
    assert response.status_code == 200 and len(queries) <= 18
