"""`python manage.py score_game FILE` and `score_game -`.

Two tests run the command as a user would, in a process of its own (`manage.py`, standard input,
exit status); the rest call it in the test's process (`call_command`), which is quicker and
checks the same output, error line and exit status.
"""

import io
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from scoring.rules import worked_example

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = worked_example.PATH

WORKED_RECORD: dict[str, Any] = {
    "seats": 4,
    "variant": "check",
    "deck": "single",
    "hands": [worked_example.hand(1)],
}

# Hand 1 of docs/rules.md, "Worked example", as score_game prints it, key order included.
WORKED_RESULT: dict[str, Any] = {
    "sides": ["NS", "EW"],
    "variant": "check",
    "target": 100,
    "min_bid": 20,
    "chips_in_play": True,
    "hands": [
        {
            "number": 1,
            "dealer": "N",
            "result": "made",
            "meld": {"NS": 21, "EW": 10},
            "tricks": {"NS": 15, "EW": 10},
            "points": {"NS": 36, "EW": 20},
            "chips": {"NS": 4, "EW": -4},
            "totals": {"NS": 36, "EW": 20},
            "chip_totals": {"NS": 4, "EW": -4},
        }
    ],
    "result": {
        "finished": False,
        "reached": None,
        "winner": None,
        "scores": {"NS": 36, "EW": 20},
        "game_chips": {"NS": 0, "EW": 0},
        "chips": {"NS": 4, "EW": -4},
    },
}


def run_as_a_user(*args, stdin=b""):
    """`python manage.py score_game ...` in a process of its own."""
    return subprocess.run(
        [sys.executable, "manage.py", "score_game", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


@dataclass
class Done:
    returncode: int | str | None  # as a process or SystemExit gives it
    stdout: bytes
    stderr: bytes


@pytest.fixture
def score_game(monkeypatch, capsys):
    """The command in this process: standard input from `stdin`, its output, error and status."""

    def run(*args, stdin=b""):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        out = io.StringIO()
        capsys.readouterr()
        try:
            call_command("score_game", *args, stdout=out)
            code: int | str | None = 0
        except SystemExit as exit_:
            code = exit_.code
        return Done(code, out.getvalue().encode(), capsys.readouterr().err.encode())

    return run


def test_it_prints_the_result_of_the_worked_example_in_the_shape_of_record_md():
    done = run_as_a_user("-", stdin=json.dumps(WORKED_RECORD).encode())
    assert done.returncode == 0
    assert done.stderr == b""
    printed = json.loads(done.stdout)
    assert printed == WORKED_RESULT
    assert list(printed) == list(WORKED_RESULT)
    assert list(printed["hands"][0]) == list(WORKED_RESULT["hands"][0])
    assert list(printed["result"]) == list(WORKED_RESULT["result"])


def test_it_scores_the_example_record_file():
    done = run_as_a_user(str(EXAMPLE))
    assert done.returncode == 0
    printed = json.loads(done.stdout)
    assert [hand["result"] for hand in printed["hands"]] == ["made", "passed", "made", "conceded"]
    assert printed["result"]["scores"] == {"NS": 14, "EW": 69}
    assert printed["result"]["chips"] == {"NS": -19, "EW": 19}


def test_it_reads_the_same_record_from_standard_input(score_game):
    from_file = score_game(str(EXAMPLE))
    from_stdin = score_game("-", stdin=EXAMPLE.read_bytes())
    assert from_stdin.returncode == 0
    assert from_stdin.stdout == from_file.stdout


def test_it_accepts_a_utf8_byte_order_mark(score_game):
    done = score_game("-", stdin=b"\xef\xbb\xbf" + json.dumps(WORKED_RECORD).encode())
    assert done.returncode == 0
    assert json.loads(done.stdout) == WORKED_RESULT


def test_it_keeps_non_ascii_player_names_as_utf8(score_game):
    record = dict(WORKED_RECORD, players={"N": "Åsa", "E": "Čeněk"})
    done = score_game("-", stdin=json.dumps(record, ensure_ascii=False).encode())
    assert done.returncode == 0
    assert json.loads(done.stdout) == WORKED_RESULT


def refused(done):
    """The refusal contract: one line on standard error, nothing on standard output, status 2."""
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"Traceback" not in done.stderr
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def after_the_end():
    ender = dict(WORKED_RECORD["hands"][0], melds={"N": ["double_run"]}, tricks={"NS": 25, "EW": 0})
    return {"variant": "check", "hands": [ender, {"passed": True}]}


@pytest.mark.parametrize(
    ("stdin", "line"),
    [
        (
            b'{"seats": 4,',
            "record: not valid JSON: Expecting property name enclosed in double quotes at line 1 column 13",
        ),
        (b"", "record: not valid JSON: Expecting value at line 1 column 1"),
        (
            b"{'seats': 4}",
            "record: not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2",
        ),
        (b'{"players": {"N": "\xe5sa"}}', "record: the file is not UTF-8 text"),
        ('{"hands": []}'.encode("utf-16"), "record: the file is not UTF-8 text"),
        (b"[]", "record must be an object, not a list"),
        (b"150", "record must be an object, not 150"),
        (b"null", "record must be an object, not null"),
        (b"[" * 100_000 + b"]" * 100_000, "record: the JSON is nested too deeply"),
        (
            b'{"seats": ' + b"9" * 5000 + b"}",
            "record: a number in the JSON has more than 30 digits (999999999999…)",
        ),
        (b'{"hands": [], "seats": 4, "seats": 3}', 'record: the key "seats" appears twice in one object'),
        (b'{"seats": "4", "hands": []}', "seats must be 2, 3 or 4, not '4'"),
        (b'{"seats": 4.0, "hands": []}', "seats must be 2, 3 or 4, not 4.0"),
        (b'{"target": true, "hands": []}', "target must be a whole number, not true"),
        (b'{"hands": {}}', "hands must be a list of hands"),
        (b'{"hands": [], "notes": "x"}', "notes is not a field of a game record"),
        (
            b'{"hands": [{"bidder": "N", "bid": 20, "tricks": {"NS": 14, "EW": 10}}]}',
            "hand 1: tricks add up to 24, expected 25",
        ),
        (
            b'{"hands": [{"bidder": "N", "bid": "20", "tricks": {"NS": 15, "EW": 10}}]}',
            "hand 1: bid must be a whole number, not '20'",
        ),
        (
            b'{"hands": [{"bidder": "N", "bid": 20, "melds": {"N": ["flush"]},'
            b' "tricks": {"NS": 15, "EW": 10}}]}',
            "hand 1: melds.N: 'flush' is not a meld item",
        ),
        (
            json.dumps(after_the_end()).encode(),
            "hand 2: the game ended after hand 1; no hand may be recorded after the end",
        ),
    ],
)
def test_it_refuses_a_bad_record_with_one_line_and_status_two(score_game, stdin, line):
    assert refused(score_game("-", stdin=stdin)) == line


def test_it_refuses_a_record_nested_deeply_inside_an_object(score_game):
    nested = b'{"players": ' + b'{"a": ' * 50_000 + b"1" + b"}" * 50_000 + b"}"
    assert refused(score_game("-", stdin=nested)) == "record: the JSON is nested too deeply"


def test_it_refuses_a_missing_file(score_game, tmp_path):
    missing = tmp_path / "no-such-record.json"
    assert refused(score_game(str(missing))) == f"{missing}: cannot read the file: No such file or directory"


def test_it_refuses_a_directory(score_game, tmp_path):
    assert refused(score_game(str(tmp_path))) == f"{tmp_path}: cannot read the file: Is a directory"


def test_it_refuses_a_non_utf8_file(score_game, tmp_path):
    record = tmp_path / "latin1.json"
    record.write_bytes('{"players": {"N": "Åsa"}, "hands": []}'.encode("latin-1"))
    assert refused(score_game(str(record))) == "record: the file is not UTF-8 text"
