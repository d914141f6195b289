"""Import batches: one upload of games, written in short transactions while its games stay hidden.

A batch is made when an upload is accepted. Its games are checked whole before any write, then
written in chunks of `IMPORT_CHUNK_GAMES` games, each in a short transaction, hidden
(`Game.hidden`: no page, standing, export or count sees them) and each noted as the batch's
(`PendingGame`); the last short transaction shows them all at once. A refused or broken batch
deletes its hidden games, and so does deleting the batch: for the user the import is all or
nothing (league/imports/).

The uploaded file waits in the database (`ImportFile`) until a task worker, on any machine that
shares the database, runs the batch; it is deleted when the batch ends.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ImportBatch(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for its turn")
        CHECKING = "checking", _("checking")
        WRITING = "writing", _("writing")
        DONE = "done", _("imported")
        REFUSED = "refused", _("refused")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    file_name = models.CharField(_("file"), max_length=255, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(_("games in the file"), default=0)
    written = models.PositiveIntegerField(_("games written"), default=0)
    hands = models.PositiveIntegerField(_("hands"), default=0)
    # Why the file was refused: [{"line": int | None, "message": str}, ...]
    problems = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("import")
        verbose_name_plural = _("imports")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.REFUSED)


class ImportFile(models.Model):
    """An upload's bytes, kept where every task worker can read them until its batch has run."""

    batch = models.OneToOneField(ImportBatch, on_delete=models.CASCADE, primary_key=True, related_name="+")
    data = models.BinaryField()

    class Meta:
        verbose_name = _("import file")
        verbose_name_plural = _("import files")

    def __str__(self) -> str:
        return f"file of import {self.batch_id}"


class PendingGame(models.Model):
    """A hidden game an unfinished batch has written: which games to show when the batch is published,
    or to delete when it is refused or deleted (`league.services`). The row goes when the batch ends,
    so only an unfinished batch has any. Scoring knows nothing of it: its game is only `hidden`."""

    batch = models.ForeignKey(ImportBatch, on_delete=models.CASCADE, related_name="+")
    game = models.OneToOneField("scoring.Game", on_delete=models.CASCADE, primary_key=True, related_name="+")

    class Meta:
        verbose_name = _("game being imported")
        verbose_name_plural = _("games being imported")

    def __str__(self) -> str:
        return f"game {self.game_id} of import {self.batch_id}"
