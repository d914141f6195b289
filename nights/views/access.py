"""What every club-night page shares: the night's club for the role checks, and refusals shown
with the form."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django_htmx.middleware import HtmxDetails

from clubs.models import Season
from clubs.permissions import require_club_role
from nights.models import Night


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class SignedInRequest(HttpRequest):
    """A request `require_club_role` let through: a signed-in user's (an anonymous one is sent to
    the login page)."""

    user: User


def night_club(night_id: int) -> int:
    """The club of the night a URL names (404 for an unknown night)."""
    return get_object_or_404(Night.objects.only("club_id"), pk=night_id).club_id


manage_night = require_club_role("manage", club_of=lambda night_id, **kwargs: night_club(night_id))
view_night = require_club_role("view", club_of=lambda night_id, **kwargs: night_club(night_id))


def night_or_404(night_id: int) -> Night:
    return get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id)


def published_night(publish_code: str, night_id: int) -> Night:
    """A night of the season whose results link is `publish_code` (404 for any other night)."""
    season = get_object_or_404(Season, publish_code=publish_code)
    return get_object_or_404(Night.objects.select_related("club", "season"), pk=night_id, season=season)


def show_refusal(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


def back_to_night(night: Night, anchor: str = "") -> HttpResponse:
    return redirect(reverse("nights:night", args=[night.pk]) + (f"#{anchor}" if anchor else ""))


def add_form_error(form: Any, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)
