"""An invite link, for whoever holds it: it shows whose place it offers; accepting it (signed in)
ties the account to that roster player. The organiser makes the link on the player's page
(`clubs.views.players.player_invite`)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import services
from clubs.models import Invite
from clubs.permissions import deny


@require_http_methods(["GET", "HEAD", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: shows whose place it offers; accepting it (signed in) ties the account."""
    found = Invite.objects.select_related("club", "player").filter(token=token).first()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return deny(request)
        try:
            accepted = services.accept_invite(token=token, user=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect("clubs:invite", token=token)
        messages.success(
            request,
            _("Welcome to %(club)s: your account is tied to %(name)s.")
            % {"club": accepted.club.name, "name": accepted.player.name},
        )
        return redirect("league:player", player_id=accepted.player_id)
    usable = found is not None and found.accepted_at is None
    return render(
        request, "clubs/invite.html", {"invite": found, "usable": usable}, status=200 if usable else 404
    )
