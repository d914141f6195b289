"""Removing a club night, asked first with what the ledger keeps of its settlement: the payments
marked for it (kept in the season's ledger or taken back) and its lock, which refuses the removal.
The page is the ledger's because it reads the ledger's rows and the ledger imports the nights, not
the other way; the removal itself is the nights' `nights.removal.remove_night`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from clubs.permissions import require_club_role
from ledger import selectors
from ledger.views.access import night_club
from nights.models import Night
from nights.removal import remove_night


@require_http_methods(["GET", "POST"])
@require_club_role("manage", club_of=night_club)
def night_remove(request: HttpRequest, night_id: int) -> HttpResponse:
    """Asks first (GET); the POST removes the night, its plan and its games."""
    night = get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id)
    payments = selectors.marked_payments(night)
    choice = request.POST.get("payments")
    locked = selectors.settled_and_locked(night)
    if request.method == "GET" or locked or (payments and choice not in ("keep", "remove")):
        context = {
            "locked": locked,
            "night": night,
            "club": night.club,
            "games": night.games.count(),
            "payments": payments,
            "seasonal": [p for p in payments if p.season_id is not None],
            "choice": choice,
            "choice_error": request.method == "POST",
        }
        status = 200 if request.method == "GET" else 409 if locked else 400
        return render(request, "ledger/night_remove.html", context, status=status)
    club_id = night.club_id
    removed = remove_night(
        night=night, keep_payments=choice != "remove", removed_by=request.user.get_username()
    )
    message = ngettext(
        "The night is removed, with its %(count)d game.",
        "The night is removed, with its %(count)d games.",
        removed,
    )
    messages.success(request, message % {"count": removed})
    return redirect("nights:club_nights", club_id=club_id)
