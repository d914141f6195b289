"""Writes that change who may do what: club roles, a game's edit token, handover and share codes.

Tokens are 256-bit secrets from `secrets`; only their SHA-256 is stored, so a copy of the database
does not give anyone the edit right to a game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.access_models import ClubRole
from scoring.models import Game, new_game_code


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Constant-time check of a presented token against a stored hash; an empty hash never matches."""
    return bool(stored_hash) and hmac.compare_digest(token_hash(token), stored_hash)


def issue_edit_token(*, game: Game, user: AbstractBaseUser | AnonymousUser | None = None) -> str:
    """A new edit token for the game; whoever held the previous one loses the edit right.

    Given a signed-in user, they are recorded as the game's creator (if none is yet), which keeps
    their edit right on any device they sign in on.
    """
    token = secrets.token_urlsafe(32)
    game.edit_token_hash = token_hash(token)
    fields = ["edit_token_hash"]
    if user is not None and user.is_authenticated and game.created_by_id is None:
        game.created_by = user  # type: ignore[assignment]
        fields.append("created_by")
    game.save(update_fields=fields)
    return token


def start_handover(*, game: Game) -> str:
    """A one-time secret that passes the edit right to the device that claims it (a newer one
    replaces an older one); it expires after HANDOVER_LINK_MINUTES."""
    token = secrets.token_urlsafe(32)
    game.handover_token_hash = token_hash(token)
    game.handover_expires_at = timezone.now() + timedelta(minutes=settings.HANDOVER_LINK_MINUTES)
    game.save(update_fields=["handover_token_hash", "handover_expires_at"])
    return token


def handover_is_open(*, game: Game, token: str) -> bool:
    """Whether `token` is the game's current, unexpired handover secret (nothing is changed)."""
    expires = game.handover_expires_at
    return expires is not None and expires > timezone.now() and token_matches(token, game.handover_token_hash)


@transaction.atomic
def claim_handover(*, game: Game, token: str) -> str | None:
    """Use the handover secret once: returns a new edit token for the claiming device (the old
    device loses the right), or None when the secret is wrong, used or expired."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if not handover_is_open(game=locked, token=token):
        return None
    locked.handover_token_hash = ""
    locked.handover_expires_at = None
    locked.save(update_fields=["handover_token_hash", "handover_expires_at"])
    new_token = issue_edit_token(game=locked)
    game.refresh_from_db()
    return new_token


def rotate_share_code(*, game: Game) -> str:
    """A new read-only share code; the old share link stops working."""
    game.share_code = new_game_code()
    game.save(update_fields=["share_code"])
    return game.share_code


def _is_organiser(user: AbstractBaseUser | AnonymousUser, club_id: int) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return ClubRole.objects.filter(user=user, club_id=club_id, role=ClubRole.Role.ORGANISER).exists()


@transaction.atomic
def set_club_role(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    user: AbstractBaseUser,
    club_id: int,
    role: str | None,
) -> ClubRole | None:
    """Give `user` the role in the club (None removes them). Only an organiser may do it
    (PermissionDenied otherwise, nothing written); the club's last organiser cannot step down."""
    if not _is_organiser(actor, club_id):
        raise PermissionDenied(_("Only an organiser of the club can change roles."))
    if role is not None and role not in ClubRole.Role.values:
        raise ValidationError(_("Unknown role: %(role)s") % {"role": role}, code="invalid_role")
    roles = ClubRole.objects.select_for_update().filter(club_id=club_id)
    current = roles.filter(user=user).first()
    if (
        current is not None
        and current.role == ClubRole.Role.ORGANISER
        and role != ClubRole.Role.ORGANISER
        and not roles.filter(role=ClubRole.Role.ORGANISER).exclude(user=user).exists()
    ):
        raise ValidationError(_("A club needs at least one organiser."), code="last_organiser")
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
