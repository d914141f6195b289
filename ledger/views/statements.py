"""A player's statement for one month of a season: the page, and the same lines as CSV."""

from __future__ import annotations

import datetime

from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from clubs.models import Membership, Player, Season
from clubs.permissions import require_club_role
from ledger import balances, csv_export
from ledger.views.access import statement_club


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


@require_safe
@require_club_role("view", club_of=statement_club)
def statement(request: HttpRequest, season_id: int, player_id: int, month: str) -> HttpResponse:
    page = _statement(season_id, player_id, month)
    rows = [(line, csv_export.describe(page, line)) for line in page.statement.lines]
    return render(request, "ledger/statement.html", {"page": page, "rows": rows})


@require_safe
@require_club_role("view", club_of=statement_club)
def statement_csv(request: HttpRequest, season_id: int, player_id: int, month: str) -> StreamingHttpResponse:
    page = _statement(season_id, player_id, month)
    response = StreamingHttpResponse(csv_export.statement_lines(page), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="statement-{player_id}-{month}.csv"'
    return response
