"""Filing a game: a club, season or seat player id in Python's integer syntax (`0_1`, ` 1`, `１`)
is refused next to its field and nothing is written (int() would read it as a real id)."""

import pytest

from scoring.models import Game, GameSeat
from scoring.services.games import create_game
from scoring.services.hands import record_hand
from tests.league_data import H1, small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(people):
    """alice, a club organiser: she organises CLUB, and each test makes her the organiser of the
    club it makes."""
    return people.client("alice")


def _casual_game(owner):
    game = create_game(
        seats=4, variant="standard", deck="single", target=30, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "asa", "E": "Örjan", "S": "Cenek", "W": "Řehoř"},
    )  # fmt: skip
    record_hand(game=game, number=1, data=H1)
    Game.objects.filter(pk=game.pk).update(created_by=owner)
    return game


@pytest.mark.parametrize("field", ["club", "season", "seat_N"])
@pytest.mark.parametrize("pattern", ["0_{pk}", " {pk}", "\uff10{pk}", "{pk}\u00a0"])
def test_it_refuses_an_id_in_integer_syntax_and_writes_nothing(client, field, pattern, people):
    data = small_season(people["alice"])
    game = _casual_game(people["alice"])
    ids = {"club": data["club"].pk, "season": data["season"].pk, "seat_N": data["people"]["Åsa"].pk}
    post = {"club": ids["club"], "season": ids["season"], "played_on": "2026-04-01", "place": "Bord 2"}
    post.update({"note": "", "seat_N": ids["seat_N"], field: pattern.format(pk=ids[field])})
    response = client.post(f"/g/{game.code}/details/", post)
    assert response.status_code == 400
    page = response.content.decode()
    assert "is not one of the choices (an id is written in plain digits)" in page
    assert f'id="id_{field}_error' in page or f'aria-describedby="id_{field}_error' in page
    game.refresh_from_db()
    assert (game.club_id, game.place) == (None, "")
    assert GameSeat.objects.get(game=game, seat="N").player_id is None
