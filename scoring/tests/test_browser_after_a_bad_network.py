"""What the scoring phone shows after a bad network leaves a doubt: the outcome of every save at the
top of the screen, the game-ending save's "Hand N saved · Undo" however the poll races it, Undo
putting the hand back on the form, and Back → Start opening the game already made."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game
from tests.browser import fill_hand, server_wrapped, shoot, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
NS = "N–S (Anna & Cecilia)"


def _game(page: Page) -> Game:
    code = re.search(r"/g/([^/]+)/", page.url)
    assert code
    return Game.objects.get(code=code.group(1))


def _latency(page: Page, milliseconds: int) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": milliseconds, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def _hand(page: Page, *, bid: int = 24, tricks: int = 15) -> None:
    fill_hand(
        page,
        bidder="South (Cecilia)",
        bid=bid,
        trump="Hearts",
        quick={"North (Anna)": 20, "East (Bo)": 10},
        tricks={NS: tricks},
    )


def _top_of_viewport(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate("el => el.getBoundingClientRect().top"))


@pytest.mark.parametrize("attempt", range(4))
def test_the_game_ending_save_always_says_saved_with_undo(live_server, page: Page, attempt: int):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES, target=30)
    _latency(page, 300)

    # The save's answer is held back on the server until the scoreboard's poll has seen the game end.
    def slow_saves(app: Any, environ: dict[str, Any], start_response: Any) -> Any:
        answer = app(environ, start_response)
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/hands"):
            time.sleep(1.0 + attempt)
        return answer

    with server_wrapped(live_server, slow_saves):
        _hand(page)
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.get_by_role("heading", name="Game over")).to_be_visible()
        saved = page.get_by_role("status").filter(has_text="Hand 1 saved.")
        expect(saved).to_be_visible()
        expect(saved.get_by_role("button", name="Undo")).to_be_visible()
    expect(page.locator("#hand-form")).to_have_count(0)
    if attempt == 0:
        shoot(page, "game-ending-save-says-saved")
