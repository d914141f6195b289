import re
import uuid

import pytest
from django.test import Client

from scoring.models import Hand
from scoring.services.hands import record_hand
from tests.access_helpers import client_with_token
from tests.helpers import WORKED_EXAMPLE, check_game, found, hand_post, save_url, standard_game, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(table_client):
    """The scoring phone: signed in as the account that created the game, so it may enter hands."""
    return table_client


def errors_near(html: str, anchor: str) -> str:
    """The text of the form from `anchor` (an element id) to the end of its fieldset."""
    start = html.index(anchor)
    return re.sub(r"<[^>]+>", " ", html[start : html.index("</fieldset>", start)])


def test_a_plain_post_saves_the_hand_and_redirects(client):
    game = check_game()
    response = client.post(save_url(game), hand_post(1))
    assert response.status_code == 302
    assert response["Location"] == f"/g/{game.code}/"
    hand = Hand.objects.get(game=game)
    assert hand.data == {
        "bidder": "N",
        "bid": 27,
        "trump": "hearts",
        "melds": {"N": ["run", "marriage"], "E": ["aces"], "S": ["pinochle"]},
        "tricks": {"NS": 15, "EW": 10},
    }
    page = text(client.get(response["Location"]))
    assert "Hand 1 saved." in page
    assert "N–S (Anna & Cecilia) 36 4 chips" in page


def test_an_htmx_post_gets_the_game_fragment_with_a_fresh_form(client):
    game = check_game()
    first = hand_post(1)
    response = client.post(save_url(game), first, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="game"') and "<html" not in html
    assert "Hand 1 saved." in html
    assert 'name="number" value="2"' in html
    assert first["submission_id"] not in html


def test_a_double_tap_saves_one_hand(client):
    game = check_game()
    post = hand_post(1)
    assert client.post(save_url(game), post).status_code == 302
    assert client.post(save_url(game), post).status_code == 302
    assert client.post(save_url(game), post, headers={"HX-Request": "true"}).status_code == 200
    assert Hand.objects.filter(game=game).count() == 1


def test_a_stale_hand_number_gets_a_conflict_and_keeps_the_input(client):
    game = check_game()
    client.post(save_url(game), hand_post(1))  # the other phone was quicker
    mine = hand_post(1, {**WORKED_EXAMPLE, "bid": "31", "meld_N_marriage": "2"})
    response = client.post(save_url(game), mine)
    assert response.status_code == 200
    assert Hand.objects.filter(game=game).count() == 1
    page = text(response)
    assert "Hand 1 was just saved on another phone; yours was not saved." in page
    html = response.content.decode()
    assert 'name="bid" value="31"' in html
    assert 'name="meld_N_marriage" value="2"' in html
    assert 'name="number" value="2"' in html  # saving again is hand 2


@pytest.mark.parametrize(
    ("change", "anchor", "words"),
    [
        ({"bid": "19"}, 'id="bid-field"', "Bid 19 is below the minimum bid of 20"),
        ({"bid": "lots"}, 'id="bid-field"', "Enter a whole number."),
        ({"bid": "99999999999999999999"}, 'id="bid-field"', "A bid is at most 9999."),
        ({"bid": ""}, 'id="bid-field"', "Enter the bid."),
        ({"bidder": "X"}, 'id="bidder"', "Select a valid choice"),
        ({"bidder": ""}, 'id="bidder"', "Tap the seat that won the bid."),
        ({"trump": ""}, 'id="trump"', "The bidder must name trump in Check Pinochle"),
        ({"trump": "stars"}, 'id="trump"', "Select a valid choice"),
        ({"tricks_NS": "26"}, 'id="tricks"', "A side takes at most 25 trick points."),
        ({"tricks_NS": "", "tricks_EW": ""}, 'id="tricks"', "Enter the trick points of one side"),
        ({"tricks_NS": "15", "tricks_EW": "11"}, 'id="tricks"', "Tricks add up to 26, expected 25"),
        ({"meld_N_run": "0"}, 'id="melds"', "the bidder must hold a marriage in trump"),
        ({"meld_N_run": "5"}, 'id="melds"', "Run (A 10 K Q J of trump): at most 1 per seat."),
        # A single deck has two kings and two queens of trump: a seat shows at most two such marriages.
        ({"meld_N_trump_marriage": "3"}, 'id="melds"', "Trump marriage (K Q of trump): at most 2 per seat."),
        (
            {"meld_N_marriage": "-1"},
            'id="melds"',
            "Marriage (K Q, other suit): enter a whole number, 0 to 6.",
        ),
        ({"meld_S_pinochle": "x"}, 'id="melds"', "Pinochle (Q♠ J♦): enter a whole number, 0 to 1."),
        ({"meld_S_pinochle": "99999999999999999999"}, 'id="melds"', "at most 1 per seat"),
        ({"meld_W_double_pinochle": "1", "meld_E_double_pinochle": "1"}, 'id="melds"', "the deck has only 2"),
        ({"slam": "NS"}, 'id="tricks"', "Side NS won every trick, so it took all 25 points"),
        ({"number": "abc"}, 'id="hand-form"', "Hand number: Enter a whole number."),
        ({"submission_id": "not-a-uuid"}, 'id="hand-form"', "Enter a valid UUID."),
    ],
)
def test_bad_input_is_explained_next_to_its_field_and_nothing_is_saved(client, change, anchor, words):
    game = check_game()
    response = client.post(save_url(game), hand_post(1, {**WORKED_EXAMPLE, **change}))
    assert response.status_code == 200
    assert not Hand.objects.filter(game=game).exists()
    assert words in errors_near(response.content.decode(), anchor)


def test_a_bad_htmx_post_gets_the_fragment_with_the_message(client):
    game = check_game()
    response = client.post(
        save_url(game), hand_post(1, {**WORKED_EXAMPLE, "bid": "19"}), headers={"HX-Request": "true"}
    )
    assert "<html" not in response.content.decode()
    assert "Bid 19 is below the minimum bid of 20" in text(response)
    assert not Hand.objects.exists()


def test_the_other_sides_tricks_are_worked_out(client):
    game = check_game()
    client.post(save_url(game), hand_post(1, {**WORKED_EXAMPLE, "tricks_NS": "", "tricks_EW": "10"}))
    assert Hand.objects.get().data["tricks"] == {"NS": 15, "EW": 10}


def test_took_every_trick_fills_the_tricks_and_records_the_slam(client):
    game = check_game()
    fields = {**WORKED_EXAMPLE, "tricks_NS": "", "slam": "NS"}
    client.post(save_url(game), hand_post(1, fields))
    data = Hand.objects.get().data
    assert data["tricks"] == {"NS": 25, "EW": 0}
    assert data["tricks_won"] == {"NS": 12, "EW": 0}


def test_bidders_concede_without_tricks(client):
    game = check_game()
    client.post(save_url(game), hand_post(1, {**WORKED_EXAMPLE, "conceded": "on"}))
    data = Hand.objects.get().data
    assert data["conceded"] is True and "tricks" not in data


def test_all_passed_saves_a_passed_hand_whatever_else_was_ticked(client):
    game = check_game()
    client.post(save_url(game), hand_post(1, {**WORKED_EXAMPLE, "passed": "on"}))
    assert Hand.objects.get().data == {"passed": True}


def test_all_passed_is_refused_in_a_standard_game(client):
    game = standard_game()
    response = client.post(save_url(game), hand_post(1, {"passed": "on", "tricks_NS": "10"}))
    assert not Hand.objects.exists()
    assert "Tap the seat that won the bid." in text(response)


def test_quick_mode_saves_plain_meld_points(client):
    game = standard_game()
    fields = {
        "bidder": "E",
        "bid": "21",
        "meld_mode": "points",
        "meld_points_N": "6",
        "meld_points_E": "14",
        "meld_N_run": "1",
        "tricks_EW": "12",
    }
    client.post(save_url(game), hand_post(1, fields))
    data = Hand.objects.get().data
    assert data["meld_points"] == {"NS": 6, "EW": 14}
    assert "melds" not in data and "trump" not in data


def test_a_three_seat_game_fills_in_the_third_player(client):
    game = standard_game(seats=3)
    client.post(save_url(game), hand_post(1, {"bidder": "S", "bid": "20", "tricks_N": "5", "tricks_S": "12"}))
    assert Hand.objects.get().data["tricks"] == {"N": 5, "E": 8, "S": 12}


def test_a_hand_after_the_end_is_refused(client):
    game = standard_game(target=20)
    client.post(save_url(game), hand_post(1, {"bidder": "N", "bid": "20", "tricks_NS": "25"}))
    response = client.post(save_url(game), hand_post(2, {"bidder": "N", "bid": "20", "tricks_NS": "25"}))
    assert Hand.objects.filter(game=game).count() == 1
    assert "The game is over, so this hand was not saved." in text(response)


def test_it_answers_a_forged_code_with_404(client):
    assert client.post("/g/forged/hands", hand_post(1)).status_code == 404


def test_a_get_is_not_allowed(client):
    assert client.get(save_url(check_game())).status_code == 405


def test_it_needs_the_csrf_token():
    game = check_game()
    assert Client(enforce_csrf_checks=True).post(save_url(game), hand_post(1)).status_code == 403
    assert not Hand.objects.exists()


def test_a_two_player_hand_may_have_no_bidding(client):
    game = standard_game(seats=2)
    response = client.post(save_url(game), hand_post(1, {"bidder": "", "tricks_N": "15"}))
    assert response.status_code == 302
    assert Hand.objects.get().data == {"tricks": {"N": 15, "E": 10}}
    page = text(client.get(f"/g/{game.code}/"))
    assert "#1 15 10 dealer North (Anna) Meld Tricks Pts Total N 0 15 +15 15 E 0 10 +10 10" in page


@pytest.mark.parametrize("hands", [0, 5, 40])
def test_a_save_costs_the_same_queries_whatever_the_number_of_hands(django_assert_num_queries, hands):
    game = check_game(target=99999)
    for number in range(1, hands + 1):
        record_hand(game=game, number=number, data={"passed": True})
    phone = client_with_token(game)  # the scoring phone without an account: no session to read
    # the game and the device's right to it (permission check, two plain queries), seats (locked), the
    # settings read again under the lock (they may have changed: scoring/game_settings.py), hands,
    # the new hand, the summary, the new hand's statistics, the game's statistics (one upsert); the
    # savepoint. No ratings query: a hand appended to a game in progress rates nothing.
    with django_assert_num_queries(11):
        response = phone.post(save_url(game), hand_post(hands + 1))
    assert response.status_code == 302
    assert Hand.objects.filter(game=game).count() == hands + 1


def test_an_htmx_save_draws_the_page_without_reading_or_scoring_the_game_again(django_assert_num_queries):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    phone = client_with_token(game)
    # the 11 queries of a save, and the corrections shown in the history: nothing else
    with django_assert_num_queries(12):
        response = phone.post(save_url(game), hand_post(2), headers={"HX-Request": "true"})
    page = text(response)
    assert "Hand 2 saved." in page and "N–S (Anna & Cecilia) 36 4 chips" in page


def test_after_a_save_the_top_says_saved_with_undo_then_the_totals_then_the_next_form(client):
    game = check_game()
    html = client.post(save_url(game), hand_post(1), headers={"HX-Request": "true"}).content.decode()
    saved, totals, form = html.index("Hand 1 saved."), html.index('id="scoreboard"'), html.index("hand-form")
    assert saved < totals < form < html.index('id="history"')
    undo = re.search(r'<form class="undo" method="post" action="([^"]+)"', html)
    assert undo and "Edit hand 1" in html
    response = client.post(undo.group(1), {"number": "1"}, follow=True)
    assert "Hand 1 deleted." in text(response) and not Hand.objects.exists()


def test_an_undo_after_another_hand_was_saved_deletes_nothing(client):
    game = check_game()
    html = client.post(save_url(game), hand_post(1), headers={"HX-Request": "true"}).content.decode()
    undo = found(r'<form class="undo" method="post" action="([^"]+)"', html)
    client.post(save_url(game), hand_post(2))
    response = client.post(undo, {"number": "1"}, follow=True)
    assert "Nothing deleted" in text(response) and Hand.objects.count() == 2


def test_out_of_range_numbers_get_the_apps_messages_naming_the_field_and_the_browser_leaves_them_to_it(
    table_client,
):
    game = standard_game()
    page = table_client.get(f"/g/{game.code}/").content.decode()
    assert re.search(r'<form id="hand-form"[^>]* novalidate', page)
    post = {
        "submission_id": str(uuid.uuid4()),
        "number": "1",
        "bidder": "S",
        "bid": "99999",
        "trump": "hearts",
        "meld_mode": "points",
        "meld_points_N": "10000",
        "tricks_NS": "30",
    }
    html = table_client.post(save_url(game), post).content.decode()
    lines = re.findall(r'<li data-field="([^"]+)">([^<]+)</li>', html)
    assert ("bid", "Bid: A bid is at most 9999.") in lines
    assert ("meld_points_N", "North (Anna): The most a player can meld is 9999.") in lines
    assert ("tricks_NS", "N–S (Anna &amp; Cecilia): A side takes at most 25 trick points.") in lines
