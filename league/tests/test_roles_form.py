"""The club roles form names an account by its username: it answers the same whether the account
exists or not, and it is rate-limited per organiser and per client address, so it is no way to find
out which account names exist."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from clubs.models import ClubRole
from tests.access_helpers import CLUB, signed_in

pytestmark = pytest.mark.django_db


def _answer(client: Client, username: str) -> tuple[int, str]:
    response = client.post(
        f"/league/clubs/{CLUB}/roles/", {"username": username, "role": "member"}, follow=True
    )
    page = html.unescape(response.content.decode())
    said = page[page.index('role="status"') :].split("</")[0] if 'role="status"' in page else page
    return response.redirect_chain[0][1] if response.redirect_chain else response.status_code, said


def test_the_roles_form_answers_the_same_for_an_account_that_exists_and_one_that_does_not(people):
    alice = people.client("alice")
    exists = _answer(alice, "dave")
    missing = _answer(alice, "nobody-here")
    assert exists[0] == missing[0] == 302
    assert "Saved for dave, if there is an account with that name." in exists[1]
    assert "Saved for nobody-here, if there is an account with that name." in missing[1]
    assert exists[1].replace("dave", "X") == missing[1].replace("nobody-here", "X")
    assert ClubRole.objects.get(user=people["dave"], club_id=CLUB).role == "member"


def test_the_roles_form_is_refused_after_too_many_posts_from_one_organiser(people, settings):
    settings.ROLE_CHANGES_PER_ACCOUNT = 3
    alice = people.client("alice")
    for name in ("a1", "a2", "a3"):
        assert (
            alice.post(f"/league/clubs/{CLUB}/roles/", {"username": name, "role": "member"}).status_code
            == 302
        )
    response = alice.post(f"/league/clubs/{CLUB}/roles/", {"username": "dave", "role": "member"})
    assert response.status_code == 429
    assert "Too many role changes in a short time: nothing was saved." in html.unescape(
        response.content.decode()
    )
    assert not ClubRole.objects.filter(user=people["dave"], club_id=CLUB).exists()


def test_the_roles_form_is_refused_after_too_many_posts_from_one_address(people, settings):
    settings.ROLE_CHANGES_PER_ADDRESS = 2
    ClubRole.objects.create(user=people["dave"], club_id=CLUB, role=ClubRole.Role.ORGANISER)
    for organiser in ("alice", "dave"):
        client = signed_in(organiser, address="198.51.100.7")
        assert client.post(f"/league/clubs/{CLUB}/roles/", {"username": "x", "role": ""}).status_code == 302
    other = people.client("alice", address="198.51.100.7")
    assert other.post(f"/league/clubs/{CLUB}/roles/", {"username": "x", "role": ""}).status_code == 429
