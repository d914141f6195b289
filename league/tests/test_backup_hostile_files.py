"""A backup file written or edited by hand is refused where it would break the site after a
restore, with a message naming the row and the field, and nothing written, on SQLite and on
PostgreSQL alike: an id beyond what a column holds (a query with it would fail with a traceback on
SQLite), an id of 0 or below, a table whose largest id leaves no id for its next new row, a number
PostgreSQL's column would not take, a time without its offset, an import's problems in a shape its
page cannot show. And a whole club, nights and ledger included, comes back with every row of every
app the same, the derived ones (statistics, ratings) computed again to the same values."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission, User
from django.db import connection, models
from django.db.models import Max
from django.test import Client

from backups import parts
from backups.rows import BackupRefused
from clubs.models import Club
from league.backup.whole import database_is_empty, dump, load
from league.models import ImportBatch

from .test_backup_nights_ledger import a_finished_and_an_open_night
from .test_backup_round_trip import _natural, a_club_with_everything

pytestmark = pytest.mark.django_db

NOT_CLUB_DATA = {"admin", "sessions", "contenttypes", "throttles"}
WRITTEN: dict[str, Any] = {}  # the file and the rows before it, made once for the module


def every_model() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.app_label not in NOT_CLUB_DATA and model is not Permission
    ]


def every_row() -> dict[str, list[str]]:
    cache: dict[tuple[str, Any], object] = {}
    return {
        model._meta.label: sorted(repr(_natural(obj, cache)) for obj in model._base_manager.all())
        for model in every_model()
    }


def wipe() -> None:
    for model in reversed(parts.held_models()):
        model._base_manager.all().delete()


def a_file(people: dict[str, Any]) -> dict[str, Any]:
    """A backup of a club with everything, nights and ledger included; the database left empty
    (the personas a test's `people` made are wiped with the rest)."""
    if not WRITTEN:
        a_club_with_everything()
        a_finished_and_an_open_night(people)
        WRITTEN["before"] = every_row()
        WRITTEN["file"] = json.loads(json.dumps(dump()))
    wipe()
    assert database_is_empty()
    return copy.deepcopy(WRITTEN["file"])


def refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(BackupRefused) as error:
        load(data)
    assert message in str(error.value)
    assert database_is_empty() and not User.objects.exists()


def test_every_row_of_every_app_comes_back_the_same_derived_ones_included(people):
    data = a_file(people)
    load(data)
    after = every_row()
    assert after["ratings.PlayerRating"] and after["ledger.Payment"] and after["nights.NightTable"]
    for label, rows in WRITTEN["before"].items():
        assert after[label] == rows, label


def _move_group(data: dict[str, Any], new_id: int) -> None:
    (group,) = data["accounts"]["Group"]
    old, group["id"] = group["id"], new_id
    for table in ("Group_permissions", "User_groups"):
        for row in data["accounts"][table]:
            if row["group"] == old:
                row["group"] = new_id


@pytest.mark.parametrize("new_id", [0, -3])
def test_an_id_below_one_is_refused_on_every_database(new_id, people):
    data = a_file(people)
    _move_group(data, new_id)
    refused(data, f"accounts.Group[1]: 'id' {new_id} is not a number from 1 to 2147483646")


def test_a_largest_id_that_leaves_no_id_for_the_next_row_is_refused(people):
    data = a_file(people)
    _move_group(data, 2**31 - 1)  # auth.Group's id is a 32-bit column on PostgreSQL
    refused(data, "accounts.Group[1]: 'id' 2147483647 is not a number from 1 to 2147483646")


def test_the_next_new_row_after_a_restore_takes_a_free_id_even_near_the_end_of_the_range(people):
    data = a_file(people)
    _move_group(data, 2**31 - 2)
    load(data)
    assert Group.objects.create(name="New helpers").pk == 2**31 - 1


@pytest.mark.parametrize("value", [2**63, 10**25, 0, -1])
def test_a_foreign_key_beyond_what_an_id_can_be_is_refused_naming_the_row(value, people):
    data = a_file(people)
    data["clubs"]["Membership"][0]["player"] = value
    refused(data, f"clubs.Membership[1]: 'player' {str(value)[:20]}")


def test_a_number_postgresql_would_not_store_is_refused_on_sqlite_too(people):
    data = a_file(people)
    data["scoring"]["Game"][0]["target"] = 2**31
    refused(data, "scoring.Game[1]: 'target' 2147483648 is not a number from 0 to 2147483647")


def test_a_time_without_its_offset_is_refused_as_it_would_move_by_the_servers_offset(people):
    data = a_file(people)
    data["scoring"]["Game"][0]["created_at"] = "2026-01-01T10:00:00"
    refused(data, "scoring.Game[1]: 'created_at' '2026-01-01T10:00:00' has no time zone offset")


def test_a_hidden_game_is_refused_as_no_import_would_ever_show_it(people):
    data = a_file(people)
    data["scoring"]["Game"][0]["hidden"] = True
    refused(data, "scoring.Game[1]: 'hidden' is true; a backup holds only games every page shows")


def test_a_file_naming_an_import_of_a_game_is_refused(people):
    data = a_file(people)
    data["scoring"]["Game"][0]["pending_import"] = 1
    refused(data, "scoring.Game[1]: 'pending_import' is not a field of scoring.Game")


@pytest.mark.parametrize(
    "problems",
    [5, {"line": 1, "message": "x"}, [1], [{"line": "2", "message": "x"}], [{"message": "x"}], [None]],
)
def test_an_imports_problems_its_page_cannot_list_are_refused(problems, people):
    data = a_file(people)
    batch = next(row for row in data["league"]["ImportBatch"] if row["problems"])
    batch["problems"] = problems
    refused(data, "'problems' is not a list of {'line', 'message'} objects")


def test_an_imports_problems_come_back_and_its_page_lists_them(people):
    load(a_file(people))
    batch = ImportBatch.objects.get(status="refused")
    client = Client()
    assert batch.user is not None
    client.force_login(batch.user)
    page = client.get(f"/league/import/{batch.pk}/")
    assert page.status_code == 200 and "no bid" in page.content.decode()
    assert Club.objects.exists()


def test_after_a_restore_every_table_gives_its_next_new_row_an_id_past_the_restored_ones(people):
    """On PostgreSQL each table's sequence is set past its restored ids (SQLite does that itself)."""
    data = a_file(people)
    load(data)
    behind = []
    with connection.cursor() as cursor:
        for model in parts.held_models():
            table, column = model._meta.db_table, model._meta.pk.column
            top = model._base_manager.aggregate(top=Max("pk"))["top"]
            if top is None or connection.vendor != "postgresql":
                continue
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, column])
            (sequence,) = cursor.fetchone()
            cursor.execute("SELECT nextval(%s)", [sequence])
            (following,) = cursor.fetchone()
            if following <= top:
                behind.append((model._meta.label, top, following))
    assert not behind
    assert User.objects.create_user("after-the-restore").pk > max(
        row["id"] for row in data["accounts"]["User"]
    )


@pytest.mark.parametrize(("field", "value"), [("game", {"line": 1}), ("player", [])])
def test_a_seat_whose_game_or_player_is_not_an_id_is_refused_naming_the_field(field, value, people):
    data = a_file(people)
    data["scoring"]["GameSeat"][0][field] = value
    refused(data, f"scoring.GameSeat[1]: {field!r} is not a number")
