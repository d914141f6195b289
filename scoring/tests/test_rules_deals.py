"""A game of a fixed number of deals (docs/rules.md, "A fixed number of deals"): plain engine, no database."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules.engine import check_record, score_record
from scoring.rules.errors import RecordError

NS_MAKES = {"bidder": "N", "bid": 20, "meld_points": {"NS": 10, "EW": 0}, "tricks": {"NS": 15, "EW": 10}}
EW_MAKES = {"bidder": "E", "bid": 20, "meld_points": {"NS": 0, "EW": 10}, "tricks": {"NS": 10, "EW": 15}}

# The rule book's worked example, hands 1 to 3 (Check Pinochle, target 100).
CHECK_HAND_1 = {
    "bidder": "N", "bid": 27, "trump": "hearts",
    "melds": {"N": ["run", "marriage"], "E": ["aces"], "S": ["pinochle"], "W": []},
    "tricks": {"NS": 15, "EW": 10},
}  # fmt: skip
CHECK_HAND_3 = {
    "bidder": "E", "bid": 31, "trump": "spades",
    "melds": {"E": ["trump_marriage", "kings", "queens", "marriage", "marriage", "marriage"]},
    "tricks": {"NS": 0, "EW": 25}, "tricks_won": {"NS": 0, "EW": 12},
}  # fmt: skip


def record(hands: list[dict[str, Any]], deals: int | None, **settings: Any) -> dict[str, Any]:
    return {"seats": 4, "options": {"deals": deals}, "hands": hands, **settings}


def test_it_ends_a_standard_game_after_its_last_deal_short_of_the_target():
    result = check_record(record([NS_MAKES, EW_MAKES, NS_MAKES], 3))
    assert result.scores == {"NS": 60, "EW": 45}  # far from 150
    assert (result.finished, result.ended_after, result.ended_by) == (True, 3, "deals")
    assert (result.reached, result.winner) == ("NS", "NS")
    assert result.game_chips == {"NS": 0, "EW": 0}


def test_it_goes_on_before_the_last_deal():
    result = check_record(record([NS_MAKES, EW_MAKES], 3))
    assert (result.finished, result.winner, result.ended_after, result.ended_by) == (False, None, None, None)


def test_it_refuses_a_hand_after_the_last_deal_naming_the_hand_that_ended_the_game():
    with pytest.raises(RecordError) as refused:
        check_record(record([NS_MAKES, EW_MAKES, NS_MAKES, EW_MAKES], 3))
    assert refused.value.code == "game_over"
    assert refused.value.hand == 4
    assert "ended after hand 3" in str(refused.value)


def test_level_points_after_the_last_deal_are_a_draw_in_a_standard_game():
    result = check_record(record([NS_MAKES, EW_MAKES], 2))
    assert result.scores == {"NS": 35, "EW": 35}
    assert (result.finished, result.reached, result.winner) == (True, None, "draw")


def test_the_target_ends_a_game_of_deals_sooner():
    big = {"bidder": "N", "bid": 50, "meld_points": {"NS": 60, "EW": 0}, "tricks": {"NS": 20, "EW": 5}}
    result = check_record(record([big, big], 10, target=150))
    assert (result.finished, result.ended_after, result.ended_by, result.winner) == (True, 2, "target", "NS")
    with pytest.raises(RecordError):
        check_record(record([big, big, NS_MAKES], 10, target=150))


def test_the_worked_example_as_three_deals_gives_the_game_chips_to_the_side_ahead_on_points():
    result = check_record(record([CHECK_HAND_1, {"passed": True}, CHECK_HAND_3], 3, variant="check"))
    # The passed-out hand 2 is a deal: the game ends after hand 3, below the target of 100.
    assert (result.finished, result.ended_after, result.ended_by) == (True, 3, "deals")
    assert result.scores == {"NS": 36, "EW": 69}
    assert result.hands[-1].chip_totals == {"NS": -15, "EW": 15}
    assert result.game_chips == {"NS": -14, "EW": 14}  # 10 + ⌈33 / 10⌉
    assert result.chips == {"NS": -29, "EW": 29}
    assert (result.reached, result.winner) == ("EW", "EW")


def test_a_passed_out_last_deal_ends_the_game_too():
    result = check_record(record([CHECK_HAND_1, {"passed": True}], 2, variant="check"))
    assert (result.finished, result.ended_after, result.winner) == (True, 2, "NS")
    assert result.game_chips == {"NS": 12, "EW": -12}  # lead 16: 10 + 2


def test_in_check_pinochle_level_points_give_no_game_chips_and_the_chips_decide():
    # N-S make 15 + 20 = 35 with a run (2 chips); E-W take every trick with 5 of meld: 5 + 25 + 5 = 35.
    ns = {"bidder": "N", "bid": 20, "trump": "hearts", "melds": {"N": ["run"]}, "tricks": {"NS": 20, "EW": 5}}
    ew = {"bidder": "E", "bid": 20, "trump": "spades", "melds": {"E": ["trump_marriage", "dix"]},
          "tricks": {"NS": 0, "EW": 25}, "tricks_won": {"NS": 0, "EW": 12}}  # fmt: skip
    result = check_record(record([ns, ew], 2, variant="check"))
    assert result.scores == {"NS": 35, "EW": 35}
    assert result.reached is None and result.game_chips == {"NS": 0, "EW": 0}
    # N-S: run 2 + contract 2 = 4; E-W: contract 2 + slam 5 = 7 → E-W ahead on chips.
    assert result.chips == {"NS": -3, "EW": 3}
    assert (result.finished, result.winner) == (True, "EW")


def test_equal_chips_after_level_points_are_a_draw_in_check_pinochle():
    ns = {"bidder": "N", "bid": 20, "trump": "hearts", "melds": {"N": ["trump_marriage"]},
          "tricks": {"NS": 16, "EW": 9}}  # fmt: skip
    ew = {"bidder": "E", "bid": 20, "trump": "spades", "melds": {"E": ["trump_marriage"]},
          "tricks": {"NS": 9, "EW": 16}}  # fmt: skip
    result = check_record(record([ns, ew], 2, variant="check"))
    assert result.scores == {"NS": 29, "EW": 29} and result.chips == {"NS": 0, "EW": 0}
    assert (result.finished, result.reached, result.winner) == (True, None, "draw")


def test_three_players_level_on_top_after_the_last_deal_draw():
    hand = {
        "bidder": "N",
        "bid": 20,
        "meld_points": {"N": 10, "E": 10, "S": 0},
        "tricks": {"N": 10, "E": 10, "S": 5},
    }
    result = check_record({"seats": 3, "options": {"deals": 1}, "hands": [hand]})
    assert result.scores == {"N": 20, "E": 20, "S": 5}
    assert (result.finished, result.reached, result.winner) == (True, None, "draw")


def test_a_record_without_deals_scores_as_before():
    hands = [NS_MAKES, EW_MAKES, NS_MAKES, EW_MAKES]
    without = {"seats": 4, "hands": hands}
    assert score_record(without) == score_record(record(hands, None))
    assert not check_record(without).finished


@pytest.mark.parametrize("value", [0, -3, "3", True, 2.5, 1001])
def test_it_refuses_a_length_that_is_not_a_number_of_deals_naming_the_field(value):
    with pytest.raises(RecordError) as refused:
        check_record(record([], value))
    assert refused.value.field == "options.deals"


def test_the_result_says_the_last_deal_ended_the_game():
    """Deals 2: N–S make 20 with 10 meld + 15 tricks (+25, E–W +10), twice: N–S 50 · E–W 20, far
    from 150. The game ends after hand 2 and the result says it was the deals that ended it."""
    result = score_record(record([NS_MAKES, NS_MAKES], 2))["result"]
    assert result["scores"] == {"NS": 50, "EW": 20}
    assert (result["finished"], result["winner"], result["ended_by"]) == (True, "NS", "deals")


def test_the_result_of_a_game_of_deals_still_going_says_nothing_ended_it():
    result = score_record(record([NS_MAKES], 2))["result"]
    assert (result["finished"], result["ended_by"]) == (False, None)


def test_a_passed_out_hand_is_a_deal_and_the_last_deal_pays_game_chips_in_check_pinochle():
    """Check Pinochle, deals 3, target 100. Hand 1 (the worked example): N–S +36, E–W +20, chips
    N–S +4. Hand 2 passed out: a deal. Hand 3: E bids 20 with a trump marriage (4), E–W take 20:
    4 + 20 = 24 ≥ 20, made, +24; N–S meld nothing and take 5, +5. Totals N–S 41 · E–W 44.
    Hand 3's chips: E–W 2 (contract up to 24), so chips N–S 4 − 2 = +2. After the last deal E–W
    lead by 3 and win 10 + ⌈3 / 10⌉ = 11 game chips: final N–S 2 − 11 = −9 · E–W +9, E–W win."""
    hand_3 = {
        "bidder": "E", "bid": 20, "trump": "clubs", "melds": {"E": ["trump_marriage"]},
        "tricks": {"NS": 5, "EW": 20},
    }  # fmt: skip
    result = score_record(record([CHECK_HAND_1, {"passed": True}, hand_3], 3, variant="check"))["result"]
    assert result["scores"] == {"NS": 41, "EW": 44}
    assert result["game_chips"] == {"NS": -11, "EW": 11}
    assert result["chips"] == {"NS": -9, "EW": 9}
    assert (result["finished"], result["winner"], result["ended_by"]) == (True, "EW", "deals")
