"""What the club-night tests share: the organiser's client."""

import pytest
from django.test import Client


@pytest.fixture
def alice(people) -> Client:
    """alice's client: she organises CLUB, where the nights are held (the root conftest's personas)."""
    client: Client = people.client("alice")
    return client
