"""The numbers of docs/rules.md: meld table, defaults, bid steps, contract and game chips."""

from typing import Any

import pytest

from scoring.rules.engine import score_record
from scoring.rules.errors import RecordError
from scoring.rules.melds import meld_sum, seat_meld
from scoring.rules.rules_page import contract_bands, rules_numbers
from scoring.rules.tables import (
    MELD_ITEMS,
    bid_step_error,
    contract_chips,
    default_min_bid,
    default_target,
    game_chips,
    meld_items_for,
    next_bid,
    previous_bid,
    side_of,
    sides_for,
    trick_points_needed,
)

# docs/rules.md, "Meld table", row by row: item -> (single-deck points, double-deck points, Check chips).
# None means the deck cannot hold the item.
MELD_TABLE = {
    "run": (15, 15, 2),
    "double_run": (150, 150, 4),
    "triple_run": (None, 225, None),
    "quadruple_run": (None, 300, None),
    "trump_marriage": (4, 4, 0),
    "marriage": (2, 2, 0),
    "dix": (1, None, 0),
    "pinochle": (4, 4, 0),
    "double_pinochle": (30, 30, 1),
    "triple_pinochle": (None, 60, None),
    "quadruple_pinochle": (None, 90, None),
    "aces": (10, 10, 2),
    "kings": (8, 8, 1),
    "queens": (6, 6, 1),
    "jacks": (4, 4, 1),
    "double_aces": (100, 100, 4),
    "double_kings": (80, 80, 2),
    "double_queens": (60, 60, 2),
    "double_jacks": (40, 40, 2),
    "triple_aces": (None, 150, None),
    "quadruple_aces": (None, 200, None),
    "triple_kings": (None, 120, None),
    "quadruple_kings": (None, 160, None),
    "triple_queens": (None, 90, None),
    "quadruple_queens": (None, 120, None),
    "triple_jacks": (None, 60, None),
    "quadruple_jacks": (None, 80, None),
}


def needs_a_trump_marriage_beside(item, deck, variant):
    """The bidder must hold a trump marriage in a double deck and in Check Pinochle (docs/rules.md)."""
    family = MELD_ITEMS[item].family
    return (deck == "double" or variant == "check") and family not in ("run", "trump_marriage")


def one_meld_hand(item, *, deck="single", variant="standard"):
    """A record where the bidder N shows `item` (plus a trump marriage where the rules ask for one)."""
    trick_points = 25 if deck == "single" else 50
    melds = [item]
    if needs_a_trump_marriage_beside(item, deck, variant):
        melds.append("trump_marriage")
    return {
        "variant": variant,
        "deck": deck,
        "target": 9999,
        "hands": [
            {
                "bidder": "N",
                "bid": 20 if deck == "single" else 50,
                "trump": "hearts",
                "melds": {"N": melds},
                "tricks": {"NS": trick_points, "EW": 0},
            }
        ],
    }


def test_it_knows_every_item_of_the_meld_table_and_no_other():
    assert set(MELD_ITEMS) == set(MELD_TABLE)


@pytest.mark.parametrize("item", [name for name, row in MELD_TABLE.items() if row[0] is not None])
def test_it_scores_each_single_deck_meld_as_the_table_says(item):
    result = score_record(one_meld_hand(item))
    points = MELD_TABLE[item][0]
    assert points is not None
    assert result["hands"][0]["meld"] == {"NS": points, "EW": 0}
    assert result["hands"][0]["points"] == {"NS": points + 25, "EW": 0}


@pytest.mark.parametrize("item", [name for name, row in MELD_TABLE.items() if row[1] is not None])
def test_it_scores_each_double_deck_meld_as_the_table_says(item):
    result = score_record(one_meld_hand(item, deck="double"))
    beside = 4 if needs_a_trump_marriage_beside(item, "double", "standard") else 0
    points = MELD_TABLE[item][1]
    assert points is not None
    assert result["hands"][0]["meld"] == {"NS": points + beside, "EW": 0}
    assert result["hands"][0]["chips"] == {"NS": 0, "EW": 0}


@pytest.mark.parametrize("item", [name for name, row in MELD_TABLE.items() if row[2] is not None])
def test_it_pays_each_meld_its_check_chips(item):
    result = score_record(one_meld_hand(item, variant="check"))
    chips = MELD_TABLE[item][2]
    assert chips is not None
    # NS also win 2 contract chips for the made bid of 20; a trump marriage pays no chips.
    assert result["hands"][0]["chips"] == {"NS": 2 + chips, "EW": -2 - chips}


@pytest.mark.parametrize("item", [name for name, row in MELD_TABLE.items() if row[0] is None])
def test_it_refuses_a_single_deck_meld_only_a_double_deck_holds(item):
    with pytest.raises(RecordError) as caught:
        score_record(one_meld_hand(item))
    assert caught.value.field == "melds.N"
    assert caught.value.hand == 1
    assert (
        str(caught.value)
        == f"hand 1: melds.N: {item} is not a meld in a single deck (only a double deck holds it)"
    )


def test_it_refuses_a_dix_in_a_double_deck_which_has_no_nines():
    with pytest.raises(RecordError) as caught:
        score_record(one_meld_hand("dix", deck="double"))
    assert str(caught.value) == "hand 1: melds.N: dix is not a meld in a double deck (no nines)"


def test_it_offers_each_deck_only_the_items_it_can_hold():
    single = {item.name for item in meld_items_for("single")}
    double = {item.name for item in meld_items_for("double")}
    assert single == {name for name, row in MELD_TABLE.items() if row[0] is not None}
    assert double == {name for name, row in MELD_TABLE.items() if row[1] is not None}
    assert "dix" in single and "dix" not in double
    assert "triple_run" in double and "triple_run" not in single


@pytest.mark.parametrize(
    ("deck", "variant", "target", "min_bid"),
    [
        ("single", "standard", 150, 20),
        ("double", "standard", 500, 50),
        ("single", "check", 100, 20),
    ],
)
def test_it_applies_the_default_target_and_minimum_bid(deck, variant, target, min_bid):
    assert default_target(deck, variant) == target
    assert default_min_bid(deck) == min_bid
    result = score_record({"deck": deck, "variant": variant, "target": None, "min_bid": None, "hands": []})
    assert (result["target"], result["min_bid"]) == (target, min_bid)


def test_it_uses_defaults_when_the_settings_are_left_out():
    result = score_record({"hands": []})
    assert result["sides"] == ["NS", "EW"]
    assert result["variant"] == "standard"
    assert (result["target"], result["min_bid"], result["chips_in_play"]) == (150, 20, False)


def test_it_keeps_a_target_and_minimum_bid_the_game_sets():
    result = score_record({"variant": "check", "target": 120, "min_bid": 25, "hands": []})
    assert (result["target"], result["min_bid"]) == (120, 25)


def test_it_names_seats_and_sides_by_table_size():
    assert sides_for(4) == ("NS", "EW")
    assert sides_for(3) == ("N", "E", "S")
    assert sides_for(2) == ("N", "E")
    assert [side_of(seat, 4) for seat in "NESW"] == ["NS", "EW", "NS", "EW"]
    assert score_record({"seats": 3, "hands": []})["sides"] == ["N", "E", "S"]


@pytest.mark.parametrize("bid", [20, 21, 23, 29, 31, 47, 133])
def test_it_accepts_any_whole_bid_from_the_minimum_in_a_single_deck(bid):
    assert bid_step_error(bid, 20, "single") is None


def test_it_rejects_a_bid_below_the_minimum():
    assert bid_step_error(19, 20, "single") == "bid 19 is below the minimum bid of 20"
    assert bid_step_error(49, 50, "double") == "bid 49 is below the minimum bid of 50"


@pytest.mark.parametrize("bid", [*range(50, 61), 65, 70, 75, 100, 205])
def test_it_accepts_double_deck_bids_by_ones_to_sixty_then_by_fives(bid):
    assert bid_step_error(bid, 50, "double") is None


@pytest.mark.parametrize("bid", [61, 62, 64, 66, 69, 71, 101])
def test_it_rejects_a_double_deck_bid_off_its_step(bid):
    assert bid_step_error(bid, 50, "double") == (
        f"bid {bid} is off its step: above 60 a double-deck bid is a multiple of 5"
    )


def test_it_counts_double_deck_steps_from_a_minimum_bid_the_game_sets():
    legal = [bid for bid in range(40, 80) if bid_step_error(bid, 52, "double") is None]
    assert legal == [*range(52, 63), 65, 70, 75]


def test_its_bid_stepper_moves_between_legal_bids():
    assert [next_bid(b, 50, "double") for b in (0, 50, 59, 60, 65)] == [50, 51, 60, 65, 70]
    assert [previous_bid(b, 50, "double") for b in (70, 65, 60, 51, 50)] == [65, 60, 59, 50, 50]
    assert next_bid(23, 20, "single") == 24


@pytest.mark.parametrize(
    ("bid", "chips"),
    [
        (15, 2),
        (20, 2),
        (24, 2),
        (25, 4),
        (29, 4),
        (30, 7),
        (34, 7),
        (35, 10),
        (39, 10),
        (40, 13),
        (44, 13),
        (45, 16),
    ],
)
def test_it_pays_contract_chips_by_the_bid(bid, chips):
    assert contract_chips(bid) == chips


@pytest.mark.parametrize(
    ("lead", "chips"),
    [(-30, 10), (-1, 10), (0, 10), (1, 11), (9, 11), (10, 11), (11, 12), (20, 12), (21, 13), (95, 20)],
)
def test_it_pays_game_chips_of_ten_plus_one_per_started_ten_of_lead(lead, chips):
    assert game_chips(lead) == chips


@pytest.mark.parametrize(
    ("bid", "deck", "up", "stepped"),
    [
        (None, "single", True, 20),
        (3, "single", False, 20),
        (20, "single", False, 20),
        (24, "single", True, 25),
        (60, "double", True, 65),
        (65, "double", False, 60),
        (62, "double", False, 60),
        (99999, "single", True, 9999),
    ],
)
def test_the_bid_stepper_steps_along_the_rule_books_ladder(bid, deck, up, stepped):
    from scoring.rules.tables import default_min_bid, step_bid

    assert step_bid(bid, default_min_bid(deck), deck, up=up) == stepped


def test_the_phones_hand_numbers_are_the_meld_table_and_the_trick_points():
    from scoring.rules.tables import MELD_ITEMS, hand_numbers

    numbers: dict[str, Any] = hand_numbers(deck="double", min_bid=50, seats=3, chips_in_play=False)
    assert numbers["trick_points"] == 50 and numbers["tricks_per_hand"] == 25
    assert numbers["melds"]["quadruple_run"] == {
        "points": MELD_ITEMS["quadruple_run"].double,
        "chips": 0,
        "family": "run",
    }
    assert "dix" not in numbers["melds"]  # no dix in a double deck
    assert numbers["bonuses"] == []  # no roundhouse chips without chips in play


def test_a_hand_with_every_trick_to_the_bidders_gives_them_all_the_trick_points():
    from scoring.rules.engine import all_tricks_to_bidders
    from scoring.rules.settings import parse_settings

    three = parse_settings({"seats": 3, "deck": "double"})
    assert all_tricks_to_bidders({"bidder": "S", "bid": 60}, three)["tricks"] == {"N": 0, "E": 0, "S": 50}


@pytest.mark.parametrize(
    "items",
    [
        ("run", "marriage"),
        ("kings", "queens", "marriage", "marriage", "marriage", "trump_marriage"),
        ("run", "kings", "queens", "marriage", "marriage", "marriage", "pinochle"),
        ("double_aces", "double_pinochle", "dix", "dix"),
    ],
)
def test_the_hand_forms_running_meld_sum_is_what_the_engine_scores(items):
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    engine = seat_meld(items, "single")
    assert meld_sum(counts, "single", chips_in_play=True) == (engine.points, engine.chips)
    assert meld_sum(counts, "single", chips_in_play=False) == (engine.points, 0)


def test_the_running_meld_sum_leaves_out_untapped_items_and_items_the_deck_lacks():
    assert meld_sum({"run": 0, "marriage": -1, "dix": 3}, "double", chips_in_play=False) == (0, 0)


def test_the_rules_page_numbers_come_from_the_tables():
    """docs/rules.md's figures as the rules page states them (no database: plain tables)."""
    numbers = rules_numbers()
    assert numbers["defaults"] == [("single", 150, 20), ("double", 500, 50), ("check", 100, 20)]
    assert (numbers["double_ones_limit"], numbers["double_bid_example"]) == (60, [58, 59, 60, 65, 70])
    assert numbers["roundhouse_points"] == 8 + 6 + 3 * 2 + 4
    assert (numbers["roundhouse_chips"], numbers["plain_roundhouse_chips"]) == (5, 7)
    assert (numbers["last_trick_single"], numbers["last_trick_double"]) == (1, 2)
    assert numbers["tricks_per_hand"] == [(4, 12, 20), (3, 15, 25), (2, 24, 40)]
    assert numbers["check_tricks"] == 12
    assert numbers["around_factors"] == (1.5, 2.0)
    assert (numbers["contract_step"], numbers["band_width"]) == (3, 5)
    assert numbers["game_chip_rows"] == [(0, 0, 10), (1, 10, 11), (11, 20, 12), (21, 30, 13)]
    rows = numbers["meld_rows"]
    assert [row.name for row in rows] == list(MELD_ITEMS)
    assert {row.name: row.chips for row in rows}["triple_run"] is None


def test_the_rules_page_groups_bids_by_the_chips_they_pay():
    for band in contract_bands(49):
        low = band.low or default_min_bid("single")
        assert {contract_chips(bid) for bid in range(low, band.high + 1)} == {band.made}
        assert band.set == 2 * band.made


def test_the_bidders_need_the_bid_less_their_meld_in_trick_points():
    assert [trick_points_needed(27, meld) for meld in (0, 21, 27, 40)] == [27, 6, 0, 0]
