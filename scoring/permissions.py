"""Who may see and change a game or a club: the checks every view calls.

Rules:
- A quick game (no club) is edited by the browser that created it (its device record, one signed
  HttpOnly cookie: scoring/devices.py), by the signed-in user who created it, by whoever that
  browser handed the edit right to, and by a phone that took the scoring over with the game's
  recovery code. Everyone else reads it through its share link.
- In a club game, organisers may always correct it; scorers may enter and correct hands while it
  is in progress; once it is finished it is a league record and only organisers change it. Creating a club
  game gives an account no right of its own.
  Every role may read the club's games.
- A superuser counts as an organiser of every club.

One way through: `get_game_for(request, code, edit=...)` fetches a game with the right the request
holds (the decorators `require_game_edit` / `require_game_view` call it for a URL with `code`);
club rights come from clubs.permissions, and every refusal is its `deny(request)`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, Protocol, TypeVar, cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _
from django_htmx.http import HttpResponseClientRedirect

from clubs.models import ClubRole
from clubs.permissions import (
    AnyUser,
    can_manage_club,
    can_view_club,
    deny,
    is_site_admin,
    role_in_club,
    viewable_club_ids,
)
from scoring.audit import Actor
from scoring.devices import (
    browser_device,
    game_with_right,
    grant_game,
    held_game_ids,
    held_game_once,
    holds_game,
    right_lapsed,
    scoring_moved_at,
)
from scoring.handover import record_creator, token_hash, token_matches
from scoring.models import Game
from scoring.refusals import Refused, no_right_page, nothing_to_change, scoring_moved

# A guarded view keeps its own signature (its request type, its URL arguments); its answer may also
# be the refusal.
Req = TypeVar("Req", bound=HttpRequest)
Args = ParamSpec("Args")
Answer = TypeVar("Answer", bound=HttpResponseBase)

#: Told to a phone whose right to a club game ended with its account's scoring role.
RIGHT_LAPSED = _(
    "This phone no longer keeps the score of this game: the account it was given to no longer "
    "scores for the club. It follows the game read-only."
)

#: Told to a phone that would take over a game of a finished club night (nights' own wording).
NIGHT_FINISHED = _("This night is finished: the table links no longer score.")

#: Told to a table's phone (or a scorer) that tries to change what a club night's plan decides.
NIGHT_PLAN_LOCKED = _(
    "This game is a table of a club night: its club, season, date and the players in its seats "
    "follow the night's plan, and only an organiser of the club changes them."
)


# --- the device's edit right (scoring/devices.py) ---------------------------------------------


def scoring_moved_away(request: HttpRequest, game: Game) -> bool:
    """Whether this browser scored the game until another phone took it over or was handed it,
    and that phone scores it now (not a right ended with its account's club role: that phone is
    told why elsewhere)."""
    return (
        held_game_once(request, game)
        and not right_lapsed(request, game)
        and scoring_moved_at(game) is not None
    )


def _to_share_page(request: HttpRequest, game: Game) -> HttpResponse:
    """The read-only page of a game this browser no longer scores. A script's request from the
    game's own page (its scoreboard's poll, or the page asking for the game again) is redirected
    as it is, so that the page swaps the read-only game in without a reload (scoring.views.game's
    `shared_game` answers it for #game); a script's request from any other page reloads to it."""
    url = reverse("scoring:game_shared", args=[game.share_code])
    htmx = getattr(request, "htmx", None)
    if htmx and (htmx.current_url_abs_path or "").split("?")[0] != reverse("scoring:game", args=[game.code]):
        return HttpResponseClientRedirect(url)
    return redirect(url)


def grant_edit_token(request: HttpRequest, game: Game, *, user: AnyUser | None = None) -> None:
    """Give this browser the edit right to the game it just created (the device cookie goes out
    with the response). A signed-in `user` is also recorded as the creator."""
    record_creator(game=game, user=user)
    grant_game(request, game)


# --- games ------------------------------------------------------------------------------------


def can_edit_game(request: HttpRequest, game: Game) -> bool:
    """Whether this request may enter, correct or delete hands of the game."""
    user = request.user
    if is_site_admin(user):
        return True
    club_id = game.club_id
    if club_id is not None:
        role = role_in_club(user, club_id)
        if role == ClubRole.Role.ORGANISER:
            return True
        if game.signed_at is not None:
            return False  # signed by both sides: organisers only
        if game.finished and not game.unconfirmed_hands:
            # A finished club game is a league record: organisers only. Until its hands are all
            # confirmed (scoring/services/confirm.py) the table still corrects the one found wrong.
            return False
        if role == ClubRole.Role.SCORER:
            return True
        # In a club game an account's right comes from its club role alone: a scorer taken off
        # the club no longer edits the games he created. The phone holding the game (the table's
        # phone) still scores; set_club_role ends the phones' rights to such a scorer's games.
        return holds_game(request, game) and not night_is_over(game)
    if game.signed_at is not None:
        return False  # signed by both sides: only a club's organiser (a game of a club) changes it
    return _runs_the_game(request, game)


def decides_for_club(request: HttpRequest, game: Game) -> bool:
    """Whether this request is an organiser of the game's club (or a superuser): its corrections
    of a game whose hands the other side confirms need no further OK."""
    return game.club_id is not None and can_manage_club(request.user, game.club_id)


def may_sign(request: HttpRequest, game: Game) -> bool:
    """Whether this request may sign a game for a side, whatever the game's state (the service
    says whether the game can be signed now): the scoring phone, or the club's organisers and
    scorers; a night its organiser finished signs nothing more."""
    user = request.user
    if is_site_admin(user):
        return True
    club_id = game.club_id
    if club_id is not None:
        role = role_in_club(user, club_id)
        if role == ClubRole.Role.ORGANISER:
            return True
        if night_is_over(game):
            return False  # a scorer or the table's phone: the night's organiser has finished it
        return role == ClubRole.Role.SCORER or holds_game(request, game)
    return _runs_the_game(request, game)


def can_sign_game(request: HttpRequest, game: Game) -> bool:
    """Whether the page offers this request the Sign buttons: a finished game that asks for both
    sides' signatures and is not signed yet (`may_sign`)."""
    if not game.sign_at_end or not game.finished or game.signed_at is not None:
        return False
    return may_sign(request, game)


def signed_lock_message(game: Game) -> str:
    """What a phone is told about a game both sides signed: when, and that only an organiser changes it."""
    when = date_format(localtime(game.signed_at), "TIME_FORMAT") if game.signed_at else ""
    return str(_("Signed by both sides at %(time)s — only an organiser can change it.")) % {"time": when}


def night_is_over(game: Game) -> bool:
    """Whether the game is a table of a club night its organiser has finished: no phone's right
    counts then, however the phone came by it (the table link, a hand-over link started before the
    finish, the recovery code the table's phone showed); organisers still correct. The nights mark
    the game when they finish the night (scoring/services/plans.py): this reads the game's row."""
    return game.club_id is not None and game.planned and game.plan_over


def _runs_the_game(request: HttpRequest, game: Game) -> bool:
    """The browser whose device holds the game, or the signed-in user who created the game."""
    user = request.user
    if user.is_authenticated and game.created_by_id is not None and game.created_by_id == user.pk:
        return True
    return holds_game(request, game)


def night_plan_locked(request: HttpRequest, game: Game) -> bool:
    """Whether the game is a table of a club night and this request is not an organiser of its
    club: its filing, its seats' players and its rules (target, minimum bid, house rule) are the
    night's plan, so a table's phone (or a scorer) scores its hands but changes none of them."""
    club_id = game.club_id
    if club_id is None or not game.planned:
        return False
    return not (is_site_admin(request.user) or role_in_club(request.user, club_id) == ClubRole.Role.ORGANISER)


def can_view_game(request: HttpRequest, game: Game, *, share_code: str | None = None) -> bool:
    """Whether this request may read the game: with its share code, as the device or user running
    it (also once a finished club game is no longer theirs to edit), or with a club role."""
    # Compared as hashes: constant time, and any string a URL may carry is safe to compare.
    if share_code is not None and token_matches(share_code, token_hash(game.share_code)):
        return True
    return can_edit_game(request, game) or _reads_without_editing(request, game)


def _reads_without_editing(request: HttpRequest, game: Game) -> bool:
    """`can_view_game`'s rights beside editing: running the game (also once a finished club game
    is no longer theirs to edit) or a club role."""
    if _runs_the_game(request, game):
        return True
    club_id = game.club_id
    return club_id is not None and can_view_club(request.user, club_id)


def readable_games(request: HttpRequest) -> QuerySet[Game]:
    """The games this browser or user may read: the ones it created or holds the edit right to,
    and those of its clubs (every game for a superuser). Lists show strangers nothing else."""
    user = request.user
    if is_site_admin(user):
        return Game.objects.all()
    clubs = viewable_club_ids(user) or set()
    mine = Q(pk__in=held_game_ids(request)) | Q(club__in=clubs)
    if user.is_authenticated:
        mine |= Q(created_by=user)
    return Game.objects.filter(mine)


def get_shared_game_or_404(share_code: str) -> Game:
    """The game a read-only share link points to (the view renders it without edit controls)."""
    return get_object_or_404(Game, share_code=share_code)


def actor_for(request: HttpRequest) -> Actor:
    """Who the audit trail names for a change made by this request."""
    user = request.user
    if isinstance(user, User) and user.is_authenticated:
        return Actor.of_user(user)
    return Actor.device()


# --- responses and decorators -----------------------------------------------------------------


def get_game_for(request: HttpRequest, code: str, *, edit: bool) -> Game:
    """The game the URL names, if this request may read it (`edit=False`) or change it
    (`edit=True`): 404 for an unknown code, `Refused` otherwise. A phone that handed the scoring
    over is sent to the read-only scoreboard; a phone that never had the right gets the page that
    explains it and offers the take-over with the recovery code (a plain GET); the phone that
    scores the game but may change nothing now stays on it (`nothing_to_change`); else `deny`."""
    game = game_with_right(request, code)
    if game is None:
        raise Http404("no game with this code")
    reading = request.method in ("GET", "HEAD")
    if reading and not getattr(request, "htmx", None) and right_lapsed(request, game):
        messages.warning(request, RIGHT_LAPSED, fail_silently=True)
    editable = can_edit_game(request, game)
    if not (editable or (not edit and _reads_without_editing(request, game))):
        if edit and game.signed_at is not None and _reads_without_editing(request, game):
            # A change of a signed game, sent by the table's phone (or a scorer): nothing is written.
            messages.error(request, signed_lock_message(game), fail_silently=True)
            raise Refused(nothing_to_change(request, game))
        if reading and held_game_once(request, game):
            raise Refused(_to_share_page(request, game))
        if edit and holds_game(request, game):
            raise Refused(nothing_to_change(request, game))
        if edit and request.method == "POST" and scoring_moved_away(request, game):
            raise Refused(scoring_moved(request, game))
        if reading and not getattr(request, "htmx", None):
            raise Refused(no_right_page(request, game))
        raise Refused(deny(request))
    browser_device(request).editable[game.pk] = editable  # what checked_can_edit answers
    return game


class GameRequest(HttpRequest):
    """A request a `require_game` / `require_shared_game` view gets: the game its URL names, read
    once, as `request.game` (read it with `game_of`)."""

    game: Game


class GameGuard(Protocol):
    """What `require_game` makes: a decorator that keeps the view's signature."""

    def __call__(
        self, view: Callable[Concatenate[Req, Args], Answer], /
    ) -> Callable[Concatenate[Req, Args], Answer | HttpResponse]: ...


def require_game(*, edit: bool) -> GameGuard:
    """For a view whose URL has `code`: `get_game_for` before the view runs; a refused request
    gets its answer and the view does not run."""

    def decorator(
        view: Callable[Concatenate[Req, Args], Answer],
    ) -> Callable[Concatenate[Req, Args], Answer | HttpResponse]:
        @wraps(view)
        def wrapper(request: Req, /, *args: Args.args, **kwargs: Args.kwargs) -> Answer | HttpResponse:
            code = kwargs.get("code")
            if code is None:
                raise Http404("no game code in the URL")
            try:
                game = get_game_for(request, str(code), edit=edit)
            except Refused as refused:
                return refused.response
            cast(GameRequest, request).game = game  # from here on, a GameRequest (see `game_of`)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def require_shared_game(
    view: Callable[Concatenate[Req, Args], Answer],
) -> Callable[Concatenate[Req, Args], Answer]:
    """For a view whose URL has `share_code`: the read-only share link's game (404 if none), read
    once and kept as `request.game` for the view and its ETag (`game_of`)."""

    @wraps(view)
    def wrapper(request: Req, /, *args: Args.args, **kwargs: Args.kwargs) -> Answer:
        game = get_shared_game_or_404(str(kwargs.get("share_code") or ""))
        cast(GameRequest, request).game = game  # from here on, a GameRequest (see `game_of`)
        return view(request, *args, **kwargs)

    return wrapper


def game_of(request: HttpRequest, code: str | None = None) -> Game:
    """`request.game`: the game a guarded view's URL names, set by `require_game` (after its
    checks) or `require_shared_game`, so the view and its ETag read it once.

    A view that calls this without one of those guards (or for another game than its URL's `code`)
    is a programming error, refused loudly: reading the game here would skip its checks."""
    game = getattr(request, "game", None)
    if isinstance(game, Game) and (code is None or game.code == code):
        return game
    raise ImproperlyConfigured(
        "game_of() needs a view guarded by require_game_edit, require_game_view or require_shared_game"
    )


def checked_can_edit(request: HttpRequest, game: Game) -> bool:
    """Whether this request may edit the game, as `get_game_for` found it before the view ran (its
    right, role and the night's plan are read once), else asked now. For a view that only reads,
    such as the live poll: one that writes asks `can_edit_game` after its write."""
    known = browser_device(request).editable.get(game.pk)
    return can_edit_game(request, game) if known is None else known


# Stack under the method decorators (@require_POST / @require_safe).
require_game_edit = require_game(edit=True)
require_game_view = require_game(edit=False)
