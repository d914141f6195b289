"""A round of minutes on a table's phone: the line "N minutes left in round 1" counts down while the
page stays open (the phone's clock moved on by Playwright, no waiting, and the round's deadline
moved back by as much on the server, so the scoreboard's poll draws the same line), and says "Last
hand of round 1" when time is up; at 360 px it fits."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db.models import F
from playwright.sync_api import expect

from nights.models import Night
from nights.tests.test_round_control import open_night, tables
from scoring.models import Game
from tests.browser import assert_fits_the_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def time_passes(phone, game_id: int | None, minutes: float) -> None:
    """`minutes` pass for the phone and for the server alike (the table's game: it has one)."""
    assert game_id is not None
    Game.objects.filter(pk=game_id).update(last_hand_from=F("last_hand_from") - timedelta(minutes=minutes))
    seconds = round(minutes * 60)
    phone.clock.fast_forward(f"{seconds // 60:02d}:{seconds % 60:02d}")


def test_the_minutes_left_count_down_on_the_phone(
    live_server, browser, browser_context_args, people, club_evening
):
    night = open_night(Night.RoundEnds.MINUTES, minutes=30)
    table = tables(night)[0]
    phone = browser.new_context(**browser_context_args).new_page()
    phone.clock.install()
    phone.goto(f"{live_server.url}/nights/t/{table.token}/")
    expect(phone.get_by_text("30 minutes left in round 1")).to_be_visible()
    phone.get_by_role("button", name="Score this table").click()
    # The game's page, loaded with its script (the table link's page shows the same line).
    phone.wait_for_url(re.compile(r"/g/[^/]+/$"))
    notice = phone.get_by_test_id("plan-notice")
    expect(notice).to_have_text("30 minutes left in round 1")
    time_passes(phone, table.game_id, 10)
    expect(notice).to_have_text("20 minutes left in round 1")
    time_passes(phone, table.game_id, 19.5)
    expect(notice).to_have_text("1 minute left in round 1")
    time_passes(phone, table.game_id, 1)
    expect(notice).to_have_text("Last hand of round 1")
    phone.set_viewport_size({"width": 360, "height": 780})
    assert_fits_the_phone(phone)
