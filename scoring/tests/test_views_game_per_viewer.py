"""The game page as each viewer gets it: what one viewer is shown never leaks to another, and the
read of the game with this phone's right to it counts the right as the right alone does."""

import pytest
from django.core import signing
from django.test import Client

from scoring import devices
from scoring.handover import token_hash
from scoring.models import Device, DeviceGame
from scoring.rules import worked_example
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB, client_with_token, make_game, request_as
from tests.helpers import WORKED_EXAMPLE, check_game, found, hand_post, save_url, text

pytestmark = pytest.mark.django_db


def _csrf(html: str) -> str:
    return found(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)


def test_two_phones_each_get_their_own_csrf_token_and_form_id():
    game = check_game()
    scoring, second = client_with_token(game), client_with_token(game)
    for phone in (scoring, second):
        phone.handler.enforce_csrf_checks = True
    first_page = scoring.get(f"/g/{game.code}/").content.decode()
    second_page = second.get(f"/g/{game.code}/").content.decode()
    assert _csrf(first_page) != _csrf(second_page)
    ids = [found(r'name="submission_id" value="([^"]+)"', page) for page in (first_page, second_page)]
    assert ids[0] != ids[1]
    # Each page's token is the one its own browser's cookie accepts: the save goes through.
    post = {
        **hand_post(1, WORKED_EXAMPLE),
        "csrfmiddlewaretoken": _csrf(second_page),
        "submission_id": ids[1],
    }
    assert second.post(save_url(game), post).status_code == 302
    # The other phone's token is refused with this browser's cookie.
    post = {**hand_post(2, WORKED_EXAMPLE), "csrfmiddlewaretoken": _csrf(second_page)}
    assert scoring.post(save_url(game), post).status_code == 403


def test_a_viewer_in_another_language_gets_the_page_in_that_language():
    game = check_game()
    phone = client_with_token(game)
    assert "Enter hand 1" in text(phone.get(f"/g/{game.code}/"))
    phone.cookies["django_language"] = "sv"
    swedish = text(phone.get(f"/g/{game.code}/"))
    assert "För in giv 1" in swedish and "Ingen giv än." in swedish and "Enter hand 1" not in swedish
    phone.cookies["django_language"] = "en"
    assert "Enter hand 1" in text(phone.get(f"/g/{game.code}/"))


def test_the_read_only_viewer_never_gets_the_scoring_phones_parts():
    game = check_game()
    record_hand(game=game, number=1, data=worked_example.hand(1))
    scoring = client_with_token(game)
    assert 'id="hand-form"' in scoring.get(f"/g/{game.code}/").content.decode()
    shared = Client().get(f"/s/{game.share_code}/").content.decode()
    assert 'id="hand-form"' not in shared and "Edit hand 1" not in shared and "recovery-code" not in shared


@pytest.mark.parametrize("role", [None, "organiser", "scorer", "member", "superuser", "quick game"])
@pytest.mark.parametrize("active", [True, False])
def test_the_game_read_with_its_right_applies_the_holder_rule_as_the_right_read_alone_does(
    role, active, people
):
    """The right read with the game (one query) counts exactly when the right read on its own
    counts: a club game's right only while its holder may score for the club; a right with no
    holder, or in a quick game, always."""
    game = make_game(club_id=None if role == "quick game" else CLUB)
    holder = {"organiser": people["alice"], "scorer": people["bob"], "member": people["charlie"]}.get(role)
    if role in ("superuser", "quick game"):
        holder = people.superuser() if role == "superuser" else people["charlie"]
    device = Device.objects.create(id_hash=token_hash("a phone"))
    DeviceGame.objects.create(device=device, game=game, active=active, holder=holder)
    cookies = {
        devices.DEVICE_COOKIE: signing.get_cookie_signer(
            salt=devices.DEVICE_COOKIE + devices.DEVICE_SALT
        ).sign("a phone")
    }
    counts = role not in ("member",)
    alone = request_as(cookies=cookies)  # the right read on its own
    assert devices.holds_game(alone, game) is (active and counts)
    assert devices.right_lapsed(alone, game) is (active and not counts)
    with_game = request_as(cookies=cookies)  # the right read with the game, in one query
    read = devices.game_with_right(with_game, game.code)
    assert read is not None and read.pk == game.pk
    assert devices.holds_game(with_game, game) is (active and counts)
    assert devices.right_lapsed(with_game, game) is (active and not counts)


def test_the_game_read_with_its_right_finds_no_game_for_an_unknown_code_and_no_right_for_another_phone():
    game = make_game()
    cookies = {
        devices.DEVICE_COOKIE: signing.get_cookie_signer(
            salt=devices.DEVICE_COOKIE + devices.DEVICE_SALT
        ).sign("a phone that never scored")
    }
    assert devices.game_with_right(request_as(cookies=cookies), "nosuchgame") is None
    request = request_as(cookies=cookies)
    read = devices.game_with_right(request, game.code)
    assert read is not None and read.pk == game.pk
    assert not devices.holds_game(request, game) and not devices.right_lapsed(request, game)
