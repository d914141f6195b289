"""What `restore` checks beyond each row: what is derived from the hands (a game's summary, its
statistics, the ratings) must be what the hands give, or standings would be faked; a compressed
file may not grow past `RESTORE_MAX_BYTES`; the task queue and waiting uploads are neither backed
up nor restored, and an import that had not ended comes back ended as stopped; a game's signatures
name its sides and sign it when the last side did; and the operator is told which accounts can
sign in with power."""

from __future__ import annotations

import gzip
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from league.models import ImportBatch, ImportFile

from .backup_files import back_up, fresh_database, restore, restore_refused, rows, the_row, write
from .test_backup_hostile_files import data  # noqa: F401  (the fixture)
from .test_backup_round_trip import a_game_both_sides_signed

pytestmark = pytest.mark.django_db


def _game_of(rows_: list[dict[str, Any]], model: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first row of `model` and the row of its game."""
    row = the_row(rows_, model)
    game = next(r for r in rows_ if r["model"] == "scoring.game" and r["pk"] == row["fields"]["game"])
    return row, game


@pytest.mark.parametrize(
    ("model", "field", "value"),
    [
        ("scoring.gamestat", "points_for", 999),
        ("scoring.gamestat", "outcome", "win"),
        ("scoring.handstat", "total", 7),
    ],
)
def test_a_statistics_row_the_hands_do_not_give_is_refused_naming_the_game_and_field(
    model,
    field,
    value,
    data,  # noqa: F811
    tmp_path,
):
    row, game = _game_of(data, model)
    if row["fields"][field] == value:
        value = "loss" if value == "win" else value + 1
    row["fields"][field] = value
    message = restore_refused(write(tmp_path, data))
    assert f"of game id {game['pk']}" in message and f"field {field!r}" in message


@pytest.mark.parametrize(
    ("field", "value"), [("winner", "EW"), ("scores", {"NS": 1000, "EW": 0}), ("hand_count", 9)]
)
def test_a_games_summary_the_hands_do_not_give_is_refused(field, value, data, tmp_path):  # noqa: F811
    game = next(r for r in data if r["model"] == "scoring.game" and r["fields"]["hand_count"])
    game["fields"][field] = value
    message = restore_refused(write(tmp_path, data))
    assert f"scoring.Game id {game['pk']}, field {field!r}" in message


def test_a_rating_the_games_do_not_give_is_refused(data, tmp_path):  # noqa: F811
    rating = the_row(data, "ratings.playerrating")
    rating["fields"]["mu"] += 5
    assert "ratings.PlayerRating" in restore_refused(write(tmp_path, data))


@override_settings(RESTORE_MAX_BYTES=100_000)
def test_a_compressed_file_growing_past_the_limit_is_refused_naming_it(tmp_path):
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(b"[" + b" " * 10_000_000 + b"]"))
    assert path.stat().st_size < 100_000
    assert "larger than the limit of 100,000 bytes (RESTORE_MAX_BYTES)" in restore_refused(path)


@override_settings(RESTORE_MAX_BYTES=1_000)
def test_a_plain_file_past_the_limit_is_refused(data, tmp_path):  # noqa: F811
    assert "the limit of 1,000 bytes" in restore_refused(write(tmp_path, data))


def test_a_waiting_upload_is_not_backed_up_and_an_unfinished_import_comes_back_stopped(tmp_path):
    olga = User.objects.create_user("olga")
    batch = ImportBatch.objects.create(user=olga, file_name="spring.csv", status=ImportBatch.Status.WRITING)
    ImportFile.objects.create(batch=batch, data=b"game,hand\n")
    path = back_up(tmp_path)
    assert not [row for row in rows(path) if row["model"] == "league.importfile"]
    fresh_database()
    restore(path)
    restored = ImportBatch.objects.get(pk=batch.pk)
    assert restored.status == ImportBatch.Status.REFUSED and restored.written == 0
    assert restored.problems == [
        {"line": None, "message": "the import stopped before it was finished; nothing was imported"}
    ]


@pytest.mark.parametrize(
    "row",
    [
        {"model": "league.importfile", "pk": 1, "fields": {"data": "AAAA"}},
        {
            "model": "django_tasks_database.dbtaskresult",
            "pk": str(uuid.uuid4()),
            "fields": {"status": "READY", "task_path": "league.tasks.run_import", "args_kwargs": {}},
        },
    ],
)
def test_a_queued_task_or_a_waiting_upload_in_a_file_is_refused(row, data, tmp_path):  # noqa: F811
    data.append(row)
    assert "is not a model a backup holds" in restore_refused(write(tmp_path, data))


def test_a_restore_names_the_superusers_and_the_staff_accounts(tmp_path):
    User.objects.create_superuser("root", "root@example.org", "x")
    User.objects.create_user("olga", is_staff=True)
    User.objects.create_user("anna", is_staff=True)
    User.objects.create_user("bo")
    path = back_up(tmp_path)
    fresh_database()
    said = restore(path).splitlines()
    assert "superusers: root" in said and "staff accounts: anna, olga, root" in said


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"side": "N"}, "signed for N, not a side of its table"),
        ({"signed_at": "2099-01-01T20:00:00Z"}, "field 'signed_at': the signatures give"),
    ],
)
def test_a_signature_that_is_not_of_the_games_sides_or_its_signing_is_refused(change, said, tmp_path):
    a_game_both_sides_signed(User.objects.create_user("olga", "o@example.org"))
    backup = rows(back_up(tmp_path))
    signature = the_row(backup, "scoring.gamesignature")
    signature["fields"].update(change)
    fresh_database()
    message = restore_refused(write(tmp_path, backup))
    assert f"scoring.Game id {signature['fields']['game']}" in message and said in message
