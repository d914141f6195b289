"""Signals the table sends; other apps (ratings) listen without the table importing them.

`game_changed(game=…)` is sent inside the transaction that changed a game's hands (its result),
its club, season or date, or the player linked to one of its seats. `was_finished=False` says the
game was in progress before the change (a hand appended to it); None says nothing is known.

`games_changed(games=[…])` is sent once for many games whose results were rewritten together, in
the transaction that wrote them:
the derived data of other apps is worked out once for all of them, not once per game.
"""

from django.dispatch import Signal

game_changed = Signal()
games_changed = Signal()
