"""The league's part of the backup: its imports, each with who uploaded which file, how many games
it wrote or why it was refused, and when; every field of every row, with its id (`backups.rows`).

An import still running is left out, with the upload waiting for it: its games are hidden until
it ends, and the games' part leaves them out too.

An import keeps its problems as [{"line": number or null, "message": text}, …], which its page
lists: problems of any other shape are refused, naming the row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backups import parts
from backups.rows import BackupRefused
from league.models import ImportBatch

_ROWS = parts.whole_app(
    "league",
    derived={
        "league.ImportFile": "transient: an upload waiting for its import, deleted when the import ends",
        "league.PendingGame": "transient: the hidden games of an import still running (left out with"
        " it), deleted when the import ends",
    },
    chosen={
        "league.ImportBatch": lambda: ImportBatch.objects.filter(
            status__in=(ImportBatch.Status.DONE, ImportBatch.Status.REFUSED)
        ),
    },
)


def is_a_problem(problem: Any) -> bool:
    """One problem as an import keeps it (`league.imports.batch`): a line (or none) and a message."""
    if not isinstance(problem, dict) or set(problem) != {"line", "message"}:
        return False
    line = problem["line"]
    line_ok = line is None or (isinstance(line, int) and not isinstance(line, bool))
    return line_ok and isinstance(problem["message"], str)


def _load(data: Mapping[str, Any]) -> dict[str, int]:
    assert _ROWS.load is not None
    counts = _ROWS.load(data)  # every row checked against its column, or refused
    for index, row in enumerate(data["league"].get("ImportBatch", []), start=1):
        problems = row.get("problems", [])
        if not (isinstance(problems, list) and all(is_a_problem(problem) for problem in problems)):
            raise BackupRefused(
                f"league.ImportBatch[{index}]: 'problems' is not a list of {{'line', 'message'}} objects"
            )
    return counts


PART = parts.Part(_ROWS.holds, _ROWS.derived, _ROWS.dump, _load)
