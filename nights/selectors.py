"""What the night's pages show, read and worked out here so the views only fetch and render: the
plan of every round, the check-in lists and what can still change, and a finished table's result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from django.db.models import QuerySet
from django.utils import timezone

from clubs.models import Player
from nights import services
from nights.models import Night, NightPlayer, NightSeat, NightTable
from nights.rounds import clock_text, round_deadline
from scoring.labels import side_label, side_short
from scoring.models import Game
from scoring.rules.tables import sides_for


class PlanTable(TypedDict):
    table: NightTable
    seats: list[NightSeat]  # in N, E, S, W order
    game: Game | None


class PlanRound(TypedDict):
    number: int
    tables: list[PlanTable]
    byes: list[Player]
    started: bool


def plan_rounds(night: Night) -> list[PlanRound]:
    """Every round with its tables (seats in N, E, S, W order, with names) and byes: two queries
    for the tables (with their games and seats' players) and one for the byes, whatever the size."""
    tables = list(
        night.tables.select_related("game").prefetch_related("seats__player").order_by("round_no", "table_no")
    )
    byes = list(night.byes.select_related("player").order_by("round_no", "player__name", "player_id"))
    rounds: list[PlanRound] = []
    for number in range(1, night.rounds + 1):
        drawn = [t for t in tables if t.round_no == number]
        rounds.append(
            {
                "number": number,
                "tables": [{"table": t, "seats": services.ordered_seats(t), "game": t.game} for t in drawn],
                "byes": [b.player for b in byes if b.round_no == number],
                "started": any(t.game_id for t in drawn),
            }
        )
    return rounds


def next_round(night: Night, started: int) -> int | None:
    """The round that starts next once `started` rounds have, or None when every round has."""
    return started + 1 if started < night.rounds else None


def open_rounds(night: Night, started: int) -> list[int]:
    """The rounds not started yet: those a swap may change."""
    return list(range(started + 1, night.rounds + 1))


def present_ids(night: Night) -> set[int]:
    """The players checked in and still playing."""
    return set(night.players.filter(until_round=None).values_list("player_id", flat=True))


def present_players(night: Night) -> QuerySet[Player]:
    """The players checked in and still playing, by name: whom a swap or a leave may name."""
    present = night.players.filter(until_round__isnull=True).values("player_id")
    return Player.objects.filter(pk__in=present).order_by("name", "pk")


@dataclass(frozen=True)
class NightOverview:
    """The organiser's page of a night: how far it is, who is checked in, the plan of rounds."""

    started: int
    drawn: bool
    rounds: list[PlanRound]
    entries: list[NightPlayer]
    present_ids: set[int]
    playing: QuerySet[Player]
    open_rounds: list[int]
    next_round: int | None
    live: LiveRound | None = None


def night_overview(night: Night) -> NightOverview:
    started = services.started_rounds(night)
    entries = list(night.players.select_related("player"))
    present = {e.player_id for e in entries if e.until_round is None}
    rounds = plan_rounds(night)
    return NightOverview(
        started=started,
        drawn=services.is_drawn(night),
        rounds=rounds,
        entries=entries,
        present_ids=present,
        playing=Player.objects.filter(pk__in=present).order_by("name", "pk"),
        open_rounds=open_rounds(night, started),
        next_round=next_round(night, started),
        live=live_round(night, rounds, started),
    )


@dataclass(frozen=True)
class TableResult:
    """A finished table's result as its link shows it: who won, and each side's final points and
    chips in seat order (N–S before E–W; a JSON column's keys come back sorted on PostgreSQL)."""

    winner_label: str
    final_points: list[tuple[str, int]]
    final_chips: list[tuple[str, int]]


def table_result(game: Game, seats: list[NightSeat]) -> TableResult:
    sides = sides_for(game.seats)
    return TableResult(
        winner_label=side_label(game.winner, {seat.seat: seat.player.name for seat in seats}),
        final_points=[(side_short(side), game.scores.get(side, 0)) for side in sides],
        final_chips=[(side_short(side), game.chip_totals.get(side, 0)) for side in sides],
    )


class LiveTable(TypedDict):
    table: NightTable
    game: Game
    hands: int
    scores: list[tuple[str, int]]  # (side's short name, points) in seat order
    finished: bool


@dataclass(frozen=True)
class LiveRound:
    """The round in play as the organiser follows it: each table's hands, scores and whether its
    game is over; whether the last hand is called, and whether a table still plays."""

    number: int
    tables: list[LiveTable]
    last_hand: bool
    clock: str = ""  # a round of minutes: the minutes left, or "Last hand of round N"

    @property
    def playing(self) -> bool:
        return any(not t["finished"] for t in self.tables)


def live_round(night: Night, plan: list[PlanRound], started: int) -> LiveRound | None:
    """The round in play (the last started), from the plan already read: no query of its own."""
    if not started or night.is_finished:
        return None
    tables = [
        LiveTable(
            table=entry["table"],
            game=entry["game"],
            hands=entry["game"].hand_count,
            scores=[(side_short(side), points) for side, points in entry["game"].score_line()],
            finished=entry["game"].finished,
        )
        for entry in plan[started - 1]["tables"]
        if entry["game"] is not None
    ]
    now = timezone.now()
    deadline = round_deadline(night)
    time_up = deadline is not None and now >= deadline
    return LiveRound(
        started,
        tables,
        last_hand=night.last_hand_round == started or time_up,
        clock=clock_text(night, started, now),
    )
