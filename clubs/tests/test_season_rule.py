"""The one rule of filing in a season: the season is the club's, and the date lies in it, its first
and last day included; the club is asked first."""

from __future__ import annotations

import datetime

import pytest

from clubs.models import Club, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def spring() -> Season:
    club = Club.objects.create(name="Klubben")
    return Season.objects.create(
        club=club, name="Vår", starts_on=datetime.date(2026, 3, 1), ends_on=datetime.date(2026, 5, 31)
    )


def test_the_first_and_last_day_lie_in_the_season(spring: Season) -> None:
    for day in (spring.starts_on, datetime.date(2026, 4, 15), spring.ends_on):
        assert spring.refuses(club=spring.club, on=day) is None


def test_a_day_before_or_after_is_refused_on_the_date_naming_the_season(spring: Season) -> None:
    assert spring.refuses(on=datetime.date(2026, 2, 28)) == (
        "played_on",
        "The date 2026-02-28 is outside season Vår (2026-03-01 – 2026-05-31).",
    )
    refusal = spring.refuses(on=datetime.date(2026, 6, 1))
    assert refusal is not None and refusal[0] == "played_on"


def test_another_clubs_season_is_refused_before_its_dates(spring: Season) -> None:
    other = Club.objects.create(name="Grannarna")
    assert spring.refuses(club=other, on=datetime.date(2027, 1, 1)) == (
        "season",
        "The season belongs to another club.",
    )


def test_nothing_asked_nothing_refused(spring: Season) -> None:
    assert spring.refuses() is None
