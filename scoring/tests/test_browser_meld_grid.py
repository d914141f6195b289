"""Real hands in the meld grid: every seat's counts at once, a tap on a count adds one (with the
page's script) or the count is typed (without it); the stored hand and the page say the same."""

import pytest
from playwright.sync_api import Locator, Page, expect

from scoring.models import Hand
from tests.browser import (
    assert_fits_the_phone,
    entry,
    fill_hand,
    meld_count,
    open_hand,
    save_hand,
    start_game,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
ANNA, BO, CECILIA, DAVID = "North (Anna)", "East (Bo)", "South (Cecilia)", "West (David)"
NS, EW = "N–S (Anna & Cecilia)", "E–W (Bo & David)"
RUN, TRUMP_MARRIAGE, MARRIAGE = (
    "Run (A 10 K Q J of trump)",
    "Trump marriage (K Q of trump)",
    "Marriage (K Q, other suit)",
)
PINOCHLE, ACES, KINGS = "Pinochle (Q♠ J♦)", "Aces around", "Kings around"


def sums(page: Page) -> list[str]:
    """The grid's sums row, seat by seat (points, and chips in Check Pinochle)."""
    return entry(page).locator("table.meld-grid tr.seat-sums td .seat-sum").all_inner_texts()


def one_less(form: Locator, item: str, seat: str) -> Locator:
    """The − under `item`'s count in `seat`'s column: takes one back."""
    return form.get_by_role("button", name=f"One less: {item}, {seat}", exact=True)


def side_row(page: Page, number: int, side: str) -> Locator:
    """A side's line of hand `number`'s details in the history: meld, tricks, points (chips), total."""
    open_hand(page, number)
    table = page.locator(f"#hand-{number} table.mini")
    return table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=side, exact=True))


def test_a_four_seat_check_hand_goes_in_with_a_tap_per_item(page, live_server):
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES, variant="Check Pinochle")
    fill_hand(
        page,
        bidder=ANNA,
        bid=27,
        trump="Hearts",
        melds={ANNA: {RUN: 1, MARRIAGE: 1}, BO: {ACES: 1}, CECILIA: {PINOCHLE: 1}, DAVID: {MARRIAGE: 1}},
    )
    form = entry(page)
    # Every seat at once: nothing to open, and each column adds up as it is tapped.
    expect(form.locator("details.seat-melds")).to_have_count(0)
    assert sums(page) == ["17 · 2", "10 · 2", "4 · 0", "2 · 0"]
    # A second tap on an item a seat can show once keeps it (a double tap, or a tap to make sure);
    # only its − takes it back; Clear empties a seat.
    meld_count(form, KINGS, CECILIA).click()
    expect(meld_count(form, KINGS, CECILIA)).to_have_accessible_name(f"{KINGS}, {CECILIA}: 1")
    meld_count(form, KINGS, CECILIA).click()
    expect(meld_count(form, KINGS, CECILIA)).to_have_accessible_name(f"{KINGS}, {CECILIA}: 1")
    one_less(form, KINGS, CECILIA).click()
    expect(meld_count(form, KINGS, CECILIA)).to_have_accessible_name(f"{KINGS}, {CECILIA}: 0")
    expect(one_less(form, KINGS, CECILIA)).to_be_hidden()  # nothing left to take back
    meld_count(form, MARRIAGE, DAVID).click()
    expect(meld_count(form, MARRIAGE, DAVID)).to_have_accessible_name(f"{MARRIAGE}, {DAVID}: 2")
    # A count goes up to what one seat can hold with a single deck: two trump marriages (two kings
    # and two queens of trump); a tap more keeps two, and each − takes one back.
    for shown in (1, 2, 2):
        meld_count(form, TRUMP_MARRIAGE, DAVID).click()
        expect(meld_count(form, TRUMP_MARRIAGE, DAVID)).to_have_accessible_name(
            f"{TRUMP_MARRIAGE}, {DAVID}: {shown}"
        )
    for shown in (1, 0):
        one_less(form, TRUMP_MARRIAGE, DAVID).click()
        expect(meld_count(form, TRUMP_MARRIAGE, DAVID)).to_have_accessible_name(
            f"{TRUMP_MARRIAGE}, {DAVID}: {shown}"
        )
    form.get_by_role("button", name=f"Clear: {DAVID}", exact=True).click()
    expect(meld_count(form, MARRIAGE, DAVID)).to_have_accessible_name(f"{MARRIAGE}, {DAVID}: 0")
    meld_count(form, MARRIAGE, DAVID).click()
    assert sums(page) == ["17 · 2", "10 · 2", "4 · 0", "2 · 0"]
    fill_hand(page, tricks={NS: 15})
    expect(form.get_by_role("spinbutton", name=EW, exact=True)).to_have_value("10")
    expect(page.locator("#preview")).to_contain_text("N–S make 27: +36 · E–W +22")
    assert_fits_the_phone(page)
    save_hand(page, 1)

    assert Hand.objects.get().data["melds"] == {
        "N": ["run", "marriage"],
        "E": ["aces"],
        "S": ["pinochle"],
        "W": ["marriage"],
    }
    # The hand's row: meld, tricks, points and chips of each side, as the grid said.
    expect(side_row(page, 1, "N–S").get_by_role("cell")).to_have_text(["21", "15", "+36", "+4", "36"])
    expect(side_row(page, 1, "E–W").get_by_role("cell")).to_have_text(["12", "10", "+22", "-4", "22"])


DOUBLE_MELDS = {
    ANNA: {RUN: 1, TRUMP_MARRIAGE: 1},
    BO: {"Double aces": 1},
    CECILIA: {PINOCHLE: 1, KINGS: 1},
    DAVID: {MARRIAGE: 1},
}
DOUBLE_STORED = {
    "N": ["run", "trump_marriage"],
    "E": ["double_aces"],
    "S": ["pinochle", "kings"],
    "W": ["marriage"],
}


def start_double_deck(page: Page, url: str) -> None:
    page.goto(url + "/games/new")
    page.get_by_role("group", name="Seats at the table").get_by_text(
        "4 (two partnerships)", exact=True
    ).click()
    page.locator("label", has_text="Double").first.click()
    for seat, name in NAMES.items():
        page.get_by_role("textbox", name=seat).fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()


def test_a_double_deck_hand_goes_in_with_a_tap_per_item(page, live_server):
    page.set_viewport_size({"width": 390, "height": 844})
    start_double_deck(page, live_server.url)
    fill_hand(page, bidder=ANNA, bid=50, trump="Spades", melds=DOUBLE_MELDS, tricks={NS: 30})
    assert sums(page) == ["19", "100", "12", "2"]
    save_hand(page, 1)
    assert Hand.objects.get().data["melds"] == DOUBLE_STORED
    expect(side_row(page, 1, "N–S").get_by_role("cell").first).to_have_text("31")
    expect(side_row(page, 1, "E–W").get_by_role("cell").first).to_have_text("102")


@pytest.fixture
def page_without_js(browser):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    yield context.new_page()
    context.close()


def test_a_double_deck_hand_goes_in_typed_without_javascript(page_without_js, live_server):
    page = page_without_js
    start_double_deck(page, live_server.url)
    form = entry(page)
    form.get_by_role("group", name="Bidder").get_by_text(ANNA, exact=True).click()
    form.get_by_role("spinbutton", name="Bid").fill("50")
    form.get_by_role("group", name="Trump").get_by_text("Spades").click()
    # No buttons to tap: each seat's count is a number field named by its item and seat.
    expect(form.locator("button.tally").first).to_be_hidden()
    form.locator("details.rare-melds > summary").click()  # the doubles open without a script
    for seat, items in DOUBLE_MELDS.items():
        for item, count in items.items():
            form.get_by_role("spinbutton", name=f"{item}, {seat}", exact=True).fill(str(count))
    form.get_by_role("spinbutton", name=NS, exact=True).fill("30")
    assert_fits_the_phone(page)
    form.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_text("Hand 1 saved.")).to_be_visible()
    assert Hand.objects.get().data["melds"] == DOUBLE_STORED
    # The history's rows open without a script too (<details>).
    expect(side_row(page, 1, "N–S").get_by_role("cell").first).to_have_text("31")
    expect(side_row(page, 1, "E–W").get_by_role("cell").first).to_have_text("102")


def test_a_seats_points_and_chips_stay_inside_its_column_at_360(page, live_server):
    """Check Pinochle at 360 px: a seat with 53 points and 12 chips of meld. Its sum ("53 · 12") is
    wider than the 45 px column; it wraps inside it rather than running into the next seat's "4 · 0"
    (read across the table as one number)."""
    start_game(page, live_server.url, seats="4 (two partnerships)", names=NAMES, variant="Check Pinochle")
    page.set_viewport_size({"width": 360, "height": 740})
    fill_hand(
        page,
        melds={
            ANNA: {
                RUN: 1,
                TRUMP_MARRIAGE: 1,
                MARRIAGE: 1,
                PINOCHLE: 1,
                ACES: 1,
                KINGS: 1,
                "Queens around": 1,
                "Jacks around": 1,
            },
            BO: {TRUMP_MARRIAGE: 1},
        },
    )
    assert sums(page)[:2] == ["53 · 12", "4 · 0"]
    spilled = entry(page).evaluate(
        """form => Array.from(form.querySelectorAll('tr.seat-sums td')).filter(td => {
             const sum = td.querySelector('.seat-sum');
             return sum.scrollWidth > sum.clientWidth + 0.5
               || sum.getBoundingClientRect().right > td.getBoundingClientRect().right + 0.5;
           }).map(td => td.textContent.trim())"""
    )
    assert spilled == []
