"""Reads of the chip ledger: a night's settlement, and the figures every ledger page shares (a
season's balances and a player's statement are `ledger.balances`).

Every figure comes from the games' stored results (`GameStat`, written by the scoring
service from the rules engine in the transaction of every change of hands) and from the payments;
the arithmetic is `ledger.compute`'s. Each read is a fixed number of queries whatever the number of
nights, games or players. `engine_mismatches` scores a night's games again with the engine and
names any game whose stored result differs, before anything is marked as paid.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from clubs.models import Player
from ledger import compute
from ledger.compute import SeatResult, Stakes, Transfer
from ledger.models import NightLock, Payment
from nights.byes import bye_settlements
from nights.figures import StartedTable, started_tables
from nights.models import Night
from nights.settlement.payments import Payment as SettlementPayment
from scoring.models import Game, GameStat
from scoring.services.results import score

PlayerId = int


# --- the seats of a night's games ---------------------------------------------------------------


def _seat_results(tables: Sequence[StartedTable]) -> dict[int, list[SeatResult]]:
    """Per night, the seats of its started tables' games with their side's figures.

    What a table counts is the night standings' rule (`nights.figures`, one definition for both
    pages): the game as it stands, its outcome once it is over (a round of a fixed number of hands
    is a game of that many deals, over after its last hand, game chips included). A game with a
    seat not linked to a player is left out, as the standings leave out its chips: the pair-wise
    rule needs every partner.
    """
    out: dict[int, list[SeatResult]] = defaultdict(list)
    for table in tables:
        players = table.players
        if players is None:
            continue
        for seat, player in players.items():
            side = table.side_of(seat)
            if not table.complete:
                outcome = ""
            elif table.winner == "draw":
                outcome = "draw"
            else:
                outcome = "win" if table.winner == side else "loss"
            out[table.night_id].append(
                SeatResult(table.game.pk, side, player, table.chips.get(side, 0), outcome)
            )
    return out


def _stakes(night: Night) -> Stakes:
    return Stakes(per_chip=night.stake_per_chip, per_win=night.stake_per_win)


def night_figures(nights: Sequence[Night]) -> dict[int, compute.NightFigures]:
    tables = started_tables(nights)
    seats = _seat_results(tables)
    # What byes earn, as the night's standings count it (no query for nights where a bye earns nothing).
    byes = bye_settlements([night for night in nights if night.is_check], tables)
    return {
        night.pk: compute.night_figures(
            seats.get(night.pk, []),
            chips_in_play=night.is_check,
            stakes=_stakes(night),
            bye_chips=byes[night.pk].chips() if night.pk in byes else None,
        )
        for night in nights
    }


def transfers_of(payments: Iterable[Payment]) -> list[Transfer]:
    return [Transfer(p.payer_id, p.payee_id, p.amount, p.unit) for p in payments]


def player_names(ids: Iterable[PlayerId]) -> dict[PlayerId, str]:
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
    books = compute.balances([(unit, figures.amounts)] if unit else [], transfers_of(payments))
    book = books.get(unit, {}) if unit else {}
    names = player_names([*figures.games, *(p.payer_id for p in payments), *(p.payee_id for p in payments)])
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
        proposed_payments(compute.proposals(start, unit, transfers_of(payments), order=order), unit, names)
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


def proposed_payments(
    payments: Iterable[SettlementPayment], unit: str, names: dict[PlayerId, str]
) -> list[Suggestion]:
    return [
        Suggestion(p.payer, names.get(p.payer, ""), p.payee, names.get(p.payee, ""), Decimal(p.amount), unit)
        for p in payments
    ]


def engine_mismatches(night: Night) -> list[str]:
    """The codes of the night's games whose stored result (finished, winner, chips) is not what the
    rules engine gives for their stored hands: the ledger is then not to be trusted until an admin
    runs `manage.py refresh_stats`."""
    wrong = []
    stored: dict[int, dict[str, int]] = defaultdict(dict)
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


def marked_payments(night: Night) -> list[Payment]:
    """The payments marked (and not taken back) for a night's settlement, by date: what removing
    the night keeps in its season's ledger or takes back."""
    payments = Payment.objects.filter(night=night, removed_at__isnull=True)
    return list(payments.select_related("payer", "payee", "season").order_by("paid_on", "id"))


def settled_and_locked(night: Night) -> bool:
    """Whether the ledger holds the night "Settled — locked": its payments cannot change, so
    neither can the night be removed."""
    return NightLock.objects.filter(night=night, unlocked_at__isnull=True).exists()
