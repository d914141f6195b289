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
    assert "N Anna · E Bo · S Cecilia · W David" in page
    assert "N–S 25 · E–W 10 · 1 hand · winner N–S" in page


def test_it_offers_a_new_game(client):
    response = client.get("/")
    assert 'href="/games/new"' in response.content.decode()
    assert "No game in progress." in text(response)


def test_it_refuses_a_post(client):
    assert client.post("/").status_code == 405


def test_each_row_says_who_plays_when_the_variant_and_the_deck(client, settings):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from scoring.models import Game

    settings.TIME_ZONE = "Europe/Stockholm"
    double = standard_game(deck="double")
    unnamed = standard_game()
    unnamed.seat_rows.update(name="")
    started = datetime(2026, 3, 1, 19, 5, tzinfo=ZoneInfo("UTC"))  # 20:05 in Stockholm
    saved = datetime(2026, 3, 1, 20, 41, tzinfo=ZoneInfo("UTC"))
    Game.objects.filter(pk=double.pk).update(created_at=started, updated_at=saved, hand_count=2)
    Game.objects.filter(pk=unnamed.pk).update(created_at=started, updated_at=started)
    page = text(client.get("/"))
    assert "Standard · Double deck · 4 players N Anna · E Bo · S Cecilia · W David" in page
    assert "Started 1 Mar 2026, 20:05 · last saved 1 Mar 2026, 21:41" in page
    assert "Standard · Single deck · 4 players North · East · South · West Started 1 Mar 2026, 20:05" in page


def test_check_pinochle_with_a_double_deck_is_listed_as_it_is_played(client):
    check_game(deck="double")
    assert "Standard · Double deck · 4 players" in text(client.get("/"))
