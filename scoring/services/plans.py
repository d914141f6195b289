"""Games another app plans (nights: the tables of a club night): the app marks them here, and the
rights checks (scoring/permissions.py) read the game's own row, not the planner's tables."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from scoring.models import Game


def follow_plan(*, games: QuerySet[Game] | Iterable[Game], over: bool = False) -> None:
    """These games follow a plan: their filing, seats' players and rules are the plan's, changed
    by an organiser of the club only. `over` says the plan is over (the night is finished): no
    phone's right to them counts, organisers still correct; `over=False` opens it again."""
    if isinstance(games, QuerySet):
        games.update(planned=True, plan_over=over)
        return
    games = list(games)
    Game.all_objects.filter(pk__in=[game.pk for game in games]).update(planned=True, plan_over=over)
    for game in games:
        game.planned, game.plan_over = True, over
