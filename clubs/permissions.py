"""Club roles: who may read, score for, or run a club. The checks club, table and league views call.

- Organisers manage roster, seasons and roles, and correct any game of the club, finished ones too.
- Scorers create club games and enter and correct hands while a game is in progress.
- Members read the club's games and records.
- A superuser counts as an organiser of every club.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from clubs.models import ClubRole, Player

AnyUser: TypeAlias = AbstractBaseUser | AnonymousUser


def role_in_club(user: AnyUser, club_id: int) -> str | None:
    """The user's role in the club ("organiser", "scorer", "member"), or None."""
    if not user.is_authenticated:
        return None
    if getattr(user, "is_superuser", False):
        return ClubRole.Role.ORGANISER
    return ClubRole.objects.filter(user=user, club_id=club_id).values_list("role", flat=True).first()


def can_view_club(user: AnyUser, club_id: int) -> bool:
    """Any role: read the club's games, corrections list excepted."""
    return role_in_club(user, club_id) is not None


def can_score_for_club(user: AnyUser, club_id: int) -> bool:
    """Organisers and scorers: create club games and enter hands in them."""
    return role_in_club(user, club_id) in (ClubRole.Role.ORGANISER, ClubRole.Role.SCORER)


def can_correct_club_game(user: AnyUser, club_id: int) -> bool:
    """Organisers: correct any game of the club, finished ones included."""
    return role_in_club(user, club_id) == ClubRole.Role.ORGANISER


def can_manage_club(user: AnyUser, club_id: int) -> bool:
    """Organisers: roster, seasons, roles, and the club's list of corrections."""
    return role_in_club(user, club_id) == ClubRole.Role.ORGANISER


def viewable_club_ids(user: AnyUser) -> set[int] | None:
    """The clubs whose records the user may read, or None for all of them (a superuser)."""
    if not user.is_authenticated:
        return set()
    if getattr(user, "is_superuser", False):
        return None
    return set(ClubRole.objects.filter(user=user).values_list("club_id", flat=True))


def organised_club_ids(user: AnyUser) -> set[int] | None:
    """The clubs the user organises, or None for all of them (a superuser)."""
    if not user.is_authenticated:
        return set()
    if getattr(user, "is_superuser", False):
        return None
    roles = ClubRole.objects.filter(user=user, role=ClubRole.Role.ORGANISER)
    return set(roles.values_list("club_id", flat=True))


def scoring_club_ids(user: AnyUser) -> set[int] | None:
    """The clubs the user may file games in (organiser or scorer), or None for all (a superuser)."""
    if not user.is_authenticated:
        return set()
    if getattr(user, "is_superuser", False):
        return None
    roles = ClubRole.objects.filter(user=user, role__in=[ClubRole.Role.ORGANISER, ClubRole.Role.SCORER])
    return set(roles.values_list("club_id", flat=True))


def may_merge_players(user: AnyUser, *players: Player) -> bool:
    """Merging players: organisers of every club the players are on (a player in no club:
    superusers only). The web merge and the admin's merge action both ask here."""
    if user.is_authenticated and getattr(user, "is_superuser", False):
        return True
    club_ids = {club.pk for player in players for club in player.clubs.all()}
    return bool(club_ids) and all(can_manage_club(user, club_id) for club_id in club_ids)


# How each model reaches its club, for scoping a staff organiser's choices to the clubs they
# organise (clubs/admin.py). A model not named here offers a non-superuser nothing.
CLUB_PATHS: dict[str, str] = {
    "clubs.club": "pk",
    "clubs.season": "club",
    "clubs.player": "memberships__club",
    "clubs.membership": "club",
    "clubs.clubrole": "club",
    "auth.user": "club_roles__club",
}


def club_scoped(queryset: QuerySet[Any], club_ids: set[int] | None) -> QuerySet[Any]:
    """The rows of `queryset` that belong to one of `club_ids` (None: every row, for a superuser)."""
    if club_ids is None:
        return queryset
    path = CLUB_PATHS.get(queryset.model._meta.label_lower)
    if path is None:
        return queryset.none()
    return queryset.filter(**{f"{path}__in": club_ids}).distinct()
