"""A phone following a game polls its scoreboard every few seconds; while nothing changed the
server answers 304 (the game's version is the ETag) and the page keeps the scoreboard it shows."""

import pytest
from playwright.sync_api import expect

from scoring.services.hands import record_hand
from tests.helpers import quick_hand, standard_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_unchanged_scoreboard_answered_304_stays_on_the_page_and_a_new_hand_still_shows(
    live_server, browser, browser_context_args
):
    game = standard_game()
    page = browser.new_context(**browser_context_args).new_page()
    page.goto(f"{live_server.url}/s/{game.share_code}/")
    expect(page.get_by_test_id("total-NS")).to_have_text("0")
    # The poll asks with the ETag of the board it shows, as a browser that kept it does.
    etag = page.evaluate("fetch(location.pathname + 'live').then((r) => r.headers.get('ETag'))")
    assert etag
    page.evaluate(
        "(etag) => document.getElementById('scoreboard')"
        ".setAttribute('hx-headers', JSON.stringify({'If-None-Match': etag}))",
        etag,
    )
    page.evaluate(
        "window.polls = 0;document.body.addEventListener('htmx:afterRequest', () => { window.polls += 1; })"
    )
    with page.expect_response(lambda r: "/live" in r.url and r.status == 304, timeout=15_000):
        pass
    page.wait_for_function("window.polls > 0")
    expect(page.locator("#scoreboard")).to_have_count(1)
    expect(page.get_by_test_id("total-NS")).to_have_text("0")
    expect(page.get_by_test_id("total-EW")).to_have_text("0")

    record_hand(game=game, number=1, data=quick_hand())
    expect(page.get_by_test_id("total-NS")).to_have_text("25", timeout=10_000)
    page.context.close()
