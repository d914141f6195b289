"""Refused records (docs/record-format.md, "Errors"): each refusal names the hand and the field, in one line.

Malformed JSON and unreadable files never reach the engine; `test_score_game_command.py` covers them.
"""

import copy

import pytest

from scoring.rules.engine import score_record
from scoring.rules.errors import RecordError
from scoring.rules.errors import RecordError as RecordErrorItself

GOOD_HAND = {
    "bidder": "N",
    "bid": 20,
    "trump": "hearts",
    "melds": {"N": ["trump_marriage"]},
    "tricks": {"NS": 16, "EW": 9},
}


def record_with(**changes):
    """A valid standard 4-seat record whose settings are changed."""
    return {"seats": 4, "hands": [copy.deepcopy(GOOD_HAND)], **changes}


def hand_with(number=1, remove=(), **changes):
    """A valid record of three hands whose hand `number` is changed."""
    hands = [copy.deepcopy(GOOD_HAND) for _ in range(3)]
    for key in remove:
        del hands[number - 1][key]
    hands[number - 1].update(changes)
    return {"seats": 4, "hands": hands}


def refusal(record):
    with pytest.raises(RecordError) as caught:
        score_record(record)
    return caught.value


def test_it_builds_a_valid_record_for_these_tests():
    assert score_record(hand_with(2))["result"]["scores"] == {"NS": 60, "EW": 27}


def test_its_error_reads_as_one_line_naming_hand_and_field():
    error = RecordErrorItself("tricks add up to 24, expected 25", field="tricks", hand=3)
    assert str(error) == "hand 3: tricks add up to 24, expected 25"
    assert (error.field, error.hand, error.message) == ("tricks", 3, "tricks add up to 24, expected 25")
    assert (
        str(RecordErrorItself("seats must be 2, 3 or 4, not 5", field="seats"))
        == "seats must be 2, 3 or 4, not 5"
    )
    assert isinstance(error, ValueError)


def test_it_names_the_hand_in_which_the_tricks_do_not_add_up():
    error = refusal(hand_with(3, tricks={"NS": 14, "EW": 10}))
    assert str(error) == "hand 3: tricks add up to 24, expected 25"
    assert (error.hand, error.field) == (3, "tricks")


@pytest.mark.parametrize(
    ("record", "field", "line"),
    [
        ([], "record", "record must be an object, not a list"),
        (42, "record", "record must be an object, not 42"),
        ("game", "record", "record must be an object, not 'game'"),
        (None, "record", "record must be an object, not null"),
        (record_with(seats="4"), "seats", "seats must be 2, 3 or 4, not '4'"),
        (record_with(seats=True), "seats", "seats must be 2, 3 or 4, not true"),
        (record_with(seats=4.0), "seats", "seats must be 2, 3 or 4, not 4.0"),
        (record_with(seats=5), "seats", "seats must be 2, 3 or 4, not 5"),
        (record_with(seats=[4]), "seats", "seats must be 2, 3 or 4, not a list"),
        (record_with(variant="Check"), "variant", "variant must be one of standard, check, not 'Check'"),
        (record_with(variant=False), "variant", "variant must be one of standard, check, not false"),
        (record_with(variant=""), "variant", "variant must be one of standard, check, not ''"),
        (record_with(deck=0), "deck", "deck must be one of single, double, not 0"),
        (record_with(deck={"cards": 48}), "deck", "deck must be one of single, double, not an object"),
        (record_with(target="150"), "target", "target must be a whole number, not '150'"),
        (record_with(target=True), "target", "target must be a whole number, not true"),
        (record_with(target=150.0), "target", "target must be a whole number, not 150.0"),
        (record_with(target=0), "target", "target must not be below 1, got 0"),
        (record_with(min_bid=20.5), "min_bid", "min_bid must be a whole number, not 20.5"),
        (record_with(first_dealer="X"), "first_dealer", "first_dealer must be one of N, E, S, W, not 'X'"),
        (record_with(players=["Anna"]), "players", "players must be an object, not a list"),
        (record_with(players={"N": 7}), "players.N", "players.N must be a name, not 7"),
        (record_with(options=[]), "options", "options must be an object, not a list"),
        (
            record_with(options={"meld_needs_trick": "yes"}),
            "options.meld_needs_trick",
            "options.meld_needs_trick must be true or false, not 'yes'",
        ),
        ({"seats": 4}, "hands", "hands must be a list of hands"),
        (record_with(hands={"1": GOOD_HAND}), "hands", "hands must be a list of hands"),
    ],
)
def test_it_refuses_bad_settings_naming_the_field(record, field, line):
    error = refusal(record)
    assert (error.field, error.hand) == (field, None)
    assert str(error) == line


@pytest.mark.parametrize(
    ("record", "line"),
    [
        (record_with(score=0), "score is not a field of a game record"),
        (
            record_with(options={"meld_needs_trick": False, "nines": True}),
            "options.nines is not a field of a game record",
        ),
        (hand_with(2, points=5), "hand 2: points is not a field of a game record"),
        (record_with(**{"": 1}), "'' is not a field of a game record"),
        (record_with(options={"": True}), "options.'' is not a field of a game record"),
    ],
)
def test_it_refuses_unknown_keys(record, line):
    assert str(refusal(record)) == line


def test_it_keeps_an_unknown_key_with_a_newline_on_one_line():
    line = str(refusal(hand_with(1, **{"a\nb": 1})))
    assert "\n" not in line
    assert line == "hand 1: 'a\\nb' is not a field of a game record"


@pytest.mark.parametrize(
    ("changes", "field", "line"),
    [
        ({"bid": "20"}, "bid", "hand 2: bid must be a whole number, not '20'"),
        ({"bid": True}, "bid", "hand 2: bid must be a whole number, not true"),
        ({"bid": 20.0}, "bid", "hand 2: bid must be a whole number, not 20.0"),
        ({"bid": [20]}, "bid", "hand 2: bid must be a whole number, not a list"),
        ({"bid": 19}, "bid", "hand 2: bid 19 is below the minimum bid of 20"),
        ({"bid": 10000}, "bid", "hand 2: bid must be at most 9999, got 10000"),
        ({"bidder": "NS"}, "bidder", "hand 2: bidder must be one of N, E, S, W, not 'NS'"),
        ({"bidder": 1}, "bidder", "hand 2: bidder must be one of N, E, S, W, not 1"),
        (
            {"trump": "trumps"},
            "trump",
            "hand 2: trump must be one of spades, hearts, diamonds, clubs, not 'trumps'",
        ),
        ({"tricks": [15, 10]}, "tricks", "hand 2: tricks must be an object, not a list"),
        (
            {"tricks": {"NS": "15", "EW": 10}},
            "tricks.NS",
            "hand 2: tricks.NS must be a whole number, not '15'",
        ),
        (
            {"tricks": {"NS": 15.0, "EW": 10}},
            "tricks.NS",
            "hand 2: tricks.NS must be a whole number, not 15.0",
        ),
        ({"tricks": {"NS": 30, "EW": -5}}, "tricks.NS", "hand 2: tricks.NS must be at most 25, got 30"),
        ({"tricks": {"NS": 26, "EW": -1}}, "tricks.NS", "hand 2: tricks.NS must be at most 25, got 26"),
        (
            {"tricks": {"NS": 25, "EW": -0.0}},
            "tricks.EW",
            "hand 2: tricks.EW must be a whole number, not -0.0",
        ),
        (
            {"tricks": {"NS": 15, "EW": 10, "N": 0}},
            "tricks",
            "hand 2: tricks: 'N' is not a side of this table (NS, EW)",
        ),
        ({"tricks_won": {"NS": 12}}, "tricks_won", "hand 2: tricks_won: side EW is missing"),
        (
            {"tricks_won": {"NS": 6, "EW": 7}},
            "tricks_won",
            "hand 2: tricks_won add up to 13, expected the 12 tricks of a hand",
        ),
        ({"melds": ["trump_marriage"]}, "melds", "hand 2: melds must be an object, not a list"),
        ({"melds": {"N": "run"}}, "melds.N", "hand 2: melds.N must be a list of meld items"),
        ({"melds": {"N": [["run"]]}}, "melds.N", "hand 2: melds.N: a list is not a meld item"),
        ({"melds": {"N": ["Run"]}}, "melds.N", "hand 2: melds.N: 'Run' is not a meld item"),
        ({"melds": {"N": [None]}}, "melds.N", "hand 2: melds.N: null is not a meld item"),
        ({"melds": {"N": [True]}}, "melds.N", "hand 2: melds.N: true is not a meld item"),
        ({"melds": {"N": [15]}}, "melds.N", "hand 2: melds.N: 15 is not a meld item"),
        ({"melds": {"X": ["run"]}}, "melds", "hand 2: melds: 'X' is not a seat of this table (N, E, S, W)"),
        ({"melds": {"NE": ["run"]}}, "melds", "hand 2: melds: 'NE' is not a seat of this table (N, E, S, W)"),
        ({"melds": {"": ["run"]}}, "melds", "hand 2: melds: '' is not a seat of this table (N, E, S, W)"),
        (
            {"melds": {"N": ["trump_marriage"] * 65}},
            "melds.N",
            "hand 2: melds.N lists 65 melds, more than a hand can hold",
        ),
        (
            {"melds": {"N": ["trump_marriage"] * 3}},
            "melds",
            "hand 2: melds: the melds need 3 trump kings, but the deck has only 2",
        ),
        (
            {"meld_points": {"NS": -1}},
            "meld_points.NS",
            "hand 2: meld_points.NS must not be negative, got -1",
        ),
        (
            {"meld_points": {"NS": "4"}},
            "meld_points.NS",
            "hand 2: meld_points.NS must be a whole number, not '4'",
        ),
        ({"passed": "yes"}, "passed", "hand 2: passed must be true or false, not 'yes'"),
        ({"conceded": 1}, "conceded", "hand 2: conceded must be true or false, not 1"),
    ],
)
def test_it_refuses_a_bad_hand_naming_the_hand_and_the_field(changes, field, line):
    remove = ("melds",) if "meld_points" in changes else ()
    error = refusal(hand_with(2, remove=remove, **changes))
    assert (error.hand, error.field) == (2, field)
    assert str(error) == line


def test_it_refuses_a_hand_that_is_not_an_object():
    record = {"hands": [GOOD_HAND, ["N", 20]]}
    error = refusal(record)
    assert (error.hand, error.field) == (2, "hand")
    assert str(error) == "hand 2: hand must be an object, not a list"


@pytest.mark.parametrize(
    ("deck", "min_bid", "bid", "line"),
    [
        ("single", None, 19, "hand 1: bid 19 is below the minimum bid of 20"),
        ("single", 25, 24, "hand 1: bid 24 is below the minimum bid of 25"),
        ("double", None, 49, "hand 1: bid 49 is below the minimum bid of 50"),
        ("double", None, 61, "hand 1: bid 61 is off its step: above 60 a double-deck bid is a multiple of 5"),
        ("double", 40, 52, "hand 1: bid 52 is off its step: above 50 a double-deck bid is a multiple of 5"),
    ],
)
def test_it_rejects_a_bid_below_the_minimum_or_off_its_step(deck, min_bid, bid, line):
    trick_points = 25 if deck == "single" else 50
    hand = dict(GOOD_HAND, bid=bid, tricks={"NS": trick_points, "EW": 0})
    error = refusal({"deck": deck, "min_bid": min_bid, "hands": [hand]})
    assert (error.hand, error.field) == (1, "bid")
    assert str(error) == line


def test_it_refuses_an_impossible_meld_naming_the_seat():
    error = refusal(hand_with(1, melds={"N": ["trump_marriage"], "E": ["run", "double_run"]}))
    assert error.field == "melds.E"
    assert str(error).startswith("hand 1: melds.E: double_run and another run meld are listed together")


def test_it_refuses_hands_after_the_end_naming_the_first_of_them():
    ender = dict(GOOD_HAND, melds={"N": ["double_run"]}, tricks={"NS": 25, "EW": 0})
    error = refusal({"hands": [ender, GOOD_HAND, GOOD_HAND]})
    assert (error.hand, error.field) == (2, "hands")
    assert str(error) == "hand 2: the game ended after hand 1; no hand may be recorded after the end"
