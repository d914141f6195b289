"""The table view on a 360 px phone without JavaScript: the scoreboard alone in big type, with no
site header, menu or language buttons, and a small link back to the game."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from scoring.services.hands import record_hand
from tests.access_helpers import client_with_token
from tests.helpers import check_game, standard_game
from tests.readable_helpers import scrolls_sideways

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "sv", "cs"])
def test_the_table_view_is_the_scoreboard_alone_with_a_link_back_to_the_game(
    live_server, browser: Browser, browser_context_args: dict[str, Any], language: str
):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    phone = client_with_token(game)  # the scoring phone's right, carried over to the browser
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 360, "height": 740}}, java_script_enabled=False
    )
    context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
        + [
            {"name": name, "value": morsel.value, "url": live_server.url}
            for name, morsel in phone.cookies.items()
        ]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/g/{game.code}/table/")
    assert page.locator("html").get_attribute("lang") == language
    expect(page.locator(".table-board")).to_be_visible()
    expect(page.get_by_test_id("table-total-NS")).to_have_text("0")
    # Nothing but the board: no site header, menu, account or language buttons.
    expect(page.locator(".site-header")).to_have_count(0)
    expect(page.get_by_role("navigation")).to_have_count(0)
    expect(page.locator(".language-switcher")).to_have_count(0)
    back = page.locator(".table-view-back")
    box = back.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44 and box["x"] + box["width"] <= 360
    assert not scrolls_sideways(page)
    back.click()
    expect(page).to_have_url(f"{live_server.url}/g/{game.code}/")
    expect(page.locator(".site-header")).to_be_visible()  # the game page has its header back
    context.close()


#: The bottom edge of the lowest line of every side (its points to go, or its chips) and of the deal
#: line, against the screen's height.
SIDES_BOTTOM = """() => Math.round(Math.max(
  ...Array.from(document.querySelectorAll('.table-deal, .table-side > p:last-child'))
    .map(el => el.getBoundingClientRect().bottom)))"""


@pytest.mark.parametrize("seats", [4, 3])
def test_a_phone_lying_sideways_in_the_middle_of_the_table_shows_every_side_whole_without_scrolling(
    live_server, browser: Browser, browser_context_args: dict[str, Any], seats: int
):
    """A phone or a small tablet stood on its side in the middle of the table (landscape, 740 x 360
    to 1024 x 600): the deal and every side's name, points, points to go and chips are on the first
    screen, the sides side by side, in every language, with and without Large text."""
    game = check_game() if seats == 4 else standard_game(seats=3)
    if seats == 4:
        record_hand(game=game, number=1, data={"passed": True})  # with chips: every line drawn
    phone = client_with_token(game)
    for width, height in ((740, 360), (844, 390), (1024, 600)):
        for language in ("en", "sv", "cs"):
            for display in ("", "large"):
                context = browser.new_context(
                    **{**browser_context_args, "viewport": {"width": width, "height": height}}
                )
                context.add_cookies(
                    [
                        {"name": "django_language", "value": language, "url": live_server.url},
                        {"name": "display", "value": display, "url": live_server.url},
                    ]
                    + [
                        {"name": name, "value": morsel.value, "url": live_server.url}
                        for name, morsel in phone.cookies.items()
                    ]
                )
                page = context.new_page()
                page.goto(f"{live_server.url}/g/{game.code}/table/")
                where = (seats, width, height, language, display)
                expect(page.locator(".table-side")).to_have_count(2 if seats == 4 else 3)
                tops = {
                    round(box["y"])
                    for box in (s.bounding_box() for s in page.locator(".table-side").all())
                    if box
                }
                assert len(tops) == 1, where  # side by side
                assert page.evaluate(SIDES_BOTTOM) <= height, where
                assert not scrolls_sideways(page), where
                context.close()
