"""Dates as each language's readers write them (pinochle_site/formats/): English never as 03/01/2026,
Swedish "1 mars 2026", Czech "1. 3. 2026"; the date inputs and the CSV files stay ISO 8601."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import translation
from django.utils.formats import date_format

from tests.i18n_helpers import text_segments
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


def page_text(client: Client, path: str, lang: str) -> str:
    response = client.get(path, headers={"Accept-Language": lang})
    assert response.status_code == 200
    return " ".join(text_segments(response.content.decode()))


@pytest.mark.parametrize(
    ("lang", "season_dates", "first_game"),
    [
        ("en", "1 Mar 2026 – 31 May 2026", "2 Mar 2026"),
        ("sv", "1 mars 2026 – 31 maj 2026", "2 mars 2026"),
        ("cs", "1. 3. 2026 – 31. 5. 2026", "2. 3. 2026"),
    ],
)
def test_the_club_page_writes_its_dates_in_the_readers_language(people, lang, season_dates, first_game):
    alice = people.client("alice")
    data = small_season(people["alice"])
    text = page_text(alice, f"/league/clubs/{data['club'].pk}/", lang)
    assert season_dates in text
    assert first_game in text
    assert "03/01/2026" not in text and "2026-03-01" not in text
    assert season_dates in page_text(alice, f"/league/seasons/{data['season'].pk}/", lang)


@pytest.mark.parametrize(
    ("lang", "long", "short", "moment"),
    [
        ("en", "1 September 2026", "1 Sep 2026", "1 Sep 2026, 19:05"),
        ("sv", "1 september 2026", "1 sep 2026", "1 sep 2026 19:05"),
        ("cs", "1. září 2026", "1. 9. 2026", "1. 9. 2026 19:05"),
    ],
)
def test_each_language_has_a_long_a_short_and_a_dated_time_format(lang, long, short, moment):
    day = datetime.date(2026, 9, 1)
    with translation.override(lang):
        assert date_format(day, "DATE_FORMAT") == long
        assert date_format(day, "SHORT_DATE_FORMAT") == short
        assert date_format(datetime.datetime(2026, 9, 1, 19, 5), "DATETIME_FORMAT") == moment


def test_czech_writes_a_months_name_in_the_genitive_after_the_day():
    with translation.override("cs"):
        assert date_format(datetime.date(2026, 1, 5), "DATE_FORMAT") == "5. ledna 2026"
        assert date_format(datetime.date(2026, 1, 5), "YEAR_MONTH_FORMAT") == "leden 2026"


@pytest.mark.parametrize("lang", ["en", "sv", "cs"])
def test_the_season_form_fills_its_date_inputs_in_iso_in_every_language(people, lang):
    """A date input shows nothing when its value is not ISO: Czech used to send "01.03.2026", so an
    organiser correcting a season's name would have found both dates empty."""
    alice = people.client("alice")
    data = small_season(people["alice"])
    season = data["season"]
    html = alice.get(
        f"/clubs/{data['club'].pk}/seasons/{season.pk}/", headers={"Accept-Language": lang}
    ).content.decode()
    assert 'type="date"' in html
    assert 'value="2026-03-01"' in html and 'value="2026-05-31"' in html


@pytest.mark.parametrize("lang", ["en", "sv", "cs"])
def test_the_games_csv_keeps_iso_dates_in_every_language(people, lang):
    alice = people.client("alice")
    small_season(people["alice"])
    body = b"".join(
        alice.get("/league/export/games.csv", headers={"Accept-Language": lang}).streaming_content
    ).decode()
    assert ",2026-03-02," in body and ",2026-03-16," in body
