"""A form posted in another character set to an address that names nothing (a NUL in the path)
gets 400, not a 500: the 404 page's CSRF check read the body Django cannot decode (found by
bench/fuzz against gunicorn, where CSRF is enforced)."""

import pytest
from django.test import Client

from tests.hostile import FOREIGN_CHARSETS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("charset", FOREIGN_CHARSETS)
@pytest.mark.parametrize("path", ["/g/%00/hands", "/g/%00/preview", "/no/such/page%00"])
def test_a_foreign_charset_post_to_a_path_with_a_nul_gets_400(charset, path):
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = "a" * 32  # a browser that opened a page before has one
    body = "number=2&bid=27".encode("utf-16")
    content_type = f"application/x-www-form-urlencoded; charset={charset}"
    response = client.generic("POST", path, body, content_type=content_type)
    assert response.status_code == 400
    assert "UTF-8" in response.content.decode()


def test_a_utf8_post_to_a_path_with_a_nul_is_still_not_found():
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    assert client.post("/g/%00/hands", {"number": "2"}).status_code in (403, 404)
