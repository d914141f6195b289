"""The board on the wall at 1280x720 (a TV in a church hall): a 40-player night's standings, the
tables still playing and the next round's seats, one screen at a time, cycling by itself and
updating after a table saves a hand. The page's timers run forward on demand (Playwright's clock),
never by waiting."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from clubs.models import Club, Membership, Player
from nights.models import Night
from nights.tests.test_views_board import night_of
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.browser import shoot, sign_in_browser
from tests.helpers import quick_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = ["Anna", "Birgitta", "Karl", "Margareta", "Lars", "Eva", "Jan", "Ingrid", "Per", "Kerstin"]
LAST = ["Lindqvist", "Novák", "Andersson", "Svobodová", "Berg"]
NAMES = [f"{first} {last}" for last in LAST for first in FIRST][:40]


def fits_the_screen(page: Page) -> None:
    """Nothing to scroll: the page is no taller and no wider than the screen."""
    size = page.evaluate("() => [document.documentElement.scrollWidth, document.body.scrollHeight]")
    assert size[0] <= 1280 and size[1] <= 720, size


def current(page: Page) -> str:
    return page.locator(".board-slide.board-current h2").inner_text()


def test_the_board_cycles_its_pages_and_shows_a_saved_hand(live_server, browser, people):
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    night: Night = night_of(club, NAMES)
    games = [table.game for table in night.tables.filter(round_no=1).order_by("table_no")]
    for number, game in enumerate(games[:8], start=1):  # most tables have played a hand or two
        assert game is not None
        record_hand(game=game, number=1, data=quick_hand(ns_tricks=5 + number % 4 * 5, ns_meld=number * 4))
        if number % 2:
            record_hand(game=game, number=2, data=quick_hand(bidder="E", ns_tricks=10))

    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    sign_in_browser(page, live_server.url, User.objects.get(username="alice"))
    page.clock.install()
    page.goto(f"{live_server.url}/nights/{night.pk}/board/")
    expect(page.get_by_role("heading", name="Standings 1/4")).to_be_visible()
    expect(page.get_by_text("Round 1 of 3")).to_be_visible()
    shoot(page, "night-board-en-1280")  # docs/screenshots/night-board.png is one of these

    # Every 15 seconds the next screen: 4 of standings, 3 of tables playing, 3 of round 2's seats.
    seen = []
    for _ in range(10):
        expect(page.locator(".board-slide.board-current")).to_have_count(1)
        fits_the_screen(page)
        seen.append(current(page))
        page.clock.run_for(15_000)
    assert seen == [
        "Standings 1/4", "Standings 2/4", "Standings 3/4", "Standings 4/4",
        "Still playing 1/3", "Still playing 2/3", "Still playing 3/3",
        "Round 2: where to sit 1/3", "Round 2: where to sit 2/3", "Round 2: where to sit 3/3",
    ]  # fmt: skip
    assert current(page) == "Standings 1/4"  # and round again
    for _ in range(4):
        page.clock.run_for(15_000)
    shoot(page, "night-board-playing-en-1280")
    for _ in range(3):
        page.clock.run_for(15_000)
    shoot(page, "night-board-plan-en-1280")
    for _ in range(7):
        page.clock.run_for(15_000)
    table_one = page.locator(".board-slide.board-current .board-card").filter(has_text="Table 1 ")
    expect(table_one).to_contain_text("2 hands")

    # A table saves a hand: within one poll (5 seconds) the screen shows it, on the same page.
    assert games[0] is not None
    record_hand(game=games[0], number=3, data=quick_hand(ns_tricks=20))
    page.clock.run_for(5_000)
    expect(table_one).to_contain_text("3 hands")
    assert current(page) == "Still playing 1/3"
    page.context.close()


def test_without_javascript_the_board_stacks_every_screen(live_server, browser, people):
    club = Club.objects.get(pk=CLUB)
    for name in NAMES[:8]:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    night = night_of(club, NAMES[:8])
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 720})
    page = context.new_page()
    sign_in_browser(page, live_server.url, User.objects.get(username="alice"))
    page.goto(f"{live_server.url}/nights/{night.pk}/board/")
    for heading in ("Standings", "Still playing", "Round 2: where to sit"):
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
    context.close()
