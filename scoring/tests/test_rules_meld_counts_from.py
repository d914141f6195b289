"""The house rule "on the board" (`options.meld_counts_from`, docs/rules.md "Meld counts from N
(house rule)"): plain engine, no database."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules.engine import score_record
from scoring.rules.errors import RecordError


def double_deck(*hands: dict[str, Any], floor: int | None = 20, **options: Any) -> dict[str, Any]:
    return {"deck": "double", "options": {"meld_counts_from": floor, **options}, "hands": list(hands)}


def played(bid: int, meld: tuple[int, int], tricks: tuple[int, int], bidder: str = "N") -> dict[str, Any]:
    return {
        "bidder": bidder,
        "bid": bid,
        "meld_points": {"NS": meld[0], "EW": meld[1]},
        "tricks": {"NS": tricks[0], "EW": tricks[1]},
    }


def test_both_sides_on_the_board_score_as_ever():
    """N = 20. N–S bid 60, meld 40, take 30: 40 ≥ 20 and 30 ≥ 20, so 40 + 30 = 70 ≥ 60, made, +70.
    E–W meld 25, take 20: 25 ≥ 20 and 20 ≥ 20 (exactly N counts), +45."""
    hand = score_record(double_deck(played(60, (40, 25), (30, 20))))["hands"][0]
    assert (hand["result"], hand["points"]) == ("made", {"NS": 70, "EW": 45})


def test_a_defending_side_short_of_n_in_tricks_loses_its_meld():
    """N = 20. N–S bid 60, meld 45, take 35: 80, made, +80. E–W meld 30 but take only 15 < 20:
    their meld counts 0, they score 15."""
    hand = score_record(double_deck(played(60, (45, 30), (35, 15))))["hands"][0]
    assert hand["points"] == {"NS": 80, "EW": 15}
    assert hand["meld"] == {"NS": 45, "EW": 30}  # the meld as shown


def test_bidders_short_of_n_in_tricks_are_set_on_a_bid_their_meld_would_make():
    """N = 20. N–S bid 55, meld 40, take 18 < 20: meld counts 0, 0 + 18 = 18 < 55, set, −55.
    E–W meld 10 < 20: counts 0, they score their 32 tricks. (Without the rule: 40 + 18 = 58 ≥ 55,
    made, N–S +58, E–W 10 + 32 = +42.)"""
    hand = played(55, (40, 10), (18, 32))
    scored = score_record(double_deck(hand))["hands"][0]
    assert (scored["result"], scored["points"]) == ("set", {"NS": -55, "EW": 32})
    without = score_record(double_deck(hand, floor=None))["hands"][0]
    assert (without["result"], without["points"]) == ("made", {"NS": 58, "EW": 42})


def test_a_meld_below_n_does_not_count_whatever_the_tricks():
    """N = 20. N–S bid 50, meld 15 < 20, take 40: counts 0, 0 + 40 = 40 < 50, set, −50.
    E–W meld 20, take 10 < 20: counts 0, +10."""
    hand = score_record(double_deck(played(50, (15, 20), (40, 10))))["hands"][0]
    assert (hand["result"], hand["points"]) == ("set", {"NS": -50, "EW": 10})


def test_on_a_concession_the_defenders_meld_needs_only_n():
    """N = 20. N–S concede 60: −60. E–W meld 20 ≥ 20 (no play, no tricks needed): +20.
    The next hand E–W meld 15 < 20 on a concession: 0."""
    conceded = {"bidder": "N", "bid": 60, "meld_points": {"NS": 50, "EW": 20}, "conceded": True}
    short = {**conceded, "meld_points": {"NS": 50, "EW": 15}}
    hands = score_record(double_deck(conceded, short))["hands"]
    assert [hand["points"] for hand in hands] == [{"NS": -60, "EW": 20}, {"NS": -60, "EW": 0}]


def test_it_counts_at_two_seats_with_no_bid_too():
    """2 seats, N = 10, single deck, no bid: N meld 12 ≥ 10 and 15 ≥ 10, 12 + 15 = +27;
    E meld 12, takes 10 ≥ 10: +22. Next hand E takes 9 < 10: E's 12 is lost, +9."""
    first = {"meld_points": {"N": 12, "E": 12}, "tricks": {"N": 15, "E": 10}}
    second = {"meld_points": {"N": 12, "E": 12}, "tricks": {"N": 16, "E": 9}}
    record = {"seats": 2, "options": {"meld_counts_from": 10}, "hands": [first, second]}
    hands = score_record(record)["hands"]
    assert [hand["points"] for hand in hands] == [{"N": 27, "E": 22}, {"N": 28, "E": 9}]


def test_check_pinochle_keeps_the_meld_chips_of_a_meld_that_does_not_count():
    """The rule book's worked example, hand 1, with N = 12: N–S meld 21 ≥ 12, take 15 ≥ 12:
    21 + 15 = 36 ≥ 27, made, +36. E–W meld 10 < 12: counts 0, +10. Chips as ever: N–S 2 (run) +
    4 (contract), E–W 2 (aces): N–S +4, E–W −4."""
    hand = {
        "bidder": "N", "bid": 27, "trump": "hearts",
        "melds": {"N": ["run", "marriage"], "E": ["aces"], "S": ["pinochle"], "W": []},
        "tricks": {"NS": 15, "EW": 10},
    }  # fmt: skip
    record = {"variant": "check", "options": {"meld_counts_from": 12}, "hands": [hand]}
    scored = score_record(record)["hands"][0]
    assert scored["points"] == {"NS": 36, "EW": 10}
    assert scored["chips"] == {"NS": 4, "EW": -4}


def test_it_combines_with_meld_needs_a_trick_both_must_allow_the_meld():
    """3 seats, double deck, N bids 50 with meld 30; N won no trick but its discards bring 20 trick
    points. On the board (N = 20) alone: 30 ≥ 20 and 20 ≥ 20, 50 ≥ 50, made, +50. Meld needs a
    trick alone, or both: N won no trick, meld 0, 20 < 50, set, −50. E and S meld nothing."""
    hand = {
        "bidder": "N", "bid": 50, "meld_points": {"N": 30},
        "tricks": {"N": 20, "E": 15, "S": 15}, "tricks_won": {"N": 0, "E": 12, "S": 13},
    }  # fmt: skip

    def bidders(**options: Any) -> tuple[str, int]:
        record = {"seats": 3, "deck": "double", "options": options, "hands": [hand]}
        scored = score_record(record)["hands"][0]
        return scored["result"], scored["points"]["N"]

    assert bidders(meld_counts_from=20) == ("made", 50)
    assert bidders(meld_needs_trick=True) == ("set", -50)
    assert bidders(meld_needs_trick=True, meld_counts_from=20) == ("set", -50)


def test_a_record_without_the_rule_scores_as_before():
    hand = played(55, (40, 10), (18, 32))
    plain = {"deck": "double", "hands": [hand]}
    assert score_record(plain) == score_record(double_deck(hand, floor=None))


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (0, "too_low"),
        (-5, "too_low"),
        ("20", "not_whole_number"),
        (2.5, "not_whole_number"),
        (True, "not_whole_number"),
    ],
)
def test_a_bad_floor_is_refused_naming_the_option(value, code):
    with pytest.raises(RecordError) as refused:
        score_record(double_deck(floor=value))
    assert (refused.value.code, refused.value.field) == (code, "options.meld_counts_from")
    assert "options.meld_counts_from" in str(refused.value)
