import re

import pytest
from django.template.loader import render_to_string

from scoring.selectors.board import scoreboard
from scoring.services.hands import record_hand
from tests.helpers import check_game, quick_hand, standard_game

pytestmark = pytest.mark.django_db

HAND = {
    "bidder": "N",
    "bid": 20,
    "trump": "hearts",
    "melds": {"N": ["trump_marriage"]},
    "tricks": {"NS": 25, "EW": 0},
    "tricks_won": {"NS": 12, "EW": 0},
}


def test_the_awards_add_up_the_chips_each_side_won():
    game = check_game(target=25)
    record_hand(game=game, number=1, data=HAND)
    board = scoreboard(game)
    rows = {row["label"]: row["values"] for row in board.awards}
    assert rows == {
        "Meld chips won": [0, 0],
        "Contract chips won": [2, 0],
        "Slam chips won": [5, 0],
        "Netting: the other side's chips": [0, -7],
        "Game chips": [13, -13],  # lead 29: 10 + 3
        "Final chips": [20, -20],
    }
    # Every column adds up to its final chips.
    for column in range(2):
        assert (
            sum(values[column] for label, values in rows.items() if label != "Final chips")
            == (rows["Final chips"][column])
        )


def test_the_end_says_who_won_and_by_which_rule():
    game = check_game(target=25)
    record_hand(game=game, number=1, data=HAND)
    board = scoreboard(game)
    lines = [re.sub("<[^>]+>", "", line) for line in board.end_reason]
    assert lines == [
        "N–S reached 25 in hand 1.",
        "In Check Pinochle the side with more chips wins: N–S 20 · E–W -20.",
    ]
    assert (
        '<span class="nobreak">E–W -20</span>' in board.end_reason[1]
    )  # a side and its figure stay together


def test_a_draw_on_chips_is_shown_as_a_draw():
    game = check_game(target=25)
    record_hand(game=game, number=1, data=HAND)
    game.winner = "draw"  # the game's stored summary, which the page reads
    board = scoreboard(game)
    html = render_to_string("scoring/game.html#game", {"board": board, "game": game, "form": None})
    assert "It is a draw on chips" in html
    assert "Winner:" not in html


def test_when_both_sides_pass_the_target_the_end_says_the_bidders_go_out_first():
    game = standard_game(target=30)
    record_hand(game=game, number=1, data=quick_hand(bidder="N", ns_meld=10, ns_tricks=15))
    both = {"bidder": "E", "bid": 20, "meld_points": {"NS": 0, "EW": 10}, "tricks": {"NS": 10, "EW": 15}}
    record_hand(game=game, number=2, data=both)
    board = scoreboard(game)
    lines = [re.sub("<[^>]+>", "", line) for line in board.end_reason]
    assert lines == ["E–W bid and reached 30 in hand 2: the bidders go out first."]


def test_when_two_of_three_players_pass_the_target_the_end_does_not_speak_of_both_sides():
    game = standard_game(seats=3, target=50)
    first = {
        "bidder": "N",
        "bid": 25,
        "meld_points": {"N": 15, "E": 10, "S": 0},
        "tricks": {"N": 15, "E": 5, "S": 5},
    }
    record_hand(game=game, number=1, data=first)  # N 30, E 15, S 5
    second = {
        "bidder": "S",
        "bid": 20,
        "meld_points": {"N": 22, "E": 21, "S": 1},
        "tricks": {"N": 10, "E": 15, "S": 0},
    }
    record_hand(game=game, number=2, data=second)  # S set: N 62, E 51, S -15
    board = scoreboard(game)
    lines = [re.sub("<[^>]+>", "", line) for line in board.end_reason]
    assert lines == ["Several players passed 50 in hand 2: N has the most points."]


def test_the_end_of_a_game_of_fixed_deals_says_the_last_deal_ended_it():
    game = check_game(deals=1)
    record_hand(game=game, number=1, data={**HAND, "tricks": {"NS": 15, "EW": 10}, "tricks_won": None})
    board = scoreboard(game)
    lines = [re.sub("<[^>]+>", "", line) for line in board.end_reason]
    # N-S 4 + 15 = 19 < 20: set, −20; E-W 10. E-W ahead by 30: 10 + 3 game chips.
    assert lines == [
        "The game was 1 deal: E–W have the most points, N–S -20 · E–W 10.",
        "In Check Pinochle the side with more chips wins: N–S -17 · E–W 17.",
    ]
    assert board.winner_label == "E–W (Bo & David)"


def test_level_points_after_the_last_deal_are_explained_with_no_game_chips():
    game = check_game(deals=1)
    melds = {"N": ["trump_marriage", "dix"], "E": ["aces"]}  # N-S 5 + 15, E-W 10 + 10
    level = {"bidder": "N", "bid": 20, "trump": "hearts", "melds": melds, "tricks": {"NS": 15, "EW": 10}}
    record_hand(game=game, number=1, data=level)
    board = scoreboard(game)
    lines = [re.sub("<[^>]+>", "", line) for line in board.end_reason]
    assert lines == [
        "The game was 1 deal; after it the points are level: N–S 20 · E–W 20.",
        "No game chips: neither side is ahead on points.",
        "In Check Pinochle the chips decide: N–S 0 · E–W 0, a draw.",
    ]
    assert board.winner_label == "It is a draw on chips"
