"""A tap on Save counts even when the live preview above the button answers while the finger is
down: the preview waits until the tap is over, so the button does not move from under the finger
and the lift lands on it (swapped in at once, the preview pushed the button a few lines down, the
lift landed beside it and the tap did nothing). The preview that waited goes in after the tap."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from scoring.models import Game
from tests.browser import fill_hand, server_wrapped, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
NS = "N–S (Anna & Cecilia)"
HELP = "What the hand does shows here"


@contextmanager
def previews_held(live_server: Any) -> Iterator[threading.Event]:
    """While inside, the server answers no preview until the event is set."""
    gate = threading.Event()

    def waiting(app: Any, environ: dict[str, Any], start_response: Any) -> Any:
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/preview"):
            gate.wait(30)
        return app(environ, start_response)

    with server_wrapped(live_server, waiting):
        try:
            yield gate
        finally:
            gate.set()


def press_while_the_preview_answers(page: Page, gate: threading.Event, where: Locator) -> None:
    """A finger goes down on `where`, the preview answers, the page has handled the answer; the
    finger is still down."""
    page.evaluate(
        "window.previewed = false; document.body.addEventListener('htmx:afterRequest', (event) => {"
        " if (event.detail.successful && event.detail.pathInfo.requestPath.endsWith('/preview'))"
        " window.previewed = true; })"
    )
    where.scroll_into_view_if_needed()
    box = where.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    gate.set()
    page.wait_for_function("() => window.previewed === true")
    # Nothing moved under the finger: the preview still shows its help line.
    expect(page.locator("#preview")).to_contain_text(HELP)
    assert where.bounding_box() == box


def test_a_save_tapped_while_the_preview_answers_is_not_lost(live_server, page: Page):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    code = re.search(r"/g/([^/]+)/", page.url)
    assert code
    game = Game.objects.get(code=code.group(1))
    with previews_held(live_server) as gate:
        # The whole hand goes in while no preview answers: the help line stays above the button.
        fill_hand(page, bidder="North (Anna)", bid=21, quick={"North (Anna)": 20}, tricks={NS: 15})
        expect(page.locator("#preview")).to_contain_text(HELP)
        press_while_the_preview_answers(page, gate, page.get_by_role("button", name="Save hand 1"))
        page.mouse.up()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    assert game.hands.count() == 1
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_attached()


def test_the_preview_that_waited_for_a_finger_goes_in_when_it_lifts(live_server, page: Page):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    with previews_held(live_server) as gate:
        fill_hand(page, bidder="North (Anna)", bid=21, quick={"North (Anna)": 20}, tricks={NS: 15})
        press_while_the_preview_answers(page, gate, page.locator(".deal-line"))
        page.mouse.up()
    expect(page.locator("#preview")).to_contain_text("N–S make 21")
