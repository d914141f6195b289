"""Logins sent at the same moment, on a real database (SQLite file or PostgreSQL): no more
passwords are checked than the login limits allow, however many attempts arrive together. Each
attempt is counted before its password is checked, and the right password takes its count back."""

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


class _Meeting:
    """The AT_ONCE attempts sent together meet in the password check: each check waits until every
    attempt is inside a check or answered (a password hash takes time, and attempts sent together
    are all inside it at once unless the limits kept them out). `checked`: the passwords checked."""

    def __init__(self) -> None:
        self.checked: list[str] = []
        self.answered = 0
        self.changed = threading.Condition()

    def _all_in(self) -> bool:
        return len(self.checked) + self.answered >= AT_ONCE

    def check(self, real: Any, user: AbstractBaseUser, raw: str) -> bool:
        with self.changed:
            self.checked.append(raw)
            self.changed.notify_all()
            assert self.changed.wait_for(self._all_in, timeout=30), "an attempt never arrived"
        return bool(real(user, raw))

    def attempt(self, work: Any) -> Any:
        """`work(index)`, counted as answered when it returns."""

        def sent(index: int) -> Any:
            try:
                return work(index)
            finally:
                with self.changed:
                    self.answered += 1
                    self.changed.notify_all()

        return sent


def _checks_meet(monkeypatch: pytest.MonkeyPatch) -> _Meeting:
    meeting = _Meeting()
    real = AbstractBaseUser.check_password
    monkeypatch.setattr(AbstractBaseUser, "check_password", lambda user, raw: meeting.check(real, user, raw))
    return meeting


def _login(index: int, username: str = "alice", password: str | None = None) -> int:
    data = {"username": username, "password": password or f"guess{index}"}
    return Client().post("/accounts/login/", data).status_code


@pytest.mark.usefixtures("people")  # alice
def test_wrong_passwords_sent_together_are_checked_no_more_often_than_the_limit(settings, monkeypatch):
    settings.LOGIN_FAILURES_PER_USERNAME, settings.LOGIN_FAILURES_PER_ADDRESS = 3, 100
    meeting = _checks_meet(monkeypatch)
    codes: list[Any] = at_once(AT_ONCE, meeting.attempt(_login))
    assert len(meeting.checked) == 3 and sorted(codes) == [200] * 3 + [429] * (AT_ONCE - 3)
    assert _login(0, password=PASSWORD) == 429


def test_guesses_at_many_usernames_together_are_held_by_the_address_limit(settings, monkeypatch):
    settings.LOGIN_FAILURES_PER_USERNAME, settings.LOGIN_FAILURES_PER_ADDRESS = 100, 3
    meeting = _checks_meet(monkeypatch)
    for index in range(AT_ONCE):
        User.objects.create_user(f"user{index}", password=PASSWORD)
    codes: list[Any] = at_once(AT_ONCE, meeting.attempt(lambda index: _login(index, username=f"user{index}")))
    assert len(meeting.checked) == 3 and codes.count(429) == AT_ONCE - 3


@pytest.mark.usefixtures("people")  # alice
def test_a_right_password_takes_its_count_back_so_only_failures_count(settings):
    settings.LOGIN_FAILURES_PER_USERNAME, settings.LOGIN_FAILURES_PER_ADDRESS = 3, 3
    for _ in range(5):
        assert _login(0, password=PASSWORD) == 302
    assert _login(0) == 200 and _login(1) == 200  # two failures of the three the address may have
    limits = {"address": ("127.0.0.1", 3)}
    assert counter.counts(kind="login", limits=limits, window=settings.LOGIN_FAILURE_WINDOW_SECONDS) == {
        "address": 2
    }
