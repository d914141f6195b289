"""The league's part of the backup: its imports, each with who uploaded which file, how many games
it wrote or why it was refused, and when; every field of every row, with its id (`backups.rows`).

An import still running is left out, with the upload waiting for it: its games are hidden until
it ends, and the games' part leaves them out too."""

from __future__ import annotations

from backups import parts
from league.models import ImportBatch

PART = parts.whole_app(
    "league",
    derived={
        "league.ImportFile": "transient: an upload waiting for its import, deleted when the import ends",
    },
    chosen={
        "league.ImportBatch": lambda: ImportBatch.objects.filter(
            status__in=(ImportBatch.Status.DONE, ImportBatch.Status.REFUSED)
        ),
    },
)
