"""A club's nights and opening one."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs.models import Club
from clubs.permissions import can_manage_club, require_club_role
from nights import services
from nights.forms.opening import NightForm
from nights.views.access import SignedInRequest


@require_safe
@require_club_role("view")
def club_nights(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    context = {
        "club": club,
        "nights": club.nights.select_related("season"),
        "manager": can_manage_club(request.user, club.pk),
    }
    return render(request, "nights/club_nights.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@require_club_role("manage")
def night_new(request: SignedInRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    form = NightForm(request.POST if request.method == "POST" else None, club=club)
    if form.is_bound and form.is_valid():
        try:
            night = services.open_night(club=club, created_by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The night is open: check in who is here."))
            return redirect("nights:night", night_id=night.pk)
    return render(
        request, "nights/night_new.html", {"club": club, "form": form}, status=400 if form.is_bound else 200
    )
