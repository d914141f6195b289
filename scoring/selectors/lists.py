"""The games list: the latest games a visitor may read, in progress and finished, with who
plays at which seat."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.models import Game

#: How many of the latest games the list shows.
LIST_LIMIT = 100


@dataclass(frozen=True)
class GameRow:
    """One game of the list: who sits where (seat letter, typed name or ""), and the variant as
    it is played (Check Pinochle asked for with a double deck is played as Standard, without chips)."""

    game: Game
    seats: list[tuple[str, str]]
    variant: str


@dataclass(frozen=True)
class GameLists:
    playing: list[GameRow]
    done: list[GameRow]


def game_lists(games: QuerySet[Game], limit: int = LIST_LIMIT) -> GameLists:
    """The latest `limit` of `games` (most recently changed first), split into the games in
    progress and the finished ones; two queries (games, then their seats)."""
    latest = games.order_by("-updated_at", "-pk").prefetch_related("seat_rows")[:limit]
    rows = [
        GameRow(
            game=game,
            seats=[(row.seat, row.name) for row in game.seat_rows.all()],
            variant=_variant_played(game),
        )
        for game in latest
    ]
    return GameLists(
        playing=[row for row in rows if not row.game.finished],
        done=[row for row in rows if row.game.finished],
    )


def _variant_played(game: Game) -> str:
    if game.variant == Game.Variant.CHECK and game.deck == Game.Deck.DOUBLE:
        return str(Game.Variant.STANDARD.label)
    return str(game.get_variant_display())
