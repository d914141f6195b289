"""The game page as every view draws it: the scoreboard, the history and a fresh entry form
(a whole page, or the #game fragment an htmx request swaps in)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.functional import SimpleLazyObject
from django_htmx.middleware import HtmxDetails

from scoring import game_settings
from scoring.audit import game_corrections
from scoring.forms.hand import HandForm
from scoring.forms.hand_initial import hand_initial
from scoring.handover import (
    recovery_code,
)
from scoring.labels import side_label
from scoring.models import Game, HandChange
from scoring.permissions import can_sign_game, signed_lock_message
from scoring.rules.tables import sides_for
from scoring.selectors.board import Scoreboard, scoreboard, settings_of
from scoring.selectors.confirm import awaiting, ok_question
from scoring.services.results import players_of
from scoring.signals import notice_for


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


T = TypeVar("T")


def made_when_used(make: Callable[[], T]) -> T:
    """`make()`, worked out only when first used (a SimpleLazyObject, which stands in for it)."""
    return cast(T, SimpleLazyObject(make))


def hand_form(game: Game, data: QueryDict | None, **kwargs: Any) -> HandForm:
    players = made_when_used(lambda: players_of(game))
    return HandForm(data, settings=settings_of(game), players=players, **kwargs)


def form_urls(game: Game, edit_number: int | None) -> dict[str, Any]:
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


def game_page_html(
    request: HttpRequest, game: Game, *, mode: str, board: Scoreboard | None = None, **extra: Any
) -> str:
    """The whole game page, drawn for this request (its CSRF token, a fresh submission id, its messages)."""
    return render_to_string(
        "scoring/game.html", {**game_context(request, game, mode, board), **extra}, request
    )


def game_html(
    request: HttpRequest, game: Game, *, mode: str, board: Scoreboard | None = None, **extra: Any
) -> str:
    """The #game fragment (an htmx request's answer), with a fresh entry form for editors."""
    return render_to_string(
        "scoring/game.html#game", {**game_context(request, game, mode, board), **extra}, request
    )


def game_context(request: HttpRequest, game: Game, mode: str, board: Scoreboard | None) -> dict[str, Any]:
    """The game page with a fresh entry form (a new submission id) for editors."""
    if board is None:
        board = scoreboard(game)
    context = board_context(request, game, board, mode=mode)
    if mode == "edit":
        initial = {"number": board.next_number, "submission_id": uuid.uuid4(), "meld_mode": game.meld_mode}
        undone = _undone_hand(request, game, board.next_number)
        if undone is not None:  # a hand just undone: its values back on the form, to fix and save again
            if undone.get("melds"):
                initial["meld_mode"] = Game.MeldMode.ITEMS
            initial.update(hand_initial(undone, board.settings, board.next_number))
        context["form"] = HandForm(initial=initial, settings=board.settings, players=board.players)
        if undone is None:
            # Everything a blank entry form's fields show besides the language and the game's address
            # (the template keeps them drawn under this key: a hand's save draws only what changed).
            context["blank_form_key"] = repr((board.settings, sorted(board.players.items()), game.meld_mode))
    return context


def undone_key(game: Game) -> str:
    """The session key under which Undo leaves the values of the hand it deleted (for the next page)."""
    return f"scoring:undone:{game.code}"


def _undone_hand(request: HttpRequest, game: Game, next_number: int) -> dict[str, Any] | None:
    """The stored values of the hand Undo just deleted, once (taken from the session), if that hand
    is still the one to enter next."""
    session = getattr(request, "session", None)
    undone = session.pop(undone_key(game), None) if session is not None else None
    if (
        isinstance(undone, dict)
        and undone.get("number") == next_number
        and isinstance(undone.get("data"), dict)
    ):
        return dict(undone["data"])
    return None


def board_context(request: HttpRequest, game: Game, board: Scoreboard, *, mode: str) -> dict[str, Any]:
    """What the game fragment shows besides the form: only what everyone in `mode` may see."""
    edited, deleted = _corrections(game)
    version = game_settings.version(game)
    if mode == "share":
        live = ("scoring:game_shared_live", game.share_code)
        table = ("scoring:game_shared_table", game.share_code)
    else:
        live = ("scoring:game_live", game.code)
        table = ("scoring:game_table", game.code)
    context: dict[str, Any] = {
        "board": board,
        "game": game,
        "editable": mode == "edit",
        "shared": mode == "share",
        "live_url": f"{reverse(live[0], args=[live[1]])}?v={version}",
        "table_url": reverse(table[0], args=[table[1]]),
        "next_number": board.next_number,
        "edited": edited,
        "deleted": deleted,
        "blank_rows": range(1, 21),  # the printed backup pad's rows
        "plan_notice": notice_for(game),  # a club night's round: hands or minutes left, what comes next
        **form_urls(game, None),
    }
    context.update(_final_context(request, game, board, mode=mode))
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


def _final_context(request: HttpRequest, game: Game, board: Scoreboard, *, mode: str) -> dict[str, Any]:
    """The opponents' OK and the signatures (scoring/services/confirm.py): which hands wait for
    their OK (a query only while one does), the first of them for the phone to confirm, and the
    game's signatures once it is over. Nothing for a game without these rules."""
    context: dict[str, Any] = {}
    waiting = awaiting(game)
    if waiting:
        context["unconfirmed"] = {hand.number for hand in waiting}
        if mode == "edit":
            context["awaiting"] = ok_question(game, board, waiting)
    if game.sign_at_end and game.finished:
        signatures = game.signatures or {}
        context["signing"] = {
            "sides": [
                {
                    "side": side,
                    "label": side_label(side, board.players),
                    "at": parse_datetime(str(signatures[side])) if side in signatures else None,
                }
                for side in sides_for(game.seats)
            ],
            "can_sign": mode != "share" and not waiting and can_sign_game(request, game),
            "action": reverse("scoring:game_sign", args=[game.code]),
        }
    if game.signed_at is not None:
        context["signed_note"] = signed_lock_message(game)
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


def render_game(request: HtmxHttpRequest, board: Scoreboard, form: HandForm, **extra: Any) -> HttpResponse:
    template = "scoring/game.html#game" if request.htmx else "scoring/game.html"
    if form.is_bound:
        form.focus_first_error()
    context = {**board_context(request, board.game, board, mode="edit"), "form": form, **extra}
    return render(request, template, context)
