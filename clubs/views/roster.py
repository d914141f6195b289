"""A club's roster: its players, active and retired; adding one by name, or a pasted list of names
(htmx answers with the roster part of the page)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe
from django_htmx.middleware import HtmxDetails

from clubs import services
from clubs.forms.roster import NameListForm, PlayerNameForm
from clubs.models import Club, Membership, Player
from clubs.permissions import require_club_role
from clubs.selectors import roster


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


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


@require_safe
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
