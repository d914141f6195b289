"""The ledger's forms: marking a proposed payment as paid (the proposal as the page showed it, how
it was paid, and the form's one-time token), and recording any payment that was made."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.ids import IdChoiceField
from clubs.models import Club
from clubs.selectors import roster
from core.fields import PlainDecimalField, WholeNumberField
from ledger.models import Payment


class _Problems:
    errors: Any
    fields: Any

    def problems(self) -> list[str]:
        """Each error with the label of its field ("Amount: Enter a number.")."""
        return [
            f"{self.fields[name].label}: {message}" if name in self.fields else str(message)
            for name, messages in self.errors.items()
            for message in messages
        ]


def _method_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_("How"),
        choices=Payment.Method.choices,
        initial=Payment.Method.CASH,
        required=False,  # a proposal marked without saying how: cash
    )


class MarkPaidForm(_Problems, forms.Form):
    # Plain digits only: `0_1` or a full-width digit names no player here.
    payer = WholeNumberField(label=_("Payer"), min_value=1, max_value=2**31 - 1)
    payee = WholeNumberField(label=_("Payee"), min_value=1, max_value=2**31 - 1)
    amount = PlainDecimalField(
        label=_("Amount"), min_value=Decimal("0.01"), max_digits=12, decimal_places=2, localize=False
    )
    unit = forms.ChoiceField(label=_("Unit"), choices=Payment.Unit.choices)
    method = _method_field()
    token = forms.UUIDField(label=_("Form"))

    def clean_method(self) -> str:
        return self.cleaned_data.get("method") or Payment.Method.CASH

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("payer") is not None and data.get("payer") == data.get("payee"):
            self.add_error("payee", _("A player cannot pay themselves."))
        return data


class _PlayerChoice(IdChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return str(obj.name)


class RecordPaymentForm(_Problems, forms.Form):
    """Any payment that was made: who paid whom, how much and how. The players are the club's
    roster (retired ones too: they may still owe); `units` are those the page settles in (one:
    no choice shown)."""

    payer = _PlayerChoice(label=_("Payer"), queryset=None, empty_label=_("Choose a player"))
    payee = _PlayerChoice(label=_("Payee"), queryset=None, empty_label=_("Choose a player"))
    amount = PlainDecimalField(
        label=_("Amount"), min_value=Decimal("0.01"), max_digits=12, decimal_places=2, localize=False
    )
    unit = forms.ChoiceField(label=_("Unit"), choices=Payment.Unit.choices)
    method = forms.ChoiceField(
        label=_("How"), choices=Payment.Method.choices, initial=Payment.Method.CASH, widget=forms.RadioSelect
    )
    token = forms.UUIDField(label=_("Form"), widget=forms.HiddenInput)

    def __init__(self, *args: Any, club: Club, units: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = roster(club, include_retired=True)
        for name in ("payer", "payee"):
            self.fields[name].queryset = players
            self.fields[name].error_messages["invalid_choice"] = _("Choose a player of this club.")
        unit = self.fields["unit"]
        unit.choices = [(value, label) for value, label in Payment.Unit.choices if value in units]
        unit.initial = units[0] if units else Payment.Unit.MONEY
        if len(units) == 1:
            unit.widget = forms.HiddenInput()
        self.fields["amount"].widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})
        messages = self.fields["amount"].error_messages
        messages["max_decimal_places"] = _("At most two decimals (whole cents).")
        messages["min_value"] = _("The amount must be more than zero.")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        payer, payee = data.get("payer"), data.get("payee")
        if payer is not None and payer == payee:
            self.add_error("payee", _("A player cannot pay themselves."))
        amount = data.get("amount")
        if (
            data.get("unit") == Payment.Unit.CHIPS
            and amount is not None
            and amount != amount.to_integral_value()
        ):
            self.add_error("amount", _("Chips are whole numbers."))
        return data
