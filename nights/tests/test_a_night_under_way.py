"""A night under way: finishing it while tables still play (the organiser is told first what stays
open and how it counts, and afterwards nothing on the standings says a table is still in play),
and a newcomer who arrives after round 1."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club, Membership, Player, Season
from nights.models import Night
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.helpers import quick_hand, text

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana"]


@pytest.fixture(autouse=True)
def _roster(people) -> None:
    """The players of NAMES on CLUB's roster."""
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))


def started_night(alice: Client, **fields: str) -> Night:
    data = {"played_on": "2026-03-05", "variant": "standard", "deck": "single", "rounds": "3",
            "round_ends": "game", **fields}  # fmt: skip
    assert alice.post(f"/nights/clubs/{CLUB}/new", data).status_code == 302
    night = Night.objects.latest("pk")
    for name in NAMES:
        player = Player.objects.get(name=name)
        alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"})
    alice.post(f"/nights/{night.pk}/draw")
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302
    return night


def test_finishing_with_tables_still_playing_asks_first_and_says_how_they_count(alice):
    night = started_night(alice)
    game = night.games.order_by("pk").first()
    assert game is not None
    record_hand(game=game, number=1, data=quick_hand())
    response = alice.post(f"/nights/{night.pk}/finish", {"finished": "yes"})
    assert response.status_code == 200
    page = text(response)
    assert "Finish the night?" in page
    assert "2 tables are still playing." in page
    assert "Round 1 · Table 1 · 1 hand" in page and "Round 1 · Table 2 · 0 hands" in page
    assert "count as they stand" in page
    assert "2 rounds have not started; they will not be played." in page
    night.refresh_from_db()
    assert not night.is_finished  # nothing happened yet
    response = alice.post(f"/nights/{night.pk}/finish", {"finished": "yes", "confirm": "yes"})
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.is_finished


def test_a_night_whose_every_round_is_over_finishes_at_once(alice):
    night = started_night(alice, rounds="1", round_ends="hands", hands_per_round="1")
    for game in night.games.all():
        record_hand(game=game, number=1, data=quick_hand())
    assert alice.post(f"/nights/{night.pk}/finish", {"finished": "yes"}).status_code == 302
    night.refresh_from_db()
    assert night.is_finished


def test_after_the_finish_the_standings_no_longer_say_playing_or_in_play(alice):
    night = started_night(alice)
    season = Season.objects.create(
        club=night.club, name="Spring", starts_on=night.played_on, ends_on=night.played_on,
        publish_code="spring-results",
    )  # fmt: skip
    Night.objects.filter(pk=night.pk).update(season=season)
    game = night.games.order_by("pk").first()
    assert game is not None
    record_hand(game=game, number=1, data=quick_hand())
    before = text(alice.get(f"/nights/{night.pk}/standings/"))
    assert "(playing)" in before and "in play" in before
    alice.post(f"/nights/{night.pk}/finish", {"finished": "yes", "confirm": "yes"})
    for url in (
        f"/nights/{night.pk}/standings/",
        f"/nights/{night.pk}/standings/live",
        f"/nights/results/spring-results/{night.pk}/",
    ):
        page = text(Client().get(url) if "results" in url else alice.get(url))
        assert "(playing)" not in page and "in play" not in page, url
        assert "stopped when the night was finished" in page, url


def test_a_newcomer_after_round_one_is_added_from_the_night_page_for_the_remaining_rounds(alice):
    night = started_night(alice)
    page = text(alice.get(f"/nights/{night.pk}/"))
    assert "A newcomer arrives (plays from round 2)" in page
    response = alice.post(f"/nights/{night.pk}/newcomer", {"name": "Zoe"})
    assert response.status_code == 302
    zoe = Player.objects.get(name="Zoe")
    assert Membership.objects.filter(club=night.club, player=zoe).exists()
    entry = night.players.get(player=zoe)
    assert (entry.from_round, entry.until_round) == (2, None)
    seated = {seat.table.round_no for seat in zoe.night_seats.select_related("table")}
    sits_out = set(night.byes.filter(player=zoe).values_list("round_no", flat=True))
    assert seated | sits_out == {2, 3} and 1 not in seated
    assert "Zoe is on the roster and plays from round 2." in text(alice.get(f"/nights/{night.pk}/"))
    # A name already on the roster is refused next to the field, and nothing changes.
    response = alice.post(f"/nights/{night.pk}/newcomer", {"name": "Anna"})
    assert response.status_code == 400 and 'id="late-newcomer"' in response.content.decode()
    # With every round started there is nothing left to join: refused, nobody added to the roster.
    for round_no in (2, 3):
        assert alice.post(f"/nights/{night.pk}/rounds/{round_no}/start").status_code == 302
    response = alice.post(f"/nights/{night.pk}/newcomer", {"name": "Yan"}, follow=True)
    assert "no round left to join" in text(response)
    assert not Player.objects.filter(name="Yan").exists()


def test_finishing_the_night_ends_a_tables_open_handover_link(alice):
    """A table's phone made a handover link and nobody used it; the organiser finishes the night:
    the link moves nothing any more (the table's phones only follow the game)."""
    night = started_night(alice)
    table = night.tables.order_by("pk").first()
    assert table is not None and table.game is not None
    phone = Client()
    phone.post(f"/nights/t/{table.token}/")  # the table's phone takes the scoring with its link
    page = phone.post(f"/g/{table.game.code}/hand-over/").content.decode()
    link = page[page.index("/take-over/") - len(f"/g/{table.game.code}") :].split('"')[0]
    alice.post(f"/nights/{night.pk}/finish", {"finished": "yes", "confirm": "yes"})
    assert Client().post(link).status_code == 410
