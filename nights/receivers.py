"""The nights' part of what clubs and the table do (clubs/signals.py, scoring/signals.py): a merged
player's check-ins, seats and byes; the next round of a night with a movement once a round's tables
have ended; what a night's game page says about its round."""

from __future__ import annotations

import contextlib
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.dispatch import receiver
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.signals import players_merging
from nights.figures import awaits_confirmation
from nights.models import Night, NightBye, NightPlayer, NightSeat, NightTable
from nights.movement_plan import plan_moved_round
from nights.rounds import table_notice
from scoring.models import Game
from scoring.signals import PlanNotice, game_changed, games_changed, plan_notice


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


@receiver(game_changed, dispatch_uid="nights.plan_after_a_table")
def plan_after_a_table(sender: Any, *, game: Game, was_finished: bool | None = None, **_kwargs: Any) -> None:
    """A table of a night with a movement changed: the next round is planned once the last table of
    the round has ended (`movement_plan.plan_moved_round`). No query where nothing can change: a game no
    night plans, and a hand added to, corrected or deleted at a table in play that has not ended
    with it (it had not ended before either; its end counts once its hands are all confirmed,
    `figures.table_figures`)."""
    if not game.planned:
        return
    if was_finished is False and not (game.finished and not awaits_confirmation(game)):
        return
    _plan_after(Game.objects.filter(pk=game.pk))


@receiver(games_changed, dispatch_uid="nights.plan_after_tables")
def plan_after_tables(sender: Any, *, games: list[Game], **_kwargs: Any) -> None:
    planned = [game.pk for game in games if game.planned]
    if planned:
        _plan_after(Game.objects.filter(pk__in=planned))


def _plan_after(games: QuerySet[Game]) -> None:
    nights = Night.objects.filter(tables__game__in=games).exclude(movement=Night.Movement.ROTATING)
    for night in nights.distinct():
        # A refusal never stops the hand being saved: the round then shows as not planned, and
        # the organiser's next change (or the round's next result) plans it again.
        with contextlib.suppress(ValidationError):
            plan_moved_round(night=night)


@receiver(plan_notice, dispatch_uid="nights.table_notice")
def notice_of_a_table(*, game: Game, **_kwargs: Any) -> PlanNotice | None:
    """A night's game: what its round says to the table's phone (nights.rounds.table_notice)."""
    table = NightTable.objects.select_related("night").filter(game_id=game.pk).first()
    if table is None:
        return None
    table.game = game
    return table_notice(table, timezone.now())
