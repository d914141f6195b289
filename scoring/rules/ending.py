"""How a game ends: the target, a fixed number of deals, the spread; then who won, the game chips
and which rule ended it (`GameResult.ended_by`).

A game of a fixed number of deals (`options.deals`, docs/rules.md "A fixed number of deals") ends
after hand D unless the target ended it sooner. With D = 3 and the first three hands of the
worked example (NS 36 · EW 20 after hand 1; hand 2 passed out, a deal all the same; hand 3 E's
roundhouse and slam: NS 36 · EW 69, chips NS −15 · EW +15), the game ends after hand 3 below the
target of 100: EW lead by 33 points and win 10 + ⌈33 / 10⌉ = 14 game chips, final chips NS −29 ·
EW +29, and EW win (in Check Pinochle the side with more chips). Equal points after hand D are a
draw on points: no game chips, the chips decide (a standard game is then a draw).
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter

from scoring.rules.settings import Settings
from scoring.rules.tables import game_chips


def end_after_hand(
    settings: Settings, totals: Mapping[str, int], number: int, result: str, bidders: str | None
) -> tuple[str, str | None] | None:
    """Whether the game ends after hand `number`, with the running `totals` after it: None while
    it goes on, else (the rule that ended it, the side that won on points or None for a draw on
    points).

    The game ends when a side reaches the target (docs/rules.md, "End of the game") or, in a game
    of a fixed number of deals, after hand `settings.deals` whatever the score: the side with the
    most points then wins on points, and level points are a draw on points (no game chips). With
    a spread S it also ends after a hand in which a side leads every other side by S points or
    more: that side wins on points.
    """
    target, deals, spread = settings.target, settings.deals, settings.spread
    if result != "passed" and max(totals.values()) >= target:
        reached = _reached(totals, target, bidders)
        if reached is not None:
            return "target", reached
    if spread is not None and result != "passed":
        # A side that leads every other side by the spread wins on points (the target, above,
        # decides first when it is reached in the same hand).
        leader = _ahead_by(totals, spread)
        if leader is not None:
            return "spread", leader
    if deals is not None and number >= deals:
        # The last deal is played (a passed-out hand is a deal too): most points wins.
        return "deals", _ahead(totals)
    return None


def winner_and_chips(
    settings: Settings,
    totals: Mapping[str, int],
    chip_totals: Mapping[str, int],
    reached: str | None,
    finished: bool,
) -> tuple[str | None, dict[str, int], dict[str, int]]:
    """(the game's winner, game chips by side, final chips by side, game chips included).

    The winner is a side, "draw", or None while the game goes on. In Check Pinochle the chips
    decide, game chips included (none after a draw on points); otherwise the side that won on
    points, and level points after the last deal are a draw.
    """
    sides = settings.sides
    end_chips = dict.fromkeys(sides, 0)
    winner: str | None = None
    if reached is not None:
        winner = reached
        if settings.chips_in_play:
            (other,) = (side for side in sides if side != reached)
            award = game_chips(totals[reached] - totals[other])
            end_chips = {reached: award, other: -award}
    final_chips = {side: chip_totals[side] + end_chips[side] for side in sides}
    if finished and settings.chips_in_play:
        a, b = sides
        winner = "draw" if final_chips[a] == final_chips[b] else a if final_chips[a] > final_chips[b] else b
    elif finished and reached is None:
        winner = "draw"  # level on points after the last deal
    return winner, end_chips, final_chips


def _reached(totals: Mapping[str, int], target: int, bidders: str | None) -> str | None:
    """The side that won on points after a hand, or None while play goes on (docs/rules.md)."""
    over = [side for side, total in totals.items() if total >= target]
    if not over:
        return None
    if len(over) == 1:
        return over[0]
    if bidders in over:
        return bidders
    best = max(totals[side] for side in over)
    leaders = [side for side in over if totals[side] == best]
    return leaders[0] if len(leaders) == 1 else None


def _ahead(totals: Mapping[str, int]) -> str | None:
    """The side with the most points alone, or None when the best are level (a draw on points)."""
    best = max(totals.values())
    leaders = [side for side, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None


def _ahead_by(totals: Mapping[str, int], spread: int) -> str | None:
    """The side that leads every other side by at least `spread` points, or None.

    >>> _ahead_by({"NS": 80, "EW": 30}, 50), _ahead_by({"N": 80, "E": 30, "S": 31}, 50)
    ('NS', None)
    """
    ranked = sorted(totals.items(), key=itemgetter(1), reverse=True)
    (leader, best), (_, second) = ranked[0], ranked[1]
    return leader if best - second >= spread else None
