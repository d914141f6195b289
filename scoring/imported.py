"""Games written in bulk: the rows of games the engine has already checked, for the league's imports,
its restore and the benchmark (`league.services` builds the unsaved rows and calls these).

Keyword-only and typed. Each runs in its caller's transaction (an import is all or nothing, or one
of its short steps is; `league.services` opens them) and opens none of its own beyond that: called
alone, it is one transaction; inside another, it adds no savepoint and so no query.

Nothing here checks a game or sends `scoring.signals`: the rows come checked, and the league
recomputes what derives from them (ratings) once for all of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from clubs.models import Club, Season
from scoring.models import Game, GameSeat, GameStat, Hand, HandStat

#: The ids one UPDATE names at most (SQLite allows 999 parameters in a statement).
IDS_PER_UPDATE = 500


@transaction.atomic(savepoint=False)
def insert_games(*, games: Sequence[Game]) -> None:
    """Insert unsaved games (hidden ones too: `Game.hidden`). Each game's id is set on its row as it
    is inserted, so the seats built for it afterwards point at it."""
    Game.all_objects.bulk_create(games, batch_size=500)


@transaction.atomic(savepoint=False)
def insert_seats(*, seats: Sequence[GameSeat]) -> None:
    """Insert unsaved seats of games already inserted."""
    GameSeat.objects.bulk_create(seats, batch_size=1000)


@transaction.atomic(savepoint=False)
def insert_hands_and_stats(
    *,
    hands: Sequence[Hand],
    hand_stats: Sequence[HandStat],
    game_stats: Sequence[GameStat],
    batch_size: int = 1000,
) -> None:
    """Insert unsaved hands and their statistics (`scoring.stats.stat_rows`), `batch_size` rows per
    INSERT (an import keeps it small to hold little in memory)."""
    Hand.objects.bulk_create(hands, batch_size=batch_size)
    HandStat.objects.bulk_create(hand_stats, batch_size=batch_size)
    GameStat.objects.bulk_create(game_stats, batch_size=batch_size)


@transaction.atomic(savepoint=False)
def file_hidden_games(*, game_ids: Sequence[int], club: Club, season: Season | None) -> None:
    """File hidden games (of an unpublished import) under a club and season: they stay hidden."""
    for part in _parts(game_ids):
        Game.all_objects.filter(pk__in=part, hidden=True).update(club=club, season=season)


@transaction.atomic(savepoint=False)
def bind_seats(*, seat_ids: Sequence[int], player_id: int) -> None:
    """Bind seats of games just imported to a roster player."""
    for part in _parts(seat_ids):
        GameSeat.objects.filter(pk__in=part).update(player_id=player_id)


@transaction.atomic(savepoint=False)
def show_hidden_games(*, game_ids: Sequence[int]) -> None:
    """Show hidden games: in one transaction (the caller's), so all of an import appear at once."""
    for part in _parts(game_ids):
        Game.all_objects.filter(pk__in=part, hidden=True).update(hidden=False)


@transaction.atomic(savepoint=False)
def delete_hidden_games(*, game_ids: Sequence[int]) -> int:
    """Delete those of these games that are still hidden (seats, hands and statistics go with them;
    a game already shown is never deleted here); the number deleted."""
    deleted = 0
    for part in _parts(game_ids):
        ids = list(Game.all_objects.filter(pk__in=part, hidden=True).values_list("pk", flat=True))
        if ids:
            Game.all_objects.filter(pk__in=ids).delete()
        deleted += len(ids)
    return deleted


def _parts(ids: Sequence[int]) -> list[Sequence[int]]:
    return [ids[i : i + IDS_PER_UPDATE] for i in range(0, len(ids), IDS_PER_UPDATE)]
