"""Entering hands: save, preview (also the bid stepper without JavaScript), correct and delete
the last hand. A save another phone got to first keeps the entry and says what happened."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from core import strict_input
from scoring.forms.hand import HandForm
from scoring.forms.hand_initial import hand_initial
from scoring.models import Game, Hand, HandChange
from scoring.permissions import (
    actor_for,
    can_edit_game,
    decides_for_club,
    game_of,
    require_game_edit,
)
from scoring.rules.errors import RecordError
from scoring.rules.settings import Settings
from scoring.rules.tables import step_typed_bid
from scoring.selectors.board import Scoreboard, scoreboard, settings_of
from scoring.selectors.preview import correction_change, describe, need_before_tricks
from scoring.services.hands import (
    GameMovedOn,
    HandConflict,
    QuestionGone,
    SubmissionReused,
    delete_last_hand,
    edit_hand,
    find_submission,
    record_hand,
)
from scoring.services.results import SUMMARY_FIELDS, preview_hand
from scoring.views.page import (
    HtmxHttpRequest,
    form_urls,
    game_html,
    hand_form,
    render_game,
    undone_key,
)


@require_POST
@require_game_edit
def hand_save(request: HtmxHttpRequest, code: str) -> HttpResponse:
    game = game_of(request, code)
    form = hand_form(game, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            stored = record_hand(
                game=game,
                number=data["number"],
                data=form.hand,
                submission_id=data["submission_id"],
                meld_mode=data.get("meld_mode"),
                # The phone's outbox asking an open question again (static/js/outbox.js): never a save.
                asked_again=request.POST.get("asked_again") == "1",
            )
        except RecordError as error:
            form.add_record_error(error)
        except HandConflict as conflict:
            return _conflict(request, game, conflict)
        except QuestionGone as gone:
            return _question_gone(request, game, gone.number)
        except SubmissionReused as reused:
            return _reused(request, game, reused.hand, form.hand)
        else:
            number = stored.hand.number
            # "saved-hand-N": the message offers Undo, then "Edit hand N" (_messages.html).
            messages.success(
                request, _("Hand %(number)d saved.") % {"number": number}, f"saved saved-hand-{number}"
            )
            if not request.htmx:
                return redirect("scoring:game", code=code)
            mode = "edit" if can_edit_game(request, game) else "view"  # a finished club game: organisers
            # Drawn from the result just stored: the game is not read or scored again.
            board = scoreboard(game, stored=stored)
            return HttpResponse(game_html(request, game, mode=mode, board=board))
    return render_game(request, scoreboard(game), form)


@require_POST
@require_game_edit  # part of entering a hand: it writes nothing, but only editors enter hands
def hand_preview(request: HtmxHttpRequest, code: str, number: int | None = None) -> HttpResponse:
    """What the hand on the form would do, without saving it (also the bid stepper's "−"/"+")."""
    game = game_of(request, code)
    stored = list(game.hands.order_by("number"))
    if number is not None and not 1 <= number <= len(stored):
        return redirect("scoring:game", code=code)
    post, stepped = _step_bid(request.POST, settings_of(game))
    form = hand_form(game, post)
    preview = None
    moved_on = ""
    if form.is_valid():
        replace, moved_on = number, ""
        if number is None:
            replace, moved_on = _previewed_number(game, form, stored)
        if not moved_on or replace is not None:
            try:
                result = preview_hand(
                    game=game, data=form.hand, stored=[row.data for row in stored], replace=replace
                )
            except RecordError as error:
                form.add_record_error(error)
            else:
                preview = describe(result, replace or len(stored) + 1, form.hand)
                if number is not None:  # a correction: the change to today's totals, not totals after it
                    preview += correction_change(game, result)
    need = "" if preview else _need_before_tricks(game, form, stored, number)
    context = {
        "form": form,
        "preview": preview,
        "previewed": True,
        "moved_on": moved_on,
        "need": need,
        "game": game,
        **form_urls(game, number),
    }
    if request.htmx:
        html = render_to_string("scoring/_hand_form.html#preview", context, request)
        if stepped:
            html += render_to_string("scoring/_hand_form.html#bid-field", {**context, "oob": True}, request)
        return HttpResponse(html)
    if number is not None:
        return render(request, "scoring/hand_edit.html", {**context, "number": number})
    board = scoreboard(game)
    return render_game(request, board, form, preview=preview, moved_on=moved_on, need=need)


def _need_before_tricks(game: Game, form: HandForm, stored: list[Hand], number: int | None) -> str:
    """The bidders' need, shown when the tricks are all the form is missing."""
    if form.errors or set(form.group_errors) != {"tricks"} or "bid" not in form.hand:
        return ""
    rows = [row.data for row in stored]
    return need_before_tricks(game=game, data=form.hand, settings=form.settings, stored=rows, replace=number)


def _previewed_number(game: Game, form: HandForm, stored: list[Hand]) -> tuple[int | None, str]:
    """For the preview of a new hand: which stored hand it would replace (None: it is the next
    hand), and what to tell the table when the form is no longer for the next hand."""
    next_number = len(stored) + 1
    saved = find_submission(game=game, submission_id=form.cleaned_data.get("submission_id"))
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


@require_http_methods(["GET", "HEAD", "POST"])
@require_game_edit
def hand_edit(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    game = game_of(request, code)
    if request.method == "POST":
        form = hand_form(game, request.POST)
        if form.is_valid():
            try:
                edit_hand(
                    game=game,
                    number=number,
                    data=form.hand,
                    actor=actor_for(request),
                    confirmed=game.confirm_hands and decides_for_club(request, game),
                )
            except RecordError as error:
                form.add_record_error(error)
            except GameMovedOn as moved:
                # The values are not lost: they go on the entry form as the next hand's, kept there
                # as the phone's draft (static/js/table.js), to save if they are a new hand.
                gone = ngettext(
                    "Nothing corrected: hand %(number)d no longer exists (another phone deleted it). "
                    "The game has %(count)d hand now.",
                    "Nothing corrected: hand %(number)d no longer exists (another phone deleted it). "
                    "The game has %(count)d hands now.",
                    moved.current,
                ) % {"number": number, "count": moved.current}
                kept = _("Your values are on the form below: save them as a new hand if they are right.")
                _drop_waiting_messages(request)
                board = scoreboard(game)
                return render_game(
                    request,
                    board,
                    _as_next_hand(request, board),
                    conflict=f"{gone} {kept}",
                    question_gone=True,
                    messages=[],
                )
            else:
                messages.success(request, _("Hand %(number)d corrected.") % {"number": number})
                return redirect("scoring:game", code=code)
    else:
        hand = get_object_or_404(Hand, game=game, number=number)
        settings = settings_of(game)
        form = hand_form(game, None, initial=hand_initial(hand.data, settings, number))
    if form.is_bound:
        form.focus_first_error()
    context = {"form": form, "game": game, "number": number, **form_urls(game, number)}
    return render(request, "scoring/hand_edit.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@require_game_edit
def hand_delete_last(request: HttpRequest, code: str) -> HttpResponse:
    game = game_of(request, code)
    deleted = None
    if request.method in ("GET", "HEAD"):
        if game.hand_count:
            return render(request, "scoring/hand_delete.html", {"game": game, "number": game.hand_count})
    else:
        posted = request.POST.get("number", "")
        # The service decides under the game's lock: a hand saved meanwhile is never deleted.
        expected = int(posted) if posted.isdecimal() and len(posted) < 7 else -1
        try:
            deleted = delete_last_hand(game=game, actor=actor_for(request), expected=expected)
        except GameMovedOn as moved:
            messages.error(
                request,
                _("Nothing deleted: the last hand is now hand %(number)d. Look at it before deleting.")
                % {"number": moved.current},
            )
            return redirect("scoring:game", code=code)
    if deleted is None:
        messages.info(request, _("There is no hand to delete."))
    elif request.POST.get("undo"):
        # Undo of a save: the hand's values go back on the entry form (page.game_context), so a
        # typo is fixed by changing one field and saving again.
        change = (
            HandChange.objects.filter(game=game, hand_number=deleted, action=HandChange.Action.DELETE)
            .order_by("-pk")
            .first()
        )
        if change is not None and change.old_data:
            request.session[undone_key(game)] = {"number": deleted, "data": change.old_data}
        messages.success(
            request,
            _(
                "Hand %(number)d undone: its values are back on the form below. Change what was wrong "
                "and save it again."
            )
            % {"number": deleted},
        )
    else:
        messages.success(request, _("Hand %(number)d deleted.") % {"number": deleted})
    return redirect("scoring:game", code=code)


def _conflict(request: HtmxHttpRequest, game: Game, conflict: HandConflict) -> HttpResponse:
    """Another phone saved this hand number first: show the new scoreboard and keep this input."""
    game.refresh_from_db(fields=[*SUMMARY_FIELDS, "updated_at"])  # the other phone's save
    board = scoreboard(game)
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
    return render_game(request, board, form, conflict=message)


def _drop_waiting_messages(request: HttpRequest) -> None:
    """The messages waiting in the session for the next page are read, so they are not shown."""
    for _stale in messages.get_messages(request):
        pass


def _reused(request: HtmxHttpRequest, game: Game, stored: Hand, entered: dict[str, Any]) -> HttpResponse:
    """This form already saved a hand, and what it posts now is different (its reply was lost and
    the entry was changed, or it came back with Back). Never "saved": show what is stored and
    offer the new values as a correction of that hand, in one tap; the entry stays below with a
    fresh submission id, to save it as the next hand instead if that is what it is."""
    _drop_waiting_messages(request)  # the lost reply's "Hand N saved." would contradict this
    board = scoreboard(game)
    form = _as_next_hand(request, board)
    message = _(
        "Not saved: this form already saved hand %(number)d, with other values. Hand %(number)d is "
        "stored as shown below. To change it to what you entered, tap “Apply my values as a correction of "
        "hand %(number)d”; if yours is a new hand, tap “Save my values as hand %(next)d”."
    ) % {"number": stored.number, "next": board.next_number}
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "submission_id", "number", "step", "asked_again")
        for value in values
    ]
    correction = {
        "number": stored.number,
        "stored": (
            describe(board.result, stored.number, stored.data)
            if stored.number <= len(board.result.hands)
            else []
        ),
        "action": reverse("scoring:hand_edit", args=[game.code, stored.number]),
        "fields": fields,
        "next": board.next_number,
        "next_id": uuid.uuid4(),
    }
    return render_game(request, board, form, conflict=message, correction=correction, messages=[])


def _as_next_hand(request: HtmxHttpRequest, board: Scoreboard) -> HandForm:
    """The posted values on the entry form as the next hand's, with a submission id of their own
    (saved from there, they are a new submission), checked so the form shows what it holds."""
    data = request.POST.copy()
    data.pop("asked_again", None)
    data["number"] = str(board.next_number)
    data["submission_id"] = str(uuid.uuid4())
    form = HandForm(data, settings=board.settings, players=board.players)
    form.is_valid()
    return form


def _question_gone(request: HtmxHttpRequest, game: Game, number: int) -> HttpResponse:
    """A question asked again, about a hand that is no longer stored (deleted, or taken back by
    Undo, since it was asked): nothing is saved, since the player answered nothing. The values go
    on the entry form as the next hand's, with a submission id of their own, for the player to save
    if they are right; the question is settled. What waited for the next page (a lost reply's
    "Hand N saved", the values an Undo kept for the form) would contradict it: both are dropped."""
    _drop_waiting_messages(request)
    request.session.pop(undone_key(game), None)
    board = scoreboard(game)
    form = _as_next_hand(request, board)
    message = _(
        "Not saved: hand %(number)d, which the question was about, is no longer stored. Your values "
        "are on the form below: save them if they are right."
    ) % {"number": number}
    return render_game(request, board, form, conflict=message, question_gone=True, messages=[])


def _step_bid(post: QueryDict, settings: Settings) -> tuple[QueryDict, bool]:
    """Apply the bid stepper ("step" = "bid_up" / "bid_down") with the rule book's bid steps."""
    step = post.get("step")
    if step not in ("bid_up", "bid_down"):
        return post, False
    data = post.copy()
    # Plain digits only, as the bid field reads them (`25_0` is not 250).
    figure = strict_input.whole_number(data.get("bid", ""))
    stepped = step_typed_bid(
        figure,
        settings.min_bid,
        settings.deck,
        up=step == "bid_up",
        steps=settings.bid_steps,
        scale=settings.scale,
    )
    data["bid"] = str(stepped)
    return data, True
