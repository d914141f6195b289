"""Reads for the pages: a game's scoreboard, history and awards, all scored by the engine.

A scoreboard costs three queries whatever the number of hands (game, seats, hands), none right
after a save (drawn from what the save stored); the engine does the arithmetic in Python.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import diff, game_settings, services
from scoring.chart import progression_svg
from scoring.labels import SUIT_NAMES, SUIT_SYMBOLS, seat_label, seat_letter, side_label, side_short
from scoring.models import Game
from scoring.rules import GameResult, HandScore, RecordError, Settings, parse_settings
from scoring.rules.engine import all_tricks_to_bidders


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
                "leading": leader and game.scores.get(side, 0) == best,
                "to_go": max(target - game.scores.get(side, 0), 0),
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

    @functools.cached_property
    def chart(self) -> str:
        """The score-progression chart (drawn with the history, so usually from the cache)."""
        return progression_svg(self.result)

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
        "bidder_short": seat_letter(data["bidder"]) if data.get("bidder") else "",
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


def end_reason(result: GameResult) -> list[SafeString]:
    """Why the game ended as it did, from the engine's result fields (docs/rules.md, "End of the game").

    HTML lines: a side and its figure never break apart ("N–S 53" stays on one line)."""
    reached, number = result.reached, result.ended_after
    if not result.finished or number is None:
        return []
    if result.ended_by == "deals":
        lines = _deals_reason(result, number)
    elif reached is None:
        return []
    else:
        lines = _target_reason(result, reached, number)
    if result.settings.chips_in_play and result.winner is not None:
        chips = mark_safe(
            " · ".join(_nobreak(f"{side_short(side)} {result.chips[side]}") for side in result.settings.sides)
        )
        if result.winner == "draw":
            lines.append(_html(_("In Check Pinochle the chips decide: %(chips)s, a draw."), {"chips": chips}))
        else:
            message = _("In Check Pinochle the side with more chips wins: %(chips)s.")
            lines.append(_html(message, {"chips": chips}))
    return lines


def _deals_reason(result: GameResult, number: int) -> list[SafeString]:
    """The game of a fixed number of deals ended after its last deal, short of the target."""
    scores = mark_safe(
        " · ".join(_nobreak(f"{side_short(side)} {result.scores[side]}") for side in result.settings.sides)
    )
    params: dict[str, Any] = {"number": number, "scores": scores}
    if result.reached is None:
        message = ngettext(
            "The game was %(number)s deal; after it the points are level: %(scores)s.",
            "The game was %(number)s deals; after the last one the points are level: %(scores)s.",
            number,
        )
        lines = [_html(message, params)]
        if result.settings.chips_in_play:
            lines.append(_html(_("No game chips: neither side is ahead on points."), {}))
        return lines
    params["side"] = _nobreak(side_short(result.reached))
    if result.settings.seats == 4:  # a partnership
        message = ngettext(
            "The game was %(number)s deal: %(side)s have the most points, %(scores)s.",
            "The game was %(number)s deals: %(side)s have the most points, %(scores)s.",
            number,
        )
    else:
        message = ngettext(
            "The game was %(number)s deal: %(side)s has the most points, %(scores)s.",
            "The game was %(number)s deals: %(side)s has the most points, %(scores)s.",
            number,
        )
    return [_html(message, params)]


def _target_reason(result: GameResult, reached: str, number: int) -> list[SafeString]:
    target = result.settings.target
    hand = result.hands[number - 1]
    over = [side for side in result.settings.sides if hand.totals[side] >= target]
    params = {"side": _nobreak(side_short(reached)), "target": target, "number": number}
    if len(over) == 1:
        lines = [_html(_("%(side)s reached %(target)s in hand %(number)s."), params)]
    elif hand.bidding_side == reached:
        message = _("%(side)s bid and reached %(target)s in hand %(number)s: the bidders go out first.")
        lines = [_html(message, params)]
    elif len(result.settings.sides) > 2:  # three players, each on their own
        message = _("Several players passed %(target)s in hand %(number)s: %(side)s has the most points.")
        lines = [_html(message, params)]
    else:
        message = _("Both sides passed %(target)s in hand %(number)s: %(side)s have more points.")
        lines = [_html(message, params)]
    return lines


def _nobreak(text: str) -> SafeString:
    return format_html('<span class="nobreak">{}</span>', text)


def _html(message: str, params: Mapping[str, Any]) -> SafeString:
    """A translated sentence (escaped) with HTML parameters (already safe) put in."""
    return mark_safe(
        conditional_escape(message) % {name: conditional_escape(value) for name, value in params.items()}
    )


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
            need = max(int(data["bid"]) - hand.meld[bidders], 0)
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
    if result.ended_after == number and result.ended_by == "deals":
        lines.append(
            _("This is the game's last deal (%(deals)d): the game ends after it.") % {"deals": number}
        )
    elif result.ended_after == number and result.reached:
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
        winner = winner_words(new.winner or "", new.settings, players)
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
        "finished": new.finished,  # the chips are "final" only when the game is over after the change
        "ending": ending,
        "ending_changes": outcome.ending_changes,
        "token": outcome.ending_token,
    }


def need_before_tricks(
    *, game: Game, data: Mapping[str, Any], settings: Settings, stored: list[Any], replace: int | None
) -> str:
    """The bidders' need in trick points as soon as bid and meld are known (the tricks are all
    that is missing): the engine scores the hand as if the bidders took every trick, so it counts
    the meld as it would; "" when it refuses the hand for another reason."""
    trial = all_tricks_to_bidders(data, settings)
    try:
        result = services.preview_hand(game=game, data=trial, stored=stored, replace=replace)
    except RecordError:
        return ""
    return bidders_need(result, replace or len(stored) + 1, data)


def bidders_need(result: GameResult, number: int, data: Mapping[str, Any]) -> str:
    """What the bidders must take in tricks: the bid less their meld, as the engine counts it."""
    hand = result.hands[number - 1]
    bidders = hand.bidding_side
    if bidders is None:
        return ""
    meld = hand.meld[bidders]
    params = {
        "side": side_short(bidders),
        "need": max(int(data["bid"]) - meld, 0),
        "bid": data["bid"],
        "meld": meld,
    }
    return _("%(side)s need %(need)d trick points (bid %(bid)s − meld %(meld)d).") % params


def correction_change(game: Game, after: GameResult) -> list[str]:
    """What a correction does to today's totals (and chips), from the game's stored summary to
    the corrected result: "N–S 85 → 75 · E–W 19 → 69"."""
    sides = after.settings.sides
    points = " · ".join(
        f"{side_short(side)} {game.scores.get(side, 0)} → {after.scores[side]}" for side in sides
    )
    lines = [_("Today's totals: %(change)s") % {"change": points}]
    if after.settings.chips_in_play:
        chips = " · ".join(
            f"{side_short(side)} {game.chip_totals.get(side, 0)} → {after.chips[side]}" for side in sides
        )
        lines.append(_("Today's chips: %(change)s") % {"change": chips})
    return lines
