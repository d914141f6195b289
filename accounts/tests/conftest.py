import pytest


@pytest.fixture
def alice(people):
    """The account these tests sign up, log in and change passwords with: the persona alice."""
    return people["alice"]
