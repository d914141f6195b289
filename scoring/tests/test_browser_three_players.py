"""A three-player standard game played to the end on a phone, checked against the rules engine."""

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from scoring.rules.engine import score_record
from scoring.services.results import game_record
from tests.browser import (
    assert_fits_the_phone,
    correct_hand,
    entry,
    fill_hand,
    save_hand,
    shoot,
    start_game,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANNA, BO, CECILIA = "North (Anna)", "East (Bo)", "South (Cecilia)"

HANDS = [
    {
        "bidder": "E",
        "bid": 21,
        "trump": "spades",
        "melds": {"E": ["marriage", "aces"]},
        "tricks": {"N": 5, "E": 14, "S": 6},
    },  # entered as 5/12/8, corrected after hand 6
    {
        "bidder": "S",
        "bid": 20,
        "meld_points": {"N": 0, "E": 4, "S": 10},
        "tricks": {"N": 4, "E": 10, "S": 11},
    },
    {
        "bidder": "N",
        "bid": 25,
        "trump": "diamonds",
        "melds": {"N": ["run"]},
        "tricks": {"N": 6, "E": 10, "S": 9},
    },
    {
        "bidder": "S",
        "bid": 22,
        "trump": "clubs",
        "melds": {"S": ["pinochle", "kings"]},
        "tricks": {"N": 0, "E": 0, "S": 25},
        "tricks_won": {"N": 0, "E": 0, "S": 15},
    },
    {
        "bidder": "E",
        "bid": 20,
        "trump": "hearts",
        "melds": {"E": ["trump_marriage", "dix"]},
        "tricks": {"N": 5, "E": 15, "S": 5},
    },
    {"bidder": "N", "bid": 20, "trump": "spades", "tricks": {"N": 10, "E": 10, "S": 5}},
    {
        "bidder": "S",
        "bid": 20,
        "trump": "hearts",
        "melds": {"S": ["aces"]},
        "tricks": {"N": 8, "E": 7, "S": 10},
    },
]


def test_a_three_player_game_to_the_end(page, live_server):
    start_game(
        page,
        live_server.url,
        seats="3",
        names={"North": "Anna", "East": "Bo", "South": "Cecilia"},
        target=100,
        shot="three-01-setup",
    )
    expect(page.get_by_text("to 100 · min bid 20")).to_be_visible()
    expect(entry(page).get_by_role("group", name="Bidder").get_by_text("West")).to_have_count(0)

    fill_hand(
        page,
        bidder=BO,
        bid=21,
        trump="Spades",
        melds={BO: {"Marriage (K Q, other suit)": 1, "Aces around": 1}},
        tricks={ANNA: 5, BO: 12},
    )
    expect(entry(page).get_by_role("spinbutton", name=CECILIA, exact=True).last).to_have_value("8")
    save_hand(page, 1, preview="E makes 21: +24 · N +5 · S +8")

    # Hand 2 in quick mode: plain meld points, no trump named.
    fill_hand(page, bidder=CECILIA, bid=20, quick={BO: 4, CECILIA: 10}, tricks={ANNA: 4, BO: 10})
    assert_fits_the_phone(page)
    entry(page).locator(".meld-quick").scroll_into_view_if_needed()
    shoot(page, "three-02-hand-entry-quick-mode")
    save_hand(page, 2, preview="S makes 20: +21")

    fill_hand(
        page,
        bidder=ANNA,
        bid=25,
        trump="Diamonds",
        melds={ANNA: {"Run (A 10 K Q J of trump)": 1}},
        tricks={ANNA: 6, BO: 10},
    )
    save_hand(page, 3, preview="N is set on 25: -25 · E +10 · S +9")

    fill_hand(
        page,
        bidder=CECILIA,
        bid=22,
        trump="Clubs",
        melds={CECILIA: {"Kings around": 1, "Pinochle (Q♠ J♦)": 1}},
        slam=CECILIA,
    )
    save_hand(page, 4, preview="S makes 22: +37")

    fill_hand(
        page,
        bidder=BO,
        bid=20,
        trump="Hearts",
        melds={BO: {"Trump marriage (K Q of trump)": 1, "Dix (9 of trump)": 1}},
        tricks={ANNA: 5, BO: 15},
    )
    save_hand(page, 5, preview="E makes 20: +20")

    fill_hand(page, bidder=ANNA, bid=20, trump="Spades", tricks={ANNA: 10, BO: 10})
    save_hand(page, 6, preview="N is set on 20: -20")
    expect(page.get_by_test_id("total-E")).to_have_text("78")
    expect(page.get_by_test_id("total-S")).to_have_text("85")
    expect(page.locator("#hand-4")).to_contain_text("SLAM S")
    expect(page.locator("#hand-3")).to_contain_text("SET")
    page.evaluate("window.scrollTo(0, 0)")
    assert_fits_the_phone(page)
    shoot(page, "three-04-scoreboard")

    correct_hand(page, 1, tricks={BO: 14, CECILIA: 6})
    expect(page.get_by_test_id("total-E")).to_have_text("80")
    expect(page.get_by_test_id("total-S")).to_have_text("83")

    fill_hand(
        page,
        bidder=CECILIA,
        bid=20,
        trump="Hearts",
        melds={CECILIA: {"Aces around": 1}},
        tricks={ANNA: 8, BO: 7},
    )
    save_hand(page, 7, preview="This hand ends the game: S reaches the target.")

    game = Game.objects.get()
    assert game_record(game)["hands"] == HANDS
    expected = score_record({"seats": 3, "target": 100, "hands": HANDS})["result"]
    assert expected["finished"] and expected["winner"] == "S"
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.get_by_test_id("winner")).to_have_text(CECILIA)
    for seat in "NES":
        expect(page.get_by_test_id(f"total-{seat}")).to_have_text(str(expected["scores"][seat]))
    expect(page.get_by_text("Final points: N -23 · E 87 · S 103")).to_be_visible()
    expect(page.get_by_role("table", name="Chip awards")).to_have_count(0)
    expect(entry(page)).to_have_count(0)
    assert_fits_the_phone(page)
    shoot(page, "three-05-end-of-game", element=page.locator("#game-over"))
