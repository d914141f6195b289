from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_login_failed
from django.test import Client, RequestFactory

from accounts import ratelimit
from testing.access_helpers import PASSWORD, fast_password_hashing  # noqa: F401 (autouse fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return User.objects.create_user("alice", "alice@example.org", PASSWORD)


@pytest.fixture
def clock(monkeypatch):
    """The rate limit's clock, moved by hand: clock.now += 60."""

    class Clock:
        now = 1_800_000_000.0

    monkeypatch.setattr(ratelimit, "now", lambda: Clock.now)
    return Clock


def _login(client, password, username="alice", **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def test_it_refuses_the_sixth_attempt_even_with_the_right_password(client, alice, clock):
    for _ in range(5):
        assert _login(client, "wrong").status_code == 200
    response = _login(client, PASSWORD)
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_does_not_check_the_password_of_a_blocked_attempt(client, alice, clock):
    for _ in range(5):
        _login(client, "wrong")
    with mock.patch("django.contrib.auth.forms.authenticate") as authenticate:
        _login(client, PASSWORD)
    authenticate.assert_not_called()


def test_it_counts_a_username_whatever_its_case_or_address(alice, clock):
    for number in range(5):
        _login(Client(REMOTE_ADDR=f"10.0.0.{number}"), "wrong", username="ALICE" if number % 2 else "alice")
    assert _login(Client(REMOTE_ADDR="10.0.0.99"), PASSWORD).status_code == 429


def test_it_lets_the_user_in_again_after_the_window(client, alice, clock):
    for _ in range(5):
        _login(client, "wrong")
    clock.now += 14 * 60
    assert _login(client, PASSWORD).status_code == 429
    clock.now += 61
    assert _login(client, PASSWORD).status_code == 302


def test_it_forgets_earlier_failures_after_a_successful_login(client, alice, clock):
    for _ in range(4):
        _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    for _ in range(4):
        assert _login(client, "wrong").status_code == 200
    assert _login(client, PASSWORD).status_code == 302


def test_it_limits_one_address_trying_many_usernames(client, alice, clock, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for name in ("bob", "charlie", "dave"):
        _login(client, "wrong", username=name)
    assert _login(client, PASSWORD).status_code == 429
    assert _login(Client(REMOTE_ADDR="10.9.9.9"), PASSWORD).status_code == 302


def test_it_reads_the_limits_from_settings(client, alice, clock, settings):
    settings.LOGIN_FAILURES_PER_USERNAME = 2
    _login(client, "wrong")
    _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 429


def test_it_still_sends_the_failed_login_signal_for_counted_failures(client, alice, clock):
    received = []

    def listener(**kwargs):
        received.append(kwargs)

    user_login_failed.connect(listener)
    try:
        _login(client, "wrong")
    finally:
        user_login_failed.disconnect(listener)
    assert len(received) == 1


@pytest.mark.parametrize(
    ("hops", "forwarded", "expected"),
    [
        (0, "6.6.6.6", "192.0.2.1"),
        (1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),
        (2, "spoofed, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (1, "", "192.0.2.1"),
    ],
)
def test_it_trusts_x_forwarded_for_only_as_far_as_the_configured_proxies(settings, hops, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = hops
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert ratelimit.client_address(request) == expected
