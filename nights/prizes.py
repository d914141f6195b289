"""The night's results: its standings, the prizes the organiser ticked on and who wins them, the
standings of each group of players, and each player's card. Read here, in a fixed number of
queries, so the pages only fetch and render.

The prizes (docs/user-guide.md, "Prizes"):

- 1st, 2nd and 3rd place: the standings' places. Players level on every figure the ranking reads
  share the place and the next place is skipped (two level first: both win 1st, no one 2nd).
- High game: the most points a side scored in one table's game (both partners win it).
- High meld: the most meld a side declared in one hand, as the table entered it (before "meld
  needs a trick" or "meld counts from" took it away): the side's, not a seat's, because a table may
  enter a partnership's meld as one number; at 2 or 3 seats a side is one player.
- Each table's winners: the side that won each table's game (none for a draw, a table still in
  play or one stopped when the night was finished).
- Each group's winner: the first of each group's own standings (a group is the short label the
  organiser gives players of the night, "Men", "Women", "Couples").

Every prize a tie leaves to more than one player or side goes to all of them and says it is shared.
While the night is under way the prizes are those of the standings so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from nights.models import Night, NightBye
from nights.settlement.byes import BYE, Compensation
from nights.standings import NightStandings, PlayerLine, TableLine, night_standings, places
from scoring.labels import SEAT_NAMES
from scoring.models import HandStat
from scoring.rules.scale import shown


@dataclass(frozen=True)
class Winner:
    """Who wins a prize: one player, or a side's partners; `where` names the table of a high game
    or meld."""

    names: tuple[str, ...]
    player_ids: frozenset[int]
    where: str = ""


@dataclass(frozen=True)
class Prize:
    kind: str  # "place", "high_game", "high_meld", "group", "table"
    title: str
    winners: tuple[Winner, ...] = ()
    figure: str = ""  # "250 points" for a high game or meld
    note: str = ""  # why no one wins it (yet)

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1

    def won_by(self, player_id: int) -> bool:
        return any(player_id in winner.player_ids for winner in self.winners)


@dataclass(frozen=True)
class GroupStandings:
    label: str
    lines: list[tuple[int, PlayerLine]]  # (place in the group, the player's line)


@dataclass(frozen=True)
class NightResults:
    night: Night
    standings: NightStandings
    prizes: list[Prize]
    groups: list[GroupStandings]
    group_of: dict[int, str] = field(default_factory=dict)  # player id -> group label
    names: dict[int, str] = field(default_factory=dict)  # every player checked in, by id

    @property
    def ranked(self) -> list[tuple[int, PlayerLine]]:
        """(place, line) of every player of the night, first first."""
        return [(line.place, line) for line in self.standings.lines]

    def prizes_of(self, player_id: int) -> list[Prize]:
        return [prize for prize in self.prizes if prize.won_by(player_id)]


def where(table: TableLine) -> str:
    return _("Round %(round)s · Table %(table)s") % {"round": table.round_no, "table": table.table_no}


def _points(count: int, scale: int = 1) -> str:
    """A prize's figure at the night's scale (points ×10, a house rule), as its tables saw it."""
    count = shown(count, scale)
    return ngettext("%(count)d point", "%(count)d points", count) % {"count": count}


def _side(table: TableLine, side: str, *, at: bool) -> Winner:
    sitting = table.members.get(side, [])
    return Winner(
        names=tuple(name for _seat, _player, name in sitting),
        player_ids=frozenset(player for _seat, player, _name in sitting if player is not None),
        where=where(table) if at else "",
    )


def _player(line: PlayerLine) -> Winner:
    return Winner(names=(line.name,), player_ids=frozenset({line.player_id}))


def night_results(night: Night) -> NightResults:
    """The standings (4 queries), the groups and names of the night's players (1 query) and, when
    the high meld prize is ticked on, each side's best meld per table (1 query)."""
    standings = night_standings(night)
    entries = list(night.players.values_list("player_id", "group", "player__name"))
    group_of = {player: group for player, group, _name in entries if group}
    names = {player: name for player, _group, name in entries}
    groups = group_standings(standings, group_of, check=night.is_check)
    prizes = place_prizes(night, standings)
    if night.prize_high_game:
        prizes.append(high_game(standings, scale=night.scale))
    if night.prize_high_meld:
        prizes.append(high_meld(standings, _best_melds(standings), scale=night.scale))
    if night.prize_groups:
        prizes.extend(group_prizes(groups))
    if night.prize_table_winners:
        prizes.extend(table_prizes(standings))
    return NightResults(night, standings, prizes, groups, group_of, names)


def group_standings(
    standings: NightStandings, group_of: dict[int, str], *, check: bool
) -> list[GroupStandings]:
    """Each group's own standings, groups by label: the night's order, places counted afresh."""
    labels = sorted(set(group_of.values()), key=str.lower)
    result = []
    for label in labels:
        lines = [line for line in standings.lines if group_of.get(line.player_id) == label]
        if lines:
            result.append(GroupStandings(label, list(zip(places(lines, check=check), lines, strict=True))))
    return result


def place_prizes(night: Night, standings: NightStandings) -> list[Prize]:
    titles = {1: _("1st place"), 2: _("2nd place"), 3: _("3rd place")}
    ticked = {1: night.prize_first, 2: night.prize_second, 3: night.prize_third}
    prizes = []
    for place, title in titles.items():
        if not ticked[place]:
            continue
        winners = tuple(_player(line) for line in standings.lines if line.place == place)
        note = ""
        if not winners and standings.lines:
            note = _("No one: players level before it share a higher place.")
        prizes.append(Prize("place", title, winners, note=note))
    return prizes


def high_game(standings: NightStandings, *, scale: int = 1) -> Prize:
    scores = [
        (points, table, side) for table in standings.tables for side, points in table.points_by_side.items()
    ]
    best = max((points for points, _table, _side_ in scores), default=0)
    if best <= 0:
        return Prize("high_game", _("High game"), note=_("No points scored yet."))
    winners = tuple(_side(table, side, at=True) for points, table, side in scores if points == best)
    return Prize("high_game", _("High game"), winners, figure=_points(best, scale))


def _best_melds(standings: NightStandings) -> dict[tuple[int, str], int]:
    """Each side's best meld in one hand, per game: {(game id, side): meld}."""
    games = [table.game.pk for table in standings.tables]
    rows = HandStat.objects.filter(game_id__in=games).values("game_id", "side").annotate(best=Max("meld"))
    return {(row["game_id"], row["side"]): row["best"] or 0 for row in rows}


def high_meld(standings: NightStandings, melds: dict[tuple[int, str], int], *, scale: int = 1) -> Prize:
    best = max(melds.values(), default=0)
    if best <= 0:
        return Prize("high_meld", _("High meld"), note=_("No meld declared yet."))
    tables = {table.game.pk: table for table in standings.tables}
    winners = tuple(
        _side(tables[game], side, at=True)
        for (game, side), meld in sorted(melds.items(), key=lambda item: _order(tables[item[0][0]]))
        if meld == best and game in tables
    )
    return Prize("high_meld", _("High meld"), winners, figure=_points(best, scale))


def _order(table: TableLine) -> tuple[int, int]:
    return (table.round_no, table.table_no)


def group_prizes(groups: list[GroupStandings]) -> list[Prize]:
    return [
        Prize(
            "group",
            _("Winner of the group %(group)s") % {"group": group.label},
            tuple(_player(line) for place, line in group.lines if place == 1),
        )
        for group in groups
    ]


def table_prizes(standings: NightStandings) -> list[Prize]:
    prizes = []
    for table in standings.tables:
        if table.winner_side in table.members:
            prizes.append(Prize("table", where(table), (_side(table, table.winner_side, at=False),)))
        elif table.winner_side == "draw":
            prizes.append(Prize("table", where(table), note=_("A draw: no winner.")))
        elif table.stopped:
            stopped = _("Stopped when the night was finished: no winner.")
            prizes.append(Prize("table", where(table), note=stopped))
        else:
            prizes.append(Prize("table", where(table), note=_("Still in play.")))
    return prizes


# --- a player's card ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CardRound:
    """One round of a player's night: the table, seat, partners and opponents and how it went;
    `table_no` is None for a round the player sat out."""

    round_no: int
    table_no: int | None = None
    seat: str = ""
    partners: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    points: int = 0
    against: int = 0  # the best opposing side's points
    chips: int = 0
    outcome: str = "bye"  # "won", "lost", "draw", "playing", "stopped", "bye"
    # A round sat out: what the bye earned as the standings count it (`PlayerLine.byes`); None
    # when the night's bye earns nothing.
    bye: Compensation | None = None


@dataclass(frozen=True)
class PlayerCard:
    results: NightResults
    player_id: int
    name: str
    line: PlayerLine
    group: str
    rounds: list[CardRound]
    prizes: list[Prize]


def player_card(night: Night, player_id: int) -> PlayerCard | None:
    """One player's night (the night's results and 1 query for the byes); None for a player not
    checked in for the night nor seated at one of its tables."""
    results = night_results(night)
    line = next((line for line in results.standings.lines if line.player_id == player_id), None)
    if line is None and player_id not in results.names:
        return None
    name = line.name if line else results.names[player_id]
    started = {table.round_no for table in results.standings.tables}
    byes = NightBye.objects.filter(night=night, player_id=player_id, round_no__in=started)
    earned = {item.round_no: item for item in line.byes if item.reason == BYE} if line else {}
    rounds = [
        CardRound(round_no, bye=earned.get(round_no)) for round_no in byes.values_list("round_no", flat=True)
    ]
    for table in results.standings.tables:
        seat_round = _card_round(table, player_id)
        if seat_round is not None:
            rounds.append(seat_round)
    rounds.sort(key=lambda r: r.round_no)
    return PlayerCard(
        results=results,
        player_id=player_id,
        name=name,
        line=line or PlayerLine(player_id, name),
        group=results.group_of.get(player_id, ""),
        rounds=rounds,
        prizes=results.prizes_of(player_id),
    )


def _card_round(table: TableLine, player_id: int) -> CardRound | None:
    found = [
        (side, seat) for side, sitting in table.members.items() for seat, p, _n in sitting if p == player_id
    ]
    if not found:
        return None
    side, seat = found[0]
    others = [points for other, points in table.points_by_side.items() if other != side]
    points = table.points_by_side.get(side, 0)
    against = max(others) if others else 0
    if table.winner_side == side:
        outcome = "won"
    elif table.winner_side == "draw":
        outcome = "draw" if points >= against else "lost"
    elif table.winner_side:
        outcome = "lost"
    else:
        outcome = "stopped" if table.stopped else "playing"
    return CardRound(
        round_no=table.round_no,
        table_no=table.table_no,
        seat=str(SEAT_NAMES[seat]),
        partners=tuple(name for _s, p, name in table.members[side] if p != player_id),
        opponents=tuple(
            name for other, sitting in table.members.items() if other != side for _s, _p, name in sitting
        ),
        points=points,
        against=against,
        chips=table.chips_by_side.get(side, 0),
        outcome=outcome,
    )
