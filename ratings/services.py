"""Keep the stored ratings in step with the games: the one writer of ratings.models.

Which games count: finished games whose every seat is linked to a roster player (a casual game
with a typed name is not rated), in which no player sits twice. They are rated in order of play:
the day (`played_on`, else the day the game was created), then the game id. Sides and places:

- a 4-seat game is two sides of two partners, a 3-seat game three sides of one, a 2-seat game two;
- a Check Pinochle game places the sides by their chips (equal chips: a draw);
- a points game places the winning side (or the drawn sides) first, the others by their points.

Scopes: "all" (every counted game), "club:<id>" (the club's counted games). A season's table
shows the club ratings of the season's players.

When a game's result is stored (`scoring.signals.game_changed`, sent by the scoring service in
the transaction that writes the hands), `game_changed` runs in that same transaction, so the
ratings never disagree with the hands: a game rated for the first time that sorts after the last
rated game of a scope is rated alone (`rate_game`, the same step as a full recompute, from the
stored μ and σ); anything else that changes a rated game's sides, places, day or scope (a
correction or deleted hand in an older game, a game moved to another club, an unlinked seat)
recomputes the scopes concerned from scratch. Merging or deleting players and deleting games
recompute the scopes they touched; imports and restores recompute the scopes they filled;
`manage.py refresh_ratings` recomputes everything.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q

from ratings.compute import (
    NEW,
    FinishedGame,
    NotLatestError,
    PairKey,
    Skill,
    SortKey,
    pair_key,
    rate_game,
)
from ratings.models import PairRating, PlayerRating, RatingPoint, RatingScope
from scoring.models import Game, GameStat

ALL = "all"


def club_scope(club_id: int) -> str:
    return f"club:{club_id}"


@dataclass(frozen=True)
class CountedGame:
    """A counted game with what the stored rows need beside the ratings' own view of it."""

    game: FinishedGame
    day: datetime.date
    club_id: int | None
    chips: dict[int, int | None]  # per player: the side's chips (Check Pinochle), else None

    @property
    def scopes(self) -> set[str]:
        return {ALL} | ({club_scope(self.club_id)} if self.club_id is not None else set())


_FIELDS = (
    "game_id",
    "side",
    "outcome",
    "points_for",
    "chips",
    "seat_row__player_id",
    "game__variant",
    "game__played_on",
    "game__created_at",
    "game__club_id",
    "game__seats",
)


def _rows_to_games(rows: Iterable[dict[str, Any]]) -> list[CountedGame]:
    by_game: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_game.setdefault(row["game_id"], []).append(row)
    counted = []
    for game_id, seats in by_game.items():
        first = seats[0]
        if len(seats) != first["game__seats"] or any(row["seat_row__player_id"] is None for row in seats):
            continue
        check = first["game__variant"] == Game.Variant.CHECK
        sides: dict[str, list[dict[str, Any]]] = {}
        for row in seats:
            sides.setdefault(row["side"], []).append(row)
        keys: dict[str, tuple[Any, ...]] = {}
        for name, members in sides.items():
            row = members[0]
            if check:
                keys[name] = (row["chips"],)
            else:
                keys[name] = (
                    row["outcome"] in (GameStat.Outcome.WIN, GameStat.Outcome.DRAW),
                    row["points_for"],
                )
        names = sorted(sides)
        ranks = tuple(sum(1 for other in names if keys[other] > keys[name]) for name in names)
        played = first["game__played_on"] or first["game__created_at"].date()
        try:
            game = FinishedGame(
                id=game_id,
                order=(played.toordinal(),),
                sides=tuple(tuple(row["seat_row__player_id"] for row in sides[name]) for name in names),
                ranks=ranks,
            )
        except ValueError:  # a player entered on two seats: not a game the ratings can read
            continue
        chips = {row["seat_row__player_id"]: (row["chips"] if check else None) for row in seats}
        counted.append(CountedGame(game, played, first["game__club_id"], chips))
    counted.sort(key=lambda item: item.game.sort_key)
    return counted


def _scope_filter(scope: str) -> Q:
    if scope == ALL:
        return Q()
    kind, _, number = scope.partition(":")
    if kind == "club":
        return Q(game__club_id=int(number))
    raise ValueError(f"unknown rating scope {scope!r}")


def counted_games(scope: str) -> list[CountedGame]:
    """The scope's counted games in order of play (two queries' worth of rows, one query)."""
    rows = (
        GameStat.objects.filter(_scope_filter(scope), game__finished=True)
        .exclude(game__seat_rows__player__isnull=True)
        .values(*_FIELDS)
        .order_by()
    )
    return _rows_to_games(rows)


def counted_game(game: Game) -> CountedGame | None:
    if not game.finished:
        return None
    found = _rows_to_games(GameStat.objects.filter(game=game).values(*_FIELDS).order_by())
    return found[0] if found else None


def _point(scope: str, counted: CountedGame, player: int, skill: Skill, side: int, rank: int) -> RatingPoint:
    return RatingPoint(
        scope=scope,
        player_id=player,
        game_id=counted.game.id,
        seq=skill.games,
        day=counted.day,
        side=side,
        rank=rank,
        chips=counted.chips.get(player),
        mu=skill.mu,
        sigma=skill.sigma,
    )


def _points(scope: str, counted: CountedGame, players: dict[int, Skill]) -> list[RatingPoint]:
    sides, ranks = counted.game.canonical()
    return [
        _point(scope, counted, player, players[player], index, rank)
        for index, (side, rank) in enumerate(zip(sides, ranks, strict=True))
        for player in side
    ]


def _player_row(scope: str, player: int, skill: Skill) -> PlayerRating:
    return PlayerRating(
        scope=scope,
        player_id=player,
        mu=skill.mu,
        sigma=skill.sigma,
        games=skill.games,
        display=skill.display,
        conservative=skill.conservative,
    )


def _pair_row(scope: str, key: PairKey, skill: Skill) -> PairRating:
    return PairRating(
        scope=scope,
        player_a_id=key[0],
        player_b_id=key[1],
        mu=skill.mu,
        sigma=skill.sigma,
        games=skill.games,
        display=skill.display,
        conservative=skill.conservative,
    )


@transaction.atomic
def recompute(scope: str) -> int:
    """Rate the scope's counted games from scratch and replace its stored rows; the game count."""
    games = counted_games(scope)
    players: dict[int, Skill] = {}
    pairs: dict[PairKey, Skill] = {}
    points: list[RatingPoint] = []
    for counted in games:
        update = rate_game(players=players, pairs=pairs, game=counted.game)
        players.update(update.players)
        pairs.update(update.pairs)
        points.extend(_points(scope, counted, players))
    RatingPoint.objects.filter(scope=scope).delete()
    PlayerRating.objects.filter(scope=scope).delete()
    PairRating.objects.filter(scope=scope).delete()
    if not games:
        RatingScope.objects.filter(scope=scope).delete()
        return 0
    RatingPoint.objects.bulk_create(points, batch_size=500)
    PlayerRating.objects.bulk_create([_player_row(scope, p, s) for p, s in players.items()], batch_size=500)
    PairRating.objects.bulk_create([_pair_row(scope, k, s) for k, s in pairs.items()], batch_size=500)
    last = games[-1]
    RatingScope.objects.update_or_create(
        scope=scope, defaults={"last_day": last.day, "last_game": last.game.id, "games": len(games)}
    )
    return len(games)


def _rate_latest(scope: str, counted: CountedGame) -> bool:
    """Rate one new game on top of the stored ratings; False when it is not the scope's latest."""
    state = RatingScope.objects.select_for_update().filter(scope=scope).first()
    after: SortKey | None = None
    if state is not None and state.last_day is not None and state.last_game is not None:
        after = ((state.last_day.toordinal(),), state.last_game)
    ids = [player for side in counted.game.sides for player in side]
    stored = {row.player_id: row for row in PlayerRating.objects.filter(scope=scope, player_id__in=ids)}
    skills = {pid: Skill(row.mu, row.sigma, row.games) for pid, row in stored.items()}
    keys = [pair_key(*side) for side in counted.game.sides if len(side) == 2]
    stored_pairs = {
        (row.player_a_id, row.player_b_id): row
        for row in PairRating.objects.filter(
            scope=scope, player_a_id__in=[k[0] for k in keys], player_b_id__in=[k[1] for k in keys]
        )
    }
    pair_skills = {key: Skill(row.mu, row.sigma, row.games) for key, row in stored_pairs.items()}
    try:
        update = rate_game(players=skills, pairs=pair_skills, game=counted.game, after=after)
    except NotLatestError:
        return False
    for pid, skill in update.players.items():
        row = stored.get(pid) or _player_row(scope, pid, NEW)
        row.mu, row.sigma, row.games = skill.mu, skill.sigma, skill.games
        row.display, row.conservative = skill.display, skill.conservative
        row.save()
    for key, skill in update.pairs.items():
        pair = stored_pairs.get(key) or _pair_row(scope, key, NEW)
        pair.mu, pair.sigma, pair.games = skill.mu, skill.sigma, skill.games
        pair.display, pair.conservative = skill.display, skill.conservative
        pair.save()
    RatingPoint.objects.bulk_create(_points(scope, counted, update.players))
    if state is None:
        state = RatingScope(scope=scope)
    state.last_day, state.last_game, state.games = counted.day, counted.game.id, state.games + 1
    state.save()
    return True


def _same_as_stored(scope: str, counted: CountedGame, stored: list[RatingPoint]) -> bool:
    sides, ranks = counted.game.canonical()
    now = {
        (player, index, rank, counted.day, counted.chips.get(player))
        for index, (side, rank) in enumerate(zip(sides, ranks, strict=True))
        for player in side
    }
    return now == {(p.player_id, p.side, p.rank, p.day, p.chips) for p in stored if p.scope == scope}


def game_changed(game: Game) -> None:
    """A game's hands, details or seats changed: bring every scope it is or was in up to date."""
    stored = list(RatingPoint.objects.filter(game=game))
    before = {point.scope for point in stored}
    counted = counted_game(game)
    now = counted.scopes if counted else set()
    for scope in sorted(before | now):
        if scope in before and scope in now and counted and _same_as_stored(scope, counted, stored):
            continue
        if scope in before or counted is None or not _rate_latest(scope, counted):
            recompute(scope)


def scopes_of_games(game_ids: Iterable[int]) -> set[str]:
    return set(
        RatingPoint.objects.filter(game_id__in=list(game_ids)).values_list("scope", flat=True).distinct()
    )


def scopes_of_player(player_id: int) -> set[str]:
    return set(PlayerRating.objects.filter(player_id=player_id).values_list("scope", flat=True))


def scopes_for_clubs(club_ids: Iterable[int | None]) -> set[str]:
    return {ALL} | {club_scope(club_id) for club_id in club_ids if club_id is not None}


def recompute_scopes(scopes: Iterable[str]) -> None:
    for scope in sorted(set(scopes)):
        recompute(scope)


def refresh_all() -> dict[str, int]:
    """Recompute every scope that has or had counted games; the games rated per scope."""
    clubs = set(Game.objects.filter(finished=True, club__isnull=False).values_list("club_id", flat=True))
    scopes = scopes_for_clubs(clubs) | set(RatingScope.objects.values_list("scope", flat=True))
    return {scope: recompute(scope) for scope in sorted(scopes)}
