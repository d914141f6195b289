"""Meld lists: roundhouse, once per class, each level once, what the deck can hold (docs/rules.md, "Meld")."""

import pytest

from scoring.rules.engine import score_record
from scoring.rules.errors import RecordError


def deal(melds, *, deck="single", variant="standard", trump="hearts", seats=4, bidder="N"):
    """Score one hand with these melds; the bidder's side takes every trick point."""
    sides = {4: ("NS", "EW"), 3: ("N", "E", "S"), 2: ("N", "E")}[seats]
    bidding_side = sides[0]
    trick_points = 25 if deck == "single" else 50
    record = {
        "seats": seats,
        "deck": deck,
        "variant": variant,
        "target": 9999,
        "hands": [
            {
                "bidder": bidder,
                "bid": 20 if deck == "single" else 50,
                "trump": trump,
                "melds": melds,
                "tricks": {side: trick_points if side == bidding_side else 0 for side in sides},
            }
        ],
    }
    return score_record(record)["hands"][0]


def refusal(melds, **options):
    with pytest.raises(RecordError) as caught:
        deal(melds, **options)
    assert caught.value.hand == 1
    return caught.value


ROUNDHOUSE = ["kings", "queens", "trump_marriage", "marriage", "marriage", "marriage"]


def test_it_scores_a_roundhouse_as_the_sum_of_its_parts():
    hand = deal({"N": ROUNDHOUSE})
    assert hand["meld"] == {"NS": 24, "EW": 0}


def test_it_pays_a_plain_roundhouse_seven_chips():
    hand = deal({"N": ROUNDHOUSE}, variant="check")
    # 1 (kings) + 1 (queens) + 5 (roundhouse) = 7, and 2 contract chips for the bid of 20.
    assert hand["chips"] == {"NS": 9, "EW": -9}


def test_it_pays_the_roundhouse_bonus_on_top_of_doubled_arounds():
    melds = ["double_kings", "double_queens", "trump_marriage", "marriage", "marriage", "marriage"]
    hand = deal({"N": melds}, variant="check")
    # 2 + 2 + 5 roundhouse + 2 contract.
    assert hand["chips"] == {"NS": 11, "EW": -11}
    assert hand["meld"] == {"NS": 80 + 60 + 4 + 6, "EW": 0}


def test_it_lets_a_run_carry_the_roundhouse_trump_marriage():
    hand = deal({"N": ["run", "kings", "queens", "marriage", "marriage", "marriage"]}, variant="check")
    assert hand["meld"] == {"NS": 15 + 8 + 6 + 6, "EW": 0}
    # run 2 + kings 1 + queens 1 + roundhouse 5 + contract 2.
    assert hand["chips"] == {"NS": 11, "EW": -11}


def test_it_pays_no_roundhouse_bonus_for_kings_around_alone():
    hand = deal({"N": ["kings", "trump_marriage", "marriage"]}, variant="check")
    assert hand["chips"] == {"NS": 3, "EW": -3}


def test_it_refuses_kings_and_queens_around_without_their_marriages():
    error = refusal({"N": ["kings", "queens", "trump_marriage"]})
    assert error.field == "melds.N"
    assert str(error).startswith("hand 1: melds.N: kings and queens around make a roundhouse")


def test_it_lets_a_king_sit_in_a_marriage_and_in_kings_around_at_once():
    # Single deck: N holds one king of each suit; the trump K sits in both melds.
    hand = deal({"N": ["kings", "trump_marriage"]})
    assert hand["meld"] == {"NS": 12, "EW": 0}


def test_it_lets_the_pinochle_queen_and_jack_also_count_in_arounds():
    hand = deal({"N": ["pinochle", "queens", "jacks", "trump_marriage"]})
    assert hand["meld"] == {"NS": 4 + 6 + 4 + 4, "EW": 0}


def test_it_lets_the_run_ace_also_count_in_aces_around():
    hand = deal({"N": ["run", "aces"]})
    assert hand["meld"] == {"NS": 25, "EW": 0}


@pytest.mark.parametrize(
    "melds",
    [
        ["run", "double_run"],
        ["pinochle", "pinochle"],
        ["pinochle", "double_pinochle"],
        ["aces", "aces"],
        ["kings", "double_kings"],
        ["jacks", "jacks"],
    ],
)
def test_it_refuses_a_level_listed_twice(melds):
    error = refusal({"N": [*melds, "trump_marriage"]})
    assert error.field == "melds.N"
    assert str(error).startswith(f"hand 1: melds.N: {melds[1]} and another ")


def test_it_lets_marriages_and_dix_repeat():
    hand = deal({"N": ["trump_marriage", "trump_marriage", "marriage", "marriage", "dix", "dix"]})
    assert hand["meld"] == {"NS": 8 + 4 + 2, "EW": 0}


def test_it_refuses_a_double_run_and_a_trump_marriage_in_a_single_deck():
    error = refusal({"N": ["double_run", "trump_marriage"]})
    assert error.field == "melds"
    assert str(error) == "hand 1: melds: the melds need 3 trump kings, but the deck has only 2"


def test_it_accepts_a_double_run_and_a_trump_marriage_in_a_double_deck():
    hand = deal({"N": ["double_run", "trump_marriage"]}, deck="double")
    assert hand["meld"] == {"NS": 154, "EW": 0}


def test_it_refuses_two_seats_with_double_pinochle_in_a_single_deck():
    error = refusal({"N": ["trump_marriage"], "E": ["double_pinochle"], "W": ["double_pinochle"]})
    assert str(error) == "hand 1: melds: the melds need 4 queens of spades, but the deck has only 2"


def test_it_accepts_two_seats_with_double_pinochle_in_a_double_deck():
    hand = deal({"N": ["trump_marriage"], "E": ["double_pinochle"], "W": ["double_pinochle"]}, deck="double")
    assert hand["meld"] == {"NS": 4, "EW": 60}


def test_it_refuses_three_seats_with_aces_in_a_single_deck():
    error = refusal({"N": ["aces"], "E": ["aces"], "S": ["aces"]})
    assert error.field == "melds"
    assert str(error) == "hand 1: melds: the melds need 3 trump aces, but the deck has only 2"


def test_it_accepts_two_seats_with_aces_in_a_single_deck():
    hand = deal({"N": ["aces"], "E": ["aces"]})
    assert hand["meld"] == {"NS": 10, "EW": 10}


def test_it_accepts_four_seats_with_aces_in_a_double_deck():
    hand = deal({"N": ["aces", "trump_marriage"], "E": ["aces"], "S": ["aces"], "W": ["aces"]}, deck="double")
    assert hand["meld"] == {"NS": 24, "EW": 20}


def test_it_refuses_more_than_two_dix_in_the_deal():
    error = refusal({"N": ["dix", "dix"], "E": ["dix"]})
    assert str(error) == "hand 1: melds: the melds need 3 trump nines (dix), but the deck has only 2"


def test_it_accepts_two_dix_in_two_hands():
    hand = deal({"N": ["dix"], "E": ["dix"]})
    assert hand["meld"] == {"NS": 1, "EW": 1}


def test_it_refuses_a_run_in_one_hand_and_double_aces_in_another_of_a_single_deck():
    error = refusal({"N": ["run"], "E": ["double_aces"]})
    assert str(error) == "hand 1: melds: the melds need 3 trump aces, but the deck has only 2"


def test_it_refuses_a_double_run_beside_another_seats_trump_marriage_in_a_single_deck():
    error = refusal({"N": ["double_run"], "E": ["trump_marriage"]})
    assert error.field == "melds"


def test_it_refuses_seven_side_suit_marriages_in_one_single_deck_hand():
    error = refusal({"N": ["trump_marriage", *["marriage"] * 7]})
    assert str(error) == (
        "hand 1: melds: the marriages and arounds need 7 kings of the side suits, but the deck has only 6"
    )


def test_it_refuses_marriages_that_fit_the_side_suits_in_number_but_not_suit_by_suit():
    # E's double pinochle takes both queens of spades, so E's two marriages go in spades or take
    # two more queens. Either way a side suit runs out: spades has no king left for N's kings
    # around, or N's four marriages find only three queens of hearts and clubs. Counted over the
    # side suits together (6 kings, 6 queens) the deal fitted.
    melds = {
        "N": ["marriage"] * 4 + ["dix", "dix", "kings"],
        "E": ["marriage", "marriage", "double_pinochle"],
    }
    error = refusal(melds, trump="hearts")
    assert error.code == "marriages_do_not_fit"
    assert str(error) == (
        "hand 1: melds: the marriages outside trump cannot all be placed: with the arounds and pinochles "
        "shown, the side suits have too few kings and queens left for them"
    )
    # With one marriage fewer at E it fits: E's marriage and pinochle share a queen of spades.
    melds["E"] = ["marriage", "double_pinochle"]
    assert deal(melds, trump="hearts")["meld"] == {"NS": 4 * 2 + 2 * 1 + 8, "EW": 2 + 30}


def test_it_refuses_side_marriages_without_trump_when_no_trump_suit_places_them():
    melds = {
        "N": ["trump_marriage", *["marriage"] * 4, "kings"],
        "E": ["marriage", "marriage", "double_pinochle"],
    }
    for trump in ("hearts", "diamonds", "clubs"):
        assert refusal(melds, trump=trump).code == "marriages_do_not_fit"
    assert refusal(melds, trump="spades").code == "deck_short"  # three queens of spades
    assert refusal(melds, trump=None).field == "melds"  # no suit as trump lets the deck hold them


def test_it_accepts_quadruple_melds_of_a_double_deck():
    hand = deal(
        {"N": ["quadruple_run", "quadruple_aces", "quadruple_pinochle"]}, deck="double", trump="clubs"
    )
    assert hand["meld"] == {"NS": 300 + 200 + 90, "EW": 0}


def test_it_refuses_a_quadruple_run_beside_another_trump_marriage_in_a_double_deck():
    error = refusal({"N": ["quadruple_run"], "S": ["trump_marriage"]}, deck="double")
    assert str(error) == "hand 1: melds: the melds need 5 trump kings, but the deck has only 4"


def test_it_checks_the_deal_against_the_trump_suit_named():
    # With spades trump the pinochle's Q♠ is a trump queen: a double run takes both in a single deck.
    error = refusal({"N": ["double_run"], "E": ["pinochle"]}, trump="spades")
    assert str(error) == "hand 1: melds: the melds need 3 trump queens, but the deck has only 2"
    hand = deal({"N": ["double_run"], "E": ["pinochle"]}, trump="hearts")
    assert hand["meld"] == {"NS": 150, "EW": 4}


def test_it_accepts_melds_without_trump_when_some_suit_could_hold_them():
    record = {
        "hands": [
            {
                "bidder": "N",
                "bid": 20,
                "melds": {"N": ["double_run"], "E": ["pinochle"]},
                "tricks": {"NS": 25, "EW": 0},
            }
        ]
    }
    assert score_record(record)["hands"][0]["meld"] == {"NS": 150, "EW": 4}


def test_it_refuses_an_unknown_meld_item():
    error = refusal({"N": ["trump_marriage", "flush"]})
    assert error.field == "melds.N"
    assert str(error) == "hand 1: melds.N: 'flush' is not a meld item"


def test_it_adds_up_a_sides_meld_over_its_seats():
    hand = deal({"N": ["run"], "S": ["aces", "marriage"], "E": ["pinochle"], "W": ["jacks"]})
    assert hand["meld"] == {"NS": 27, "EW": 8}
