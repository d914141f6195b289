"""Pages of the scorekeeper: small function views over forms, selectors and services.

Every form works as a plain POST (redirect after a write); an htmx request gets the page's
fragment instead ("page.html#fragment", the fragment's id is its hx-target).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_cookie
from django_htmx.middleware import HtmxDetails

from clubs.permissions import can_manage_club, can_score_for_club, require_club_role, scoring_club_ids
from scoring import filing, selectors, services
from scoring.audit import club_corrections, game_corrections
from scoring.diff import change_rows
from scoring.forms import GameDetailsForm, GameForm, HandForm, hand_initial
from scoring.handover import claim_handover, handover_is_open, start_handover
from scoring.models import Game, Hand, HandChange
from scoring.permissions import (
    actor_for,
    can_edit_game,
    game_of,
    get_shared_game_or_404,
    grant_edit_token,
    readable_games,
    require_game_edit,
    require_game_view,
    set_edit_cookie,
)
from scoring.qr import qr_svg
from scoring.rules import RecordError, Settings
from scoring.rules.tables import MAX_BID, next_bid, previous_bid, sides_for
from scoring.services import HandConflict


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    games = list(readable_games(request).prefetch_related("seat_rows")[:100])
    for game in games:
        names = {row.seat: row.name for row in game.seat_rows.all() if row.name}
        game.names = ", ".join(names[seat] for seat in "NESW" if seat in names)  # type: ignore[attr-defined]
        # In table order: PostgreSQL's jsonb does not keep the keys' order.
        game.score_line = [(side, game.scores.get(side, 0)) for side in sides_for(game.seats)]  # type: ignore[attr-defined]
    playing = [game for game in games if not game.finished]
    done = [game for game in games if game.finished]
    return render(request, "scoring/game_list.html", {"playing": playing, "done": done})


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    form = GameForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        game = form.save()
        if game is not None:
            response = redirect("scoring:game", code=game.code)
            # The creating browser may enter hands at once, with or without an account.
            grant_edit_token(response, game, user=request.user)
            return response
    return render(request, "scoring/game_new.html", {"form": form})


@require_GET
@cache_control(private=True)  # what it shows depends on who asks (edit cookie, session)
@vary_on_cookie
@require_game_view
def game_page(request: HtmxHttpRequest, code: str) -> HttpResponse:
    game = _game(request, code)
    mode = "edit" if can_edit_game(request, game) else "view"
    if request.htmx:
        return HttpResponse(_game_html(request, game, mode=mode))
    return HttpResponse(_game_page(request, game, mode=mode))


@require_GET
def shared_game(request: HtmxHttpRequest, share_code: str) -> HttpResponse:
    """The read-only share link: scoreboard, history and awards, no controls."""
    game = get_shared_game_or_404(share_code)
    if request.htmx:
        return HttpResponse(_game_html(request, game, mode="share"))
    return HttpResponse(_game_page(request, game, mode="share"))


@require_GET
@cache_control(private=True)
@vary_on_cookie
@require_game_view
def game_live(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """What a phone polls every few seconds: 204 while nothing changed, else the new scoreboard."""
    game = _game(request, code)
    return _live(request, game, mode="edit" if can_edit_game(request, game) else "view")


@require_GET
def shared_live(request: HtmxHttpRequest, share_code: str) -> HttpResponse:
    return _live(request, get_shared_game_or_404(share_code), mode="share")


def _live(request: HtmxHttpRequest, game: Game, *, mode: str) -> HttpResponse:
    if request.GET.get("v") == _version(game):
        return HttpResponse(status=204)  # htmx swaps nothing on 204
    if mode == "edit" and game.finished:
        # The entry form gives way to the end of the game: a whole new page.
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    board = selectors.scoreboard(game)
    context = _board_context(request, game, board, mode=mode)
    html = render_to_string("scoring/game.html#scoreboard", context, request)
    html += render_to_string("scoring/game.html#history", {**context, "oob": True}, request)
    if mode != "edit":
        html += render_to_string("scoring/game.html#game-end", {**context, "oob": True}, request)
    # 286 tells htmx to stop polling: a finished game changes no more by itself.
    return HttpResponse(html, status=286 if game.finished else 200)


@require_POST
@require_game_edit
def hand_save(request: HtmxHttpRequest, code: str) -> HttpResponse:
    game = _game(request, code)
    form = _hand_form(game, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            hand = services.record_hand(
                game=game, number=data["number"], data=form.hand, submission_id=data["submission_id"]
            )
        except RecordError as error:
            form.add_record_error(error)
        except HandConflict as conflict:
            return _conflict(request, game, conflict)
        else:
            messages.success(
                request,
                _("Hand %(number)d saved.") % {"number": hand.number},
                extra_tags=f"saved saved-hand-{hand.number}",
            )
            if not request.htmx:
                return redirect("scoring:game", code=code)
            mode = "edit" if can_edit_game(request, game) else "view"  # a finished club game: organisers
            return HttpResponse(_game_html(request, game, mode=mode))
    return _render_game(request, selectors.scoreboard(game), form)


@require_POST
@require_game_edit  # part of entering a hand: it writes nothing, but only editors enter hands
def hand_preview(request: HtmxHttpRequest, code: str, number: int | None = None) -> HttpResponse:
    """What the hand on the form would do, without saving it (also the bid stepper's "−"/"+")."""
    game = _game(request, code)
    stored = list(game.hands.order_by("number"))
    if number is not None and not 1 <= number <= len(stored):
        return redirect("scoring:game", code=code)
    post, stepped = _step_bid(request.POST, selectors.settings_of(game))
    form = _hand_form(game, post)
    preview = None
    if form.is_valid():
        try:
            result = services.preview_hand(
                game=game, data=form.hand, stored=[row.data for row in stored], replace=number
            )
        except RecordError as error:
            form.add_record_error(error)
        else:
            preview = selectors.describe(result, number or len(stored) + 1, form.hand)
            if number is not None:  # a correction: the change to today's totals, not totals after it
                before = services.score(game, [row.data for row in stored])
                preview += selectors.correction_change(before, result)
    context = {"form": form, "preview": preview, "previewed": True, "game": game, **_form_urls(game, number)}
    if request.htmx:
        html = render_to_string("scoring/_hand_form.html#preview", context, request)
        if stepped:
            html += render_to_string("scoring/_hand_form.html#bid-field", {**context, "oob": True}, request)
        return HttpResponse(html)
    if number is not None:
        return render(request, "scoring/hand_edit.html", {**context, "number": number})
    return _render_game(request, selectors.scoreboard(game), form, preview=preview)


@require_http_methods(["GET", "POST"])
@require_game_edit
def hand_edit(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    game = _game(request, code)
    hand = get_object_or_404(Hand, game=game, number=number)
    if request.method == "POST":
        form = _hand_form(game, request.POST)
        if form.is_valid():
            try:
                services.edit_hand(game=game, number=number, data=form.hand, actor=actor_for(request))
            except RecordError as error:
                form.add_record_error(error)
            else:
                messages.success(request, _("Hand %(number)d corrected.") % {"number": number})
                return redirect("scoring:game", code=code)
    else:
        settings = selectors.settings_of(game)
        form = _hand_form(game, None, initial=hand_initial(hand.data, settings, number))
    context = {"form": form, "game": game, "number": number, **_form_urls(game, number)}
    return render(request, "scoring/hand_edit.html", context)


@require_http_methods(["GET", "POST"])
@require_game_edit
def hand_delete_last(request: HttpRequest, code: str) -> HttpResponse:
    game = _game(request, code)
    if game.hand_count == 0:
        messages.info(request, _("There is no hand to delete."))
        return redirect("scoring:game", code=code)
    if request.method == "GET":
        return render(request, "scoring/hand_delete.html", {"game": game, "number": game.hand_count})
    if request.POST.get("number") != str(game.hand_count):
        messages.error(
            request,
            _("Nothing deleted: the last hand is now hand %(number)d. Look at it before deleting.")
            % {"number": game.hand_count},
        )
        return redirect("scoring:game", code=code)
    deleted = services.delete_last_hand(game=game, actor=actor_for(request))
    messages.success(request, _("Hand %(number)d deleted.") % {"number": deleted})
    return redirect("scoring:game", code=code)


# --- helpers -------------------------------------------------------------------------------


def _game(request: HttpRequest, code: str) -> Game:
    return game_of(request, code)  # read once by the permission decorator


def _hand_form(game: Game, data: QueryDict | None, **kwargs: Any) -> HandForm:
    players = SimpleLazyObject(lambda: services.players_of(game))
    return HandForm(data, settings=selectors.settings_of(game), players=players, **kwargs)


def _form_urls(game: Game, edit_number: int | None) -> dict[str, Any]:
    """Where the hand form posts: a new hand, or the correction of hand `edit_number`."""
    if edit_number is None:
        return {
            "edit_number": None,
            "action": reverse("scoring:hand_save", args=[game.code]),
            "preview_url": reverse("scoring:hand_preview", args=[game.code]),
        }
    return {
        "edit_number": edit_number,
        "action": reverse("scoring:hand_edit", args=[game.code, edit_number]),
        "preview_url": reverse("scoring:hand_edit_preview", args=[game.code, edit_number]),
    }


# The scoreboard with a fresh entry form is the page a table reloads most. Its #game fragment is
# drawn once per state of the game (code and `updated_at`, which every write of hands changes),
# language, host and MODE, then kept in the cache with holes for what belongs to one request: the
# CSRF token, the form's submission id and the flash messages. The mode is what differs between
# viewers of one state: "edit" (entry form, edit links, share link, handover), "view" (a club
# member or the old scoring phone: no controls) or "share" (the share link's page). Nothing in
# the fragment names the viewer; the page shell around it (account menu) is drawn per request.
_CSRF_HOLE = "csrf-hole-4f1c9e"
_SUBMISSION_HOLE = "submission-hole-4f1c9e"
_MESSAGES_HOLE = "<!--messages-hole-4f1c9e-->"
_HOLES = re.compile(f"({_CSRF_HOLE}|{_SUBMISSION_HOLE}|{_MESSAGES_HOLE})")
_MODES = ("edit", "view", "share")


def _version(game: Game) -> str:
    """Changes with every write of the game's hands: the cache key and the live poll's check."""
    return f"{game.hand_count}-{game.updated_at.timestamp():.6f}"


def _game_page(request: HttpRequest, game: Game, *, mode: str) -> str:
    """The whole game page. The site header names a signed-in viewer, so for them the shell is
    drawn per request around the cached fragment; every anonymous viewer of one URL sees the same
    header ("Log in"), so theirs is cached whole (not with a query string: it would be a new key)."""
    if request.user.is_authenticated or request.GET:
        fragment = _game_html(request, game, mode=mode)
        return render_to_string(
            "scoring/game.html", {"game": game, "game_html": mark_safe(fragment)}, request
        )
    key = f"game-page:anonymous:{mode}:{request.path}:{_state_key(request, game)}"
    parts = cache.get(key)
    if parts is None:
        context = {
            "game": game,
            "game_html": mark_safe(_render_fragment(request, game, mode)),
            "csrf_token": _CSRF_HOLE,
        }
        parts = _HOLES.split(render_to_string("scoring/game.html", context, request))
        cache.set(key, parts, 60 * 60)
    return _fill_holes(request, parts)


def _state_key(request: HttpRequest, game: Game) -> str:
    return f"{game.code}:{_version(game)}:{get_language()}:{request.get_host()}"


def _game_html(request: HttpRequest, game: Game, *, mode: str) -> str:
    """The #game fragment with a fresh entry form (for editors), from the cache when it can."""
    assert mode in _MODES
    key = f"game-fragment:{mode}:{_state_key(request, game)}"
    parts = cache.get(key)
    if parts is None:
        html = _render_fragment(request, game, mode)
        parts = _HOLES.split(html)  # the holes become every other part
        cache.set(key, parts, 60 * 60)
    return _fill_holes(request, parts)


def _fill_holes(request: HttpRequest, parts: list[str]) -> str:
    values = {
        _CSRF_HOLE: get_token(request),
        _SUBMISSION_HOLE: str(uuid.uuid4()),
        _MESSAGES_HOLE: _messages_html(request),
    }
    return "".join(values[part] if index % 2 else part for index, part in enumerate(parts))


# How long "Hand N saved" offers Undo before it offers "Edit hand N" (table-view.js; without
# JavaScript both stay: the server deletes only a hand that is still the last one).
UNDO_SECONDS = 60


def _messages_html(request: HttpRequest) -> str:
    shown = list(messages.get_messages(request))  # reading them marks them as shown
    if not shown:
        return ""
    game_code = request.resolver_match.kwargs.get("code") if request.resolver_match else None
    for message in shown:
        found = re.search(r"saved-hand-(\d+)", message.extra_tags or "")
        if found and game_code:
            number = int(found.group(1))
            message.undo_number = number  # type: ignore[attr-defined]
            message.undo_url = reverse("scoring:hand_delete_last", args=[game_code])  # type: ignore[attr-defined]
            message.edit_url = reverse("scoring:hand_edit", args=[game_code, number])  # type: ignore[attr-defined]
            message.undo_until = UNDO_SECONDS  # type: ignore[attr-defined]
    return render_to_string("_messages.html", {"messages": shown}, request)


def _render_fragment(request: HttpRequest, game: Game, mode: str) -> str:
    board = selectors.scoreboard(game)
    context = _board_context(request, game, board, mode=mode)
    if mode == "edit":
        initial = {"number": board.next_number, "submission_id": _SUBMISSION_HOLE}
        context["form"] = HandForm(initial=initial, settings=board.settings, players=board.players)
    context.update({"csrf_token": _CSRF_HOLE, "messages_hole": mark_safe(_MESSAGES_HOLE)})
    return render_to_string("scoring/game.html#game", context)


def _board_context(
    request: HttpRequest, game: Game, board: selectors.Scoreboard, *, mode: str
) -> dict[str, Any]:
    """What the game fragment shows besides the form: only what everyone in `mode` may see."""
    edited, deleted = _corrections(game)
    if mode == "share":
        live_url = reverse("scoring:game_shared_live", args=[game.share_code])
    else:
        live_url = reverse("scoring:game_live", args=[game.code])
    context: dict[str, Any] = {
        "board": board,
        "game": game,
        "editable": mode == "edit",
        "shared": mode == "share",
        "live_url": f"{live_url}?v={_version(game)}",
        "edited": edited,
        "deleted": deleted,
        "blank_rows": range(1, 21),  # the printed backup pad's rows
        **_form_urls(game, None),
    }
    if mode == "edit":
        context["share_url"] = request.build_absolute_uri(
            reverse("scoring:game_shared", args=[game.share_code])
        )
    return context


def _corrections(game: Game) -> tuple[dict[int, HandChange], list[HandChange]]:
    """The latest correction of each hand still in the game, and the deletions, newest first."""
    edited: dict[int, HandChange] = {}
    deleted: list[HandChange] = []
    for change in game_corrections(game)[:100]:
        if change.action == HandChange.Action.FILING:
            continue  # not a hand: shown on the corrections page
        if change.action == HandChange.Action.DELETE:
            deleted.append(change)
        elif change.hand_number <= game.hand_count:
            edited.setdefault(change.hand_number, change)
    return edited, deleted


def _render_game(
    request: HtmxHttpRequest, board: selectors.Scoreboard, form: HandForm, **extra: Any
) -> HttpResponse:
    template = "scoring/game.html#game" if request.htmx else "scoring/game.html"
    context = {**_board_context(request, board.game, board, mode="edit"), "form": form, **extra}
    return render(request, template, context)


def _conflict(request: HtmxHttpRequest, game: Game, conflict: HandConflict) -> HttpResponse:
    """Another phone saved this hand number first: show the new scoreboard and keep this input."""
    board = selectors.scoreboard(game)
    data = request.POST.copy()
    data["number"] = str(board.next_number)
    form = HandForm(data, settings=board.settings, players=board.players)
    message = _(
        "Hand %(number)d was just saved on another phone; yours was not saved. Check the history: "
        "if yours is a different hand, your entry is still below, save it again as hand %(next)d."
    ) % {"number": conflict.number, "next": board.next_number}
    return _render_game(request, board, form, conflict=message)


def _step_bid(post: QueryDict, settings: Settings) -> tuple[QueryDict, bool]:
    """Apply the bid stepper ("step" = "bid_up" / "bid_down") with the rule book's bid steps."""
    step = post.get("step")
    if step not in ("bid_up", "bid_down"):
        return post, False
    data = post.copy()
    try:
        bid = int(data.get("bid", ""))
    except ValueError:
        bid = 0
    bid = min(max(bid, 0), MAX_BID)
    if bid < settings.min_bid:
        bid = settings.min_bid
    elif step == "bid_up":
        bid = min(next_bid(bid, settings.min_bid, settings.deck), MAX_BID)
    else:
        bid = previous_bid(bid, settings.min_bid, settings.deck)
    data["bid"] = str(bid)
    return data, True


# --- filing the game in a club's league -------------------------------------------------------


@require_http_methods(["GET", "POST"])
@require_game_edit
def game_details(request: HttpRequest, code: str) -> HttpResponse:
    """File a game under a club and season, and link its seats to players (whoever may edit the
    game; moving it into or out of a club also takes a scorer or organiser of that club)."""
    game = game_of(request, code)
    if request.method == "GET":
        initial = {
            "club": game.club,
            "season": game.season,
            "played_on": game.played_on,
            "place": game.place,
            "note": game.note,
            **{f"seat_{row.seat}": row.player for row in game.seat_rows.all()},
        }
        form = GameDetailsForm(initial=initial, game=game, clubs=scoring_club_ids(request.user))
        return render(request, "scoring/game_details.html", {"game": game, "form": form})
    form = GameDetailsForm(request.POST, game=game, clubs=scoring_club_ids(request.user))
    if form.is_valid():
        data = form.cleaned_data
        new_club = data["filed_club"].pk if data["filed_club"] else None
        old_club = game.club_id  # type: ignore[attr-defined]
        if new_club != old_club:
            if new_club is not None and not can_score_for_club(request.user, new_club):
                raise PermissionDenied(_("Only a scorer or organiser of the club files games in it."))
            if old_club is not None and not can_manage_club(request.user, old_club):
                raise PermissionDenied(_("Only an organiser of the club takes a game out of it."))
        try:
            filing.file_game(
                game=game,
                club=data["club"],
                season=data["season"],
                played_on=data["played_on"],
                place=data["place"],
                note=data["note"],
                players=form.players(),
                actor=actor_for(request),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The game's league details were saved."))
            return redirect("scoring:game_details", code=game.code)
    return render(request, "scoring/game_details.html", {"game": game, "form": form}, status=400)


# --- corrections trail and handing the scoring over ------------------------------------------


@require_GET
@require_game_view
def game_history(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, code=code)
    changes = [(change, change_rows(change.old_data, change.new_data)) for change in game_corrections(game)]
    context = {"game": game, "changes": changes, "back": reverse("scoring:game", kwargs={"code": game.code})}
    return render(request, "scoring/game_history.html", context)


@require_GET
@require_club_role("manage")
def club_corrections_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """Every correction in the club's games, newest first: for its organisers."""
    page = Paginator(club_corrections(club_id), 50).get_page(request.GET.get("page"))
    changes = [(change, change_rows(change.old_data, change.new_data)) for change in page]
    context = {"club_id": club_id, "page": page, "changes": changes}
    return render(request, "scoring/club_corrections.html", context)


@require_POST
@require_game_edit
@never_cache
def hand_over(request: HttpRequest, code: str) -> HttpResponse:
    """A fresh one-time link (and its QR code) that moves the edit right to the phone opening it.
    Shown once, not redirected to: the secret is not stored anywhere it could be shown again."""
    game = get_object_or_404(Game, code=code)
    token = start_handover(game=game)
    url = request.build_absolute_uri(
        reverse("scoring:game_take_over", kwargs={"code": game.code, "token": token})
    )
    context = {
        "game": game,
        "url": url,
        "qr": qr_svg(url, title=gettext("QR code of the handover link")),
        "minutes": settings.HANDOVER_LINK_MINUTES,
        "back": reverse("scoring:game", kwargs={"code": game.code}),
    }
    return render(request, "scoring/hand_over.html", context)


@never_cache
@require_http_methods(["GET", "POST"])
def take_over(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """Opening the link asks first (link previews must not use the secret); the POST claims it."""
    game = get_object_or_404(Game, code=code)
    if request.method == "GET":
        status = 200 if handover_is_open(game=game, token=token) else 410
        return render(request, "scoring/take_over.html", {"game": game, "open": status == 200}, status=status)
    new_token = claim_handover(game=game, token=token)
    if new_token is None:
        return render(request, "scoring/take_over.html", {"game": game, "open": False}, status=410)
    response = redirect("scoring:game", code=game.code)
    set_edit_cookie(response, game, new_token)
    return response
