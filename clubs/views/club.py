"""Your clubs, with your role in each, and founding a club (its founder is its first organiser)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs import services
from clubs.forms.club import ClubForm
from clubs.models import Club, ClubRole
from clubs.permissions import viewable_club_ids


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
