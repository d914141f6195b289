import pytest
from django.test import Client

from scoring.models import Game, Hand
from scoring.services.hands import record_hand
from tests.helpers import WORKED_EXAMPLE, check_game, hand_post, quick_hand, standard_game, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(table_client):
    """The scoring phone: signed in as the account that created the game, so it may enter hands."""
    return table_client


def edit_url(game, number):
    return f"/g/{game.code}/hands/{number}/"


def test_the_form_is_prefilled_with_the_hand(client):
    game = check_game()
    client.post(f"/g/{game.code}/hands", hand_post(1, {**WORKED_EXAMPLE, "slam": "", "meld_N_marriage": "2"}))
    response = client.get(edit_url(game, 1))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Correct hand 1" in text(response)
    assert 'name="bid" value="27"' in html
    assert 'name="meld_N_marriage" value="2"' in html
    assert 'name="tricks_NS" value="15"' in html
    assert '<input type="radio" name="trump" value="hearts" id="id_trump_1" checked>' in html
    assert '<input type="radio" name="bidder" value="N" id="id_bidder_0" checked>' in html
    assert "Save correction of hand 1" in text(response)


def test_quick_mode_hands_come_back_in_quick_mode(client):
    game = standard_game()
    record_hand(game=game, number=1, data=quick_hand(ns_meld=12))
    html = client.get(edit_url(game, 1)).content.decode()
    assert 'name="meld_points_N" value="12"' in html  # stored per side: on its first seat
    assert '<input type="radio" name="meld_mode" value="points" id="id_meld_mode_1" checked>' in html


def test_a_correction_rescores_everything_after_it(client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    record_hand(game=game, number=2, data={"passed": True})
    response = client.post(edit_url(game, 1), hand_post(1))
    assert response.status_code == 302 and response["Location"] == f"/g/{game.code}/"
    assert Hand.objects.get(game=game, number=1).data["bid"] == 27
    game.refresh_from_db()
    assert game.scores == {"NS": 36, "EW": 20} and game.chip_totals == {"NS": 4, "EW": -4}
    assert "Hand 1 corrected." in text(client.get(response["Location"]))


def test_a_correction_that_would_end_the_game_before_later_hands_is_refused(client):
    game = standard_game(target=50)
    record_hand(game=game, number=1, data=quick_hand(bidder="E", ns_meld=0, ns_tricks=5))
    record_hand(game=game, number=2, data=quick_hand(bidder="E", ns_meld=0, ns_tricks=5))
    before = [hand.data for hand in Hand.objects.order_by("number")]
    fields = {"bidder": "E", "bid": "20", "meld_mode": "points", "meld_points_E": "30", "tricks_NS": "5"}
    response = client.post(edit_url(game, 1), hand_post(1, fields))
    assert response.status_code == 200
    assert "This change would end the game after hand 1, but later hands are recorded." in text(response)
    assert [hand.data for hand in Hand.objects.order_by("number")] == before
    game.refresh_from_db()
    assert game.scores == {"NS": 10, "EW": 40} and not game.finished


def test_a_correction_can_reopen_a_finished_game(client):
    game = standard_game(target=30)
    record_hand(game=game, number=1, data=quick_hand(ns_meld=10, ns_tricks=20))
    game.refresh_from_db()
    assert game.finished
    client.post(edit_url(game, 1), hand_post(1, {"bidder": "N", "bid": "20", "tricks_NS": "20"}))
    game.refresh_from_db()
    assert not game.finished
    assert "Enter hand 2" in text(client.get(f"/g/{game.code}/"))


def test_bad_input_in_a_correction_is_explained_and_nothing_changes(client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    response = client.post(edit_url(game, 1), hand_post(1, {**WORKED_EXAMPLE, "tricks_NS": "30"}))
    assert "A side takes at most 25 trick points." in text(response)
    assert Hand.objects.get().data == {"passed": True}


@pytest.mark.parametrize("number", ["2", "0", "99999999999999999999"])
def test_a_hand_that_does_not_exist_is_404(client, number):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    assert client.get(f"/g/{game.code}/hands/{number}/").status_code == 404


def test_it_answers_a_forged_code_with_404(client):
    assert client.get("/g/forged/hands/1/").status_code == 404
    assert client.post("/g/forged/hands/1/", hand_post(1)).status_code == 404


def test_it_needs_the_csrf_token():
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    assert Client(enforce_csrf_checks=True).post(edit_url(game, 1), hand_post(1)).status_code == 403
    assert Game.objects.get().scores == {"NS": 0, "EW": 0}
