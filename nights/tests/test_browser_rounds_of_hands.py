"""A club night whose rounds are 3 hands, on phones: two tables score through their links; after
hand 3 each table's phone says "Round over" with the table's result and offers no hand 4, and the
season's standings and ratings count the night's games (a round of N hands is a game of N deals)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect

from clubs.models import Club, Membership, Player, Season
from nights.models import Night, NightTable
from nights.tests.test_views_night import game_of
from ratings.models import RatingPoint
from scoring.models import Game
from scoring.rules.engine import check_record
from tests.access_helpers import CLUB
from tests.browser import assert_fits_the_phone, fill_hand, save_hand, server_wrapped, shoot, sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROSTER = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana"]
HANDS = 3
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def seat_label(seat: str, names: dict[str, str]) -> str:
    return f"{SEAT_NAMES[seat]} ({names[seat]})"


def hand_for(table_no: int, number: int) -> dict[str, Any]:
    """What a table of four enters: N-S make at table 1, E-W mostly at table 2 (quick meld points)."""
    bidder = "N" if (table_no + number) % 3 else "E"
    side = "NS" if bidder == "N" else "EW"
    ns_tricks = 15 if side == "NS" else 5 + 5 * (number % 2)
    return {
        "bidder": bidder,
        "bid": 20 + number,
        "meld_points": {"NS": 10 if side == "NS" else 0, "EW": 10 if side == "EW" else 0},
        "tricks": {"NS": ns_tricks, "EW": 25 - ns_tricks},
    }


def enter(page: Page, hand: dict[str, Any], names: dict[str, str], number: int) -> None:
    side = "NS" if hand["bidder"] == "N" else "EW"
    fill_hand(
        page,
        bidder=seat_label(hand["bidder"], names),
        bid=hand["bid"],
        quick={seat_label(side[0], names): hand["meld_points"][side]},
        tricks={f"N–S ({names['N']} & {names['S']})": hand["tricks"]["NS"]},
    )
    save_hand(page, number)


def test_after_hand_three_every_table_phone_says_round_over_and_the_season_counts_the_night(
    live_server, browser, browser_context_args, people, club_evening
):
    base = live_server.url
    club = Club.objects.get(pk=CLUB)
    for name in ROSTER:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    season = Season.objects.create(
        club=club,
        name="This year",
        starts_on=club_evening.replace(month=1, day=1),
        ends_on=club_evening.replace(month=12, day=31),
    )
    organiser = browser.new_context(**browser_context_args).new_page()
    organiser.set_viewport_size({"width": 360, "height": 780})
    sign_in_browser(organiser, base, User.objects.get(username="alice"))
    organiser.goto(f"{base}/nights/clubs/{CLUB}/new")
    organiser.get_by_label("Rounds").fill("1")
    organiser.get_by_role("group", name="A round ends after").get_by_text("A fixed number of hands").click()
    organiser.get_by_label("Hands per round").fill(str(HANDS))
    organiser.get_by_label("Season").select_option(value=str(season.pk))
    organiser.get_by_role("button", name="Open the night").click()
    for name in ROSTER:
        tap = organiser.get_by_role("button", name=name, exact=True)
        tap.click()
        expect(tap).to_have_attribute("aria-pressed", "true")
    organiser.get_by_role("button", name="Draw the tables").click()
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.get_by_text("Round 1 has started")).to_be_visible()
    night = Night.objects.get()
    assert night.played_on == club_evening  # a new night is held today
    tables = list(NightTable.objects.filter(night=night).select_related("game").order_by("table_no"))
    assert len(tables) == 2 and all(game_of(table).deals == HANDS for table in tables)

    phones = []
    for table in tables:
        phone = browser.new_context(**browser_context_args).new_page()
        phone.goto(f"{base}/nights/t/{table.token}/")
        expect(phone.get_by_text("This round ends after 3 hands")).to_be_visible()
        phone.get_by_role("button", name="Score this table").click()
        expect(phone.get_by_role("heading", name="Enter hand 1")).to_be_visible()
        expect(phone.get_by_text("Hand 1 of 3:")).to_be_visible()
        phones.append(phone)
    entered: dict[int, list[dict[str, Any]]] = {}
    for number in range(1, HANDS + 1):
        for table_no, (table, phone) in enumerate(zip(tables, phones, strict=True), start=1):
            names = {seat.seat: seat.player.name for seat in table.seats.select_related("player")}
            hand = hand_for(table_no, number)
            enter(phone, hand, names, number)
            entered.setdefault(game_of(table).pk, []).append(hand)

    for table_no, (table, phone) in enumerate(zip(tables, phones, strict=True), start=1):
        game = Game.objects.get(pk=game_of(table).pk)
        assert [hand.data for hand in game.hands.order_by("number")] == entered[game.pk]
        result = check_record({**game.settings_record(), "hands": entered[game.pk]})
        assert game.finished and result.finished and result.ended_by == "deals"
        # The game page: the round is over, no entry form, no hand 4.
        expect(phone.get_by_role("heading", name="Round over")).to_be_visible()
        expect(phone.get_by_role("button", name="Save hand 4")).to_have_count(0)
        expect(phone.get_by_role("heading", name="Enter hand 4")).to_have_count(0)
        expect(phone.locator(".end-reason").first).to_contain_text("The game was 3 deals")
        for width in (360, 390):
            phone.set_viewport_size({"width": width, "height": 800})
            assert_fits_the_phone(phone)
            shoot(phone, f"round-over-game-{table_no}-{width}", full_page=True)
        # The table's link: "Round over" with the table's result, nothing to enter.
        phone.goto(f"{base}/nights/t/{table.token}/")
        expect(phone.get_by_role("heading", name="Round over")).to_be_visible()
        winner = result.winner
        assert winner is not None
        names = {seat.seat: seat.player.name for seat in table.seats.select_related("player")}
        won = (
            "a draw"
            if winner == "draw"
            else f"{winner[0]}–{winner[1]} ({names[winner[0]]} & {names[winner[1]]}) won"
        )
        expect(phone.get_by_test_id("table-result")).to_have_text(won)
        expect(phone.get_by_role("button", name="Score this table")).to_have_count(0)
        scores = f"N–S {result.scores['NS']} · E–W {result.scores['EW']}"
        expect(phone.get_by_text(scores)).to_be_visible()
        expect(phone.locator("form[action*='/hands']")).to_have_count(0)
        for width in (360, 390):
            phone.set_viewport_size({"width": width, "height": 800})
            assert_fits_the_phone(phone)
            shoot(phone, f"round-over-table-link-{table_no}-{width}", full_page=True)

    # The season counts the night: every player one game, and the club ratings rate it.
    organiser.goto(f"{base}/league/seasons/{season.pk}/")
    rows = organiser.locator("#players tbody tr")
    expect(rows).to_have_count(8)
    header = organiser.locator("#players thead th").all_inner_texts()
    games_column = next(index for index, label in enumerate(header) if label.strip().startswith("Games"))
    for index in range(8):
        cells = rows.nth(index).locator("th, td").all_inner_texts()
        assert cells[games_column].strip() == "1", cells
    board = organiser.locator("table.rating-board").first.locator("tbody tr")
    expect(board).to_have_count(8)
    assert RatingPoint.objects.filter(scope=f"club:{CLUB}").count() == 8
    shoot(organiser, "round-over-season", full_page=True)
    for page in (*phones, organiser):
        page.context.close()


def test_a_preview_answered_after_the_rounds_last_save_leaves_the_phone_on_the_round_over(
    live_server, browser, browser_context_args, people, club_evening
):
    """The live preview the phone sends as it saves the round's last hand can reach the server
    after that save (the requests run in parallel): the phone stays on its game, which says the
    round is over, and is not taken to the login page."""
    base = live_server.url
    club = Club.objects.get(pk=CLUB)
    for name in ROSTER[:4]:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    alice = Client()
    alice.force_login(User.objects.get(username="alice"))
    alice.post(f"/nights/clubs/{CLUB}/new", {"played_on": club_evening.isoformat(),
               "variant": "standard", "deck": "single", "rounds": "1", "round_ends": "hands",
               "hands_per_round": "1"})  # fmt: skip
    night = Night.objects.get()
    for player in Player.objects.all():
        alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"})
    alice.post(f"/nights/{night.pk}/draw")
    alice.post(f"/nights/{night.pk}/rounds/1/start")
    table = NightTable.objects.select_related("game").get(night=night)
    names = {seat.seat: seat.player.name for seat in table.seats.select_related("player")}
    phone = browser.new_context(**browser_context_args).new_page()
    phone.goto(f"{base}/nights/t/{table.token}/")
    phone.get_by_role("button", name="Score this table").click()
    expect(phone.get_by_role("heading", name="Enter hand 1")).to_be_visible()

    gate = threading.Event()

    def previews_after_saves(app: Any, environ: dict[str, Any], start_response: Any) -> Any:
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/preview"):
            gate.wait(30)
        return app(environ, start_response)

    with server_wrapped(live_server, previews_after_saves):
        try:
            enter(phone, hand_for(1, 1), names, 1)  # its previews wait until the hand is saved
            with phone.expect_response(lambda response: response.url.endswith("/preview")) as late:
                gate.set()
        finally:
            gate.set()
    game = Game.objects.get(pk=game_of(table).pk)
    assert game.finished
    assert late.value.status == 204  # nothing to change on the page (it was sent to log in)
    assert "hx-redirect" not in late.value.headers  # and nowhere to go
    assert phone.url == f"{base}/g/{game.code}/"
    expect(phone.get_by_role("heading", name="Round over")).to_be_visible()
    phone.context.close()
