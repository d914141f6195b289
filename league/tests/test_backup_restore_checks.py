"""What `restore` checks beyond each row: what is derived from the hands (a game's summary, its
statistics, the ratings) must be what the hands give, or standings would be faked; a compressed
file may not grow past `RESTORE_MAX_BYTES`; the task queue and waiting uploads are neither backed
up nor restored, and an import that had not ended comes back ended as stopped; a game's signatures
name its sides and sign it when the last side did, each of the game as it ended with every hand
OK'd, and its count of hands waiting for their OK is what its hands give; and the operator is
told which accounts can sign in with power."""

from __future__ import annotations

import datetime
import gzip
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from clubs.models import Club
from league.models import ImportBatch, ImportFile
from nights.models import Night
from scoring.models import Game, GameSignature, Hand
from scoring.services.confirm import confirm_hand, sign_game
from scoring.services.hands import edit_hand, record_hand
from tests.access_helpers import CLUB
from tests.helpers import quick_hand, standard_game

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


def test_a_restore_names_the_superusers_and_the_staff_accounts(people, tmp_path):
    people.superuser()
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


def a_game_of_confirmed_hands_signed_by(*sides: str) -> Game:
    """A finished game of two hands, each OK'd by the other side, signed by `sides` in that order."""
    game = standard_game(deals=2, sign_at_end=True, confirm_hands=True)
    for number, hand in ((1, quick_hand()), (2, quick_hand(bidder="E"))):
        record_hand(game=game, number=number, data=hand)
        confirm_hand(game=game, number=number)
    for side in sides:
        sign_game(game=game, side=side)
    return game


@pytest.mark.parametrize(
    ("hand", "signature", "said"),
    [
        ({"confirmed_at": None}, {}, "signed, but hand 2 still waits for the other side's OK"),
        (
            {"confirmed_at": "2099-01-01T20:00:00Z"},
            {},
            "before hand 2 was confirmed at 2099-01-01T20:00:00+00:00",
        ),
        (
            {},
            {"signed_at": "2000-01-01T20:00:00Z"},
            "signed for EW at 2000-01-01T20:00:00+00:00, before its last hand (hand 2) was saved at",
        ),
    ],
)
def test_a_signature_while_a_hand_waited_for_its_ok_or_before_the_game_ended_is_refused(
    hand, signature, said, tmp_path
):
    game = a_game_of_confirmed_hands_signed_by("EW", "NS")
    backup = rows(back_up(tmp_path))
    the_row(backup, "scoring.hand", 1)["fields"].update(hand)
    if hand.get("confirmed_at", "") is None:  # the game's count says so too: only the signature is wrong
        next(r for r in backup if r["model"] == "scoring.game" and r["pk"] == game.pk)["fields"][
            "unconfirmed_hands"
        ] = 1
    first = the_row(backup, "scoring.gamesignature")
    assert first["fields"]["side"] == "EW"
    first["fields"].update(signature)
    fresh_database()
    message = restore_refused(write(tmp_path, backup))
    assert f"scoring.Game id {game.pk}: " in message and said in message


def test_a_count_of_hands_waiting_for_their_ok_the_hands_do_not_give_is_refused(tmp_path):
    game = a_game_of_confirmed_hands_signed_by()
    backup = rows(back_up(tmp_path))
    next(r for r in backup if r["model"] == "scoring.game" and r["pk"] == game.pk)["fields"][
        "unconfirmed_hands"
    ] = 1
    fresh_database()
    message = restore_refused(write(tmp_path, backup))
    assert f"scoring.Game id {game.pk}, field 'unconfirmed_hands': the hands give 0" in message


def test_a_game_corrected_after_its_signatures_comes_back_signed_as_it_was(tmp_path):
    # One side signed, then the table corrected a hand without changing the result: the signature
    # stays and the hand waits for its OK again. Both sides signed, then the organiser corrected a
    # hand: OK'd at once, after the signatures. Both are games the app keeps: restored as they were.
    one_side = a_game_of_confirmed_hands_signed_by("EW")
    edit_hand(game=one_side, number=1, data=quick_hand(bid=25))
    assert one_side.unconfirmed_hands == 1 and one_side.signatures.count() == 1
    both = a_game_of_confirmed_hands_signed_by("EW", "NS")
    edit_hand(game=both, number=1, data=quick_hand(ns_meld=20), confirmed=True)
    assert both.signed_at is not None and both.signatures.count() == 2
    before = list(GameSignature.objects.values_list("game", "side", "signed_at"))
    waiting = list(Hand.objects.filter(confirmed_at=None).values_list("game", "number"))
    path = back_up(tmp_path)
    fresh_database()
    restore(path)
    assert list(GameSignature.objects.values_list("game", "side", "signed_at")) == before
    assert list(Hand.objects.filter(confirmed_at=None).values_list("game", "number")) == waiting
    assert waiting == [(one_side.pk, 1)]


def a_night_with_a_swap(people) -> Night:
    """A rotating night of three rounds, round 2 swapped by hand, whose round 3 was planned."""
    return Night.objects.create(
        club=Club.objects.get(pk=CLUB), played_on=datetime.date(2026, 3, 5), variant="standard",
        deck="single", target=100, rounds=3, round_ends="game", swapped_rounds={"2": "0123456789abcdef"},
        planned_from="0123456789abcdef:fedcba9876543210", results_changed_round=3,
    )  # fmt: skip


SWAPS_SAID = "rounds of this night (1 to 3), each with the 16 hexadecimal digits"


def test_a_nights_plan_state_comes_back_as_it_was(people, tmp_path):
    night = a_night_with_a_swap(people)
    path = back_up(tmp_path)
    fresh_database()
    restore(path)
    restored = Night.objects.get(pk=night.pk)
    assert restored.swapped_rounds == {"2": "0123456789abcdef"}
    assert restored.planned_from == night.planned_from and restored.results_changed_round == 3


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("swapped_rounds", ["x", {"a": 1}], SWAPS_SAID),
        ("swapped_rounds", [2], SWAPS_SAID),
        ("swapped_rounds", {"4": "0123456789abcdef"}, SWAPS_SAID),
        ("swapped_rounds", {"x": "0123456789abcdef"}, SWAPS_SAID),
        ("swapped_rounds", {"02": "0123456789abcdef"}, SWAPS_SAID),
        ("swapped_rounds", {"²": "0123456789abcdef"}, SWAPS_SAID),
        ("swapped_rounds", {"2": 2}, SWAPS_SAID),
        ("swapped_rounds", {"2": "not a fingerprint"}, SWAPS_SAID),
        ("results_changed_round", 9, "empty or a round of this night from 2 to 3"),
        ("results_changed_round", 1, "empty or a round of this night from 2 to 3"),
        ("planned_from", "not a fingerprint", "two groups of 16 hexadecimal digits joined by a colon"),
    ],
)
def test_a_nights_plan_state_in_another_shape_is_refused_naming_the_night_and_field(
    field, value, said, people, tmp_path
):
    night = a_night_with_a_swap(people)
    backup = rows(back_up(tmp_path))
    the_row(backup, "nights.night")["fields"][field] = value
    fresh_database()
    message = restore_refused(write(tmp_path, backup))
    assert f"nights.Night id {night.pk}, field {field!r}" in message and said in message
