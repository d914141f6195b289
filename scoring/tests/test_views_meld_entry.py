"""Meld entry sized to the hand: every seat's common items at once in one grid, the doubles behind
one tap for all seats, and the meld mode (items or quick points) kept per game by the server."""

import re

import pytest

from scoring.models import Game, Hand
from tests.access_helpers import client_with_token
from tests.helpers import check_game, hand_post, save_url, standard_game

pytestmark = pytest.mark.django_db

QUICK = {
    "bidder": "N",
    "bid": "21",
    "trump": "spades",
    "meld_mode": "points",
    "meld_points_N": "12",
    "meld_points_E": "4",
    "tricks_NS": "15",
}
PICKED = {
    "bidder": "E",
    "bid": "20",
    "trump": "hearts",
    "meld_mode": "items",
    "meld_E_marriage": "1",
    "tricks_NS": "10",
}


def _checked_mode(html: str) -> str:
    found = re.search(r'<input type="radio" name="meld_mode" value="(\w+)"[^>]*checked', html)
    assert found, "no meld mode is chosen"
    return found.group(1)


def _grid(html: str) -> tuple[str, str]:
    """The meld grid's common part and what follows it (the doubles and more)."""
    grid = html[html.index('<div class="meld-items">') : html.index('<div class="meld-quick">')]
    common, rare = grid.split('<details class="rare-melds">')
    return common, rare


def test_the_meld_grid_shows_every_seats_common_items_at_once_and_doubles_behind_one_tap():
    game = standard_game()
    html = client_with_token(game).get(f"/g/{game.code}/").content.decode()
    common, rare = _grid(html)
    for seat in "NESW":  # every seat's column, no seat to open first
        assert f'name="meld_{seat}_run"' in common and f'name="meld_{seat}_aces"' in common
        assert f'name="meld_{seat}_double_run"' in rare and f'name="meld_{seat}_double_aces"' in rare
    heads = re.findall(r'<th scope="col" class="seat-head" data-seat="(\w)"', common)
    assert heads == ["N", "E", "S", "W"]
    assert "Doubles and more" in rare
    # Each count says which item and which seat it is for (the rows' and columns' headers too).
    assert 'aria-label="Aces around, East (Bo)"' in common


def test_a_correction_with_a_double_opens_the_doubles():
    game = check_game()
    client = client_with_token(game)
    client.post(save_url(game), hand_post(1, meld_E_double_pinochle="1", meld_S_pinochle="0"))
    html = client.get(f"/g/{game.code}/hands/1/").content.decode()
    assert '<details class="rare-melds" open>' in html


def test_the_next_hand_opens_in_the_meld_mode_the_table_used_last():
    game = standard_game()
    phone = client_with_token(game)
    assert _checked_mode(phone.get(f"/g/{game.code}/").content.decode()) == "items"
    phone.post(save_url(game), hand_post(1, QUICK))
    assert Game.objects.get(pk=game.pk).meld_mode == "points"
    # On this phone, on another phone and without JavaScript alike: the server keeps it.
    assert _checked_mode(phone.get(f"/g/{game.code}/").content.decode()) == "points"
    other = client_with_token(game)
    assert _checked_mode(other.get(f"/g/{game.code}/").content.decode()) == "points"
    html = phone.post(save_url(game), hand_post(2, PICKED), headers={"HX-Request": "true"}).content.decode()
    assert _checked_mode(html) == "items" and Game.objects.get(pk=game.pk).meld_mode == "items"


def test_a_refused_hand_does_not_change_the_remembered_mode():
    game = standard_game()
    phone = client_with_token(game)
    response = phone.post(save_url(game), hand_post(1, {**QUICK, "tricks_NS": "99"}))
    assert "A side takes at most 25 trick points." in response.content.decode()
    assert not Hand.objects.exists()
    assert Game.objects.get(pk=game.pk).meld_mode == "items"


def test_check_pinochle_has_no_quick_mode_to_remember():
    game = check_game()
    phone = client_with_token(game)
    phone.post(save_url(game), hand_post(1))
    html = phone.get(f"/g/{game.code}/").content.decode()
    assert 'name="meld_mode"' not in html and Game.objects.get(pk=game.pk).meld_mode == "items"


def test_quick_points_are_typed_per_player_and_a_side_scores_its_players_sum():
    game = standard_game()
    phone = client_with_token(game)
    html = phone.get(f"/g/{game.code}/").content.decode()
    quick = html[html.index('<div class="meld-quick">') :]
    labels = re.findall(r'<label for="id_meld_points_(\w+)">([^<]+)</label>', quick)
    assert labels == [
        ("N", "North (Anna)"),
        ("E", "East (Bo)"),
        ("S", "South (Cecilia)"),
        ("W", "West (David)"),
    ]
    post = {**QUICK, "meld_points_S": "8", "meld_points_W": "6"}
    phone.post(save_url(game), hand_post(1, post))
    assert Hand.objects.get().data["meld_points"] == {"NS": 20, "EW": 10}


def test_at_three_seats_each_player_is_a_side():
    game = standard_game(seats=3)
    post = {
        "bidder": "N",
        "bid": "20",
        "meld_mode": "points",
        "meld_points_N": "9",
        "meld_points_S": "5",
        "tricks_N": "10",
        "tricks_E": "10",
    }
    client_with_token(game).post(save_url(game), hand_post(1, post))
    assert Hand.objects.get().data["meld_points"] == {"N": 9, "E": 0, "S": 5}


def test_a_correction_opens_with_the_grid_folded_under_each_seats_sum():
    game = check_game()
    phone = client_with_token(game)
    phone.post(save_url(game), hand_post(1))  # the worked example: N run + marriage, E aces, S pinochle
    html = phone.get(f"/g/{game.code}/hands/1/").content.decode()
    assert 'name="meld_N_run" value="1"' in html and 'name="meld_E_aces" value="1"' in html
    # Folded under each seat's sum (the tricks stay near); a tap on it opens the grid.
    fold = html[html.index('<details class="meld-fold">') : html.index("</summary>", html.index("meld-fold"))]
    points = re.findall(r'data-sum="points">(\d+)<', fold)
    assert points == ["17", "10", "4", "0"]  # 15 + 2, aces 10, pinochle 4
    assert re.findall(r'data-sum="chips">(\d+)<', fold) == ["2", "2", "0", "0"]  # the run's, the aces'


def test_a_seats_meld_problem_is_shown_above_the_grid_naming_the_seat():
    game = standard_game()
    response = client_with_token(game).post(save_url(game), hand_post(1, {**PICKED, "meld_W_run": "x"}))
    common, _rare = _grid(response.content.decode())
    assert '<details class="meld-fold"' not in common  # a new hand's grid is never folded
    assert "Meld of West (David): Run (A 10 K Q J of trump): enter a whole number, 0 to 1." in common
    assert 'name="meld_W_run" value="x"' in common


def test_a_double_deck_keeps_triples_and_quadruples_one_more_tap_away():
    game = standard_game(deck="double")
    html = client_with_token(game).get(f"/g/{game.code}/").content.decode()
    _common, rare = _grid(html)
    doubles, higher = rare.split('<details class="higher-melds">')
    assert 'name="meld_N_double_aces"' in doubles and "triple" not in doubles
    assert 'name="meld_N_triple_aces"' in higher and 'name="meld_N_quadruple_run"' in higher
    assert "Triples and quadruples" in higher


def test_the_meld_mode_is_kept_with_the_hand_and_not_when_another_phone_saved_it_first():
    from scoring.services.hands import HandConflict, record_hand
    from tests.helpers import quick_hand

    game = standard_game()
    record_hand(game=game, number=1, data=quick_hand())
    with pytest.raises(HandConflict):
        record_hand(game=game, number=1, data=quick_hand(bid=25), meld_mode="points")
    assert Game.objects.get(pk=game.pk).meld_mode == "items"
    record_hand(game=game, number=2, data=quick_hand(), meld_mode="points")
    assert Game.objects.get(pk=game.pk).meld_mode == "points"


def test_a_correction_whose_melds_have_a_problem_opens_the_grid():
    game = standard_game()
    phone = client_with_token(game)
    phone.post(save_url(game), hand_post(1, PICKED))
    response = phone.post(f"/g/{game.code}/hands/1/", hand_post(1, {**PICKED, "meld_W_run": "x"}))
    assert '<details class="meld-fold" open>' in response.content.decode()
