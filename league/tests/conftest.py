"""The league pages' clients by club role: each holds its role in every club the test makes."""

import pytest


def _role_client(username: str, role: str):
    """A test client signed in as `username`, who holds `role` (a real ClubRole, not a superuser)
    in every club the test has made by the time of each request: the league tests make their clubs
    inside the test, after the fixture."""
    from django.contrib.auth.models import User
    from django.test import Client

    from clubs.models import Club, ClubRole

    user = User.objects.create_user(username, f"{username}@example.org", None)

    class RoleClient(Client):
        user: User

        def request(self, **request):
            have = ClubRole.objects.filter(user=user).values("club_id")
            ClubRole.objects.bulk_create(
                ClubRole(user=user, club_id=club_id, role=role)
                for club_id in Club.objects.exclude(pk__in=have).values_list("pk", flat=True)
            )
            return super().request(**request)

    client = RoleClient()
    client.force_login(user)
    client.user = user
    return client


@pytest.fixture
def scorer_client(db):
    """A scorer of every club the test makes (enters and imports games; no roles, merges or publishing)."""
    return _role_client("scorer", "scorer")


@pytest.fixture
def member_client(db):
    """A member of every club the test makes (reads the club's pages and games)."""
    return _role_client("member", "member")
