"""Password reset and sign-up are throttled; look-alike usernames are refused."""

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from tests.access_helpers import PASSWORD

pytestmark = pytest.mark.django_db


def _signup(client, username, email=""):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_password_reset_mails_for_one_address_stop_after_the_limit(settings, alice):
    codes = [
        Client(REMOTE_ADDR=f"10.1.0.{n}").post("/accounts/password/reset/", {"email": "alice@example.org"})
        for n in range(30)
    ]
    assert [response.status_code for response in codes[:3]] == [302] * 3
    assert {response.status_code for response in codes[3:]} == {429}
    assert len(mail.outbox) == settings.PASSWORD_RESETS_PER_EMAIL
    assert "Too many password-reset requests" in codes[-1].content.decode()


def test_one_address_asking_for_many_resets_is_stopped(client, settings):
    settings.PASSWORD_RESETS_PER_ADDRESS = 4
    codes = [
        client.post("/accounts/password/reset/", {"email": f"u{n}@example.org"}).status_code for n in range(6)
    ]
    assert codes == [302] * 4 + [429] * 2


def test_sign_ups_from_one_address_stop_after_the_limit(client, settings):
    settings.SIGNUPS_PER_ADDRESS = 5
    codes = [_signup(client, f"player{n}").status_code for n in range(7)]
    assert codes == [302] * 5 + [429] * 2
    assert User.objects.count() == 5
    assert "Too many sign-ups" in _signup(client, "player99").content.decode()


def test_it_refuses_a_username_mixing_latin_and_cyrillic(client):
    response = _signup(client, "\u043ergA")  # Cyrillic о, then Latin
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="id_username_errors"' in page
    assert "mixes Cyrillic, Latin" in page
    assert not User.objects.exists()


@pytest.mark.parametrize("lookalike", ["\u0440\u0430\u0440\u0430", "PAPA", "ｐａｐａ"])
def test_it_refuses_a_username_that_looks_like_an_existing_one(client, lookalike):
    User.objects.create_user("papa", "", PASSWORD)
    response = _signup(client, lookalike)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="id_username_errors"' in page
    assert "looks like an existing one" in page or "already exists" in page
    assert User.objects.count() == 1


def test_it_accepts_a_name_in_one_alphabet_with_accents(client):
    assert _signup(client, "Jiří").status_code == 302
    assert _signup(Client(), "Пётр").status_code == 302


def test_sign_ups_from_one_ipv6_64_share_one_budget(client, settings):
    settings.SIGNUPS_PER_ADDRESS, settings.SIGNUPS_PER_USERNAME = 2, 100
    codes = [
        client.post(
            "/accounts/signup/",
            {
                "username": f"newbie{n}",
                "password1": "a long pass phrase 99",
                "password2": "a long pass phrase 99",
            },
            REMOTE_ADDR=f"2001:db8::{n + 1:x}",
        ).status_code
        for n in range(4)
    ]
    assert codes == [302, 302, 429, 429]
