"""A night's settlement: who pays whom, the payments made; for organisers, marking a proposed
payment as made, recording or removing one, and locking (or unlocking) a settled night."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.permissions import can_manage_club, require_club_role
from ledger import selectors, services
from ledger.forms import MarkPaidForm, RecordPaymentForm
from ledger.models import Payment
from ledger.views.access import night_club
from ledger.views.payments import blank_record, new_token, record_posted, say_marked, say_removed
from nights.models import Night


@require_safe
@require_club_role("view", club_of=night_club)
def night(request: HttpRequest, night_id: int) -> HttpResponse:
    return _night_page(
        request, get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id)
    )


def _night_page(
    request: HttpRequest,
    the_night: Night,
    *,
    problems: list[str] | None = None,
    record: RecordPaymentForm | None = None,
) -> HttpResponse:
    ledger = selectors.night_ledger(the_night, verify=True)
    units = [ledger.unit] if ledger.unit else []
    context = {
        "ledger": ledger,
        "organiser": can_manage_club(request.user, the_night.club_id),
        "token": new_token,
        "methods": Payment.Method.choices,
        "problems": problems or [],
        "record": record or blank_record(the_night.club, units),
        "locked_nights": [the_night.pk] if ledger.lock else [],
    }
    failed = problems or (record is not None and record.errors)
    return render(request, "ledger/night.html", context, status=409 if failed else 200)


@require_POST
@require_club_role("manage", club_of=night_club)
def night_pay(request: HttpRequest, night_id: int) -> HttpResponse:
    the_night = get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id)
    form = MarkPaidForm(request.POST)
    if not form.is_valid():
        return _night_page(request, the_night, problems=form.problems())
    try:
        marked = services.mark_paid(actor=request.user, club=the_night.club, night=the_night, season=None,
                                    **form.cleaned_data)  # fmt: skip
    except ValidationError as error:
        return _night_page(request, the_night, problems=error.messages)
    say_marked(request, marked)
    return redirect("ledger:night", night_id=the_night.pk)


@require_POST
@require_club_role("manage", club_of=night_club)
def night_record(request: HttpRequest, night_id: int) -> HttpResponse:
    the_night = get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id)
    unit = selectors.night_ledger(the_night).unit
    result = record_posted(
        request, club=the_night.club, night=the_night, season=None, units=[unit] if unit else []
    )
    if isinstance(result, RecordPaymentForm):
        return _night_page(request, the_night, record=result)
    if isinstance(result, list):
        return _night_page(request, the_night, problems=result)
    say_marked(request, result)
    return redirect("ledger:night", night_id=the_night.pk)


@require_POST
@require_club_role("manage", club_of=night_club)
def night_lock(request: HttpRequest, night_id: int) -> HttpResponse:
    the_night = get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id)
    try:
        lock = services.lock_night(actor=request.user, night=the_night)
    except ValidationError as error:
        return _night_page(request, the_night, problems=error.messages)
    if lock is None:
        messages.info(request, _("The night was locked already."))
    else:
        messages.success(
            request, _("Settled — locked. Its payments cannot change until an organiser unlocks it.")
        )
    return redirect("ledger:night", night_id=the_night.pk)


@require_POST
@require_club_role("manage", club_of=night_club)
def night_unlock(request: HttpRequest, night_id: int) -> HttpResponse:
    the_night = get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id)
    if services.unlock_night(actor=request.user, night=the_night) is None:
        messages.info(request, _("The night was not locked."))
    else:
        messages.success(request, _("Unlocked: payments of the night can be marked and removed again."))
    return redirect("ledger:night", night_id=the_night.pk)


@require_POST
@require_club_role("manage", club_of=night_club)
def night_unpay(request: HttpRequest, night_id: int, payment_id: int) -> HttpResponse:
    the_night = get_object_or_404(Night.objects.select_related("club"), pk=night_id)
    try:
        payment = services.remove_payment(
            actor=request.user, club=the_night.club, payment_id=payment_id, night=the_night, season=None
        )
    except ValidationError as error:
        return _night_page(request, the_night, problems=error.messages)
    say_removed(request, payment)
    return redirect("ledger:night", night_id=the_night.pk)
