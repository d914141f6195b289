"""Reads for the pages: a game's scoreboard, history and awards, all scored by the engine.

A scoreboard costs three queries whatever the number of hands (game, seats, hands), none right
after a save (drawn from what the save stored); the engine does the arithmetic in Python.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring import diff, game_settings, services
from scoring.labels import SUIT_NAMES, SUIT_SYMBOLS, seat_label, side_label, side_short
from scoring.models import Game
from scoring.rules import GameResult, HandScore, Settings, parse_settings


class Scoreboard:
    """What the game page shows. The totals, chips and next deal come from the game's stored
    summary (store_result writes it with the hands); the hands and the engine's result are read
    and worked out only when something drawn needs them (the history is usually in the cache)."""

    def __init__(
        self,
        game: Game,
        players: dict[str, str],
        *,
        stored: list[dict[str, Any]] | None = None,
        result: GameResult | None = None,
    ) -> None:
        self.game = game
        self.settings: Settings = result.settings if result is not None else settings_of(game)
        self.players = players
        if stored is not None:
            self.__dict__["stored"] = stored
        if result is not None:
            self.__dict__["result"] = result
        chips = self.settings.chips_in_play
        self.sides = [
            {
                "side": side,
                "label": side_label(side, players),
                "short": side_short(side),
                "total": game.scores.get(side, 0),
                "chips": game.chip_totals.get(side, 0) if chips else None,
            }
            for side in self.settings.sides
        ]

    @functools.cached_property
    def stored(self) -> list[dict[str, Any]]:
        return list(self.game.hands.order_by("number").values_list("data", flat=True))

    @functools.cached_property
    def result(self) -> GameResult:
        return services.score(self.game, self.stored)

    @property
    def finished(self) -> bool:
        return self.game.finished

    @functools.cached_property
    def history(self) -> list[dict[str, Any]]:
        """The hands, newest first (worked out only when drawn: the page keeps it in the cache)."""
        per_hand = self.settings.tricks_per_hand
        rows = [
            history_entry(data, score, self.players, per_hand)
            for data, score in zip(self.stored, self.result.hands, strict=True)
        ]
        rows.reverse()
        return rows

    @functools.cached_property
    def awards(self) -> list[dict[str, Any]]:
        return awards(self.result) if self.finished and self.settings.chips_in_play else []

    @property
    def next_number(self) -> int:
        return self.game.hand_count + 1

    @property
    def next_dealer(self) -> str:
        return seat_label(self.settings.dealer(self.next_number), self.players)

    @property
    def winner_label(self) -> str:
        winner = self.game.winner
        if not winner:
            return ""
        if winner == "draw":
            return _("It is a draw on chips")
        return side_label(winner, self.players)


def settings_of(game: Game) -> Settings:
    return parse_settings(game.settings_record())


def scoreboard(game: Game, *, stored: services.Stored | None = None) -> Scoreboard:
    """The game's scoreboard: from the game's summary, or from what a write just stored."""
    if stored is None:
        return Scoreboard(game, services.players_of(game))
    return Scoreboard(game, stored.players, stored=stored.hand_data, result=stored.result)


def history_entry(
    data: Mapping[str, Any], score: HandScore, players: Mapping[str, str], per_hand: int
) -> dict[str, Any]:
    trump = data.get("trump")
    return {
        "number": score.number,
        "dealer": seat_label(score.dealer, players),
        "result": score.result,
        "bidder": seat_label(data["bidder"], players) if data.get("bidder") else "",
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

    return [
        {"label": _("Meld chips won"), "values": won("meld")},
        {"label": _("Contract chips won"), "values": won("contract")},
        {"label": _("Slam chips won"), "values": won("slam")},
        {"label": _("Game chips"), "values": [result.game_chips[side] for side in sides]},
        {"label": _("Final chips"), "values": [result.chips[side] for side in sides], "total": True},
    ]


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


def settings_preview(outcome: game_settings.Outcome, players: Mapping[str, str]) -> dict[str, Any]:
    """What a change of the game's settings does, for its page: the changed settings (old → new),
    the totals (and final chips in Check Pinochle) now and after, and the end of the game."""
    old, new = outcome.result_before, outcome.result_after
    sides = new.settings.sides
    totals = [(side_short(side), old.scores[side], new.scores[side]) for side in sides]
    chips = [(side_short(side), old.chips[side], new.chips[side]) for side in sides]
    if new.finished and new.ended_after is not None:
        winner = _("It is a draw on chips") if new.winner == "draw" else side_label(new.winner or "", players)
        if not old.finished:
            ending = _("This change ends the game after hand %(number)d. Winner: %(winner)s.")
        elif (old.winner, old.ended_after) != (new.winner, new.ended_after):
            ending = _("The game still ends after hand %(number)d, but the winner changes to %(winner)s.")
        else:
            ending = _("The game stays over after hand %(number)d. Winner: %(winner)s.")
        ending %= {"number": new.ended_after, "winner": winner}
    else:
        params = {
            "number": len(new.hands) + 1,
            "dealer": seat_label(new.settings.dealer(len(new.hands) + 1), players),
        }
        if old.finished:
            ending = _("The game is no longer over: play goes on with hand %(number)d, %(dealer)s deals.")
        else:
            ending = _("The game goes on: hand %(number)d, %(dealer)s deals.")
        ending %= params
    return {
        "rows": diff.change_rows(outcome.before, outcome.after),
        "totals": totals,
        "totals_change": any(before != after for _side, before, after in totals),
        "chips": chips if new.settings.chips_in_play else [],
        "ending": ending,
        "ending_changes": outcome.ending_changes,
        "token": outcome.ending_token,
    }
