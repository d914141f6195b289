"""Writes that change who may edit a game: its device edit token, handover, share code.

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
from django.db import transaction
from django.utils import timezone

from scoring.models import Game


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
