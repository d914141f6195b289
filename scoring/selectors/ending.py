"""Why a game ended as it did, in short HTML lines (docs/rules.md, "End of the game")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring.labels import side_short
from scoring.rules.engine import GameResult
from scoring.rules.scale import shown


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
    elif result.ended_by == "spread":
        lines = [_spread_reason(result, reached, number)]
    else:
        lines = _target_reason(result, reached, number)
    if result.settings.chips_in_play and result.winner is not None:
        chips = _listed(
            _nobreak(f"{side_short(side)} {result.chips[side]}") for side in result.settings.sides
        )
        if result.winner == "draw":
            lines.append(_html(_("In Check Pinochle the chips decide: %(chips)s, a draw."), {"chips": chips}))
        else:
            message = _("In Check Pinochle the side with more chips wins: %(chips)s.")
            lines.append(_html(message, {"chips": chips}))
    return lines


def _deals_reason(result: GameResult, number: int) -> list[SafeString]:
    """The game of a fixed number of deals ended after its last deal, short of the target."""
    scores = _listed(
        _nobreak(f"{side_short(side)} {shown(result.scores[side], result.settings.scale)}")
        for side in result.settings.sides
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


def _spread_reason(result: GameResult, reached: str, number: int) -> SafeString:
    """The game ended when a side led every other side by the game's spread (a house rule)."""
    scores = _listed(
        _nobreak(f"{side_short(side)} {shown(result.scores[side], result.settings.scale)}")
        for side in result.settings.sides
    )
    params = {
        "side": _nobreak(side_short(reached)),
        "spread": shown(result.settings.spread or 0, result.settings.scale),
        "number": number,
    }
    if len(reached) == 1:  # one player on their own
        message = _("%(side)s leads by %(spread)s or more after hand %(number)s: wins on points, %(scores)s.")
    else:
        message = _("%(side)s lead by %(spread)s or more after hand %(number)s: win on points, %(scores)s.")
    return _html(message, {**params, "scores": scores})


def _target_reason(result: GameResult, reached: str, number: int) -> list[SafeString]:
    target = result.settings.target
    hand = result.hands[number - 1]
    over = [side for side in result.settings.sides if hand.totals[side] >= target]
    shown_target = shown(target, result.settings.scale)
    params = {"side": _nobreak(side_short(reached)), "target": shown_target, "number": number}
    alone = len(reached) == 1  # one player on their own: the verb agrees with one (Czech "S dosáhl")
    if len(over) == 1:
        if alone:
            message = pgettext("one player", "%(side)s reached %(target)s in hand %(number)s.")
        else:
            message = _("%(side)s reached %(target)s in hand %(number)s.")
    elif hand.bidding_side == reached:
        if alone:
            message = _("%(side)s bid and reached %(target)s in hand %(number)s: the bidder goes out first.")
        else:
            message = _("%(side)s bid and reached %(target)s in hand %(number)s: the bidders go out first.")
    elif len(result.settings.sides) > 2:  # three players, each on their own
        message = _("Several players passed %(target)s in hand %(number)s: %(side)s has the most points.")
    elif alone:  # two players
        message = _("Both players passed %(target)s in hand %(number)s: %(side)s has more points.")
    else:
        message = _("Both sides passed %(target)s in hand %(number)s: %(side)s have more points.")
    return [_html(message, params)]


def _nobreak(text: str) -> SafeString:
    return format_html('<span class="nobreak">{}</span>', text)


def _listed(parts: Any) -> SafeString:
    """The sides' figures joined by dots and kept together (css/app.css .phrase): the line breaks
    before the list rather than inside it, so no line starts or ends with a dot."""
    return format_html('<span class="phrase">{}</span>', mark_safe(" · ".join(parts)))


def _html(message: str, params: Mapping[str, Any]) -> SafeString:
    """A translated sentence (escaped) with HTML parameters (already safe) put in."""
    return mark_safe(
        conditional_escape(message) % {name: conditional_escape(value) for name, value in params.items()}
    )
