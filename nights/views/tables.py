"""Table links, the printed table cards and the wall plan; a table's link opens its game."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from core.qr import qr_svg
from nights import rounds, selectors, services
from nights.figures import awaits_confirmation
from nights.models import NightTable
from nights.views.access import manage_night, night_or_404, show_refusal, view_night
from scoring.devices import ensure_device, holds_game
from scoring.permissions import actor_for

# --- table links, cards and the wall plan -----------------------------------------------------


def _table_url(request: HttpRequest, table: NightTable) -> str:
    return request.build_absolute_uri(reverse("nights:table", args=[table.token]))


@require_safe
@manage_night
def table_cards(request: HttpRequest, night_id: int, round_no: int) -> HttpResponse:
    """Printable cards of a round's tables: round, table, seats and the link's QR code."""
    night = night_or_404(night_id)
    plan = selectors.plan_rounds(night)
    if not 1 <= round_no <= len(plan):
        raise Http404("no such round")
    cards = []
    for entry in plan[round_no - 1]["tables"]:
        table = entry["table"]
        url = _table_url(request, table)
        title = _("QR code of the link of table %(table)d") % {"table": table.table_no}
        cards.append({**entry, "url": url, "qr": qr_svg(url, title=title, scale=5)})
    context = {"night": night, "club": night.club, "round": plan[round_no - 1], "cards": cards}
    return render(request, "nights/cards.html", context)


@require_safe
@view_night
def wall_plan(request: HttpRequest, night_id: int) -> HttpResponse:
    """The plan of every round on one printable page, for the wall."""
    night = night_or_404(night_id)
    return render(
        request,
        "nights/wall.html",
        {"night": night, "club": night.club, "rounds": selectors.plan_rounds(night)},
    )


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def table(request: HttpRequest, token: str) -> HttpResponse:
    """A table's link: the GET asks first (link previews must not take the scoring); the POST
    gives this phone the scoring of the table's game, as the recovery code would."""
    nt = get_object_or_404(NightTable.objects.select_related("night__club", "game"), token=token)
    night, game = nt.night, nt.game
    seats = services.ordered_seats(nt)
    context = {"night": night, "table": nt, "seats": seats, "game": game}
    context["plan_notice"] = rounds.table_notice(nt, timezone.now())
    if game is not None and game.finished:  # the round is over: its result, and nothing to score
        # Its last hand waiting for the other side's OK comes first: the phone that scores the
        # table asks it here as on the game page; any other phone is told where it is asked.
        context["ok_pending"] = awaits_confirmation(game) and not night.is_finished
        if context["ok_pending"] and holds_game(request, game):
            context["awaiting"] = selectors.last_hand_question(game)
            context["confirm_back"] = request.path  # after the OK, back here: where the players sit next
        context["result"] = selectors.table_result(game, seats)
        # A next round that waits (not planned, or kept while a table plays again) lists no seats.
        context["next_waiting"] = selectors.next_round_waiting(nt)
        context["next_seats"] = [] if context["next_waiting"] else selectors.next_seats(nt, seats)
        return render(request, "nights/table.html", context, status=410 if night.is_finished else 200)
    if night.is_finished or game is None:
        return render(request, "nights/table.html", context, status=410 if night.is_finished else 200)
    if request.method in ("GET", "HEAD"):
        context["holds"] = holds_game(request, game)
        return render(request, "nights/table.html", context)
    actor = actor_for(request) if request.user.is_authenticated else rounds.TABLE_LINK_ACTOR
    try:
        taken = rounds.claim_table(table=nt, device=ensure_device(request), actor=actor)
    except ValidationError as error:
        show_refusal(request, error)
        return redirect("nights:table", token=token)
    if taken:
        messages.info(
            request, _("This phone now keeps the score of this table; the other phone only watches.")
        )
    else:
        messages.success(request, _("This phone keeps the score of this table."))
    return redirect("scoring:game", code=game.code)
