"""`python manage.py refresh_ratings`: recompute every stored rating from the games.

The services keep the ratings in step with every save; this rebuilds them after `migrate` (games
stored before the ratings existed) or a change to how ratings are computed. Same games in, same
numbers out.
"""

from typing import Any

from django.core.management.base import BaseCommand

from ratings import services


class Command(BaseCommand):
    help = "Recompute the player and partnership ratings (all-time and per club) from the finished games."

    def handle(self, *args: Any, **options: Any) -> None:
        done = services.refresh_all()
        for scope, games in done.items():
            self.stdout.write(f"{scope}: {games} games rated")
