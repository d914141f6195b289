import re

import pytest
from django.test import Client

from scoring.models import Hand
from scoring.services.hands import record_hand
from tests.helpers import check_game, quick_hand, standard_game, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(table_client):
    """The scoring phone: signed in as the account that created the game, so it may enter hands."""
    return table_client


def delete_url(game):
    return f"/g/{game.code}/hands/last/delete"


def test_it_asks_before_deleting(client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    response = client.get(delete_url(game))
    assert response.status_code == 200
    assert "Delete hand 1?" in text(response)
    assert Hand.objects.count() == 1


def test_it_deletes_the_last_hand_and_rescores(client):
    game = standard_game(target=30)
    record_hand(game=game, number=1, data=quick_hand(ns_meld=0, ns_tricks=20))
    record_hand(game=game, number=2, data=quick_hand(ns_meld=10, ns_tricks=20))
    game.refresh_from_db()
    assert game.finished
    response = client.post(delete_url(game), {"number": "2"})
    assert response.status_code == 302
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    game.refresh_from_db()
    assert not game.finished and game.scores == {"NS": 20, "EW": 5}
    assert "Hand 2 deleted." in text(client.get(response["Location"]))


def test_it_deletes_nothing_when_another_hand_was_added_meanwhile(client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    record_hand(game=game, number=2, data={"passed": True})
    response = client.post(delete_url(game), {"number": "1"}, follow=True)
    assert Hand.objects.count() == 2
    assert "Nothing deleted: the last hand is now hand 2." in text(response)


def test_there_is_nothing_to_delete_in_a_new_game(client):
    game = check_game()
    response = client.post(delete_url(game), {"number": "0"}, follow=True)
    assert "There is no hand to delete." in text(response)


def test_it_answers_a_forged_code_with_404(client):
    assert client.post("/g/forged/hands/last/delete", {"number": "1"}).status_code == 404


def test_it_needs_the_csrf_token():
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    assert Client(enforce_csrf_checks=True).post(delete_url(game), {"number": "1"}).status_code == 403
    assert Hand.objects.count() == 1


def test_undo_puts_the_hands_values_back_on_the_entry_form_once(client):
    from tests.helpers import WORKED_EXAMPLE, hand_post, save_url

    game = check_game()
    client.post(save_url(game), hand_post(1))
    page = client.post(delete_url(game), {"number": "1", "undo": "1"}, follow=True)
    assert "Hand 1 undone: its values are back on the form below." in text(page)
    html = page.content.decode()
    assert Hand.objects.count() == 0
    # The same values, ready to fix one field and save again as hand 1.
    assert f'name="bid" value="{WORKED_EXAMPLE["bid"]}"' in html
    assert re.search(f'name="bidder" value="{WORKED_EXAMPLE["bidder"]}"[^>]*checked', html)
    assert f'name="tricks_NS" value="{WORKED_EXAMPLE["tricks_NS"]}"' in html
    assert "Save hand 1" in text(page)
    # Once: the next page is a blank form again; a plain Delete leaves the form blank.
    assert 'name="bid" value="' not in client.get(f"/g/{game.code}/").content.decode()


def test_a_plain_delete_leaves_the_entry_form_blank(client):
    from tests.helpers import hand_post, save_url

    game = check_game()
    client.post(save_url(game), hand_post(1))
    page = client.post(delete_url(game), {"number": "1"}, follow=True)
    assert 'name="bid" value="' not in page.content.decode()
