"""What a hand does, in a few short lines: its preview, the bidders' need in trick points and
what a correction does to the totals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.labels import side_short
from scoring.models import Game
from scoring.rules.engine import GameResult, all_tricks_to_bidders
from scoring.rules.errors import RecordError
from scoring.rules.scale import shown
from scoring.rules.settings import Settings
from scoring.rules.tables import trick_points_needed
from scoring.services.results import preview_hand


def describe(result: GameResult, number: int, data: Mapping[str, Any]) -> list[str]:
    """What hand `number` does, in a few short lines: "N–S make 27: +36 · E–W +20" (every point
    figure at the game's scale)."""
    hand = result.hands[number - 1]
    sides, scale = result.settings.sides, result.settings.scale
    lines = []
    others = " · ".join(
        f"{side_short(side)} {shown(hand.points[side], scale):+d}"
        for side in sides
        if side != hand.bidding_side
    )
    bidders, bid = hand.bidding_side, data.get("bid")
    bid = shown(bid, scale) if isinstance(bid, int) else bid
    if hand.result == "passed":
        lines.append(_("All passed: no score, no chips."))
    elif hand.result == "nobid" or bidders is None:
        lines.append(" · ".join(f"{side_short(side)} {shown(hand.points[side], scale):+d}" for side in sides))
    else:
        params = {
            "side": side_short(bidders),
            "bid": bid,
            "points": f"{shown(hand.points[bidders], scale):+d}",
        }
        alone = len(bidders) == 1  # one player on their own (three or two at the table)
        headline = _headline(hand.result, alone=alone) % params
        lines.append(f"{headline} · {others}" if others else headline)
        if hand.result != "conceded":
            # What the bidders had to take in tricks: the bid less their meld (as the engine counted it).
            need = trick_points_needed(int(data["bid"]), hand.meld[bidders], result.settings.meld_counts_from)
            need = shown(need, scale)
            if alone:
                needed = ngettext(
                    "%(side)s needed %(need)d trick point (bid %(bid)s − meld %(meld)d) and took %(took)d.",
                    "%(side)s needed %(need)d trick points (bid %(bid)s − meld %(meld)d) and took %(took)d.",
                    need,
                )
            else:
                needed = ngettext(
                    "%(side)s needed %(need)d trick point (bid %(bid)s − meld %(meld)d); they took %(took)d.",
                    "%(side)s needed %(need)d trick points (bid %(bid)s − meld %(meld)d); "
                    "they took %(took)d.",
                    need,
                )
            params = {
                "side": side_short(bidders),
                "need": need,
                "bid": bid,
                "meld": shown(hand.meld[bidders], scale),
                "took": shown(hand.tricks[bidders], scale),
            }
            lines.append(
                needed % params + _on_the_board(result.settings, int(data["bid"]), hand.meld[bidders])
            )
    if result.settings.chips_in_play and hand.result != "passed":
        chips = ", ".join(f"{side_short(side)} {hand.chips[side]:+d}" for side in sides)
        lines.append(_("Chips: %(chips)s") % {"chips": chips})
    totals = " · ".join(f"{side_short(side)} {shown(hand.totals[side], scale)}" for side in sides)
    lines.append(_("Totals after: %(totals)s") % {"totals": totals})
    if result.ended_after == number and result.ended_by == "deals":
        lines.append(
            _("This is the game's last deal (%(deals)d): the game ends after it.") % {"deals": number}
        )
    elif result.ended_after == number and result.ended_by == "spread" and result.reached:
        spread_ends = (
            _("This hand ends the game: %(side)s leads by the winning spread of %(spread)d.")
            if len(result.reached) == 1
            else _("This hand ends the game: %(side)s lead by the winning spread of %(spread)d.")
        )
        spread = shown(result.settings.spread or 0, scale)
        lines.append(spread_ends % {"side": side_short(result.reached), "spread": spread})
    elif result.ended_after == number and result.reached:
        ends = (
            _("This hand ends the game: %(side)s reaches the target.")
            if len(result.reached) == 1
            else _("This hand ends the game: %(side)s reach the target.")
        )
        lines.append(ends % {"side": side_short(result.reached)})
    return lines


def _headline(result: str, *, alone: bool) -> str:
    """The first line of a bid hand's preview: a partnership ("N–S make 27") or one player on
    their own ("N makes 27"), whose verb agrees with one (Czech "S splnil", "S–J splnili")."""
    if alone:
        if result == "made":
            return _("%(side)s makes %(bid)s: %(points)s")
        if result == "set":
            return _("%(side)s is set on %(bid)s: %(points)s")
        return _("%(side)s concedes %(bid)s: %(points)s")
    if result == "made":
        return _("%(side)s make %(bid)s: %(points)s")
    if result == "set":
        return _("%(side)s are set on %(bid)s: %(points)s")
    return _("%(side)s concede %(bid)s: %(points)s")


def need_before_tricks(
    *, game: Game, data: Mapping[str, Any], settings: Settings, stored: list[Any], replace: int | None
) -> str:
    """The bidders' need in trick points as soon as bid and meld are known (the tricks are all
    that is missing): the engine scores the hand as if the bidders took every trick, so it counts
    the meld as it would; "" when it refuses the hand for another reason."""
    trial = all_tricks_to_bidders(data, settings)
    try:
        result = preview_hand(game=game, data=trial, stored=stored, replace=replace)
    except RecordError:
        return ""
    return bidders_need(result, replace or len(stored) + 1, data)


def _on_the_board(settings: Settings, bid: int, meld: int) -> str:
    """The note "Meld counts from N: …" after the bidders' need when that house rule makes the need
    more than the bid less the meld (docs/rules.md, "Meld counts from N (house rule)"); else ""."""
    floor = settings.meld_counts_from
    if floor is None or trick_points_needed(bid, meld, floor) == trick_points_needed(bid, meld):
        return ""
    floor = shown(floor, settings.scale)
    return " " + ngettext(
        "Meld counts from %(number)d: only with at least %(number)d meld and %(number)d trick point.",
        "Meld counts from %(number)d: only with at least %(number)d meld and %(number)d trick points.",
        floor,
    ) % {"number": floor}


def bidders_need(result: GameResult, number: int, data: Mapping[str, Any]) -> str:
    """What the bidders must take in tricks: the bid less their meld, as the engine counts it."""
    hand = result.hands[number - 1]
    bidders = hand.bidding_side
    if bidders is None:
        return ""
    return _bidders_need(result, bidders, hand.meld[bidders], data) + _on_the_board(
        result.settings, int(data["bid"]), hand.meld[bidders]
    )


def _bidders_need(result: GameResult, bidders: str, meld: int, data: Mapping[str, Any]) -> str:
    scale = result.settings.scale
    need = shown(trick_points_needed(int(data["bid"]), meld, result.settings.meld_counts_from), scale)
    params = {
        "side": side_short(bidders),
        "need": need,
        "bid": shown(int(data["bid"]), scale),
        "meld": shown(meld, scale),
    }
    if len(bidders) == 1:  # one player on their own
        return (
            ngettext(
                "%(side)s needs %(need)d trick point (bid %(bid)s − meld %(meld)d).",
                "%(side)s needs %(need)d trick points (bid %(bid)s − meld %(meld)d).",
                need,
            )
            % params
        )
    return (
        ngettext(
            "%(side)s need %(need)d trick point (bid %(bid)s − meld %(meld)d).",
            "%(side)s need %(need)d trick points (bid %(bid)s − meld %(meld)d).",
            need,
        )
        % params
    )


def correction_change(game: Game, after: GameResult) -> list[str]:
    """What a correction does to today's totals (and chips), from the game's stored summary to
    the corrected result: "N–S 85 → 75 · E–W 19 → 69"."""
    sides, scale = after.settings.sides, after.settings.scale
    points = " · ".join(
        f"{side_short(side)} {shown(game.scores.get(side, 0), scale)} → {shown(after.scores[side], scale)}"
        for side in sides
    )
    lines = [_("Today's totals: %(change)s") % {"change": points}]
    if after.settings.chips_in_play:
        chips = " · ".join(
            f"{side_short(side)} {game.chip_totals.get(side, 0)} → {after.chips[side]}" for side in sides
        )
        lines.append(_("Today's chips: %(change)s") % {"change": chips})
    return lines
