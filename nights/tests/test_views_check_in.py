"""Check-in at the door: one tap per name. With htmx the tap answers the name's row (and the
count) in place, without a reload; without JavaScript the same form posts and comes back to the
same name on the page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from clubs.models import Club, Membership, Player
from nights.models import Night, NightPlayer
from nights.tests.test_views_night import NAMES, check_in, open_night
from tests.access_helpers import CLUB, OTHER_CLUB
from tests.helpers import text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def club(people) -> Club:
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    return club


def _tap(alice: Client, night: Night, name: str, present: str, **headers: Any):
    player = Player.objects.get(name=name)
    return alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": present}, **headers)


def test_a_tap_from_htmx_answers_the_names_row_checked_in_and_the_count(club, alice):
    night = open_night(alice)
    anna = Player.objects.get(name="Anna")
    check_in(alice, night, ["Bo"])

    response = _tap(alice, night, "Anna", "yes", **HTMX)

    assert response.status_code == 200
    page = response.content.decode()
    assert page.startswith(f'<li id="check-in-{anna.pk}">')
    assert 'aria-pressed="true"' in page and "✓</span>Anna" in page
    assert f'hx-target="#check-in-{anna.pk}"' in page
    assert 'value="no"' in page  # the next tap checks her out
    assert '<p class="league-muted night-count" id="check-in-count" role="status" hx-swap-oob="true">' in page
    assert "2 checked in." in page
    assert "<html" not in page and "</span>Bo" not in page  # only her row and the count (no one else's name)
    assert set(night.players.values_list("player__name", flat=True)) == {"Anna", "Bo"}


def test_a_second_tap_from_htmx_checks_the_name_out(club, alice):
    night = open_night(alice)
    check_in(alice, night, ["Anna", "Bo"])

    response = _tap(alice, night, "Anna", "no", **HTMX)

    page = response.content.decode()
    assert 'aria-pressed="false"' in page and "○</span>Anna" in page and 'value="yes"' in page
    assert "1 checked in." in page
    assert list(night.players.values_list("player__name", flat=True)) == ["Bo"]


def test_a_plain_post_without_javascript_goes_back_to_the_same_name_on_the_page(club, alice):
    night = open_night(alice)
    anna = Player.objects.get(name="Anna")

    response = _tap(alice, night, "Anna", "yes")

    assert response.status_code == 302
    assert response["Location"] == f"/nights/{night.pk}/#check-in-{anna.pk}"
    page = text(alice.get(response["Location"]))
    assert "1 checked in." in page
    assert NightPlayer.objects.filter(night=night, player=anna).exists()


def test_the_night_page_offers_each_name_as_a_form_that_works_with_and_without_htmx(club, alice):
    night = open_night(alice)
    anna = Player.objects.get(name="Anna")
    page = alice.get(f"/nights/{night.pk}/").content.decode()
    url = f"/nights/{night.pk}/check-in/{anna.pk}"
    assert f'<li id="check-in-{anna.pk}"><form method="post" action="{url}" hx-post="{url}"' in page
    assert 'id="check-in-count"' in page and "hx-swap-oob" not in page


def test_a_tap_on_a_drawn_night_draws_the_plan_again_on_the_page(club, alice):
    night = open_night(alice)
    check_in(alice, night, NAMES[:4])
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302

    page = _tap(alice, night, "Eva", "yes", **HTMX).content.decode()

    assert '<section id="plan" aria-labelledby="plan-title" hx-swap-oob="true">' in page
    assert "Eva" in page.split('id="plan"')[1]  # the new plan has her (sitting out or at a table)


def test_a_tap_refused_from_htmx_says_why_in_the_row_and_changes_nothing(club, alice):
    night = open_night(alice)
    check_in(alice, night, NAMES[:4])
    alice.post(f"/nights/{night.pk}/draw")
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302

    response = _tap(alice, night, "Eva", "yes", **HTMX)

    page = response.content.decode()
    assert response.status_code == 200
    assert 'role="alert">The night has started' in page
    assert 'aria-pressed="false"' in page
    assert not night.players.filter(player__name="Eva").exists()
    # Without JavaScript the refusal comes back as a message on the page.
    plain = _tap(alice, night, "Eva", "yes")
    assert plain.status_code == 302
    assert "The night has started" in text(alice.get(plain["Location"]))


def test_a_tap_by_someone_who_does_not_run_the_club_is_refused(club, alice, people):
    night = open_night(alice)
    charlie = people.client("charlie")
    response = _tap(charlie, night, "Anna", "yes", **HTMX)
    assert response.status_code == 403
    assert not night.players.exists()


def test_a_tap_on_another_clubs_player_answers_404_and_never_shows_their_name(club, alice):
    night = open_night(alice)
    stranger = Player.objects.create(name="Stranger Elsewhere")
    Membership.objects.create(club_id=OTHER_CLUB, player=stranger)
    unrostered = Player.objects.create(name="Nobody's Roster")
    for player in (stranger, unrostered):
        url = f"/nights/{night.pk}/check-in/{player.pk}"
        for headers in (HTMX, {}):
            response = alice.post(url, {"present": "yes"}, follow=True, **headers)
            assert response.status_code == 404
            assert player.name not in response.content.decode()
    assert not night.players.exists()


def test_a_player_on_two_clubs_rosters_is_listed_once_and_one_retired_here_not_at_all(club, alice):
    other = Club.objects.get(pk=OTHER_CLUB)
    for name in ("Anna", "Bo"):
        Membership.objects.create(club=other, player=Player.objects.get(name=name))
    Membership.objects.filter(club=club, player__name="Bo").update(retired_on="2026-01-01")
    night = open_night(alice)

    page = text(alice.get(f"/nights/{night.pk}/"))

    assert page.count("Anna") == 1  # not once per club she plays in
    assert "Bo" not in page.split()  # retired from this club, still on the other's roster
