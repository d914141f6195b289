"""The ledger's pages: a night's settlement, a season's balances, a player's monthly statement
(page and CSV); for organisers, marking a proposed payment as made, recording any payment, taking
one back, and locking a settled night (plain POSTs, then a redirect).

Reading is for every role of the club (organiser, scorer, member) and site admins; the published
results link does not show money (docs/security.md).
"""

from __future__ import annotations

import datetime
import uuid

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Club, Membership, Player, Season
from clubs.permissions import can_manage_club, require_club_role, season_club
from ledger import balances, csv_export, selectors, services
from ledger.forms import MarkPaidForm, RecordPaymentForm
from ledger.models import Payment
from ledger.templatetags.ledger_tags import amount as amount_text
from nights.models import Night


def night_club(night_id: int, **_: object) -> int:
    """The club of the night a URL names (404 for an unknown night)."""
    return get_object_or_404(Night.objects.only("club_id"), pk=night_id).club_id


def statement_club(season_id: int, **_: object) -> int:
    """The club of the statement's season (the player and month are checked by the view)."""
    return season_club(season_id)


def _token() -> str:
    return str(uuid.uuid4())


@require_GET
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
        "token": _token,
        "methods": Payment.Method.choices,
        "problems": problems or [],
        "record": record or _blank_record(the_night.club, units),
        "locked_nights": [the_night.pk] if ledger.lock else [],
    }
    failed = problems or (record is not None and record.errors)
    return render(request, "ledger/night.html", context, status=409 if failed else 200)


def _blank_record(club: Club, units: list[str]) -> RecordPaymentForm:
    return RecordPaymentForm(club=club, units=units, initial={"token": _token()})


def _record(request: HttpRequest, *, club: Club, night: Night | None, season: Season | None,
            units: list[str]) -> services.Marked | RecordPaymentForm | list[str]:  # fmt: skip
    """Record the posted payment; when nothing was written, the bound form with its errors, or the
    problems of the night or season."""
    form = RecordPaymentForm(request.POST, club=club, units=units)
    if not form.is_valid():
        return form
    try:
        return services.record_payment(actor=request.user, club=club, night=night, season=season,
                                       **form.cleaned_data)  # fmt: skip
    except ValidationError as error:
        if hasattr(error, "error_dict"):
            form.add_error(None, error)  # each message next to its field
            return form
        return error.messages  # about the night (locked, still being played): shown above the lists


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
    _say_marked(request, marked)
    return redirect("ledger:night", night_id=the_night.pk)


@require_POST
@require_club_role("manage", club_of=night_club)
def night_record(request: HttpRequest, night_id: int) -> HttpResponse:
    the_night = get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id)
    unit = selectors.night_ledger(the_night).unit
    result = _record(request, club=the_night.club, night=the_night, season=None, units=[unit] if unit else [])
    if isinstance(result, RecordPaymentForm):
        return _night_page(request, the_night, record=result)
    if isinstance(result, list):
        return _night_page(request, the_night, problems=result)
    _say_marked(request, result)
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


def _say_marked(request: HttpRequest, marked: services.Marked) -> None:
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


@require_GET
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
        "token": _token,
        "methods": Payment.Method.choices,
        "problems": problems or [],
        "month": today if today in months else months[-1],
        "record": record or _blank_record(the_season.club, _season_units(ledger)),
        "locked_nights": [entry.night.pk for entry in ledger.nights if entry.lock],
    }
    failed = problems or (record is not None and record.errors)
    return render(request, "ledger/season.html", context, status=409 if failed else 200)


@require_POST
@require_club_role("manage", club_of=season_club)
def season_record(request: HttpRequest, season_id: int) -> HttpResponse:
    the_season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    units = _season_units(balances.season_ledger(the_season))
    result = _record(request, club=the_season.club, night=None, season=the_season, units=units)
    if isinstance(result, RecordPaymentForm):
        return _season_page(request, the_season, record=result)
    if isinstance(result, list):
        return _season_page(request, the_season, problems=result)
    _say_marked(request, result)
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
    _say_marked(request, marked)
    return redirect("ledger:season", season_id=the_season.pk)


def _statement(season_id: int, player_id: int, month: str) -> balances.StatementPage:
    the_season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    player = get_object_or_404(Player, pk=player_id)
    if not Membership.objects.filter(club_id=the_season.club_id, player=player).exists():
        raise Http404("not on this club's roster")
    try:
        first = datetime.date.fromisoformat(f"{month}-01")
    except ValueError:
        raise Http404("no such month") from None
    if first not in balances.months_of(the_season):
        raise Http404("not a month of this season")
    return balances.player_statement(the_season, player, first)


@require_GET
@require_club_role("view", club_of=statement_club)
def statement(request: HttpRequest, season_id: int, player_id: int, month: str) -> HttpResponse:
    page = _statement(season_id, player_id, month)
    rows = [(line, csv_export.describe(page, line)) for line in page.statement.lines]
    return render(request, "ledger/statement.html", {"page": page, "rows": rows})


@require_GET
@require_club_role("view", club_of=statement_club)
def statement_csv(request: HttpRequest, season_id: int, player_id: int, month: str) -> StreamingHttpResponse:
    page = _statement(season_id, player_id, month)
    response = StreamingHttpResponse(csv_export.statement_lines(page), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="statement-{player_id}-{month}.csv"'
    return response


def _say_removed(request: HttpRequest, payment: Payment | None) -> None:
    if payment is not None:
        text = {"payer": payment.payer.name, "payee": payment.payee.name,
                "amount": amount_text(payment.amount, payment.unit)}  # fmt: skip
        messages.success(request, _("Removed: %(payer)s paid %(payee)s %(amount)s no longer counts.") % text)
    else:
        messages.info(request, _("That payment was already removed."))


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
    _say_removed(request, payment)
    return redirect("ledger:night", night_id=the_night.pk)


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
    _say_removed(request, payment)
    return redirect("ledger:season", season_id=the_season.pk)
