"""Removing a club night with its plan and its games. The page that asks first is the ledger's
(ledger/views/removal.py): it shows what the ledger keeps of the night's settlement, and the
ledger imports the nights, not the other way."""

from __future__ import annotations

from django.db import transaction

from nights.models import Night
from nights.services import locked_for_update
from nights.signals import night_removing
from scoring.services.games import delete_game


@transaction.atomic
def remove_night(*, night: Night, keep_payments: bool = True, removed_by: str = "") -> int:
    """Remove a night with its plan, and its games through scoring's services (statistics and
    ratings follow the deleted games). Returns the number of games removed.

    The payments marked for its settlement: with `keep_payments` those of a season stay in that
    season's ledger (money that changed hands did; the season then proposes paying it back),
    otherwise they are taken back (they stop counting and keep who removed them and when). A
    payment of a night in no season would show in no ledger once the night is gone: it is always
    taken back. Refused (ValidationError, nothing removed) while the ledger holds the night
    settled and locked. The ledger does both, receiving `signals.night_removing`."""
    night = locked_for_update(night)
    night_removing.send(sender=Night, night=night, keep_payments=keep_payments, removed_by=removed_by)
    games = list(night.games)
    night.delete()  # players, tables, seats and byes cascade; games are PROTECTed until now
    for game in games:
        delete_game(game=game)
    return len(games)
