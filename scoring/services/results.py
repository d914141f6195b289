"""The reads that score and the one writer of a game's result: `score` asks the engine
(`rules.engine.check_record`) for a stored game, `store_result` writes its summary and derived statistics
in the transaction that changed the hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring import signals, stats
from scoring.models import Game, GameSeat, Hand
from scoring.rules.engine import GameResult, check_record
from scoring.services.confirm import drop_stale_signatures


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


SUMMARY_FIELDS = ("hand_count", "finished", "winner", "scores", "chip_totals")
#: The game's settings that may change after Start (scoring/game_settings.py); seats, variant
#: and deck never change.
SETTINGS_FIELDS = (
    "target",
    "min_bid",
    "first_dealer",
    "meld_needs_trick",
    "deals",
    "bid_steps",
    "meld_counts_from",
    "spread",
    "scale",
)


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
    before = (game.finished, game.winner, game.scores)
    for name, value in summary_fields(result).items():
        setattr(game, name, value)
    # One write of the game row: the count of hands waiting for their OK comes with it, set on
    # `game` by the caller (`confirm.count_unconfirmed`).
    waiting = ["unconfirmed_hands"] if game.confirm_hands else []
    game.save(update_fields=[*SUMMARY_FIELDS, "updated_at", *waiting, *drop_stale_signatures(game, before)])
    stats.refresh_game(
        game, result, hand_data=hand_data, seat_rows=seat_rows, first_changed=first_changed, appended=appended
    )
    # Derived data of other apps (ratings, a night's plan). Whether the game was over before the
    # change is known (the caller read the game under its lock): a correction of a game in
    # progress that leaves it in progress changes nothing they derive from a finished game.
    if notify:
        signals.game_changed.send(sender=Game, game=game, was_finished=before[0])
