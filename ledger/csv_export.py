"""A player's monthly statement as CSV, written like the league's CSV files (UTF-8 with a byte order
mark, `\\r\\n`, every text cell neutralised against formula injection by `core.spreadsheet`)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from django.utils.translation import gettext as _

from core.spreadsheet import csv_lines, neutralise
from ledger.balances import StatementPage
from ledger.compute import CENT, CHIPS, Line

COLUMNS = ["date", "entry", "player", "unit", "amount", "balance"]


def statement_lines(page: StatementPage) -> Iterator[str]:
    """Header, one "carried in" row per unit, then a row per line: the other player of a payment
    in its own column (a name is text a spreadsheet must not run)."""
    return csv_lines(COLUMNS, _rows(page))


def _rows(page: StatementPage) -> Iterator[list[object]]:
    first = page.month.isoformat()
    for unit in page.units:
        yield [first, "carried in", "", unit, "", number(page.statement.opening.get(unit, Decimal(0)), unit)]
    for line in page.statement.lines:
        other = page.names.get(line.other, "") if line.other is not None else ""
        yield [line.date, line.kind, neutralise(other), line.unit, number(line.amount, line.unit),
               number(line.balance, line.unit)]  # fmt: skip


def number(value: Decimal, unit: str) -> str:
    """Chips as a whole number, money with two decimals and a point (as the league's CSV files)."""
    return str(int(value)) if unit == CHIPS else str(value.quantize(CENT))


def describe(page: StatementPage, line: Line) -> str:
    """The words of a line: "Night result", "Paid Anna", "Received from Bo"."""
    if line.kind == "night":
        return _("Night result")
    name = page.names.get(line.other or 0, "?")
    if line.kind == "paid":
        return _("Paid %(name)s") % {"name": name}
    return _("Received from %(name)s") % {"name": name}
