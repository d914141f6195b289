"""Reads for the league pages: standings and player figures, aggregated in SQL.

Every figure is a SUM/COUNT over GameStat (one row per game × seat) or HandStat (one row per
hand × seat), the derived tables `scoring.stats` keeps in step with the hands. Each function runs
a fixed number of queries, however many games there are. Only finished games count.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, Q, QuerySet, Sum
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext_lazy as _

from clubs.models import Player, Season
from scoring.models import Game, GameSeat, GameStat, HandStat
from scoring.stats import BAND_LABELS

FINISHED = Q(game__finished=True)


def name_key(name: str) -> str:
    """Name for ordering: accents aside, so Čeněk sorts among the C's and Åsa among the A's."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass
class Line:
    """One row of a standings table: a player, or a partnership of two."""

    key: tuple[int, ...]
    names: tuple[str, ...]
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points_for: int = 0
    points_against: int = 0
    chips: int = 0
    hands: int = 0
    bids: int = 0
    made: int = 0
    sets: int = 0
    meld_sum: int = 0
    meld_hands: int = 0
    rank: int = 0
    player_ids: tuple[int, ...] = field(default=())

    @property
    def win_pct(self) -> float | None:
        """Draws count half."""
        return 100 * (self.wins + self.draws / 2) / self.games if self.games else None

    @property
    def point_diff(self) -> int:
        return self.points_for - self.points_against

    @property
    def make_rate(self) -> float | None:
        return 100 * self.made / self.bids if self.bids else None

    @property
    def set_rate(self) -> float | None:
        return 100 * self.sets / self.bids if self.bids else None

    @property
    def avg_meld(self) -> float | None:
        return self.meld_sum / self.meld_hands if self.meld_hands else None

    @property
    def name(self) -> str:
        return " & ".join(self.names)

    @property
    def sort_name(self) -> str:
        return name_key(self.name)


# Column key -> (heading, sort value). The default ranking rule comes first.
RANKING_RULE = _("Ranking: most wins, then most net chips, then best point difference.")
COLUMNS: dict[str, Any] = {
    "rank": (_("Rank"), None),
    "name": (_("Name"), lambda line: line.sort_name),
    "games": (_("Games"), lambda line: line.games),
    "wins": (_("Wins"), lambda line: line.wins),
    "losses": (_("Losses"), lambda line: line.losses),
    "draws": (_("Draws"), lambda line: line.draws),
    "win_pct": (_("Win %"), lambda line: line.win_pct),
    "points_for": (_("Points for"), lambda line: line.points_for),
    "points_against": (_("Points against"), lambda line: line.points_against),
    "point_diff": (_("Point diff."), lambda line: line.point_diff),
    "chips": (_("Net chips"), lambda line: line.chips),
    "bids": (_("Bids taken"), lambda line: line.bids),
    "made": (_("Bids made"), lambda line: line.made),
    "make_rate": (_("Make rate"), lambda line: line.make_rate),
    "sets": (_("Sets"), lambda line: line.sets),
    "avg_meld": (_("Avg. meld"), lambda line: line.avg_meld),
}


_PERCENT = ("win_pct", "make_rate")


def cell(key: str, line: Line) -> str:
    """A figure as the standings table shows it: percentages whole, averages to one decimal."""
    value = COLUMNS[key][1](line)
    if value is None:
        return "–"
    # floatformat rounds half up (7.25 -> 7.3, as the player page shows it) and writes the
    # decimal separator of the page's language (7,3 in Swedish and Czech).
    if key in _PERCENT:
        return f"{floatformat(value, 0)} %"
    if isinstance(value, float):
        return floatformat(value, 1)
    return str(value)


def _rank_key(line: Line) -> tuple[int, int, int]:
    return (line.wins, line.chips, line.point_diff)


def rank(lines: list[Line], sort: str = "rank", descending: bool = True) -> list[Line]:
    """Rank by the ranking rule (equal keys share a rank), then order by the asked column."""
    ordered = sorted(lines, key=lambda line: line.sort_name)
    ordered.sort(key=_rank_key, reverse=True)
    previous_key, previous_rank = None, 0
    for position, line in enumerate(ordered, start=1):
        key = _rank_key(line)
        # Equal keys share the rank of the first of them: 1, 2, 2, 4 ("standard competition").
        line.rank = previous_rank if key == previous_key else position
        previous_key, previous_rank = key, line.rank
    if sort == "rank" or sort not in COLUMNS:
        return ordered if descending else ordered[::-1]
    value = COLUMNS[sort][1]
    # None (no bids yet, say) always sorts last, whichever the direction.
    present = [line for line in ordered if value(line) is not None]
    missing = [line for line in ordered if value(line) is None]
    present.sort(key=value, reverse=descending)
    return present + missing


def _game_sums(prefix: str = "") -> dict[str, Any]:
    """Aggregates over GameStat; `prefix` "side_" gives the partnership's hand figures."""
    # Prefixed names: an annotation may not shadow the GameStat field it sums ("hands").
    sums = {
        "games": Count("id"),
        "wins": Count("id", filter=Q(outcome="win")),
        "losses": Count("id", filter=Q(outcome="loss")),
        "draws": Count("id", filter=Q(outcome="draw")),
        "points_for": Sum("points_for"),
        "points_against": Sum("points_against"),
        "chips": Sum("chips"),
        "hands": Sum("hands"),
        "bids": Sum(f"{prefix}bids"),
        "made": Sum("side_made" if prefix else "bids_made"),
        "sets": Sum(f"{prefix}sets"),
        "meld_sum": Sum(f"{prefix}meld_sum"),
        "meld_hands": Sum("hands" if prefix else "meld_hands"),
    }
    return {f"x_{name}": value for name, value in sums.items()}


_FIGURES: tuple[str, ...] = (
    "games",
    "wins",
    "losses",
    "draws",
    "points_for",
    "points_against",
    "chips",
    "hands",
)
_FIGURES += ("bids", "made", "sets", "meld_sum", "meld_hands")


def _line(row: dict[str, Any], key: tuple[int, ...], names: tuple[str, ...]) -> Line:
    return Line(key=key, names=names, player_ids=key, **{name: row[f"x_{name}"] or 0 for name in _FIGURES})


def player_lines(stats: QuerySet[GameStat]) -> list[Line]:
    """One line per player over the given GameStat rows (one query)."""
    rows = (
        stats.filter(FINISHED, seat_row__player__isnull=False)
        .values("seat_row__player", "seat_row__player__name")
        .annotate(**_game_sums())
        .order_by()
    )
    return [_line(row, (row["seat_row__player"],), (row["seat_row__player__name"],)) for row in rows]


def partnership_lines(stats: QuerySet[GameStat]) -> list[Line]:
    """One line per pair of partners at 4-seat tables (one query; each game counted once)."""
    rows = (
        stats.filter(FINISHED, seat_row__player__isnull=False, partner_row__player__isnull=False)
        .filter(seat_row__player__lt=F("partner_row__player"))
        .values(
            "seat_row__player", "seat_row__player__name", "partner_row__player", "partner_row__player__name"
        )
        .annotate(**_game_sums("side_"))
        .order_by()
    )
    return [
        _line(
            row,
            (row["seat_row__player"], row["partner_row__player"]),
            (row["seat_row__player__name"], row["partner_row__player__name"]),
        )
        for row in rows
    ]


def season_standings(season: Season, sort: str = "rank", descending: bool = True) -> dict[str, list[Line]]:
    stats = GameStat.objects.filter(game__season=season)
    return {
        "players": rank(player_lines(stats), sort, descending),
        "partnerships": rank(partnership_lines(stats), sort, descending),
    }


@dataclass
class Band:
    label: str
    bids: int
    made: int

    @property
    def make_rate(self) -> float | None:
        return 100 * self.made / self.bids if self.bids else None


@dataclass
class PlayerFigures:
    player: Player
    career: Line
    seasons: list[tuple[Season | None, Line]]
    bands: dict[str, list[Band]]
    favourite_trump: str | None
    trump_counts: list[tuple[str, int]]
    partners: list[Line]
    recent: Sequence[GameSeat]


def player_figures(player: Player, recent: int = 10, *, games: QuerySet[Game] | None = None) -> PlayerFigures:
    """Everything on the player page, in a fixed number of queries. `games`: the games the viewer
    may read (None: all of them); every figure, partners and seasons included, counts only those."""
    shown = Q() if games is None else Q(game__in=games.values("pk"))
    mine = GameStat.objects.filter(FINISHED, shown, seat_row__player=player)
    career_row = mine.aggregate(**_game_sums())
    career = _line(career_row, (player.pk,), (player.name,))

    season_rows = list(
        mine.values("game__season")
        .annotate(**_game_sums())
        .order_by(F("game__season__starts_on").desc(nulls_last=True), "-game__season")
    )
    seasons_by_id = Season.objects.select_related("club").in_bulk(
        [row["game__season"] for row in season_rows if row["game__season"]]
    )
    seasons = [
        (seasons_by_id.get(row["game__season"]), _line(row, (player.pk,), (player.name,)))
        for row in season_rows
    ]

    bids = HandStat.objects.filter(FINISHED, shown, seat_row__player=player, is_bidder=True).exclude(
        result="passed"
    )
    band_rows = bids.values("game__deck", "bid_band").annotate(
        bids=Count("id"), made=Count("id", filter=Q(result="made"))
    )
    found = {(row["game__deck"], row["bid_band"]): row for row in band_rows.order_by()}
    bands = {}
    for deck, labels in BAND_LABELS.items():
        if any(key[0] == deck for key in found):
            bands[deck] = [
                Band(label, found.get((deck, i), {}).get("bids", 0), found.get((deck, i), {}).get("made", 0))
                for i, label in enumerate(labels)
            ]
    trump_counts = [
        (row["trump"], row["n"])
        for row in bids.exclude(trump="").values("trump").annotate(n=Count("id")).order_by("-n", "trump")
    ]

    partner_rows = (
        mine.filter(partner_row__player__isnull=False)
        .values("partner_row__player", "partner_row__player__name")
        .annotate(**_game_sums("side_"))
        .order_by()
    )
    partners = [
        _line(row, (row["partner_row__player"],), (row["partner_row__player__name"],)) for row in partner_rows
    ]
    partners.sort(key=lambda line: (-(line.win_pct or 0), -line.games, line.sort_name))

    recent_seats = list(
        GameSeat.objects.filter(shown, player=player)
        .select_related("game", "game__season", "game__club", "stat")
        .order_by(F("game__played_on").desc(nulls_last=True), "-game__created_at", "-game_id")[:recent]
    )
    return PlayerFigures(
        player=player,
        career=career,
        seasons=seasons,
        bands=bands,
        favourite_trump=trump_counts[0][0] if trump_counts else None,
        trump_counts=trump_counts,
        partners=partners,
        recent=recent_seats,
    )
