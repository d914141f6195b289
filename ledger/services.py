"""Writes of the chip ledger: payments made, taken back, and a settled night's lock.

An organiser marks one of the payments the page proposed ("Bo pays Anna 12"), or records any
payment that was made (payer, payee, amount, how). Every write takes a lock on the club and is
made once per form token, so a double tap or a retry makes one payment. Marking a proposal is
accepted only while it is still proposed (a correction or another organiser's mark may have
changed the list), so a stale page says so instead of writing something nobody saw.

A settled night can be locked ("Settled — locked"): then none of its payments can be marked,
recorded or removed until an organiser unlocks it.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from clubs.models import Club, Membership, Player, Season
from clubs.permissions import can_manage_club
from ledger import balances, selectors
from ledger.models import NightLock, Payment
from nights import removal
from nights.models import Night

#: Why a settled and locked night is not removed (the removal page and the nights' signal).
LOCKED_FOR_REMOVAL = _lazy(
    "The night is settled and locked in the ledger: an organiser unlocks it on its settlement page first."
)


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
    actor: User | AnonymousUser,
    club: Club,
    night: Night | None,
    season: Season | None,
    payer: int,
    payee: int,
    amount: Decimal,
    unit: str,
    token: uuid.UUID,
    method: str = Payment.Method.CASH,
    paid_on: datetime.date | None = None,
) -> Marked:
    """Mark one suggested payment of a night's settlement (`night`) or of a season's balances
    (`season`, no night) as made. PermissionDenied unless the actor organises the club;
    ValidationError (nothing written) when the payment is no longer due or the night cannot be
    settled yet."""
    existing = _start(actor=actor, club=club, token=token, payer=payer, payee=payee, amount=amount, unit=unit)
    if existing is not None:
        return Marked(existing, created=False)
    if night is not None:
        refuse_if_locked(night)
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
        suggestions = balances.season_ledger(season).suggestions.get(unit, [])
    else:  # pragma: no cover - the views always name one
        raise ValidationError(_("Name a night or a season."))
    if not _due(suggestions, payer=payer, payee=payee, amount=amount, unit=unit):
        raise ValidationError(
            _("This payment is no longer part of the settlement (the figures or the payments changed). "
              "Nothing was marked; the page shows the settlement as it is now.")
        )  # fmt: skip
    return Marked(
        _create(actor, club, season, night, payer, payee, amount, unit, method, token, paid_on), created=True
    )


def _start(
    *,
    actor: User | AnonymousUser,
    club: Club,
    token: uuid.UUID,
    payer: int,
    payee: int,
    amount: Decimal,
    unit: str,
) -> Payment | None:
    """The checks every payment write begins with, under the club's lock: the payment this form's
    token already made (a second tap), or None for a new one."""
    if not can_manage_club(actor, club.pk):
        raise PermissionDenied(_("Only an organiser of the club can mark payments."))
    list(Club.objects.select_for_update().filter(pk=club.pk))  # one payment write at a time per club
    existing = Payment.all_objects.filter(token=token).first()
    if existing is not None and existing.removed_at is not None:
        raise ValidationError(_("This payment was marked and then removed. Reload the page."))
    same = (club.pk, payer, payee, amount, unit)
    if (
        existing is not None
        and (
            existing.club_id,
            existing.payer_id,
            existing.payee_id,
            existing.amount,
            existing.unit,
        )
        != same
    ):
        raise ValidationError(_("This form was already used for another payment. Reload the page."))
    return existing


def _create(
    actor: User | AnonymousUser,
    club: Club,
    season: Season | None,
    night: Night | None,
    payer: int,
    payee: int,
    amount: Decimal,
    unit: str,
    method: str,
    token: uuid.UUID,
    paid_on: datetime.date | None,
) -> Payment:
    if method not in Payment.Method.values:
        raise ValidationError(_("How: choose cash, Swish or other."))
    return Payment.objects.create(
        club=club,
        season=season,
        night=night,
        payer_id=payer,
        payee_id=payee,
        amount=amount,
        unit=unit,
        method=method,
        paid_on=paid_on or timezone.localdate(),
        marked_by=actor if actor.is_authenticated else None,
        marked_by_label=actor.get_username() if actor.is_authenticated else "",
        token=token,
    )


@transaction.atomic
def record_payment(
    *,
    actor: User | AnonymousUser,
    club: Club,
    night: Night | None,
    season: Season | None,
    payer: Player,
    payee: Player,
    amount: Decimal,
    unit: str,
    method: str,
    token: uuid.UUID,
    paid_on: datetime.date | None = None,
) -> Marked:
    """Record a payment that was made, whether proposed or not ("Bo paid Anna 5.00 by Swish"): of a
    night (`night`, then in its unit) or of a season's balances (`season`, no night). The proposals
    are then worked out again from the payments (`ledger.compute.proposals`).

    PermissionDenied unless the actor organises the club; ValidationError, nothing written, for a
    player not on the club's roster, a player paying themselves, an amount that is not more than
    zero with at most two decimals (chips: a whole number), a night still being played, with
    nothing to settle, or locked."""
    existing = _start(
        actor=actor, club=club, token=token, payer=payer.pk, payee=payee.pk, amount=amount, unit=unit
    )
    if existing is not None:
        return Marked(existing, created=False)
    check_payment(club=club, payer=payer, payee=payee, amount=amount, unit=unit)
    if night is not None:
        refuse_if_locked(night)
        if not night.is_finished:
            raise ValidationError(
                _("The night is still being played: it can be settled once the organiser finishes it.")
            )
        if selectors.night_ledger(night).unit != unit:
            raise ValidationError(_("Unit: this night is not settled in that unit."))
        season = night.season
    elif season is None:  # pragma: no cover - the views always name one
        raise ValidationError(_("Name a night or a season."))
    return Marked(
        _create(actor, club, season, night, payer.pk, payee.pk, amount, unit, method, token, paid_on),
        created=True,
    )


def check_payment(*, club: Club, payer: Player, payee: Player, amount: Decimal, unit: str) -> None:
    """The rules of any payment, each message naming its field (the form shows them next to it)."""
    errors: dict[str, list[str]] = {}
    on_roster = set(
        Membership.objects.filter(club=club, player__in=[payer, payee]).values_list("player_id", flat=True)
    )
    for name, player in (("payer", payer), ("payee", payee)):
        if player.pk not in on_roster:
            errors.setdefault(name, []).append(
                _("%(name)s is not on this club's roster.") % {"name": player.name}
            )
    if payer.pk == payee.pk:
        errors.setdefault("payee", []).append(_("A player cannot pay themselves."))
    if amount <= 0:
        errors.setdefault("amount", []).append(_("The amount must be more than zero."))
    elif amount != amount.quantize(Decimal("0.01")):
        errors.setdefault("amount", []).append(_("At most two decimals (whole cents)."))
    elif unit == Payment.Unit.CHIPS and amount != amount.to_integral_value():
        errors.setdefault("amount", []).append(_("Chips are whole numbers."))
    if unit not in Payment.Unit.values:
        errors.setdefault("unit", []).append(_("Choose money or chips."))
    if errors:
        raise ValidationError(errors)


def refuse_if_locked(night: Night) -> None:
    """ValidationError while the night is locked ("Settled — locked")."""
    lock = NightLock.objects.filter(night=night, unlocked_at__isnull=True).first()
    if lock is not None:
        raise ValidationError(
            _("The night is settled and locked (by %(who)s): its payments cannot change. "
              "An organiser can unlock it first.")
            % {"who": lock.locked_by_label or "?"}
        )  # fmt: skip


@transaction.atomic
def remove_payment(
    *,
    actor: User | AnonymousUser,
    club: Club,
    payment_id: int,
    night: Night | None,
    season: Season | None,
) -> Payment | None:
    """Take back a payment marked by mistake: it stops counting and keeps who removed it and when.
    Only a payment of this night (or of this season, its nights' included) is found; None when it
    was removed already (a second tap), so nothing changes twice. PermissionDenied unless the
    actor organises the club; ValidationError, nothing written, while its night is locked."""
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
    if payment.night is not None:
        refuse_if_locked(payment.night)
    payment.removed_at = timezone.now()
    payment.removed_by_label = actor.get_username() if actor.is_authenticated else ""
    payment.save(update_fields=["removed_at", "removed_by_label"])
    return payment


@transaction.atomic
def lock_night(*, actor: User | AnonymousUser, night: Night) -> NightLock | None:
    """Lock a settled night ("Settled — locked"): finished, its stored results the engine's, and
    nothing left to pay. Keeps the night's figures as they are now, to say so if a correction
    changes them later. None when it is locked already (a second tap). PermissionDenied unless
    the actor organises the club; ValidationError, nothing written, when the night is not settled."""
    if not can_manage_club(actor, night.club_id):
        raise PermissionDenied(_("Only an organiser of the club can lock a night."))
    list(Club.objects.select_for_update().filter(pk=night.club_id))
    if NightLock.objects.filter(night=night, unlocked_at__isnull=True).exists():
        return None
    ledger = selectors.night_ledger(night, verify=True)
    if not night.is_finished:
        raise ValidationError(
            _("The night is still being played: it can be locked once it is finished and settled.")
        )
    if ledger.mismatches:
        raise ValidationError(
            _("The stored results of games %(codes)s differ from the rules engine; nothing was locked.")
            % {"codes": ", ".join(ledger.mismatches)}
        )
    if ledger.unit is None:
        raise ValidationError(_("This night has nothing to settle, so there is nothing to lock."))
    if ledger.suggestions:
        raise ValidationError(
            ngettext(
                "%(count)d payment is still open: the night can be locked once it is settled.",
                "%(count)d payments are still open: the night can be locked once it is settled.",
                len(ledger.suggestions),
            )
            % {"count": len(ledger.suggestions)}
        )
    return NightLock.objects.create(
        night=night,
        unit=ledger.unit,
        figures=selectors.figures_for_lock(ledger.rows),
        locked_by=actor if actor.is_authenticated else None,
        locked_by_label=actor.get_username() if actor.is_authenticated else "",
    )


@transaction.atomic
def unlock_night(*, actor: User | AnonymousUser, night: Night) -> NightLock | None:
    """Lift a night's lock, keeping who unlocked it and when; None when it was not locked (a second
    tap). PermissionDenied unless the actor organises the club."""
    if not can_manage_club(actor, night.club_id):
        raise PermissionDenied(_("Only an organiser of the club can lock a night."))
    list(Club.objects.select_for_update().filter(pk=night.club_id))
    lock = NightLock.objects.filter(night=night, unlocked_at__isnull=True).first()
    if lock is None:
        return None
    lock.unlocked_at = timezone.now()
    lock.unlocked_by = actor if actor.is_authenticated else None
    lock.unlocked_by_label = actor.get_username() if actor.is_authenticated else ""
    lock.save(update_fields=["unlocked_at", "unlocked_by", "unlocked_by_label"])
    return lock


#: What the organiser chooses for the payments marked for a night that is removed.
PAYMENT_CHOICES = ("keep", "remove")


@transaction.atomic
def remove_night(*, actor: User | AnonymousUser, night: Night, payments: str | None) -> int:
    """Remove a club night with its plan and its games (`nights.removal.remove_night`), all in this
    one transaction with the ledger's part: the ledger's lock of the club first (every payment
    write and every lock of a night holds it, so none slips in between), then what the organiser
    was shown is checked again, then the night goes and its payments are kept or taken back as
    `payments` ("keep" or "remove") says (the ledger's receiver of `nights.signals.night_removing`).
    Any failure on the way removes nothing. Returns the number of games removed.

    PermissionDenied unless the actor organises the club. ValidationError, nothing removed, with
    code "locked" while the night is settled and locked, and code "choice" when payments are
    marked for the night and `payments` is not a choice."""
    if not can_manage_club(actor, night.club_id):
        raise PermissionDenied(_("Only an organiser of the club can remove a night."))
    # NO KEY: the ledger's other writes wait for it, a row that only points at the club (a newcomer
    # checked in meanwhile, under the night's lock) does not wait for it: no deadlock with the night's lock.
    list(Club.objects.select_for_update(no_key=True).filter(pk=night.club_id))
    if selectors.settled_and_locked(night):
        raise ValidationError(LOCKED_FOR_REMOVAL, code="locked")
    if payments not in PAYMENT_CHOICES and selectors.marked_payments(night):
        raise ValidationError(_("Choose what happens to the payments marked for this night."), code="choice")
    return removal.remove_night(
        night=night, keep_payments=payments != "remove", removed_by=actor.get_username()
    )
