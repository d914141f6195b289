"""A game's pages moved under /g/<code>/; printed and shared links to the old places still work."""

import pytest

from tests.helpers import standard_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/games/{code}/history/", "/g/{code}/history/"),
        ("/games/{code}/hand-over/", "/g/{code}/hand-over/"),
        ("/games/{code}/take-over/abc/", "/g/{code}/take-over/abc/"),
        ("/league/games/{code}/", "/g/{code}/details/"),
    ],
)
def test_an_old_game_address_answers_a_permanent_redirect_to_its_new_place(client, old, new):
    game = standard_game()
    response = client.get(old.format(code=game.code))
    assert response.status_code == 301
    assert response["Location"] == new.format(code=game.code)


def test_an_old_admin_address_of_a_club_model_answers_a_permanent_redirect(client):
    response = client.get("/admin/scoring/player/?q=Anna")
    assert response.status_code == 301
    assert response["Location"] == "/admin/clubs/player/?q=Anna"
