import pytest

from scoring.services.hands import record_hand
from tests.helpers import check_game, quick_hand, standard_game, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(table_client):
    """The scoring phone: signed in as the account that created the game, so it may enter hands."""
    return table_client


def test_it_lists_games_in_progress_and_finished(client):
    playing = check_game()
    done = standard_game(target=20)
    record_hand(game=done, number=1, data=quick_hand(ns_meld=10, ns_tricks=15))
    response = client.get("/")
    assert response.status_code == 200
    page = text(response)
    assert page.index("In progress") < page.index("Finished")
    html = response.content.decode()
    assert html.index(f"/g/{playing.code}/") < html.index("Finished") < html.index(f"/g/{done.code}/")
    assert "Anna, Bo, Cecilia, David N–S 25 · E–W 10 · 1 hand · winner N–S" in page


def test_it_offers_a_new_game(client):
    response = client.get("/")
    assert 'href="/games/new"' in response.content.decode()
    assert "No game in progress." in text(response)


def test_it_refuses_a_post(client):
    assert client.post("/").status_code == 405
