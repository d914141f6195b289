"""A whole progressive Check Pinochle night on phones, end to end: a club whose opponents confirm
each hand and sign the game; 13 players, 3 rounds of 2 hands at three tables of four with one bye a
round earning a fixed score. Each table's phone scores through its link and the other side taps OK;
when a round ends every table's link says where its players sit next, checked against the
progressive rule worked out here from the stored results; the wall board follows a save within one
poll; a signed game refuses the phone's correction and takes the organiser's; the standings and
prizes are checked against figures worked out here from the rules engine."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect

from clubs.models import Club, Membership, Player
from nights.models import Night, NightTable
from scoring.models import Game, HandChange
from scoring.rules.engine import GameResult, check_record
from tests.access_helpers import CLUB
from tests.browser import assert_fits_the_phone, correct_hand, fill_hand, shoot, sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROSTER = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ida", "Jan", "Karin", "Lars", "Maj"]
HANDS = 2
ROUNDS = 3
BYE_POINTS, BYE_CHIPS = 20, 3
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
RUN = "Run (A 10 K Q J of trump)"
#: What the page holds when the meld grid's count buttons are not there (for the failure's message).
GRID_STATE = """() => {
  const form = document.querySelector('#hand-form'), tally = form && form.querySelector('button.tally');
  return [document.querySelectorAll('#hand-form').length, location.href,
          form && form.querySelector('table.meld-grid').className,
          tally && tally.outerHTML, tally && JSON.stringify(tally.getBoundingClientRect()),
          tally && getComputedStyle(tally).display, tally && getComputedStyle(tally).visibility];
}"""


def seat_label(seat: str, names: dict[str, str]) -> str:
    return f"{SEAT_NAMES[seat]} ({names[seat]})"


def hand_for(round_no: int, table_no: int, number: int) -> dict[str, Any]:
    """The hand a table enters: one side bids and makes both hands (so it wins the round's chips),
    North–South at some tables, East–West at others; the other side's tricks vary."""
    side = "NS" if (round_no + table_no) % 2 else "EW"
    bidder = side[(number - 1) % 2]
    bidding = 10 + 5 * ((round_no + table_no + number) % 3)  # 10, 15 or 20 of the 25
    tricks = {side: bidding, ("EW" if side == "NS" else "NS"): 25 - bidding}
    return {"bidder": bidder, "bid": 20 + number, "trump": "hearts", "melds": {bidder: ["run"]},
            "tricks": {"NS": tricks["NS"], "EW": tricks["EW"]}}  # fmt: skip


def enter_and_confirm(
    page: Page, hand: dict[str, Any], names: dict[str, str], number: int, *, shot: bool = False
) -> None:
    expect(page.get_by_role("heading", name=f"Enter hand {number}")).to_be_visible()
    meld = page.locator("#hand-form").get_by_role("button", name=re.compile("^" + re.escape(f"{RUN}, ")))
    try:
        expect(meld.first).to_be_visible()  # the page's script has made the meld grid's count buttons
    except AssertionError:
        shoot(page, "progressive-night-meld-grid-missing", full_page=True)  # to see why, if it happens
        raise AssertionError(page.evaluate(GRID_STATE)) from None
    fill_hand(
        page,
        bidder=seat_label(hand["bidder"], names),
        bid=hand["bid"],
        trump="Hearts",
        melds={seat_label(hand["bidder"], names): {RUN: 1}},
        tricks={f"N–S ({names['N']} & {names['S']})": hand["tricks"]["NS"]},
    )
    page.get_by_role("button", name=f"Save hand {number}").click()
    panel = page.locator("#confirm")
    expect(panel.get_by_role("heading", name=f"Hand {number} saved: is it right?")).to_be_visible()
    other = "EW" if hand["bidder"] in "NS" else "NS"
    expect(panel).to_contain_text(f"{other[0]}–{other[1]} ({names[other[0]]} & {names[other[1]]})")
    # On a phone the question and its OK are in sight after Save, not below the scoreboard.
    expect(panel.get_by_role("button", name="OK")).to_be_in_viewport()
    if shot:
        assert_fits_the_phone(page)
        shoot(page, "confirm-hand-360")
    panel.get_by_role("button", name="OK").click()
    expect(page.get_by_role("status").filter(has_text=f"Hand {number} confirmed.")).to_be_visible()


def engine_result(game: Game) -> GameResult:
    """The rules engine's result of a stored game (its settings and the hands as stored)."""
    return check_record({**game.settings_record(), "hands": [h.data for h in game.hands.order_by("number")]})


def game_of(table: NightTable) -> Game:
    return Game.objects.get(pk=table.game_id or 0)


def names_at(table: NightTable) -> dict[str, str]:
    return {seat.seat: seat.player.name for seat in table.seats.select_related("player")}


def progressive(tables: list[dict[str, str]], winners: list[str]) -> dict[str, tuple[int, str]]:
    """Where each player of a round goes under the progressive rule, worked out here: (table, "stay"
    or "arrive"). Winners move up a table, losers stay; table 1's winners stay, its losers go to
    the bottom table."""
    count = len(tables)
    where: dict[str, tuple[int, str]] = {}
    for index, (names, won) in enumerate(zip(tables, winners, strict=True), start=1):
        lost = "EW" if won == "NS" else "NS"
        for seat in won:
            where[names[seat]] = (index, "stay") if index == 1 else (index - 1, "arrive")
        for seat in lost:
            where[names[seat]] = (count, "arrive") if index == 1 else (index, "stay")
    return where


def test_a_progressive_night_with_byes_confirmations_signatures_and_prizes(
    live_server, browser, browser_context_args, people, club_evening
):
    base = live_server.url
    club = Club.objects.get(pk=CLUB)
    for name in ROSTER:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    alice = Client()
    alice.force_login(User.objects.get(username="alice"))
    assert (
        alice.post(f"/clubs/{CLUB}/settings/", {"confirm_hands": "on", "sign_at_end": "on"}).status_code
        == 302
    )
    at_scale_1 = {**browser_context_args, "device_scale_factor": 1}  # screenshots at the screen's own size
    organiser = browser.new_context(**at_scale_1).new_page()
    organiser.set_viewport_size({"width": 360, "height": 780})
    sign_in_browser(organiser, base, User.objects.get(username="alice"))
    organiser.goto(f"{base}/nights/clubs/{CLUB}/new")
    organiser.get_by_role("group", name="Game").get_by_text("Check Pinochle").click()
    organiser.get_by_label("Rounds").fill(str(ROUNDS))
    organiser.get_by_role("group", name="A round ends after").get_by_text("A fixed number of hands").click()
    organiser.get_by_label("Hands per round").fill(str(HANDS))
    organiser.get_by_text("A fixed score", exact=True).click()
    organiser.get_by_label("Points for a bye").fill(str(BYE_POINTS))
    organiser.get_by_label("Chips for a bye").fill(str(BYE_CHIPS))
    organiser.get_by_text("Progressive: winners move up a table", exact=True).click()
    for prize in ("1st place", "2nd place", "3rd place", "High game"):
        organiser.get_by_label(prize, exact=True).check()
    organiser.get_by_role("button", name="Open the night").click()
    expect(organiser.get_by_text("The night is open: check in who is here.")).to_be_visible()
    night = Night.objects.get()
    assert (night.variant, night.movement, night.bye_compensation) == ("check", "progressive", "fixed")
    for name in ROSTER:
        tap = organiser.get_by_role("button", name=name, exact=True)
        tap.click()
        expect(tap).to_have_attribute("aria-pressed", "true")
    expect(organiser.get_by_text("13 checked in.")).to_be_visible()
    organiser.get_by_role("button", name="Draw the tables").click()

    board = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    sign_in_browser(board, base, User.objects.get(username="alice"))
    board.clock.install()
    phones = [browser.new_context(**at_scale_1).new_page() for _ in range(3)]
    for phone in phones:
        phone.set_viewport_size({"width": 360, "height": 740})
    byes: dict[int, str] = {}
    signed_game: Game | None = None

    for round_no in range(1, ROUNDS + 1):
        organiser.goto(f"{base}/nights/{night.pk}/")
        organiser.get_by_role("button", name=f"Start round {round_no}").click()
        expect(organiser.get_by_text(f"Round {round_no} has started")).to_be_visible()
        tables = list(night.tables.filter(round_no=round_no).order_by("table_no").select_related("game"))
        assert [len(names_at(table)) for table in tables] == [4, 4, 4]
        seated = {name for table in tables for name in names_at(table).values()}
        (bye,) = set(ROSTER) - seated
        assert bye not in byes.values(), "whoever has sat out least sits out next"
        byes[round_no] = bye
        if round_no == 1:
            board.goto(f"{base}/nights/{night.pk}/board/")
            expect(board.get_by_text(f"Round 1 of {ROUNDS}")).to_be_visible()
            # From here the board's timers run only when the test moves its clock on.
            board.clock.pause_at(int(board.evaluate("Date.now()")) + 1_000)
            card = board.locator(".board-card").filter(has_text=re.compile(r"Table 1\b")).first
            expect(card).to_contain_text("0 hands")
        for phone, table in zip(phones, tables, strict=True):
            phone.goto(f"{base}/nights/t/{table.token}/")
            phone.get_by_role("button", name="Score this table").click()
            expect(phone.get_by_role("heading", name="Enter hand 1")).to_be_visible()
        for number in range(1, HANDS + 1):
            for table_no, (phone, table) in enumerate(zip(phones, tables, strict=True), start=1):
                first = round_no == 1 and table_no == 1 and number == 1
                hand = hand_for(round_no, table_no, number)
                enter_and_confirm(phone, hand, names_at(table), number, shot=first)
                if round_no == 1 and number == 1 and table_no == 1:
                    # The board follows within one poll (5 seconds on its own clock).
                    expect(card).to_contain_text("0 hands")  # no poll yet
                    board.clock.run_for(5_000)
                    expect(card).to_contain_text("1 hand")
        if round_no == 1:
            # Table 1's game is over and signed by both sides.
            phone, table = phones[0], tables[0]
            names = names_at(table)
            signing = phone.locator("#signing")
            ns, ew = f"N–S ({names['N']} & {names['S']})", f"E–W ({names['E']} & {names['W']})"
            signing.get_by_role("button", name=f"Sign for {ns}").click()
            expect(phone.locator("#signing")).to_contain_text(f"{ns} signed at")
            phone.locator("#signing").get_by_role("button", name=f"Sign for {ew}").click()
            expect(phone.get_by_text("Signed by both sides: the game is final.")).to_be_visible()
            assert_fits_the_phone(phone)
            shoot(phone, "signed-game-360")
            signed_game = game_of(table)
            # The table's phone tries a correction anyway: refused, with the reason, nothing written.
            phone.goto(f"{base}/g/{signed_game.code}/hands/1/")
            expect(phone.get_by_text("only an organiser can change it").first).to_be_visible()
            expect(phone.get_by_role("button", name="Save correction of hand 1")).to_have_count(0)
            stored = [h.data for h in signed_game.hands.order_by("number")]

        # Where everyone goes, by the progressive rule, from the stored results.
        if round_no < ROUNDS:
            results = [engine_result(game_of(t)) for t in tables]
            winners = [r.winner if r.winner in ("NS", "EW") else "NS" for r in results]
            where = progressive([names_at(t) for t in tables], winners)
            for index, (phone, table) in enumerate(zip(phones, tables, strict=True), start=1):
                phone.goto(f"{base}/nights/t/{table.token}/")
                lines = phone.get_by_test_id("next-seats").locator("li")
                expect(lines).to_have_count(4)
                goes = dict(line.split(": ", 1) for line in lines.all_inner_texts())
                assert set(goes) == set(names_at(table).values())
                if index == 1 and round_no == 1:
                    assert_fits_the_phone(phone)
                    shoot(phone, "night-next-seats-360", full_page=True)
                for name, place in goes.items():
                    if place == "sits out":
                        continue
                    match = re.fullmatch(r"table (\d), (North|East|South|West)", place)
                    assert match, place
                    table_no, seat = int(match[1]), match[2]
                    expected_table, how = where[name]
                    assert table_no == expected_table, (name, place, where[name])
                    assert seat in (("North", "East") if how == "stay" else ("South", "West")), (name, place)
            # The one who sat out comes back in the seat the movement gave whoever sits out now.
            after = {name: (t.table_no, seat) for t in night.tables.filter(round_no=round_no + 1)
                     for seat, name in names_at(t).items()}  # fmt: skip
            (sits_out,) = set(ROSTER) - set(after)
            assert sits_out not in byes.values()
            back_table, back_seat = after[byes[round_no]]
            assert back_table == where[sits_out][0]
            assert back_seat in ("NE" if where[sits_out][1] == "stay" else "SW")
            # Partners split: nobody partners the same player as in this round.
            before = {frozenset((n["N"], n["S"])) for n in map(names_at, tables)}
            before |= {frozenset((n["E"], n["W"])) for n in map(names_at, tables)}
            for t in night.tables.filter(round_no=round_no + 1):
                n = names_at(t)
                assert frozenset((n["N"], n["S"])) not in before and frozenset((n["E"], n["W"])) not in before
    assert signed_game is not None
    assert [h.data for h in signed_game.hands.order_by("number")] == stored
    assert not HandChange.objects.filter(game=signed_game, action="edit").exists()

    # The organiser corrects the signed game: it goes through, and the corrections name her.
    organiser.goto(f"{base}/g/{signed_game.code}/")
    names = names_at(NightTable.objects.get(game=signed_game))
    first = stored[0]
    bidding_side = "NS" if first["bidder"] in "NS" else "EW"
    new_ns = first["tricks"]["NS"] + (5 if bidding_side == "NS" else -5)
    correct_hand(organiser, 1, tricks={f"N–S ({names['N']} & {names['S']})": new_ns})
    change = HandChange.objects.get(game=signed_game, action="edit")
    assert change.actor_id == User.objects.get(username="alice").pk
    assert signed_game.hands.get(number=1).data["tricks"] == {"NS": new_ns, "EW": 25 - new_ns}
    organiser.goto(f"{base}/g/{signed_game.code}/history/")
    expect(organiser.get_by_role("main")).to_contain_text("alice")

    organiser.goto(f"{base}/nights/{night.pk}/")
    organiser.get_by_role("button", name="Finish the night").click()

    # The figures, worked out here from the stored games with the rules engine.
    expected = {name: {"games": 0, "wins": 0, "points": 0, "diff": 0, "chips": 0} for name in ROSTER}
    high_game: list[tuple[int, frozenset[str]]] = []
    paid: Counter[str] = Counter()  # chips paid towards the byes
    for round_no in range(1, ROUNDS + 1):
        round_chips: list[tuple[int, int, int, str]] = []  # (-chips, table, seat, name)
        for table in night.tables.filter(round_no=round_no).order_by("table_no"):
            game = game_of(table)
            result = check_record(
                {**game.settings_record(), "hands": [h.data for h in game.hands.order_by("number")]}
            )
            assert result.finished
            names = names_at(table)
            for side in ("NS", "EW"):
                other = "EW" if side == "NS" else "NS"
                for seat in side:
                    line = expected[names[seat]]
                    line["games"] += 1
                    line["wins"] += result.winner == side
                    line["points"] += result.scores[side]
                    line["diff"] += result.scores[side] - result.scores[other]
                    line["chips"] += result.chips[side]
                    round_chips.append((-result.chips[side], table.table_no, "NESW".index(seat), names[seat]))
                high_game.append((result.scores[side], frozenset(names[seat] for seat in side)))
        # The bye's fixed score, its chips paid by the round's 12 players: 3 // 12 = 0 each, the 3
        # over one each by the round's biggest chip winners (ties: table and seat order).
        sat_out = expected[byes[round_no]]
        sat_out["points"] += BYE_POINTS
        sat_out["diff"] += BYE_POINTS
        sat_out["chips"] += BYE_CHIPS
        for *_key, name in sorted(round_chips)[:BYE_CHIPS]:
            expected[name]["chips"] -= 1
            paid[name] += 1
    assert sum(line["chips"] for line in expected.values()) == 0

    standings = organiser
    standings.goto(f"{base}/nights/{night.pk}/standings/")
    rows = standings.get_by_role("table", name="Players").first.locator("tbody tr")
    expect(rows).to_have_count(len(ROSTER))
    shown: dict[str, dict[str, int]] = {}
    places: dict[str, int] = {}
    notes: dict[str, str] = {}
    for index in range(len(ROSTER)):
        cells = rows.nth(index).locator("th, td").all_inner_texts()
        head, *rest = cells[0].strip().split("\n")
        place, name = head.split(". ", 1)
        places[name] = int(place)
        notes[name] = " ".join(rest)
        games, wins, points, diff, chips = (int(cell) for cell in cells[1:6])
        shown[name] = {"games": games, "wins": wins, "points": points, "diff": diff, "chips": chips}
    assert shown == expected
    for round_no, name in byes.items():
        assert f"bye: fixed score in round {round_no} ({BYE_POINTS} points, {BYE_CHIPS} chips)" in notes[name]
    for name in ROSTER:
        chips = paid[name]
        note = f"paid {chips} chip{'s' if chips > 1 else ''} towards byes"
        assert (note in notes[name]) == bool(chips), (name, notes[name])

    # Places: chips, then wins, then points difference; level on all three share the place.
    def key(name: str) -> tuple[int, int, int]:
        line = expected[name]
        return (-line["chips"], -line["wins"], -line["diff"])

    ranked = sorted(ROSTER, key=key)
    want_places = {name: 1 + sum(key(other) < key(name) for other in ROSTER) for name in ROSTER}
    assert places == want_places, (places, want_places, ranked)

    organiser.goto(f"{base}/nights/{night.pk}/results/")
    prizes = organiser.locator(".night-prizes > li")
    expect(prizes).to_have_count(4)
    texts = prizes.all_inner_texts()
    for place, title in ((1, "1st place"), (2, "2nd place"), (3, "3rd place")):
        text = next(t for t in texts if t.startswith(title))
        winners = [name for name in ROSTER if want_places[name] == place]
        for name in ROSTER:
            assert (re.search(rf"\b{name}\b", text) is not None) == (name in winners), (title, text)
    best = max(points for points, _side in high_game)
    sides = [side for points, side in high_game if points == best]
    text = next(t for t in texts if t.startswith("High game"))
    assert f"{best} points" in text
    for name in ROSTER:
        assert (re.search(rf"\b{name}\b", text) is not None) == any(name in side for side in sides), text

    # A player's card at 360 px: the winner of the night.
    winner = ranked[0]
    organiser.goto(f"{base}/nights/{night.pk}/players/{Player.objects.get(name=winner).pk}/")
    expect(organiser.get_by_role("heading", name=winner).first).to_be_visible()
    organiser.set_viewport_size({"width": 360, "height": 740})
    assert_fits_the_phone(organiser)
    shoot(organiser, "player-card-360", full_page=True)
    for page in (organiser, board, *phones):
        page.context.close()
