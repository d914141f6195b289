"""Writes and the reads that score: every change of hands goes through here.

One way through: `rules.check_record` checks a record and returns the engine's result (`score` asks
it for a stored game); `store_result` writes that result, the game's summary and its derived
statistics, in the transaction that changed the hands. Each write checks the whole game before
anything is saved, so a refused hand writes nothing, and it returns what it stored (`Stored`) so
the page can be drawn without scoring the game again.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from scoring import signals, stats
from scoring.audit import Actor, record_hand_change
from scoring.models import Game, GameSeat, GameSetup, Hand, HandChange
from scoring.rules import GameResult, RecordError, check_record, parse_settings, score_game
from scoring.rules.tables import SEAT_ORDER


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


class GameMovedOn(Exception):
    """The hand a correction or deletion was meant for is no longer what the caller saw: `current`
    is the game's number of hands now. Nothing is written."""

    def __init__(self, *, expected: int, current: int) -> None:
        super().__init__(f"expected hand {expected}, the game now has {current} hands")
        self.expected = expected
        self.current = current


def players_of(game: Game) -> dict[str, str]:
    """Names by seat, in seat order; a seat with no name is left out."""
    # all(): a prefetch of seat_rows answers it without a query.
    return {row.seat: row.name for row in game.seat_rows.all() if row.name}


def game_record(game: Game, hands: Sequence[Hand] | None = None) -> dict[str, Any]:
    """The whole game as a game record (docs/record-format.md) (JSON-ready)."""
    rows = list(game.hands.order_by("number")) if hands is None else hands
    return {
        **game.settings_record(),
        "players": players_of(game),
        "hands": [row.data for row in rows],
    }


def score(game: Game, hand_data: Sequence[Mapping[str, Any]] | None = None) -> GameResult:
    """The engine's result for the game's stored hands (or the given hand objects)."""
    if hand_data is None:
        hand_data = [row.data for row in game.hands.order_by("number")]
    return check_record({**game.settings_record(), "hands": list(hand_data)})


@dataclass(frozen=True)
class Stored:
    """What a write of one hand left: the hand, the game's hand objects in order,
    its seats and the engine's result for them, which the page is drawn from."""

    hand: Hand
    hand_data: list[dict[str, Any]]
    seat_rows: list[GameSeat]
    result: GameResult

    @property
    def players(self) -> dict[str, str]:
        return {row.seat: row.name for row in self.seat_rows if row.name}


def preview_hand(
    *, game: Game, data: Mapping[str, Any], stored: Sequence[Mapping[str, Any]], replace: int | None = None
) -> GameResult:
    """Score the stored hands with a candidate hand, writing nothing.

    The candidate is the next hand, or replaces hand `replace` (a correction). RecordError when
    the rules refuse it, as record_hand and edit_hand would.
    """
    hands = [dict(hand) for hand in stored]
    if replace is not None and 1 <= replace <= len(hands):
        hands[replace - 1] = dict(data)
    else:
        hands.append(dict(data))
    return score(game, hands)


@transaction.atomic
def create_game(
    *,
    seats: int,
    variant: str,
    deck: str,
    target: int | None,
    min_bid: int | None,
    first_dealer: str,
    meld_needs_trick: bool,
    players: Mapping[str, str],
    setup_token: uuid.UUID | None = None,
    deals: int | None = None,
) -> Game:
    """Start a game; its settings are checked by the engine first (RecordError names the field).

    `deals`: a game of that many deals (docs/rules.md, "A fixed number of deals"); None plays to
    the target.

    `setup_token` is the setup form's one-time token: a second game with the same token is refused
    by a unique constraint (IntegrityError), so the caller opens the first one instead.
    """
    game = Game(
        seats=seats,
        variant=variant,
        deck=deck,
        target=target,
        min_bid=min_bid,
        first_dealer=first_dealer,
        meld_needs_trick=meld_needs_trick,
        deals=deals,
    )
    settings = parse_settings({**game.settings_record(), "players": dict(players)})
    game.save()
    if setup_token is not None:
        GameSetup.objects.create(token=setup_token, game=game)
    seat_rows = GameSeat.objects.bulk_create(
        GameSeat(game=game, seat=seat, name=settings.players.get(seat, "").strip())
        for seat in settings.seat_letters
    )
    store_result(
        game=game, result=score_game(settings, []), hand_data=[], seat_rows=seat_rows, first_changed=1
    )
    return game


def _lock(game: Game) -> tuple[list[GameSeat], list[Hand]]:
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
    fresh = Game.all_objects.filter(pk=game.pk).values_list(*SETTINGS_FIELDS).get()
    for name, value in zip(SETTINGS_FIELDS, fresh, strict=True):
        setattr(game, name, value)
    return seat_rows


def record_hand(
    *,
    game: Game,
    number: int,
    data: Mapping[str, Any],
    submission_id: uuid.UUID | None = None,
    meld_mode: str | None = None,
) -> Stored:
    """Save hand `number` of the game; returns what was stored (with the engine's result).

    `meld_mode` (items or quick points), when given, is kept for the game's next hand in the same
    transaction as the hand.

    The same `submission_id` twice with the same hand returns the hand already saved (a double
    tap is one hand; `Stored.result` is then the game as it stands); with a different hand it
    raises SubmissionReused and writes nothing. If hand `number` exists already (another phone
    was quicker), HandConflict is raised and nothing is written. A hand the rules refuse raises
    RecordError and nothing is written.
    """
    try:
        with transaction.atomic():
            seat_rows = _lock_seats(game)
            # The hands' objects and submission ids only: no model instances to build.
            rows = list(
                Hand.objects.filter(game_id=game.pk)
                .order_by("number")
                .values_list("number", "data", "submission_id")
            )
            if submission_id is not None:
                same = next((row[0] for row in rows if row[2] == submission_id), None)
                if same is not None:
                    repeat = _same_submission(game, Hand.objects.get(game=game, number=same), data)
                    _keep_meld_mode(game, meld_mode)
                    return repeat
            if number != len(rows) + 1:
                raise HandConflict(number)
            hand_data = [row[1] for row in rows]
            hand_data.append(dict(data))
            result = score(game, hand_data)
            hand = Hand.objects.create(game=game, number=number, data=dict(data), submission_id=submission_id)
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
        if submission_id is not None:
            saved = Hand.objects.filter(game=game, submission_id=submission_id).first()
            if saved is not None:
                repeat = _same_submission(game, saved, data)
                _keep_meld_mode(game, meld_mode)
                return repeat
        raise HandConflict(number) from None
    return Stored(hand, hand_data, seat_rows, result)


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
def edit_hand(*, game: Game, number: int, data: Mapping[str, Any], actor: Actor | None = None) -> Stored:
    """Replace hand `number` and rescore everything after it; the audit trail keeps the old hand.

    Refused (RecordError, nothing written) if the corrected game is invalid, including when the
    correction would end the game before hands that are already recorded. Refused with
    GameMovedOn (checked under the game's lock) when hand `number` no longer exists: another
    phone deleted it while this correction was on its way.
    """
    seat_rows, rows = _lock(game)
    target = next((row for row in rows if row.number == number), None)
    if target is None:
        game.refresh_from_db(fields=[*SUMMARY_FIELDS, "updated_at"])
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
    target.data = dict(data)
    target.save(update_fields=["data", "updated_at"])
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
    seat_rows, rows = _lock(game)
    if not rows:
        return None
    if expected is not None and expected != len(rows):
        game.refresh_from_db(fields=[*SUMMARY_FIELDS, "updated_at"])
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
    store_result(
        game=game, result=result, hand_data=hand_data, seat_rows=seat_rows, first_changed=last.number
    )
    return last.number


@transaction.atomic
def delete_game(*, game: Game) -> None:
    """Delete a game with its seats, hands, corrections and statistics (they cascade); the
    ratings of its scopes are worked out again (ratings/receivers.py listens to the deletion)."""
    game.delete()


SUMMARY_FIELDS = ("hand_count", "finished", "winner", "scores", "chip_totals")
#: The game's settings that may change after Start (scoring/game_settings.py); seats, variant
#: and deck never change.
SETTINGS_FIELDS = ("target", "min_bid", "first_dealer", "meld_needs_trick")


def summary_fields(result: GameResult) -> dict[str, Any]:
    """A game's cached summary (Game.hand_count ... chip_totals) for the engine's result: the one
    definition, written by store_result and by league.services.store_games' bulk insert."""
    return {
        "hand_count": len(result.hands),
        "finished": result.finished,
        "winner": result.winner or "",
        "scores": dict(result.scores),
        "chip_totals": dict(result.chips),
    }


def store_result(
    *,
    game: Game,
    result: GameResult,
    hand_data: Sequence[Mapping[str, Any]],
    seat_rows: Sequence[GameSeat] | None = None,
    first_changed: int = 1,
    appended: bool = False,
    notify: bool = True,
) -> None:
    """Write a checked result: the game's summary (on `game` too) and its derived statistics.

    Called inside the transaction that changed the hands, so hands, summary and statistics never
    disagree. `hand_data` are the hand objects the engine scored; `appended` says the change
    only added hand `first_changed` at the end (no statistics rows to remove). `notify=False`
    leaves out `signals.game_changed`: the caller sends `signals.games_changed` for many games.
    """
    for name, value in summary_fields(result).items():
        setattr(game, name, value)
    game.save(update_fields=[*SUMMARY_FIELDS, "updated_at"])
    stats.refresh_game(
        game, result, hand_data=hand_data, seat_rows=seat_rows, first_changed=first_changed, appended=appended
    )
    # Derived data of other apps (ratings). A hand appended to a game was appended to a game in
    # progress (the engine refuses a hand after the end), so `was_finished` is known to be False.
    if notify:
        signals.game_changed.send(sender=Game, game=game, was_finished=False if appended else None)


def _keep_meld_mode(game: Game, mode: str | None) -> None:
    """Keep the meld entry (items or quick points) the table used, for the game's next hand.

    A preference, not a change of the game: the summary, `updated_at` and the live poll's ETag stay."""
    if mode and mode != game.meld_mode and mode in Game.MeldMode.values:
        Game.objects.filter(pk=game.pk).update(meld_mode=mode)
        game.meld_mode = mode


__all__ = [
    "SETTINGS_FIELDS",
    "SUMMARY_FIELDS",
    "GameMovedOn",
    "HandConflict",
    "RecordError",
    "Stored",
    "SubmissionReused",
    "create_game",
    "delete_game",
    "delete_last_hand",
    "edit_hand",
    "find_submission",
    "game_record",
    "players_of",
    "preview_hand",
    "record_hand",
    "score",
    "store_result",
    "summary_fields",
]
