"""Ids in Python's integer syntax (`0_1`, ` 1`, full-width `１`) are refused wherever a form names a
record: `int()` would read them as another id."""

from __future__ import annotations

import pytest

from clubs.ids import MAX_ID, IdConverter, parse_id, record_id
from clubs.models import Player
from tests.league_data import small_season

pytestmark = pytest.mark.django_db

BAD = ["0_{pk}", " {pk}", "{pk} ", "+{pk}", "\uff10{pk}", "{pk}.0", "{pk}\u0663"]


def _variants(pk: int) -> list[str]:
    return [pattern.format(pk=pk) for pattern in BAD] + ["".join(chr(0xFF10 + int(d)) for d in str(pk))]


@pytest.mark.parametrize(
    "text", ["0_1", " 1", "1 ", "\uff11", "+1", "-1", "1e3", "", "1" * 20, str(MAX_ID + 1), "\u0661"]
)
def test_only_plain_digits_within_the_largest_id_name_a_record(text):
    assert record_id(text) is None


def test_plain_digits_do():
    assert record_id("0") == 0 and record_id("42") == 42 and record_id(7) == 7
    assert record_id("1" * 19) == int("1" * 19) and record_id(str(MAX_ID)) == MAX_ID


def test_an_int_past_the_largest_id_names_no_record():
    assert record_id(MAX_ID) == MAX_ID
    assert record_id(MAX_ID + 1) is None and record_id(-1) is None


@pytest.mark.parametrize("text", ["1", "1" * 19, str(MAX_ID), str(MAX_ID + 1), "9" * 19, "1" * 20, "0_1"])
def test_a_url_and_a_form_read_an_id_by_one_rule(text):
    """The `<id:...>` converter takes exactly the ids a form or a query string takes."""
    try:
        from_url: int | None = IdConverter().to_python(text)
    except ValueError:
        from_url = None
    assert from_url == parse_id(text) == record_id(text)


def test_the_roster_merge_refuses_an_id_in_integer_syntax(people):
    club = small_season(people["alice"])["club"]
    client = people.client("alice")
    keep, duplicate = Player.objects.filter(memberships__club=club).order_by("pk")[:2]
    players = Player.objects.count()
    for text in _variants(duplicate.pk):
        response = client.post(f"/clubs/{club.pk}/players/{keep.pk}/merge", {"duplicate": text})
        assert response.status_code == 400, text
        assert "is not one of the choices (an id is written in plain digits)" in response.content.decode()
    assert Player.objects.count() == players
