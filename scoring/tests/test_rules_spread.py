"""The house rule "a winning spread" (`options.spread`, docs/rules.md "A winning spread (house
rule)"): plain engine, no database."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules.engine import check_record, score_record
from scoring.rules.errors import RecordError


def made(bidder: str, meld: int, tricks: int) -> dict[str, Any]:
    """A 4-seat single-deck hand: `bidder` bids 20 and makes it with `meld` meld and `tricks` of
    the 25 trick points; the other side melds nothing and takes the rest."""
    us = "NS" if bidder in "NS" else "EW"
    them = "EW" if us == "NS" else "NS"
    return {"bidder": bidder, "bid": 20, "meld_points": {us: meld}, "tricks": {us: tricks, them: 25 - tricks}}


def record(hands: list[dict[str, Any]], spread: int | None, **settings: Any) -> dict[str, Any]:
    return {"seats": 4, "options": {"spread": spread}, "hands": hands, **settings}


def test_a_lead_of_the_spread_ends_the_game_short_of_the_target():
    """Spread 50, target 150. Hand 1: N–S 30 + 20 = +50, E–W +5: lead 45, play on.
    Hand 2: N–S 10 + 15 = +25 (75), E–W +10 (15): lead 60 ≥ 50, N–S win on points after hand 2."""
    result = score_record(record([made("N", 30, 20), made("S", 10, 15)], 50))
    assert [hand["totals"] for hand in result["hands"]] == [{"NS": 50, "EW": 5}, {"NS": 75, "EW": 15}]
    outcome = result["result"]
    assert (outcome["finished"], outcome["reached"], outcome["winner"], outcome["ended_by"]) == (
        True,
        "NS",
        "NS",
        "spread",
    )


def test_a_lead_of_exactly_the_spread_ends_it():
    """Spread 45: hand 1 above leaves N–S 50 · E–W 5, a lead of exactly 45: the game ends."""
    result = check_record(record([made("N", 30, 20)], 45))
    assert (result.finished, result.ended_after, result.ended_by, result.winner) == (True, 1, "spread", "NS")


def test_a_lead_one_short_goes_on_and_a_hand_after_the_end_is_refused():
    """Spread 46: lead 45 after hand 1, play goes on; hand 2 brings 60 and ends it; hand 3 is refused."""
    hands = [made("N", 30, 20), made("S", 10, 15)]
    assert check_record(record(hands[:1], 46)).finished is False
    with pytest.raises(RecordError) as refused:
        check_record(record([*hands, made("E", 10, 15)], 46))
    assert (refused.value.code, refused.value.hand) == ("game_over", 3)


def test_the_target_decides_first_when_reached_in_the_same_hand():
    """3 seats, target 100, spread 5. Hand 1: N bids 20, melds 75 and takes 15 (+90); E melds 80
    and takes 10 (+90); S 0. N and E level: nobody leads, play goes on. Hand 2: N bids 20, melds 5
    and takes 15: 20 ≥ 20, made, N 110; E melds 15 and takes 10: E 115; S 0. E leads N by 5 (the
    spread) but both reached the target and N bid: by the end of the game N wins, by the target."""
    first = {
        "bidder": "N",
        "bid": 20,
        "meld_points": {"N": 75, "E": 80},
        "tricks": {"N": 15, "E": 10, "S": 0},
    }
    second = {
        "bidder": "N",
        "bid": 20,
        "meld_points": {"N": 5, "E": 15},
        "tricks": {"N": 15, "E": 10, "S": 0},
    }
    result = check_record({"seats": 3, "target": 100, "options": {"spread": 5}, "hands": [first, second]})
    assert result.hands[0].totals == {"N": 90, "E": 90, "S": 0}
    assert result.scores == {"N": 110, "E": 115, "S": 0}
    assert (result.ended_after, result.ended_by, result.reached, result.winner) == (2, "target", "N", "N")


def test_three_seats_the_leader_must_lead_every_other_side():
    """3 seats, spread 20. Hand 1: N bids 20, melds 20, takes 15: +35; E takes 10, S 0 (no meld):
    N 35 · E 10 · S 0: N leads E by 25 and S by 35, both ≥ 20, N wins on points.
    With spread 30 N leads S by 35 but E only by 25: play goes on."""
    hand = {"bidder": "N", "bid": 20, "meld_points": {"N": 20}, "tricks": {"N": 15, "E": 10, "S": 0}}
    ended = check_record({"seats": 3, "options": {"spread": 20}, "hands": [hand]})
    assert ended.scores == {"N": 35, "E": 10, "S": 0}
    assert (ended.finished, ended.winner, ended.ended_by) == (True, "N", "spread")
    assert check_record({"seats": 3, "options": {"spread": 30}, "hands": [hand]}).finished is False


def test_check_pinochle_game_chips_after_a_spread():
    """Check Pinochle, spread 15: the rule book's worked example, hand 1: N–S 36 · E–W 20, lead 16
    ≥ 15, the game ends. Chips N–S +4, game chips 10 + ⌈16 / 10⌉ = 12: final N–S +16 · E–W −16."""
    hand = {
        "bidder": "N", "bid": 27, "trump": "hearts",
        "melds": {"N": ["run", "marriage"], "E": ["aces"], "S": ["pinochle"], "W": []},
        "tricks": {"NS": 15, "EW": 10},
    }  # fmt: skip
    result = check_record(record([hand], 15, variant="check"))
    assert (result.ended_by, result.reached, result.winner) == ("spread", "NS", "NS")
    assert result.game_chips == {"NS": 12, "EW": -12}
    assert result.chips == {"NS": 16, "EW": -16}


def test_spread_and_deals_together_the_spread_may_end_it_first():
    """Deals 3, spread 50: the first two hands above end it by the spread after hand 2."""
    hands = [made("N", 30, 20), made("S", 10, 15)]
    result = check_record({"options": {"spread": 50, "deals": 3}, "hands": hands})
    assert (result.ended_after, result.ended_by) == (2, "spread")


def test_a_record_without_the_rule_scores_as_before_and_keeps_its_shape():
    hands = [made("N", 30, 20), made("S", 10, 15)]
    plain = score_record({"seats": 4, "hands": hands})
    assert plain == score_record(record(hands, None))
    assert "ended_by" not in plain["result"]


@pytest.mark.parametrize(
    ("value", "code"), [(0, "too_low"), ("50", "not_whole_number"), (False, "not_whole_number")]
)
def test_a_bad_spread_is_refused_naming_the_option(value, code):
    with pytest.raises(RecordError) as refused:
        score_record(record([], value))
    assert (refused.value.code, refused.value.field) == (code, "options.spread")
