"""Large text and high contrast on this phone: a plain form (no JavaScript) posts to /display, which
keeps the choice in a cookie and goes back; every page then carries the modes' classes on <html>."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def html_classes(client: Client, path: str = "/rules/") -> str:
    page = client.get(path).content.decode()
    start = page.index("<html")
    return page[start : page.index(">", start)]


def test_it_turns_large_text_on_remembers_it_and_goes_back():
    phone = Client()
    assert "class=" not in html_classes(phone)
    response = phone.post("/display", {"large": "1", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    cookie = response.cookies["display"]
    assert cookie.value == "large" and cookie["max-age"] == 60 * 60 * 24 * 365 and cookie["httponly"]
    assert 'class="text-large"' in html_classes(phone)
    phone.post("/display", {"contrast": "1", "next": "/rules/"})
    assert 'class="contrast-high text-large"' in html_classes(phone)
    phone.post("/display", {"large": "0", "next": "/rules/"})
    assert 'class="contrast-high"' in html_classes(phone)
    phone.post("/display", {"contrast": "0", "next": "/rules/"})
    assert "class=" not in html_classes(phone)


def test_the_footer_shows_each_switch_and_its_state():
    phone = Client()
    page = phone.get("/rules/").content.decode()
    assert 'name="large" value="1" aria-pressed="false">Large text</button>' in page
    phone.post("/display", {"large": "1", "next": "/"})
    page = phone.get("/rules/").content.decode()
    assert 'name="large" value="0" aria-pressed="true">Large text</button>' in page
    assert 'name="contrast" value="1" aria-pressed="false">High contrast</button>' in page


def test_it_goes_back_only_to_this_site_and_ignores_unknown_words():
    phone = Client()
    response = phone.post("/display", {"large": "1", "next": "https://elsewhere.example/"})
    assert response["Location"] == "/"
    phone.cookies["display"] = "huge-<script>-contrast"
    assert 'class="contrast-high"' in html_classes(phone)


def test_it_is_a_post_only():
    assert Client().get("/display").status_code == 405
