"""A dead phone never strands a game (recovery code, take-over, one
bounded device cookie), and setup is idempotent; an empty bid is reported where the player looks."""

import re
import uuid
from typing import Any

import pytest
from django.test import Client

from scoring.devices import DEVICE_COOKIE
from scoring.handover import recovery_code
from scoring.models import Game, Hand, HandChange
from scoring.services.games import create_game
from tests.access_helpers import client_with_token, make_game
from tests.helpers import WORKED_EXAMPLE, check_game, found, hand_post, save_url, text

pytestmark = pytest.mark.django_db

SETUP = {"seats": "4", "variant": "check", "deck": "single", "first_dealer": "N"}


def setup_token(client):
    page = client.get("/games/new").content.decode()
    return found(r'name="setup_token" value="([^"]+)"', page)


# --- setup is idempotent -------------------------------------------------------------------


def test_a_second_start_from_the_same_setup_form_opens_the_game_already_made():
    phone = Client()
    form = {**SETUP, "setup_token": setup_token(phone)}
    first = phone.post("/games/new", form)
    again = phone.post("/games/new", form, follow=True)  # Back, then Start again
    game = Game.objects.get()
    assert first["Location"] == f"/g/{game.code}/"
    assert again.redirect_chain[0][0] == f"/g/{game.code}/"
    assert "This game was already started; here it is." in text(again)
    assert Game.objects.count() == 1


def test_a_fresh_setup_form_starts_a_new_game():
    phone = Client()
    phone.post("/games/new", {**SETUP, "setup_token": setup_token(phone)})
    phone.post("/games/new", {**SETUP, "setup_token": setup_token(phone)})
    assert Game.objects.count() == 2


def test_the_service_refuses_a_second_game_with_the_same_setup_token():
    from django.db import IntegrityError, transaction

    token = uuid.uuid4()
    options: dict[str, Any] = dict(
        seats=4, variant="check", deck="single", target=None, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={},
    )  # fmt: skip
    create_game(**options, setup_token=token)
    with pytest.raises(IntegrityError), transaction.atomic():
        create_game(**options, setup_token=token)
    assert Game.objects.count() == 1


# --- the recovery code and taking over -----------------------------------------------------


def test_the_recovery_code_is_shown_at_setup_and_on_the_scoring_phone():
    phone = Client()
    page = phone.post("/games/new", {**SETUP, "setup_token": setup_token(phone)}, follow=True)
    game = Game.objects.get()
    code = recovery_code(game)
    assert re.fullmatch(r"[ACDEFHJKMNPQRTUVWXY3479]{6}", code)
    assert f"Its recovery code is {code}: note it down." in text(page)
    assert f"Recovery code: {code}" in text(phone.get(f"/g/{game.code}/"))


def test_another_phone_takes_over_with_the_code_and_the_old_one_only_watches():
    game = make_game(hands=1)
    old = client_with_token(game)
    new = Client()
    landing = new.get(f"/g/{game.code}/")
    assert landing.status_code == 403
    assert "Take over scoring" in text(landing)
    typed = {"recovery_code": recovery_code(game).lower()}  # capitals or not
    response = new.post(f"/g/{game.code}/recover", typed, follow=True)
    assert "This phone now keeps the score of this game." in text(response)
    assert new.post(save_url(game), hand_post(2, WORKED_EXAMPLE | {"bid": "25"})).status_code in (200, 302)
    assert old.get(f"/g/{game.code}/")["Location"] == f"/s/{game.share_code}/"  # read-only now
    assert old.post(save_url(game), hand_post(3)).status_code in (302, 403)
    change = HandChange.objects.get(game=game, action=HandChange.Action.TAKE_OVER)
    assert change.hand_number == 0
    assert "Scoring taken over by a phone with the recovery code" in text(new.get(f"/g/{game.code}/history/"))


def test_the_share_page_offers_the_take_over():
    game = make_game()
    watcher = Client()
    assert "Take over scoring" in text(watcher.get(f"/s/{game.share_code}/"))
    watcher.post(f"/s/{game.share_code}/recover", {"recovery_code": recovery_code(game)})
    assert 'id="hand-form"' in watcher.get(f"/g/{game.code}/").content.decode()


def guess(browser: Client, game: Game, code: str = "AAAAAA") -> int:
    return browser.post(f"/s/{game.share_code}/recover", {"recovery_code": code}).status_code


def test_a_wrong_code_is_refused_and_a_browser_gets_a_few_guesses_per_game(settings):
    game = make_game()
    guesser = Client()
    first = guesser.post(f"/g/{game.code}/recover", {"recovery_code": "AAAAAA"})
    assert first.status_code == 400
    assert "Recovery code: that is not this game" in text(first)
    for _attempt in range(settings.RECOVERY_FAILURES_PER_CLIENT - 1):
        assert guess(guesser, game) == 400
    # Now even the right code, from this browser, is refused unchecked until the window passes.
    blocked = guesser.post(f"/g/{game.code}/recover", {"recovery_code": recovery_code(game)})
    assert blocked.status_code == 429
    assert "Too many wrong codes" in text(blocked)
    assert not HandChange.objects.filter(game=game).exists()


def test_a_spectator_who_guesses_wrong_does_not_lock_out_the_phone_that_lost_the_scoring(settings):
    game = make_game()
    spectator = Client(REMOTE_ADDR="10.1.1.1")  # the club's Wi-Fi: one address for every table
    for _attempt in range(settings.RECOVERY_FAILURES_PER_CLIENT):
        assert guess(spectator, game) == 400
    assert guess(spectator, game) == 429
    owner = Client(REMOTE_ADDR="10.1.1.1")
    assert guess(owner, game, recovery_code(game)) == 302
    assert HandChange.objects.filter(game=game, action=HandChange.Action.TAKE_OVER).exists()


def test_fresh_browsers_from_one_address_are_limited_at_that_game_only(settings):
    settings.RECOVERY_FAILURES_PER_ADDRESS = 3
    game, other_game = make_game(), make_game()
    for _browser in range(3):  # cookies cleared between guesses: a new browser each time
        assert guess(Client(REMOTE_ADDR="10.1.1.1"), game) == 400
    assert guess(Client(REMOTE_ADDR="10.1.1.1"), game, recovery_code(game)) == 429
    # The other tables of the evening, and the same game from another address, are not blocked.
    assert guess(Client(REMOTE_ADDR="10.1.1.1"), other_game, recovery_code(other_game)) == 302
    assert guess(Client(REMOTE_ADDR="10.2.2.2"), game, recovery_code(game)) == 302


def test_a_game_refuses_every_guess_once_its_own_limit_is_reached(settings):
    settings.RECOVERY_FAILURES_PER_ADDRESS = 2
    settings.RECOVERY_FAILURES_PER_GAME = 4
    game = make_game()
    for address in ("10.1.1.1", "10.1.1.1", "10.2.2.2", "10.2.2.2"):
        assert guess(Client(REMOTE_ADDR=address), game) == 400
    assert guess(Client(REMOTE_ADDR="10.3.3.3"), game, recovery_code(game)) == 429
    assert not HandChange.objects.filter(game=game).exists()


def test_an_empty_code_is_reported_next_to_the_field():
    game = make_game()
    response = Client().post(f"/g/{game.code}/recover", {"recovery_code": "  "})
    assert response.status_code == 400
    assert "Recovery code: enter the 6 letters shown on the scoring phone." in text(response)
    assert "autofocus" in response.content.decode()


# --- one bounded device cookie -------------------------------------------------------------


def test_a_phone_that_starts_many_games_carries_one_small_cookie():
    phone = Client()
    for _game in range(80):
        phone.post("/games/new", {**SETUP, "setup_token": str(uuid.uuid4())})
    assert Game.objects.count() == 80
    assert [name for name in phone.cookies if name.startswith("edit_")] == []
    assert len(phone.cookies[DEVICE_COOKIE].value) < 120
    listed = phone.get("/")
    assert listed.status_code == 200
    assert all(game.code in listed.content.decode() for game in Game.objects.all()[:5])


# --- an empty bid, reported where the player is looking ------------------------------------


def test_an_empty_bid_is_named_next_to_save_and_the_bid_gets_the_focus(table_client):
    game = check_game()
    post = {**hand_post(1), "bid": ""}
    html = table_client.post(save_url(game), post).content.decode()
    actions = html.index('class="actions"')
    summary = html.rindex('class="errorlist save-errors"', 0, actions)
    assert "Bid: Enter the bid." in text_of(html[summary:actions])
    assert re.search(r'<input[^>]*name="bid"[^>]*autofocus', html)
    assert not Hand.objects.exists()


def test_the_bid_field_shows_the_minimum_as_a_hint_not_as_a_grey_value(table_client):
    game = check_game()
    html = table_client.get(f"/g/{game.code}/").content.decode()
    bid = found(r'<input[^>]*name="bid"[^>]*>', html, 0)
    assert "placeholder" not in bid
    assert "Minimum 20" in text_of(html)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
