"""What an import reports: its problems (each with the line of the file), the places a file names,
and the refusal of a whole file."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from django.utils.translation import gettext as _

T = TypeVar("T")


# --- import --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    line: int | None
    message: str

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        return _("line %(line)s: %(message)s") % {"line": self.line, "message": self.message}


@dataclass(frozen=True)
class Place:
    """Where games of a file go: the club and season a hands.csv row names (or the upload form
    gives JSON records), and the line that first names them."""

    club: str
    season: str
    line: int | None = None


#: The most problems one file's reading keeps (the batch's page lists at most these): a file of
#: millions of bad rows is refused the same without a Problem held for every row.
MAX_PROBLEMS = 1000
#: The most problems the import pages list (the count above the list says how many there are).
PROBLEMS_SHOWN = 200


class FirstOnes(list[T]):
    """A list that keeps the first `MAX_PROBLEMS` items appended to it: the problems found in a
    file, the engine's errors of one game's hands."""

    def append(self, item: T) -> None:
        if len(self) < MAX_PROBLEMS:
            super().append(item)

    def extend(self, items: Iterable[T]) -> None:
        for item in items:
            self.append(item)


# The uploader's rights over the places a file names: the problems, or [] when they may import.
PlaceCheck = Callable[[Sequence[Place]], list[Problem]]


class ImportRefused(Exception):
    """The file was refused whole; `problems` says where and why, one per bad row."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems[:5]))
        self.problems = list(problems)


def another_import() -> Problem:
    """A game code was taken by another import between the check and the write."""
    return Problem(None, _("another import wrote some of these games just now; try again"))


@dataclass(frozen=True)
class ImportReport:
    games: int
    hands: int
