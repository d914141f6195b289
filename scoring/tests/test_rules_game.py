"""Whole games: the worked examples, chips, the end of the game, fall-back, dealers (docs/rules.md)."""

import pytest

from scoring.rules import worked_example
from scoring.rules.engine import check_record, score_record
from scoring.rules.errors import RecordError

WORKED_HAND = worked_example.hand(1)  # docs/rules.md, "Worked example", hand 1


def check_game(*hands, **settings):
    return {"variant": "check", **settings, "hands": list(hands)}


def refusal(record):
    with pytest.raises(RecordError) as caught:
        score_record(record)
    return caught.value


def test_it_scores_the_worked_example_of_the_rule_book_exactly():
    # docs/rules.md, "Worked example" (hand 1) and docs/record-format.md's output example:
    # NS 21 + 15 = 36 >= 27 made, EW 10 + 10 = 20;
    # chips NS 2 (run) + 4 (contract of 27), EW 2 (aces): NS +4, EW -4.
    result = score_record({"seats": 4, "variant": "check", "deck": "single", "hands": [WORKED_HAND]})
    assert result == {
        "sides": ["NS", "EW"],
        "variant": "check",
        "target": 100,
        "min_bid": 20,
        "chips_in_play": True,
        "hands": [
            {
                "number": 1,
                "dealer": "N",
                "result": "made",
                "meld": {"NS": 21, "EW": 10},
                "tricks": {"NS": 15, "EW": 10},
                "points": {"NS": 36, "EW": 20},
                "chips": {"NS": 4, "EW": -4},
                "totals": {"NS": 36, "EW": 20},
                "chip_totals": {"NS": 4, "EW": -4},
            }
        ],
        "result": {
            "finished": False,
            "reached": None,
            "winner": None,
            "scores": {"NS": 36, "EW": 20},
            "game_chips": {"NS": 0, "EW": 0},
            "chips": {"NS": 4, "EW": -4},
        },
    }


def test_it_scores_the_record_example_hand_by_hand():
    result = score_record(worked_example.record())
    # Hand 1 is the worked example. Hand 2 is passed: nothing moves, E deals.
    # Hand 3: E bids 31 in spades with a roundhouse (4 + 8 + 6 + 3 x 2 = 24) and takes all 25
    # points and all 12 tricks: EW 49 made. Chips EW: kings 1 + queens 1 + roundhouse 5
    # + contract of 31: 7 + slam 5 = 19.
    # Hand 4: S concedes 22 in clubs: NS -22, EW meld 0; EW win twice the 2 contract chips.
    assert result["hands"] == [
        {
            "number": 1,
            "dealer": "N",
            "result": "made",
            "meld": {"NS": 21, "EW": 10},
            "tricks": {"NS": 15, "EW": 10},
            "points": {"NS": 36, "EW": 20},
            "chips": {"NS": 4, "EW": -4},
            "totals": {"NS": 36, "EW": 20},
            "chip_totals": {"NS": 4, "EW": -4},
        },
        {
            "number": 2,
            "dealer": "E",
            "result": "passed",
            "meld": {"NS": 0, "EW": 0},
            "tricks": {"NS": 0, "EW": 0},
            "points": {"NS": 0, "EW": 0},
            "chips": {"NS": 0, "EW": 0},
            "totals": {"NS": 36, "EW": 20},
            "chip_totals": {"NS": 4, "EW": -4},
        },
        {
            "number": 3,
            "dealer": "S",
            "result": "made",
            "meld": {"NS": 0, "EW": 24},
            "tricks": {"NS": 0, "EW": 25},
            "points": {"NS": 0, "EW": 49},
            "chips": {"NS": -19, "EW": 19},
            "totals": {"NS": 36, "EW": 69},
            "chip_totals": {"NS": -15, "EW": 15},
        },
        {
            "number": 4,
            "dealer": "W",
            "result": "conceded",
            "meld": {"NS": 4, "EW": 0},
            "tricks": {"NS": 0, "EW": 0},
            "points": {"NS": -22, "EW": 0},
            "chips": {"NS": -4, "EW": 4},
            "totals": {"NS": 14, "EW": 69},
            "chip_totals": {"NS": -19, "EW": 19},
        },
    ]
    assert result["result"] == {
        "finished": False,
        "reached": None,
        "winner": None,
        "scores": {"NS": 14, "EW": 69},
        "game_chips": {"NS": 0, "EW": 0},
        "chips": {"NS": -19, "EW": 19},
    }
    assert (result["variant"], result["target"], result["min_bid"], result["chips_in_play"]) == (
        "check",
        100,
        20,
        True,
    )


def test_it_pays_meld_chips_to_a_side_that_is_set_and_doubles_the_contract_for_the_defenders():
    hand = {
        "bidder": "N",
        "bid": 30,
        "trump": "hearts",
        "melds": {"N": ["run"]},
        "tricks": {"NS": 10, "EW": 15},
    }
    scored = score_record(check_game(hand))["hands"][0]
    assert scored["result"] == "set"
    assert scored["points"] == {"NS": -30, "EW": 15}
    # NS win 2 for the run; EW win twice the 7 chips of a bid of 30.
    assert scored["chips"] == {"NS": -12, "EW": 12}


def test_it_doubles_the_contract_chips_for_the_defenders_of_a_concession():
    hand = {"bidder": "N", "bid": 25, "trump": "hearts", "melds": {"N": ["trump_marriage"]}, "conceded": True}
    assert score_record(check_game(hand))["hands"][0]["chips"] == {"NS": -8, "EW": 8}


def test_it_pays_five_chips_for_a_slam():
    hand = {
        "bidder": "E",
        "bid": 20,
        "trump": "spades",
        "melds": {"E": ["trump_marriage"]},
        "tricks": {"NS": 0, "EW": 25},
        "tricks_won": {"NS": 0, "EW": 12},
    }
    assert score_record(check_game(hand))["hands"][0]["chips"] == {"NS": -7, "EW": 7}


def test_it_pays_a_slam_to_defenders_who_set_the_bidders():
    hand = {
        "bidder": "N",
        "bid": 20,
        "trump": "hearts",
        "melds": {"N": ["trump_marriage"]},
        "tricks": {"NS": 0, "EW": 25},
        "tricks_won": {"NS": 0, "EW": 12},
    }
    scored = score_record(check_game(hand))["hands"][0]
    assert scored["points"] == {"NS": -20, "EW": 25}
    assert scored["chips"] == {"NS": -9, "EW": 9}


def test_it_pays_no_slam_when_the_tricks_won_are_not_recorded():
    hand = {
        "bidder": "E",
        "bid": 20,
        "trump": "spades",
        "melds": {"E": ["trump_marriage"]},
        "tricks": {"NS": 0, "EW": 25},
    }
    assert score_record(check_game(hand))["hands"][0]["chips"] == {"NS": -2, "EW": 2}


def test_it_pays_no_slam_to_a_side_with_all_the_points_but_not_all_the_tricks():
    hand = {
        "bidder": "E",
        "bid": 20,
        "trump": "spades",
        "melds": {"E": ["trump_marriage"]},
        "tricks": {"NS": 0, "EW": 25},
        "tricks_won": {"NS": 1, "EW": 11},
    }
    assert score_record(check_game(hand))["hands"][0]["chips"] == {"NS": -2, "EW": 2}


def test_it_plays_no_chips_in_a_standard_game():
    hand = dict(WORKED_HAND, tricks_won={"NS": 12, "EW": 0}, tricks={"NS": 25, "EW": 0})
    result = score_record({"hands": [hand]})
    assert result["chips_in_play"] is False
    assert result["hands"][0]["chips"] == {"NS": 0, "EW": 0}
    assert result["result"]["chips"] == {"NS": 0, "EW": 0}


def test_it_ends_a_standard_game_when_a_side_reaches_the_target_exactly():
    hand = {"bidder": "N", "bid": 20, "meld_points": {"NS": 130}, "tricks": {"NS": 20, "EW": 5}}
    result = score_record({"hands": [hand]})["result"]
    assert result == {
        "finished": True,
        "reached": "NS",
        "winner": "NS",
        "scores": {"NS": 150, "EW": 5},
        "game_chips": {"NS": 0, "EW": 0},
        "chips": {"NS": 0, "EW": 0},
    }


def test_it_plays_on_one_point_short_of_the_target():
    hand = {"bidder": "N", "bid": 20, "meld_points": {"NS": 129}, "tricks": {"NS": 20, "EW": 5}}
    result = score_record({"hands": [hand]})["result"]
    assert (result["finished"], result["reached"], result["winner"]) == (False, None, None)


def test_it_lets_the_bidders_win_when_both_sides_reach_the_target_in_one_hand():
    hand = {"bidder": "E", "bid": 20, "meld_points": {"NS": 95, "EW": 90}, "tricks": {"NS": 15, "EW": 10}}
    result = score_record({"target": 100, "hands": [hand]})["result"]
    assert result["scores"] == {"NS": 110, "EW": 100}
    assert (result["finished"], result["reached"], result["winner"]) == (True, "EW", "EW")


def test_it_lets_the_higher_of_two_three_seat_defenders_reaching_together_win():
    hand = {"bidder": "N", "bid": 20, "meld_points": {"E": 90, "S": 92}, "tricks": {"N": 5, "E": 10, "S": 10}}
    result = score_record({"seats": 3, "target": 100, "hands": [hand]})["result"]
    assert result["scores"] == {"N": -20, "E": 100, "S": 102}
    assert (result["finished"], result["reached"], result["winner"]) == (True, "S", "S")


def test_it_plays_on_while_two_three_seat_defenders_reach_the_target_level():
    level = {
        "bidder": "N",
        "bid": 20,
        "meld_points": {"E": 95, "S": 95},
        "tricks": {"N": 5, "E": 10, "S": 10},
    }
    result = score_record({"seats": 3, "target": 100, "hands": [level]})["result"]
    assert result["scores"] == {"N": -20, "E": 105, "S": 105}
    assert (result["finished"], result["reached"], result["winner"]) == (False, None, None)
    breaker = {"bidder": "E", "bid": 20, "tricks": {"N": 5, "E": 20, "S": 0}}
    result = score_record({"seats": 3, "target": 100, "hands": [level, breaker]})["result"]
    assert result["scores"] == {"N": -15, "E": 125, "S": 105}
    assert (result["finished"], result["reached"], result["winner"]) == (True, "E", "E")


def test_it_plays_on_after_a_level_two_seat_hand_without_a_bid():
    hand = {"meld_points": {"N": 88, "E": 87}, "tricks": {"N": 12, "E": 13}}
    result = score_record({"seats": 2, "target": 100, "hands": [hand]})["result"]
    assert result["scores"] == {"N": 100, "E": 100}
    assert result["finished"] is False


def test_it_refuses_a_hand_after_the_end_of_the_game():
    ender = {"bidder": "N", "bid": 20, "meld_points": {"NS": 130}, "tricks": {"NS": 20, "EW": 5}}
    more = {"bidder": "E", "bid": 20, "tricks": {"NS": 5, "EW": 20}}
    error = refusal({"hands": [{"bidder": "E", "bid": 20, "tricks": {"NS": 5, "EW": 20}}, ender, more]})
    assert error.hand == 3
    assert error.field == "hands"
    assert str(error) == "hand 3: the game ended after hand 2; no hand may be recorded after the end"


def test_it_refuses_even_a_passed_hand_after_the_end_of_a_check_game():
    ender = {
        "bidder": "S",
        "bid": 20,
        "trump": "clubs",
        "melds": {"S": ["double_run"]},
        "tricks": {"NS": 25, "EW": 0},
    }
    error = refusal(check_game(ender, {"passed": True}))
    assert str(error) == "hand 2: the game ended after hand 1; no hand may be recorded after the end"


def test_it_awards_game_chips_and_can_let_the_side_that_reached_the_target_lose_on_chips():
    record = check_game(
        # N bids 54 and is set: NS -54, EW 5; EW win 2 x 19 = 38 chips.
        {
            "bidder": "N",
            "bid": 54,
            "trump": "hearts",
            "melds": {"N": ["trump_marriage"]},
            "tricks": {"NS": 20, "EW": 5},
        },
        # S makes 150 + 25 with a double run: NS reach 121; NS win 4 + 2 = 6 chips.
        {
            "bidder": "S",
            "bid": 20,
            "trump": "clubs",
            "melds": {"S": ["double_run"]},
            "tricks": {"NS": 25, "EW": 0},
        },
    )
    result = score_record(record)
    assert [hand["chips"] for hand in result["hands"]] == [{"NS": -38, "EW": 38}, {"NS": 6, "EW": -6}]
    # Lead 121 - 5 = 116: 10 + 12 game chips for NS; -32 + 22 still leaves NS 10 behind.
    assert result["result"] == {
        "finished": True,
        "reached": "NS",
        "winner": "EW",
        "scores": {"NS": 121, "EW": 5},
        "game_chips": {"NS": 22, "EW": -22},
        "chips": {"NS": -10, "EW": 10},
    }
    assert result["hands"][-1]["chip_totals"] == {"NS": -32, "EW": 32}


def test_it_calls_a_check_game_with_equal_chips_a_draw():
    record = check_game(
        # NS set at 45: EW win 2 x 16 = 32 chips.
        {
            "bidder": "N",
            "bid": 45,
            "trump": "hearts",
            "melds": {"N": ["trump_marriage"]},
            "tricks": {"NS": 20, "EW": 5},
        },
        # NS make 160 + 25: meld chips 4 + 2, contract 2; NS reach 140, lead 135: 10 + 14 game chips.
        {
            "bidder": "S",
            "bid": 20,
            "trump": "clubs",
            "melds": {"S": ["double_run", "aces"]},
            "tricks": {"NS": 25, "EW": 0},
        },
    )
    result = score_record(record)["result"]
    assert result == {
        "finished": True,
        "reached": "NS",
        "winner": "draw",
        "scores": {"NS": 140, "EW": 5},
        "game_chips": {"NS": 24, "EW": -24},
        "chips": {"NS": 0, "EW": 0},
    }


def test_it_pays_ten_game_chips_to_bidders_who_win_behind_on_points():
    record = check_game(
        {
            "bidder": "S",
            "bid": 20,
            "trump": "hearts",
            "melds": {"S": ["double_run"]},
            "tricks": {"NS": 25, "EW": 0},
        },
        {
            "bidder": "E",
            "bid": 20,
            "trump": "spades",
            "melds": {"E": ["double_run"]},
            "tricks": {"NS": 0, "EW": 25},
        },
        {
            "bidder": "W",
            "bid": 20,
            "trump": "clubs",
            "melds": {"W": ["trump_marriage", "aces"], "N": ["double_pinochle"]},
            "tricks": {"NS": 14, "EW": 11},
        },
        target=200,
    )
    result = score_record(record)
    assert result["hands"][2]["chips"] == {"NS": -3, "EW": 3}
    assert result["result"] == {
        "finished": True,
        "reached": "EW",
        "winner": "EW",
        "scores": {"NS": 219, "EW": 200},
        "game_chips": {"NS": -10, "EW": 10},
        "chips": {"NS": -13, "EW": 13},
    }


def test_it_falls_back_to_a_standard_game_for_check_pinochle_with_a_double_deck():
    hand = {
        "bidder": "N",
        "bid": 50,
        "trump": "hearts",
        "melds": {"N": ["double_run", "trump_marriage"], "E": ["aces"]},
        "tricks": {"NS": 50, "EW": 0},
        "tricks_won": {"NS": 20, "EW": 0},
    }
    result = score_record({"variant": "check", "deck": "double", "hands": [hand]})
    assert (result["variant"], result["chips_in_play"], result["target"], result["min_bid"]) == (
        "standard",
        False,
        500,
        50,
    )
    assert result["hands"][0]["points"] == {"NS": 204, "EW": 10}
    assert result["hands"][0]["chips"] == {"NS": 0, "EW": 0}
    settings = check_record({"variant": "check", "deck": "double", "hands": []}).settings
    assert settings.fell_back is True
    assert settings.requested_variant == "check"


def test_it_accepts_plain_meld_points_once_check_pinochle_has_fallen_back():
    hand = {"bidder": "N", "bid": 50, "meld_points": {"NS": 30}, "tricks": {"NS": 25, "EW": 25}}
    result = score_record({"variant": "check", "deck": "double", "hands": [hand]})
    assert result["hands"][0]["points"] == {"NS": 55, "EW": 25}


def test_it_refuses_a_passed_hand_once_check_pinochle_has_fallen_back():
    error = refusal({"variant": "check", "deck": "double", "hands": [{"passed": True}]})
    assert error.field == "passed"


@pytest.mark.parametrize("seats", [2, 3])
def test_it_refuses_check_pinochle_at_fewer_than_four_seats(seats):
    error = refusal({"seats": seats, "variant": "check", "hands": []})
    assert error.field == "variant"
    assert str(error) == f"variant: Check Pinochle is played at 4 seats only, not {seats}"


@pytest.mark.parametrize("seats", [2, 3])
def test_it_refuses_check_pinochle_at_fewer_than_four_seats_even_with_a_double_deck(seats):
    assert refusal({"seats": seats, "variant": "check", "deck": "double", "hands": []}).field == "variant"


def test_it_rotates_the_dealer_clockwise_from_n_counting_passed_hands():
    hands = [WORKED_HAND, {"passed": True}, {"passed": True}, {"passed": True}, {"passed": True}]
    result = score_record(check_game(*hands))
    assert [hand["dealer"] for hand in result["hands"]] == ["N", "E", "S", "W", "N"]


def test_it_starts_the_rotation_at_the_first_dealer_the_game_names():
    hands = [{"passed": True}] * 3
    result = score_record(check_game(*hands, first_dealer="W"))
    assert [hand["dealer"] for hand in result["hands"]] == ["W", "N", "E"]


def test_it_rotates_the_dealer_round_a_three_seat_table():
    hand = {"bidder": "N", "bid": 20, "tricks": {"N": 25, "E": 0, "S": 0}}
    result = score_record({"seats": 3, "first_dealer": "E", "hands": [hand] * 4})
    assert [h["dealer"] for h in result["hands"]] == ["E", "S", "N", "E"]


def test_it_names_the_next_dealer():
    assert check_record({"seats": 2, "first_dealer": "E", "hands": []}).next_dealer == "E"
    record = {"seats": 2, "first_dealer": "E", "hands": [{"meld_points": {}, "tricks": {"N": 5, "E": 20}}]}
    assert check_record(record).next_dealer == "N"


@pytest.mark.parametrize(("seats", "dealer"), [(2, "S"), (3, "W")])
def test_it_refuses_a_first_dealer_who_is_not_at_the_table(seats, dealer):
    error = refusal({"seats": seats, "first_dealer": dealer, "hands": []})
    assert error.field == "first_dealer"
