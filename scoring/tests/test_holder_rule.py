"""Whom a phone's right to score a game counts for is one rule (`scoring.devices.holder_scores`):
the phone that holds a game (`holds_game`), a right about to be given (`may_hold`) and the games
list of a phone (`held_game_ids`) all answer by it, for every kind of holder."""

from __future__ import annotations

from http.cookies import SimpleCookie

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse

from scoring.devices import (
    grant_game,
    held_game_ids,
    holder_scores,
    holds_game,
    may_hold,
    remember_device,
    right_lapsed,
)
from tests.access_helpers import CLUB, OTHER_CLUB, make_game, request_as

pytestmark = pytest.mark.django_db


@pytest.fixture
def holders(people) -> dict[str, User | None]:
    return {
        "nobody signed in": None,
        "superuser": people.superuser(),
        "organiser": people["alice"],
        "scorer": people["bob"],
        "member": people["charlie"],
        "organiser of another club": people["dave"],
    }


SCORES_IN_CLUB = {"nobody signed in", "superuser", "organiser", "scorer"}


@pytest.mark.parametrize(
    "who",
    ["nobody signed in", "superuser", "organiser", "scorer", "member", "organiser of another club"],
)
@pytest.mark.parametrize("club_id", [None, CLUB])
def test_every_question_about_a_phones_right_follows_the_one_rule(holders, who, club_id):
    holder = holders[who]
    game = make_game(club_id=club_id)
    expected = club_id is None or who in SCORES_IN_CLUB
    assert holder_scores(holder, club_id) is expected
    phone = request_as(holder)
    assert may_hold(phone, game) is expected
    # Given anyway (a right on record from before the account lost its role, say): it counts, or
    # it is kept on record and the phone watches read-only.
    grant_game(phone, game)
    cookies = {name: morsel.value for name, morsel in _cookies_of(phone).items()}
    later = request_as(holder, cookies)
    assert holds_game(later, game) is expected
    assert right_lapsed(later, game) is not expected
    assert (game.pk in held_game_ids(later)) is expected


def test_the_games_list_asks_each_holders_role_once_per_club(people, django_assert_num_queries):
    bob = people["bob"]
    phone = request_as(bob)
    games = [make_game(club_id=CLUB) for _ in range(3)] + [make_game(club_id=OTHER_CLUB)]
    for game in games:
        grant_game(phone, game)
    cookies = {name: morsel.value for name, morsel in _cookies_of(phone).items()}
    later = request_as(bob, cookies)
    # the device, its active rights, bob's role in CLUB, bob's role in OTHER_CLUB
    with django_assert_num_queries(4):
        held = held_game_ids(later)
    assert sorted(held) == sorted(game.pk for game in games[:3])


def _cookies_of(request: HttpRequest) -> SimpleCookie:
    response = HttpResponse()
    remember_device(request, response)
    return response.cookies
