"""Imports: refused whole with line-numbered reasons, never a 500, JSON records, the command."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from clubs.models import Club, Player, Season
from league.csv_io.problems import ImportRefused
from league.imports.worker import import_bytes
from league.views import files as files_views
from scoring.models import Game, Hand
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(people):
    """alice, a club organiser: she organises CLUB, and each test makes her the organiser of the
    club it makes."""
    return people.client("alice")


EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "record-example.json"


def _exported(client, organiser):
    small_season(organiser)
    raw = b"".join(client.get("/league/export/hands.csv").streaming_content)
    Game.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    return raw.decode("utf-8-sig").splitlines()


def _refused(raw, **kwargs):
    with pytest.raises(ImportRefused) as refused:
        import_bytes(raw, name="f", **kwargs)
    assert not Game.objects.exists() and not Hand.objects.exists() and not Player.objects.exists()
    return [str(p) for p in refused.value.problems]


def test_it_refuses_a_file_with_bad_rows_naming_each_line_and_writes_nothing(client, people):
    lines = _exported(client, people["alice"])
    lines[2] = lines[2].replace(",13,", ",14,", 1)  # line 3: G2 hand 1 tricks 12 + 14
    lines[4] = lines[4].replace("diamonds", "roses")  # line 5: G3 trump
    problems = _refused("\n".join(lines).encode())
    assert problems == [
        "line 3: hand 1: tricks add up to 26, expected 25",
        "line 5: hand 1: trump must be one of spades, hearts, diamonds, clubs, not 'roses'",
    ]


def test_it_reports_a_missing_hand_and_a_bad_number(client, people):
    lines = _exported(client, people["alice"])
    del lines[2]  # G2 loses hand 1
    lines[1] = lines[1].replace(",21,hearts", ",twenty,hearts")
    problems = _refused("\n".join(lines).encode())
    assert any(p.startswith("line 2: bid: 'twenty' is not a whole number") for p in problems)
    assert any("hand 1 is missing" in p for p in problems)


def test_it_refuses_the_same_file_twice(client, people):
    lines = _exported(client, people["alice"])
    raw = "\n".join(lines).encode()
    import_bytes(raw)
    games = Game.objects.count()
    with pytest.raises(ImportRefused) as refused:
        import_bytes(raw)
    assert "already here" in str(refused.value.problems[0])
    assert Game.objects.count() == games


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Åsa".encode("latin-1") + b",x\n", "not UTF-8"),
        (b'game_id,seats\n"unclosed', "line 1: not a hands.csv"),
        (b"", "not a hands.csv"),
        (b"[1, 2", "not valid JSON"),
        (b'{"hands": "x"}', "not a game record"),
        (b"[]", "no game records"),
        (b"\x00\x01\x02", "not a hands.csv"),
        (b"[" * 100000, "nested too deeply"),
    ],
)
def test_it_explains_a_broken_file(raw, expected):
    problems = _refused(raw)
    assert any(expected in p for p in problems), problems


def test_it_imports_one_json_record_and_a_list_into_a_season():
    data = small_season()
    record = json.loads(EXAMPLE.read_text())
    import_bytes(json.dumps(record).encode(), club="Klubbén", season="Vår 2026")
    import_bytes(json.dumps([record, record]).encode())
    assert Game.objects.count() == 6
    in_season = Game.objects.filter(season=data["season"])
    assert in_season.count() == 4
    # Bound to the roster by name: "Anna" is new on the Klubbén roster.
    assert Player.objects.filter(name="Anna", memberships__club=data["club"]).count() == 1
    casual = Game.objects.filter(club=None).first()
    assert casual is not None
    assert casual.seat_rows.filter(player__isnull=False).count() == 0


def test_it_names_the_record_and_hand_of_a_bad_json_record():
    record = json.loads(EXAMPLE.read_text())
    bad = json.loads(json.dumps(record))
    bad["hands"][0]["tricks"] = {"NS": 15, "EW": 11}
    problems = _refused(json.dumps([record, bad]).encode())
    assert problems == ["record 2: hand 1: tricks add up to 26, expected 25"]


def test_it_imports_through_the_upload_page(client, people):
    small_season(people["alice"])
    record = EXAMPLE.read_bytes()
    season = Season.objects.get()
    response = client.post(
        "/league/import/",
        {"file": SimpleUploadedFile("g.json", record), "season": season.pk},
    )
    assert response.status_code == 302
    assert Game.objects.filter(season=season).count() == 4
    assert "Imported 1 game with 4 hands." in client.get("/league/import/").content.decode()


def test_it_shows_each_problem_on_the_upload_page(client):
    response = client.post(
        "/league/import/", {"file": SimpleUploadedFile("bad.csv", "Čeněk".encode("cp1250") + b"\n")}
    )
    assert response.status_code == 400
    assert "not UTF-8" in response.content.decode()


def test_the_upload_page_lists_at_most_the_problems_it_shows_and_says_so(client, monkeypatch, people):
    lines = _exported(client, people["alice"])
    lines[2] = lines[2].replace(",13,", ",14,", 1)
    lines[4] = lines[4].replace("diamonds", "roses")
    upload = SimpleUploadedFile("bad.csv", "\n".join(lines).encode())
    monkeypatch.setattr(files_views, "PROBLEMS_SHOWN", 1)
    page = client.post("/league/import/", {"file": upload}).content.decode()
    assert "The file was refused: 2 problems" in page
    assert "tricks add up to 26" in page and "roses" not in page
    assert "Only the first 1 problem is shown." in page


def test_it_refuses_an_oversized_upload_with_a_clear_message(client, settings):
    settings.IMPORT_MAX_MB = 1
    big = SimpleUploadedFile("big.csv", b"x" * (1024 * 1024 + 1))
    response = client.post("/league/import/", {"file": big})
    assert response.status_code == 400
    assert "the limit is 1 MB" in response.content.decode()
    assert not Game.objects.exists()


def test_the_command_imports_files_and_refuses_a_bad_one_whole(tmp_path, client, people):
    lines = _exported(client, people["alice"])
    good = tmp_path / "hands.csv"
    good.write_text("\n".join(lines), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"hands": [{"bidder": "N"}]}', encoding="utf-8")
    from django.core.management import call_command

    with pytest.raises(SystemExit) as exit_:
        call_command("import_games", str(good), str(bad))
    assert exit_.value.code == 2
    assert not Game.objects.exists()
    call_command("import_games", str(good))
    assert Game.objects.count() == 3


def test_the_command_prints_no_traceback(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\xff\xfe garbage")
    done = subprocess.run(
        [sys.executable, "manage.py", "import_games", str(bad), str(tmp_path / "missing.csv")],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"},
        timeout=60,
    )
    assert done.returncode in (1, 2)
    assert "Traceback" not in done.stderr


def test_it_refuses_a_huge_upload_before_reading_it(client):
    response = client.generic(
        "POST", "/league/import/", b"x" * 100, content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(50 * 1024 * 1024),
    )  # fmt: skip
    assert response.status_code == 413
    assert "larger than the 20 MB limit" in response.content.decode()


def test_it_imports_a_file_whose_games_rows_are_not_together(client, people):
    """A spreadsheet sorted by another column mixes the games' rows; the import groups them."""
    header, *rows = _exported(client, people["alice"])
    game_id = header.split(",").index("game_id")
    first_of: dict[str, str] = {}
    for row in rows:
        first_of.setdefault(row.split(",")[game_id], row)
    split = next(row for row in rows if row not in first_of.values())  # a game's second hand
    its_game = split.split(",")[game_id]
    others = [row for row in rows if row.split(",")[game_id] != its_game]
    mixed = [split, *others, first_of[its_game]]  # its hands are apart, the second one first

    report = import_bytes("\n".join([header, *mixed]).encode(), name="hands.csv")

    assert (report.games, report.hands) == (3, 4)
    assert Game.objects.count() == 3 and Hand.objects.count() == 4
