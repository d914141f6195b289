"""A hand the phone that lost the scoring still had on its form (another phone took over, or it
was handed over): kept as text for the table to give to the phone that scores now.

The values are the entry form's fields (name, value), as the form posted them or as the page's
scripts kept them (the draft of static/js/table.js, the outbox of static/js/outbox.js);
`field_labels` names them in the page's language, so that the server and the script write the
same lines ("Bid: 24")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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


#: For a message with a count the page's script fills in: a sample count of each CLDR plural
#: category the site's languages use (English and Swedish: one, other; Czech: one, few, other). The
#: script picks the category's form with Intl.PluralRules.
PLURAL_SAMPLES = (("one", 1), ("few", 2), ("other", 5))


def unsent_strings() -> dict[str, Any]:
    """What static/js/moved.js says about the hands this phone did not get saved, in the page's
    language (`{number}` stands for a hand number)."""
    return {
        "title": {
            category: ngettext(
                "%(count)s hand is not saved on this phone: give it to the phone that scores now.",
                "%(count)s hands are not saved on this phone: give them to the phone that scores now.",
                sample,
            )
            % {"count": "{count}"}
            for category, sample in PLURAL_SAMPLES
        },
        "hand": _("Not saved on this phone: hand %(number)s") % {"number": "{number}"},
        "copyHand": _("Hand %(number)s") % {"number": "{number}"},
        "copy": _("Copy"),
        "copied": _("Copied."),
        "selected": _("The text is selected: copy it with your phone's Copy."),
        "discard": _("Discard"),
        "askCopied": _("Copied. Remove hand %(number)s from this phone now?") % {"number": "{number}"},
        "askDiscard": _("Discard hand %(number)s? It is saved nowhere else.") % {"number": "{number}"},
        "remove": _("Remove from this phone"),
        "keep": _("Keep it"),
        "removed": _("Hand %(number)s removed from this phone.") % {"number": "{number}"},
    }
