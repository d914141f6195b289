"""Reads for the pages: a game's scoreboard, history and awards, all scored by the engine.

A scoreboard costs three queries whatever the number of hands (game, seats, hands); the
engine does the arithmetic in Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from scoring import services
from scoring.chart import progression_svg
from scoring.labels import SUIT_NAMES, SUIT_SYMBOLS, seat_label, side_label, side_short
from scoring.models import Game
from scoring.rules import GameResult, HandScore, Settings, parse_settings


@dataclass
class Scoreboard:
    game: Game
    settings: Settings
    players: dict[str, str]
    stored: list[dict[str, Any]]
    result: GameResult
    sides: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    awards: list[dict[str, Any]] = field(default_factory=list)
    chart: str = ""
    end_reason: list[str] = field(default_factory=list)

    @property
    def next_number(self) -> int:
        return len(self.stored) + 1

    @property
    def next_dealer(self) -> str:
        return seat_label(self.result.next_dealer, self.players)

    @property
    def winner_label(self) -> str:
        winner = self.result.winner
        if winner is None:
            return ""
        if winner == "draw":
            return _("It is a draw on chips")
        return side_label(winner, self.players)


def settings_of(game: Game) -> Settings:
    return parse_settings(game.settings_record())


def scoreboard(game: Game) -> Scoreboard:
    rows = list(game.hands.order_by("number"))
    players = services.players_of(game)
    stored = [row.data for row in rows]
    result = services.score(game, stored)
    board = Scoreboard(game, result.settings, players, stored, result)
    chips = result.settings.chips_in_play
    target = result.settings.target
    best = max(result.scores.values()) if result.scores else 0
    alone = list(result.scores.values()).count(best) == 1
    board.sides = [
        {
            "side": side,
            "label": side_label(side, players),
            "short": side_short(side),
            "total": result.scores[side],
            "chips": result.chips[side] if chips else None,
            # The score at a glance: who leads (alone), and how far each side is from the target.
            "leading": bool(rows) and alone and result.scores[side] == best,
            "to_go": max(target - result.scores[side], 0),
        }
        for side in result.settings.sides
    ]
    board.chart = progression_svg(result)
    board.history = [
        history_entry(data, score, players, result.settings.tricks_per_hand)
        for data, score in zip(stored, result.hands, strict=True)
    ]
    board.history.reverse()
    if result.finished and chips:
        board.awards = awards(result)
    board.end_reason = end_reason(result, stored, players)
    return board


def history_entry(
    data: Mapping[str, Any], score: HandScore, players: Mapping[str, str], per_hand: int
) -> dict[str, Any]:
    trump = data.get("trump")
    return {
        "number": score.number,
        "dealer": seat_label(score.dealer, players),
        "result": score.result,
        "bidder": seat_label(data["bidder"], players) if data.get("bidder") else "",
        "bidder_short": data.get("bidder") or "",
        "trump_symbol": SUIT_SYMBOLS[trump] if trump else "",
        "bid": data.get("bid"),
        "trump": f"{SUIT_SYMBOLS[trump]} {SUIT_NAMES[trump]}" if trump else "",
        "red": trump in ("hearts", "diamonds"),
        "quick": "meld_points" in data,
        "slam": next(
            (side_short(side) for side, won in (data.get("tricks_won") or {}).items() if won == per_hand), ""
        ),
        "sides": [
            {
                "short": side_short(side),
                "meld": score.meld[side],
                "tricks": score.tricks[side],
                "points": score.points[side],
                "chips": score.chips[side],
                "total": score.totals[side],
                "chip_total": score.chip_totals[side],
                "bidding": side == score.bidding_side,
            }
            for side in score.points
        ],
    }


def awards(result: GameResult) -> list[dict[str, Any]]:
    """Check Pinochle's end-of-game chip table: rows of chips per side."""
    sides = result.settings.sides

    def won(kind: str) -> list[int]:
        return [sum(hand.chips_won[side][kind] for hand in result.hands) for side in sides]

    gross = [sum(values) for values in zip(won("meld"), won("contract"), won("slam"), strict=True)]
    # Chips are netted between the two sides: each side pays what the other won. With that row
    # every column adds up: won chips − what netting takes away + game chips = final chips.
    netting = [-gross[1], -gross[0]] if len(gross) == 2 else [0] * len(gross)
    return [
        {"label": _("Meld chips won"), "values": won("meld")},
        {"label": _("Contract chips won"), "values": won("contract")},
        {"label": _("Slam chips won"), "values": won("slam")},
        {"label": _("Netting: the other side's chips"), "values": netting},
        {"label": _("Game chips"), "values": [result.game_chips[side] for side in sides]},
        {"label": _("Final chips"), "values": [result.chips[side] for side in sides], "total": True},
    ]


def end_reason(result: GameResult, stored: list[dict[str, Any]], players: Mapping[str, str]) -> list[str]:
    """Why the game ended as it did, from the engine's result fields (docs/rules.md, "End of the game")."""
    reached, number = result.reached, result.ended_after
    if not result.finished or reached is None or number is None:
        return []
    target = result.settings.target
    hand = result.hands[number - 1]
    over = [side for side in result.settings.sides if hand.totals[side] >= target]
    params = {"side": side_short(reached), "target": target, "number": number}
    if len(over) == 1:
        lines = [_("%(side)s reached %(target)s in hand %(number)s.") % params]
    elif hand.bidding_side == reached:
        lines = [
            _("%(side)s bid and reached %(target)s in hand %(number)s: the bidders go out first.") % params
        ]
    else:
        lines = [_("Both sides passed %(target)s in hand %(number)s: %(side)s have more points.") % params]
    if result.settings.chips_in_play and result.winner is not None:
        chips = " · ".join(f"{side_short(side)} {result.chips[side]}" for side in result.settings.sides)
        if result.winner == "draw":
            lines.append(_("In Check Pinochle the chips decide: %(chips)s, a draw.") % {"chips": chips})
        else:
            lines.append(_("In Check Pinochle the side with more chips wins: %(chips)s.") % {"chips": chips})
    return lines


def describe(result: GameResult, number: int, data: Mapping[str, Any]) -> list[str]:
    """What hand `number` does, in a few short lines: "N–S make 27: +36 · E–W +20"."""
    hand = result.hands[number - 1]
    sides = result.settings.sides
    lines = []
    others = " · ".join(
        f"{side_short(side)} {hand.points[side]:+d}" for side in sides if side != hand.bidding_side
    )
    bidders, bid = hand.bidding_side, data.get("bid")
    if hand.result == "passed":
        lines.append(_("All passed: no score, no chips."))
    elif hand.result == "nobid" or bidders is None:
        lines.append(" · ".join(f"{side_short(side)} {hand.points[side]:+d}" for side in sides))
    else:
        params = {"side": side_short(bidders), "bid": bid, "points": f"{hand.points[bidders]:+d}"}
        if hand.result == "made":
            headline = _("%(side)s make %(bid)s: %(points)s") % params
        elif hand.result == "set":
            headline = _("%(side)s are set on %(bid)s: %(points)s") % params
        else:
            headline = _("%(side)s concede %(bid)s: %(points)s") % params
        lines.append(f"{headline} · {others}" if others else headline)
        if hand.result != "conceded":
            # What the bidders had to take in tricks: the bid less their meld (as the engine counted it).
            need = max(int(bid) - hand.meld[bidders], 0)
            lines.append(
                _("%(side)s needed %(need)d trick points (bid %(bid)s − meld %(meld)d); they took %(took)d.")
                % {
                    "side": side_short(bidders),
                    "need": need,
                    "bid": bid,
                    "meld": hand.meld[bidders],
                    "took": hand.tricks[bidders],
                }
            )
    if result.settings.chips_in_play and hand.result != "passed":
        chips = ", ".join(f"{side_short(side)} {hand.chips[side]:+d}" for side in sides)
        lines.append(_("Chips: %(chips)s") % {"chips": chips})
    totals = " · ".join(f"{side_short(side)} {hand.totals[side]}" for side in sides)
    lines.append(_("Totals after: %(totals)s") % {"totals": totals})
    if result.ended_after == number and result.reached:
        lines.append(
            _("This hand ends the game: %(side)s reach the target.") % {"side": side_short(result.reached)}
        )
    return lines


def correction_change(before: GameResult, after: GameResult) -> list[str]:
    """What a correction does to today's totals (and chips): "N–S 85 → 75 · E–W 19 → 69"."""
    sides = after.settings.sides
    points = " · ".join(f"{side_short(side)} {before.scores[side]} → {after.scores[side]}" for side in sides)
    lines = [_("Today's totals: %(change)s") % {"change": points}]
    if after.settings.chips_in_play:
        chips = " · ".join(f"{side_short(side)} {before.chips[side]} → {after.chips[side]}" for side in sides)
        lines.append(_("Today's chips: %(change)s") % {"change": chips})
    return lines
