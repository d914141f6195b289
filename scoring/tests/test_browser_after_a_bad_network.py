"""What the scoring phone shows after a bad network leaves a doubt: the outcome of every save at the
top of the screen, the game-ending save's "Hand N saved · Undo" however the poll races it, Undo
putting the hand back on the form, and Back → Start opening the game already made."""

from __future__ import annotations

import re
import threading
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, Request, Route, expect

from scoring.models import Game, Hand
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


def _hand_1_answer_lost(page: Page, base: str) -> Game:
    """A new game whose hand 1 (bid 24) the server saved but whose answer never reached the phone,
    which says "Hand 1 not confirmed"; every later save is answered."""
    start_game(page, base, seats="4 (two partnerships)", names=NAMES)
    game = _game(page)
    lost = {"answers": 0}

    def lose_the_first_answer(route: Route) -> None:
        if lost["answers"] == 0:
            lost["answers"] += 1
            route.fetch()  # the server saves the hand...
            route.abort()  # ...and its answer never reaches the phone
        else:
            route.continue_()

    page.route("**/hands", lose_the_first_answer)
    _hand(page, bid=24)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".save-state")).to_contain_text("Hand 1 not confirmed")
    return game


def _top_of_viewport(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate("el => el.getBoundingClientRect().top"))


@pytest.mark.parametrize("released", ["with-the-polls-answer", "once-the-page-shows-the-end"])
def test_the_game_ending_save_always_says_saved_with_undo(live_server, page: Page, released: str):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES, target=30)
    _latency(page, 300)
    release = threading.Event()
    held: list[bool] = []  # per save held back: whether it was let go (not timed out)

    # The save's answer is held back on the server until the scoreboard's poll has seen the game end:
    # let go as that poll answers (the two answers race to the phone), or once the page shows the end.
    def held_saves(app: Any, environ: dict[str, Any], start_response: Any) -> Any:
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        if method == "POST" and path.endswith("/hands"):
            answer = app(environ, start_response)
            held.append(release.wait(30))
            return answer
        if method == "GET" and path.endswith("/live"):
            statuses: list[str] = []

            def noted(status: str, headers: Any, exc_info: Any = None) -> Any:
                statuses.append(status)
                return start_response(status, headers, exc_info)

            answer = app(environ, noted)
            if statuses[0].startswith("286") and released == "with-the-polls-answer":  # the game is over
                release.set()
            return answer
        return app(environ, start_response)

    with server_wrapped(live_server, held_saves):
        _hand(page)
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.get_by_role("heading", name="Game over")).to_be_visible()
        release.set()
        saved = page.get_by_role("status").filter(has_text="Hand 1 saved.")
        expect(saved).to_be_visible()
        expect(saved.get_by_role("button", name="Undo")).to_be_visible()
    assert held == [True]
    expect(page.locator("#hand-form")).to_have_count(0)
    if released == "with-the-polls-answer":
        shoot(page, "game-ending-save-says-saved")


# A route does not see a request from a page the service worker controls; this test needs no worker.
@pytest.mark.browser_context_args(service_workers="block")
def test_after_a_lost_answer_and_a_changed_entry_the_question_is_on_screen_and_nothing_else_saves(
    live_server, page: Page
):
    game = _hand_1_answer_lost(page, live_server.url)
    page.locator("#hand-form").get_by_role("spinbutton", name="Bid").fill("26")  # a typo seen: fixed
    page.get_by_role("button", name="Save hand 1").click()

    question = page.get_by_role("alert").filter(has_text="apply your values as a correction")
    expect(question).to_be_visible()
    expect(question).to_be_in_viewport()
    assert -1 <= _top_of_viewport(page, "#game > .message.error") < 100
    shoot(page, "after-a-lost-answer-the-question-on-top")
    # While the question is open the entry form cannot save: no second hand by one more tap.
    save_2 = page.get_by_role("button", name="Save hand 2")
    expect(save_2).to_be_disabled()
    saves: list[str] = []  # the save URL's POSTs from here on (a correction posts to hands/<n>/)

    def count_saves(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/hands"):
            saves.append(request.url)

    page.on("request", count_saves)
    page.locator("#hand-form").get_by_role("spinbutton", name="Bid").press("Enter")

    # The correction's answer on screen comes after any request the Enter key sent before it.
    page.get_by_role("button", name="Apply my values as a correction of hand 1").click()
    expect(page.get_by_text("Hand 1 corrected.")).to_be_visible()
    assert saves == []
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game)] == [26]


@pytest.mark.browser_context_args(service_workers="block")
def test_the_question_closed_gives_the_entry_form_its_save_back(live_server, page: Page):
    game = _hand_1_answer_lost(page, live_server.url)
    page.locator("#hand-form").get_by_role("spinbutton", name="Bid").fill("30")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("button", name="Save hand 2")).to_be_disabled()
    # It was a new hand after all: the question closed, the entry form saves it as hand 2.
    page.get_by_role("button", name="Neither: close this and go on entering").click()
    expect(page.locator(".correction-offer")).to_have_count(0)
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.get_by_role("status").filter(has_text="Hand 2 saved.")).to_be_visible()
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game).order_by("number")] == [24, 30]


def test_undo_puts_the_hand_back_on_the_form_so_a_typo_is_fixed_in_one_field(live_server, page: Page):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(page)
    _hand(page, bid=42)  # meant 24
    page.get_by_role("button", name="Save hand 1").click()
    page.get_by_role("status").filter(has_text="Hand 1 saved.").get_by_role("button", name="Undo").click()
    expect(page.get_by_text("Hand 1 undone: its values are back on the form below.")).to_be_visible()
    form = page.locator("#hand-form")
    expect(form.get_by_role("spinbutton", name="Bid")).to_have_value("42")
    expect(
        form.get_by_role("group", name="Bidder").get_by_role("radio", name=re.compile("South"))
    ).to_be_checked()
    expect(
        form.get_by_role("group", name="Trump").get_by_role("radio", name=re.compile("Hearts"))
    ).to_be_checked()
    expect(
        form.locator(".meld-quick").get_by_role("spinbutton", name="North (Anna)", exact=True)
    ).to_have_value("20")
    shoot(page, "undo-puts-the-hand-back")
    form.get_by_role("spinbutton", name="Bid").fill("24")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    hands = list(Hand.objects.filter(game=game))
    assert [(hand.number, hand.data["bid"], hand.data["tricks"]) for hand in hands] == [
        (1, 24, {"NS": 15, "EW": 10})
    ]


def test_back_after_start_then_start_again_opens_the_game_already_made(live_server, page: Page):
    page.goto(live_server.url + "/")
    # The service worker looks after the site (as on a phone that has opened it before).
    page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)", timeout=15_000)
    page.reload()
    page.wait_for_function("!!navigator.serviceWorker.controller", timeout=15_000)
    page.get_by_role("main").get_by_role("link", name="New game").click()
    for seat, name in NAMES.items():
        page.get_by_role("textbox", name=seat).fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    first = page.url
    page.go_back()
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    for seat, name in NAMES.items():  # what a person does if the form came back empty
        field = page.get_by_role("textbox", name=seat)
        if not field.input_value():
            field.fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    expect(page.get_by_text("This game was already started; here it is.")).to_be_visible()
    assert page.url == first
    assert Game.objects.count() == 1


def test_the_games_list_says_who_plays_when_and_with_which_deck(live_server, page: Page):
    page.goto(live_server.url + "/games/new")
    page.get_by_role("group", name="Deck").get_by_text("Double", exact=False).first.click()
    for seat, name in NAMES.items():
        page.get_by_role("textbox", name=seat).fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    page.goto(live_server.url + "/games/new")
    page.get_by_role("button", name="Start the game").click()  # nobody typed a name
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    page.goto(live_server.url + "/")
    rows = page.locator(".game-row")
    expect(rows).to_have_count(2)
    named = rows.filter(has_text="Anna")
    expect(named).to_contain_text("Standard · Double deck · 4 players")
    expect(named).to_contain_text("N Anna · E Bo · S Cecilia · W David")
    expect(named).to_contain_text(re.compile(r"Started \d+ \w+ \d{4}, \d\d:\d\d"))
    expect(rows.filter(has_text="North · East · South · West")).to_contain_text("Single deck")
    shoot(page, "games-list-rows")


def test_a_phone_taken_over_says_so_and_offers_its_unsent_hand_to_copy(
    live_server, browser, browser_context_args
):
    old = browser.new_context(**browser_context_args, timezone_id="Europe/Stockholm").new_page()
    start_game(old, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(old)
    share_url = old.locator("a.share-link").get_attribute("href")
    code = old.get_by_test_id("recovery-code").inner_text()
    # Half a hand on the old phone, then another phone takes the scoring over with the code.
    fill_hand(old, bidder="South (Cecilia)", bid=27, trump="Hearts")
    new = browser.new_context(**browser_context_args).new_page()
    assert share_url
    new.goto(share_url)
    new.locator("summary", has_text="Take over scoring").click()
    new.get_by_label("Recovery code").fill(code)
    new.get_by_role("button", name="Take over scoring").click()
    expect(new.get_by_role("heading", name="Enter hand 1")).to_be_visible()

    moved = game.device_rights.get(active=True).granted_at.astimezone(ZoneInfo("Europe/Stockholm"))
    notice = old.locator(".moved-notice")
    expect(notice).to_be_visible(timeout=20_000)  # the old phone's next poll
    expect(notice).to_contain_text(f"Scoring moved to another phone at {moved:%H:%M}.")
    # The half-entered hand (the form's draft) is offered, with Copy and Discard.
    expect(old.locator(".unsent-hand")).to_contain_text("Not saved on this phone: hand 1")
    expect(old.get_by_role("button", name="Discard")).to_be_visible()
    unsent = old.locator(".unsent-hand .unsent-text")
    expect(unsent).to_contain_text("Bidder: South (Cecilia)")
    expect(unsent).to_contain_text("Bid: 27")
    expect(unsent).to_contain_text("Trump: ♥ Hearts")
    expect(old.get_by_role("button", name="Copy")).to_be_visible()
    expect(old.locator("#hand-form")).to_have_count(0)
    shoot(old, "taken-over-phone-says-so")
    assert Hand.objects.filter(game=game).count() == 0
    new.context.close()
    old.context.close()


def test_an_out_of_range_number_gets_the_apps_message_and_a_corrected_field_loses_its_old_one(
    live_server, page: Page
):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(page)
    form = page.locator("#hand-form")
    # Saved without a bidder: the server names the field beside it and in the list by Save.
    fill_hand(page, bid=24, trump="Hearts", quick={"North (Anna)": 20}, tricks={NS: 15})
    page.get_by_role("button", name="Save hand 1").click()
    save_errors = form.locator(".save-errors")
    expect(save_errors).to_contain_text("Bidder:")
    # Tricks 30: the app's own message, naming the field, with the range from the rule book.
    tricks = form.get_by_role("spinbutton", name=NS, exact=True)
    tricks.fill("30")
    expect(
        form.get_by_role("alert").filter(has_text="N–S (Anna & Cecilia): enter a whole number from 0 to 25.")
    ).to_be_visible()
    # The bidder chosen: the old "Bidder: …" line goes, beside the field and by Save.
    form.get_by_role("group", name="Bidder").get_by_text("South (Cecilia)", exact=True).click()
    expect(form.locator("#bidder .errorlist")).to_have_count(0)
    expect(save_errors.filter(has_text="Bidder:")).to_have_count(0)
    shoot(page, "out-of-range-tricks-message", element=form.locator("#tricks"))
    # Saved with 30: no browser bubble (the form has novalidate); the server says why, in its words.
    page.get_by_role("button", name="Save hand 1").click()
    expect(save_errors).to_contain_text("N–S (Anna & Cecilia): A side takes at most 25 trick points.")
    assert Hand.objects.filter(game=game).count() == 0
    tricks.fill("15")
    expect(form.locator(".range-error")).to_have_count(0)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()


def test_the_range_message_speaks_the_pages_language(live_server, page: Page):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    page.get_by_role("button", name="Svenska").click()
    form = page.locator("#hand-form")
    expect(form).to_be_visible()
    page.wait_for_load_state("load")
    form.locator("input[name=tricks_NS]").fill("30")
    expect(form.locator(".range-error")).to_contain_text("ange ett heltal från 0 till 25.")


# A route does not see a request from a page the service worker controls; this test needs no worker.
@pytest.mark.browser_context_args(service_workers="block")
def test_while_a_lost_answer_is_retried_the_page_says_one_thing(live_server, page: Page):
    """Hand 1 is saved but its answer lost; the retry's answer is slow. Meanwhile the scoreboard's
    poll (every phone's) already counts hand 1: shown, the board would say "Hand 2: East deals" above
    a form that says "Hand 1 not confirmed" and "Save hand 1". The page keeps to one state: not yet
    confirmed, then saved, board and form together."""
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    posts: list[Route] = []
    held: list[Route] = []

    def lose_then_hold(route: Route) -> None:
        posts.append(route)
        if len(posts) == 1:
            route.fetch()  # the server saves the hand...
            route.abort()  # ...and its answer never reaches the phone
        else:
            held.append(route)  # the retry: its answer comes once the test lets it

    page.route("**/hands", lose_then_hold)
    page.evaluate(
        """() => { let polls = 0;
        document.addEventListener("htmx:afterRequest", (event) => {
          if (event.detail.elt.id === "scoreboard" && event.detail.successful) {
            polls += 1; document.documentElement.dataset.boardPolls = String(polls); } }); }"""
    )
    _hand(page, bid=24)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".save-state")).to_contain_text("Hand 1")
    # Two of the board's polls answered after hand 1 was stored (one may have been on its way).
    expect(page.locator("html")).to_have_attribute(
        "data-board-polls", re.compile(r"^([2-9]|\d\d+)$"), timeout=15_000
    )
    expect(page.locator(".save-state")).to_be_visible()
    expect(page.locator(".deal-line")).to_have_text("Hand 1: North (Anna) deals")
    expect(page.get_by_test_id("total-NS")).to_have_text("0")
    expect(page.get_by_role("button", name="Save hand 1")).to_be_visible()
    # The board that counts hand 1 had the hand sent again at once: the retry is on its way.
    expect(page.locator(".save-state")).to_have_text("Sending hand 1…")
    for _ in range(100):  # the route's handler runs as the test talks to the page
        if held:
            break
        page.evaluate("() => 1")
    assert len(held) == 1
    held[0].continue_()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    expect(page.locator(".save-state")).to_have_count(0)
    expect(page.locator(".pending-badge")).to_be_hidden()
    expect(page.locator(".deal-line")).to_have_text("Hand 2: East (Bo) deals")
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    assert len(posts) == 2
