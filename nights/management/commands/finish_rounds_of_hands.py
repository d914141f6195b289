"""`python manage.py finish_rounds_of_hands`: give the games of a club night's rounds of N hands
stored before a round was a game of N deals their length, and list them.

`migrate` does this by itself after every run (`nights.apps`), so an upgrade needs no manual
step; the command is for seeing what it did (and finds nothing the second time).
"""

from typing import Any

from django.core.management.base import BaseCommand

from nights.services import LengthGiven, finish_rounds_of_hands


def describe(item: LengthGiven) -> str:
    """One line per game for the person upgrading: where it was played and how it ends now."""
    where = (
        f"{item.night.club} night of {item.night.played_on.isoformat()}, "
        f"round {item.table.round_no} table {item.table.table_no}, game {item.game.code}"
    )
    if item.longer:
        return (
            f"{where}: {item.game.hand_count} hands played in a round of {item.hands_per_round}; "
            f"every hand kept, the game ends after hand {item.deals} (noted in its corrections)"
        )
    state = "over" if item.game.finished else f"in play, {item.game.hand_count} hands so far"
    return f"{where}: a game of {item.deals} deals, {state}"


class Command(BaseCommand):
    help = "Give the games of club nights' rounds of N hands their length of N deals (after an upgrade)."

    def handle(self, *args: Any, **options: Any) -> None:
        given = finish_rounds_of_hands()
        for item in given:
            self.stdout.write(describe(item))
        self.stdout.write(f"{len(given)} games given a length")
