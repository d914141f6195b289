"""What the scoring phone shows after a bad network leaves a doubt: the outcome of every save at the
top of the screen, the game-ending save's "Hand N saved · Undo" however the poll races it, Undo
putting the hand back on the form, and Back → Start opening the game already made. The key ones run
in English, Swedish and Czech, each asserting the words of that language's django.po."""

from __future__ import annotations

import re
import threading
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, Request, Route, expect

from scoring.models import Game, Hand, HandChange
from scoring.services.hands import delete_last_hand
from tests.browser import (
    assert_fits_the_phone,
    fill_hand,
    fill_hand_in_any_language,
    server_wrapped,
    shoot,
    speak,
    split_side_labels,
    start_game,
    words,
)

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


def _hand_1_answer_lost(page: Page, base: str, language: str = "en") -> Game:
    """A new game whose hand 1 (bid 24) the server saved but whose answer never reaches the phone,
    however often the phone sends it again: the hand waits on the phone, not confirmed, until the
    entry is changed and saved again. Every save of other values is answered."""
    start_game(page, base, seats="4 (two partnerships)", names=NAMES)
    speak(page, language)
    game = _game(page)

    def lose_the_answers_to_bid_24(route: Route) -> None:
        if "&bid=24&" in f"&{route.request.post_data or ''}&":
            route.fetch()  # the server saves the hand (once: the same submission id)...
            route.abort()  # ...and its answer never reaches the phone
        else:
            route.continue_()

    page.route("**/hands", lose_the_answers_to_bid_24)
    fill_hand_in_any_language(page, bid=24)
    page.get_by_role("button", name=words(language, "Save hand %(number)s", number=1)).click()
    # Waited for on the phone's outbox, which keeps the hand until an answer arrives: the line that
    # says "not confirmed" changes to "Sending…" with every retry.
    page.wait_for_function(
        "() => (JSON.parse(localStorage.getItem('pinochle:outbox')) || []).some(x => x.tries > 0)"
    )
    expect(page.locator(".pending-badge")).to_be_visible()
    expect(page.locator(".save-state")).to_be_visible()
    return game


def _top_of_viewport(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate("el => el.getBoundingClientRect().top"))


@pytest.mark.parametrize(
    ("released", "language"),
    [
        ("with-the-polls-answer", "en"),
        ("once-the-page-shows-the-end", "en"),
        ("with-the-polls-answer", "sv"),
        ("with-the-polls-answer", "cs"),
    ],
)
def test_the_game_ending_save_always_says_saved_with_undo(
    live_server, page: Page, released: str, language: str
):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES, target=30)
    speak(page, language)
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
        fill_hand_in_any_language(page)
        page.get_by_role("button", name=words(language, "Save hand %(number)s", number=1)).click()
        expect(page.get_by_role("heading", name=words(language, "Game over"))).to_be_visible()
        release.set()
        saved_1 = words(language, "Hand %(number)d saved.", number=1)
        saved = page.get_by_role("status").filter(has_text=saved_1)
        expect(saved).to_be_visible()
        expect(saved.get_by_role("button", name=words(language, "Undo"), exact=True)).to_be_visible()
    assert held == [True]
    expect(page.locator("#hand-form")).to_have_count(0)
    if released == "with-the-polls-answer":
        shoot(page, f"game-ending-save-says-saved-{language}")


# A route does not see a request from a page the service worker controls; this test needs no worker.
@pytest.mark.browser_context_args(service_workers="block")
@pytest.mark.parametrize("language", ["en", "sv", "cs"])
def test_after_a_lost_answer_and_a_changed_entry_the_question_is_on_screen_and_nothing_else_saves(
    live_server, page: Page, language: str
):
    game = _hand_1_answer_lost(page, live_server.url, language)
    page.locator("#hand-form input[name=bid]").fill("26")  # a typo seen: fixed
    page.get_by_role("button", name=words(language, "Save hand %(number)s", number=1)).click()

    question = page.get_by_role("alert").filter(
        has_text=words(
            language,
            "Not saved: this form already saved hand %(number)d, with other values. Hand %(number)d is "
            "stored as shown below. To change it to what you entered, tap “Apply my values as a correction "
            "of hand %(number)d”; if yours is a new hand, tap “Save my values as hand %(next)d”.",
            number=1,
            next=2,
        )
    )
    expect(question).to_be_visible()
    expect(question).to_be_in_viewport()
    assert -1 <= _top_of_viewport(page, "#game > .message.error") < 100
    shoot(page, f"after-a-lost-answer-the-question-on-top-{language}")
    # While the question is open the entry form cannot save: no second hand by one more tap.
    save_2 = page.get_by_role("button", name=words(language, "Save hand %(number)s", number=2))
    expect(save_2).to_be_disabled()
    saves: list[str] = []  # the save URL's POSTs from here on (a correction posts to hands/<n>/)

    def count_saves(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/hands"):
            saves.append(request.url)

    page.on("request", count_saves)
    page.locator("#hand-form input[name=bid]").press("Enter")

    # The correction's answer on screen comes after any request the Enter key sent before it.
    page.get_by_role(
        "button", name=words(language, "Apply my values as a correction of hand %(number)s", number=1)
    ).click()
    # The message on the page (the announcer, hidden, reads the same words out).
    expect(
        page.locator("#game").get_by_text(words(language, "Hand %(number)d corrected.", number=1))
    ).to_be_visible()
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


@pytest.mark.parametrize("language", ["en", "sv", "cs"])
def test_a_save_says_so_at_the_top_of_the_screen_and_undo_puts_the_values_back_in_each_language(
    live_server, page: Page, language: str
):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    speak(page, language)
    game = _game(page)
    fill_hand_in_any_language(page, bid=42)  # meant 24
    page.get_by_role("button", name=words(language, "Save hand %(number)s", number=1)).click()
    saved = page.get_by_role("status").filter(has_text=words(language, "Hand %(number)d saved.", number=1))
    expect(saved).to_be_visible()
    # The outcome is where the eye is after the tap: at the top of the screen, not below the form.
    expect(saved).to_be_in_viewport()
    assert -1 <= float(saved.evaluate("el => el.getBoundingClientRect().top")) < 100
    shoot(page, f"a-save-says-so-on-top-{language}")
    # Undo in words of its own (in Czech "Vrátit zpět", not the "Zpět" of "Back"), a full-size
    # button that fits the 360 px phone beside "Edit hand 1".
    undo = saved.get_by_role("button", name=words(language, "Undo"), exact=True)
    if language == "cs":
        assert words(language, "Undo") == "Vrátit zpět"  # "Zpět ke hře" is "Back to the game"
    box = undo.bounding_box()
    assert (
        box
        and box["height"] >= 44
        and box["width"] >= 44
        and box["x"] >= 0
        and box["x"] + box["width"] <= 360
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    undo.click()
    expect(
        page.get_by_text(
            words(
                language,
                "Hand %(number)d undone: its values are back on the form below. Change what was wrong "
                "and save it again.",
                number=1,
            )
        )
    ).to_be_visible()
    form = page.locator("#hand-form")
    expect(form.locator("input[name=bid]")).to_have_value("42")
    expect(form.locator("input[name=bidder][value=S]")).to_be_checked()
    expect(form.locator("input[name=trump][value=hearts]")).to_be_checked()
    expect(form.locator("input[name=meld_points_N]")).to_have_value("20")
    form.locator("input[name=bid]").fill("24")
    page.get_by_role("button", name=words(language, "Save hand %(number)s", number=1)).click()
    expect(
        page.get_by_role("status").filter(has_text=words(language, "Hand %(number)d saved.", number=1))
    ).to_be_visible()
    assert [(hand.number, hand.data["bid"]) for hand in Hand.objects.filter(game=game)] == [(1, 24)]


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


@pytest.mark.parametrize("language", ["en", "sv", "cs"])
def test_a_phone_taken_over_says_so_and_offers_its_unsent_hand_to_copy(
    live_server, browser, browser_context_args, language: str
):
    old = browser.new_context(**browser_context_args, timezone_id="Europe/Stockholm").new_page()
    start_game(old, live_server.url, seats="4 (two partnerships)", names=NAMES)
    speak(old, language)
    game = _game(old)
    share_url = old.locator("a.share-link").get_attribute("href")
    code = old.get_by_test_id("recovery-code").inner_text()
    # Half a hand on the old phone, then another phone takes the scoring over with the code.
    form = old.locator("#hand-form")
    form.locator("label", has=old.locator("input[name=bidder][value=S]")).click()
    form.locator("input[name=bid]").fill("27")
    form.locator("label", has=old.locator("input[name=trump][value=hearts]")).click()
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
    expect(notice).to_contain_text(
        words(language, "Scoring moved to another phone at %(at)s.", at=f"{moved:%H:%M}")
    )
    # The half-entered hand (the form's draft) is offered, with Copy and Discard.
    expect(old.locator(".unsent-hand")).to_contain_text(
        words(language, "Not saved on this phone: hand %(number)s", number=1)
    )
    expect(old.get_by_role("button", name=words(language, "Discard"), exact=True)).to_be_visible()
    unsent = old.locator(".unsent-hand .unsent-text")
    expect(unsent).to_contain_text(f"{words(language, 'Bid')}: 27")
    if language == "en":
        expect(unsent).to_contain_text("Bidder: South (Cecilia)")
        expect(unsent).to_contain_text("Trump: ♥ Hearts")
    else:
        expect(unsent).to_contain_text(f"{words(language, 'Bidder')}: ")
        expect(unsent).to_contain_text("(Cecilia)")
        expect(unsent).to_contain_text(f"{words(language, 'Trump')}: ♥ {words(language, 'Hearts')}")
    expect(old.get_by_role("button", name=words(language, "Copy"), exact=True)).to_be_visible()
    expect(old.locator("#hand-form")).to_have_count(0)
    shoot(old, f"taken-over-phone-says-so-{language}")
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


@pytest.mark.parametrize("language", ["sv", "cs"])
def test_the_range_message_speaks_the_pages_language(live_server, page: Page, language: str):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    speak(page, language)
    form = page.locator("#hand-form")
    expect(form).to_be_visible()
    form.locator("input[name=tricks_NS]").fill("30")
    message = words(language, "{field}: enter a whole number from {min} to {max}.")
    expect(form.locator(".range-error")).to_contain_text(message.format(field="", min=0, max=25).strip())


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


def _question_asked(page: Page, *, bid: int = 26) -> None:
    """After the lost answer to hand 1, the bid is changed and saved again: the question is asked."""
    page.locator("#hand-form input[name=bid]").fill(str(bid))
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("button", name="Apply my values as a correction of hand 1")).to_be_visible()


# A route does not see a request from a page the service worker controls; this test needs no worker.
@pytest.mark.browser_context_args(service_workers="block")
def test_the_open_question_and_its_values_survive_a_reload_another_page_and_a_language_switch(
    live_server, page: Page
):
    game = _hand_1_answer_lost(page, live_server.url)
    page.set_viewport_size({"width": 360, "height": 740})
    _question_asked(page, bid=26)
    apply = page.get_by_role("button", name="Apply my values as a correction of hand 1")

    page.reload()
    expect(apply).to_be_visible()
    expect(page.get_by_role("button", name="Save my values as hand 2")).to_be_visible()
    expect(page.locator("#hand-form input[name=bid]")).to_have_value("26")
    expect(page.get_by_role("button", name="Save hand 2")).to_be_disabled()
    assert_fits_the_phone(page)
    shoot(page, "question-asked-again-after-a-reload-en-360")

    page.get_by_role("link", name="Settings").click()
    page.get_by_role("link", name="Back to the game").click()
    expect(apply).to_be_visible()
    expect(page.locator("#hand-form input[name=bid]")).to_have_value("26")

    speak(page, "cs")
    correct = page.get_by_role(
        "button", name=words("cs", "Apply my values as a correction of hand %(number)s", number=1)
    )
    expect(correct).to_be_visible()
    expect(page.locator("#hand-form input[name=bid]")).to_have_value("26")
    assert split_side_labels(page.locator(".correction-offer")) == []  # "V–Z" whole at 360 px
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game)] == [24]  # nothing saved yet

    # Answered: the hand is corrected, and the question is not asked again.
    correct.click()
    # The message on the page (the announcer reads the same words out).
    expect(
        page.get_by_role("status").filter(has_text=words("cs", "Hand %(number)d corrected.", number=1))
    ).to_be_visible()
    page.reload()
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator(".correction-offer")).to_have_count(0)
    expect(page.locator(".pending-badge")).to_be_hidden()
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game)] == [26]


@pytest.mark.browser_context_args(service_workers="block")
def test_the_question_closed_keeps_its_values_on_the_form_after_a_reload(live_server, page: Page):
    game = _hand_1_answer_lost(page, live_server.url)
    _question_asked(page, bid=30)
    page.get_by_role("button", name="Neither: close this and go on entering").click()
    page.reload()
    expect(page.locator("#hand-form input[name=bid]")).to_have_value("30")
    expect(page.locator(".correction-offer")).to_have_count(0)
    expect(page.locator(".pending-badge")).to_be_hidden()
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.get_by_role("status").filter(has_text="Hand 2 saved.")).to_be_visible()
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game).order_by("number")] == [24, 30]


@pytest.mark.browser_context_args(service_workers="block")
def test_the_question_answered_with_the_next_hand_is_not_asked_again(live_server, page: Page):
    game = _hand_1_answer_lost(page, live_server.url)
    _question_asked(page, bid=30)
    page.reload()
    save_as_2 = page.get_by_role("button", name="Save my values as hand 2")
    expect(save_as_2).to_be_visible()  # asked again (the network goes only once it is)
    # Without a network the answer is not sent, and the question stays until it is.
    page.context.set_offline(True)
    expect(page.locator(".net-state")).to_have_class(re.compile(r"\boffline\b"))
    save_as_2.click()
    expect(
        page.get_by_role("alert").filter(
            has_text="Not sent: this phone has no network. Nothing was changed; tap again when the network "
            "is back."
        )
    ).to_be_visible()
    expect(page.locator(".pending-badge")).to_be_visible()
    page.context.set_offline(False)
    expect(page.locator(".net-state")).not_to_have_class(re.compile(r"\boffline\b"))
    save_as_2.click()
    expect(page.get_by_role("status").filter(has_text="Hand 2 saved.")).to_be_visible()
    page.reload()
    expect(page.get_by_role("button", name="Save hand 3")).to_be_visible()
    expect(page.locator(".correction-offer")).to_have_count(0)
    expect(page.locator(".pending-badge")).to_be_hidden()
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game).order_by("number")] == [24, 30]


@pytest.mark.browser_context_args(service_workers="block")
@pytest.mark.parametrize("failure", ["the-network-drops", "the-server-fails"])
def test_an_answer_to_the_question_that_fails_on_the_way_keeps_the_question_and_its_values(
    live_server, page: Page, failure: str
):
    """The phone thinks it is online, but the tap's request never gets its answer: nothing typed is
    lost, the question stays and says so, and a later tap answers it. Reloaded, the phone sends the
    tapped answer again (not the question), and says it is not confirmed until it is."""
    game = _hand_1_answer_lost(page, live_server.url)
    page.set_viewport_size({"width": 360, "height": 740})
    _question_asked(page, bid=26)
    apply = page.get_by_role("button", name="Apply my values as a correction of hand 1")
    save_as_2 = page.get_by_role("button", name="Save my values as hand 2")
    bid = page.locator("#hand-form input[name=bid]")
    failed = page.get_by_role("alert").filter(
        has_text="Not sent: the network or the server failed on the way. Your values are kept here; "
        "tap again."
    )
    # The network drops under the correction; the server fails the save as the next hand.
    button, address = (
        (apply, f"**/g/{game.code}/hands/1/")
        if failure == "the-network-drops"
        else (save_as_2, f"**/g/{game.code}/hands")
    )

    def fail(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
        elif failure == "the-network-drops":
            route.abort()
        else:
            route.fulfill(status=503, body="Service unavailable")

    page.route(address, fail)
    button.click()
    expect(failed).to_be_visible()
    expect(apply).to_be_visible()
    expect(save_as_2).to_be_visible()
    expect(bid).to_have_value("26")
    expect(page.locator(".pending-badge")).to_be_visible()
    assert_fits_the_phone(page)
    shoot(page, f"question-kept-when-{failure}-en-360")

    # Tapped again while it still fails: still kept.
    button.click()
    expect(failed).to_be_visible()
    expect(bid).to_have_value("26")

    # Reloaded while it still fails: the tapped answer is sent again, and is not confirmed yet.
    page.reload()
    expect(
        page.get_by_role("status").filter(
            has_text="Your answer to the question about hand 1 is not confirmed yet. It is sent again when "
            "this page opens and when the network is back; saving is off until then."
        )
    ).to_be_visible()
    expect(bid).to_have_value("26")
    expect(page.locator("form[data-game] button[type=submit]:enabled")).to_have_count(0)
    expect(page.locator(".pending-badge")).to_be_visible()
    page.wait_for_function(
        "() => (JSON.parse(localStorage.getItem('pinochle:outbox')) || []).some(x => x.answer && x.tries > 0)"
    )
    expect(page.locator(".correction-offer")).to_have_count(0)  # not asked again: it was answered
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game).order_by("number")] == [24]
    page.unroute(address, fail)

    # The network is back: the game's page sends the tapped answer, and the question is settled.
    page.reload()
    done = "Hand 1 corrected." if failure == "the-network-drops" else "Hand 2 saved."
    expect(page.get_by_role("status").filter(has_text=done)).to_be_visible()
    expect(page.locator(".correction-offer")).to_have_count(0)
    expect(page.locator(".pending-badge")).to_be_hidden()
    page.reload()
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator(".correction-offer")).to_have_count(0)
    expect(page.locator(".pending-badge")).to_be_hidden()
    bids = [hand.data["bid"] for hand in Hand.objects.filter(game=game).order_by("number")]
    assert bids == ([26] if failure == "the-network-drops" else [24, 26])


@pytest.mark.browser_context_args(service_workers="block")
@pytest.mark.parametrize("answer", ["the-next-hand", "a-correction"])
def test_an_answer_saved_but_not_heard_is_sent_once_more_after_a_reload_never_asked_again(
    live_server, page: Page, answer: str
):
    """The tapped answer reaches the server, which saves it, but its reply never reaches the phone:
    the phone says "not sent". Reloaded, the phone sends that same answer once more (never the
    question's values again, which would ask again and offer the next hand after it): the hand is
    stored once, the page says what was saved, and no question is open."""
    game = _hand_1_answer_lost(page, live_server.url)
    _question_asked(page, bid=26)
    failed = page.get_by_role("alert").filter(
        has_text="Not sent: the network or the server failed on the way. Your values are kept here; "
        "tap again."
    )
    button, address = (
        (page.get_by_role("button", name="Save my values as hand 2"), f"**/g/{game.code}/hands")
        if answer == "the-next-hand"
        else (
            page.get_by_role("button", name="Apply my values as a correction of hand 1"),
            f"**/g/{game.code}/hands/1/",
        )
    )

    def saved_not_heard(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        route.fetch()  # the server saves the answer...
        route.abort()  # ...and its reply never reaches the phone

    page.route(address, saved_not_heard)
    button.click()
    expect(failed).to_be_visible()
    page.unroute(address, saved_not_heard)
    bids = [26] if answer == "a-correction" else [24, 26]
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game).order_by("number")] == bids

    page.reload()
    done = "Hand 2 saved." if answer == "the-next-hand" else "Hand 1 corrected."
    expect(page.get_by_role("status").filter(has_text=done)).to_be_visible()
    expect(page.locator(".correction-offer")).to_have_count(0)
    expect(page.locator(".pending-badge")).to_be_hidden()
    next_save = "Save hand 3" if answer == "the-next-hand" else "Save hand 2"
    expect(page.get_by_role("button", name=next_save)).to_be_enabled()
    page.reload()
    expect(page.get_by_role("button", name=next_save)).to_be_enabled()
    expect(page.locator(".correction-offer")).to_have_count(0)
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game).order_by("number")] == bids
    edits = HandChange.objects.filter(game=game, action=HandChange.Action.EDIT).count()
    assert edits == (1 if answer == "a-correction" else 0)


def _outbox(page: Page) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = page.evaluate(
        "() => JSON.parse(localStorage.getItem('pinochle:outbox')) || []"
    )
    return items


def test_the_open_question_reloaded_without_a_network_keeps_its_values_and_every_save_off(
    live_server, page: Page
):
    """With the service worker looking after the game: hand 1 is saved but the phone never hears so,
    the bid is changed and saved again, and the question is open. The phone goes offline and is
    reloaded: the changed values are on the form, a note says the question comes back with the
    network, and nothing can be saved meanwhile. Back online, the question is asked and answered."""
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(page)
    page.wait_for_function(
        "navigator.serviceWorker.ready.then(() => caches.match(location.href)).then(r => !!r)", timeout=15_000
    )
    answers = {"lost": True}  # while True, the server saves a hand but its answer never reaches the phone

    def losing(app: Any, environ: dict[str, Any], start_response: Any) -> Any:
        if (
            answers["lost"]
            and environ["REQUEST_METHOD"] == "POST"
            and environ["PATH_INFO"].endswith("/hands")
        ):
            for _ in app(environ, lambda *args: None):  # saved...
                pass
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])  # ...not heard
            return [b""]
        return app(environ, start_response)

    with server_wrapped(live_server, losing):
        _hand(page, bid=24)
        page.get_by_role("button", name="Save hand 1").click()
        page.wait_for_function(
            "() => (JSON.parse(localStorage.getItem('pinochle:outbox')) || []).some(x => x.tries > 0)"
        )
        answers["lost"] = False
        _question_asked(page, bid=26)
        page.wait_for_function(
            "navigator.serviceWorker.ready.then(() => caches.match(location.href)).then(r => !!r)",
            timeout=15_000,
        )

        answers["lost"] = True  # a request that still leaks out while offline is not answered either
        page.context.set_offline(True)
        page.reload()
        expect(page.locator(".net-state")).to_have_class(re.compile(r"\boffline\b"))
        note = page.get_by_role("status").filter(
            has_text="Hand 1 has a question for you: it was already saved, with other values."
        )
        expect(note).to_be_visible()
        expect(page.locator("#hand-form input[name=bid]")).to_have_value("26")
        expect(page.locator("form[data-game] button[type=submit]:enabled")).to_have_count(0)
        expect(page.locator(".save-state")).to_have_count(0)  # said once, at the top
        expect(page.locator(".pending-badge")).to_be_visible()
        # The values were sent again and the send failed: still a question, not a hand to send.
        page.wait_for_function(
            "() => (JSON.parse(localStorage.getItem('pinochle:outbox')) || []).some(x => x.tries > 0)"
        )
        assert [item["state"] for item in _outbox(page)] == ["question"]
        assert_fits_the_phone(page)
        shoot(page, "question-held-offline-en")

        answers["lost"] = False
        page.context.set_offline(False)
        apply = page.get_by_role("button", name="Apply my values as a correction of hand 1")
        expect(apply).to_be_visible()
        apply.click()
        expect(page.get_by_role("status").filter(has_text="Hand 1 corrected.")).to_be_visible()
    expect(page.locator(".pending-badge")).to_be_hidden()
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game)] == [26]


def _changers_off(page: Page, number: int) -> None:
    """The other ways to change the game are off, as the entry form's Save is: greyed, not
    focusable, going nowhere, and described by the note that says why."""
    delete = page.locator("#history a").filter(has_text=f"Delete hand {number} (the last)")
    edit = page.locator(f"#hand-{number} a.edit-link")
    hand_over = page.get_by_role("button", name="Hand the scoring to another phone")
    for control in (delete, edit, hand_over):
        expect(control).to_have_attribute("aria-disabled", "true")
        expect(control).to_have_attribute("tabindex", "-1")
        assert control.get_attribute("aria-describedby")
    expect(delete).not_to_have_attribute("href", re.compile("."))
    expect(edit).not_to_have_attribute("href", re.compile("."))
    expect(hand_over).to_be_disabled()
    assert float(delete.evaluate("el => getComputedStyle(el).opacity")) < 1
    delete.click(force=True)  # a tap on it anyway goes nowhere
    expect(page.locator(".correction-offer")).to_be_visible()


def _changers_on(page: Page, number: int) -> None:
    delete = page.get_by_role("link", name=f"Delete hand {number} (the last)")
    expect(delete).to_have_attribute("href", re.compile("/delete"))
    expect(delete).not_to_have_attribute("aria-disabled", "true")
    expect(page.locator(f"#hand-{number} a.edit-link")).to_have_attribute("href", re.compile("/hands/"))
    expect(page.get_by_role("button", name="Hand the scoring to another phone")).to_be_enabled()


@pytest.mark.browser_context_args(service_workers="block")
def test_while_the_question_is_open_delete_edit_and_hand_over_are_off_too(live_server, page: Page):
    """Hand 1's answer is lost, the entry changed and saved again: the question is open. Deleting the
    hand the question is about, editing a hand or handing the scoring over would change the game
    behind the question's back: they are off until it is settled, after a reload too."""
    game = _hand_1_answer_lost(page, live_server.url)
    page.set_viewport_size({"width": 360, "height": 740})
    _question_asked(page, bid=26)
    _changers_off(page, 1)
    shoot(page, "question-open-delete-off-en-360")
    page.reload()
    _changers_off(page, 1)
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game)] == [24]
    # Settled with "Neither": they are back on.
    page.get_by_role("button", name="Neither: close this and go on entering").click()
    _changers_on(page, 1)
    page.get_by_role("link", name="Delete hand 1 (the last)").click()
    page.get_by_role("button", name="Delete hand 1").click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 deleted.")).to_be_visible()
    assert not Hand.objects.filter(game=game).exists()


@pytest.mark.browser_context_args(service_workers="block")
def test_a_question_about_a_hand_deleted_meanwhile_is_never_saved_by_asking_it_again(live_server, page: Page):
    """The question about hand 1 is open; hand 1 is deleted meanwhile (another way than this page).
    The game's page asks the question again: nothing is saved, the page says why, the values are on
    the form to save if they are right, and the question is settled."""
    game = _hand_1_answer_lost(page, live_server.url)
    page.set_viewport_size({"width": 360, "height": 740})
    _question_asked(page, bid=26)
    delete_last_hand(game=game)
    page.reload()
    message = page.get_by_role("alert").filter(
        has_text="Not saved: hand 1, which the question was about, is no longer stored. Your values are "
        "on the form below: save them if they are right."
    )
    expect(message).to_be_visible()
    expect(message).to_be_in_viewport()
    expect(page.locator(".correction-offer")).to_have_count(0)
    expect(page.locator("#hand-form input[name=bid]")).to_have_value("26")
    expect(page.locator(".pending-badge")).to_be_hidden()
    assert _outbox(page) == []
    assert not Hand.objects.filter(game=game).exists()
    assert_fits_the_phone(page)
    shoot(page, "question-about-a-deleted-hand-en-360")
    # Not asked again after one more reload; the values saved when the player says so.
    page.reload()
    expect(page.locator(".correction-offer")).to_have_count(0)
    expect(page.locator("#hand-form input[name=bid]")).to_have_value("26")
    assert not Hand.objects.filter(game=game).exists()
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game)] == [26]
