import pytest

from scoring.models import Game, GameSeat
from tests.helpers import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(table_client):
    """The scoring phone: signed in as the account that created the game, so it may enter hands."""
    return table_client


SETUP = {"seats": "4", "variant": "check", "deck": "single", "first_dealer": "N"}


def test_it_shows_the_setup_form_with_rule_book_defaults(client):
    response = client.get("/games/new")
    assert response.status_code == 200
    page = text(response)
    for words in (
        "Seats at the table",
        "Check Pinochle",
        "Play to",
        "Minimum bid",
        "First dealer",
        "meld needs a trick",
        "North & South play against East & West",
    ):
        assert words in page
    assert "150, 500 with a double deck, 100 in Check Pinochle" in page


def test_it_starts_a_check_game_and_redirects_to_it(client):
    names = {"name_N": "Anna", "name_E": "Bo", "name_S": "Cecilia", "name_W": "David"}
    response = client.post("/games/new", {**SETUP, **names})
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/g/{game.code}/"
    assert len(game.code) >= 10 and not game.code.isdigit()
    assert game.variant == "check" and game.target is None
    assert dict(GameSeat.objects.values_list("seat", "name")) == {
        "N": "Anna",
        "E": "Bo",
        "S": "Cecilia",
        "W": "David",
    }
    page = text(client.get(response["Location"]))
    assert "to 100 · min bid 20" in page
    assert "N–S (Anna & Cecilia)" in page


def test_it_keeps_a_changed_target_and_minimum_bid(client):
    client.post("/games/new", {**SETUP, "variant": "standard", "target": "120", "min_bid": "25"})
    game = Game.objects.get()
    assert (game.target, game.min_bid) == (120, 25)


def test_it_refuses_check_pinochle_with_three_seats_next_to_the_variant(client):
    response = client.post("/games/new", {**SETUP, "seats": "3"})
    assert response.status_code == 200
    assert not Game.objects.exists()
    html = response.content.decode()
    variant = html[html.index('id="id_variant"') :]
    assert "played by four players" in variant[: variant.index("</fieldset>")]


def test_it_plays_check_pinochle_with_a_double_deck_as_a_standard_game_and_says_so(client):
    # docs/rules.md, "Tables and options": chips cannot be combined with a double deck; the
    # variant falls back to standard.
    response = client.post("/games/new", {**SETUP, "deck": "double"}, follow=True)
    game = Game.objects.get()
    assert (game.variant, game.deck) == ("check", "double")
    page = text(response)
    assert "Standard (double deck) · to 500 · min bid 50" in page
    assert "ordinary double-deck game without chips" in page
    assert "chips" not in page.split("ordinary double-deck game without chips")[1].split("Enter hand")[0]


def test_it_refuses_a_first_dealer_who_is_not_at_the_table(client):
    response = client.post("/games/new", {**SETUP, "variant": "standard", "seats": "3", "first_dealer": "W"})
    assert not Game.objects.exists()
    assert "nobody sits West" in text(response)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("target", "lots", "Enter a whole number."),
        ("target", "99999999999999999999", "less than or equal to 1000000"),
        ("min_bid", "0", "greater than or equal to 1"),
        ("seats", "5", "Select a valid choice"),
        ("deck", "triple", "Select a valid choice"),
        ("name_N", "x" * 101, "at most 100 characters"),
    ],
)
def test_it_explains_bad_input_and_saves_nothing(client, field, value, words):
    response = client.post("/games/new", {**SETUP, "variant": "standard", field: value})
    assert response.status_code == 200
    assert not Game.objects.exists()
    assert words in text(response)


def test_it_needs_the_csrf_token(client):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/games/new", SETUP).status_code == 403
    assert not Game.objects.exists()
