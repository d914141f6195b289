"""Scoring one hand: made, set, conceded, no-bid and passed hands, trump, tricks (docs/rules.md)."""

import pytest

from scoring.rules.engine import score_record
from scoring.rules.errors import RecordError


def game(*hands, seats=4, variant="standard", deck="single", **settings):
    return {
        "seats": seats,
        "variant": variant,
        "deck": deck,
        "target": 9999,
        **settings,
        "hands": list(hands),
    }


def first_hand(record):
    return score_record(record)["hands"][0]


def refusal(record):
    with pytest.raises(RecordError) as caught:
        score_record(record)
    return caught.value


def test_it_scores_meld_and_tricks_when_the_bidders_make_the_contract():
    hand = first_hand(
        game({"bidder": "E", "bid": 25, "meld_points": {"NS": 6, "EW": 12}, "tricks": {"NS": 12, "EW": 13}})
    )
    assert hand["result"] == "made"
    assert hand["points"] == {"NS": 18, "EW": 25}


def test_it_counts_a_contract_made_exactly():
    hand = first_hand(
        game({"bidder": "N", "bid": 30, "meld_points": {"NS": 10}, "tricks": {"NS": 20, "EW": 5}})
    )
    assert hand["result"] == "made"
    assert hand["points"] == {"NS": 30, "EW": 5}


def test_it_sets_bidders_one_short_to_minus_the_bid_and_lets_the_others_keep_meld_and_tricks():
    hand = first_hand(
        game({"bidder": "N", "bid": 31, "meld_points": {"NS": 10, "EW": 8}, "tricks": {"NS": 20, "EW": 5}})
    )
    assert hand["result"] == "set"
    assert hand["points"] == {"NS": -31, "EW": 13}
    assert hand["meld"] == {"NS": 10, "EW": 8}
    assert hand["tricks"] == {"NS": 20, "EW": 5}


def test_it_scores_a_concession_as_minus_the_bid_and_the_others_meld_only():
    hand = first_hand(game({"bidder": "W", "bid": 26, "meld_points": {"NS": 9, "EW": 14}, "conceded": True}))
    assert hand["result"] == "conceded"
    assert hand["points"] == {"NS": 9, "EW": -26}
    assert hand["tricks"] == {"NS": 0, "EW": 0}


@pytest.mark.parametrize("key", ["tricks", "tricks_won"])
def test_it_refuses_tricks_on_a_conceded_hand(key):
    error = refusal(game({"bidder": "N", "bid": 20, "conceded": True, key: {"NS": 0, "EW": 25}}))
    assert error.field == key
    assert str(error) == f"hand 1: {key}: a conceded hand is not played, so it has no {key}"


def test_it_scores_a_two_seat_hand_without_a_bid_as_meld_plus_tricks_for_each():
    hand = first_hand(game({"meld_points": {"N": 14, "E": 3}, "tricks": {"N": 11, "E": 14}}, seats=2))
    assert hand["result"] == "nobid"
    assert hand["points"] == {"N": 25, "E": 17}


def test_it_refuses_a_hand_without_a_bid_at_four_seats():
    error = refusal(game({"tricks": {"NS": 11, "EW": 14}}))
    assert error.field == "bidder"
    assert str(error) == "hand 1: bidder: every hand has a bidder in this game"


def test_it_refuses_a_hand_without_a_bid_at_three_seats():
    assert refusal(game({"tricks": {"N": 11, "E": 14, "S": 0}}, seats=3)).field == "bidder"


def test_it_refuses_a_conceded_hand_without_a_bid():
    error = refusal(game({"conceded": True}, seats=2))
    assert error.field == "conceded"


def test_it_refuses_a_bid_without_a_bidder_and_a_bidder_without_a_bid():
    assert refusal(game({"bid": 20, "tricks": {"NS": 25, "EW": 0}})).field == "bidder"
    assert refusal(game({"bidder": "N", "tricks": {"NS": 25, "EW": 0}})).field == "bid"


def test_it_scores_a_three_seat_hand_with_every_seat_its_own_side():
    hand = first_hand(
        game(
            {
                "bidder": "E",
                "bid": 24,
                "meld_points": {"N": 4, "E": 10, "S": 6},
                "tricks": {"N": 5, "E": 12, "S": 8},
            },
            seats=3,
        )
    )
    assert hand["points"] == {"N": 9, "E": -24, "S": 14}
    assert hand["result"] == "set"


def test_it_scores_a_three_seat_contract_made():
    hand = first_hand(
        game(
            {"bidder": "S", "bid": 21, "meld_points": {"S": 9}, "tricks": {"N": 3, "E": 10, "S": 12}}, seats=3
        )
    )
    assert hand["result"] == "made"
    assert hand["points"] == {"N": 3, "E": 10, "S": 21}


def test_it_scores_a_passed_check_hand_as_nothing():
    record = game({"passed": True}, variant="check")
    hand = first_hand(record)
    assert hand["result"] == "passed"
    assert hand["points"] == {"NS": 0, "EW": 0}
    assert hand["chips"] == {"NS": 0, "EW": 0}


def test_it_refuses_a_passed_hand_outside_check_pinochle():
    error = refusal(game({"passed": True}))
    assert error.field == "passed"
    assert (
        str(error)
        == "hand 1: passed: only in Check Pinochle may all four pass; in this game someone must bid"
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("bidder", "N"),
        ("bid", 20),
        ("trump", "hearts"),
        ("melds", {"N": []}),
        ("tricks", {"NS": 25, "EW": 0}),
        ("conceded", False),
    ],
)
def test_it_refuses_anything_else_on_a_passed_hand(key, value):
    error = refusal(game({"passed": True, key: value}, variant="check"))
    assert error.field == key
    assert str(error) == f"hand 1: {key}: a passed hand has no {key}"


def test_it_requires_trump_in_check_pinochle():
    error = refusal(
        game(
            {"bidder": "N", "bid": 20, "melds": {"N": ["trump_marriage"]}, "tricks": {"NS": 25, "EW": 0}},
            variant="check",
        )
    )
    assert error.field == "trump"
    assert str(error) == "hand 1: trump: the bidder must name trump in Check Pinochle"


def test_it_lets_a_standard_single_deck_bidder_name_any_trump_without_a_marriage():
    hand = first_hand(
        game(
            {
                "bidder": "N",
                "bid": 20,
                "trump": "clubs",
                "melds": {"N": ["aces"]},
                "tricks": {"NS": 25, "EW": 0},
            }
        )
    )
    assert hand["points"] == {"NS": 35, "EW": 0}


@pytest.mark.parametrize(("variant", "deck"), [("check", "single"), ("standard", "double")])
def test_it_requires_the_bidder_to_hold_a_trump_marriage_in_check_and_double_deck(variant, deck):
    trick_points = 25 if deck == "single" else 50
    record = game(
        {
            "bidder": "S",
            "bid": 20 if deck == "single" else 50,
            "trump": "hearts",
            "melds": {"S": ["aces", "marriage"], "N": ["trump_marriage"]},
            "tricks": {"NS": trick_points, "EW": 0},
        },
        variant=variant,
        deck=deck,
    )
    error = refusal(record)
    assert error.field == "melds.S"
    game_name = "Check Pinochle" if variant == "check" else "the double-deck game"
    assert str(error) == (
        f"hand 1: melds.S: in {game_name} the bidder must hold a marriage in trump "
        "(trump_marriage, a run or a roundhouse)"
    )


@pytest.mark.parametrize(
    "melds",
    [
        ["trump_marriage"],
        ["run"],
        ["kings", "queens", "trump_marriage", "marriage", "marriage", "marriage"],
    ],
)
def test_it_accepts_a_trump_marriage_a_run_or_a_roundhouse_as_the_bidders_marriage(melds):
    record = game(
        {"bidder": "E", "bid": 20, "trump": "hearts", "melds": {"E": melds}, "tricks": {"NS": 0, "EW": 25}},
        variant="check",
    )
    assert first_hand(record)["result"] == "made"


def test_it_requires_the_trump_marriage_from_a_check_bidder_who_concedes():
    error = refusal(game({"bidder": "N", "bid": 20, "trump": "hearts", "conceded": True}, variant="check"))
    assert error.field == "melds.N"


@pytest.mark.parametrize(("deck", "total"), [("single", 25), ("double", 50)])
def test_it_refuses_trick_points_that_do_not_add_up(deck, total):
    error = refusal(
        game(
            {"bidder": "N", "bid": 60, "meld_points": {"NS": 10}, "tricks": {"NS": total - 10, "EW": 9}},
            deck=deck,
        )
    )
    assert error.field == "tricks"
    assert str(error) == f"hand 1: tricks add up to {total - 1}, expected {total}"


def test_it_refuses_tricks_missing_a_side():
    error = refusal(game({"bidder": "N", "bid": 20, "tricks": {"NS": 25}}))
    assert str(error) == "hand 1: tricks: side EW is missing"


def test_it_refuses_a_played_hand_without_tricks():
    error = refusal(game({"bidder": "N", "bid": 20}))
    assert error.field == "tricks"


@pytest.mark.parametrize(
    ("seats", "deck", "per_hand"),
    [
        (4, "single", 12),
        (4, "double", 20),
        (3, "single", 15),
        (3, "double", 25),
        (2, "single", 24),
        (2, "double", 40),
    ],
)
def test_it_checks_tricks_won_add_up_to_the_tricks_of_a_hand(seats, deck, per_hand):
    sides = {4: ["NS", "EW"], 3: ["N", "E", "S"], 2: ["N", "E"]}[seats]
    trick_points = 25 if deck == "single" else 50
    tricks = {side: 0 for side in sides}
    tricks[sides[0]], tricks[sides[1]] = trick_points - 1, 1
    melds = {"N": ["trump_marriage"]} if deck == "double" else {}

    def hand(won):
        return {"bidder": "N", "bid": 20 if deck == "single" else 50, "trump": "hearts",
                "melds": melds, "tricks": tricks, "tricks_won": won}  # fmt: skip

    good = {side: 0 for side in sides}
    good[sides[0]], good[sides[1]] = per_hand - 1, 1
    assert first_hand(game(hand(good), seats=seats, deck=deck))["result"] == "made"
    bad = dict(good, **{sides[0]: per_hand - 2})
    error = refusal(game(hand(bad), seats=seats, deck=deck))
    assert error.field == "tricks_won"
    assert (
        str(error) == f"hand 1: tricks_won add up to {per_hand - 1}, expected the {per_hand} tricks of a hand"
    )


def test_it_refuses_a_slam_side_without_all_the_trick_points():
    error = refusal(
        game({"bidder": "N", "bid": 20, "tricks": {"NS": 24, "EW": 1}, "tricks_won": {"NS": 12, "EW": 0}})
    )
    assert error.field == "tricks"
    assert str(error) == "hand 1: tricks: side NS won every trick, so it took all 25 points"


def test_it_refuses_trick_points_for_a_side_that_won_no_trick():
    error = refusal(
        game({"bidder": "E", "bid": 20, "tricks": {"NS": 1, "EW": 24}, "tricks_won": {"NS": 0, "EW": 12}})
    )
    assert error.field == "tricks"
    assert str(error) == "hand 1: tricks: side NS won no trick, so it cannot have 1 trick point"


def test_it_refuses_a_two_seat_slam_without_all_the_trick_points():
    error = refusal(
        game(
            {"bidder": "N", "bid": 20, "tricks": {"N": 24, "E": 1}, "tricks_won": {"N": 24, "E": 0}}, seats=2
        )
    )
    assert str(error) == "hand 1: tricks: side N won every trick, so it took all 25 points"


def test_it_accepts_a_trick_won_without_counters():
    hand = first_hand(
        game({"bidder": "N", "bid": 20, "tricks": {"NS": 25, "EW": 0}, "tricks_won": {"NS": 11, "EW": 1}})
    )
    assert hand["points"] == {"NS": 25, "EW": 0}


def test_it_does_not_check_slam_points_at_three_seats_where_the_widow_counts_for_the_bidder():
    hand = first_hand(
        game(
            {
                "bidder": "E",
                "bid": 20,
                "tricks": {"N": 2, "E": 20, "S": 3},
                "tricks_won": {"N": 0, "E": 15, "S": 0},
            },
            seats=3,
        )
    )
    assert hand["points"] == {"N": 2, "E": 20, "S": 3}


def test_it_refuses_plain_meld_points_where_chips_are_in_play():
    error = refusal(
        game(
            {
                "bidder": "N",
                "bid": 20,
                "trump": "hearts",
                "meld_points": {"NS": 4},
                "tricks": {"NS": 25, "EW": 0},
            },
            variant="check",
        )
    )
    assert error.field == "meld_points"
    assert str(error).startswith("hand 1: meld_points: plain meld points are refused in Check Pinochle")


def test_it_accepts_plain_meld_points_in_a_double_deck_game():
    hand = first_hand(
        game(
            {"bidder": "N", "bid": 55, "meld_points": {"NS": 30, "EW": 12}, "tricks": {"NS": 26, "EW": 24}},
            deck="double",
        )
    )
    assert hand["points"] == {"NS": 56, "EW": 36}


def test_it_refuses_both_melds_and_meld_points_on_one_hand():
    error = refusal(
        game({"bidder": "N", "bid": 20, "melds": {}, "meld_points": {"NS": 4}, "tricks": {"NS": 25, "EW": 0}})
    )
    assert error.field == "meld_points"


def test_its_meld_needs_a_trick_house_rule_is_off_by_default():
    hand = first_hand(
        game({"bidder": "N", "bid": 20, "meld_points": {"NS": 20, "EW": 12}, "tricks": {"NS": 25, "EW": 0}})
    )
    assert hand["points"] == {"NS": 45, "EW": 12}


def test_its_meld_needs_a_trick_house_rule_takes_the_meld_of_a_side_without_a_trick():
    record = game(
        {"bidder": "N", "bid": 20, "meld_points": {"NS": 20, "EW": 12}, "tricks": {"NS": 25, "EW": 0}},
        options={"meld_needs_trick": True},
    )
    hand = first_hand(record)
    assert hand["points"] == {"NS": 45, "EW": 0}
    assert hand["meld"] == {"NS": 20, "EW": 12}


def test_its_meld_needs_a_trick_house_rule_keeps_the_meld_of_a_side_that_won_a_trick_without_counters():
    record = game(
        {
            "bidder": "N",
            "bid": 20,
            "meld_points": {"NS": 20, "EW": 12},
            "tricks": {"NS": 25, "EW": 0},
            "tricks_won": {"NS": 11, "EW": 1},
        },
        options={"meld_needs_trick": True},
    )
    assert first_hand(record)["points"] == {"NS": 45, "EW": 12}


def test_its_meld_needs_a_trick_house_rule_can_set_the_bidders():
    record = game(
        {"bidder": "E", "bid": 20, "meld_points": {"EW": 22}, "tricks": {"NS": 25, "EW": 0}},
        options={"meld_needs_trick": True},
    )
    hand = first_hand(record)
    assert hand["result"] == "set"
    assert hand["points"] == {"NS": 25, "EW": -20}


def test_its_meld_needs_a_trick_house_rule_leaves_a_concession_alone():
    record = game(
        {"bidder": "E", "bid": 20, "meld_points": {"NS": 7, "EW": 22}, "conceded": True},
        options={"meld_needs_trick": True},
    )
    assert first_hand(record)["points"] == {"NS": 7, "EW": -20}
