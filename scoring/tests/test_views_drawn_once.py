"""The game page keeps each hand's row and the blank entry form drawn once (under a key holding
every value they show), and the share link's new scoreboard once per version: whatever changes,
the next page shows it, on every phone."""

import pytest
from django.test import Client

from scoring import game_settings
from scoring.rules.worked_example import hand as example_hand
from scoring.services.hands import edit_hand, record_hand
from tests.access_helpers import client_with_token
from tests.helpers import PLAYERS, check_game, found, hand_post, save_url, text

pytestmark = pytest.mark.django_db


def played(game, count=2):
    for number in range(1, count + 1):
        record_hand(game=game, number=number, data=example_hand(number))
    game.refresh_from_db()
    return game


def test_a_new_name_shows_in_every_hand_row_and_in_the_next_blank_form():
    game = played(check_game())
    phone = client_with_token(game)
    before = phone.get(f"/g/{game.code}/").content.decode()
    assert "dealer North (Anna)" in before and "(Anna)</span>" in before
    new = game_settings.NewSettings(
        players={**PLAYERS, "N": "Annika"},
        first_dealer="N",
        target=None,
        min_bid=None,
        meld_needs_trick=False,
    )
    game_settings.change_settings(game=game, new=new, expected=game_settings.version(game), actor=None)
    after = phone.get(f"/g/{game.code}/").content.decode()
    assert "dealer North (Annika)" in after and "(Annika)</span>" in after
    assert "(Anna)" not in after


def test_a_corrected_hand_shows_its_new_figures_on_the_share_link_at_the_next_poll():
    game = played(check_game())
    watcher = Client()
    page = watcher.get(f"/s/{game.share_code}/").content.decode()
    live = found(r'id="scoreboard"[^>]*hx-get="([^"]+)"', page).replace("&amp;", "&")
    fresh = live.split("?")[0]  # no version: the whole scoreboard
    assert "(Anna) bid 27" in text(watcher.get(fresh, headers={"HX-Request": "true"}))
    edit_hand(game=game, number=1, data={**example_hand(1), "bid": 25})
    polled = text(watcher.get(live, headers={"HX-Request": "true"}))
    assert "(Anna) bid 25" in polled and "(Anna) bid 27" not in polled
    # A second phone on the link is shown the same new figures.
    assert "(Anna) bid 25" in text(Client().get(live, headers={"HX-Request": "true"}))


def test_two_games_with_the_same_hands_each_link_their_rows_to_their_own_game():
    first, second = played(check_game()), played(check_game())
    for game in (first, second):
        html = client_with_token(game).get(f"/g/{game.code}/").content.decode()
        assert f'href="/g/{game.code}/hands/1/"' in html and f'href="/g/{game.code}/hands/2/"' in html
        other = second if game is first else first
        assert f"/g/{other.code}/" not in html


def test_the_rows_and_the_form_follow_the_reader_s_language():
    game = played(check_game())
    phone = client_with_token(game)
    english = phone.get(f"/g/{game.code}/", headers={"Accept-Language": "en"}).content.decode()
    swedish = phone.get(f"/g/{game.code}/", headers={"Accept-Language": "sv"}).content.decode()
    assert "Edit hand 1" in english and "Ändra giv 1" in swedish
    assert "Ändra giv 1" not in english and "Edit hand 1" not in swedish
    assert ">Bidder<" in english and ">Bidder<" not in swedish


def test_a_blank_form_drawn_before_is_still_a_fresh_form_for_the_next_hand():
    game = check_game()
    phone = client_with_token(game)
    first = phone.get(f"/g/{game.code}/").content.decode()
    response = phone.post(save_url(game), hand_post(1), headers={"HX-Request": "true"})
    second = response.content.decode()
    assert 'name="number" value="2"' in second
    ids = [found(r'name="submission_id" value="([^"]+)"', html) for html in (first, second)]
    assert ids[0] != ids[1]
