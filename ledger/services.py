"""Writes of the chip ledger: marking a payment of a settlement as made.

An organiser marks one of the payments the page suggested ("Bo pays Anna 12"). The post carries
the payment as the page showed it and the form's one-time token; the service, under a lock on the
club, accepts it only while it is still one of the suggested payments (a correction or another
organiser's mark may have changed them) and only once per token, so a double tap or a retry makes
one payment and a stale page says so instead of writing something nobody saw.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Season
from clubs.permissions import can_manage_club
from ledger import selectors
from ledger.models import Payment
from nights.models import Night


@dataclass(frozen=True)
class Marked:
    payment: Payment
    created: bool  # False: this form had already marked it (a second tap), nothing new written


def _due(
    suggestions: list[selectors.Suggestion], *, payer: int, payee: int, amount: Decimal, unit: str
) -> bool:
    return any(
        s.payer == payer and s.payee == payee and s.amount == amount and s.unit == unit for s in suggestions
    )


@transaction.atomic
def mark_paid(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    club: Club,
    night: Night | None,
    season: Season | None,
    payer: int,
    payee: int,
    amount: Decimal,
    unit: str,
    token: uuid.UUID,
    paid_on: datetime.date | None = None,
) -> Marked:
    """Mark one suggested payment of a night's settlement (`night`) or of a season's balances
    (`season`, no night) as made. PermissionDenied unless the actor organises the club;
    ValidationError (nothing written) when the payment is no longer due or the night cannot be
    settled yet."""
    if not can_manage_club(actor, club.pk):
        raise PermissionDenied(_("Only an organiser of the club can mark payments."))
    list(Club.objects.select_for_update().filter(pk=club.pk))  # one mark at a time per club
    existing = Payment.all_objects.filter(token=token).first()
    if existing is not None and existing.removed_at is not None:
        raise ValidationError(_("This payment was marked and then removed. Reload the page."))
    if existing is not None:
        if (existing.club_id, existing.payer_id, existing.payee_id, existing.amount, existing.unit) != (
            club.pk,
            payer,
            payee,
            amount,
            unit,
        ):
            raise ValidationError(_("This form was already used for another payment. Reload the page."))
        return Marked(existing, created=False)
    if night is not None:
        if not night.is_finished:
            raise ValidationError(
                _("The night is still being played: it can be settled once the organiser finishes it.")
            )
        ledger = selectors.night_ledger(night, verify=True)
        if ledger.mismatches:
            raise ValidationError(
                _("The stored results of games %(codes)s differ from the rules engine; nothing was marked.")
                % {"codes": ", ".join(ledger.mismatches)}
            )
        suggestions = ledger.suggestions
        season = night.season
    elif season is not None:
        suggestions = selectors.season_ledger(season).suggestions.get(unit, [])
    else:  # pragma: no cover - the views always name one
        raise ValidationError(_("Name a night or a season."))
    if not _due(suggestions, payer=payer, payee=payee, amount=amount, unit=unit):
        raise ValidationError(
            _("This payment is no longer part of the settlement (the figures or the payments changed). "
              "Nothing was marked; the page shows the settlement as it is now.")
        )  # fmt: skip
    payment = Payment.objects.create(
        club=club,
        season=season,
        night=night,
        payer_id=payer,
        payee_id=payee,
        amount=amount,
        unit=unit,
        paid_on=paid_on or timezone.localdate(),
        marked_by=actor if actor.is_authenticated else None,
        marked_by_label=actor.get_username() if actor.is_authenticated else "",
        token=token,
    )
    return Marked(payment, created=True)


@transaction.atomic
def remove_payment(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    club: Club,
    payment_id: int,
    night: Night | None,
    season: Season | None,
) -> Payment | None:
    """Take back a payment marked by mistake: it stops counting and keeps who removed it and when.
    Only a payment of this night (or of this season, its nights' included) is found; None when it
    was removed already (a second tap), so nothing changes twice. PermissionDenied unless the
    actor organises the club."""
    if not can_manage_club(actor, club.pk):
        raise PermissionDenied(_("Only an organiser of the club can mark payments."))
    list(Club.objects.select_for_update().filter(pk=club.pk))
    payments = Payment.objects.filter(club=club)
    if night is not None:
        payments = payments.filter(night=night)
    elif season is not None:
        payments = payments.filter(Q(night__season=season) | Q(night__isnull=True, season=season))
    payment = payments.filter(pk=payment_id).first()
    if payment is None:
        return None
    payment.removed_at = timezone.now()
    payment.removed_by_label = actor.get_username() if actor.is_authenticated else ""
    payment.save(update_fields=["removed_at", "removed_by_label"])
    return payment
