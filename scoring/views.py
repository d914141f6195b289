"""Pages of the scorekeeper: small function views over forms, selectors and services.

Every form works as a plain POST (redirect after a write); an htmx request gets the page's
fragment instead ("page.html#fragment", the fragment's id is its hx-target).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import condition, require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_cookie
from django_htmx.middleware import HtmxDetails

from clubs.ids import record_id
from clubs.permissions import can_manage_club, can_score_for_club, require_club_role, scoring_club_ids
from scoring import filing, game_settings, selectors, services, strict_input
from scoring.audit import Actor, club_corrections, game_corrections
from scoring.devices import ensure_device, holder_of, may_hold
from scoring.diff import change_rows
from scoring.forms import GameDetailsForm, GameForm, GameSettingsForm, HandForm, hand_initial
from scoring.handover import (
    claim_handover,
    client_address,
    handover_is_open,
    recovery_code,
    start_handover,
    take_over_with_code,
)
from scoring.models import Game, Hand, HandChange
from scoring.permissions import (
    NIGHT_FINISHED,
    NIGHT_PLAN_LOCKED,
    actor_for,
    can_edit_game,
    game_of,
    get_shared_game_or_404,
    grant_edit_token,
    night_is_over,
    night_plan_locked,
    readable_games,
    require_game_edit,
    require_game_view,
)
from scoring.qr import qr_svg
from scoring.rules import RecordError, Settings
from scoring.rules.tables import MAX_BID, next_bid, previous_bid, side_of
from scoring.services import GameMovedOn, HandConflict, SubmissionReused


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    games = list(readable_games(request).order_by("-updated_at", "-pk").prefetch_related("seat_rows")[:100])
    for game in games:
        game.names = ", ".join(row.name for row in game.seat_rows.all() if row.name)  # type: ignore[attr-defined]
    playing = [game for game in games if not game.finished]
    done = [game for game in games if game.finished]
    return render(request, "scoring/game_list.html", {"playing": playing, "done": done})


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        form = GameForm(initial={"setup_token": uuid.uuid4()})  # one game per drawn form
        return render(request, "scoring/game_new.html", {"form": form})
    form = GameForm(request.POST)
    if form.is_valid():
        token = form.cleaned_data.get("setup_token")
        made = Game.objects.filter(setup__token=token).first() if token else None
        if made is not None:  # a second Start, or Back and Start: this form already made its game
            messages.info(request, _("This game was already started; here it is."))
            return redirect("scoring:game", code=made.code)
        game = form.save()
        if game is not None:
            # The creating browser may enter hands at once, with or without an account.
            grant_edit_token(request, game, user=request.user)
            messages.success(
                request,
                _(
                    "Game started. Its recovery code is %(code)s: note it down. With it another phone "
                    "can take over the scoring if this one is lost or runs flat."
                )
                % {"code": recovery_code(game)},
            )
            return redirect("scoring:game", code=game.code)
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


def _live_mode(request: HttpRequest, game: Game) -> str:
    return "edit" if can_edit_game(request, game) else "view"


def _live_etag(request: HttpRequest, code: str) -> str:
    """The poll's ETag: the game's state as this viewer sees it (If-None-Match → 304)."""
    game = _game(request, code)
    return f"{_version(game)}-{_live_mode(request, game)}-{get_language()}"


def _shared_of(request: HttpRequest, share_code: str) -> Game:
    """The share link's game, read once per request (the ETag and the view both need it)."""
    game = getattr(request, "_shared_game", None)
    if not isinstance(game, Game) or game.share_code != share_code:
        game = get_shared_game_or_404(share_code)
        request._shared_game = game  # type: ignore[attr-defined]
    return game


def _shared_etag(request: HttpRequest, share_code: str) -> str:
    return f"{_version(_shared_of(request, share_code))}-share-{get_language()}"


@require_GET
@cache_control(private=True)
@vary_on_cookie
@require_game_view
@condition(etag_func=_live_etag)
def game_live(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """What a phone polls every few seconds: 204 (or 304 for its ETag) while nothing changed, else
    the new scoreboard."""
    game = _game(request, code)
    return _live(request, game, mode=_live_mode(request, game))


@require_GET
@condition(etag_func=_shared_etag)
def shared_live(request: HtmxHttpRequest, share_code: str) -> HttpResponse:
    return _live(request, _shared_of(request, share_code), mode="share")


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
            stored = services.record_hand(
                game=game, number=data["number"], data=form.hand, submission_id=data["submission_id"]
            )
        except RecordError as error:
            form.add_record_error(error)
        except HandConflict as conflict:
            return _conflict(request, game, conflict)
        except SubmissionReused as reused:
            return _reused(request, game, reused.hand, form.hand)
        else:
            services.remember_meld_mode(game=game, mode=data.get("meld_mode") or game.meld_mode)
            number = stored.hand.number
            # "saved-hand-N": the message offers Undo, then "Edit hand N" (_messages.html).
            messages.success(
                request, _("Hand %(number)d saved.") % {"number": number}, f"saved saved-hand-{number}"
            )
            if not request.htmx:
                return redirect("scoring:game", code=code)
            mode = "edit" if can_edit_game(request, game) else "view"  # a finished club game: organisers
            # Drawn from the result just stored: the game is not read or scored again.
            board = selectors.scoreboard(game, stored=stored)
            return HttpResponse(_game_html(request, game, mode=mode, board=board))
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
    moved_on = ""
    if form.is_valid():
        replace, moved_on = number, ""
        if number is None:
            replace, moved_on = _previewed_number(game, form, stored)
        if not moved_on or replace is not None:
            try:
                result = services.preview_hand(
                    game=game, data=form.hand, stored=[row.data for row in stored], replace=replace
                )
            except RecordError as error:
                form.add_record_error(error)
            else:
                preview = selectors.describe(result, replace or len(stored) + 1, form.hand)
                if number is not None:  # a correction: the change to today's totals, not totals after it
                    preview += selectors.correction_change(game, result)
    need = "" if preview else _need_before_tricks(game, form, stored, number)
    context = {
        "form": form,
        "preview": preview,
        "previewed": True,
        "moved_on": moved_on,
        "need": need,
        "game": game,
        **_form_urls(game, number),
    }
    if request.htmx:
        html = render_to_string("scoring/_hand_form.html#preview", context, request)
        if stepped:
            html += render_to_string("scoring/_hand_form.html#bid-field", {**context, "oob": True}, request)
        return HttpResponse(html)
    if number is not None:
        return render(request, "scoring/hand_edit.html", {**context, "number": number})
    board = selectors.scoreboard(game)
    return _render_game(request, board, form, preview=preview, moved_on=moved_on, need=need)


def _need_before_tricks(game: Game, form: HandForm, stored: list[Hand], number: int | None) -> str:
    """The bidders' need in trick points as soon as bid and meld are known: the tricks are all that
    is missing. The engine counts the meld (as if the bidders took every trick, so a "meld needs a
    trick" game counts theirs); nothing is shown when it refuses the hand for another reason."""
    hand, settings = form.hand, form.settings
    if form.errors or set(form.group_errors) != {"tricks"} or "bid" not in hand:
        return ""
    bidders = side_of(hand["bidder"], settings.seats)
    trial = {
        **hand,
        "tricks": {side: settings.trick_points if side == bidders else 0 for side in settings.sides},
    }
    try:
        result = services.preview_hand(
            game=game, data=trial, stored=[row.data for row in stored], replace=number
        )
    except RecordError:
        return ""
    return selectors.bidders_need(result, number or len(stored) + 1, hand)


def _previewed_number(game: Game, form: HandForm, stored: list[Hand]) -> tuple[int | None, str]:
    """For the preview of a new hand: which stored hand it would replace (None: it is the next
    hand), and what to tell the table when the form is no longer for the next hand."""
    next_number = len(stored) + 1
    saved = services.find_submission(game=game, submission_id=form.cleaned_data.get("submission_id"))
    if saved is not None:
        if saved.data == form.hand:
            message = _("Hand %(number)d is saved with these values.")
        else:
            message = _(
                "This form already saved hand %(number)d with other values. Save offers yours as a "
                "correction of hand %(number)d."
            )
        return saved.number, message % {"number": saved.number}
    expected = form.cleaned_data["number"]
    if expected != next_number:
        return None, _moved_on_message(expected, next_number)
    return None, ""


def _moved_on_message(expected: int, next_number: int) -> str:
    if expected < next_number:
        return _(
            "The game has moved on: hand %(number)d was saved on another phone. Your entry is "
            "not saved; check the hands below, then save it as hand %(next)d if it is a new hand."
        ) % {"number": expected, "next": next_number}
    return _(
        "The game has moved on: a hand was deleted, so the next hand is %(next)d, not %(number)d. "
        "Your entry is not saved; check the hands below, then save it as hand %(next)d."
    ) % {"number": expected, "next": next_number}


@require_http_methods(["GET", "POST"])
@require_game_edit
def hand_edit(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    game = _game(request, code)
    if request.method == "POST":
        form = _hand_form(game, request.POST)
        if form.is_valid():
            try:
                services.edit_hand(game=game, number=number, data=form.hand, actor=actor_for(request))
            except RecordError as error:
                form.add_record_error(error)
            except GameMovedOn as moved:
                messages.error(
                    request,
                    _(
                        "Nothing corrected: hand %(number)d no longer exists (another phone deleted it). "
                        "The game has %(count)d hands now."
                    )
                    % {"number": number, "count": moved.current},
                )
                return redirect("scoring:game", code=code)
            else:
                messages.success(request, _("Hand %(number)d corrected.") % {"number": number})
                return redirect("scoring:game", code=code)
    else:
        hand = get_object_or_404(Hand, game=game, number=number)
        settings = selectors.settings_of(game)
        form = _hand_form(game, None, initial=hand_initial(hand.data, settings, number))
    if form.is_bound:
        form.focus_first_error()
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
    posted = request.POST.get("number", "")
    # Checked again under the game's lock by the service: a hand saved meanwhile is never deleted.
    expected = int(posted) if posted.isdecimal() and len(posted) < 7 else -1
    try:
        deleted = services.delete_last_hand(game=game, actor=actor_for(request), expected=expected)
    except GameMovedOn as moved:
        if moved.current == 0:
            messages.info(request, _("There is no hand to delete."))
        else:
            messages.error(
                request,
                _("Nothing deleted: the last hand is now hand %(number)d. Look at it before deleting.")
                % {"number": moved.current},
            )
        return redirect("scoring:game", code=code)
    if deleted is None:
        messages.info(request, _("There is no hand to delete."))
    else:
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


def _version(game: Game) -> str:
    """Changes with every write of the game's hands: the live poll's `v` and its ETag."""
    return f"{game.hand_count}-{game.updated_at.timestamp():.6f}"


def _game_page(
    request: HttpRequest, game: Game, *, mode: str, board: selectors.Scoreboard | None = None
) -> str:
    """The whole game page, drawn for this request (its CSRF token, a fresh submission id, its messages)."""
    return render_to_string("scoring/game.html", _game_context(request, game, mode, board), request)


def _game_html(
    request: HttpRequest, game: Game, *, mode: str, board: selectors.Scoreboard | None = None
) -> str:
    """The #game fragment (an htmx request's answer), with a fresh entry form for editors."""
    return render_to_string("scoring/game.html#game", _game_context(request, game, mode, board), request)


def _game_context(
    request: HttpRequest, game: Game, mode: str, board: selectors.Scoreboard | None
) -> dict[str, Any]:
    """The game page with a fresh entry form (a new submission id) for editors."""
    if board is None:
        board = selectors.scoreboard(game)
    context = _board_context(request, game, board, mode=mode)
    if mode == "edit":
        initial = {"number": game.hand_count + 1, "submission_id": uuid.uuid4(), "meld_mode": game.meld_mode}
        context["form"] = HandForm(initial=initial, settings=board.settings, players=board.players)
    return context


def _board_context(
    request: HttpRequest, game: Game, board: selectors.Scoreboard, *, mode: str
) -> dict[str, Any]:
    """What the game fragment shows besides the form: only what everyone in `mode` may see."""
    edited, deleted = _corrections(game)
    version = _version(game)
    if mode == "share":
        live = ("scoring:game_shared_live", game.share_code)
    else:
        live = ("scoring:game_live", game.code)
    context: dict[str, Any] = {
        "board": board,
        "game": game,
        "editable": mode == "edit",
        "shared": mode == "share",
        "live_url": f"{reverse(live[0], args=[live[1]])}?v={version}",
        "next_number": game.hand_count + 1,
        "edited": edited,
        "deleted": deleted,
        "blank_rows": range(1, 21),  # the printed backup pad's rows
        **_form_urls(game, None),
    }
    if mode == "edit":
        context["share_url"] = request.build_absolute_uri(
            reverse("scoring:game_shared", args=[game.share_code])
        )
        context["recovery_code"] = recovery_code(game)
    elif mode == "share":
        context["recover_url"] = reverse("scoring:game_shared_recover", args=[game.share_code])
    else:
        context["recover_url"] = reverse("scoring:game_recover", args=[game.code])
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
    if form.is_bound:
        form.focus_first_error()
    context = {**_board_context(request, board.game, board, mode="edit"), "form": form, **extra}
    return render(request, template, context)


def _conflict(request: HtmxHttpRequest, game: Game, conflict: HandConflict) -> HttpResponse:
    """Another phone saved this hand number first: show the new scoreboard and keep this input."""
    game.refresh_from_db(fields=[*services.SUMMARY_FIELDS, "updated_at"])  # the other phone's save
    board = selectors.scoreboard(game)
    data = request.POST.copy()
    data["number"] = str(board.next_number)
    form = HandForm(data, settings=board.settings, players=board.players)
    if conflict.number < board.next_number:
        message = _(
            "Hand %(number)d was just saved on another phone; yours was not saved. Check the history: "
            "if yours is a different hand, your entry is still below, save it again as hand %(next)d."
        ) % {"number": conflict.number, "next": board.next_number}
    else:
        message = _moved_on_message(conflict.number, board.next_number)
    return _render_game(request, board, form, conflict=message)


def _reused(request: HtmxHttpRequest, game: Game, stored: Hand, entered: dict[str, Any]) -> HttpResponse:
    """This form already saved a hand, and what it posts now is different (its reply was lost and
    the entry was changed, or it came back with Back). Never "saved": show what is stored and
    offer the new values as a correction of that hand, in one tap; the entry stays below with a
    fresh submission id, to save it as the next hand instead if that is what it is."""
    # The lost reply's "Hand N saved." is still waiting in the session: it would contradict this.
    for _stale in messages.get_messages(request):
        pass
    board = selectors.scoreboard(game)
    data = request.POST.copy()
    data["number"] = str(board.next_number)
    data["submission_id"] = str(uuid.uuid4())
    form = HandForm(data, settings=board.settings, players=board.players)
    form.is_valid()
    message = _(
        "Not saved: this form already saved hand %(number)d, with other values. Hand %(number)d is "
        "stored as shown below. To change it to what you entered, apply your values as a correction; "
        "if yours is a new hand, save it below as hand %(next)d."
    ) % {"number": stored.number, "next": board.next_number}
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "submission_id", "number", "step")
        for value in values
    ]
    correction = {
        "number": stored.number,
        "stored": (
            selectors.describe(board.result, stored.number, stored.data)
            if stored.number <= len(board.result.hands)
            else []
        ),
        "action": reverse("scoring:hand_edit", args=[game.code, stored.number]),
        "fields": fields,
    }
    return _render_game(request, board, form, conflict=message, correction=correction, messages=[])


def _step_bid(post: QueryDict, settings: Settings) -> tuple[QueryDict, bool]:
    """Apply the bid stepper ("step" = "bid_up" / "bid_down") with the rule book's bid steps."""
    step = post.get("step")
    if step not in ("bid_up", "bid_down"):
        return post, False
    data = post.copy()
    # Plain digits only, as the bid field reads them (`25_0` is not 250).
    bid = min(strict_input.whole_number(data.get("bid", "")) or 0, MAX_BID)
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
    if night_plan_locked(request, game):
        form.is_valid()
        form.add_error(None, NIGHT_PLAN_LOCKED)
    elif form.is_valid():
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
    game = _game(request, code)
    changes = [(change, change_rows(change.old_data, change.new_data)) for change in game_corrections(game)]
    context = {"game": game, "changes": changes, "back": reverse("scoring:game", kwargs={"code": game.code})}
    return render(request, "scoring/game_history.html", context)


@require_GET
@require_club_role("manage")
def club_corrections_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """Every correction in the club's games, newest first: for its organisers."""
    # A page number that is not plain digits (`0_1`, `１`) shows the first page, as any other
    # page that is not a number does (Django's int() would read them as page 1 or more).
    page = Paginator(club_corrections(club_id), 50).get_page(record_id(request.GET.get("page")))
    changes = [(change, change_rows(change.old_data, change.new_data)) for change in page]
    context = {"club_id": club_id, "page": page, "changes": changes}
    return render(request, "scoring/club_corrections.html", context)


@require_POST
@require_game_edit
@never_cache
def hand_over(request: HttpRequest, code: str) -> HttpResponse:
    """A fresh one-time link (and its QR code) that moves the edit right to the phone opening it.
    Shown once, not redirected to: the secret is not stored anywhere it could be shown again."""
    game = _game(request, code)
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
    if night_is_over(game):  # a link started before the night was finished gives nothing now
        return render(request, "scoring/take_over.html", {"game": game, "open": False}, status=410)
    if request.method == "GET" and not handover_is_open(game=game, token=token):
        return render(request, "scoring/take_over.html", {"game": game, "open": False}, status=410)
    if request.method == "GET" and may_hold(request, game):
        return render(request, "scoring/take_over.html", {"game": game, "open": True})
    if not may_hold(request, game):  # said before the button is offered, and again on a POST
        context = {"game": game, "open": False, "error": _not_a_scorer(request)}
        return render(request, "scoring/take_over.html", context, status=403)
    if not claim_handover(game=game, token=token, device=ensure_device(request), holder=holder_of(request)):
        return render(request, "scoring/take_over.html", {"game": game, "open": False}, status=410)
    return redirect("scoring:game", code=game.code)


def _not_a_scorer(request: HttpRequest) -> str:
    return _(
        "You are signed in as %(name)s, who does not score for this game's club: only its scorers "
        "and organisers, or a phone nobody is signed in on, may take the scoring over."
    ) % {"name": request.user.get_username()}


def _taker(request: HttpRequest) -> Actor:
    """Who the trail names for a take-over: the signed-in user, or "a phone with the recovery code"."""
    return actor_for(request) if request.user.is_authenticated else Actor(user=None, label="recovery")


@never_cache
@require_POST
def recover(request: HttpRequest, code: str | None = None, share_code: str | None = None) -> HttpResponse:
    """Take over the scoring with the game's recovery code (from the read-only page, the share
    page or the page a phone without the right lands on). Wrong codes at a game are counted per
    browser, per client address and in all; the take-over is written to the corrections trail."""
    game = get_object_or_404(Game, code=code) if code else get_shared_game_or_404(share_code or "")
    address = client_address(request)
    typed = request.POST.get("recovery_code", "")
    if night_is_over(game):
        error, status = str(NIGHT_FINISHED), 403
    elif not may_hold(request, game):
        error, status = _not_a_scorer(request), 403
    elif not typed.strip():
        error, status = _("Recovery code: enter the 6 letters shown on the scoring phone."), 400
    else:
        outcome = take_over_with_code(
            game=game,
            code=typed,
            device=ensure_device(request),
            address=address,
            actor=_taker(request),
            holder=holder_of(request),
        )
        if outcome:
            messages.success(request, _("This phone now keeps the score of this game."))
            return redirect("scoring:game", code=game.code)
        if outcome is None:
            error, status = _("Too many wrong codes: wait a quarter of an hour, then try again."), 429
        else:
            error, status = (
                _(
                    "Recovery code: that is not this game's code. Check it on the scoring phone or "
                    "the note you made at the start."
                ),
                400,
            )
    context = {"game": game, "error": error, "recover_url": request.path, "typed": typed[:20]}
    return render(request, "scoring/recover.html", context, status=status)


# --- the game's settings after Start ---------------------------------------------------------


@require_http_methods(["GET", "POST"])
@require_game_edit
def game_settings_page(request: HttpRequest, code: str) -> HttpResponse:
    """Names and first dealer, target, minimum bid and the house rule, with a full rescore.
    "Preview" shows what the change does; "Save" saves it, except when it changes how the game
    ends and the page has not shown that yet: it is shown first and saved with a second Save (the
    end the preview showed comes back as `confirm`). Refusals name the setting and the hand;
    nothing is written then."""
    game = game_of(request, code)
    settings = selectors.settings_of(game)
    if request.method == "GET":
        players = services.players_of(game)
        initial = GameSettingsForm.initial_for(settings, players, game_settings.version(game))
        form = GameSettingsForm(
            initial=initial, game=game, settings=settings, rules_locked=night_plan_locked(request, game)
        )
        return render(request, "scoring/game_settings.html", {"game": game, "form": form})
    form = GameSettingsForm(
        request.POST, game=game, settings=settings, rules_locked=night_plan_locked(request, game)
    )
    preview = _settings_preview(form, game)
    if preview is not None and "save" in request.POST:
        if preview["ending_changes"] and form.cleaned_data["confirm"] != preview["token"]:
            preview["confirm"] = True  # say how the game's end changes before saving it
        else:
            try:
                outcome = game_settings.change_settings(
                    game=game,
                    new=form.new_settings(),
                    expected=form.cleaned_data["version"],
                    actor=actor_for(request),
                )
            except RecordError as error:
                form.add_record_error(error)
                preview = None
            except game_settings.SettingsMovedOn as moved:
                preview = _settings_moved_on(form, game, moved.version)
            else:
                # A second tap of Save finds the first one's change stored: saved, as shown.
                repeated = form.cleaned_data["version"] != game_settings.version(game)
                if outcome.saved or repeated:
                    messages.success(request, _("The game's settings were saved."))
                else:
                    messages.info(request, _("Nothing to change: the settings are already as shown."))
                return redirect("scoring:game", code=game.code)
    context = {"game": game, "form": form, "preview": preview}
    return render(request, "scoring/game_settings.html", context, status=400 if form.errors else 200)


def _settings_preview(form: GameSettingsForm, game: Game) -> dict[str, Any] | None:
    """What the change the form asks for does to the game as it stands (None when the form or
    the engine refuses it; the form then holds the message next to the setting)."""
    if not form.is_valid():
        return None
    new = form.new_settings()
    try:
        outcome = game_settings.preview_settings(game=game, new=new)
    except RecordError as error:
        form.add_record_error(error)
        return None
    return selectors.settings_preview(outcome, new.players)


def _settings_moved_on(form: GameSettingsForm, game: Game, version: str) -> dict[str, Any] | None:
    """Another phone wrote meanwhile: nothing was saved. The entry stays, with the game's new
    version and a preview against the game as it is now, to be saved again."""
    form.data = form.data.copy()
    form.data["version"] = version
    preview = _settings_preview(form, game)
    form.add_error(
        None,
        _(
            "Nothing changed: another phone changed this game a moment ago. Check the preview against "
            "the game as it is now, then save again."
        ),
    )
    return preview
