"""Every write of a game's hands: `record_hand` (idempotent by submission id), `edit_hand` and
`delete_last_hand`, each under the game's lock (`lock_game`) and scored whole before anything is
saved."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.audit import Actor, record_hand_change
from scoring.models import Game, GameSeat, Hand, HandChange
from scoring.rules.engine import GameResult
from scoring.rules.tables import SEAT_ORDER
from scoring.services.confirm import count_unconfirmed
from scoring.services.plans import end_on_the_clock
from scoring.services.results import SETTINGS_FIELDS, SUMMARY_FIELDS, Stored, score, store_result


class HandConflict(Exception):
    """Another phone saved this hand number first; the caller should show what is there now."""

    def __init__(self, number: int) -> None:
        super().__init__(f"hand {number} was saved by someone else a moment ago")
        self.number = number


class SubmissionReused(Exception):
    """This form's submission id already saved a hand, with different content (the reply was lost
    and the entry changed, or the form came back with Back). Nothing is written: the caller shows
    what is stored and offers the new values as a correction of that hand."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(f"this form already saved hand {hand.number}, with other values")
        self.hand = hand


class QuestionGone(Exception):
    """A question asked again (the phone sent the values it still holds for an open question) whose
    submission id no longer saved a stored hand: that hand was deleted, or taken back by Undo.
    Nothing is written: the player answered nothing, so the values are never saved by themselves."""

    def __init__(self, number: int) -> None:
        super().__init__(f"the hand the question was about (hand {number}) is no longer stored")
        self.number = number


class GameMovedOn(Exception):
    """The hand a correction or deletion was meant for is no longer what the caller saw: `current`
    is the game's number of hands now. Nothing is written."""

    def __init__(self, *, expected: int, current: int) -> None:
        super().__init__(f"expected hand {expected}, the game now has {current} hands")
        self.expected = expected
        self.current = current


def lock_game(game: Game) -> tuple[list[GameSeat], list[Hand]]:
    """Inside a write's transaction: lock the game's seat rows (_lock_seats) and read its hands in order."""
    return _lock_seats(game), list(Hand.objects.filter(game_id=game.pk).order_by("number"))


def _lock_seats(game: Game) -> list[GameSeat]:
    """Inside a write's transaction: lock the game's seat rows (every write of hands takes this
    lock first, so writes of one game follow each other) and return them in seat order.

    The settings can change after Start (scoring/game_settings.py, under this lock): they are
    read again once the lock is held and copied onto the caller's Game, so a hand is never scored
    with settings another phone changed a moment ago. (A query of its own: joined to the locking
    query, PostgreSQL would return the game row as it was before the wait for the lock.)
    """
    # Sorted in Python: the locking query stays a plain SELECT … FOR UPDATE of the seat rows.
    locked = GameSeat.objects.select_for_update().filter(game_id=game.pk).order_by()
    seat_rows = sorted(locked, key=lambda row: SEAT_ORDER.index(row.seat))
    if not seat_rows:
        raise Game.DoesNotExist(f"game {game.code} does not exist")
    # The planner's clock too (scoring/services/plans.py): an organiser may call the last hand meanwhile;
    # the signatures and the count of hands waiting for their OK (scoring/services/confirm.py): a
    # side may have signed or confirmed meanwhile; and the summary and version the write starts
    # from (another phone may have saved meanwhile). The writes need the game read no further.
    fields = [
        *SETTINGS_FIELDS,
        *SUMMARY_FIELDS,
        "updated_at",
        "last_hand_from",
        "unconfirmed_hands",
        "signed_at",
    ]
    game.refresh_from_db(fields=fields)  # the base manager: a hidden game too
    return seat_rows


def record_hand(
    *,
    game: Game,
    number: int,
    data: Mapping[str, Any],
    submission_id: uuid.UUID | None = None,
    meld_mode: str | None = None,
    asked_again: bool = False,
) -> Stored:
    """Save hand `number` of the game; returns what was stored (with the engine's result).

    `meld_mode` (items or quick points), when given, is kept for the game's next hand in the same
    transaction as the hand.

    The same `submission_id` twice with the same hand returns the hand already saved (a double
    tap is one hand; `Stored.result` is then the game as it stands); with a different hand it
    raises SubmissionReused and writes nothing. If hand `number` exists already (another phone
    was quicker), HandConflict is raised and nothing is written. A hand the rules refuse raises
    RecordError and nothing is written.

    `asked_again`: the values of a question still open on the phone, sent again to ask it again.
    They are never saved as a new hand: if the submission id no longer matches a stored hand,
    QuestionGone is raised and nothing is written.
    """
    try:
        with transaction.atomic():
            seat_rows = _lock_seats(game)
            # The hands' objects and submission ids only: no model instances to build.
            rows = list(
                Hand.objects.filter(game_id=game.pk)
                .order_by("number")
                .values_list("number", "data", "submission_id", "confirmed_at")
            )
            if submission_id is not None:
                same = next((row[0] for row in rows if row[2] == submission_id), None)
                if same is not None:
                    repeat = _same_submission(game, Hand.objects.get(game=game, number=same), data)
                    _keep_meld_mode(game, meld_mode)
                    return repeat
            if asked_again:
                raise QuestionGone(number)
            if number != len(rows) + 1:
                raise HandConflict(number)
            if game.last_hand_from is not None:
                end_on_the_clock(game, number, timezone.now())
            hand_data = [row[1] for row in rows]
            hand_data.append(dict(data))
            result = score(game, hand_data)
            hand = Hand.objects.create(game=game, number=number, data=dict(data), submission_id=submission_id)
            # The new hand waits for the other side's OK (saved with the summary, one write).
            count_unconfirmed(game, [*(row[3] for row in rows), None])
            store_result(
                game=game,
                result=result,
                hand_data=hand_data,
                seat_rows=seat_rows,
                first_changed=number,
                appended=True,
            )
            _keep_meld_mode(game, meld_mode)
    except IntegrityError:
        # The unique constraints caught a concurrent save of the same number or submission.
        meanwhile = _saved_meanwhile(game, submission_id, data, meld_mode)
        if meanwhile is None:
            raise HandConflict(number) from None
        return meanwhile
    return Stored(hand, hand_data, seat_rows, result)


def _saved_meanwhile(
    game: Game, submission_id: uuid.UUID | None, data: Mapping[str, Any], meld_mode: str | None
) -> Stored | None:
    """After the save's transaction rolled back on a unique constraint: if this submission was
    saved meanwhile (the same form sent twice at once), it is answered as saved, and the meld entry
    the table chose is kept as on any save, in a transaction of its own; None if it was not."""
    if submission_id is None:
        return None
    with transaction.atomic():
        saved = Hand.objects.filter(game=game, submission_id=submission_id).first()
        if saved is None:
            return None
        repeat = _same_submission(game, saved, data)
        _keep_meld_mode(game, meld_mode)
        return repeat


def _current(game: Game) -> tuple[list[dict[str, Any]], list[GameSeat], GameResult]:
    hand_data = [row.data for row in game.hands.order_by("number")]
    return hand_data, list(game.seat_rows.all()), score(game, hand_data)


def _same_submission(game: Game, stored: Hand, data: Mapping[str, Any]) -> Stored:
    """A submission id seen before: the same hand again is a repeat (answered with the game as it
    stands, the caller's Game brought up to date), another hand is refused."""
    if stored.data != dict(data):
        raise SubmissionReused(stored)
    game.refresh_from_db(fields=[*SUMMARY_FIELDS, "updated_at"])
    return Stored(stored, *_current(game))


def find_submission(*, game: Game, submission_id: uuid.UUID | None) -> Hand | None:
    """The hand this submission id saved, if any (a preview uses it to say the form was saved)."""
    if submission_id is None:
        return None
    return Hand.objects.filter(game=game, submission_id=submission_id).first()


@transaction.atomic
def edit_hand(
    *, game: Game, number: int, data: Mapping[str, Any], actor: Actor | None = None, confirmed: bool = False
) -> Stored:
    """Replace hand `number` and rescore everything after it; the audit trail keeps the old hand.

    In a game whose hands the other side confirms, a changed hand waits for their OK again, unless
    `confirmed` (an organiser's correction: the organiser's word is final).

    Refused (RecordError, nothing written) if the corrected game is invalid, including when the
    correction would end the game before hands that are already recorded. Refused with
    GameMovedOn (checked under the game's lock) when hand `number` no longer exists: another
    phone deleted it while this correction was on its way.
    """
    seat_rows, rows = lock_game(game)
    target = next((row for row in rows if row.number == number), None)
    if target is None:
        raise GameMovedOn(expected=number, current=len(rows))
    hand_data = [dict(data) if row.number == number else row.data for row in rows]
    result = score(game, hand_data)
    if target.data != dict(data):
        record_hand_change(
            game=game,
            hand_number=number,
            action=HandChange.Action.EDIT,
            old_data=target.data,
            new_data=data,
            actor=actor,
        )
    fields = ["data", "updated_at"]
    if game.confirm_hands and target.data != dict(data):
        target.confirmed_at = timezone.now() if confirmed else None
        fields.append("confirmed_at")
    target.data = dict(data)
    target.save(update_fields=fields)
    count_unconfirmed(game, (row.confirmed_at for row in rows))
    store_result(game=game, result=result, hand_data=hand_data, seat_rows=seat_rows, first_changed=number)
    return Stored(target, hand_data, seat_rows, result)


@transaction.atomic
def delete_last_hand(*, game: Game, actor: Actor | None = None, expected: int | None = None) -> int | None:
    """Delete the game's last hand (kept in the audit trail); returns its number, or None when the
    game has no hand (the one place that decides it, under the game's lock).

    With `expected` (the number the person saw as the last hand), GameMovedOn is raised and
    nothing is deleted unless the last hand is still that one; checked under the game's lock, so
    a hand saved a moment earlier by another phone is never the one deleted.
    """
    seat_rows, rows = lock_game(game)
    if not rows:
        return None
    if expected is not None and expected != len(rows):
        raise GameMovedOn(expected=expected, current=len(rows))
    last = rows.pop()
    record_hand_change(
        game=game,
        hand_number=last.number,
        action=HandChange.Action.DELETE,
        old_data=last.data,
        new_data=None,
        actor=actor,
    )
    last.delete()
    hand_data = [row.data for row in rows]
    result = score(game, hand_data)
    count_unconfirmed(game, (row.confirmed_at for row in rows))
    store_result(
        game=game, result=result, hand_data=hand_data, seat_rows=seat_rows, first_changed=last.number
    )
    return last.number


def _keep_meld_mode(game: Game, mode: str | None) -> None:
    """Keep the meld entry (items or quick points) the table used, for the game's next hand.

    A preference, not a change of the game: the summary, `updated_at` and the live poll's ETag stay."""
    if mode and mode != game.meld_mode and mode in Game.MeldMode.values:
        Game.objects.filter(pk=game.pk).update(meld_mode=mode)
        game.meld_mode = mode
