"""The table view on a 360 px phone without JavaScript: the scoreboard alone in big type, with no
site header, menu or language buttons, and a small link back to the game."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from scoring.services.hands import record_hand
from tests.access_helpers import client_with_token
from tests.helpers import check_game
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
