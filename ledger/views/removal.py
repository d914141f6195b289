"""Removing a club night, asked first with what the ledger keeps of its settlement: the payments
marked for it (kept in the season's ledger or taken back) and its lock, which refuses the removal.
The page is the ledger's because it reads the ledger's rows and the ledger imports the nights, not
the other way; it removes through `ledger.services.remove_night`, which checks again and removes in
one transaction."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from clubs.permissions import require_club_role
from ledger import selectors, services
from ledger.views.access import night_club
from nights.models import Night


@require_http_methods(["GET", "HEAD", "POST"])
@require_club_role("manage", club_of=night_club)
def night_remove(request: HttpRequest, night_id: int) -> HttpResponse:
    """Asks first (GET); the POST removes the night, its plan and its games, or shows the page
    again with why not (409: settled and locked; 400: no choice for its payments)."""
    night = get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id)
    choice = request.POST.get("payments")
    status = 200
    if request.method == "POST":
        try:
            removed = services.remove_night(actor=request.user, night=night, payments=choice)
        except ValidationError as refusal:
            status = 409 if refusal.code == "locked" else 400
        else:
            message = ngettext(
                "The night is removed, with its %(count)d game.",
                "The night is removed, with its %(count)d games.",
                removed,
            )
            messages.success(request, message % {"count": removed})
            return redirect("nights:club_nights", club_id=night.club_id)
    payments = selectors.marked_payments(night)
    context = {
        "locked": selectors.settled_and_locked(night),
        "night": night,
        "club": night.club,
        "games": night.games.count(),
        "payments": payments,
        "seasonal": [p for p in payments if p.season_id is not None],
        "choice": choice,
        "choice_error": status == 400,
    }
    return render(request, "ledger/night_remove.html", context, status=status)
