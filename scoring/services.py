"""Writes and the reads that score: every change of hands goes through here.

Each write checks the whole game with the rules engine before anything is saved, so a refused
hand writes nothing, and it rewrites the game's cached summary in the same transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction

from scoring import stats
from scoring.audit import Actor, record_hand_change
from scoring.models import Game, GameSeat, GameSetup, Hand, HandChange
from scoring.rules import GameResult, RecordError, parse_hand, parse_settings, score_game


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
    """Score the game's stored hands (or the given hand objects) with the rules engine."""
    settings = parse_settings(game.settings_record())
    if hand_data is None:
        hand_data = [row.data for row in game.hands.order_by("number")]
    hands = [parse_hand(data, number, settings) for number, data in enumerate(hand_data, start=1)]
    return score_game(settings, hands)


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
) -> Game:
    """Start a game; its settings are checked by the engine first (RecordError names the field).

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
    )
    settings = parse_settings({**game.settings_record(), "players": dict(players)})
    game.save()
    if setup_token is not None:
        GameSetup.objects.create(token=setup_token, game=game)
    GameSeat.objects.bulk_create(
        GameSeat(game=game, seat=seat, name=settings.players.get(seat, "").strip())
        for seat in settings.seat_letters
    )
    _store_summary(game, score_game(settings, []), hand_data=[], first_changed=1)
    return game


def record_hand(
    *, game: Game, number: int, data: Mapping[str, Any], submission_id: uuid.UUID | None = None
) -> Hand:
    """Save hand `number` of the game.

    The same `submission_id` twice with the same hand returns the hand already saved (a double
    tap is one hand); with a different hand it raises SubmissionReused and writes nothing.
    If hand `number` exists already (another phone was quicker), HandConflict is raised and
    nothing is written. A hand the rules refuse raises RecordError and nothing is written.
    """
    try:
        with transaction.atomic():
            locked = Game.objects.select_for_update().get(pk=game.pk)
            rows = list(locked.hands.order_by("number"))
            same = next((row for row in rows if submission_id and row.submission_id == submission_id), None)
            if same is not None:
                return _same_submission(same, data)
            if number != len(rows) + 1:
                raise HandConflict(number)
            hand_data = [row.data for row in rows] + [dict(data)]
            result = score(locked, hand_data)
            hand = Hand.objects.create(
                game=locked, number=number, data=dict(data), submission_id=submission_id
            )
            _store_summary(locked, result, hand_data=hand_data, first_changed=number)
    except IntegrityError:
        # The unique constraints caught a concurrent save of the same number or submission.
        if submission_id is not None:
            same = Hand.objects.filter(game=game, submission_id=submission_id).first()
            if same is not None:
                return _same_submission(same, data)
        raise HandConflict(number) from None
    _copy_summary(locked, game)
    return hand


def _same_submission(stored: Hand, data: Mapping[str, Any]) -> Hand:
    """A submission id seen before: the same hand again is a repeat, another hand is refused."""
    if stored.data != dict(data):
        raise SubmissionReused(stored)
    return stored


def find_submission(*, game: Game, submission_id: uuid.UUID | None) -> Hand | None:
    """The hand this submission id saved, if any (a preview uses it to say the form was saved)."""
    if submission_id is None:
        return None
    return Hand.objects.filter(game=game, submission_id=submission_id).first()


@transaction.atomic
def edit_hand(
    *,
    game: Game,
    number: int,
    data: Mapping[str, Any],
    actor: Actor | None = None,
) -> Hand:
    """Replace hand `number` and rescore everything after it; the audit trail keeps the old hand.

    Refused (RecordError, nothing written) if the corrected game is invalid, including when the
    correction would end the game before hands that are already recorded. Refused with
    GameMovedOn (checked under the game's lock) when hand `number` no longer exists: another
    phone deleted it while this correction was on its way.
    """
    locked = Game.objects.select_for_update().get(pk=game.pk)
    rows = list(locked.hands.order_by("number"))
    target = next((row for row in rows if row.number == number), None)
    if target is None:
        _copy_summary(locked, game)
        raise GameMovedOn(expected=number, current=len(rows))
    hand_data = [dict(data) if row.number == number else row.data for row in rows]
    result = score(locked, hand_data)
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
    _store_summary(locked, result, hand_data=hand_data, first_changed=number)
    _copy_summary(locked, game)
    return target


@transaction.atomic
def delete_last_hand(*, game: Game, actor: Actor | None = None, expected: int | None = None) -> int | None:
    """Delete the game's last hand (kept in the audit trail); returns its number, or None.

    With `expected` (the number the person saw as the last hand), GameMovedOn is raised and
    nothing is deleted unless the last hand is still that one; checked under the game's lock, so
    a hand saved a moment earlier by another phone is never the one deleted.
    """
    locked = Game.objects.select_for_update().get(pk=game.pk)
    rows = list(locked.hands.order_by("number"))
    if expected is not None and expected != len(rows):
        _copy_summary(locked, game)
        raise GameMovedOn(expected=expected, current=len(rows))
    if not rows:
        return None
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
    _store_summary(locked, score(locked, hand_data), hand_data=hand_data, first_changed=last.number)
    _copy_summary(locked, game)
    return last.number


def _store_summary(
    game: Game, result: GameResult, *, hand_data: Sequence[Mapping[str, Any]], first_changed: int
) -> None:
    game.hand_count = len(result.hands)
    game.finished = result.finished
    game.winner = result.winner or ""
    game.scores = dict(result.scores)
    game.chip_totals = dict(result.chips)
    game.save(update_fields=["hand_count", "finished", "winner", "scores", "chip_totals", "updated_at"])
    stats.refresh_game(game, result, hand_data=hand_data, first_changed=first_changed)


_SUMMARY_FIELDS = ("hand_count", "finished", "winner", "scores", "chip_totals", "updated_at")


def _copy_summary(source: Game, target: Game) -> None:
    """Bring the caller's Game up to date without another query (was refresh_from_db)."""
    for name in _SUMMARY_FIELDS:
        setattr(target, name, getattr(source, name))


__all__ = [
    "GameMovedOn",
    "HandConflict",
    "RecordError",
    "SubmissionReused",
    "create_game",
    "delete_last_hand",
    "edit_hand",
    "find_submission",
    "game_record",
    "players_of",
    "preview_hand",
    "record_hand",
    "score",
]
