"""Reads of the chip ledger: a night's settlement, a season's balances, a player's statement.

Every figure comes from the games' stored results (`GameStat`, written by the scoring
service from the rules engine in the transaction of every change of hands) and from the payments;
the arithmetic is `ledger.compute`'s. Each read is a fixed number of queries whatever the number of
nights, games or players. `engine_mismatches` scores a night's games again with the engine and
names any game whose stored result differs, before anything is marked as paid.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q

from clubs.models import Player, Season
from ledger import compute
from ledger.compute import CHIPS, MONEY, SeatResult, Stakes, Transfer
from ledger.models import NightLock, Payment
from nights.models import Night, NightTable
from nights.standings import table_figures
from scoring.models import Game, GameSeat, GameStat
from scoring.rules.tables import sides_for
from scoring.services import score

PlayerId = int


# --- the seats of a night's games ---------------------------------------------------------------


def _seat_results(nights: Sequence[Night]) -> dict[int, list[SeatResult]]:
    """Per night, the seats of its started tables' games with their side's figures (3 queries).

    What a table counts is the night standings' rule (`nights.standings.table_figures`, one
    definition for both pages): the game as it stands, its outcome once it is over (a round of a
    fixed number of hands is a game of that many deals, over after its last hand, game chips
    included). A game with a seat not linked to a player is left out, as the standings
    leave out its chips: the pair-wise rule needs every partner.
    """
    by_id = {night.pk: night for night in nights}
    tables = list(
        NightTable.objects.filter(night__in=nights, game__isnull=False)
        .select_related("game")
        .order_by("night_id", "round_no", "table_no")
    )
    game_ids = [table.game_id for table in tables]
    players: dict[int, dict[str, int | None]] = defaultdict(dict)
    for game_id, seat, player in GameSeat.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "seat", "player_id"
    ):
        players[game_id][seat] = player
    stats: dict[int, list[GameStat]] = defaultdict(list)
    for stat in GameStat.objects.filter(game_id__in=game_ids):
        stats[stat.game_id].append(stat)  # type: ignore[attr-defined]
    out: dict[int, list[SeatResult]] = defaultdict(list)
    for table in tables:
        game, night = table.game, by_id[table.night_id]  # type: ignore[attr-defined]
        assert game is not None
        seats = players.get(game.pk, {})
        if not seats or any(player is None for player in seats.values()):
            continue
        _points, chips, complete, winner = table_figures(game, stats[game.pk])
        for seat, player in seats.items():
            side = next(side for side in sides_for(game.seats) if seat in side)
            if not complete:
                outcome = ""
            elif winner == "draw":
                outcome = "draw"
            else:
                outcome = "win" if winner == side else "loss"
            out[night.pk].append(SeatResult(game.pk, side, int(player), chips.get(side, 0), outcome))  # type: ignore[arg-type]
    return out


def _stakes(night: Night) -> Stakes:
    return Stakes(per_chip=night.stake_per_chip, per_win=night.stake_per_win)


def night_figures(nights: Sequence[Night]) -> dict[int, compute.NightFigures]:
    seats = _seat_results(nights)
    return {
        night.pk: compute.night_figures(
            seats.get(night.pk, []), chips_in_play=night.is_check, stakes=_stakes(night)
        )
        for night in nights
    }


def _transfers(payments: Iterable[Payment]) -> list[Transfer]:
    return [Transfer(p.payer_id, p.payee_id, p.amount, p.unit) for p in payments]


def _names(ids: Iterable[PlayerId]) -> dict[PlayerId, str]:
    return dict(Player.objects.filter(pk__in=set(ids)).values_list("pk", "name"))


# --- a night's settlement -----------------------------------------------------------------------


@dataclass(frozen=True)
class Suggestion:
    """A payment that settles part of the outstanding balances: "Bo pays Anna 12"."""

    payer: PlayerId
    payer_name: str
    payee: PlayerId
    payee_name: str
    amount: Decimal
    unit: str


@dataclass
class PlayerRow:
    player: PlayerId
    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    chips: int = 0
    amount: Decimal = Decimal(0)  # what the night brought, in its unit
    open: Decimal = Decimal(0)  # after the night's payments: still to collect (+) or to pay (-)


@dataclass(frozen=True)
class LockedFigure:
    """A player whose figure of the night is not what it was when the night was locked."""

    name: str
    locked: Decimal | None  # None: not in the night when it was locked
    now: Decimal | None  # None: no longer in the night


def figures_for_lock(rows: Sequence[PlayerRow]) -> list[list[str]]:
    """A night's figures as a lock keeps them: [name, amount] by name (`NightLock.figures`)."""
    return [
        [row.name, str(row.amount)] for row in sorted(rows, key=lambda r: (r.name, r.player)) if row.games
    ]


def _changed(lock: NightLock | None, rows: Sequence[PlayerRow], unit: str | None) -> list[LockedFigure]:
    if lock is None:
        return []
    then = {name: Decimal(value) for name, value in lock.figures}
    now = {row.name: row.amount for row in rows if row.games} if unit == lock.unit else {}
    return [
        LockedFigure(name, then.get(name), now.get(name))
        for name in sorted(set(then) | set(now))
        if then.get(name) != now.get(name)
    ]


def player_order(names: dict[PlayerId, str]) -> list[PlayerId]:
    """The ledger's tie-break between players: by name, then id (a fixed rule, never a mapping's
    order), so the proposals read the same on every database and after a restore."""
    return sorted(names, key=lambda pk: (names[pk], pk))


@dataclass
class NightLedger:
    night: Night
    unit: str | None
    rows: list[PlayerRow]
    payments: list[Payment]
    suggestions: list[Suggestion]
    tables: int  # started tables
    open_tables: int  # tables whose game is still going
    mismatches: list[str] = field(default_factory=list)  # games whose stored result the engine disputes
    removed: list[Payment] = field(default_factory=list)  # marked by mistake and taken back
    locks: list[NightLock] = field(default_factory=list)  # every lock and unlock, oldest first
    changed: list[LockedFigure] = field(default_factory=list)  # figures unlike the locked ones

    @property
    def lock(self) -> NightLock | None:
        """The lock in force ("Settled — locked"), or None."""
        return next((lock for lock in self.locks if lock.unlocked_at is None), None)

    @property
    def settled(self) -> bool:
        """Finished, trusted and nothing left to pay: the night can be locked."""
        return bool(
            self.night.is_finished
            and self.unit
            and not self.mismatches
            and not self.suggestions
            and self.rows
        )

    @property
    def total_chips(self) -> int:
        return sum(row.chips for row in self.rows)

    @property
    def total_amount(self) -> Decimal:
        return sum((row.amount for row in self.rows), Decimal(0))


def night_ledger(night: Night, *, verify: bool = False) -> NightLedger:
    figures = night_figures([night])[night.pk]
    payments = list(
        Payment.objects.filter(night=night)
        .select_related("payer", "payee", "marked_by")
        .order_by("marked_at", "id")
    )
    unit = figures.unit
    books = compute.balances([(unit, figures.amounts)] if unit else [], _transfers(payments))
    book = books.get(unit, {}) if unit else {}
    names = _names([*figures.games, *(p.payer_id for p in payments), *(p.payee_id for p in payments)])
    rows = []
    for player in sorted(set(figures.games) | set(book), key=lambda pk: (names.get(pk, ""), pk)):
        amount = figures.amounts.get(player, Decimal(0))
        rows.append(
            PlayerRow(
                player,
                names.get(player, ""),
                figures.games.get(player, 0),
                figures.wins.get(player, 0),
                figures.losses.get(player, 0),
                figures.draws.get(player, 0),
                figures.chips.get(player, 0),
                amount,
                book.get(player, amount),
            )
        )
    order = player_order(names)
    start = dict(figures.amounts)
    suggestions = (
        _suggest(compute.proposals(start, unit, _transfers(payments), order=order), unit, names)
        if unit
        else []
    )
    games = list(night.games.values_list("finished", flat=True))
    open_tables = sum(1 for finished in games if not finished)
    ledger = NightLedger(night, unit, rows, payments, suggestions, len(games), open_tables)
    ledger.removed = list(
        Payment.all_objects.filter(night=night, removed_at__isnull=False).select_related("payer", "payee")
    )
    ledger.locks = list(NightLock.objects.filter(night=night).order_by("locked_at", "id"))
    ledger.changed = _changed(ledger.lock, rows, unit)
    if verify:
        ledger.mismatches = engine_mismatches(night)
    return ledger


def _suggest(payments: Iterable[compute.Payment], unit: str, names: dict[PlayerId, str]) -> list[Suggestion]:
    return [
        Suggestion(p.payer, names.get(p.payer, ""), p.payee, names.get(p.payee, ""), Decimal(p.amount), unit)
        for p in payments
    ]


def engine_mismatches(night: Night) -> list[str]:
    """The codes of the night's games whose stored result (finished, winner, chips) is not what the
    rules engine gives for their stored hands: the ledger is then not to be trusted until an admin
    runs `manage.py refresh_stats`."""
    wrong = []
    stored = defaultdict(dict)
    for game_id, side, chips in GameStat.objects.filter(game__night_table__night=night).values_list(
        "game_id", "side", "chips"
    ):
        stored[game_id][side] = chips
    for game in Game.objects.filter(night_table__night=night).prefetch_related("hands"):
        result = score(game, [hand.data for hand in sorted(game.hands.all(), key=lambda h: h.number)])
        if (
            result.finished != game.finished
            or (result.winner or "") != game.winner
            or dict(result.chips) != dict(game.chip_totals)
            or {side: chips for side, chips in result.chips.items()} != stored[game.pk]
        ):
            wrong.append(game.code)
    return wrong


# --- a season -----------------------------------------------------------------------------------


def season_payments(season: Season, *, removed: bool = False) -> list[Payment]:
    """The payments that count in a season: its nights' and its own (a removed night's stay); with
    `removed`, instead those an organiser took back."""
    manager = Payment.all_objects.filter(removed_at__isnull=False) if removed else Payment.objects.all()
    return list(
        manager.filter(Q(night__season=season) | Q(night__isnull=True, season=season))
        .select_related("payer", "payee", "night")
        .order_by("paid_on", "id")
    )


@dataclass
class SeasonRow:
    player: PlayerId
    name: str
    nights: int = 0
    chips: int = 0
    results: dict[str, Decimal] = field(default_factory=dict)  # what the nights brought, per unit
    balance: dict[str, Decimal] = field(default_factory=dict)


@dataclass
class NightEntry:
    night: Night
    unit: str | None
    players: int
    booked: bool
    lock: NightLock | None = None  # "Settled — locked"
    lock_matches: bool = True  # False: a correction changed the figures since it was locked


@dataclass
class SeasonLedger:
    season: Season
    units: list[str]
    rows: list[SeasonRow]
    nights: list[NightEntry]
    payments: list[Payment]
    suggestions: dict[str, list[Suggestion]]
    totals: dict[str, Decimal]  # per unit: always zero
    removed: list[Payment] = field(default_factory=list)

    @property
    def suggestion_list(self) -> list[Suggestion]:
        return [s for unit in self.units for s in self.suggestions.get(unit, [])]


def season_ledger(season: Season) -> SeasonLedger:
    nights = list(Night.objects.filter(season=season).order_by("played_on", "id"))
    booked = [night for night in nights if night.is_finished]
    figures = night_figures(booked)
    payments = season_payments(season)
    night_amounts = [(f.unit, f.amounts) for f in figures.values() if f.unit]
    results = compute.balances(night_amounts, [])
    books = compute.balances(night_amounts, _transfers(payments))
    ids = {p for f in figures.values() for p in f.games} | {p for book in books.values() for p in book}
    names = _names(ids)
    locks = _season_locks(nights)
    rows = {pk: SeasonRow(pk, names.get(pk, "")) for pk in ids}
    for f in figures.values():
        for player in f.games:
            rows[player].nights += 1
            rows[player].chips += f.chips.get(player, 0)
    units = [unit for unit in (MONEY, CHIPS) if unit in books]
    for unit in units:
        for player, value in books[unit].items():
            result = results.get(unit, {}).get(player, Decimal(0))
            rows[player].results[unit] = result
            rows[player].balance[unit] = value
    entries = [
        NightEntry(
            night,
            figures[night.pk].unit if night.pk in figures else None,
            len(figures[night.pk].games) if night.pk in figures else 0,
            night.is_finished,
            locks.get(night.pk),
            night.pk not in locks or _lock_matches(locks[night.pk], figures.get(night.pk), names),
        )
        for night in nights
    ]
    return SeasonLedger(
        season,
        units,
        sorted(rows.values(), key=lambda r: (r.name, r.player)),
        entries,
        payments,
        _season_proposals(night_amounts, payments, units, names),
        {unit: sum(books[unit].values(), Decimal(0)) for unit in units},
        season_payments(season, removed=True),
    )


def _season_proposals(
    night_amounts: list[tuple[str, dict[PlayerId, Decimal]]],
    payments: Sequence[Payment],
    units: Sequence[str],
    names: dict[PlayerId, str],
) -> dict[str, list[Suggestion]]:
    """Per unit, the season's proposals: replayed (`compute.proposals`) from the balances after the
    nights and their own payments through the payments recorded on the season's page (no night),
    in the order they were recorded."""
    own = sorted((p for p in payments if p.night_id is None), key=lambda p: (p.marked_at, p.pk))
    start = compute.balances(night_amounts, _transfers(p for p in payments if p.night_id is not None))
    order = player_order(names)
    return {
        unit: _suggest(
            compute.proposals(start.get(unit, {}), unit, _transfers(own), order=order), unit, names
        )
        for unit in units
    }


def _season_locks(nights: Sequence[Night]) -> dict[int, NightLock]:
    """The locks in force on these nights, by night id (one query)."""
    locks = NightLock.objects.filter(night__in=nights, unlocked_at__isnull=True)
    return {lock.night_id: lock for lock in locks}  # type: ignore[attr-defined]


def _lock_matches(lock: NightLock, f: compute.NightFigures | None, names: dict[PlayerId, str]) -> bool:
    then = {name: Decimal(value) for name, value in lock.figures}
    if f is None or f.unit != lock.unit:
        return not then
    return then == {names.get(player, ""): f.amounts.get(player, Decimal(0)) for player in f.games}


# --- a player's statement -----------------------------------------------------------------------


@dataclass
class StatementPage:
    season: Season
    player: Player
    month: datetime.date  # its first day
    months: list[datetime.date]  # every month of the season, for the month links
    units: list[str]
    statement: compute.Statement
    names: dict[PlayerId, str]
    nights: dict[int, Night]


def months_of(season: Season) -> list[datetime.date]:
    """The first days of the season's months, and of any later or earlier month in which one of its
    payments was marked (a season settled after its end still has a statement for that month)."""
    dates = [season.starts_on, season.ends_on]
    dates += Payment.objects.filter(
        Q(night__season=season) | Q(night__isnull=True, season=season)
    ).values_list("paid_on", flat=True)
    first, last = min(dates).replace(day=1), max(dates)
    out = []
    while first <= last:
        out.append(first)
        if (first.year, first.month) == (datetime.MAXYEAR, 12):
            break  # a season may end on 31 Dec 9999: no date names the month after it
        first = (first + datetime.timedelta(days=32)).replace(day=1)
    return out


def player_statement(season: Season, player: Player, month: datetime.date) -> StatementPage:
    """`player`'s lines in `month` (its first day) with the balance carried in from the season's
    earlier nights and payments, per unit."""
    nights = list(Night.objects.filter(season=season, finished_at__isnull=False))
    figures = night_figures(nights)
    lines: list[compute.Line] = []
    by_id = {night.pk: night for night in nights}
    for night_id, f in figures.items():
        if f.unit and player.pk in f.games:
            night = by_id[night_id]
            lines.append(
                compute.Line(night.played_on.isoformat(), "night", night.pk, f.unit, f.amounts[player.pk])
            )
    for p in season_payments(season):
        if p.payer_id == player.pk:
            lines.append(compute.Line(p.paid_on.isoformat(), "paid", p.pk, p.unit, p.amount, p.payee_id))
        if p.payee_id == player.pk:
            lines.append(compute.Line(p.paid_on.isoformat(), "received", p.pk, p.unit, -p.amount, p.payer_id))
    if (month.year, month.month) == (datetime.MAXYEAR, 12):
        following = "9999-13"  # no date names the month after; the ISO dates compare as text
    else:
        following = (month + datetime.timedelta(days=32)).replace(day=1).isoformat()
    result = compute.statement(lines, month_start=month.isoformat(), month_end=following)
    units = [unit for unit in (MONEY, CHIPS) if unit in result.closing]
    others = [line.other for line in result.lines if line.other is not None]
    return StatementPage(season, player, month, months_of(season), units, result, _names(others), by_id)


# --- the whole club -----------------------------------------------------------------------------


def club_balances(club_id: int) -> dict[str, dict[PlayerId, Decimal]]:
    """Per unit, every player's balance over all the club's finished nights and payments (every
    season, and nights in none). Its values add up to zero in each unit, whatever has changed."""
    nights = list(Night.objects.filter(club_id=club_id, finished_at__isnull=False))
    figures = night_figures(nights)
    amounts = [(f.unit, f.amounts) for f in figures.values() if f.unit]
    return compute.balances(amounts, _transfers(Payment.objects.filter(club_id=club_id)))
