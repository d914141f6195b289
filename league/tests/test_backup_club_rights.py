"""What a restore brings back beyond the games: the
phone that was scoring a game goes on scoring it, an invite link sent before the backup still
works; and (point 6) every name is checked against its column before anything is written, so an
over-long name is refused with a message naming it, on SQLite as on PostgreSQL.
"""

import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from backups.rows import BackupRefused
from clubs import services as club_services
from clubs.models import Club, Invite, Player
from league.backup.whole import dump, load
from scoring.models import Device, DeviceGame, Game

from .test_backup_round_trip import a_club_with_everything, wipe_everything

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
    path = tmp_path / "backup.json"
    call_command("backup", str(path), stderr=io.StringIO())
    wipe_everything()
    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    return out.getvalue()


def test_the_phone_scoring_a_game_keeps_scoring_it_after_backup_and_restore(tmp_path):
    phone, stranger = Client(), Client()
    code = _start_game(phone)
    assert _save_next_hand(phone, code) == 302
    stranger.get("/")

    out = _backup_wipe_restore(tmp_path)

    assert "1 phones with 1 edit rights" in out
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


def _set(data: dict[str, Any], where: str, value: object) -> None:
    """Put value at a path like "clubs.Club.0.name" of the dumped backup."""
    *path, last = where.split(".")
    node: Any = data  # dicts and lists, as the backup holds them
    for step in path:
        node = node[int(step)] if step.isdigit() else node[step]
    node[int(last) if last.isdigit() else last] = value


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("clubs.Club.0.name", "K" * 101, "clubs.Club[1]: 'name' is 101 characters long; at most 100 fit"),
        ("clubs.Player.0.name", "P" * 101, "clubs.Player[1]: 'name' is 101 characters long; at most 100 fit"),
        ("clubs.Season.0.name", "S" * 101, "clubs.Season[1]: 'name' is 101 characters long; at most 100 fit"),
        (
            "accounts.User.0.username",
            "u" * 151,
            "accounts.User[1]: 'username' is 151 characters long; at most 150 fit",
        ),
        (
            "accounts.User.0.email",
            "e" * 250 + "@x.se",
            "accounts.User[1]: 'email' is 255 characters long; at most 254 fit",
        ),
        (
            "accounts.User.0.first_name",
            "F" * 151,
            "accounts.User[1]: 'first_name' is 151 characters long; at most 150 fit",
        ),
        (
            "accounts.Group.0.name",
            "G" * 151,
            "accounts.Group[1]: 'name' is 151 characters long; at most 150 fit",
        ),
        ("clubs.Invite.0.token", "t" * 65, "clubs.Invite[1]: 'token' is 65 characters long; at most 64 fit"),
        (
            "scoring.Device.0.id_hash",
            "d" * 65,
            "scoring.Device[1]: 'id_hash' is 65 characters long; at most 64 fit",
        ),
        (
            "scoring.Game.0.place",
            "B" * 101,
            "scoring.Game[1]: 'place' is 101 characters long; at most 100 fit",
        ),
        (
            "scoring.Game.0.edit_token_hash",
            "h" * 65,
            "scoring.Game[1]: 'edit_token_hash' is 65 characters long; at most 64 fit",
        ),
    ],
)
def test_restore_refuses_a_value_longer_than_its_column_naming_the_field_and_writes_nothing(
    where, value, message, tmp_path
):
    a_club_with_everything()
    data = dump()
    _set(data, where, value)
    wipe_everything()
    with pytest.raises(BackupRefused) as refused:
        load(data)
    assert message in str(refused.value)
    assert not User.objects.exists() and not Club.objects.exists() and not Device.objects.exists()


def test_restore_refuses_a_correction_with_an_over_long_actor_label_through_the_command(tmp_path):
    import json

    a_club_with_everything()
    data = dump()
    data["scoring"]["HandChange"][0]["actor_label"] = "L" * 151
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    wipe_everything()
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), stdout=io.StringIO())
    assert refused.value.returncode == 2
    assert "scoring.HandChange[1]: 'actor_label' is" in str(refused.value) and "nothing restored" in str(
        refused.value
    )
    assert not Game.objects.exists()


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
