"""Backup then restore brings the whole club back, row for row.

Every table of the club's data is compared before the backup and after the restore, each row with
every field but its auto id (a foreign key is compared as the row it points at): published-results
links, staff accounts' admin permissions and groups, hands' submission ids and times, the
correction history, hand-over secrets, rosters, roles, statistics. Left out, on purpose: sign-in
sessions (everyone signs in again after a move), the admin's own action log, and the tables
`migrate` fills (content types, permissions).
"""

import io
import json
import uuid
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission, User
from django.core.management import CommandError, call_command
from django.db import models

from backups.rows import BackupRefused
from clubs import services as club_services
from clubs.models import Club, Invite, Player, Season
from league.backup.whole import VERSION, dump, load
from league.models import ImportBatch
from scoring import handover
from scoring.audit import Actor
from scoring.models import Device, DeviceGame, Game, HandChange
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from tests.helpers import quick_hand, standard_game

from .test_backup import club_night

pytestmark = pytest.mark.django_db

NOT_IN_A_BACKUP = {"admin.logentry", "sessions.session", "contenttypes.contenttype", "auth.permission"}


def _club_models() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.label_lower not in NOT_IN_A_BACKUP
        and model._meta.app_label in {"auth", "accounts", "clubs", "scoring", "league"}
    ]


def _natural(obj: models.Model | None, cache: dict[tuple[str, Any], object]) -> object:
    """A row as what it holds, not its id: every field, foreign keys followed to what they hold."""
    if obj is None:
        return None
    key = (obj._meta.label_lower, obj.pk)
    if key not in cache:
        if isinstance(obj, Permission):
            cache[key] = (obj.content_type.app_label, obj.codename)
        else:
            cache[key] = tuple(
                (field.name, _value(obj, field, cache))
                for field in obj._meta.concrete_fields
                if field.is_relation or not field.primary_key  # a key that is a relation: what it holds
            )
    return cache[key]


def _value(obj: models.Model, field: models.Field[Any, Any], cache: dict[tuple[str, Any], object]) -> object:
    if field.is_relation:
        return _natural(getattr(obj, field.name), cache)
    value = getattr(obj, field.attname)
    if isinstance(obj, HandChange) and field.name == "club_id" and value is not None:
        return Club.objects.get(pk=value).name  # the club by what it is, not by its id
    return repr(value)


def every_row() -> dict[str, list[str]]:
    cache: dict[tuple[str, Any], object] = {}
    return {
        model._meta.label: sorted(repr(_natural(obj, cache)) for obj in model._default_manager.all())
        for model in _club_models()
    }


def wipe_everything() -> None:
    Game.objects.all().delete()  # hands, seats, statistics and the trail go with their games
    for model in reversed(_club_models()):
        model._default_manager.all().delete()


def a_club_with_everything() -> None:
    season = club_night()
    club = season["club"]
    Season.objects.filter(pk=season["season"].pk).update(publish_code="published-vaar-2026")
    olga = User.objects.get(username="olga")
    # A staff organiser in an admin group, with one more permission of her own.
    helpers = Group.objects.create(name="Club helpers")
    helpers.permissions.add(
        Permission.objects.get(content_type__app_label="clubs", codename="change_club"),
        Permission.objects.get(content_type__app_label="clubs", codename="view_player"),
    )
    olga.is_staff = True
    olga.save()
    olga.groups.add(helpers)
    olga.user_permissions.add(Permission.objects.get(content_type__app_label="clubs", codename="add_season"))
    # Hands saved from the phone carry submission ids; a hand corrected and one deleted leave a trail.
    game = season["games"][1]
    hand = game.hands.get(number=2)
    changed = {**hand.data, "tricks": {"NS": 19, "EW": 6}}
    edit_hand(game=game, number=2, data=changed, actor=Actor.of_user(olga))
    delete_last_hand(game=game, actor=Actor.of_user(olga))
    phone = standard_game()
    record_hand(game=phone, number=1, data=quick_hand(), submission_id=uuid.uuid4())
    edit_hand(game=phone, number=1, data=quick_hand(ns_tricks=16), actor=Actor.device())
    handover.start_handover(game=phone)
    # Invites (one pending, one accepted) and phones' edit rights (one handed over).
    roster = list(Player.objects.filter(memberships__club=club).order_by("pk"))
    club_services.create_invite(club=club, player=roster[0], by=olga)
    accepted = club_services.create_invite(club=club, player=roster[1], by=olga)
    club_services.accept_invite(token=accepted.token, user=User.objects.create_user("rosa", "r@example.org"))
    table, old_phone = Device.objects.create(id_hash="a" * 64), Device.objects.create(id_hash="b" * 64)
    Device.objects.create(id_hash="c" * 64)  # a phone that scores nothing now
    DeviceGame.objects.create(device=table, game=phone, active=True)
    DeviceGame.objects.create(device=old_phone, game=phone, active=False)
    DeviceGame.objects.create(device=table, game=game, active=True, holder=olga)  # held for her account
    # Imports that ended: one that wrote its games, one refused with its problems.
    ImportBatch.objects.create(user=olga, file_name="autumn.csv", status="done", total=6, written=6, hands=9)
    ImportBatch.objects.create(
        user=olga, file_name="junk.json", status="refused", problems=[{"line": 2, "message": "no bid"}]
    )
    assert club.pk and HandChange.objects.count() == 3


def test_backup_then_restore_brings_back_every_row_of_every_model(tmp_path):
    a_club_with_everything()
    before = every_row()
    assert before["scoring.HandChange"] and before["auth.User_groups"] and before["auth.Group_permissions"]
    assert len(before["clubs.Invite"]) == 2 and len(before["scoring.DeviceGame"]) == 3
    assert len(before["league.ImportBatch"]) == 2
    path = tmp_path / "backup.json"
    call_command("backup", str(path), stderr=io.StringIO())
    wipe_everything()
    assert not any(every_row().values())

    call_command("restore", str(path), stdout=io.StringIO())
    after = every_row()
    for model in before:
        assert after[model] == before[model], model


def test_a_published_results_link_works_after_a_restore(client, tmp_path):
    a_club_with_everything()
    assert client.get("/league/results/published-vaar-2026/").status_code == 200
    path = tmp_path / "backup.json"
    call_command("backup", str(path), stderr=io.StringIO())
    wipe_everything()
    call_command("restore", str(path), stdout=io.StringIO())
    page = client.get("/league/results/published-vaar-2026/")
    assert page.status_code == 200 and "Åsa" in page.content.decode()
    olga = User.objects.get(username="olga")
    assert olga.has_perm("clubs.change_club") and olga.has_perm("clubs.add_season")


@pytest.mark.parametrize("version", [1, 2, 3, 4, VERSION + 1, "5", None, True])
def test_a_backup_of_another_version_is_refused_naming_its_version_and_writes_nothing(version, tmp_path):
    a_club_with_everything()
    data = dump()
    assert data["version"] == VERSION == 5
    data["version"] = version
    path = tmp_path / "other.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    wipe_everything()
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), stdout=io.StringIO())
    assert refused.value.returncode == 2
    assert f"backup version {version!r}: this app restores version 5 files only" in str(refused.value)
    assert "nothing restored" in str(refused.value)
    assert not User.objects.exists() and not Club.objects.exists() and not Game.objects.exists()
    assert not Invite.objects.exists() and not Device.objects.exists() and not HandChange.objects.exists()


def test_a_backup_with_a_part_this_app_does_not_have_is_refused():
    a_club_with_everything()
    data = dump()
    data["games"] = []  # the key of a version 4 file
    wipe_everything()
    with pytest.raises(BackupRefused, match="'games' is not a part of this app's backups"):
        load(data)
    assert not User.objects.exists()


@pytest.mark.parametrize("part", ["accounts", "clubs", "scoring", "league"])
def test_a_backup_without_the_part_of_an_app_is_refused_and_writes_nothing(part):
    a_club_with_everything()
    data = dump()
    del data[part]
    wipe_everything()
    with pytest.raises(BackupRefused, match=f"'{part}' is missing"):
        load(data)
    assert not User.objects.exists() and not Club.objects.exists() and not Game.objects.exists()


def test_restore_refuses_a_permission_this_app_does_not_have_and_writes_nothing():
    a_club_with_everything()
    data = dump()
    data["accounts"]["User_user_permissions"][-1]["permission"] = "clubs.launch_rockets"
    wipe_everything()
    with pytest.raises(BackupRefused, match=r"permission .clubs\.launch_rockets. does not exist"):
        load(data)
    assert not User.objects.exists() and not Group.objects.exists()


def test_restore_refuses_a_correction_filed_under_a_club_that_is_not_in_the_backup():
    a_club_with_everything()
    data = dump()
    change = next(row for row in data["scoring"]["HandChange"] if row["club_id"] is not None)
    change["club_id"] = 999
    wipe_everything()
    with pytest.raises(BackupRefused, match="'club_id' 999 is not among the clubs of the backup"):
        load(data)
    assert not Club.objects.exists() and not Game.objects.exists()


def test_restore_refuses_a_publish_code_that_is_not_a_path_segment():
    a_club_with_everything()
    data = dump()
    season = next(row for row in data["clubs"]["Season"] if row.get("publish_code"))
    season["publish_code"] = "a/b"
    wipe_everything()
    with pytest.raises(BackupRefused, match="publish code"):
        load(data)
    assert not Season.objects.exists() and not User.objects.exists()


def test_restore_refuses_a_club_role_given_twice_with_a_message_and_writes_nothing():
    a_club_with_everything()
    data = dump()
    roles = data["clubs"]["ClubRole"]
    roles.append({**roles[0], "id": max(role["id"] for role in roles) + 1})
    wipe_everything()
    with pytest.raises(
        BackupRefused,
        match=rf"clubs\.ClubRole\[{len(roles)}\]: 'user', 'club' repeat those of clubs\.ClubRole\[1\]",
    ):
        load(data)
    assert not Club.objects.exists() and not Game.objects.exists()
