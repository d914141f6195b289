"""Look-alike usernames in one alphabet: a sign-up that reads like an existing account's name
(capital I for l, rn for m, 0 for o, 1 for l) is refused with a message on the username field."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from core.lookalike import looks_alike
from tests.access_helpers import PASSWORD


def _signup(client: Client, username: str):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )


LOOK_ALIKES = [
    ("alice", "aIice"),  # capital I for a small l
    ("alice", "AIice"),  # ... and reads as "Alice"
    ("modern", "rnodern"),  # r n for m
    ("rnodern", "modern"),
    ("bob", "b0b"),  # zero for o
    ("b0b", "bob"),
    ("alice", "a1ice"),  # one for l
    ("william", "vvilliam"),  # v v for w
]


@pytest.mark.django_db
@pytest.mark.parametrize(("existing", "wanted"), LOOK_ALIKES)
def test_it_refuses_a_sign_up_that_reads_like_an_existing_name(existing, wanted):
    User.objects.create_user(existing, "", PASSWORD)
    response = _signup(Client(), wanted)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="id_username_errors"' in page
    assert "looks like an existing one" in page
    assert list(User.objects.values_list("username", flat=True)) == [existing]


@pytest.mark.django_db
def test_it_still_refuses_a_name_mixing_alphabets():
    response = _signup(Client(), "\u043elga")  # Cyrillic о, then Latin
    assert "mixes Cyrillic, Latin" in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("existing", "wanted"), [("all", "ali"), ("ian", "lan"), ("dave", "clave"), ("Jiri", "Jiří")]
)
def test_it_accepts_a_name_that_only_resembles_another(existing, wanted):
    User.objects.create_user(existing, "", PASSWORD)
    assert _signup(Client(), wanted).status_code == 302
    assert User.objects.filter(username=wanted).exists()


def test_a_capital_i_reads_as_l_but_a_small_i_does_not():
    assert looks_alike("Ian", "lan")
    assert looks_alike("Ian", "ian")
    assert not looks_alike("ian", "lan")
