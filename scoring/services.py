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
from scoring.models import Game, GameSeat, Hand, HandChange
from scoring.rules import GameResult, RecordError, parse_hand, parse_settings, score_game


class HandConflict(Exception):
    """Another phone saved this hand number first; the caller should show what is there now."""

    def __init__(self, number: int) -> None:
        super().__init__(f"hand {number} was saved by someone else a moment ago")
        self.number = number


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
) -> Game:
    """Start a game; its settings are checked by the engine first (RecordError names the field)."""
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

    The same `submission_id` twice returns the hand already saved (a double tap is one hand).
    If hand `number` exists already (another phone was quicker), HandConflict is raised and
    nothing is written. A hand the rules refuse raises RecordError and nothing is written.
    """
    try:
        with transaction.atomic():
            locked = Game.objects.select_for_update().get(pk=game.pk)
            rows = list(locked.hands.order_by("number"))
            same = next((row for row in rows if submission_id and row.submission_id == submission_id), None)
            if same is not None:
                # The caller's game may have been read before that save: show what is stored now.
                _copy_summary(locked, game)
                return same
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
                game.refresh_from_db()
                return same
        raise HandConflict(number) from None
    _copy_summary(locked, game)
    return hand


@transaction.atomic
def edit_hand(*, game: Game, number: int, data: Mapping[str, Any], actor: Actor | None = None) -> Hand:
    """Replace hand `number` and rescore everything after it; the audit trail keeps the old hand.

    Refused (RecordError, nothing written) if the corrected game is invalid, including when the
    correction would end the game before hands that are already recorded.
    """
    locked = Game.objects.select_for_update().get(pk=game.pk)
    rows = list(locked.hands.order_by("number"))
    target = next((row for row in rows if row.number == number), None)
    if target is None:
        raise Hand.DoesNotExist(f"hand {number} does not exist")
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
def delete_last_hand(*, game: Game, actor: Actor | None = None) -> int | None:
    """Delete the game's last hand (kept in the audit trail); returns its number, or None."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    rows = list(locked.hands.order_by("number"))
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
    "HandConflict",
    "RecordError",
    "create_game",
    "delete_last_hand",
    "edit_hand",
    "game_record",
    "players_of",
    "preview_hand",
    "record_hand",
    "score",
]
