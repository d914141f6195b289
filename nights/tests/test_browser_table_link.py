"""A club night's table link on a phone once the table's last hand is saved and the other side's
OK is still pending: the OK question is the first thing the phone shows, in sight without scrolling,
before "Round over" and the next round's seats; after the OK the phone is back on the link."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clubs.models import Club
from nights import rounds
from nights.tests.test_round_control import open_night, tables
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.browser import assert_fits_the_phone, shoot
from tests.helpers import quick_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 360])
def test_the_ok_of_the_last_hand_is_in_sight_on_the_table_link(
    live_server, browser, browser_context_args, people, width
):
    Club.objects.filter(pk=CLUB).update(confirm_hands=True)
    night = open_night()
    table = tables(night)[0]
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": width, "height": 844}})
    phone = context.new_page()
    link = f"{live_server.url}/nights/t/{table.token}/"
    phone.goto(link)
    phone.get_by_role("button", name="Score this table").click()
    expect(phone.get_by_role("heading", name="Hand 1")).to_be_visible()
    rounds.call_last_hand(night=night)
    game = table.game
    assert game is not None
    game.refresh_from_db()
    record_hand(game=game, number=1, data=quick_hand())
    phone.goto(link)
    question = phone.get_by_role("heading", name="Hand 1 saved: is it right?")
    expect(question).to_be_in_viewport()
    expect(phone.get_by_role("button", name="OK")).to_be_in_viewport()
    expect(phone.get_by_text("Round 1 ends when the other side has OK'd the last hand.")).to_be_visible()
    expect(phone.get_by_text("Waiting for round 2")).to_have_count(0)
    assert_fits_the_phone(phone)
    shoot(phone, f"night-table-link-ok-pending-{width}")
    phone.get_by_role("button", name="OK").click()
    expect(phone.get_by_role("status").filter(has_text="Hand 1 confirmed.")).to_be_visible()
    expect(phone).to_have_url(link)  # back on the table's link, not the game's page
    expect(phone.get_by_text("Waiting for round 2")).to_be_visible()
    expect(phone.get_by_role("button", name="OK")).to_have_count(0)
    context.close()
