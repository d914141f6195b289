"""The game page under access rules: who sees controls, the share page, live polling, the cache,
corrections marks and the edit right of a new game's browser."""

import re

import pytest
from django.test import Client

from scoring.audit import Actor
from scoring.models import Game, HandChange
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from tests.access_helpers import CLUB, client_with_token, make_game
from tests.helpers import WORKED_EXAMPLE, found, hand_post, quick_hand, standard_game, text

pytestmark = pytest.mark.django_db


def test_a_new_quick_game_is_editable_at_once_by_the_browser_that_created_it():
    phone = Client()
    response = phone.post(
        "/games/new", {"seats": "4", "variant": "check", "deck": "single", "first_dealer": "N"}
    )
    game = Game.objects.get()
    assert response.status_code == 302
    page = phone.get(f"/g/{game.code}/").content.decode()
    assert 'id="hand-form"' in page
    assert phone.post(f"/g/{game.code}/hands", hand_post(1)).status_code == 302
    assert Game.objects.get().hand_count == 1
    # Another browser is told another phone scores the game (and offered the take-over), and the
    # games list does not show it the game.
    stranger = Client()
    refused = stranger.get(f"/g/{game.code}/")
    assert refused.status_code == 403
    assert "Another phone keeps the score of this game" in text(refused)
    assert game.code not in stranger.get("/").content.decode()
    assert game.code in phone.get("/").content.decode()


def test_the_share_page_shows_scores_history_and_awards_without_controls():
    game = make_game(hands=2)
    page = Client().get(f"/s/{game.share_code}/").content.decode()
    assert 'data-testid="total-NS"' in page
    assert "#2" in text(Client().get(f"/s/{game.share_code}/"))
    main = page.split("<main")[1].split("</main>")[0]
    for control in ('id="hand-form"', "Edit hand", "Delete hand", "hand-over"):
        assert control not in main, control
    # The one form is the take-over with the recovery code (it needs the code, not the link).
    assert main.count("<form") == 1 and f'action="/s/{game.share_code}/recover"' in main
    assert Client().get("/s/not-a-code/").status_code == 404


def test_the_editor_sees_the_share_link_and_the_handover_button():
    game = make_game()
    response = client_with_token(game).get(f"/g/{game.code}/")
    assert "private" in response["Cache-Control"] and "Cookie" in response["Vary"]  # never in a shared cache
    page = response.content.decode()
    assert f"http://testserver/s/{game.share_code}/" in page
    assert f'action="/g/{game.code}/hand-over/"' in page


def test_the_cached_page_never_shows_one_viewers_controls_or_name_to_another(people):
    game = make_game(hands=1, club_id=CLUB)
    device = client_with_token(game).get(f"/g/{game.code}/").content.decode()  # cached whole: anonymous
    assert 'id="hand-form"' in device and "Log in" in device
    organiser = people.client("alice").get(f"/g/{game.code}/").content.decode()
    member = people.client("charlie").get(f"/g/{game.code}/").content.decode()
    shared = Client().get(f"/s/{game.share_code}/").content.decode()
    assert 'id="hand-form"' in organiser and "alice" in organiser
    assert 'id="hand-form"' not in member and "Edit hand 1" not in member
    assert "alice" not in member and "charlie" in member
    assert "alice" not in shared and "charlie" not in shared and "Edit hand" not in shared
    # No log-out button (the phone's words for its log-out warning are on every page).
    assert "Log in" in shared and 'action="/accounts/logout/"' not in shared
    # and in the other order, from the same cache entries
    assert 'id="hand-form"' in people.client("bob").get(f"/g/{game.code}/").content.decode()


def test_the_live_poll_answers_204_while_nothing_changes_then_the_new_scoreboard():
    game = make_game(hands=1)
    viewer = Client()
    page = viewer.get(f"/s/{game.share_code}/").content.decode()
    poll = found(r'hx-get="([^"]+)" hx-trigger="every 3s"', page).replace("&amp;", "&")
    assert poll.startswith(f"/s/{game.share_code}/live?v=")
    assert viewer.get(poll).status_code == 204
    record_hand(game=game, number=2, data=quick_hand(bidder="E"))
    response = viewer.get(poll, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<section id="scoreboard"') or '<section id="scoreboard"' in html[:200]
    oob = r'id="history" class="history[^"]*" aria-labelledby="history-title" hx-swap-oob="true"'
    assert re.search(oob, html)
    assert "#2" in html and "Edit hand" not in html


def test_the_share_links_poll_answers_304_from_one_query_and_never_a_stale_scoreboard(
    django_assert_num_queries,
):
    """The watchers' poll: while nothing changed, one query (the version's two columns) and 304
    or 204; after a save, the new scoreboard with the ETag of what it shows (a second watcher gets
    the copy the first one drew, from the same one query), then 304 to that again."""
    game = make_game(hands=1)
    watcher = Client()
    page = watcher.get(f"/s/{game.share_code}/").content.decode()
    poll = found(r'hx-get="([^"]+)" hx-trigger="every 3s"', page).replace("&amp;", "&")
    htmx = {"HX-Request": "true"}
    with django_assert_num_queries(1):  # the version it shows: read once, for the ETag and the view
        first = watcher.get(poll, headers=htmx)
    assert first.status_code == 204
    with django_assert_num_queries(1):
        assert watcher.get(poll, headers={**htmx, "If-None-Match": first["ETag"]}).status_code == 304
    record_hand(game=game, number=2, data=quick_hand(bidder="E"))
    changed = watcher.get(poll, headers={**htmx, "If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and "#2" in text(changed)
    assert changed["ETag"] != first["ETag"]
    with django_assert_num_queries(1):  # a second watcher: the scoreboard the first one drew
        second = Client().get(poll, headers={**htmx, "If-None-Match": first["ETag"]})
    assert second.status_code == 200 and second.content == changed.content
    assert second["ETag"] == changed["ETag"]
    assert watcher.get(poll, headers={**htmx, "If-None-Match": changed["ETag"]}).status_code == 304
    record_hand(game=game, number=3, data=quick_hand(bidder="S"))
    again = watcher.get(poll, headers={**htmx, "If-None-Match": changed["ETag"]})
    assert again.status_code == 200 and "#3" in text(again)


def test_the_share_links_poll_of_an_unknown_game_is_404():
    unknown = Client().get("/s/nosuchcode/live?v=1", headers={"If-None-Match": '"1-share-en"'})
    assert unknown.status_code == 404
    assert Client().get("/s/nosuchcode/live").status_code == 404


def _finished_game() -> Game:
    game = standard_game(target=30)
    record_hand(game=game, number=1, data=quick_hand())
    record_hand(game=game, number=2, data=quick_hand(bidder="E"))
    game.refresh_from_db()
    assert game.finished
    return game


def test_the_live_poll_stops_with_286_when_the_game_is_over():
    game = _finished_game()
    response = Client().get(f"/s/{game.share_code}/live?v=old")
    assert response.status_code == 286
    assert 'hx-trigger="every 3s"' not in response.content.decode()
    again = Client().get(f"/s/{game.share_code}/live?v=old")  # the scoreboard already drawn
    assert again.status_code == 286 and again.content == response.content


def test_the_editing_phone_polls_only_the_scoreboard_and_the_entry_gives_way_when_the_game_ends():
    game = standard_game(target=30)
    phone = client_with_token(game)
    record_hand(game=game, number=1, data=quick_hand())
    assert phone.get(f"/g/{game.code}/live?v=old").status_code == 200
    assert 'id="hand-form"' not in phone.get(f"/g/{game.code}/live?v=old").content.decode()
    record_hand(game=game, number=2, data=quick_hand(bidder="E"))
    # In place, not a whole new page: that would drop the answer of the save that ended the game.
    ended = phone.get(f"/g/{game.code}/live?v=old")
    assert ended.status_code == 286 and "HX-Refresh" not in ended
    html = ended.content.decode()
    assert 'id="game-over"' in html and '<section id="entry" hx-swap-oob="true" hidden>' in html
    assert Client().get(f"/g/{game.code}/live").status_code == 403


def test_the_game_page_names_who_corrected_and_deleted_a_hand(people):
    game = make_game(hands=2, club_id=CLUB)
    edit_hand(game=game, number=1, data={**quick_hand(), "bid": 21}, actor=None)
    HandChange.objects.update(actor_label="alice")
    delete_last_hand(game=game, actor=Actor.device())
    page = text(people.client("charlie").get(f"/g/{game.code}/"))
    assert re.search(r"Hand 1 corrected by alice at \w", page)
    assert re.search(r"Hand 2 deleted by the scoring phone at \w", page)


def test_an_edit_through_the_page_is_signed_with_the_user(people):
    game = make_game(hands=1, club_id=CLUB)
    response = people.client("bob").post(f"/g/{game.code}/hands/1/", {"number": "1", **WORKED_EXAMPLE})
    assert response.status_code == 302
    change = HandChange.objects.get()
    assert (change.actor_label, change.club_id, change.action) == ("bob", CLUB, "edit")
    assert "Hand 1 corrected by bob" in text(people.client("charlie").get(f"/g/{game.code}/"))
