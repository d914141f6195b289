"""What a restore brings back beyond the games: the
phone that was scoring a game goes on scoring it, an invite link sent before the backup still
works, and the account a phone's right is held for is held for it again.
"""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs import services as club_services
from clubs.models import Invite, Player
from scoring.models import DeviceGame, Game

from .backup_files import back_up, fresh_database, restore
from .test_backup_round_trip import a_club_with_everything

pytestmark = pytest.mark.django_db

HAND_FORM = {"bidder": "N", "bid": "27", "trump": "hearts", "meld_N_run": "1", "tricks_NS": "15"}


def _start_game(phone: Client) -> str:
    answer = phone.post(
        "/games/new",
        {"seats": "4", "variant": "standard", "deck": "single", "target": "1000", "first_dealer": "N",
         "name_N": "Anna", "name_E": "Bo", "name_S": "Cecilia", "name_W": "David"},
    )  # fmt: skip
    assert answer.status_code == 302
    found = re.fullmatch(r"/g/([\w-]+)/", answer["Location"])
    assert found is not None
    return found.group(1)


def _save_next_hand(phone: Client, code: str) -> int:
    page = phone.get(f"/g/{code}/").content.decode()
    page = page.partition('id="hand-form"')[2]  # the new hand's form (the Undo above has a number too)
    number = re.search(r'name="number" value="(\d+)"', page)
    submission = re.search(r'name="submission_id" value="([0-9a-f-]{36})"', page)
    if number is None or submission is None:
        return 403  # the page offers no hand form: this phone may not score the game
    form = {"number": number.group(1), "submission_id": submission.group(1), **HAND_FORM}
    return phone.post(f"/g/{code}/hands", form).status_code


def _backup_wipe_restore(tmp_path) -> str:
    path = back_up(tmp_path)
    fresh_database()
    return restore(path)


def test_the_phone_scoring_a_game_keeps_scoring_it_after_backup_and_restore(tmp_path):
    phone, stranger = Client(), Client()
    code = _start_game(phone)
    assert _save_next_hand(phone, code) == 302
    stranger.get("/")

    out = _backup_wipe_restore(tmp_path)

    assert out.startswith("Installed ")
    assert _save_next_hand(phone, code) == 302  # the same cookie, the restored device record
    assert Game.objects.get(code=code).hands.count() == 2
    assert _save_next_hand(stranger, code) != 302
    assert Game.objects.get(code=code).hands.count() == 2


def test_an_invite_link_sent_before_the_backup_still_works_after_the_restore(tmp_path):
    a_club_with_everything()
    pending = Invite.objects.get(accepted_at__isnull=True)
    token, player_name = pending.token, pending.player.name

    _backup_wipe_restore(tmp_path)

    invited = User.objects.create_user("newcomer", "n@example.org", "a long enough password 1")
    club_services.accept_invite(token=token, user=invited)
    assert Player.objects.get(user=invited).name == player_name
    accepted = Invite.objects.get(accepted_by__username="rosa")
    assert accepted.player is not None and accepted.player.user is not None
    assert accepted.accepted_at is not None and accepted.player.user.username == "rosa"


def test_the_account_a_phone_right_is_held_for_survives_backup_and_restore(tmp_path):
    """A right held for an account counts only while it scores for the club; the restore keeps
    the account it is held for, so it does not count again for everyone (found by review)."""
    a_club_with_everything()
    olga = User.objects.get(username="olga")
    right = DeviceGame.objects.get(holder=olga)
    game_code, device_hash = right.game.code, right.device.id_hash

    _backup_wipe_restore(tmp_path)

    restored = DeviceGame.objects.get(game__code=game_code, device__id_hash=device_hash)
    assert restored.holder is not None and restored.holder.username == "olga"
