"""What the night and season pages share: the blank and the posted payment form, and the message
that says what a mark or a removal did."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext as _

from clubs.models import Club, Season
from ledger import services
from ledger.forms import RecordPaymentForm
from ledger.models import Payment
from ledger.templatetags.ledger_tags import amount as amount_text
from nights.models import Night


def new_token() -> str:
    return str(uuid.uuid4())


def blank_record(club: Club, units: list[str]) -> RecordPaymentForm:
    return RecordPaymentForm(club=club, units=units, initial={"token": new_token()})


def record_posted(
    request: HttpRequest, *, club: Club, night: Night | None, season: Season | None, units: list[str]
) -> services.Marked | RecordPaymentForm | list[str]:
    """Record the posted payment; when nothing was written, the bound form with its errors, or the
    problems of the night or season."""
    form = RecordPaymentForm(request.POST, club=club, units=units)
    if not form.is_valid():
        return form
    try:
        return services.record_payment(
            actor=request.user, club=club, night=night, season=season, **form.cleaned_data
        )
    except ValidationError as error:
        if hasattr(error, "error_dict"):
            form.add_error(None, error)  # each message next to its field
            return form
        return error.messages  # about the night (locked, still being played): shown above the lists


def say_marked(request: HttpRequest, marked: services.Marked) -> None:
    p = marked.payment
    text = {
        "payer": p.payer.name,
        "payee": p.payee.name,
        "amount": amount_text(p.amount, p.unit),
        "method": p.get_method_display(),
    }
    if marked.created:
        messages.success(
            request, _("Marked as paid: %(payer)s paid %(payee)s %(amount)s. How: %(method)s.") % text
        )
    else:
        messages.info(
            request, _("Already marked: %(payer)s paid %(payee)s %(amount)s. How: %(method)s.") % text
        )


def say_removed(request: HttpRequest, payment: Payment | None) -> None:
    if payment is not None:
        text = {"payer": payment.payer.name, "payee": payment.payee.name,
                "amount": amount_text(payment.amount, payment.unit)}  # fmt: skip
        messages.success(request, _("Removed: %(payer)s paid %(payee)s %(amount)s no longer counts.") % text)
    else:
        messages.info(request, _("That payment was already removed."))
