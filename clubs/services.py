"""Club writes: rosters, merging players, club roles.

Keyword-only, typed, one transaction each (STYLE.md). A player's games are reached through the
reverse relation `Player.seats` (scoring's GameSeat points here), so this module imports nothing
from the table; statistics follow a seat's player, so merging rewrites no derived rows.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club, ClubRole, Membership, Player
from clubs.permissions import can_manage_club, may_merge_players


@transaction.atomic
def add_player(*, club: Club, name: str) -> Player:
    """A new player on the club's roster."""
    name = name.strip()
    if not name:
        raise ValidationError(_("A player needs a name."))
    player = Player.objects.create(name=name)
    Membership.objects.create(club=club, player=player)
    return player


@transaction.atomic
def merge_players(*, keep: Player, duplicate: Player) -> Player:
    """Fold `duplicate` into `keep`: seats, rosters and so every statistic move; the duplicate goes.

    Refused when both sat in the same game: they are then two people, not one entered twice.
    """
    if keep.pk == duplicate.pk:
        raise ValidationError(_("A player cannot be merged with themselves."))
    shared = keep.seats.filter(game__seat_rows__player=duplicate).values("game__code")[:1]
    if shared:
        raise ValidationError(
            _("%(a)s and %(b)s played in the same game (%(code)s), so they are two people.")
            % {"a": keep.name, "b": duplicate.name, "code": shared[0]["game__code"]}
        )
    duplicate.seats.update(player=keep)
    have = set(Membership.objects.filter(player=keep).values_list("club_id", flat=True))
    Membership.objects.filter(player=duplicate).exclude(club_id__in=have).update(player=keep)
    duplicate.delete()  # its remaining memberships (clubs both were in) cascade
    return keep


@transaction.atomic
def merge_players_as(*, actor: AbstractBaseUser | AnonymousUser, keep: Player, duplicate: Player) -> Player:
    """`merge_players` for a person: refused (PermissionDenied, nothing written) unless the actor
    organises every club both players are on. The web merge and the admin's action call this."""
    if not may_merge_players(actor, keep, duplicate):
        raise PermissionDenied(_("Only an organiser of every club of both players can merge them."))
    return merge_players(keep=keep, duplicate=duplicate)


def check_role_change(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    user: AbstractBaseUser,
    club_id: int,
    role: str | None,
) -> None:
    """Whether `actor` may give `user` this role in the club (None: remove them): PermissionDenied
    unless an organiser; ValidationError for an unknown role or when the club would be left without
    an organiser. `set_club_role` checks this again under a lock; forms call it to show the message."""
    if not can_manage_club(actor, club_id):
        raise PermissionDenied(_("Only an organiser of the club can change roles."))
    if role is not None and role not in ClubRole.Role.values:
        raise ValidationError(_("Unknown role: %(role)s") % {"role": role}, code="invalid_role")
    roles = ClubRole.objects.filter(club_id=club_id)
    current = roles.filter(user=user).first()
    if (
        current is not None
        and current.role == ClubRole.Role.ORGANISER
        and role != ClubRole.Role.ORGANISER
        and not roles.filter(role=ClubRole.Role.ORGANISER).exclude(user=user).exists()
    ):
        raise ValidationError(_("A club needs at least one organiser."), code="last_organiser")


_SCORING_ROLES = (ClubRole.Role.ORGANISER, ClubRole.Role.SCORER)


@transaction.atomic
def set_club_role(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    user: AbstractBaseUser,
    club_id: int,
    role: str | None,
) -> ClubRole | None:
    """Give `user` the role in the club (None removes them). Only an organiser may do it
    (PermissionDenied otherwise, nothing written); the club's last organiser cannot step down.

    Someone who no longer scores for the club also loses the devices' edit right to the club games
    in progress that they started (their phone, and any phone it was handed over to): the club's
    organisers and scorers carry on signed in, and may hand the scoring to a phone again.
    """
    list(ClubRole.objects.select_for_update().filter(club_id=club_id))  # one role change at a time
    check_role_change(actor=actor, user=user, club_id=club_id, role=role)
    current = ClubRole.objects.filter(club_id=club_id, user=user).first()
    if current is not None and current.role in _SCORING_ROLES and role not in _SCORING_ROLES:
        club = Club.objects.get(pk=club_id)
        club.games.filter(created_by=user, finished=False).update(  # type: ignore[attr-defined]
            edit_token_hash="", handover_token_hash="", handover_expires_at=None
        )
    if role is None:
        if current is not None:
            current.delete()
        return None
    if current is None:
        return ClubRole.objects.create(user=user, club_id=club_id, role=role)
    current.role = role
    current.save(update_fields=["role", "updated_at"])
    return current


@transaction.atomic
def grant_founding_organiser(*, user: AbstractBaseUser, club_id: int) -> ClubRole:
    """Make the user who creates a club its first organiser; refused once the club has one."""
    if ClubRole.objects.select_for_update().filter(club_id=club_id, role=ClubRole.Role.ORGANISER).exists():
        raise PermissionDenied(_("This club already has an organiser."))
    role, _created = ClubRole.objects.update_or_create(
        user=user, club_id=club_id, defaults={"role": ClubRole.Role.ORGANISER}
    )
    return role
