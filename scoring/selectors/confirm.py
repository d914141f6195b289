"""Reads for the opponents' OK of each hand (scoring/services/confirm.py writes it): which hands
wait for it, and which side gives it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.models import Game, Hand
from scoring.rules.tables import SEAT_ORDER, side_of, sides_for
from scoring.selectors.board import settings_of


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
