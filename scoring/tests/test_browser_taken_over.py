"""The phone that lost the scoring to another phone (a take-over with the recovery code): its
scoreboard's poll turns it read-only in place, with the time of the take-over, and a hand it had
saved offline, refused after the take-over, stays on it with Copy and Discard until the player
removes it."""

from __future__ import annotations

import re
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import translation
from django.utils.translation import ngettext
from playwright.sync_api import Browser, Page, expect

from scoring.models import Game, Hand
from tests.browser import fill_hand, shoot, speak, start_game, words

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
NS = "N–S (Anna & Cecilia)"
#: The scoreboard's poll (templates/scoring/game.html: every 3 s), with room for a slow machine.
ONE_POLL_MS = 3_000 + 3_000


def _game(page: Page) -> Game:
    code = re.search(r"/g/([^/]+)/", page.url)
    assert code
    return Game.objects.get(code=code.group(1))


def _take_over(browser: Browser, browser_context_args: dict[str, Any], old: Page) -> Page:
    """A second phone opens the share link and takes the scoring over with the recovery code."""
    share_url = old.locator("a.share-link").get_attribute("href")
    code = old.get_by_test_id("recovery-code").inner_text()
    assert share_url
    new = browser.new_context(**browser_context_args).new_page()
    new.goto(share_url)
    new.locator("summary", has_text="Take over scoring").click()
    new.get_by_label("Recovery code").fill(code)
    new.get_by_role("button", name="Take over scoring").click()
    expect(new.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    return new


def _moved_at(game: Game) -> str:
    return f"{game.device_rights.get(active=True).granted_at.astimezone(ZoneInfo('Europe/Stockholm')):%H:%M}"


@pytest.mark.parametrize("language", ["en", "sv", "cs"])
def test_the_old_phones_poll_turns_it_read_only_in_place_and_reads_the_notice_out(
    live_server, browser: Browser, browser_context_args, language: str
):
    old = browser.new_context(**browser_context_args, timezone_id="Europe/Stockholm").new_page()
    start_game(old, live_server.url, seats="4 (two partnerships)", names=NAMES)
    speak(old, language)
    game = _game(old)
    old.evaluate("window.sameDocument = true")  # gone if the page were loaded again
    new = _take_over(browser, browser_context_args, old)

    notice = old.locator(".moved-notice")
    moved = words(language, "Scoring moved to another phone at %(at)s.", at=_moved_at(game))
    expect(notice).to_have_text(re.compile(re.escape(moved)), timeout=ONE_POLL_MS)
    expect(notice).to_be_in_viewport()
    expect(old.locator("#announcer")).to_contain_text(moved)
    assert old.evaluate("window.sameDocument === true")
    expect(old.locator("#hand-form")).to_have_count(0)
    save_hand = words(language, "Save hand %(number)s", number=1).replace("1", "")
    expect(old.get_by_role("button", name=re.compile(re.escape(save_hand)))).to_have_count(0)
    assert old.url.endswith(f"/s/{game.share_code}/")  # what a reload opens
    # The scores go on updating on the old phone: the new phone's hand shows up there.
    fill_hand(new, bidder="North (Anna)", bid=21, trump="Hearts", quick={"North (Anna)": 20}, tricks={NS: 15})
    new.get_by_role("button", name="Save hand 1").click()
    expect(new.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    expect(old.locator("#history")).to_contain_text("#1", timeout=ONE_POLL_MS)
    old.reload()
    expect(old.locator(".moved-notice")).to_contain_text(moved)
    expect(old.locator("#hand-form")).to_have_count(0)
    new.context.close()
    old.context.close()


def test_a_hand_saved_offline_and_refused_after_the_take_over_stays_until_the_player_removes_it(
    live_server, browser: Browser, browser_context_args
):
    old_context = browser.new_context(**browser_context_args, timezone_id="Europe/Stockholm")
    old_context.grant_permissions(["clipboard-read", "clipboard-write"])
    old = old_context.new_page()
    start_game(old, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(old)
    # The old phone loses its network and saves hand 1: it waits in the phone's outbox.
    old_context.set_offline(True)
    expect(old.locator(".net-state")).to_contain_text("Offline")
    fill_hand(
        old, bidder="South (Cecilia)", bid=25, trump="Hearts", quick={"North (Anna)": 20}, tricks={NS: 15}
    )
    old.get_by_role("button", name="Save hand 1").click()
    expect(old.locator(".save-state")).to_contain_text("hand 1 is kept on this phone")
    new = _take_over(browser, browser_context_args, old)
    old_context.set_offline(False)

    # Back online: the hand is sent, refused (another phone scores now), and offered instead.
    expect(old.locator(".moved-notice")).to_contain_text(
        f"Scoring moved to another phone at {_moved_at(game)}.", timeout=20_000
    )
    expect(old.locator(".moved-notice")).to_be_in_viewport()
    unsent = old.locator(".unsent-hand")
    expect(unsent).to_have_count(1)
    expect(unsent).to_contain_text("Not saved on this phone: hand 1")
    for line in ("Bidder: South (Cecilia)", "Bid: 25", "Trump: ♥ Hearts", f"{NS}: 15"):
        expect(unsent.locator(".unsent-text")).to_contain_text(line)
    expect(old.locator(".unsent-heading")).to_have_text(
        "1 hand is not saved on this phone: give it to the phone that scores now."
    )
    expect(old.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")
    shoot(old, "taken-over-phone-offers-its-unsent-hand")
    assert Hand.objects.filter(game=game).count() == 0
    # Never sent again by itself.
    posts: list[str] = []
    old.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)

    # A reload: still there.
    old.reload()
    expect(old.locator(".moved-notice")).to_be_visible()
    expect(old.locator(".unsent-hand")).to_contain_text("Bid: 25")

    # Copy: the text for the new scorer is on the clipboard, and the phone asks before removing it.
    unsent = old.locator(".unsent-hand")
    unsent.get_by_role("button", name="Copy").click()
    expect(unsent.get_by_role("status")).to_contain_text("Copied. Remove hand 1 from this phone now?")
    copied = old.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("Hand 1\n") and "Bid: 25" in copied and "Bidder: South (Cecilia)" in copied
    unsent.get_by_role("button", name="Keep it").click()  # not yet: it stays
    old.reload()
    expect(old.locator(".unsent-hand")).to_have_count(1)

    # Discard, confirmed: gone from the phone, for good.
    unsent = old.locator(".unsent-hand")
    unsent.get_by_role("button", name="Discard").click()
    expect(unsent.get_by_role("status")).to_contain_text("Discard hand 1? It is saved nowhere else.")
    unsent.get_by_role("button", name="Remove from this phone").click()
    expect(old.locator(".unsent-hand")).to_have_count(0)
    expect(old.locator("#announcer")).to_have_text("Hand 1 removed from this phone.")
    expect(old.locator(".pending-badge")).to_be_hidden()
    old.reload()
    expect(old.locator(".moved-notice")).to_be_visible()
    expect(old.locator(".unsent-hand")).to_have_count(0)
    assert old.evaluate("localStorage.getItem('pinochle:outbox')") == "[]"
    assert posts == []
    assert Hand.objects.filter(game=game).count() == 0
    new.context.close()
    old_context.close()


# The poll and the form's live preview are held back here (a route does not see a request the
# service worker handles): the save alone tells the old phone that the game moved.
@pytest.mark.browser_context_args(service_workers="block")
@pytest.mark.parametrize("language", ["en", "sv", "cs"])
def test_a_save_refused_after_the_take_over_turns_the_old_phone_read_only_with_the_hand_to_copy(
    live_server, browser: Browser, browser_context_args, language: str
):
    old = browser.new_context(**browser_context_args, timezone_id="Europe/Stockholm").new_page()
    start_game(old, live_server.url, seats="4 (two partnerships)", names=NAMES)
    speak(old, language)
    game = _game(old)
    old.route("**/live*", lambda route: route.abort())
    old.route("**/preview", lambda route: route.abort())
    new = _take_over(browser, browser_context_args, old)
    old.evaluate("window.sameDocument = true")
    # The hand by the fields' names, the same in every language: East bids 22 in spades.
    form = old.locator("#hand-form")
    form.locator("label", has=old.locator("input[name=bidder][value=E]")).click()
    form.locator("input[name=bid]").fill("22")
    form.locator("label", has=old.locator("input[name=trump][value=spades]")).click()
    form.locator("label", has=old.locator("input[name=meld_mode][value=points]")).click()
    form.locator("input[name=meld_points_E]").fill("10")
    form.locator("input[name=tricks_NS]").fill("10")
    old.get_by_role("button", name=words(language, "Save hand %(number)s", number=1)).click()

    moved = words(language, "Scoring moved to another phone at %(at)s.", at=_moved_at(game))
    expect(old.locator(".moved-notice")).to_contain_text(moved)
    expect(old.locator("#announcer")).to_contain_text(moved)
    with translation.override(language):
        one_unsent = ngettext(
            "%(count)s hand is not saved on this phone: give it to the phone that scores now.",
            "%(count)s hands are not saved on this phone: give them to the phone that scores now.",
            1,
        ) % {"count": 1}
    expect(old.locator("#announcer")).to_contain_text(one_unsent)
    expect(old.locator(".moved-notice")).to_be_in_viewport()
    unsent = old.locator(".unsent-hand")
    expect(unsent).to_contain_text(words(language, "Not saved on this phone: hand %(number)s", number=1))
    expect(unsent).to_contain_text(f"{words(language, 'Bid')}: 22")
    expect(unsent.get_by_role("button", name=words(language, "Copy"), exact=True)).to_be_visible()
    expect(unsent.get_by_role("button", name=words(language, "Discard"), exact=True)).to_be_visible()
    expect(old.locator("#hand-form")).to_have_count(0)
    assert old.evaluate("window.sameDocument === true")
    assert Hand.objects.filter(game=game).count() == 0
    new.context.close()
    old.context.close()


@pytest.mark.browser_context_args(service_workers="block")
def test_a_hand_being_entered_when_the_preview_is_refused_is_offered_from_the_forms_draft(
    live_server, browser: Browser, browser_context_args
):
    old = browser.new_context(**browser_context_args).new_page()
    start_game(old, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = _game(old)
    old.route("**/live*", lambda route: route.abort())
    new = _take_over(browser, browser_context_args, old)
    # The bidder chosen: the form's live preview is refused (another phone scores now).
    fill_hand(old, bidder="East (Bo)")
    expect(old.locator(".moved-notice")).to_contain_text("Scoring moved to another phone at")
    unsent = old.locator(".unsent-hand")
    expect(unsent).to_contain_text("Not saved on this phone: hand 1")
    expect(unsent.locator(".unsent-text")).to_contain_text("Bidder: East (Bo)")
    expect(old.locator("#hand-form")).to_have_count(0)
    old.reload()
    expect(old.locator(".unsent-hand")).to_contain_text("Bidder: East (Bo)")
    assert Hand.objects.filter(game=game).count() == 0
    new.context.close()
    old.context.close()
