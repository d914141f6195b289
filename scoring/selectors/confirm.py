"""Reads for the opponents' OK of each hand (scoring/services/confirm.py writes it): which hands
wait for it, and which side gives it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.labels import side_label
from scoring.models import Game, Hand
from scoring.rules.tables import SEAT_ORDER, side_of, sides_for
from scoring.selectors.board import Scoreboard, settings_of
from scoring.selectors.preview import describe
from scoring.services.confirm import hand_version


def confirming_sides(game: Game, number: int, data: Mapping[str, Any]) -> list[str]:
    """The sides that confirm hand `number`: the defenders, the sides other than the bidder's; for
    a hand without a bidder (all passed, or a two-handed hand without bidding), the sides other
    than the dealer's."""
    seat = data.get("bidder")
    if not isinstance(seat, str) or seat not in SEAT_ORDER:
        seat = settings_of(game).dealer(number)  # the engine's rule of the deal
    own = side_of(seat, game.seats)
    return [side for side in sides_for(game.seats) if side != own]


def awaiting(game: Game) -> list[Hand]:
    """The game's hands that wait for the other side's OK, in order (none for a game without the rule)."""
    if not game.confirm_hands or not game.unconfirmed_hands:
        return []
    return list(Hand.objects.filter(game_id=game.pk, confirmed_at__isnull=True).order_by("number"))


def ok_question(game: Game, board: Scoreboard, waiting: list[Hand]) -> dict[str, Any] | None:
    """The question the scoring phone puts to the other side ("Hand 7 saved: is it right?"): the
    first hand of `waiting` (`awaiting(game)`), what it does, the version the OK names and the
    sides that give it. The game page and a club night's table link ask it alike."""
    if not waiting or waiting[0].number > len(board.result.hands):
        return None
    hand = waiting[0]
    sides = confirming_sides(game, hand.number, hand.data)
    return {
        "number": hand.number,
        "seen": hand_version(hand.data),
        "lines": describe(board.result, hand.number, hand.data),
        "sides": " & ".join(side_label(side, board.players) for side in sides),
    }
