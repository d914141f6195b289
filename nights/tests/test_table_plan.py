"""A night's tables follow its plan, and the game says so itself: starting a round marks its games
(`Game.planned`), finishing the night marks the plan over (`Game.plan_over`), opening it again
undoes that. The rights checks read the game's row: no query, and the table's phone stops scoring
once the night is finished."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Season
from nights import rounds
from nights.models import NightTable
from nights.tests.test_rounds_of_hands import started_night
from scoring.models import Game
from scoring.permissions import night_is_over
from scoring.services.games import create_game
from scoring.services.plans import follow_plan
from tests.access_helpers import CLUB
from tests.helpers import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(people) -> Club:
    return Club.objects.get(pk=CLUB)


@pytest.fixture
def season(club: Club) -> Season:
    return Season.objects.create(
        club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31)
    )


def _quick_game() -> Game:
    return create_game(
        seats=4, variant="standard", deck="single", target=None, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "A", "E": "B", "S": "C", "W": "D"},
    )  # fmt: skip


def test_starting_a_round_marks_its_games_and_finishing_the_night_ends_their_plan(club, season):
    night = started_night(club, season)
    game = night.games.get()
    assert (game.planned, game.plan_over) == (True, False)
    assert not night_is_over(game)
    rounds.finish_night(night=night)
    game.refresh_from_db()
    assert (game.planned, game.plan_over) == (True, True)
    assert night_is_over(game)
    rounds.reopen_night(night=night)
    game.refresh_from_db()
    assert (game.planned, game.plan_over) == (True, False)
    assert not night_is_over(game)


def test_a_game_of_no_night_follows_no_plan():
    game = _quick_game()
    assert (game.planned, game.plan_over) == (False, False)


def test_follow_plan_marks_the_games_given_as_objects_in_the_database_too():
    game, other = _quick_game(), _quick_game()
    follow_plan(games=[game], over=True)
    assert (game.planned, game.plan_over) == (True, True)
    game.refresh_from_db()
    other.refresh_from_db()
    assert (game.planned, game.plan_over) == (True, True)
    assert (other.planned, other.plan_over) == (False, False)


def test_whether_the_night_is_over_costs_no_query(club, season, django_assert_num_queries):
    game = started_night(club, season).games.get()
    with django_assert_num_queries(0):
        assert not night_is_over(game)


def test_the_tables_phone_scores_until_the_night_is_finished_and_the_game_page_costs_no_more(
    club, season, alice
):
    night = started_night(club, season)
    table = NightTable.objects.get(night=night)
    phone = Client()
    phone.post(f"/nights/t/{table.token}/")
    assert table.game is not None  # a started night's table has its game
    code = table.game.code
    with CaptureQueriesContext(connection) as queries:
        page = phone.get(f"/g/{code}/")
    assert page.status_code == 200 and b'id="bidder"' in page.content
    # The game, the phone's right, the seats, the corrections and the hands (before the game
    # carried its plan, two more asked the nights); and one for the round's line ("2 hands left in
    # round 1"), asked only of a game whose length the round sets.
    assert len(queries.captured_queries) == 6, [q["sql"][:60] for q in queries.captured_queries]
    assert "3 hands left in round 1" in text(page)
    assert phone.get(f"/g/{code}/settings/").status_code == 200
    rounds.finish_night(night=night)
    page = phone.get(f"/g/{code}/")
    assert page.status_code == 302 and page["Location"].startswith("/s/")  # it follows read-only
    assert alice.get(f"/g/{code}/").status_code == 200
