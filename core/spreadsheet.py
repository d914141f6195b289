"""CSV a spreadsheet opens safely: every text cell neutralised against formula injection (OWASP
CSV injection), a UTF-8 BOM first so spreadsheet programs read the letters right, lines yielded in
chunks so a long export streams."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator, Sequence

BOM = "\ufeff"
LINES_PER_CHUNK = 2000

_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "'")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def neutralise(value: object) -> object:
    """A cell a spreadsheet shows as text, never runs as a formula (OWASP CSV injection).

    A text cell starting with = + - @ tab or CR gets a leading apostrophe; so does one starting
    with an apostrophe, so `unneutralise` can undo exactly what was added. Numbers stay numbers,
    and so does text that is a plain number (-22).

    >>> [neutralise(v) for v in ("=HYPERLINK(1)", "+cmd", "@SUM(A1)", -22, "-22", "Åsa", "'x", True)]
    ["'=HYPERLINK(1)", "'+cmd", "'@SUM(A1)", -22, '-22', 'Åsa', "''x", '1']
    """
    if value.__class__ is str:
        text = str(value)
        if text and text[0] in _TRIGGERS and not _NUMBER.fullmatch(text):
            return "'" + text
        return text
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return value
    return neutralise(str(value))


def unneutralise(text: str) -> str:
    if len(text) > 1 and text[0] == "'" and text[1] in _TRIGGERS:
        return text[1:]
    return text


class _Line:
    """csv.writer target that hands back the line it was given."""

    def write(self, value: str) -> str:
        return value


def csv_lines(header: Sequence[str], rows: Iterable[Sequence[object]]) -> Iterator[str]:
    """BOM + header + rows as CSV text, yielded in chunks of about LINES_PER_CHUNK rows.

    The rows come neutralised already (`neutralise`): their generators know which cells are text,
    and a game's cells, repeated on each of its hands, are neutralised once per game.
    """
    writer = csv.writer(_Line())
    yield BOM + writer.writerow(header)
    batch: list[str] = []
    for row in rows:
        batch.append(writer.writerow(row))
        if len(batch) >= LINES_PER_CHUNK:
            yield "".join(batch)
            batch = []
    if batch:
        yield "".join(batch)
