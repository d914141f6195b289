"""The phone adds up melds and steps the bid offline, from the numbers the page hands it, and
comes to the engine's answers: the page's own sum over every meld item, every pair of items and
every roundhouse equals `meld_sum`, and its stepper walks exactly the engine's `next_bid` chain."""

from __future__ import annotations

from itertools import combinations_with_replacement, product

import pytest
from playwright.sync_api import Page, expect

from scoring.rules.melds import meld_sum
from scoring.rules.tables import MAX_BID, ROUNDHOUSE_FAMILIES, meld_items_for, next_bid

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}


def _new_game(
    page: Page, url: str, *, deck: str = "Single", variant: str | None = None, tens: bool = False
) -> None:
    page.goto(url + "/games/new")
    page.get_by_role("group", name="Seats at the table").get_by_text(
        "4 (two partnerships)", exact=True
    ).click()
    page.get_by_role("group", name="Deck").get_by_text(deck, exact=False).first.click()
    if variant:
        page.get_by_role("group", name="Game").get_by_text(variant, exact=True).click()
    if tens:
        page.get_by_role("group", name="Bid steps").get_by_text("Tens above 100").click()
    for seat, name in NAMES.items():
        page.get_by_role("textbox", name=seat).fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    # The page's scripts are deferred: the heading can show before they have run.
    page.wait_for_function("() => window.pinochle !== undefined && window.pinochle.stepBid !== undefined")


def _meld_cases(deck: str) -> list[dict[str, int]]:
    """Every item alone, every pair (an item twice too), and kings and queens around at every level
    together, alone and with each other item."""
    names = [item.name for item in meld_items_for(deck)]
    cases: list[dict[str, int]] = [{name: 1} for name in names]
    for first, second in combinations_with_replacement(names, 2):
        cases.append({first: 2} if first == second else {first: 1, second: 1})
    families = [[item.name for item in meld_items_for(deck) if item.family == f] for f in ROUNDHOUSE_FAMILIES]
    for roundhouse in product(*families):
        cases.append(dict.fromkeys(roundhouse, 1))
        cases.extend({**dict.fromkeys(roundhouse, 1), name: 1} for name in names if name not in roundhouse)
    return cases


@pytest.mark.parametrize(
    ("deck", "variant", "chips_in_play"),
    [("single", None, False), ("single", "Check Pinochle", True), ("double", None, False)],
)
def test_the_phones_meld_sum_is_the_engines(live_server, page: Page, deck, variant, chips_in_play):
    _new_game(page, live_server.url, deck=deck.capitalize(), variant=variant)
    cases = _meld_cases(deck)
    phone = page.evaluate("cases => cases.map(c => window.pinochle.meldSum(c))", cases)
    engine = [meld_sum(case, deck, chips_in_play=chips_in_play) for case in cases]
    assert [(sum_["points"], sum_["chips"]) for sum_ in phone] == engine
    if chips_in_play:  # the roundhouse's chips are among them
        assert page.evaluate("window.pinochle.meldSum({kings: 1, queens: 1})") == {"points": 14, "chips": 7}


def _engine_chain(min_bid: int, deck: str, steps: str) -> list[int]:
    chain = [min_bid]
    while (following := next_bid(chain[-1], min_bid, deck, steps)) <= MAX_BID:
        chain.append(following)
    return chain


# The phone's "+" from an empty bid to where it stops, and its "−" back down from there.
WALK = """() => {
  const walk = (bid, up, seen) => {
    for (;;) {
      const next = window.pinochle.stepBid(bid, up);
      if (next === bid) return seen;
      seen.push(next);
      bid = next;
    }
  };
  const up = walk(NaN, true, []);
  return [up, walk(up[up.length - 1], false, [up[up.length - 1]])];
}"""


@pytest.mark.parametrize(
    ("deck", "tens", "min_bid", "steps"),
    [
        ("single", False, 20, "standard"),
        ("double", False, 50, "standard"),
        ("double", True, 50, "tens_above_100"),
    ],
)
def test_the_phones_bid_stepper_walks_the_engines_next_bid_chain(
    live_server, page: Page, deck, tens, min_bid, steps
):
    _new_game(page, live_server.url, deck=deck.capitalize(), tens=tens)
    up, down = page.evaluate(WALK)
    chain = _engine_chain(min_bid, deck, steps)
    assert up == chain
    assert down == chain[::-1]
    # A typed bid off the list steps to the nearest listed bid above or below.
    off = next(bid for bid in range(min_bid, MAX_BID) if bid not in chain) if deck == "double" else None
    if off is not None:
        above = min(bid for bid in chain if bid > off)
        below = max(bid for bid in chain if bid < off)
        assert page.evaluate(
            f"[window.pinochle.stepBid({off}, true), window.pinochle.stepBid({off}, false)]"
        ) == [
            above,
            below,
        ]
