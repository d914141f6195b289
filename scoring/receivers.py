"""The table's part of what clubs does (clubs/signals.py): the seats of a merged player, and the
phones' rights that end with a club role."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.dispatch import receiver
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.signals import players_merging, scoring_ended
from scoring.devices import end_rights
from scoring.models import Game, GameSeat


@receiver(players_merging, dispatch_uid="scoring.merge_seats")
def move_seats(*, keep: Player, duplicate: Player, **_kwargs: Any) -> None:
    """Refused when both sat in the same game: they are then two people, not one entered twice."""
    shared = GameSeat.objects.filter(player=keep, game__seat_rows__player=duplicate).values("game__code")[:1]
    if shared:
        raise ValidationError(
            _("%(a)s and %(b)s played in the same game (%(code)s), so they are two people.")
            % {"a": keep.name, "b": duplicate.name, "code": shared[0]["game__code"]}
        )
    GameSeat.objects.filter(player=duplicate).update(player=keep)


@receiver(scoring_ended, dispatch_uid="scoring.end_device_rights")
def end_device_rights(*, club_id: int, user: AbstractBaseUser, **_kwargs: Any) -> None:
    """The club games in progress the user started lose their hand-over link and the phones'
    rights: the club's organisers and scorers carry on signed in."""
    end_rights(games=Game.objects.filter(club_id=club_id, created_by_id=user.pk, finished=False))
