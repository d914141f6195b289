"""A phone passed from one person to the next: after a log-out the service worker no longer opens
the account's pages (its name in the header, a club game with its recovery code), offline or on a
slow network, and logging out with hands still waiting to be sent says so first."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scoring.handover import recovery_code
from scoring.models import Game, Hand
from tests.access_helpers import CLUB, make_game
from tests.browser import fill_hand, saves_answered, server_wrapped, shoot, sign_in_browser

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NS = "N–S (Anna & Cecilia)"
# How long the service worker waits for the network before it answers from its copies, in seconds.
WORKER_NETWORK_WAIT = (
    int(re.findall(r"NETWORK_WAIT_MS = (\d+);", (ROOT / "templates" / "sw.js").read_text())[0]) / 1000
)


def _open_club_game_signed_in(page: Page, base: str, people: dict[str, User], who: str = "bob") -> Game:
    """A scorer of the club opens a game of the club on this phone, and the worker keeps it."""
    game = make_game(club_id=CLUB)
    sign_in_browser(page, base, people[who])
    page.goto(f"{base}/g/{game.code}/")
    expect(page.get_by_test_id("recovery-code")).to_have_text(recovery_code(game))
    page.wait_for_function(
        "navigator.serviceWorker.ready.then(() => caches.match(location.href)).then(r => !!r)", timeout=15_000
    )
    return game


@contextmanager
def _game_pages_slower_than_the_workers_wait(live_server) -> Iterator[None]:
    """While inside, the server takes a second longer over a game page than the worker waits for
    the network. A slow server, not a wait of the test: the worker's wait runs on the browser's own
    clock, inside the worker, and nothing on the page shows when it is over."""

    def slow(app: Any, environ: dict[str, Any], start_response: Any) -> Any:
        if environ["PATH_INFO"].startswith("/g/"):
            time.sleep(WORKER_NETWORK_WAIT + 1)
        return app(environ, start_response)

    with server_wrapped(live_server, slow):
        yield


def _shows_nothing_of_the_account(page: Page, game: Game) -> None:
    html = page.content()
    assert recovery_code(game) not in html
    assert "bob" not in html
    assert 'id="hand-form"' not in html


def test_after_log_out_the_phone_does_not_open_the_accounts_club_game_offline(
    live_server, page: Page, people
):
    game = _open_club_game_signed_in(page, live_server.url, people)
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    with _game_pages_slower_than_the_workers_wait(live_server):
        page.goto(f"{live_server.url}/g/{game.code}/")  # the server's own answer, however long it takes
    expect(page.get_by_label("Recovery code")).to_be_visible()  # the take-over form, empty
    _shows_nothing_of_the_account(page, game)
    page.context.set_offline(True)
    page.goto(f"{live_server.url}/g/{game.code}/")
    expect(page.get_by_role("heading", name="Offline")).to_be_visible()
    _shows_nothing_of_the_account(page, game)
    page.goto(f"{live_server.url}/")
    _shows_nothing_of_the_account(page, game)


def test_another_session_on_the_phone_is_never_served_the_pages_kept_for_the_last(
    live_server, page: Page, people
):
    """Without the log-out button (a session ended on the server, or another account signed in):
    the first answer of the new session makes the worker drop the old one's pages, so a network
    slower than the worker's wait cannot bring them back either."""
    game = _open_club_game_signed_in(page, live_server.url, people)
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/rules/")  # any page: the server answers for no account now
    # The worker drops the game it kept for bob once that answer is in (on a loaded machine the
    # page may first be the kept copy of /rules/, the answer coming after).
    page.wait_for_function(
        "url => caches.match(url).then(r => !r)", arg=f"{live_server.url}/g/{game.code}/", timeout=15_000
    )
    page.context.set_offline(True)
    page.goto(f"{live_server.url}/g/{game.code}/")
    expect(page.get_by_role("heading", name="Offline")).to_be_visible()
    _shows_nothing_of_the_account(page, game)


def test_log_out_with_hands_waiting_to_be_sent_warns_and_offers_to_stay(live_server, page: Page, people):
    game = _open_club_game_signed_in(page, live_server.url, people)
    with saves_answered(live_server, "503 Service Unavailable"):  # the server out of reach
        fill_hand(page, bidder="North (Anna)", bid=21, trump="Hearts", tricks={NS: 15})
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")

        page.get_by_role("button", name="Log out").click()
        warning = page.get_by_role("alertdialog")
        expect(warning).to_contain_text("Hands not yet sent from this phone: 1.")
        expect(warning).to_contain_text("If you log out now they may never be saved.")
        shoot(page, "logout-warning")
        warning.get_by_role("button", name="Stay signed in").click()
        expect(warning).to_have_count(0)
        expect(page.get_by_role("link", name="bob")).to_be_visible()  # still signed in
    # the network is back: the waiting hand is sent
    expect(page.locator(".pending-badge")).to_be_hidden(timeout=30_000)
    assert Hand.objects.filter(game=game).count() == 1
    page.get_by_role("button", name="Log out").click()  # nothing waits now: no question
    expect(page.get_by_role("link", name="Log in")).to_be_visible()


def test_log_out_anyway_logs_out_with_the_hands_still_waiting(live_server, page: Page, people):
    _open_club_game_signed_in(page, live_server.url, people)
    with saves_answered(live_server, "503 Service Unavailable"):
        fill_hand(page, bidder="North (Anna)", bid=21, trump="Hearts", tricks={NS: 15})
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")
        page.get_by_role("button", name="Log out").click()
        page.get_by_role("alertdialog").get_by_role("button", name="Log out anyway").click()
        expect(page.get_by_role("link", name="Log in")).to_be_visible()


def test_a_copy_of_the_accounts_page_fetched_before_log_out_and_answered_after_it_is_not_kept(
    live_server, page: Page, people
):
    """The page asks the worker to keep a fresh copy of itself; when that answer is slow and comes
    after the log-out, it was drawn for the account that left: the worker must not keep it, nor
    take it as the phone's session again."""
    game = _open_club_game_signed_in(page, live_server.url, people)

    logged_out, sent = threading.Event(), threading.Event()

    def held_until_logged_out(answer: list[bytes]) -> Iterator[bytes]:
        logged_out.wait(timeout=30)
        yield from answer
        sent.set()

    def drawn_then_slow(app: Any, environ: dict[str, Any], start_response: Any) -> Any:
        answer = list(app(environ, start_response))  # drawn now, for the account still signed in
        if environ["PATH_INFO"] != f"/g/{game.code}/" or logged_out.is_set():
            return answer
        return held_until_logged_out(answer)  # and sent after the log-out

    with server_wrapped(live_server, drawn_then_slow):
        # The active worker, as the page itself asks it (this first page may not be controlled yet).
        page.evaluate(
            "navigator.serviceWorker.ready"
            ".then(r => r.active.postMessage({type: 'refresh', url: location.href}))"
        )
        page.get_by_role("button", name="Log out").click()
        expect(page.get_by_role("link", name="Log in")).to_be_visible()
        logged_out.set()
        assert sent.wait(timeout=30)  # the slow copy has gone back to the worker
    page.context.set_offline(True)
    page.goto(f"{live_server.url}/g/{game.code}/")
    expect(page.get_by_role("heading", name="Offline")).to_be_visible()
    _shows_nothing_of_the_account(page, game)
