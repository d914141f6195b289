"""The "Rules" help page: docs/rules.md in the players' words, every number read from the engine's
tables (`rules.tables.rules_numbers`) and its worked example scored by the engine."""

from __future__ import annotations

import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring.labels import MELD_LABELS
from scoring.rules import tables, worked_example

#: When the rule book behind this page last changed (shown in the reader's date format).
RULES_DATE = datetime.date(2026, 11, 29)


def rules_context() -> dict[str, Any]:
    return {
        **tables.rules_numbers(),
        "rules_date": RULES_DATE,
        "meld_labels": MELD_LABELS,
        "example": worked_example.hand_table(),
    }


@require_GET
def rules_help(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/rules.html", rules_context())
