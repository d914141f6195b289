"""The ledger's part of what clubs and the nights do (clubs/signals.py, nights/signals.py): a merged
player's payments and a removed night's payments."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.dispatch import receiver
from django.utils import timezone

from clubs.models import Player
from clubs.signals import players_merging
from ledger.models import Payment
from ledger.selectors import settled_and_locked
from ledger.services import LOCKED_FOR_REMOVAL
from nights.models import Night
from nights.signals import night_removing


@receiver(players_merging, dispatch_uid="ledger.merge_payments")
def move_payments(*, keep: Player, duplicate: Player, **_kwargs: Any) -> None:
    """A payment between the two becomes one from the player to themselves: no balance changes.
    Removed payments move too (all_objects): they still point at the duplicate, which the merge deletes."""
    Payment.all_objects.filter(payer=duplicate).update(payer=keep)
    Payment.all_objects.filter(payee=duplicate).update(payee=keep)


@receiver(night_removing, sender=Night, dispatch_uid="ledger.night_removing")
def take_back_payments(*, night: Night, keep_payments: bool, removed_by: str, **_kwargs: Any) -> None:
    """Refused while the night is settled and locked. The payments marked for it: with
    `keep_payments` those of a season stay in its ledger, the others are taken back (they stop
    counting and keep who removed them and when)."""
    if settled_and_locked(night):
        raise ValidationError(LOCKED_FOR_REMOVAL, code="locked")
    payments = Payment.objects.filter(night=night, removed_at__isnull=True)
    if keep_payments:
        payments = payments.filter(season__isnull=True)
    payments.update(removed_at=timezone.now(), removed_by_label=removed_by)
