"""What a bye earns on a club night (the night's choice), and who pays its chips.

Plain Python (no Django).

**The choice** (`Night.bye_compensation`): nothing; the average of the round; or a fixed score the
organiser typed (points, and in Check Pinochle chips). It is earned for every round that has
started: a bye in a round never played earns nothing.

**Points**: the average of the round is, for the player's own points, the mean of the points each
seat's side scored at the round's tables that count (over, or stopped when the organiser finished
the night), and for the points difference the mean of the seats' differences (0 at tables of four:
an average result neither wins nor loses), each rounded to a whole point (halves away from zero). A
fixed score adds its points to both. A round where no table counts yet has nothing to average: the
bye earns 0 and is shown as "nothing to average yet".

**Chips** (Check Pinochle): the average of the round is the mean of the chips of the seats at the
round's Check Pinochle tables that count; chips are settled pair-wise, so that mean is always 0.
A fixed score's chips are paid by the players at the round's Check Pinochle tables: equal whole
shares, and the chips that do not divide evenly one each by whoever won the most chips that round
(ties: table and seat order). So the night's chips, and the money (chips x stake), still add up to
zero. A Check Pinochle night's leftover standard table plays for no chips: its players earn the
same chips as a bye (not its points: their own game's points count).

Worked example: a Check Pinochle night with a fixed score of 20 points and 3 chips; in round 2
Anna sits out, and eight players play two tables: N-S of table 1 (Bo, Dan) win 6 chips, E-W of
table 2 (Gus, Hal) win 4. Anna earns +20 points and +3 chips. 3 chips among 8 players: a share of
0 each, and 3 chips over: Bo and Dan (+6) and then Gus (+4, first of the +4 in seat order) pay one
chip each. Round 2's chips: Anna +3, Bo +5, Dan +5, Gus +3, Hal +4, the four losers -6, -6, -4, -4:
they add up to 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

PlayerId = int

NONE = "none"
AVERAGE = "average"
FIXED = "fixed"

BYE = "bye"  # sat out the round
TABLE = "table"  # played at a Check Pinochle night's leftover standard table (no chips)


@dataclass(frozen=True)
class PlayedSeat:
    """One player's seat in a started round, with the figures the standings count for it."""

    round_no: int
    player: PlayerId
    points: int  # the seat's points difference
    chips: int  # its side's chips (0 at a table without chips)
    with_chips: bool  # a Check Pinochle table: its players pay a fixed score's chips
    counted: bool  # the table's figures are final (its game is over, or the night finished)
    own: int = 0  # the points its side scored (the standings' own points of a player)


@dataclass(frozen=True)
class ByeRule:
    """The night's choice: `kind` is NONE, AVERAGE or FIXED; `points`, `chips` the fixed score."""

    kind: str = NONE
    points: int = 0
    chips: int = 0
    chips_in_play: bool = False


@dataclass(frozen=True)
class Compensation:
    """What one player earned in one round without playing for it (a bye, or no chips at a table)."""

    round_no: int
    player: PlayerId
    reason: str  # BYE or TABLE
    kind: str  # AVERAGE or FIXED
    points: int
    chips: int
    averaged: bool = True  # False: an average with nothing to average yet (earns 0)
    own: int = 0  # the points added to the player's own points (`points` goes to points ±)


@dataclass
class ByeSettlement:
    compensations: list[Compensation] = field(default_factory=list)
    charges: dict[PlayerId, int] = field(default_factory=dict)  # chips paid for them (negative)

    def points(self) -> dict[PlayerId, int]:
        totals: dict[PlayerId, int] = {}
        for item in self.compensations:
            totals[item.player] = totals.get(item.player, 0) + item.points
        return totals

    def chips(self) -> dict[PlayerId, int]:
        """Every player's chips from byes: earned plus paid; they add up to zero."""
        totals = dict(self.charges)
        for item in self.compensations:
            totals[item.player] = totals.get(item.player, 0) + item.chips
        return totals


def _whole(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _mean(values: list[int]) -> int | None:
    if not values:
        return None
    return _whole(Decimal(sum(values)) / len(values))


def bye_settlement(
    seats: Iterable[PlayedSeat], byes: Iterable[tuple[int, PlayerId]], rule: ByeRule
) -> ByeSettlement:
    """The compensations of a night's byes (and leftover tables) under `rule` (module docstring).

    >>> seats = [PlayedSeat(1, p, d, c, True, True) for p, d, c in
    ...          [(1, 40, 6), (3, 40, 6), (2, -40, -6), (4, -40, -6)]]
    >>> result = bye_settlement(seats, [(1, 5)], ByeRule(FIXED, 20, 3, True))
    >>> result.points(), result.chips()
    ({5: 20}, {1: -1, 3: -1, 2: -1, 5: 3})
    """
    result = ByeSettlement()
    if rule.kind not in (AVERAGE, FIXED):
        return result
    by_round: dict[int, list[PlayedSeat]] = {}
    for seat in seats:
        by_round.setdefault(seat.round_no, []).append(seat)
    sitting_out: dict[int, list[PlayerId]] = {}
    for round_no, player in byes:
        sitting_out.setdefault(round_no, []).append(player)
    for round_no in sorted(by_round):
        played = by_round[round_no]
        payers = [seat for seat in played if seat.with_chips]
        if rule.kind == FIXED:
            points: int | None = rule.points
            own: int | None = rule.points
            chips: int | None = rule.chips
        else:
            points = _mean([seat.points for seat in played if seat.counted])
            own = _mean([seat.own for seat in played if seat.counted])
            chips = _mean([seat.chips for seat in payers if seat.counted])
        if not rule.chips_in_play or not payers:
            chips = 0  # no chips in play, or nobody to pay them
        earned = [
            Compensation(
                round_no, player, BYE, rule.kind, points or 0, chips or 0, points is not None, own or 0
            )
            for player in sitting_out.get(round_no, [])
        ]
        if rule.chips_in_play:
            earned += [
                Compensation(round_no, seat.player, TABLE, rule.kind, 0, chips or 0, chips is not None)
                for seat in played
                if not seat.with_chips
            ]
        result.compensations += earned
        total = sum(item.chips for item in earned)
        if total:
            share, extra = divmod(total, len(payers))
            order = sorted(range(len(payers)), key=lambda i: (-payers[i].chips, i))
            for rank, i in enumerate(order):
                player = payers[i].player
                paid = share + (1 if rank < extra else 0)
                if paid:
                    result.charges[player] = result.charges.get(player, 0) - paid
    return result
