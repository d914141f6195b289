"""What the league pages read of the ratings: leaderboards and a player's rating and insight.

Each function runs a fixed number of queries whatever the number of games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Player
from ratings import insight as insight_maths
from ratings.compute import PARTNERSHIP_MIN_GAMES, FinishedGame
from ratings.models import PairRating, PlayerRating, RatingPoint
from ratings.services import ALL, club_scope
from ratings.svg import rating_chart

__all__ = [
    "ALL",
    "PlayerRatings",
    "all_time_readable",
    "club_scope",
    "leaderboard",
    "partnership_board",
    "player_ratings",
]


def leaderboard(scope: str, *, players: Any = None, limit: int | None = None) -> list[PlayerRating]:
    """The scope's players best first (by μ − 3σ, then name), optionally only some of them."""
    rows = (
        PlayerRating.objects.filter(scope=scope)
        .select_related("player")
        .order_by("-conservative", "player__name", "player_id")
    )
    if players is not None:
        rows = rows.filter(player_id__in=players)  # ids, or a subquery of them
    return list(rows[:limit] if limit else rows)


def all_time_readable(players: QuerySet[Player], games: QuerySet[Any]) -> QuerySet[Player]:
    """Those of `players` whose all-time rating counts only `games` (the games a viewer may read).
    The others' all-time rating and game count tell of games the viewer may not see (another club's),
    so an all-time leaderboard leaves them out, as their page leaves out that rating."""
    hidden = (
        RatingPoint.objects.filter(scope=ALL, player__in=players.values("pk"))
        .exclude(game_id__in=games.values("pk"))
        .values("player_id")
    )
    return players.exclude(pk__in=hidden)


def partnership_board(scope: str, *, limit: int | None = 20) -> list[PairRating]:
    """Pairs with at least PARTNERSHIP_MIN_GAMES games together, best first."""
    rows = (
        PairRating.objects.filter(scope=scope, games__gte=PARTNERSHIP_MIN_GAMES)
        .select_related("player_a", "player_b")
        .order_by("-conservative", "player_a__name", "player_b__name", "player_a_id", "player_b_id")
    )
    return list(rows[:limit] if limit else rows)


@dataclass(frozen=True)
class Named:
    """A record with or against another player, with their name for the page."""

    player: Player
    record: insight_maths.Record


@dataclass
class PlayerRatings:
    rating: PlayerRating | None
    club_ratings: list[tuple[str, PlayerRating]] = field(default_factory=list)
    partial: bool = False  # some of the player's rated games are hidden from the viewer
    chart: str = ""
    form: list[insight_maths.Outcome] = field(default_factory=list)
    partners: list[Named] = field(default_factory=list)
    rival: Named | None = None
    nemesis: Named | None = None
    buddy: Named | None = None
    chips_per_night: list[insight_maths.NightChips] = field(default_factory=list)


def player_ratings(
    player: Player, *, partners: int = 5, games: QuerySet[Any] | None = None, club_ids: set[int] | None = None
) -> PlayerRatings:
    """The player's all-time rating, club ratings, history chart and insight, in four queries (five
    for a viewer who may not read every game). `games`: the games the viewer may read and `club_ids`
    the clubs whose records they read (None: all). The insight (form, partners, rival, nemesis,
    buddy, chips per night) counts only those games; where some of the player's rated games are
    hidden from the viewer the all-time rating and its chart, which come from every game, are left
    out (`partial`), and only the ratings of the viewer's clubs are shown."""
    ratings = list(PlayerRating.objects.filter(player=player).order_by("scope"))
    overall = next((row for row in ratings if row.scope == ALL), None)
    clubs = {
        f"club:{club.pk}": club.name for club in player.clubs.all() if club_ids is None or club.pk in club_ids
    }
    club_ratings = sorted(
        ((clubs[row.scope], row) for row in ratings if row.scope in clubs), key=lambda c: c[0]
    )
    if overall is None:
        return PlayerRatings(rating=None, club_ratings=club_ratings)

    points = RatingPoint.objects.filter(scope=ALL, player=player)
    partial = False
    if games is not None:
        visible = games.values("pk")
        partial = points.exclude(game_id__in=visible).exists()
        points = points.filter(game_id__in=visible)
    own = list(points.order_by("seq"))
    if not own:
        return PlayerRatings(rating=overall, club_ratings=club_ratings, partial=partial)
    rows = RatingPoint.objects.filter(scope=ALL, game_id__in=[point.game_id for point in own]).values_list(
        "game_id", "player_id", "side", "rank"
    )
    sides: dict[int, dict[int, list[int]]] = {}
    ranks: dict[int, dict[int, int]] = {}
    for game_id, player_id, side, rank in rows:
        sides.setdefault(game_id, {}).setdefault(side, []).append(player_id)
        ranks.setdefault(game_id, {})[side] = rank
    played = []
    for point in own:
        order = sorted(sides[point.game_id])
        finished = FinishedGame(
            id=point.game_id,
            order=(point.day.toordinal(),),
            sides=tuple(tuple(sorted(sides[point.game_id][index])) for index in order),
            ranks=tuple(ranks[point.game_id][index] for index in order),
        )
        played.append(insight_maths.player_game(finished, player.pk, played=point.day, chips=point.chips))
    # Everyone the player met, named: a tie between two of them goes to the name (insight_maths).
    met = {other for game in sides.values() for side in game.values() for other in side} - {player.pk}
    people = Player.objects.in_bulk(met)
    found = insight_maths.insight(played, {pk: person.name for pk, person in people.items()})

    def named(record: insight_maths.Record | None) -> Named | None:
        return Named(people[record.player_id], record) if record is not None else None

    values = [point.display for point in own]
    chart = rating_chart(
        values,
        title=_("Rating history of %(name)s") % {"name": player.name},
        description=ngettext(
            "%(name)s's rating after %(count)s rated game, from %(first)s to %(last)s.",
            "%(name)s's rating after each of %(count)s rated games, from %(first)s to %(last)s.",
            len(values),
        )
        % {"name": player.name, "count": len(values), "first": values[0], "last": values[-1]},
        x_label=_("Rated game"),
        y_label=_("Rating"),
        point_labels=[f"{date_format(point.day, 'SHORT_DATE_FORMAT')}: {point.display}" for point in own],
    )
    return PlayerRatings(
        rating=overall,
        club_ratings=club_ratings,
        partial=partial,
        chart="" if partial else chart,
        form=found.form,
        partners=[Named(people[r.player_id], r) for r in found.partners[:partners]],
        rival=named(found.rival),
        nemesis=named(found.nemesis),
        buddy=named(found.buddy),
        chips_per_night=found.chips_per_night,
    )
