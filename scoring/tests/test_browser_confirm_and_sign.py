"""The table's phone in a club that has the other side confirm each hand and both sides sign the
game: after Save the hand waits for the other side's OK (a tap without a network says it was not
sent), then each side signs the finished game and the phone's edit controls are gone."""

import pytest
from playwright.sync_api import expect

from scoring.models import Game, Hand
from tests.access_helpers import CLUB, in_club
from tests.browser import fill_hand, save_hand, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
NS, EW = "N–S (Anna & Cecilia)", "E–W (Bo & David)"


def test_the_other_side_confirms_the_hand_and_both_sides_sign(
    live_server, browser, browser_context_args, people
):
    context = browser.new_context(**browser_context_args)
    phone = context.new_page()
    start_game(phone, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = in_club(Game.objects.get(), CLUB)
    # The club's rules, as its night would have copied them; a round of one deal.
    Game.objects.filter(pk=game.pk).update(confirm_hands=True, sign_at_end=True, deals=1)
    phone.reload()

    fill_hand(
        phone,
        bidder="North (Anna)",
        bid=25,
        trump="Hearts",
        quick={"North (Anna)": 20, "East (Bo)": 10},
        tricks={NS: 15},
    )
    save_hand(phone, 1)
    panel = phone.locator("#confirm")
    expect(panel.get_by_role("heading", name="Hand 1 saved: is it right?")).to_be_visible()
    expect(panel).to_contain_text(f"Pass the phone to {EW}")
    expect(phone.locator("#hand-1")).to_contain_text("not yet confirmed")

    context.set_offline(True)
    panel.get_by_role("button", name="OK").click()
    expect(panel.get_by_role("alert")).to_contain_text("Not sent: this phone has no network.")
    assert Hand.objects.get(game=game, number=1).confirmed_at is None
    context.set_offline(False)

    panel.get_by_role("button", name="OK").click()
    expect(phone.get_by_role("status").filter(has_text="Hand 1 confirmed.")).to_be_visible()
    signing = phone.locator("#signing")
    signing.get_by_role("button", name=f"Sign for {NS}").click()
    expect(phone.locator("#signing")).to_contain_text(f"{NS} signed at")
    phone.locator("#signing").get_by_role("button", name=f"Sign for {EW}").click()
    expect(phone.get_by_text("Signed by both sides: the game is final.")).to_be_visible()
    expect(phone.locator(".signed-note")).to_contain_text("only an organiser can change it")
    assert phone.get_by_role("link", name="Edit hand 1").count() == 0
    context.close()
