"""The export's season and club ids are plain digits: `?season=0_1` (or ` 1`, `１`) is refused
with a page naming the field, not read by int() as season 1."""

import pytest

from tests.league_data import small_season

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("field", ["season", "club"])
@pytest.mark.parametrize("pattern", ["0_{pk}", "+{pk}", "\uff10{pk}", "{pk}\u0660"])
def test_the_export_refuses_an_id_in_integer_syntax(people, field, pattern):
    alice = people.client("alice")
    data = small_season(people["alice"])
    value = pattern.format(pk=data[field].pk)
    response = alice.get("/league/export/games.csv", {field: value})
    assert response.status_code == 400
    page = response.content.decode()
    assert f"<strong>{field.title()}</strong>" in page
    assert "is not one of the choices (an id is written in plain digits)" in page


def test_the_export_still_takes_a_plain_id(people):
    alice = people.client("alice")
    data = small_season(people["alice"])
    response = alice.get("/league/export/games.csv", {"season": str(data["season"].pk)})
    assert response.status_code == 200
