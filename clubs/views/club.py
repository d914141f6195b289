"""Your clubs, with your role in each, founding a club (its founder is its first organiser) and a
club's settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs import services
from clubs.forms.club import ClubForm, ClubSettingsForm
from clubs.models import Club, ClubRole
from clubs.permissions import require_club_role, viewable_club_ids


@require_safe
@login_required
def index(request: HttpRequest) -> HttpResponse:
    """Your clubs, with your role in each, and the way to create one."""
    clubs = Club.objects.order_by("name")
    viewable = viewable_club_ids(request.user)
    if viewable is not None:
        clubs = clubs.filter(pk__in=viewable)
    assert isinstance(request.user, User)  # login_required
    roles = dict(ClubRole.objects.filter(user=request.user).values_list("club_id", "role"))
    rows = [(club, roles.get(club.pk, ClubRole.Role.ORGANISER)) for club in clubs]
    return render(request, "clubs/index.html", {"rows": rows, "Role": ClubRole.Role})


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        assert isinstance(request.user, User)  # login_required
        club = services.create_club(name=form.cleaned_data["name"], founder=request.user)
        messages.success(request, _("%(club)s is created; you are its organiser.") % {"club": club.name})
        return redirect("clubs:roster", club_id=club.pk)
    return render(request, "clubs/create.html", {"form": form}, status=400 if form.is_bound else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@require_club_role("manage")
def club_settings(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's settings: how its games are made final at the table."""
    club = get_object_or_404(Club, pk=club_id)
    if request.method == "POST":
        form = ClubSettingsForm(request.POST)
        if form.is_valid():
            services.save_club_settings(club=club, **form.cleaned_data)
            messages.success(request, _("Settings saved: games started from now on follow them."))
            return redirect("clubs:settings", club_id=club.pk)
    else:
        form = ClubSettingsForm(
            initial={"confirm_hands": club.confirm_hands, "sign_at_end": club.sign_at_end}
        )
    return render(request, "clubs/settings.html", {"club": club, "form": form})
