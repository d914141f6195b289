"""A backup file that is broken, cut short or edited by hand is refused by `restore` with one line
naming the problem (the model, the row and the field where Django or the database says), exit
status 2, no traceback, and nothing written: the database stays as empty as `migrate` left it. On
SQLite and on PostgreSQL alike: SQLite would store a text too long for its column, so the restore
checks every value against its field."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from .backup_files import (
    back_up,
    database_is_empty,
    fresh_database,
    restore,
    restore_refused,
    rows,
    the_row,
    write,
)
from .test_backup import club_night

pytestmark = pytest.mark.django_db

WRITTEN: dict[str, Any] = {}  # the rows of a club's backup, made once for the module


@pytest.fixture
def data(tmp_path) -> list[dict[str, Any]]:
    """The rows of a backup of a club night; the database left fresh and empty."""
    if not WRITTEN:
        club_night()
        WRITTEN["rows"] = rows(back_up(tmp_path))
    fresh_database()
    assert database_is_empty()
    return copy.deepcopy(WRITTEN["rows"])


def test_the_untouched_file_restores(data, tmp_path):
    assert restore(write(tmp_path, data)).startswith("Installed ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("this is no backup", "(line 1): nothing restored"),
        ('[{"model": "clubs.club", "pk": 1, "fields": {"name": "K"}', "(line 1): nothing restored"),
        ('{"format": "pinochle-scorekeeper-backup"}', "not a backup: the JSON is not a list of rows"),
        (
            '[{"model": "clubs.club", "fields": {"name": "K"}}]',
            "row 1 is not an object with its model and its id",
        ),
        ('[{"model": "clubs.club", "pk": 1, "pk": 2, "fields": {}}]', 'the key "pk" appears twice'),
        ('[{"model": "clubs.club", "pk": 1, "fields": {"name": "K\\u0000"}}]', "NUL"),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused(text, message, data, tmp_path):
    assert message in restore_refused(write(tmp_path, text))


def test_a_file_that_is_not_utf8_is_refused(data, tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('[{"model": "clubs.club", "pk": 1, "fields": {"name": "Klubbén"}}]'.encode("latin-1"))
    assert "'utf-8' codec can't decode" in restore_refused(path)


def test_a_row_with_a_wrong_type_is_refused_naming_the_model_row_and_value(data, tmp_path):
    club = the_row(data, "clubs.club")
    game = the_row(data, "scoring.game")
    game["fields"]["target"] = "many"
    message = restore_refused(write(tmp_path, data))
    assert (
        f"scoring.game:pk={game['pk']}" in message and "'many'" in message and "must be an integer" in message
    )
    assert club  # the club before the bad game was not kept either (checked by restore_refused)


def test_a_model_this_app_does_not_have_is_refused(data, tmp_path):
    data.append({"model": "clubs.trophy", "pk": 1, "fields": {}})
    assert "'clubs.trophy' is not a model a backup holds" in restore_refused(write(tmp_path, data))


def test_a_field_this_app_does_not_have_is_refused(data, tmp_path):
    the_row(data, "clubs.club")["fields"]["mascot"] = "owl"
    assert "has no field named 'mascot'" in restore_refused(write(tmp_path, data))


def test_a_foreign_key_pointing_nowhere_is_refused_naming_the_row(data, tmp_path):
    game = the_row(data, "scoring.game")
    game["fields"]["club"] = 999
    message = restore_refused(write(tmp_path, data))
    assert "999" in message and "scoring_game" in message.lower().replace(".", "_")


def test_an_account_the_file_does_not_hold_is_refused(data, tmp_path):
    role = the_row(data, "clubs.clubrole")
    role["fields"]["user"] = ["nobody"]
    assert f"Could not load clubs.ClubRole(pk={role['pk']})" in restore_refused(write(tmp_path, data))


def test_a_permission_this_app_does_not_have_is_refused(data, tmp_path):
    data.insert(
        0,
        {
            "model": "auth.group",
            "pk": 1,
            "fields": {"name": "Helpers", "permissions": [["fly", "clubs", "club"]]},
        },
    )
    assert "Permission matching query does not exist" in restore_refused(write(tmp_path, data))


@pytest.mark.parametrize(
    ("model", "field", "value", "message"),
    [
        (
            "clubs.club",
            "name",
            "K" * 101,
            "field 'name': Ensure this value has at most 100 characters (it has 101).",
        ),
        ("clubs.player", "name", "P" * 101, "field 'name': Ensure this value has at most 100 characters"),
        (
            "auth.user",
            "first_name",
            "F" * 151,
            "field 'first_name': Ensure this value has at most 150 characters",
        ),
        ("scoring.game", "place", "B" * 101, "field 'place': Ensure this value has at most 100 characters"),
        ("scoring.game", "variant", "skat", "field 'variant': Value 'skat' is not a valid choice."),
    ],
)
def test_a_value_its_field_does_not_take_is_refused_naming_the_model_row_and_field(
    model, field, value, message, data, tmp_path
):
    row = the_row(data, model)
    row["fields"][field] = value
    refused = restore_refused(write(tmp_path, data))
    label = {"clubs.club": "clubs.Club", "clubs.player": "clubs.Player", "auth.user": "auth.User"}.get(
        model, "scoring.Game"
    )
    assert f"{label} id {row['pk']}, {message}" in refused


def test_a_row_given_twice_is_refused_as_the_second_would_overwrite_the_first(data, tmp_path):
    club = the_row(data, "clubs.club")
    data.append(copy.deepcopy(club))
    assert f"clubs.club id {club['pk']} is given twice" in restore_refused(write(tmp_path, data))


def test_two_rows_the_database_keeps_unique_are_refused(data, tmp_path):
    first, second = the_row(data, "clubs.club"), copy.deepcopy(the_row(data, "clubs.club"))
    second["pk"] = 9999
    data.insert(data.index(first) + 1, second)
    assert "UNIQUE" in restore_refused(write(tmp_path, data)).upper()


def test_the_command_prints_one_line_and_no_traceback_with_exit_status_2(tmp_path):
    """As run from a shell (the file is read before the database is asked anything)."""
    path = write(tmp_path, '[{"model": "clubs.club", "pk": 1')
    done = subprocess.run(
        [sys.executable, "manage.py", "restore", str(path)],
        cwd=Path(settings.BASE_DIR),
        env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'never.sqlite3'}"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.strip().count("\n") == 0
    assert "nothing restored" in done.stderr
