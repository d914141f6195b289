import datetime
from unittest import mock

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_login_failed
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client, RequestFactory

from accounts.lockout import LoginAttempt, attempt_of
from tests.access_helpers import PASSWORD

pytestmark = pytest.mark.django_db


def _login(client, password, username="alice", **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def test_it_refuses_the_sixth_attempt_even_with_the_right_password(client, alice):
    for _ in range(5):
        assert _login(client, "wrong").status_code == 200
    response = _login(client, PASSWORD)
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_does_not_check_the_password_of_a_blocked_attempt(client, alice):
    for _ in range(5):
        _login(client, "wrong")
    with mock.patch("django.contrib.auth.backends.ModelBackend.authenticate") as authenticate:
        assert _login(client, PASSWORD).status_code == 429
    authenticate.assert_not_called()


def test_it_counts_a_username_whatever_its_case_or_address(alice):
    for number in range(5):
        _login(Client(REMOTE_ADDR=f"10.0.0.{number}"), "wrong", username="ALICE" if number % 2 else "alice")
    assert _login(Client(REMOTE_ADDR="10.0.0.99"), PASSWORD).status_code == 429


def test_it_lets_the_user_in_again_after_the_window(client, alice, settings, time_machine):
    window = datetime.timedelta(seconds=settings.LOGIN_FAILURE_WINDOW_SECONDS)
    for _ in range(5):
        _login(client, "wrong")
    last_failure = datetime.datetime.now(tz=datetime.UTC)
    assert _login(client, PASSWORD).status_code == 429
    time_machine.move_to(last_failure + window - datetime.timedelta(seconds=5))
    assert _login(client, PASSWORD).status_code == 429
    time_machine.move_to(last_failure + window + datetime.timedelta(seconds=1))
    assert _login(client, PASSWORD).status_code == 302


def test_it_forgets_earlier_failures_after_a_successful_login(client, alice):
    for _ in range(4):
        _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    for _ in range(4):
        assert _login(client, "wrong").status_code == 200
    assert _login(client, PASSWORD).status_code == 302


def test_it_limits_one_address_trying_many_usernames(client, alice, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for name in ("bob", "charlie", "dave"):
        _login(client, "wrong", username=name)
    assert _login(client, PASSWORD).status_code == 429
    assert _login(Client(REMOTE_ADDR="10.9.9.9"), PASSWORD).status_code == 302


def test_it_reads_the_limits_from_settings(client, alice, settings):
    settings.LOGIN_FAILURES_PER_USERNAME = 2
    _login(client, "wrong")
    _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 429


def test_it_still_sends_the_failed_login_signal_for_counted_failures(client, alice):
    received = []

    def listener(**kwargs):
        received.append(kwargs)

    user_login_failed.connect(listener)
    try:
        _login(client, "wrong")
    finally:
        user_login_failed.disconnect(listener)
    assert len(received) == 1


def _admin_login(client, password, username="root"):
    return client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password, "next": "/admin/"}
    )


def test_the_admin_login_is_limited_and_shares_the_count_with_the_site_login(client, people):
    people.superuser()
    for _ in range(3):
        assert _admin_login(client, "wrong").status_code == 200
    for _ in range(2):
        assert _login(client, "wrong", username="root").status_code == 200
    refused = _admin_login(client, PASSWORD)
    assert refused.status_code == 429
    assert "Too many failed attempts" in refused.content.decode()
    assert 'name="next" value="/admin/"' in refused.content.decode()
    assert "no-store" in refused["Cache-Control"]
    assert "_auth_user_id" not in client.session
    assert _login(Client(REMOTE_ADDR="10.7.7.7"), PASSWORD, username="root").status_code == 429


def test_forty_wrong_admin_passwords_do_not_let_the_right_one_in(client, people):
    people.superuser()
    codes = [_admin_login(client, f"guess{n}").status_code for n in range(40)]
    assert codes[:5] == [200] * 5 and set(codes[5:]) == {429}
    assert _admin_login(client, PASSWORD).status_code == 429


@pytest.mark.parametrize("variant", ["ｖｉｃｔｉｍ１", "𝐯𝐢𝐜𝐭𝐢𝐦𝟏", "VICTIM1", " victim1"])
def test_unicode_variants_of_a_username_share_its_login_budget(variant):
    User.objects.create_user("victim1", "v@example.org", PASSWORD)
    for number in range(5):
        _login(Client(REMOTE_ADDR=f"10.0.1.{number}"), "wrong", username="victim1")
    response = _login(Client(REMOTE_ADDR="10.0.2.1"), PASSWORD, username=variant)
    assert response.status_code == 429


def test_failures_under_variants_count_against_the_plain_name():
    User.objects.create_user("victim1", "v@example.org", PASSWORD)
    for number, variant in enumerate(["ｖｉｃｔｉｍ１", "𝐯𝐢𝐜𝐭𝐢𝐦𝟏", "Victim1", "ＶＩＣＴＩＭ１", "victim1"]):
        _login(Client(REMOTE_ADDR=f"10.0.3.{number}"), "wrong", username=variant)
    assert _login(Client(REMOTE_ADDR="10.0.4.1"), PASSWORD, username="victim1").status_code == 429


def test_the_right_password_from_another_address_lets_the_user_in_and_clears_the_username(alice):
    for _ in range(4):
        assert _login(Client(REMOTE_ADDR="10.0.6.1"), "wrong").status_code == 200
    assert _login(Client(REMOTE_ADDR="10.0.6.2"), PASSWORD).status_code == 302
    for _ in range(4):
        assert _login(Client(REMOTE_ADDR="10.0.6.3"), "wrong").status_code == 200
    assert _login(Client(REMOTE_ADDR="10.0.6.4"), PASSWORD).status_code == 302


def test_the_addresses_of_one_ipv6_64_share_the_address_limit(alice, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for number in range(3):
        _login(Client(REMOTE_ADDR=f"2001:db8:7:7::{number + 1}"), "wrong", username=f"nobody{number}")
    assert _login(Client(REMOTE_ADDR="2001:db8:7:7:abcd::1"), PASSWORD).status_code == 429
    assert _login(Client(REMOTE_ADDR="2001:db8:7:8::1"), PASSWORD).status_code == 302


def test_the_attempt_is_one_typed_object_on_the_request_counted_given_back_or_refused(alice):
    def request():
        made = RequestFactory().post("/accounts/login/")
        made.session = SessionStore()
        return made

    wrong = request()
    assert authenticate(wrong, username="alice", password="wrong") is None
    assert attempt_of(wrong) is wrong.login_attempt
    assert isinstance(wrong.login_attempt, LoginAttempt)
    assert wrong.login_attempt.counted_at is not None and not wrong.login_attempt.refused
    for _ in range(4):
        authenticate(request(), username="alice", password="wrong")
    refused = request()
    assert authenticate(refused, username="alice", password=PASSWORD) is None
    assert refused.login_attempt == LoginAttempt(counted_at=None, refused=True)
