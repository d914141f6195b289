"""The fewest payments that settle balances adding up to zero (the rule and a worked example in
`nights.settlement`).

Plain Python (no Django)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from nights.settlement.chips import Amount, LedgerError, PlayerId

EXACT_LIMIT = 20


@dataclass(frozen=True)
class Payment:
    """`payer` pays `payee` `amount` (always more than zero)."""

    payer: PlayerId
    payee: PlayerId
    amount: int | Decimal


def fewest_payments(
    balances: Mapping[PlayerId, Amount],
    *,
    order: Sequence[PlayerId] = (),
    prefer: Iterable[tuple[PlayerId, PlayerId, Amount | None]] = (),
) -> list[Payment]:
    """The payments that settle `balances` (positive: is owed; they must add up to zero).

    The exact minimum number of payments when, after the pairs that cancel out, at most
    `EXACT_LIMIT` players do not break even; at most one fewer than their number otherwise.

    `order` is the tie-break between players (the ledger gives them sorted by name, then id; players
    not in it come after, by id): the groups, who pays whom within a group and the order of the list
    (by payer, then payee) follow it, never the order of a mapping. `prefer` lists payments
    (payer, payee, amount) to keep where the balances allow, best first (the proposals shown
    before; a payback to the one who paid, amount None): each is taken for its amount, or else for
    as much as evens out one of the two, when the whole still takes as few payments as without it.

    >>> fewest_payments({1: 5, 2: -5, 3: 5, 4: -5}, prefer=[(4, 1, None)])
    [Payment(payer=2, payee=3, amount=5), Payment(payer=4, payee=1, amount=5)]
    """
    if sum(balances.values()) != 0:
        raise LedgerError("The balances do not add up to zero.", code="not_zero_sum")
    rank = {player: place for place, player in enumerate(dict.fromkeys(order))}
    ranked = sorted(balances, key=lambda player: (rank.get(player, len(rank)), player))
    rank = {player: place for place, player in enumerate(ranked)}
    players = [player for player in ranked if balances[player] != 0]
    if not players:
        return []
    wishes = list(prefer)
    amounts = [balances[p] for p in players] + [wish[2] for wish in wishes if wish[2] is not None]
    places = _decimal_places(amounts)
    units = {p: int(Decimal(balances[p]).scaleb(places)) for p in players}
    money = isinstance(balances[players[0]], Decimal)

    def amount(value: int) -> int | Decimal:
        return Decimal(value).scaleb(-places) if money else value

    wanted = [
        (payer, payee, None if value is None else int(Decimal(value).scaleb(places)))
        for payer, payee, value in wishes
    ]
    transfers = _settle(players, units, wanted)
    payments = [Payment(payer, payee, amount(value)) for payer, payee, value in transfers]
    return sorted(payments, key=lambda pay: (rank[pay.payer], rank[pay.payee]))


def fewest_count(balances: Mapping[PlayerId, Amount]) -> int:
    """How many payments `fewest_payments` makes for `balances` (the minimum within its limit)."""
    players = sorted(player for player, value in balances.items() if value != 0)
    places = _decimal_places(balances[p] for p in players)
    units = {p: int(Decimal(balances[p]).scaleb(places)) for p in players}
    return len(players) - len(_partition(players, units))


def _decimal_places(amounts: Iterable[int | Decimal]) -> int:
    """How many decimal places make every amount a whole number (0 for chips)."""
    places = 0
    for value in amounts:
        if isinstance(value, Decimal):
            exponent = value.normalize().as_tuple().exponent
            if isinstance(exponent, int) and exponent < 0:
                places = max(places, -exponent)
    return places


def _settle(
    players: list[PlayerId], units: dict[PlayerId, int], prefer: list[tuple[PlayerId, PlayerId, int | None]]
) -> list[tuple[PlayerId, PlayerId, int]]:
    """Payments (payer, payee, amount in whole units) that even out `units`, players in tie-break
    order: first the preferred payments that keep the count at its minimum, then each zero-sum
    group within itself (`_greedy`).

    A payment that evens out one of two players in the same group keeps the count (the group is
    still zero-sum and one smaller); any other is tried: taken only if what is left then needs one
    payment fewer than before."""
    left = dict(units)
    groups = _partition(players, left)
    out: list[tuple[PlayerId, PlayerId, int]] = []
    for payer, payee, wanted in prefer:
        if not (left.get(payer, 0) < 0 < left.get(payee, 0)):
            continue
        most = min(-left[payer], left[payee])
        group_of = {player: number for number, group in enumerate(groups) for player in group}
        for value in dict.fromkeys(v for v in (wanted, most) if v is not None and 0 < v <= most):
            if value == most and group_of[payer] == group_of[payee]:
                break
            trial = {**left, payer: left[payer] + value, payee: left[payee] - value}
            still = [player for player in players if trial[player] != 0]
            regrouped = _partition(still, trial)
            if len(still) - len(regrouped) == _count(groups) - 1:
                groups = regrouped
                break
        else:
            continue
        out.append((payer, payee, value))
        left[payer] += value
        left[payee] -= value
        groups = [[player for player in group if left[player] != 0] for group in groups]
        groups = [group for group in groups if group]
    index = {player: place for place, player in enumerate(players)}
    for group in groups:
        out.extend(_greedy(sorted(group, key=index.__getitem__), left))
    return out


def _count(groups: Sequence[Sequence[PlayerId]]) -> int:
    return sum(len(group) - 1 for group in groups)


def _partition(players: Sequence[PlayerId], units: Mapping[PlayerId, int]) -> list[list[PlayerId]]:
    """Split the players who do not break even into the most groups whose amounts add up to zero.

    Up to `EXACT_LIMIT` players the search is exact (`zero_sum_groups`). Beyond it, pairs that
    cancel out come first (a debtor with the first creditor owed exactly as much): some best split
    always has them (two groups A ∋ a and B ∋ b with a = -b can be regrouped into {a, b} and the
    rest of A and B, as many groups); what is left is searched exactly if it is within the limit,
    and is one group otherwise.
    """
    open_players = [player for player in players if units[player] != 0]
    if len(open_players) <= EXACT_LIMIT:
        return _exact_groups(open_players, units)
    taken: set[PlayerId] = set()
    groups: list[list[PlayerId]] = []
    for debtor in open_players:
        if units[debtor] > 0 or debtor in taken:
            continue
        for creditor in open_players:
            if creditor not in taken and units[creditor] == -units[debtor]:
                taken |= {debtor, creditor}
                groups.append([debtor, creditor])
                break
    rest = [player for player in open_players if player not in taken]
    if len(rest) > EXACT_LIMIT:
        return [*groups, rest]
    return [*groups, *_exact_groups(rest, units)]


def _exact_groups(players: Sequence[PlayerId], units: Mapping[PlayerId, int]) -> list[list[PlayerId]]:
    if not players:
        return []
    found = zero_sum_groups(tuple(units[player] for player in players))
    return [[players[i] for i in group] for group in found]


@lru_cache(maxsize=512)
def zero_sum_groups(units: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Split the indices of `units` (adding up to zero) into the most groups that each add up to zero.

    A chain of zero-sum subsets z1 ⊂ z2 ⊂ … ⊂ zk = everyone gives k groups (z1, z2 - z1, …) and
    every split into k groups gives such a chain, so the answer is the longest chain. Sets of
    subsets are bit sets over all 2^n subsets (one Python integer, bit `mask` for the subset
    `mask`): `level[j]` holds the zero-sum subsets that end a chain of length j + 1, each level
    the zero-sum subsets that strictly contain one of the level before (`_strictly_above`). The
    operations run over 2^n bits at a time, so 20 players take a fraction of a second.
    """
    n = len(units)
    full = (1 << n) - 1
    zero = _zero_sum_subsets(units) & ~1  # the empty set is no group
    levels = [zero]
    above: list[int] = []
    while True:
        up = _upward(levels[-1], n)
        above.append(up)
        following = zero & _one_more(up, n)
        if not (following >> full) & 1:
            break
        levels.append(following)
    # Walk back down the chain: from a subset at level j, take away one player at a time while
    # what is left still contains a subset of level j - 1, until it is one; the players taken
    # away are a group.
    size = max(1, (1 << n) // 8)
    is_in = [level.to_bytes(size, "little") for level in levels]
    contains = [up.to_bytes(size, "little") for up in above]

    def member(table: bytes, mask: int) -> bool:
        return bool(table[mask >> 3] >> (mask & 7) & 1)

    groups: list[tuple[int, ...]] = []
    mask = full
    for depth in range(len(levels) - 1, 0, -1):
        inner = mask
        while inner == mask or not member(is_in[depth - 1], inner):
            inner ^= next(
                bit
                for bit in (1 << i for i in range(n))
                if inner & bit and member(contains[depth - 1], inner ^ bit)
            )
        groups.append(_indices(mask ^ inner))
        mask = inner
    groups.append(_indices(mask))
    return tuple(sorted(groups))


def _indices(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def _zero_sum_subsets(units: Sequence[int]) -> int:
    """The bit set of the subsets of `units` that add up to zero, by meeting in the middle: the
    subsets of the first half grouped by their sum, looked up by each subset of the second half."""
    n = len(units)
    low = max(3, n // 2) if n >= 3 else n
    low_sums = _subset_sums(units[:low])
    by_sum: dict[int, int] = {}
    for mask, total in enumerate(low_sums):
        by_sum[total] = by_sum.get(total, 0) | (1 << mask)
    if low < 3:  # too few for whole bytes: n < 3
        return by_sum.get(0, 0)
    width = (1 << low) // 8
    blocks = [by_sum.get(-total, 0).to_bytes(width, "little") for total in _subset_sums(units[low:])]
    return int.from_bytes(b"".join(blocks), "little")


def _subset_sums(units: Sequence[int]) -> list[int]:
    sums = [0]
    for value in units:
        sums += [total + value for total in sums]
    return sums


@lru_cache(maxsize=32)
def _without(n: int, i: int) -> int:
    """The bit set of the subsets of n players that leave out player i."""
    block = (1 << (1 << i)) - 1
    length = 1 << (i + 1)
    pattern = block
    while length < (1 << n):
        pattern |= pattern << length
        length *= 2
    return pattern


def _upward(sets: int, n: int) -> int:
    """Every subset that contains one of `sets`."""
    for i in range(n):
        sets |= (sets & _without(n, i)) << (1 << i)
    return sets


def _one_more(sets: int, n: int) -> int:
    """Every subset that is one of `sets` with one more player."""
    out = 0
    for i in range(n):
        out |= (sets & _without(n, i)) << (1 << i)
    return out


def _greedy(group: Sequence[PlayerId], left: dict[PlayerId, int]) -> list[tuple[PlayerId, PlayerId, int]]:
    """Settle a zero-sum group: the largest debtor pays the largest creditor, until all are even.

    Every payment evens out at least one of the two and the last one both, so a group of k players
    needs at most k - 1 payments. Ties go to the player first in the tie-break order (`group` is
    in that order), so the result is deterministic.
    """
    place = {player: index for index, player in enumerate(group)}
    book = {player: left[player] for player in group}
    transfers: list[tuple[PlayerId, PlayerId, int]] = []
    while any(book.values()):
        debtor = min(book, key=lambda p: (book[p], place[p]))
        creditor = max(book, key=lambda p: (book[p], -place[p]))
        value = min(-book[debtor], book[creditor])
        transfers.append((debtor, creditor, value))
        book[debtor] += value
        book[creditor] -= value
    for player in group:
        left[player] = 0
    return transfers
