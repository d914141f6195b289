"""The nights' part of what clubs do (clubs/signals.py): a merged player's check-ins, seats and
byes."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.dispatch import receiver
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.signals import players_merging
from nights.models import NightBye, NightPlayer, NightSeat


@receiver(players_merging, dispatch_uid="nights.merge_entries")
def move_entries(*, keep: Player, duplicate: Player, **_kwargs: Any) -> None:
    """Refused when both were checked in at the same night: they are then two people."""
    both = NightPlayer.objects.filter(player=keep, night__players__player=duplicate).values(
        "night__played_on"
    )[:1]
    if both:
        raise ValidationError(
            _("%(a)s and %(b)s were both checked in at the club night of %(date)s, so they are two people.")
            % {"a": keep.name, "b": duplicate.name, "date": date_format(both[0]["night__played_on"])}
        )
    NightPlayer.objects.filter(player=duplicate).update(player=keep)
    NightSeat.objects.filter(player=duplicate).update(player=keep)
    NightBye.objects.filter(player=duplicate).update(player=keep)
