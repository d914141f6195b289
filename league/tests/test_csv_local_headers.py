"""CSV exports: stable English column names by default, the page's language on request."""

import csv
import io

import pytest
from django.utils import translation

from clubs.models import Player
from league.csv_io.columns import GAMES_COLUMNS, HANDS_COLUMNS, local_header
from league.imports.worker import import_bytes
from scoring.models import Game
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


def header_of(client, url: str, lang: str = "cs") -> list[str]:
    response = client.get(url, headers={"Accept-Language": lang})
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return next(csv.reader(io.StringIO(text)))


def test_the_english_column_names_stay_the_default_in_any_language(people):
    client = people.client("alice")
    small_season(people["alice"])
    assert header_of(client, "/league/export/hands.csv") == HANDS_COLUMNS
    assert header_of(client, "/league/export/games.csv", "sv") == GAMES_COLUMNS


def test_headers_local_names_the_columns_in_the_pages_language(people):
    client = people.client("alice")
    small_season(people["alice"])
    czech = header_of(client, "/league/export/hands.csv?headers=local")
    assert len(czech) == len(HANDS_COLUMNS)
    assert czech[:3] == ["Hra", "Datum", "Klub"]
    assert "Hráč Sever" in czech and "Body S–J" in czech and "Body ze zdvihů V–Z" in czech
    swedish = header_of(client, "/league/export/games.csv?headers=local", "sv")
    assert swedish[0] == "Parti" and "Vinnare" in swedish


@pytest.mark.parametrize("lang", ["en", "sv", "cs"])
def test_every_column_has_a_name_of_its_own(lang):
    with translation.override(lang):
        for columns in (HANDS_COLUMNS, GAMES_COLUMNS):
            names = local_header(columns)
            assert len(set(names)) == len(columns), sorted(n for n in names if names.count(n) > 1)
            assert not set(names) & set(columns) - {"Hand"}


def test_the_export_page_offers_the_choice_and_the_english_file_still_imports(people):
    client = people.client("alice")
    small_season(people["alice"])
    page = client.get("/league/", headers={"Accept-Language": "cs"}).content.decode()
    assert 'name="headers"' in page and 'value="local"' in page and "Názvy sloupců" in page
    raw = b"".join(client.get("/league/export/hands.csv").streaming_content)
    Game.objects.all().delete()
    Player.objects.all().delete()
    report = import_bytes(raw, name="hands.csv")
    assert report.games == 3


def test_a_visitor_who_may_read_no_club_gets_an_empty_export_not_an_error(client):
    small_season()
    assert header_of(client, "/league/export/hands.csv", "en") == HANDS_COLUMNS
    response = client.get("/league/export/hands.csv")
    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert len(lines) == 1  # the header only: the season's games belong to a club this visitor is not in
