"""The chip ledger of a club night: who won what, and the fewest payments that settle it.

Plain Python (no Django). Every rule here is zero-sum: the balances of a night always add up to 0.

**Check Pinochle chips are settled pair-wise.** A game's result gives each side (partnership) its
net chips, and the two sides' chips add up to zero (rule book, section 6). Each partner of a side
collects or pays the side's chips in full: a side at +6 gives each of its two players +6 and each
of its two opponents -6 (the four balances +6, +6, -6, -6 add up to 0). A night's net chips per
player are the sum over the games they played.

**Money from chips**: net chips x the club's stake per chip (`Decimal`, e.g. `Decimal("0.50")`).

**Standard nights, stake per game won**: every player on a losing side pays the stake once, and the
winning side's players share what the losers paid equally. At 4 seats each loser pays 1 stake and each
winner collects 1 stake; at 3 seats the two losers pay 1 stake each and the winner collects 2; at
2 seats the loser pays 1 and the winner collects 1. A drawn game (no winner) moves no money.

**Fewest payments.** Given balances that add up to zero (positive: is owed, negative: owes), the
payments "payer pays payee amount" that settle every balance exactly. With n players who do not
break even, n - 1 payments always suffice; the minimum is n - k, where k is the largest number of
groups the players can be split into so that every group's balances add up to zero (each group
settles within itself with one payment fewer than its size). `fewest_payments` finds that k exactly
with a search over all subsets when at most `EXACT_LIMIT` (12) players do not break even, and
otherwise settles greedily (the largest debtor pays the largest creditor, at most n - 1 payments).

Worked example: Anna +12, Bo -12, Cleo +5, Dan -3, Eva -2. The groups {Anna, Bo} and {Cleo, Dan,
Eva} each add up to zero, so 1 + 2 = 3 payments: Bo pays Anna 12, Dan pays Cleo 3, Eva pays Cleo 2.
The greedy rule alone is not always this good: for +5 +4 -4 -3 -2 it makes 4 payments (the -4 pays
the +5 first), the groups {+4, -4} and {+5, -3, -2} need only 3.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeVar

PlayerId = int
Amount = TypeVar("Amount", int, Decimal)

EXACT_LIMIT = 12


class LedgerError(ValueError):
    """Figures the ledger refuses; `code` names the problem for a translated message."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class SideChips:
    """One side of a Check Pinochle game and the side's net chips in that game (+6, -6, ...)."""

    players: tuple[PlayerId, ...]
    chips: int


@dataclass(frozen=True)
class GameOutcome:
    """A standard game's result for a stake per game won: the winning and the losing players.

    A drawn game has no winners (and moves no money).
    """

    winners: tuple[PlayerId, ...]
    losers: tuple[PlayerId, ...]


@dataclass(frozen=True)
class Payment:
    """`payer` pays `payee` `amount` (always more than zero)."""

    payer: PlayerId
    payee: PlayerId
    amount: int | Decimal


def night_chips(games: Iterable[Sequence[SideChips]]) -> dict[PlayerId, int]:
    """Each player's net chips over the night's games: every partner gets the side's chips in full.

    >>> night_chips([[SideChips((1, 3), 6), SideChips((2, 4), -6)]])
    {1: 6, 3: 6, 2: -6, 4: -6}
    """
    totals: dict[PlayerId, int] = {}
    for number, sides in enumerate(games, start=1):
        if sum(side.chips for side in sides) != 0:
            raise LedgerError(
                f"Game {number}: the sides' chips do not add up to zero.", code="chips_not_zero"
            )
        if len({len(side.players) for side in sides}) > 1:
            raise LedgerError(
                f"Game {number}: the sides have different numbers of players.", code="side_sizes"
            )
        for side in sides:
            for player in side.players:
                totals[player] = totals.get(player, 0) + side.chips
    return totals


def chips_to_money(chips: Mapping[PlayerId, int], stake_per_chip: Decimal) -> dict[PlayerId, Decimal]:
    """Net chips x the stake per chip: `{1: 6, 2: -6}` at 0.50 gives `{1: 3.00, 2: -3.00}`."""
    return {player: count * stake_per_chip for player, count in chips.items()}


def game_stakes(games: Iterable[GameOutcome], stake_per_game: Decimal) -> dict[PlayerId, Decimal]:
    """Money per player when a standard night plays for a stake per game won (module docstring).

    Each loser pays `stake_per_game`; the winners share the losers' stakes equally, which must divide
    exactly in the stake's smallest unit (it always does at 2, 3 and 4 seats).
    """
    totals: dict[PlayerId, Decimal] = {}
    for number, game in enumerate(games, start=1):
        if set(game.winners) & set(game.losers):
            raise LedgerError(f"Game {number}: a player both won and lost.", code="winner_and_loser")
        if not game.winners:
            continue
        pot = stake_per_game * len(game.losers)
        share = pot / len(game.winners)
        if share * len(game.winners) != pot or share.quantize(stake_per_game) != share:
            raise LedgerError(
                f"Game {number}: the stakes cannot be shared equally among the winners.", code="uneven_share"
            )
        for player in game.losers:
            totals[player] = totals.get(player, Decimal(0)) - stake_per_game
        for player in game.winners:
            totals[player] = totals.get(player, Decimal(0)) + share
    return totals


def fewest_payments(balances: Mapping[PlayerId, Amount]) -> list[Payment]:
    """The payments that settle `balances` (positive: is owed; they must add up to zero).

    Exact minimum number of payments when at most `EXACT_LIMIT` players do not break even, at most
    one fewer than their number otherwise. Sorted by payer, then payee.
    """
    if sum(balances.values()) != 0:
        raise LedgerError("The balances do not add up to zero.", code="not_zero_sum")
    players = sorted(player for player, amount in balances.items() if amount != 0)
    if not players:
        return []
    places = _decimal_places(balances[p] for p in players)
    units = [int(balances[p] * 10**places) for p in players]
    if len(players) <= EXACT_LIMIT:
        groups = _zero_sum_groups(units)
    else:
        groups = [list(range(len(players)))]
    transfers: list[tuple[int, int, int]] = []
    for group in groups:
        transfers.extend(_greedy(group, units))

    def amount(value: int) -> int | Decimal:
        if isinstance(balances[players[0]], Decimal):
            return Decimal(value).scaleb(-places)
        return value

    payments = [Payment(players[a], players[b], amount(value)) for a, b, value in transfers]
    return sorted(payments, key=lambda pay: (pay.payer, pay.payee))


def _decimal_places(amounts: Iterable[int | Decimal]) -> int:
    """How many decimal places make every amount a whole number (0 for chips)."""
    places = 0
    for value in amounts:
        if isinstance(value, Decimal):
            exponent = value.normalize().as_tuple().exponent
            if isinstance(exponent, int) and exponent < 0:
                places = max(places, -exponent)
    return places


def _zero_sum_groups(units: Sequence[int]) -> list[list[int]]:
    """Split the indices into the largest number of groups whose amounts each add up to zero.

    best[mask] is the largest number of zero-sum prefixes over orderings of the subset `mask`: the
    subset ordered so that as many of its prefixes as possible add up to zero; consecutive zero-sum
    prefixes of the whole set delimit the groups.
    """
    n = len(units)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + units[low.bit_length() - 1]
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > top:
                top = best[mask ^ bit]
        best[mask] = top + (total[mask] == 0)
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        want = best[mask] - (total[mask] == 0)
        if total[mask] == 0 and current:
            groups.append(current)
            current = []
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] == want:
                current.append(bit.bit_length() - 1)
                mask ^= bit
                break
    groups.append(current)
    return groups


def _greedy(group: Sequence[int], units: Sequence[int]) -> list[tuple[int, int, int]]:
    """Settle a zero-sum group: the largest debtor pays the largest creditor, until all are even.

    Every payment evens out at least one of the two and the last one both, so a group of k players
    needs at most k - 1 payments. Ties go to the lower index, so the result is deterministic.
    """
    left = {i: units[i] for i in group}
    transfers: list[tuple[int, int, int]] = []
    while any(left.values()):
        debtor = min(left, key=lambda i: (left[i], i))
        creditor = max(left, key=lambda i: (left[i], -i))
        value = min(-left[debtor], left[creditor])
        transfers.append((debtor, creditor, value))
        left[debtor] += value
        left[creditor] -= value
    return transfers
