"""A backup file from elsewhere (an old server, an email) is untrusted: `restore` refuses, with one
line and nothing written, what would overwrite the rows `migrate` made, leave the site unable to
number its next rows, or give a game its page cannot show; and `backup` writes a file only its
owner reads (it holds password hashes and pending invite links)."""

from __future__ import annotations

import io
import os
import stat

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import CommandError, call_command

from .backup_files import fresh_database, restore, restore_refused, write
from .test_backup import club_night
from .test_backup_hostile_files import data  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def _first(rows, model):
    return next(row for row in rows if row["model"] == model)


def test_a_content_type_row_is_refused_and_migrates_rows_stay(data, tmp_path):  # noqa: F811
    user_type = ContentType.objects.get(app_label="auth", model="user")
    data.insert(
        0,
        {"model": "contenttypes.contenttype", "pk": user_type.pk, "fields": {"app_label": "x", "model": "y"}},
    )
    message = restore_refused(write(tmp_path, data))
    assert "'contenttypes.contenttype' is not a model a backup holds" in message
    assert ContentType.objects.get(pk=user_type.pk).model == "user"


@pytest.mark.parametrize(
    "row",
    [
        {
            "model": "sessions.session",
            "pk": "k" * 32,
            "fields": {"session_data": "x", "expire_date": "2099-01-01T00:00:00Z"},
        },
        {
            "model": "auth.permission",
            "pk": 1,
            "fields": {"name": "x", "codename": "x", "content_type": ["auth", "user"]},
        },
    ],
)
def test_a_row_of_a_model_a_backup_leaves_out_is_refused(row, data, tmp_path):  # noqa: F811
    data.append(row)
    assert "is not a model a backup holds" in restore_refused(write(tmp_path, data))


@pytest.mark.parametrize("pk", [0, -3, 2**63 - 1, "7", None, True])
def test_an_id_that_is_not_a_positive_number_the_sequence_can_pass_is_refused(pk, data, tmp_path):  # noqa: F811
    club = _first(data, "clubs.club")
    data.append({**club, "pk": pk, "fields": {**club["fields"], "name": "Another club"}})
    message = restore_refused(write(tmp_path, data))
    assert f"row {len(data)}: clubs.club id" in message or f"row {len(data)} is not an object" in message


@pytest.mark.parametrize(
    ("field", "said"),
    [("code", "Enter a valid value"), ("share_code", "Enter a valid value"), ("variant", "blank")],
)
def test_an_empty_game_code_or_choice_is_refused(field, said, data, tmp_path):  # noqa: F811
    game = _first(data, "scoring.game")
    game["fields"][field] = ""
    message = restore_refused(write(tmp_path, data))
    assert f"scoring.Game id {game['pk']}, field {field!r}" in message and said in message


def test_a_hand_the_rules_engine_refuses_is_refused_naming_the_game(data, tmp_path):  # noqa: F811
    hand = _first(data, "scoring.hand")
    del hand["fields"]["data"]["bidder"]
    message = restore_refused(write(tmp_path, data))
    assert f"scoring.Game id {hand['fields']['game']}: hand 1: bidder" in message


def test_hands_not_numbered_from_one_are_refused(data, tmp_path):  # noqa: F811
    hand = _first(data, "scoring.hand")
    hand["fields"]["number"] = 40
    assert "its hands are numbered" in restore_refused(write(tmp_path, data))


def test_a_file_of_no_rows_is_refused(tmp_path):
    assert "it holds no rows" in restore_refused(write(tmp_path, []))


@pytest.mark.parametrize("name", ["backup.json", "backup.json.gz"])
def test_the_backup_file_is_readable_by_its_owner_only(name, tmp_path):
    old = os.umask(0o022)
    try:
        path = tmp_path / name
        call_command("backup", str(path), stderr=io.StringIO())
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".lzma"])
def test_every_compression_backup_writes_restore_reads(suffix, tmp_path):
    club_night()
    path = tmp_path / f"backup.json{suffix}"
    call_command("backup", str(path), stderr=io.StringIO())
    fresh_database()
    assert restore(path).startswith("Installed ")


@pytest.mark.parametrize(
    ("name", "said"),
    [("backup.json.zip", "a .zip file is not written"), ("nowhere/backup.json", "No such file")],
)
def test_a_backup_it_cannot_write_is_one_line_and_leaves_no_file(name, said, tmp_path):
    with pytest.raises(CommandError) as refused:
        call_command("backup", str(tmp_path / name), stderr=io.StringIO())
    assert said in str(refused.value) and "\n" not in str(refused.value)
    assert list(tmp_path.iterdir()) == []
