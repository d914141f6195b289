"""Signal receivers: the stored ratings follow every change of the games they come from."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, pre_delete
from django.dispatch import receiver

from clubs.models import Player
from ratings import services
from scoring.models import Game
from scoring.signals import game_changed, games_changed

# The rating scopes a game or player being deleted was in, read before the delete (pre_delete) and
# recomputed after it (post_delete), by model and primary key.
_scopes_before_delete: dict[tuple[type[Any], Any], set[str]] = {}


@receiver(game_changed)
def _game_changed(sender: Any, *, game: Game, was_finished: bool | None = None, **kwargs: Any) -> None:
    if was_finished is False and not game.finished:
        # Only finished games are rated, and a game that stops being finished loses its points at
        # that change: a game in progress before and after has none to look at (a query per save).
        return
    services.game_changed(game)


@receiver(games_changed)
def _games_changed(sender: Any, *, games: list[Game], **kwargs: Any) -> None:
    """Many games' results rewritten at once: the scopes they were or now are in, recomputed once."""
    before = services.scopes_of_games([game.pk for game in games])
    now = services.scopes_for_clubs({game.club_id for game in games if game.finished})
    services.recompute_scopes(before | now)


@receiver(pre_delete, sender=Game)
def _note_game_scopes(sender: Any, instance: Game, **kwargs: Any) -> None:
    _scopes_before_delete[Game, instance.pk] = services.scopes_of_games([instance.pk])


@receiver(post_delete, sender=Game)
def _game_deleted(sender: Any, instance: Game, **kwargs: Any) -> None:
    services.recompute_scopes(_scopes_before_delete.pop((Game, instance.pk), set()))


@receiver(pre_delete, sender=Player)
def _note_player_scopes(sender: Any, instance: Player, **kwargs: Any) -> None:
    _scopes_before_delete[Player, instance.pk] = services.scopes_of_player(instance.pk)


@receiver(post_delete, sender=Player)
def _player_deleted(sender: Any, instance: Player, **kwargs: Any) -> None:
    """A merged duplicate goes after its seats moved to the kept player: rerate where it played."""
    services.recompute_scopes(_scopes_before_delete.pop((Player, instance.pk), set()))
