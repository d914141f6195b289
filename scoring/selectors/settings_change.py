"""What a change of a game's settings does, for its page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring import diff, game_settings
from scoring.labels import seat_label, side_short
from scoring.rules.scale import shown
from scoring.selectors.board import winner_words


def settings_preview(outcome: game_settings.Outcome, players: Mapping[str, str]) -> dict[str, Any]:
    """What a change of the game's settings does, for its page: the changed settings (old → new),
    the totals (and final chips in Check Pinochle) now and after, and the end of the game."""
    old, new = outcome.result_before, outcome.result_after
    sides = new.settings.sides
    # Every point figure as the page shows and takes them: at the game's scale before the change.
    scale = old.settings.scale
    totals = [
        (side_short(side), shown(old.scores[side], scale), shown(new.scores[side], scale)) for side in sides
    ]
    chips = [(side_short(side), old.chips[side], new.chips[side]) for side in sides]
    if new.finished and new.ended_after is not None:
        winner = winner_words(new.winner or "", new.settings, players)
        if not old.finished:
            ending = _("This change ends the game after hand %(number)d. Winner: %(winner)s.")
        elif (old.winner, old.ended_after) != (new.winner, new.ended_after):
            ending = _("The game still ends after hand %(number)d, but the winner changes to %(winner)s.")
        else:
            ending = _("The game stays over after hand %(number)d. Winner: %(winner)s.")
        ending %= {"number": new.ended_after, "winner": winner}
    else:
        params = {
            "number": len(new.hands) + 1,
            "dealer": seat_label(new.settings.dealer(len(new.hands) + 1), players),
        }
        if old.finished:
            ending = _("The game is no longer over: play goes on with hand %(number)d, %(dealer)s deals.")
        else:
            ending = _("The game goes on: hand %(number)d, %(dealer)s deals.")
        ending %= params
    return {
        "rows": diff.change_rows(outcome.before, outcome.after, scale),
        "totals": totals,
        "totals_change": any(before != after for _side, before, after in totals),
        "chips": chips if new.settings.chips_in_play else [],
        "finished": new.finished,  # the chips are "final" only when the game is over after the change
        "ending": ending,
        "ending_changes": outcome.ending_changes,
        "token": outcome.ending_token,
    }
