import pytest
from django.test import Client

from scoring.services.hands import record_hand
from tests.access_helpers import client_with_token
from tests.helpers import WORKED_EXAMPLE, check_game, found, quick_hand, standard_game, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(table_client):
    """The scoring phone: signed in as the account that created the game, so it may enter hands."""
    return table_client


def test_it_shows_totals_dealer_and_an_empty_history(client):
    game = check_game(first_dealer="E")
    response = client.get(f"/g/{game.code}/")
    assert response.status_code == 200
    page = text(response)
    assert "Hand 1: East (Bo) deals" in page
    assert "No hand yet." in page
    assert "Enter hand 1" in page
    assert "All four passed" in page  # Check Pinochle only


def test_it_offers_quick_meld_points_only_where_chips_are_not_in_play(client):
    assert "Quick points" in text(client.get(f"/g/{standard_game().code}/"))
    assert "Quick points" not in text(client.get(f"/g/{check_game().code}/"))
    assert "All four passed" not in text(client.get(f"/g/{standard_game().code}/"))


def test_it_shows_each_hand_in_the_history(client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    record_hand(
        game=game,
        number=2,
        data={
            "bidder": "E",
            "bid": 25,
            "trump": "spades",
            "melds": {"E": ["trump_marriage"]},
            "tricks": {"NS": 15, "EW": 10},
        },
    )
    page = text(client.get(f"/g/{game.code}/"))
    # One row per hand like the paper column: number, bid, the running totals (and chips).
    assert "#2 E 25 ♠ SET 15 · 8c -25 · -8c" in page
    assert "dealer East (Bo)" in page
    assert "East (Bo) bid 25 · ♠ Spades" in page
    assert "E–W 4 10 -25 -8 -25" in page  # meld, tricks, points, chips, total
    assert "#1 PASSED 0 · 0c 0 · 0c" in page
    assert "Hand 3: South (Cecilia) deals" in page
    assert "Edit hand 1" in page and "Delete hand 2 (the last)" in page


def test_it_marks_a_slam(client):
    game = check_game()
    record_hand(
        game=game,
        number=1,
        data={
            "bidder": "S",
            "bid": 22,
            "trump": "diamonds",
            "melds": {"S": ["trump_marriage"]},
            "tricks": {"NS": 25, "EW": 0},
            "tricks_won": {"NS": 12, "EW": 0},
        },
    )
    assert "SLAM N–S" in text(client.get(f"/g/{game.code}/"))


def test_it_answers_a_forged_code_with_404(client):
    assert client.get("/g/not-a-game/").status_code == 404
    assert client.get("/g/1/").status_code == 404


def test_an_htmx_request_gets_the_fragment(client):
    game = check_game()
    response = client.get(f"/g/{game.code}/", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="game"')
    assert "<html" not in html


def test_a_finished_game_shows_the_winner_and_hides_the_entry_form(client):
    game = standard_game(target=30)
    record_hand(game=game, number=1, data=quick_hand(ns_meld=10, ns_tricks=20))
    page = text(client.get(f"/g/{game.code}/"))
    assert "Game over" in page
    assert "Winner: N–S (Anna & Cecilia)" in page
    assert "Final points: N–S 30 · E–W 5" in page
    assert "Enter hand" not in page
    assert 'id="hand-form"' not in client.get(f"/g/{game.code}/").content.decode()


@pytest.mark.parametrize("hands", [5, 40])
def test_the_scoreboard_costs_the_same_queries_whatever_the_number_of_hands(django_assert_num_queries, hands):
    game = standard_game(target=99999)
    for number in range(1, hands + 1):
        record_hand(game=game, number=number, data=quick_hand(bidder="NESW"[number % 4]))
    client = client_with_token(game)  # the scoring phone without an account: no session to read
    # session-less page: the game, the device's right to it (two plain queries, scoring/devices.py),
    # then its seats, hands and corrections
    for _view in range(2):
        with django_assert_num_queries(5):
            response = client.get(f"/g/{game.code}/")
        assert f"#{hands} " in text(response) and "#1 " in text(response)


def test_the_page_follows_every_change_of_hands(client):
    game = check_game()
    url = f"/g/{game.code}/"
    assert "N–S (Anna & Cecilia) 0" in text(client.get(url))
    record_hand(game=game, number=1, data={"passed": True})
    assert "Hand 2: East (Bo) deals" in text(client.get(url))
    client.post(f"/g/{game.code}/hands/1/", {"number": "1", **WORKED_EXAMPLE})
    assert "N–S (Anna & Cecilia) 36 4 chips" in text(client.get(url))
    client.post(f"/g/{game.code}/hands/last/delete", {"number": "1"})
    page = text(client.get(url))
    assert "N–S (Anna & Cecilia) 0 0 chips" in page and "No hand yet." in page


def test_each_page_gets_its_own_submission_id_and_a_real_csrf_token(client):
    game = check_game()
    first = client.get(f"/g/{game.code}/").content.decode()
    second = client.get(f"/g/{game.code}/", headers={"HX-Request": "true"}).content.decode()
    ids = [found(r'name="submission_id" value="([0-9a-f-]{36})"', html) for html in (first, second)]
    assert ids[0] != ids[1]
    for html in (first, second):
        assert "hole" not in html
        token = found(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert len(token) == 64


def test_a_seat_named_like_the_old_cache_holes_shows_that_name_and_never_the_viewers_csrf_token(client):
    # The page cache once cut drawn pages at "csrf-hole-…" and filled in the viewer's CSRF token.
    names = {
        "N": "csrf-hole-4f1c9e",
        "E": "submission-hole-4f1c9e",
        "S": "<!--messages-hole-4f1c9e-->",
        "W": "W",
    }
    game = check_game(players=names)
    readers = [(client, f"/g/{game.code}/"), (client_with_token(game), f"/g/{game.code}/")]
    readers.append((Client(), f"/s/{game.share_code}/"))
    for reader, url in readers:
        for headers in ({}, {"HX-Request": "true"}):
            html = reader.get(url, headers=headers).content.decode()
            assert "csrf-hole-4f1c9e" in html and "submission-hole-4f1c9e" in html
            assert "&lt;!--messages-hole-4f1c9e--&gt;" in html
            token = reader.cookies.get("csrftoken")
            if token is not None:
                assert token.value not in html.replace('name="csrfmiddlewaretoken" value="', "")


def test_the_live_poll_answers_304_to_its_etag_until_a_hand_is_saved():
    game = check_game()
    phone = client_with_token(game)
    page = phone.get(f"/g/{game.code}/").content.decode()
    poll = found(r'hx-get="([^"]+)" hx-trigger="every 3s"', page).replace("&amp;", "&")
    first = phone.get(poll)
    assert first.status_code == 204 and first["ETag"]
    assert phone.get(poll, headers={"If-None-Match": first["ETag"]}).status_code == 304
    record_hand(game=game, number=1, data={"passed": True})
    again = phone.get(poll, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and "#1" in text(again)
    assert again["ETag"] != first["ETag"]
