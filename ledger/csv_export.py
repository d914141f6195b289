"""A player's monthly statement as CSV, written like the league's CSV files (UTF-8 with a byte order
mark, `\\r\\n`, every text cell neutralised against formula injection by `league.csv_io`)."""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext as _

from league.csv_io import csv_lines, neutralise
from ledger.compute import Line
from ledger.selectors import StatementPage

COLUMNS = ["date", "entry", "unit", "amount", "balance"]


def statement_lines(page: StatementPage) -> Iterator[str]:
    header = [_("date"), _("entry"), _("unit"), _("amount"), _("balance")]
    return csv_lines(header, _rows(page))


def _rows(page: StatementPage) -> Iterator[list[object]]:
    first = page.month.isoformat()
    for unit in page.units:
        yield [first, neutralise(_("carried in")), unit, "", str(page.statement.opening.get(unit, 0))]
    for line in page.statement.lines:
        yield [line.date, neutralise(describe(page, line)), line.unit, str(line.amount), str(line.balance)]


def describe(page: StatementPage, line: Line) -> str:
    """The words of a line: "Club night 2026-11-05", "Paid Anna", "Received from Bo"."""
    if line.kind == "night":
        night = page.nights[line.ref]
        return _("Club night %(date)s") % {"date": night.played_on.isoformat()}
    name = page.names.get(line.other or 0, "?")
    if line.kind == "paid":
        return _("Paid %(name)s") % {"name": name}
    return _("Received from %(name)s") % {"name": name}
