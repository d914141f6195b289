"""Organiser pages: create a club, keep its roster (add, rename, retire, merge, invite) and its
seasons (create, set dates, close). No admin needed for any club task.

Every page is a plain form with post/redirect/get; a view validates with a form from
`clubs.forms` and writes through `clubs.services`. Who may do what: any signed-in user creates a
club and becomes its organiser; the club's organisers (and site staff) manage it
(`require_club_role("manage")`); whoever holds an invite link accepts it while signed in.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from clubs import seasons as season_services
from clubs import services
from clubs.forms import ClubForm, MergeIntoForm, NameListForm, PlayerNameForm, SeasonForm
from clubs.models import Club, ClubRole, Invite, Membership, Player, Season
from clubs.permissions import deny, may_change_player, require_club_role, viewable_club_ids
from clubs.selectors import roster


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_GET
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


@require_http_methods(["GET", "POST"])
@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        assert isinstance(request.user, User)  # login_required
        club = services.create_club(name=form.cleaned_data["name"], founder=request.user)
        messages.success(request, _("%(club)s is created; you are its organiser.") % {"club": club.name})
        return redirect("clubs:roster", club_id=club.pk)
    return render(request, "clubs/create.html", {"form": form}, status=400 if form.is_bound else 200)


def _roster_page(
    request: HttpRequest,
    club: Club,
    form: PlayerNameForm,
    status: int = 200,
    list_form: NameListForm | None = None,
    *,
    part: str = "",
    outcome: Sequence[str] = (),
) -> HttpResponse:
    """The roster page, or (`part`) one of its partials, for an htmx answer."""
    players = (
        roster(club, include_retired=True)
        .annotate(
            retired=Exists(
                Membership.objects.filter(club=club, player=OuterRef("pk"), retired_on__isnull=False)
            )
        )
        .select_related("user")
    )
    context = {
        "club": club,
        "form": form,
        "list_form": list_form or NameListForm(club=club),
        "outcome": outcome,
        "active": [p for p in players if not p.retired],
        "retired": [p for p in players if p.retired],
    }
    template = f"clubs/roster.html#{part}" if part else "clubs/roster.html"
    return render(request, template, context, status=status)


@require_GET
@require_club_role("manage")
def roster_page(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    return _roster_page(request, club, PlayerNameForm(club=club))


@require_POST
@require_club_role("manage")
def player_add(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    form = PlayerNameForm(request.POST, club=club)
    if not form.is_valid():
        return _roster_page(request, club, form, status=400)
    player = services.add_roster_player(club=club, name=form.cleaned_data["name"])
    messages.success(request, _("%(name)s is on the roster.") % {"name": player.name})
    return redirect("clubs:roster", club_id=club.pk)


@require_POST
@require_club_role("manage")
def players_add(request: HtmxHttpRequest, club_id: int) -> HttpResponse:
    """A pasted list of names, one per line: every new name is added, or none when a line is
    refused (the list stays in the box to be put right); names already on the roster are skipped
    and named. From htmx the answer is the roster part of the page, the outcome written in it."""
    club = get_object_or_404(Club, pk=club_id)
    form = NameListForm(request.POST, club=club)
    part = "roster" if request.htmx else ""
    refused_status = 200 if request.htmx else 400  # htmx swaps a 200 only: the errors are shown
    if not form.is_valid() or form.read is None:
        return _roster_page(request, club, PlayerNameForm(club=club), refused_status, form, part=part)
    try:
        added = services.add_roster_players(club=club, names=form.read.new)
    except ValidationError as error:  # another organiser added one of them a moment ago
        form.add_error("names", error)
        return _roster_page(request, club, PlayerNameForm(club=club), refused_status, form, part=part)
    outcome = _added_and_skipped(added, form.read.skipped)
    if request.htmx:
        return _roster_page(request, club, PlayerNameForm(club=club), part=part, outcome=outcome)
    for line in outcome:
        messages.success(request, line)
    return redirect(reverse("clubs:roster", args=[club.pk]) + "#add-list")


def _added_and_skipped(added: Sequence[Player], skipped: Sequence[tuple[int, str]]) -> list[str]:
    outcome = []
    if added:
        outcome.append(
            ngettext(
                "%(count)d player is on the roster: %(names)s.",
                "%(count)d players are on the roster: %(names)s.",
                len(added),
            )
            % {"count": len(added), "names": ", ".join(p.name for p in added)}
        )
    if skipped:
        names = ", ".join(
            _("%(name)s (line %(line)s)") % {"name": name, "line": line} for line, name in skipped
        )
        outcome.append(
            ngettext(
                "Already on the roster, so not added again: %(names)s.",
                "Already on the roster, so not added again: %(names)s.",
                len(skipped),
            )
            % {"names": names}
        )
    return outcome


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


@require_GET
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


@require_http_methods(["GET", "POST"])
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


@require_http_methods(["GET", "POST"])
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


@require_http_methods(["GET", "POST"])
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
