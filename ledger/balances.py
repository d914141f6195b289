"""Reads of the chip ledger over many nights: a season's balances, a player's monthly statement,
a club's balances. The figures of each night are `ledger.selectors`' (the games' stored results
and the payments), the arithmetic `ledger.compute`'s; each read is a fixed number of queries
whatever the number of nights, games or players.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q

from clubs.models import Player, Season
from ledger import compute
from ledger.compute import CHIPS, MONEY
from ledger.models import NightLock, Payment
from ledger.selectors import (
    PlayerId,
    Suggestion,
    night_figures,
    player_names,
    player_order,
    proposed_payments,
    transfers_of,
)
from nights.models import Night

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
    books = compute.balances(night_amounts, transfers_of(payments))
    ids = {p for f in figures.values() for p in f.games} | {p for book in books.values() for p in book}
    names = player_names(ids)
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
    start = compute.balances(night_amounts, transfers_of(p for p in payments if p.night_id is not None))
    order = player_order(names)
    return {
        unit: proposed_payments(
            compute.proposals(start.get(unit, {}), unit, transfers_of(own), order=order), unit, names
        )
        for unit in units
    }


def _season_locks(nights: Sequence[Night]) -> dict[int, NightLock]:
    """The locks in force on these nights, by night id (one query)."""
    locks = NightLock.objects.filter(night__in=nights, unlocked_at__isnull=True)
    return {lock.night_id: lock for lock in locks}


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
    return StatementPage(season, player, month, months_of(season), units, result, player_names(others), by_id)


# --- the whole club -----------------------------------------------------------------------------


def club_balances(club_id: int) -> dict[str, dict[PlayerId, Decimal]]:
    """Per unit, every player's balance over all the club's finished nights and payments (every
    season, and nights in none). Its values add up to zero in each unit, whatever has changed."""
    nights = list(Night.objects.filter(club_id=club_id, finished_at__isnull=False))
    figures = night_figures(nights)
    amounts = [(f.unit, f.amounts) for f in figures.values() if f.unit]
    return compute.balances(amounts, transfers_of(Payment.objects.filter(club_id=club_id)))
