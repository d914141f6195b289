"""The live standings of a night: per player games, wins, points difference and, in Check
Pinochle, net chips, read from the stored statistics of the night's games (which the scoring
services rewrite with every saved hand) in a fixed number of queries.

Figures of a table: its game as it stands (`GameStat`): its outcome once it is over, its points
and chips so far while it is played (game chips included at its end). A round of a fixed number
of hands is a game of that many deals (`Game.deals`, set by `rounds.start_round`): the engine
ends it after its last hand (or sooner, at the target), the side ahead on points wins (in Check
Pinochle the chips decide, game chips included), level points are a draw on points.

Points: a player's own total, their side's points at every table they sat at, whoever their
partner was (a progressive night changes partners, so a player's figures are their own; a table
is one game, so games won and tables won are the same figure, "Wins"). Points difference: a
seat's side's points minus the best opposing side's points. Chips are settled
pair-wise (`nights.settlement.chips.night_chips`): each partner gets the side's chips in full.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.db.models import Count, Max, Sum

from clubs.models import Player
from nights.byes import bye_settlements
from nights.figures import StartedTable, awaits_confirmation, points_difference, started_tables
from nights.models import Night
from nights.settlement.byes import Compensation
from nights.settlement.chips import SideChips, night_chips
from scoring.labels import side_short
from scoring.models import Game
from scoring.rules.tables import sides_for


@dataclass
class PlayerLine:
    player_id: int
    name: str
    games: int = 0  # tables whose round is over for this player
    wins: int = 0
    draws: int = 0
    points_diff: int = 0
    chips: int = 0
    playing: bool = False  # at a table still in play (never once the night is finished)
    # What byes brought, each shown as its own line ("bye: average of round 2"); already in
    # points_diff and chips. `bye_chips_paid`: chips paid towards others' byes (0 or less).
    byes: list[Compensation] = field(default_factory=list)
    bye_chips_paid: int = 0

    @property
    def bye_chips_given(self) -> int:
        """The chips paid towards others' byes, as a count (0 or more)."""
        return -self.bye_chips_paid

    points: int = 0  # the player's own points: their side's at every table, whoever the partner
    place: int = 0  # 1 for the first; players level on every figure share a place (1, 1, 3)


@dataclass(frozen=True)
class TableLine:
    """One started table: who sits where and the score line as the standings count it."""

    round_no: int
    table_no: int
    game: Game
    seats: list[tuple[str, str]]  # (seat, name)
    scores: list[tuple[str, int]]  # (side as the page shows it, "N–S"; points), in table order
    chips: list[tuple[str, int]]
    hands: int
    complete: bool
    winner: str  # a side as shown ("N–S"), "draw", or "" while in play
    stopped: bool = False  # not complete when the organiser finished the night: counts as it stood
    # A hand of the game waits for the other side's OK (a club's rule): the game is not final yet.
    waiting: bool = False
    # The same figures by the engine's side ("NS"), for the prizes and the players' cards: who sat
    # on each side (seat, player id or None for a seat not linked to a player, name), points, chips.
    members: dict[str, list[tuple[str, int | None, str]]] = field(default_factory=dict)
    points_by_side: dict[str, int] = field(default_factory=dict)
    chips_by_side: dict[str, int] = field(default_factory=dict)
    winner_side: str = ""  # "NS", "draw", or "" while in play or stopped


@dataclass
class NightStandings:
    lines: list[PlayerLine] = field(default_factory=list)
    tables: list[TableLine] = field(default_factory=list)
    finished: bool = False  # the organiser finished the night: nothing is "in play" any more
    chips_in_play: bool = False

    @property
    def waiting(self) -> list[TableLine]:
        """The tables whose game waits for a hand's confirmation: the standings wait for them."""
        return [table for table in self.tables if table.waiting]

    @property
    def chip_sum(self) -> int:
        """Always 0: the pair-wise chips of a night add up to zero."""
        return sum(line.chips for line in self.lines)


def version(night: Night) -> str:
    """Changes whenever a figure of the standings may change: the poll's `v` and ETag."""
    games = Game.objects.filter(night_table__night=night).aggregate(
        count=Count("pk"), hands=Sum("hand_count"), latest=Max("updated_at")
    )
    latest = games["latest"].timestamp() if games["latest"] else 0
    finished = night.finished_at.timestamp() if night.finished_at else 0
    prizes = "".join("1" if ticked else "0" for ticked in prize_flags(night))
    return f"{games['count']}-{games['hands'] or 0}-{latest:.6f}-{finished:.0f}-{prizes}"


def prize_flags(night: Night) -> tuple[bool, ...]:
    """The prizes ticked on, in a fixed order: ticking one changes the standings' version."""
    return (
        night.prize_first,
        night.prize_second,
        night.prize_third,
        night.prize_high_game,
        night.prize_high_meld,
        night.prize_table_winners,
        night.prize_groups,
    )


def night_standings(night: Night) -> NightStandings:
    """The night's standings and its tables (4 queries whatever the number of tables)."""
    tables = started_tables([night])
    result = NightStandings(chips_in_play=night.is_check, finished=night.is_finished)
    lines: dict[int, PlayerLine] = {}
    side_chips: list[list[SideChips]] = []
    for table in tables:
        game, rows = table.game, table.rows
        points, chips, complete, winner = table.points, table.chips, table.complete, table.winner
        sides = sides_for(game.seats)
        members: dict[str, list[int]] = {side: [] for side in sides}
        sitting: dict[str, list[tuple[str, int | None, str]]] = {side: [] for side in sides}
        for row in rows:
            side = next(side for side in sides if row.seat in side)
            sitting[side].append((row.seat, row.player_id, row.player.name if row.player else row.name))
            if row.player_id is None:
                continue  # a seat unlinked by hand: no one to count it for
            members[side].append(row.player_id)
            line = lines.setdefault(
                row.player_id,
                PlayerLine(row.player_id, row.player.name if row.player else row.name),
            )
            line.points_diff += points_difference(points, side)
            line.points += points.get(side, 0)
            if complete:
                line.games += 1
                line.wins += winner == side
                line.draws += winner == "draw"
            elif not night.is_finished:
                line.playing = True
        if night.is_check:
            side_chips.append([SideChips(tuple(members[side]), chips.get(side, 0)) for side in sides])
        result.tables.append(
            TableLine(
                round_no=table.round_no,
                table_no=table.table_no,
                game=game,
                seats=[(row.seat, row.player.name if row.player else row.name) for row in rows],
                scores=[(side_short(side), points.get(side, 0)) for side in sides],
                chips=[(side_short(side), chips.get(side, 0)) for side in sides] if night.is_check else [],
                hands=game.hand_count,
                complete=complete,
                winner=side_short(winner) if winner and winner != "draw" else winner,
                stopped=not complete and night.is_finished,
                waiting=awaits_confirmation(game) and not night.is_finished,
                members=sitting,
                points_by_side={side: points.get(side, 0) for side in sides},
                chips_by_side={side: chips.get(side, 0) for side in sides},
                winner_side=winner if complete else "",
            )
        )
    if night.is_check:
        for player, count in night_chips(_complete_sides(side_chips)).items():
            if player in lines:
                lines[player].chips = count
    _add_byes(night, lines, tables)
    result.lines = sorted(lines.values(), key=_rank(night.is_check))
    for line, place in zip(result.lines, places(result.lines, check=night.is_check), strict=True):
        line.place = place
    return result


def places(lines: list[PlayerLine], *, check: bool) -> list[int]:
    """The places of ranked lines, 1, 2, 3…; lines level on every figure the ranking reads share
    a place and the next place is skipped (two level first, then third)."""
    key = _rank(check)
    result: list[int] = []
    for index, line in enumerate(lines):
        level = index > 0 and key(line)[:3] == key(lines[index - 1])[:3]
        result.append(result[-1] if level else index + 1)
    return result


def _add_byes(night: Night, lines: dict[int, PlayerLine], tables: list[StartedTable]) -> None:
    """What the night's byes earn (`nights.settlement.byes`), in the totals and as lines of their
    own. One more query (the byes), only on a night whose bye earns something."""
    if night.bye_compensation == Night.ByeCompensation.NONE:
        return
    settlement = bye_settlements([night], tables)[night.pk]
    missing = {item.player for item in settlement.compensations} - set(lines)
    names = dict(Player.objects.filter(pk__in=missing).values_list("pk", "name")) if missing else {}
    for item in settlement.compensations:
        line = lines.setdefault(item.player, PlayerLine(item.player, names.get(item.player, "")))
        line.byes.append(item)
        line.points_diff += item.points
        line.points += item.own
        line.chips += item.chips
    for player, paid in settlement.charges.items():
        if player in lines:
            lines[player].chips += paid
            lines[player].bye_chips_paid += paid


def _complete_sides(games: Iterable[list[SideChips]]) -> list[list[SideChips]]:
    """Only sides whose players are all linked count (a seat unlinked by hand breaks the pair rule)."""
    return [sides for sides in games if len({len(side.players) for side in sides}) == 1]


def _rank(check: bool) -> Callable[[PlayerLine], tuple[int, int, int, str]]:
    def key(line: PlayerLine) -> tuple[int, int, int, str]:
        if check:
            return (-line.chips, -line.wins, -line.points_diff, line.name.lower())
        return (-line.wins, -line.points_diff, -line.chips, line.name.lower())

    return key
