"""What deleting an import batch does to its games: a batch deleted before it ended (its uploader's
account deleted with it, say) takes its hidden games with it, as a refused one does. A finished
batch has none left (`league.models.PendingGame`): the games it showed stay."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from league.models import ImportBatch
from league.services import discard_pending_games


@receiver(pre_delete, sender=ImportBatch, dispatch_uid="league.discard_games_of_deleted_batch")
def discard_games_of_deleted_batch(*, instance: ImportBatch, **_kwargs: Any) -> None:
    discard_pending_games(batch_id=instance.pk)
