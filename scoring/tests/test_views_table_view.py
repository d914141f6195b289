"""The table view: the scoreboard alone in big type, at /g/<code>/table/ and /s/<share_code>/table/.
No scoring on it; it follows the game like the share page (204 while nothing changed, 304 for its
ETag, 286 once the game is over) and reloads itself without JavaScript."""

import pytest
from django.test import Client

from scoring.services.hands import record_hand
from tests.access_helpers import client_with_token
from tests.helpers import check_game, found, quick_hand, standard_game, text

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def test_it_shows_each_sides_total_to_go_chips_and_the_deal_without_any_form():
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    page = Client().get(f"/s/{game.share_code}/table/")
    assert page.status_code == 200
    seen = text(page)
    assert "Hand 2: East (Bo) deals" in seen
    assert "N–S (Anna & Cecilia) 0 100 to go 0 chips" in seen
    html = page.content.decode()
    assert 'id="hand-form"' not in html and "/hands" not in html
    assert '<noscript><meta http-equiv="refresh" content="20"></noscript>' in html
    assert f'href="/s/{game.share_code}/table/"' in html  # the reload link
    assert f'href="/s/{game.share_code}/"' in html  # back to the share page
    # The scoreboard alone: no site header, menu or language buttons.
    assert 'class="site-header"' not in html and "language-switcher" not in html and "<nav" not in html
    assert f'<a class="table-view-back" href="/s/{game.share_code}/">' in html


def test_the_game_page_and_the_share_page_link_to_it():
    game = check_game()
    phone = client_with_token(game)
    assert f'href="/g/{game.code}/table/"' in phone.get(f"/g/{game.code}/").content.decode()
    assert f'href="/s/{game.share_code}/table/"' in Client().get(f"/s/{game.share_code}/").content.decode()


def test_the_poll_answers_204_then_304_until_a_hand_is_saved_then_the_new_board():
    game = check_game()
    reader = Client()
    page = reader.get(f"/s/{game.share_code}/table/").content.decode()
    poll = found(r'hx-get="([^"]+)" hx-trigger="every 5s"', page).replace("&amp;", "&")
    first = reader.get(poll, headers=HTMX)
    assert first.status_code == 204 and first["ETag"]
    assert reader.get(poll, headers={**HTMX, "If-None-Match": first["ETag"]}).status_code == 304
    record_hand(game=game, number=1, data={"passed": True})
    again = reader.get(poll, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert again.status_code == 200 and "Hand 2: East (Bo) deals" in text(again)
    assert again.content.decode().lstrip().startswith('<section id="table-board"')


def test_a_finished_game_stops_the_poll_and_names_the_winner():
    game = standard_game()
    number = 0
    while not game.finished:
        number += 1
        record_hand(game=game, number=number, data=quick_hand(ns_meld=30, ns_tricks=25))
        game.refresh_from_db()
    page = Client().get(f"/s/{game.share_code}/table/")
    assert "Winner: N–S (Anna & Cecilia)" in text(page)
    assert "hx-get" not in page.content.decode() and "refresh" not in page.content.decode()
    assert Client().get(f"/s/{game.share_code}/table/?v=old", headers=HTMX).status_code == 286


def test_the_games_own_table_view_is_for_those_who_may_see_the_game():
    game = check_game()
    assert client_with_token(game).get(f"/g/{game.code}/table/").status_code == 200
    assert Client().get(f"/g/{game.code}/table/").status_code == 403
    assert Client().get("/s/not-a-share-code/table/").status_code == 404
