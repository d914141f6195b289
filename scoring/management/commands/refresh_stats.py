"""`python manage.py refresh_stats`: rebuild the derived statistics of every game from its hands.

Services keep HandStat/GameStat in step with every change of hands; this is for games stored
before the league tables existed (after `migrate`), or after a change to how statistics are
derived (the bid bands, say). Each game is rescored by the engine in its own transaction.
"""

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from scoring import stats
from scoring.models import Game
from scoring.rules.errors import RecordError
from scoring.services.results import score


class Command(BaseCommand):
    help = "Rebuild the league statistics (HandStat, GameStat) of every game from its stored hands."

    def handle(self, *args: Any, **options: Any) -> None:
        done = refused = 0
        for game in Game.objects.order_by("pk").iterator(chunk_size=200):
            try:
                with transaction.atomic():
                    stats.refresh_game(game, score(game))
            except RecordError as error:
                refused += 1
                self.stderr.write(f"game {game.code}: {error}")
            else:
                done += 1
        self.stdout.write(
            f"rebuilt the statistics of {done} games" + (f"; {refused} refused" if refused else "")
        )
