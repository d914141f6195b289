"""The audit trail of saved hands: every edit and delete, who made it and when.

The services call `record_hand_change` inside their transaction, so a refused change leaves no
entry and an accepted one always has one. Views pass an `Actor` (`permissions.actor_for(request)`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from scoring.models import Game, HandChange

DEVICE_LABEL = "device"


@dataclass(frozen=True)
class Actor:
    """Who made a change: a user, or a browser holding a game's edit right (label "device")."""

    user: User | None
    label: str

    @classmethod
    def of_user(cls, user: User) -> Actor:
        return cls(user=user, label=user.get_username())

    @classmethod
    def device(cls) -> Actor:
        return cls(user=None, label=DEVICE_LABEL)


def record_hand_change(
    *,
    game: Game,
    hand_number: int,
    action: str,
    old_data: Mapping[str, Any],
    new_data: Mapping[str, Any] | None,
    actor: Actor | None,
) -> HandChange:
    return HandChange.objects.create(
        game=game,
        club_id=game.club_id,
        hand_number=hand_number,
        action=action,
        old_data=dict(old_data),
        new_data=dict(new_data) if new_data is not None else None,
        actor=actor.user if actor is not None else None,
        actor_label=actor.label if actor is not None else "",
    )


def game_corrections(game: Game) -> QuerySet[HandChange]:
    """The game's corrections, newest first."""
    return HandChange.objects.filter(game=game).select_related("actor").order_by("-at", "-id")


def club_corrections(club_id: int) -> QuerySet[HandChange]:
    """Every correction in the club's games, newest first (for its organisers)."""
    return HandChange.objects.filter(club_id=club_id).select_related("actor", "game").order_by("-at", "-id")


def corrected_hand_numbers(game: Game) -> set[int]:
    """Numbers of the game's hands that were edited, for a "corrected" mark on the scoreboard."""
    return set(
        HandChange.objects.filter(game=game, action=HandChange.Action.EDIT).values_list(
            "hand_number", flat=True
        )
    )
