"""Signals the table sends; other apps (ratings) listen without the table importing them.

`game_changed(game=…)` is sent inside the transaction that changed a game's hands (its result),
its club, season or date, or the player linked to one of its seats. `was_finished=False` says the
game was in progress before the change (a hand appended to it); None says nothing is known.

`games_changed(games=[…])` is sent once for many games whose results were rewritten together, in
the transaction that wrote them:
the derived data of other apps is worked out once for all of them, not once per game.

`game_planned(game=…)` is asked by the rights checks (scoring/permissions.py) about a club game: an
app that plans games (nights: the tables of a club night) answers with a `Plan` when the game is
one of its own, otherwise None. So the table knows a game follows a plan without importing the
app that keeps the plan or reading its tables.
"""

from dataclasses import dataclass

from django.dispatch import Signal

game_changed = Signal()
games_changed = Signal()
game_planned = Signal()


@dataclass(frozen=True)
class Plan:
    """A game another app plans: its filing, its seats' players and its rules follow the plan and
    only an organiser of the club changes them; once `over`, no phone's right to it counts."""

    over: bool
