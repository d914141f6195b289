"""A Check Pinochle game played to the end on a phone, checked against the rules engine."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from scoring.rules.engine import check_record, score_record
from scoring.services.results import game_record
from tests.browser import (
    assert_fits_the_phone,
    award_row,
    correct_hand,
    entry,
    fill_hand,
    open_hand,
    save_hand,
    shoot,
    start_game,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NS, EW = "N–S (Anna & Cecilia)", "E–W (Bo & David)"
ANNA, BO, CECILIA, DAVID = "North (Anna)", "East (Bo)", "South (Cecilia)", "West (David)"
RUN, MARRIAGE, TRUMP_MARRIAGE = (
    "Run (A 10 K Q J of trump)",
    "Marriage (K Q, other suit)",
    "Trump marriage (K Q of trump)",
)
PINOCHLE, ACES, KINGS = "Pinochle (Q♠ J♦)", "Aces around", "Kings around"

# What the table said, as docs/record-format.md hands; the page must store exactly these.
HANDS = [
    {
        "bidder": "N",
        "bid": 27,
        "trump": "hearts",
        "melds": {"N": ["run", "marriage"], "E": ["aces"], "S": ["pinochle"]},
        "tricks": {"NS": 15, "EW": 10},
    },
    {"passed": True},
    {
        "bidder": "E",
        "bid": 25,
        "trump": "spades",
        "melds": {"N": ["kings"], "E": ["trump_marriage"]},
        "tricks": {"NS": 14, "EW": 11},
    },  # entered with 15/10, corrected after hand 6
    {
        "bidder": "S",
        "bid": 22,
        "trump": "diamonds",
        "melds": {"S": ["trump_marriage"]},
        "tricks": {"NS": 25, "EW": 0},
        "tricks_won": {"NS": 12, "EW": 0},
    },
    {
        "bidder": "W",
        "bid": 21,
        "trump": "clubs",
        "melds": {"W": ["trump_marriage", "pinochle"]},
        "tricks": {"NS": 11, "EW": 14},
    },
    {
        "bidder": "N",
        "bid": 20,
        "trump": "spades",
        "melds": {"N": ["trump_marriage"]},
        "tricks": {"NS": 13, "EW": 12},
    },
    {
        "bidder": "N",
        "bid": 24,
        "trump": "hearts",
        "melds": {"N": ["trump_marriage"]},
        "tricks": {"NS": 20, "EW": 5},
    },
]


def test_a_check_pinochle_game_to_the_end(page, live_server):
    start_game(
        page,
        live_server.url,
        seats="4 (two partnerships)",
        variant="Check Pinochle",
        names={"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"},
        shot="check-01-setup",
    )
    expect(page.get_by_text("Hand 1: North (Anna) deals")).to_be_visible()

    # Hand 1 of docs/rules.md, "Worked example"; the bid goes in with the stepper first.
    bid = entry(page).get_by_role("spinbutton", name="Bid")
    entry(page).get_by_role("button", name="Raise bid").click()
    expect(bid).to_have_value("20")
    entry(page).get_by_role("button", name="Raise bid").click()
    expect(bid).to_have_value("21")
    entry(page).get_by_role("button", name="Lower bid").click()
    expect(bid).to_have_value("20")
    fill_hand(
        page,
        bidder=ANNA,
        bid=27,
        trump="Hearts",
        melds={ANNA: {RUN: 1, MARRIAGE: 1}, CECILIA: {PINOCHLE: 1}, BO: {ACES: 1}},
        tricks={NS: 15},
    )
    expect(entry(page).get_by_role("spinbutton", name=EW, exact=True)).to_have_value("10")
    # The grid's sums row: North's (Anna's) column adds up to 17 points and 2 chips.
    sums = entry(page).locator("table.meld-grid tr.seat-sums")
    expect(sums.get_by_role("rowheader")).to_have_text("pts · Chips:")
    expect(sums.locator(".seat-sum").first).to_have_text("17 · 2")
    expect(page.locator("#preview")).to_contain_text("N–S make 27: +36 · E–W +20")
    expect(page.locator("#preview")).to_contain_text("Chips: N–S +4, E–W -4")
    assert_fits_the_phone(page)
    shoot(page, "check-02-hand-entry-meld-picker", element=page.locator("table.meld-grid").first)
    page.locator("#preview").scroll_into_view_if_needed()
    shoot(page, "check-03-preview")
    save_hand(page, 1)
    expect(page.get_by_test_id("total-NS")).to_have_text("36")
    expect(page.get_by_test_id("chips-NS")).to_have_text("4 chips")
    expect(page.get_by_text("Hand 2: East (Bo) deals")).to_be_visible()

    # Hand 2: all four pass.
    fill_hand(page, passed=True)
    save_hand(page, 2, preview="All passed: no score, no chips.")

    # Hand 3: E–W are set (entered with the wrong tricks, corrected later).
    fill_hand(
        page,
        bidder=BO,
        bid=25,
        trump="Spades",
        melds={ANNA: {KINGS: 1}, BO: {TRUMP_MARRIAGE: 1}},
        tricks={NS: 15},
    )
    save_hand(page, 3, preview="E–W are set on 25: -25 · N–S +23")

    # Hand 4: N–S take every trick.
    fill_hand(page, bidder=CECILIA, bid=22, trump="Diamonds", melds={CECILIA: {TRUMP_MARRIAGE: 1}}, slam=NS)
    expect(entry(page).get_by_role("spinbutton", name=NS, exact=True)).to_have_value("25")
    save_hand(page, 4, preview="Chips: N–S +7, E–W -7")

    fill_hand(
        page,
        bidder=DAVID,
        bid=21,
        trump="Clubs",
        melds={DAVID: {TRUMP_MARRIAGE: 1, PINOCHLE: 1}},
        tricks={EW: 14},
    )
    save_hand(page, 5, preview="E–W make 21: +22 · N–S +11")

    fill_hand(page, bidder=ANNA, bid=20, trump="Spades", melds={ANNA: {TRUMP_MARRIAGE: 1}}, tricks={NS: 13})
    save_hand(page, 6, preview="N–S are set on 20: -20")
    expect(page.get_by_test_id("total-NS")).to_have_text("79")
    assert_fits_the_phone(page)
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "check-04-scoreboard")
    shoot(page, "check-04b-history", element=page.locator("#history"))

    # A correction that would have ended the game at hand 5 (N–S 101) is refused...
    open_hand(page, 3)
    page.get_by_role("link", name="Edit hand 3", exact=True).click()
    fill_hand(page, tricks={NS: 17})
    # The live preview says it first (and the page settles before the Save tap).
    expect(page.locator("#preview")).to_contain_text("This change would end the game after hand 5")
    page.get_by_role("button", name="Save correction of hand 3").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "This change would end the game after hand 5, but later hands are recorded."
    )
    page.get_by_role("link", name="Back to the scoreboard").click()
    expect(page.get_by_test_id("total-NS")).to_have_text("79")
    # ... and the real mistake is fixed: hand 3's tricks were 14/11, not 15/10.
    correct_hand(page, 3, tricks={NS: 14})
    expect(page.get_by_test_id("total-NS")).to_have_text("78")
    expect(page.get_by_test_id("total-EW")).to_have_text("29")

    fill_hand(page, bidder=ANNA, bid=24, trump="Hearts", melds={ANNA: {TRUMP_MARRIAGE: 1}}, tricks={NS: 20})
    save_hand(page, 7, preview="This hand ends the game: N–S reach the target.")

    # The end: what the page shows is what the engine says about the same record.
    game = Game.objects.get()
    assert game_record(game)["hands"] == HANDS
    record = {
        "seats": 4,
        "variant": "check",
        "players": {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"},
        "hands": HANDS,
    }
    expected = score_record(record)["result"]
    assert expected["finished"] and expected["winner"] == "NS"
    result = check_record(record)

    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.get_by_test_id("winner")).to_have_text(NS)
    expect(entry(page)).to_have_count(0)
    for side in ("NS", "EW"):
        expect(page.get_by_test_id(f"total-{side}")).to_have_text(str(expected["scores"][side]))
    for label, kind in (
        ("Meld chips won", "meld"),
        ("Contract chips won", "contract"),
        ("Slam chips won", "slam"),
    ):
        assert award_row(page, label) == [
            sum(h.chips_won[side][kind] for h in result.hands) for side in ("NS", "EW")
        ]
    assert award_row(page, "Game chips") == [expected["game_chips"]["NS"], expected["game_chips"]["EW"]]
    assert award_row(page, "Final chips") == [expected["chips"]["NS"], expected["chips"]["EW"]]
    assert award_row(page, "Final chips") == [33, -33]  # by hand: 16 in play + 17 game chips
    assert_fits_the_phone(page)
    shoot(page, "check-05-end-of-game-awards", element=page.locator("#game-over"))

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Games").click()
    expect(
        page.get_by_role("link", name=re.compile(r"^Check Pinochle · Single deck · 4 players"))
    ).to_contain_text("winner N–S")
    assert_fits_the_phone(page)
    shoot(page, "check-06-games-list")
