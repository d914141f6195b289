"""Games another app plans (nights: the tables of a club night): the app marks them here, and the
rights checks (scoring/permissions.py) read the game's own row, not the planner's tables."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import QuerySet
from django.utils import timezone

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


def last_hand_from(*, games: Iterable[Game], at: datetime.datetime | None) -> None:
    """The planner's clock of these games: the first hand saved at or after `at` is each game's
    last (a round's time is up, or its organiser called "last hand"); None takes the clock away.
    A hand saved before `at` changes nothing."""
    games = list(games)
    # A new version (`updated_at`): the phones' polls of the game draw its page's line again.
    now = timezone.now()
    Game.all_objects.filter(pk__in=[game.pk for game in games]).update(last_hand_from=at, updated_at=now)
    for game in games:
        game.last_hand_from, game.updated_at = at, now


def end_on_the_clock(game: Game, number: int, now: datetime.datetime) -> None:
    """Inside the save of hand `number` (under the game's lock): if the game's clock has run out,
    this hand is its last. The game becomes one of `number` deals, so the engine ends it after this
    hand as it ends any game of a fixed number of deals (the side with the most points wins)."""
    if game.last_hand_from is None or now < game.last_hand_from:
        return
    if game.deals is not None and game.deals <= number:
        return
    game.deals = number
    Game.all_objects.filter(pk=game.pk).update(deals=number)
