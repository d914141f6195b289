"""Signals the table sends; other apps (ratings) listen without the table importing them.

`game_changed(game=…)` is sent inside the transaction that changed a game's hands (its result),
its club, season or date, or the player linked to one of its seats. `was_finished` says whether
the game was over before a change of its result (a hand saved, corrected or deleted, a setting
changed); None says nothing is known.

`games_changed(games=[…])` is sent once for many games whose results were rewritten together, in
the transaction that wrote them:
the derived data of other apps is worked out once for all of them, not once per game.
"""

import json
from dataclasses import dataclass
from typing import Any

from django.dispatch import Signal

game_changed = Signal()
games_changed = Signal()

# `plan_notice(game=…)` is sent when the page of a planned game (`Game.planned`) is drawn: the
# planner (nights) answers with a PlanNotice for the table's phone (its round's hands or minutes
# left, the last hand, what comes after the round), or None. The table imports no planner.
plan_notice = Signal()


@dataclass(frozen=True)
class PlanNotice:
    """What a planned game's page says about its plan, in the reader's language. `countdown`: the
    texts for 0, 1, 2 … whole minutes left, with the `seconds_left` when the page is drawn, for the
    page's script to count down (static/js/countdown.js); `link`: where the phone goes next, as
    (address, label)."""

    text: str
    seconds_left: int | None = None
    countdown: tuple[str, ...] = ()
    link: tuple[str, str] | None = None

    @property
    def countdown_json(self) -> str:
        return json.dumps(list(self.countdown))


def notice_for(game: Any) -> PlanNotice | None:
    """The planner's notice of a planned game's page (the first receiver's answer), else None.

    Asked (one query of the planner's) only when there is something to say: the game's length is
    planned (a number of deals, a clock) or it is over; a game played to its target says nothing."""
    if not game.planned or not (game.finished or game.deals is not None or game.last_hand_from is not None):
        return None
    for _receiver, answer in plan_notice.send(sender=type(game), game=game):
        if isinstance(answer, PlanNotice):
            return answer
    return None
