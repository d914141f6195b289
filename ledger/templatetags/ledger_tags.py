"""How the ledger writes an amount: money with two decimals in the reader's format, chips as a
whole number, both with a sign ("+3.00", "−12 chips")."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format
from django.utils.translation import ngettext

register = template.Library()


@register.filter
def signed(value: Decimal | int | None, unit: str = "money") -> str:
    if value is None:
        return ""
    number = Decimal(value)
    text = _plain(abs(number), unit)
    if number > 0:
        return "+" + text
    if number < 0:
        return "\u2212" + text
    return text


@register.filter
def amount(value: Decimal | int | None, unit: str = "money") -> str:
    """An amount without a sign, with its unit for chips ("12 chips", "3.00")."""
    if value is None:
        return ""
    number = abs(Decimal(value))
    if unit == "chips":
        count = int(number)
        return ngettext("%(count)s chip", "%(count)s chips", count) % {"count": count}
    return _plain(number, unit)


def _plain(number: Decimal, unit: str) -> str:
    if unit == "chips":
        return str(int(number))
    return number_format(number.quantize(Decimal("0.01")), decimal_pos=2, use_l10n=True)
