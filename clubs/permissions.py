"""Club roles: who may read, score for, or run a club. The checks club, table and league views call.

- Organisers manage roster, seasons and roles, and correct any game of the club, finished ones too.
- Scorers create club games and enter and correct hands while a game is in progress.
- Members read the club's games and records.
- A superuser counts as an organiser of every club (`is_site_admin`, the one place that asks).

Views with a club in their URL use `require_club_role`; every refusal, here and in the other apps,
is `deny(request)`: the login page for an anonymous visitor, 403 for a signed-in one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import wraps
from typing import Concatenate, ParamSpec, TypeAlias, TypeVar

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404
from django_htmx.http import HttpResponseClientRedirect

from clubs.models import Club, ClubRole, Player, Season
from throttles.address import client_address
from throttles.counter import over_limit

AnyUser: TypeAlias = AbstractBaseUser | AnonymousUser
# A guarded view keeps its own signature (its request type, its URL arguments); its answer may also
# be the refusal.
Req = TypeVar("Req", bound=HttpRequest)
Args = ParamSpec("Args")
Answer = TypeVar("Answer", bound=HttpResponseBase)
SCORERS = (ClubRole.Role.ORGANISER, ClubRole.Role.SCORER)


def is_site_admin(user: AnyUser) -> bool:
    """A signed-in superuser: an organiser of every club. The one place that asks."""
    return bool(user.is_authenticated and getattr(user, "is_superuser", False))


def role_in_club(user: AnyUser, club_id: int) -> str | None:
    """The user's role in the club ("organiser", "scorer", "member"), or None."""
    if not user.is_authenticated:
        return None
    if is_site_admin(user):
        return ClubRole.Role.ORGANISER
    return ClubRole.objects.filter(user_id=user.pk, club_id=club_id).values_list("role", flat=True).first()


def can_view_club(user: AnyUser, club_id: int) -> bool:
    """Any role: read the club's games, corrections list excepted."""
    return role_in_club(user, club_id) is not None


def can_score_for_club(user: AnyUser, club_id: int) -> bool:
    """Organisers and scorers: create club games and enter hands in them."""
    return role_in_club(user, club_id) in SCORERS


def can_manage_club(user: AnyUser, club_id: int) -> bool:
    """Organisers: roster, seasons, roles, publishing, correcting finished games, the club's list of
    corrections."""
    return role_in_club(user, club_id) == ClubRole.Role.ORGANISER


def club_ids_where(user: AnyUser, roles: Collection[str]) -> set[int] | None:
    """The clubs where the user holds one of the roles, or None for all of them (a superuser)."""
    if not user.is_authenticated:
        return set()
    if is_site_admin(user):
        return None
    return set(ClubRole.objects.filter(user_id=user.pk, role__in=roles).values_list("club_id", flat=True))


def viewable_club_ids(user: AnyUser) -> set[int] | None:
    """The clubs whose records the user may read, or None for all of them (a superuser)."""
    return club_ids_where(user, ClubRole.Role.values)


def organised_club_ids(user: AnyUser) -> set[int] | None:
    """The clubs the user organises, or None for all of them (a superuser)."""
    return club_ids_where(user, [ClubRole.Role.ORGANISER])


def scoring_club_ids(user: AnyUser) -> set[int] | None:
    """The clubs the user may file and import games in (organiser or scorer), or None for all."""
    return club_ids_where(user, SCORERS)


# --- the one way to refuse, and the club-role decorator ---------------------------------------


def deny(request: HttpRequest) -> HttpResponse:
    """The answer to a request without the right: the login page for an anonymous visitor (an
    htmx request is sent there as a whole page), 403 for a signed-in user."""
    if request.user.is_authenticated:
        raise PermissionDenied
    htmx = getattr(request, "htmx", None)
    if htmx:
        back = htmx.current_url_abs_path or request.get_full_path()
        return HttpResponseClientRedirect(redirect_to_login(back).url)
    return redirect_to_login(request.get_full_path())


def role_changes_throttled(request: HttpRequest) -> bool:
    """Count one post of a club's roles form (it names an account by its username) for the signed-in
    user and for the client address; True when either has had its limit in the window
    (`ROLE_CHANGES_PER_ACCOUNT`, `ROLE_CHANGES_PER_ADDRESS`, `ACCOUNT_THROTTLE_WINDOW_SECONDS`)."""
    return over_limit(
        kind="roles",
        limits={
            "account": (str(request.user.pk), settings.ROLE_CHANGES_PER_ACCOUNT),
            "address": (client_address(request), settings.ROLE_CHANGES_PER_ADDRESS),
        },
        window=settings.ACCOUNT_THROTTLE_WINDOW_SECONDS,
    )


CHECKS: dict[str, Callable[[AnyUser, int], bool]] = {
    "view": can_view_club,
    "score": can_score_for_club,
    "manage": can_manage_club,
}


def season_club(season_id: int) -> int:
    """The club of the season a URL names (404 for an unknown season)."""
    return get_object_or_404(Season.objects.only("club_id"), pk=season_id).club_id


def require_club_role(
    right: str, *, club_of: Callable[..., int] | None = None
) -> Callable[
    [Callable[Concatenate[Req, Args], Answer]], Callable[Concatenate[Req, Args], Answer | HttpResponse]
]:
    """For a view whose URL names a club (`club_id`, or whatever `club_of(**url_kwargs)` reads it
    from): the login page or 403 unless the request's user has the right there ("view": any role,
    "score": scorer or organiser, "manage": organiser); otherwise the view runs unchanged."""
    check = CHECKS[right]

    def decorator(
        view: Callable[Concatenate[Req, Args], Answer],
    ) -> Callable[Concatenate[Req, Args], Answer | HttpResponse]:
        @wraps(view)
        def wrapper(request: Req, /, *args: Args.args, **kwargs: Args.kwargs) -> Answer | HttpResponse:
            # The club first (404 if there is none): an id past the database's integer range then
            # never reaches the role query, where SQLite raised OverflowError (found by bench/fuzz).
            club_id = club_of(**kwargs) if club_of else get_object_or_404(Club, pk=kwargs["club_id"]).pk
            if not check(request.user, club_id):
                return deny(request)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def clubs_not_run(user: AnyUser, *players: Player) -> list[Club]:
    """The clubs the players are on that the user does not organise (none for a superuser), by name."""
    if is_site_admin(user):
        return []
    clubs = {club.pk: club for player in players for club in player.clubs.all()}
    return sorted((c for c in clubs.values() if not can_manage_club(user, c.pk)), key=lambda c: c.name)


def may_change_player(user: AnyUser, *players: Player) -> bool:
    """Changing a player — renaming them, inviting someone to their place (which ties an account
    to them), merging — needs the organiser's right in every
    club the players are on (a player in no club: superusers only). A player on two clubs' rosters
    belongs to neither organiser alone. Every web page that changes a player and its service ask
    here; `clubs_not_run` names the clubs that refuse it."""
    if is_site_admin(user):
        return True
    return any(player.clubs.all() for player in players) and not clubs_not_run(user, *players)
