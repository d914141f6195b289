"""The permission library over every persona: alice organises club 7, bob scores for it, charlie
is a member, dave organises another club; plus an anonymous visitor, the browser holding the
game's edit token ("device") and an anonymous visitor with the share link ("share")."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ImproperlyConfigured, PermissionDenied, ValidationError
from django.http import HttpResponse
from django.test import Client

from clubs.models import Club, ClubRole
from clubs.permissions import (
    can_manage_club,
    can_score_for_club,
    can_view_club,
    role_in_club,
)
from clubs.services import grant_founding_organiser, set_club_role
from scoring.devices import DEVICE_COOKIE
from scoring.models import Device, Game
from scoring.permissions import can_edit_game, can_view_game, game_of, grant_edit_token
from tests.access_helpers import (
    CLUB,
    OTHER_CLUB,
    client_with_token,
    edit_token_cookie,
    in_club,
    make_game,
    request_as,
)

pytestmark = pytest.mark.django_db
PERSONAS = ["alice", "bob", "charlie", "dave", "anonymous", "device", "share"]


def _ask(people, game, persona):
    """(request, share_code) for the persona, against this game."""
    if persona == "device":
        name, value = edit_token_cookie(game)
        return request_as(cookies={name: value}), None
    if persona == "share":
        return request_as(), game.share_code
    return request_as(people.get(persona)), None


def _matrix(people, game, check):
    allowed = set()
    for persona in PERSONAS:
        request, share_code = _ask(people, game, persona)
        if check is can_view_game:
            ok = can_view_game(request, game, share_code=share_code)
        else:
            ok = check(request, game)
        if ok:
            allowed.add(persona)
    return allowed


@pytest.mark.parametrize(
    ("club", "finished", "editors", "viewers"),
    [
        (None, False, {"device"}, {"device", "share"}),
        (None, True, {"device"}, {"device", "share"}),
        (CLUB, False, {"alice", "bob", "device"}, {"alice", "bob", "charlie", "device", "share"}),
        (CLUB, True, {"alice"}, {"alice", "bob", "charlie", "device", "share"}),
    ],
    ids=["quick game", "finished quick game", "club game", "finished club game"],
)
def test_it_allows_exactly_the_right_personas(people, club, finished, editors, viewers):
    game = in_club(make_game(hands=1), club)
    game.finished = finished
    assert _matrix(people, game, can_edit_game) == editors
    assert _matrix(people, game, can_view_game) == viewers


def test_it_lets_the_signed_in_creator_edit_from_any_device(people):
    game = make_game()
    grant_edit_token(request_as(people["dave"]), game, user=people["dave"])
    assert can_edit_game(request_as(people["dave"]), game)
    assert not can_edit_game(request_as(people["charlie"]), game)


def test_it_lets_a_superuser_edit_any_game(people):
    root = people.superuser()
    game = in_club(make_game(), CLUB)
    game.finished = True
    assert can_edit_game(request_as(root), game)
    assert role_in_club(root, CLUB) == "organiser"


def test_it_refuses_a_device_of_another_game_or_a_forged_cookie():
    game, other = make_game(), make_game()
    _other_name, value = edit_token_cookie(other)
    assert not can_edit_game(request_as(cookies={DEVICE_COOKIE: value}), game)
    _name, real = edit_token_cookie(game)
    assert can_edit_game(request_as(cookies={DEVICE_COOKIE: real}), game)
    assert not can_edit_game(request_as(cookies={DEVICE_COOKIE: real[:-2] + "xx"}), game)
    unsigned = real.split(":", 1)[0]
    assert not can_edit_game(request_as(cookies={DEVICE_COOKIE: unsigned}), game)


def test_it_stores_only_a_hash_of_the_device_id_in_a_signed_httponly_cookie(settings):
    game = make_game()
    edit_token_cookie(game)
    request = request_as()
    grant_edit_token(request, game)
    response = HttpResponse()
    from scoring.devices import remember_device

    remember_device(request, response)
    cookie = response.cookies[DEVICE_COOKIE]
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    assert cookie["max-age"] == settings.EDIT_TOKEN_MAX_AGE_DAYS * 86400
    device_id = cookie.value.split(":", 1)[0]
    assert not Device.objects.filter(id_hash=device_id).exists()
    assert all(
        len(device.id_hash) == 64 and device_id not in device.id_hash for device in Device.objects.all()
    )


def test_it_refuses_a_wrong_share_code():
    game, other = make_game(), make_game()
    assert not can_view_game(request_as(), game, share_code=other.share_code)
    assert not can_view_game(request_as(), game, share_code="ünïcode")
    assert can_view_game(request_as(), game, share_code=game.share_code)


@pytest.mark.parametrize(
    ("check", "allowed"),
    [
        (can_view_club, {"alice", "bob", "charlie"}),
        (can_score_for_club, {"alice", "bob"}),
        (can_manage_club, {"alice"}),
    ],
)
def test_it_gives_each_club_role_its_rights(people, check, allowed):
    users = {**people, "anonymous": AnonymousUser()}
    assert {name for name, user in users.items() if check(user, CLUB)} == allowed


def test_it_tells_each_persona_role(people):
    roles = {name: role_in_club(user, CLUB) for name, user in people.items()}
    assert roles == {"alice": "organiser", "bob": "scorer", "charlie": "member", "dave": None}
    assert role_in_club(AnonymousUser(), CLUB) is None
    assert role_in_club(people["dave"], OTHER_CLUB) == "organiser"


def test_it_lets_an_organiser_change_roles(people):
    set_club_role(actor=people["alice"], user=people["charlie"], club_id=CLUB, role="scorer")
    assert role_in_club(people["charlie"], CLUB) == "scorer"
    set_club_role(actor=people["alice"], user=people["dave"], club_id=CLUB, role="member")
    assert role_in_club(people["dave"], CLUB) == "member"
    set_club_role(actor=people["alice"], user=people["dave"], club_id=CLUB, role=None)
    assert role_in_club(people["dave"], CLUB) is None


@pytest.mark.parametrize("actor", ["bob", "charlie", "dave", "anonymous"])
def test_it_refuses_a_role_change_by_anyone_but_an_organiser_of_that_club(people, actor):
    who = people.get(actor, AnonymousUser())
    with pytest.raises(PermissionDenied):
        set_club_role(actor=who, user=people["charlie"], club_id=CLUB, role="organiser")
    assert role_in_club(people["charlie"], CLUB) == "member"


def test_it_keeps_at_least_one_organiser(people):
    with pytest.raises(ValidationError):
        set_club_role(actor=people["alice"], user=people["alice"], club_id=CLUB, role="member")
    assert role_in_club(people["alice"], CLUB) == "organiser"
    set_club_role(actor=people["alice"], user=people["bob"], club_id=CLUB, role="organiser")
    set_club_role(actor=people["alice"], user=people["alice"], club_id=CLUB, role="member")
    assert role_in_club(people["alice"], CLUB) == "member"


def test_it_refuses_an_unknown_role(people):
    with pytest.raises(ValidationError):
        set_club_role(actor=people["alice"], user=people["charlie"], club_id=CLUB, role="king")


def test_it_makes_the_founder_of_a_new_club_its_organiser_once(people):
    Club.objects.create(pk=99, name="Club 99")
    grant_founding_organiser(user=people["charlie"], club_id=99)
    assert can_manage_club(people["charlie"], 99)
    with pytest.raises(PermissionDenied):
        grant_founding_organiser(user=people["bob"], club_id=99)
    assert ClubRole.objects.filter(club_id=99).count() == 1


# --- the game decorators, through the real pages: deleting the last hand, reading the game ------


def _client(people, game, persona):
    client = client_with_token(game) if persona == "device" else Client()
    if persona in people:
        client.force_login(people[persona])
    return client  # "share": a share link opens its own page, never the game's write URLs


@pytest.mark.parametrize(
    ("club", "allowed"), [(None, {"device"}), (CLUB, {"alice", "bob", "device"})], ids=["quick", "club"]
)
def test_it_lets_only_allowed_personas_through_a_guarded_write(people, club, allowed):
    succeeded = set()
    for persona in PERSONAS:
        game = make_game(hands=2, club_id=club)
        url = f"/g/{game.code}/hands/last/delete"
        response = _client(people, game, persona).post(url, {"number": "2"})
        hands_left = Game.objects.get(pk=game.pk).hand_count
        if hands_left == 1:
            assert response.status_code == 302 and response["Location"] == f"/g/{game.code}/", persona
            succeeded.add(persona)
        else:
            assert hands_left == 2, persona  # nothing changed
            expected = 302 if persona in ("anonymous", "share") else 403
            assert response.status_code == expected, persona
            if expected == 302:
                assert response["Location"] == f"/accounts/login/?next={url}"
    assert succeeded == allowed


def test_it_sends_an_htmx_request_to_the_login_page_as_a_whole_page():
    game = make_game(hands=1)
    response = Client().post(
        f"/g/{game.code}/hands/last/delete",
        {"number": "1"},
        headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver/g/{game.code}/"},
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/accounts/login/?next=/g/{game.code}/"
    assert Game.objects.get(pk=game.pk).hand_count == 1


def test_it_shows_a_friendly_403_page(people):
    game = make_game(hands=1)
    client = people.client("charlie")
    response = client.post(f"/g/{game.code}/hands/last/delete", {"number": "1"})
    assert response.status_code == 403
    assert "Nothing was changed" in response.content.decode()


def test_it_answers_404_for_an_unknown_game(people):
    assert (
        client_with_token(make_game()).post("/g/nope/hands/last/delete", {"number": "1"}).status_code == 404
    )


def test_it_guards_reads_too(people):
    game = make_game()
    assert client_with_token(game).get(f"/g/{game.code}/").status_code == 200
    assert Client().get(f"/g/{game.code}/").status_code == 403  # the take-over page
    client = people.client("charlie")
    assert client.get(f"/g/{game.code}/").status_code == 403


def test_game_of_refuses_a_view_without_a_game_guard_rather_than_reading_the_game_unchecked():
    game = make_game()
    with pytest.raises(ImproperlyConfigured):
        game_of(request_as(), game.code)
    with pytest.raises(ImproperlyConfigured):
        game_of(request_as())
