import pytest
from django.template.loader import render_to_string

from scoring import selectors, services
from testing.helpers import check_game

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
    services.record_hand(game=game, number=1, data=HAND)
    board = selectors.scoreboard(game)
    rows = {row["label"]: row["values"] for row in board.awards}
    assert rows == {
        "Meld chips won": [0, 0],
        "Contract chips won": [2, 0],
        "Slam chips won": [5, 0],
        "Game chips": [13, -13],  # lead 29: 10 + 3
        "Final chips": [20, -20],
    }


def test_a_draw_on_chips_is_shown_as_a_draw():
    game = check_game(target=25)
    services.record_hand(game=game, number=1, data=HAND)
    game.winner = "draw"  # the game's stored summary, which the page reads
    board = selectors.scoreboard(game)
    html = render_to_string("scoring/game.html#game", {"board": board, "game": game, "form": None})
    assert "It is a draw on chips" in html
    assert "Winner:" not in html
