"""The house rule "tens above 100" (`options.bid_steps`, docs/rules.md "Bid steps"): plain engine,
no database."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules.engine import score_record
from scoring.rules.errors import RecordError
from scoring.rules.rules_page import bid_run
from scoring.rules.tables import MAX_BID, bid_step_problem, hand_numbers, next_bid, step_bid, step_typed_bid

TENS = "tens_above_100"


def double_deck(bid: int, steps: str | None = TENS, **settings: Any) -> dict[str, Any]:
    """One double-deck hand: N bids `bid`, N–S meld 60 and take 40 of the 50 trick points."""
    hand = {"bidder": "N", "bid": bid, "meld_points": {"NS": 60, "EW": 0}, "tricks": {"NS": 40, "EW": 10}}
    return {"deck": "double", "options": {"bid_steps": steps}, "hands": [hand], **settings}


def test_the_tens_ladder_is_the_rule_books_up_to_100_then_multiples_of_10():
    """Minimum 50: by ones to 60 (50 + 10), multiples of 5 to 100, then 110, 120, ...

    From 58 the stepper's "+" goes 58, 59, 60, 65, ..., 95, 100, and then 110 (not 105), 120."""
    ladder = bid_run(58, 50, "double", 14, steps=TENS)
    assert ladder == [58, 59, 60, 65, 70, 75, 80, 85, 90, 95, 100, 110, 120, 130]
    legal = [bid for bid in range(95, 131) if bid_step_problem(bid, 50, "double", TENS) is None]
    assert legal == [95, 100, 110, 120, 130]


def test_the_stepper_goes_from_100_to_110_and_back():
    """ "+" from 100 skips 105 (off the tens) to 110; "−" from 110 comes back to 100."""
    assert step_bid(100, 50, "double", up=True, steps=TENS) == 110
    assert step_bid(110, 50, "double", up=False, steps=TENS) == 100
    assert step_bid(100, 50, "double", up=True) == 105  # the rule book's ladder


def test_at_points_times_ten_the_stepper_takes_and_gives_the_bid_as_typed():
    """With points ×10 the table types 250 for a bid of 25: "+" gives 260 and "−" 240; a figure
    between two bids (255) steps to the bid beside it, 260 up or 250 down, not past it; an empty
    field or one below the minimum steps to the minimum as typed (200)."""

    def single(figure: int | None, *, up: bool) -> int:
        return step_typed_bid(figure, 20, "single", up=up, scale=10)

    assert (single(250, up=True), single(250, up=False)) == (260, 240)
    assert (single(255, up=True), single(255, up=False)) == (260, 250)
    assert (single(None, up=True), single(150, up=False)) == (200, 200)


def test_at_points_times_ten_the_tens_ladder_goes_from_1000_to_1100_and_back():
    """The tens above 100 at scale 10: "+" from 1000 (a bid of 100) gives 1100, "−" from 1100
    gives 1000, and a figure between them steps to the one beside it."""

    def double(figure: int, *, up: bool) -> int:
        return step_typed_bid(figure, 50, "double", up=up, steps=TENS, scale=10)

    assert (double(1000, up=True), double(1100, up=False)) == (1100, 1000)
    assert (double(1050, up=True), double(1050, up=False)) == (1100, 1000)


def test_at_the_rule_books_scale_the_typed_bid_is_the_bid():
    assert step_typed_bid(58, 50, "double", up=True) == step_bid(58, 50, "double", up=True) == 59
    assert step_typed_bid(100, 50, "double", up=True, steps=TENS) == 110


def test_a_made_contract_above_100_on_the_tens_ladder():
    """N bids 110: N–S meld 60 + tricks 40 = 100 < 110, set: N–S −110, E–W 0 + 10 = +10."""
    result = score_record(double_deck(110))
    assert result["hands"][0]["result"] == "set"
    assert result["hands"][0]["points"] == {"NS": -110, "EW": 10}


def test_a_bid_off_the_tens_is_refused_naming_the_bid():
    """105 is a multiple of 5 (legal by the rule book) but above 100 this game bids in tens."""
    with pytest.raises(RecordError) as refused:
        score_record(double_deck(105))
    error = refused.value
    assert (error.code, error.field, error.hand) == ("bid_off_tens", "bid", 1)
    assert str(error) == "hand 1: bid 105 is off its step: above 100 this game's bids are multiples of 10"


def test_the_rule_books_ladder_still_takes_105():
    """Without the house rule (missing, null or "standard") 105 is a legal double-deck bid:
    60 + 40 = 100 < 105, set, N–S −105."""
    for steps in (None, "standard"):
        assert score_record(double_deck(105, steps))["hands"][0]["points"] == {"NS": -105, "EW": 10}
    record = double_deck(105)
    del record["options"]
    assert score_record(record)["hands"][0]["points"] == {"NS": -105, "EW": 10}


def test_below_100_the_rule_books_steps_still_hold():
    """63 is off the rule book's step (above 60 multiples of 5), house rule or not."""
    with pytest.raises(RecordError) as refused:
        score_record(double_deck(63))
    assert (refused.value.code, refused.value.field) == ("bid_off_step", "bid")


def test_the_minimum_bid_itself_is_always_a_legal_bid():
    """Minimum 105 on the tens ladder: 105 may be bid, then 110, 120 (106 to 109 are off)."""
    assert bid_run(105, 105, "double", 3, steps=TENS) == [105, 110, 120]
    assert score_record(double_deck(105, min_bid=105))["hands"][0]["result"] == "set"


@pytest.mark.parametrize(
    ("steps", "code"),
    [("tens", "not_one_of"), (10, "not_one_of"), (True, "not_one_of")],
)
def test_an_unknown_ladder_is_refused_naming_the_option(steps, code):
    with pytest.raises(RecordError) as refused:
        score_record(double_deck(100, steps))
    assert (refused.value.code, refused.value.field) == (code, "options.bid_steps")


def test_the_tens_ladder_needs_a_double_deck():
    """A single deck's bids are any whole number: the house rule is refused there, naming it."""
    with pytest.raises(RecordError) as refused:
        score_record({"deck": "single", "options": {"bid_steps": TENS}, "hands": []})
    assert (refused.value.code, refused.value.field) == ("bid_steps_single_deck", "options.bid_steps")
    assert "options.bid_steps" in str(refused.value)


def _expanded(runs: list[list[int]]) -> list[int]:
    return sorted({bid for first, step, last in runs for bid in range(first, last + 1, step)})


@pytest.mark.parametrize(
    ("deck", "min_bid", "steps"),
    [("single", 20, "standard"), ("double", 50, "standard"), ("double", 50, TENS), ("double", 75, TENS)],
)
def test_the_phones_legal_bids_are_the_engines_next_bid_chain(deck, min_bid, steps):
    """The hand form's numbers list every legal bid, the tens rung only when the game plays it."""
    chain = [min_bid]
    while (following := next_bid(chain[-1], min_bid, deck, steps)) <= MAX_BID:
        chain.append(following)
    numbers = hand_numbers(deck=deck, min_bid=min_bid, seats=4, chips_in_play=False, bid_steps=steps)
    assert _expanded(numbers["bids"]) == chain  # type: ignore[arg-type]
