"""A club's roles page: who organises, scores or is a member of the club."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import services as club_services
from clubs.models import Club, ClubRole
from clubs.permissions import (
    require_club_role,
    role_changes_throttled,
)
from league.forms.roles import RoleForm


@require_http_methods(["GET", "HEAD", "POST"])
@require_club_role("manage")
def club_roles(request: HttpRequest, club_id: int) -> HttpResponse:
    """Organisers give accounts a role in the club, change it, or take it away. The answer is the
    same whether the account named exists or not (the list of roles shows who has one), and the
    form is rate-limited (`role_changes_throttled`), so it is no way to find out account names."""
    club = get_object_or_404(Club, pk=club_id)
    form = RoleForm(request.POST if request.method == "POST" else None)
    status, throttled = (400 if form.is_bound else 200), False
    if form.is_bound and role_changes_throttled(request):
        form, status, throttled = RoleForm(initial=request.POST.dict()), 429, True
    elif form.is_bound and form.is_valid():
        name = form.cleaned_data["username"]
        user = get_user_model().objects.filter(username=name).first()
        role = form.cleaned_data["role"] or None
        try:
            if user is not None:
                club_services.set_club_role(actor=request.user, user=user, club_id=club.pk, role=role)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _(
                    "Saved for %(name)s, if there is an account with that name. The list shows every "
                    "role in the club: a name missing from it may be misspelt, or its owner has not "
                    "signed up yet."
                )
                % {"name": name},
            )
            return redirect("league:roles", club_id=club.pk)
    roles = ClubRole.objects.filter(club=club).select_related("user").order_by("role", "user__username")
    context = {"club": club, "roles": roles, "form": form, "throttled": throttled}
    return render(request, "league/roles.html", context, status=status)
