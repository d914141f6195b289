"""Choosing trump puts the cursor in the bidders' trick points, just under it (the phone's number
keypad comes up; one tap less), the meld grid's counts after it need no keypad, and nothing typed
is moved or changed by it."""

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.browser import entry, meld_count, save_hand, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
ANNA, BO, CECILIA = "North (Anna)", "East (Bo)", "South (Cecilia)"
NS, EW = "N–S (Anna & Cecilia)", "E–W (Bo & David)"
RUN, MARRIAGE, ACES = "Run (A 10 K Q J of trump)", "Marriage (K Q, other suit)", "Aces around"


def test_trump_puts_the_cursor_in_the_bidders_trick_points(page, live_server):
    page.set_viewport_size({"width": 390, "height": 844})
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    page.wait_for_load_state("load")
    form = entry(page)
    bid, ns, ew = (form.get_by_role("spinbutton", name=n, exact=True) for n in ("Bid", NS, EW))
    form.get_by_role("group", name="Bidder").get_by_text(BO, exact=True).click()
    expect(bid).to_be_focused()
    bid.fill("24")
    form.get_by_role("group", name="Trump").get_by_text("Clubs").click()
    # Bo bids: the cursor is in E–W's trick points, which are in view; typed, N–S get the rest.
    expect(ew).to_be_focused()
    expect(ew).to_be_in_viewport()
    page.keyboard.type("16")
    expect(ns).to_have_value("9")
    # A tap on a count lets the field go (the keypad no longer covers the grid).
    meld_count(form, RUN, BO).click()
    expect(ew).not_to_be_focused()
    meld_count(form, MARRIAGE, CECILIA).click()
    meld_count(form, ACES, ANNA).click()
    # Trump chosen again once tricks are typed: the cursor stays away, the numbers stay as typed.
    form.get_by_role("group", name="Trump").get_by_text("Hearts").click()
    expect(ew).not_to_be_focused()
    expect(ns).not_to_be_focused()
    expect(ew).to_have_value("16")
    expect(ns).to_have_value("9")
    save_hand(page, 1, preview="E–W make 24")
    hand = Hand.objects.get().data
    assert (hand["bidder"], hand["bid"], hand["trump"]) == ("E", 24, "hearts")
    assert hand["tricks"] == {"NS": 9, "EW": 16}
    assert hand["melds"] == {"N": ["aces"], "E": ["run"], "S": ["marriage"]}


def test_with_quick_points_trump_still_puts_the_cursor_in_the_bidders_points(page, live_server):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES)
    page.wait_for_load_state("load")
    form = entry(page)
    form.get_by_text("Quick points").click()
    form.get_by_role("group", name="Bidder").get_by_text(CECILIA, exact=True).click()
    form.get_by_role("spinbutton", name="Bid").fill("21")
    form.get_by_role("group", name="Trump").get_by_text("Spades").click()
    expect(form.locator(".meld-quick").get_by_role("spinbutton", name=CECILIA, exact=True)).to_be_focused()
    expect(form.get_by_role("spinbutton", name=NS, exact=True)).to_have_value("")
