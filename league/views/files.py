"""Export and import: the CSV files of the games a user may see, and an upload's page and progress."""

from __future__ import annotations

from typing import Any, TypedDict

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs.permissions import (
    deny,
    is_site_admin,
    scoring_club_ids,
    viewable_club_ids,
)
from core.spreadsheet import csv_lines
from league.csv_io.columns import GAMES_COLUMNS, HANDS_COLUMNS, local_header, max_import_bytes
from league.csv_io.export import games_rows, hands_rows
from league.csv_io.problems import PROBLEMS_SHOWN, Problem
from league.csv_io.upload import first_places
from league.forms.files import ExportForm, ImportForm, only_clubs
from league.imports.queue import (
    TooManyImports,
    is_quiet,
    no_worker_seen,
    problems_of,
    settle_if_stalled,
    waiting_ahead,
    waiting_problem,
)
from league.imports.queue import (
    start as start_import,
)
from league.imports.rights import import_rights
from league.models import ImportBatch
from scoring.permissions import readable_games


class FormPlace(TypedDict):
    """The club and season an import form names ("" for none)."""

    club: str
    season: str


@require_safe
def export_csv(request: HttpRequest, which: str) -> HttpResponseBase:
    form = ExportForm(request.GET)
    if not form.is_valid():
        return render(request, "league/export_error.html", {"form": form}, status=400)
    games = form.games()
    viewable = viewable_club_ids(request.user)
    if viewable is not None:  # a club's records for its roles; a quick game for whoever may read it
        games = games.filter(Q(club__in=viewable) | Q(pk__in=readable_games(request).filter(club=None)))
    columns = GAMES_COLUMNS if which == "games" else HANDS_COLUMNS
    # English column names unless asked (?headers=local): the import reads only the English ones.
    header = local_header(columns) if form.cleaned_data.get("headers") else columns
    if which == "games":
        lines = csv_lines(header, games_rows(games))
    else:
        lines = csv_lines(header, hands_rows(games))
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{which}.csv"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def import_games(request: HttpRequest) -> HttpResponse:
    # Any signed-in user: a hands.csv naming a club that does not exist yet makes it, with the
    # uploader as its organiser; what they may not import is refused by the rights check below.
    if not request.user.is_authenticated:
        return deny(request)
    clubs = scoring_club_ids(request.user)  # None: every club
    if request.method in ("GET", "HEAD"):
        return _import_page(request, {"form": only_clubs(ImportForm(), clubs)})
    if _too_big(request):
        # Refused before the body is read: the form would only see the file after receiving it all.
        problem = Problem(
            None,
            _("The upload is larger than the %(limit)s MB limit.")
            % {"limit": max_import_bytes() // 1024 // 1024},
        )
        return _import_page(request, {"form": ImportForm(), "problems": [problem]}, status=413)
    if waiting := waiting_problem(request.user):  # before the body is read, too
        return _too_many(request, waiting)
    # Any club validates: the rights check below refuses a club the user may not import into with
    # 403, named once; the page drawn again offers only the user's own clubs.
    form = ImportForm(request.POST, request.FILES)
    problems: list[Problem] = []
    if form.is_valid():
        data = form.cleaned_data
        season = data["season"]
        club = data["club"] or (season.club if season else None)
        place = FormPlace(club=club.name if club else "", season=season.name if season else "")
        raw = data["file"].read()
        # The clubs and seasons the form or the file's first rows name, before the file is kept.
        problems = import_rights(request.user, first_places(raw, **place), new_clubs=set())
        if problems:
            return _import_page(request, {"form": only_clubs(form, clubs), "problems": problems}, status=403)
        try:
            batch = start_import(
                raw=raw,
                name=data["file"].name,
                user=request.user,
                played_on=data["played_on"],
                language=get_language(),
                **place,
            )
        except TooManyImports as error:
            return _too_many(request, str(error))
        if not batch.finished:  # queued for a task worker: its page shows the progress
            return redirect("league:import_status", batch_id=batch.pk)
        if batch.status == batch.Status.DONE:
            messages.success(
                request,
                imported_sentence(batch.total, batch.hands),
            )
            return redirect("league:import")
        problems = problems_of(batch)
    context = {"form": only_clubs(form, clubs), "problems": problems}
    return _import_page(request, context, status=400)


def _too_many(request: HttpRequest, problem: str) -> HttpResponse:
    context = {
        "form": only_clubs(ImportForm(), scoring_club_ids(request.user)),
        "problems": [Problem(None, problem)],
    }
    response = _import_page(request, context, status=429)
    response["Retry-After"] = "60"
    return response


def _import_page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    context["limit_mb"] = max_import_bytes() // 1024 // 1024
    context["shown_problems"] = context.get("problems", [])[:PROBLEMS_SHOWN]
    return render(request, "league/import.html", context, status=status)


@require_safe
def import_status(request: HttpRequest, batch_id: int) -> HttpResponse:
    """An upload's progress ("Imported 600 of 1,500 games"), then its outcome. The page refreshes
    itself while the import waits or runs (no JavaScript needed). Only its uploader (or a
    superuser) sees it."""
    batch = ImportBatch.objects.filter(pk=batch_id).first()
    if batch is None or not (
        request.user.is_authenticated and (batch.user_id == request.user.pk or is_site_admin(request.user))
    ):
        return deny(request)
    batch = settle_if_stalled(batch)
    problems = problems_of(batch)
    context = {
        "batch": batch,
        "quiet": is_quiet(batch),
        "quiet_seconds": int((timezone.now() - batch.updated_at).total_seconds()),
        "ahead": waiting_ahead(batch) if batch.status == batch.Status.QUEUED else 0,
        "no_worker": no_worker_seen(batch),
        "problems": problems,
        "shown_problems": problems[:PROBLEMS_SHOWN],
        "progress_sentence": ngettext(
            "Imported %(written)s of %(total)s game…", "Imported %(written)s of %(total)s games…", batch.total
        )
        % {"written": _grouped(batch.written), "total": _grouped(batch.total)},
        "imported_sentence": imported_sentence(batch.total, batch.hands),
    }
    return render(request, "league/import_status.html", context)


def _grouped(number: int) -> str:
    return number_format(number, force_grouping=True)


def imported_sentence(games: int, hands: int) -> str:
    """ "Imported 3 games with 40 hands.": two counts, so each is a phrase with its own plural
    forms, and the sentence puts them together in the language's order."""
    return _("Imported %(games)s with %(hands)s.") % {
        "games": ngettext("%(count)s game", "%(count)s games", games) % {"count": _grouped(games)},
        "hands": ngettext("%(count)s hand", "%(count)s hands", hands) % {"count": _grouped(hands)},
    }


def _too_big(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > max_import_bytes() + 64 * 1024  # room for the form's other fields
