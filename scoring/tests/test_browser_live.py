"""Two phones on one game: the scoring phone enters hands, a friend follows through the share link
and sees the totals change by themselves, without reloading."""

import pytest
from playwright.sync_api import expect

from tests.browser import fill_hand, save_hand, shoot, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
NS, EW = "N–S (Anna & Cecilia)", "E–W (Bo & David)"


def test_a_friend_with_the_share_link_sees_the_totals_change_without_reloading(
    live_server, browser, browser_context_args
):
    scorer = browser.new_context(**browser_context_args).new_page()
    start_game(scorer, live_server.url, seats="4 (two partnerships)", names=NAMES)
    share_url = scorer.locator("a.share-link").get_attribute("href")
    assert share_url and "/s/" in share_url

    friend = browser.new_context(**browser_context_args).new_page()
    friend.goto(share_url)
    expect(friend.get_by_test_id("total-NS")).to_have_text("0")
    assert friend.locator("#hand-form").count() == 0
    friend.evaluate("window.stillTheSamePage = true")  # gone if the page reloads

    # The scorer half-fills hand 1 and waits for a poll to come back: it must not clear the form.
    # (htmx:afterRequest fires once the answer is handled, swapped in or not.)
    fill_hand(scorer, bidder="North (Anna)", bid=25, trump="Hearts")
    scorer.evaluate(
        "window.polls = 0;document.body.addEventListener('htmx:afterRequest', () => { window.polls += 1; })"
    )
    with scorer.expect_response(lambda response: "/live" in response.url, timeout=15_000):
        pass
    scorer.wait_for_function("window.polls > 0")
    expect(scorer.get_by_role("spinbutton", name="Bid")).to_have_value("25")
    fill_hand(scorer, quick={"North (Anna)": 20, "East (Bo)": 10}, tricks={NS: 15})
    save_hand(scorer, 1)
    expect(scorer.get_by_test_id("total-NS")).to_have_text("35")

    expect(friend.get_by_test_id("total-NS")).to_have_text("35", timeout=8000)
    expect(friend.get_by_test_id("total-EW")).to_have_text("20")
    expect(friend.locator("#hand-1")).to_be_visible()
    assert friend.evaluate("window.stillTheSamePage") is True
    assert friend.get_by_role("link", name="Edit hand 1").count() == 0
    shoot(friend, "live-share-phone", full_page=True)
    shoot(scorer, "live-scoring-phone", full_page=True)

    # The friend cannot open the game itself: the page says why and offers the take-over.
    friend.goto(scorer.url)
    expect(friend.get_by_text("Another phone keeps the score of this game")).to_be_visible()
    expect(friend.get_by_role("button", name="Take over scoring")).to_be_visible()
    # Both phones stop polling before the live server (and its database) goes away.
    friend.context.close()
    scorer.context.close()
