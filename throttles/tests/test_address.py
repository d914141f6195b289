"""The client's address: X-Forwarded-For is believed only as far as the configured proxies."""

import pytest
from django.test import RequestFactory

from throttles.address import client_address


@pytest.mark.parametrize(
    ("hops", "forwarded", "expected"),
    [
        (0, "6.6.6.6", "192.0.2.1"),
        (1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),
        (2, "spoofed, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (1, "", "192.0.2.1"),
        (3, "203.0.113.5, 10.0.0.2", "192.0.2.1"),
    ],
)
def test_it_trusts_x_forwarded_for_only_as_far_as_the_configured_proxies(settings, hops, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = hops
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected


@pytest.mark.parametrize(
    ("remote", "expected"),
    [
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:DB8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:192.0.2.9", "192.0.2.9"),
        ("192.0.2.9", "192.0.2.9"),
        ("", ""),
    ],
)
def test_an_ipv6_client_is_counted_by_its_64_as_it_may_send_from_any_address_in_it(
    settings, remote, expected
):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_address(RequestFactory().get("/", REMOTE_ADDR=remote)) == expected
