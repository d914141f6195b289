"""Logins sent at the same moment, on a real database (SQLite file or PostgreSQL): no more
passwords are checked than the login limits allow, however many attempts arrive together. Each
attempt is counted before its password is checked, and the right password takes its count back."""

import contextlib
import threading
from typing import Any

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.test import Client

from tests.access_helpers import PASSWORD
from tests.helpers import at_once
from throttles import counter

pytestmark = pytest.mark.django_db(transaction=True)

AT_ONCE = 8


def _checks_meet(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password check waits (up to a moment) for the others: a password hash takes time, and
    attempts sent together are all inside it at once unless the limits kept them out."""
    checked: list[str] = []
    together = threading.Barrier(AT_ONCE)
    real = AbstractBaseUser.check_password

    def slow_check(self: AbstractBaseUser, raw: str) -> bool:
        checked.append(raw)
        with contextlib.suppress(threading.BrokenBarrierError):
            together.wait(timeout=2)
        return real(self, raw)

    monkeypatch.setattr(AbstractBaseUser, "check_password", slow_check)
    return checked


def _login(index: int, username: str = "alice", password: str | None = None) -> int:
    data = {"username": username, "password": password or f"guess{index}"}
    return Client().post("/accounts/login/", data).status_code


def test_wrong_passwords_sent_together_are_checked_no_more_often_than_the_limit(settings, monkeypatch):
    User.objects.create_user("alice", "alice@example.org", PASSWORD)
    settings.LOGIN_FAILURES_PER_USERNAME, settings.LOGIN_FAILURES_PER_ADDRESS = 3, 100
    checked = _checks_meet(monkeypatch)
    codes: list[Any] = at_once(AT_ONCE, _login)
    assert len(checked) == 3 and sorted(codes) == [200] * 3 + [429] * (AT_ONCE - 3)
    assert _login(0, password=PASSWORD) == 429


def test_guesses_at_many_usernames_together_are_held_by_the_address_limit(settings, monkeypatch):
    settings.LOGIN_FAILURES_PER_USERNAME, settings.LOGIN_FAILURES_PER_ADDRESS = 100, 3
    checked = _checks_meet(monkeypatch)
    for index in range(AT_ONCE):
        User.objects.create_user(f"user{index}", password=PASSWORD)
    codes: list[Any] = at_once(AT_ONCE, lambda index: _login(index, username=f"user{index}"))
    assert len(checked) == 3 and codes.count(429) == AT_ONCE - 3


def test_a_right_password_takes_its_count_back_so_only_failures_count(settings):
    User.objects.create_user("alice", "alice@example.org", PASSWORD)
    settings.LOGIN_FAILURES_PER_USERNAME, settings.LOGIN_FAILURES_PER_ADDRESS = 3, 3
    for _ in range(5):
        assert _login(0, password=PASSWORD) == 302
    assert _login(0) == 200 and _login(1) == 200  # two failures of the three the address may have
    limits = {"address": ("127.0.0.1", 3)}
    assert counter.counts(kind="login", limits=limits, window=settings.LOGIN_FAILURE_WINDOW_SECONDS) == {
        "address": 2
    }
