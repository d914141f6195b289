"""A whole club night on phones: the organiser opens it, checks in 8 players by
tapping their names and a newcomer on the spot, draws 3 rounds of tables of 4, 3 and 2; three
phones score the three tables at once through their links (one takes a table over mid-round from
another phone); the organiser corrects a hand after the round; the night's standings are checked
against the rules engine, and the page updates by itself while the tables save.

Rounds are 2 hands each ("a fixed number of hands"), so a night of 18 hands stays short.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from clubs.models import Club, Membership, Player, Season
from ledger.models import Payment
from nights.models import Night, NightTable
from nights.tests.test_views_night import game_of
from scoring.models import Game, HandChange
from scoring.rules.engine import check_record
from scoring.rules.tables import seats_for, sides_for
from tests.access_helpers import CLUB
from tests.browser import assert_fits_the_phone, correct_hand, fill_hand, save_hand, shoot, sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROSTER = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana"]
NEWCOMER = "Ida"
HANDS_PER_ROUND = 2
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def seat_label(seat: str, names: dict[str, str]) -> str:
    return f"{SEAT_NAMES[seat]} ({names[seat]})"


def side_label(side: str, names: dict[str, str]) -> str:
    if len(side) == 1:
        return seat_label(side, names)
    return f"{side[0]}–{side[1]} ({names[side[0]]} & {names[side[1]]})"


def hand_for(size: int, round_no: int, table_no: int, number: int) -> dict[str, Any]:
    """The hand a table enters (a record hand object, quick meld points): varied by round, table
    and hand, so that sides win and lose and some bidders are set."""
    seats, sides = seats_for(size), sides_for(size)
    bidder = seats[(round_no + table_no + number) % size]
    bidding_side = next(side for side in sides if bidder in side)
    meld = {side: 0 for side in sides}
    meld[bidding_side] = 8 + 2 * ((round_no * 3 + table_no + number) % 5)
    bid = 20 + (round_no + number) % 3
    if size == 4:
        ns = 5 + 5 * ((round_no + table_no + number) % 4)  # 5, 10, 15 or 20
        tricks = {"NS": ns, "EW": 25 - ns}
    elif size == 3:
        first = 5 + 5 * ((round_no + number) % 3)
        second = 5 + 5 * ((table_no + number) % 2)
        tricks = {"N": first, "E": second, "S": 25 - first - second}
    else:
        north = 5 + 5 * ((round_no + table_no + number) % 4)
        tricks = {"N": north, "E": 25 - north}
    return {"bidder": bidder, "bid": bid, "meld_points": meld, "tricks": tricks}


def enter_hand(page: Page, hand: dict[str, Any], names: dict[str, str], number: int) -> None:
    # Quick points go in per player; a side scores its players' sum, so the side's first seat takes them.
    quick = {seat_label(side[0], names): points for side, points in hand["meld_points"].items() if points}
    tricks_shown = dict(list(hand["tricks"].items())[:-1])  # the page fills in the last one
    fill_hand(
        page,
        bidder=seat_label(hand["bidder"], names),
        bid=hand["bid"],
        quick=quick,
        tricks={side_label(side, names): points for side, points in tricks_shown.items()},
    )
    save_hand(page, number)


def table_links(organiser: Page, base: str, night: Night, round_no: int) -> dict[int, str]:
    organiser.goto(f"{base}/nights/{night.pk}/rounds/{round_no}/cards")
    links = organiser.locator(".night-card .night-url a")
    expect(links).to_have_count(3)
    return {n + 1: links.nth(n).get_attribute("href") or "" for n in range(3)}


def names_at(table: NightTable) -> dict[str, str]:
    return {seat.seat: seat.player.name for seat in table.seats.select_related("player")}


def test_a_whole_club_night_on_phones(live_server, browser, browser_context_args, people, club_evening):
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
    context = browser.new_context(**browser_context_args)
    organiser = context.new_page()
    organiser.set_viewport_size({"width": 360, "height": 780})
    sign_in_browser(organiser, base, User.objects.get(username="alice"))

    # Open the night from the club's pages.
    organiser.goto(f"{base}/clubs/")
    organiser.get_by_role("link", name="Club nights").first.click()
    organiser.get_by_role("link", name="Open a night").click()
    organiser.get_by_role("group", name="A round ends after").get_by_text("A fixed number of hands").click()
    organiser.get_by_label("Hands per round").fill(str(HANDS_PER_ROUND))
    organiser.get_by_label("Stake per game won").fill("1.00")
    organiser.get_by_label("Season").select_option(value=str(season.pk))
    organiser.get_by_role("button", name="Open the night").click()
    expect(organiser.get_by_text("The night is open: check in who is here.")).to_be_visible()

    # Check in: one tap per name, and a newcomer added to the roster on the spot.
    for name in ROSTER:
        tap = organiser.get_by_role("button", name=name, exact=True)
        tap.click()
        expect(tap).to_have_attribute("aria-pressed", "true")
    organiser.get_by_label("Newcomer's name").fill(NEWCOMER)
    organiser.get_by_role("button", name="Add to the roster and check in").click()
    expect(organiser.get_by_text(f"{NEWCOMER} is on the roster and checked in.")).to_be_visible()
    expect(organiser.get_by_text("9 checked in.")).to_be_visible()
    assert_fits_the_phone(organiser)
    organiser.get_by_role("button", name="Draw the tables").click()
    expect(organiser.get_by_text("The tables are drawn for every round.")).to_be_visible()
    assert_fits_the_phone(organiser)
    shoot(organiser, "night-plan", full_page=True)

    night = Night.objects.get()
    assert night.played_on == club_evening  # a new night is held today
    partners: Counter[frozenset[int]] = Counter()
    for round_no in (1, 2, 3):
        drawn = night.tables.filter(round_no=round_no).order_by("table_no")
        assert [t.seats.count() for t in drawn] == [4, 3, 2]
        four = {s.seat: s.player_id for s in drawn[0].seats.all()}
        partners.update([frozenset((four["N"], four["S"])), frozenset((four["E"], four["W"]))])
    assert max(partners.values()) == 1, "a partnership repeats"

    phones = [browser.new_context(**browser_context_args).new_page() for _ in range(3)]
    entered: dict[int, list[dict[str, Any]]] = {}  # game pk -> the hands typed in, in order
    standings = browser.new_context(**browser_context_args).new_page()
    standings.set_viewport_size({"width": 360, "height": 780})
    sign_in_browser(standings, base, User.objects.get(username="alice"))

    for round_no in (1, 2, 3):
        organiser.goto(f"{base}/nights/{night.pk}/")
        organiser.get_by_role("button", name=f"Start round {round_no}").click()
        expect(organiser.get_by_text(f"Round {round_no} has started")).to_be_visible()
        links = table_links(organiser, base, night, round_no)
        if round_no == 1:
            assert_fits_the_phone(organiser)
            shoot(organiser, "night-table-cards", full_page=True)
            standings.goto(f"{base}/nights/{night.pk}/standings/")
        tables = {t.table_no: t for t in night.tables.filter(round_no=round_no).select_related("game")}
        for table_no, phone in enumerate(phones, start=1):
            phone.goto(links[table_no])
            phone.get_by_role("button", name="Score this table").click()
            expect(phone.get_by_role("heading", name="Enter hand 1")).to_be_visible()
        for number in range(1, HANDS_PER_ROUND + 1):
            for table_no, phone in enumerate(phones, start=1):
                table = tables[table_no]
                game = game_of(table)
                names = names_at(table)
                if round_no == 2 and table_no == 1 and number == 2:
                    # Mid-round, the third phone opens table 1's link and takes the scoring over.
                    phone = phones[2]
                    phone.goto(links[1])
                    phone.get_by_role("button", name="Score this table").click()
                    expect(phone.get_by_text("the other phone only watches")).to_be_visible()
                    # The old phone's open page follows by itself: its next poll sends it to the
                    # read-only scoreboard. Only then is it opened again, or the test's navigation
                    # and the page's own would race (the later one aborts the other).
                    expect(phones[0]).to_have_url(re.compile(rf"/s/{re.escape(game.share_code)}/$"))
                    phones[0].goto(f"{base}/g/{game.code}/")
                    expect(phones[0].get_by_role("button", name="Save hand 2")).to_have_count(0)
                    phone.goto(f"{base}/g/{game.code}/")
                hand = hand_for(len(names), round_no, table_no, number)
                if round_no == 2 and table_no == 3 and number == 2:
                    phone = phones[2]
                    phone.goto(f"{base}/g/{game.code}/")
                enter_hand(phone, hand, names, number)
                entered.setdefault(game.pk, []).append(hand)
            if round_no == 1 and number == 1:
                # The standings page follows the tables by itself (its poll), without a reload.
                expect(standings.locator("#night-standings")).to_contain_text("Round 1 · Table 3")
                expect(standings.locator("#night-standings")).to_contain_text("1 hand")
        if round_no == 1:
            # A correction after the round, by the organiser: table 2's first hand, other tricks.
            game = game_of(tables[2])
            names = names_at(tables[2])
            organiser.goto(f"{base}/g/{game.code}/")
            corrected = dict(entered[game.pk][0])
            corrected["tricks"] = {"N": 0, "E": 10, "S": 15}
            correct_hand(organiser, 1, tricks={seat_label("N", names): 0, seat_label("E", names): 10})
            entered[game.pk][0] = corrected

    assert HandChange.objects.filter(action="takeover", actor_label="table-link").count() == 1
    assert HandChange.objects.filter(action="edit").count() == 1

    # Every game stores exactly what was typed; the standings are the rules engine's figures.
    expected: dict[str, dict[str, int]] = {}
    for game in Game.objects.filter(night_table__night=night):
        stored = [hand.data for hand in game.hands.order_by("number")]
        assert stored == entered[game.pk]
        result = check_record({**game.settings_record(), "hands": stored[:HANDS_PER_ROUND]})
        best = max(result.scores.values())
        leaders = [side for side, score in result.scores.items() if score == best]
        for row in game.seat_rows.select_related("player"):
            side = next(side for side in sides_for(game.seats) if row.seat in side)
            others = [score for other, score in result.scores.items() if other != side]
            assert row.player is not None
            line = expected.setdefault(row.player.name, {"games": 0, "wins": 0, "diff": 0})
            line["games"] += 1
            line["wins"] += leaders == [side]
            line["diff"] += result.scores[side] - max(others)
    assert len(expected) == 9
    standings.goto(f"{base}/nights/{night.pk}/standings/")
    rows = standings.get_by_role("table", name="Players").locator("tbody tr")
    expect(rows).to_have_count(9)
    shown = {}
    for index in range(9):
        cells = rows.nth(index).locator("th, td").all_inner_texts()
        _place, name = cells[0].strip().split(". ", 1)  # "3. Anna": the place, then the name
        shown[name] = {"games": int(cells[1]), "wins": int(cells[2]), "diff": int(cells[4])}
    assert shown == expected
    assert_fits_the_phone(standings)
    shoot(standings, "night-standings", full_page=True)

    # The chip ledger (standard night, 1.00 a game won): the organiser finishes the night and
    # settles it; every player's money is the rules engine's winners and losers at 1.00 a game.
    organiser.goto(f"{base}/nights/{night.pk}/")
    organiser.get_by_role("button", name="Finish the night").click()
    organiser.get_by_role("link", name="Settlement").click()
    expect(organiser.get_by_role("heading", name="Settlement of the night")).to_be_visible()
    assert_fits_the_phone(organiser)
    money = {name: Decimal(0) for name in expected}
    for game in Game.objects.filter(night_table__night=night):
        result = check_record({**game.settings_record(), "hands": entered[game.pk][:HANDS_PER_ROUND]})
        best = max(result.scores.values())
        leaders = [side for side, score in result.scores.items() if score == best]
        if len(leaders) > 1:
            continue  # a draw moves no money
        rows = list(game.seat_rows.select_related("player"))
        winners = [row for row in rows if row.seat in leaders[0]]
        for row in rows:
            won = row in winners
            money[row.player.name] += Decimal(len(rows) - len(winners)) / len(winners) if won else Decimal(-1)
    assert sum(money.values()) == 0 and any(money.values())
    settlement = organiser.get_by_role("table").locator("tbody tr")
    expect(settlement).to_have_count(9)
    for index in range(9):
        cells = settlement.nth(index).locator("th, td").all_inner_texts()
        value = money[cells[0].strip()]
        sign = "+" if value > 0 else "\u2212" if value < 0 else ""
        assert cells[2] == f"{sign}{abs(value):.2f}", (cells, value)
    shoot(organiser, "night-settlement", full_page=True)
    proposed = organiser.locator(".ledger-payments li")
    count = proposed.count()
    assert 0 < count <= 8  # at most players - 1 payments
    for _ in range(count):
        organiser.locator(".ledger-payments li").first.get_by_role("button", name="Mark as paid").click()
        expect(organiser.get_by_text("Marked as paid:")).to_be_visible()
    expect(organiser.get_by_text("Everyone is square: nothing to pay.")).to_be_visible()
    assert Payment.objects.count() == count

    # The season statement of the night's biggest winner: the night, then the payments received.
    top = max(money, key=lambda name: money[name])
    player = Player.objects.get(name=top)
    organiser.goto(f"{base}/ledger/seasons/{season.pk}/")
    organiser.get_by_role("link", name=top, exact=True).click()
    expect(organiser.get_by_role("heading", name=f"Statement of {top}")).to_be_visible()
    assert_fits_the_phone(organiser)
    lines = organiser.locator("tbody tr")
    expect(lines.nth(1)).to_contain_text(f"+{money[top]:.2f}")  # the night, after "Carried in"
    expect(organiser.locator("tfoot")).to_contain_text("0.00")
    assert sum(p.amount for p in Payment.objects.filter(payee=player)) == money[top]
    shoot(organiser, "night-statement", full_page=True)
    for page in (*phones, standings, organiser):
        page.context.close()
