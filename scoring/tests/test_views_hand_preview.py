import pytest

from scoring.models import Hand
from scoring.services.hands import record_hand
from tests.helpers import WORKED_EXAMPLE, check_game, hand_post, standard_game, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(table_client):
    """The scoring phone: signed in as the account that created the game, so it may enter hands."""
    return table_client


def preview_url(game, number=None):
    return f"/g/{game.code}/hands/{number}/preview" if number else f"/g/{game.code}/preview"


def test_an_htmx_preview_describes_the_hand_and_saves_nothing(client):
    game = check_game()
    response = client.post(preview_url(game), hand_post(1), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="preview"')
    page = text(response)
    assert "N–S make 27: +36 · E–W +20" in page
    assert "Chips: N–S +4, E–W -4" in page
    assert "Totals after: N–S 36 · E–W 20" in page
    assert not Hand.objects.exists()


def test_a_preview_runs_on_the_stored_hands(client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    response = client.post(preview_url(game), hand_post(2), headers={"HX-Request": "true"})
    assert "Totals after: N–S 36 · E–W 20" in text(response)
    response = client.post(
        preview_url(game), hand_post(2, {**WORKED_EXAMPLE, "tricks_NS": "5"}), headers={"HX-Request": "true"}
    )
    assert "N–S are set on 27: -27 · E–W +30" in text(response)


def test_a_preview_says_when_the_hand_ends_the_game(client):
    game = standard_game(target=30)
    fields = {"bidder": "N", "bid": "20", "meld_mode": "points", "meld_points_N": "10", "tricks_NS": "20"}
    response = client.post(preview_url(game), hand_post(1, fields), headers={"HX-Request": "true"})
    assert "This hand ends the game: N–S reach the target." in text(response)


def test_a_preview_of_bad_input_lists_what_is_missing(client):
    game = check_game()
    response = client.post(
        preview_url(game), hand_post(1, {**WORKED_EXAMPLE, "bid": "19"}), headers={"HX-Request": "true"}
    )
    page = text(response)
    assert "Not ready to save:" in page
    assert "Bid 19 is below the minimum bid of 20" in page


def test_a_plain_preview_shows_the_whole_page_with_the_input_kept(client):
    game = check_game()
    response = client.post(preview_url(game), hand_post(1))
    html = response.content.decode()
    assert "<html" in html
    assert "N–S make 27: +36" in text(response)
    assert 'name="bid" value="27"' in html
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("deck", "bid", "step", "expected"),
    [
        ("single", "27", "bid_up", "28"),
        ("single", "27", "bid_down", "26"),
        ("single", "20", "bid_down", "20"),
        ("single", "", "bid_up", "20"),
        ("single", "junk", "bid_up", "20"),
        ("double", "60", "bid_up", "65"),
        ("double", "65", "bid_down", "60"),
        ("double", "55", "bid_up", "56"),
        ("single", "25_0", "bid_up", "20"),  # not 250 (nor 251)
    ],
)
def test_the_bid_stepper_knows_the_minimum_and_the_steps(client, deck, bid, step, expected):
    game = standard_game(deck=deck)
    post = hand_post(1, {"bidder": "N", "bid": bid, "tricks_NS": "10", "step": step})
    response = client.post(preview_url(game), post, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert 'id="bid-field"' in html and 'hx-swap-oob="true"' in html
    assert f'name="bid" value="{expected}"' in html
    plain = client.post(preview_url(game), post)
    assert f'name="bid" value="{expected}"' in plain.content.decode()


def test_a_correction_preview_replaces_that_hand(client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    record_hand(game=game, number=2, data={"passed": True})
    response = client.post(preview_url(game, 1), hand_post(1), headers={"HX-Request": "true"})
    page = text(response)
    assert "N–S make 27: +36" in page
    assert "Totals after: N–S 36 · E–W 20" in page
    assert [hand.data for hand in Hand.objects.order_by("number")] == [{"passed": True}] * 2


def test_it_answers_a_forged_code_with_404(client):
    assert client.post("/g/forged/preview", hand_post(1)).status_code == 404


def test_a_preview_of_a_hand_that_does_not_exist_goes_back_to_the_game(client):
    game = check_game()
    response = client.post(preview_url(game, 7), hand_post(7))
    assert response.status_code == 302
