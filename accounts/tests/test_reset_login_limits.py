"""`manage.py reset_login_limits`: an operator lets a refused player log in again at once."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tests.access_helpers import PASSWORD

pytestmark = pytest.mark.django_db


def _login(client, password, username="alice"):
    return client.post("/accounts/login/", {"username": username, "password": password})


def _reset(*args):
    out = io.StringIO()
    call_command("reset_login_limits", *args, stdout=out)
    return out.getvalue()


def test_clearing_a_username_lets_its_owner_in_at_once(alice):
    for number in range(5):
        _login(Client(REMOTE_ADDR=f"10.0.5.{number}"), "wrong")
    assert _login(Client(REMOTE_ADDR="10.0.5.9"), PASSWORD).status_code == 429
    assert "cleared 1 login counts" in _reset("--username", "ALICE")
    assert _login(Client(REMOTE_ADDR="10.0.5.9"), PASSWORD).status_code == 302


def test_clearing_an_ipv6_address_clears_its_whole_64(alice, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 2
    for number in (1, 2):
        _login(Client(REMOTE_ADDR=f"2001:db8:1:2::{number}"), "wrong", username=f"nobody{number}")
    phone = Client(REMOTE_ADDR="2001:db8:1:2::ffff")
    assert _login(phone, PASSWORD).status_code == 429
    _reset("--address", "2001:db8:1:2::abcd")
    assert _login(phone, PASSWORD).status_code == 302


def test_all_clears_every_login_count(alice, client):
    for _ in range(5):
        _login(client, "wrong")
    _reset("--all")
    assert _login(client, PASSWORD).status_code == 302


@pytest.mark.parametrize("args", [(), ("--all", "--username", "alice")])
def test_it_asks_what_to_clear_and_clears_nothing_else(alice, client, args):
    for _ in range(5):
        _login(client, "wrong")
    with pytest.raises(CommandError, match="--username"):
        _reset(*args)
    assert _login(client, PASSWORD).status_code == 429
