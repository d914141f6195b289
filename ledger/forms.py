"""The mark-paid form: one suggested payment as the page showed it, and the form's one-time token."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.models import Payment
from scoring.forms import PlainDecimalField, WholeNumberField


class MarkPaidForm(forms.Form):
    # Plain digits only (issue 13, point 17): `0_1` or a full-width digit names no player here.
    payer = WholeNumberField(label=_("Payer"), min_value=1, max_value=2**31 - 1)
    payee = WholeNumberField(label=_("Payee"), min_value=1, max_value=2**31 - 1)
    amount = PlainDecimalField(
        label=_("Amount"), min_value=Decimal("0.01"), max_digits=12, decimal_places=2, localize=False
    )
    unit = forms.ChoiceField(label=_("Unit"), choices=Payment.Unit.choices)
    token = forms.UUIDField(label=_("Form"))

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("payer") is not None and data.get("payer") == data.get("payee"):
            self.add_error("payee", _("A player cannot pay themselves."))
        return data

    def problems(self) -> list[str]:
        """Each error with the label of its field ("Amount: Enter a number.")."""
        return [
            f"{self.fields[name].label}: {message}" if name in self.fields else str(message)
            for name, messages in self.errors.items()
            for message in messages
        ]
