"""An id in a URL longer than any the database holds (20 digits, or 2**63) names nothing: a 404 on
every database, for every URL pattern with an id, read from the URLconf so a new pattern is tried too.
(With Django's `<int:...>` SQLite raised OverflowError on such a number: a 500.)"""

from __future__ import annotations

import datetime
import importlib
import re
from typing import Any

import pytest
from django import forms
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

from clubs.ids import MAX_ID, IdChoiceField, IdConverter, IdMultipleChoiceField
from clubs.models import Club, Membership, Player, Season
from nights import services as nights
from tests.access_helpers import make_game

pytestmark = pytest.mark.django_db

HUGE = ["9" * 20, str(MAX_ID + 1)]
PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _routes(resolver: URLResolver, prefix: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if pattern.app_name != "admin":  # the admin's own ids: clubs/tests/test_admin_bad_ids.py
                found += _routes(pattern, route)
        else:
            found.append((route, pattern))
    return found


def _id_routes() -> list[str]:
    return [route for route, pattern in _routes(get_resolver()) if "<id:" in route]


@pytest.fixture
def world(people) -> dict[str, str]:
    """Real values for every parameter, so that only the huge id can be what is not found."""
    club = Club.objects.create(name="Club")
    player = Player.objects.create(name="Anna")
    Membership.objects.create(club=club, player=player)
    season = Season.objects.create(
        club=club, name="Spring", starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 6, 30),
        publish_code="published-spring",
    )  # fmt: skip
    game = make_game(hands=1, club_id=club.pk)
    night = nights.open_night(
        club=club, season=season, played_on=datetime.date(2026, 3, 5), variant="standard", deck="single",
        target=None, min_bid=None, meld_needs_trick=False, rounds=3, round_ends="game",
        hands_per_round=None, stake_per_chip=None, stake_per_win=None, created_by=None,
    )  # fmt: skip
    people.superuser()
    return {
        "club_id": str(club.pk), "player_id": str(player.pk), "season_id": str(season.pk),
        "night_id": str(night.pk), "number": "1", "round_no": "1", "payment_id": "1", "batch_id": "1",
        "code": game.code, "share_code": game.share_code, "publish_code": "published-spring",
        "month": "2026-03", "token": "some-token",
    }  # fmt: skip


def _url(route: str, values: dict[str, str], huge: tuple[str, str]) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        return huge[1] if name == huge[0] else values.get(name, "1")

    return "/" + PARAM.sub(fill, route)


def test_every_id_in_a_url_pattern_is_read_by_the_id_converter():
    patterns = [pattern for _route, pattern in _routes(get_resolver())]
    with_int = [
        str(p.pattern)
        for p in patterns
        if any(isinstance(c, IntConverter) for c in p.pattern.converters.values())
    ]
    assert not with_int, f"use <id:...> for these ids: {with_int}"
    assert len(_id_routes()) > 40


def test_the_id_converter_refuses_a_number_past_the_largest_id():
    converter = IdConverter()
    assert converter.to_python(str(MAX_ID)) == MAX_ID
    with pytest.raises(ValueError):
        converter.to_python(str(MAX_ID + 1))


@pytest.mark.parametrize("night_id", [str(MAX_ID + 1), "9" * 20, "1" * 20])
def test_a_night_past_the_largest_id_is_not_found(night_id, client: Client):
    assert client.get(f"/nights/{night_id}/").status_code == 404


def test_the_largest_id_reaches_the_database_and_names_no_night(world, client: Client):
    """19 digits within a bigint are read and looked up (on PostgreSQL too: no value out of range
    is ever sent), so a night that is not there is a 404 like any other."""
    client.force_login(User.objects.get(username="root"))
    assert client.get(f"/nights/{MAX_ID}/").status_code == 404
    assert client.get(f"/nights/{world['night_id']}/").status_code == 200


@pytest.mark.parametrize("route", _id_routes())
def test_a_url_with_an_id_past_the_largest_one_is_not_found(route, world, client: Client):
    client.force_login(User.objects.get(username="root"))
    for name in PARAM.findall(route):
        if name[0] != "id":
            continue
        for huge in HUGE:
            url = _url(route, world, (name[1], huge))
            response = client.get(url)
            if response.status_code == 405:
                response = client.post(url)
            assert response.status_code == 404, (url, response.status_code)


def _form_classes() -> list[type[forms.Form | forms.ModelForm[Any]]]:
    found: list[type[forms.Form | forms.ModelForm[Any]]] = []
    for app in ("accounts", "clubs", "league", "ledger", "nights", "scoring"):
        try:
            module = importlib.import_module(f"{app}.forms")
        except ModuleNotFoundError:
            continue
        found += [
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, forms.Form | forms.ModelForm)  # the form classes: those that declare fields
            and value.__module__ == module.__name__
        ]
    return found


def test_every_record_choice_in_a_form_reads_its_id_as_plain_digits_within_the_largest_id():
    loose = [
        f"{form.__module__}.{form.__name__}.{name}"
        for form in _form_classes()
        for name, field in form.base_fields.items()
        if isinstance(field, forms.ModelChoiceField)
        and not isinstance(field, IdChoiceField | IdMultipleChoiceField)
    ]
    assert _form_classes() and not loose, f"use clubs.ids.IdChoiceField for these: {loose}"
