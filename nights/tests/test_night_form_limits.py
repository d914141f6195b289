"""An organiser's figures for a bye are bounded: a huge number of points or chips is refused on the
form with a message naming the field, nothing is written, and the page never fails."""

from __future__ import annotations

import pytest

from nights.models import Night
from tests.access_helpers import CLUB
from tests.helpers import text

pytestmark = pytest.mark.django_db

NIGHT = {
    "played_on": "2026-11-05", "variant": "check", "deck": "single", "rounds": "3",
    "round_ends": "game", "leftovers": "bye", "bye_compensation": "fixed",
    "bye_points": "20", "bye_chips": "2",
}  # fmt: skip


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("bye_points", "Points for a bye: at most 1000000."),
        ("bye_chips", "Chips for a bye: at most 1000000."),
    ],
)
def test_a_huge_figure_for_a_bye_is_refused_naming_the_field(people, field, message):
    alice = people.organiser_of(CLUB)
    page = alice.post(f"/nights/clubs/{CLUB}/new", {**NIGHT, field: "9" * 25})
    assert page.status_code == 400
    assert message in text(page)
    assert not Night.objects.exists()
