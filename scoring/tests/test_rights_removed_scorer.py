"""Rights in club games come from the club role; share viewers see
that a hand was corrected, not by whom nor a link to the history; taking a game out of its club is
an organiser's act written to the corrections trail."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.services import set_club_role
from scoring.devices import DEVICE_COOKIE
from scoring.handover import record_creator
from scoring.models import HandChange
from scoring.permissions import can_edit_game
from scoring.services.hands import edit_hand
from tests.access_helpers import (
    CLUB,
    HAND_2,
    edit_token_cookie,
    make_game,
    request_as,
    signed_in,
)

pytestmark = pytest.mark.django_db


def _game_started_by(user, *, club_id=CLUB, hands=1):
    """A club game a scorer started on his phone: (game, that phone's client)."""
    game = make_game(hands=hands, club_id=club_id)
    record_creator(game=game, user=user)
    name, value = edit_token_cookie(game)
    phone = signed_in(user)
    phone.cookies[name] = value
    return game, phone


def test_a_scorer_removed_from_the_club_loses_control_of_the_club_games_he_created(people):
    bob = people["bob"]
    game, phone = _game_started_by(bob)
    assert can_edit_game(request_as(bob), game)
    set_club_role(actor=people["alice"], user=bob, club_id=CLUB, role=None)
    game.refresh_from_db()
    assert not can_edit_game(request_as(bob), game)
    save = phone.post(
        f"/g/{game.code}/hands", {"number": 2, **{k: v for k, v in HAND_2.items() if k != "meld_points"}}
    )
    assert save.status_code == 403
    assert phone.post(f"/g/{game.code}/hand-over/").status_code == 403
    assert phone.post(f"/g/{game.code}/details/", {"place": "Elsewhere"}).status_code == 403
    game.refresh_from_db()
    assert game.hand_count == 1 and game.place == ""
    # the club carries on: an organiser, and a scorer still in the club
    assert can_edit_game(request_as(people["alice"]), game)


def test_demoting_a_scorer_to_member_also_ends_his_phones_right(people):
    game, phone = _game_started_by(people["bob"])
    name = DEVICE_COOKIE
    token_only = request_as(cookies={name: phone.cookies[name].value})
    assert can_edit_game(token_only, game)
    set_club_role(actor=people["alice"], user=people["bob"], club_id=CLUB, role="member")
    game.refresh_from_db()
    token_only = request_as(cookies={name: phone.cookies[name].value})  # a new request: rights are read once
    assert not can_edit_game(token_only, game)
    anonymous_phone = Client()  # the same phone, signed out: only its edit token
    anonymous_phone.cookies[name] = phone.cookies[name].value
    assert anonymous_phone.post(f"/g/{game.code}/hands/last/delete").status_code == 302  # to log in
    game.refresh_from_db()
    assert game.hand_count == 1


def test_the_creator_account_gives_no_right_in_a_club_game_without_a_role(people):
    game = make_game(hands=1, club_id=CLUB)
    game.created_by = people["dave"]  # organises another club only
    game.save(update_fields=["created_by"])
    assert not can_edit_game(request_as(people["dave"]), game)


def test_the_share_page_marks_corrections_without_names_or_a_history_link(people):
    game = make_game(hands=2, club_id=CLUB)
    edit_hand(game=game, number=1, data={**HAND_2, "bid": 30}, actor=None)
    from scoring.audit import Actor

    edit_hand(game=game, number=2, data={**HAND_2, "bid": 26}, actor=Actor.of_user(people["alice"]))
    shared = Client().get(f"/s/{game.share_code}/").content.decode()
    assert "Hand 2 was corrected at" in shared
    assert "/history/" not in shared and f"/g/{game.code}/" not in shared
    assert "alice" not in shared
    organiser = signed_in(people["alice"]).get(f"/g/{game.code}/").content.decode()
    assert f"/g/{game.code}/history/" in organiser and "corrected by alice" in organiser


def _details(client, game, **fields):
    return client.post(
        f"/g/{game.code}/details/", {"club": "", "season": "", "place": "", "note": "", **fields}
    )


def test_a_scorer_cannot_take_an_in_progress_club_game_out_of_its_club(people):
    game = make_game(hands=1, club_id=CLUB)
    response = _details(signed_in(people["bob"]), game)
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.club_id == CLUB
    assert not HandChange.objects.filter(game=game).exists()


def test_an_organiser_takes_a_game_out_of_its_club_and_the_trail_says_so(people):
    game = make_game(hands=1, club_id=CLUB)
    assert _details(signed_in(people["alice"]), game).status_code == 302
    game.refresh_from_db()
    assert game.club_id is None
    change = HandChange.objects.get(game=game)
    assert (change.action, change.club_id, change.actor_label) == ("filing", CLUB, "alice")
    assert change.new_data is not None
    assert change.old_data["club"] == f"Club {CLUB}" and change.new_data["club"] == ""
    corrections = signed_in(people["alice"]).get(f"/games/clubs/{CLUB}/corrections/").content.decode()
    assert "Club changed by alice" in corrections
