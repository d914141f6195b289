"""The chip ledger's arithmetic: from the games of a night to what each player won or owes, and from
a season's nights and payments to each player's balance. Plain Python (no Django); the rules of
settlement themselves (pair-wise chips, stakes per game won, fewest payments) are
`nights.settlement`'s, called here, never repeated.

**What a night is worth.** Every seat of every game of the night brings its side's result
(`SeatResult`): in Check Pinochle the side's final chips (game chips included), and whether the
side won, lost or drew. Each partner of a side collects or pays the side's chips in full
(`nights.settlement.chips.night_chips`), so a night's chips add up to zero.

**Which unit a night is settled in** (`night_unit`): money when the night has a stake (per chip in
Check Pinochle, per game won in any night), chips when a Check Pinochle night plays for no money, and
nothing when a standard night has no stake. Money = net chips x stake per chip + the stakes per game
won (`nights.settlement.chips.game_stakes`); both parts are zero-sum, so the sum is too.

**Balances.** A player's balance in a unit is what their nights brought (positive: is owed) plus
what they paid minus what they were paid: Bo at -12 pays Anna 12 and both are at 0. Every payment
adds the same amount to one player and takes it from another, so the balances of a club, a season or
a night add up to zero after any change of games, payments or players.

Worked example: a Check Pinochle night at 0.50 a chip; Anna and Cleo beat Bo and Dan by 12 chips,
then Anna and Bo beat Cleo and Dan by 4. Net chips: Anna +16, Bo -8, Cleo +8, Dan -16; money: Anna
8.00, Bo -4.00, Cleo 4.00, Dan -8.00; fewest payments: Bo pays Cleo 4.00 and Dan pays Anna 8.00
(two pairs that each add up to zero need one payment each, not three).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from nights.settlement.chips import GameOutcome, SideChips, game_stakes, night_chips
from nights.settlement.payments import Payment, fewest_payments

PlayerId = int

MONEY = "money"
CHIPS = "chips"
CENT = Decimal("0.01")


@dataclass(frozen=True)
class SeatResult:
    """One player's seat in one game of a night, with the side's figures as stored for that game."""

    game: int
    side: str  # "NS", "EW" at 4 seats; the seat letter at 3 and 2
    player: PlayerId
    chips: int  # the side's net chips (0 where chips are not in play)
    outcome: str  # "win", "loss", "draw" or "" (not decided: the game is still going)


@dataclass(frozen=True)
class Stakes:
    """A night's stakes: money per chip and per game won (None or 0: none)."""

    per_chip: Decimal | None = None
    per_win: Decimal | None = None

    @property
    def chip_stake(self) -> Decimal | None:
        return self.per_chip if self.per_chip else None

    @property
    def win_stake(self) -> Decimal | None:
        return self.per_win if self.per_win else None


def night_unit(*, chips_in_play: bool, stakes: Stakes) -> str | None:
    """The unit a night is settled in (module docstring): money, chips, or None (nothing to settle)."""
    if stakes.win_stake is not None or (chips_in_play and stakes.chip_stake is not None):
        return MONEY
    return CHIPS if chips_in_play else None


@dataclass(frozen=True)
class NightFigures:
    """What a night brings each player: games, their record (won, lost, drawn; a game still being
    played is none of them), net chips and the amount in the night's unit."""

    unit: str | None
    games: dict[PlayerId, int]
    wins: dict[PlayerId, int]
    losses: dict[PlayerId, int]
    draws: dict[PlayerId, int]
    chips: dict[PlayerId, int]
    amounts: dict[PlayerId, Decimal]  # in `unit`; empty when there is nothing to settle


def night_figures(
    seats: Iterable[SeatResult],
    *,
    chips_in_play: bool,
    stakes: Stakes,
    bye_chips: Mapping[PlayerId, int] | None = None,
) -> NightFigures:
    """Every player's figures for one night from the seats of its games (module docstring), plus
    `bye_chips`: the chips byes earned and cost (`nights.settlement.byes`; they add up to zero), so
    a bye's chips are money like any other chips.

    >>> seats = [SeatResult(1, "NS", 1, 6, "win"), SeatResult(1, "NS", 3, 6, "win"),
    ...          SeatResult(1, "EW", 2, -6, "loss"), SeatResult(1, "EW", 4, -6, "loss")]
    >>> night_figures(seats, chips_in_play=True, stakes=Stakes(per_chip=Decimal("0.5"))).amounts
    {1: Decimal('3.00'), 3: Decimal('3.00'), 2: Decimal('-3.00'), 4: Decimal('-3.00')}
    """
    by_game: dict[int, dict[str, list[SeatResult]]] = defaultdict(lambda: defaultdict(list))
    games: dict[PlayerId, int] = {}
    wins: dict[PlayerId, int] = {}
    losses: dict[PlayerId, int] = {}
    draws: dict[PlayerId, int] = {}
    for seat in seats:
        by_game[seat.game][seat.side].append(seat)
        games[seat.player] = games.get(seat.player, 0) + 1
        wins[seat.player] = wins.get(seat.player, 0) + (seat.outcome == "win")
        losses[seat.player] = losses.get(seat.player, 0) + (seat.outcome == "loss")
        draws[seat.player] = draws.get(seat.player, 0) + (seat.outcome == "draw")
    chips: dict[PlayerId, int] = {player: 0 for player in games}
    if chips_in_play:
        sides = [
            [SideChips(tuple(s.player for s in rows), rows[0].chips) for rows in game.values()]
            for game in by_game.values()
        ]
        chips.update(night_chips(sides))
        for player, count in (bye_chips or {}).items():
            if count:
                games.setdefault(player, 0)
                chips[player] = chips.get(player, 0) + count
    unit = night_unit(chips_in_play=chips_in_play, stakes=stakes)
    amounts: dict[PlayerId, Decimal] = {}
    if unit == CHIPS:
        amounts = {player: Decimal(count) for player, count in chips.items()}
    elif unit == MONEY:
        amounts = {player: Decimal(0) for player in games}
        if chips_in_play and stakes.chip_stake is not None:
            for player, count in chips.items():
                amounts[player] += count * stakes.chip_stake
        if stakes.win_stake is not None:
            outcomes = [_outcome(game) for game in by_game.values()]
            for player, money in game_stakes([o for o in outcomes if o], stakes.win_stake).items():
                amounts[player] += money
        amounts = {player: value.quantize(CENT) for player, value in amounts.items()}
    return NightFigures(unit, games, wins, losses, draws, chips, amounts)


def _outcome(game: Mapping[str, Sequence[SeatResult]]) -> GameOutcome | None:
    """Winners and losers of a decided game; None while it is going on (a draw: no winners)."""
    rows = [seat for side in game.values() for seat in side]
    if any(seat.outcome == "" for seat in rows):
        return None
    winners = tuple(seat.player for seat in rows if seat.outcome == "win")
    losers = tuple(seat.player for seat in rows if seat.outcome != "win") if winners else ()
    return GameOutcome(winners=winners, losers=losers)


@dataclass(frozen=True)
class Transfer:
    """A payment already made: `payer` paid `payee` `amount` in `unit`."""

    payer: PlayerId
    payee: PlayerId
    amount: Decimal
    unit: str


def balances(
    amounts: Iterable[tuple[str, Mapping[PlayerId, Decimal]]], transfers: Iterable[Transfer]
) -> dict[str, dict[PlayerId, Decimal]]:
    """Per unit, each player's balance: the nights' amounts plus what they paid minus what they got.

    >>> balances([(CHIPS, {1: Decimal(12), 2: Decimal(-12)})], [Transfer(2, 1, Decimal(12), CHIPS)])
    {'chips': {1: Decimal('0'), 2: Decimal('0')}}
    """
    out: dict[str, dict[PlayerId, Decimal]] = {}
    for unit, night in amounts:
        book = out.setdefault(unit, {})
        for player, value in night.items():
            book[player] = book.get(player, Decimal(0)) + value
    for transfer in transfers:
        book = out.setdefault(transfer.unit, {})
        book[transfer.payer] = book.get(transfer.payer, Decimal(0)) + transfer.amount
        book[transfer.payee] = book.get(transfer.payee, Decimal(0)) - transfer.amount
    return out


def settle(
    book: Mapping[PlayerId, Decimal],
    unit: str,
    *,
    order: Sequence[PlayerId] = (),
    prefer: Iterable[tuple[PlayerId, PlayerId, Decimal | None]] = (),
) -> list[Payment]:
    """The fewest payments that bring every balance of `book` to zero (`nights.settlement`), with
    its tie-break `order` and `prefer`red payments. Chips are whole numbers; money is settled in cents.
    """
    if unit == CHIPS:
        whole = {player: int(value) for player, value in book.items()}
        wanted = [(a, b, None if v is None else int(v)) for a, b, v in prefer]
        return fewest_payments(whole, order=order, prefer=wanted)
    cents = {player: value.quantize(CENT) for player, value in book.items()}
    payments = fewest_payments(cents, order=order, prefer=prefer)
    return [Payment(p.payer, p.payee, Decimal(p.amount).quantize(CENT)) for p in payments]


def proposals(
    start: Mapping[PlayerId, Decimal],
    unit: str,
    transfers: Iterable[Transfer],
    *,
    order: Sequence[PlayerId] = (),
) -> list[Payment]:
    """The payments proposed now, replayed from the balances before any payment (`start`) through
    the payments recorded since, in the order they were recorded.

    The first proposals are the fewest payments for `start`. A recorded payment that is one of the
    proposals takes it off the list and leaves the others as they were: they still settle the
    balances, in as few payments as any (one payment can lower the minimum by at most one). Any
    other payment (part of a proposal, one between other players, a payment that a correction of
    the games has made too large) proposes again, keeping what it can, best first: the proposals
    shown before, then paybacks straight to a player who paid (and further payments to one who was
    paid), the latest payment first; each only where the count stays at its minimum.

    So the list depends on nothing but the stored figures and payments: every page, a second
    organiser's phone and a restored backup show the same proposals.

    Worked example: Anna +12, Bo −12, Cleo +5, Dan −5 propose "Bo pays Anna 12" and "Dan pays Cleo
    5". Bo pays: "Dan pays Cleo 5" is left as it was. A correction then gives Anna +10 and Bo −10:
    Anna now owes Bo 2, proposed straight back to Bo rather than through Cleo or Dan.
    """
    book = {player: Decimal(value) for player, value in start.items()}
    current = settle(book, unit, order=order)
    made: list[Transfer] = []
    for transfer in transfers:
        if transfer.unit != unit or transfer.payer == transfer.payee:
            continue
        book[transfer.payer] = book.get(transfer.payer, Decimal(0)) + transfer.amount
        book[transfer.payee] = book.get(transfer.payee, Decimal(0)) - transfer.amount
        made.append(transfer)
        match = next(
            (
                index
                for index, p in enumerate(current)
                if (p.payer, p.payee, p.amount) == (transfer.payer, transfer.payee, transfer.amount)
            ),
            None,
        )
        if match is not None:
            current = current[:match] + current[match + 1 :]
            continue
        prefer: list[tuple[PlayerId, PlayerId, Decimal | None]] = [
            (p.payer, p.payee, Decimal(p.amount)) for p in current
        ]
        for earlier in reversed(made):
            prefer += [(earlier.payee, earlier.payer, None), (earlier.payer, earlier.payee, None)]
        current = settle(book, unit, order=order, prefer=prefer)
    return current


@dataclass
class Line:
    """One line of a player's statement: a night's result or a payment, and the balance after it."""

    date: str  # ISO date, so lines sort by it
    kind: str  # "night", "paid", "received"
    ref: int  # the night's or the payment's id
    unit: str
    amount: Decimal
    other: PlayerId | None = None  # who was paid / who paid
    balance: Decimal = Decimal(0)

    @property
    def day(self) -> datetime.date:
        return datetime.date.fromisoformat(self.date)


@dataclass
class Statement:
    """A player's lines of one month with the balance carried in from before it, per unit."""

    opening: dict[str, Decimal] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)
    closing: dict[str, Decimal] = field(default_factory=dict)


def statement(lines: Iterable[Line], *, month_start: str, month_end: str) -> Statement:
    """Running balances per unit over `lines` (any order), keeping the lines dated in the month
    (ISO dates, `month_start` <= date < `month_end`); earlier lines make the opening balance."""
    result = Statement()
    running: dict[str, Decimal] = {}
    for line in sorted(lines, key=lambda item: (item.date, item.kind != "night", item.ref)):
        if line.date >= month_end:
            break
        running[line.unit] = running.get(line.unit, Decimal(0)) + line.amount
        line.balance = running[line.unit]
        if line.date < month_start:
            result.opening[line.unit] = running[line.unit]
        else:
            result.lines.append(line)
    result.closing = dict(running)
    return result
