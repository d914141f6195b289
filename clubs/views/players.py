"""A roster player's page: rename, retire (or back to active), an invite link that ties an account
to the player, and merging a player entered twice into this one. A change that would touch another
club's roster the organiser does not run is refused (403) with the reason on the page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs import services
from clubs.forms.roster import MergeIntoForm, PlayerNameForm
from clubs.models import Club, Invite, Membership, Player
from clubs.permissions import may_change_player, require_club_role


def _roster_player(club_id: int, player_id: int) -> tuple[Club, Player, Membership]:
    membership = get_object_or_404(
        Membership.objects.select_related("club", "player__user"), club_id=club_id, player_id=player_id
    )
    return membership.club, membership.player, membership


def _player_page(
    request: HttpRequest,
    club_id: int,
    player_id: int,
    *,
    rename: PlayerNameForm | None = None,
    merge: MergeIntoForm | None = None,
    refused: str = "",
) -> HttpResponse:
    """The roster player's page; `refused`: why a change just asked for was refused (403)."""
    club, player, membership = _roster_player(club_id, player_id)
    invite = Invite.objects.filter(club=club, player=player, accepted_at=None).first()
    shared = (
        ""
        if may_change_player(request.user, player)
        else services.shared_player_refusal(actor=request.user, player=player)
    )
    status = 403 if refused else 400 if (rename or merge) else 200
    context = {
        "club": club,
        "player": player,
        "membership": membership,
        "refused": refused,
        "shared": shared,
        "rename_form": rename or PlayerNameForm(club=club, player=player, initial={"name": player.name}),
        "merge_form": merge or MergeIntoForm(club=club, keep=player),
        "invite_url": request.build_absolute_uri(reverse("clubs:invite", args=[invite.token]))
        if invite
        else "",
    }
    return render(request, "clubs/player.html", context, status=status)


@require_safe
@require_club_role("manage")
def player_page(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    return _player_page(request, club_id, player_id)


@require_POST
@require_club_role("manage")
def player_rename(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    club, player, _membership = _roster_player(club_id, player_id)
    old = player.name
    form = PlayerNameForm(request.POST, club=club, player=player)
    if not form.is_valid():
        return _player_page(request, club_id, player_id, rename=form)
    try:
        services.rename_player(actor=request.user, club=club, player=player, name=form.cleaned_data["name"])
    except PermissionDenied as refusal:  # on another club's roster too, which the user does not run
        return _player_page(request, club_id, player_id, refused=str(refusal))
    messages.success(request, _("%(old)s is now called %(new)s.") % {"old": old, "new": player.name})
    return redirect("clubs:player", club_id=club.pk, player_id=player.pk)


@require_POST
@require_club_role("manage")
def player_retire(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    club, player, _membership = _roster_player(club_id, player_id)
    retire = request.POST.get("retired") != "no"
    services.set_retired(club=club, player=player, retired=retire)
    if retire:
        message = _("%(name)s is retired: kept in past games and standings, not offered for new ones.")
    else:
        message = _("%(name)s is back on the active roster.")
    messages.success(request, message % {"name": player.name})
    return redirect("clubs:player", club_id=club.pk, player_id=player.pk)


@require_POST
@require_club_role("manage")
def player_invite(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    club, player, _membership = _roster_player(club_id, player_id)
    assert isinstance(request.user, User)  # require_club_role: an organiser is signed in
    try:
        services.create_invite(club=club, player=player, by=request.user)
    except PermissionDenied as refusal:  # on another club's roster too, which the user does not run
        return _player_page(request, club_id, player_id, refused=str(refusal))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("A new invite link for %(name)s is below.") % {"name": player.name})
    return redirect("clubs:player", club_id=club.pk, player_id=player.pk)


@require_POST
@require_club_role("manage")
def player_merge(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    """Fold a roster player entered twice into this one (games, standings and rosters follow)."""
    club, keep, _membership = _roster_player(club_id, player_id)
    form = MergeIntoForm(request.POST, club=club, keep=keep)
    if not form.is_valid():
        return _player_page(request, club_id, player_id, merge=form)
    duplicate = form.cleaned_data["duplicate"]
    try:
        services.merge_players_as(actor=request.user, keep=keep, duplicate=duplicate)
    except PermissionDenied as refusal:  # either is on a roster the user does not run: nothing written
        return _player_page(request, club_id, player_id, refused=str(refusal))
    except ValidationError as error:
        form.add_error("duplicate", error)
        return _player_page(request, club_id, player_id, merge=form)
    messages.success(request, _("%(name)s was merged into this player.") % {"name": duplicate.name})
    return redirect("clubs:player", club_id=club.pk, player_id=keep.pk)
