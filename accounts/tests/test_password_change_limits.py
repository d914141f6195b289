"""The password-change form's old password is counted like a login: wrong ones
spend the account's login budget, and once it is spent even the right one is refused until the
window has passed; nothing is changed meanwhile."""

import datetime

import pytest
from django.test import Client

from tests.access_helpers import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "a brand new passphrase 42"
LOCKED = "Too many wrong passwords"


@pytest.fixture
def alice_phone(people):
    return people.client("alice")


def _change(client, old):
    return client.post(
        "/accounts/password/change/", {"old_password": old, "new_password1": NEW, "new_password2": NEW}
    )


def _still_the_old_password(user) -> bool:
    user.refresh_from_db()
    return user.check_password(PASSWORD) and not user.check_password(NEW)


def test_it_refuses_even_the_right_old_password_after_five_wrong_ones(alice, alice_phone):
    for _ in range(5):
        wrong = _change(alice_phone, "guess")
        assert wrong.status_code == 200
        assert "Your old password was entered incorrectly" in wrong.content.decode()
    locked = _change(alice_phone, PASSWORD)
    assert locked.status_code == 429
    page = locked.content.decode()
    assert LOCKED in page and 'id="id_old_password_errors"' in page
    assert _still_the_old_password(alice)


def test_wrong_old_passwords_spend_the_login_budget(alice, alice_phone):
    for _ in range(5):
        _change(alice_phone, "guess")
    login = Client().post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert login.status_code == 429


def test_failed_logins_lock_the_password_change_too(alice, alice_phone):
    for _ in range(5):
        Client(REMOTE_ADDR="10.9.0.1").post("/accounts/login/", {"username": "alice", "password": "guess"})
    assert _change(alice_phone, PASSWORD).status_code == 429
    assert _still_the_old_password(alice)


def test_the_right_old_password_works_again_after_the_window(alice, alice_phone, settings, time_machine):
    for _ in range(5):
        _change(alice_phone, "guess")
    last_failure = datetime.datetime.now(tz=datetime.UTC)
    assert _change(alice_phone, PASSWORD).status_code == 429
    time_machine.move_to(last_failure + datetime.timedelta(seconds=settings.LOGIN_FAILURE_WINDOW_SECONDS + 1))
    assert _change(alice_phone, PASSWORD).status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW)
