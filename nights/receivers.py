"""The nights' part of what clubs and the table do (clubs/signals.py, scoring/signals.py): a merged
player's check-ins, seats and byes; what a night's game page says about its round."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.dispatch import receiver
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.signals import players_merging
from nights.models import NightBye, NightPlayer, NightSeat, NightTable
from nights.rounds import table_notice
from scoring.models import Game
from scoring.signals import PlanNotice, plan_notice


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


@receiver(plan_notice, dispatch_uid="nights.table_notice")
def notice_of_a_table(*, game: Game, **_kwargs: Any) -> PlanNotice | None:
    """A night's game: what its round says to the table's phone (nights.rounds.table_notice)."""
    table = NightTable.objects.select_related("night").filter(game_id=game.pk).first()
    if table is None:
        return None
    table.game = game
    return table_notice(table, timezone.now())
