"""Input holes in the imports and the restore, each kept as a regression.

Game codes: one outside the code alphabet (a slash, dots) is refused, and the pages that list
games stay up even if one were in the database. Hostile values: a huge JSON integer, a lone
surrogate or a NUL is refused with a message, never a traceback or a 500 (PostgreSQL refused
NUL with a DataError; SQLite stored it). Number syntax: Python's integer syntax and duplicate
JSON keys are refused, naming the field or key. The `postgres` mark: these are the ones that went
wrong differently on PostgreSQL; CI runs them there too.
"""

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from clubs.models import Club, Player
from league.csv_io.problems import ImportRefused
from league.imports.worker import import_bytes
from scoring.models import Game, Hand
from tests.helpers import standard_game, text
from tests.hostile import (
    BAD_GAME_IDS,
    HOSTILE_CSV_CELLS,
    HOSTILE_JSON,
    HUGE_JSON_INT,
    LONE_SURROGATE,
    NUL_NAME,
    PYTHON_INT_SYNTAX,
    hands_csv,
    record,
    record_with_duplicate_key,
    record_with_huge_int,
    record_with_name,
)
from tests.league_data import small_season

from .backup_files import back_up, fresh_database, restore_refused, rows, the_row, write

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def refused(raw: bytes) -> list[str]:
    with pytest.raises(ImportRefused) as refusal:
        import_bytes(raw, name="f")
    assert not Game.objects.exists() and not Hand.objects.exists() and not Player.objects.exists()
    return [str(problem) for problem in refusal.value.problems]


@pytest.fixture
def organiser(people):
    """alice's client, she an organiser of "Fuzz club" (a real role, not a superuser)."""
    return people.organiser_of(Club.objects.create(name="Fuzz club"))


def upload(client: Client, text: str, name: str = "games.json"):
    file = SimpleUploadedFile(name, text.encode("utf-8", "surrogatepass"))
    return client.post("/league/import/", {"file": file, "club": Club.objects.get(name="Fuzz club").pk})


def restore(data: object | str, tmp_path) -> str:
    """Restore a backup (its rows, or raw JSON text) into the empty test database; the refusal's text."""
    return restore_refused(write(tmp_path, data))


@pytest.fixture
def backup(tmp_path) -> list[dict[str, Any]]:
    """The rows of a backup of one game; the database left fresh and empty."""
    standard_game()
    data = rows(back_up(tmp_path))
    fresh_database()
    return data


# --- game codes -----------------------------------------------------------------------


@pytest.mark.parametrize("game_id", BAD_GAME_IDS)
def test_csv_import_refuses_a_game_id_outside_the_code_alphabet(game_id):
    problems = refused(hands_csv(game_id=game_id).encode())
    assert len(problems) == 1
    assert problems[0].startswith("line 2: game_id: ") and "is not a game code" in problems[0]


@pytest.mark.parametrize("key", ["code", "game_id"])
def test_json_import_takes_no_game_code_from_the_record(key):
    """A JSON record has no code of its own (docs/record-format.md): the import makes one, so a
    record that brings one (a slash in it or not) is refused, naming the key."""
    problems = refused(json.dumps(record(**{key: "a/../b"})).encode())
    assert problems == [f"{key} is not a field of a game record"]


@pytest.mark.parametrize("code", ["a/b", "..", "../x", "a b", "a" * 17])
def test_restore_refuses_a_game_code_outside_the_code_alphabet(code, backup, tmp_path):
    game = the_row(backup, "scoring.game")
    game["fields"]["code"] = code
    assert f"scoring.Game id {game['pk']}, field 'code': " in restore(backup, tmp_path)


def test_restore_refuses_a_share_code_with_a_slash(backup, tmp_path):
    game = the_row(backup, "scoring.game")
    game["fields"]["share_code"] = "x/y"
    assert f"scoring.Game id {game['pk']}, field 'share_code': Enter a valid value." in restore(
        backup, tmp_path
    )


def test_game_lists_stay_up_with_a_bad_code_in_the_database(organiser, people):
    season = small_season(people["alice"])
    club = season["club"]
    game = Game.objects.filter(club=club).first()
    assert game is not None
    Game.objects.filter(pk=game.pk).update(code="a/../b")  # as a hand-edited row could hold it
    seat = game.seat_rows.exclude(player=None).first()
    assert seat is not None and seat.player is not None
    player = seat.player
    for path in ("/", f"/league/clubs/{club.pk}/", f"/league/players/{player.pk}/", "/league/"):
        assert organiser.get(path).status_code == 200, path
    page = organiser.get(f"/league/players/{player.pk}/").content.decode()
    assert "/g/a/../b/" not in page


# --- what no database stores, and numbers too long to read ---------------------------


def test_a_huge_json_integer_is_refused_on_upload(organiser):
    response = upload(organiser, record_with_huge_int())
    assert response.status_code == 400
    assert "more than 30 digits" in response.content.decode()
    assert not Game.objects.exists()


def test_a_huge_json_integer_is_refused_by_import_games(tmp_path, capsys):
    path = tmp_path / "games.json"
    path.write_text(record_with_huge_int())
    with pytest.raises(SystemExit) as exit_:
        call_command("import_games", str(path))
    assert exit_.value.code == 2
    assert "more than 30 digits" in capsys.readouterr().err
    assert not Game.objects.exists()


def test_a_huge_json_integer_is_refused_by_restore(backup, tmp_path):
    text = re.sub(r'"pk": \d+,', f'"pk": {HUGE_JSON_INT},', json.dumps(backup), count=1)
    assert "more than 30 digits" in restore(text, tmp_path)


@pytest.mark.parametrize("name", [LONE_SURROGATE, "Ann" + LONE_SURROGATE, NUL_NAME])
def test_a_name_no_database_stores_is_refused_in_a_json_upload(organiser, name):
    response = upload(organiser, record_with_name(name))
    assert response.status_code == 400
    assert "players.N:" in response.content.decode()
    assert not Game.objects.exists() and not Player.objects.exists()


def test_a_lone_surrogate_is_refused(backup, tmp_path):
    problems = refused(record_with_name(LONE_SURROGATE).encode("utf-8", "surrogatepass"))
    assert problems == ["players.N: it contains a lone surrogate (not a character)"]
    the_row(backup, "scoring.game")["fields"]["place"] = "Klubb" + LONE_SURROGATE
    assert ".fields.place: it contains a lone surrogate" in restore(backup, tmp_path)


@pytest.mark.parametrize("column", ["note", "game_id", "player_N", "club", "place"])
def test_a_nul_in_a_csv_cell_is_refused(column):
    problems = refused(hands_csv(**{column: "fz\x00" if column == "game_id" else NUL_NAME}).encode())
    assert problems == [f"line 2: {column}: it contains a NUL character"]


def test_restore_of_a_game_placed_with_a_nul_is_refused_with_exit_2(backup, tmp_path):
    the_row(backup, "scoring.game")["fields"]["place"] = NUL_NAME
    assert ".fields.place: it contains a NUL character" in restore(backup, tmp_path)


@pytest.mark.parametrize("kind", sorted(HOSTILE_JSON))
def test_every_hostile_json_record_is_refused_by_import_games(kind, tmp_path, capsys):
    path = tmp_path / "games.json"
    path.write_text(HOSTILE_JSON[kind](), encoding="utf-8", errors="surrogatepass")
    with pytest.raises(SystemExit) as exit_:
        call_command("import_games", str(path))
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "nothing was imported" in err
    assert not Game.objects.exists()


@pytest.mark.parametrize("cells", HOSTILE_CSV_CELLS, ids=lambda cells: repr(cells)[:30])
def test_every_hostile_csv_cell_is_refused_with_its_line(cells):
    problems = refused(hands_csv(**cells).encode())
    assert problems and all(problem.startswith("line 2: ") for problem in problems)


# --- numbers in Python's syntax, duplicate keys --------------------------------------


@pytest.mark.parametrize("value", PYTHON_INT_SYNTAX)
def test_csv_import_refuses_pythons_integer_syntax(value):
    problems = refused(hands_csv(bid=value).encode())
    assert problems == [f"line 2: bid: {value!r} is not a whole number"]


def test_duplicate_keys_in_a_json_record_are_refused_naming_the_key(organiser):
    assert refused(record_with_duplicate_key().encode()) == ['the key "bid" appears twice in one object']
    response = upload(organiser, record_with_duplicate_key())
    assert response.status_code == 400
    assert "appears twice" in response.content.decode()


def test_restore_refuses_duplicate_keys_naming_the_key(backup, tmp_path):
    text = json.dumps(backup).replace('"fields": {', '"fields": {}, "fields": {', 1)
    assert 'the key "fields" appears twice' in restore(text, tmp_path)


def test_import_games_refuses_a_club_name_in_bytes_that_are_not_utf8(tmp_path):
    """The shell passes the bytes as they are; Python turns the invalid ones into lone surrogates,
    which no database stores. The command says so and exits with status 2, no traceback."""
    import os
    import subprocess
    import sys

    from django.conf import settings

    path = tmp_path / "games.json"
    path.write_text("[" + record_with_name("Anna") + "]", encoding="utf-8")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}", "DEBUG": "true"}
    done = subprocess.run(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "import_games", str(path), b"--club=Kl\xffbb"],
        env=env,
        capture_output=True,
        timeout=120,
    )
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2, err
    assert "--club: 'Kl\\udcffbb' is not valid UTF-8 text" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"club": "K" * 101}, "--club: 101 characters; at most 100"),
        ({"club": "Klubben", "season": "S" * 101}, "--season: 101 characters; at most 100"),
        ({"club": "Kl" + LONE_SURROGATE}, "--club: 'Kl\\ud800' is not valid UTF-8 text"),
        ({"season": "Vår"}, "--season needs --club"),
    ],
)
def test_import_games_refuses_a_bad_club_or_season_option_and_writes_nothing(options, message, tmp_path):
    path = tmp_path / "games.json"
    path.write_text("[" + record_with_name("Anna") + "]", encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_games", str(path), **options)
    assert refused.value.returncode == 2 and message in str(refused.value)
    assert not Game.objects.exists() and not Club.objects.exists()


@pytest.mark.parametrize("column", ["club", "season"])
def test_a_nul_in_the_club_or_season_of_an_uploaded_hands_csv_is_refused_by_line_not_a_500(organiser, column):
    cells = {"club": "Fuzz club", column: NUL_NAME} if column == "season" else {column: NUL_NAME}
    response = upload(organiser, hands_csv(**cells), name="hands.csv")
    assert response.status_code < 500
    page = organiser.get(response["Location"]) if response.status_code == 302 else response
    assert f"Line 2: {column}: it contains a NUL character" in text(page)
    assert not Game.objects.exists()
