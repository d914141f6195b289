"""A hand the phone that lost the scoring still had on its form (another phone took over, or it
was handed over): kept as text for the table to give to the phone that scores now.

The values are the entry form's fields (name, value), as the form posted them or as the page's
script kept them (the draft and outbox of static/js/table.js); `field_labels` names them in the
page's language, so that the server and the script write the same lines ("Bid: 24")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scoring.forms.hand import HandForm
from scoring.labels import MELD_NAMES, seat_label

#: Fields of the entry form that are not what the table entered.
NOT_ENTERED = ("csrfmiddlewaretoken", "submission_id", "number", "step", "meld_mode", "undo")


def field_labels(form: HandForm) -> dict[str, dict[str, Any]]:
    """Each entry field's label and, for a choice, its choices' labels ({"bid": {"label": "Bid"}})."""
    labels: dict[str, dict[str, Any]] = {}
    for name, field in form.fields.items():
        if name in NOT_ENTERED:
            continue
        entry: dict[str, Any] = {"label": str(field.label)}
        choices = getattr(field, "choices", None)
        if choices:
            entry["choices"] = {str(value): str(label) for value, label in choices if value != ""}
        labels[name] = entry
    for seat in form.settings.seat_letters:
        for item in form.items:
            labels[f"meld_{seat}_{item.name}"] = {
                "label": f"{seat_label(seat, form.players)}: {MELD_NAMES[item.name]}"
            }
    return labels


def unsent_lines(labels: dict[str, dict[str, Any]], fields: Iterable[tuple[str, str]]) -> list[str]:
    """The entered values as lines a person reads ("Bidder: South (Cecilia)", "Bid: 24"); empty
    values, zero counts and fields the form does not have are left out."""
    lines = []
    for name, value in fields:
        known = labels.get(name)
        value = value.strip()
        if known is None or value in ("", "0", "off") or (name == "slam" and not value):
            continue
        choices = known.get("choices")
        if choices is not None:
            lines.append(f"{known['label']}: {choices.get(value, value)}")
        elif value == "on":
            lines.append(str(known["label"]))
        else:
            lines.append(f"{known['label']}: {value}")
    return lines
