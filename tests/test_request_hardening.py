"""Request-level holes, kept as regressions: a form posted in another character set is refused,
a HEAD request is answered like a GET without a body, and number fields refuse Python's integer
syntax."""

from urllib.parse import urlencode

import pytest
from django.test import Client

from scoring.models import Game, Hand
from tests.helpers import hand_post, save_url, standard_game
from tests.hostile import FOREIGN_CHARSETS, PYTHON_INT_SYNTAX

pytestmark = pytest.mark.django_db

SETUP = {"seats": "4", "variant": "standard", "deck": "single", "first_dealer": "N", "name_N": "Anna"}


# --- character sets ------------------------------------------------------------------


@pytest.mark.parametrize("charset", FOREIGN_CHARSETS)
@pytest.mark.parametrize("path", ["/games/new", "/accounts/login/", "/i18n/setlang/"])
def test_a_form_posted_in_another_charset_gets_400(charset, path):
    codec = charset if charset != "no-such-charset" else "utf-8"
    body = urlencode(SETUP).encode(codec)
    client = Client()
    content_type = f"application/x-www-form-urlencoded; charset={charset}"
    response = client.generic("POST", path, body, content_type=content_type)
    assert response.status_code == 400
    assert "UTF-8" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("charset", ["utf-16", "latin-1", "utf-32"])
def test_a_multipart_upload_declared_in_another_charset_gets_400(charset, people):
    alice = people.client("alice")
    boundary = "hostile"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="played_on"\r\n\r\n2026-03-14\r\n'
        f"--{boundary}--\r\n"
    ).encode()
    content_type = f"multipart/form-data; boundary={boundary}; charset={charset}"
    response = alice.generic("POST", "/league/import/", body, content_type=content_type)
    assert response.status_code == 400
    assert not Game.objects.exists()


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8"])
def test_utf8_and_ascii_posts_are_read_as_before(charset):
    client = Client()
    response = client.post(
        "/games/new", urlencode(SETUP), content_type=f"application/x-www-form-urlencoded; charset={charset}"
    )
    assert response.status_code == 302
    assert Game.objects.count() == 1


# --- HEAD ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/healthz", "/", "/rules/", "/league/", "/games/new", "/accounts/login/"])
def test_head_answers_like_get_without_a_body(path):
    client = Client()
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    assert head["Content-Type"] == got["Content-Type"]
    assert int(head["Content-Length"]) == len(got.content)


def test_head_on_a_game_page_and_on_a_post_only_address(table_client):
    game = standard_game()
    assert table_client.head(f"/g/{game.code}/").status_code == 200
    assert table_client.head(f"/g/{game.code}/hands").status_code == 405  # as GET answers
    assert table_client.head("/g/no-such-game/").status_code == 404


# --- numbers in Python's syntax ------------------------------------------------------


@pytest.mark.parametrize("value", PYTHON_INT_SYNTAX)
def test_game_setup_refuses_pythons_integer_syntax(value):
    response = Client().post("/games/new", {**SETUP, "target": value})
    assert response.status_code == 200
    assert "Enter a whole number." in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("field", ["bid", "tricks_NS", "meld_N_run"])
@pytest.mark.parametrize("value", ["25_0", "+5", "٣"])
def test_a_hand_with_pythons_integer_syntax_is_refused(table_client, field, value):
    game = standard_game()
    response = table_client.post(save_url(game), hand_post(1, **{field: value}))
    assert response.status_code in (200, 400)
    assert not Hand.objects.filter(game=game).exists()


def test_plain_digits_with_blanks_around_them_still_count(table_client):
    game = standard_game()
    response = table_client.post(save_url(game), hand_post(1, bid=" 27 ", tricks_NS="15"))
    assert response.status_code == 302
    assert Hand.objects.get(game=game).data["bid"] == 27
