"""A phone's right to score a club game counts only while the account it was given to scores for
the club: a scorer who took a game over (recovery code or handover link) and is then removed, or
made a member, watches read-only. A right given to a phone nobody was signed in on stays."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import ClubRole
from clubs.services import set_club_role
from scoring.devices import DEVICE_COOKIE
from scoring.handover import recovery_code
from scoring.models import DeviceGame, Game
from scoring.permissions import can_edit_game
from tests.access_helpers import (
    CLUB,
    client_with_token,
    make_game,
    request_as,
    signed_in,
)
from tests.helpers import found, hand_post, text

pytestmark = pytest.mark.django_db

LAPSED = "This phone no longer keeps the score of this game"


def _taken_over_by(phone: Client, game: Game) -> None:
    response = phone.post(f"/g/{game.code}/recover", {"recovery_code": recovery_code(game)})
    assert response.status_code == 302, response.content.decode()


def _device_only(phone: Client) -> Client:
    """The same phone signed out: only its device cookie."""
    anonymous = Client()
    anonymous.cookies[DEVICE_COOKIE] = phone.cookies[DEVICE_COOKIE].value
    return anonymous


def _may_edit(phone: Client, game: Game) -> bool:
    return can_edit_game(request_as(cookies={DEVICE_COOKIE: phone.cookies[DEVICE_COOKIE].value}), game)


def _refuses_every_write(phone: Client, game: Game) -> None:
    before = Game.objects.get(pk=game.pk)
    assert phone.post(f"/g/{game.code}/hands", hand_post(2)).status_code in (302, 403)
    assert phone.post(f"/g/{game.code}/hands/1/", hand_post(1)).status_code in (302, 403)
    assert phone.post(f"/g/{game.code}/hands/last/delete", {"number": "1"}).status_code in (302, 403)
    hand_over = phone.post(f"/g/{game.code}/hand-over/")
    assert hand_over.status_code in (302, 403) and "take-over" not in hand_over.content.decode()
    after = Game.objects.get(pk=game.pk)
    assert (after.hand_count, after.scores, after.handover_token_hash) == (
        before.hand_count,
        before.scores,
        before.handover_token_hash,
    )


def test_a_scorer_removed_from_the_club_loses_the_game_he_took_over_with_the_recovery_code(people):
    game = make_game(hands=1, club_id=CLUB)  # started by the club's table phone
    client_with_token(game)
    bob = signed_in(people["bob"])
    _taken_over_by(bob, game)
    assert _may_edit(bob, game)

    set_club_role(actor=people["alice"], user=people["bob"], club_id=CLUB, role=None)

    assert not _may_edit(bob, game)  # the service's check and the pages agree
    page = bob.get(f"/g/{game.code}/", follow=True)
    assert page.redirect_chain[-1][0] == f"/s/{game.share_code}/"
    assert LAPSED in text(page)
    assert "Save" not in text(page)
    _refuses_every_write(bob, game)
    _refuses_every_write(_device_only(bob), game)  # signing out does not bring it back


def test_a_scorer_made_a_member_sees_the_game_read_only_with_the_reason(people):
    game = make_game(hands=1, club_id=CLUB)
    bob = signed_in(people["bob"])
    _taken_over_by(bob, game)
    set_club_role(actor=people["alice"], user=people["bob"], club_id=CLUB, role=ClubRole.Role.MEMBER)

    page = bob.get(f"/g/{game.code}/")
    assert page.status_code == 200
    assert LAPSED in text(page)
    assert f'action="/g/{game.code}/hands"' not in page.content.decode()
    _refuses_every_write(bob, game)


def test_a_right_claimed_through_a_handover_link_ends_with_the_role_and_returns_with_it(people):
    game = make_game(hands=1, club_id=CLUB)
    table = client_with_token(game)
    handed = table.post(f"/g/{game.code}/hand-over/").content.decode()
    link = found(r"(/g/[^\"]+/take-over/[^\"]+/)", handed)
    bob = signed_in(people["bob"])
    assert bob.post(link).status_code == 302
    assert DeviceGame.objects.get(game=game, active=True).holder == people["bob"]

    set_club_role(actor=people["alice"], user=people["bob"], club_id=CLUB, role=None)
    _refuses_every_write(_device_only(bob), game)
    assert not _may_edit(bob, game) and not _may_edit(table, game)  # the table handed it over

    set_club_role(actor=people["alice"], user=people["bob"], club_id=CLUB, role=ClubRole.Role.SCORER)
    assert _may_edit(bob, game)


def test_a_removed_scorer_signed_in_cannot_take_the_game_over_again(people):
    game = make_game(hands=1, club_id=CLUB)
    bob = signed_in(people["bob"])
    _taken_over_by(bob, game)
    set_club_role(actor=people["alice"], user=people["bob"], club_id=CLUB, role=None)

    again = bob.post(f"/g/{game.code}/recover", {"recovery_code": recovery_code(game)})
    assert again.status_code == 403
    assert "who does not score for this game" in text(again)
    assert not _may_edit(bob, game)


def test_a_phone_nobody_was_signed_in_on_keeps_its_right_when_a_scorer_leaves(people):
    game = make_game(hands=1, club_id=CLUB)
    table = Client()
    _taken_over_by(table, game)  # the table's own phone, with the recovery code
    set_club_role(actor=people["alice"], user=people["bob"], club_id=CLUB, role=None)
    assert _may_edit(table, game)
    assert table.get(f"/g/{game.code}/").status_code == 200


def test_a_right_in_a_quick_game_does_not_depend_on_the_account(people):
    game = make_game(hands=1)
    charlie = signed_in(people["charlie"])  # a member: no scoring role anywhere
    _taken_over_by(charlie, game)
    assert _may_edit(charlie, game)
    assert _may_edit(_device_only(charlie), game)


def test_the_games_list_no_longer_offers_the_game_to_the_removed_scorers_phone(people):
    game = make_game(hands=1, club_id=CLUB)
    bob = signed_in(people["bob"])
    _taken_over_by(bob, game)
    phone = _device_only(bob)
    assert f"/g/{game.code}/" in phone.get("/").content.decode()
    set_club_role(actor=people["alice"], user=people["bob"], club_id=CLUB, role=None)
    assert f"/g/{game.code}/" not in phone.get("/").content.decode()


def test_a_signed_in_member_opening_a_handover_link_is_told_why_it_cannot_take_over(people):
    game = make_game(hands=1, club_id=CLUB)
    table = client_with_token(game)
    handed = table.post(f"/g/{game.code}/hand-over/").content.decode()
    link = found(r"(/g/[^\"]+/take-over/[^\"]+/)", handed)
    charlie = signed_in(people["charlie"])  # a member of the club
    opened = charlie.get(link)
    assert opened.status_code == 403
    assert "who does not score for this game" in text(opened)
    assert ">Take over</button>" not in opened.content.decode()
    assert charlie.post(link).status_code == 403
    assert _may_edit(table, game)  # the link is not spent: signed out, the phone may still use it
    assert Client().post(link).status_code == 302
