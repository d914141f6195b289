"""A club's seasons: the list and a new one, a season's name and dates, closing and reopening it."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import seasons as season_services
from clubs.forms.seasons import SeasonForm
from clubs.models import Club, Season
from clubs.permissions import require_club_role


@require_http_methods(["GET", "HEAD", "POST"])
@require_club_role("manage")
def seasons(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    form = SeasonForm(request.POST if request.method == "POST" else None, club=club)
    if form.is_bound and form.is_valid():
        season = season_services.save_season(club=club, **form.cleaned_data)
        messages.success(request, _("Season %(name)s is created.") % {"name": season.name})
        return redirect("clubs:seasons", club_id=club.pk)
    context = {"club": club, "form": form, "seasons": club.seasons.order_by("-starts_on", "-pk")}
    return render(request, "clubs/seasons.html", context, status=400 if form.is_bound else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@require_club_role("manage")
def season_edit(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_id, club_id=club_id)
    data = request.POST if request.method == "POST" else None
    form = SeasonForm(data, club=season.club, season=season)
    if form.is_bound and form.is_valid():
        season_services.save_season(club=season.club, season=season, **form.cleaned_data)
        messages.success(request, _("Season %(name)s is saved.") % {"name": season.name})
        return redirect("clubs:seasons", club_id=club_id)
    context = {"club": season.club, "season": season, "form": form}
    return render(request, "clubs/season_edit.html", context, status=400 if form.is_bound else 200)


@require_POST
@require_club_role("manage")
def season_close(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id, club_id=club_id)
    close = request.POST.get("closed") != "no"
    season_services.set_season_closed(season=season, closed=close)
    if close:
        message = _("Season %(name)s is closed: it accepts no new games.")
    else:
        message = _("Season %(name)s is open again.")
    messages.success(request, message % {"name": season.name})
    return redirect("clubs:seasons", club_id=club_id)
