"""A game's scoreboard: totals, chips and next deal from the stored summary, the history and
awards from the engine's result (worked out only when drawn)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring.chart import progression_svg
from scoring.labels import SUIT_NAMES, SUIT_SYMBOLS, seat_label, seat_letter, side_label, side_short
from scoring.models import Game
from scoring.rules.engine import GameResult, HandScore
from scoring.rules.settings import Settings, parse_settings
from scoring.selectors.ending import end_reason
from scoring.services.results import Stored, players_of, score


class Scoreboard:
    """What the game page shows. The totals, chips and next deal come from the game's stored
    summary (store_result writes it with the hands); the hands and the engine's result are read
    and worked out only when something drawn needs them."""

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
        # Given by a save (which has just read and scored the hands), else read when first asked.
        self._stored = stored
        self._result = result
        chips = self.settings.chips_in_play
        target = self.settings.target
        totals = [game.scores.get(side, 0) for side in self.settings.sides]
        best = max(totals, default=0)
        # The score at a glance: who leads (alone, once a hand is in), how far each side is from
        # the target. From the stored summary, like the totals: nothing is scored for it.
        leader = game.hand_count > 0 and totals.count(best) == 1
        self.sides = [
            {
                "side": side,
                "label": side_label(side, players),
                "short": side_short(side),
                "total": game.scores.get(side, 0),
                "chips": game.chip_totals.get(side, 0) if chips else None,
                # The count without its sign, for the plural forms (the sign is shown before it).
                "chip_count": abs(game.chip_totals.get(side, 0)),
                "leading": leader and game.scores.get(side, 0) == best,
                "to_go": max(target - game.scores.get(side, 0), 0),
            }
            for side in self.settings.sides
        ]

    @property
    def stored(self) -> list[dict[str, Any]]:
        """The game's hands as entered, in order."""
        if self._stored is None:
            self._stored = list(self.game.hands.order_by("number").values_list("data", flat=True))
        return self._stored

    @property
    def result(self) -> GameResult:
        """The engine's result of the hands."""
        if self._result is None:
            self._result = score(self.game, self.stored)
        return self._result

    @property
    def finished(self) -> bool:
        return self.game.finished

    @functools.cached_property
    def history(self) -> list[dict[str, Any]]:
        """The hands, newest first (worked out only when drawn)."""
        per_hand = self.settings.tricks_per_hand
        words = RowWords(self.players)
        rows = [
            history_entry(data, score, words, per_hand)
            for data, score in zip(self.stored, self.result.hands, strict=True)
        ]
        rows.reverse()
        return rows

    @functools.cached_property
    def awards(self) -> list[dict[str, Any]]:
        return awards(self.result) if self.finished and self.settings.chips_in_play else []

    @functools.cached_property
    def chart(self) -> str:
        """The score-progression chart (drawn with the history)."""
        return progression_svg(self.result)

    @functools.cached_property
    def chart_large(self) -> str:
        """The same chart for the Large text setting: its labels larger."""
        return progression_svg(self.result, large=True)

    @functools.cached_property
    def end_reason(self) -> list[SafeString]:
        return end_reason(self.result) if self.finished else []

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
        return winner_words(winner, self.settings, self.players)


def winner_words(winner: str, settings: Settings, players: Mapping[str, str]) -> str:
    """The winner for a sentence: a side's label, or the draw (on chips in Check Pinochle, where the
    chips decide; on points in a game of a fixed number of deals that ended level)."""
    if winner == "draw":
        return _("It is a draw on chips") if settings.chips_in_play else _("It is a draw on points")
    return side_label(winner, players)


def settings_of(game: Game) -> Settings:
    return parse_settings(game.settings_record())


def scoreboard(game: Game, *, stored: Stored | None = None) -> Scoreboard:
    """The game's scoreboard: from the game's summary, or from what a write just stored."""
    if stored is None:
        return Scoreboard(game, players_of(game))
    return Scoreboard(game, stored.players, stored=stored.hand_data, result=stored.result)


class RowWords:
    """The words every history row repeats (seat labels and letters, the sides' short names, the
    suits), translated once per scoreboard rather than once per hand."""

    def __init__(self, players: Mapping[str, str]) -> None:
        self.players = players
        self.seats: dict[str, str] = {}
        self.letters: dict[str, str] = {}
        self.shorts: dict[str, str] = {}
        self.trumps: dict[str, str] = {}

    def seat(self, seat: str) -> str:
        if seat not in self.seats:
            self.seats[seat] = seat_label(seat, self.players)
        return self.seats[seat]

    def letter(self, seat: str) -> str:
        if seat not in self.letters:
            self.letters[seat] = seat_letter(seat)
        return self.letters[seat]

    def short(self, side: str) -> str:
        if side not in self.shorts:
            self.shorts[side] = side_short(side)
        return self.shorts[side]

    def trump(self, suit: str) -> str:
        if suit not in self.trumps:
            self.trumps[suit] = f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"
        return self.trumps[suit]


def history_entry(
    data: Mapping[str, Any], score: HandScore, words: RowWords, per_hand: int
) -> dict[str, Any]:
    trump = data.get("trump")
    bidder = data.get("bidder")
    return {
        "number": score.number,
        "dealer": words.seat(score.dealer),
        "result": score.result,
        "bidder": words.seat(bidder) if bidder else "",
        "bidder_short": words.letter(bidder) if bidder else "",
        "trump_symbol": SUIT_SYMBOLS[trump] if trump else "",
        "bid": data.get("bid"),
        "trump": words.trump(trump) if trump else "",
        "red": trump in ("hearts", "diamonds"),
        "quick": "meld_points" in data,
        "slam": next(
            (words.short(side) for side, won in (data.get("tricks_won") or {}).items() if won == per_hand), ""
        ),
        "sides": [
            {
                "short": words.short(side),
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
