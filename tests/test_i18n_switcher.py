"""The language switcher: a plain form that posts, remembers the choice and comes back."""

from __future__ import annotations

import re

from django.conf import settings
from django.test import Client

from tests.i18n_helpers import text_segments


def test_it_offers_each_language_named_in_itself():
    html = Client().get("/rules/", headers={"Accept-Language": "cs"}).content.decode()
    form = re.search(
        r'<form class="language-switcher" action="/i18n/setlang/" method="post">.*?</form>', html, re.S
    )
    assert form, "no language form posting to set_language"
    assert 'name="next" value="/rules/"' in form.group(0)
    assert "csrfmiddlewaretoken" in form.group(0)
    buttons = re.findall(
        r'<button type="submit" name="language" value="(\w+)" lang="\1" aria-pressed="(\w+)">([^<]+)<',
        form.group(0),
    )
    assert buttons == [("en", "false", "English"), ("sv", "false", "Svenska"), ("cs", "true", "Čeština")]


def test_it_keeps_the_query_string_in_next():
    html = Client().get("/rules/?from=menu").content.decode()
    assert 'name="next" value="/rules/?from=menu"' in html


def test_it_switches_remembers_and_redirects_back():
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "sv", "next": "/rules/"})
    assert response.status_code == 302
    assert response["Location"] == "/rules/"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "sv"
    assert cookie["max-age"] == 365 * 24 * 60 * 60  # outlives the browser session
    # The cookie wins over the browser's own preference on every later page.
    page = client.get("/rules/", headers={"Accept-Language": "cs,en;q=0.5"})
    assert '<html lang="sv">' in page.content.decode()
    assert "Regler" in text_segments(page.content.decode())


def test_it_refuses_to_redirect_to_another_site():
    response = Client().post("/i18n/setlang/", {"language": "cs", "next": "https://evil.example/"})
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_it_ignores_a_language_the_site_does_not_offer():
    client = Client()
    client.post("/i18n/setlang/", {"language": "de", "next": "/rules/"})
    assert '<html lang="en">' in client.get("/rules/").content.decode()


def test_it_needs_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    assert client.post("/i18n/setlang/", {"language": "cs", "next": "/rules/"}).status_code == 403
