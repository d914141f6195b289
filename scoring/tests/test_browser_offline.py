"""The phone at the table on a bad network: every tap on the bid stepper counts, a
half-entered hand survives a reload, a Save without a network waits on the phone and is sent once
when the network is back, and a Save whose answer is lost says so and is retried, never twice saved."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from scoring.models import Game, Hand
from tests.browser import (
    entry,
    fill_hand,
    fill_hand_in_any_language,
    saves_answered,
    server_wrapped,
    shoot,
    speak,
    start_game,
    words,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
NS, EW = "N–S (Anna & Cecilia)", "E–W (Bo & David)"


def _game(page: Page) -> Game:
    code = re.search(r"/g/([^/]+)/", page.url)
    assert code
    return Game.objects.get(code=code.group(1))


def _bids(game: Game) -> list[int]:
    return [hand.data["bid"] for hand in Hand.objects.filter(game=game).order_by("number")]


def _latency(page: Page, milliseconds: int) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": milliseconds, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def _rest_of_hand(page: Page) -> None:
    fill_hand(page, trump="Hearts", quick={"North (Anna)": 20, "East (Bo)": 10}, tricks={NS: 15})


def _wait_until_kept_offline(page: Page) -> None:
    """The service worker runs and holds a copy of this page (what a phone has after one visit)."""
    page.wait_for_function(
        "navigator.serviceWorker.ready.then(() => caches.match(location.href)).then(r => !!r)", timeout=15_000
    )


def test_every_tap_on_the_bid_stepper_counts_however_slow_the_network(live_server, page: Page):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(page)
    expected = []
    for number, (latency, taps) in enumerate([(0, 4), (300, 5), (800, 7)], start=1):
        _latency(page, latency)
        fill_hand(page, bidder="North (Anna)")
        plus = page.get_by_role("button", name="Raise bid")
        bid = page.get_by_role("spinbutton", name="Bid")
        # The first tap on an empty bid gives the minimum (20), each further tap one more.
        for tap in range(taps):
            plus.click()
            expect(bid).to_have_value(str(20 + tap))
        expected.append(20 + taps - 1)
        page.get_by_role("button", name="Lower bid").click()
        page.get_by_role("button", name="Raise bid").click()
        _rest_of_hand(page)
        page.get_by_role("button", name=f"Save hand {number}").click()
        expect(page.get_by_role("status").filter(has_text=f"Hand {number} saved.")).to_be_visible(
            timeout=20_000
        )
    assert _bids(game) == expected == [23, 24, 26]


def test_the_double_deck_stepper_follows_the_rule_books_steps(live_server, page: Page):
    page.goto(live_server.url + "/games/new")
    page.get_by_role("group", name="Deck").get_by_text("Double", exact=False).first.click()
    for seat, name in NAMES.items():
        page.get_by_role("textbox", name=seat).fill(name)
    page.get_by_role("button", name="Start the game").click()
    bid = page.get_by_role("spinbutton", name="Bid")
    seen = []
    for _ in range(14):
        page.get_by_role("button", name="Raise bid").click()
        seen.append(int(bid.input_value()))
    assert seen == [50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 65, 70, 75]
    for _ in range(4):
        page.get_by_role("button", name="Lower bid").click()
    expect(bid).to_have_value("59")


def test_the_stepper_follows_the_tens_above_100_the_game_chose(live_server, page: Page):
    """Tens above 100 (a house rule of the new-game page): from 95 "+" goes 100, then 110, 120
    (not 105); "−" comes back 110, 100."""
    page.goto(live_server.url + "/games/new")
    page.get_by_role("group", name="Deck").get_by_text("Double", exact=False).first.click()
    page.get_by_role("group", name="Bid steps").get_by_text("Tens above 100").click()
    for seat, name in NAMES.items():
        page.get_by_role("textbox", name=seat).fill(name)
    page.get_by_role("button", name="Start the game").click()
    bid = page.get_by_role("spinbutton", name="Bid")
    bid.fill("95")
    seen = []
    for _ in range(3):
        page.get_by_role("button", name="Raise bid").click()
        seen.append(int(bid.input_value()))
    assert seen == [100, 110, 120]
    page.get_by_role("button", name="Lower bid").click()
    page.get_by_role("button", name="Lower bid").click()
    expect(bid).to_have_value("100")
    expect(page.get_by_text("above 100 in steps of 10")).to_be_visible()


def test_a_reload_in_the_middle_of_a_hand_brings_the_draft_back_until_it_is_discarded(
    live_server, page: Page
):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    fill_hand(
        page,
        bidder="East (Bo)",
        bid=27,
        trump="Spades",
        quick={"North (Anna)": 10, "East (Bo)": 30},
        tricks={EW: 12},
    )
    page.reload()
    expect(page.get_by_text("Draft restored")).to_be_visible()
    expect(page.get_by_role("spinbutton", name="Bid")).to_have_value("27")
    expect(page.get_by_role("radio", name="East (Bo)")).to_be_checked()
    expect(page.get_by_role("radio", name="Spades")).to_be_checked()
    expect(page.locator("#preview")).to_contain_text("E–W")
    shoot(page, "draft-restored")
    page.get_by_role("button", name="Discard").click()
    expect(page.get_by_role("spinbutton", name="Bid")).to_have_value("")
    page.reload()
    expect(page.get_by_text("Draft restored")).to_have_count(0)
    expect(page.get_by_role("radio", name="East (Bo)")).not_to_be_checked()


def test_a_hand_saved_offline_waits_on_the_phone_and_is_sent_once_when_the_network_is_back(
    live_server, page: Page
):
    page.clock.install()  # the page's retry timer runs forward on demand, not by waiting
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(page)
    _wait_until_kept_offline(page)
    with saves_answered(live_server, "503 Service Unavailable"):  # as if out of reach
        page.context.route("**/hands", lambda route: route.abort("internetdisconnected"))
        page.context.set_offline(True)
        expect(page.locator(".net-state")).to_contain_text("Offline")
        fill_hand(page, bidder="North (Anna)", bid=21)
        _rest_of_hand(page)
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator(".save-state")).to_contain_text("hand 1 is kept on this phone")
        expect(page.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")
        shoot(page, "offline-queued")
        # The phone may be reloaded with no network: the game opens from the phone, the hand still waits.
        page.reload()
        expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()
        expect(page.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")
        page.clock.run_for(30_000)  # the retry timer ticks on while offline: still waiting, nothing stored
        expect(page.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")
        assert Hand.objects.filter(game=game).count() == 0
        page.context.unroute("**/hands")
    page.context.set_offline(False)
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible(timeout=20_000)
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    expect(page.locator(".pending-badge")).to_be_hidden()
    expect(page.locator(".net-state")).to_contain_text("Online")
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    page.clock.run_for(60_000)  # a minute of the retry timer's ticks: nothing more is sent
    assert posts == []
    assert _bids(game) == [21]


# A route does not see a request from a page the service worker controls; this test needs no worker.
@pytest.mark.browser_context_args(service_workers="block")
def test_a_save_whose_answer_is_lost_says_not_confirmed_and_retries_with_the_same_id(live_server, page: Page):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(page)
    answers = {"dropped": 0, "posts": 0}

    def drop_the_first_answer(route: Route) -> None:
        answers["posts"] += 1
        if answers["dropped"] == 0:
            route.fetch()  # the server saves the hand...
            answers["dropped"] += 1
            route.abort()  # ...and its answer never reaches the phone
        else:
            route.continue_()

    page.route("**/hands", drop_the_first_answer)
    fill_hand(page, bidder="South (Cecilia)", bid=24)
    _rest_of_hand(page)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".save-state")).to_contain_text("Hand 1 not confirmed — retrying.")
    assert Hand.objects.filter(game=game).count() == 1
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible(timeout=20_000)
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    assert answers["posts"] == 2, "one lost answer, one retry"
    assert _bids(game) == [24]
    submission_ids = set(Hand.objects.filter(game=game).values_list("submission_id", flat=True))
    assert len(submission_ids) == 1


def test_the_app_can_be_installed_and_its_worker_looks_after_the_whole_site(live_server, page: Page):
    page.goto(live_server.url + "/")
    manifest = page.locator("link[rel=manifest]").get_attribute("href")
    assert manifest
    data = page.request.get(live_server.url + manifest).json()
    assert data["start_url"] == "/" and data["display"] == "standalone"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in data["icons"]}
    worker = page.request.get(live_server.url + "/sw.js")
    assert worker.ok and worker.headers["service-worker-allowed"] == "/"
    # Waited for with a timeout: `ready` never settles when a registration fails, and evaluate()
    # would wait for it forever (a hung suite, not a failed test).
    ready = page.wait_for_function("navigator.serviceWorker.ready.then(r => r.scope)", timeout=15_000)
    scope = ready.json_value()
    assert scope == live_server.url + "/"


def test_a_hand_saved_offline_then_reloaded_and_its_answer_lost_is_still_saved_once(live_server, page: Page):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(page)
    posts: list[str] = []

    def drop_the_first_answer(route: Route) -> None:
        posts.append(route.request.url)
        if len(posts) == 1:
            route.fetch()
            route.abort()
        else:
            route.continue_()

    page.context.route("**/hands", drop_the_first_answer)  # the context's routes see the worker's requests
    _wait_until_kept_offline(page)
    page.context.set_offline(True)
    fill_hand(page, bidder="West (David)", bid=22)
    _rest_of_hand(page)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")
    page.reload()
    expect(page.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")
    page.context.set_offline(False)
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible(timeout=30_000)
    expect(page.locator(".pending-badge")).to_be_hidden()
    assert _bids(game) == [22]


def test_a_save_the_server_refuses_stays_on_the_phone_until_the_player_discards_it(live_server, page: Page):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    with saves_answered(live_server, "403 Forbidden"):
        fill_hand(page, bidder="North (Anna)", bid=20)
        _rest_of_hand(page)
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator(".save-state")).to_contain_text("Hand 1 was not accepted by the server.")
        expect(page.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")
        page.reload()
        expect(page.locator(".save-state")).to_contain_text("Hand 1 was not accepted by the server.")
        expect(page.get_by_role("spinbutton", name="Bid")).to_have_value("20")  # the draft
    page.locator(".save-state").get_by_role("button", name="Discard").click()
    expect(page.locator(".pending-badge")).to_be_hidden()
    expect(page.locator(".save-state")).to_have_count(0)
    assert Hand.objects.count() == 0


NO_PREVIEW = (
    "No preview without the network: the points are worked out when the hand is saved. "
    "Save keeps the hand on this phone until the network is back."
)


@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_preview_says_it_is_not_up_to_date_while_the_network_is_gone(
    live_server, page: Page, language: str
):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    speak(page, language)
    fill_hand_in_any_language(page, bid=24, tricks=None)
    form = entry(page)
    preview = page.locator("#preview")
    not_ready = words(language, "Not ready to save:")
    expect(preview).to_contain_text(not_ready)  # only the trick points are missing
    page.context.set_offline(True)
    form.locator("input[name=tricks_NS]").fill("15")
    expect(preview).to_contain_text(words(language, NO_PREVIEW))
    expect(preview).not_to_contain_text(not_ready)
    shoot(page, f"preview-offline-{language}", element=preview)
    # Back online the preview is asked again, and follows each change as before.
    page.context.set_offline(False)
    lines = preview.locator(".preview-lines li")
    expect(lines.first).to_be_visible()
    expect(preview).not_to_contain_text(words(language, NO_PREVIEW))
    first = preview.inner_text()
    form.locator("input[name=tricks_NS]").fill("25")
    expect(preview).not_to_have_text(first)
    expect(lines.first).to_be_visible()


def test_a_preview_the_server_fails_to_answer_says_so_and_the_next_change_asks_again(live_server, page: Page):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    fill_hand_in_any_language(page, bid=24, tricks=None)
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Not ready to save:")

    def failing(app: Any, environ: dict[str, Any], start_response: Any) -> Any:
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/preview"):
            start_response("502 Bad Gateway", [("Content-Type", "text/plain")])
            return [b""]
        return app(environ, start_response)

    with server_wrapped(live_server, failing):
        entry(page).locator("input[name=tricks_NS]").fill("15")
        expect(preview).to_contain_text(NO_PREVIEW)
        expect(preview).not_to_contain_text("Not ready to save:")
    entry(page).locator("input[name=tricks_NS]").fill("25")
    expect(preview.locator(".preview-lines li").first).to_be_visible()
    expect(preview).not_to_contain_text(NO_PREVIEW)
