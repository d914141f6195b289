"""Removing a club night: what the ledger keeps of its settlement (asked through nights/signals.py,
the ledger knows nights and not the other way), and the removal itself."""

from __future__ import annotations

from django.db import transaction

from nights.models import Night
from nights.services import locked_for_update
from nights.signals import Settlement, night_removing, night_settlement
from scoring.services.games import delete_game


def settlement_of(night: Night) -> Settlement:
    """What the ledger keeps of the night's settlement (nights/signals.py): the ledger knows nights,
    not the other way."""
    for _receiver, answer in night_settlement.send(sender=Night, night=night):
        if isinstance(answer, Settlement):
            return answer
    return Settlement()


def marked_payments(night: Night) -> list:  # type: ignore[type-arg]
    """The payments marked (and not taken back) for this night's settlement."""
    return settlement_of(night).payments


def settled_and_locked(night: Night) -> bool:
    """Whether the ledger holds the night "Settled — locked": its payments cannot change, so
    neither can the night be removed."""
    return settlement_of(night).locked


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
