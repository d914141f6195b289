"""The import_games command and the upload page import through one function
(`league.imports.worker`): the same checks, the same writes (hidden chunks, then published) and
the same messages; the upload still runs as a task, the command at once in one transaction."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from clubs.models import Player
from league import services
from league.imports import worker
from league.models import ImportBatch
from scoring.models import Game
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(people):
    return people.client("alice")


def _exported(client, organiser) -> list[str]:
    small_season(organiser)
    raw = b"".join(client.get("/league/export/hands.csv").streaming_content)
    Game.objects.all().delete()
    Player.objects.all().delete()
    return raw.decode("utf-8-sig").splitlines()


def _bad(lines: list[str]) -> bytes:
    lines = list(lines)
    lines[2] = lines[2].replace(",13,", ",14,", 1)  # tricks add up to 26
    lines[4] = lines[4].replace("diamonds", "roses")
    return "\n".join(lines).encode()


def test_a_bad_file_is_refused_with_the_same_messages_by_the_command_and_the_upload(
    client, people, tmp_path, capsys
):
    raw = _bad(_exported(client, people["alice"]))
    path = tmp_path / "hands.csv"
    path.write_bytes(raw)
    with pytest.raises(SystemExit):
        call_command("import_games", str(path))
    said = capsys.readouterr().err.splitlines()
    page = client.post("/league/import/", {"file": SimpleUploadedFile("hands.csv", raw, "text/csv")})
    assert page.status_code == 400
    problems = [p["message"] for p in ImportBatch.objects.get().problems]
    assert said == [
        f"{path}: line 3: {problems[0]}",
        f"{path}: line 5: {problems[1]}",
        "nothing was imported",
    ]
    assert "tricks add up to 26, expected 25" in problems[0]
    assert not Game.all_objects.exists()


def test_the_command_writes_through_the_uploads_hidden_chunks_and_keeps_no_batch(
    client, people, tmp_path, settings, monkeypatch, capsys
):
    path = tmp_path / "hands.csv"
    path.write_text("\n".join(_exported(client, people["alice"])), encoding="utf-8")
    settings.IMPORT_CHUNK_GAMES = 1
    chunks: list[int] = []
    real = services.write_pending_games

    def spy(*, batch_id, games):
        chunks.append(len(games))
        return real(batch_id=batch_id, games=games)

    monkeypatch.setattr(worker, "write_pending_games", spy)
    monkeypatch.setattr(time, "sleep", lambda seconds: pytest.fail("the command does not pause"))
    call_command("import_games", str(path))
    assert "imported 3 games with 4 hands" in capsys.readouterr().out
    assert chunks == [1, 1, 1]
    assert Game.objects.count() == 3 and not Game.all_objects.filter(hidden=True).exists()
    assert not ImportBatch.objects.exists()  # the command's batch is gone once it has ended
    assert set(Game.objects.values_list("club__name", flat=True)) == {"Klubbén"}


def test_a_failure_half_way_through_the_command_leaves_nothing(
    client, people, tmp_path, settings, monkeypatch
):
    path = tmp_path / "hands.csv"
    path.write_text("\n".join(_exported(client, people["alice"])), encoding="utf-8")
    settings.IMPORT_CHUNK_GAMES = 1
    real = services.write_pending_games
    calls: list[int] = []

    def breaks_on_the_third(*, batch_id, games):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("disk full")
        return real(batch_id=batch_id, games=games)

    monkeypatch.setattr(worker, "write_pending_games", breaks_on_the_third)
    with pytest.raises(SystemExit):
        call_command("import_games", str(path))
    assert not Game.all_objects.exists() and not ImportBatch.objects.exists()
