"""What the club-night tests share: the organiser's client, and the evening a browser test's night
is held on."""

import datetime
import zoneinfo

import pytest
from django.test import Client

#: The evening of the browser tests' club nights, in the site's time zone.
CLUB_EVENING = datetime.datetime(2026, 3, 12, 19, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Stockholm"))


@pytest.fixture
def alice(people) -> Client:
    """alice's client: she organises CLUB, where the nights are held (the root conftest's personas)."""
    client: Client = people.client("alice")
    return client


@pytest.fixture
def club_evening(time_machine) -> datetime.date:
    """The test and the live server (a thread of this process) read the clock at CLUB_EVENING, the
    clock still running: "today" (a new night's date, a payment's) is that day, whatever the real
    date. The browser keeps the real clock; the server's cookies last by their Max-Age."""
    time_machine.move_to(CLUB_EVENING, tick=True)
    return CLUB_EVENING.date()
