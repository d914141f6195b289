"""What the night's pages show, read and worked out here so the views only fetch and render: the
plan of every round, the check-in lists and what can still change, and a finished table's result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict, TypeVar

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from nights import movement_plan, services
from nights.figures import awaits_confirmation
from nights.models import Night, NightPlayer, NightSeat, NightTable
from nights.rounds import (
    clock_text,
    kept_waiting_message,
    round_deadline,
    table_waits_message,
    waiting_message,
)
from nights.standings import NightStandings, PlayerLine, TableLine, night_standings, version
from scoring.labels import seat_letter, side_label, side_short
from scoring.models import Game
from scoring.rules.tables import sides_for
from scoring.selectors.board import scoreboard
from scoring.selectors.confirm import AwaitingOk, awaiting, ok_question

T = TypeVar("T")


class PlanTable(TypedDict):
    table: NightTable
    seats: list[NightSeat]  # in N, E, S, W order
    game: Game | None


class PlanRound(TypedDict):
    number: int
    tables: list[PlanTable]
    byes: list[Player]
    started: bool
    waiting: str  # a night with a movement: why the round has no tables yet, or cannot start yet
    held: bool  # planned and changed by hand, but waiting for a table before it: seats not final
    public_waiting: str  # `waiting` as the players read it on the wall plan


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
        waiting = public_waiting = ""
        if night.moves_by_round and number > 1 and not drawn:
            before = [t for t in tables if t.round_no == number - 1]
            playing = [t.table_no for t in before if not movement_plan.table_final(t)]
            waiting = public_waiting = waiting_message(
                number, playing if any(t.game_id for t in before) else []
            )
        elif night.moves_by_round and number > 1 and not any(t.game_id for t in drawn):
            before = [t for t in tables if t.round_no == number - 1]
            not_ended = [t for t in before if t.game_id and not movement_plan.table_final(t)]
            if not_ended:
                waiting = kept_waiting_message(number, not_ended)
                public_waiting = table_waits_message(number, [t.table_no for t in not_ended])
        rounds.append(
            {
                "number": number,
                "tables": [{"table": t, "seats": services.ordered_seats(t), "game": t.game} for t in drawn],
                "byes": [b.player for b in byes if b.round_no == number],
                "started": any(t.game_id for t in drawn),
                "waiting": waiting,
                "held": bool(drawn) and bool(waiting),
                "public_waiting": public_waiting,
            }
        )
    return rounds


def next_round(night: Night, started: int) -> int | None:
    """The round that starts next once `started` rounds have, or None when every round has."""
    return started + 1 if started < night.rounds else None


def open_rounds(night: Night, started: int) -> list[int]:
    """The rounds not started yet: those a swap may change (with a movement, only the one planned
    so far: one more query, for such nights only)."""
    last = night.rounds
    if night.moves_by_round:
        last = max(night.tables.values_list("round_no", flat=True), default=0)
    return list(range(started + 1, last + 1))


def present_ids(night: Night) -> set[int]:
    """The players checked in and still playing."""
    return set(night.players.filter(until_round=None).values_list("player_id", flat=True))


def present_players(night: Night) -> QuerySet[Player]:
    """The players checked in and still playing, by name: whom a swap or a leave may name."""
    present = night.players.filter(until_round__isnull=True).values("player_id")
    return Player.objects.filter(pk__in=present).order_by("name", "pk")


def night_entries(night: Night) -> list[NightPlayer]:
    """Everyone checked in, in check-in order, with their players (one query)."""
    return list(night.players.select_related("player"))


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
    entries = night_entries(night)
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


def next_seats(table: NightTable, seats: list[NightSeat]) -> list[str]:
    """Where the players of a table sit in the next round, one line each in seat order ("Anna:
    table 2, East"; "Anna: sits out"; "Anna: has left" for a player who left the night): empty
    when the next round is not planned (yet) or there is none. One query, two when one of them
    sits out next or has left."""
    night, number = table.night, table.round_no + 1
    if night.is_finished or number > night.rounds:
        return []
    ids = [seat.player_id for seat in seats]
    ahead = NightSeat.objects.filter(table__night=night, table__round_no=number, player_id__in=ids)
    where = {seat.player_id: seat for seat in ahead.select_related("table")}
    if not where:
        return []
    out: set[int] = set()
    if len(where) < len(ids):  # someone sits out next round
        out = set(night.byes.filter(round_no=number, player_id__in=ids).values_list("player_id", flat=True))
    lines = []
    for seat in seats:
        name = seat.player.name
        if seat.player_id in where:
            moved = where[seat.player_id]
            lines.append(
                _("%(name)s: table %(table)d, %(seat)s")
                % {"name": name, "table": moved.table.table_no, "seat": moved.get_seat_display()}
            )
        elif seat.player_id in out:
            lines.append(_("%(name)s: sits out") % {"name": name})
        else:  # neither seated nor sitting out in a planned round: they left the night
            lines.append(_("%(name)s: has left") % {"name": name})
    return lines


def last_hand_question(game: Game) -> AwaitingOk | None:
    """The game page's question to the other side about a finished table's last hand ("Hand 7
    saved: is it right?"), for the phone that scores it; None when no hand waits for the OK."""
    return ok_question(game, scoreboard(game), awaiting(game))


def next_round_waiting(table: NightTable) -> str:
    """A finished table of a night with a movement whose next round is not planned yet: why. Or,
    planned and changed by hand (a swap) but kept waiting while a table of this round plays again
    (a last hand taken back): that it waits, so that nobody moves to seats the organiser may still
    plan again. "" while its own last hand waits for the other side's OK (the OK comes first).
    One query, two while the next round is planned and not started."""
    night, number = table.night, table.round_no + 1
    if not night.moves_by_round or number > night.rounds or night.is_finished:
        return ""
    if table.game is not None and awaits_confirmation(table.game):
        return ""
    planned = list(night.tables.filter(round_no=number).values_list("game_id", flat=True))
    if not planned:
        return waiting_message(number, movement_plan.tables_still_playing(night, table.round_no))
    if any(planned):
        return ""
    before = night.tables.filter(round_no=table.round_no, game__isnull=False).select_related("game")
    playing = sorted(t.table_no for t in before if not movement_plan.table_final(t))
    if not playing:
        return ""
    return table_waits_message(number, playing)


# --- the board on the wall ----------------------------------------------------------------------

#: How much one screen of the board holds in type read from across a hall (a 1280x720 screen).
BOARD_LINES_PER_PAGE = 10
BOARD_TABLES_PER_PAGE = 4


@dataclass(frozen=True)
class BoardLine:
    """A player's line of the board's standings, with a place shared by equal figures; `leads` when
    the place is first and someone is behind (not while everyone still stands level)."""

    place: int
    line: PlayerLine
    leads: bool = False


@dataclass(frozen=True)
class BoardSide:
    label: str  # "N–S", or a lone seat's letter
    names: list[str]
    points: int


@dataclass(frozen=True)
class BoardTable:
    """A table still playing as the board shows it: its sides' players and points so far."""

    table_no: int
    hands: int
    sides: list[BoardSide]


@dataclass(frozen=True)
class BoardSeat:
    seat: str  # the seat's letter in the page's language
    name: str


@dataclass(frozen=True)
class BoardPlanTable:
    table_no: int
    seats: list[BoardSeat]


@dataclass(frozen=True)
class NightBoard:
    """What the board on the wall shows, cut into pages that fit one screen each: the standings
    (as the standings page counts them), the tables still playing, the next round's plan."""

    standings: NightStandings
    standings_pages: list[list[BoardLine]]
    playing_pages: list[list[BoardTable]]
    next_round: int | None  # the round drawn but not started, if any
    plan_pages: list[list[BoardPlanTable]]
    byes: list[str]
    round_no: int  # the latest round started, 0 before the first
    rounds: int
    finished: bool


def _pages(items: list[T], size: int) -> list[list[T]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def _places(lines: list[PlayerLine]) -> list[BoardLine]:
    """1, 2, 2, 4: a line with the same figures as the one above shares its place."""
    placed: list[BoardLine] = []
    for index, line in enumerate(lines):
        figures = (line.games, line.wins, line.draws, line.points_diff, line.chips)
        if placed:
            above = placed[-1].line
            if figures == (above.games, above.wins, above.draws, above.points_diff, above.chips):
                placed.append(BoardLine(placed[-1].place, line))
                continue
        placed.append(BoardLine(index + 1, line))
    if any(entry.place > 1 for entry in placed):
        placed = [BoardLine(entry.place, entry.line, leads=entry.place == 1) for entry in placed]
    return placed


def _board_table(table: TableLine) -> BoardTable:
    sides = sides_for(table.game.seats)
    names = dict(table.seats)
    return BoardTable(
        table_no=table.table_no,
        hands=table.hands,
        sides=[
            BoardSide(label, [names[seat] for seat in side if names.get(seat)], points)
            for side, (label, points) in zip(sides, table.scores, strict=True)
        ],
    )


def night_board(night: Night) -> NightBoard:
    """The board's pages: the night's standings (4 queries) and its plan (3), whatever its size."""
    standings = night_standings(night)
    plan = plan_rounds(night)
    round_no = max((entry["number"] for entry in plan if entry["started"]), default=0)
    upcoming = next_round(night, round_no)
    # A round kept as the organiser changed it waits while a table before it plays again: its seats
    # may change when that table ends (the table links hold them back too).
    drawn = (
        upcoming is not None
        and bool(plan[upcoming - 1]["tables"])
        and not plan[upcoming - 1]["held"]
        and not night.is_finished
    )
    coming = plan[upcoming - 1] if drawn and upcoming is not None else None
    playing = [t for t in standings.tables if not t.complete and not t.stopped]
    tables = [
        BoardPlanTable(
            entry["table"].table_no,
            [BoardSeat(seat_letter(seat.seat), seat.player.name) for seat in entry["seats"]],
        )
        for entry in (coming["tables"] if coming else [])
    ]
    return NightBoard(
        standings=standings,
        standings_pages=_pages(_places(standings.lines), BOARD_LINES_PER_PAGE),
        playing_pages=_pages([_board_table(t) for t in playing], BOARD_TABLES_PER_PAGE),
        next_round=coming["number"] if coming else None,
        plan_pages=_pages(tables, BOARD_TABLES_PER_PAGE),
        byes=[player.name for player in coming["byes"]] if coming else [],
        round_no=round_no,
        rounds=night.rounds,
        finished=night.is_finished,
    )


def board_version(night: Night) -> str:
    """Changes whenever the board may change: a saved hand at any table, a round started, the
    night finished (the standings' version) or the plan drawn again (its fingerprint)."""
    return f"{version(night)}-{services.plan_version(night)}"


class LiveTable(TypedDict):
    table: NightTable
    game: Game
    hands: int
    scores: list[tuple[str, int]]  # (side's short name, points) in seat order
    finished: bool  # over, and no hand of it waits for the other side's OK
    waiting: bool  # over, but a hand waits for the other side's OK: still in play for the night


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
            finished=entry["game"].finished and not awaits_confirmation(entry["game"]),
            waiting=entry["game"].finished and awaits_confirmation(entry["game"]),
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
