"""A season's balances: what each player is owed or owes over the season's nights and payments;
for organisers, marking a proposed payment as made, recording or removing one."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from clubs.models import Season
from clubs.permissions import can_manage_club, require_club_role, season_club
from ledger import balances, services
from ledger.forms import MarkPaidForm, RecordPaymentForm
from ledger.models import Payment
from ledger.views.access import statement_club
from ledger.views.payments import blank_record, new_token, record_posted, say_marked, say_removed


@require_safe
@require_club_role("view", club_of=season_club)
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    return _season_page(request, get_object_or_404(Season.objects.select_related("club"), pk=season_id))


def _season_units(ledger: balances.SeasonLedger) -> list[str]:
    return ledger.units or [Payment.Unit.MONEY]


def _season_page(
    request: HttpRequest,
    the_season: Season,
    *,
    problems: list[str] | None = None,
    record: RecordPaymentForm | None = None,
) -> HttpResponse:
    ledger = balances.season_ledger(the_season)
    months = balances.months_of(the_season)
    today = datetime.date.today().replace(day=1)
    context = {
        "ledger": ledger,
        "organiser": can_manage_club(request.user, the_season.club_id),
        "token": new_token,
        "methods": Payment.Method.choices,
        "problems": problems or [],
        "month": today if today in months else months[-1],
        "record": record or blank_record(the_season.club, _season_units(ledger)),
        "locked_nights": [entry.night.pk for entry in ledger.nights if entry.lock],
    }
    failed = problems or (record is not None and record.errors)
    return render(request, "ledger/season.html", context, status=409 if failed else 200)


@require_POST
@require_club_role("manage", club_of=season_club)
def season_record(request: HttpRequest, season_id: int) -> HttpResponse:
    the_season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    units = _season_units(balances.season_ledger(the_season))
    result = record_posted(request, club=the_season.club, night=None, season=the_season, units=units)
    if isinstance(result, RecordPaymentForm):
        return _season_page(request, the_season, record=result)
    if isinstance(result, list):
        return _season_page(request, the_season, problems=result)
    say_marked(request, result)
    return redirect("ledger:season", season_id=the_season.pk)


@require_POST
@require_club_role("manage", club_of=season_club)
def season_pay(request: HttpRequest, season_id: int) -> HttpResponse:
    the_season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    form = MarkPaidForm(request.POST)
    if not form.is_valid():
        return _season_page(request, the_season, problems=form.problems())
    try:
        marked = services.mark_paid(actor=request.user, club=the_season.club, night=None, season=the_season,
                                    **form.cleaned_data)  # fmt: skip
    except ValidationError as error:
        return _season_page(request, the_season, problems=error.messages)
    say_marked(request, marked)
    return redirect("ledger:season", season_id=the_season.pk)


@require_POST
@require_club_role("manage", club_of=statement_club)
def season_unpay(request: HttpRequest, season_id: int, payment_id: int) -> HttpResponse:
    the_season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    try:
        payment = services.remove_payment(
            actor=request.user, club=the_season.club, payment_id=payment_id, night=None, season=the_season
        )
    except ValidationError as error:
        return _season_page(request, the_season, problems=error.messages)
    say_removed(request, payment)
    return redirect("ledger:season", season_id=the_season.pk)
