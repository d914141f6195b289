import pytest

from clubs.models import Club, Season
from tests.access_helpers import CLUB
from tests.ledger_helpers import roster


@pytest.fixture
def club(people):
    return Club.objects.get(pk=CLUB)


@pytest.fixture
def season(club):
    import datetime

    return Season.objects.create(
        club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31)
    )


@pytest.fixture
def four(club):
    """Anna, Bo, Cleo and Dan on the club's roster."""
    return roster(club, "Anna", "Bo", "Cleo", "Dan")
